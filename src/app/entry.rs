//! Result entry: the one path by which a table's result is saved, whatever the mode and
//! whoever typed it (fast entry, correction, Schnellerfassung, Tafel, CSV import).
//!
//! A result is never overwritten silently: a new entry on a table that has a result, or a
//! correction against a version that is no longer stored, is a conflict and writes nothing.

use super::{Refusal, double_entry, guard};
use crate::db::models::TeamRow;
use crate::db::models::{PendingEntry, ResultRow};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, audit, marathon, results, seats, teams, tournaments, write_tx};
use crate::domain::entry::{RoundShape, parse_result};
use crate::domain::form::FieldErrors;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::mode::ResultEntry;
use crate::domain::result::{ResultForm, TableScore};
use crate::domain::role::{Actor, ResultWrite};
use crate::domain::schedule::Table;
use crate::domain::standblatt::Standblatt;
use std::collections::HashMap;

/// One table's result as it is to be written.
pub struct TableEntry {
    pub passe: u32,
    pub table: u32,
    pub score: TableScore,
    /// None for a new result, else the version the clerk corrected: a mismatch is a
    /// conflict, never a silent overwrite.
    pub expected_version: Option<i32>,
    /// Striche per category behind the result (JSON), where the mode counts Striche.
    pub details: Option<String>,
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

/// What became of a result typed in the Büro.
pub enum Typed {
    /// The input does not fit this round; nothing was written.
    Invalid(FieldErrors),
    Done {
        table: u32,
        outcome: SaveOutcome,
    },
}

/// Parses and saves a typed result (new, or a correction when the form carries the
/// version it was made against) in one transaction, against the round as stored at that
/// moment. Reads only the table concerned, so its cost does not grow with the tournament.
pub fn save_typed(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    form: &ResultForm,
) -> Result<Typed, Refusal> {
    let expected_version = form.expected_version().map_err(Refusal::invalid)?;
    let write = match expected_version {
        None => ResultWrite::New,
        Some(_) => ResultWrite::Correction { visaed: false },
    };
    actor
        .may_write_result(write)
        .map_err(|m| Refusal::Forbidden(m.into()))?;
    write_tx(conn, |conn| {
        let t = guard::open_tournament(conn, id)?;
        guard::round(&t, passe)?;
        let rules = match t.mode.facts().entry {
            ResultEntry::Striche => Some(marathon::rules(conn, id)?),
            ResultEntry::Points => None,
        };
        let shape = RoundShape {
            mode: t.mode,
            tables: seats::table_count(conn, id, passe)?,
            spiele: t.spiele_per_passe as u32,
            rules,
        };
        let parsed = match parse_result(&shape, form) {
            Ok(parsed) => parsed,
            Err(errors) => return Ok(Typed::Invalid(errors)),
        };
        let data = tournament_data::load_table(conn, t, passe, parsed.table)?;
        let entry = TableEntry {
            passe,
            table: parsed.table,
            score: parsed.score,
            expected_version,
            details: parsed
                .details
                .map(|d| serde_json::to_string(&d))
                .transpose()?,
        };
        let outcome = save_loaded(conn, actor, &data, &entry)?;
        Ok(Typed::Done {
            table: parsed.table,
            outcome,
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
) -> Result<SaveOutcome, Refusal> {
    let t = &data.tournament;
    if t.double_entry
        && t.mode.facts().double_entry
        && entry.expected_version.is_none()
        && data.result_at(entry.passe, entry.table).is_none()
    {
        return double_entry::enter(conn, actor, data, entry);
    }
    let before = sheets_before_write(conn, data)?;
    let outcome = write_checked(conn, actor, data, entry)?;
    if let SaveOutcome::Saved(_) = outcome {
        finish_result_writes(conn, t.id, before.as_deref())?;
    }
    Ok(outcome)
}

/// The two teams of a table, refusing tables that do not exist or where the Pauschale
/// applies.
pub(super) fn seating(
    data: &TournamentData,
    passe: u32,
    table: u32,
) -> Result<Table<&TeamRow>, Refusal> {
    let round = data.tournament.mode.round();
    let Some(seating) = data.tables(passe).into_iter().find(|t| t.number == table) else {
        return Err(Refusal::invalid(format!(
            "Tisch {table} gibt es in {round} {passe} nicht."
        )));
    };
    if seating.team_a.is_out(passe) || seating.team_b.is_out(passe) {
        return Err(Refusal::invalid(format!(
            "An Tisch {table} gilt in {round} {passe} die Pauschale: ein Team ist ausgeschieden."
        )));
    }
    Ok(seating)
}

/// One table's result, checked against the schedule, the Pauschale, the role and the
/// stored version. Runs inside the caller's transaction; `data` is the state before any
/// write of it. Correcting a result removes its visas on both Standblätter.
pub(super) fn write_checked(
    conn: &mut Conn,
    actor: &Actor,
    data: &TournamentData,
    entry: &TableEntry,
) -> Result<SaveOutcome, Refusal> {
    let (passe, table) = (entry.passe, entry.table);
    let id = data.tournament.id;
    let seating = seating(data, passe, table)?;
    let existing = data.result_at(passe, table).cloned();
    let record = |conn: &mut Conn, action: &str, before: Option<&ResultRow>, after: &ResultRow| {
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                entity: "result",
                entity_id: Some(after.id.0),
                action,
            },
            before,
            Some(after),
        )
    };
    let saved = match (existing, entry.expected_version) {
        (None, Some(_)) => {
            return Err(Refusal::NotFound(
                "Dieses Resultat gibt es nicht mehr.".into(),
            ));
        }
        (Some(stored), None) => return Ok(SaveOutcome::Conflict(stored)),
        (Some(stored), Some(version)) if stored.version != version => {
            return Ok(SaveOutcome::Conflict(stored));
        }
        (Some(stored), Some(version)) => {
            actor
                .may_write_result(ResultWrite::Correction {
                    visaed: stored.visaed(),
                })
                .map_err(|m| Refusal::Forbidden(m.into()))?;
            let updated = results::update_if_version(
                conn,
                stored.id,
                version,
                entry.score,
                entry.details.clone(),
            )?;
            let Some(updated) = updated else {
                return Ok(SaveOutcome::Conflict(stored));
            };
            record(conn, "correct", Some(&stored), &updated)?;
            updated
        }
        (None, None) => {
            actor
                .may_write_result(ResultWrite::New)
                .map_err(|m| Refusal::Forbidden(m.into()))?;
            let inserted = results::insert(
                conn,
                &results::Seating {
                    tournament: id,
                    passe,
                    table,
                    team_a: seating.team_a.id,
                    team_b: seating.team_b.id,
                },
                entry.score,
                entry.details.clone(),
            )?;
            record(conn, "enter", None, &inserted)?;
            inserted
        }
    };
    Ok(SaveOutcome::Saved(saved))
}

/// The Standblätter before a result write, when the write could revoke a final visa.
/// During play nobody has one yet, and the full load is skipped.
pub(super) fn sheets_before_write(
    conn: &mut Conn,
    data: &TournamentData,
) -> Result<Option<Vec<Standblatt>>, Refusal> {
    if data.is_whole() {
        if data.teams.iter().all(|t| t.final_visa_by.is_none()) {
            return Ok(None);
        }
        return Ok(Some(data.standblaetter()));
    }
    if !teams::any_final_visa(conn, data.tournament.id)? {
        return Ok(None);
    }
    Ok(Some(
        tournament_data::load(conn, data.tournament.id)?.standblaetter(),
    ))
}

/// After result writes: bump the tournament version and revoke final visas whose total moved.
pub(super) fn finish_result_writes(
    conn: &mut Conn,
    id: TournamentId,
    before: Option<&[Standblatt]>,
) -> Result<(), Refusal> {
    tournaments::bump_version(conn, id)?;
    if let Some(before) = before {
        let after = tournament_data::load(conn, id)?.standblaetter();
        revoke_changed_final_visas(conn, before, &after)?;
    }
    Ok(())
}

/// Revokes the final visa of every team whose total a write changed.
pub(super) fn revoke_changed_final_visas(
    conn: &mut Conn,
    before: &[Standblatt],
    after: &[Standblatt],
) -> Result<(), Refusal> {
    let totals: HashMap<TeamId, u32> = before.iter().map(|s| (s.team, s.total)).collect();
    for sheet in after {
        if sheet.final_visa.is_some() && totals.get(&sheet.team) != Some(&sheet.total) {
            teams::set_final_visa(conn, sheet.team, None)?;
        }
    }
    Ok(())
}
