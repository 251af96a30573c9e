//! An offline search for whole Einzelschieber schedules, run by hand to find schedules worth
//! storing (`src/domain/einzel_draw/at_most_twice.rs`), never by the app:
//!
//! `cargo bench --bench einzel_offline -- PLAYERS PASSEN TARGET [SEED] [MINUTES] [draw]`
//!
//! searches (from a random schedule, or with `draw` from the app's own draw with that seed) for
//! a schedule with at most TARGET meeting repeats, no pair three times and nobody sitting out
//! twice before everybody once, and prints it in the stored form: per Passe the seats A1, A2,
//! B1, B2 table by table, then the spielfrei players, the partners chosen so that nobody
//! partners anybody twice. It is the tabu search of Dotú and Van Hentenryck for the social
//! golfer problem (the app's draw polishes with the same idea, but within a budget fit for the
//! day of the tournament): take a player at a table with a repeat, make the best swap with a
//! player of another table of that Passe or one who sits out, even when it is worse, never
//! undoing a swap too soon; from a long stall, a few random swaps from the best schedule found.
//! Here it runs for minutes instead of milliseconds.

use jassturnier::domain::einzel_draw::{EinzelRequest, draw_einzel};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// A pair's part of the cost: its repeats, and a heavy charge for a third meeting.
fn pair_cost(meetings: i32) -> i64 {
    match meetings {
        0 | 1 => 0,
        2 => 1,
        m => i64::from(m - 1) + 100 * i64::from(m - 2),
    }
}

struct Schedule {
    n: usize,
    tables: usize,
    /// Per Passe the players in seat order: `4 × tables` seated, then those who sit out.
    weeks: Vec<Vec<usize>>,
    meet: Vec<i32>,
}

impl Schedule {
    fn random(n: usize, passen: usize, rng: &mut ChaCha8Rng) -> Self {
        let byes = n % 4;
        let weeks = (0..passen)
            .map(|w| {
                // Who sits out: the players in turn.
                let resting: Vec<usize> = (0..byes).map(|i| (w * byes + i) % n).collect();
                let mut week: Vec<usize> = (0..n).filter(|p| !resting.contains(p)).collect();
                week.shuffle(rng);
                week.extend(resting);
                week
            })
            .collect();
        Self::from_weeks(n, weeks)
    }

    /// The app's draw with `seed` as the start (its rotation has nobody sit out twice
    /// before everybody once).
    fn drawn(n: usize, passen: usize, seed: u64) -> Self {
        let drawn = draw_einzel(&EinzelRequest {
            players: n,
            fixed: &[],
            passen,
            clubs: None,
            absent: &[],
            seed,
        });
        let weeks = drawn
            .iter()
            .map(|p| {
                p.tables
                    .iter()
                    .flatten()
                    .chain(&p.spielfrei)
                    .copied()
                    .collect()
            })
            .collect();
        Self::from_weeks(n, weeks)
    }

    fn from_weeks(n: usize, weeks: Vec<Vec<usize>>) -> Self {
        let mut schedule = Schedule {
            n,
            tables: n / 4,
            weeks,
            meet: vec![0; n * n],
        };
        schedule.recount();
        schedule
    }

    /// The meeting counts anew from the seats.
    fn recount(&mut self) {
        self.meet.iter_mut().for_each(|m| *m = 0);
        for w in 0..self.weeks.len() {
            for t in 0..self.tables {
                self.add_table(w, t, 1);
            }
        }
    }

    fn add_table(&mut self, w: usize, t: usize, by: i32) {
        let seats = &self.weeks[w][4 * t..4 * t + 4];
        for i in 0..4 {
            for j in i + 1..4 {
                let (a, b) = (seats[i], seats[j]);
                self.meet[a * self.n + b] += by;
                self.meet[b * self.n + a] += by;
            }
        }
    }

    /// `per_pair` of each pair's meetings, summed over all pairs.
    fn sum_over_pairs(&self, per_pair: impl Fn(i32) -> i64) -> i64 {
        (0..self.n)
            .flat_map(|a| (a + 1..self.n).map(move |b| (a, b)))
            .map(|(a, b)| per_pair(self.meet[a * self.n + b]))
            .sum()
    }

    fn cost(&self) -> i64 {
        self.sum_over_pairs(pair_cost)
    }

    fn repeats(&self) -> i64 {
        self.sum_over_pairs(|m| i64::from((m - 1).max(0)))
    }

    /// The cost change of `leaving` giving his seat `s` (a seat at a table, or one sitting
    /// out) to `coming`, who is not at that table.
    fn seat_change(&self, w: usize, s: usize, leaving: usize, coming: usize) -> i64 {
        if s >= 4 * self.tables {
            return 0;
        }
        let t = s / 4;
        let mut delta = 0;
        for &other in &self.weeks[w][4 * t..4 * t + 4] {
            if other == leaving || other == coming {
                continue;
            }
            let m = self.meet[leaving * self.n + other];
            delta += pair_cost(m - 1) - pair_cost(m);
            let m = self.meet[coming * self.n + other];
            delta += pair_cost(m + 1) - pair_cost(m);
        }
        delta
    }

    fn swap_delta(&self, w: usize, s1: usize, s2: usize) -> i64 {
        let (a, b) = (self.weeks[w][s1], self.weeks[w][s2]);
        self.seat_change(w, s1, a, b) + self.seat_change(w, s2, b, a)
    }

    /// Whether the swap is of two seats at different tables, or of a seated player and one
    /// who sits out that keeps the rotation: nobody sits out twice before everybody once.
    fn allowed(&self, w: usize, s1: usize, s2: usize) -> bool {
        let seated = 4 * self.tables;
        if s1 / 4 == s2 / 4 || (s1 >= seated && s2 >= seated) {
            return false;
        }
        if s1 < seated && s2 < seated {
            return true;
        }
        let (a, b) = (self.weeks[w][s1], self.weeks[w][s2]);
        let mut sat_out = vec![0u32; self.n];
        for (v, week) in self.weeks.iter().enumerate() {
            for &p in &week[seated..] {
                // In Passe `w`, `a` and `b` trade places.
                let p = match p {
                    _ if v != w => p,
                    p if p == a => b,
                    p if p == b => a,
                    p => p,
                };
                sat_out[p] += 1;
            }
            let least = sat_out.iter().min().copied().unwrap_or(0);
            if sat_out.iter().any(|&c| c > least + 1) {
                return false;
            }
        }
        true
    }

    fn swap(&mut self, w: usize, s1: usize, s2: usize) {
        let seated = 4 * self.tables;
        for s in [s1, s2] {
            if s < seated {
                self.add_table(w, s / 4, -1);
            }
        }
        self.weeks[w].swap(s1, s2);
        for s in [s1, s2] {
            if s < seated {
                self.add_table(w, s / 4, 1);
            }
        }
    }

    /// Whether the player at seat `s` meets somebody at his table more than once.
    fn troubled(&self, w: usize, s: usize) -> bool {
        if s >= 4 * self.tables {
            return false;
        }
        let a = self.weeks[w][s];
        let t = s / 4;
        self.weeks[w][4 * t..4 * t + 4]
            .iter()
            .any(|&b| b != a && self.meet[a * self.n + b] > 1)
    }
}

/// The tabu search; returns the best schedule found and its cost.
fn search(
    mut schedule: Schedule,
    target: i64,
    rng: &mut ChaCha8Rng,
    limit: Duration,
) -> (Vec<Vec<usize>>, i64) {
    let (n, passen) = (schedule.n, schedule.weeks.len());
    let mut cost = schedule.cost();
    let mut best = schedule.weeks.clone();
    let mut best_cost = cost;
    let mut tabu = vec![0u64; passen * n * n];
    let start = Instant::now();
    let mut last_better = 0u64;
    let mut step = 0u64;
    while best_cost > target && start.elapsed() < limit {
        step += 1;
        let mut chosen: Option<(usize, usize, usize, i64)> = None;
        let mut ties = 0u32;
        for w in 0..passen {
            for s1 in 0..4 * schedule.tables {
                if !schedule.troubled(w, s1) {
                    continue;
                }
                let a = schedule.weeks[w][s1];
                for s2 in 0..n {
                    if !schedule.allowed(w, s1, s2) {
                        continue;
                    }
                    let b = schedule.weeks[w][s2];
                    let delta = schedule.swap_delta(w, s1, s2);
                    if tabu[(w * n + a) * n + b] > step && cost + delta >= best_cost {
                        continue;
                    }
                    match chosen {
                        Some((_, _, _, d)) if d < delta => {}
                        Some((_, _, _, d)) if d == delta => {
                            ties += 1;
                            if rng.random_range(0..=ties) == 0 {
                                chosen = Some((w, s1, s2, delta));
                            }
                        }
                        _ => {
                            ties = 0;
                            chosen = Some((w, s1, s2, delta));
                        }
                    }
                }
            }
        }
        if let Some((w, s1, s2, delta)) = chosen {
            let (a, b) = (schedule.weeks[w][s1], schedule.weeks[w][s2]);
            schedule.swap(w, s1, s2);
            cost += delta;
            let tenure = step + 4 + rng.random_range(0..(n as u64));
            tabu[(w * n + a) * n + b] = tenure;
            tabu[(w * n + b) * n + a] = tenure;
        }
        if cost < best_cost {
            best_cost = cost;
            best.clone_from(&schedule.weeks);
            last_better = step;
            eprintln!(
                "{:>8.1} s  step {step:>9}  cost {cost}",
                start.elapsed().as_secs_f64()
            );
        } else if step - last_better > 20_000 {
            // A long stall: from the best schedule, a few random swaps.
            schedule.weeks.clone_from(&best);
            schedule.recount();
            for _ in 0..rng.random_range(2..8) {
                let w = rng.random_range(0..passen);
                let (s1, s2) = (rng.random_range(0..n), rng.random_range(0..n));
                if schedule.allowed(w, s1, s2) {
                    schedule.swap(w, s1, s2);
                }
            }
            cost = schedule.cost();
            last_better = step;
        }
    }
    schedule.weeks.clone_from(&best);
    schedule.recount();
    eprintln!(
        "{} steps, {:.1} s; meeting repeats {}",
        step,
        start.elapsed().as_secs_f64(),
        schedule.repeats()
    );
    (best, best_cost)
}

/// Orders each table's four seats so that nobody partners anybody twice (A1 with A2, B1 with
/// B2): a depth-first search over the three ways to pair each table.
fn choose_partners(weeks: &mut [Vec<usize>], tables: usize, n: usize) -> bool {
    let slots: Vec<(usize, usize)> = (0..weeks.len())
        .flat_map(|w| (0..tables).map(move |t| (w, t)))
        .collect();
    let mut partnered = vec![false; n * n];
    fn place(
        at: usize,
        slots: &[(usize, usize)],
        weeks: &mut [Vec<usize>],
        partnered: &mut [bool],
        n: usize,
    ) -> bool {
        let Some(&(w, t)) = slots.get(at) else {
            return true;
        };
        let seats = [
            weeks[w][4 * t],
            weeks[w][4 * t + 1],
            weeks[w][4 * t + 2],
            weeks[w][4 * t + 3],
        ];
        for [a, b, c, d] in [[0, 1, 2, 3], [0, 2, 1, 3], [0, 3, 1, 2]] {
            let (p, q, r, s) = (seats[a], seats[b], seats[c], seats[d]);
            if partnered[p * n + q] || partnered[r * n + s] {
                continue;
            }
            mark(partnered, n, [(p, q), (r, s)], true);
            weeks[w][4 * t..4 * t + 4].copy_from_slice(&[p, q, r, s]);
            if place(at + 1, slots, weeks, partnered, n) {
                return true;
            }
            mark(partnered, n, [(p, q), (r, s)], false);
        }
        weeks[w][4 * t..4 * t + 4].copy_from_slice(&seats);
        false
    }
    place(0, &slots, weeks, &mut partnered, n)
}

/// Marks the pairs as partnered (or no longer).
fn mark(partnered: &mut [bool], n: usize, pairs: [(usize, usize); 2], partners: bool) {
    for (x, y) in pairs {
        partnered[x * n + y] = partners;
        partnered[y * n + x] = partners;
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<u64>().ok());
    let (Some(n), Some(passen), Some(target)) = (number(0), number(1), number(2)) else {
        eprintln!("usage: einzel_offline PLAYERS PASSEN TARGET [SEED] [MINUTES] [draw]");
        return;
    };
    let (n, passen) = (n as usize, passen as usize);
    let seed = number(3).unwrap_or(1);
    let minutes = number(4).unwrap_or(10);
    // One stream for the random start and the search after it, so that a seed gives the
    // same schedule again (the stored ones name theirs).
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = if args.get(5).is_some_and(|a| a == "draw") {
        Schedule::drawn(n, passen, seed)
    } else {
        Schedule::random(n, passen, &mut rng)
    };
    eprintln!("start: meeting repeats {}", start.repeats());
    let limit = Duration::from_secs(60 * minutes);
    let (mut weeks, cost) = search(start, target as i64, &mut rng, limit);
    // The best schedule is printed even above the target: `bench/einzel_lns.py` goes on from it.
    let verdict = if cost <= target as i64 {
        "found"
    } else {
        "best"
    };
    if !choose_partners(&mut weeks, n / 4, n) {
        println!("{verdict} (cost {cost}), but no way to pair the tables without a partner twice");
        return;
    }
    println!("{verdict}: {n} × {passen}, cost {cost} (target {target}), seed {seed}");
    for week in &weeks {
        let row: Vec<String> = week.iter().map(usize::to_string).collect();
        println!("        &[{}],", row.join(", "));
    }
}
