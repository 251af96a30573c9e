//! The fewest meeting repeats a schedule can have: what the draw list prints beside the
//! repeats ("mindestens nötig") and what the draw stops at.
//!
//! Counting gives most of it. A repeat is a meeting beyond the pairs that met, so a schedule's
//! repeats are its meetings less the pairs of players less the pairs that never met. The
//! meetings are fixed by the Passen played (three table mates each); the unmet pairs have a
//! floor: a player with fewer table mates than others (`3r < N − 1`) leaves at least
//! `N − 1 − 3r` pairs unmet, and two such players share an unmet pair at most once. Where
//! every player has enough table mates this is the classic bound (half the table mates beyond
//! `N − 1`, summed); where the spielfrei places make two players sit out twice (19 × 7,
//! 31 × 11) it is 2, not 0: everybody else must meet them, and they have too few seats.
//!
//! Where counting is not enough, an exhaustive search settled a few fields (see
//! [`SEARCHED`]).

/// Fields where an exhaustive search showed that no schedule reaches the counting bound:
/// players, Passen, and at least how many repeats a schedule of them has, for schedules where
/// every player sits out at most once (the rotation's rule while there are no more spielfrei
/// places than players).
const SEARCHED: [(usize, u32, u32); 3] = [
    // No schedule without a repeat: a SAT solver over every arrangement of the first Passe up
    // to symmetry finds none (`bench/einzel_floor.py 17 5`, seconds). The draw has one.
    (17, 5, 1),
    // The social golfer instance 5-4-6 has no solution: five Passen are the most 20 players
    // can play without a repeat.
    (20, 6, 1),
    // Counting gives 11. A schedule's repeats are 8 plus its unmet pairs, so at most 12 leave
    // at most four pairs unmet: no graph of at most four that the six spielfrei players
    // allow has a schedule (`bench/einzel_unmet.py 17 6 12`, three graphs split by who meets
    // whom more than once; hours of solver time). The draw has 14.
    (17, 6, 13),
];

/// The fewest meeting repeats any schedule can have in which player `p` played `played[p]`
/// Passen (`played` has one entry per player).
pub fn meeting_bound(players: usize, played: &[u32]) -> u32 {
    counted(players, played).max(searched(players, played))
}

/// The counting bound (see the module comment).
fn counted(players: usize, played: &[u32]) -> u32 {
    let n = players as i64;
    let seats: i64 = played.iter().map(|&r| 3 * i64::from(r)).sum();
    let meetings = seats / 2;
    let pairs = n * (n - 1) / 2;
    let short: Vec<i64> = played
        .iter()
        .map(|&r| n - 1 - 3 * i64::from(r))
        .filter(|&unmet| unmet > 0)
        .collect();
    let count = short.len() as i64;
    // Unmet pairs two short players can share: each at most once with each other one.
    let shared =
        (short.iter().map(|&d| d.min(count - 1)).sum::<i64>() / 2).min(count * (count - 1) / 2);
    let unmet = short.iter().sum::<i64>() - shared;
    u32::try_from(meetings - pairs + unmet).unwrap_or(0)
}

/// The floor from [`SEARCHED`] where this schedule is one of its fields, else 0.
fn searched(players: usize, played: &[u32]) -> u32 {
    let spielfrei_places = |passen: u32| (players % 4) * passen as usize;
    SEARCHED
        .iter()
        .filter(|&&(field, passen, _)| {
            field == players
                && played.len() == players
                && played.iter().all(|&r| r == passen || r + 1 == passen)
                && played.iter().filter(|&&r| r + 1 == passen).count() == spielfrei_places(passen)
        })
        .map(|&(_, _, fewest)| fewest)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::einzel_draw::{EinzelPasse, quality};
    use proptest::prelude::*;

    /// Who played how often when `players` play `passen` Passen and the spielfrei places go
    /// round: those who sit out once more come first.
    fn rotation(players: usize, passen: u32) -> Vec<u32> {
        let places = (players % 4) * passen as usize;
        let (each, more) = (places / players, places % players);
        (0..players)
            .map(|p| passen - each as u32 - u32::from(p < more))
            .collect()
    }

    #[test]
    fn where_every_player_has_enough_table_mates_it_is_the_classic_bound() {
        // 24 players × 8 Passen: 24 table mates each, 23 others: one repeat per player.
        assert_eq!(meeting_bound(24, &[8; 24]), 12);
        assert_eq!(meeting_bound(40, &[8; 40]), 0);
        assert_eq!(meeting_bound(16, &[8; 16]), 72);
        // 21 × 8: eight sit out once (21 table mates for 20 others), thirteen play all 8 (24).
        assert_eq!(meeting_bound(21, &rotation(21, 8)), 30);
    }

    #[test]
    fn two_players_who_sit_out_twice_cost_two_repeats() {
        // 19 × 7: 21 spielfrei places, so two players sit out twice; the other 17 have 18
        // table mates for 18 others, and each of the two has only 15 seats for them.
        assert_eq!(rotation(19, 7).iter().filter(|&&r| r == 5).count(), 2);
        assert_eq!(meeting_bound(19, &rotation(19, 7)), 2);
        assert_eq!(meeting_bound(31, &rotation(31, 11)), 2);
        // One Passe fewer: nobody sits out twice, nothing forces a repeat.
        assert_eq!(meeting_bound(19, &rotation(19, 6)), 0);
    }

    #[test]
    fn the_searched_fields_have_their_floor_only_as_the_rotation_leaves_them() {
        assert_eq!(meeting_bound(17, &rotation(17, 5)), 1);
        assert_eq!(meeting_bound(20, &[6; 20]), 1);
        assert_eq!(meeting_bound(17, &rotation(17, 6)), 13);
        // 17 × 4 and 20 × 5 have schedules without a repeat.
        assert_eq!(meeting_bound(17, &rotation(17, 4)), 0);
        assert_eq!(meeting_bound(20, &[5; 20]), 0);
        // A player disqualified after two Passen: not the searched field.
        let mut played = rotation(17, 5);
        played[16] = 2;
        assert_eq!(meeting_bound(17, &played), 0);
    }

    /// A schedule of `players`, one Passe per order in `orders`: each order seated in
    /// tables of four, the rest spielfrei.
    fn seated(players: usize, orders: &[Vec<usize>]) -> Vec<EinzelPasse> {
        orders
            .iter()
            .map(|order| {
                let tables = order
                    .chunks_exact(4)
                    .map(|c| [c[0], c[1], c[2], c[3]])
                    .collect();
                let spielfrei = order[players / 4 * 4..].to_vec();
                EinzelPasse { tables, spielfrei }
            })
            .collect()
    }

    proptest! {
        /// Any schedule at all, however badly seated, has at least as many repeats as the
        /// bound says: it is a bound, not a guess.
        #[test]
        fn no_schedule_has_fewer_repeats_than_the_bound(
            orders in (8usize..=24, 1usize..=9).prop_flat_map(|(players, passen)| {
                prop::collection::vec(Just((0..players).collect::<Vec<_>>()).prop_shuffle(), passen)
            })
        ) {
            let players = orders[0].len();
            let q = quality(players, &seated(players, &orders), None);
            prop_assert!(q.meeting_repeats >= q.bound, "{:?}", q);
        }
    }
}
