//! The Einzelschieber draw: every Passe, players are drawn to tables of four, seats A1 with
//! A2 against B1 with B2 (seed 001). In this order of importance:
//!
//! 1. nobody has the same partner twice (while each player has partners left);
//! 2. two players meet (sit at the same table) as seldom as possible: never twice while
//!    `3R ≤ N − 1`, otherwise as close to the counting bound as the search gets, and no
//!    pair three times where twice suffices;
//! 3. optionally, players of the same Verein do not sit at the same table;
//! 4. everybody changes table from one Passe to the next where possible;
//! 5. with the tables drawn, two players who meet more than once are partners once rather
//!    than opponents again, as far as the pairing at each table allows
//!    ([`spread_opponents`]).
//!
//! With a number of players that is not a multiple of four, one to three players are
//! *spielfrei* in each Passe and get the Pauschale: a table of three or five is no
//! Schieber (two pairs of two), so sitting out is the only fair way. Who sits out rotates:
//! nobody twice before everybody once. Where nobody sits out twice, who does is searched with
//! the tables (see [`Bench`]).
//!
//! The search is simulated annealing over seat swaps (the method of choice for the "social
//! golfer" problem, which this is with partners added): a swap changes the meeting counts
//! of two players with six others, so its cost is known in constant time. It is seeded and
//! counts iterations, never time, so a seed always gives the same draw. Whole schedules are
//! searched at once (all Passen to draw); a single Passe (late arrivals, per-Passe drawing)
//! is searched with the earlier Passen fixed. Tight fields try designs first: 1-rotational
//! ones ([`design`]), stored ones ([`stored`]) and, for four small fields over many Passen,
//! stored whole schedules with no pair three times ([`at_most_twice`]). Beyond the limit, a
//! whole schedule starts with as many Passen without a repeat as there can be, and the rest
//! is fitted around them (see [`consider_core`]).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use bound::meeting_bound;
use bound::twice_suffices;

/// One Passe: the tables (seats A1, A2, B1, B2 as indices into the players) in table-number
/// order, and who is spielfrei.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EinzelPasse {
    pub tables: Vec<[usize; 4]>,
    pub spielfrei: Vec<usize>,
}

impl EinzelPasse {
    /// The partner of the player at `seat` (0 A1 ↔ 1 A2, 2 B1 ↔ 3 B2).
    pub fn partner_seat(seat: usize) -> usize {
        seat ^ 1
    }
}

/// What to draw.
pub struct EinzelRequest<'a> {
    pub players: usize,
    /// The Passen already played or fixed, in order; they are not changed.
    pub fixed: &'a [EinzelPasse],
    /// How many Passen to draw after them.
    pub passen: usize,
    /// Each player's Verein as a number (same number, same Verein); None: not considered.
    pub clubs: Option<&'a [Option<u32>]>,
    /// Players who take no seat in the Passen to draw (disqualified, withdrawn); they keep
    /// their index so that the fixed Passen stay as they were.
    pub absent: &'a [usize],
    pub seed: u64,
}

impl EinzelRequest<'_> {
    /// A whole schedule for the whole field: nothing played yet, nobody absent — what the
    /// designs and the stored schedules are made for.
    fn is_whole(&self) -> bool {
        self.fixed.is_empty() && self.absent.is_empty()
    }
}

/// The quality of a schedule, as the draw list prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawQuality {
    /// Partner pairs beyond the first time (a pair partnered three times counts 2).
    pub partner_repeats: u32,
    /// Opponent pairs beyond the first time.
    pub opponent_repeats: u32,
    /// Meetings (same table) beyond the first time, summed over all pairs.
    pub meeting_repeats: u32,
    /// The most often two players met.
    pub most_meetings: u32,
    /// Pairs of the same Verein at one table, over all Passen.
    pub same_club: u32,
    /// Players at the same table number as in the Passe before.
    pub same_table: u32,
    /// The fewest meeting repeats a schedule of this field can have in which no pair meets
    /// more often than in this one (see [`meeting_bound`]).
    pub bound: u32,
}

/// Who is spielfrei in each of `passen` Passen after `fixed`: those who sat out least so far,
/// ties in a seeded order, so that nobody sits out twice before everybody once.
fn byes(
    players: usize,
    absent: &[usize],
    fixed: &[EinzelPasse],
    passen: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..players).filter(|p| !absent.contains(p)).collect();
    let out = order.len() % 4;
    let mut sat_out = vec![0u32; players];
    for passe in fixed {
        for &p in &passe.spielfrei {
            sat_out[p] += 1;
        }
    }
    order.shuffle(rng);
    (0..passen)
        .map(|_| {
            // Stable sort keeps the seeded order among equals: the rotation goes on.
            order.sort_by_key(|&p| sat_out[p]);
            let chosen: Vec<usize> = order[..out].to_vec();
            for &p in &chosen {
                sat_out[p] += 1;
            }
            // The ones just chosen go to the end of their new class.
            order.rotate_left(out);
            chosen
        })
        .collect()
}

/// Cost of a pair having met `m` times: nothing for once, ten per repeat, and much more for
/// a third meeting, so the search spreads repeats over many pairs.
fn meet_cost(m: u8) -> i64 {
    match m {
        0 | 1 => 0,
        2 => 10,
        m => 10 + 300 * i64::from(m - 2) * i64::from(m - 1),
    }
}

/// A repeated partner outweighs any number of repeated meetings.
const PARTNER_COST: i64 = 1_000_000;
/// A same-Verein table mate, when asked for: a tenth of a repeated meeting.
const CLUB_COST: i64 = 1;

/// Independent tries at most (see [`draw_einzel`]).
const TRIES: usize = 3;

#[derive(Clone)]
struct Search<'a> {
    n: usize,
    meet: Vec<u8>,
    partner: Vec<u8>,
    clubs: Option<&'a [Option<u32>]>,
    club_cost: i64,
}

impl Search<'_> {
    fn at(&self, a: usize, b: usize) -> usize {
        a * self.n + b
    }
    fn add_table(&mut self, table: &[usize; 4], sign: i8) {
        for i in 0..4 {
            for j in 0..4 {
                if i != j {
                    let k = self.at(table[i], table[j]);
                    self.meet[k] = self.meet[k].wrapping_add_signed(sign);
                }
            }
            let k = self.at(table[i], table[EinzelPasse::partner_seat(i)]);
            self.partner[k] = self.partner[k].wrapping_add_signed(sign);
        }
    }
    fn same_club(&self, a: usize, b: usize) -> bool {
        self.clubs
            .and_then(|c| Some((c.get(a).copied()??, c.get(b).copied()??)))
            .is_some_and(|(x, y)| x == y)
    }
    fn partner_cost(p: u8) -> i64 {
        if p <= 1 {
            0
        } else {
            PARTNER_COST * i64::from(p - 1)
        }
    }
    /// Cost change if `leaving` gives its seat `seat` at `table` to `coming`.
    fn seat_change(&self, table: &[usize; 4], seat: usize, leaving: usize, coming: usize) -> i64 {
        let mut delta = 0;
        for (i, &x) in table.iter().enumerate() {
            if i == seat {
                continue;
            }
            let old = self.meet[self.at(leaving, x)];
            let new = self.meet[self.at(coming, x)];
            delta += meet_cost(old - 1) - meet_cost(old) + meet_cost(new + 1) - meet_cost(new);
            if self.same_club(leaving, x) {
                delta -= self.club_cost;
            }
            if self.same_club(coming, x) {
                delta += self.club_cost;
            }
        }
        let mate = table[EinzelPasse::partner_seat(seat)];
        let old = self.partner[self.at(leaving, mate)];
        let new = self.partner[self.at(coming, mate)];
        delta += Self::partner_cost(old - 1) - Self::partner_cost(old)
            + Self::partner_cost(new + 1)
            - Self::partner_cost(new);
        delta
    }
    fn apply_swap(
        &mut self,
        tables: &mut [[usize; 4]],
        (t1, s1): (usize, usize),
        (t2, s2): (usize, usize),
    ) {
        let (a, b) = (tables[t1][s1], tables[t2][s2]);
        let touched: &[usize] = if t1 == t2 { &[t1] } else { &[t1, t2] };
        for &t in touched {
            self.add_table(&tables[t], -1);
        }
        tables[t1][s1] = b;
        tables[t2][s2] = a;
        for &t in touched {
            self.add_table(&tables[t], 1);
        }
    }
    /// Repeats of a player's table mates in a table: whether it is worth moving.
    fn troubled(&self, table: &[usize; 4], seat: usize) -> bool {
        let p = table[seat];
        table.iter().enumerate().any(|(i, &x)| {
            i != seat
                && (self.meet[self.at(p, x)] > 1
                    || self.partner[self.at(p, x)] > 1
                    || (self.club_cost > 0 && self.same_club(p, x)))
        })
    }
}

/// Draws `request.passen` Passen after the fixed ones.
pub fn draw_einzel(request: &EinzelRequest<'_>) -> Vec<EinzelPasse> {
    let mut drawn = draw_tables(request);
    // The tables are final; who partners whom at each of them is chosen last, so that pairs
    // who meet more than once are partners once rather than opponents again. Only here, on
    // the draw as it is given out: the searches that draw parts of a schedule for
    // themselves stay as they were. A random stream of its own.
    let mut rng = ChaCha8Rng::seed_from_u64(request.seed);
    rng.set_stream(2);
    let mut weeks: Vec<Vec<[usize; 4]>> = drawn.iter().map(|p| p.tables.clone()).collect();
    spread_opponents(request.players, request.fixed, &mut weeks, &mut rng);
    for (passe, tables) in drawn.iter_mut().zip(weeks) {
        passe.tables = tables;
    }
    drawn
}

/// The Passen's tables and who sits out (the pairing at each table as the search left it).
fn draw_tables(request: &EinzelRequest<'_>) -> Vec<EinzelPasse> {
    let n = request.players;
    let mut rng = ChaCha8Rng::seed_from_u64(request.seed);
    if n.saturating_sub(request.absent.len()) < 4 || request.passen == 0 {
        return Vec::new();
    }
    let absent = request.absent;
    let byes = byes(n, absent, request.fixed, request.passen, &mut rng);
    // Designs draw from a stream of their own: trying one, found or not, leaves the search's
    // random numbers as they were.
    let mut design_rng = rng.clone();
    design_rng.set_stream(1);
    let mut search = Search {
        n,
        meet: vec![0; n * n],
        partner: vec![0; n * n],
        clubs: request.clubs,
        club_cost: if request.clubs.is_some() {
            CLUB_COST
        } else {
            0
        },
    };
    for passe in request.fixed {
        for table in &passe.tables {
            search.add_table(table, 1);
        }
    }
    let played: Vec<u32> = (0..n)
        .map(|p| {
            let fixed = request
                .fixed
                .iter()
                .filter(|passe| passe.tables.iter().any(|t| t.contains(&p)))
                .count();
            let new = match absent.contains(&p) {
                true => 0,
                false => byes.iter().filter(|out| !out.contains(&p)).count(),
            };
            (fixed + new) as u32
        })
        .collect();
    let present = (0..n).filter(|p| !absent.contains(p)).count();
    let seated: Vec<usize> = request
        .fixed
        .iter()
        .map(|passe| 4 * passe.tables.len())
        .chain(byes.iter().map(|out| present.saturating_sub(out.len())))
        .collect();
    // The fewest repeats there can be (with no pair three times where every player has enough
    // others for that), with the tolerance of the quality target (10 %): enough.
    let most = match twice_suffices(&played) {
        true => 2,
        false => played.iter().copied().max().unwrap_or(0),
    };
    let bound = meeting_bound(n, &played, &seated, most);
    // Where a whole schedule is stored, it is the best that searches of minutes found, offline;
    // the search here, with the budget of a tournament day, does not beat it (the fields that
    // miss their target, measured in bench/EINZEL_DRAW.md): reaching it is enough, too.
    let stored_repeats = request
        .is_whole()
        .then(|| at_most_twice::repeats(n, request.passen))
        .flatten()
        .unwrap_or(0);
    let target = meet_cost(2) * i64::from((bound + bound / 10).max(stored_repeats));
    // A few independent tries (each a random start, annealing, then a tabu search down to
    // the counting bound); the best is kept, and a try that reaches the bound ends it.
    let mut kept: Option<Kept> = None;
    // Fields within a Passe of the limit (3R close to N − 1) are where the search struggles
    // and a 1-rotational design has no repeat (see [`design`]): tried first.
    // So are the fields with a stored design (see [`stored`]): developing it costs nothing.
    let tight = 3 * request.passen + 4 >= n || stored::covers(n, request.passen);
    if tight {
        consider_design(&search, request, &mut design_rng, &mut kept);
    }
    // Beyond the limit, Passen without a repeat for as long as a design has them, and the rest
    // around them: where that reaches the bound, no search is needed. Not where a design
    // already meets the target (27 × 9: spielfrei players keep everybody within the limit, no
    // cost at all; 20 × 11: a stored schedule near the bound with no pair three times).
    let beyond_the_limit = 3 * request.passen >= n;
    if beyond_the_limit && kept.as_ref().is_none_or(|k| k.cost > target) {
        consider_core(&search, request, target, &mut design_rng, &mut kept);
    }
    for _ in 0..TRIES {
        if kept.as_ref().is_some_and(|k| k.cost <= target) {
            break;
        }
        let tried = search_once(&search, request, &byes, target, true, &mut rng);
        if Kept::offer(&mut kept, tried) <= target {
            break;
        }
    }
    // Where the search missed the target on a whole schedule, a design may still have no
    // repeat (tried once, after the search, where it was not tried first).
    if !tight && kept.as_ref().is_some_and(|k| k.cost > target) {
        consider_design(&search, request, &mut design_rng, &mut kept);
    }
    // Within the limit, where neither found a schedule without repeats: a design one Passe
    // shorter and the last Passe around it.
    if !beyond_the_limit && kept.as_ref().is_some_and(|k| k.cost > target) {
        consider_core(&search, request, target, &mut design_rng, &mut kept);
    }
    // Where no repeat at all is the target and everything above left one: short searches
    // from fresh starts, without the rebuilding, which some fields need rather than a longer
    // one (26 × 7 reaches 0 from about one start in ten). Fields reached above never get here;
    // only whole schedules of small fields do, so that a large draw stays fast.
    let small_whole = request.fixed.is_empty() && n <= QUICK_MAX_PLAYERS;
    if small_whole && target == 0 && kept.as_ref().is_some_and(|k| k.cost > 0) {
        for _ in 0..QUICK_TRIES {
            let tried = search_once(&search, request, &byes, target, false, &mut rng);
            if Kept::offer(&mut kept, tried) == 0 {
                break;
            }
        }
    }
    let Some(Kept { weeks, byes, .. }) = kept else {
        return Vec::new();
    };
    let mut previous = request.fixed.last().cloned();
    weeks
        .into_iter()
        .zip(byes)
        .map(|(tables, spielfrei)| {
            let tables = number_tables(tables, previous.as_ref(), &mut rng);
            let passe = EinzelPasse { tables, spielfrei };
            previous = Some(passe.clone());
            passe
        })
        .collect()
}

/// The next Passe of a per-Passe draw (*pro Passe neu auslosen*): Passe
/// `request.fixed.len() + 1`, with `request.passen` the Passen still to draw, this one
/// included; `request.seed` is the tournament's. `plan` draws a schedule of Passen after
/// fixed ones: [`plan_einzel`], or the same remembered (it is the same for the same
/// request, and some take seconds).
///
/// A Passe drawn on its own, with nothing ahead, takes whatever is left of the field's
/// meetings and leaves the later Passen worse off: 24 players drawn Passe by Passe met 13
/// times beyond once over 7 Passen, where the whole schedule has no repeat. So it looks
/// ahead, and keeps to a plan: since the field last changed (a player left or came late),
/// the Passen are those of one plan of every Passe from then to the last, drawn after the
/// Passen before the change. A field that never changed is drawn exactly as the fixed plan
/// draws it. Where the Passen since the change are not that plan's (drawn by another
/// version of the draw), the next Passe is the first of a plan of the Passen still to come.
pub fn draw_next_einzel(
    request: &EinzelRequest<'_>,
    plan: &mut dyn FnMut(&EinzelRequest<'_>) -> Vec<EinzelPasse>,
) -> Option<EinzelPasse> {
    let played = request.fixed.len();
    let present: Vec<bool> = (0..request.players)
        .map(|p| !request.absent.contains(&p))
        .collect();
    let seated = |passe: &EinzelPasse| {
        let mut field = vec![false; request.players];
        for &p in passe.tables.iter().flatten().chain(&passe.spielfrei) {
            field[p] = true;
        }
        field
    };
    // The first Passe of the field as it is now: every Passe from it on seated everybody
    // present (or let him sit out), and nobody else.
    let since = request
        .fixed
        .iter()
        .rposition(|passe| seated(passe) != present)
        .map_or(0, |changed| changed + 1);
    let planned = plan(&EinzelRequest {
        fixed: &request.fixed[..since],
        passen: played - since + request.passen,
        seed: passe_seed(request.seed, since),
        ..*request
    });
    let as_planned = planned.len() > played - since
        && planned
            .iter()
            .zip(&request.fixed[since..])
            .all(|(planned, drawn)| same_passe(planned, drawn));
    if as_planned {
        return planned.into_iter().nth(played - since);
    }
    plan(&EinzelRequest {
        seed: passe_seed(request.seed, played),
        ..*request
    })
    .into_iter()
    .next()
}

/// A plan of `request.passen` Passen after the fixed ones. A whole schedule of the whole
/// field is the fixed plan's draw. After Passen played (or without players who left), the
/// search over all the Passen to come usually does best (24 × 7 with a player gone after
/// two Passen: 2 repeats, against 8 drawing each Passe alone), but not always (40 × 13: 32
/// against 29): both are drawn and the one with fewer repeats is the plan.
pub fn plan_einzel(request: &EinzelRequest<'_>) -> Vec<EinzelPasse> {
    let searched = draw_einzel(request);
    if request.is_whole() {
        return searched;
    }
    let quality_with = |drawn: &[EinzelPasse]| {
        let all: Vec<EinzelPasse> = request.fixed.iter().chain(drawn).cloned().collect();
        quality(request.players, &all, request.clubs)
    };
    // At the fewest repeats there can be, nothing does better (and a large field is spared
    // the second draw).
    let q = quality_with(&searched);
    if searched.len() == request.passen && q.partner_repeats == 0 && q.meeting_repeats <= q.bound {
        return searched;
    }
    let mut one_by_one: Vec<EinzelPasse> = request.fixed.to_vec();
    for passe in 0..request.passen {
        let next = draw_einzel(&EinzelRequest {
            fixed: &one_by_one,
            passen: 1,
            seed: passe_seed(request.seed, passe + 1),
            ..*request
        });
        one_by_one.extend(next);
    }
    let one_by_one = one_by_one.split_off(request.fixed.len());
    let worse = |drawn: &[EinzelPasse]| {
        let q = quality_with(drawn);
        (
            drawn.len() < request.passen,
            q.partner_repeats,
            q.most_meetings.max(2),
            q.meeting_repeats,
            q.same_club,
        )
    };
    match worse(&one_by_one) < worse(&searched) {
        true => one_by_one,
        false => searched,
    }
}

/// The seed of a plan drawn after `played` Passen: the tournament's own for the first, then
/// a stream of its own for each Passe a plan can start at.
fn passe_seed(seed: u64, played: usize) -> u64 {
    seed.wrapping_add((played as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The same tables in the same order, and the same players spielfrei (in any order: the
/// database keeps them as a set).
fn same_passe(a: &EinzelPasse, b: &EinzelPasse) -> bool {
    let sorted = |p: &EinzelPasse| {
        let mut out = p.spielfrei.clone();
        out.sort_unstable();
        out
    };
    a.tables == b.tables && sorted(a) == sorted(b)
}

/// Short searches from fresh starts at most, where no repeat is the target and the draw's
/// other routes left one (see [`draw_einzel`]).
const QUICK_TRIES: usize = 6;
/// Fields larger than this do not get them (they reach their targets without).
const QUICK_MAX_PLAYERS: usize = 64;

/// One search from a random start: seats shuffled, annealing, the tabu search, and where no
/// repeat is the target and `rebuild` is asked for, the rebuilding of whole Passen.
fn search_once(
    search: &Search<'_>,
    request: &EinzelRequest<'_>,
    byes: &[Vec<usize>],
    target: i64,
    rebuild: bool,
    rng: &mut ChaCha8Rng,
) -> Kept {
    let (n, absent) = (request.players, request.absent);
    let mut attempt = search.clone();
    let mut weeks: Vec<Vec<[usize; 4]>> = byes
        .iter()
        .map(|out| {
            let mut playing: Vec<usize> = (0..n)
                .filter(|p| !out.contains(p) && !absent.contains(p))
                .collect();
            playing.shuffle(rng);
            playing
                .chunks_exact(4)
                .map(|c| [c[0], c[1], c[2], c[3]])
                .collect()
        })
        .collect();
    for week in &weeks {
        for table in week {
            attempt.add_table(table, 1);
        }
    }
    let mut bench = Bench::new(n, request.fixed, byes, absent);
    anneal(&mut attempt, &mut weeks, bench.as_mut(), rng);
    polish(&mut attempt, &mut weeks, bench.as_mut(), rng, target);
    if rebuild && target == 0 && total_cost(&attempt) > 0 {
        rebuild_weeks(&mut attempt, &mut weeks, rng);
    }
    let cost = total_cost(&attempt);
    let byes = bench.map_or_else(|| byes.to_vec(), |b| b.byes);
    Kept { cost, weeks, byes }
}

/// The best schedule so far: its cost, its Passen's tables and who is spielfrei in each.
struct Kept {
    cost: i64,
    weeks: Vec<Vec<[usize; 4]>>,
    byes: Vec<Vec<usize>>,
}

impl Kept {
    /// `candidate` becomes the kept schedule if it costs less (or none is kept yet); its cost.
    fn offer(kept: &mut Option<Kept>, candidate: Kept) -> i64 {
        let cost = candidate.cost;
        if kept.as_ref().is_none_or(|k| cost < k.cost) {
            *kept = Some(candidate);
        }
        cost
    }
}

/// Keeps a design's schedule (see [`stored`], [`design`], [`at_most_twice`]) if there is one
/// for this request (a whole schedule, nobody absent) and it costs less than what is kept. A
/// design brings its own spielfrei players (nobody twice before everybody once, as the
/// rotation would have it).
fn consider_design(
    search: &Search<'_>,
    request: &EinzelRequest<'_>,
    rng: &mut ChaCha8Rng,
    kept: &mut Option<Kept>,
) {
    if !request.is_whole() {
        return;
    }
    let mut keep = |weeks: Vec<Vec<[usize; 4]>>, byes: Vec<Vec<usize>>| {
        let mut attempt = search.clone();
        for table in weeks.iter().flatten() {
            attempt.add_table(table, 1);
        }
        let cost = total_cost(&attempt);
        Kept::offer(kept, Kept { cost, weeks, byes })
    };
    // A stored design first (it has no repeated meeting; only Vereine can make it cost); the
    // 1-rotational search where there is none or it is not free of cost.
    if let Some(weeks) = stored::schedule(request.players, request.passen, rng) {
        let byes = vec![Vec::new(); weeks.len()];
        if keep(weeks, byes) == 0 {
            return;
        }
    }
    let designs = [design::rotational, at_most_twice::schedule];
    for passen in designs
        .iter()
        .filter_map(|d| d(request.players, request.passen, rng))
    {
        let (weeks, byes) = passen.into_iter().unzip();
        keep(weeks, byes);
    }
}

/// A design's Passen without a repeated meeting for `players` (stored or 1-rotational), or
/// None.
fn perfect_passen(players: usize, passen: usize, rng: &mut ChaCha8Rng) -> Option<Vec<EinzelPasse>> {
    if let Some(weeks) = stored::schedule(players, passen, rng) {
        return Some(
            weeks
                .into_iter()
                .map(|tables| EinzelPasse {
                    tables,
                    spielfrei: Vec::new(),
                })
                .collect(),
        );
    }
    let passen = design::rotational(players, passen, rng)?;
    Some(
        passen
            .into_iter()
            .map(|(tables, spielfrei)| EinzelPasse { tables, spielfrei })
            .collect(),
    )
}

/// Beyond the limit (3R > N − 1, a whole schedule): the first Passen from a design, as many as
/// can be without a repeated meeting (its *core*), and the rest either searched with the core
/// fixed or laid over it as further designs (each one without a repeat in itself). Where the
/// core meets every pair once (16, 28 players), every table of a later Passe adds exactly the
/// repeats the counting bound counts, so the bound is reached; where it leaves pairs unmet
/// (32 × 10 leaves each player one), the search seats those pairs together. Within the limit
/// (3R ≤ N − 1), where the search and the designs left repeats, the core is a design one Passe
/// shorter and the last Passe is placed around it (37 × 12: 22 repeats instead of 35).
fn consider_core(
    search: &Search<'_>,
    request: &EinzelRequest<'_>,
    target: i64,
    rng: &mut ChaCha8Rng,
    kept: &mut Option<Kept>,
) {
    let (n, passen) = (request.players, request.passen);
    if !request.is_whole() || passen < 2 {
        return;
    }
    // One or two players off a design without spielfrei, the design first. One short
    // (31 = 32 − 1): one player taken out, whose three table mates are spielfrei in each Passe
    // (nobody twice: each met him once); what it leaves unmet are disjoint triangles (those
    // table mates) and the design's own unmet pairs, which the Passen after it can seat
    // together (31 × 12: 42 repeats, bound 39, where the core of its own leaves 43). One over
    // (33 = 32 + 1): the extra player takes a seat in each Passe (see [`with_extra_players`];
    // 33 × 12: 51, bound 48, 53 before). Two over (26 = 24 + 2): two extra players take a
    // seat each (26 × 10: 38, bound 35, 42 before, with seed 1; 40 with other random numbers;
    // three over, 27 = 24 + 3, reached nothing one short did not). With random numbers of
    // their own (two over: a third stream, the one its figures were measured with), so that
    // the routes below draw as they did without them.
    let mut own = rng.clone();
    own.set_stream(if n % 4 == 2 { 3 } else { 2 });
    let over_design = |extras: usize, rng: &mut ChaCha8Rng| {
        let base = n - extras;
        perfect_passen(base, ((base - 1) / 3).min(passen - 1), rng)
            .and_then(|design| with_extra_players(&design, base, extras, rng))
    };
    let neighbour_core = match n % 4 {
        3 => perfect_passen(n + 1, (n / 3).min(passen - 1), &mut own)
            .map(|design| without_player(design, n)),
        extras @ (1 | 2) if n > 4 => over_design(extras, &mut own),
        _ => None,
    };
    if let Some(core) = neighbour_core
        && keep_around_core(search, request, core, target, &mut own, kept) <= target
    {
        return;
    }
    let longest = (n - 1) / 3;
    let core_passen = longest.min(passen - 1);
    // A design, or else the search's own schedule of that length if it has no repeat.
    let core = match perfect_passen(n, core_passen, rng) {
        Some(core) => core,
        None => {
            let drawn = draw_tables(&EinzelRequest {
                passen: core_passen,
                seed: rng.random(),
                ..*request
            });
            let q = quality(n, &drawn, None);
            if q.meeting_repeats > 0 || q.partner_repeats > 0 {
                return;
            }
            drawn
        }
    };
    if keep_around_core(search, request, core.clone(), target, rng, kept) <= target {
        return;
    }
    // Designs laid over the core, each placed so that who sits out goes on rotating.
    let mut layered = core;
    while layered.len() < passen {
        let layer = (passen - layered.len()).min(longest);
        // A single Passe: the first of a design's two.
        let Some(mut next) = perfect_passen(n, layer.max(2), rng) else {
            return;
        };
        next.truncate(layer);
        layered.extend(onto_rotation(n, &layered, next, rng));
    }
    keep_schedule(search, layered, target, rng, kept);
}

/// The rest of the request's Passen searched around `core` (its first Passen, fixed), the
/// whole kept if it costs less than what is kept; its cost.
fn keep_around_core(
    search: &Search<'_>,
    request: &EinzelRequest<'_>,
    core: Vec<EinzelPasse>,
    target: i64,
    rng: &mut ChaCha8Rng,
    kept: &mut Option<Kept>,
) -> i64 {
    let rest = draw_tables(&EinzelRequest {
        fixed: &core,
        passen: request.passen - core.len(),
        seed: rng.random(),
        ..*request
    });
    keep_schedule(search, [core, rest].concat(), target, rng, kept)
}

/// A whole schedule's partners paired and its repeats polished, kept if it costs less than
/// what is kept; its cost.
fn keep_schedule(
    search: &Search<'_>,
    passen: Vec<EinzelPasse>,
    target: i64,
    rng: &mut ChaCha8Rng,
    kept: &mut Option<Kept>,
) -> i64 {
    let mut attempt = search.clone();
    for table in passen.iter().flat_map(|p| &p.tables) {
        attempt.add_table(table, 1);
    }
    let (mut weeks, byes): (Vec<_>, Vec<_>) =
        passen.into_iter().map(|p| (p.tables, p.spielfrei)).unzip();
    pair_partners(&mut attempt, &mut weeks, rng);
    let mut bench = Bench::new(search.n, &[], &byes, &[]);
    polish(&mut attempt, &mut weeks, bench.as_mut(), rng, target);
    let byes = bench.map_or(byes, |b| b.byes);
    let cost = total_cost(&attempt);
    Kept::offer(kept, Kept { cost, weeks, byes })
}

/// Tries at most of [`with_extra_players`] to find their seats: in the last Passen of a long
/// design few players are left whose table mates an extra player has not met (100 tries found
/// none for 32 × 10 and one extra player with one seed), and a try is cheap.
const EXTRA_SEAT_TRIES: usize = 10_000;

/// A design's Passen (of `base` players) with `extras` players more (numbered from `base`),
/// each of whom takes the seat of a different player of the design in each Passe (that one
/// sits out). The seats are drawn so that nobody sits out twice and no extra player meets
/// anybody twice (those he replaces have table mates all different); None where no such
/// seats are found.
fn with_extra_players(
    design: &[EinzelPasse],
    base: usize,
    extras: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<EinzelPasse>> {
    let players = base + extras;
    'tries: for _ in 0..EXTRA_SEAT_TRIES {
        let mut replaced = vec![false; players];
        // Whom each extra player has met so far.
        let mut met = vec![vec![false; players]; extras];
        // Who sits out in the design itself does not sit out again.
        for &p in design.iter().flat_map(|passe| &passe.spielfrei) {
            replaced[p] = true;
        }
        let mut passen = Vec::with_capacity(design.len());
        for passe in design {
            let mut tables = passe.tables.clone();
            let mut spielfrei = passe.spielfrei.clone();
            for (e, met) in met.iter().enumerate() {
                let free: Vec<(usize, usize)> = (0..tables.len())
                    .flat_map(|t| (0..4).map(move |s| (t, s)))
                    .filter(|&(t, s)| {
                        let table = &tables[t];
                        table[s] < base
                            && !replaced[table[s]]
                            && table.iter().all(|&q| q == table[s] || !met[q])
                    })
                    .collect();
                if free.is_empty() {
                    continue 'tries;
                }
                let (t, s) = free[rng.random_range(0..free.len())];
                let out = std::mem::replace(&mut tables[t][s], base + e);
                replaced[out] = true;
                spielfrei.push(out);
            }
            for (e, met) in met.iter_mut().enumerate() {
                for &q in tables.iter().filter(|t| t.contains(&(base + e))).flatten() {
                    met[q] = true;
                }
            }
            passen.push(EinzelPasse { tables, spielfrei });
        }
        return Some(passen);
    }
    None
}

/// A design's Passen without the player `removed`: his table becomes his table mates' bench.
fn without_player(design: Vec<EinzelPasse>, removed: usize) -> Vec<EinzelPasse> {
    design
        .into_iter()
        .map(|passe| {
            let (his, tables): (Vec<_>, Vec<_>) =
                passe.tables.into_iter().partition(|t| t.contains(&removed));
            let mut spielfrei = passe.spielfrei;
            spielfrei.extend(his.iter().flatten().filter(|&&p| p != removed));
            spielfrei.retain(|&p| p != removed);
            EinzelPasse { tables, spielfrei }
        })
        .collect()
}

/// Steps of [`pair_partners`] per table at most.
const PAIRING_STEPS: usize = 50;

/// Which two of each table's four players are partners, so that nobody has a partner twice:
/// the tables stay, only the pairing changes (min-conflicts: a table with a repeated partner
/// takes the pairing of the three that repeats least, now and then a random one to get out of
/// a cycle). Laying designs over each other leaves the pairing to this.
fn pair_partners(search: &mut Search<'_>, weeks: &mut [Vec<[usize; 4]>], rng: &mut ChaCha8Rng) {
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
const OPPONENT_STEPS: usize = 200;

/// The pairings of the drawn tables (the tables stay, so the meetings do) with as few
/// opponents repeated as the search finds, never more partners repeated: two players who
/// meet twice should be partners once and opponents once, not opponents twice (seed 001
/// counts a Gegner as a meeting; a player notices the same opponents, a partner is shared).
/// Min-conflicts over the three pairings of each table, now and then a random one to leave a
/// cycle; the best pairing seen is kept.
fn spread_opponents(
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

/// Renames the players of `next` (Passen of all `players`) so that those it has spielfrei are
/// the ones who sat out least in `before`: nobody sits out twice before everybody once.
fn onto_rotation(
    players: usize,
    before: &[EinzelPasse],
    next: Vec<EinzelPasse>,
    rng: &mut ChaCha8Rng,
) -> Vec<EinzelPasse> {
    let mut sat_out = vec![0u32; players];
    for &p in before.iter().flat_map(|passe| &passe.spielfrei) {
        sat_out[p] += 1;
    }
    let mut least: Vec<usize> = (0..players).collect();
    least.shuffle(rng);
    least.sort_by_key(|&p| sat_out[p]);
    // The design's points, those it has spielfrei first (each once), named in that order.
    let mut points: Vec<usize> = next
        .iter()
        .flat_map(|p| p.spielfrei.iter().copied())
        .collect();
    points.extend(
        (0..players)
            .filter(|p| !points.contains(p))
            .collect::<Vec<_>>(),
    );
    let mut name = vec![0; players];
    for (point, player) in points.into_iter().zip(least) {
        name[point] = player;
    }
    next.into_iter()
        .map(|passe| EinzelPasse {
            tables: passe.tables.iter().map(|t| t.map(|p| name[p])).collect(),
            spielfrei: passe.spielfrei.iter().map(|&p| name[p]).collect(),
        })
        .collect()
}

/// Who is spielfrei in the Passen being drawn, for moves that give a player's seat to one who
/// sits out, as long as the rotation's rule still holds: where nobody sits out twice (the
/// fixed Passen counted), any player who has not sat out may take the place on the bench of
/// one who has; where some do (small fields, see [`ROTATION_CHECK_MAX_PLAYERS`]), each trade
/// is checked against the whole rotation. Which players sit out is then searched with the
/// tables, not fixed beforehand.
#[derive(Clone)]
struct Bench {
    byes: Vec<Vec<usize>>,
    sat_out: Vec<u32>,
    /// Where some player sits out more than once (more spielfrei places than players, 19 × 7):
    /// the record for checking the whole rotation on each trade.
    rotation: Option<Rotation>,
}

/// The rotation's record where players sit out more than once: the Passen (fixed ones first,
/// then the ones drawn) in which each player sits out, in order, and who takes part at all.
#[derive(Clone)]
struct Rotation {
    when: Vec<Vec<usize>>,
    present: Vec<bool>,
    fixed: usize,
}

impl Rotation {
    /// The Passe of `p`'s (k + 1)-th time out if `seated` sat out in Passe `at` instead of
    /// `resting`.
    fn nth(
        &self,
        p: usize,
        k: usize,
        (at, seated, resting): (usize, usize, usize),
    ) -> Option<usize> {
        let times = &self.when[p];
        let before = times.partition_point(|&t| t < at);
        if p == seated {
            match k.cmp(&before) {
                std::cmp::Ordering::Less => times.get(k).copied(),
                std::cmp::Ordering::Equal => Some(at),
                std::cmp::Ordering::Greater => times.get(k - 1).copied(),
            }
        } else if p == resting {
            times.get(if k < before { k } else { k + 1 }).copied()
        } else {
            times.get(k).copied()
        }
    }
}

/// Fields up to this size may move the bench where players sit out more than once (the
/// rotation is then checked whole on every trade; only small fields have that many places).
const ROTATION_CHECK_MAX_PLAYERS: usize = 64;

impl Bench {
    fn new(
        players: usize,
        fixed: &[EinzelPasse],
        byes: &[Vec<usize>],
        absent: &[usize],
    ) -> Option<Bench> {
        if byes.iter().all(Vec::is_empty) {
            return None;
        }
        let mut when: Vec<Vec<usize>> = vec![Vec::new(); players];
        let all = fixed.iter().map(|passe| &passe.spielfrei).chain(byes);
        for (passe, out) in all.enumerate() {
            for &p in out {
                when[p].push(passe);
            }
        }
        let sat_out: Vec<u32> = when.iter().map(|times| times.len() as u32).collect();
        let rotation = if sat_out.iter().all(|&c| c <= 1) {
            None
        } else if players <= ROTATION_CHECK_MAX_PLAYERS {
            Some(Rotation {
                when,
                present: (0..players).map(|p| !absent.contains(&p)).collect(),
                fixed: fixed.len(),
            })
        } else {
            return None;
        };
        Some(Bench {
            byes: byes.to_vec(),
            sat_out,
            rotation,
        })
    }

    /// Whether `seated` may sit out in Passe `w` instead of `resting` and the rotation still
    /// holds: nobody sits out a (k + 1)-th time before everybody has sat out k times.
    fn may_trade(&self, w: usize, seated: usize, resting: usize) -> bool {
        let Some(rotation) = &self.rotation else {
            // Nobody sits out twice: any player who has not sat out may.
            return self.sat_out[seated] == 0;
        };
        let trade = (rotation.fixed + w, seated, resting);
        let players = self.sat_out.len();
        let most = self.sat_out.iter().max().map_or(0, |&m| m as usize + 1);
        (1..most).all(|k| {
            // The k-th time of everybody present, and the earliest (k + 1)-th of anybody.
            let latest_kth = (0..players)
                .filter(|&p| rotation.present[p])
                .try_fold(0, |latest, p| {
                    Some(latest.max(rotation.nth(p, k - 1, trade)?))
                });
            let earliest_next = (0..players).filter_map(|p| rotation.nth(p, k, trade)).min();
            match (latest_kth, earliest_next) {
                (_, None) => true,
                (None, Some(_)) => false,
                (Some(latest), Some(next)) => latest <= next,
            }
        })
    }

    /// The player at `seat` of `table` (in Passe `w`) sits out in place of the `i`-th who did,
    /// who takes the seat, the counts kept; returns (who sat, who sat out).
    fn trade(
        &mut self,
        search: &mut Search<'_>,
        (w, i): (usize, usize),
        table: &mut [usize; 4],
        seat: usize,
    ) -> (usize, usize) {
        let seated = table[seat];
        let resting = std::mem::replace(&mut self.byes[w][i], seated);
        self.sat_out[seated] += 1;
        self.sat_out[resting] -= 1;
        if let Some(rotation) = &mut self.rotation {
            let at = rotation.fixed + w;
            rotation.when[resting].retain(|&t| t != at);
            let times = &mut rotation.when[seated];
            times.insert(times.partition_point(|&t| t < at), at);
        }
        search.add_table(table, -1);
        table[seat] = resting;
        search.add_table(table, 1);
        (seated, resting)
    }
}

/// Simulated annealing over swaps of two players of one Passe at different tables (or of
/// two seats at one table, which changes partners only), and, where the bench may move, of a
/// seated player with one who sits out.
fn anneal(
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
fn total_cost(search: &Search<'_>) -> i64 {
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
enum Move {
    Swap((usize, usize), (usize, usize)),
    Bench((usize, usize), usize),
}

impl Move {
    /// Keeps `candidate` (Passe, move, cost change) if it changes the cost less than the
    /// chosen one, or as little (one of the `ties` picked at random).
    fn offer(
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
fn polish(
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
fn restore(search: &mut Search<'_>, weeks: &mut [Vec<[usize; 4]>], kept: &[Vec<[usize; 4]>]) {
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
fn rebuild_weeks(search: &mut Search<'_>, weeks: &mut [Vec<[usize; 4]>], rng: &mut ChaCha8Rng) {
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
const REBUILD_ROUNDS: usize = 300;
/// Search steps for one Passe at most.
const REBUILD_STEPS: u32 = 20_000;

/// Replaces the tables of one Passe by tables whose players meet in no other Passe, if the
/// bounded search finds them; true if it did.
fn rebuild_week(search: &mut Search<'_>, week: &mut Vec<[usize; 4]>, rng: &mut ChaCha8Rng) -> bool {
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
fn fill(
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
fn partner_delta(search: &Search<'_>, table: &[usize; 4], s1: usize, s2: usize) -> i64 {
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

/// Table numbers for the groups of a Passe: as few players as possible at the table number
/// they had in the Passe before, exactly ([`numbering::assign`]); the groups are shuffled
/// first, so that equal numberings are chosen by the seed.
fn number_tables(
    mut tables: Vec<[usize; 4]>,
    previous: Option<&EinzelPasse>,
    rng: &mut ChaCha8Rng,
) -> Vec<[usize; 4]> {
    let Some(previous) = previous else {
        return tables;
    };
    let mut last_table = std::collections::HashMap::new();
    for (number, table) in previous.tables.iter().enumerate() {
        for &p in table {
            last_table.insert(p, number);
        }
    }
    tables.shuffle(rng);
    let stays = |g: usize, number: usize| {
        tables[g]
            .iter()
            .filter(|p| last_table.get(p) == Some(&number))
            .count() as u32
    };
    let number_of = numbering::assign(tables.len(), &stays);
    let mut numbered = tables.clone();
    for (g, &number) in number_of.iter().enumerate() {
        numbered[number] = tables[g];
    }
    numbered
}

/// The quality of the Passen `schedule` (the fixed ones included).
pub fn quality(
    players: usize,
    schedule: &[EinzelPasse],
    clubs: Option<&[Option<u32>]>,
) -> DrawQuality {
    let n = players;
    let mut meet = vec![0u32; n * n];
    let mut partner = vec![0u32; n * n];
    let mut opponent = vec![0u32; n * n];
    let mut played = vec![0u32; n];
    let mut q = DrawQuality::default();
    let mut last: Vec<Option<usize>> = vec![None; n];
    for passe in schedule {
        let mut now: Vec<Option<usize>> = vec![None; n];
        for (number, table) in passe.tables.iter().enumerate() {
            for (i, &a) in table.iter().enumerate() {
                played[a] += 1;
                now[a] = Some(number);
                if last[a] == Some(number) {
                    q.same_table += 1;
                }
                for (j, &b) in table.iter().enumerate().skip(i + 1) {
                    meet[a * n + b] += 1;
                    if j == EinzelPasse::partner_seat(i) {
                        partner[a * n + b] += 1;
                    } else {
                        opponent[a * n + b] += 1;
                    }
                    let same = clubs
                        .and_then(|c| Some((c.get(a).copied()??, c.get(b).copied()??)))
                        .is_some_and(|(x, y)| x == y);
                    if same {
                        q.same_club += 1;
                    }
                }
            }
        }
        last = now;
    }
    let sym = |v: &[u32], a: usize, b: usize| v[a * n + b] + v[b * n + a];
    for a in 0..n {
        for b in a + 1..n {
            let m = sym(&meet, a, b);
            q.meeting_repeats += m.saturating_sub(1);
            q.most_meetings = q.most_meetings.max(m);
            q.partner_repeats += sym(&partner, a, b).saturating_sub(1);
            q.opponent_repeats += sym(&opponent, a, b).saturating_sub(1);
        }
    }
    let seated: Vec<usize> = schedule.iter().map(|p| 4 * p.tables.len()).collect();
    q.bound = meeting_bound(n, &played, &seated, q.most_meetings);
    q
}

mod at_most_twice;
mod bound;
mod design;
mod numbering;
mod stored;

#[cfg(test)]
mod tests;
