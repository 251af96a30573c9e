//! Players registered alone ("sucht Partner") in a tournament, until the office draws teams
//! from them.

use super::Conn;
use super::models::SingleRow;
use super::schema::single_registrations as singles;
use crate::domain::ids::{SingleId, TournamentId};
use crate::domain::team::SingleInput;
use diesel::prelude::*;

pub fn list(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Vec<SingleRow>> {
    singles::table
        .filter(singles::tournament_id.eq(tournament))
        .select(SingleRow::as_select())
        .order(singles::id)
        .load(conn)
}

pub fn insert(
    conn: &mut Conn,
    tournament: TournamentId,
    input: &SingleInput,
) -> QueryResult<SingleRow> {
    diesel::insert_into(singles::table)
        .values((
            singles::tournament_id.eq(tournament),
            singles::player.eq(&input.player),
            singles::club.eq(&input.club),
            singles::place.eq(&input.place),
        ))
        .returning(singles::all_columns)
        .get_result(conn)
}

/// Deletes the given players of the tournament; how many there were.
pub fn delete(conn: &mut Conn, tournament: TournamentId, ids: &[SingleId]) -> QueryResult<usize> {
    diesel::delete(
        singles::table
            .filter(singles::tournament_id.eq(tournament))
            .filter(singles::id.eq_any(ids)),
    )
    .execute(conn)
}
