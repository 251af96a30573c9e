//! The Jass-Cup's series: their rule, their tournaments and wildcards.

use super::Conn;
use super::schema::{series, series_tournaments, series_wildcards, tournaments};
use super::types::Nat;
use crate::domain::ids::{PersonId, SeriesId, TournamentId};
use crate::domain::series::{
    Points, PointsKind, Qualification, QualificationKind, SeriesRule, SeriesSettings, Unit,
    parse_table, table_text,
};
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A series as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesRow {
    pub id: SeriesId,
    pub settings: SeriesSettings,
    pub created_at: NaiveDateTime,
}

type Stored = (
    SeriesId,
    String,
    String,
    PointsKind,
    Option<String>,
    Unit,
    Option<Nat>,
    Nat,
    Nat,
    QualificationKind,
    Option<Nat>,
    NaiveDateTime,
);

fn broken(what: &str) -> diesel::result::Error {
    diesel::result::Error::DeserializationError(format!("series: {what}").into())
}

fn row_of(stored: Stored, wildcards: Vec<i32>) -> QueryResult<SeriesRow> {
    let (id, name, season, points, table, unit, best, minimum, factor, qualification, value, at) =
        stored;
    let points = match points {
        PointsKind::Table => Points::Table(
            parse_table(table.as_deref().unwrap_or_default()).map_err(|e| broken(&e))?,
        ),
        PointsKind::Field => Points::Field,
        PointsKind::Normalised => Points::Normalised,
    };
    let qualification = match (qualification, value.map(Nat::get)) {
        (QualificationKind::None, _) => Qualification::None,
        (QualificationKind::Top, Some(n)) => Qualification::Top(n),
        (QualificationKind::Share, Some(p)) => Qualification::SharePerQualifier(p),
        (_, None) => return Err(broken("qualification without its number")),
    };
    Ok(SeriesRow {
        id,
        settings: SeriesSettings {
            name,
            season,
            unit,
            rule: SeriesRule {
                points,
                best: best.map(Nat::get),
                minimum: minimum.get(),
                final_factor: factor.get(),
                qualification,
            },
            wildcards,
        },
        created_at: at,
    })
}

pub fn find(conn: &mut Conn, id: SeriesId) -> QueryResult<Option<SeriesRow>> {
    let stored: Option<Stored> = series::table
        .find(id)
        .select(series::all_columns)
        .first(conn)
        .optional()?;
    match stored {
        Some(s) => {
            let wildcards = wildcards(conn, id)?;
            Ok(Some(row_of(s, wildcards)?))
        }
        None => Ok(None),
    }
}

/// Every series, the newest season first.
pub fn list(conn: &mut Conn) -> QueryResult<Vec<SeriesRow>> {
    let stored: Vec<Stored> = series::table
        .select(series::all_columns)
        .order((series::season.desc(), series::name, series::id))
        .load(conn)?;
    stored
        .into_iter()
        .map(|s| {
            let w = wildcards(conn, s.0)?;
            row_of(s, w)
        })
        .collect()
}

fn wildcards(conn: &mut Conn, id: SeriesId) -> QueryResult<Vec<i32>> {
    let ids: Vec<PersonId> = series_wildcards::table
        .filter(series_wildcards::series_id.eq(id))
        .select(series_wildcards::person_id)
        .order(series_wildcards::person_id)
        .load(conn)?;
    Ok(ids.into_iter().map(|p| p.0).collect())
}

/// A series' settings as its columns (the same for a new series and a changed one).
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = series, treat_none_as_null = true)]
struct Columns<'a> {
    name: &'a str,
    season: &'a str,
    points: PointsKind,
    points_table: Option<String>,
    unit: Unit,
    best: Option<Nat>,
    minimum: Nat,
    final_factor: Nat,
    qualification: QualificationKind,
    qualify_value: Option<Nat>,
}

impl<'a> Columns<'a> {
    fn of(s: &'a SeriesSettings) -> QueryResult<Self> {
        let (points, points_table) = match &s.rule.points {
            Points::Table(t) => (PointsKind::Table, Some(table_text(t))),
            Points::Field => (PointsKind::Field, None),
            Points::Normalised => (PointsKind::Normalised, None),
        };
        let (qualification, qualify_value) = match s.rule.qualification {
            Qualification::None => (QualificationKind::None, None),
            Qualification::Top(n) => (QualificationKind::Top, Some(Nat::of(n)?)),
            Qualification::SharePerQualifier(p) => (QualificationKind::Share, Some(Nat::of(p)?)),
        };
        Ok(Columns {
            name: &s.name,
            season: &s.season,
            points,
            points_table,
            unit: s.unit,
            best: s.rule.best.map(Nat::of).transpose()?,
            minimum: Nat::of(s.rule.minimum)?,
            final_factor: Nat::of(s.rule.final_factor)?,
            qualification,
            qualify_value,
        })
    }
}

pub fn create(conn: &mut Conn, s: &SeriesSettings, at: NaiveDateTime) -> QueryResult<SeriesId> {
    let id: SeriesId = diesel::insert_into(series::table)
        .values((Columns::of(s)?, series::created_at.eq(at)))
        .returning(series::id)
        .get_result(conn)?;
    set_wildcards(conn, id, &s.wildcards)?;
    Ok(id)
}

pub fn update(conn: &mut Conn, id: SeriesId, s: &SeriesSettings) -> QueryResult<()> {
    diesel::update(series::table.find(id))
        .set(Columns::of(s)?)
        .execute(conn)?;
    set_wildcards(conn, id, &s.wildcards)
}

fn set_wildcards(conn: &mut Conn, id: SeriesId, persons: &[i32]) -> QueryResult<()> {
    diesel::delete(series_wildcards::table.filter(series_wildcards::series_id.eq(id)))
        .execute(conn)?;
    for person in persons {
        diesel::insert_into(series_wildcards::table)
            .values((
                series_wildcards::series_id.eq(id),
                series_wildcards::person_id.eq(PersonId(*person)),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// A tournament of a series, in date order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeriesTournament {
    pub tournament: TournamentId,
    pub is_final: bool,
}

pub fn tournaments(conn: &mut Conn, id: SeriesId) -> QueryResult<Vec<SeriesTournament>> {
    let rows: Vec<(TournamentId, bool)> = series_tournaments::table
        .inner_join(tournaments::table.on(tournaments::id.eq(series_tournaments::tournament_id)))
        .filter(series_tournaments::series_id.eq(id))
        .select((
            series_tournaments::tournament_id,
            series_tournaments::is_final,
        ))
        .order((tournaments::date, tournaments::id))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(tournament, is_final)| SeriesTournament {
            tournament,
            is_final,
        })
        .collect())
}

pub fn set_tournaments(
    conn: &mut Conn,
    id: SeriesId,
    list: &[SeriesTournament],
) -> QueryResult<()> {
    diesel::delete(series_tournaments::table.filter(series_tournaments::series_id.eq(id)))
        .execute(conn)?;
    for t in list {
        diesel::insert_into(series_tournaments::table)
            .values((
                series_tournaments::series_id.eq(id),
                series_tournaments::tournament_id.eq(t.tournament),
                series_tournaments::is_final.eq(t.is_final),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// What the series' tournaments are at now: their versions summed with their number (a
/// new result, a correction, a closing or a tournament added changes it).
pub fn version(conn: &mut Conn, id: SeriesId) -> QueryResult<i64> {
    let rows: Vec<(TournamentId, i32)> = series_tournaments::table
        .inner_join(tournaments::table.on(tournaments::id.eq(series_tournaments::tournament_id)))
        .filter(series_tournaments::series_id.eq(id))
        .select((series_tournaments::tournament_id, tournaments::version))
        .load(conn)?;
    Ok(rows
        .iter()
        .map(|(t, v)| i64::from(t.0) * 1_000_003 + i64::from(*v))
        .sum())
}

/// A series in a database copy: its row as stored, its tournaments, wildcards, halls and
/// reports (ids kept).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SeriesJson {
    pub id: i32,
    pub name: String,
    pub season: String,
    pub points: String,
    pub points_table: Option<String>,
    pub unit: String,
    pub best: Option<i32>,
    pub minimum: i32,
    pub final_factor: i32,
    pub qualification: String,
    pub qualify_value: Option<i32>,
    pub created_at: NaiveDateTime,
    pub tournaments: Vec<(i32, bool)>,
    pub wildcards: Vec<i32>,
    /// Public key, hall name.
    pub halls: Vec<(String, String)>,
    /// uuid, revision, tournament, public key, digest, taken at, summary.
    pub reports: Vec<(String, i32, i32, String, String, NaiveDateTime, String)>,
}

type RawSeries = (
    i32,
    String,
    String,
    String,
    Option<String>,
    String,
    Option<i32>,
    i32,
    i32,
    String,
    Option<i32>,
    NaiveDateTime,
);

/// Every series as a database copy carries it.
pub fn copy_out(conn: &mut Conn) -> QueryResult<Vec<SeriesJson>> {
    use super::schema::{series_halls, series_reports};
    let rows: Vec<RawSeries> = series::table
        .select((
            series::id,
            series::name,
            series::season,
            series::points,
            series::points_table,
            series::unit,
            series::best,
            series::minimum,
            series::final_factor,
            series::qualification,
            series::qualify_value,
            series::created_at,
        ))
        .order(series::id)
        .load(conn)?;
    let mut out = Vec::new();
    for r in rows {
        let id = r.0;
        let tournaments = series_tournaments::table
            .filter(series_tournaments::series_id.eq(id))
            .select((
                series_tournaments::tournament_id,
                series_tournaments::is_final,
            ))
            .order(series_tournaments::tournament_id)
            .load::<(i32, bool)>(conn)?;
        let wildcards = series_wildcards::table
            .filter(series_wildcards::series_id.eq(id))
            .select(series_wildcards::person_id)
            .order(series_wildcards::person_id)
            .load::<i32>(conn)?;
        let halls = series_halls::table
            .filter(series_halls::series_id.eq(id))
            .select((series_halls::public_key, series_halls::hall_name))
            .order(series_halls::public_key)
            .load::<(String, String)>(conn)?;
        let reports = series_reports::table
            .filter(series_reports::series_id.eq(id))
            .select((
                series_reports::uuid,
                series_reports::revision,
                series_reports::tournament_id,
                series_reports::public_key,
                series_reports::digest,
                series_reports::imported_at,
                series_reports::summary,
            ))
            .order(series_reports::uuid)
            .load(conn)?;
        out.push(SeriesJson {
            id,
            name: r.1,
            season: r.2,
            points: r.3,
            points_table: r.4,
            unit: r.5,
            best: r.6,
            minimum: r.7,
            final_factor: r.8,
            qualification: r.9,
            qualify_value: r.10,
            created_at: r.11,
            tournaments,
            wildcards,
            halls,
            reports,
        });
    }
    Ok(out)
}

/// Writes the series of a database copy (their tournaments and persons are there already).
pub fn copy_in(conn: &mut Conn, list: &[SeriesJson]) -> QueryResult<()> {
    use super::schema::{series_halls, series_reports};
    for s in list {
        diesel::insert_into(series::table)
            .values((
                series::id.eq(s.id),
                series::name.eq(&s.name),
                series::season.eq(&s.season),
                series::points.eq(&s.points),
                series::points_table.eq(&s.points_table),
                series::unit.eq(&s.unit),
                series::best.eq(s.best),
                series::minimum.eq(s.minimum),
                series::final_factor.eq(s.final_factor),
                series::qualification.eq(&s.qualification),
                series::qualify_value.eq(s.qualify_value),
                series::created_at.eq(s.created_at),
            ))
            .execute(conn)?;
        for (tournament, is_final) in &s.tournaments {
            diesel::insert_into(series_tournaments::table)
                .values((
                    series_tournaments::series_id.eq(s.id),
                    series_tournaments::tournament_id.eq(tournament),
                    series_tournaments::is_final.eq(is_final),
                ))
                .execute(conn)?;
        }
        for person in &s.wildcards {
            diesel::insert_into(series_wildcards::table)
                .values((
                    series_wildcards::series_id.eq(s.id),
                    series_wildcards::person_id.eq(person),
                ))
                .execute(conn)?;
        }
        for (key, name) in &s.halls {
            diesel::insert_into(series_halls::table)
                .values((
                    series_halls::series_id.eq(s.id),
                    series_halls::public_key.eq(key),
                    series_halls::hall_name.eq(name),
                ))
                .execute(conn)?;
        }
        for (uuid, revision, tournament, key, digest, at, summary) in &s.reports {
            diesel::insert_into(series_reports::table)
                .values((
                    series_reports::series_id.eq(s.id),
                    series_reports::uuid.eq(uuid),
                    series_reports::revision.eq(revision),
                    series_reports::tournament_id.eq(tournament),
                    series_reports::public_key.eq(key),
                    series_reports::digest.eq(digest),
                    series_reports::imported_at.eq(at),
                    series_reports::summary.eq(summary),
                ))
                .execute(conn)?;
        }
    }
    Ok(())
}
