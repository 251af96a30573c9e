//! The blank Tafel of a Jassmarathon table, printed for its Schreiber: one page per table.

use super::{Align, CONTENT_BOTTOM, CONTENT_TOP, Document, Header, MARGIN, PAGE_WIDTH, Weight};
use crate::pdf::documents::TableEntry;

const CONTENT_WIDTH: f32 = PAGE_WIDTH - 2.0 * MARGIN;

/// The columns of a Tafel line, with their widths in mm (they fill the page's width).
const COLUMNS: [(&str, f32); 8] = [
    ("Spiel", 12.0),
    ("Trumpf", 26.0),
    ("Karten A", 22.0),
    ("Karten B", 22.0),
    ("Weis/Stöck A", 22.0),
    ("Weis/Stöck B", 22.0),
    ("Stand A", 27.0),
    ("Stand B", 27.0),
];
const LINES: u32 = 28;

/// One blank Tafel per table of `round` ("Spielrunde 1"); `rules`, a few short lines, say
/// what the Schreiber counts (Partie, Bergpreis, multipliers, Striche).
pub fn blank_tafeln(
    header: Header,
    round: &str,
    rules: &[String],
    tables: &[TableEntry],
) -> Vec<u8> {
    let mut doc = Document::new(header);
    for t in tables {
        let page = doc.new_page();
        page.text(
            MARGIN,
            CONTENT_TOP + 8.0,
            18.0,
            Weight::Bold,
            &format!("Tafel {round}"),
        );
        page.text_in(
            MARGIN,
            CONTENT_WIDTH,
            CONTENT_TOP + 8.0,
            18.0,
            Weight::Bold,
            Align::Right,
            &format!("Tisch {}", t.number),
        );
        page.text(
            MARGIN,
            CONTENT_TOP + 15.0,
            10.0,
            Weight::Regular,
            &format!("A: {}", t.team_a),
        );
        page.text(
            MARGIN,
            CONTENT_TOP + 20.5,
            10.0,
            Weight::Regular,
            &format!("B: {}", t.team_b),
        );
        let mut y = CONTENT_TOP + 25.0;
        page.fill(MARGIN, y, CONTENT_WIDTH, 8.0, 0.88);
        let mut x = MARGIN;
        for (label, width) in COLUMNS {
            page.text_in(
                x + 0.5,
                width - 1.0,
                y + 5.5,
                7.5,
                Weight::Bold,
                Align::Center,
                label,
            );
            x += width;
        }
        y += 8.0;
        let row = ((CONTENT_BOTTOM - 52.0 - y) / LINES as f32).clamp(5.0, 8.0);
        for n in 1..=LINES {
            let mut x = MARGIN;
            for (_, width) in COLUMNS {
                page.frame(x, y, width, row, 0.4);
                x += width;
            }
            page.text_in(
                MARGIN,
                12.0,
                y + row * 0.7,
                8.0,
                Weight::Regular,
                Align::Center,
                &n.to_string(),
            );
            y += row;
        }
        y += 7.0;
        page.text(MARGIN, y, 10.0, Weight::Bold, "Striche");
        for (offset, side) in [(5.5, "A"), (11.0, "B")] {
            page.text(
                MARGIN,
                y + offset,
                9.0,
                Weight::Regular,
                &format!("{side}:  Berg ____   Sieg ____   Schneider ____   Match ____   Gong ____   Total ____"),
            );
        }
        for (n, line) in rules.iter().enumerate() {
            page.text(
                MARGIN,
                y + 18.0 + 4.0 * n as f32,
                8.0,
                Weight::Regular,
                line,
            );
        }
        let sign = y + 22.0 + 4.0 * rules.len() as f32 + 6.0;
        page.signatures(sign, "Unterschrift Gegner");
    }
    doc.finish("Tafeln")
}
