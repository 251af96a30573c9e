//! Partners for players who registered alone ("sucht Partner") in a Partnerschieber: before
//! the Los, the office draws pairs from them (seeded, reproducible), may swap two players
//! before confirming, and the pairs then play as registered teams.
//!
//! An odd player out stays registered alone (a team needs two; the office finds a partner or
//! lets him go). Vereine: `Zusammen` pairs players of the same Verein first (clubs that want
//! to play together), `Getrennt` avoids such pairs where possible, `Egal` ignores them.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClubRule {
    Egal,
    Zusammen,
    Getrennt,
}

impl ClubRule {
    pub const ALL: [ClubRule; 3] = [ClubRule::Egal, ClubRule::Zusammen, ClubRule::Getrennt];

    pub fn key(self) -> &'static str {
        match self {
            ClubRule::Egal => "egal",
            ClubRule::Zusammen => "zusammen",
            ClubRule::Getrennt => "getrennt",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            ClubRule::Egal => "Vereine nicht beachten",
            ClubRule::Zusammen => "Spieler desselben Vereins zusammen",
            ClubRule::Getrennt => "Spieler desselben Vereins getrennt",
        }
    }

    pub fn parse(key: &str) -> Option<ClubRule> {
        ClubRule::ALL.into_iter().find(|r| r.key() == key)
    }
}

/// The pairs (indices into the players) and the one left without a partner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    pub pairs: Vec<(usize, usize)>,
    pub alone: Option<usize>,
}

/// Draws pairs from `clubs.len()` players (their Verein as a number, see
/// [`club_numbers`](super::team::club_numbers)).
pub fn pair_players(clubs: &[Option<u32>], rule: ClubRule, seed: u64) -> Pairing {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..clubs.len()).collect();
    order.shuffle(&mut rng);
    let order = match rule {
        ClubRule::Egal => order,
        ClubRule::Zusammen => together(clubs, order),
        ClubRule::Getrennt => apart(clubs, order),
    };
    let pairs = order.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    let alone = (order.len() % 2 == 1).then(|| order[order.len() - 1]);
    Pairing { pairs, alone }
}

/// Members of each Verein next to each other (so that consecutive players pair up), the
/// clubs in the seeded order of their first member; players without a Verein last.
fn together(clubs: &[Option<u32>], order: Vec<usize>) -> Vec<usize> {
    let mut groups: Vec<(Option<u32>, Vec<usize>)> = Vec::new();
    for p in order {
        let club = clubs[p];
        match groups
            .iter_mut()
            .find(|(c, _)| club.is_some() && *c == club)
        {
            Some((_, members)) => members.push(p),
            None => groups.push((club, vec![p])),
        }
    }
    // Odd members of different clubs pair with each other after all even pairs are made.
    let (mut paired, mut rest) = (Vec::new(), Vec::new());
    for (club, mut members) in groups {
        if club.is_none() {
            rest.extend(members);
            continue;
        }
        if members.len() % 2 == 1 {
            rest.extend(members.pop());
        }
        paired.extend(members);
    }
    paired.extend(rest);
    paired
}

/// Pairs a member of the largest remaining Verein with one of another Verein, as long as
/// two Vereine remain: the fewest same-Verein pairs there can be.
fn apart(clubs: &[Option<u32>], order: Vec<usize>) -> Vec<usize> {
    // Groups keyed by the seeded order of their first member; players without a Verein
    // count as a club of their own each.
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut key_of: Vec<Option<u32>> = Vec::new();
    for p in order {
        let club = clubs[p];
        let key = match club.and_then(|c| key_of.iter().position(|k| *k == Some(c))) {
            Some(key) => key,
            None => {
                key_of.push(club);
                key_of.len() - 1
            }
        };
        groups.entry(key).or_default().push(p);
    }
    let mut result = Vec::new();
    loop {
        // The two largest groups (ties: the first in seeded order), one member of each.
        let mut sizes: Vec<(usize, usize)> = groups
            .iter()
            .filter(|(_, m)| !m.is_empty())
            .map(|(k, m)| (m.len(), *k))
            .collect();
        sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        match sizes.as_slice() {
            [] => break,
            [(_, only)] => {
                // One Verein left: its members pair among themselves.
                result.extend(groups.remove(only).unwrap_or_default());
                break;
            }
            [(_, first), (_, second), ..] => {
                for key in [*first, *second] {
                    if let Some(p) = groups.get_mut(&key).and_then(Vec::pop) {
                        result.push(p);
                    }
                }
            }
        }
    }
    result
}

/// The pairing after swapping players `a` and `b` (by index; either may be the one alone).
pub fn swap(pairing: &Pairing, a: usize, b: usize) -> Pairing {
    let replace = |p: usize| {
        if p == a {
            b
        } else if p == b {
            a
        } else {
            p
        }
    };
    Pairing {
        pairs: pairing
            .pairs
            .iter()
            .map(|&(x, y)| (replace(x), replace(y)))
            .collect(),
        alone: pairing.alone.map(replace),
    }
}

/// One text for a team formed of two players: theirs if the same (as Vereine compare, see
/// [`club_key`](super::team::club_key)), both when they differ ("JC Zürich / Jassclub
/// Kilchberg").
pub fn joined(a: Option<&str>, b: Option<&str>) -> Option<String> {
    use super::team::club_key;
    match (a, b) {
        (Some(a), Some(b)) if club_key(a) == club_key(b) => Some(a.to_string()),
        (Some(a), Some(b)) => Some(format!("{a} / {b}")),
        (Some(x), None) | (None, Some(x)) => Some(x.to_string()),
        (None, None) => None,
    }
}

/// Pairs of the same Verein in a pairing.
pub fn same_club_pairs(clubs: &[Option<u32>], pairing: &Pairing) -> usize {
    pairing
        .pairs
        .iter()
        .filter(|(a, b)| clubs[*a].is_some() && clubs[*a] == clubs[*b])
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn complete(pairing: &Pairing, n: usize) -> bool {
        let mut seen = vec![0; n];
        for &(a, b) in &pairing.pairs {
            seen[a] += 1;
            seen[b] += 1;
        }
        if let Some(p) = pairing.alone {
            seen[p] += 1;
        }
        seen.iter().all(|&s| s == 1) && pairing.alone.is_some() == (n % 2 == 1)
    }

    #[test]
    fn the_same_seed_gives_the_same_pairs() {
        let c = vec![None; 9];
        assert_eq!(
            pair_players(&c, ClubRule::Egal, 4),
            pair_players(&c, ClubRule::Egal, 4)
        );
        assert_ne!(
            pair_players(&c, ClubRule::Egal, 4),
            pair_players(&c, ClubRule::Egal, 5)
        );
    }

    #[test]
    fn a_swap_exchanges_two_players() {
        let pairing = Pairing {
            pairs: vec![(0, 1), (2, 3)],
            alone: Some(4),
        };
        assert_eq!(
            swap(&pairing, 1, 4),
            Pairing {
                pairs: vec![(0, 4), (2, 3)],
                alone: Some(1)
            }
        );
    }

    proptest! {
        /// Every player once (one alone when odd); `Zusammen` makes every same-Verein pair
        /// there can be, `Getrennt` only those that cannot be avoided.
        #[test]
        fn pairs_follow_the_club_rule(
            raw in prop::collection::vec(prop::option::of(0u8..5), 0..40),
            seed in any::<u64>(),
        ) {
            let c: Vec<Option<u32>> = raw.iter().map(|k| k.map(u32::from)).collect();
            let n = c.len();
            let mut sizes: BTreeMap<&u32, usize> = BTreeMap::new();
            for club in c.iter().flatten() {
                *sizes.entry(club).or_default() += 1;
            }
            let most = sizes.values().copied().max().unwrap_or(0);
            for rule in ClubRule::ALL {
                let pairing = pair_players(&c, rule, seed);
                prop_assert!(complete(&pairing, n), "{:?}", pairing);
                let same = same_club_pairs(&c, &pairing);
                match rule {
                    ClubRule::Zusammen => {
                        prop_assert_eq!(same, sizes.values().map(|s| s / 2).sum::<usize>());
                    }
                    ClubRule::Getrennt => {
                        // Only the largest Verein's surplus over all the others pairs up.
                        let unavoidable = most.saturating_sub(n - most) / 2;
                        prop_assert_eq!(same, unavoidable, "{:?}", pairing);
                    }
                    ClubRule::Egal => {}
                }
            }
        }
    }
}
