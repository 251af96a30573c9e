//! Results from the table: the tournament's switch and open Passe, the teams' codes, the
//! phones admitted by a code, and the tables' reports.

use super::models::{TableAccessRow, TableReportRow};
use super::schema::{table_access, table_codes, table_entry, table_reports};
use super::{Conn, now};
use crate::db::types::Nat;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::result::TableScore;
use crate::domain::table_code;
use crate::domain::table_report::{Opening, ReportState};
use diesel::prelude::*;

/// Whether table entry is on, and for which Passe (a row: on; its Passe: open).
pub fn opening(conn: &mut Conn, id: TournamentId) -> QueryResult<Opening> {
    let row = table_entry::table
        .find(id)
        .select(table_entry::passe_open)
        .first::<Option<Nat>>(conn)
        .optional()?;
    Ok(match row {
        None => Opening::Off,
        Some(None) => Opening::Closed,
        Some(Some(passe)) => Opening::Open(passe.get()),
    })
}

/// Switches table entry on with a Passe open (or none), or sets the open Passe.
pub fn set(conn: &mut Conn, id: TournamentId, open: Option<u32>) -> QueryResult<()> {
    let open = open.map(Nat::of).transpose()?;
    super::on_backend!(conn, |c| diesel::insert_into(table_entry::table)
        .values((
            table_entry::tournament_id.eq(id),
            table_entry::passe_open.eq(open),
        ))
        .on_conflict(table_entry::tournament_id)
        .do_update()
        .set(table_entry::passe_open.eq(open))
        .execute(c))?;
    Ok(())
}

pub fn switch_off(conn: &mut Conn, id: TournamentId) -> QueryResult<()> {
    diesel::delete(table_entry::table.find(id)).execute(conn)?;
    Ok(())
}

/// Gives every team of the tournament without a code one; the number of new codes.
pub fn ensure_codes(conn: &mut Conn, id: TournamentId, teams: &[TeamId]) -> QueryResult<usize> {
    let have: std::collections::HashSet<TeamId> = table_codes::table
        .filter(table_codes::tournament_id.eq(id))
        .select(table_codes::team_id)
        .load::<TeamId>(conn)?
        .into_iter()
        .collect();
    let new: Vec<(TeamId, String)> = teams
        .iter()
        .filter(|t| !have.contains(t))
        .map(|team| (*team, table_code::generate()))
        .collect();
    put_codes(conn, id, &new)?;
    Ok(new.len())
}

/// Stores given codes (an imported tournament keeps its printed codes).
pub fn put_codes(conn: &mut Conn, id: TournamentId, codes: &[(TeamId, String)]) -> QueryResult<()> {
    let at = now();
    let rows: Vec<_> = codes
        .iter()
        .map(|(team, code)| {
            (
                table_codes::team_id.eq(*team),
                table_codes::tournament_id.eq(id),
                table_codes::code.eq(code.as_str()),
                table_codes::created_at.eq(at),
            )
        })
        .collect();
    for chunk in rows.chunks(500) {
        super::on_backend!(conn, |c| diesel::insert_into(table_codes::table)
            .values(chunk)
            .execute(c))?;
    }
    Ok(())
}

/// Every code of the tournament.
pub fn codes(
    conn: &mut Conn,
    id: TournamentId,
) -> QueryResult<std::collections::HashMap<TeamId, String>> {
    Ok(table_codes::table
        .filter(table_codes::tournament_id.eq(id))
        .select((table_codes::team_id, table_codes::code))
        .load::<(TeamId, String)>(conn)?
        .into_iter()
        .collect())
}

pub fn code_of(conn: &mut Conn, team: TeamId) -> QueryResult<Option<String>> {
    table_codes::table
        .find(team)
        .select(table_codes::code)
        .first(conn)
        .optional()
}

/// A new code for the team; the phones admitted by the old one are sent away.
pub fn replace_code(conn: &mut Conn, id: TournamentId, team: TeamId) -> QueryResult<()> {
    diesel::delete(table_codes::table.find(team)).execute(conn)?;
    diesel::delete(table_access::table.filter(table_access::team_id.eq(team))).execute(conn)?;
    ensure_codes(conn, id, &[team])?;
    Ok(())
}

/// A team's code and its admitted phones are removed with the team.
pub fn forget_team(conn: &mut Conn, team: TeamId) -> QueryResult<()> {
    diesel::delete(table_codes::table.find(team)).execute(conn)?;
    diesel::delete(table_access::table.filter(table_access::team_id.eq(team))).execute(conn)?;
    Ok(())
}

/// What the database keeps of a phone's token: its hash (as for sessions).
fn stored_token(token: &str) -> String {
    use blake2::{Blake2s256, Digest};
    Blake2s256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How long a phone stays admitted (the cookie's lifetime too): a tournament day.
pub const ACCESS_HOURS: i64 = 24;

/// Admits a phone for a team: stores the token's hash with a CSRF token for its forms.
/// Admissions older than a day are removed on the way.
pub fn admit(
    conn: &mut Conn,
    id: TournamentId,
    team: TeamId,
    token: &str,
    csrf: &str,
    address: &str,
) -> QueryResult<()> {
    diesel::delete(
        table_access::table
            .filter(table_access::created_at.lt(now() - chrono::Duration::hours(ACCESS_HOURS))),
    )
    .execute(conn)?;
    diesel::insert_into(table_access::table)
        .values((
            table_access::token.eq(stored_token(token)),
            table_access::tournament_id.eq(id),
            table_access::team_id.eq(team),
            table_access::csrf_token.eq(csrf),
            table_access::address.eq(address),
            table_access::created_at.eq(now()),
        ))
        .execute(conn)?;
    Ok(())
}

/// The phone holding this token, if it is admitted for this tournament.
pub fn access(
    conn: &mut Conn,
    id: TournamentId,
    token: &str,
) -> QueryResult<Option<TableAccessRow>> {
    table_access::table
        .find(stored_token(token))
        .filter(table_access::tournament_id.eq(id))
        .filter(table_access::created_at.ge(now() - chrono::Duration::hours(ACCESS_HOURS)))
        .select(TableAccessRow::as_select())
        .first(conn)
        .optional()
}

pub fn report_at(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> QueryResult<Option<TableReportRow>> {
    table_reports::table
        .filter(table_reports::tournament_id.eq(id))
        .filter(table_reports::passe.eq(Nat::of(passe)?))
        .filter(table_reports::table_no.eq(Nat::of(table)?))
        .select(TableReportRow::as_select())
        .first(conn)
        .optional()
}

pub fn reports_of_passe(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
) -> QueryResult<Vec<TableReportRow>> {
    table_reports::table
        .filter(table_reports::tournament_id.eq(id))
        .filter(table_reports::passe.eq(Nat::of(passe)?))
        .select(TableReportRow::as_select())
        .order(table_reports::table_no)
        .load(conn)
}

/// What a team reports: the score, its state (a Tafel may still be running) and, in the
/// Jassmarathon, the Tafel behind it (JSON of `transfer::TafelDraft`).
pub struct Reporting {
    pub score: TableScore,
    pub state: ReportState,
    /// What the table keeps beyond two numbers: the Jassmarathon Tafel, or the Differenzler's
    /// sheet of four differences (JSON).
    pub tafel: Option<String>,
}

/// A table's first report, or a new one after the office took the old one over.
pub fn put_report(
    conn: &mut Conn,
    id: TournamentId,
    (passe, table): (u32, u32),
    reporter: TeamId,
    reporting: Reporting,
) -> QueryResult<TableReportRow> {
    let score = reporting.score;
    diesel::delete(
        table_reports::table
            .filter(table_reports::tournament_id.eq(id))
            .filter(table_reports::passe.eq(Nat::of(passe)?))
            .filter(table_reports::table_no.eq(Nat::of(table)?)),
    )
    .execute(conn)?;
    diesel::insert_into(table_reports::table)
        .values((
            table_reports::tournament_id.eq(id),
            table_reports::passe.eq(Nat::of(passe)?),
            table_reports::table_no.eq(Nat::of(table)?),
            table_reports::reporter_id.eq(reporter),
            table_reports::points_a.eq(Nat::of(score.points_a)?),
            table_reports::points_b.eq(Nat::of(score.points_b)?),
            table_reports::state.eq(reporting.state),
            table_reports::tafel.eq(reporting.tafel),
            table_reports::version.eq(1),
            table_reports::updated_at.eq(now()),
        ))
        .returning(table_reports::all_columns)
        .get_result(conn)
}

/// The reporting team changes its figures or its Tafel (before the other confirmed).
pub fn change_report(
    conn: &mut Conn,
    report: &TableReportRow,
    reporting: Reporting,
) -> QueryResult<TableReportRow> {
    let score = reporting.score;
    diesel::update(table_reports::table.find(report.id))
        .set((
            table_reports::points_a.eq(Nat::of(score.points_a)?),
            table_reports::points_b.eq(Nat::of(score.points_b)?),
            table_reports::state.eq(reporting.state),
            table_reports::tafel.eq(reporting.tafel),
            table_reports::version.eq(report.version + 1),
            table_reports::updated_at.eq(now()),
        ))
        .returning(table_reports::all_columns)
        .get_result(conn)
}

/// What the other team (or the office) made of a report.
pub struct Answer<'a> {
    pub state: ReportState,
    pub by: Option<TeamId>,
    pub score: Option<TableScore>,
    pub note: Option<&'a str>,
}

pub fn answer(
    conn: &mut Conn,
    report: &TableReportRow,
    answer: Answer<'_>,
) -> QueryResult<TableReportRow> {
    // The answer is kept beside the report: the office's decision shows both versions.
    let keep = |new: Option<Nat>, old: Option<Nat>| new.or(old);
    diesel::update(table_reports::table.find(report.id))
        .set((
            table_reports::state.eq(answer.state),
            table_reports::answer_by.eq(answer.by.or(report.answer_by)),
            table_reports::answer_points_a.eq(keep(
                answer.score.map(|s| Nat::of(s.points_a)).transpose()?,
                report.answer_points_a,
            )),
            table_reports::answer_points_b.eq(keep(
                answer.score.map(|s| Nat::of(s.points_b)).transpose()?,
                report.answer_points_b,
            )),
            table_reports::note.eq(answer.note.or(report.note.as_deref())),
            table_reports::version.eq(report.version + 1),
            table_reports::updated_at.eq(now()),
        ))
        .returning(table_reports::all_columns)
        .get_result(conn)
}

/// Reports of a Passe go with its draw (a new draw of the Passe starts without them).
pub fn forget_reports(conn: &mut Conn, id: TournamentId, passe: Option<u32>) -> QueryResult<()> {
    let mut query = diesel::delete(table_reports::table)
        .filter(table_reports::tournament_id.eq(id))
        .into_boxed();
    if let Some(passe) = passe {
        query = query.filter(table_reports::passe.eq(Nat::of(passe)?));
    }
    query.execute(conn)?;
    Ok(())
}
