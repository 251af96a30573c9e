//! Tournament rows: settings, the open/closed and public flags, the version that every
//! write bumps (live pages and caches follow it), and the draw's seed and mode.

use super::models::{TournamentRow, TournamentValues};
use super::schema::{results, teams, tournaments};
use super::{Conn, now};
use crate::db::types::{Nat, count_len};
use crate::domain::draw::DrawMode;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::standblatt::is_out;
use crate::domain::streichresultat::Wertung;
use crate::domain::team::TeamStatus;
use crate::domain::tournament::TournamentSettings;
use diesel::prelude::*;
use std::collections::{BTreeSet, HashMap};

pub fn list(conn: &mut Conn) -> QueryResult<Vec<TournamentRow>> {
    tournaments::table
        .select(TournamentRow::as_select())
        .order((tournaments::date.desc(), tournaments::id.desc()))
        .load(conn)
}

/// The tournament; diesel's `NotFound` when there is none.
pub fn get(conn: &mut Conn, id: TournamentId) -> QueryResult<TournamentRow> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
}

pub fn find(conn: &mut Conn, id: TournamentId) -> QueryResult<Option<TournamentRow>> {
    get(conn, id).optional()
}

pub fn bump_version(conn: &mut Conn, id: TournamentId) -> QueryResult<()> {
    diesel::update(tournaments::table.find(id))
        .set(tournaments::version.eq(tournaments::version + 1))
        .execute(conn)?;
    Ok(())
}

fn values(settings: &TournamentSettings) -> QueryResult<TournamentValues> {
    Ok(TournamentValues {
        name: settings.name.clone(),
        date: settings.date,
        location: settings.location.clone(),
        mode: settings.mode,
        passen: Nat::of(settings.passen)?,
        spiele_per_passe: Nat::of(settings.spiele_per_passe)?,
        pauschale: Nat::of(settings.pauschale)?,
        double_entry: settings.double_entry,
        double_entry_same_user: settings.double_entry_same_user,
        separate_clubs: settings.separate_clubs,
        counted_best: match settings.wertung {
            Wertung::Alle => None,
            Wertung::Beste(k) => Some(Nat::of(k)?),
        },
        club_best: settings.club_best.map(Nat::of).transpose()?,
    })
}

pub fn insert(conn: &mut Conn, settings: &TournamentSettings) -> QueryResult<TournamentRow> {
    diesel::insert_into(tournaments::table)
        .values((values(settings)?, tournaments::created_at.eq(now())))
        .returning(tournaments::all_columns)
        .get_result(conn)
}

pub fn update(
    conn: &mut Conn,
    id: TournamentId,
    settings: &TournamentSettings,
) -> QueryResult<TournamentRow> {
    diesel::update(tournaments::table.find(id))
        .set(values(settings)?)
        .returning(tournaments::all_columns)
        .get_result(conn)
}

pub fn set_closed(conn: &mut Conn, id: TournamentId, closed: bool) -> QueryResult<TournamentRow> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::closed.eq(closed),
            tournaments::version.eq(tournaments::version + 1),
        ))
        .returning(tournaments::all_columns)
        .get_result(conn)
}

pub fn set_public(conn: &mut Conn, id: TournamentId, public: bool) -> QueryResult<TournamentRow> {
    diesel::update(tournaments::table.find(id))
        .set(tournaments::public.eq(public))
        .returning(tournaments::all_columns)
        .get_result(conn)
}

/// A tournament replaced by a newer revision of its report: renamed and no longer public
/// (kept, with its Protokoll, not deleted).
pub fn retire(conn: &mut Conn, id: TournamentId, name: &str) -> QueryResult<()> {
    diesel::update(tournaments::table.find(id))
        .set((tournaments::name.eq(name), tournaments::public.eq(false)))
        .execute(conn)?;
    Ok(())
}

pub fn set_draw(conn: &mut Conn, id: TournamentId, mode: DrawMode, seed: u64) -> QueryResult<()> {
    diesel::update(tournaments::table.find(id))
        .set((
            // BIGINT has no unsigned kind: the seed's 64 bits are stored as they are and read
            // back the same way (app::draw), so every seed comes back unchanged.
            tournaments::draw_seed.eq(Some(seed.cast_signed())),
            tournaments::draw_mode.eq(mode),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn team_count(conn: &mut Conn, id: TournamentId) -> QueryResult<i64> {
    teams::table
        .filter(teams::tournament_id.eq(id))
        .count()
        .get_result(conn)
}

pub fn result_count(conn: &mut Conn, id: TournamentId) -> QueryResult<i64> {
    results::table
        .filter(results::tournament_id.eq(id))
        .count()
        .get_result(conn)
}

/// One tournament's version and visibility, as the live hub publishes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    pub id: TournamentId,
    pub version: i32,
    pub public: bool,
}

/// Every tournament's version and visibility, in one query.
pub fn versions(conn: &mut Conn) -> QueryResult<Vec<Published>> {
    Ok(tournaments::table
        .select((tournaments::id, tournaments::version, tournaments::public))
        .load::<(TournamentId, i32, bool)>(conn)?
        .into_iter()
        .map(|(id, version, public)| Published {
            id,
            version,
            public,
        })
        .collect())
}

/// What the tournament overview shows of one Passe, counted in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PasseCounts {
    pub tables: usize,
    /// Tables that take a result: not those where a team or player has left (everybody
    /// else there gets the Pauschale), as the Passe's own page counts them.
    pub played: usize,
    /// Results stored at played tables (a Tafel still being played included; the caller
    /// subtracts those).
    pub results: usize,
    /// Of those, the results visaed on both sides.
    pub visaed: usize,
}

/// Per drawn Passe: tables, results, fully visaed results; the overview of a big tournament
/// without loading it. `left` is [`tables_left`], which the caller needs too.
pub fn passe_counts(
    conn: &mut Conn,
    id: TournamentId,
    left: &BTreeSet<(u32, u32)>,
) -> QueryResult<std::collections::BTreeMap<u32, PasseCounts>> {
    use super::schema::seats;
    use diesel::dsl::{count, count_star};
    let mut counts: std::collections::BTreeMap<u32, PasseCounts> = Default::default();
    // Tables counted, not seats: a table seats two teams, or four players (Einzelschieber).
    let seated: Vec<(Nat, i64)> = seats::table
        .filter(seats::tournament_id.eq(id))
        .filter(seats::table_no.is_not_null())
        .group_by(seats::passe)
        .select((seats::passe, count(seats::table_no).aggregate_distinct()))
        .load(conn)?;
    for (passe, n) in seated {
        counts.entry(passe.get()).or_default().tables = count_len(n)?;
    }
    for passe in super::seats::drawn_passen(conn, id)? {
        counts.entry(passe).or_default();
    }
    let stored: Vec<(Nat, i64)> = results::table
        .filter(results::tournament_id.eq(id))
        .group_by(results::passe)
        .select((results::passe, count_star()))
        .load(conn)?;
    for (passe, n) in stored {
        counts.entry(passe.get()).or_default().results = count_len(n)?;
    }
    let visaed: Vec<(Nat, i64)> = results::table
        .filter(results::tournament_id.eq(id))
        .filter(results::visa_a_at.is_not_null())
        .filter(results::visa_b_at.is_not_null())
        .group_by(results::passe)
        .select((results::passe, count_star()))
        .load(conn)?;
    for (passe, n) in visaed {
        counts.entry(passe.get()).or_default().visaed = count_len(n)?;
    }
    for c in counts.values_mut() {
        c.played = c.tables;
    }
    // Few teams leave: their tables are looked at one by one.
    for &(passe, table) in left {
        let c = counts.entry(passe).or_default();
        c.played = c.played.saturating_sub(1);
        if let Some(result) = super::results::at(conn, id, passe, table)? {
            c.results = c.results.saturating_sub(1);
            if result.visa_a_at.is_some() && result.visa_b_at.is_some() {
                c.visaed = c.visaed.saturating_sub(1);
            }
        }
    }
    Ok(counts)
}

/// (Passe, Tisch) of every table where a disqualified or withdrawn team or player would
/// have sat from the Passe it left in on: those tables are not played.
pub fn tables_left(conn: &mut Conn, id: TournamentId) -> QueryResult<BTreeSet<(u32, u32)>> {
    use super::schema::seats;
    let out: HashMap<TeamId, (TeamStatus, Option<u32>)> = teams::table
        .filter(teams::tournament_id.eq(id))
        .filter(teams::status.ne(TeamStatus::Aktiv))
        .select((teams::id, teams::status, teams::out_passe))
        .load::<(TeamId, TeamStatus, Option<Nat>)>(conn)?
        .into_iter()
        .map(|(team, status, out_passe)| (team, (status, out_passe.map(Nat::get))))
        .collect();
    let mut left = BTreeSet::new();
    if out.is_empty() {
        return Ok(left);
    }
    let seated: Vec<(TeamId, Nat, Option<Nat>)> = seats::table
        .filter(seats::tournament_id.eq(id))
        .filter(seats::team_id.eq_any(out.keys().copied().collect::<Vec<_>>()))
        .select((seats::team_id, seats::passe, seats::table_no))
        .load(conn)?;
    for (team, passe, table) in seated {
        let passe = passe.get();
        if let (Some(table), Some(&(status, out_passe))) = (table, out.get(&team))
            && is_out(status, out_passe, passe)
        {
            left.insert((passe, table.get()));
        }
    }
    Ok(left)
}
