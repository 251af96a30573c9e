//! Table numbers for the groups of a Passe: an assignment problem. Each group costs, at each
//! number, the players who sat at that number in the Passe before; the numbering of least
//! total cost is found exactly (swaps of two numbers missed three-way renumberings: 24 × 5,
//! seed 4711, left a player at his table).

/// The number for each group (`result[g]`), of least total `cost(g, number)`. Costs are
/// small and mostly zero (a group's four players sat at no more than four numbers), so a
/// numbering of cost zero is looked for first; the Hungarian method decides the rest.
pub fn assign(n: usize, cost: &dyn Fn(usize, usize) -> u32) -> Vec<usize> {
    zero_cost(n, cost).unwrap_or_else(|| hungarian(n, cost))
}

/// A perfect matching of groups to numbers using only cells of cost zero (augmenting paths),
/// if there is one.
fn zero_cost(n: usize, cost: &dyn Fn(usize, usize) -> u32) -> Option<Vec<usize>> {
    let mut group_of: Vec<Option<usize>> = vec![None; n];
    for g in 0..n {
        let mut seen = vec![false; n];
        if !augment(g, n, cost, &mut group_of, &mut seen) {
            return None;
        }
    }
    let mut number_of = vec![0; n];
    for (k, g) in group_of.iter().enumerate() {
        number_of[(*g)?] = k;
    }
    Some(number_of)
}

fn augment(
    g: usize,
    n: usize,
    cost: &dyn Fn(usize, usize) -> u32,
    group_of: &mut [Option<usize>],
    seen: &mut [bool],
) -> bool {
    for k in 0..n {
        if seen[k] || cost(g, k) != 0 {
            continue;
        }
        seen[k] = true;
        let free = match group_of[k] {
            None => true,
            Some(other) => augment(other, n, cost, group_of, seen),
        };
        if free {
            group_of[k] = Some(g);
            return true;
        }
    }
    false
}

/// The Hungarian method (potentials, O(n³)): an assignment of least total cost.
fn hungarian(n: usize, cost: &dyn Fn(usize, usize) -> u32) -> Vec<usize> {
    const INF: i64 = i64::MAX / 4;
    // 1-based as in the textbook form: row 0 and column 0 are the free start.
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; n + 1];
    let mut row_of = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        row_of[0] = i;
        let mut j0 = 0;
        let mut min_to = vec![INF; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = row_of[j0];
            let mut delta = INF;
            let mut j1 = 0;
            for j in 1..=n {
                if used[j] {
                    continue;
                }
                let reduced = i64::from(cost(i0 - 1, j - 1)) - u[i0] - v[j];
                if reduced < min_to[j] {
                    min_to[j] = reduced;
                    way[j] = j0;
                }
                if min_to[j] < delta {
                    delta = min_to[j];
                    j1 = j;
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[row_of[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_to[j] -= delta;
                }
            }
            j0 = j1;
            if row_of[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            row_of[j0] = row_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut number_of = vec![0; n];
    for j in 1..=n {
        if row_of[j] > 0 {
            number_of[row_of[j] - 1] = j - 1;
        }
    }
    number_of
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn total(a: &[usize], cost: &dyn Fn(usize, usize) -> u32) -> u32 {
        a.iter().enumerate().map(|(g, &k)| cost(g, k)).sum()
    }

    /// The least total over every permutation (small n only).
    fn brute(n: usize, cost: &dyn Fn(usize, usize) -> u32) -> u32 {
        fn go(g: usize, n: usize, used: &mut Vec<bool>, cost: &dyn Fn(usize, usize) -> u32) -> u32 {
            if g == n {
                return 0;
            }
            let mut best = u32::MAX;
            for k in 0..n {
                if !used[k] {
                    used[k] = true;
                    best = best.min(cost(g, k) + go(g + 1, n, used, cost));
                    used[k] = false;
                }
            }
            best
        }
        go(0, n, &mut vec![false; n], cost)
    }

    /// A three-way renumbering that no swap of two finds: each group at the number of the
    /// next one's players.
    #[test]
    fn a_cycle_of_three_is_renumbered() {
        let bad = [[0, 1, 1], [1, 0, 1], [1, 1, 0]];
        let cost = |g: usize, k: usize| bad[g][k];
        let a = assign(3, &cost);
        assert_eq!(total(&a, &cost), 0, "{a:?}");
    }

    proptest! {
        /// Exact: never more than the best permutation, and always a permutation.
        #[test]
        fn the_assignment_is_a_least_cost_permutation(
            (n, cells) in (1usize..7).prop_flat_map(|n| (Just(n), proptest::collection::vec(0u32..4, n * n)))
        ) {
            let cost = |g: usize, k: usize| cells[g * n + k];
            let a = assign(n, &cost);
            let mut seen = a.clone();
            seen.sort_unstable();
            prop_assert_eq!(seen, (0..n).collect::<Vec<_>>());
            prop_assert_eq!(total(&a, &cost), brute(n, &cost));
            prop_assert_eq!(total(&hungarian(n, &cost), &cost), brute(n, &cost));
        }
    }
}
