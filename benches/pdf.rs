//! Times the Standblätter for 1000 teams × 8 Passen and the Rangliste PDF for 1000 teams.
//! Run with `cargo bench --bench pdf`; prints times and sizes.

// A test or benchmark that cannot go on says so by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use jassturnier::pdf::Header;
use jassturnier::pdf::documents::{
    RankRow, RankSection, Sheet, SheetLine, rangliste, standblaetter,
};
use std::time::Instant;

const TEAMS: u32 = 1000;
const PASSEN: u32 = 8;

fn header() -> Header {
    Header {
        title: "Schweizer Jassmeisterschaft Zürich".into(),
        subtitle: "Standblätter".into(),
        footer: "22.11.2026, Zürich · gedruckt 22.11.2026 08:15".into(),
    }
}

fn main() {
    let sheets: Vec<Sheet> = (1..=TEAMS)
        .map(|n| Sheet {
            startnummer: n,
            team: format!("Jassfreunde Nr. {n}"),
            players: format!("Käthi Müller-{n} / Jürg Bär-{n}"),
            club: "Jassclub Zürich, Zürich".into(),
            los: ((n * 7919) % TEAMS + 1).to_string(),
            url: Some(format!("http://192.168.1.20:8080/tournaments/1/team/{n}")),
            lines: (1..=PASSEN)
                .map(|p| SheetLine {
                    round: p,
                    table: ((n + p * 13) % 500 + 1).to_string(),
                    seat: String::new(),
                    partner: String::new(),
                    opponent: format!("{} Gegner-Team Wädenswil", (n + p) % 1000 + 1),
                    points: "1'020".into(),
                    struck: false,
                    visa: "kontrolle 14:02".into(),
                })
                .collect(),
            total: "8'160".into(),
            rule: None,
            final_visa: String::new(),
            player: false,
            pairs: true,
            table_code: Some("KM4T-9QXD".into()),
        })
        .collect();
    let start = Instant::now();
    let pdf = standblaetter(header(), "Passe", "Punkte", &sheets);
    let elapsed = start.elapsed();
    println!(
        "Standblätter, {TEAMS} teams × {PASSEN} Passen: {:.0} ms, {} pages, {:.1} MB ({:.1} KB/page)",
        elapsed.as_secs_f64() * 1e3,
        TEAMS,
        pdf.len() as f64 / 1e6,
        pdf.len() as f64 / 1e3 / f64::from(TEAMS)
    );

    let rows: Vec<RankRow> = (1..=TEAMS)
        .map(|n| RankRow {
            rank: format!("{n}."),
            startnummer: n,
            team: format!("Jassfreunde Nr. {n} · Käthi Müller-{n} / Jürg Bär-{n}"),
            rounds: vec!["1'020".into(); PASSEN as usize],
            struck: vec![false; PASSEN as usize],
            total: "8'160".into(),
            tie: None,
        })
        .collect();
    let start = Instant::now();
    let pdf = rangliste(
        header(),
        true,
        "Passe",
        PASSEN,
        &[RankSection { title: None, rows }],
        None,
        &[],
        None,
    );
    let elapsed = start.elapsed();
    println!(
        "Rangliste PDF, {TEAMS} teams: {:.0} ms, {:.0} KB",
        elapsed.as_secs_f64() * 1e3,
        pdf.len() as f64 / 1e3
    );
}
