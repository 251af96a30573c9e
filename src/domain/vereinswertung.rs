//! Vereinswertung (#79): the clubs ranked by the totals of their best `n` teams (players)
//! in the Rangliste. Ties are decided by the next best team beyond the `n`, then the one
//! after; clubs equal in all of that share the rank.
//!
//! Decisions: only ranked teams count (official Rangliste: with final visa; not the
//! disqualified or withdrawn); a club with fewer than `n` ranked teams counts what it has
//! (so it stands behind a full one of equal strength); the Verein is matched without regard
//! to case and spaces ("JC Uster" = "jc  uster"), and shown as its first spelling.

use super::mode::Better;
use std::collections::HashMap;

/// A ranked team (player) of a club with its total in the Rangliste.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member<K> {
    pub club: String,
    pub key: K,
    pub total: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubRank<K> {
    pub rank: u32,
    pub club: String,
    /// The sum of the counted members' totals.
    pub total: u64,
    /// The members that counted, best first.
    pub counted: Vec<(K, u32)>,
    /// The others, best first (they break ties).
    pub others: Vec<(K, u32)>,
}

/// How a Verein is matched: trimmed, spaces collapsed, lower case.
fn club_key(club: &str) -> String {
    club.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The Vereinswertung over `members` (in Rangliste order), counting the best `n` of each
/// club. Members without a Verein are left out.
pub fn vereinswertung<K: Clone>(members: &[Member<K>], n: usize) -> Vec<ClubRank<K>> {
    vereinswertung_by(members, n, Better::Higher)
}

/// [`vereinswertung`] where `better` says which totals win. Where the lowest wins
/// (Differenzler) a club with fewer than `n` ranked members stands behind every full one
/// (its smaller sum must not lift it), then the lowest sum ranks first.
pub fn vereinswertung_by<K: Clone>(
    members: &[Member<K>],
    n: usize,
    better: Better,
) -> Vec<ClubRank<K>> {
    let mut clubs: Vec<(String, Vec<(K, u32)>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for m in members {
        let key = club_key(&m.club);
        if key.is_empty() {
            continue;
        }
        let at = *index.entry(key).or_insert_with(|| {
            clubs.push((m.club.trim().to_string(), Vec::new()));
            clubs.len() - 1
        });
        clubs[at].1.push((m.key.clone(), m.total));
    }
    let mut ranked: Vec<ClubRank<K>> = clubs
        .into_iter()
        .map(|(club, mut all)| {
            // Best first; of equal totals the one listed first in the Rangliste.
            match better {
                Better::Higher => all.sort_by_key(|m| std::cmp::Reverse(m.1)),
                Better::Lower => all.sort_by_key(|m| m.1),
            }
            let others = all.split_off(n.min(all.len()));
            ClubRank {
                rank: 0,
                club,
                total: all.iter().map(|(_, t)| u64::from(*t)).sum(),
                counted: all,
                others,
            }
        })
        .collect();
    let order = |c: &ClubRank<K>| {
        let totals: Vec<u32> = c.counted.iter().chain(&c.others).map(|(_, t)| *t).collect();
        (c.total, totals)
    };
    let ahead = |a: &ClubRank<K>, b: &ClubRank<K>| match better {
        Better::Higher => order(b).cmp(&order(a)),
        Better::Lower => {
            let full = |c: &ClubRank<K>| std::cmp::Reverse(c.counted.len());
            (full(a), order(a)).cmp(&(full(b), order(b)))
        }
    };
    ranked.sort_by(|a, b| ahead(a, b).then_with(|| super::collation::compare(&a.club, &b.club)));
    for i in 0..ranked.len() {
        ranked[i].rank = match i.checked_sub(1) {
            Some(p) if ahead(&ranked[p], &ranked[i]).is_eq() => ranked[p].rank,
            _ => u32::try_from(i + 1).unwrap_or(u32::MAX),
        };
    }
    ranked
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn m(club: &str, key: u32, total: u32) -> Member<u32> {
        Member {
            club: club.into(),
            key,
            total,
        }
    }

    #[test]
    fn in_a_differenzler_the_lowest_sums_win_and_full_clubs_come_first() {
        let members = [
            m("JC Uster", 1, 30),
            m("Jassfreunde Zug", 2, 35),
            m("JC Uster", 3, 50),
            m("Jassfreunde Zug", 4, 40),
            m("JC Uster", 5, 90),
            m("JC Horgen", 6, 20),
        ];
        let r = vereinswertung_by(&members, 2, Better::Lower);
        let line: Vec<(u32, &str, u64)> = r
            .iter()
            .map(|c| (c.rank, c.club.as_str(), c.total))
            .collect();
        // Uster 30 + 50 = 80 (90 not counted), Zug 35 + 40 = 75; Horgen has one player.
        assert_eq!(
            line,
            [
                (1, "Jassfreunde Zug", 75),
                (2, "JC Uster", 80),
                (3, "JC Horgen", 20)
            ]
        );
        assert_eq!(r[1].others, [(5, 90)]);
    }

    #[test]
    fn the_best_two_count_and_the_third_breaks_the_tie() {
        let members = [
            m("JC Uster", 1, 4000),
            m("Jassfreunde Zug", 2, 3900),
            m("jc  uster ", 3, 3000),
            m("Jassfreunde Zug", 4, 3100),
            m("JC Uster", 5, 2000),
            m("Jassfreunde Zug", 6, 1000),
            m("", 7, 5000),
            m("Einzelgänger", 8, 3500),
        ];
        let r = vereinswertung(&members, 2);
        let view: Vec<(u32, &str, u64, Vec<u32>)> = r
            .iter()
            .map(|c| {
                (
                    c.rank,
                    c.club.as_str(),
                    c.total,
                    c.counted.iter().map(|(k, _)| *k).collect(),
                )
            })
            .collect();
        // Uster 4000 + 3000 = 7000, third 2000; Zug 3900 + 3100 = 7000, third 1000.
        assert_eq!(
            view,
            [
                (1, "JC Uster", 7000, vec![1, 3]),
                (2, "Jassfreunde Zug", 7000, vec![2, 4]),
                (3, "Einzelgänger", 3500, vec![8]),
            ]
        );
        assert_eq!(r[0].others, [(5, 2000)]);
    }

    /// An implementation written apart: for every club, the sorted totals; a club ranks
    /// one behind every club with a greater (sum of the best n, then the sorted totals).
    fn by_hand(members: &[Member<u32>], n: usize) -> HashMap<String, u32> {
        let mut clubs: HashMap<String, Vec<u32>> = HashMap::new();
        for m in members.iter().filter(|m| !club_key(&m.club).is_empty()) {
            clubs.entry(club_key(&m.club)).or_default().push(m.total);
        }
        let key = |t: &Vec<u32>| {
            let mut s = t.clone();
            s.sort_unstable_by(|a, b| b.cmp(a));
            (s.iter().take(n).map(|&x| u64::from(x)).sum::<u64>(), s)
        };
        clubs
            .iter()
            .map(|(c, t)| {
                let mine = key(t);
                let ahead = clubs.values().filter(|o| key(o) > mine).count();
                (c.clone(), 1 + u32::try_from(ahead).unwrap())
            })
            .collect()
    }

    proptest! {
        #[test]
        fn the_ranks_equal_one_written_apart(
            teams in proptest::collection::vec((0usize..5, 0u32..6), 0..25),
            n in 1usize..4,
        ) {
            let names = ["A", "B", "C", "D", ""];
            let members: Vec<Member<u32>> = teams
                .iter()
                .enumerate()
                .map(|(i, (club, total))| m(names[*club], u32::try_from(i).unwrap(), *total))
                .collect();
            let expected = by_hand(&members, n);
            let got = vereinswertung(&members, n);
            prop_assert_eq!(got.len(), expected.len());
            for c in got {
                prop_assert_eq!(c.rank, expected[&club_key(&c.club)]);
                prop_assert!(c.counted.len() <= n);
            }
        }
    }
}
