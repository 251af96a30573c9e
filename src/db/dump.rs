//! The whole database as text, for checks that a refused request wrote nothing.

use super::Conn;
use super::models::{
    AuditRow, PendingEntry, PersonRow, ResultRow, SeatRow, SingleRow, TableReportRow, TeamRow,
    TournamentRow, UserRow,
};
use super::schema::{
    audit_log, instance, pending_entries, persons, results, seats, series, series_halls,
    series_reports, series_tournaments, single_registrations, table_codes, table_entry,
    table_reports, team_categories, teams, tournaments, users,
};
use diesel::prelude::*;

/// Every row of every domain table (sessions aside), for checks that a refused request
/// wrote nothing.
pub fn dump(conn: &mut Conn) -> diesel::QueryResult<String> {
    let mut out = String::new();
    out += &format!(
        "{:?}\n",
        users::table
            .select(UserRow::as_select())
            .order(users::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        tournaments::table
            .select(TournamentRow::as_select())
            .order(tournaments::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        teams::table
            .select(TeamRow::as_select())
            .order(teams::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        seats::table
            .select(SeatRow::as_select())
            .order(seats::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        results::table
            .select(ResultRow::as_select())
            .order(results::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        audit_log::table
            .select(AuditRow::as_select())
            .order(audit_log::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        pending_entries::table
            .select(PendingEntry::as_select())
            .order(pending_entries::id)
            .load(conn)?
    );
    out += &format!(
        "{:?}\n",
        single_registrations::table
            .select(SingleRow::as_select())
            .order(single_registrations::id)
            .load(conn)?
    );
    // Results from the table: the switch, the codes and the reports (phones' tokens aside,
    // as sessions are).
    out += &format!(
        "{:?}\n{:?}\n{:?}\n",
        table_entry::table
            .order(table_entry::tournament_id)
            .load::<(i32, Option<i32>)>(conn)?,
        table_codes::table
            .select((table_codes::team_id, table_codes::code))
            .order(table_codes::team_id)
            .load::<(i32, String)>(conn)?,
        table_reports::table
            .select(TableReportRow::as_select())
            .order(table_reports::id)
            .load(conn)?
    );
    // The register, the categories' choices and the series.
    out += &format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n",
        persons::table
            .select(PersonRow::as_select())
            .order(persons::id)
            .load(conn)?,
        team_categories::table
            .select((
                team_categories::team_id,
                team_categories::category_id,
                team_categories::member,
                team_categories::closed_by_rule,
            ))
            .order((team_categories::team_id, team_categories::category_id))
            .load::<(i32, i32, Option<bool>, bool)>(conn)?,
        series::table
            .select((series::id, series::name, series::best, series::minimum))
            .order(series::id)
            .load::<(i32, String, Option<i32>, i32)>(conn)?,
        series_tournaments::table
            .select((
                series_tournaments::series_id,
                series_tournaments::tournament_id,
                series_tournaments::is_final,
            ))
            .order((
                series_tournaments::series_id,
                series_tournaments::tournament_id
            ))
            .load::<(i32, i32, bool)>(conn)?,
    );
    out += &format!(
        "{:?}\n{:?}\n{:?}\n",
        series_halls::table
            .select((series_halls::series_id, series_halls::public_key))
            .order((series_halls::series_id, series_halls::public_key))
            .load::<(i32, String)>(conn)?,
        series_reports::table
            .select((
                series_reports::series_id,
                series_reports::uuid,
                series_reports::revision,
                series_reports::tournament_id,
            ))
            .order((series_reports::series_id, series_reports::uuid))
            .load::<(i32, String, i32, i32)>(conn)?,
        instance::table
            .select(instance::hall_name)
            .load::<String>(conn)?,
    );
    Ok(out)
}
