//! Disqualification and withdrawal of a team (and undoing them). The opponents'
//! Standblätter follow from the status (Pauschale, seed 004 §9); results stay stored, so
//! undoing brings them back with their visas; final visas that fell are kept aside and
//! restored when the total is again the visaed one.

use super::result_write::revoke_changed_final_visas;
use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, StandblattAction, TeamAction};
use crate::db::models::TeamRow;
use crate::db::teams::{StatusChange, SuspendedVisa};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, audit, teams, tournaments, write_tx};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use crate::domain::standblatt::{PasseLine, Standblatt};
use crate::domain::team::TeamStatus;
pub use crate::domain::withdrawal::Leaving;
use crate::domain::withdrawal::{self, AbortedQuestion, WithdrawalPlan};
use serde::Serialize;
use std::collections::HashMap;

pub enum LeaveOutcome {
    /// Nothing written: the Passe has a result; ask whether it was aborted.
    Question(AbortedQuestion),
    /// Nothing written: results, visas or final visas would change; confirm at `version`.
    Confirm {
        plan: WithdrawalPlan,
        version: i32,
    },
    Done(WithdrawalPlan),
}

/// One audit entry per team whose Standblatt a status change alters.
#[derive(Serialize)]
struct SheetRecord {
    /// Startnummer of the team that left or came back.
    cause: u32,
    passen: Vec<String>,
    total: u32,
    final_visa: Option<String>,
}

fn record_of(cause: u32, sheet: &Standblatt) -> SheetRecord {
    SheetRecord {
        cause,
        passen: sheet
            .lines
            .iter()
            .map(|line| match (line, line.points()) {
                (PasseLine::Gespielt { visa, .. }, Some(p)) => match visa {
                    Some(v) => format!("{p} visiert {}", v.by),
                    None => p.to_string(),
                },
                (_, Some(p)) => format!("{p} {}", line.status_label()),
                (_, None) => line.status_label().to_string(),
            })
            .collect(),
        total: sheet.total,
        final_visa: sheet.final_visa.as_ref().map(|v| v.by.clone()),
    }
}

fn find_team(data: &TournamentData, team: TeamId) -> Result<TeamRow, Refusal> {
    data.team(team)
        .cloned()
        .ok_or_else(|| Refusal::NotFound("Dieses Team gibt es in diesem Turnier nicht.".into()))
}

/// Audits the team itself and every other team whose Standblatt changed.
fn audit_change(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: (&TeamRow, Option<&TeamRow>, TeamAction),
    before: &[Standblatt],
    after: &[Standblatt],
) -> Result<(), Refusal> {
    let (row_before, row_after, action) = team;
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(id),
            event: AuditEvent::Team(action),
            entity_id: Some(row_before.id.0),
        },
        Some(row_before),
        row_after,
    )?;
    let after_of: HashMap<TeamId, &Standblatt> = after.iter().map(|s| (s.team, s)).collect();
    for old in before.iter().filter(|s| s.team != row_before.id) {
        let Some(new) = after_of.get(&old.team) else {
            continue;
        };
        if old.lines == new.lines && old.final_visa == new.final_visa {
            continue;
        }
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Standblatt(if action == TeamAction::Reinstate {
                    StandblattAction::OpponentBack
                } else {
                    StandblattAction::OpponentLeft
                }),
                entity_id: Some(old.team.0),
            },
            Some(&record_of(row_before.startnummer.get(), old)),
            Some(&record_of(row_before.startnummer.get(), new)),
        )?;
    }
    Ok(())
}

/// Disqualifies or withdraws a team: asks, asks for confirmation, or does it.
#[tracing::instrument(skip_all, fields(tournament = %id, team = %team))]
pub fn leave(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
    leaving: Leaving,
) -> Result<LeaveOutcome, Refusal> {
    guard::require(actor, Permission::Disqualify)?;
    if leaving.status == TeamStatus::Aktiv {
        return Err(Refusal::invalid("Unbekannte Aktion."));
    }
    write_tx(conn, Lock::Tournament(id), |conn| {
        let tournament = guard::open_tournament(conn, id)?;
        guard::round(&tournament, leaving.passe).map_err(|_| {
            Refusal::invalid(format!(
                "{} {} gibt es nicht.",
                tournament.mode.round(),
                leaving.passe
            ))
        })?;
        let data = tournament_data::load_row(conn, tournament.clone())?;
        let before_row = find_team(&data, team)?;
        if before_row.status != TeamStatus::Aktiv {
            return Err(Refusal::invalid("Das Team ist bereits ausgeschieden."));
        }
        let facts = data.facts();
        let plan = match withdrawal::plan(
            &facts.borrow(),
            team,
            leaving.status,
            leaving.passe,
            leaving.aborted,
        ) {
            Ok(plan) => plan,
            Err(question) => return Ok(LeaveOutcome::Question(question)),
        };
        if plan.needs_confirmation() && leaving.confirmed_at != Some(tournament.version) {
            return Ok(LeaveOutcome::Confirm {
                plan,
                version: tournament.version,
            });
        }
        tournaments::bump_version(conn, id)?;
        let sheets_before = data.standblaetter();
        let totals: HashMap<TeamId, u32> =
            sheets_before.iter().map(|s| (s.team, s.total)).collect();
        let own = plan.own_final_visa.as_ref().map(|v| (team, v.clone()));
        for (visaed, _) in plan.final_visas.iter().chain(&own) {
            if let Some(row) = data.team(*visaed) {
                teams::suspend_final_visa(
                    conn,
                    team,
                    &SuspendedVisa {
                        team: *visaed,
                        visa: row.final_visa(),
                        total: totals.get(visaed).copied().unwrap_or_default(),
                    },
                )?;
            }
        }
        teams::set_status(
            conn,
            team,
            StatusChange {
                status: leaving.status,
                out_passe: Some(plan.out_passe),
                out_reason: leaving.reason,
                final_visa: None,
            },
        )?;
        let after = tournament_data::load(conn, id)?;
        let action = match leaving.status {
            TeamStatus::Disqualifiziert => TeamAction::Disqualify,
            _ => TeamAction::Withdraw,
        };
        audit_change(
            conn,
            actor,
            id,
            (&before_row, after.team(team), action),
            &sheets_before,
            &after.standblaetter(),
        )?;
        Ok(LeaveOutcome::Done(plan))
    })
}

/// Undoes a disqualification or withdrawal: the results come back with their visas (they
/// were never deleted), and every final visa that fell is restored when its total is again
/// the visaed one and every Passe is still visaed.
#[tracing::instrument(skip_all, fields(tournament = %id, team = %team))]
pub fn reinstate(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
) -> Result<Vec<TeamId>, Refusal> {
    guard::require(actor, Permission::Disqualify)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        guard::begin_write(conn, id)?;
        let data = tournament_data::load(conn, id)?;
        let before_row = find_team(&data, team)?;
        if before_row.status == TeamStatus::Aktiv {
            return Err(Refusal::invalid("Das Team ist nicht ausgeschieden."));
        }
        let sheets_before = data.standblaetter();
        teams::set_status(
            conn,
            team,
            StatusChange {
                status: TeamStatus::Aktiv,
                out_passe: None,
                out_reason: None,
                final_visa: None,
            },
        )?;
        let sheets_after = tournament_data::load(conn, id)?.standblaetter();
        revoke_changed_final_visas(conn, &sheets_before, &sheets_after)?;
        let mut restored = Vec::new();
        for suspended in teams::take_suspended_final_visas(conn, team)? {
            let back_as_visaed = sheets_after.iter().any(|s| {
                s.team == suspended.team
                    && s.total == suspended.total
                    && s.final_visa.is_none()
                    && s.all_passen_visiert()
                    && !matches!(
                        s.status,
                        crate::domain::standblatt::SheetStatus::Disqualifiziert
                            | crate::domain::standblatt::SheetStatus::Zurueckgezogen
                    )
            });
            if back_as_visaed {
                teams::restore_final_visa(conn, suspended.team, &suspended.visa)?;
                restored.push(suspended.team);
            }
        }
        let after = tournament_data::load(conn, id)?;
        audit_change(
            conn,
            actor,
            id,
            (&before_row, after.team(team), TeamAction::Reinstate),
            &sheets_before,
            &after.standblaetter(),
        )?;
        Ok(restored)
    })
}
