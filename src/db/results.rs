//! Table result rows (both teams' points in one row, so a result is never half-written)
//! and the entries that wait for their blind confirmation (double entry).

use super::models::{NewResult, PendingEntry, ResultRow, VisaMark};
use super::schema::{pending_entries, results};
use super::teams::{signer_name, signer_user};
use super::{Conn, now};
use crate::db::types::Nat;
use crate::domain::ids::{ResultId, TeamId, TournamentId, UserId};
use crate::domain::result::TableScore;
use diesel::prelude::*;

pub fn at(
    conn: &mut Conn,
    tournament: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<Option<ResultRow>> {
    results::table
        .filter(results::tournament_id.eq(tournament))
        .filter(results::passe.eq(Nat::of(passe)?))
        .filter(results::table_no.eq(Nat::of(table)?))
        .select(ResultRow::as_select())
        .first(conn)
        .optional()
}

pub fn get(conn: &mut Conn, tournament: TournamentId, id: ResultId) -> QueryResult<ResultRow> {
    results::table
        .filter(results::tournament_id.eq(tournament))
        .filter(results::id.eq(id))
        .select(ResultRow::as_select())
        .first(conn)
}

/// Where a new result goes.
pub struct Seating {
    pub tournament: TournamentId,
    pub passe: u32,
    pub table: u32,
    pub team_a: TeamId,
    pub team_b: TeamId,
}

pub fn insert(
    conn: &mut Conn,
    seating: &Seating,
    score: TableScore,
    details: Option<String>,
) -> QueryResult<ResultRow> {
    diesel::insert_into(results::table)
        .values(new_row(seating, score, details)?)
        .returning(results::all_columns)
        .get_result(conn)
}

fn new_row(
    seating: &Seating,
    score: TableScore,
    details: Option<String>,
) -> QueryResult<NewResult> {
    Ok(NewResult {
        tournament_id: seating.tournament,
        passe: Nat::of(seating.passe)?,
        table_no: Nat::of(seating.table)?,
        team_a_id: seating.team_a,
        team_b_id: seating.team_b,
        points_a: Nat::of(score.points_a)?,
        points_b: Nat::of(score.points_b)?,
        matches_a: Nat::of(score.matches_a)?,
        matches_b: Nat::of(score.matches_b)?,
        version: 1,
        details,
    })
}

/// New results of many tables in a few statements (an import), in the order given.
pub fn insert_many(
    conn: &mut Conn,
    rows: &[(Seating, TableScore, Option<String>)],
) -> QueryResult<Vec<ResultRow>> {
    let mut inserted = Vec::with_capacity(rows.len());
    for chunk in rows.chunks(super::audit::BATCH_ROWS) {
        let values: Vec<NewResult> = chunk
            .iter()
            .map(|(seating, score, details)| new_row(seating, *score, details.clone()))
            .collect::<QueryResult<_>>()?;
        let mut rows: Vec<ResultRow> =
            super::on_backend!(conn, |c| diesel::insert_into(results::table)
                .values(&values)
                .returning(results::all_columns)
                .get_results(c))?;
        // RETURNING does not promise the order of a multi-row insert.
        rows.sort_by_key(|r| r.id);
        inserted.extend(rows);
    }
    Ok(inserted)
}

/// The same new visa on both sides of many results that have none yet (a batch of the
/// Kontrolleur's desk); the rows as they are now.
pub fn visa_unvisaed(
    conn: &mut Conn,
    ids: &[ResultId],
    mark: &VisaMark,
) -> QueryResult<Vec<ResultRow>> {
    let mut updated = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(super::audit::BATCH_ROWS) {
        diesel::update(
            results::table
                .filter(results::id.eq_any(chunk))
                .filter(results::visa_a_at.is_null())
                .filter(results::visa_b_at.is_null()),
        )
        .set((
            results::visa_a_by.eq(signer_user(mark)),
            results::visa_a_name.eq(signer_name(mark)),
            results::visa_a_at.eq(mark.as_ref().map(|v| v.1)),
            results::visa_b_by.eq(signer_user(mark)),
            results::visa_b_name.eq(signer_name(mark)),
            results::visa_b_at.eq(mark.as_ref().map(|v| v.1)),
        ))
        .execute(conn)?;
        updated.extend(
            results::table
                .filter(results::id.eq_any(chunk))
                .select(ResultRow::as_select())
                .order(results::id)
                .load(conn)?,
        );
    }
    Ok(updated)
}

/// Replaces the score of the stored result if it still has `version`, removing its visas
/// and counting the version up; None when someone else changed it meanwhile.
pub fn update_if_version(
    conn: &mut Conn,
    id: ResultId,
    version: i32,
    score: TableScore,
    details: Option<String>,
) -> QueryResult<Option<ResultRow>> {
    diesel::update(results::table.find(id).filter(results::version.eq(version)))
        .set((
            results::points_a.eq(Nat::of(score.points_a)?),
            results::points_b.eq(Nat::of(score.points_b)?),
            results::matches_a.eq(Nat::of(score.matches_a)?),
            results::matches_b.eq(Nat::of(score.matches_b)?),
            results::details.eq(details),
            results::visa_a_by.eq(None::<UserId>),
            results::visa_a_name.eq(None::<String>),
            results::visa_a_at.eq(None::<chrono::NaiveDateTime>),
            results::visa_b_by.eq(None::<UserId>),
            results::visa_b_name.eq(None::<String>),
            results::visa_b_at.eq(None::<chrono::NaiveDateTime>),
            results::version.eq(version + 1),
        ))
        .returning(results::all_columns)
        .get_result(conn)
        .optional()
}

pub fn delete(conn: &mut Conn, id: ResultId) -> QueryResult<()> {
    diesel::delete(results::table.find(id)).execute(conn)?;
    Ok(())
}

pub fn set_visas(
    conn: &mut Conn,
    id: ResultId,
    visa_a: VisaMark,
    visa_b: VisaMark,
) -> QueryResult<ResultRow> {
    diesel::update(results::table.find(id))
        .set((
            results::visa_a_by.eq(signer_user(&visa_a)),
            results::visa_a_name.eq(signer_name(&visa_a)),
            results::visa_a_at.eq(visa_a.as_ref().map(|v| v.1)),
            results::visa_b_by.eq(signer_user(&visa_b)),
            results::visa_b_name.eq(signer_name(&visa_b)),
            results::visa_b_at.eq(visa_b.as_ref().map(|v| v.1)),
        ))
        .returning(results::all_columns)
        .get_result(conn)
}

/// Double entry: marks a result as counting because two accounts typed it alike.
pub fn set_confirmed(conn: &mut Conn, id: ResultId) -> QueryResult<ResultRow> {
    diesel::update(results::table.find(id))
        .set(results::confirmed.eq(true))
        .returning(results::all_columns)
        .get_result(conn)
}

fn pending_of(
    tournament: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<pending_entries::BoxedQuery<'static, super::Backend>> {
    Ok(pending_entries::table
        .filter(pending_entries::tournament_id.eq(tournament))
        .filter(pending_entries::passe.eq(Nat::of(passe)?))
        .filter(pending_entries::table_no.eq(Nat::of(table)?))
        .into_boxed())
}

pub fn pending_at(
    conn: &mut Conn,
    tournament: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<Vec<PendingEntry>> {
    pending_of(tournament, passe, table)?
        .select(PendingEntry::as_select())
        .order(pending_entries::id)
        .load(conn)
}

pub fn insert_pending(
    conn: &mut Conn,
    tournament: TournamentId,
    passe: u32,
    table: u32,
    by: UserId,
    score: TableScore,
) -> QueryResult<PendingEntry> {
    diesel::insert_into(pending_entries::table)
        .values(PendingEntry {
            id: 0,
            tournament_id: tournament,
            passe: Nat::of(passe)?,
            table_no: Nat::of(table)?,
            user_id: by,
            points_a: Nat::of(score.points_a)?,
            points_b: Nat::of(score.points_b)?,
            matches_a: Nat::of(score.matches_a)?,
            matches_b: Nat::of(score.matches_b)?,
            created_at: now(),
        })
        .returning(pending_entries::all_columns)
        .get_result(conn)
}

pub fn delete_pending(
    conn: &mut Conn,
    tournament: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<()> {
    diesel::delete(
        pending_entries::table
            .filter(pending_entries::tournament_id.eq(tournament))
            .filter(pending_entries::passe.eq(Nat::of(passe)?))
            .filter(pending_entries::table_no.eq(Nat::of(table)?)),
    )
    .execute(conn)?;
    Ok(())
}

impl PendingEntry {
    pub fn score(&self) -> TableScore {
        TableScore {
            points_a: self.points_a.get(),
            points_b: self.points_b.get(),
            matches_a: self.matches_a.get(),
            matches_b: self.matches_b.get(),
        }
    }
}

impl ResultRow {
    pub fn score(&self) -> TableScore {
        TableScore {
            points_a: self.points_a.get(),
            points_b: self.points_b.get(),
            matches_a: self.matches_a.get(),
            matches_b: self.matches_b.get(),
        }
    }

    pub fn visaed(&self) -> bool {
        self.visa_a_at.is_some() || self.visa_b_at.is_some()
    }
}
