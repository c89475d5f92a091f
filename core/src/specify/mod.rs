//! The specify workflow (seed 004): `specs/<feature>/.workflow/index.md` as a document, kept
//! as the file of record that people edit too (docs/specify.md). This first part reads the
//! markdown into text blocks and tables and renders it back byte for byte.

mod markdown;
mod render;
pub mod shapes;

pub use markdown::{parse_markdown, row_cells};
pub use render::render_markdown;
