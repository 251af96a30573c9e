//! The draw of the tables: the routes a schedule can come from (stored schedules, designs
//! without a repeat, a core without a repeat with the rest fitted around it, searches from
//! random starts), the best of them kept, and the table numbers.

use super::bench::*;
use super::bound::{meeting_bound, twice_suffices};
use super::cost::*;
use super::pairing::*;
use super::passe::*;
use super::search::*;
use super::{at_most_twice, design, numbering, stored};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Independent tries at most (see [`draw_einzel`]).
pub(super) const TRIES: usize = 3;

/// The Passen's tables and who sits out (the pairing at each table as the search left it).
pub(super) fn draw_tables(request: &EinzelRequest<'_>) -> Vec<EinzelPasse> {
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
    // miss their target, measured with the stored schedules): reaching it is enough, too.
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

/// The seed of a plan drawn after `played` Passen: the tournament's own for the first, then
/// a stream of its own for each Passe a plan can start at.
pub(super) fn passe_seed(seed: u64, played: usize) -> u64 {
    seed.wrapping_add((played as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// The same tables in the same order, and the same players spielfrei (in any order: the
/// database keeps them as a set).
pub(super) fn same_passe(a: &EinzelPasse, b: &EinzelPasse) -> bool {
    let sorted = |p: &EinzelPasse| {
        let mut out = p.spielfrei.clone();
        out.sort_unstable();
        out
    };
    a.tables == b.tables && sorted(a) == sorted(b)
}

/// Table numbers for the groups of a Passe: as few players as possible at the table number
/// they had in the Passe before, exactly ([`numbering::assign`]); the groups are shuffled
/// first, so that equal numberings are chosen by the seed.
pub(super) fn number_tables(
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

/// Short searches from fresh starts at most, where no repeat is the target and the draw's
/// other routes left one (see [`draw_einzel`]).
pub(super) const QUICK_TRIES: usize = 6;
/// Fields larger than this do not get them (they reach their targets without).
pub(super) const QUICK_MAX_PLAYERS: usize = 64;

/// One search from a random start: seats shuffled, annealing, the tabu search, and where no
/// repeat is the target and `rebuild` is asked for, the rebuilding of whole Passen.
pub(super) fn search_once(
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
pub(super) struct Kept {
    pub(super) cost: i64,
    pub(super) weeks: Vec<Vec<[usize; 4]>>,
    pub(super) byes: Vec<Vec<usize>>,
}

impl Kept {
    /// `candidate` becomes the kept schedule if it costs less (or none is kept yet); its cost.
    pub(super) fn offer(kept: &mut Option<Kept>, candidate: Kept) -> i64 {
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
pub(super) fn consider_design(
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
pub(super) fn perfect_passen(
    players: usize,
    passen: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<EinzelPasse>> {
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
pub(super) fn consider_core(
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
pub(super) fn keep_around_core(
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
pub(super) fn keep_schedule(
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
pub(super) const EXTRA_SEAT_TRIES: usize = 10_000;

/// A design's Passen (of `base` players) with `extras` players more (numbered from `base`),
/// each of whom takes the seat of a different player of the design in each Passe (that one
/// sits out). The seats are drawn so that nobody sits out twice and no extra player meets
/// anybody twice (those he replaces have table mates all different); None where no such
/// seats are found.
pub(super) fn with_extra_players(
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
pub(super) fn without_player(design: Vec<EinzelPasse>, removed: usize) -> Vec<EinzelPasse> {
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
