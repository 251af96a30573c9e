//! The search itself: the meeting and partner counts of a schedule (`Search`), simulated
//! annealing over seat swaps, the tabu search that polishes, and the rebuilding of whole Passen.

use super::bench::*;
use super::cost::*;
use rand::Rng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Simulated annealing over swaps of two players of one Passe at different tables (or of
/// two seats at one table, which changes partners only), and, where the bench may move, of a
/// seated player with one who sits out.
pub(super) fn anneal(
    search: &mut Search<'_>,
    weeks: &mut [Vec<[usize; 4]>],
    mut bench: Option<&mut Bench>,
    rng: &mut ChaCha8Rng,
) {
    if weeks.iter().all(Vec::is_empty) {
        return;
    }
    let players = search.n as u64;
    // Enough for 200 players × 8 Passen to settle; counted, not timed (reproducible).
    let budget = (400_000 + 6_000 * players * weeks.len() as u64).min(12_000_000);
    let (hot, cold) = (20.0f64, 0.2f64);
    let cooling = (cold / hot).powf(1.0 / budget as f64);
    let mut temperature = hot;
    for step in 0..budget {
        temperature *= cooling;
        let w = rng.random_range(0..weeks.len());
        let week = &mut weeks[w];
        if week.is_empty() {
            continue;
        }
        let t1 = rng.random_range(0..week.len());
        let s1 = rng.random_range(0..4);
        // Mostly move players who have a repeat at their table: the others are fine.
        if step % 16 != 0 && !search.troubled(&week[t1], s1) {
            continue;
        }
        if let Some(bench) = bench.as_deref_mut().filter(|_| step % 8 == 1) {
            let seated = week[t1][s1];
            // Where nobody sits out twice, only who has not sat out may (checked before a
            // random number is drawn, as it always was: the same draws for those fields).
            if bench.byes[w].is_empty() || (bench.rotation.is_none() && bench.sat_out[seated] > 0) {
                continue;
            }
            let i = rng.random_range(0..bench.byes[w].len());
            let resting = bench.byes[w][i];
            if !bench.may_trade(w, seated, resting) {
                continue;
            }
            let delta = search.seat_change(&week[t1], s1, seated, resting);
            if delta <= 0 || rng.random_bool((-(delta as f64) / temperature).exp().min(1.0)) {
                bench.trade(search, (w, i), &mut week[t1], s1);
            }
            continue;
        }
        let t2 = rng.random_range(0..week.len());
        let s2 = rng.random_range(0..4);
        let delta = if t1 == t2 {
            partner_delta(search, &week[t1], s1, s2)
        } else {
            let (a, b) = (week[t1][s1], week[t2][s2]);
            search.seat_change(&week[t1], s1, a, b) + search.seat_change(&week[t2], s2, b, a)
        };
        if delta <= 0 || rng.random_bool((-(delta as f64) / temperature).exp().min(1.0)) {
            search.apply_swap(week, (t1, s1), (t2, s2));
        }
    }
}

/// Everything the search minimises, counted from scratch.
pub(super) fn total_cost(search: &Search<'_>) -> i64 {
    let n = search.n;
    let mut cost = 0;
    for a in 0..n {
        for b in a + 1..n {
            cost += meet_cost(search.meet[search.at(a, b)])
                + Search::partner_cost(search.partner[search.at(a, b)]);
            if search.club_cost > 0 && search.meet[search.at(a, b)] > 0 && search.same_club(a, b) {
                cost += search.club_cost * i64::from(search.meet[search.at(a, b)]);
            }
        }
    }
    cost
}

/// A move of the tabu search in one Passe: two seats swapped (at two tables, or at one, which
/// changes partners only), or a seated player giving his seat to the `i`-th who sits out.
#[derive(Clone, Copy)]
pub(super) enum Move {
    Swap((usize, usize), (usize, usize)),
    Bench((usize, usize), usize),
}

impl Move {
    /// Keeps `candidate` (Passe, move, cost change) if it changes the cost less than the
    /// chosen one, or as little (one of the `ties` picked at random).
    pub(super) fn offer(
        chosen: &mut Option<(usize, Move, i64)>,
        ties: &mut u32,
        candidate: (usize, Move, i64),
        rng: &mut ChaCha8Rng,
    ) {
        match chosen {
            Some((_, _, d)) if *d < candidate.2 => {}
            Some((_, _, d)) if *d == candidate.2 => {
                *ties += 1;
                if rng.random_range(0..=*ties) == 0 {
                    *chosen = Some(candidate);
                }
            }
            _ => {
                *ties = 0;
                *chosen = Some(candidate);
            }
        }
    }
}

/// Tabu search (after Dotú and Van Hentenryck's for the social golfer problem): take a
/// player with a repeat at their table, make the best swap with a player of another table of
/// that Passe (or, where the bench may move, with one who sits out) that is not tabu (a swap
/// undone too soon), even when it is worse; shake the schedule when nothing improves for a
/// while; keep the best.
pub(super) fn polish(
    search: &mut Search<'_>,
    weeks: &mut [Vec<[usize; 4]>],
    mut bench: Option<&mut Bench>,
    rng: &mut ChaCha8Rng,
    target: i64,
) {
    let n = search.n;
    let mut cost = total_cost(search);
    let mut best_cost = cost;
    let mut best: Vec<Vec<[usize; 4]>> = weeks.to_vec();
    let mut best_bench: Option<Bench> = bench.as_deref().cloned();
    let mut tabu = vec![0u64; weeks.len() * n * n];
    let steps = 10_000 + 100 * (n * weeks.len()) as u64;
    let mut last_better = 0;
    for step in 1..=steps {
        if cost <= target {
            break;
        }
        let conflicts: Vec<(usize, usize, usize)> = weeks
            .iter()
            .enumerate()
            .flat_map(|(w, week)| {
                week.iter()
                    .enumerate()
                    .flat_map(move |(t, _)| (0..4).map(move |s| (w, t, s)))
            })
            .filter(|&(w, t, s)| search.troubled(&weeks[w][t], s))
            .collect();
        if conflicts.is_empty() {
            break;
        }
        // The best move of a few conflicted players (all of them when there are few).
        let mut chosen: Option<(usize, Move, i64)> = None;
        let mut ties = 0;
        for _ in 0..conflicts.len().min(16) {
            let (w, t1, s1) = conflicts[rng.random_range(0..conflicts.len())];
            let week = &weeks[w];
            let a = week[t1][s1];
            let banned = |b: usize, delta: i64| {
                tabu[(w * n + a) * n + b] > step && cost + delta >= best_cost
            };
            for (t2, table) in week.iter().enumerate() {
                for (s2, &b) in table.iter().enumerate() {
                    if a == b {
                        continue;
                    }
                    let delta = if t2 == t1 {
                        partner_delta(search, table, s1, s2)
                    } else {
                        search.seat_change(&week[t1], s1, a, b)
                            + search.seat_change(table, s2, b, a)
                    };
                    if (t2 == t1 && delta == 0) || banned(b, delta) {
                        continue;
                    }
                    Move::offer(
                        &mut chosen,
                        &mut ties,
                        (w, Move::Swap((t1, s1), (t2, s2)), delta),
                        rng,
                    );
                }
            }
            // Or the player sits out here instead of one who does, where the rotation allows.
            let Some(bench) = bench.as_deref() else {
                continue;
            };
            for (i, &resting) in bench.byes[w].iter().enumerate() {
                let delta = search.seat_change(&week[t1], s1, a, resting);
                if !banned(resting, delta) && bench.may_trade(w, a, resting) {
                    Move::offer(
                        &mut chosen,
                        &mut ties,
                        (w, Move::Bench((t1, s1), i), delta),
                        rng,
                    );
                }
            }
        }
        // Never more than one new repeat at a time; from a dead end, back to the best.
        let Some((w, mv, delta)) = chosen.filter(|c| c.2 <= meet_cost(2)) else {
            restore(search, weeks, &best);
            if let (Some(bench), Some(kept)) = (bench.as_deref_mut(), &best_bench) {
                bench.clone_from(kept);
            }
            cost = best_cost;
            continue;
        };
        let (a, b) = match mv {
            Move::Swap((t1, s1), (t2, s2)) => {
                let (a, b) = (weeks[w][t1][s1], weeks[w][t2][s2]);
                search.apply_swap(&mut weeks[w], (t1, s1), (t2, s2));
                (a, b)
            }
            Move::Bench((t, s), i) => {
                let Some(bench) = bench.as_deref_mut() else {
                    continue;
                };
                bench.trade(search, (w, i), &mut weeks[w][t], s)
            }
        };
        cost += delta;
        let tenure = step + 2 + rng.random_range(0..10);
        tabu[(w * n + a) * n + b] = tenure;
        tabu[(w * n + b) * n + a] = tenure;
        if cost < best_cost {
            best_cost = cost;
            best.clone_from_slice(weeks);
            if let (Some(bench), Some(kept)) = (bench.as_deref(), best_bench.as_mut()) {
                kept.clone_from(bench);
            }
            last_better = step;
        } else if step - last_better > 500 {
            // Stuck: a few random swaps, then go on from there.
            for _ in 0..3 {
                let w = rng.random_range(0..weeks.len());
                let week = &mut weeks[w];
                if week.len() < 2 {
                    continue;
                }
                let (t1, t2) = (
                    rng.random_range(0..week.len()),
                    rng.random_range(0..week.len()),
                );
                let (s1, s2) = (rng.random_range(0..4), rng.random_range(0..4));
                if t1 == t2 {
                    continue;
                }
                let (a, b) = (week[t1][s1], week[t2][s2]);
                cost += search.seat_change(&week[t1], s1, a, b)
                    + search.seat_change(&week[t2], s2, b, a);
                search.apply_swap(week, (t1, s1), (t2, s2));
            }
            last_better = step;
        }
    }
    if best_cost < cost {
        restore(search, weeks, &best);
        if let (Some(bench), Some(kept)) = (bench, best_bench) {
            *bench = kept;
        }
    }
}

/// Puts the Passen back to `kept`, with their counts.
pub(super) fn restore(
    search: &mut Search<'_>,
    weeks: &mut [Vec<[usize; 4]>],
    kept: &[Vec<[usize; 4]>],
) {
    for (week, kept) in weeks.iter_mut().zip(kept) {
        for table in week.iter() {
            search.add_table(table, -1);
        }
        week.clone_from(kept);
        for table in week.iter() {
            search.add_table(table, 1);
        }
    }
}

/// For schedules that must have no repeated meeting: takes one Passe out and searches it anew
/// (depth first, bounded) for tables of four players who meet nowhere else, so that its
/// repeats vanish; Passen in turn, with a shake of the schedule between rounds that find
/// nothing (a large-neighbourhood search on top of the local one).
pub(super) fn rebuild_weeks(
    search: &mut Search<'_>,
    weeks: &mut [Vec<[usize; 4]>],
    rng: &mut ChaCha8Rng,
) {
    let mut best_cost = total_cost(search);
    let mut best: Vec<Vec<[usize; 4]>> = weeks.to_vec();
    for _round in 0..REBUILD_ROUNDS {
        if best_cost == 0 {
            break;
        }
        let mut order: Vec<usize> = (0..weeks.len()).collect();
        order.shuffle(rng);
        for w in order {
            if rebuild_week(search, &mut weeks[w], rng) {
                let cost = total_cost(search);
                if cost < best_cost {
                    best_cost = cost;
                    best.clone_from_slice(weeks);
                }
                if cost == 0 {
                    break;
                }
            }
        }
        // Shake: a few random swaps in one Passe, so that the next round finds other room.
        let w = rng.random_range(0..weeks.len());
        let week = &mut weeks[w];
        if week.len() >= 2 {
            for _ in 0..2 {
                let (t1, t2) = (
                    rng.random_range(0..week.len()),
                    rng.random_range(0..week.len()),
                );
                if t1 != t2 {
                    let (s1, s2) = (rng.random_range(0..4), rng.random_range(0..4));
                    search.apply_swap(week, (t1, s1), (t2, s2));
                }
            }
        }
    }
    if total_cost(search) > best_cost {
        restore(search, weeks, &best);
    }
}

/// Rounds of [`rebuild_weeks`] at most.
pub(super) const REBUILD_ROUNDS: usize = 300;
/// Search steps for one Passe at most.
pub(super) const REBUILD_STEPS: u32 = 20_000;

/// Replaces the tables of one Passe by tables whose players meet in no other Passe, if the
/// bounded search finds them; true if it did.
pub(super) fn rebuild_week(
    search: &mut Search<'_>,
    week: &mut Vec<[usize; 4]>,
    rng: &mut ChaCha8Rng,
) -> bool {
    for table in week.iter() {
        search.add_table(table, -1);
    }
    let mut players: Vec<usize> = week.iter().flatten().copied().collect();
    players.shuffle(rng);
    let mut tables: Vec<[usize; 4]> = Vec::with_capacity(week.len());
    let mut steps = 0;
    let found = fill(search, &mut players, &mut tables, &mut steps);
    if found {
        // Partners: of the three ways to pair a table, one without a repeated partner.
        for table in &mut tables {
            let [a, b, c, d] = *table;
            let ways = [[a, b, c, d], [a, c, b, d], [a, d, b, c]];
            if let Some(way) = ways.into_iter().find(|t| {
                search.partner[search.at(t[0], t[1])] == 0
                    && search.partner[search.at(t[2], t[3])] == 0
            }) {
                *table = way;
            }
        }
        *week = tables;
    }
    for table in week.iter() {
        search.add_table(table, 1);
    }
    found
}

/// Depth first: the first unseated player with three others no two of whom have met.
pub(super) fn fill(
    search: &Search<'_>,
    free: &mut Vec<usize>,
    tables: &mut Vec<[usize; 4]>,
    steps: &mut u32,
) -> bool {
    let Some(&first) = free.first() else {
        return true;
    };
    *steps += 1;
    if *steps > REBUILD_STEPS {
        return false;
    }
    let unmet = |a: usize, b: usize| search.meet[search.at(a, b)] == 0;
    let candidates: Vec<usize> = free[1..]
        .iter()
        .copied()
        .filter(|&x| unmet(first, x))
        .collect();
    for i in 0..candidates.len() {
        for j in i + 1..candidates.len() {
            if !unmet(candidates[i], candidates[j]) {
                continue;
            }
            for k in j + 1..candidates.len() {
                let (b, c, d) = (candidates[i], candidates[j], candidates[k]);
                if !unmet(b, d) || !unmet(c, d) {
                    continue;
                }
                let rest: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|p| ![first, b, c, d].contains(p))
                    .collect();
                let saved = std::mem::replace(free, rest);
                tables.push([first, b, c, d]);
                if fill(search, free, tables, steps) {
                    return true;
                }
                tables.pop();
                *free = saved;
                if *steps > REBUILD_STEPS {
                    return false;
                }
            }
        }
    }
    false
}

/// Cost change of swapping two seats at one table: the table mates stay, the partners may
/// change.
pub(super) fn partner_delta(search: &Search<'_>, table: &[usize; 4], s1: usize, s2: usize) -> i64 {
    if s1 / 2 == s2 / 2 {
        return 0;
    }
    let mut moved = *table;
    moved.swap(s1, s2);
    let pairs = |t: &[usize; 4]| [(t[0], t[1]), (t[2], t[3])];
    let count = |(a, b): (usize, usize)| search.partner[search.at(a, b)];
    let leaving: i64 = pairs(table)
        .into_iter()
        .map(|p| Search::partner_cost(count(p) - 1) - Search::partner_cost(count(p)))
        .sum();
    let coming: i64 = pairs(&moved)
        .into_iter()
        .map(|p| Search::partner_cost(count(p) + 1) - Search::partner_cost(count(p)))
        .sum();
    leaving + coming
}
