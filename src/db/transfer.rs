//! A whole tournament as one JSON document (teams, schedule, results, visas,
//! disqualifications, audit), free of database ids so that it imports into any instance.
//! This is also the path between SQLite and a future PostgreSQL backend.

use super::audit::{self, Entry};
use super::models::{AuditRow, NewResult, SeatRow, TournamentRow};
use super::schema::{audit_log, results, seats, teams, tournaments, users};
use super::{Conn, now};
use crate::domain::ids::TournamentId;
use crate::domain::role::{Actor, Role};
use crate::error::AppError;
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

pub const FORMAT: &str = "jassturnier-turnier-1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Export {
    pub format: String,
    pub tournament: TournamentJson,
    pub teams: Vec<TeamJson>,
    pub seats: Vec<SeatJson>,
    pub results: Vec<ResultJson>,
    pub audit: Vec<AuditJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentJson {
    pub name: String,
    pub date: NaiveDate,
    pub location: String,
    pub mode: String,
    pub passen: i32,
    pub spiele_per_passe: i32,
    pub pauschale: i32,
    pub closed: bool,
    pub public: bool,
    pub draw_mode: String,
    pub draw_seed: Option<i64>,
    pub double_entry: bool,
    pub double_entry_same_user: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VisaJson {
    pub by: String,
    pub at: NaiveDateTime,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TeamJson {
    pub startnummer: i32,
    pub name: Option<String>,
    pub player1: String,
    pub player2: String,
    pub club: Option<String>,
    pub place: Option<String>,
    pub los: Option<i32>,
    pub status: String,
    pub out_passe: Option<i32>,
    pub out_reason: Option<String>,
    pub final_visa: Option<VisaJson>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatJson {
    pub passe: i32,
    pub startnummer: i32,
    pub table: Option<i32>,
    pub opponent: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultJson {
    pub passe: i32,
    pub table: i32,
    pub team_a: i32,
    pub team_b: i32,
    pub points_a: i32,
    pub points_b: i32,
    pub matches_a: i32,
    pub matches_b: i32,
    pub visa_a: Option<VisaJson>,
    pub visa_b: Option<VisaJson>,
    pub version: i32,
    #[serde(default)]
    pub details: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditJson {
    pub at: NaiveDateTime,
    pub username: String,
    pub entity: String,
    pub entity_id: Option<i32>,
    pub action: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

pub fn export(conn: &mut Conn, id: TournamentId) -> Result<Export, AppError> {
    let data = super::results::load(conn, id)?;
    let t = &data.tournament;
    let number: HashMap<i32, i32> = data
        .teams
        .iter()
        .map(|team| (team.id, team.startnummer))
        .collect();
    let nr = |team: i32| number.get(&team).copied().unwrap_or_default();
    let visa = |by: Option<i32>, at: Option<NaiveDateTime>| match (by, at) {
        (Some(by), Some(at)) => Some(VisaJson {
            by: data.usernames.get(&by).cloned().unwrap_or_default(),
            at,
        }),
        _ => None,
    };
    let audit: Vec<AuditRow> = audit_log::table
        .filter(audit_log::tournament_id.eq(id.0))
        .select(AuditRow::as_select())
        .order(audit_log::id)
        .load(conn)?;
    Ok(Export {
        format: FORMAT.into(),
        tournament: TournamentJson {
            name: t.name.clone(),
            date: t.date,
            location: t.location.clone(),
            mode: t.mode.clone(),
            passen: t.passen,
            spiele_per_passe: t.spiele_per_passe,
            pauschale: t.pauschale,
            closed: t.closed,
            public: t.public,
            draw_mode: t.draw_mode.clone(),
            draw_seed: t.draw_seed,
            double_entry: t.double_entry,
            double_entry_same_user: t.double_entry_same_user,
        },
        teams: data
            .teams
            .iter()
            .map(|team| TeamJson {
                startnummer: team.startnummer,
                name: team.name.clone(),
                player1: team.player1.clone(),
                player2: team.player2.clone(),
                club: team.club.clone(),
                place: team.place.clone(),
                los: team.los,
                status: team.status.clone(),
                out_passe: team.out_passe,
                out_reason: team.out_reason.clone(),
                final_visa: visa(team.final_visa_by, team.final_visa_at),
            })
            .collect(),
        seats: {
            let mut seats: Vec<SeatJson> = data
                .seats
                .iter()
                .map(|s| SeatJson {
                    passe: s.passe,
                    startnummer: nr(s.team_id),
                    table: s.table_no,
                    opponent: s.opponent_id.map(nr),
                })
                .collect();
            seats.sort_by_key(|s| (s.passe, s.startnummer));
            seats
        },
        results: data
            .results
            .iter()
            .map(|r| ResultJson {
                passe: r.passe,
                table: r.table_no,
                team_a: nr(r.team_a_id),
                team_b: nr(r.team_b_id),
                points_a: r.points_a,
                points_b: r.points_b,
                matches_a: r.matches_a,
                matches_b: r.matches_b,
                visa_a: visa(r.visa_a_by, r.visa_a_at),
                visa_b: visa(r.visa_b_by, r.visa_b_at),
                version: r.version,
                details: r.details.clone(),
            })
            .collect(),
        audit: audit
            .into_iter()
            .map(|a| AuditJson {
                at: a.at,
                username: a.username,
                entity: a.entity,
                entity_id: a.entity_id,
                action: a.action,
                before: a.before,
                after: a.after,
            })
            .collect(),
    })
}

/// The user of that name; Kontrolleure known only from the file get a locked account,
/// so their visas keep their name.
fn user_id(conn: &mut Conn, cache: &mut HashMap<String, i32>, name: &str) -> QueryResult<i32> {
    if let Some(id) = cache.get(name) {
        return Ok(*id);
    }
    let found: Option<i32> = users::table
        .filter(users::username.eq(name))
        .select(users::id)
        .first(conn)
        .optional()?;
    let id = match found {
        Some(id) => id,
        None => diesel::insert_into(users::table)
            .values((
                users::username.eq(name),
                users::password_hash.eq("!"),
                users::role.eq(Role::Kontrolleur.as_str()),
                users::active.eq(false),
                users::created_at.eq(now()),
            ))
            .returning(users::id)
            .get_result(conn)?,
    };
    cache.insert(name.to_string(), id);
    Ok(id)
}

/// Imports a tournament as a new one; all or nothing.
pub fn import(conn: &mut Conn, actor: &Actor, doc: &Export) -> Result<TournamentId, AppError> {
    if doc.format != FORMAT {
        return Err(AppError::BadRequest(format!(
            "Unbekanntes Format «{}» (erwartet {FORMAT}).",
            doc.format
        )));
    }
    conn.immediate_transaction(|conn| {
        let t = &doc.tournament;
        let row: TournamentRow = diesel::insert_into(tournaments::table)
            .values((
                tournaments::name.eq(&t.name),
                tournaments::date.eq(t.date),
                tournaments::location.eq(&t.location),
                tournaments::mode.eq(&t.mode),
                tournaments::passen.eq(t.passen),
                tournaments::spiele_per_passe.eq(t.spiele_per_passe),
                tournaments::pauschale.eq(t.pauschale),
                tournaments::closed.eq(t.closed),
                tournaments::public.eq(t.public),
                tournaments::draw_mode.eq(&t.draw_mode),
                tournaments::draw_seed.eq(t.draw_seed),
                tournaments::double_entry.eq(t.double_entry),
                tournaments::double_entry_same_user.eq(t.double_entry_same_user),
                tournaments::created_at.eq(now()),
            ))
            .returning(TournamentRow::as_returning())
            .get_result(conn)?;
        let id = TournamentId(row.id);
        let mut users_by_name = HashMap::new();
        let mut team_ids: HashMap<i32, i32> = HashMap::new();
        for team in &doc.teams {
            let (visa_by, visa_at) = match &team.final_visa {
                Some(v) => (Some(user_id(conn, &mut users_by_name, &v.by)?), Some(v.at)),
                None => (None, None),
            };
            let new_id: i32 = diesel::insert_into(teams::table)
                .values((
                    teams::tournament_id.eq(id.0),
                    teams::startnummer.eq(team.startnummer),
                    teams::name.eq(&team.name),
                    teams::player1.eq(&team.player1),
                    teams::player2.eq(&team.player2),
                    teams::club.eq(&team.club),
                    teams::place.eq(&team.place),
                    teams::los.eq(team.los),
                    teams::status.eq(&team.status),
                    teams::out_passe.eq(team.out_passe),
                    teams::out_reason.eq(&team.out_reason),
                    teams::final_visa_by.eq(visa_by),
                    teams::final_visa_at.eq(visa_at),
                ))
                .returning(teams::id)
                .get_result(conn)
                .map_err(|_| AppError::BadRequest(format!("Startnummer {} kommt doppelt vor.", team.startnummer)))?;
            team_ids.insert(team.startnummer, new_id);
        }
        let team = |nr: i32| team_ids.get(&nr).copied().ok_or_else(|| AppError::BadRequest(format!("Team {nr} fehlt in der Datei.")));
        let mut seat_rows = Vec::with_capacity(doc.seats.len());
        for s in &doc.seats {
            seat_rows.push(SeatRow {
                id: 0,
                tournament_id: id.0,
                passe: s.passe,
                team_id: team(s.startnummer)?,
                table_no: s.table,
                opponent_id: s.opponent.map(team).transpose()?,
            });
        }
        for chunk in seat_rows.chunks(500) {
            diesel::insert_into(seats::table).values(chunk).execute(conn)?;
        }
        for r in &doc.results {
            let points_rule = t.mode != "jassmarathon";
            if r.points_a < 0 || r.points_b < 0 || (points_rule && r.points_a + r.points_b != 157 * t.spiele_per_passe) {
                return Err(AppError::BadRequest(format!("Passe {}, Tisch {}: die Summe ist nicht 157 × Spiele.", r.passe, r.table)));
            }
            let inserted: i32 = diesel::insert_into(results::table)
                .values(NewResult {
                    tournament_id: id.0,
                    passe: r.passe,
                    table_no: r.table,
                    team_a_id: team(r.team_a)?,
                    team_b_id: team(r.team_b)?,
                    points_a: r.points_a,
                    points_b: r.points_b,
                    matches_a: r.matches_a,
                    matches_b: r.matches_b,
                    version: r.version,
                    details: r.details.clone(),
                })
                .returning(results::id)
                .get_result(conn)?;
            for (visa, by_col, at_col) in [(&r.visa_a, true, true), (&r.visa_b, false, false)] {
                let Some(v) = visa else { continue };
                let by = user_id(conn, &mut users_by_name, &v.by)?;
                let target = results::table.find(inserted);
                if by_col && at_col {
                    diesel::update(target).set((results::visa_a_by.eq(by), results::visa_a_at.eq(v.at))).execute(conn)?;
                } else {
                    diesel::update(target).set((results::visa_b_by.eq(by), results::visa_b_at.eq(v.at))).execute(conn)?;
                }
            }
        }
        for a in &doc.audit {
            let user: Option<i32> = users::table.filter(users::username.eq(&a.username)).select(users::id).first(conn).optional()?;
            diesel::insert_into(audit_log::table)
                .values((
                    audit_log::at.eq(a.at),
                    audit_log::user_id.eq(user),
                    audit_log::username.eq(&a.username),
                    audit_log::tournament_id.eq(id.0),
                    audit_log::entity.eq(&a.entity),
                    audit_log::entity_id.eq(a.entity_id),
                    audit_log::action.eq(&a.action),
                    audit_log::before.eq(&a.before),
                    audit_log::after.eq(&a.after),
                ))
                .execute(conn)?;
        }
        audit::record(
            conn,
            Some(actor),
            Entry { tournament: Some(id), entity: "tournament", entity_id: Some(id.0), action: "import" },
            None::<&()>,
            Some(&serde_json::json!({ "name": t.name, "teams": doc.teams.len(), "results": doc.results.len() })),
        )?;
        Ok(id)
    })
}
