//! The global allocator of the wasm module: the standard one (dlmalloc), growing the linear
//! memory geometrically instead of 64 KiB at a time.
//!
//! Why (docs/performance.md § Scale): V8 answers every `memory.grow` with a full garbage
//! collection of the JS heap. dlmalloc grows memory by what each allocation needs, so a call
//! that builds a 3 MiB document grew it hundreds of times, and with a large JS heap alive each
//! growth cost a full collection: calls took time quadratic in the document size (32 s for a
//! 3 MiB `merge`). Here, whenever dlmalloc has just grown the memory, as much again is
//! allocated and freed at once (capped at [`MAX_STEP`]): the freed block stays in dlmalloc's
//! top chunk (wasm memory is never given back), so the next growth comes only when the memory
//! has doubled, and a call grows it O(log n) times. Nothing else changes: every allocation is
//! still dlmalloc's. (Built for wasm32 only: natively the system allocator is used as is.)

use std::alloc::{GlobalAlloc, Layout, System};

/// The largest single step of growth ahead of need: 64 MiB.
const MAX_STEP: usize = 64 * 1024 * 1024;
/// The size of a wasm page.
const PAGE: usize = 64 * 1024;

/// dlmalloc, with memory grown geometrically (see the module's comment).
pub struct Geometric;

/// The size of the memory, in pages.
fn pages() -> usize {
    core::arch::wasm32::memory_size(0)
}

impl Geometric {
    /// After an allocation that grew the memory from `before` pages: reserve as much again.
    ///
    /// # Safety
    /// Called from the allocator's own methods only, with no allocation outstanding here.
    unsafe fn grow_ahead(before: usize) {
        let now = pages();
        if now == before {
            return;
        }
        let step = now.saturating_mul(PAGE).min(MAX_STEP);
        if let Ok(layout) = Layout::from_size_align(step, 16) {
            // SAFETY: a fresh allocation of a non-zero size, freed with its own layout.
            unsafe {
                let block = System.alloc(layout);
                if !block.is_null() {
                    System.dealloc(block, layout);
                }
            }
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments; `grow_ahead` only
// allocates and frees a block of its own.
unsafe impl GlobalAlloc for Geometric {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let before = pages();
        // SAFETY: the caller's contract, forwarded.
        unsafe {
            let block = System.alloc(layout);
            Self::grow_ahead(before);
            block
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let before = pages();
        // SAFETY: the caller's contract, forwarded.
        unsafe {
            let block = System.alloc_zeroed(layout);
            Self::grow_ahead(before);
            block
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let before = pages();
        // SAFETY: the caller's contract, forwarded.
        unsafe {
            let block = System.realloc(ptr, layout, new_size);
            Self::grow_ahead(before);
            block
        }
    }
}
