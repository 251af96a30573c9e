use super::*;
use crate::domain::schedule::rematches;
use proptest::prelude::*;
use std::collections::HashSet;

fn no_clubs() -> HashMap<u32, u32> {
    HashMap::new()
}

/// Draws Passen 1..=upto one after another; `active_in(passe)` gives the field of each.
fn run(
    passen: u32,
    upto: u32,
    seed: u64,
    clubs: &HashMap<u32, u32>,
    active_in: impl Fn(u32) -> Vec<u32>,
) -> Vec<PasseDraw<u32>> {
    let mut history = Vec::new();
    for passe in 1..=upto {
        let active = active_in(passe);
        let drawn = draw_passe(&PasseRequest {
            active: &active,
            history: &history,
            passe,
            passen,
            seed,
            clubs,
        });
        check_complete(&drawn.draw, &active);
        history.push(drawn.draw);
    }
    history
}

fn check_complete(draw: &PasseDraw<u32>, active: &[u32]) {
    let mut seen: Vec<u32> = draw
        .tables
        .iter()
        .flat_map(|t| [t.team_a, t.team_b])
        .chain(draw.bye)
        .collect();
    seen.sort();
    let mut expected = active.to_vec();
    expected.sort();
    assert_eq!(
        seen, expected,
        "every active team plays or has the bye once"
    );
    let numbers: HashSet<u32> = draw.tables.iter().map(|t| t.number).collect();
    assert_eq!(numbers.len(), draw.tables.len());
    assert!(
        numbers
            .iter()
            .all(|n| *n >= 1 && *n as usize <= draw.tables.len())
    );
}

fn byes(draws: &[PasseDraw<u32>]) -> HashMap<u32, u32> {
    bye_counts(draws)
}

fn max_rematch_free(teams: u32) -> u32 {
    teams - 1 + teams % 2
}

fn pairs_of(draw: &PasseDraw<u32>) -> HashSet<(u32, u32)> {
    draw.tables
        .iter()
        .map(|t| ordered(t.team_a, t.team_b))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Every possible number of Passen up to the full round robin: not one rematch.
    #[test]
    fn a_full_field_never_meets_twice(teams in 4u32..=30, extra in 0u32..64, seed in any::<u64>()) {
        let passen = 1 + extra % max_rematch_free(teams);
        let field: Vec<u32> = (1..=teams).collect();
        let draws = run(passen, passen, seed, &no_clubs(), |_| field.clone());
        prop_assert!(rematches(&draws).is_empty(), "{:?}", rematches(&draws));
        prop_assert!(byes(&draws).values().all(|b| *b == 1), "byes rotate: nobody has two");
    }

    /// Beyond the round robin rematches are unavoidable: never the previous Passe's,
    /// and byes stay even.
    #[test]
    fn beyond_the_round_robin_no_pair_meets_in_consecutive_passen(
        teams in 4u32..=14, more in 1u32..=6, seed in any::<u64>()
    ) {
        let passen = max_rematch_free(teams) + more;
        let field: Vec<u32> = (1..=teams).collect();
        let draws = run(passen, passen, seed, &no_clubs(), |_| field.clone());
        for window in draws.windows(2) {
            prop_assert!(pairs_of(&window[0]).is_disjoint(&pairs_of(&window[1])));
        }
        if teams % 2 == 1 {
            let counts = byes(&draws);
            let (lo, hi) = (field.iter().map(|t| counts.get(t).copied().unwrap_or(0)).min(),
                            counts.values().copied().max());
            prop_assert!(hi.unwrap_or(0) - lo.unwrap_or(0) <= 1);
        }
    }

    /// A team withdrawing from an even field: its polygon partner gets the bye, still no
    /// rematch and no second bye while there are Passen left of the round robin.
    #[test]
    fn a_withdrawal_keeps_the_field_rematch_free(
        half in 2u32..=15, out_after in 1u32..=6, seed in any::<u64>()
    ) {
        let teams = half * 2;
        let passen = teams - 1;
        let out_after = out_after.min(passen - 1);
        let draws = run(passen, passen, seed, &no_clubs(), |passe| {
            (1..=teams).filter(|t| passe <= out_after || *t != 1).collect()
        });
        prop_assert!(rematches(&draws).is_empty());
        prop_assert!(byes(&draws).values().all(|b| *b == 1));
    }

    /// Teams of one Verein do not meet in the first Passe while the Verein is at most half
    /// the field; and keeping them apart never costs a rematch.
    #[test]
    fn vereine_apart_without_costing_a_rematch(teams in 4u32..=30, clubs in 1u32..=6, seed in any::<u64>()) {
        let club_of: HashMap<u32, u32> = (1..=teams).map(|t| (t, t % (clubs + 1))).collect();
        let largest = (0..=clubs).map(|c| club_of.values().filter(|v| **v == c).count()).max().unwrap_or(0);
        let passen = max_rematch_free(teams);
        let field: Vec<u32> = (1..=teams).collect();
        let draws = run(passen, passen, seed, &club_of, |_| field.clone());
        prop_assert!(rematches(&draws).is_empty());
        let first_same = draws[0].tables.iter().filter(|t| club_of[&t.team_a] == club_of[&t.team_b]).count();
        if largest as u32 * 2 <= teams - teams % 2 {
            prop_assert_eq!(first_same, 0);
        }
    }

    /// Against an exhaustive search from arbitrary earlier Passen (small fields): whenever
    /// some rematch-free plan of h of the remaining Passen exists, the draw is rematch-free
    /// and leaves a rematch-free plan of h−1; when none exists, it takes the fewest
    /// rematches (a previous opponent only when every pairing repeats one).
    #[test]
    fn the_look_ahead_matches_an_exhaustive_search(
        teams in 4u32..=8, played in 0u32..=4, remaining in 1u32..=4, seed in any::<u64>()
    ) {
        let field: Vec<u32> = (1..=teams).collect();
        let remaining = if teams == 8 { remaining.min(3) } else { remaining };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let history: Vec<PasseDraw<u32>> = (0..played).map(|_| random_passe(&field, &mut rng)).collect();
        let passe = played + 1;
        let drawn = draw_passe(&PasseRequest {
            active: &field,
            history: &history,
            passe,
            passen: played + remaining,
            seed,
            clubs: &no_clubs(),
        });
        check_complete(&drawn.draw, &field);
        let state = Exhaustive::of(&field, &history);
        let best = (1..=remaining).rev().find(|h| state.completable(*h));
        match best {
            Some(h) => {
                prop_assert!(drawn.rematches.is_empty(), "a rematch-free plan of {h} Passen exists");
                let mut after = history.clone();
                after.push(drawn.draw.clone());
                prop_assert!(Exhaustive::of(&field, &after).completable(h - 1),
                    "the draw spoils the plan of the remaining {} Passen", h - 1);
            }
            None => {
                let (consecutive, repeats) = state.fewest_repeats();
                let previous = history.last().map(pairs_of).unwrap_or_default();
                let ours_consecutive = pairs_of(&drawn.draw).intersection(&previous).count();
                prop_assert_eq!((ours_consecutive, drawn.rematches.len()), (consecutive, repeats));
            }
        }
    }
}

fn random_passe(field: &[u32], rng: &mut ChaCha8Rng) -> PasseDraw<u32> {
    let mut teams = field.to_vec();
    teams.shuffle(rng);
    let bye = (teams.len() % 2 == 1).then(|| teams.remove(0));
    let pairs: Vec<(u32, u32)> = teams.chunks(2).map(|c| (c[0], c[1])).collect();
    PasseDraw {
        tables: assign_tables(&pairs, |_| None, 0),
        bye,
    }
}

/// A plain exhaustive search, independent of the draw's own search.
struct Exhaustive {
    field: Vec<u32>,
    met: HashMap<(u32, u32), u32>,
    previous: HashSet<(u32, u32)>,
    byes: HashMap<u32, u32>,
}

impl Exhaustive {
    fn of(field: &[u32], history: &[PasseDraw<u32>]) -> Self {
        Exhaustive {
            field: field.to_vec(),
            met: met_pairs(history),
            previous: history.last().map(pairs_of).unwrap_or_default(),
            byes: bye_counts(history),
        }
    }

    /// Every pairing of one Passe allowed by the bye rule: (pairs, bye).
    fn passen(&self, byes: &HashMap<u32, u32>) -> Vec<Pairing<u32>> {
        fn pairings(rest: &[u32]) -> Vec<Vec<(u32, u32)>> {
            let Some((&first, others)) = rest.split_first() else {
                return vec![Vec::new()];
            };
            let mut all = Vec::new();
            for (k, &partner) in others.iter().enumerate() {
                let remaining: Vec<u32> = others
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != k)
                    .map(|(_, t)| *t)
                    .collect();
                for mut tail in pairings(&remaining) {
                    tail.push(ordered(first, partner));
                    all.push(tail);
                }
            }
            all
        }
        let count = |t: &u32| byes.get(t).copied().unwrap_or(0);
        let byes_allowed: Vec<Option<u32>> = if self.field.len().is_multiple_of(2) {
            vec![None]
        } else {
            let fewest = self.field.iter().map(count).min().unwrap_or(0);
            self.field
                .iter()
                .filter(|t| count(t) == fewest)
                .map(|t| Some(*t))
                .collect()
        };
        let mut all = Vec::new();
        for bye in byes_allowed {
            let rest: Vec<u32> = self
                .field
                .iter()
                .copied()
                .filter(|t| Some(*t) != bye)
                .collect();
            all.extend(pairings(&rest).into_iter().map(|p| (p, bye)));
        }
        all
    }

    fn completable(&self, rounds: u32) -> bool {
        fn go(
            state: &Exhaustive,
            met: &mut HashSet<(u32, u32)>,
            byes: &mut HashMap<u32, u32>,
            rounds: u32,
        ) -> bool {
            if rounds == 0 {
                return true;
            }
            for (pairs, bye) in state.passen(byes) {
                if pairs.iter().any(|p| met.contains(p)) {
                    continue;
                }
                met.extend(pairs.iter().copied());
                if let Some(b) = bye {
                    *byes.entry(b).or_default() += 1;
                }
                let ok = go(state, met, byes, rounds - 1);
                for p in &pairs {
                    met.remove(p);
                }
                if let Some(b) = bye {
                    *byes.entry(b).or_default() -= 1;
                }
                if ok {
                    return true;
                }
            }
            false
        }
        let mut met: HashSet<(u32, u32)> = self.met.keys().copied().collect();
        go(self, &mut met, &mut self.byes.clone(), rounds)
    }

    /// The fewest (repeats of the previous Passe, rematches) of any one pairing.
    fn fewest_repeats(&self) -> (usize, usize) {
        self.passen(&self.byes)
            .iter()
            .map(|(pairs, _)| {
                (
                    pairs.iter().filter(|p| self.previous.contains(p)).count(),
                    pairs.iter().filter(|p| self.met.contains_key(p)).count(),
                )
            })
            .min()
            .unwrap_or((0, 0))
    }
}

/// The case from the issue: 7 teams over 6 Passen ended with an avoidable rematch in
/// about a quarter of the seeds; the per-round draw of a neighbouring game leaves 0.15 on
/// average at 8 teams × 6 rounds. Here: none, for a thousand seeds each.
#[test]
fn seven_and_eight_teams_over_six_passen_never_rematch() {
    for teams in [7u32, 8] {
        let field: Vec<u32> = (1..=teams).collect();
        for seed in 0..1000 {
            let draws = run(6, 6, seed, &no_clubs(), |_| field.clone());
            assert!(rematches(&draws).is_empty(), "{teams} teams, seed {seed}");
        }
    }
}

#[test]
fn the_draw_is_reproducible_and_depends_on_the_seed() {
    let field: Vec<u32> = (1..=20).collect();
    let a = run(8, 8, 5, &no_clubs(), |_| field.clone());
    assert_eq!(a, run(8, 8, 5, &no_clubs(), |_| field.clone()));
    assert_ne!(a, run(8, 8, 6, &no_clubs(), |_| field.clone()));
}

/// A team added after Passe 2 no longer fits the hidden round robin: the look-ahead
/// search takes over and still avoids every rematch.
#[test]
fn a_late_team_is_drawn_by_the_look_ahead_search() {
    for seed in 0..50 {
        let draws = run(8, 8, seed, &no_clubs(), |passe| {
            (1..=if passe <= 2 { 15 } else { 16 }).collect()
        });
        assert!(rematches(&draws).is_empty(), "seed {seed}");
    }
}

/// The same Verein keeps apart in later Passen too when the round robin allows it.
#[test]
fn same_verein_pairs_are_counted() {
    let field: Vec<u32> = (1..=10).collect();
    let clubs: HashMap<u32, u32> = field.iter().map(|t| (*t, t % 2)).collect();
    let drawn = draw_passe(&PasseRequest {
        active: &field,
        history: &[],
        passe: 1,
        passen: 5,
        seed: 1,
        clubs: &clubs,
    });
    assert_eq!(drawn.same_club, 0, "two Vereine of five: five mixed tables");
    let all_one: HashMap<u32, u32> = field.iter().map(|t| (*t, 7)).collect();
    let drawn = draw_passe(&PasseRequest {
        active: &field,
        history: &[],
        passe: 1,
        passen: 5,
        seed: 1,
        clubs: &all_one,
    });
    assert_eq!(drawn.same_club, 5);
}
