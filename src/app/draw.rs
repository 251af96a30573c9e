//! The draw: Lose (and, with a fixed schedule, the tables of every Passe), and the next
//! Passe of a per-Passe draw.
//!
//! An Einzelschieber schedule of a tight field takes up to tens of seconds to draw. It is
//! computed before the write transaction (on SQLite that transaction holds the whole file,
//! and every other writer gives up after its busy timeout), and used inside only when what
//! it was drawn from is still what the database holds.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, DrawAction};
use crate::db::models::{SeatRow, TeamRow, TournamentRow};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, audit, seats, teams, tournaments, write_tx};
use crate::domain::draw::{self, DrawMode, DrawRefusal, DrawState};
use crate::domain::einzel_draw::{
    self, DrawQuality, EinzelPasse, EinzelRequest, draw_einzel, draw_next_einzel, plan_einzel,
};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::passe_draw::{self, PasseRequest};
use crate::domain::role::{Actor, Permission};
use crate::domain::schedule::{self, PasseDraw, Table};
use crate::domain::team::TeamStatus;
use crate::domain::team::club_numbers;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

impl From<DrawRefusal> for Refusal {
    fn from(r: DrawRefusal) -> Self {
        Refusal::invalid(r.message())
    }
}

#[derive(Serialize)]
struct DrawRecord {
    mode: DrawMode,
    seed: u64,
    passe: Option<u32>,
    tables: usize,
    rematches: usize,
    same_club: usize,
}

/// The Vereine of the teams when the tournament keeps them apart; empty otherwise.
fn clubs_of(tournament: &TournamentRow, teams: &[TeamRow]) -> HashMap<TeamId, u32> {
    if !tournament.separate_clubs {
        return HashMap::new();
    }
    club_numbers(teams.iter().map(|t| (t.id, t.club.as_deref())))
}

/// Everything an Einzelschieber draw is computed from: equal inputs, equal draw.
#[derive(Debug, Clone, PartialEq)]
pub struct EinzelInput {
    id: TournamentId,
    /// Every player ever seated, in index order.
    players: Vec<TeamId>,
    history: Vec<EinzelPasse>,
    absent: Vec<usize>,
    clubs: HashMap<TeamId, u32>,
    first: u32,
    /// The Passen from `first` to the last: all drawn (fixed plan), or the first of them,
    /// looking ahead over the others (per-Passe draw).
    passen: u32,
    mode: DrawMode,
    seed: u64,
}

impl EinzelInput {
    /// How many players the draw seats (or lets sit out).
    pub fn players(&self) -> usize {
        self.players.len()
    }
}

/// An Einzelschieber draw: the seat rows to write and the quality of the whole schedule.
pub struct EinzelDrawn {
    rows: Vec<SeatRow>,
    quality: DrawQuality,
}

/// How often a draw is computed again because the tournament changed meanwhile, before the
/// office is asked to draw again.
const DRAW_ATTEMPTS: usize = 3;

/// One write attempt of a draw computed beforehand.
enum Attempt<T> {
    Written(T),
    /// What the draw was computed from changed before the write began; nothing was written.
    InputChanged,
}

/// Computes an Einzelschieber draw before the write transaction and writes it inside.
/// `read` is what the write starts from (with the checks that it may happen now), read
/// again inside the transaction; `write` gets the draw only when its input is unchanged
/// (none in the modes of teams, which draw fast, inside). A few times while the tournament
/// keeps changing in between.
fn with_einzel_draw<S, T>(
    conn: &mut Conn,
    id: TournamentId,
    compute: &mut dyn FnMut(&EinzelInput) -> diesel::QueryResult<EinzelDrawn>,
    read: impl Fn(&mut Conn) -> Result<S, Refusal>,
    input_of: impl Fn(&S) -> Option<EinzelInput>,
    write: impl Fn(&mut Conn, S, Option<EinzelDrawn>) -> Result<T, Refusal>,
) -> Result<T, Refusal> {
    for _ in 0..DRAW_ATTEMPTS {
        let state = read(conn)?;
        let planned = match input_of(&state) {
            Some(input) => {
                let drawn = compute(&input)?;
                Some((input, drawn))
            }
            None => None,
        };
        let attempt = write_tx(conn, Lock::Tournament(id), |conn| {
            let state = read(conn)?;
            let drawn = match (input_of(&state), planned) {
                (None, _) => None,
                (Some(now), Some((input, drawn))) if now == input => Some(drawn),
                (Some(_), _) => return Ok(Attempt::InputChanged),
            };
            write(conn, state, drawn).map(Attempt::Written)
        })?;
        if let Attempt::Written(done) = attempt {
            return Ok(done);
        }
    }
    Err(Refusal::Conflict(
        "Während der Auslosung wurden Spieler angemeldet, abgemeldet oder geändert. Bitte nochmals auslosen."
            .into(),
    ))
}

/// The teams a new draw seats, in Los order, after the checks that a draw may happen now.
struct NewDraw {
    tournament: TournamentRow,
    all_teams: Vec<TeamRow>,
    active: Vec<TeamId>,
    lose: Vec<TeamId>,
}

fn new_draw(conn: &mut Conn, id: TournamentId, seed: u64) -> Result<NewDraw, Refusal> {
    let tournament = guard::open_tournament(conn, id)?;
    let entered = crate::db::types::count_len(tournaments::result_count(conn, id)?)?;
    let all_teams = teams::list(conn, id)?;
    let active: Vec<TeamId> = all_teams
        .iter()
        .filter(|t| t.status == TeamStatus::Aktiv)
        .map(|t| t.id)
        .collect();
    draw::may_draw(entered, active.len(), tournament.mode.entrant())?;
    let lose = schedule::draw_lose(&active, seed);
    Ok(NewDraw {
        tournament,
        all_teams,
        active,
        lose,
    })
}

impl NewDraw {
    /// What the Einzelschieber schedule is computed from (none in the modes of teams).
    fn einzel_input(&self, id: TournamentId, mode: DrawMode, seed: u64) -> Option<EinzelInput> {
        if !self.tournament.mode.draws_players() {
            return None;
        }
        Some(EinzelInput {
            id,
            players: self.lose.clone(),
            history: Vec::new(),
            absent: Vec::new(),
            clubs: clubs_of(&self.tournament, &self.all_teams),
            first: 1,
            passen: self.tournament.passen.get(),
            mode,
            seed,
        })
    }
}

/// Draws the Lose (and, in fixed mode, the tables of every Passe). Redrawing is allowed
/// until the first result is entered.
#[tracing::instrument(skip_all, fields(tournament = %id, seed))]
pub fn draw(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    mode: DrawMode,
    seed: u64,
) -> Result<(), Refusal> {
    draw_computing(conn, actor, id, mode, seed, &mut compute_einzel)
}

/// [`draw`] with the computation of an Einzelschieber schedule handed in: where a test
/// watches what the database allows meanwhile.
pub fn draw_computing(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    mode: DrawMode,
    seed: u64,
    compute: &mut dyn FnMut(&EinzelInput) -> diesel::QueryResult<EinzelDrawn>,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::Draw)?;
    with_einzel_draw(
        conn,
        id,
        compute,
        |conn| new_draw(conn, id, seed),
        |new| new.einzel_input(id, mode, seed),
        |conn, new, einzel| write_draw(conn, actor, mode, seed, new, einzel),
    )
}

/// The write of a new draw, inside its transaction, from `new` as read there: `einzel` is
/// the Einzelschieber schedule computed from it.
fn write_draw(
    conn: &mut Conn,
    actor: &Actor,
    mode: DrawMode,
    seed: u64,
    new: NewDraw,
    einzel: Option<EinzelDrawn>,
) -> Result<(), Refusal> {
    let NewDraw {
        tournament,
        all_teams,
        active,
        lose,
    } = new;
    let id = tournament.id;
    guard::begin_write(conn, id)?;
    seats::delete_all(conn, id)?;
    // Reports from the tables belong to the old tables (none has a result yet).
    crate::db::table_entry::forget_reports(conn, id, None)?;
    teams::set_lose(conn, id, &lose)?;
    if let Some(EinzelDrawn { rows, quality }) = einzel {
        seats::insert(conn, &rows)?;
        tournaments::set_draw(conn, id, mode, seed)?;
        return audit_draw(conn, actor, &tournament, mode, seed, None, quality);
    }
    let team_of_los = |los: u32| lose[los as usize - 1];
    let clubs = clubs_of(&tournament, &all_teams);
    let draws: Vec<PasseDraw<TeamId>> = match mode {
        DrawMode::Fest => schedule::fixed_schedule(lose.len() as u32, tournament.passen.get())
            .into_iter()
            .map(|d| PasseDraw {
                tables: d
                    .tables
                    .iter()
                    .map(|t| Table {
                        number: t.number,
                        team_a: team_of_los(t.team_a),
                        team_b: team_of_los(t.team_b),
                    })
                    .collect(),
                bye: d.bye.map(team_of_los),
            })
            .collect(),
        DrawMode::ProPasse => vec![
            passe_draw::draw_passe(&PasseRequest {
                active: &active,
                history: &[],
                passe: 1,
                passen: tournament.passen.get(),
                seed,
                clubs: &clubs,
            })
            .draw,
        ],
    };
    let mut rows = Vec::new();
    for (index, d) in draws.iter().enumerate() {
        rows.extend(seats::rows_of(id, index as u32 + 1, d)?);
    }
    seats::insert(conn, &rows)?;
    tournaments::set_draw(conn, id, mode, seed)?;
    record_draw(
        conn,
        actor,
        &tournament,
        None,
        &DrawRecord {
            mode,
            seed,
            passe: None,
            tables: draws.iter().map(|d| d.tables.len()).sum(),
            rematches: schedule::rematches(&draws).len(),
            same_club: draws
                .iter()
                .flat_map(|d| &d.tables)
                .filter(|t| {
                    matches!((clubs.get(&t.team_a), clubs.get(&t.team_b)), (Some(a), Some(b)) if a == b)
                })
                .count(),
        },
    )
}

/// Einzelschieber: draws the Passen from Passe `first` on (all of them, or the next one),
/// after `history`, for the players in index order.
pub fn compute_einzel(input: &EinzelInput) -> diesel::QueryResult<EinzelDrawn> {
    let EinzelInput {
        id,
        ref players,
        ref history,
        ref absent,
        ref clubs,
        first,
        passen,
        mode,
        seed,
    } = *input;
    let club_list: Vec<Option<u32>> = players.iter().map(|p| clubs.get(p).copied()).collect();
    let clubs = (!clubs.is_empty()).then_some(club_list.as_slice());
    let request = EinzelRequest {
        players: players.len(),
        fixed: history,
        passen: passen as usize,
        clubs,
        absent,
        seed,
    };
    let drawn: Vec<EinzelPasse> = match mode {
        DrawMode::Fest => draw_einzel(&request),
        DrawMode::ProPasse => draw_next_einzel(&request, &mut remembered_plan)
            .into_iter()
            .collect(),
    };
    let mut rows = Vec::new();
    for (offset, passe) in drawn.iter().enumerate() {
        let tables: Vec<[TeamId; 4]> = passe.tables.iter().map(|t| t.map(|i| players[i])).collect();
        let spielfrei: Vec<TeamId> = passe.spielfrei.iter().map(|&i| players[i]).collect();
        rows.extend(seats::rows_of_einzel(
            id,
            first + offset as u32,
            &tables,
            &spielfrei,
        )?);
    }
    let schedule: Vec<EinzelPasse> = history.iter().chain(&drawn).cloned().collect();
    Ok(EinzelDrawn {
        rows,
        quality: einzel_draw::quality(players.len(), &schedule, clubs),
    })
}

/// The plans of per-Passe draws last drawn: a plan is the same for the same request, and a
/// tight field's takes seconds, so each Passe after the first drawn from it comes at once.
static PLANS: Mutex<VecDeque<(PlanKey, Vec<EinzelPasse>)>> = Mutex::new(VecDeque::new());
/// A few tournaments drawing at once, each with its plan.
const PLANS_KEPT: usize = 16;

/// Everything a plan is drawn from.
#[derive(PartialEq)]
struct PlanKey {
    players: usize,
    fixed: Vec<EinzelPasse>,
    passen: usize,
    clubs: Option<Vec<Option<u32>>>,
    absent: Vec<usize>,
    seed: u64,
}

/// [`plan_einzel`], remembered.
pub fn remembered_plan(request: &EinzelRequest<'_>) -> Vec<EinzelPasse> {
    let key = PlanKey {
        players: request.players,
        fixed: request.fixed.to_vec(),
        passen: request.passen,
        clubs: request.clubs.map(<[Option<u32>]>::to_vec),
        absent: request.absent.to_vec(),
        seed: request.seed,
    };
    // A poisoned lock only means no plan is remembered: it is drawn again.
    if let Ok(plans) = PLANS.lock()
        && let Some((_, plan)) = plans.iter().find(|(k, _)| *k == key)
    {
        return plan.clone();
    }
    let plan = plan_einzel(request);
    if let Ok(mut plans) = PLANS.lock() {
        plans.push_front((key, plan.clone()));
        plans.truncate(PLANS_KEPT);
    }
    plan
}

/// What the Protokoll keeps of an Einzelschieber draw.
#[derive(Serialize)]
struct EinzelDrawRecord {
    mode: DrawMode,
    seed: u64,
    passe: Option<u32>,
    partner_repeats: u32,
    meeting_repeats: u32,
    bound: u32,
    most_meetings: u32,
    same_club: u32,
}

fn audit_draw(
    conn: &mut Conn,
    actor: &Actor,
    tournament: &TournamentRow,
    mode: DrawMode,
    seed: u64,
    passe: Option<u32>,
    q: DrawQuality,
) -> Result<(), Refusal> {
    record_draw(
        conn,
        actor,
        tournament,
        passe,
        &EinzelDrawRecord {
            mode,
            seed,
            passe,
            partner_repeats: q.partner_repeats,
            meeting_repeats: q.meeting_repeats,
            bound: q.bound,
            most_meetings: q.most_meetings,
            same_club: q.same_club,
        },
    )
}

/// The Protokoll's line of a draw (of all Passen, or of Passe `passe`), with the seed it
/// replaces.
fn record_draw(
    conn: &mut Conn,
    actor: &Actor,
    tournament: &TournamentRow,
    passe: Option<u32>,
    record: &impl Serialize,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(tournament.id),
            event: AuditEvent::Draw(if passe.is_some() {
                DrawAction::DrawPasse
            } else {
                DrawAction::Draw
            }),
            entity_id: None,
        },
        tournament.draw_seed.filter(|_| passe.is_none()).as_ref(),
        Some(record),
    )?;
    Ok(())
}

/// The next Passe of a per-Passe draw, after the checks that it may be drawn now.
struct NextPasse {
    tournament: TournamentRow,
    data: TournamentData,
    active: Vec<TeamId>,
    passe: u32,
    seed: u64,
}

fn next_passe(conn: &mut Conn, id: TournamentId) -> Result<NextPasse, Refusal> {
    let tournament = guard::open_tournament(conn, id)?;
    let data = tournament_data::load_row(conn, tournament.clone())?;
    let active: Vec<TeamId> = data
        .teams
        .iter()
        .filter(|t| t.status == TeamStatus::Aktiv)
        .map(|t| t.id)
        .collect();
    let passe = draw::next_passe(DrawState {
        mode: tournament.draw_seed.map(|_| tournament.draw_mode),
        drawn_passen: data.drawn_passen(),
        passen: tournament.passen.get(),
        active_teams: active.len(),
        entrant: tournament.mode.entrant(),
    })?;
    // Stored bit for bit as BIGINT (db::tournaments::set_draw).
    let seed = tournament.draw_seed.unwrap_or_default().cast_unsigned();
    Ok(NextPasse {
        tournament,
        data,
        active,
        passe,
        seed,
    })
}

impl NextPasse {
    /// What the Einzelschieber Passe is computed from (none in the modes of teams): every
    /// player ever seated keeps his index, so the Passen played stay as they were; those
    /// who left sit nowhere from now on. A player who left before ever taking a seat is no
    /// part of the field at all (the draw keeps to the plan of a field that did not change).
    fn einzel_input(&self, id: TournamentId) -> Option<EinzelInput> {
        if !self.tournament.mode.draws_players() {
            return None;
        }
        let seated: std::collections::HashSet<TeamId> =
            self.data.seats.iter().map(|s| s.team_id).collect();
        let mut players: Vec<&TeamRow> = self
            .data
            .teams
            .iter()
            .filter(|t| t.status == TeamStatus::Aktiv || seated.contains(&t.id))
            .collect();
        players.sort_by_key(|t| (t.los.is_none(), t.los, t.startnummer));
        let players: Vec<TeamId> = players.iter().map(|t| t.id).collect();
        let index: HashMap<TeamId, usize> =
            players.iter().enumerate().map(|(i, t)| (*t, i)).collect();
        let absent: Vec<usize> = self
            .data
            .teams
            .iter()
            .filter(|t| t.status != TeamStatus::Aktiv)
            .filter_map(|t| index.get(&t.id).copied())
            .collect();
        Some(EinzelInput {
            id,
            history: self.data.einzel_passen(&index),
            players,
            absent,
            clubs: clubs_of(&self.tournament, &self.data.teams),
            first: self.passe,
            passen: self.tournament.passen.get().saturating_sub(self.passe) + 1,
            mode: DrawMode::ProPasse,
            seed: self.seed,
        })
    }
}

/// Per-Passe mode: draws the next Passe among the teams still active.
#[tracing::instrument(skip_all, fields(tournament = %id))]
pub fn draw_next_passe(conn: &mut Conn, actor: &Actor, id: TournamentId) -> Result<u32, Refusal> {
    guard::require(actor, Permission::Draw)?;
    with_einzel_draw(
        conn,
        id,
        &mut compute_einzel,
        |conn| next_passe(conn, id),
        |next| next.einzel_input(id),
        |conn, next, einzel| write_next_passe(conn, actor, next, einzel),
    )
}

/// The write of the next Passe, inside its transaction, from `next` as read there.
fn write_next_passe(
    conn: &mut Conn,
    actor: &Actor,
    next: NextPasse,
    einzel: Option<EinzelDrawn>,
) -> Result<u32, Refusal> {
    let NextPasse {
        tournament,
        data,
        active,
        passe,
        seed,
    } = next;
    let id = tournament.id;
    guard::begin_write(conn, id)?;
    if let Some(EinzelDrawn { rows, quality }) = einzel {
        seats::insert(conn, &rows)?;
        audit_draw(
            conn,
            actor,
            &tournament,
            DrawMode::ProPasse,
            seed,
            Some(passe),
            quality,
        )?;
        return Ok(passe);
    }
    let previous = data.draws();
    let drawn = passe_draw::draw_passe(&PasseRequest {
        active: &active,
        history: &previous,
        passe,
        passen: tournament.passen.get(),
        seed,
        clubs: &clubs_of(&tournament, &data.teams),
    });
    seats::insert(conn, &seats::rows_of(id, passe, &drawn.draw)?)?;
    record_draw(
        conn,
        actor,
        &tournament,
        Some(passe),
        &DrawRecord {
            mode: DrawMode::ProPasse,
            seed,
            passe: Some(passe),
            tables: drawn.draw.tables.len(),
            rematches: drawn.rematches.len(),
            same_club: drawn.same_club,
        },
    )?;
    Ok(passe)
}
