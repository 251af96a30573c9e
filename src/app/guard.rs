//! The checks every write passes before it decides anything: the tournament exists and is
//! open, the round exists, the user's role allows it.

use super::Refusal;
use crate::db::models::TournamentRow;
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, tournaments};
use crate::domain::ids::TournamentId;
use crate::domain::role::{Actor, Permission};

pub fn tournament(conn: &mut Conn, id: TournamentId) -> Result<TournamentRow, Refusal> {
    tournaments::find(conn, id)?
        .ok_or_else(|| Refusal::NotFound("Dieses Turnier gibt es nicht.".into()))
}

/// The tournament, refused when it is closed: the read half of [`begin_write`], for writes
/// that may still turn out to write nothing (a conflict bumps no version).
pub fn open_tournament(conn: &mut Conn, id: TournamentId) -> Result<TournamentRow, Refusal> {
    let row = tournament(conn, id)?;
    if row.closed {
        return Err(Refusal::Closed);
    }
    Ok(row)
}

/// Every write to a tournament starts here, inside its transaction: refuses when the
/// tournament is closed and bumps its version (which invalidates cached live pages).
pub fn begin_write(conn: &mut Conn, id: TournamentId) -> Result<TournamentRow, Refusal> {
    let row = open_tournament(conn, id)?;
    tournaments::bump_version(conn, id)?;
    Ok(row)
}

/// Refuses a Passe (or Spielrunde) the tournament does not have.
pub fn round(tournament: &TournamentRow, passe: u32) -> Result<(), Refusal> {
    if passe == 0 || passe > tournament.passen.get() {
        return Err(Refusal::NotFound(format!(
            "{} {passe} gibt es in diesem Turnier nicht.",
            tournament.mode.round()
        )));
    }
    Ok(())
}

pub fn require(actor: &Actor, permission: Permission) -> Result<(), Refusal> {
    if actor.may(permission) {
        Ok(())
    } else {
        Err(Refusal::forbidden())
    }
}

/// The tables of one round (for the pages of a Passe or Spielrunde), refused when the
/// tournament or the round does not exist.
pub fn load_round(
    conn: &mut Conn,
    id: TournamentId,
    passe: u32,
) -> Result<TournamentData, Refusal> {
    let t = tournament(conn, id)?;
    round(&t, passe)?;
    Ok(tournament_data::load_passe(conn, t, passe)?)
}

/// The whole tournament, refused when it does not exist.
pub fn load(conn: &mut Conn, id: TournamentId) -> Result<TournamentData, Refusal> {
    let t = tournament(conn, id)?;
    Ok(tournament_data::load_row(conn, t)?)
}

pub fn team(
    conn: &mut Conn,
    tournament: TournamentId,
    team: crate::domain::ids::TeamId,
) -> Result<crate::db::models::TeamRow, Refusal> {
    crate::db::teams::find(conn, tournament, team)?
        .ok_or_else(|| Refusal::NotFound("Dieses Team gibt es in diesem Turnier nicht.".into()))
}
