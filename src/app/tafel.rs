//! Jassmarathon at the table: the clock of a Spielrunde and the digital Tafel, whose
//! Striche are saved as the table's result through the one result path.

use super::result_write::{
    SaveOutcome, TableEntry, Writer, finish_result_writes, sheets_before_write, write_checked,
};
use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, TafelAction};
use crate::db::tournament_data;
use crate::db::{Conn, audit, marathon, now, results, write_tx};
use crate::domain::clock::{self, ClockAction};
use crate::domain::ids::TournamentId;
use crate::domain::marathon::tafel::{NewLine, Tafel, compute, new_line};
use crate::domain::marathon::{Details, Spiel};
use crate::domain::result::TableScore;
use crate::domain::role::{Actor, Permission, ResultWrite};

/// Starts, pauses, resumes or ends (gong) the clock of a Spielrunde.
#[tracing::instrument(skip_all, fields(tournament = %id, passe))]
pub fn clock_action(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    action: ClockAction,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        if !t.mode.has_clock() {
            return Err(Refusal::invalid(format!(
                "Im {} läuft keine Uhr.",
                t.mode.label()
            )));
        }
        guard::round(&t, passe)?;
        let before = marathon::clock(conn, id, passe)?;
        let after = clock::transition(action, before.as_ref(), now()).map_err(Refusal::invalid)?;
        marathon::save_clock(conn, id, passe, &after)?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Clock(action),
                entity_id: i32::try_from(passe).ok(),
            },
            before.map(ClockJson::of).as_ref(),
            Some(&ClockJson::of(after)),
        )?;
        Ok(())
    })
}

/// The clock as the audit log shows it.
#[derive(serde::Serialize)]
struct ClockJson {
    started_at: chrono::NaiveDateTime,
    paused_at: Option<chrono::NaiveDateTime>,
    paused_seconds: i64,
    ended_at: Option<chrono::NaiveDateTime>,
}

impl ClockJson {
    fn of(c: clock::ClockFacts) -> Self {
        ClockJson {
            started_at: c.started_at,
            paused_at: c.paused_at,
            paused_seconds: c.paused_seconds,
            ended_at: c.ended_at,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TafelChange {
    /// A line, and which line the page offered it as (see [`new_line`]).
    Add(Spiel, Option<usize>),
    Replace(usize, Spiel),
    Delete(usize),
    Gong(bool),
}

impl TafelChange {
    fn action(self) -> TafelAction {
        match self {
            TafelChange::Add(..) => TafelAction::AddLine,
            TafelChange::Replace(..) => TafelAction::CorrectLine,
            TafelChange::Delete(_) => TafelAction::DeleteLine,
            TafelChange::Gong(_) => TafelAction::Gong,
        }
    }
}

/// Applies one change to a Tafel, recomputes it from its first line, and writes the
/// Striche as the table's result, all in one transaction. A visaed result may only be
/// changed by those who may correct visaed results; the change removes the visas.
#[tracing::instrument(skip_all, fields(tournament = %id, passe, table))]
pub fn change_tafel(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    table: u32,
    change: TafelChange,
    replace_source: bool,
) -> Result<Tafel, Refusal> {
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::open_tournament(conn, id)?;
        if !t.mode.has_tafel() {
            return Err(Refusal::invalid(format!(
                "Im {} gibt es keine Tafel.",
                t.mode.label()
            )));
        }
        guard::round(&t, passe)?;
        let data = tournament_data::load_passe(conn, t, passe)?;
        let round = data.tournament.mode.round();
        if !data.tables(passe).iter().any(|t| t.number == table) {
            return Err(Refusal::NotFound(format!(
                "Tisch {table} gibt es in {round} {passe} nicht."
            )));
        }
        let existing = data.result_at(passe, table).cloned();
        let write = match &existing {
            Some(r) => ResultWrite::Correction { visaed: r.visaed() },
            None => ResultWrite::New,
        };
        actor
            .may_write_result(write)
            .map_err(|m| Refusal::Forbidden(m.into()))?;
        let before = sheets_before_write(conn, &data)?;
        let rules = marathon::rules(conn, id)?;
        let (mut lines, mut gong) = marathon::tafel(conn, id, passe, table)?;
        // One source per result: a Tafel replaces a Schnellerfassung only explicitly.
        if let Some(stored) = existing.as_ref().filter(|_| lines.is_empty() && !gong) {
            if !replace_source {
                return Err(Refusal::Conflict(format!(
                    "Tisch {table} wurde per Schnellerfassung erfasst (gespeichert {} : {} {}). Die Tafel ersetzt sie nur ausdrücklich («Schnellerfassung ersetzen», Turnierleitung oder Kontrolleur).",
                    stored.points_a,
                    stored.points_b,
                    data.tournament.mode.unit()
                )));
            }
            guard::require(actor, Permission::CorrectVisaedResults)?;
            record_replacement(conn, actor, id, (passe, table), Some(stored), "tafel")?;
        }
        // Closed means closed: after the Gong no line is added, corrected or deleted (it
        // moved the Gong-Strich and let a visa fall unseen) until the closing is taken back.
        if gong && !matches!(change, TafelChange::Gong(_)) {
            return Err(Refusal::invalid(
                "Die Tafel ist abgeschlossen (Gong): keine Zeile mehr eintragen, korrigieren oder löschen. Zuerst «Abschluss zurücknehmen».",
            ));
        }
        // Which Spiel the change touches, as the Protokoll names it.
        let (line_no, spiel) = match change {
            TafelChange::Add(s, _) => (Some(lines.len() + 1), Some(s)),
            TafelChange::Replace(n, s) => (Some(n), Some(s)),
            TafelChange::Delete(n) => (
                Some(n),
                n.checked_sub(1).and_then(|i| lines.get(i)).copied(),
            ),
            TafelChange::Gong(_) => (None, None),
        };
        let bad_line = |n: usize| Refusal::invalid(format!("Zeile {n} gibt es nicht."));
        match change {
            TafelChange::Add(s, number) => match new_line(&lines, &s, number) {
                NewLine::Append => lines.push(s),
                // Sent twice: the Tafel as it stands, nothing written.
                NewLine::AlreadyThere => {
                    return compute(&rules, &lines, gong)
                        .map_err(|e| Refusal::invalid(format!("Zeile {}: {}", e.line, e.message)));
                }
                NewLine::Changed { lines } => {
                    // (Not a conflict: that offers to replace a Schnellerfassung.)
                    return Err(Refusal::invalid(NewLine::changed(lines)));
                }
            },
            TafelChange::Replace(n, s) => {
                *lines
                    .get_mut(n.wrapping_sub(1))
                    .ok_or_else(|| bad_line(n))? = s
            }
            TafelChange::Delete(n) => {
                if n == 0 || n > lines.len() {
                    return Err(bad_line(n));
                }
                lines.remove(n - 1);
            }
            TafelChange::Gong(on) => gong = on,
        }
        let computed = compute(&rules, &lines, gong)
            .map_err(|e| Refusal::invalid(format!("Zeile {}: {}", e.line, e.message)))?;
        marathon::save_tafel(conn, id, passe, table, &lines, gong)?;
        let details = Details {
            a: computed.a,
            b: computed.b,
        };
        let score = TableScore::of_striche(&details);
        if lines.is_empty() && !gong {
            if let Some(r) = &existing {
                results::delete(conn, r.id)?;
            }
        } else {
            let entry = TableEntry {
                passe,
                table,
                score,
                expected_version: existing.as_ref().map(|r| r.version),
                details: Some(serde_json::to_string(&details)?),
                reason: None,
            };
            if let SaveOutcome::Conflict(_) =
                write_checked(conn, Writer::Office(actor), &data, &entry)?
            {
                return Err(Refusal::Conflict(
                    "Die Tafel wurde gleichzeitig geändert. Bitte neu laden.".into(),
                ));
            }
        }
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Tafel(change.action()),
                entity_id: i32::try_from(table).ok(),
            },
            None::<&()>,
            Some(&serde_json::json!({
                "passe": passe,
                "table": table,
                "lines": lines.len(),
                "gong": gong,
                "striche": [score.points_a, score.points_b],
                "line": line_no,
                "spiel": spiel.map(|s| s.summary()),
                "striche_before": existing.as_ref().map(|r| [r.points_a, r.points_b]),
                "visa_removed": existing.as_ref().is_some_and(|r| r.visaed()),
            })),
        )?;
        finish_result_writes(conn, id, before.as_deref())?;
        Ok(computed)
    })
}

/// How the office types this Tafel's points: raw card points, or multiplied as written on
/// the Tafel. Both give the same lines; the stored lines are always raw.
pub fn set_entry_mode(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    table: u32,
    multiplied: bool,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::EnterResults)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        guard::round(&t, passe)?;
        marathon::set_entry_multiplied(conn, id, passe, table, multiplied)?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Tafel(TafelAction::EntryMode),
                entity_id: i32::try_from(table).ok(),
            },
            None::<&()>,
            Some(&serde_json::json!({ "passe": passe, "table": table, "multiplied": multiplied })),
        )?;
        Ok(())
    })
}

/// The Protokoll entry of a result replaced by its other source (`by`: what replaces it).
pub(super) fn record_replacement(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    (passe, table): (u32, u32),
    before: Option<&crate::db::models::ResultRow>,
    by: &str,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(id),
            event: AuditEvent::Tafel(TafelAction::ReplaceSource),
            entity_id: i32::try_from(table).ok(),
        },
        before,
        Some(&serde_json::json!({ "passe": passe, "table": table, "by": by })),
    )?;
    Ok(())
}
