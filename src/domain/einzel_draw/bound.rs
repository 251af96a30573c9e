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
//! Fields of fewer than four tables need more (see [`pairwise`]): every two Passen seat some
//! pair of players together in both, so that 12 players over 4 Passen, nobody meeting anybody
//! more than twice, cannot have fewer than 18 repeats where counting gives 6.
//!
//! Where counting is not enough, an exhaustive search settled a few fields (see
//! [`SEARCHED`]).

/// Fields where an exhaustive search showed that no schedule reaches the counting bound:
/// players, Passen, and at least how many repeats a schedule of them has, for schedules where
/// every player sits out at most once (the rotation's rule while there are no more spielfrei
/// places than players).
const SEARCHED: [(usize, u32, u32); 3] = [
    // No schedule without a repeat: a SAT solver over every arrangement of the first Passe up
    // to symmetry finds none in seconds. The draw has one.
    (17, 5, 1),
    // The social golfer instance 5-4-6 has no solution: five Passen are the most 20 players
    // can play without a repeat.
    (20, 6, 1),
    // Counting gives 11. A schedule's repeats are 8 plus its unmet pairs, so at most 12 leave
    // at most four pairs unmet: no graph of at most four that the six spielfrei players
    // allow has a schedule (a SAT solver; three graphs split by who meets
    // whom more than once; hours of solver time). The draw has 14.
    (17, 6, 13),
];

/// The fewest meeting repeats any schedule can have in which player `p` played `played[p]`
/// Passen (`played` has one entry per player), `seated[i]` players sat at tables in Passe `i`
/// and no two players met more than `most` times. The draw keeps `most` at two wherever
/// [`twice_suffices`]; the draw list gives the bound for its schedule's own `most`.
pub fn meeting_bound(players: usize, played: &[u32], seated: &[usize], most: u32) -> u32 {
    counted(players, played)
        .max(searched(players, played))
        .max(pairwise(played, seated, most))
}

/// Whether every player has enough others to meet none of them more than twice
/// (`3r ≤ 2(N − 1)`, N the players who play at all): there the draw lets no pair meet a
/// third time.
pub fn twice_suffices(played: &[u32]) -> bool {
    let active = played.iter().filter(|&&r| r > 0).count();
    played
        .iter()
        .all(|&r| 3 * r as usize <= 2 * active.saturating_sub(1))
}

/// The fewest repeats of a schedule in which no pair meets more than `most` times, from what
/// every two Passen must share.
///
/// Two Passen with `a` and `b` players at tables share at least `a + b − N` of them (N the
/// players who play at all), and these sit at `a/4 · b/4` pairs of tables (one of each
/// Passe). Two of them at the same pair of tables met in both Passen, and the fewest such
/// pairs of players come when they are spread as evenly as possible: with fewer than four
/// tables a Passe there are more of them than pairs of tables (12 players at 3 tables: 12
/// over 9 pairs of tables, so three pairs of players met in both). Summed over all pairs of
/// Passen this counts a pair that met `m` times `m(m − 1)/2` times, for `m − 1` repeats: at
/// most `most / 2` counted per repeat, so the repeats are at least the sum times
/// `2 / most` — the sum itself where nobody meets more than twice.
fn pairwise(played: &[u32], seated: &[usize], most: u32) -> u32 {
    let active = played.iter().filter(|&&r| r > 0).count();
    let pairs = |k: usize| k * k.saturating_sub(1) / 2;
    let mut both = 0;
    for (i, &a) in seated.iter().enumerate() {
        for &b in &seated[i + 1..] {
            let cells = (a / 4) * (b / 4);
            if cells == 0 {
                continue;
            }
            let shared = (a + b).saturating_sub(active);
            let (each, more) = (shared / cells, shared % cells);
            both += more * pairs(each + 1) + (cells - more) * pairs(each);
        }
    }
    // Nobody meeting more than once leaves nothing to count (such a schedule has no repeat,
    // and where `both` is not 0 there is none).
    let most = most.max(2) as usize;
    u32::try_from((2 * both).div_ceil(most)).unwrap_or(u32::MAX)
}

/// The counting bound (see the module comment).
fn counted(players: usize, played: &[u32]) -> u32 {
    // A field of players is far below i64::MAX.
    let n = i64::try_from(players).unwrap_or(i64::MAX);
    let seats: i64 = played.iter().map(|&r| 3 * i64::from(r)).sum();
    let meetings = seats / 2;
    let pairs = n * (n - 1) / 2;
    let short: Vec<i64> = played
        .iter()
        .map(|&r| n - 1 - 3 * i64::from(r))
        .filter(|&unmet| unmet > 0)
        .collect();
    let count = i64::try_from(short.len()).unwrap_or(i64::MAX);
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

    /// The bound of a whole schedule: `players` over `passen` Passen, the spielfrei places
    /// going round.
    fn whole(players: usize, passen: u32) -> u32 {
        let seated = vec![players / 4 * 4; passen as usize];
        let played = rotation(players, passen);
        let most = if twice_suffices(&played) { 2 } else { passen };
        meeting_bound(players, &played, &seated, most)
    }

    #[test]
    fn where_every_player_has_enough_table_mates_it_is_the_classic_bound() {
        // 24 players × 8 Passen: 24 table mates each, 23 others: one repeat per player.
        assert_eq!(whole(24, 8), 12);
        assert_eq!(whole(40, 8), 0);
        assert_eq!(whole(16, 8), 72);
        // 21 × 8: eight sit out once (21 table mates for 20 others), thirteen play all 8 (24).
        assert_eq!(whole(21, 8), 30);
    }

    #[test]
    fn two_players_who_sit_out_twice_cost_two_repeats() {
        // 19 × 7: 21 spielfrei places, so two players sit out twice; the other 17 have 18
        // table mates for 18 others, and each of the two has only 15 seats for them.
        assert_eq!(rotation(19, 7).iter().filter(|&&r| r == 5).count(), 2);
        assert_eq!(whole(19, 7), 2);
        assert_eq!(whole(31, 11), 2);
        // One Passe fewer: nobody sits out twice, nothing forces a repeat.
        assert_eq!(whole(19, 6), 0);
    }

    #[test]
    fn the_searched_fields_have_their_floor_only_as_the_rotation_leaves_them() {
        assert_eq!(whole(17, 5), 1);
        assert_eq!(whole(20, 6), 1);
        assert_eq!(whole(17, 6), 13);
        // 17 × 4 and 20 × 5 have schedules without a repeat.
        assert_eq!(whole(17, 4), 0);
        assert_eq!(whole(20, 5), 0);
        // A player disqualified after two Passen: not the searched field.
        let mut played = rotation(17, 5);
        played[16] = 2;
        assert_eq!(meeting_bound(17, &played, &[16; 5], 2), 0);
    }

    #[test]
    fn fewer_than_four_tables_repeat_in_every_two_passen() {
        // 12 players at 3 tables: two Passen share 12 players over 3 × 3 pairs of tables,
        // so three pairs met in both; 6 pairs of Passen in 4 Passen: 18 (counting: 6).
        assert_eq!(whole(12, 2), 3);
        assert_eq!(whole(12, 4), 18);
        assert_eq!(whole(12, 5), 30);
        // 8 players at 2 tables: 8 over 2 × 2, four pairs each time.
        assert_eq!(whole(8, 3), 12);
        // 13 players: 3 tables, the two spielfrei of two Passen leave 11 for 9 pairs of
        // tables (two pairs met in both); 14: 10 (one); 15: 9 (none).
        assert_eq!(whole(13, 4), 12);
        assert_eq!(whole(14, 4), 6);
        assert_eq!(whole(15, 5), 0);
        // Four tables and more: 16 players over 16 pairs of tables, nothing forced.
        assert_eq!(whole(16, 5), 0);
        // A Passe after a player left: 12 played Passe 1, 11 are left (2 tables, 3
        // spielfrei): 8 + 12 − 12 = 8 shared over 2 × 3 pairs of tables, two met in both.
        let mut played = vec![2u32; 12];
        played[0] = 1;
        played[1..4].fill(1);
        assert_eq!(meeting_bound(12, &played, &[12, 8], 2), 2);
    }

    #[test]
    fn a_pair_meeting_three_times_counts_three_pairs_of_passen_for_two_repeats() {
        // 12 × 4 with nobody meeting more than twice: 18. Where a pair may meet three times
        // the same 18 pairs of Passen can come from 12 repeats (a SAT solver finds schedules
        // of 13); counting gives 6.
        assert_eq!(pairwise(&[4; 12], &[12; 4], 2), 18);
        assert_eq!(pairwise(&[4; 12], &[12; 4], 3), 12);
        assert_eq!(meeting_bound(12, &[4; 12], &[12; 4], 4), 9);
        // 8 players over 5 Passen: 15 table mates for 7 others, so some pair meets three
        // times; the bound is the count (60 meetings, 28 pairs) there, not 4 × 10.
        assert!(!twice_suffices(&[5; 8]));
        assert!(twice_suffices(&[4; 8]));
        assert_eq!(whole(8, 5), 32);
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
        /// bound says for its most meetings of a pair: it is a bound, not a guess.
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

        /// Two Passen of a small field, seated anyhow (no pair can meet three times in two):
        /// never fewer repeats than the bound.
        #[test]
        fn two_passen_of_fewer_than_four_tables_repeat_at_least_the_bound(
            orders in (8usize..=15).prop_flat_map(|players| {
                prop::collection::vec(Just((0..players).collect::<Vec<_>>()).prop_shuffle(), 2)
            })
        ) {
            let players = orders[0].len();
            let q = quality(players, &seated(players, &orders), None);
            prop_assert!(q.meeting_repeats >= q.bound, "{:?}", q);
            // Not vacuous: below four tables, only 15 players (9 shared for 9 pairs of tables
            // where the spielfrei differ) can have none.
            prop_assert!(q.bound > 0 || players == 15, "{:?}", q);
        }
    }
}
