use super::bench::*;
use super::cost::*;
use super::pairing::*;
use super::search::*;
use super::tables::*;
use super::*;
use proptest::prelude::*;
use rand::seq::SliceRandom;

fn schedule(players: usize, passen: usize, seed: u64) -> Vec<EinzelPasse> {
    draw_einzel(&EinzelRequest {
        players,
        fixed: &[],
        passen,
        clubs: None,
        absent: &[],
        seed,
    })
}

/// Every player sits exactly once per Passe (at a table or spielfrei), tables have four.
fn assert_complete(players: usize, passe: &EinzelPasse) {
    let mut seen = vec![0; players];
    for table in &passe.tables {
        for &p in table {
            seen[p] += 1;
        }
    }
    for &p in &passe.spielfrei {
        seen[p] += 1;
    }
    assert!(seen.iter().all(|&s| s == 1), "{seen:?}");
    assert_eq!(passe.spielfrei.len(), players % 4);
}

/// Every Passe complete, and nobody spielfrei twice (fields where everybody sits out at most
/// once).
fn assert_complete_and_nobody_out_twice(players: usize, drawn: &[EinzelPasse]) {
    let mut sat_out = vec![0; players];
    for passe in drawn {
        assert_complete(players, passe);
        for &p in &passe.spielfrei {
            sat_out[p] += 1;
        }
    }
    assert!(sat_out.iter().all(|&n| n <= 1), "nobody spielfrei twice");
}

/// A whole schedule's quality, after checking that every Passe is complete, nobody sits out
/// twice and nobody has a partner twice.
fn complete_without_partner_repeats(players: usize, passen: usize, seed: u64) -> DrawQuality {
    let drawn = schedule(players, passen, seed);
    assert_complete_and_nobody_out_twice(players, &drawn);
    let q = quality(players, &drawn, None);
    assert_eq!(q.partner_repeats, 0, "{players} × {passen}: {q:?}");
    q
}

#[test]
fn a_seed_gives_the_same_draw() {
    assert_eq!(schedule(22, 4, 7), schedule(22, 4, 7));
    assert_ne!(schedule(22, 4, 7), schedule(22, 4, 8));
}

/// Every Passe complete, and after each Passe nobody has sat out twice more often than
/// anybody else: nobody sits out twice before everybody once, nor thrice before twice.
fn assert_complete_and_rotating(players: usize, drawn: &[EinzelPasse]) {
    let mut out = vec![0; players];
    for (index, passe) in drawn.iter().enumerate() {
        assert_complete(players, passe);
        for &p in &passe.spielfrei {
            out[p] += 1;
        }
        let (least, most) = (out.iter().min().unwrap(), out.iter().max().unwrap());
        assert!(most - least <= 1, "after Passe {}: {out:?}", index + 1);
    }
}

#[test]
fn nobody_sits_out_twice_before_everybody_once() {
    // 10 players: 2 spielfrei per Passe; 5 Passen let everybody sit out once. The search
    // trades who sits out, checked against the whole rotation.
    assert_complete_and_rotating(10, &schedule(10, 7, 3));
}

#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn where_some_sit_out_twice_who_does_is_searched_within_the_rotation() {
    // 19 × 8: 24 spielfrei places for 19 players, five sit out twice. With who does fixed by
    // the rotation the draw had 26 repeats; the bound is 21, the target 23.
    let drawn = schedule(19, 8, 5);
    assert_complete_and_rotating(19, &drawn);
    let q = quality(19, &drawn, None);
    assert_eq!(q.partner_repeats, 0, "{q:?}");
    assert!(q.most_meetings <= 2, "{q:?}");
    assert!(
        f64::from(q.meeting_repeats) <= f64::from(q.bound) * 1.1,
        "{q:?}"
    );
}

#[test]
fn who_sits_out_a_second_time_may_change_only_as_the_rotation_allows() {
    // Five players, one spielfrei a Passe: 0 to 4 once each, then 0 and 1 a second time.
    let byes: Vec<Vec<usize>> = [0, 1, 2, 3, 4, 0, 1].iter().map(|&p| vec![p]).collect();
    let bench = Bench::new(5, &[], &byes, &[]).expect("a bench where players sit out twice");
    // 2 instead of 0 in the sixth Passe: everybody has sat out once before.
    assert!(bench.may_trade(5, 2, 0));
    // 0 instead of 1 in the second Passe: 0 would sit out thrice, 1 not before the seventh.
    assert!(!bench.may_trade(1, 0, 1));
    // 3 instead of 2 in the third: 2 would never sit out, 3 twice.
    assert!(!bench.may_trade(2, 3, 2));
    // 4 instead of 3 in the fourth: 4 sits out twice (Passen 4 and 5) before 3 ever does.
    assert!(!bench.may_trade(3, 4, 3));
    // The fixed Passen count: 4 sat out in the Passe played before and sits out again in the
    // fifth drawn (the sixth in all).
    let fixed = [EinzelPasse {
        tables: vec![[0, 1, 2, 3]],
        spielfrei: vec![4],
    }];
    let later: Vec<Vec<usize>> = [0, 1, 2, 3, 4].iter().map(|&p| vec![p]).collect();
    let bench = Bench::new(5, &fixed, &later, &[]).expect("a bench");
    // 0 instead of 4 in the last: each has sat out once before.
    assert!(bench.may_trade(4, 0, 4));
    // 4 instead of 0 in the first drawn: 4 thrice, 0 never.
    assert!(!bench.may_trade(0, 4, 0));
    // A player absent from the Passen drawn (disqualified, say) is not waited for: with 5
    // absent, 1 may sit out a second time; were 5 present, not before 5 sat out once.
    let byes: Vec<Vec<usize>> = [0, 1, 2, 3, 4, 0].iter().map(|&p| vec![p]).collect();
    let absent_five = Bench::new(6, &[], &byes, &[5]).expect("a bench");
    assert!(absent_five.may_trade(5, 1, 0));
    let all_present = Bench::new(6, &[], &byes, &[]).expect("a bench");
    assert!(!all_present.may_trade(5, 1, 0));
}

#[test]
fn the_quality_targets_where_no_pair_may_meet_twice() {
    // 24 × 7, 28 × 9 and 27 × 8 (three spielfrei) are tight ones: found by the 1-rotational
    // design, not the search; 27 × 9 (each player spielfrei once) and 38 × 12 from base Passen
    // found offline (the search alone: 12 and 16 repeats); 32 × 10 (the social golfer
    // instance 8-4-10) is a stored design;
    // 40 × 12 the first Passen of the cyclic design of 13 (the search alone: 26 repeats with
    // this seed).
    let fields = [
        (16, 4),
        (24, 4),
        (40, 8),
        (24, 7),
        (28, 9),
        (27, 8),
        (27, 9),
        (38, 12),
        (32, 10),
        (32, 7),
        (40, 12),
    ];
    for (players, passen) in fields {
        let q = complete_without_partner_repeats(players, passen, 11);
        assert_eq!(q.meeting_repeats, 0, "{players} × {passen}: {q:?}");
    }
}

/// Where pairs must meet twice, they are partners once and opponents once rather than
/// opponents twice, as far as the tables allow: the pairing at each table is chosen last,
/// the meetings stay at the bound. (Before: 16 × 6 left 11 opponent repeats, 16 × 8 23.)
#[test]
fn pairs_that_meet_twice_are_partners_once_rather_than_opponents_twice() {
    for (players, passen, most) in [(16, 6, 4), (16, 8, 19), (12, 5, 6)] {
        let drawn = schedule(players, passen, 1);
        let q = quality(players, &drawn, None);
        assert_eq!(q.partner_repeats, 0, "{players} × {passen}");
        assert_eq!(q.meeting_repeats, q.bound, "{players} × {passen}");
        assert!(
            q.opponent_repeats <= most,
            "{players} × {passen}: {} opponent repeats",
            q.opponent_repeats
        );
    }
}

#[test]
fn where_one_repeat_is_left_short_searches_from_fresh_starts_remove_it() {
    // 26 × 7 (two spielfrei per Passe) has a schedule without a repeat, but the search, the
    // designs and the core leave one with this seed; one start in about ten reaches 0.
    let q = complete_without_partner_repeats(26, 7, 1);
    assert_eq!(q.meeting_repeats, 0, "{q:?}");
}

#[test]
fn where_no_schedule_avoids_a_repeat_the_draw_has_the_fewest() {
    // 17 × 5: an exhaustive search finds no schedule without a repeat (see `bound`), so one
    // is the fewest; the draw gets there rather than searching on for none.
    let q = complete_without_partner_repeats(17, 5, 1);
    assert_eq!((q.meeting_repeats, q.bound), (1, 1), "{q:?}");
}

#[test]
fn a_design_for_one_player_more_without_him_sits_his_table_mates_out_once_each() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let design = perfect_passen(32, 10, &mut rng).expect("stored design");
    let core = without_player(design, 31);
    assert_complete_and_nobody_out_twice(31, &core);
    let q = quality(31, &core, None);
    assert_eq!((q.meeting_repeats, q.partner_repeats), (0, 0), "{q:?}");
}

#[test]
fn thirty_one_players_over_twelve_passen_stay_within_a_tenth_of_the_bound() {
    // 31 = 32 − 1: the stored design of 32 without one player, and two Passen around it
    // (43 repeats with the 31 players' own core, the bound is 39).
    let drawn = schedule(31, 12, 1);
    for passe in &drawn {
        assert_complete(31, passe);
    }
    let q = quality(31, &drawn, None);
    assert_eq!(q.partner_repeats, 0, "{q:?}");
    assert!(q.meeting_repeats <= q.bound + q.bound / 10, "{q:?}");
    assert!(q.most_meetings <= 2, "{q:?}");
}

#[test]
fn players_more_than_a_design_take_a_seat_a_passe_and_meet_nobody_twice() {
    // One and two players over a design (33 = 32 + 1, 30 = 28 + 2, 26 = 24 + 2).
    for (base, passen, extras) in [(32, 10, 1), (28, 9, 2), (24, 7, 2)] {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let design = perfect_passen(base, passen, &mut rng).expect("a design");
        let core = with_extra_players(&design, base, extras, &mut rng).expect("seats for them");
        let players = base + extras;
        assert_complete_and_nobody_out_twice(players, &core);
        let q = quality(players, &core, None);
        assert_eq!(
            (q.meeting_repeats, q.partner_repeats),
            (0, 0),
            "{base} + {extras}: {q:?}"
        );
    }
}

#[test]
fn an_extra_player_takes_no_seat_of_one_who_sits_out_later_in_the_design() {
    // Player 0 sits out in the second Passe of this (made-up) design: replacing him in the
    // first would have him sit out twice.
    let design = [
        EinzelPasse {
            tables: vec![[0, 1, 2, 3], [4, 5, 6, 7]],
            spielfrei: vec![8],
        },
        EinzelPasse {
            tables: vec![[1, 4, 8, 5], [2, 6, 3, 7]],
            spielfrei: vec![0],
        },
    ];
    for seed in 0..50 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let core = with_extra_players(&design, 9, 1, &mut rng).expect("seats for him");
        assert_complete_and_nobody_out_twice(10, &core);
    }
}

#[test]
fn thirty_three_players_over_twelve_passen_stay_within_a_tenth_of_the_bound() {
    // 33 = 32 + 1: the stored design of 32 with the 33rd player taking a seat in each Passe,
    // and two Passen around it (53 repeats with the 33 players' own core, the bound is 48).
    let q = complete_without_partner_repeats(33, 12, 1);
    assert!(q.meeting_repeats <= q.bound + q.bound / 10, "{q:?}");
    assert!(q.most_meetings <= 2, "{q:?}");
}

#[test]
fn twenty_six_players_over_ten_passen_stay_within_a_tenth_of_the_bound() {
    // 26 = 24 + 2: a design of 24 with two players more taking a seat in each Passe, and the
    // tenth Passe around it (42 repeats with the 26 players' own core, the bound is 35).
    let q = complete_without_partner_repeats(26, 10, 1);
    assert!(q.meeting_repeats <= q.bound + q.bound / 10, "{q:?}");
    assert!(q.most_meetings <= 2, "{q:?}");
}

#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn beyond_that_repeats_stay_near_the_bound_and_below_three() {
    // 21 × 8: one spielfrei per Passe; who sits out is searched with the tables (36 repeats
    // with the rotation's choice fixed beforehand, the bound is 30).
    for (players, passen) in [(16, 8), (20, 8), (21, 8)] {
        let q = complete_without_partner_repeats(players, passen, 5);
        assert!(
            f64::from(q.meeting_repeats) <= f64::from(q.bound) * 1.1,
            "{players} × {passen}: {q:?}"
        );
        assert!(q.most_meetings <= 2, "{players} × {passen}: {q:?}");
    }
    // 12 players × 8 Passen: 24 table mates among 11 others, some pair meets three times.
    let q = quality(12, &schedule(12, 8, 5), None);
    assert_eq!(q.partner_repeats, 0, "{q:?}");
    assert!(
        f64::from(q.meeting_repeats) <= f64::from(q.bound) * 1.1,
        "{q:?}"
    );
}

#[test]
fn small_fields_over_many_passen_have_no_pair_three_times() {
    // 3R ≤ 2(N − 1): twice suffices by counting. The search alone reached the bound with a
    // pair three times (18 × 11: 113 repeats, 20 × 11: 141, 20 × 12: 170) or stayed above
    // a tenth over it (24 × 8: 18, bound 12; 18 × 7: 17, bound 15); the stored schedules do
    // neither.
    for (players, passen) in [(18, 7), (18, 11), (20, 11), (20, 12), (24, 8)] {
        let drawn = schedule(players, passen, 1);
        let q = quality(players, &drawn, None);
        assert_eq!(q.partner_repeats, 0, "{players} × {passen}: {q:?}");
        assert!(q.most_meetings <= 2, "{players} × {passen}: {q:?}");
        assert!(
            q.meeting_repeats <= q.bound + q.bound / 10,
            "{players} × {passen}: {q:?}"
        );
        for passe in &drawn {
            assert_complete(players, passe);
        }
    }
}

#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn fields_that_miss_their_target_draw_the_best_schedule_found_offline() {
    // Repeats the draw's own search left with seeds 1 to 3: 19 × 7: 9, 9, 8; 21 × 7: 13, 12, 12;
    // 22 × 7: 4, 5, 5; 22 × 8: 19, 19, 20; 23 × 8: 9, 8, 9; 23 × 9: 23, 19, 23; 26 × 8: 5, 5,
    // 5; 26 × 9: 15, 18, 18; 30 × 10: 13, 12, 15; 30 × 11: 35, 35, 39;
    // 34 × 12: 28, 30, 28; 31 × 11: 14, 14, 14; 33 × 11: 20, 21, 21;
    // 25 × 8: 8, 9, 9; 27 × 10: 18, 18, 18; 29 × 10: 21, 21, 21; 35 × 12: 14, 15, 17 (seeds 4 to
    // 8: 19, 16, 19, 13, 13); 37 × 12: 22, 20, 16 (4 to 8: 20, 19, 18, 19, 20). The stored
    // schedules have no more than the best of them (some are the draw with one of those seeds),
    // and the draw gives them whatever the seed, at once.
    let best = [
        (19, 7, 5),
        (21, 7, 10),
        (22, 7, 3),
        (22, 8, 15),
        (23, 8, 8),
        (23, 9, 19),
        (26, 8, 3),
        (26, 9, 14),
        (30, 10, 10),
        (30, 11, 32),
        (34, 12, 26),
        (31, 11, 14),
        (33, 11, 20),
        (25, 8, 8),
        (27, 10, 18),
        (29, 10, 21),
        (35, 12, 13),
        (37, 12, 16),
    ];
    for (players, passen, repeats) in best {
        for q in drawn_with_seeds_1_and_3(players, passen) {
            assert!(q.meeting_repeats <= repeats, "{players} × {passen}: {q:?}");
        }
    }
}

/// The quality of the whole schedule drawn for `players` × `passen` with seeds 1 and 3, each
/// checked first: complete, nobody sits out twice before everybody once, no partner twice, no
/// pair three times.
fn drawn_with_seeds_1_and_3(players: usize, passen: usize) -> Vec<DrawQuality> {
    [1, 3]
        .into_iter()
        .map(|seed| {
            let drawn = schedule(players, passen, seed);
            assert_complete_and_rotating(players, &drawn);
            let q = quality(players, &drawn, None);
            assert_eq!(q.partner_repeats, 0, "{players} × {passen}: {q:?}");
            assert!(q.most_meetings <= 2, "{players} × {passen}: {q:?}");
            q
        })
        .collect()
}

/// As [`drawn_with_seeds_1_and_3`], and exactly `fewest` repeats — the counting bound.
fn assert_at_the_fewest(players: usize, passen: usize, fewest: u32) {
    for q in drawn_with_seeds_1_and_3(players, passen) {
        assert_eq!((q.meeting_repeats, q.bound), (fewest, fewest), "{q:?}");
    }
}

#[test]
fn twenty_five_players_over_nine_passen_reach_the_fewest_repeats() {
    // The stored schedule with a symmetry (three rows of Z₈ and a fixed point): every pair
    // meets, 24 of them twice — the counting bound. The draw's own search left 29 with seeds 1
    // to 3, and the best schedule stored before had 28 (target 26).
    assert_at_the_fewest(25, 9, 24);
}

#[test]
fn thirty_six_players_over_twelve_passen_reach_the_fewest_repeats() {
    // The stored schedule on four rows of Z₃ × Z₃: every player meets one other twice and
    // everybody else once — 18 repeats, the counting bound. The best schedule stored before
    // (the draw's own search with seed 1) had 28, and seeds 2 and 3 left 49 and 53 (target 19).
    assert_at_the_fewest(36, 12, 18);
}

#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn beyond_the_limit_a_design_and_the_passen_after_it_reach_the_bound() {
    // 16 and 28 players: a design meets every pair once in 5 and 9 Passen, so every table
    // after it repeats just what the counting bound counts (the search alone, this seed: 51 on
    // 28 × 10 where the bound is 42, a pair three times on 16 × 10). 32 × 11: the stored design
    // leaves each player one other unmet, the 11th Passe seats those pairs together (the
    // search alone: 52, bound 32).
    for (players, passen) in [(16, 10), (28, 10), (32, 11)] {
        let q = complete_without_partner_repeats(players, passen, 9);
        assert_eq!(q.meeting_repeats, q.bound, "{players} × {passen}: {q:?}");
        assert!(q.most_meetings <= 2, "{players} × {passen}: {q:?}");
    }
}

/// The counts of a draw for `players` before anybody has met, without Vereine.
fn nobody_met(players: usize) -> Search<'static> {
    Search {
        n: players,
        meet: vec![0; players * players],
        partner: vec![0; players * players],
        clubs: None,
        club_cost: 0,
    }
}

#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn within_the_limit_a_design_a_passe_shorter_is_offered_with_the_last_passe_around_it() {
    // 20 × 6: no schedule of 20 without a repeat has six Passen (the social golfer instance
    // 5-4-6 has none), so the search leaves repeats and the route of a core (a design of five
    // Passen) and a last Passe around it is tried as well. Where it beats the search (37 × 12:
    // 22 repeats instead of 35; 38 × 12: 16 instead of 20, in the sweep) is too slow for a
    // debug test: here, that the route offers a whole schedule.
    let request = EinzelRequest {
        players: 20,
        fixed: &[],
        passen: 6,
        clubs: None,
        absent: &[],
        seed: 3,
    };
    let search = nobody_met(20);
    let mut kept = None;
    consider_core(
        &search,
        &request,
        0,
        &mut ChaCha8Rng::seed_from_u64(3),
        &mut kept,
    );
    let Kept { weeks, byes, cost } = kept.expect("a core and the Passe after it");
    assert_eq!(weeks.len(), 6);
    let drawn: Vec<EinzelPasse> = weeks
        .into_iter()
        .zip(byes)
        .map(|(tables, spielfrei)| EinzelPasse { tables, spielfrei })
        .collect();
    assert_complete_and_nobody_out_twice(20, &drawn);
    let q = quality(20, &drawn, None);
    assert_eq!(q.partner_repeats, 0, "{q:?}");
    assert!(q.most_meetings <= 2, "{q:?}");
    // What the draw compares is the schedule's own cost: ten per repeat.
    assert_eq!(cost, meet_cost(2) * i64::from(q.meeting_repeats), "{q:?}");
}

/// 16 players at the same four tables in two Passen, seated alike, with their counts.
fn sixteen_at_the_same_tables_twice() -> (Vec<Vec<[usize; 4]>>, Search<'static>) {
    let first: Vec<[usize; 4]> = (0..4)
        .map(|t| [4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3])
        .collect();
    let weeks = vec![first.clone(), first];
    let mut search = nobody_met(16);
    for table in weeks.iter().flatten() {
        search.add_table(table, 1);
    }
    (weeks, search)
}

fn without_spielfrei(weeks: Vec<Vec<[usize; 4]>>) -> Vec<EinzelPasse> {
    weeks
        .into_iter()
        .map(|tables| EinzelPasse {
            tables,
            spielfrei: Vec::new(),
        })
        .collect()
}

#[test]
fn a_laid_over_design_is_paired_without_a_repeated_partner() {
    // 16 players at the same four tables in both Passen, seated alike: all eight partner
    // pairs twice. Only the pairing may change, and it suffices.
    let (mut weeks, mut search) = sixteen_at_the_same_tables_twice();
    let first = weeks[0].clone();
    pair_partners(&mut search, &mut weeks, &mut ChaCha8Rng::seed_from_u64(2));
    let drawn = without_spielfrei(weeks);
    for (table, kept) in drawn[1].tables.iter().zip(&first) {
        let (mut now, mut was) = (*table, *kept);
        now.sort_unstable();
        was.sort_unstable();
        assert_eq!(now, was, "the tables stay");
    }
    assert_eq!(quality(16, &drawn, None).partner_repeats, 0);
}

#[test]
fn a_laid_over_design_has_those_spielfrei_who_sat_out_least() {
    // 6 players, two spielfrei: 0 and 1 sat out before; the next design has its own two.
    let before = [EinzelPasse {
        tables: vec![[2, 3, 4, 5]],
        spielfrei: vec![0, 1],
    }];
    let next = vec![EinzelPasse {
        tables: vec![[0, 1, 2, 3]],
        spielfrei: vec![4, 5],
    }];
    for seed in 0..20 {
        let placed = onto_rotation(
            6,
            &before,
            next.clone(),
            &mut ChaCha8Rng::seed_from_u64(seed),
        );
        assert_complete(6, &placed[0]);
        let mut out = placed[0].spielfrei.clone();
        out.sort_unstable();
        assert!(
            !out.contains(&0) && !out.contains(&1),
            "seed {seed}: {placed:?}"
        );
    }
}

#[test]
fn vereine_sit_apart_where_possible() {
    // 24 players of 6 Vereine (4 each): one table per Verein would be the worst; 0 is possible.
    let clubs: Vec<Option<u32>> = (0..24u32).map(|p| Some(p % 6)).collect();
    let drawn = draw_einzel(&EinzelRequest {
        players: 24,
        fixed: &[],
        passen: 4,
        clubs: Some(&clubs),
        absent: &[],
        seed: 9,
    });
    let q = quality(24, &drawn, Some(&clubs));
    assert_eq!((q.meeting_repeats, q.same_club), (0, 0), "{q:?}");
    let blind = quality(24, &schedule(24, 4, 9), Some(&clubs));
    assert!(
        blind.same_club > 0,
        "without the option they meet: {blind:?}"
    );
}

#[test]
fn players_change_tables() {
    let drawn = schedule(40, 8, 2);
    assert_eq!(quality(40, &drawn, None).same_table, 0);
    // Only a renumbering of three tables at once avoids it here (swaps of two left player
    // 17 at table 6).
    let drawn = schedule(24, 5, 4711);
    assert_eq!(quality(24, &drawn, None).same_table, 0);
}

#[test]
fn one_passe_after_played_ones_keeps_them_and_avoids_their_pairs() {
    let played = schedule(20, 3, 4);
    let next = draw_einzel(&EinzelRequest {
        players: 20,
        fixed: &played,
        passen: 1,
        clubs: None,
        absent: &[],
        seed: 5,
    });
    assert_eq!(next.len(), 1);
    assert_complete(20, &next[0]);
    let all: Vec<EinzelPasse> = played.iter().chain(&next).cloned().collect();
    let q = quality(20, &all, None);
    assert_eq!((q.partner_repeats, q.meeting_repeats), (0, 0), "{q:?}");
}

#[test]
fn players_who_left_take_no_seat_and_the_rest_still_fill_tables() {
    let played = schedule(21, 2, 4);
    // Two players leave: 19 remain, so three sit out (not one as with 21).
    let next = draw_einzel(&EinzelRequest {
        players: 21,
        fixed: &played,
        passen: 1,
        clubs: None,
        absent: &[3, 17],
        seed: 6,
    });
    let seated: Vec<usize> = next[0].tables.iter().flatten().copied().collect();
    assert!(!seated.contains(&3) && !seated.contains(&17));
    assert!(!next[0].spielfrei.contains(&3) && !next[0].spielfrei.contains(&17));
    assert_eq!(next[0].spielfrei.len(), 3);
    assert_eq!(seated.len() + 3, 19);
    let mut all: Vec<usize> = seated.iter().chain(&next[0].spielfrei).copied().collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 19);
}

/// Draws Passe after Passe as the per-Passe draw does; `absent_from(passe)` are the players
/// who have left before that Passe (counted from 0).
fn per_passe(
    players: usize,
    passen: usize,
    seed: u64,
    absent_from: impl Fn(usize) -> Vec<usize>,
) -> Vec<EinzelPasse> {
    let mut played: Vec<EinzelPasse> = Vec::new();
    // Plans remembered, as the app does: drawn again, each would be the same.
    let mut plans: Vec<(usize, Vec<usize>, Vec<EinzelPasse>)> = Vec::new();
    let mut plan = |request: &EinzelRequest<'_>| {
        let key = (request.fixed.len(), request.absent.to_vec());
        if let Some((.., plan)) = plans.iter().find(|(f, a, _)| (*f, a) == (key.0, &key.1)) {
            return plan.clone();
        }
        let plan = plan_einzel(request);
        plans.push((key.0, key.1, plan.clone()));
        plan
    };
    for passe in 0..passen {
        let absent = absent_from(passe);
        let request = EinzelRequest {
            players,
            fixed: &played,
            passen: passen - passe,
            clubs: None,
            absent: &absent,
            seed,
        };
        let next = draw_next_einzel(&request, &mut plan).expect("a Passe");
        played.push(next);
    }
    played
}

#[test]
fn drawn_passe_by_passe_an_unchanged_field_gets_the_fixed_plan() {
    // Drawn one Passe at a time with nothing ahead, 16 × 5 met 8 times beyond once and
    // 24 × 7 13 times; their whole schedules have no repeat.
    for (players, passen) in [(16, 5), (24, 7), (22, 4)] {
        let drawn = per_passe(players, passen, 9, |_| Vec::new());
        assert_eq!(drawn, schedule(players, passen, 9), "{players} × {passen}");
        let q = quality(players, &drawn, None);
        assert_eq!((q.partner_repeats, q.meeting_repeats), (0, 0), "{q:?}");
    }
}

#[test]
fn after_a_player_leaves_the_passen_keep_to_one_plan_of_the_rest() {
    let (players, passen, seed) = (24, 5, 4);
    let absent_from = |passe: usize| if passe >= 2 { vec![5] } else { Vec::new() };
    let drawn = per_passe(players, passen, seed, absent_from);
    // The first two Passen are the fixed plan's; the last three one plan drawn after them
    // without the player who left, as it was drawn for Passe 3.
    let whole = schedule(players, passen, seed);
    assert_eq!(drawn[..2], whole[..2]);
    let rest = plan_einzel(&EinzelRequest {
        players,
        fixed: &drawn[..2],
        passen: 3,
        clubs: None,
        absent: &[5],
        seed: passe_seed(seed, 2),
    });
    assert_eq!(drawn[2..], rest[..]);
    for passe in &drawn[2..] {
        assert!(!passe.tables.iter().flatten().any(|&p| p == 5));
        assert!(!passe.spielfrei.contains(&5));
        // 23 players left: five tables, three spielfrei.
        assert_eq!((passe.tables.len(), passe.spielfrei.len()), (5, 3));
    }
    let q = quality(players, &drawn, None);
    assert_eq!(q.partner_repeats, 0, "{q:?}");
}

#[test]
fn a_late_player_is_seated_from_his_first_passe_on() {
    // 24 players for two Passen, then a 25th.
    let (players, passen, seed) = (25, 5, 2);
    let absent_from = |passe: usize| if passe < 2 { vec![24] } else { Vec::new() };
    let drawn = per_passe(players, passen, seed, absent_from);
    for passe in &drawn[..2] {
        assert!(!passe.tables.iter().flatten().any(|&p| p == 24));
    }
    for passe in &drawn[2..] {
        assert_complete(players, passe);
    }
    // From his arrival on, one plan of the Passen left, drawn after the first two.
    let rest = plan_einzel(&EinzelRequest {
        players,
        fixed: &drawn[..2],
        passen: 3,
        clubs: None,
        absent: &[],
        seed: passe_seed(seed, 2),
    });
    assert_eq!(drawn[2..], rest[..]);
    let q = quality(players, &drawn, None);
    assert_eq!(q.partner_repeats, 0, "{q:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Any field of 16 to 36 players over 1 to 4 Passen: complete Passen, no partner twice,
    /// repeats within 10 % of the counting bound or 2 of it. (Below 16 players the counting
    /// bound cannot be reached: with fewer than four tables, every table of the second Passe
    /// takes two players from one table of the first. The benchmark lists bigger fields and
    /// the ones that miss the strict target.)
    #[test]
    fn every_field_is_drawn_near_the_targets(players in 16usize..=36, passen in 1usize..=4, seed in any::<u64>()) {
        let drawn = schedule(players, passen, seed);
        prop_assert_eq!(drawn.len(), passen);
        for passe in &drawn {
            assert_complete(players, passe);
        }
        let q = quality(players, &drawn, None);
        prop_assert_eq!(q.partner_repeats, 0, "{:?}", q);
        prop_assert!(
            f64::from(q.meeting_repeats) <= (f64::from(q.bound) * 1.1).max(f64::from(q.bound) + 2.0),
            "{:?}", q
        );
    }
}

proptest! {
    // Big fields are slow to draw unoptimised: few cases (the benchmark measures 200 × 8).
    #![proptest_config(ProptestConfig::with_cases(4))]

    /// Fields of 37 to 200 players over 1 to 3 Passen (where no two players need to meet
    /// twice): complete Passen, nobody spielfrei twice, no partner twice, no repeated meeting.
    #[test]
    fn big_fields_meet_the_strict_target(players in 37usize..=200, passen in 1usize..=3, seed in any::<u64>()) {
        let drawn = schedule(players, passen, seed);
        for passe in &drawn {
            assert_complete(players, passe);
        }
        let mut sat_out = vec![0; players];
        for p in drawn.iter().flat_map(|d| &d.spielfrei) {
            sat_out[*p] += 1;
        }
        prop_assert!(sat_out.iter().all(|&n| n <= 1), "nobody spielfrei twice in 3 Passen");
        let q = quality(players, &drawn, None);
        prop_assert_eq!((q.partner_repeats, q.meeting_repeats), (0, 0), "{:?}", q);
    }
}

#[test]
fn a_passe_with_repeats_is_rebuilt_without_them() {
    // 16 players seated twice at the same four tables: the second Passe is all repeats.
    let (mut weeks, mut search) = sixteen_at_the_same_tables_twice();
    assert!(total_cost(&search) > 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    assert!(rebuild_week(&mut search, &mut weeks[1], &mut rng));
    assert_eq!(total_cost(&search), 0);
    let drawn = without_spielfrei(weeks);
    assert_complete(16, &drawn[1]);
    let q = quality(16, &drawn, None);
    assert_eq!((q.meeting_repeats, q.partner_repeats), (0, 0), "{q:?}");
}

/// Tables of four drawn at random for each Passe, around who sits out in it (`byes`).
fn seated_at_random(
    players: usize,
    byes: &[Vec<usize>],
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<[usize; 4]>> {
    byes.iter()
        .map(|out| {
            let mut playing: Vec<usize> = (0..players).filter(|p| !out.contains(p)).collect();
            playing.shuffle(rng);
            playing
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect()
        })
        .collect()
}

/// Asserts of a searched schedule that every Passe is complete, nobody sits out twice, and
/// the cost the search counted is the schedule's own.
fn assert_checked_schedule(
    players: usize,
    weeks: Vec<Vec<[usize; 4]>>,
    byes: Vec<Vec<usize>>,
    counted: i64,
) {
    let drawn: Vec<EinzelPasse> = weeks
        .into_iter()
        .zip(byes)
        .map(|(tables, spielfrei)| EinzelPasse { tables, spielfrei })
        .collect();
    assert_complete_and_nobody_out_twice(players, &drawn);
    let mut recounted = nobody_met(players);
    for table in drawn.iter().flat_map(|p| &p.tables) {
        recounted.add_table(table, 1);
    }
    assert_eq!(counted, total_cost(&recounted));
}

/// The tabu search after the annealing, from the same start with and without moves of who
/// sits out: with them it leaves fewer repeats on 18 players × 6 Passen (two spielfrei a
/// Passe), and the rotation's rule still holds (nobody out twice, every Passe complete).
#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn the_tabu_search_also_moves_who_sits_out() {
    let (players, passen) = (18, 6);
    let (mut with_bench, mut without) = (0, 0);
    for seed in 1..=4 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let byes = byes(players, &[], &[], passen, &mut rng);
        let mut weeks = seated_at_random(players, &byes, &mut rng);
        let mut search = nobody_met(players);
        for table in weeks.iter().flatten() {
            search.add_table(table, 1);
        }
        let mut bench = Bench::new(players, &[], &byes, &[]).expect("nobody sits out twice");
        anneal(&mut search, &mut weeks, Some(&mut bench), &mut rng);

        let (mut plain, mut plain_weeks, mut plain_rng) =
            (search.clone(), weeks.clone(), rng.clone());
        polish(&mut plain, &mut plain_weeks, None, &mut plain_rng, 0);
        without += total_cost(&plain);

        polish(&mut search, &mut weeks, Some(&mut bench), &mut rng, 0);
        with_bench += total_cost(&search);
        assert_checked_schedule(players, weeks, bench.byes, total_cost(&search));
    }
    assert!(with_bench < without, "{with_bench} against {without}");
}

/// A schedule laid over a core is polished with its spielfrei players movable too: who sits
/// out changes, and the rotation's rule still holds.
#[test]
fn a_kept_schedule_searches_who_sits_out_too() {
    let (players, passen) = (18, 6);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let byes = byes(players, &[], &[], passen, &mut rng);
    let schedule: Vec<EinzelPasse> = seated_at_random(players, &byes, &mut rng)
        .into_iter()
        .zip(&byes)
        .map(|(tables, out)| EinzelPasse {
            tables,
            spielfrei: out.clone(),
        })
        .collect();
    let mut kept = None;
    keep_schedule(&nobody_met(players), schedule, 0, &mut rng, &mut kept);
    let kept = kept.expect("a schedule is kept");
    assert_ne!(kept.byes, byes, "who sits out was searched");
    assert_checked_schedule(players, kept.weeks, kept.byes, kept.cost);
}

#[test]
#[ignore = "slow set (draw quality): cargo test --lib -- --ignored"]
fn a_club_evening_of_fewer_than_four_tables_is_drawn_at_its_fewest_repeats() {
    // With three tables or fewer, every two Passen seat some pair together in both (see
    // `bound::pairwise`): 12 players over 4 Passen cannot have fewer than 18 repeats with
    // nobody meeting anybody three times (counting alone says 6), 9 over 3 not fewer than
    // 9, 14 over 4 not fewer than 6. The draw reaches these, so the search stops there
    // instead of running its whole budget towards a bound it cannot reach. 12 over 6 (45) is
    // a stored schedule: the search found only 44 with a pair three times.
    let fields = [
        (8, 3, 12),
        (9, 3, 9),
        (12, 4, 18),
        (13, 4, 12),
        (14, 4, 6),
        (12, 6, 45),
    ];
    for (players, passen, fewest) in fields {
        let q = complete_without_partner_repeats(players, passen, 1);
        assert_eq!(q.bound, fewest, "{players} × {passen}: {q:?}");
        assert_eq!(q.meeting_repeats, fewest, "{players} × {passen}: {q:?}");
        assert!(q.most_meetings <= 2, "{players} × {passen}: {q:?}");
    }
}
