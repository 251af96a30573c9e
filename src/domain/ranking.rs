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
    let mut order: Vec<(&RankInput<K>, Vec<u32>, u32)> = inputs
        .iter()
        .map(|input| (input, tie_break(&input.passen), input.passen.iter().sum()))
        .collect();
    order.sort_by(|x, y| {
        y.2.cmp(&x.2)
            .then_with(|| y.1.cmp(&x.1))
            .then_with(|| x.0.key.cmp(&y.0.key))
    });
    let mut ranked: Vec<Ranked<K>> = Vec::with_capacity(order.len());
    for (position, (input, sorted, total)) in order.iter().enumerate() {
        let rank = match position.checked_sub(1).map(|p| &order[p]) {
            Some(prev) if prev.2 == *total && prev.1 == *sorted => ranked[position - 1].rank,
            _ => position as u32 + 1,
        };
        ranked.push(Ranked {
            rank,
            key: input.key.clone(),
            total: *total,
        });
    }
    ranked
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
