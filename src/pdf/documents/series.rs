//! The Jass-Cup's Gesamtwertung on A4: one line per entrant, over as many pages as it takes
//! (the table repeats its heading on each page).

use crate::pdf::table::{Column, Table};
use crate::pdf::{Align, CONTENT_TOP, CONTENT_WIDTH, Document, Header, MARGIN, Weight};

/// A line of the Gesamtwertung, print-ready.
pub struct SeriesLine {
    pub rank: String,
    pub names: String,
    pub clubs: String,
    pub total: String,
    /// Points per result, struck ones in parentheses.
    pub results: String,
    pub qualified: bool,
}

pub fn gesamtwertung(header: Header, rule: &str, lines: &[SeriesLine]) -> Vec<u8> {
    let mut doc = Document::new(header);
    let page = doc.new_page();
    page.text(
        MARGIN,
        CONTENT_TOP + 8.0,
        18.0,
        Weight::Bold,
        "Gesamtwertung",
    );
    let rule = format!("{rule} Gestrichene Resultate in Klammern; * provisorisch.");
    page.text(MARGIN, CONTENT_TOP + 15.0, 9.0, Weight::Regular, &rule);
    let fixed = 14.0 + 58.0 + 38.0 + 18.0 + 14.0;
    let table = Table {
        columns: vec![
            Column {
                title: "Rang".into(),
                width: 14.0,
                align: Align::Right,
            },
            Column {
                title: "Name".into(),
                width: 58.0,
                align: Align::Left,
            },
            Column {
                title: "Verein".into(),
                width: 38.0,
                align: Align::Left,
            },
            Column {
                title: "Total".into(),
                width: 18.0,
                align: Align::Right,
            },
            Column {
                title: "Resultate".into(),
                width: CONTENT_WIDTH - fixed,
                align: Align::Left,
            },
            Column {
                title: "Final".into(),
                width: 14.0,
                align: Align::Left,
            },
        ],
        size: 9.5,
        row_height: 6.5,
    };
    let rows: Vec<Vec<(String, Weight)>> = lines
        .iter()
        .map(|l| {
            vec![
                (l.rank.clone(), Weight::Bold),
                (l.names.clone(), Weight::Regular),
                (l.clubs.clone(), Weight::Regular),
                (l.total.clone(), Weight::Bold),
                (l.results.clone(), Weight::Regular),
                (if l.qualified { "ja" } else { "" }.into(), Weight::Regular),
            ]
        })
        .collect();
    table.draw(&mut doc, CONTENT_TOP + 20.0, &rows);
    doc.finish("Gesamtwertung")
}
