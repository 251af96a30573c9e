//! Disqualification and withdrawal of a team (and undoing them). The opponents'
//! Standblätter follow from the status (Pauschale, seed 004 §9); results stay stored.

use super::result_write::revoke_changed_final_visas;
use super::{Refusal, guard};
use crate::db::teams::StatusChange;
use crate::db::tournament_data;
use crate::db::{Conn, audit, teams, write_tx};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use crate::domain::team::TeamStatus;

/// Disqualifies or withdraws a team from a Passe on; `TeamStatus::Aktiv` undoes it.
pub fn set_team_status(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
    status: TeamStatus,
    passe: Option<u32>,
    reason: Option<String>,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::Disqualify)?;
    write_tx(conn, |conn| {
        let tournament = guard::begin_write(conn, id)?;
        let before = teams::find(conn, id, team)?.ok_or_else(|| {
            Refusal::NotFound("Dieses Team gibt es in diesem Turnier nicht.".into())
        })?;
        match (status, before.status) {
            (TeamStatus::Aktiv, TeamStatus::Aktiv) => {
                return Err(Refusal::invalid("Das Team ist nicht ausgeschieden."));
            }
            (TeamStatus::Disqualifiziert | TeamStatus::Zurueckgezogen, current)
                if current != TeamStatus::Aktiv =>
            {
                return Err(Refusal::invalid("Das Team ist bereits ausgeschieden."));
            }
            _ => {}
        }
        if let Some(p) = passe {
            guard::round(&tournament, p).map_err(|_| {
                Refusal::invalid(format!("{} {p} gibt es nicht.", tournament.mode.round()))
            })?;
        }
        let sheets_before = tournament_data::load(conn, id)?.standblaetter();
        let change = match status {
            TeamStatus::Aktiv => StatusChange {
                status,
                out_passe: None,
                out_reason: None,
                final_visa: before.final_visa(),
            },
            _ => StatusChange {
                status,
                out_passe: passe,
                out_reason: reason,
                final_visa: None,
            },
        };
        teams::set_status(conn, team, change)?;
        let sheets_after = tournament_data::load(conn, id)?.standblaetter();
        revoke_changed_final_visas(conn, &sheets_before, &sheets_after)?;
        let after = teams::find(conn, id, team)?;
        let action = match status {
            TeamStatus::Aktiv => "reinstate",
            TeamStatus::Disqualifiziert => "disqualify",
            TeamStatus::Zurueckgezogen => "withdraw",
        };
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                entity: "team",
                entity_id: Some(team.0),
                action,
            },
            Some(&before),
            after.as_ref(),
        )?;
        Ok(())
    })
}
