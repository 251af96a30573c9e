//! The club's register (Leitung): search, and a person's tournaments with rank and points.

use super::{Refusal, guard};
use crate::db::models::PersonRow;
use crate::db::{Conn, persons};
use crate::domain::ids::{PersonId, TournamentId};
use crate::domain::person::matches_search;
use crate::domain::role::{Actor, Permission};
use crate::domain::standblatt::{RanglisteKind, rangliste};
use chrono::NaiveDate;

/// The register, or the persons matching a search; each with its number of tournaments.
pub fn search(
    conn: &mut Conn,
    actor: &Actor,
    query: &str,
) -> Result<Vec<(PersonRow, usize)>, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let count = persons::participations(conn)?;
    Ok(persons::list(conn)?
        .into_iter()
        .filter(|p| matches_search(&p.key(), query))
        .map(|p| {
            let n = count.get(&p.id).copied().unwrap_or(0);
            (p, n)
        })
        .collect())
}

/// One tournament a person played.
pub struct Played {
    pub tournament: TournamentId,
    pub name: String,
    pub date: NaiveDate,
    pub mode: &'static str,
    pub startnummer: u32,
    /// The team's name and players as entered (for a player: Name, Vorname).
    pub team: String,
    /// The rank in the official Rangliste (closed tournament) or the provisional one.
    pub rank: Option<u32>,
    pub official: bool,
    pub total: u32,
}

/// A person and every tournament played, oldest first.
pub fn history(
    conn: &mut Conn,
    actor: &Actor,
    id: PersonId,
) -> Result<(PersonRow, Vec<Played>), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let person = persons::find(conn, id)?
        .ok_or_else(|| Refusal::NotFound("Diese Person gibt es im Register nicht.".into()))?;
    let mut played = Vec::new();
    for (tournament, team, _) in persons::seats_of(conn, id)? {
        let data = guard::load(conn, tournament)?;
        let t = &data.tournament;
        let Some(row) = data.team(team) else {
            continue;
        };
        let kind = match t.closed {
            true => RanglisteKind::Offiziell,
            false => RanglisteKind::Provisorisch,
        };
        let sheets = data.standblaetter();
        let under_way = data.passen_under_way();
        let ranked = rangliste(kind, &sheets, t.wertung(), &|p| under_way.contains(&p));
        let line = ranked.iter().find(|r| r.sheet.team == team);
        played.push(Played {
            tournament,
            name: t.name.clone(),
            date: t.date,
            mode: t.mode.label(),
            startnummer: row.startnummer.get(),
            team: crate::domain::team::display_name(
                row.name.as_deref(),
                &row.player1,
                &row.player2,
            ),
            rank: line.and_then(|l| l.rank),
            official: t.closed,
            total: line.map_or(0, |l| l.total),
        });
    }
    Ok((person, played))
}
