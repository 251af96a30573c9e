//! The printed documents. Each takes print-ready text (already formatted de-CH) and
//! returns PDF bytes; they know nothing about the database or the web.

use super::table::{Column, Table};
use super::{Align, CONTENT_BOTTOM, CONTENT_TOP, CONTENT_WIDTH, Document, Header, MARGIN, Weight};
use crate::domain::mode::{Entrant, Mode, POINTS_PER_SPIEL};

mod prizes;
pub use prizes::{Certificate, PrizeLine, preisliste, urkunden};
mod schaetzzettel;
pub use schaetzzettel::{SheetTable, schaetzzettel};
mod series;
pub use series::{SeriesLine, gesamtwertung};
mod standblatt;
pub use standblatt::{Sheet, SheetLine, qr_modules, qr_modules_fixed_mask, standblaetter};

pub struct TableEntry {
    pub number: u32,
    pub team_a: String,
    pub team_b: String,
    /// False where a team or player has left: the table is not played, everybody else at
    /// it gets the Pauschale.
    pub played: bool,
}

/// Large print for the wall: table → both teams.
/// `mode`: teams, players who play in pairs (Einzelschieber), or four places (Differenzler).
pub fn tischliste(
    header: Header,
    round: &str,
    mode: Mode,
    tables: &[TableEntry],
    byes: &[String],
) -> Vec<u8> {
    let mut doc = Document::new(header);
    doc.new_page().text(
        MARGIN,
        CONTENT_TOP + 8.0,
        20.0,
        Weight::Bold,
        &format!("Tischliste {round}"),
    );
    let table = Table {
        columns: vec![
            Column {
                title: "Tisch".into(),
                width: 24.0,
                align: Align::Center,
            },
            Column {
                title: match mode.plays_in_pairs() {
                    true => format!("{0} A / {0} B", mode.entrant().side()),
                    false => "Platz 1 bis 4".into(),
                },
                width: CONTENT_WIDTH - 24.0,
                align: Align::Left,
            },
        ],
        // Large print for the wall: both teams of a table one above the other, each with
        // the full width for its name.
        size: 20.0,
        row_height: 19.0,
    };
    let rows: Vec<Vec<(String, Weight)>> = tables
        .iter()
        .map(|t| {
            vec![
                (t.number.to_string(), Weight::Bold),
                (format!("{}\n{}", t.team_a, t.team_b), Weight::Regular),
            ]
        })
        .collect();
    let mut y = table.draw(&mut doc, CONTENT_TOP + 14.0, &rows);
    let not_played: Vec<String> = tables
        .iter()
        .filter(|t| !t.played)
        .map(|t| format!("Tisch {}", t.number))
        .collect();
    let notes = [
        (!byes.is_empty()).then(|| format!("Spielfrei: {}", byes.join(", "))),
        (!not_played.is_empty())
            .then(|| format!("Nicht gespielt (Pauschale): {}", not_played.join(", "))),
    ];
    for note in notes.into_iter().flatten() {
        if y + 10.0 > CONTENT_BOTTOM {
            doc.new_page();
            y = CONTENT_TOP;
        }
        doc.current().text_box(
            MARGIN,
            CONTENT_WIDTH,
            y + 2.0,
            19.0,
            20.0,
            Weight::Regular,
            Align::Left,
            &note,
        );
        y += 21.0;
    }
    doc.finish("Tischliste")
}

/// One line of "Wer sitzt wo": a team and its table in one Passe.
pub struct SeatEntry {
    pub startnummer: u32,
    pub team: String,
    /// The table number, or "spielfrei", "Pauschale" (the table is not played),
    /// "ausgeschieden".
    pub table: String,
}

/// "Wer sitzt wo" for the wall: every team with its table, in large print.
pub fn seating_list(header: Header, title: &str, mode: Mode, seats: &[SeatEntry]) -> Vec<u8> {
    let entrant = mode.entrant();
    let mut doc = Document::new(header);
    doc.new_page()
        .text(MARGIN, CONTENT_TOP + 8.0, 20.0, Weight::Bold, title);
    let table = Table {
        columns: vec![
            Column {
                title: "Nr.".into(),
                width: 22.0,
                align: Align::Right,
            },
            Column {
                title: entrant.one().into(),
                width: CONTENT_WIDTH - 22.0 - 40.0,
                align: Align::Left,
            },
            Column {
                title: match entrant {
                    Entrant::Team => "Tisch".into(),
                    Entrant::Player => format!("Tisch {}", mode.seat_word()),
                },
                width: 40.0,
                align: Align::Center,
            },
        ],
        size: 20.0,
        row_height: 16.0,
    };
    let rows: Vec<Vec<(String, Weight)>> = seats
        .iter()
        .map(|s| {
            vec![
                (s.startnummer.to_string(), Weight::Regular),
                (s.team.clone(), Weight::Regular),
                (s.table.clone(), Weight::Bold),
            ]
        })
        .collect();
    table.draw(&mut doc, CONTENT_TOP + 14.0, &rows);
    doc.finish("Wer sitzt wo")
}

pub struct StartEntry {
    pub los: String,
    pub startnummer: u32,
    pub team: String,
    pub players: String,
    pub club: String,
}

/// The Los- and Startliste: every team with its Los.
pub fn startliste(
    header: Header,
    title: &str,
    entrant: Entrant,
    entries: &[StartEntry],
) -> Vec<u8> {
    let mut doc = Document::new(header);
    doc.new_page()
        .text(MARGIN, CONTENT_TOP + 8.0, 18.0, Weight::Bold, title);
    let table = Table {
        columns: vec![
            Column {
                title: "Los".into(),
                width: 14.0,
                align: Align::Right,
            },
            Column {
                title: "Nr.".into(),
                width: 14.0,
                align: Align::Right,
            },
            Column {
                title: entrant.one().into(),
                width: 42.0,
                align: Align::Left,
            },
            Column {
                title: match entrant {
                    Entrant::Team => "Spieler".into(),
                    Entrant::Player => String::new(),
                },
                width: 54.0,
                align: Align::Left,
            },
            Column {
                title: "Verein".into(),
                width: CONTENT_WIDTH - 124.0,
                align: Align::Left,
            },
        ],
        size: 10.0,
        row_height: 7.0,
    };
    let rows: Vec<Vec<(String, Weight)>> = entries
        .iter()
        .map(|e| {
            vec![
                (e.los.clone(), Weight::Bold),
                (e.startnummer.to_string(), Weight::Regular),
                (e.team.clone(), Weight::Regular),
                (e.players.clone(), Weight::Regular),
                (e.club.clone(), Weight::Regular),
            ]
        })
        .collect();
    table.draw(&mut doc, CONTENT_TOP + 14.0, &rows);
    doc.finish("Startliste")
}

/// One Jasszettel per table: a line per Spiel and the 157 × Spiele check.
pub fn jasszettel(
    header: Header,
    passe: u32,
    spiele: u32,
    total: &str,
    entrant: Entrant,
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
            &format!("Jasszettel Passe {passe}"),
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
        let (spiel, col) = (22.0, (CONTENT_WIDTH - 22.0) / 2.0);
        let mut y = CONTENT_TOP + 16.0;
        page.fill(MARGIN, y, CONTENT_WIDTH, 14.0, 0.88);
        page.text_in(
            MARGIN + 1.0,
            spiel - 2.0,
            y + 9.0,
            10.0,
            Weight::Bold,
            Align::Center,
            "Spiel",
        );
        page.text_in(
            MARGIN + spiel + 1.5,
            col - 3.0,
            y + 6.0,
            8.0,
            Weight::Regular,
            Align::Center,
            &format!("{} A", entrant.side()),
        );
        page.text_in(
            MARGIN + spiel + 1.5,
            col - 3.0,
            y + 11.0,
            10.0,
            Weight::Bold,
            Align::Center,
            &t.team_a,
        );
        page.text_in(
            MARGIN + spiel + col + 1.5,
            col - 3.0,
            y + 6.0,
            8.0,
            Weight::Regular,
            Align::Center,
            &format!("{} B", entrant.side()),
        );
        page.text_in(
            MARGIN + spiel + col + 1.5,
            col - 3.0,
            y + 11.0,
            10.0,
            Weight::Bold,
            Align::Center,
            &t.team_b,
        );
        y += 14.0;
        // Rows shrink for long Passen so that the sheet stays one page.
        let row = ((CONTENT_BOTTOM - 60.0 - y) / spiele as f32).clamp(6.0, 12.0);
        for n in 1..=spiele {
            page.frame(MARGIN, y, spiel, row, 0.5);
            page.frame(MARGIN + spiel, y, col, row, 0.5);
            page.frame(MARGIN + spiel + col, y, col, row, 0.5);
            page.text_in(
                MARGIN + 1.0,
                spiel - 2.0,
                y + row * 0.68,
                10.0,
                Weight::Regular,
                Align::Center,
                &n.to_string(),
            );
            y += row;
        }
        page.frame(MARGIN, y, spiel, 11.0, 1.2);
        page.frame(MARGIN + spiel, y, col, 11.0, 1.2);
        page.frame(MARGIN + spiel + col, y, col, 11.0, 1.2);
        page.text_in(
            MARGIN + 1.0,
            spiel - 2.0,
            y + 7.5,
            10.0,
            Weight::Bold,
            Align::Center,
            "Total",
        );
        y += 18.0;
        page.text(
            MARGIN,
            y,
            10.0,
            Weight::Bold,
            &format!(
                "Total beider {} = {POINTS_PER_SPIEL} × {spiele} Spiele = {total}",
                entrant.sides()
            ),
        );
        page.text(MARGIN, y + 5.5, 8.0, Weight::Regular, &format!("Jedes Spiel ergibt zusammen {POINTS_PER_SPIEL} Punkte; die Karten erst zusammenlegen, wenn die Summe stimmt."));
        page.signatures(y + 22.0, "Unterschrift Gegenpartei");
    }
    doc.finish("Jasszettel")
}

pub struct RankRow {
    pub rank: String,
    pub startnummer: u32,
    pub team: String,
    pub rounds: Vec<String>,
    /// Per round: struck by the Streichresultat (printed struck through).
    pub struck: Vec<bool>,
    pub total: String,
    /// Ranked behind the row before on equal total: which Passe decided.
    pub tie: Option<String>,
}

/// The Vereinswertung under the Rangliste.
pub struct ClubSection {
    /// "Vereinswertung: es zählen die besten 2 Teams jedes Vereins".
    pub rule: String,
    /// Rank, Verein, total, the teams that counted.
    pub rows: Vec<[String; 4]>,
}

pub struct RankSection {
    /// None for the ranked teams; else e.g. "nicht bewertet".
    pub title: Option<String>,
    pub rows: Vec<RankRow>,
}

/// The seal of an official Rangliste: who signed its report, and where to check it (the QR
/// code opens the verification page).
pub struct SealBlock {
    pub lines: Vec<String>,
    pub url: String,
}

/// The Rangliste; `provisional` prints a clear PROVISORISCH mark on every page; `notes`
/// under the list: the Streichresultat rule, the legend to the marks beside Pauschalen and
/// byes when there are any; `seal` at the end (official Rangliste).
#[allow(clippy::too_many_arguments)]
pub fn rangliste(
    mut header: Header,
    provisional: bool,
    round_label: &str,
    rounds: u32,
    sections: &[RankSection],
    clubs: Option<&ClubSection>,
    notes: &[String],
    seal: Option<&SealBlock>,
) -> Vec<u8> {
    if provisional {
        header.subtitle = format!("PROVISORISCH · {}", header.subtitle);
    }
    let mut doc = Document::new(header);
    let page = doc.new_page();
    page.text(MARGIN, CONTENT_TOP + 8.0, 18.0, Weight::Bold, "Rangliste");
    if provisional {
        page.text_in(
            MARGIN,
            CONTENT_WIDTH,
            CONTENT_TOP + 8.0,
            18.0,
            Weight::Bold,
            Align::Right,
            "PROVISORISCH",
        );
    }
    let round_width = if rounds > 6 { 11.0 } else { 14.0 };
    let size = if rounds > 6 { 8.0 } else { 9.0 };
    let fixed = 13.0 + 11.0 + 17.0 + round_width * rounds as f32;
    let mut columns = vec![
        Column {
            title: "Rang".into(),
            width: 13.0,
            align: Align::Right,
        },
        Column {
            title: "Nr.".into(),
            width: 11.0,
            align: Align::Right,
        },
        Column {
            title: "Team / Spieler".into(),
            width: CONTENT_WIDTH - fixed,
            align: Align::Left,
        },
    ];
    let short = round_label.chars().next().unwrap_or('P');
    for r in 1..=rounds {
        columns.push(Column {
            title: format!("{short}{r}"),
            width: round_width,
            align: Align::Right,
        });
    }
    columns.push(Column {
        title: "Total".into(),
        width: 17.0,
        align: Align::Right,
    });
    let table = Table {
        columns,
        size,
        row_height: 6.0,
    };
    let mut y = CONTENT_TOP + 14.0;
    for section in sections {
        if let Some(title) = &section.title {
            if y + 20.0 > CONTENT_BOTTOM {
                doc.new_page();
                y = CONTENT_TOP;
            }
            doc.current()
                .text(MARGIN, y + 8.0, 12.0, Weight::Bold, title);
            y += 11.0;
        }
        let rows: Vec<Vec<(String, Weight)>> = section
            .rows
            .iter()
            .map(|r| {
                let mut cells = vec![
                    (r.rank.clone(), Weight::Bold),
                    (r.startnummer.to_string(), Weight::Regular),
                    (r.team.clone(), Weight::Regular),
                ];
                cells.extend(r.rounds.iter().map(|p| (p.clone(), Weight::Regular)));
                cells.push((r.total.clone(), Weight::Bold));
                cells
            })
            .collect();
        // The round columns follow Rang, Nr. and Team.
        let struck: Vec<Vec<usize>> = section
            .rows
            .iter()
            .map(|r| {
                (3..)
                    .zip(&r.struck)
                    .filter(|(_, s)| **s)
                    .map(|(at, _)| at)
                    .collect()
            })
            .collect();
        y = table.draw_struck(&mut doc, y, &rows, &struck) + 2.0;
    }
    if let Some(clubs) = clubs {
        if y + 30.0 > CONTENT_BOTTOM {
            doc.new_page();
            y = CONTENT_TOP;
        }
        doc.current()
            .text(MARGIN, y + 8.0, 12.0, Weight::Bold, "Vereinswertung");
        doc.current()
            .text(MARGIN, y + 13.0, 8.0, Weight::Regular, &clubs.rule);
        y += 16.0;
        let table = Table {
            columns: vec![
                Column {
                    title: "Rang".into(),
                    width: 13.0,
                    align: Align::Right,
                },
                Column {
                    title: "Verein".into(),
                    width: 50.0,
                    align: Align::Left,
                },
                Column {
                    title: "Total".into(),
                    width: 20.0,
                    align: Align::Right,
                },
                Column {
                    title: "gezählt".into(),
                    width: CONTENT_WIDTH - 83.0,
                    align: Align::Left,
                },
            ],
            size: 9.0,
            row_height: 8.0,
        };
        let rows: Vec<Vec<(String, Weight)>> = clubs
            .rows
            .iter()
            .map(|[rank, club, total, counted]| {
                vec![
                    (rank.clone(), Weight::Bold),
                    (club.clone(), Weight::Regular),
                    (total.clone(), Weight::Bold),
                    (counted.clone(), Weight::Regular),
                ]
            })
            .collect();
        y = table.draw(&mut doc, y, &rows) + 2.0;
    }
    for note in notes {
        if y + 8.0 > CONTENT_BOTTOM {
            doc.new_page();
            y = CONTENT_TOP;
        }
        doc.current()
            .text(MARGIN, y + 5.0, 8.0, Weight::Regular, note);
        y += 5.0;
    }
    // Equal totals ordered by the tie-break: said below the list, row by row.
    let mut ahead = String::new();
    let mut ties = Vec::new();
    for row in sections.iter().flat_map(|s| &s.rows) {
        if let Some(tie) = &row.tie {
            let which = tie.strip_prefix("Stichentscheid: ").unwrap_or(tie);
            ties.push(format!(
                "{ahead} vor {} (beide {}): {which}",
                row.rank, row.total
            ));
        }
        ahead.clone_from(&row.rank);
    }
    if !ties.is_empty() {
        if y + 12.0 > CONTENT_BOTTOM {
            doc.new_page();
            y = CONTENT_TOP;
        }
        doc.current().text(
            MARGIN,
            y + 6.0,
            9.0,
            Weight::Bold,
            "Stichentscheid bei gleichem Total",
        );
        y += 7.0;
        for line in ties {
            if y + 6.0 > CONTENT_BOTTOM {
                doc.new_page();
                y = CONTENT_TOP;
            }
            doc.current()
                .text(MARGIN, y + 5.0, 8.0, Weight::Regular, &line);
            y += 5.0;
        }
    }
    if let Some(seal) = seal {
        const QR: f32 = 24.0;
        if y + QR + 8.0 > CONTENT_BOTTOM {
            doc.new_page();
            y = CONTENT_TOP;
        }
        let top = y + 6.0;
        let page = doc.current();
        if let Some((width, modules)) = qr_modules(&seal.url) {
            page.qr(MARGIN, top, QR, width, &modules);
        }
        let mut line_y = top + 5.0;
        for (i, line) in seal.lines.iter().enumerate() {
            let weight = if i == 0 {
                Weight::Bold
            } else {
                Weight::Regular
            };
            page.text(MARGIN + QR + 4.0, line_y, 8.0, weight, line);
            line_y += 4.5;
        }
    }
    doc.finish("Rangliste")
}
