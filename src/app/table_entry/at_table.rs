//! What a phone at the table shows: the team's table, seats, opponents and the report.

use crate::app::Refusal;
use crate::app::guard;
use crate::db::models::{TableReportRow, TeamRow, TournamentRow};
use crate::db::table_entry::{self as stored};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::transfer::TafelDraft;
use crate::db::{Conn, marathon, seats};
use crate::domain::differenzler::TableSheet;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::marathon::Side;
use crate::domain::marathon::tafel::compute;
use crate::domain::result::TableScore;
use crate::domain::schedule::Table;
use crate::domain::table_report::{Opening, Reported, Situation};

/// A phone's team at its table in the open Passe.
pub struct AtTable {
    pub tournament: TournamentRow,
    pub team: TeamRow,
    pub opening: Opening,
    /// The open Passe and the team's table in it (None: spielfrei or not drawn).
    pub seat: Option<Seat>,
}

/// Jassmarathon: the Tafel of the table's report, computed.
pub struct TafelShown {
    pub lines: Vec<crate::domain::marathon::Spiel>,
    pub tafel: crate::domain::marathon::tafel::Tafel,
    pub gong: bool,
}

pub struct Seat {
    /// Jassmarathon: the Tafel written at the table so far (empty before the first line).
    pub tafel: Option<TafelShown>,
    pub passe: u32,
    pub table: u32,
    pub side: Side,
    /// The names of both sides, A first.
    pub sides: [String; 2],
    pub report: Option<TableReportRow>,
    pub situation: Situation,
    pub result: Option<TableScore>,
    /// Differenzler: the four players, places 1 to 4 (empty in the other modes).
    pub places: Vec<String>,
    /// Differenzler: the stored result's four differences.
    pub result_places: Option<[u32; 4]>,
}

/// What a phone shows: read only.
pub fn at_table(conn: &mut Conn, id: TournamentId, team: TeamId) -> Result<AtTable, Refusal> {
    let t = guard::tournament(conn, id)?;
    let team = guard::team(conn, id, team)?;
    let opening = stored::opening(conn, id)?;
    let seat = match opening.passe() {
        Some(passe) => match table_data(conn, &t, passe, team.id)? {
            Some(data) => seat_of(conn, &data, opening, team.id)?,
            None => None,
        },
        None => None,
    };
    Ok(AtTable {
        tournament: t,
        team,
        opening,
        seat,
    })
}

/// Only the team's table of a Passe (its teams, seats, result): what a phone's page and its
/// steps need, whatever the size of the tournament. None when the team sits nowhere.
pub(super) fn table_data(
    conn: &mut Conn,
    t: &TournamentRow,
    passe: u32,
    team: TeamId,
) -> Result<Option<TournamentData>, Refusal> {
    match seats::table_of(conn, t.id, passe, team)? {
        Some(table) => Ok(Some(tournament_data::load_table(
            conn,
            t.clone(),
            passe,
            table,
        )?)),
        None => Ok(None),
    }
}

/// The team's seat at its table in the open Passe of `opening` (`data` holds that table).
pub(super) fn seat_of(
    conn: &mut Conn,
    data: &TournamentData,
    opening: Opening,
    team: TeamId,
) -> Result<Option<Seat>, Refusal> {
    let Some(passe) = opening.passe() else {
        return Ok(None);
    };
    let Some(table) = data
        .seat(passe, team)
        .and_then(|s| s.table_no)
        .and_then(|n| data.table(passe, n.get()))
    else {
        return Ok(None);
    };
    let side_of = |first: &TeamRow| data.side(passe, first).iter().any(|t| t.id == team);
    let side = if side_of(table.team_a) {
        Side::A
    } else {
        Side::B
    };
    let label = |t: &TeamRow| {
        format!(
            "{} {}",
            t.startnummer,
            crate::domain::team::display_name(t.name.as_deref(), &t.player1, &t.player2)
        )
    };
    let names = |first: &TeamRow| {
        data.side(passe, first)
            .into_iter()
            .map(label)
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let report = stored::report_at(conn, data.tournament.id, passe, table.number)?;
    let result = data.result_at(passe, table.number);
    let situation = Situation {
        open_passe: opening.passe(),
        passe,
        side,
        pauschale: data.table_has_left(passe, &table),
        result_stored: result.is_some(),
        office_entries: !data.pending_at(passe, table.number).is_empty(),
        report: report.as_ref().map(|r| Reported {
            by: side_of_team(data, passe, &table, r.reporter_id),
            state: r.state,
            version: r.version,
        }),
    };
    // A Tafel where the result is kept on one (its lines, as the phone shows them).
    let tafel = if data.tournament.mode.facts().score_kind.counts_striche() {
        let draft = match &report {
            Some(r) => TafelDraft::read(r).map_err(Refusal::Internal)?,
            None => TafelDraft::default(),
        };
        let lines = draft.spiele().map_err(Refusal::Internal)?;
        let rules = marathon::rules(conn, data.tournament.id)?;
        let tafel = compute(&rules, &lines, draft.gong)
            .map_err(|e| Refusal::Internal(format!("stored Tafel: {}", e.message)))?;
        Some(TafelShown {
            lines,
            tafel,
            gong: draft.gong,
        })
    } else {
        None
    };
    let per_player = data.tournament.mode.facts().score_kind.per_player();
    let places = match (per_player, data.foursome(passe, &table)) {
        (true, Some(four)) => four.into_iter().map(label).collect(),
        _ => Vec::new(),
    };
    let result_places = result
        .and_then(|r| TableSheet::parse(r.details.as_deref()))
        .map(|s| s.differenzen);
    Ok(Some(Seat {
        tafel,
        passe,
        table: table.number,
        side,
        sides: [names(table.team_a), names(table.team_b)],
        places,
        result_places,
        result: result.map(|r| r.score()),
        report,
        situation,
    }))
}

fn side_of_team(data: &TournamentData, passe: u32, table: &Table<&TeamRow>, team: TeamId) -> Side {
    match data.side(passe, table.team_a).iter().any(|t| t.id == team) {
        true => Side::A,
        false => Side::B,
    }
}
