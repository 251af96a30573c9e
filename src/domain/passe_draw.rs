//! The per-Passe draw (*pro Passe neu auslosen*): each Passe is drawn when it is due,
//! among the teams still active, so that no two teams meet again while a rematch-free
//! plan for **this and every remaining Passe** exists.
//!
//! How it looks ahead:
//! 1. The first Passe fixes a hidden round robin: its pairs become round 0 of the polygon
//!    method under a seeded labelling. Every later Passe is an unplayed round of that
//!    polygon (any order keeps the rest rematch-free), so a full field plays N−1 Passen
//!    without a rematch (N with a bye), byes rotating through everybody. A team that
//!    left makes its polygon partner spielfrei. Beyond the polygon's rounds the least
//!    played round comes next, never the one just played.
//! 2. When the field no longer fits the polygon (teams added, two partners gone, a draw
//!    made by an earlier version), a depth-first search looks for disjoint rematch-free
//!    pairings of all remaining Passen at once (most constrained team first, bounded
//!    steps), shortening the horizon only when that fails.
//! 3. When no rematch-free pairing of this Passe exists, the pairing with the fewest
//!    rematches is taken, a pair of the previous Passe only when unavoidable.
//!
//! Teams of the same Verein are kept apart where possible: always after rematches, so a
//! Verein never costs a rematch.

use super::schedule::{PasseDraw, assign_tables};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::hash::Hash;

/// Everything a per-Passe draw depends on; the same request gives the same draw.
pub struct PasseRequest<'a, T> {
    pub active: &'a [T],
    /// The earlier Passen in order (Passe 1 first).
    pub history: &'a [PasseDraw<T>],
    /// The Passe to draw (from 1).
    pub passe: u32,
    /// How many Passen the tournament has.
    pub passen: u32,
    pub seed: u64,
    /// A Verein number per team when teams of the same Verein are to be kept apart;
    /// empty otherwise.
    pub clubs: &'a HashMap<T, u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawnPasse<T> {
    pub draw: PasseDraw<T>,
    /// Pairs of this Passe that met before (only when unavoidable).
    pub rematches: Vec<(T, T)>,
    /// Pairs of this Passe from the same Verein (only counted when the option is on).
    pub same_club: usize,
}

/// Steps the look-ahead search may take per horizon before it tries a shorter one.
const SEARCH_BUDGET: usize = 60_000;
/// Teams up to which the fallback finds the pairing with the fewest rematches exactly.
const EXACT_FALLBACK_TEAMS: usize = 14;

pub fn draw_passe<T: Copy + Eq + Hash + Ord>(request: &PasseRequest<'_, T>) -> DrawnPasse<T> {
    let mut active = request.active.to_vec();
    active.sort();
    active.dedup();
    let mut rng = ChaCha8Rng::seed_from_u64(
        request.seed ^ u64::from(request.passe).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let (pairs, bye) = polygon_passe(request, &active, &mut rng)
        .unwrap_or_else(|| searched_passe(request, &active, &mut rng));
    let previous_table: HashMap<T, u32> = request
        .history
        .last()
        .map(|d| {
            d.tables
                .iter()
                .flat_map(|t| [(t.team_a, t.number), (t.team_b, t.number)])
                .collect()
        })
        .unwrap_or_default();
    let tables = assign_tables(
        &pairs,
        |t| previous_table.get(&t).copied(),
        request.passe as usize,
    );
    let met = met_pairs(request.history);
    let rematches = pairs
        .iter()
        .filter(|(a, b)| met.contains_key(&ordered(*a, *b)))
        .map(|(a, b)| ordered(*a, *b))
        .collect();
    let same_club = pairs
        .iter()
        .filter(|(a, b)| same_club(request.clubs, *a, *b))
        .count();
    DrawnPasse {
        draw: PasseDraw { tables, bye },
        rematches,
        same_club,
    }
}

fn ordered<T: Ord>(a: T, b: T) -> (T, T) {
    if a <= b { (a, b) } else { (b, a) }
}

fn same_club<T: Eq + Hash>(clubs: &HashMap<T, u32>, a: T, b: T) -> bool {
    matches!((clubs.get(&a), clubs.get(&b)), (Some(x), Some(y)) if x == y)
}

/// How often each pair met in the earlier Passen.
fn met_pairs<T: Copy + Eq + Hash + Ord>(history: &[PasseDraw<T>]) -> HashMap<(T, T), u32> {
    let mut met = HashMap::new();
    for draw in history {
        for t in &draw.tables {
            *met.entry(ordered(t.team_a, t.team_b)).or_default() += 1;
        }
    }
    met
}

type Pairing<T> = (Vec<(T, T)>, Option<T>);

// ---------------------------------------------------------------------------------------
// 1. The hidden round robin.

/// The polygon method's labelling: slot → team (`None` = the bye's empty slot).
struct Polygon<T> {
    slots: Vec<Option<T>>,
    slot_of: HashMap<T, usize>,
}

impl<T: Copy + Eq + Hash + Ord> Polygon<T> {
    /// The labelling under which `first` is round 0.
    fn of_first_passe(first: &PasseDraw<T>, seed: u64) -> Option<Self> {
        let mut pairs: Vec<(Option<T>, Option<T>)> = first
            .tables
            .iter()
            .map(|t| ordered(Some(t.team_a), Some(t.team_b)))
            .collect();
        if let Some(bye) = first.bye {
            pairs.push((None, Some(bye)));
        }
        if pairs.len() < 2 {
            return None;
        }
        pairs.sort();
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0B0B_5EED_CAFE_F00D);
        pairs.shuffle(&mut rng);
        let m = pairs.len() * 2;
        let mut slots = vec![None; m];
        for (k, (x, y)) in pairs.into_iter().enumerate() {
            let (x, y) = if rng.random_bool(0.5) { (y, x) } else { (x, y) };
            let (s, t) = if k == 0 { (m - 1, 0) } else { (k, m - 1 - k) };
            slots[s] = x;
            slots[t] = y;
        }
        let slot_of = slots
            .iter()
            .enumerate()
            .filter_map(|(slot, team)| team.map(|t| (t, slot)))
            .collect();
        Some(Polygon { slots, slot_of })
    }

    fn rounds(&self) -> usize {
        self.slots.len() - 1
    }

    /// The round in which `a` and `b` meet.
    fn round_of(&self, a: T, b: T) -> Option<usize> {
        let (s, t) = (*self.slot_of.get(&a)?, *self.slot_of.get(&b)?);
        let rounds = self.rounds();
        if s == t {
            return None;
        }
        if s == rounds {
            return Some(t);
        }
        if t == rounds {
            return Some(s);
        }
        // (r + k) + (r − k) = 2r (mod rounds); rounds is odd, so 2 has an inverse.
        Some((s + t) * rounds.div_ceil(2) % rounds)
    }

    fn round(&self, r: usize) -> Vec<(Option<T>, Option<T>)> {
        let rounds = self.rounds();
        let mut pairs = vec![(self.slots[rounds], self.slots[r])];
        for k in 1..self.slots.len() / 2 {
            pairs.push((
                self.slots[(r + k) % rounds],
                self.slots[(r + rounds - k) % rounds],
            ));
        }
        pairs
    }
}

fn polygon_passe<T: Copy + Eq + Hash + Ord>(
    request: &PasseRequest<'_, T>,
    active: &[T],
    rng: &mut ChaCha8Rng,
) -> Option<Pairing<T>> {
    let Some(first) = request.history.first() else {
        return Some(first_passe(active, request.clubs, rng));
    };
    let polygon = Polygon::of_first_passe(first, request.seed)?;
    if active.iter().any(|t| !polygon.slot_of.contains_key(t)) {
        return None;
    }
    let mut played = vec![0u32; polygon.rounds()];
    let mut last_round = None;
    for draw in request.history {
        let first_table = draw.tables.first()?;
        let round = polygon.round_of(first_table.team_a, first_table.team_b)?;
        if draw
            .tables
            .iter()
            .any(|t| polygon.round_of(t.team_a, t.team_b) != Some(round))
        {
            return None;
        }
        played[round] += 1;
        last_round = Some(round);
    }
    let byes = bye_counts(request.history);
    let is_active = |t: &Option<T>| t.is_some_and(|t| active.binary_search(&t).is_ok());
    let fewest = played.iter().copied().min()?;
    let mut candidates: Vec<usize> = (0..played.len())
        .filter(|r| played[*r] == fewest && Some(*r) != last_round)
        .collect();
    if candidates.is_empty() {
        candidates = (0..played.len()).filter(|r| played[*r] == fewest).collect();
    }
    candidates.shuffle(rng);
    let mut best: Option<((usize, u32), Pairing<T>)> = None;
    for round in candidates {
        let mut pairs = Vec::new();
        let mut orphans = Vec::new();
        for (x, y) in polygon.round(round) {
            match (is_active(&x), is_active(&y)) {
                (true, true) => pairs.extend(x.zip(y)),
                (true, false) => orphans.extend(x),
                (false, true) => orphans.extend(y),
                (false, false) => {}
            }
        }
        if orphans.len() > 1 {
            continue;
        }
        let bye = orphans.first().copied();
        let score = (
            pairs
                .iter()
                .filter(|(a, b)| same_club(request.clubs, *a, *b))
                .count(),
            bye.map_or(0, |b| byes.get(&b).copied().unwrap_or(0)),
        );
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, (pairs, bye)));
        }
    }
    best.map(|(_, pairing)| pairing)
}

fn bye_counts<T: Copy + Eq + Hash>(history: &[PasseDraw<T>]) -> HashMap<T, u32> {
    let mut byes = HashMap::new();
    for bye in history.iter().filter_map(|d| d.bye) {
        *byes.entry(bye).or_default() += 1;
    }
    byes
}

/// The first Passe: random pairs; with Vereine, the members of each Verein are spread over
/// both halves of a line and the halves paired, so two of a Verein meet only when their
/// Verein is more than half the field.
fn first_passe<T: Copy + Eq + Hash + Ord>(
    active: &[T],
    clubs: &HashMap<T, u32>,
    rng: &mut ChaCha8Rng,
) -> Pairing<T> {
    let mut teams = active.to_vec();
    teams.shuffle(rng);
    if !clubs.is_empty() {
        let mut groups: HashMap<Option<u32>, Vec<T>> = HashMap::new();
        for (i, t) in teams.iter().enumerate() {
            // Teams without Verein form groups of one.
            let key = clubs
                .get(t)
                .copied()
                .map_or(Some(u32::MAX - i as u32), Some);
            groups.entry(key).or_default().push(*t);
        }
        let mut groups: Vec<Vec<T>> = groups.into_values().collect();
        groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(&b[0])));
        teams = groups.concat();
    }
    let bye = (teams.len() % 2 == 1).then(|| teams.remove(0));
    let half = teams.len() / 2;
    let pairs = (0..half).map(|i| (teams[i], teams[i + half])).collect();
    (pairs, bye)
}

// ---------------------------------------------------------------------------------------
// 2. Look-ahead search over the remaining Passen.

/// The field as indexes into the sorted active teams.
struct Field {
    n: usize,
    /// How often each pair met before (n × n).
    met: Vec<u32>,
    previous_partner: Vec<Option<usize>>,
    byes: Vec<u32>,
    club: Vec<Option<u32>>,
    /// Seeded preference order (lower first).
    rank: Vec<usize>,
}

impl Field {
    fn new<T: Copy + Eq + Hash + Ord>(
        request: &PasseRequest<'_, T>,
        active: &[T],
        rng: &mut ChaCha8Rng,
    ) -> Self {
        let n = active.len();
        let index: HashMap<T, usize> = active.iter().enumerate().map(|(i, t)| (*t, i)).collect();
        let mut met = vec![0; n * n];
        for ((a, b), count) in met_pairs(request.history) {
            if let (Some(&i), Some(&j)) = (index.get(&a), index.get(&b)) {
                met[i * n + j] = count;
                met[j * n + i] = count;
            }
        }
        let mut previous_partner = vec![None; n];
        if let Some(last) = request.history.last() {
            for t in &last.tables {
                if let (Some(&i), Some(&j)) = (index.get(&t.team_a), index.get(&t.team_b)) {
                    previous_partner[i] = Some(j);
                    previous_partner[j] = Some(i);
                }
            }
        }
        let counts = bye_counts(request.history);
        let byes = active
            .iter()
            .map(|t| counts.get(t).copied().unwrap_or(0))
            .collect();
        let club = active
            .iter()
            .map(|t| request.clubs.get(t).copied())
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(rng);
        let mut rank = vec![0; n];
        for (position, i) in order.into_iter().enumerate() {
            rank[i] = position;
        }
        Field {
            n,
            met,
            previous_partner,
            byes,
            club,
            rank,
        }
    }

    fn same_club(&self, i: usize, j: usize) -> bool {
        matches!((self.club[i], self.club[j]), (Some(x), Some(y)) if x == y)
    }

    /// Bye candidates: the teams with the fewest byes, in seeded order.
    fn bye_candidates(&self, byes: &[u32]) -> Vec<Option<usize>> {
        if self.n.is_multiple_of(2) {
            return vec![None];
        }
        let fewest = byes.iter().copied().min().unwrap_or(0);
        let mut candidates: Vec<usize> = (0..self.n).filter(|i| byes[*i] == fewest).collect();
        candidates.sort_by_key(|i| self.rank[*i]);
        candidates.into_iter().map(Some).collect()
    }
}

struct Search<'a> {
    field: &'a Field,
    rounds: usize,
    used: Vec<bool>,
    byes: Vec<u32>,
    matched: Vec<Vec<bool>>,
    pairs: Vec<Vec<(usize, usize)>>,
    bye: Vec<Option<usize>>,
    budget: usize,
}

/// The search ran out of steps.
struct Exhausted;

impl Search<'_> {
    fn start_round(&mut self, round: usize) -> Result<bool, Exhausted> {
        if round == self.rounds {
            return Ok(true);
        }
        for candidate in self.field.bye_candidates(&self.byes) {
            self.matched[round].fill(false);
            self.pairs[round].clear();
            if let Some(b) = candidate {
                self.matched[round][b] = true;
                self.byes[b] += 1;
            }
            self.bye[round] = candidate;
            let found = self.fill(round)?;
            if let Some(b) = candidate {
                self.byes[b] -= 1;
            }
            if found {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn free_partners(&self, round: usize, i: usize) -> impl Iterator<Item = usize> + '_ {
        let n = self.field.n;
        (0..n).filter(move |&j| j != i && !self.matched[round][j] && !self.used[i * n + j])
    }

    /// Pairs the rest of `round`, the team with the fewest possible partners first.
    fn fill(&mut self, round: usize) -> Result<bool, Exhausted> {
        let n = self.field.n;
        let mut tightest: Option<(usize, usize)> = None;
        for i in (0..n).filter(|i| !self.matched[round][*i]) {
            let options = self.free_partners(round, i).count();
            if tightest.is_none_or(|(_, fewest)| options < fewest) {
                tightest = Some((i, options));
            }
            if options == 0 {
                break;
            }
        }
        let Some((i, _)) = tightest else {
            return self.start_round(round + 1);
        };
        let mut partners: Vec<usize> = self.free_partners(round, i).collect();
        partners.sort_by_key(|&j| (self.field.same_club(i, j), self.field.rank[j]));
        self.matched[round][i] = true;
        for j in partners {
            if self.budget == 0 {
                return Err(Exhausted);
            }
            self.budget -= 1;
            self.matched[round][j] = true;
            self.used[i * n + j] = true;
            self.used[j * n + i] = true;
            self.pairs[round].push((i, j));
            if self.fill(round)? {
                return Ok(true);
            }
            self.pairs[round].pop();
            self.used[i * n + j] = false;
            self.used[j * n + i] = false;
            self.matched[round][j] = false;
        }
        self.matched[round][i] = false;
        Ok(false)
    }
}

/// Rematch-free pairings of `rounds` Passen at once; the first of them, if found.
/// Pairs of indexes and the bye of one Passe.
type IndexPairing = (Vec<(usize, usize)>, Option<usize>);

fn look_ahead(field: &Field, rounds: usize) -> Option<IndexPairing> {
    let n = field.n;
    let mut search = Search {
        field,
        rounds,
        used: field.met.iter().map(|m| *m > 0).collect(),
        byes: field.byes.clone(),
        matched: vec![vec![false; n]; rounds],
        pairs: vec![Vec::new(); rounds],
        bye: vec![None; rounds],
        budget: SEARCH_BUDGET,
    };
    match search.start_round(0) {
        Ok(true) => Some((search.pairs.swap_remove(0), search.bye[0])),
        _ => None,
    }
}

fn searched_passe<T: Copy + Eq + Hash + Ord>(
    request: &PasseRequest<'_, T>,
    active: &[T],
    rng: &mut ChaCha8Rng,
) -> Pairing<T> {
    let field = Field::new(request, active, rng);
    let n = field.n;
    if n < 2 {
        return (Vec::new(), active.first().copied());
    }
    let remaining = request.passen.saturating_sub(request.passe) as usize + 1;
    // A team can play at most as many more rematch-free Passen as it has unmet opponents
    // (plus one bye in an odd field).
    let unmet = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i && field.met[i * n + j] == 0)
                .count()
        })
        .min()
        .unwrap_or(0);
    let horizon = remaining.min(unmet + n % 2);
    let found = (1..=horizon)
        .rev()
        .find_map(|rounds| look_ahead(&field, rounds));
    let (pairs, bye) = found.unwrap_or_else(|| fewest_rematches(&field));
    (
        pairs
            .into_iter()
            .map(|(i, j)| (active[i], active[j]))
            .collect(),
        bye.map(|b| active[b]),
    )
}

// ---------------------------------------------------------------------------------------
// 3. Fewest rematches when none can be avoided.

/// A rematch with the previous Passe's opponent weighs more than any number of older
/// rematches; a Verein pairing less than any rematch.
fn cost(field: &Field, i: usize, j: usize) -> u64 {
    let consecutive = if field.previous_partner[i] == Some(j) {
        1_000_000_000
    } else {
        0
    };
    consecutive + u64::from(field.met[i * field.n + j]) * 1_000 + u64::from(field.same_club(i, j))
}

fn fewest_rematches(field: &Field) -> IndexPairing {
    field
        .bye_candidates(&field.byes)
        .into_iter()
        .map(|bye| {
            let mut teams: Vec<usize> = (0..field.n).filter(|i| Some(*i) != bye).collect();
            teams.sort_by_key(|i| field.rank[*i]);
            let pairs = if teams.len() <= EXACT_FALLBACK_TEAMS {
                cheapest_exactly(field, &teams)
            } else {
                cheapest_by_swaps(field, &teams)
            };
            let total: u64 = pairs.iter().map(|&(i, j)| cost(field, i, j)).sum();
            (total, pairs, bye)
        })
        .min_by_key(|(total, _, _)| *total)
        .map(|(_, pairs, bye)| (pairs, bye))
        .unwrap_or_default()
}

/// Branch and bound over all pairings (small fields only).
fn cheapest_exactly(field: &Field, teams: &[usize]) -> Vec<(usize, usize)> {
    fn go(
        field: &Field,
        teams: &[usize],
        free: &mut Vec<bool>,
        current: &mut Vec<(usize, usize)>,
        cost_so_far: u64,
        best: &mut (u64, Vec<(usize, usize)>),
    ) {
        if cost_so_far >= best.0 {
            return;
        }
        let Some(first) = free.iter().position(|f| *f) else {
            *best = (cost_so_far, current.clone());
            return;
        };
        free[first] = false;
        for other in first + 1..teams.len() {
            if !free[other] {
                continue;
            }
            free[other] = false;
            current.push((teams[first], teams[other]));
            let step = cost(field, teams[first], teams[other]);
            go(field, teams, free, current, cost_so_far + step, best);
            current.pop();
            free[other] = true;
        }
        free[first] = true;
    }
    let mut best = (u64::MAX, Vec::new());
    go(
        field,
        teams,
        &mut vec![true; teams.len()],
        &mut Vec::new(),
        0,
        &mut best,
    );
    best.1
}

/// Greedy pairing improved by exchanging partners between two tables while that helps.
fn cheapest_by_swaps(field: &Field, teams: &[usize]) -> Vec<(usize, usize)> {
    let mut free = vec![true; teams.len()];
    let mut pairs = Vec::with_capacity(teams.len() / 2);
    for first in 0..teams.len() {
        if !free[first] {
            continue;
        }
        free[first] = false;
        let partner = (first + 1..teams.len())
            .filter(|o| free[*o])
            .min_by_key(|o| cost(field, teams[first], teams[*o]));
        if let Some(other) = partner {
            free[other] = false;
            pairs.push((teams[first], teams[other]));
        }
    }
    let mut improved = true;
    while improved {
        improved = false;
        for x in 0..pairs.len() {
            for y in x + 1..pairs.len() {
                let ((a, b), (c, d)) = (pairs[x], pairs[y]);
                let now = cost(field, a, b) + cost(field, c, d);
                let swaps = [((a, c), (b, d)), ((a, d), (b, c))];
                if let Some(better) = swaps
                    .into_iter()
                    .find(|(p, q)| cost(field, p.0, p.1) + cost(field, q.0, q.1) < now)
                {
                    pairs[x] = better.0;
                    pairs[y] = better.1;
                    improved = true;
                }
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests;
