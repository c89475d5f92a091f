//! The global allocator of the wasm module: small blocks from free lists by size class, the
//! rest from the standard allocator (dlmalloc), which grows the linear memory geometrically.
//!
//! - **Size classes** (docs/performance.md § Allocation): a document is hundreds of small
//!   blocks (strings, vectors, map entries) allocated and freed in every call; dlmalloc spent
//!   ~15 % of an update on them. Blocks of up to [`MAX_SMALL`] bytes are rounded up to a
//!   multiple of 16 and kept, once freed, on a free list of their class (a singly linked list
//!   threaded through the free blocks): allocation pops, freeing pushes. Freed small blocks are
//!   never given back to dlmalloc, so the memory they hold is the peak of small blocks in use.
//! - **Geometric growth** (§ Scale): V8 answers every `memory.grow` with a full garbage
//!   collection of the JS heap, and dlmalloc grows memory by what each allocation needs, so a
//!   call building a 3 MiB document grew it hundreds of times and, with a large JS heap alive,
//!   took time quadratic in the size (32 s for a 3 MiB `merge`). Whenever dlmalloc has just
//!   grown the memory, as much again (at most [`MAX_STEP`]) is allocated and freed at once: it
//!   stays in dlmalloc's top chunk (wasm memory is never given back), so the next growth comes
//!   when the memory has doubled, O(log n) times per call.
//!
//! The module is single-threaded (no wasm threads): the lists are plain cells behind a
//! `Sync` wrapper that is sound only there.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The largest single step of growth ahead of need: 64 MiB.
const MAX_STEP: usize = 64 * 1024 * 1024;
/// The size of a wasm page.
const PAGE: usize = 64 * 1024;
/// The size and alignment unit of the classes.
const UNIT: usize = 16;
/// The largest block served from a class.
const MAX_SMALL: usize = 512;
/// The number of classes (16, 32, ..., 512 bytes).
const CLASSES: usize = MAX_SMALL / UNIT;

/// Size classes over dlmalloc, with memory grown geometrically (see the module's comment).
pub struct Allocator {
    heads: Lists,
}

/// The head of each class's free list (0: empty).
struct Lists([Cell<usize>; CLASSES]);

// SAFETY: wasm32-unknown-unknown without the atomics feature has one thread; this module is
// compiled for wasm32 only (lib.rs).
unsafe impl Sync for Lists {}

impl Allocator {
    /// An allocator with empty lists.
    pub const fn new() -> Allocator {
        #[allow(clippy::declare_interior_mutable_const)] // only to fill the array below
        const EMPTY: Cell<usize> = Cell::new(0);
        Allocator {
            heads: Lists([EMPTY; CLASSES]),
        }
    }
}

/// The class index of a layout served from a free list.
fn class_of(layout: Layout) -> Option<usize> {
    if layout.size() == 0 || layout.size() > MAX_SMALL || layout.align() > UNIT {
        return None;
    }
    Some(layout.size().saturating_sub(1) / UNIT)
}

/// The layout of every block of class `class`.
fn class_layout(class: usize) -> Option<Layout> {
    Layout::from_size_align(class.saturating_add(1).saturating_mul(UNIT), UNIT).ok()
}

/// The size of the memory, in pages.
fn pages() -> usize {
    core::arch::wasm32::memory_size(0)
}

/// After an allocation that grew the memory from `before` pages: reserve as much again.
///
/// # Safety
/// Called from the allocator's own methods only.
unsafe fn grow_ahead(before: usize) {
    let now = pages();
    if now == before {
        return;
    }
    let step = now.saturating_mul(PAGE).min(MAX_STEP);
    if let Ok(layout) = Layout::from_size_align(step, UNIT) {
        // SAFETY: a fresh allocation of a non-zero size, freed with its own layout.
        unsafe {
            let block = System.alloc(layout);
            if !block.is_null() {
                System.dealloc(block, layout);
            }
        }
    }
}

/// dlmalloc's allocation of `layout`, growing memory ahead when it grew.
///
/// # Safety
/// As [`GlobalAlloc::alloc`].
unsafe fn system_alloc(layout: Layout) -> *mut u8 {
    let before = pages();
    // SAFETY: the caller's contract, forwarded.
    unsafe {
        let block = System.alloc(layout);
        grow_ahead(before);
        block
    }
}

// SAFETY: a block of class c is only ever handed out for layouts of class c (size ≤ the
// class size, alignment ≤ 16, which dlmalloc gives every block of the class layout), and is
// put back on the list of the class of the layout it is freed with, which is the same class;
// a block on a free list is not in use, so its first word may hold the link.
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if let Some(class) = class_of(layout) {
            if let Some(head) = self.heads.0.get(class) {
                let block = head.get();
                if block != 0 {
                    // SAFETY: `block` is a free block of this class; its first word is the
                    // next free block (written by `dealloc`).
                    head.set(unsafe { (block as *const usize).read() });
                    return block as *mut u8;
                }
                if let Some(whole) = class_layout(class) {
                    // SAFETY: a non-zero size.
                    return unsafe { system_alloc(whole) };
                }
            }
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { system_alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if let Some(head) = class_of(layout).and_then(|class| self.heads.0.get(class)) {
            // SAFETY: `ptr` is a block of this class the caller no longer uses; it is at
            // least 16 bytes and 16-aligned, so it holds the link.
            unsafe { (ptr as *mut usize).write(head.get()) };
            head.set(ptr as usize);
            return;
        }
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let small = class_of(layout);
        let new_layout = match Layout::from_size_align(new_size, layout.align()) {
            Ok(new_layout) => new_layout,
            Err(_) => return std::ptr::null_mut(),
        };
        if small.is_none() && class_of(new_layout).is_none() {
            let before = pages();
            // SAFETY: the caller's contract, forwarded (both blocks are dlmalloc's).
            unsafe {
                let block = System.realloc(ptr, layout, new_size);
                grow_ahead(before);
                return block;
            }
        }
        if small.is_some() && small == class_of(new_layout) {
            return ptr; // the block already has room
        }
        // SAFETY: a new block, the old contents copied, the old block freed: the contract
        // of realloc.
        unsafe {
            let block = self.alloc(new_layout);
            if !block.is_null() {
                std::ptr::copy_nonoverlapping(ptr, block, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            block
        }
    }
}
