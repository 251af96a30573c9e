//! Times the schedule and the Rangliste for 1000 teams × 10 Passen, and the per-Passe
//! draw for 100 teams.
//! Run with `cargo bench --bench domain`; prints the best and median of several runs.

// A test or benchmark that cannot go on says so by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use jassturnier::domain::ids::{ResultId, TeamId};
use jassturnier::domain::passe_draw::{PasseRequest, draw_passe};
use jassturnier::domain::schedule::{PasseDraw, fixed_schedule, rematches};
use jassturnier::domain::standblatt::{
    RanglisteKind, ResultFacts, SeatFacts, TeamFacts, TournamentFacts, rangliste, standblaetter,
};
use jassturnier::domain::streichresultat::Wertung;
use jassturnier::domain::team::TeamStatus;
use std::collections::HashMap;
use std::time::{Duration, Instant};

const TEAMS: u32 = 1000;
const PASSEN: u32 = 10;
const RUNS: usize = 7;

fn time<T>(label: &str, mut f: impl FnMut() -> T) -> T {
    let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
    let mut last = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        last = Some(f());
        times.push(start.elapsed());
    }
    times.sort();
    println!(
        "{label}: best {:.2} ms, median {:.2} ms",
        times[0].as_secs_f64() * 1e3,
        times[RUNS / 2].as_secs_f64() * 1e3
    );
    last.expect("at least one run")
}

/// Draws every Passe of `passen` one after another; `late` adds one team after Passe 2,
/// which leaves the hidden round robin to the look-ahead search.
fn per_passe(teams: u32, passen: u32, late: bool) -> Vec<PasseDraw<u32>> {
    let clubs: HashMap<u32, u32> = (1..=teams).map(|t| (t, t % 12)).collect();
    let mut history = Vec::new();
    for passe in 1..=passen {
        let field = if late && passe > 2 { teams + 1 } else { teams };
        let active: Vec<u32> = (1..=field).collect();
        let drawn = draw_passe(&PasseRequest {
            active: &active,
            history: &history,
            passe,
            passen,
            seed: 2026,
            clubs: &clubs,
        });
        history.push(drawn.draw);
    }
    history
}

fn main() {
    for (label, late) in [("full field", false), ("a team added after Passe 2", true)] {
        let draws = time(
            &format!("per-Passe draw, 100 teams × 8 Passen, {label} (divide by 8 per Passe)"),
            || per_passe(100, 8, late),
        );
        let repeats = rematches(&draws).len();
        println!("  rematches: {repeats}");
        assert_eq!(repeats, 0, "the per-Passe draw must be rematch-free here");
    }
    let draws = time(
        "per-Passe draw, 30 teams × 29 Passen (full round robin)",
        || per_passe(30, 29, false),
    );
    assert_eq!(rematches(&draws).len(), 0);
    let draws = time(
        &format!("fixed schedule, {TEAMS} teams × {PASSEN} Passen"),
        || fixed_schedule(TEAMS, PASSEN),
    );
    let repeats = rematches(&draws).len();
    println!("  rematches: {repeats}");
    assert_eq!(repeats, 0, "the schedule must be rematch-free");

    let teams: Vec<TeamFacts> = (1..=TEAMS)
        .map(|nr| TeamFacts {
            id: team_id(nr),
            startnummer: nr,
            status: TeamStatus::Aktiv,
            out_passe: None,
            final_visa: None,
        })
        .collect();
    let mut seats = Vec::new();
    let mut results = Vec::new();
    for (index, draw) in draws.iter().enumerate() {
        let passe = index as u32 + 1;
        for table in &draw.tables {
            let (a, b) = (team_id(table.team_a), team_id(table.team_b));
            seats.push(SeatFacts {
                passe,
                team: a,
                table: Some(table.number),
                opponent: Some(b),
                partner: None,
            });
            seats.push(SeatFacts {
                passe,
                team: b,
                table: Some(table.number),
                opponent: Some(a),
                partner: None,
            });
            let points_a = (passe * 7919 + table.number * 104_729) % 1885;
            results.push(ResultFacts {
                id: ResultId(i32::try_from(results.len()).unwrap()),
                passe,
                table: table.number,
                team_a: a,
                team_b: b,
                points_a,
                points_b: 1884 - points_a,
                matches_a: 0,
                matches_b: 0,
                visa_a: None,
                visa_b: None,
                places: None,
            });
        }
    }
    let facts = TournamentFacts {
        passen: PASSEN,
        pauschale: jassturnier::domain::differenzler::Pauschale::Fixed(1000),
        teams: &teams,
        seats: &seats,
        results: &results,
    };
    let ranked = time(
        &format!("Standblätter + Rangliste, {TEAMS} teams × {PASSEN} Passen"),
        || {
            let sheets = standblaetter(&facts);
            rangliste(
                RanglisteKind::Provisorisch,
                &sheets,
                Wertung::Alle,
                &|_| true,
                jassturnier::domain::mode::Better::Higher,
            )
            .len()
        },
    );
    assert_eq!(ranked, TEAMS as usize);
}

/// The id of the team with Startnummer `nr` in this benchmark (the same number).
fn team_id(nr: u32) -> TeamId {
    TeamId(i32::try_from(nr).unwrap())
}
