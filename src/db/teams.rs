//! Teams of a tournament.

use super::Conn;
use super::audit::{self, Entry};
use super::models::{NewTeam, TeamRow, TeamValues};
use super::schema::teams;
use super::tournaments::begin_write;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::role::Actor;
use crate::domain::team::TeamInput;
use crate::domain::team_import::ImportedTeam;
use crate::error::AppError;
use diesel::prelude::*;

pub fn list(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Vec<TeamRow>> {
    teams::table
        .filter(teams::tournament_id.eq(tournament.0))
        .select(TeamRow::as_select())
        .order(teams::startnummer)
        .load(conn)
}

pub fn get(conn: &mut Conn, tournament: TournamentId, team: TeamId) -> Result<TeamRow, AppError> {
    teams::table
        .filter(teams::tournament_id.eq(tournament.0))
        .filter(teams::id.eq(team.0))
        .select(TeamRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound("Dieses Team gibt es in diesem Turnier nicht.".into()))
}

pub fn startnummern(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Vec<u32>> {
    let numbers: Vec<i32> = teams::table
        .filter(teams::tournament_id.eq(tournament.0))
        .select(teams::startnummer)
        .load(conn)?;
    Ok(numbers.into_iter().map(|n| n as u32).collect())
}

fn taken(
    conn: &mut Conn,
    tournament: TournamentId,
    startnummer: u32,
    except: Option<TeamId>,
) -> QueryResult<bool> {
    let mut query = teams::table
        .filter(teams::tournament_id.eq(tournament.0))
        .filter(teams::startnummer.eq(startnummer as i32))
        .into_boxed();
    if let Some(TeamId(id)) = except {
        query = query.filter(teams::id.ne(id));
    }
    Ok(query.count().get_result::<i64>(conn)? > 0)
}

fn values(input: &TeamInput, startnummer: u32) -> TeamValues {
    TeamValues {
        startnummer: startnummer as i32,
        name: input.name.clone(),
        player1: input.player1.clone(),
        player2: input.player2.clone(),
        club: input.club.clone(),
        place: input.place.clone(),
    }
}

/// Teams can be added after the draw only when tables are drawn per Passe.
fn ensure_may_add(tournament: &super::models::TournamentRow) -> Result<(), AppError> {
    if tournament.draw_seed.is_some() && tournament.draw_mode == "fest" {
        return Err(AppError::BadRequest(
            "Die Lose sind gezogen (fester Tischplan): neue Teams sind nur mit «Auslosung pro Passe» möglich.".into(),
        ));
    }
    Ok(())
}

pub enum TeamWriteError {
    StartnummerTaken(u32),
    App(AppError),
}

impl From<AppError> for TeamWriteError {
    fn from(e: AppError) -> Self {
        TeamWriteError::App(e)
    }
}

impl From<diesel::result::Error> for TeamWriteError {
    fn from(e: diesel::result::Error) -> Self {
        TeamWriteError::App(e.into())
    }
}

pub fn create(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    input: &TeamInput,
) -> Result<TeamId, TeamWriteError> {
    conn.immediate_transaction(|conn| {
        let t = begin_write(conn, tournament)?;
        ensure_may_add(&t)?;
        let startnummer = match input.startnummer {
            Some(n) => {
                if taken(conn, tournament, n, None)? {
                    return Err(TeamWriteError::StartnummerTaken(n));
                }
                n
            }
            None => {
                startnummern(conn, tournament)?
                    .into_iter()
                    .max()
                    .unwrap_or(0)
                    + 1
            }
        };
        let row: TeamRow = diesel::insert_into(teams::table)
            .values(NewTeam {
                tournament_id: tournament.0,
                values: values(input, startnummer),
            })
            .returning(TeamRow::as_returning())
            .get_result(conn)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(tournament),
                entity: "team",
                entity_id: Some(row.id),
                action: "create",
            },
            None::<&TeamRow>,
            Some(&row),
        )?;
        Ok(TeamId(row.id))
    })
}

pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    team: TeamId,
    input: &TeamInput,
) -> Result<(), TeamWriteError> {
    conn.immediate_transaction(|conn| {
        begin_write(conn, tournament)?;
        let before = get(conn, tournament, team)?;
        // A Startnummer is never renumbered silently: an empty field keeps the old one.
        let startnummer = input.startnummer.unwrap_or(before.startnummer as u32);
        if taken(conn, tournament, startnummer, Some(team))? {
            return Err(TeamWriteError::StartnummerTaken(startnummer));
        }
        diesel::update(teams::table.find(team.0))
            .set(values(input, startnummer))
            .execute(conn)?;
        let after = get(conn, tournament, team)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(tournament),
                entity: "team",
                entity_id: Some(team.0),
                action: "update",
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}

pub fn delete(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    team: TeamId,
) -> Result<TeamRow, AppError> {
    conn.immediate_transaction(|conn| {
        let t = begin_write(conn, tournament)?;
        if t.draw_seed.is_some() {
            return Err(AppError::BadRequest(
                "Nach der Auslosung kann ein Team nicht mehr gelöscht werden, nur noch zurückgezogen oder disqualifiziert.".into(),
            ));
        }
        let before = get(conn, tournament, team)?;
        diesel::delete(teams::table.find(team.0)).execute(conn)?;
        audit::record(
            conn,
            Some(actor),
            Entry { tournament: Some(tournament), entity: "team", entity_id: Some(team.0), action: "delete" },
            Some(&before),
            None::<&TeamRow>,
        )?;
        Ok(before)
    })
}

/// Writes a whole import in one transaction; any clash rolls everything back.
pub fn import(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    imported: &[ImportedTeam],
) -> Result<usize, TeamWriteError> {
    conn.immediate_transaction(|conn| {
        let t = begin_write(conn, tournament)?;
        ensure_may_add(&t)?;
        for team in imported {
            if taken(conn, tournament, team.startnummer, None)? {
                return Err(TeamWriteError::StartnummerTaken(team.startnummer));
            }
            let row: TeamRow = diesel::insert_into(teams::table)
                .values(NewTeam {
                    tournament_id: tournament.0,
                    values: values(&team.team, team.startnummer),
                })
                .returning(TeamRow::as_returning())
                .get_result(conn)?;
            audit::record(
                conn,
                Some(actor),
                Entry {
                    tournament: Some(tournament),
                    entity: "team",
                    entity_id: Some(row.id),
                    action: "import",
                },
                None::<&TeamRow>,
                Some(&row),
            )?;
        }
        Ok(imported.len())
    })
}
