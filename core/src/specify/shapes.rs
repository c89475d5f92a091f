//! The values of the specify operations, described once (`crate::shape`): the generated
//! TypeScript and Python types come from here.

use crate::shape::{Field, Shape, Ty};

/// A table row.
pub static ROW: Shape = Shape::exact(
    "SpecifyRow",
    "A table row: its cells (trimmed, an escaped pipe read as `|`) and its line as written (absent for a \
     new row).",
    &[
        Field::req("cells", Ty::List(&Ty::Str), "The cells, in column order."),
        Field::opt(
            "raw",
            Ty::Str,
            "The line as written, with its line break: kept while the cells are its cells.",
        ),
    ],
);

/// A GFM pipe table.
pub static TABLE: Shape = Shape::exact(
    "SpecifyTable",
    "A pipe table of index.md, with the section it is in.",
    &[
        Field::req("line", Ty::Whole(1), "The line of its header row."),
        Field::req(
            "section",
            Ty::Nullable(&Ty::Str),
            "The `#`/`##` heading above it.",
        ),
        Field::req(
            "subsection",
            Ty::Nullable(&Ty::Str),
            "The deeper heading above it within its section.",
        ),
        Field::req("columns", Ty::List(&Ty::Str), "The header's cells."),
        Field::req("header", Ty::Str, "The header line as written."),
        Field::req("delimiter", Ty::Str, "The delimiter line as written."),
        Field::req("rows", Ty::List(&Ty::Object(&ROW)), "The rows, in order."),
    ],
);

/// Lines kept as they are.
pub static TEXT_BLOCK: Shape = Shape::exact(
    "SpecifyTextBlock",
    "Lines that are not a table, kept as written.",
    &[Field::req(
        "text",
        Ty::Str,
        "The lines, with their line breaks.",
    )],
);

/// A table block.
pub static TABLE_BLOCK: Shape = Shape::exact(
    "SpecifyTableBlock",
    "A table.",
    &[Field::req("table", Ty::Object(&TABLE), "The table.")],
);

/// `index.md` as a document.
pub static MARKDOWN: Shape = Shape::exact(
    "SpecifyMarkdown",
    "index.md as text blocks and tables, in order: rendered back byte for byte.",
    &[Field::req(
        "blocks",
        Ty::List(&Ty::Union(&[
            Ty::Object(&TEXT_BLOCK),
            Ty::Object(&TABLE_BLOCK),
        ])),
        "The blocks, in order.",
    )],
);
