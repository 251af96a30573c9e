//! The schedule: one seat row per team and Passe (table and opponent, or a bye).

use super::Conn;
use super::models::SeatRow;
use super::schema::seats;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::schedule::PasseDraw;
use diesel::prelude::*;

/// The seat rows of one drawn Passe: two per table, one for the bye.
pub fn rows_of(tournament: TournamentId, passe: u32, draw: &PasseDraw<TeamId>) -> Vec<SeatRow> {
    let mut rows = Vec::with_capacity(draw.tables.len() * 2 + 1);
    for table in &draw.tables {
        for (team, opponent) in [(table.team_a, table.team_b), (table.team_b, table.team_a)] {
            rows.push(SeatRow {
                id: 0,
                tournament_id: tournament,
                passe: passe as i32,
                team_id: team,
                table_no: Some(table.number as i32),
                opponent_id: Some(opponent),
            });
        }
    }
    if let Some(bye) = draw.bye {
        rows.push(SeatRow {
            id: 0,
            tournament_id: tournament,
            passe: passe as i32,
            team_id: bye,
            table_no: None,
            opponent_id: None,
        });
    }
    rows
}

pub fn insert(conn: &mut Conn, rows: &[SeatRow]) -> QueryResult<()> {
    for chunk in rows.chunks(500) {
        diesel::insert_into(seats::table)
            .values(chunk)
            .execute(conn)?;
    }
    Ok(())
}

pub fn delete_all(conn: &mut Conn, tournament: TournamentId) -> QueryResult<()> {
    diesel::delete(seats::table.filter(seats::tournament_id.eq(tournament))).execute(conn)?;
    Ok(())
}

/// How many tables a Passe has.
pub fn table_count(conn: &mut Conn, tournament: TournamentId, passe: u32) -> QueryResult<u32> {
    let seated: i64 = seats::table
        .filter(seats::tournament_id.eq(tournament))
        .filter(seats::passe.eq(passe as i32))
        .filter(seats::table_no.is_not_null())
        .count()
        .get_result(conn)?;
    Ok((seated / 2) as u32)
}
