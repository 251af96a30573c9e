//! Rangliste order (seed 004 §8): total points; on equal totals the best Passe decides,
//! then the second-best, and so on. Teams equal in every respect share the rank.

use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankInput<K> {
    /// Breaks no tie; only orders teams that share a rank (e.g. by Startnummer).
    pub key: K,
    pub passen: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranked<K> {
    pub rank: u32,
    pub key: K,
    pub total: u32,
}

/// The points of the Passen from best to worst: the tie-break sequence.
fn tie_break(passen: &[u32]) -> Vec<u32> {
    let mut sorted = passen.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    sorted
}

/// Compares two teams by the rules: Greater means `a` ranks ahead of `b`.
pub fn compare(a: &[u32], b: &[u32]) -> Ordering {
    let total = |p: &[u32]| p.iter().map(|x| u64::from(*x)).sum::<u64>();
    total(a)
        .cmp(&total(b))
        .then_with(|| tie_break(a).cmp(&tie_break(b)))
}

pub fn rank<K: Ord + Clone>(inputs: &[RankInput<K>]) -> Vec<Ranked<K>> {
    rank_by(inputs, |passen| (passen.iter().sum(), tie_break(passen)))
}

/// Ranks by `key` of each team's Passen, the total first and then what breaks ties, the
/// greater ahead; teams with equal keys share the rank (listed by their input key).
pub fn rank_by<K: Ord + Clone, T: Ord>(
    inputs: &[RankInput<K>],
    key: impl Fn(&[u32]) -> (u32, T),
) -> Vec<Ranked<K>> {
    let mut order: Vec<(&RankInput<K>, (u32, T))> = inputs
        .iter()
        .map(|input| (input, key(&input.passen)))
        .collect();
    order.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.key.cmp(&y.0.key)));
    let mut ranked: Vec<Ranked<K>> = Vec::with_capacity(order.len());
    for (position, (input, key)) in order.iter().enumerate() {
        let rank = match position.checked_sub(1).map(|p| &order[p]) {
            Some((_, previous)) if previous == key => ranked[position - 1].rank,
            _ => u32::try_from(position + 1).unwrap_or(u32::MAX),
        };
        ranked.push(Ranked {
            rank,
            key: input.key.clone(),
            total: key.0,
        });
    }
    ranked
}

/// Why one team ranks before another of equal total: the first place of the tie-break
/// sequence where they differ (0: the best Passe, 1: the second-best, …), with both values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TieBreak {
    pub place: usize,
    pub ahead: u32,
    pub behind: u32,
    /// Decided among the Passen struck by the Streichresultat (the counted ones were equal).
    pub struck: bool,
    /// Decided by the Nuller (Differenzler), not by a Passe: `ahead` and `behind` count them.
    pub nuller: bool,
}

/// The tie-break between two teams of equal total, `ahead` ranked first; None when the
/// totals differ (no tie) or the teams are equal in every respect (they share the rank).
pub fn tie_break_between(ahead: &[u32], behind: &[u32]) -> Option<TieBreak> {
    let total = |p: &[u32]| p.iter().map(|x| u64::from(*x)).sum::<u64>();
    if total(ahead) != total(behind) {
        return None;
    }
    first_difference(&tie_break(ahead), &tie_break(behind), false)
}

/// Where two tie-break sequences (best first) first differ.
pub(super) fn first_difference(ahead: &[u32], behind: &[u32], struck: bool) -> Option<TieBreak> {
    let place = ahead.iter().zip(behind).position(|(x, y)| x != y)?;
    Some(TieBreak {
        place,
        ahead: ahead[place],
        behind: behind[place],
        struck,
        nuller: false,
    })
}

impl TieBreak {
    /// As players read it: "Stichentscheid: beste Passe 1'174 / 1'170" (`round`: the
    /// mode's word, Passe or Spielrunde).
    pub fn text(&self, round: &str) -> String {
        const ORDINALS: [&str; 10] = [
            "", "zweit", "dritt", "viert", "fünft", "sechst", "siebt", "acht", "neunt", "zehnt",
        ];
        if self.nuller {
            return format!("Stichentscheid: Nuller {} / {}", self.ahead, self.behind);
        }
        let which = match ORDINALS.get(self.place) {
            Some(ordinal) => format!("{ordinal}beste"),
            None => format!("{}.-beste", self.place + 1),
        };
        let struck = if self.struck { "gestrichene " } else { "" };
        format!(
            "Stichentscheid: {which} {struck}{round} {} / {}",
            super::format::number(i64::from(self.ahead)),
            super::format::number(i64::from(self.behind))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input(key: u32, passen: &[u32]) -> RankInput<u32> {
        RankInput {
            key,
            passen: passen.to_vec(),
        }
    }

    fn ranks(inputs: &[RankInput<u32>]) -> Vec<(u32, u32)> {
        rank(inputs).iter().map(|r| (r.key, r.rank)).collect()
    }

    #[test]
    fn total_decides_first() {
        let r = ranks(&[
            input(1, &[900, 900]),
            input(2, &[1000, 900]),
            input(3, &[700, 700]),
        ]);
        assert_eq!(r, vec![(2, 1), (1, 2), (3, 3)]);
    }

    #[test]
    fn best_passe_breaks_a_tie() {
        // Both 3'000: team 2's best Passe (1'200) beats team 1's (1'100).
        let r = ranks(&[input(1, &[1000, 1100, 900]), input(2, &[1200, 900, 900])]);
        assert_eq!(r, vec![(2, 1), (1, 2)]);
    }

    #[test]
    fn second_and_third_best_passe_decide_in_turn() {
        // Same total and best Passe; second-best decides.
        let r = ranks(&[input(1, &[1200, 800, 1000]), input(2, &[1200, 900, 900])]);
        assert_eq!(r, vec![(1, 1), (2, 2)]);
        // Same total, best and second-best; third decides.
        let r = ranks(&[
            input(1, &[1200, 1000, 600, 200]),
            input(2, &[1200, 1000, 500, 300]),
        ]);
        assert_eq!(r, vec![(1, 1), (2, 2)]);
    }

    #[test]
    fn a_tie_break_says_which_passe_decided_with_both_values() {
        let best = tie_break_between(&[1174, 900, 800], &[1170, 904, 800]).unwrap();
        assert_eq!(
            best.text("Passe"),
            "Stichentscheid: beste Passe 1'174 / 1'170"
        );
        let second = tie_break_between(&[1200, 800, 1000], &[1200, 900, 900]).unwrap();
        assert_eq!(
            second.text("Spielrunde"),
            "Stichentscheid: zweitbeste Spielrunde 1'000 / 900"
        );
        assert_eq!(tie_break_between(&[1000, 900], &[900, 900]), None, "no tie");
        assert_eq!(
            tie_break_between(&[1000, 900], &[900, 1000]),
            None,
            "shared rank"
        );
    }

    proptest! {
        /// Where equal totals are ordered, the explanation names values that order them the
        /// same way (every team has one value per Passe, as in the Rangliste).
        #[test]
        fn the_explained_tie_break_agrees_with_the_order(
            (a, b) in (1usize..6).prop_flat_map(|n| (
                proptest::collection::vec(0u32..40, n),
                proptest::collection::vec(0u32..40, n),
            )),
        ) {
            let explained = tie_break_between(&a, &b);
            let same_total = a.iter().sum::<u32>() == b.iter().sum::<u32>();
            match compare(&a, &b) {
                Ordering::Greater if same_total => {
                    let t = explained.expect("an ordered tie is explained");
                    prop_assert!(t.ahead > t.behind);
                }
                Ordering::Less if same_total => {
                    let t = explained.expect("explained either way");
                    prop_assert!(t.ahead < t.behind);
                }
                _ => prop_assert!(explained.is_none()),
            }
        }
    }

    #[test]
    fn teams_equal_in_every_respect_share_the_rank() {
        let r = ranks(&[
            input(4, &[800, 800]),
            input(1, &[1000, 900]),
            input(3, &[900, 1000]),
            input(2, &[700, 700]),
        ]);
        assert_eq!(r, vec![(1, 1), (3, 1), (4, 3), (2, 4)]);
        let r = ranks(&[
            input(1, &[1000]),
            input(2, &[900]),
            input(3, &[900]),
            input(4, &[800]),
        ]);
        assert_eq!(r.iter().map(|x| x.1).collect::<Vec<_>>(), vec![1, 2, 2, 4]);
    }

    proptest! {
        #[test]
        fn order_does_not_depend_on_input_order(
            passen in proptest::collection::vec(proptest::collection::vec(0u32..1884, 4), 1..30),
            rotate in 0usize..30,
        ) {
            let inputs: Vec<RankInput<u32>> = passen.iter().enumerate().map(|(i, p)| input(i as u32, p)).collect();
            let mut shuffled = inputs.clone();
            let len = shuffled.len();
            shuffled.rotate_left(rotate % len);
            shuffled.reverse();
            prop_assert_eq!(rank(&inputs), rank(&shuffled));
        }

        #[test]
        fn more_points_never_move_a_team_down(
            passen in proptest::collection::vec(proptest::collection::vec(0u32..1884, 4), 2..30),
            who in 0usize..30,
            which in 0usize..4,
            extra in 1u32..500,
        ) {
            let inputs: Vec<RankInput<u32>> = passen.iter().enumerate().map(|(i, p)| input(i as u32, p)).collect();
            let who = who % inputs.len();
            let before = rank(&inputs).iter().find(|r| r.key == who as u32).unwrap().rank;
            let mut better = inputs.clone();
            better[who].passen[which] += extra;
            let after = rank(&better).iter().find(|r| r.key == who as u32).unwrap().rank;
            prop_assert!(after <= before);
        }

        #[test]
        fn ties_follow_the_sorted_passen_exactly(
            passen in proptest::collection::vec(proptest::collection::vec(0u32..5, 3), 2..20),
        ) {
            let inputs: Vec<RankInput<u32>> = passen.iter().enumerate().map(|(i, p)| input(i as u32, p)).collect();
            let ranked = rank(&inputs);
            for pair in ranked.windows(2) {
                let a = &inputs[pair[0].key as usize].passen;
                let b = &inputs[pair[1].key as usize].passen;
                let ordering = compare(a, b);
                prop_assert!(ordering != Ordering::Less);
                prop_assert_eq!(pair[0].rank == pair[1].rank, ordering == Ordering::Equal);
            }
        }
    }
}
