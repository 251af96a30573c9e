//! Whole schedules stored for fields where the draw's own search falls short, every pair at
//! most twice. Two kinds:
//!
//! - Small fields over many Passen, where every pair must meet and many twice (3R > N − 1) but
//!   none needs to meet three times (3R ≤ 2(N − 1)): 12 × 6, 18 × 7, 18 × 11, 20 × 11,
//!   20 × 12 and 24 × 8. The annealing search reaches the counting bound on three of them only
//!   with a pair at one table three times (12 × 6: 44 repeats with a pair three times, where
//!   no schedule with every pair at most twice has fewer than 45), and stays more than a
//!   tenth above it on 18 × 7 and 24 × 8; these schedules stay within a tenth of the bound
//!   (12 × 6, 20 × 12 and 24 × 8 at it).
//! - Fields near the limit that miss their quality target (the README's table; 23 × 9, 25 × 9
//!   and 36 × 12 meet it now): the best schedule known — a long offline search's, a SAT
//!   solver's with a symmetry (25 × 9 and 36 × 12, at the counting bound), or the draw's own
//!   with the seed that did best. No more repeats than the draw's search left with any of seeds
//!   1 to 3, often fewer (37 × 12: 16 where seeds 1 and 2 left 22 and 20), and drawn at once where
//!   the search took up to two minutes. The draw stops at them.
//!
//! They were found once, offline — four by a SAT solver (12 s for 20 × 11, 2.5 minutes for
//! 18 × 11, 5 s for 20 × 12, about a minute for 24 × 8), two by a SAT solver over symmetric
//! schedules (25 × 9, 36 × 12), the others by a long tabu search; the searches are in the
//! history (commit 33dbaf3, `bench/einzel_*.py`, `benches/einzel_offline.rs`), each field's
//! command beside it in the data file. They are stored whole in `at_most_twice.txt`: per Passe
//! the seats A1, A2, B1, B2 table by table, then the spielfrei players, nobody twice before
//! everybody once. The draw gives the players to the points in a seeded random order.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

use super::design::DesignPasse;

struct Field {
    players: usize,
    /// The schedule's meeting repeats (the module test counts them).
    repeats: u32,
    passen: Vec<Vec<usize>>,
}

/// The stored fields, read once. A file that does not read gives no fields (the draw then
/// searches); the module test reads it.
fn fields() -> &'static [Field] {
    static FIELDS: OnceLock<Vec<Field>> = OnceLock::new();
    FIELDS.get_or_init(|| read_fields(include_str!("at_most_twice.txt")).unwrap_or_default())
}

/// Reads the data file: `#` comments, per field a line `players passen repeats` and then one
/// line per Passe with every player once. None if anything does not fit.
fn read_fields(text: &str) -> Option<Vec<Field>> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'));
    let numbers = |line: &str| -> Option<Vec<usize>> {
        line.split_whitespace().map(|n| n.parse().ok()).collect()
    };
    let mut fields = Vec::new();
    while let Some(header) = lines.next() {
        let [players, passen, repeats] = numbers(header)?[..] else {
            return None;
        };
        let passen = (0..passen)
            .map(|_| {
                let row = numbers(lines.next()?)?;
                let mut sorted = row.clone();
                sorted.sort_unstable();
                (sorted == (0..players).collect::<Vec<_>>()).then_some(row)
            })
            .collect::<Option<Vec<_>>>()?;
        fields.push(Field {
            players,
            repeats: u32::try_from(repeats).ok()?,
            passen,
        });
    }
    Some(fields)
}

fn stored(players: usize, passen: usize) -> Option<&'static Field> {
    fields()
        .iter()
        .find(|f| f.players == players && f.passen.len() == passen)
}

/// The meeting repeats of the schedule stored for `players` × `passen`, if there is one: the fewest
/// any search has found for that field, so the draw need not search below it.
pub fn repeats(players: usize, passen: usize) -> Option<u32> {
    stored(players, passen).map(|f| f.repeats)
}

/// The stored schedule for `players` × `passen` (each Passe's tables and spielfrei, as the
/// 1-rotational designs give them), players placed in a seeded order; None where none is
/// stored for exactly that field.
pub fn schedule(players: usize, passen: usize, rng: &mut ChaCha8Rng) -> Option<Vec<DesignPasse>> {
    let field = stored(players, passen)?;
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
                    .map(|t| [t[0], t[1], t[2], t[3]].map(|p| label[p]))
                    .collect();
                let spielfrei = row[seated..].iter().map(|&p| label[p]).collect();
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
    fn every_stored_field_has_no_pair_three_times_and_the_repeats_it_claims() {
        // The first kind (see the module comment) also stays within a tenth of the bound.
        let near_the_bound = [(12, 6), (18, 7), (18, 11), (20, 11), (20, 12), (24, 8)];
        let fields = read_fields(include_str!("at_most_twice.txt")).expect("the data file reads");
        assert_eq!(fields.len(), 26);
        for field in &fields {
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
            assert_eq!(repeats, field.repeats, "{n} × {r}");
            let seated: Vec<usize> = weeks.iter().map(|tables| 4 * tables.len()).collect();
            let bound = meeting_bound(n, &played, &seated, 2);
            assert!(
                repeats <= bound + bound / 10 || !near_the_bound.contains(&(n, r)),
                "{n} × {r}: {repeats} vs {bound}"
            );
        }
    }

    #[test]
    fn a_data_file_that_does_not_fit_reads_as_nothing() {
        assert_eq!(
            read_fields("# c\n4 1 0\n0 1 2 3\n").map(|f| f.len()),
            Some(1)
        );
        assert!(read_fields("4 1 0\n0 1 2 2\n").is_none(), "a player twice");
        assert!(read_fields("4 2 0\n0 1 2 3\n").is_none(), "a Passe missing");
        assert!(read_fields("4 1\n0 1 2 3\n").is_none(), "no repeats");
        assert!(read_fields("4 1 0\n0 1 2 x\n").is_none(), "not a number");
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
