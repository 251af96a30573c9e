//! Times the schedule and the Rangliste for 1000 teams × 10 Passen.
//! Run with `cargo bench --bench domain`; prints the best and median of several runs.

use jassturnier::domain::ids::{ResultId, TeamId};
use jassturnier::domain::schedule::{fixed_schedule, rematches};
use jassturnier::domain::standblatt::{
    RanglisteKind, ResultFacts, SeatFacts, TeamFacts, TournamentFacts, rangliste, standblaetter,
};
use jassturnier::domain::team::TeamStatus;
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

fn main() {
    let draws = time(
        &format!("fixed schedule, {TEAMS} teams × {PASSEN} Passen"),
        || fixed_schedule(TEAMS, PASSEN),
    );
    let repeats = rematches(&draws).len();
    println!("  rematches: {repeats}");
    assert_eq!(repeats, 0, "the schedule must be rematch-free");

    let teams: Vec<TeamFacts> = (1..=TEAMS as i32)
        .map(|id| TeamFacts {
            id: TeamId(id),
            startnummer: id as u32,
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
            let (a, b) = (TeamId(table.team_a as i32), TeamId(table.team_b as i32));
            seats.push(SeatFacts {
                passe,
                team: a,
                table: Some(table.number),
                opponent: Some(b),
            });
            seats.push(SeatFacts {
                passe,
                team: b,
                table: Some(table.number),
                opponent: Some(a),
            });
            let points_a = (passe * 7919 + table.number * 104_729) % 1885;
            results.push(ResultFacts {
                id: ResultId(results.len() as i32),
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
            });
        }
    }
    let facts = TournamentFacts {
        passen: PASSEN,
        pauschale: 1000,
        teams: &teams,
        seats: &seats,
        results: &results,
    };
    let ranked = time(
        &format!("Standblätter + Rangliste, {TEAMS} teams × {PASSEN} Passen"),
        || {
            let sheets = standblaetter(&facts);
            rangliste(RanglisteKind::Provisorisch, &sheets).len()
        },
    );
    assert_eq!(ranked, TEAMS as usize);
}
