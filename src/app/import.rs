//! Imports: table results from a CSV file, and a whole tournament from its JSON export.
//! Both all or nothing.

use super::result_write::{
    SaveOutcome, TableEntry, finish_result_writes, sheets_before_write, write_checked,
};
use super::{Refusal, guard};
use crate::db::models::SeatRow;
use crate::db::transfer::{self, Export, FORMAT, ImportedResult};
use crate::db::{Conn, audit, results, tournament_data, write_tx};
use crate::domain::draw::DrawMode;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::mode::{Mode, ResultEntry};
use crate::domain::result_import::ImportedTable;
use crate::domain::role::{Actor, Permission};
use crate::domain::team::TeamStatus;
use std::collections::HashMap;

/// Writes an imported set of table results; any table already entered refuses the whole
/// file. A file is not typing: double entry does not apply.
pub fn import_results(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    tables: &[ImportedTable],
) -> Result<usize, Refusal> {
    guard::require(actor, Permission::EnterResults)?;
    write_tx(conn, |conn| {
        let t = guard::open_tournament(conn, id)?;
        if t.mode.facts().entry != ResultEntry::Points {
            return Err(Refusal::invalid(format!(
                "Der CSV-Import gilt für Punkte-Resultate; im {} zählen die Tafeln.",
                t.mode.label()
            )));
        }
        let data = tournament_data::load(conn, id)?;
        let before = sheets_before_write(conn, &data)?;
        for t in tables {
            let entry = TableEntry {
                passe: t.passe,
                table: t.table,
                score: t.score,
                expected_version: None,
                details: None,
            };
            if let SaveOutcome::Conflict(_) = write_checked(conn, actor, &data, &entry)? {
                return Err(Refusal::invalid(format!(
                    "{} {}, Tisch {}: es ist schon ein Resultat erfasst. Nichts wurde importiert.",
                    data.tournament.mode.round(),
                    t.passe,
                    t.table
                )));
            }
        }
        finish_result_writes(conn, id, before.as_deref())?;
        Ok(tables.len())
    })
}

/// Imports a tournament export as a new tournament; all or nothing.
pub fn import_tournament(
    conn: &mut Conn,
    actor: &Actor,
    doc: &Export,
) -> Result<TournamentId, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    if doc.format != FORMAT {
        return Err(Refusal::invalid(format!(
            "Unbekanntes Format «{}» (erwartet {FORMAT}).",
            doc.format
        )));
    }
    let t = &doc.tournament;
    let mode = Mode::from_key(&t.mode)
        .ok_or_else(|| Refusal::invalid(format!("Unbekannter Modus «{}».", t.mode)))?;
    let draw_mode = DrawMode::parse(&t.draw_mode).ok_or_else(|| {
        Refusal::invalid(format!("Unbekannte Art der Auslosung «{}».", t.draw_mode))
    })?;
    write_tx(conn, |conn| {
        let row = transfer::insert_tournament(conn, t, mode, draw_mode)?;
        let id = row.id;
        let mut users_by_name = HashMap::new();
        let mut team_ids: HashMap<i32, TeamId> = HashMap::new();
        for team in &doc.teams {
            let status = TeamStatus::ALL
                .into_iter()
                .find(|s| s.as_str() == team.status)
                .ok_or_else(|| {
                    Refusal::invalid(format!(
                        "Team {}: unbekannter Status «{}».",
                        team.startnummer, team.status
                    ))
                })?;
            let final_visa = match &team.final_visa {
                Some(v) => Some((transfer::user_id(conn, &mut users_by_name, &v.by)?, v.at)),
                None => None,
            };
            let new_id =
                transfer::insert_team(conn, id, team, status, final_visa)?.ok_or_else(|| {
                    Refusal::invalid(format!(
                        "Startnummer {} kommt doppelt vor.",
                        team.startnummer
                    ))
                })?;
            team_ids.insert(team.startnummer, new_id);
        }
        let team = |nr: i32| {
            team_ids
                .get(&nr)
                .copied()
                .ok_or_else(|| Refusal::invalid(format!("Team {nr} fehlt in der Datei.")))
        };
        let mut seat_rows = Vec::with_capacity(doc.seats.len());
        for s in &doc.seats {
            seat_rows.push(SeatRow {
                id: 0,
                tournament_id: id,
                passe: s.passe,
                team_id: team(s.startnummer)?,
                table_no: s.table,
                opponent_id: s.opponent.map(team).transpose()?,
            });
        }
        transfer::insert_seats(conn, &seat_rows)?;
        for r in &doc.results {
            let sum_ok = match mode.table_total(t.spiele_per_passe.max(0) as u32) {
                Some(total) => r.points_a + r.points_b == total as i32,
                None => true,
            };
            if r.points_a < 0 || r.points_b < 0 || !sum_ok {
                return Err(Refusal::invalid(format!(
                    "{} {}, Tisch {}: die Summe stimmt nicht.",
                    mode.round(),
                    r.passe,
                    r.table
                )));
            }
            let mut visa = |v: &Option<transfer::VisaJson>| -> Result<_, Refusal> {
                Ok(match v {
                    Some(v) => Some((transfer::user_id(conn, &mut users_by_name, &v.by)?, v.at)),
                    None => None,
                })
            };
            let (visa_a, visa_b) = (visa(&r.visa_a)?, visa(&r.visa_b)?);
            transfer::insert_result(
                conn,
                ImportedResult {
                    seating: results::Seating {
                        tournament: id,
                        passe: r.passe.max(0) as u32,
                        table: r.table.max(0) as u32,
                        team_a: team(r.team_a)?,
                        team_b: team(r.team_b)?,
                    },
                    json: r,
                    visa_a,
                    visa_b,
                },
            )?;
        }
        transfer::insert_audit(conn, id, &doc.audit)?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                tournament: Some(id),
                entity: "tournament",
                entity_id: Some(id.0),
                action: "import",
            },
            None::<&()>,
            Some(&serde_json::json!({
                "name": t.name,
                "teams": doc.teams.len(),
                "results": doc.results.len(),
            })),
        )?;
        Ok(id)
    })
}
