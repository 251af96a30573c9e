//! Kontrolleur visas: one Passe of one Standblatt (or both of a table), and the final visa
//! of a team's total.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, ResultAction, TeamAction};
use crate::db::models::{ResultRow, Signer};
use crate::db::tournament_data;
use crate::db::{Conn, audit, marathon, now, results, seats, teams, write_tx};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use crate::domain::standblatt;

/// Visas one Passe of one team, or (team None) both teams of the table.
#[tracing::instrument(skip_all, fields(tournament = %id, passe, table))]
pub fn visa(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    table: u32,
    team: Option<TeamId>,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::Visa)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        let stored = results::at(conn, id, passe, table)?.ok_or_else(|| {
            Refusal::invalid(format!(
                "{} {passe}, Tisch {table}: noch kein Resultat erfasst.",
                t.mode.round()
            ))
        })?;
        // A Tafel still being written has a provisional result: visaed is only what is
        // final, as in the Kontrolleur's visa of a whole Passe.
        if t.mode.has_tafel() {
            let (lines, gong) = marathon::tafel(conn, id, passe, table)?;
            if !lines.is_empty() && !gong {
                return Err(Refusal::invalid(format!(
                    "{} {passe}, Tisch {table}: die Tafel läuft noch. Visiert wird nach dem Abschluss (Gong).",
                    t.mode.round()
                )));
            }
        }
        // Einzelschieber: a pair's result is filed under its first seat; the partner's
        // Standblatt visas the same side. Differenzler: nobody plays in a pair and the
        // Kontrolleur checks the table's one Schätzzettel: a player's visa is the table's.
        let team = match team {
            Some(player) if t.mode.plays_in_pairs() => {
                Some(seats::first_of_side(conn, id, passe, player)?.unwrap_or(player))
            }
            Some(player) => {
                let at_table = seats::table_of(conn, id, passe, player)? == Some(table);
                if !at_table {
                    return Err(Refusal::invalid(format!(
                        "Dieser {} spielte nicht an diesem Tisch.",
                        t.mode.entrant().one()
                    )));
                }
                None
            }
            None => None,
        };
        let side_a = team.is_none_or(|t| t == stored.team_a_id);
        let side_b = team.is_none_or(|t| t == stored.team_b_id);
        if !side_a && !side_b {
            return Err(Refusal::invalid(format!(
                "Dieses {} spielte nicht an diesem Tisch.",
                t.mode.entrant().one()
            )));
        }
        visa_sides(conn, actor, id, stored, side_a, side_b)
    })
}

/// Visas the unvisaed sides of a result and audits it.
fn visa_sides(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    stored: ResultRow,
    side_a: bool,
    side_b: bool,
) -> Result<(), Refusal> {
    {
        let mark = Some((Signer::User(actor.id), now()));
        let visa_a = match stored.visa_a() {
            None if side_a => mark.clone(),
            kept => kept,
        };
        let visa_b = match stored.visa_b() {
            None if side_b => mark,
            kept => kept,
        };
        let updated = results::set_visas(conn, stored.id, visa_a, visa_b)?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Result(ResultAction::Visa),
                entity_id: Some(stored.id.0),
            },
            Some(&stored),
            Some(&updated),
        )?;
        Ok(())
    }
}

/// Visas both teams of every listed table at once (the Kontrolleur's desk), exactly as the
/// confirmation listed them: `(table, result version)`. A table that changed since, or is
/// no longer final, refuses the whole batch, so nothing is visaed unseen.
#[tracing::instrument(skip_all, fields(tournament = %id, passe, tables = tables.len()))]
pub fn visa_tables(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    tables: &[(u32, i32)],
) -> Result<usize, Refusal> {
    guard::require(actor, Permission::Visa)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        guard::round(&t, passe)?;
        let data = tournament_data::load_passe(conn, t.clone(), passe)?;
        let round = t.mode.round();
        // Results without any visa get theirs together (a few statements for a whole
        // Passe); one with a side visaed already keeps it and is visaed on its own.
        let mut unvisaed = Vec::new();
        for &(table, version) in tables {
            let stored = data
                .result_at(passe, table)
                .filter(|r| r.version == version && data.is_final(passe, table))
                .cloned()
                .ok_or_else(|| {
                    Refusal::Conflict(format!(
                        "{round} {passe}, Tisch {table} wurde inzwischen geändert: nichts visiert. Bitte die Liste neu laden."
                    ))
                })?;
            match (stored.visa_a(), stored.visa_b()) {
                (None, None) => unvisaed.push(stored),
                _ => visa_sides(conn, actor, id, stored, true, true)?,
            }
        }
        unvisaed.sort_by_key(|r| r.id);
        let ids: Vec<_> = unvisaed.iter().map(|r| r.id).collect();
        let visaed = results::visa_unvisaed(conn, &ids, &Some((Signer::User(actor.id), now())))?;
        audit::record_many(
            conn,
            actor,
            unvisaed.iter().zip(&visaed).map(|(before, after)| {
                let entry = audit::Entry {
                    tournament: Some(id),
                    event: AuditEvent::Result(ResultAction::Visa),
                    entity_id: Some(before.id.0),
                };
                (entry, Some(before), Some(after))
            }),
        )?;
        Ok(tables.len())
    })
}

/// The final visa of a team's total, given only when every Passe is visiert.
#[tracing::instrument(skip_all, fields(tournament = %id, team = %team))]
pub fn final_visa(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::Visa)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        guard::begin_write(conn, id)?;
        let data = tournament_data::load(conn, id)?;
        let sheets = data.standblaetter();
        let sheet = sheets.iter().find(|s| s.team == team).ok_or_else(|| {
            Refusal::NotFound("Dieses Team gibt es in diesem Turnier nicht.".into())
        })?;
        if let Some(reason) = standblatt::final_visa_refusal(sheet, data.tournament.mode) {
            return Err(Refusal::invalid(reason));
        }
        let before = data.team(team).cloned();
        let after = teams::set_final_visa(conn, team, Some(actor.id))?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                event: AuditEvent::Team(TeamAction::FinalVisa),
                entity_id: Some(team.0),
            },
            before.as_ref(),
            Some(&after),
        )?;
        Ok(())
    })
}
