//! The one path by which a table's result is written, whatever the mode and however it
//! came in (typed, Tafel, CSV import): checked against the schedule, the Pauschale, the
//! role and the stored version, audited, and followed by the revocation of final visas
//! whose total moved.
//!
//! A result is never overwritten silently: a new entry on a table that has a result, or a
//! correction against a version that is no longer stored, is a conflict and writes nothing.

use super::Refusal;
use crate::db::audit::{AuditEvent, ReportAction, ResultAction};
use crate::db::models::{PendingEntry, ResultRow, TeamRow, TournamentRow};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, audit, results, table_entry, teams, tournaments};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::result::TableScore;
use crate::domain::role::{Actor, Permission, ResultWrite};
use crate::domain::schedule::Table;
use crate::domain::standblatt::Standblatt;
use crate::domain::table_report::ReportState;
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
    /// Why a correction was made (shown in the Protokoll).
    pub reason: Option<String>,
}

/// A result row in the Protokoll, with the reason of a correction.
#[derive(serde::Serialize)]
struct Audited<'a> {
    #[serde(flatten)]
    row: &'a ResultRow,
    #[serde(skip_serializing_if = "Option::is_none")]
    grund: Option<&'a str>,
}

/// Who writes a table's result, as far as the write's checks and its Protokoll entry go.
#[derive(Clone, Copy)]
pub enum Writer<'a> {
    /// An account typing, importing or correcting: the role decides.
    Office(&'a Actor),
    /// An account deciding a table's report (results from the table): the Büro, a
    /// Kontrolleur or the Leitung.
    Ruling(&'a Actor),
    /// The two teams of the table, by their codes: only a table without a result. The name
    /// is how the Protokoll shows them.
    Table(&'a str),
}

impl Writer<'_> {
    fn check(&self, write: ResultWrite) -> Result<(), Refusal> {
        let checked = match (self, write) {
            (Writer::Office(actor), write) => actor.may_write_result(write),
            (Writer::Ruling(actor), ResultWrite::New) if actor.may_change_results() => Ok(()),
            (Writer::Ruling(actor), write) => actor.may_write_result(write),
            (Writer::Table(_), ResultWrite::New) => Ok(()),
            (Writer::Table(_), ResultWrite::Correction { .. }) => {
                Err("Eine Korrektur macht das Turnierbüro.")
            }
        };
        checked.map_err(|m| Refusal::Forbidden(m.into()))
    }

    /// Whether the writer may change a result that two accounts confirmed.
    fn may_overrule_double_entry(&self) -> bool {
        match self {
            Writer::Office(actor) | Writer::Ruling(actor) => {
                actor.may(Permission::CorrectVisaedResults)
            }
            Writer::Table(_) => false,
        }
    }

    pub fn author(&self) -> audit::Author<'_> {
        match self {
            Writer::Office(actor) | Writer::Ruling(actor) => audit::Author::User(actor),
            Writer::Table(name) => audit::Author::Named(name),
        }
    }
}

pub enum SaveOutcome {
    Saved(ResultRow),
    /// A stored result was changed; whether that removed visas.
    Corrected {
        row: ResultRow,
        visas_removed: bool,
    },
    /// Someone else saved this table first; here is what is stored.
    Conflict(ResultRow),
    /// Double entry: the first entry is stored blind; the result counts after the second.
    FirstEntry,
    /// Double entry: the entries disagree; the Turnierleitung decides.
    Mismatch(Vec<PendingEntry>),
}

/// The two teams of a table, refusing tables that do not exist or where the Pauschale
/// applies.
pub fn seating(data: &TournamentData, passe: u32, table: u32) -> Result<Table<&TeamRow>, Refusal> {
    let round = data.tournament.mode.round();
    let Some(seating) = data.table(passe, table) else {
        return Err(Refusal::invalid(format!(
            "Tisch {table} gibt es in {round} {passe} nicht."
        )));
    };
    if data.table_has_left(passe, &seating) {
        let who = data.tournament.mode.entrant().one();
        return Err(Refusal::invalid(format!(
            "An Tisch {table} gilt in {round} {passe} die Pauschale: ein {who} ist ausgeschieden."
        )));
    }
    Ok(seating)
}

/// Whether the writer may change this stored result: the role against its visas, and a
/// result two accounts confirmed is not undone by one account of the Büro alone.
fn check_correction(
    writer: Writer<'_>,
    t: &TournamentRow,
    stored: &ResultRow,
) -> Result<(), Refusal> {
    writer.check(ResultWrite::Correction {
        visaed: stored.visaed(),
    })?;
    if t.double_entry && t.mode.facts().double_entry && !writer.may_overrule_double_entry() {
        return Err(Refusal::Forbidden(
            "Dieses Resultat ist doppelt erfasst und bestätigt: ändern dürfen es nur die Turnierleitung und Kontrolleure.".into(),
        ));
    }
    Ok(())
}

/// Why the account may not correct this stored result, if it may not: the correction page
/// says so instead of offering a form whose input would be refused and lost.
pub fn correction_refusal(actor: &Actor, t: &TournamentRow, stored: &ResultRow) -> Option<String> {
    match check_correction(Writer::Office(actor), t, stored) {
        Err(refusal) => Some(refusal.to_string()),
        Ok(()) => None,
    }
}

/// One table's result, checked against the schedule, the Pauschale, the role and the
/// stored version. Runs inside the caller's transaction; `data` is the state before any
/// write of it. Correcting a result removes its visas on both Standblätter.
pub fn write_checked(
    conn: &mut Conn,
    writer: Writer<'_>,
    data: &TournamentData,
    entry: &TableEntry,
) -> Result<SaveOutcome, Refusal> {
    let (passe, table) = (entry.passe, entry.table);
    let id = data.tournament.id;
    let seating = seating(data, passe, table)?;
    let existing = data.result_at(passe, table).cloned();
    let record =
        |conn: &mut Conn, action: ResultAction, before: Option<&ResultRow>, after: &ResultRow| {
            audit::record_as(
                conn,
                writer.author(),
                audit::Entry {
                    tournament: Some(id),
                    event: AuditEvent::Result(action),
                    entity_id: Some(after.id.0),
                },
                before,
                Some(&Audited {
                    row: after,
                    grund: entry.reason.as_deref(),
                }),
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
            check_correction(writer, &data.tournament, &stored)?;
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
            record(conn, ResultAction::Correct, Some(&stored), &updated)?;
            return Ok(SaveOutcome::Corrected {
                row: updated,
                visas_removed: stored.visaed(),
            });
        }
        (None, None) => {
            writer.check(ResultWrite::New)?;
            if let Writer::Office(_) = writer {
                supersede_report(conn, writer.author(), id, (passe, table))?;
            }
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
            record(conn, ResultAction::Enter, None, &inserted)?;
            inserted
        }
    };
    Ok(SaveOutcome::Saved(saved))
}

/// New results of many tables at once (an import), in a few statements: only where none of
/// the tables has a result yet and none has an open report from the table (which each
/// entry would replace on its own) and every table may be written; None otherwise, and each
/// table is to be written with [`write_checked`] (which says what is refused and where).
/// The same rows and Protokoll entries as one by one.
pub fn write_new_many(
    conn: &mut Conn,
    writer: Writer<'_>,
    data: &TournamentData,
    entries: &[TableEntry],
) -> Result<Option<Vec<ResultRow>>, Refusal> {
    let Writer::Office(actor) = writer else {
        return Ok(None);
    };
    let id = data.tournament.id;
    let fresh = entries
        .iter()
        .all(|e| e.expected_version.is_none() && data.result_at(e.passe, e.table).is_none());
    if !fresh || entries.is_empty() {
        return Ok(None);
    }
    let mut passen: Vec<u32> = entries.iter().map(|e| e.passe).collect();
    passen.sort_unstable();
    passen.dedup();
    for passe in passen {
        let open = table_entry::reports_of_passe(conn, id, passe)?
            .iter()
            .any(|r| r.state.is_open());
        if open {
            return Ok(None);
        }
    }
    // Whatever is refused is refused by the one-by-one path, which names the line.
    if writer.check(ResultWrite::New).is_err() {
        return Ok(None);
    }
    let mut rows = Vec::with_capacity(entries.len());
    for entry in entries {
        let Ok(seated) = seating(data, entry.passe, entry.table) else {
            return Ok(None);
        };
        rows.push((
            results::Seating {
                tournament: id,
                passe: entry.passe,
                table: entry.table,
                team_a: seated.team_a.id,
                team_b: seated.team_b.id,
            },
            entry.score,
            entry.details.clone(),
        ));
    }
    let inserted = results::insert_many(conn, &rows)?;
    let reasons: std::collections::HashMap<(u32, u32), Option<&str>> = entries
        .iter()
        .map(|e| ((e.passe, e.table), e.reason.as_deref()))
        .collect();
    let audited: Vec<Audited<'_>> = inserted
        .iter()
        .map(|row| Audited {
            row,
            grund: reasons
                .get(&(row.passe.get(), row.table_no.get()))
                .copied()
                .flatten(),
        })
        .collect();
    audit::record_many(
        conn,
        actor,
        audited.iter().map(|a| {
            let entry = audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Result(ResultAction::Enter),
                entity_id: Some(a.row.id.0),
            };
            (entry, None::<&()>, Some(a))
        }),
    )?;
    Ok(Some(inserted))
}

/// The Standblätter before a result write, when the write could revoke a final visa.
/// During play nobody has one yet, and the full load is skipped.
pub fn sheets_before_write(
    conn: &mut Conn,
    data: &TournamentData,
) -> Result<Option<Vec<Standblatt>>, Refusal> {
    if data.is_whole() {
        if data.teams.iter().all(|t| t.final_visa_at.is_none()) {
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
pub fn finish_result_writes(
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
pub fn revoke_changed_final_visas(
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

/// The office writes a table by keyboard (or import) while a report of it is open: the
/// report no longer counts (one source per result). Inside the office's write.
pub fn supersede_report(
    conn: &mut Conn,
    author: audit::Author<'_>,
    id: TournamentId,
    (passe, table): (u32, u32),
) -> Result<(), Refusal> {
    let Some(report) = table_entry::report_at(conn, id, passe, table)? else {
        return Ok(());
    };
    if !report.state.is_open() {
        return Ok(());
    }
    let after = table_entry::answer(
        conn,
        &report,
        table_entry::Answer {
            state: ReportState::Ersetzt,
            by: None,
            score: None,
            note: None,
        },
    )?;
    audit::record_as(
        conn,
        author,
        audit::Entry {
            entity_id: Some(after.id),
            tournament: Some(id),
            event: AuditEvent::TableReport(ReportAction::Supersede),
        },
        Some(&report),
        Some(&after),
    )?;
    Ok(())
}
