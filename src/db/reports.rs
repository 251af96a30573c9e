//! The halls a series trusts and the reports it took.

use super::Conn;
use super::schema::{series_halls, series_reports};
use super::types::Nat;
use crate::domain::ids::{SeriesId, TournamentId};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A hall a series accepts reports from.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct Hall {
    pub public_key: String,
    pub hall_name: String,
}

pub fn halls(conn: &mut Conn, series: SeriesId) -> QueryResult<Vec<Hall>> {
    series_halls::table
        .filter(series_halls::series_id.eq(series))
        .select((series_halls::public_key, series_halls::hall_name))
        .order(series_halls::hall_name)
        .load(conn)
}

pub fn add_hall(conn: &mut Conn, series: SeriesId, hall: &Hall) -> QueryResult<()> {
    diesel::delete(
        series_halls::table
            .filter(series_halls::series_id.eq(series))
            .filter(series_halls::public_key.eq(&hall.public_key)),
    )
    .execute(conn)?;
    diesel::insert_into(series_halls::table)
        .values((
            series_halls::series_id.eq(series),
            series_halls::public_key.eq(&hall.public_key),
            series_halls::hall_name.eq(&hall.hall_name),
        ))
        .execute(conn)?;
    Ok(())
}

/// A report a series took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakenReport {
    pub uuid: String,
    pub revision: u32,
    pub tournament: TournamentId,
    pub public_key: String,
    pub digest: String,
    pub imported_at: NaiveDateTime,
    pub summary: String,
}

type Row = (
    SeriesId,
    String,
    Nat,
    TournamentId,
    String,
    String,
    NaiveDateTime,
    String,
);

fn taken(row: Row) -> TakenReport {
    let (_, uuid, revision, tournament, public_key, digest, imported_at, summary) = row;
    TakenReport {
        uuid,
        revision: revision.get(),
        tournament,
        public_key,
        digest,
        imported_at,
        summary,
    }
}

pub fn find(conn: &mut Conn, series: SeriesId, uuid: &str) -> QueryResult<Option<TakenReport>> {
    let row: Option<Row> = series_reports::table
        .find((series, uuid))
        .select(series_reports::all_columns)
        .first(conn)
        .optional()?;
    Ok(row.map(taken))
}

/// The reports of a series, the latest first.
pub fn list(conn: &mut Conn, series: SeriesId) -> QueryResult<Vec<TakenReport>> {
    let rows: Vec<Row> = series_reports::table
        .filter(series_reports::series_id.eq(series))
        .select(series_reports::all_columns)
        .order(series_reports::imported_at.desc())
        .load(conn)?;
    Ok(rows.into_iter().map(taken).collect())
}

/// Every report taken anywhere whose digest begins so (the verification page's question;
/// `prefix` is hex digits only).
pub fn with_digest(conn: &mut Conn, prefix: &str) -> QueryResult<Vec<TakenReport>> {
    let rows: Vec<Row> = series_reports::table
        .filter(series_reports::digest.like(format!("{prefix}%")))
        .select(series_reports::all_columns)
        .load(conn)?;
    Ok(rows.into_iter().map(taken).collect())
}

pub fn put(conn: &mut Conn, series: SeriesId, r: &TakenReport) -> QueryResult<()> {
    diesel::delete(series_reports::table.find((series, &r.uuid))).execute(conn)?;
    diesel::insert_into(series_reports::table)
        .values((
            series_reports::series_id.eq(series),
            series_reports::uuid.eq(&r.uuid),
            series_reports::revision.eq(Nat::of(r.revision)?),
            series_reports::tournament_id.eq(r.tournament),
            series_reports::public_key.eq(&r.public_key),
            series_reports::digest.eq(&r.digest),
            series_reports::imported_at.eq(r.imported_at),
            series_reports::summary.eq(&r.summary),
        ))
        .execute(conn)?;
    Ok(())
}

/// How long a report waits for the office's choice.
const KEEP_MINUTES: i64 = 60;

/// Keeps a report until the office has chosen its ambiguous players; the token the
/// confirmation presents.
pub fn keep(
    conn: &mut Conn,
    series: SeriesId,
    user: crate::domain::ids::UserId,
    data: &[u8],
) -> QueryResult<String> {
    use super::schema::pending_reports;
    let token = super::users::random_token();
    let old = super::now() - chrono::Duration::minutes(KEEP_MINUTES);
    diesel::delete(pending_reports::table.filter(pending_reports::created_at.lt(old)))
        .execute(conn)?;
    diesel::insert_into(pending_reports::table)
        .values((
            pending_reports::token.eq(&token),
            pending_reports::series_id.eq(series),
            pending_reports::user_id.eq(user),
            pending_reports::created_at.eq(super::now()),
            pending_reports::data.eq(data),
        ))
        .execute(conn)?;
    Ok(token)
}

/// The kept report of this user and series, taken (once); None when gone or too old.
pub fn take_kept(
    conn: &mut Conn,
    series: SeriesId,
    user: crate::domain::ids::UserId,
    token: &str,
) -> QueryResult<Option<Vec<u8>>> {
    use super::schema::pending_reports;
    let old = super::now() - chrono::Duration::minutes(KEEP_MINUTES);
    let data: Option<Vec<u8>> = pending_reports::table
        .filter(pending_reports::token.eq(token))
        .filter(pending_reports::series_id.eq(series))
        .filter(pending_reports::user_id.eq(user))
        .filter(pending_reports::created_at.ge(old))
        .select(pending_reports::data)
        .first(conn)
        .optional()?;
    diesel::delete(pending_reports::table.filter(pending_reports::token.eq(token)))
        .execute(conn)?;
    Ok(data)
}
