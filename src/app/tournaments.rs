//! Tournaments: create, change the settings, close and reopen, public pages on or off.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, TournamentAction};
use crate::db::models::TournamentRow;
use crate::db::{Conn, audit, differenzler, marathon, prizes, tournaments, write_tx};
use crate::domain::ids::TournamentId;
use crate::domain::role::{Actor, Permission};
use crate::domain::tournament::TournamentSettings;

fn record(
    conn: &mut Conn,
    actor: &Actor,
    action: TournamentAction,
    before: Option<&TournamentRow>,
    after: &TournamentRow,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(after.id),
            event: AuditEvent::Tournament(action),
            entity_id: Some(after.id.0),
        },
        before,
        Some(after),
    )?;
    Ok(())
}

pub fn create(
    conn: &mut Conn,
    actor: &Actor,
    settings: &TournamentSettings,
) -> Result<TournamentId, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Global, |conn| {
        let row = tournaments::insert(conn, settings)?;
        if let Some(rules) = &settings.marathon {
            marathon::save_rules(conn, row.id, rules)?;
        }
        if let Some(rules) = &settings.differenzler {
            differenzler::save_rules(conn, row.id, rules)?;
        }
        record(conn, actor, TournamentAction::Create, None, &row)?;
        Ok(row.id)
    })
}

pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    settings: &TournamentSettings,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let before = guard::begin_write(conn, id)?;
        if before.draw_seed.is_some()
            && (before.passen.get() != settings.passen
                || before.spiele_per_passe.get() != settings.spiele_per_passe
                || before.mode != settings.mode)
        {
            return Err(Refusal::invalid(format!(
                "Nach der Auslosung lassen sich Modus, Anzahl {} und Spiele pro {} nicht mehr ändern.",
                before.mode.rounds(),
                before.mode.round()
            )));
        }
        let after = tournaments::update(conn, id, settings)?;
        if let Some(rules) = &settings.marathon {
            marathon::save_rules(conn, id, rules)?;
        }
        if let Some(rules) = &settings.differenzler {
            differenzler::save_rules(conn, id, rules)?;
        }
        record(conn, actor, TournamentAction::Update, Some(&before), &after)?;
        Ok(())
    })
}

/// Closing is itself refused on a closed tournament; reopening is the one write allowed then.
pub fn set_closed(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    closed: bool,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let before = guard::tournament(conn, id)?;
        if before.closed == closed {
            return Err(Refusal::invalid(if closed {
                "Das Turnier ist bereits abgeschlossen."
            } else {
                "Das Turnier ist bereits offen."
            }));
        }
        let mut after = tournaments::set_closed(conn, id, closed)?;
        // The official category rankings do not follow later edits of the register.
        match closed {
            true => crate::db::categories::freeze(conn, id)?,
            false => crate::db::categories::thaw(conn, id)?,
        }
        // Reopening withdraws the Absenden: only an official Rangliste is read out.
        if !closed && after.absenden_step.is_some() {
            after = prizes::set_step(conn, id, None)?;
        }
        record(
            conn,
            actor,
            if closed {
                TournamentAction::Close
            } else {
                TournamentAction::Reopen
            },
            Some(&before),
            &after,
        )?;
        Ok(())
    })
}

pub fn set_public(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    public: bool,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let before = guard::begin_write(conn, id)?;
        let after = tournaments::set_public(conn, id, public)?;
        record(
            conn,
            actor,
            TournamentAction::Visibility,
            Some(&before),
            &after,
        )?;
        Ok(())
    })
}
