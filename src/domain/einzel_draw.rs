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

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use bound::meeting_bound;
use pairing::spread_opponents;
pub use passe::{DrawQuality, EinzelPasse, EinzelRequest, quality};
use tables::*;

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

mod at_most_twice;
mod bench;
mod bound;
mod cost;
mod design;
mod numbering;
mod pairing;
mod passe;
mod search;
mod stored;
mod tables;

#[cfg(test)]
mod tests;
