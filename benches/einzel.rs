//! The Einzelschieber draw against its quality targets: for each field, the time of a whole
//! schedule and its partner and meeting repeats beside the counting bound; and one Passe of
//! 200 players drawn after 7 played ones (per-Passe drawing).
//! Run with `cargo bench --bench einzel`.

use jassturnier::domain::einzel_draw::{EinzelRequest, draw_einzel, quality};
use std::time::Instant;

fn main() {
    println!(
        "players × Passen: time | partner repeats | meeting repeats (bound; target) | most meetings"
    );
    let fields = [
        (16, 4),
        (24, 4),
        (20, 5),
        (21, 5),
        (24, 6),
        (24, 7),
        (28, 9),
        (32, 10),
        (40, 8),
        (100, 8),
        (200, 8),
        (16, 8),
        (24, 8),
        (30, 12),
    ];
    for (players, passen) in fields {
        let start = Instant::now();
        let drawn = draw_einzel(&EinzelRequest {
            players,
            fixed: &[],
            passen,
            clubs: None,
            absent: &[],
            seed: 1,
        });
        let elapsed = start.elapsed();
        let q = quality(players, &drawn, None);
        let target = if 3 * passen < players {
            0
        } else {
            q.bound + q.bound / 10
        };
        println!(
            "{players:>3} × {passen:>2}: {:>7.1} ms | {} | {:>3} (bound {}, target ≤ {target}{}) | {}",
            elapsed.as_secs_f64() * 1e3,
            q.partner_repeats,
            q.meeting_repeats,
            q.bound,
            if q.meeting_repeats <= target {
                ", met"
            } else {
                ", MISSED"
            },
            q.most_meetings,
        );
    }
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
