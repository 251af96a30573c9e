//! The Einzelschieber draw against its quality targets: for each field, the time of a whole
//! schedule and its partner and meeting repeats beside the counting bound; and one Passe of
//! 200 players drawn after 7 played ones (per-Passe drawing).
//! Run with `cargo bench --bench einzel` (`-- --fields 24x8 16x10` for those fields only, and
//! `-- --fields 24x8 --seeds 10` for each of them drawn with seeds 1 to 10);
//! `-- --per-passe 24x7 --leave 2` draws the fields Passe by Passe (player 0 leaving after
//! Passe 2);
//! `cargo bench --bench einzel -- --sweep [from to]` draws every
//! field of 16 to 48 players (`--sweep 8 15`: the fields of fewer than four tables, whose
//! fewest comes from every two Passen, not from counting) over 2 to 12 Passen (as far as
//! partners last) and lists the ones that miss their target.

// A test or benchmark that cannot go on says so by panicking.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use jassturnier::app::draw::remembered_plan;
use jassturnier::domain::einzel_draw::{
    DrawQuality, EinzelPasse, EinzelRequest, draw_einzel, draw_next_einzel, quality,
};
use std::time::Instant;

/// The quality target of a field (see the README): no repeated meeting while `3R ≤ N − 1`
/// (or as few as any schedule can have where none is impossible: `bound`), else within 10 %
/// of the bound.
fn target(players: usize, passen: usize, bound: u32) -> u32 {
    if 3 * passen < players {
        bound
    } else {
        bound + bound / 10
    }
}

/// A whole schedule of `players` × `passen` (seed 1): how long it took and its quality.
fn timed_draw(players: usize, passen: usize) -> (f64, DrawQuality) {
    timed_seeded_draw(players, passen, 1)
}

/// A whole schedule of `players` × `passen` drawn with `seed`.
fn timed_seeded_draw(players: usize, passen: usize, seed: u64) -> (f64, DrawQuality) {
    let start = Instant::now();
    let drawn = draw_einzel(&EinzelRequest {
        players,
        fixed: &[],
        passen,
        clubs: None,
        absent: &[],
        seed,
    });
    let millis = start.elapsed().as_secs_f64() * 1e3;
    (millis, quality(players, &drawn, None))
}

fn sweep(players: std::ops::RangeInclusive<usize>) {
    let (mut fields, mut missed) = (0, 0);
    let start = Instant::now();
    for players in players {
        for passen in 2..=12usize.min(players - 1) {
            let (millis, q) = timed_draw(players, passen);
            fields += 1;
            let goal = target(players, passen, q.bound);
            // Twice at most where each player has enough others to meet (3R ≤ 2(N − 1)).
            let thrice = q.most_meetings > 2 && 3 * passen <= 2 * (players - 1);
            // Fewer repeats than the bound would mean a wrong bound, not a good draw.
            if q.meeting_repeats < q.bound {
                println!("BELOW THE BOUND {players} × {passen}: {q:?}");
            }
            if q.partner_repeats > 0 || q.meeting_repeats > goal || thrice {
                missed += 1;
                println!(
                    "MISSED {players:>2} × {passen:>2}: {:>7.1} ms | partner repeats {} | meeting repeats {} (bound {}, target ≤ {goal}) | most meetings {}",
                    millis, q.partner_repeats, q.meeting_repeats, q.bound, q.most_meetings,
                );
            }
        }
    }
    println!(
        "{fields} fields, {missed} missed, {:.1} s in all",
        start.elapsed().as_secs_f64()
    );
}

/// The fields named among `args`, e.g. `24x8 16x10` (other arguments skipped).
fn fields_after(args: &[String]) -> Vec<(usize, usize)> {
    args.iter()
        .filter_map(|a| {
            let (n, r) = a.split_once('x')?;
            Some((n.parse().ok()?, r.parse().ok()?))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--sweep") {
        // Optionally a range of player numbers: `--sweep 24 28`.
        let number =
            |i: usize, default| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
        sweep(number(at + 1, 16)..=number(at + 2, 48));
        return;
    }
    // Drawn one Passe at a time, each after the ones before (the option *pro Passe neu
    // auslosen*), beside the whole schedule.
    if let Some(at) = args.iter().position(|a| a == "--per-passe") {
        let fields = fields_after(&args[at + 1..]);
        // `--leave P`: player 0 leaves after Passe P.
        let leaves = args
            .iter()
            .position(|a| a == "--leave")
            .and_then(|i| args.get(i + 1)?.parse().ok());
        per_passe(&fields, leaves);
        return;
    }
    // Only the fields named, e.g. `--fields 24x8 16x10`.
    if let Some(at) = args.iter().position(|a| a == "--fields") {
        let fields = fields_after(&args[at + 1..]);
        // With `--seeds K` after them: each field drawn with seeds 1 to K, to tell a field the
        // draw misses by chance from one it misses whatever the seed.
        match args.iter().position(|a| a == "--seeds") {
            Some(k) => {
                let seeds = args.get(k + 1).and_then(|a| a.parse().ok()).unwrap_or(10);
                by_seed(&fields, seeds);
            }
            None => report(&fields),
        }
        return;
    }
    report(&[
        (16, 4),
        (24, 4),
        (20, 5),
        (21, 5),
        (24, 6),
        (24, 7),
        (27, 8),
        (28, 9),
        (32, 10),
        (40, 8),
        (100, 8),
        (200, 8),
        (16, 8),
        (24, 8),
        (30, 12),
    ]);
    one_passe_of_200();
}

/// Each field drawn with seeds 1 to `seeds`: the meeting repeats of each draw beside the
/// target, and how many draws met it.
fn by_seed(fields: &[(usize, usize)], seeds: u64) {
    for &(players, passen) in fields {
        let draws: Vec<(f64, DrawQuality)> = (1..=seeds)
            .map(|seed| timed_seeded_draw(players, passen, seed))
            .collect();
        let target = target(players, passen, draws[0].1.bound);
        let repeats: Vec<String> = draws
            .iter()
            .map(|(_, q)| q.meeting_repeats.to_string())
            .collect();
        let met = draws
            .iter()
            .filter(|(_, q)| q.meeting_repeats <= target && q.partner_repeats == 0)
            .count();
        let slowest = draws.iter().map(|(ms, _)| *ms).fold(0.0, f64::max);
        println!(
            "{players:>3} × {passen:>2}: target ≤ {target}, met by {met} of {seeds} seeds, slowest {slowest:.0} ms | {}",
            repeats.join(" ")
        );
    }
}

/// Each field's time and quality beside its target.
fn report(fields: &[(usize, usize)]) {
    println!(
        "players × Passen: time | partner repeats | meeting repeats (bound; target) | most meetings | opponent repeats"
    );
    for &(players, passen) in fields {
        let (millis, q) = timed_draw(players, passen);
        let target = target(players, passen, q.bound);
        println!(
            "{players:>3} × {passen:>2}: {:>7.1} ms | {} | {:>3} (bound {}, target ≤ {target}{}) | {} | {}",
            millis,
            q.partner_repeats,
            q.meeting_repeats,
            q.bound,
            if q.meeting_repeats <= target {
                ", met"
            } else {
                ", MISSED"
            },
            q.most_meetings,
            q.opponent_repeats,
        );
    }
}

/// One Passe of 200 players drawn after 7 played ones (per-Passe drawing).
fn one_passe_of_200() {
    let played = draw_einzel(&EinzelRequest {
        players: 200,
        fixed: &[],
        passen: 7,
        clubs: None,
        absent: &[],
        seed: 2,
    });
    let start = Instant::now();
    let next = draw_einzel(&EinzelRequest {
        players: 200,
        fixed: &played,
        passen: 1,
        clubs: None,
        absent: &[],
        seed: 3,
    });
    let elapsed = start.elapsed();
    let all: Vec<_> = played.into_iter().chain(next).collect();
    let q = quality(200, &all, None);
    println!(
        "one Passe of 200 players after 7: {:.1} ms, meeting repeats {} (target 0)",
        elapsed.as_secs_f64() * 1e3,
        q.meeting_repeats
    );
}

/// Each field drawn Passe by Passe as the app draws it (looking ahead, plans remembered),
/// and each Passe
/// drawn alone after the ones before (nothing ahead), beside the whole schedule; with
/// `leaves` = Some(p), player 0 leaves after Passe p (he sits nowhere after it).
fn per_passe(fields: &[(usize, usize)], leaves: Option<usize>) {
    for &(players, passen) in fields {
        let absent_after = |played: usize| match leaves {
            Some(p) if played >= p => vec![0],
            _ => Vec::new(),
        };
        let mut runs = Vec::new();
        for look_ahead in [true, false] {
            let start = Instant::now();
            let mut slowest = 0f64;
            let mut played: Vec<EinzelPasse> = Vec::new();
            for passe in 0..passen {
                let absent = absent_after(passe);
                let this = Instant::now();
                let request = EinzelRequest {
                    players,
                    fixed: &played,
                    passen: passen - passe,
                    clubs: None,
                    absent: &absent,
                    seed: 1,
                };
                let next = match look_ahead {
                    true => draw_next_einzel(&request, &mut remembered_plan),
                    false => draw_einzel(&EinzelRequest {
                        passen: 1,
                        seed: 1u64.wrapping_add((passe as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
                        ..request
                    })
                    .into_iter()
                    .next(),
                };
                played.extend(next);
                slowest = slowest.max(this.elapsed().as_secs_f64() * 1e3);
            }
            let q = quality(players, &played, None);
            runs.push((q, start.elapsed().as_secs_f64() * 1e3, slowest));
        }
        let [(ahead, ahead_ms, ahead_slowest), (alone, alone_ms, _)] = [runs[0], runs[1]];
        let whole = match leaves {
            None => format!("{}", timed_draw(players, passen).1.meeting_repeats),
            Some(_) => "-".into(),
        };
        println!(
            "{players:>3} × {passen:>2}: per Passe {:>3} repeats, most {} ({ahead_ms:>6.0} ms, slowest Passe {ahead_slowest:>5.0} ms) | each alone {:>3}, most {} ({alone_ms:>6.0} ms) | whole {whole:>3} | bound {} | partner repeats {} / {}",
            ahead.meeting_repeats,
            ahead.most_meetings,
            alone.meeting_repeats,
            alone.most_meetings,
            ahead.bound,
            ahead.partner_repeats,
            alone.partner_repeats,
        );
    }
}
