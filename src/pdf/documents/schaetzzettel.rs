//! The Differenzler's Schätzzettel (#81): one A4 page per table and Passe, a row per Spiel
//! and for each of the four players Ansage, gemacht and Differenz. Printed empty before the
//! Passe; printed again after the entry, it shows what the Büro typed (for the visa).

use super::super::{
    Align, CONTENT_BOTTOM, CONTENT_TOP, CONTENT_WIDTH, Document, Header, MARGIN, Weight,
};
use crate::domain::differenzler::Line;
use crate::domain::format;

/// One table's sheet.
pub struct SheetTable {
    pub number: u32,
    /// Places 1 to 4.
    pub names: [String; 4],
    /// The Spiele as typed, where the table was entered Spiel by Spiel.
    pub lines: Vec<[Line; 4]>,
    /// Each place's differences, once entered (by either way).
    pub differenzen: Option<[u32; 4]>,
}

pub fn schaetzzettel(
    header: Header,
    passe: u32,
    spiele: u32,
    sums: &str,
    tables: &[SheetTable],
) -> Vec<u8> {
    let mut doc = Document::new(header);
    let spiel = 14.0;
    let player = (CONTENT_WIDTH - spiel) / 4.0;
    let cell = player / 3.0;
    for t in tables {
        let page = doc.new_page();
        page.text(
            MARGIN,
            CONTENT_TOP + 8.0,
            18.0,
            Weight::Bold,
            &format!("Schätzzettel Passe {passe}"),
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
        let mut y = CONTENT_TOP + 16.0;
        page.fill(MARGIN, y, CONTENT_WIDTH, 18.0, 0.88);
        page.text_in(
            MARGIN,
            spiel,
            y + 12.0,
            9.0,
            Weight::Bold,
            Align::Center,
            "Spiel",
        );
        for (i, name) in t.names.iter().enumerate() {
            let x = MARGIN + spiel + player * i as f32;
            page.text_in(
                x + 1.0,
                player - 2.0,
                y + 5.0,
                7.5,
                Weight::Regular,
                Align::Center,
                &format!("Platz {}", i + 1),
            );
            page.text_in(
                x + 1.0,
                player - 2.0,
                y + 10.0,
                8.5,
                Weight::Bold,
                Align::Center,
                name,
            );
            for (k, head) in ["Ansage", "gemacht", "Diff."].iter().enumerate() {
                page.text_in(
                    x + cell * k as f32,
                    cell,
                    y + 15.5,
                    7.0,
                    Weight::Regular,
                    Align::Center,
                    head,
                );
            }
        }
        y += 18.0;
        let row = ((CONTENT_BOTTOM - 50.0 - y) / spiele.max(1) as f32).clamp(6.0, 12.0);
        for n in 0..spiele as usize {
            page.frame(MARGIN, y, spiel, row, 0.5);
            page.text_in(
                MARGIN,
                spiel,
                y + row * 0.68,
                10.0,
                Weight::Regular,
                Align::Center,
                &(n + 1).to_string(),
            );
            let line = t.lines.get(n);
            for i in 0..4 {
                let x = MARGIN + spiel + player * i as f32;
                for k in 0..3 {
                    page.frame(
                        x + cell * k as f32,
                        y,
                        cell,
                        row,
                        if k == 2 { 0.9 } else { 0.5 },
                    );
                }
                if let Some(l) = line {
                    let l = l[i];
                    for (k, value) in [l.ansage, l.gemacht, l.difference()]
                        .into_iter()
                        .enumerate()
                    {
                        let weight = if k == 2 {
                            Weight::Bold
                        } else {
                            Weight::Regular
                        };
                        page.text_in(
                            x + cell * k as f32,
                            cell - 1.5,
                            y + row * 0.68,
                            9.0,
                            weight,
                            Align::Right,
                            &value.to_string(),
                        );
                    }
                }
            }
            y += row;
        }
        page.frame(MARGIN, y, spiel, 11.0, 1.2);
        page.text_in(
            MARGIN,
            spiel,
            y + 7.5,
            9.0,
            Weight::Bold,
            Align::Center,
            "Total",
        );
        for i in 0..4 {
            let x = MARGIN + spiel + player * i as f32;
            page.frame(x, y, player, 11.0, 1.2);
            if let Some(d) = t.differenzen {
                page.text_in(
                    x,
                    player - 1.5,
                    y + 7.5,
                    11.0,
                    Weight::Bold,
                    Align::Right,
                    &format::number(i64::from(d[i])),
                );
            }
        }
        y += 18.0;
        page.text(
            MARGIN,
            y,
            9.0,
            Weight::Bold,
            &format!("Die gemachten Punkte eines Spiels ergeben zusammen {sums}."),
        );
        page.text(MARGIN, y + 5.5, 8.0, Weight::Regular, "Ansage vor dem Spiel eintragen; Differenz = Unterschied zwischen Ansage und gemachten Punkten. Das tiefste Total gewinnt.");
        page.signatures(y + 22.0, "Unterschriften der Mitspieler");
    }
    doc.finish("Schätzzettel")
}
