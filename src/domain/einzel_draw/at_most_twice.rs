//! Whole schedules for small fields over many Passen, where every pair must meet and many twice
//! (3R > N − 1) but none needs to meet three times (3R ≤ 2(N − 1)): 18 × 7, 18 × 11, 20 × 11,
//! 20 × 12 and 24 × 8. The annealing search reaches the counting bound on three of them only
//! with a pair at one table three times, and stays more than a tenth above it on 18 × 7 and
//! 24 × 8; these schedules have every pair at most twice and stay within a tenth of the bound
//! (20 × 12 and 24 × 8 at it).
//!
//! They were found once, offline — four by a SAT solver (`bench/einzel_twice.py`, which prints
//! the rows below; 12 s for 20 × 11, 2.5 minutes for 18 × 11, 5 s for 20 × 12, about a minute
//! for 24 × 8), 18 × 7 by a long tabu search (`benches/einzel_offline.rs`) — and are stored
//! whole: per Passe the seats A1, A2, B1, B2 table by table, then the spielfrei players,
//! nobody twice before everybody once. The draw gives the players to the points in a seeded
//! random order.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::design::DesignPasse;

struct Field {
    players: usize,
    passen: &'static [&'static [u8]],
}

/// `python3 bench/einzel_twice.py 20 11 1 5`: 141 repeats (bound 140), one pair never met.
#[rustfmt::skip]
const FIELD_20_11: Field = Field {
    players: 20,
    passen: &[
        &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        &[0, 5, 9, 17, 1, 10, 13, 18, 2, 7, 11, 12, 3, 6, 14, 16, 4, 8, 15, 19],
        &[0, 11, 13, 16, 1, 4, 9, 14, 2, 15, 5, 18, 3, 10, 7, 19, 6, 8, 12, 17],
        &[0, 6, 10, 15, 1, 8, 7, 16, 2, 4, 13, 17, 3, 9, 12, 18, 5, 11, 14, 19],
        &[0, 7, 14, 18, 1, 15, 11, 17, 2, 9, 6, 19, 3, 8, 5, 13, 4, 12, 10, 16],
        &[0, 17, 9, 13, 1, 11, 6, 18, 2, 16, 3, 19, 5, 7, 8, 15, 4, 10, 12, 14],
        &[0, 18, 4, 11, 1, 5, 9, 12, 2, 10, 15, 16, 3, 7, 6, 13, 8, 14, 17, 19],
        &[0, 2, 7, 14, 1, 3, 4, 15, 11, 13, 12, 19, 5, 6, 10, 17, 8, 16, 9, 18],
        &[0, 4, 5, 16, 1, 19, 7, 12, 2, 6, 8, 13, 3, 11, 9, 15, 10, 14, 17, 18],
        &[0, 19, 1, 6, 2, 8, 4, 18, 3, 5, 11, 14, 7, 9, 10, 13, 12, 16, 15, 17],
        &[0, 3, 8, 12, 1, 2, 5, 10, 6, 14, 9, 16, 13, 19, 15, 18, 4, 17, 7, 11],
    ],
};

/// `python3 bench/einzel_twice.py 18 11 1`: 112 repeats (bound 111), one pair never met.
#[rustfmt::skip]
const FIELD_18_11: Field = Field {
    players: 18,
    passen: &[
        &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1],
        &[0, 4, 7, 15, 1, 12, 6, 13, 8, 10, 14, 16, 5, 9, 11, 17, 2, 3],
        &[0, 8, 12, 15, 1, 10, 11, 16, 2, 13, 14, 17, 3, 6, 7, 9, 4, 5],
        &[0, 3, 13, 16, 1, 9, 10, 14, 2, 8, 11, 15, 4, 12, 5, 17, 6, 7],
        &[0, 10, 3, 17, 1, 13, 2, 4, 7, 12, 15, 16, 5, 6, 11, 14, 8, 9],
        &[0, 2, 6, 16, 1, 3, 15, 17, 5, 8, 9, 13, 4, 7, 12, 14, 10, 11],
        &[0, 14, 4, 8, 1, 5, 7, 16, 2, 11, 9, 17, 3, 15, 6, 10, 12, 13],
        &[0, 1, 6, 17, 2, 5, 7, 10, 4, 13, 9, 16, 3, 8, 11, 12, 14, 15],
        &[0, 7, 11, 13, 1, 8, 3, 5, 2, 12, 6, 14, 4, 9, 10, 15, 16, 17],
        &[3, 11, 7, 14, 2, 9, 12, 16, 5, 13, 6, 15, 4, 10, 8, 17, 0, 1],
        &[0, 5, 10, 12, 1, 14, 9, 15, 4, 16, 6, 11, 7, 8, 13, 17, 2, 3],
    ],
};

/// `python3 bench/einzel_twice.py 20 12 - z5`: 170 repeats = bound, every pair met. Found with
/// the symmetry Z₅ on four rows of five (two orbits of five Passen, two Passen it fixes) in 5 s,
/// where the solver without it gave no answer in 35 minutes.
#[rustfmt::skip]
const FIELD_20_12: Field = Field {
    players: 20,
    passen: &[
        &[0, 2, 4, 15, 1, 9, 12, 14, 6, 8, 10, 17, 3, 13, 18, 19, 5, 7, 11, 16],
        &[0, 1, 3, 16, 7, 9, 11, 18, 2, 5, 10, 13, 6, 12, 8, 17, 4, 14, 15, 19],
        &[0, 10, 15, 16, 1, 4, 2, 17, 5, 8, 12, 19, 3, 6, 11, 14, 7, 13, 9, 18],
        &[0, 3, 2, 18, 1, 11, 16, 17, 6, 9, 13, 15, 5, 14, 8, 19, 4, 7, 10, 12],
        &[0, 8, 11, 13, 1, 3, 4, 19, 2, 12, 17, 18, 6, 10, 9, 15, 5, 16, 7, 14],
        &[0, 5, 6, 18, 1, 10, 13, 14, 2, 16, 9, 12, 3, 4, 7, 8, 11, 15, 17, 19],
        &[0, 4, 8, 9, 1, 6, 7, 19, 2, 11, 10, 14, 3, 17, 5, 13, 12, 16, 15, 18],
        &[0, 9, 1, 5, 4, 18, 6, 14, 2, 7, 8, 15, 3, 12, 10, 11, 13, 17, 16, 19],
        &[0, 19, 7, 10, 1, 2, 5, 6, 3, 8, 9, 16, 14, 18, 15, 17, 4, 13, 11, 12],
        &[0, 14, 12, 13, 1, 15, 8, 11, 2, 3, 6, 7, 4, 9, 5, 17, 10, 19, 16, 18],
        &[0, 12, 6, 19, 1, 13, 7, 15, 2, 8, 14, 16, 3, 10, 9, 17, 4, 11, 5, 18],
        &[0, 7, 14, 17, 1, 8, 10, 18, 2, 9, 11, 19, 3, 5, 12, 15, 4, 6, 13, 16],
    ],
};

/// `python3 bench/einzel_twice.py 24 8 1 z3`: 12 repeats = bound, every pair met, the repeats a
/// perfect matching (each player meets one other twice). Found with the symmetry Z₃ on eight
/// rows of three (two orbits of three Passen, two Passen it fixes) in about a minute; Z₄ and Z₆
/// gave no answer in 12 minutes each, and the search alone leaves 18.
#[rustfmt::skip]
const FIELD_24_8: Field = Field {
    players: 24,
    passen: &[
        &[0, 3, 14, 16, 1, 5, 10, 11, 2, 4, 18, 19, 6, 13, 17, 22, 7, 9, 20, 21, 8, 12, 15, 23],
        &[0, 5, 19, 20, 1, 4, 12, 17, 2, 3, 9, 11, 6, 16, 13, 21, 7, 15, 14, 23, 8, 10, 18, 22],
        &[0, 4, 9, 10, 1, 3, 18, 20, 2, 5, 13, 15, 8, 16, 12, 21, 6, 11, 19, 23, 7, 17, 14, 22],
        &[0, 1, 15, 21, 5, 9, 22, 23, 2, 6, 8, 20, 3, 4, 7, 13, 11, 12, 14, 18, 10, 16, 17, 19],
        &[0, 6, 7, 18, 1, 2, 16, 22, 9, 12, 13, 19, 3, 10, 21, 23, 4, 5, 8, 14, 11, 15, 17, 20],
        &[0, 2, 17, 23, 1, 7, 8, 19, 3, 5, 6, 12, 4, 11, 21, 22, 9, 15, 16, 18, 10, 13, 14, 20],
        &[0, 8, 11, 13, 1, 6, 9, 14, 2, 7, 10, 12, 3, 15, 19, 22, 4, 16, 20, 23, 5, 17, 18, 21],
        &[0, 12, 20, 22, 1, 13, 18, 23, 2, 14, 19, 21, 3, 8, 9, 17, 4, 6, 10, 15, 5, 7, 11, 16],
    ],
};

/// `cargo bench --bench einzel_offline -- 18 7 16`: 16 repeats (bound 15), every pair at most
/// twice. Found by the offline tabu search in 2 s, where the SAT solver gave no answer in
/// 15 minutes and the draw's own search leaves 17.
#[rustfmt::skip]
const FIELD_18_7: Field = Field {
    players: 18,
    passen: &[
        &[6, 7, 11, 4, 8, 15, 1, 16, 3, 0, 13, 2, 12, 5, 14, 10, 9, 17],
        &[3, 4, 8, 11, 16, 6, 5, 2, 15, 1, 9, 13, 7, 17, 14, 0, 10, 12],
        &[1, 12, 7, 2, 10, 0, 15, 11, 3, 14, 6, 9, 17, 5, 4, 13, 8, 16],
        &[14, 11, 5, 1, 16, 9, 4, 0, 2, 10, 13, 8, 17, 12, 15, 3, 7, 6],
        &[2, 15, 4, 14, 9, 7, 5, 8, 17, 6, 1, 10, 13, 16, 11, 12, 0, 3],
        &[0, 6, 8, 12, 2, 9, 17, 11, 3, 16, 7, 10, 14, 13, 4, 1, 5, 15],
        &[15, 6, 13, 7, 5, 3, 1, 0, 17, 8, 16, 14, 4, 10, 12, 9, 11, 2],
    ],
};

const FIELDS: [&Field; 5] = [
    &FIELD_18_7,
    &FIELD_18_11,
    &FIELD_20_11,
    &FIELD_20_12,
    &FIELD_24_8,
];

/// The stored schedule for `players` × `passen` (each Passe's tables and spielfrei, as the
/// 1-rotational designs give them), players placed in a seeded order; None where none is
/// stored for exactly that field.
pub fn schedule(players: usize, passen: usize, rng: &mut ChaCha8Rng) -> Option<Vec<DesignPasse>> {
    let field = FIELDS
        .iter()
        .find(|f| f.players == players && f.passen.len() == passen)?;
    let mut label: Vec<usize> = (0..players).collect();
    label.shuffle(rng);
    let seated = players - players % 4;
    Some(
        field
            .passen
            .iter()
            .map(|row| {
                let tables = row[..seated]
                    .chunks_exact(4)
                    .map(|t| [t[0], t[1], t[2], t[3]].map(|p| label[usize::from(p)]))
                    .collect();
                let spielfrei = row[seated..]
                    .iter()
                    .map(|&p| label[usize::from(p)])
                    .collect();
                (tables, spielfrei)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::einzel_draw::meeting_bound;
    use rand::SeedableRng;

    #[test]
    fn every_stored_field_has_no_pair_three_times_and_stays_within_a_tenth_of_the_bound() {
        for field in FIELDS {
            let (n, r) = (field.players, field.passen.len());
            let (weeks, byes): (Vec<_>, Vec<_>) = schedule(n, r, &mut ChaCha8Rng::seed_from_u64(2))
                .expect("stored")
                .into_iter()
                .unzip();
            let (mut meet, mut partner) = (vec![0u32; n * n], vec![0u32; n * n]);
            let mut sat_out = vec![0u32; n];
            let mut played = vec![0u32; n];
            for (passe, (tables, out)) in weeks.iter().zip(&byes).enumerate() {
                let mut seen: Vec<usize> = tables.iter().flatten().chain(out).copied().collect();
                seen.sort_unstable();
                assert_eq!(
                    seen,
                    (0..n).collect::<Vec<_>>(),
                    "{n} × {r}: everybody once"
                );
                for &p in out {
                    sat_out[p] += 1;
                }
                // Nobody sits out twice before everybody once.
                let least = sat_out.iter().min().copied().unwrap_or(0);
                assert!(
                    sat_out.iter().all(|&s| s <= least + 1),
                    "{n} × {r}, Passe {passe}: {sat_out:?}"
                );
                for t in tables {
                    for (i, &a) in t.iter().enumerate() {
                        played[a] += 1;
                        for &b in &t[i + 1..] {
                            meet[a.min(b) * n + a.max(b)] += 1;
                        }
                    }
                    partner[t[0].min(t[1]) * n + t[0].max(t[1])] += 1;
                    partner[t[2].min(t[3]) * n + t[2].max(t[3])] += 1;
                }
            }
            assert!(
                partner.iter().all(|&p| p <= 1),
                "{n} × {r}: a partner twice"
            );
            assert!(
                meet.iter().all(|&m| m <= 2),
                "{n} × {r}: a pair three times"
            );
            let repeats: u32 = meet.iter().map(|&m| m.saturating_sub(1)).sum();
            let bound = meeting_bound(n, &played);
            assert!(
                repeats <= bound + bound / 10,
                "{n} × {r}: {repeats} vs {bound}"
            );
        }
    }

    #[test]
    fn other_fields_get_none_and_a_seed_its_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(schedule(20, 10, &mut rng), None);
        assert_eq!(schedule(20, 13, &mut rng), None);
        assert_eq!(schedule(24, 11, &mut rng), None);
        let draw = |seed| schedule(20, 11, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(5));
    }
}
