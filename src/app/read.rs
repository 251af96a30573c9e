//! What the pages read: one function per question a page asks, on one connection, no
//! writes. The web layer asks here (or [`super::guard`] for a tournament or a round) and
//! never queries the database itself (`.ci/run` checks that for the pages moved here).

use super::Refusal;
use super::guard;
use crate::db::models::{AuditRow, TableReportRow, TeamRow, TournamentRow};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::tournaments::PasseCounts;
use crate::db::{Conn, audit, marathon, results, seats, table_entry, teams, throttle, tournaments};
use crate::domain::clock::ClockFacts;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::marathon::{Rules, Spiel};
use crate::domain::table_report::Opening;
use crate::domain::throttle::Counter;
use std::collections::{BTreeMap, HashMap};

/// A Spielrunde's round with the tournament's Striche rules and the round's clock.
pub fn round_with_clock(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
) -> Result<(TournamentData, Rules, Option<ClockFacts>), Refusal> {
    Ok((
        guard::load_round(conn, id, passe)?,
        marathon::rules(conn, id)?,
        marathon::clock(conn, id, passe)?,
    ))
}

/// A round with the tournament's Striche rules.
pub fn round_with_rules(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
) -> Result<(TournamentData, Rules), Refusal> {
    Ok((
        guard::load_round(conn, id, passe)?,
        marathon::rules(conn, id)?,
    ))
}

/// The tournament with its Striche and Differenzler rules (the settings form).
pub fn tournament_with_rules(
    conn: &mut Conn,
    id: TournamentId,
) -> Result<(TournamentRow, Rules, crate::domain::differenzler::Rules), Refusal> {
    let t = guard::tournament(conn, id)?;
    let differenzler = crate::db::differenzler::rules(conn, &t)?;
    Ok((t, marathon::rules(conn, id)?, differenzler))
}

/// One Tafel in the office: its round, the rules, its lines and gong, the clock, and
/// whether its points are typed already multiplied.
pub struct TafelRead {
    pub data: TournamentData,
    pub rules: Rules,
    pub spiele: Vec<Spiel>,
    pub gong: bool,
    pub clock: Option<ClockFacts>,
    pub multiplied: bool,
}

pub fn tafel(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> Result<TafelRead, Refusal> {
    let data = guard::load_round(conn, id, passe)?;
    let (spiele, gong) = marathon::tafel(conn, id, passe, table)?;
    Ok(TafelRead {
        data,
        rules: marathon::rules(conn, id)?,
        spiele,
        gong,
        clock: marathon::clock(conn, id, passe)?,
        multiplied: marathon::entry_multiplied(conn, id, passe, table)?,
    })
}

/// The rules and whether a Tafel's points are typed multiplied (checking a typed line).
pub fn tafel_typing(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
    table: u32,
) -> Result<(Rules, bool), Refusal> {
    Ok((
        marathon::rules(conn, id)?,
        marathon::entry_multiplied(conn, id, passe, table)?,
    ))
}

/// The rules and the clock of the round being played, where the mode runs on the clock.
pub type LiveClock = Option<(Rules, Option<ClockFacts>)>;

/// The live page's tournament and its clock.
pub fn live(
    conn: &mut Conn,
    id: TournamentId,
    current: impl FnOnce(&TournamentData) -> u32,
) -> Result<(TournamentData, LiveClock), Refusal> {
    let data = guard::load(conn, id)?;
    let clock = match data.tournament.mode.has_clock() {
        true => {
            let passe = current(&data);
            Some((
                marathon::rules(conn, id)?,
                marathon::clock(conn, id, passe)?,
            ))
        }
        false => None,
    };
    Ok((data, clock))
}

/// The tournament page of a big tournament, counted in the database.
pub struct Overview {
    pub tournament: TournamentRow,
    pub teams: usize,
    pub counts: BTreeMap<u32, PasseCounts>,
    /// Per round: Tafeln still being played whose result is written already.
    pub running: HashMap<u32, usize>,
    /// Teams without their final visa: how many, and the first ones.
    pub unvisaed: (usize, Vec<TeamRow>),
}

pub fn overview(conn: &mut Conn, id: TournamentId, named: i64) -> Result<Overview, Refusal> {
    let tournament = guard::tournament(conn, id)?;
    let unvisaed = match tournament.closed || tournament.draw_seed.is_none() {
        true => (0, Vec::new()),
        false => {
            let (count, first) = teams::without_final_visa(conn, id, named)?;
            (crate::db::types::count_len(count)?, first)
        }
    };
    let left = tournaments::tables_left(conn, id)?;
    let counts = tournaments::passe_counts(conn, id, &left)?;
    // A Tafel still being played has a result that is not entered yet (one at a table
    // somebody has left is not counted at all).
    let mut running: HashMap<u32, usize> = HashMap::new();
    for (passe, table) in marathon::open_tafeln(conn, id, None)? {
        if !left.contains(&(passe, table)) && results::at(conn, id, passe, table)?.is_some() {
            *running.entry(passe).or_default() += 1;
        }
    }
    Ok(Overview {
        tournament,
        teams: crate::db::types::count_len(tournaments::team_count(conn, id)?)?,
        counts,
        running,
        unvisaed,
    })
}

/// The Protokoll's newest entries, every tournament (for the filter), and the chosen
/// tournament's data (for the team names).
pub type ProtocolRead = (Vec<AuditRow>, Vec<TournamentRow>, Option<TournamentData>);

/// The Protokoll: its newest `limit` entries (of one tournament or all).
pub fn protocol(
    conn: &mut Conn,
    selected: Option<TournamentId>,
    limit: i64,
) -> Result<ProtocolRead, Refusal> {
    let data = match selected {
        Some(t) => Some(tournament_data::load(conn, t)?),
        None => None,
    };
    Ok((
        audit::list(conn, selected, limit)?,
        tournaments::list(conn)?,
        data,
    ))
}

/// A Passe's page: the round, whether results come from the tables, and their reports.
pub fn passe(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
) -> Result<(TournamentData, Opening, Vec<TableReportRow>), Refusal> {
    Ok((
        guard::load_round(conn, id, passe)?,
        table_entry::opening(conn, id)?,
        table_entry::reports_of_passe(conn, id, passe)?,
    ))
}

/// Whether results come from the tables now.
pub fn opening(conn: &mut Conn, id: TournamentId) -> Result<Opening, Refusal> {
    Ok(table_entry::opening(conn, id)?)
}

/// The teams' codes for results from the table, while it is on (else none are printed).
pub fn printed_codes(
    conn: &mut Conn,
    id: TournamentId,
) -> Result<HashMap<TeamId, String>, Refusal> {
    Ok(match table_entry::opening(conn, id)?.is_on() {
        true => table_entry::codes(conn, id)?,
        false => HashMap::new(),
    })
}

/// The office's page of results from the table: the tournament, the opening, the teams
/// and their codes, wrong codes per team, the drawn Passen, and the phones stopped.
pub struct TableOffice {
    pub tournament: TournamentRow,
    pub opening: Opening,
    pub teams: Vec<TeamRow>,
    pub codes: HashMap<TeamId, String>,
    pub failures: HashMap<String, u32>,
    pub drawn: Vec<u32>,
    pub stopped: HashMap<String, chrono::NaiveDateTime>,
}

pub fn table_office(conn: &mut Conn, id: TournamentId) -> Result<TableOffice, Refusal> {
    Ok(TableOffice {
        tournament: guard::tournament(conn, id)?,
        drawn: seats::drawn_passen(conn, id)?,
        opening: table_entry::opening(conn, id)?,
        teams: teams::list(conn, id)?,
        codes: table_entry::codes(conn, id)?,
        failures: throttle::all_failures(conn, Counter::CodeTeam)?,
        stopped: throttle::blocked_now(conn, Counter::PhoneWrites)?,
    })
}

/// Every tournament's version and visibility (for the live pages' hub).
pub fn published(conn: &mut Conn) -> Result<Vec<tournaments::Published>, Refusal> {
    Ok(tournaments::versions(conn)?)
}

/// The time as stored (what a print's "gedruckt" and a file name say).
pub fn now() -> chrono::NaiveDateTime {
    crate::db::now()
}

/// A stored result to correct: the row, its round, and whether it is kept on a Tafel (then
/// it is corrected there, line by line).
pub fn result_to_correct(
    conn: &mut Conn,
    id: TournamentId,
    result: crate::domain::ids::ResultId,
) -> Result<(crate::db::models::ResultRow, TournamentData, bool), Refusal> {
    let row = results::get(conn, id, result)?;
    let (passe, table) = (row.passe.get(), row.table_no.get());
    let data = guard::load_round(conn, id, passe)?;
    let on_tafel = marathon::has_tafel(conn, id, passe, table)?;
    Ok((row, data, on_tafel))
}

/// A tournament with its teams, by Startnummer.
pub fn tournament_with_teams(
    conn: &mut Conn,
    id: TournamentId,
) -> Result<(TournamentRow, Vec<TeamRow>), Refusal> {
    Ok((guard::tournament(conn, id)?, teams::list(conn, id)?))
}

/// A tournament's teams, by Startnummer.
pub fn teams(conn: &mut Conn, id: TournamentId) -> Result<Vec<TeamRow>, Refusal> {
    Ok(teams::list(conn, id)?)
}

/// The Startnummern taken in a tournament.
pub fn startnummern(conn: &mut Conn, id: TournamentId) -> Result<Vec<u32>, Refusal> {
    Ok(teams::startnummern(conn, id)?)
}

/// A tournament's single registrations.
pub fn singles(
    conn: &mut Conn,
    id: TournamentId,
) -> Result<Vec<crate::db::models::SingleRow>, Refusal> {
    Ok(crate::db::singles::list(conn, id)?)
}

/// A tournament with its single registrations.
pub fn tournament_with_singles(
    conn: &mut Conn,
    id: TournamentId,
) -> Result<(TournamentRow, Vec<crate::db::models::SingleRow>), Refusal> {
    Ok((
        guard::tournament(conn, id)?,
        crate::db::singles::list(conn, id)?,
    ))
}

/// Every tournament, newest first.
pub fn tournaments(conn: &mut Conn) -> Result<Vec<TournamentRow>, Refusal> {
    Ok(tournaments::list(conn)?)
}

/// How many accounts there are (none: the first-run setup is open).
pub fn account_count(conn: &mut Conn) -> Result<i64, Refusal> {
    Ok(crate::db::users::count(conn)?)
}

pub use crate::db::tournaments::Published;

/// PostgreSQL: follows the writes of every instance on the database, calling `changed` with
/// the tournaments written, until it answers Break or the connection fails.
pub fn follow_writes(
    database_url: &str,
    changed: impl FnMut(Vec<TournamentId>) -> std::ops::ControlFlow<()>,
) -> Result<(), String> {
    crate::db::notify::listen(database_url, changed)
}

/// Every team's rank (none: not ranked) and total as the tournament stands: the official
/// Rangliste once it is closed, the provisional one while it is open.
pub fn ranks_now(
    data: &crate::db::tournament_data::TournamentData,
) -> Vec<(crate::domain::ids::TeamId, Option<u32>, u32)> {
    use crate::domain::standblatt::{RanglisteKind, rangliste};
    let t = &data.tournament;
    let kind = match t.closed {
        true => RanglisteKind::Offiziell,
        false => RanglisteKind::Provisorisch,
    };
    let sheets = data.standblaetter();
    let under_way = data.passen_under_way();
    rangliste(
        kind,
        &sheets,
        t.wertung(),
        &|p| under_way.contains(&p),
        t.mode.facts().better,
    )
    .iter()
    .map(|r| (r.sheet.team, r.rank, r.total))
    .collect()
}
