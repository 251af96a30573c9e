//! Double entry: applies the domain's decision ([`crate::domain::double_entry::decide`])
//! to the entries stored for a table.

use super::Refusal;
use super::result_write::{
    SaveOutcome, TableEntry, Writer, finish_result_writes, seating, sheets_before_write,
    supersede_report, write_checked,
};
use crate::db::audit::{AuditEvent, PendingAction};
use crate::db::models::PendingEntry;
use crate::db::tournament_data::TournamentData;
use crate::db::types::Nat;
use crate::db::{Conn, audit, results, tournaments};
use crate::domain::double_entry::{Decision, Typed, decide};
use crate::domain::role::{Actor, Role};

/// A new entry for a table without result in a tournament with double entry.
pub(super) fn enter(
    conn: &mut Conn,
    actor: &Actor,
    data: &TournamentData,
    new: &TableEntry,
) -> Result<SaveOutcome, Refusal> {
    let (passe, table) = (new.passe, new.table);
    let id = data.tournament.id;
    seating(data, passe, table)?;
    let pending: Vec<PendingEntry> = data.pending_at(passe, table).into_iter().cloned().collect();
    let typed: Vec<Typed<_>> = pending
        .iter()
        .map(|p| Typed {
            by: p.user_id,
            score: p.score(),
        })
        .collect();
    let this = Typed {
        by: actor.id,
        score: new.score,
    };
    let decision = decide(
        &typed,
        &this,
        actor.role == Role::Leitung,
        data.tournament.double_entry_same_user,
    );
    let record = |conn: &mut Conn, action: PendingAction, entry: &PendingEntry| {
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::PendingEntry(action),
                entity_id: i32::try_from(table).ok(),
            },
            Some(&pending),
            Some(entry),
        )
    };
    match decision {
        // Pressed again: the first entry waits as it did; nothing is written.
        Decision::AlreadyEntered => Ok(SaveOutcome::FirstEntry),
        Decision::RefuseSameAccount => Err(Refusal::invalid(
            "Die zweite Erfassung muss von einem anderen Konto kommen (Doppelerfassung).",
        )),
        Decision::AwaitLeitung => Ok(SaveOutcome::Mismatch(pending)),
        Decision::KeepFirst | Decision::Contradiction => {
            supersede_report(conn, audit::Author::User(actor), id, (passe, table))?;
            let stored = results::insert_pending(conn, id, passe, table, actor.id, new.score)?;
            let first = decision == Decision::KeepFirst;
            record(
                conn,
                if first {
                    PendingAction::EnterFirst
                } else {
                    PendingAction::Contradiction
                },
                &stored,
            )?;
            tournaments::bump_version(conn, id)?;
            Ok(if first {
                SaveOutcome::FirstEntry
            } else {
                SaveOutcome::Mismatch(results::pending_at(conn, id, passe, table)?)
            })
        }
        Decision::Confirm | Decision::Resolve => {
            let before = sheets_before_write(conn, data)?;
            let outcome = match write_checked(conn, Writer::Office(actor), data, new)? {
                SaveOutcome::Saved(row) => {
                    SaveOutcome::Saved(results::set_confirmed(conn, row.id)?)
                }
                other => other,
            };
            results::delete_pending(conn, id, passe, table)?;
            let entry = PendingEntry {
                id: 0,
                tournament_id: id,
                passe: Nat::of(passe)?,
                table_no: Nat::of(table)?,
                user_id: actor.id,
                points_a: Nat::of(new.score.points_a)?,
                points_b: Nat::of(new.score.points_b)?,
                matches_a: Nat::of(new.score.matches_a)?,
                matches_b: Nat::of(new.score.matches_b)?,
                created_at: crate::db::now(),
            };
            let action = if decision == Decision::Resolve {
                PendingAction::Resolve
            } else {
                PendingAction::Confirm
            };
            record(conn, action, &entry)?;
            finish_result_writes(conn, id, before.as_deref())?;
            Ok(outcome)
        }
    }
}
