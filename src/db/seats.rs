//! The schedule: one seat row per team and Passe (table and opponent, or a bye).

use super::Conn;
use super::models::SeatRow;
use super::schema::seats;
use crate::db::types::{Nat, OutOfRange};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::schedule::PasseDraw;
use crate::domain::sitz::Sitz;
use diesel::prelude::*;

/// The seat rows of one drawn Passe: two per table, one for the bye.
pub fn rows_of(
    tournament: TournamentId,
    passe: u32,
    draw: &PasseDraw<TeamId>,
) -> QueryResult<Vec<SeatRow>> {
    let passe = Nat::of(passe)?;
    let mut rows = Vec::with_capacity(draw.tables.len() * 2 + 1);
    for table in &draw.tables {
        for (team, opponent) in [(table.team_a, table.team_b), (table.team_b, table.team_a)] {
            rows.push(SeatRow {
                id: 0,
                tournament_id: tournament,
                passe,
                team_id: team,
                table_no: Some(Nat::of(table.number)?),
                opponent_id: Some(opponent),
                partner_id: None,
                position: None,
            });
        }
    }
    if let Some(bye) = draw.bye {
        rows.push(SeatRow {
            id: 0,
            tournament_id: tournament,
            passe,
            team_id: bye,
            table_no: None,
            opponent_id: None,
            partner_id: None,
            position: None,
        });
    }
    Ok(rows)
}

/// The seat rows of one drawn Einzelschieber Passe: four per table (seats A1, A2, B1, B2 in
/// that order, table numbers from 1), one per spielfrei player.
pub fn rows_of_einzel(
    tournament: TournamentId,
    passe: u32,
    tables: &[[TeamId; 4]],
    spielfrei: &[TeamId],
) -> QueryResult<Vec<SeatRow>> {
    let passe = Nat::of(passe)?;
    let mut rows = Vec::with_capacity(tables.len() * 4 + spielfrei.len());
    for (number, table) in tables.iter().enumerate() {
        for (seat, sitz) in Sitz::ALL.into_iter().enumerate() {
            // The result of a side is filed under its first seat: A1 and B1.
            let other_side_first = if seat < 2 { table[2] } else { table[0] };
            rows.push(SeatRow {
                id: 0,
                tournament_id: tournament,
                passe,
                team_id: table[seat],
                table_no: Some(Nat::of_usize(number + 1)?),
                opponent_id: Some(other_side_first),
                partner_id: Some(table[seat ^ 1]),
                position: Some(sitz),
            });
        }
    }
    for &player in spielfrei {
        rows.push(SeatRow {
            id: 0,
            tournament_id: tournament,
            passe,
            team_id: player,
            table_no: None,
            opponent_id: None,
            partner_id: None,
            position: None,
        });
    }
    Ok(rows)
}

pub fn insert(conn: &mut Conn, rows: &[SeatRow]) -> QueryResult<()> {
    for chunk in rows.chunks(500) {
        super::on_backend!(conn, |c| diesel::insert_into(seats::table)
            .values(chunk)
            .execute(c))?;
    }
    Ok(())
}

pub fn delete_all(conn: &mut Conn, tournament: TournamentId) -> QueryResult<()> {
    diesel::delete(seats::table.filter(seats::tournament_id.eq(tournament))).execute(conn)?;
    Ok(())
}

/// Einzelschieber: the player at the first seat of this player's side in a Passe (himself
/// at A1 or B1, his partner at A2 or B2); None for a team or a player without a seat.
pub fn first_of_side(
    conn: &mut Conn,
    tournament: TournamentId,
    passe: u32,
    player: TeamId,
) -> QueryResult<Option<TeamId>> {
    let seat: Option<SeatRow> = seats::table
        .filter(seats::tournament_id.eq(tournament))
        .filter(seats::passe.eq(Nat::of(passe)?))
        .filter(seats::team_id.eq(player))
        .select(SeatRow::as_select())
        .first(conn)
        .optional()?;
    Ok(seat.and_then(|s| match s.position {
        Some(sitz) if !sitz.is_first() => s.partner_id,
        Some(_) => Some(player),
        None => None,
    }))
}

/// How many tables a Passe has.
/// The table a team (player) sits at in a Passe; None when spielfrei or not drawn.
pub fn table_of(
    conn: &mut Conn,
    tournament: TournamentId,
    passe: u32,
    team: TeamId,
) -> QueryResult<Option<u32>> {
    Ok(seats::table
        .filter(seats::tournament_id.eq(tournament))
        .filter(seats::passe.eq(Nat::of(passe)?))
        .filter(seats::team_id.eq(team))
        .select(seats::table_no)
        .first::<Option<Nat>>(conn)
        .optional()?
        .flatten()
        .map(Nat::get))
}

/// The Passen drawn so far, in order.
pub fn drawn_passen(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Vec<u32>> {
    let passen: Vec<Nat> = seats::table
        .filter(seats::tournament_id.eq(tournament))
        .select(seats::passe)
        .distinct()
        .order(seats::passe)
        .load(conn)?;
    Ok(passen.into_iter().map(Nat::get).collect())
}

pub fn table_count(conn: &mut Conn, tournament: TournamentId, passe: u32) -> QueryResult<u32> {
    let tables: i64 = seats::table
        .filter(seats::tournament_id.eq(tournament))
        .filter(seats::passe.eq(Nat::of(passe)?))
        .select(diesel::dsl::count(seats::table_no).aggregate_distinct())
        .get_result(conn)?;
    Ok(u32::try_from(tables).map_err(|_| OutOfRange(tables.into()))?)
}
