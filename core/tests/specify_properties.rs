//! Property tests of index.md as a document: any text, and texts made of headings, tables,
//! rows with escaped pipes and stray lines (LF or CRLF), render back byte for byte from their
//! document; a row whose cells change is written so that it reads back as those cells, and
//! every other line stays as it was.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use proptest::prelude::*;
use statecore::specify::{parse_markdown, render_markdown};
use statecore::Value;

/// A cell's text: words, escaped pipes, inline code, unicode.
fn cell() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("G-001".to_owned()),
            Just("\\|".to_owned()),
            Just("`code`".to_owned()),
            Just("✓".to_owned()),
            Just("-".to_owned()),
            "[a-z]{1,6}",
        ],
        0..4,
    )
    .prop_map(|parts| parts.join(" "))
}

/// One line of an index.md.
fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z ]{0,12}".prop_map(|t| format!("## {t}")),
        "[A-Za-z ]{0,12}".prop_map(|t| format!("### {t}")),
        Just(String::new()),
        "[ a-z>*_]{0,20}",
        prop::collection::vec(cell(), 1..5).prop_map(|cells| {
            let header: Vec<String> = (0..cells.len()).map(|i| format!("C{i}")).collect();
            let delimiter: Vec<&str> = cells.iter().map(|_| "----").collect();
            format!(
                "| {} |\n|{}|\n| {} |",
                header.join(" | "),
                delimiter.join("|"),
                cells.join(" | ")
            )
        }),
        prop::collection::vec(cell(), 1..5).prop_map(|cells| format!("| {} |", cells.join(" | "))),
        prop::collection::vec(cell(), 1..5).prop_map(|cells| cells.join(" | ")),
    ]
}

fn text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(line(), 0..20),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, last)| {
            let eol = if crlf { "\r\n" } else { "\n" };
            let mut text = lines.join("\n").replace('\n', eol);
            if last {
                text.push_str(eol);
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_text_renders_back_byte_for_byte(text in "(?s).{0,200}") {
        if let Ok(doc) = parse_markdown(&text) {
            prop_assert_eq!(render_markdown(&doc).unwrap(), text);
        }
    }

    #[test]
    fn an_index_renders_back_and_a_changed_row_reads_back(text in text(), pick in any::<prop::sample::Index>(), new in prop::collection::vec(cell(), 1..5)) {
        let Ok(doc) = parse_markdown(&text) else { return Ok(()) };
        prop_assert_eq!(render_markdown(&doc).unwrap(), text.clone());
        let reparsed = parse_markdown(&render_markdown(&doc).unwrap()).unwrap();
        prop_assert_eq!(&reparsed, &doc);
        // Change one row's cells (as many as the table has columns, at most).
        let mut changed = doc.clone();
        let mut rows = Vec::new();
        for (b, block) in doc.get("blocks").unwrap().as_array().unwrap().iter().enumerate() {
            if let Some(table) = block.get("table") {
                let width = table.get("columns").unwrap().as_array().unwrap().len();
                for r in 0..table.get("rows").unwrap().as_array().unwrap().len() {
                    rows.push((b, r, width));
                }
            }
        }
        if rows.is_empty() {
            return Ok(());
        }
        let (b, r, width) = rows[pick.index(rows.len())];
        let cells: Vec<Value> = new.iter().take(width).map(|c| Value::from(c.trim())).collect();
        *changed.pointer_mut(&format!("/blocks/{b}/table/rows/{r}/cells")).unwrap() = Value::Array(cells.clone());
        let out = render_markdown(&changed).unwrap();
        let back = parse_markdown(&out).unwrap();
        prop_assert_eq!(back.pointer(&format!("/blocks/{b}/table/rows/{r}/cells")).unwrap(), &Value::Array(cells));
        // Every other line is as it was.
        let before: Vec<&str> = text.split('\n').collect();
        let after: Vec<&str> = out.split('\n').collect();
        prop_assert_eq!(before.len(), after.len());
        let differ = before.iter().zip(&after).filter(|(x, y)| x != y).count();
        prop_assert!(differ <= 1, "{differ} lines changed");
    }
}

#[test]
fn a_row_with_an_unescaped_pipe_too_many_is_an_error_at_its_line_and_column() {
    let text =
        "## Gap Priority Queue\n\n| Priority | Question |\n|---|---|\n| Critical | a | b |\n";
    let error = parse_markdown(text).unwrap_err();
    assert_eq!(error.code.as_str(), "E_PARSE");
    assert_eq!(error.details.get("line"), Some(&Value::from(5u64)));
    assert_eq!(error.details.get("column"), Some(&Value::from(16u64)));
}
