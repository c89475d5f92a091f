//! The specify workflow (seed 004): `specs/<feature>/.workflow/index.md` as a document, kept
//! as the file of record that people edit too (docs/specify.md): the markdown read into its
//! tables and written back changing only what changed, the priority loop and the gap queue,
//! and the lexical checks of an agent's artifacts.

pub(crate) mod artifacts;
mod case;
mod cells;
mod edit;
pub mod layout;
mod machines;
mod markdown;
pub mod op_shapes;
mod progress;
mod queue;
mod render;
pub mod shapes;
mod updates;
mod validate;
mod view;
mod write;

pub use artifacts::{check_artifacts, check_path, MAX_NAME_BYTES, MAX_PATH_BYTES};
pub use machines::{gap_machine, loop_machine};
pub use markdown::{lacks, parse_markdown, row_cells};
pub use progress::{
    check_termination, end_iteration, resume_point, set_loop_status, start, STALE_WARNING,
};
pub use queue::{
    add_gaps, gap_number, next_clarifications, queue_order, set_gap_status, start_clarifying,
    MAX_CLARIFICATIONS,
};
pub use render::render_markdown;
pub use updates::apply_state_updates;
pub use validate::{validate_index, MAX_ITERATIONS, STALE_LIMIT};
pub use view::{locate, parse_index, parse_index_for_update};
pub use write::{render_index, write_index};
