//! The prize giving's prints: the Preisliste for the Gabentisch (with a column to sign when
//! a prize is handed out) and the Urkunden, one A4 certificate per winner.

use crate::pdf::table::{Column, Table};
use crate::pdf::{
    Align, CONTENT_TOP, CONTENT_WIDTH, Document, Header, MARGIN, PAGE_HEIGHT, PAGE_WIDTH, Weight,
};

/// A line of the Preisliste, print-ready.
pub struct PrizeLine {
    /// "12." for a place, or the special prize's title ("beste Dame").
    pub what: String,
    pub startnummer: u32,
    pub name: String,
    pub prize: String,
}

/// The Preisliste in the order the prizes are handed out; the last column is signed by
/// whoever hands a prize over.
pub fn preisliste(header: Header, lines: &[PrizeLine]) -> Vec<u8> {
    let mut doc = Document::new(header);
    doc.new_page()
        .text(MARGIN, CONTENT_TOP + 8.0, 18.0, Weight::Bold, "Preisliste");
    let table = Table {
        columns: vec![
            Column {
                title: "Rang".into(),
                width: 24.0,
                align: Align::Left,
            },
            Column {
                title: "Nr.".into(),
                width: 11.0,
                align: Align::Right,
            },
            Column {
                title: "Name".into(),
                width: 62.0,
                align: Align::Left,
            },
            Column {
                title: "Preis".into(),
                width: CONTENT_WIDTH - 24.0 - 11.0 - 62.0 - 30.0,
                align: Align::Left,
            },
            Column {
                title: "Abgegeben".into(),
                width: 30.0,
                align: Align::Left,
            },
        ],
        size: 10.0,
        // Room for a signature.
        row_height: 9.0,
    };
    let rows: Vec<Vec<(String, Weight)>> = lines
        .iter()
        .map(|l| {
            vec![
                (l.what.clone(), Weight::Bold),
                (l.startnummer.to_string(), Weight::Regular),
                (l.name.clone(), Weight::Regular),
                (l.prize.clone(), Weight::Regular),
                (String::new(), Weight::Regular),
            ]
        })
        .collect();
    table.draw(&mut doc, CONTENT_TOP + 14.0, &rows);
    doc.finish("Preisliste")
}

/// One certificate, print-ready.
pub struct Certificate {
    pub tournament: String,
    /// "22.11.2026, Zürich".
    pub when_where: String,
    /// "1. Rang", or a special prize's title ("beste Dame").
    pub honour: String,
    pub name: String,
    /// The players of a team, or the Verein of a player (may be empty).
    pub detail: String,
    /// "3'712 Punkte".
    pub points: String,
}

/// One A4 page per certificate: a double frame, the tournament, the honour in large type,
/// the name, the points, and a line for the Turnierleitung's signature.
pub fn urkunden(header: Header, certificates: &[Certificate]) -> Vec<u8> {
    let mut doc = Document::new(header).unframed();
    let width = PAGE_WIDTH - 2.0 * MARGIN;
    for c in certificates {
        let page = doc.new_page();
        page.frame(MARGIN, MARGIN, width, PAGE_HEIGHT - 2.0 * MARGIN, 1.6);
        page.frame(
            MARGIN + 3.0,
            MARGIN + 3.0,
            width - 6.0,
            PAGE_HEIGHT - 2.0 * MARGIN - 6.0,
            0.4,
        );
        let inner = MARGIN + 12.0;
        let inner_width = width - 24.0;
        let centred =
            |page: &mut crate::pdf::Page, y: f32, size: f32, weight: Weight, text: &str| {
                page.text_in(inner, inner_width, y, size, weight, Align::Center, text);
            };
        centred(page, 62.0, 44.0, Weight::Bold, "Urkunde");
        page.line(
            PAGE_WIDTH / 2.0 - 30.0,
            70.0,
            PAGE_WIDTH / 2.0 + 30.0,
            70.0,
            0.8,
        );
        centred(page, 90.0, 16.0, Weight::Regular, &c.tournament);
        centred(page, 99.0, 12.0, Weight::Regular, &c.when_where);
        centred(page, 135.0, 32.0, Weight::Bold, &c.honour);
        centred(page, 165.0, 26.0, Weight::Bold, &c.name);
        centred(page, 176.0, 13.0, Weight::Regular, &c.detail);
        centred(page, 196.0, 15.0, Weight::Regular, &c.points);
        let sign = PAGE_HEIGHT - 55.0;
        page.line(
            PAGE_WIDTH / 2.0 - 40.0,
            sign,
            PAGE_WIDTH / 2.0 + 40.0,
            sign,
            0.4,
        );
        centred(page, sign + 5.0, 9.0, Weight::Regular, "Die Turnierleitung");
    }
    doc.finish("Urkunden")
}
