//! Streichresultat (#79): a tournament may count only the best `k` of its Passen (or
//! Spielrunden) for each team; the others are struck. The Rangliste then orders by the counted
//! total, ties by the counted Passen (best, second best, …), then by the struck ones. A
//! Pauschale or a bye is a Passe like any other here. With every Passe counted (the default)
//! the order is the one of [`super::ranking::rank`].

use super::ranking::{RankInput, Ranked, TieBreak, first_difference, rank_by, tie_break_between};

/// The counted total, the counted Passen best first, the struck ones best first.
type RankKey = (u64, Vec<u32>, Vec<u32>);

/// Which Passen count for the Rangliste.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Wertung {
    /// Every Passe counts (no Streichresultat).
    #[default]
    Alle,
    /// The best `k` count; the rest are struck.
    Beste(u32),
}

impl Wertung {
    /// A flag per Passe: counted (true) or struck. The worst are struck; of equal points the
    /// later Passe (so the sheet strikes where the round was played last). With fewer Passen
    /// than `k` played, all count.
    pub fn counted(self, passen: &[u32]) -> Vec<bool> {
        let Wertung::Beste(k) = self else {
            return vec![true; passen.len()];
        };
        let keep = usize::try_from(k).unwrap_or(usize::MAX);
        let mut order: Vec<usize> = (0..passen.len()).collect();
        // Best first; of equal points the earlier first, so the later one is struck.
        order.sort_by(|&a, &b| passen[b].cmp(&passen[a]).then(a.cmp(&b)));
        let mut flags = vec![false; passen.len()];
        for &i in order.iter().take(keep) {
            flags[i] = true;
        }
        flags
    }

    /// What orders the Rangliste: the counted total, the counted Passen best first, the
    /// struck ones best first.
    fn key(self, passen: &[u32]) -> RankKey {
        let flags = self.counted(passen);
        let mut counted: Vec<u32> = Vec::with_capacity(passen.len());
        let mut struck: Vec<u32> = Vec::new();
        for (&points, &counts) in passen.iter().zip(&flags) {
            if counts {
                counted.push(points);
            } else {
                struck.push(points);
            }
        }
        counted.sort_unstable_by(|a, b| b.cmp(a));
        struck.sort_unstable_by(|a, b| b.cmp(a));
        (counted.iter().map(|&p| u64::from(p)).sum(), counted, struck)
    }

    /// Why `ahead` ranks before `behind` on equal counted total: the first counted Passe
    /// (best first) where they differ, else the first struck one; None when the totals
    /// differ or the two are equal in everything. Without Streichresultat the one of
    /// [`tie_break_between`].
    pub fn tie_break_between(self, ahead: &[u32], behind: &[u32]) -> Option<TieBreak> {
        if self == Wertung::Alle {
            return tie_break_between(ahead, behind);
        }
        let (a, b) = (self.key(ahead), self.key(behind));
        if a.0 != b.0 {
            return None;
        }
        first_difference(&a.1, &b.1, false).or_else(|| first_difference(&a.2, &b.2, true))
    }

    /// The line under the Rangliste: "Gewertet: die 3 besten von 4 Passen"; None when every
    /// Passe counts. `rounds`: the mode's plural (Passen, Spielrunden).
    pub fn text(self, of: u32, rounds: &str) -> Option<String> {
        match self {
            Wertung::Beste(k) if k < of => {
                Some(format!("Gewertet: die {k} besten von {of} {rounds}"))
            }
            _ => None,
        }
    }
}

/// The Rangliste under a [`Wertung`]: ranks shared by teams equal in everything it looks at;
/// `total` is the counted total.
pub fn rank_with<K: Ord + Clone>(inputs: &[RankInput<K>], wertung: Wertung) -> Vec<Ranked<K>> {
    rank_by(inputs, |passen| {
        let (total, counted, struck) = wertung.key(passen);
        (u32::try_from(total).unwrap_or(u32::MAX), (counted, struck))
    })
}

#[cfg(test)]
mod tests {
    use super::super::ranking::rank;
    use super::*;
    use proptest::prelude::*;

    fn input(key: u32, passen: &[u32]) -> RankInput<u32> {
        RankInput {
            key,
            passen: passen.to_vec(),
        }
    }

    #[test]
    fn the_worst_passe_is_struck_and_of_equals_the_later_one() {
        assert_eq!(
            Wertung::Beste(3).counted(&[900, 700, 1000, 800]),
            [true, false, true, true]
        );
        assert_eq!(
            Wertung::Beste(2).counted(&[800, 800, 800]),
            [true, true, false]
        );
        assert_eq!(
            Wertung::Beste(5).counted(&[800, 700]),
            [true, true],
            "fewer played"
        );
        assert_eq!(Wertung::Alle.counted(&[1, 2]), [true, true]);
        assert_eq!(
            Wertung::Beste(3).text(4, "Passen").as_deref(),
            Some("Gewertet: die 3 besten von 4 Passen")
        );
        assert_eq!(Wertung::Beste(4).text(4, "Passen"), None);
        assert_eq!(Wertung::Alle.text(4, "Spielrunden"), None);
    }

    #[test]
    fn ties_go_to_the_counted_passen_first_then_the_struck() {
        // Best 2 of 3: both count 2'000; team 1's counted (1'100, 900) beat team 2's
        // (1'000, 1'000) although team 2's struck Passe is better.
        let r = rank_with(
            &[input(1, &[1100, 900, 100]), input(2, &[1000, 1000, 800])],
            Wertung::Beste(2),
        );
        assert_eq!(
            r.iter()
                .map(|x| (x.key, x.rank, x.total))
                .collect::<Vec<_>>(),
            [(1, 1, 2000), (2, 2, 2000)]
        );
        // Equal counted Passen: the struck one decides.
        let r = rank_with(
            &[input(1, &[1000, 900, 100]), input(2, &[900, 1000, 300])],
            Wertung::Beste(2),
        );
        assert_eq!(
            r.iter().map(|x| (x.key, x.rank)).collect::<Vec<_>>(),
            [(2, 1), (1, 2)]
        );
        let tie = Wertung::Beste(2)
            .tie_break_between(&[900, 1000, 300], &[1000, 900, 100])
            .unwrap();
        assert_eq!(
            tie.text("Passe"),
            "Stichentscheid: beste gestrichene Passe 300 / 100"
        );
        let tie = Wertung::Beste(2)
            .tie_break_between(&[1100, 900, 100], &[1000, 1000, 800])
            .unwrap();
        assert_eq!(
            tie.text("Passe"),
            "Stichentscheid: beste Passe 1'100 / 1'000"
        );
        // Equal in everything: shared.
        let r = rank_with(
            &[input(1, &[1000, 900, 100]), input(2, &[900, 100, 1000])],
            Wertung::Beste(2),
        );
        assert_eq!(r.iter().map(|x| x.rank).collect::<Vec<_>>(), [1, 1]);
    }

    /// An implementation of the rule written apart: the counted total as the best sum of any
    /// `k` Passen (every choice tried), the rank as one more than the teams strictly ahead.
    fn rank_by_hand(passen: &[Vec<u32>], k: usize) -> Vec<u32> {
        fn best_sum(p: &[u32], k: usize) -> u64 {
            if k >= p.len() {
                return p.iter().map(|&x| u64::from(x)).sum();
            }
            (0u32..(1 << p.len()))
                .filter(|mask| mask.count_ones() as usize == k)
                .map(|mask| {
                    (0..p.len())
                        .filter(|i| mask & (1 << i) != 0)
                        .map(|i| u64::from(p[i]))
                        .sum()
                })
                .max()
                .unwrap_or(0)
        }
        let sorted = |p: &[u32]| {
            let mut s = p.to_vec();
            s.sort_unstable_by(|a, b| b.cmp(a));
            s
        };
        let key = |p: &[u32]| {
            let s = sorted(p);
            let cut = k.min(s.len());
            (best_sum(p, k), s[..cut].to_vec(), s[cut..].to_vec())
        };
        passen
            .iter()
            .map(|me| {
                let mine = key(me);
                1 + u32::try_from(passen.iter().filter(|other| key(other) > mine).count()).unwrap()
            })
            .collect()
    }

    proptest! {
        #[test]
        fn the_order_equals_one_written_apart(
            passen in proptest::collection::vec(proptest::collection::vec(0u32..8, 4), 1..12),
            k in 1u32..5,
        ) {
            let inputs: Vec<RankInput<u32>> = passen
                .iter()
                .enumerate()
                .map(|(i, p)| input(u32::try_from(i).unwrap(), p))
                .collect();
            let expected = rank_by_hand(&passen, usize::try_from(k).unwrap());
            for r in rank_with(&inputs, Wertung::Beste(k)) {
                prop_assert_eq!(r.rank, expected[usize::try_from(r.key).unwrap()]);
            }
        }

        /// With every Passe counted the Rangliste is today's, rank for rank and total for
        /// total.
        #[test]
        fn without_streichresultat_nothing_changes(
            passen in proptest::collection::vec(proptest::collection::vec(0u32..1884, 4), 1..30),
        ) {
            let inputs: Vec<RankInput<u32>> = passen
                .iter()
                .enumerate()
                .map(|(i, p)| input(u32::try_from(i).unwrap(), p))
                .collect();
            prop_assert_eq!(rank_with(&inputs, Wertung::Alle), rank(&inputs));
        }

        /// Two teams of equal counted total ranked apart: the tie-break names a Passe where
        /// the one ahead has more; ranked alike, it names none.
        #[test]
        fn the_tie_break_explains_every_order_of_equal_totals(
            a in proptest::collection::vec(0u32..6, 4),
            b in proptest::collection::vec(0u32..6, 4),
            k in 1u32..4,
        ) {
            let wertung = Wertung::Beste(k);
            let r = rank_with(&[input(1, &a), input(2, &b)], wertung);
            let (ahead, behind) = if r[0].key == 1 { (&a, &b) } else { (&b, &a) };
            let tie = wertung.tie_break_between(ahead, behind);
            match (r[0].total == r[1].total, r[0].rank == r[1].rank) {
                (true, false) => {
                    let tie = tie.expect("ranked apart on equal totals");
                    prop_assert!(tie.ahead > tie.behind);
                }
                _ => prop_assert_eq!(tie, None),
            }
        }

        #[test]
        fn exactly_k_passen_count_and_they_are_the_best(
            passen in proptest::collection::vec(0u32..2000, 0..10),
            k in 0u32..12,
        ) {
            let flags = Wertung::Beste(k).counted(&passen);
            let counted: Vec<u32> = passen.iter().zip(&flags).filter(|(_, c)| **c).map(|(p, _)| *p).collect();
            let struck: Vec<u32> = passen.iter().zip(&flags).filter(|(_, c)| !**c).map(|(p, _)| *p).collect();
            prop_assert_eq!(counted.len(), passen.len().min(usize::try_from(k).unwrap()));
            let worst_counted = counted.iter().min().copied().unwrap_or(u32::MAX);
            prop_assert!(struck.iter().all(|s| *s <= worst_counted));
        }
    }
}
