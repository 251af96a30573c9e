//! Partners and opponents at the tables already drawn: nobody partners the same player twice,
//! and two players who meet again are partners rather than opponents once more.

use super::cost::*;
use super::passe::*;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Steps of [`pair_partners`] per table at most.
pub(super) const PAIRING_STEPS: usize = 50;

/// Which two of each table's four players are partners, so that nobody has a partner twice:
/// the tables stay, only the pairing changes (min-conflicts: a table with a repeated partner
/// takes the pairing of the three that repeats least, now and then a random one to get out of
/// a cycle). Laying designs over each other leaves the pairing to this.
pub(super) fn pair_partners(
    search: &mut Search<'_>,
    weeks: &mut [Vec<[usize; 4]>],
    rng: &mut ChaCha8Rng,
) {
    let seats: Vec<(usize, usize)> = weeks
        .iter()
        .enumerate()
        .flat_map(|(w, week)| (0..week.len()).map(move |t| (w, t)))
        .collect();
    let repeats = |search: &Search<'_>, t: &[usize; 4]| {
        i64::from(search.partner[search.at(t[0], t[1])])
            + i64::from(search.partner[search.at(t[2], t[3])])
    };
    for _ in 0..PAIRING_STEPS * seats.len() {
        let troubled: Vec<(usize, usize)> = seats
            .iter()
            .copied()
            .filter(|&(w, t)| repeats(search, &weeks[w][t]) > 2)
            .collect();
        let Some(&(w, t)) = troubled.get(rng.random_range(0..troubled.len().max(1))) else {
            return;
        };
        let table = &mut weeks[w][t];
        search.add_table(table, -1);
        let [a, b, c, d] = *table;
        let ways = [[a, b, c, d], [a, c, b, d], [a, d, b, c]];
        *table = if rng.random_bool(0.1) {
            ways[rng.random_range(0..3)]
        } else {
            let fewest = ways.iter().map(|w| repeats(search, w)).min().unwrap_or(0);
            let best: Vec<[usize; 4]> = ways
                .into_iter()
                .filter(|w| repeats(search, w) == fewest)
                .collect();
            best[rng.random_range(0..best.len())]
        };
        search.add_table(table, 1);
    }
}

/// Steps of [`spread_opponents`] per table.
pub(super) const OPPONENT_STEPS: usize = 200;

/// The pairings of the drawn tables (the tables stay, so the meetings do) with as few
/// opponents repeated as the search finds, never more partners repeated: two players who
/// meet twice should be partners once and opponents once, not opponents twice (seed 001
/// counts a Gegner as a meeting; a player notices the same opponents, a partner is shared).
/// Min-conflicts over the three pairings of each table, now and then a random one to leave a
/// cycle; the best pairing seen is kept.
pub(super) fn spread_opponents(
    n: usize,
    fixed: &[EinzelPasse],
    weeks: &mut [Vec<[usize; 4]>],
    rng: &mut ChaCha8Rng,
) {
    let mut partner = vec![0u8; n * n];
    let mut opponent = vec![0u8; n * n];
    let count = |partner: &mut [u8], opponent: &mut [u8], t: &[usize; 4], sign: i8| {
        for (i, &a) in t.iter().enumerate() {
            for (j, &b) in t.iter().enumerate() {
                if i == j {
                    continue;
                }
                let cell = match j == EinzelPasse::partner_seat(i) {
                    true => &mut partner[a * n + b],
                    false => &mut opponent[a * n + b],
                };
                *cell = cell.wrapping_add_signed(sign);
            }
        }
    };
    for table in fixed
        .iter()
        .flat_map(|passe| &passe.tables)
        .chain(weeks.iter().flatten())
    {
        count(&mut partner, &mut opponent, table, 1);
    }
    // What a table adds to the cost in a pairing, with itself taken out of the counts.
    let cost_of = |partner: &[u8], opponent: &[u8], t: &[usize; 4]| -> i64 {
        let repeat = |c: u8| i64::from(c) * i64::from(c);
        let partners = repeat(partner[t[0] * n + t[1]] + 1) + repeat(partner[t[2] * n + t[3]] + 1);
        let opponents: i64 = [(0, 2), (0, 3), (1, 2), (1, 3)]
            .iter()
            .map(|&(i, j)| repeat(opponent[t[i] * n + t[j]] + 1))
            .sum();
        PARTNER_COST * partners + opponents
    };
    let ways = |[a, b, c, d]: [usize; 4]| [[a, b, c, d], [a, c, b, d], [a, d, b, c]];
    let tables: Vec<(usize, usize)> = weeks
        .iter()
        .enumerate()
        .flat_map(|(w, week)| (0..week.len()).map(move |t| (w, t)))
        .collect();
    if tables.is_empty() {
        return;
    }
    let total = |opponent: &[u8], partner: &[u8]| -> (u32, u32) {
        let over = |v: &[u8]| {
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .map(|(a, b)| u32::from(v[a * n + b].saturating_sub(1)))
                .sum::<u32>()
        };
        (over(partner), over(opponent))
    };
    let mut best = (total(&opponent, &partner), weeks.to_vec());
    for step in 0..OPPONENT_STEPS * tables.len() {
        let (w, t) = tables[rng.random_range(0..tables.len())];
        let table = weeks[w][t];
        count(&mut partner, &mut opponent, &table, -1);
        let options = ways(table);
        weeks[w][t] = if rng.random_bool(0.05) {
            options[rng.random_range(0..3)]
        } else {
            let costs = options.map(|o| cost_of(&partner, &opponent, &o));
            let fewest = costs.iter().copied().min().unwrap_or(0);
            let tied: Vec<usize> = (0..3).filter(|&i| costs[i] == fewest).collect();
            options[tied[rng.random_range(0..tied.len())]]
        };
        count(&mut partner, &mut opponent, &weeks[w][t], 1);
        // Totals cost a pass over all pairs: looked at now and then, and at the end.
        if step % tables.len() == 0 || step + 1 == OPPONENT_STEPS * tables.len() {
            let now = total(&opponent, &partner);
            if now < best.0 {
                best = (now, weeks.to_vec());
            }
        }
    }
    weeks.clone_from_slice(&best.1);
}
