//! Uploaded files between their preview and the confirmation.

use super::Lock;
use super::schema::pending_uploads;
use super::{Conn, now};
use crate::domain::ids::{TournamentId, UserId};
use diesel::prelude::*;

/// How long a preview can be confirmed.
const KEEP_MINUTES: i64 = 60;

/// Keeps a file for its confirmation; the token the confirmation presents.
pub fn keep(
    conn: &mut Conn,
    tournament: TournamentId,
    user: UserId,
    data: &[u8],
) -> QueryResult<String> {
    let token = super::users::random_token();
    super::write_tx(conn, Lock::Tournament(tournament), |conn| {
        diesel::delete(pending_uploads::table.filter(
            pending_uploads::created_at.lt(now() - chrono::Duration::minutes(KEEP_MINUTES)),
        ))
        .execute(conn)?;
        // One pending file per user and tournament: a new preview replaces the last.
        diesel::delete(
            pending_uploads::table
                .filter(pending_uploads::tournament_id.eq(tournament))
                .filter(pending_uploads::user_id.eq(user)),
        )
        .execute(conn)?;
        diesel::insert_into(pending_uploads::table)
            .values((
                pending_uploads::token.eq(&token),
                pending_uploads::tournament_id.eq(tournament),
                pending_uploads::user_id.eq(user),
                pending_uploads::created_at.eq(now()),
                pending_uploads::data.eq(data),
            ))
            .execute(conn)
    })?;
    Ok(token)
}

/// The kept file of this user and tournament, taken (it cannot be confirmed twice); None
/// when there is none or it is too old.
pub fn take(
    conn: &mut Conn,
    tournament: TournamentId,
    user: UserId,
    token: &str,
) -> QueryResult<Option<Vec<u8>>> {
    super::write_tx(conn, Lock::Tournament(tournament), |conn| {
        let of_token = pending_uploads::table
            .filter(pending_uploads::token.eq(token))
            .filter(pending_uploads::tournament_id.eq(tournament))
            .filter(pending_uploads::user_id.eq(user))
            .filter(
                pending_uploads::created_at.ge(now() - chrono::Duration::minutes(KEEP_MINUTES)),
            );
        let data: Option<Vec<u8>> = of_token
            .select(pending_uploads::data)
            .first(conn)
            .optional()?;
        diesel::delete(pending_uploads::table.filter(pending_uploads::token.eq(token)))
            .execute(conn)?;
        Ok(data)
    })
}
