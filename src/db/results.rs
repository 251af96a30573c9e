//! Draws, table results, visas, disqualifications: everything that changes a Standblatt.

use super::audit::{self, Entry};
use super::models::{NewResult, PendingEntry, ResultRow, SeatRow, TeamRow, TournamentRow};
use super::schema::{pending_entries, results, seats, teams, tournaments, users};
use super::tournaments::{begin_write, bump_version, ensure_open, get as get_tournament};
use super::{Conn, now};
use crate::domain::form::FieldErrors;
use crate::domain::ids::{ResultId, TeamId, TournamentId};
use crate::domain::result::TableScore;
use crate::domain::result_import::ImportedTable;
use crate::domain::role::{Actor, Permission, Role};
use crate::domain::schedule::{self, DrawHistory, PasseDraw, Table};
use crate::domain::standblatt::{
    self, ResultFacts, SeatFacts, Standblatt, TeamFacts, TournamentFacts, Visa,
};
use crate::domain::team::TeamStatus;
use crate::error::AppError;
use diesel::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawMode {
    /// The Los fixes the table for every Passe (seed 004).
    Fest,
    /// Tables drawn anew before each Passe among the active teams.
    ProPasse,
}

impl DrawMode {
    pub fn as_str(self) -> &'static str {
        match self {
            DrawMode::Fest => "fest",
            DrawMode::ProPasse => "pro_passe",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "fest" => Some(DrawMode::Fest),
            "pro_passe" => Some(DrawMode::ProPasse),
            _ => None,
        }
    }
}

/// Everything about one tournament that the Standblätter and the Rangliste are built from.
pub struct TournamentData {
    pub tournament: TournamentRow,
    pub teams: Vec<TeamRow>,
    pub seats: Vec<SeatRow>,
    pub results: Vec<ResultRow>,
    pub usernames: HashMap<i32, String>,
    /// Double entry: entries waiting for their confirmation (or in contradiction).
    pub pending: Vec<PendingEntry>,
    /// Which rows were read: [`load`] reads all, the others a part.
    scope: Scope,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Tournament,
    Passe(u32),
    Table(u32, u32),
}

pub fn load(conn: &mut Conn, id: TournamentId) -> Result<TournamentData, AppError> {
    load_scoped(conn, id, Scope::Tournament)
}

/// The tournament with the seats, results and pending entries of one Passe only: all that
/// showing the tables of that Passe needs, a fraction of [`load`] on a big tournament.
/// Never enough for Standblätter or a ranking. Not found when there is no such Passe.
pub fn load_passe(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
) -> Result<TournamentData, AppError> {
    load_scoped(conn, id, Scope::Passe(passe))
}

/// Only one table of a Passe: its two teams, its seats, its result and pending entries.
/// What saving a result there needs, independent of the tournament's size.
fn load_table(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> Result<TournamentData, AppError> {
    load_scoped(conn, id, Scope::Table(passe, table))
}

fn ensure_passe(tournament: &TournamentRow, passe: u32) -> Result<(), AppError> {
    if passe == 0 || passe > tournament.passen as u32 {
        let round = if tournament.mode == "jassmarathon" {
            "Spielrunde"
        } else {
            "Passe"
        };
        return Err(AppError::NotFound(format!(
            "{round} {passe} gibt es in diesem Turnier nicht."
        )));
    }
    Ok(())
}

fn load_scoped(
    conn: &mut Conn,
    id: TournamentId,
    scope: Scope,
) -> Result<TournamentData, AppError> {
    let tournament = get_tournament(conn, id)?;
    let mut seats = seats::table
        .filter(seats::tournament_id.eq(id.0))
        .select(SeatRow::as_select())
        .order((seats::passe, seats::table_no, seats::team_id))
        .into_boxed();
    let mut results = results::table
        .filter(results::tournament_id.eq(id.0))
        .select(ResultRow::as_select())
        .order((results::passe, results::table_no))
        .into_boxed();
    let mut pending = pending_entries::table
        .filter(pending_entries::tournament_id.eq(id.0))
        .select(PendingEntry::as_select())
        .order(pending_entries::id)
        .into_boxed();
    match scope {
        Scope::Tournament => {}
        Scope::Passe(passe) | Scope::Table(passe, _) => {
            ensure_passe(&tournament, passe)?;
            let passe = passe as i32;
            seats = seats.filter(seats::passe.eq(passe));
            results = results.filter(results::passe.eq(passe));
            pending = pending.filter(pending_entries::passe.eq(passe));
        }
    }
    if let Scope::Table(_, table) = scope {
        let table = table as i32;
        seats = seats.filter(seats::table_no.eq(table));
        results = results.filter(results::table_no.eq(table));
        pending = pending.filter(pending_entries::table_no.eq(table));
    }
    let seats: Vec<SeatRow> = seats.load(conn)?;
    let teams = match scope {
        Scope::Table(..) => teams::table
            .filter(teams::tournament_id.eq(id.0))
            .filter(teams::id.eq_any(seats.iter().map(|s| s.team_id).collect::<Vec<_>>()))
            .select(TeamRow::as_select())
            .order(teams::startnummer)
            .load(conn)?,
        _ => super::teams::list(conn, id)?,
    };
    let usernames = users::table
        .select((users::id, users::username))
        .load::<(i32, String)>(conn)?
        .into_iter()
        .collect();
    Ok(TournamentData {
        tournament,
        teams,
        seats,
        results: results.load(conn)?,
        usernames,
        pending: pending.load(conn)?,
        scope,
    })
}

impl TournamentData {
    fn visa(&self, by: Option<i32>, at: Option<chrono::NaiveDateTime>) -> Option<Visa> {
        match (by, at) {
            (Some(by), Some(at)) => Some(Visa {
                by: self
                    .usernames
                    .get(&by)
                    .cloned()
                    .unwrap_or_else(|| format!("#{by}")),
                at,
            }),
            _ => None,
        }
    }

    pub fn standblaetter(&self) -> Vec<Standblatt> {
        debug_assert!(
            self.scope == Scope::Tournament,
            "Standblätter need the whole tournament, not a part of it"
        );
        let teams: Vec<TeamFacts> = self
            .teams
            .iter()
            .map(|t| TeamFacts {
                id: TeamId(t.id),
                startnummer: t.startnummer as u32,
                status: t.status.parse().unwrap_or(TeamStatus::Aktiv),
                out_passe: t.out_passe.map(|p| p as u32),
                final_visa: self.visa(t.final_visa_by, t.final_visa_at),
            })
            .collect();
        let seats: Vec<SeatFacts> = self
            .seats
            .iter()
            .map(|s| SeatFacts {
                passe: s.passe as u32,
                team: TeamId(s.team_id),
                table: s.table_no.map(|t| t as u32),
                opponent: s.opponent_id.map(TeamId),
            })
            .collect();
        let results: Vec<ResultFacts> = self
            .results
            .iter()
            .map(|r| ResultFacts {
                id: ResultId(r.id),
                passe: r.passe as u32,
                table: r.table_no as u32,
                team_a: TeamId(r.team_a_id),
                team_b: TeamId(r.team_b_id),
                points_a: r.points_a as u32,
                points_b: r.points_b as u32,
                matches_a: r.matches_a as u32,
                matches_b: r.matches_b as u32,
                visa_a: self.visa(r.visa_a_by, r.visa_a_at),
                visa_b: self.visa(r.visa_b_by, r.visa_b_at),
            })
            .collect();
        standblatt::standblaetter(&TournamentFacts {
            passen: self.tournament.passen as u32,
            pauschale: self.tournament.pauschale as u32,
            teams: &teams,
            seats: &seats,
            results: &results,
        })
    }

    pub fn team(&self, id: TeamId) -> Option<&TeamRow> {
        self.teams.iter().find(|t| t.id == id.0)
    }

    /// The tables of one Passe, team A being the lower Startnummer.
    pub fn tables(&self, passe: u32) -> Vec<Table<&TeamRow>> {
        let mut tables: Vec<Table<&TeamRow>> = Vec::new();
        for seat in self.seats.iter().filter(|s| s.passe == passe as i32) {
            let (Some(table), Some(opponent)) = (seat.table_no, seat.opponent_id) else {
                continue;
            };
            let (Some(me), Some(other)) =
                (self.team(TeamId(seat.team_id)), self.team(TeamId(opponent)))
            else {
                continue;
            };
            if me.startnummer < other.startnummer {
                tables.push(Table {
                    number: table as u32,
                    team_a: me,
                    team_b: other,
                });
            }
        }
        tables.sort_by_key(|t| t.number);
        tables
    }

    pub fn byes(&self, passe: u32) -> Vec<&TeamRow> {
        self.seats
            .iter()
            .filter(|s| s.passe == passe as i32 && s.table_no.is_none())
            .filter_map(|s| self.team(TeamId(s.team_id)))
            .collect()
    }

    pub fn result_at(&self, passe: u32, table: u32) -> Option<&ResultRow> {
        self.results
            .iter()
            .find(|r| r.passe == passe as i32 && r.table_no == table as i32)
    }

    /// Passen with a drawn schedule.
    pub fn drawn_passen(&self) -> u32 {
        self.seats.iter().map(|s| s.passe as u32).max().unwrap_or(0)
    }

    pub fn is_drawn(&self) -> bool {
        self.tournament.draw_seed.is_some()
    }

    pub fn pending_at(&self, passe: u32, table: u32) -> Vec<&PendingEntry> {
        self.pending
            .iter()
            .filter(|p| p.passe == passe as i32 && p.table_no == table as i32)
            .collect()
    }

    pub fn spiele(&self) -> u32 {
        self.tournament.spiele_per_passe as u32
    }
}

fn seat_rows(tournament: TournamentId, passe: u32, draw: &PasseDraw<i32>) -> Vec<SeatRow> {
    let mut rows = Vec::with_capacity(draw.tables.len() * 2 + 1);
    for table in &draw.tables {
        for (team, opponent) in [(table.team_a, table.team_b), (table.team_b, table.team_a)] {
            rows.push(SeatRow {
                id: 0,
                tournament_id: tournament.0,
                passe: passe as i32,
                team_id: team,
                table_no: Some(table.number as i32),
                opponent_id: Some(opponent),
            });
        }
    }
    if let Some(bye) = draw.bye {
        rows.push(SeatRow {
            id: 0,
            tournament_id: tournament.0,
            passe: passe as i32,
            team_id: bye,
            table_no: None,
            opponent_id: None,
        });
    }
    rows
}

fn insert_seats(conn: &mut Conn, rows: &[SeatRow]) -> QueryResult<()> {
    for chunk in rows.chunks(500) {
        diesel::insert_into(seats::table)
            .values(chunk)
            .execute(conn)?;
    }
    Ok(())
}

#[derive(Serialize)]
struct DrawRecord<'a> {
    mode: &'a str,
    seed: u64,
    passe: Option<u32>,
    tables: usize,
    rematches: usize,
}

/// Draws the Lose (and, in fixed mode, the tables of every Passe). Redrawing is allowed
/// until the first result is entered.
pub fn draw(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    mode: DrawMode,
    seed: u64,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        let tournament = begin_write(conn, id)?;
        let entered: i64 = results::table
            .filter(results::tournament_id.eq(id.0))
            .count()
            .get_result(conn)?;
        if entered > 0 {
            return Err(AppError::BadRequest(
                "Es sind schon Resultate erfasst: die Auslosung kann nicht wiederholt werden."
                    .into(),
            ));
        }
        let team_rows = super::teams::list(conn, id)?;
        let active: Vec<i32> = team_rows
            .iter()
            .filter(|t| t.status == "aktiv")
            .map(|t| t.id)
            .collect();
        if active.len() < 2 {
            return Err(AppError::BadRequest(
                "Für eine Auslosung braucht es mindestens zwei Teams.".into(),
            ));
        }
        diesel::delete(seats::table.filter(seats::tournament_id.eq(id.0))).execute(conn)?;
        diesel::update(teams::table.filter(teams::tournament_id.eq(id.0)))
            .set(teams::los.eq(None::<i32>))
            .execute(conn)?;
        let lose = schedule::draw_lose(&active, seed);
        for (index, team) in lose.iter().enumerate() {
            diesel::update(teams::table.find(team))
                .set(teams::los.eq(index as i32 + 1))
                .execute(conn)?;
        }
        let team_of_los = |los: u32| lose[los as usize - 1];
        let draws: Vec<PasseDraw<i32>> = match mode {
            DrawMode::Fest => schedule::fixed_schedule(lose.len() as u32, tournament.passen as u32)
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
            DrawMode::ProPasse => vec![schedule::draw_passe(
                &active,
                &DrawHistory::from_draws(&[]),
                seed,
                1,
            )],
        };
        let mut rows = Vec::new();
        for (index, d) in draws.iter().enumerate() {
            rows.extend(seat_rows(id, index as u32 + 1, d));
        }
        insert_seats(conn, &rows)?;
        diesel::update(tournaments::table.find(id.0))
            .set((
                tournaments::draw_seed.eq(Some(seed as i64)),
                tournaments::draw_mode.eq(mode.as_str()),
            ))
            .execute(conn)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "draw",
                entity_id: None,
                action: "draw",
            },
            tournament.draw_seed.as_ref(),
            Some(&DrawRecord {
                mode: mode.as_str(),
                seed,
                passe: None,
                tables: draws.iter().map(|d| d.tables.len()).sum(),
                rematches: schedule::rematches(&draws).len(),
            }),
        )?;
        Ok(())
    })
}

/// Per-Passe mode: draws the next Passe among the teams still active.
pub fn draw_next_passe(conn: &mut Conn, actor: &Actor, id: TournamentId) -> Result<u32, AppError> {
    conn.immediate_transaction(|conn| {
        let tournament = begin_write(conn, id)?;
        let data = load(conn, id)?;
        let Some(seed) = tournament.draw_seed else {
            return Err(AppError::BadRequest("Zuerst die Lose ziehen.".into()));
        };
        if tournament.draw_mode != DrawMode::ProPasse.as_str() {
            return Err(AppError::BadRequest(
                "Dieses Turnier hat einen festen Tischplan.".into(),
            ));
        }
        let passe = data.drawn_passen() + 1;
        if passe > tournament.passen as u32 {
            return Err(AppError::BadRequest("Alle Passen sind ausgelost.".into()));
        }
        let previous: Vec<PasseDraw<i32>> = (1..passe)
            .map(|p| PasseDraw {
                tables: data
                    .tables(p)
                    .iter()
                    .map(|t| Table {
                        number: t.number,
                        team_a: t.team_a.id,
                        team_b: t.team_b.id,
                    })
                    .collect(),
                bye: data.byes(p).first().map(|t| t.id),
            })
            .collect();
        let active: Vec<i32> = data
            .teams
            .iter()
            .filter(|t| t.status == "aktiv")
            .map(|t| t.id)
            .collect();
        if active.len() < 2 {
            return Err(AppError::BadRequest(
                "Es sind weniger als zwei Teams aktiv.".into(),
            ));
        }
        let draw = schedule::draw_passe(
            &active,
            &DrawHistory::from_draws(&previous),
            seed as u64,
            passe,
        );
        insert_seats(conn, &seat_rows(id, passe, &draw))?;
        let mut all = previous;
        all.push(draw.clone());
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "draw",
                entity_id: None,
                action: "draw_passe",
            },
            None::<&()>,
            Some(&DrawRecord {
                mode: DrawMode::ProPasse.as_str(),
                seed: seed as u64,
                passe: Some(passe),
                tables: draw.tables.len(),
                rematches: schedule::rematches(&all)
                    .iter()
                    .filter(|r| r.0 == passe)
                    .count(),
            }),
        )?;
        Ok(passe)
    })
}

pub enum SaveOutcome {
    Saved(ResultRow),
    /// Someone else saved this table first; here is what is stored.
    Conflict(ResultRow),
    /// Double entry: the first entry is stored blind; the result counts after the second.
    FirstEntry,
    /// Double entry: the entries disagree; the Turnierleitung decides.
    Mismatch(Vec<PendingEntry>),
}

/// Revokes the final visa of every team whose total a write changed.
fn revoke_changed_final_visas(
    conn: &mut Conn,
    before: &[Standblatt],
    after: &[Standblatt],
) -> QueryResult<()> {
    let totals: HashMap<TeamId, u32> = before.iter().map(|s| (s.team, s.total)).collect();
    for sheet in after {
        if sheet.final_visa.is_some() && totals.get(&sheet.team) != Some(&sheet.total) {
            diesel::update(teams::table.find(sheet.team.0))
                .set((
                    teams::final_visa_by.eq(None::<i32>),
                    teams::final_visa_at.eq(None::<chrono::NaiveDateTime>),
                ))
                .execute(conn)?;
        }
    }
    Ok(())
}

/// One table's result as it is to be written.
pub struct TableEntry {
    pub passe: u32,
    pub table: u32,
    pub score: TableScore,
    /// None for a new result, else the version the clerk corrected: a mismatch is a
    /// conflict, never a silent overwrite.
    pub expected_version: Option<i32>,
    /// Jassmarathon: the Striche per category behind the result (JSON).
    pub details: Option<String>,
}

/// Saves a table result. Correcting a result removes its visas on both Standblätter (and
/// any final visa whose total changed).
pub fn save_result(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    entry: TableEntry,
) -> Result<SaveOutcome, AppError> {
    conn.immediate_transaction(|conn| {
        ensure_open(conn, id)?;
        let data = load_table(conn, id, entry.passe, entry.table)?;
        save_loaded(conn, actor, &data, &entry)
    })
}

/// What became of a result typed in the Büro.
pub enum Typed {
    /// The input does not fit this Passe; nothing was written.
    Invalid(FieldErrors),
    Done(SaveOutcome),
}

/// What a typed result is checked against before anything about its table is read.
pub struct PasseShape {
    pub tables: u32,
    pub spiele: u32,
}

/// Parses and saves a typed result in one transaction, against the Passe as stored at that
/// moment. Reads only the table concerned, so its cost does not grow with the tournament.
pub fn save_typed_result(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    expected_version: Option<i32>,
    parse: impl FnOnce(PasseShape) -> Result<(u32, TableScore), FieldErrors>,
) -> Result<Typed, AppError> {
    conn.immediate_transaction(|conn| {
        let tournament = ensure_open(conn, id)?;
        ensure_passe(&tournament, passe)?;
        let seated: i64 = seats::table
            .filter(seats::tournament_id.eq(id.0))
            .filter(seats::passe.eq(passe as i32))
            .filter(seats::table_no.is_not_null())
            .count()
            .get_result(conn)?;
        let shape = PasseShape {
            tables: (seated / 2) as u32,
            spiele: tournament.spiele_per_passe as u32,
        };
        Ok(match parse(shape) {
            Err(errors) => Typed::Invalid(errors),
            Ok((table, score)) => {
                let data = load_table(conn, id, passe, table)?;
                let entry = TableEntry {
                    passe,
                    table,
                    score,
                    expected_version,
                    details: None,
                };
                Typed::Done(save_loaded(conn, actor, &data, &entry)?)
            }
        })
    })
}

/// Saves one table of `data` (loaded in the caller's transaction). A conflict writes
/// nothing, not even the version bump.
fn save_loaded(
    conn: &mut Conn,
    actor: &Actor,
    data: &TournamentData,
    entry: &TableEntry,
) -> Result<SaveOutcome, AppError> {
    if data.tournament.double_entry
        && data.tournament.mode != "jassmarathon"
        && entry.expected_version.is_none()
        && data.result_at(entry.passe, entry.table).is_none()
    {
        return double_entry(conn, actor, data, entry);
    }
    let before = sheets_before_write(conn, data)?;
    let outcome = write_result(conn, actor, data, entry)?;
    if let SaveOutcome::Saved(_) = outcome {
        finish_result_writes(conn, TournamentId(data.tournament.id), before.as_deref())?;
    }
    Ok(outcome)
}

/// Writes an imported set of table results; any table already entered refuses the whole file.
pub fn import_results(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    tables: &[ImportedTable],
) -> Result<usize, AppError> {
    conn.immediate_transaction(|conn| {
        ensure_open(conn, id)?;
        let data = load(conn, id)?;
        let before = sheets_before_write(conn, &data)?;
        for t in tables {
            let entry = TableEntry { passe: t.passe, table: t.table, score: t.score, expected_version: None, details: None };
            if let SaveOutcome::Conflict(_) = write_result(conn, actor, &data, &entry)? {
                return Err(AppError::BadRequest(format!(
                    "Passe {}, Tisch {}: es ist schon ein Resultat erfasst. Nichts wurde importiert.",
                    t.passe, t.table
                )));
            }
        }
        finish_result_writes(conn, id, before.as_deref())?;
        Ok(tables.len())
    })
}

/// Double entry (per tournament): the first entry waits blind; an equal second entry by
/// another account (or the same one, if the tournament allows it) makes the result count;
/// a different one is a contradiction that only the Turnierleitung resolves.
fn double_entry(
    conn: &mut Conn,
    actor: &Actor,
    data: &TournamentData,
    new: &TableEntry,
) -> Result<SaveOutcome, AppError> {
    let (passe, table, score) = (new.passe, new.table, new.score);
    let id = TournamentId(data.tournament.id);
    seating(data, passe, table)?;
    let pending: Vec<PendingEntry> = data.pending_at(passe, table).into_iter().cloned().collect();
    let entry = PendingEntry {
        id: 0,
        tournament_id: id.0,
        passe: passe as i32,
        table_no: table as i32,
        user_id: actor.id.0,
        points_a: score.points_a as i32,
        points_b: score.points_b as i32,
        matches_a: score.matches_a as i32,
        matches_b: score.matches_b as i32,
        created_at: now(),
    };
    let same = |p: &PendingEntry| {
        (p.points_a, p.points_b, p.matches_a, p.matches_b)
            == (
                entry.points_a,
                entry.points_b,
                entry.matches_a,
                entry.matches_b,
            )
    };
    let of_table = || {
        pending_entries::table
            .filter(pending_entries::tournament_id.eq(id.0))
            .filter(pending_entries::passe.eq(passe as i32))
            .filter(pending_entries::table_no.eq(table as i32))
    };
    let record = |conn: &mut Conn, action: &str, before: &[PendingEntry]| {
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "pending_entry",
                entity_id: Some(table as i32),
                action,
            },
            Some(&before),
            Some(&entry),
        )
    };
    match pending.as_slice() {
        [] => {
            diesel::insert_into(pending_entries::table)
                .values(&entry)
                .execute(conn)?;
            record(conn, "enter_first", &pending)?;
            bump_version(conn, id)?;
            Ok(SaveOutcome::FirstEntry)
        }
        [first] if first.user_id == actor.id.0 && !data.tournament.double_entry_same_user => {
            Err(AppError::BadRequest(
                "Die zweite Erfassung muss von einem anderen Konto kommen (Doppelerfassung)."
                    .into(),
            ))
        }
        [first] if !same(first) => {
            diesel::insert_into(pending_entries::table)
                .values(&entry)
                .execute(conn)?;
            record(conn, "contradiction", &pending)?;
            bump_version(conn, id)?;
            Ok(SaveOutcome::Mismatch(
                of_table()
                    .select(PendingEntry::as_select())
                    .order(pending_entries::id)
                    .load(conn)?,
            ))
        }
        [_, _, ..] if actor.role != Role::Leitung => Ok(SaveOutcome::Mismatch(pending.clone())),
        // An agreeing second entry, or the Leitung's decision on a contradiction.
        _ => {
            let before = sheets_before_write(conn, data)?;
            let outcome = write_result(conn, actor, data, new)?;
            diesel::delete(of_table()).execute(conn)?;
            record(
                conn,
                if pending.len() > 1 {
                    "resolve"
                } else {
                    "confirm"
                },
                &pending,
            )?;
            finish_result_writes(conn, id, before.as_deref())?;
            Ok(outcome)
        }
    }
}

/// Whether the team has left the tournament by `passe` (its opponents get the Pauschale).
pub fn is_out(team: &TeamRow, passe: u32) -> bool {
    standblatt::is_out(
        team.status.parse().unwrap_or(TeamStatus::Aktiv),
        team.out_passe.map(|p| p as u32),
        passe,
    )
}

/// The two teams of a table, refusing tables where the Pauschale applies.
fn seating(data: &TournamentData, passe: u32, table: u32) -> Result<Table<&TeamRow>, AppError> {
    let Some(seating) = data.tables(passe).into_iter().find(|t| t.number == table) else {
        return Err(AppError::BadRequest(format!(
            "Tisch {table} gibt es in Passe {passe} nicht."
        )));
    };
    if is_out(seating.team_a, passe) || is_out(seating.team_b, passe) {
        return Err(AppError::BadRequest(format!(
            "An Tisch {table} gilt in Passe {passe} die Pauschale: ein Team ist ausgeschieden."
        )));
    }
    Ok(seating)
}

/// The Standblätter before a result write, when the write could revoke a final visa.
/// During play nobody has one yet, and the full load is skipped.
pub(crate) fn sheets_before_write(
    conn: &mut Conn,
    data: &TournamentData,
) -> Result<Option<Vec<Standblatt>>, AppError> {
    let id = TournamentId(data.tournament.id);
    if data.scope == Scope::Tournament {
        if data.teams.iter().all(|t| t.final_visa_by.is_none()) {
            return Ok(None);
        }
        return Ok(Some(data.standblaetter()));
    }
    let any_final_visa = diesel::select(diesel::dsl::exists(
        teams::table
            .filter(teams::tournament_id.eq(id.0))
            .filter(teams::final_visa_by.is_not_null()),
    ))
    .get_result::<bool>(conn)?;
    if !any_final_visa {
        return Ok(None);
    }
    Ok(Some(load(conn, id)?.standblaetter()))
}

/// After result writes: bump the tournament version and revoke final visas whose total moved.
pub(crate) fn finish_result_writes(
    conn: &mut Conn,
    id: TournamentId,
    before: Option<&[Standblatt]>,
) -> Result<(), AppError> {
    bump_version(conn, id)?;
    if let Some(before) = before {
        let after = load(conn, id)?.standblaetter();
        revoke_changed_final_visas(conn, before, &after)?;
    }
    Ok(())
}

/// One table's result, checked against the schedule, the Pauschale and the stored version.
/// Runs inside the caller's transaction; `data` is the state before any write of it.
pub(crate) fn write_result(
    conn: &mut Conn,
    actor: &Actor,
    data: &TournamentData,
    entry: &TableEntry,
) -> Result<SaveOutcome, AppError> {
    let (passe, table, score) = (entry.passe, entry.table, entry.score);
    let id = TournamentId(data.tournament.id);
    let seating = seating(data, passe, table)?;
    let existing = data.result_at(passe, table).cloned();
    let saved = match (existing, entry.expected_version) {
        (None, Some(_)) => {
            return Err(AppError::NotFound(
                "Dieses Resultat gibt es nicht mehr.".into(),
            ));
        }
        (Some(stored), None) => return Ok(SaveOutcome::Conflict(stored)),
        (Some(stored), Some(version)) if stored.version != version => {
            return Ok(SaveOutcome::Conflict(stored));
        }
        (Some(stored), Some(version)) => {
            let visaed = stored.visa_a_by.is_some() || stored.visa_b_by.is_some();
            if visaed && !actor.may(Permission::CorrectVisaedResults) {
                return Err(AppError::Forbidden(
                    "Dieses Resultat ist visiert: korrigieren dürfen nur Turnierleitung und Kontrolleure.".into(),
                ));
            }
            let updated = diesel::update(
                results::table
                    .find(stored.id)
                    .filter(results::version.eq(version)),
            )
            .set((
                results::points_a.eq(score.points_a as i32),
                results::points_b.eq(score.points_b as i32),
                results::matches_a.eq(score.matches_a as i32),
                results::matches_b.eq(score.matches_b as i32),
                results::visa_a_by.eq(None::<i32>),
                results::visa_a_at.eq(None::<chrono::NaiveDateTime>),
                results::visa_b_by.eq(None::<i32>),
                results::visa_b_at.eq(None::<chrono::NaiveDateTime>),
                results::version.eq(version + 1),
            ))
            .returning(ResultRow::as_returning())
            .get_result(conn)
            .optional()?;
            let Some(updated) = updated else {
                return Ok(SaveOutcome::Conflict(stored));
            };
            audit::record(
                conn,
                Some(actor),
                Entry {
                    tournament: Some(id),
                    entity: "result",
                    entity_id: Some(updated.id),
                    action: "correct",
                },
                Some(&stored),
                Some(&updated),
            )?;
            updated
        }
        (None, None) => {
            let inserted: ResultRow = diesel::insert_into(results::table)
                .values(NewResult {
                    tournament_id: id.0,
                    passe: passe as i32,
                    table_no: table as i32,
                    team_a_id: seating.team_a.id,
                    team_b_id: seating.team_b.id,
                    points_a: score.points_a as i32,
                    points_b: score.points_b as i32,
                    matches_a: score.matches_a as i32,
                    matches_b: score.matches_b as i32,
                    version: 1,
                    details: entry.details.clone(),
                })
                .returning(ResultRow::as_returning())
                .get_result(conn)?;
            audit::record(
                conn,
                Some(actor),
                Entry {
                    tournament: Some(id),
                    entity: "result",
                    entity_id: Some(inserted.id),
                    action: "enter",
                },
                None::<&ResultRow>,
                Some(&inserted),
            )?;
            inserted
        }
    };
    Ok(SaveOutcome::Saved(saved))
}

/// Visas one Passe of one team, or (team None) both teams of the table.
pub fn visa(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    table: u32,
    team: Option<TeamId>,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        begin_write(conn, id)?;
        let stored: ResultRow = results::table
            .filter(results::tournament_id.eq(id.0))
            .filter(results::passe.eq(passe as i32))
            .filter(results::table_no.eq(table as i32))
            .select(ResultRow::as_select())
            .first(conn)
            .optional()?
            .ok_or_else(|| {
                AppError::BadRequest(format!(
                    "Passe {passe}, Tisch {table}: noch kein Resultat erfasst."
                ))
            })?;
        let side_a = team.is_none_or(|t| t.0 == stored.team_a_id);
        let side_b = team.is_none_or(|t| t.0 == stored.team_b_id);
        if !side_a && !side_b {
            return Err(AppError::BadRequest(
                "Dieses Team spielte nicht an diesem Tisch.".into(),
            ));
        }
        let at = now();
        let by = Some(actor.id.0);
        let visa_a = if side_a && stored.visa_a_by.is_none() {
            (by, Some(at))
        } else {
            (stored.visa_a_by, stored.visa_a_at)
        };
        let visa_b = if side_b && stored.visa_b_by.is_none() {
            (by, Some(at))
        } else {
            (stored.visa_b_by, stored.visa_b_at)
        };
        let updated: ResultRow = diesel::update(results::table.find(stored.id))
            .set((
                results::visa_a_by.eq(visa_a.0),
                results::visa_a_at.eq(visa_a.1),
                results::visa_b_by.eq(visa_b.0),
                results::visa_b_at.eq(visa_b.1),
            ))
            .returning(ResultRow::as_returning())
            .get_result(conn)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "result",
                entity_id: Some(stored.id),
                action: "visa",
            },
            Some(&stored),
            Some(&updated),
        )?;
        Ok(())
    })
}

/// The final visa of a team's total, given only when every Passe is visiert.
pub fn final_visa(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        begin_write(conn, id)?;
        let data = load(conn, id)?;
        let sheets = data.standblaetter();
        let sheet = sheets
            .iter()
            .find(|s| s.team == team)
            .ok_or_else(AppError::not_found)?;
        if let Some(reason) = standblatt::final_visa_refusal(sheet) {
            return Err(AppError::BadRequest(reason.into()));
        }
        let before = super::teams::get(conn, id, team)?;
        diesel::update(teams::table.find(team.0))
            .set((
                teams::final_visa_by.eq(Some(actor.id.0)),
                teams::final_visa_at.eq(Some(now())),
            ))
            .execute(conn)?;
        let after = super::teams::get(conn, id, team)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "team",
                entity_id: Some(team.0),
                action: "final_visa",
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}

/// Disqualifies or withdraws a team from a Passe on; `TeamStatus::Aktiv` undoes it.
/// Opponents' Standblätter follow from the status (Pauschale); results stay stored.
pub fn set_team_status(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
    status: TeamStatus,
    passe: Option<u32>,
    reason: Option<String>,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        let tournament = begin_write(conn, id)?;
        let before = super::teams::get(conn, id, team)?;
        match status {
            TeamStatus::Aktiv if before.status == "aktiv" => {
                return Err(AppError::BadRequest(
                    "Das Team ist nicht ausgeschieden.".into(),
                ));
            }
            TeamStatus::Disqualifiziert | TeamStatus::Zurueckgezogen
                if before.status != "aktiv" =>
            {
                return Err(AppError::BadRequest(
                    "Das Team ist bereits ausgeschieden.".into(),
                ));
            }
            _ => {}
        }
        if let Some(p) = passe
            && (p < 1 || p > tournament.passen as u32)
        {
            return Err(AppError::BadRequest(format!("Passe {p} gibt es nicht.")));
        }
        let sheets_before = load(conn, id)?.standblaetter();
        let (out_passe, out_reason, final_visa_by) = match status {
            TeamStatus::Aktiv => (None, None, before.final_visa_by),
            _ => (passe.map(|p| p as i32), reason, None),
        };
        diesel::update(teams::table.find(team.0))
            .set((
                teams::status.eq(status.as_str()),
                teams::out_passe.eq(out_passe),
                teams::out_reason.eq(out_reason),
                teams::final_visa_by.eq(final_visa_by),
                teams::final_visa_at.eq(final_visa_by.and(before.final_visa_at)),
            ))
            .execute(conn)?;
        let after_sheets = load(conn, id)?.standblaetter();
        revoke_changed_final_visas(conn, &sheets_before, &after_sheets)?;
        let after = super::teams::get(conn, id, team)?;
        let action = match status {
            TeamStatus::Aktiv => "reinstate",
            TeamStatus::Disqualifiziert => "disqualify",
            TeamStatus::Zurueckgezogen => "withdraw",
        };
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "team",
                entity_id: Some(team.0),
                action,
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}
