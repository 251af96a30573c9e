//! Players registered alone ("sucht Partner"): registering, removing, and forming teams from
//! them by a drawn pairing the office has looked at (and perhaps changed by swaps).

use super::teams::{ensure_may_add, record};
use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, SingleAction, TeamAction};
use crate::db::models::SingleRow;
use crate::db::{Conn, audit, singles, teams, write_tx};
use crate::domain::ids::{SingleId, TeamId, TournamentId};
use crate::domain::partner_draw::{Pairing, joined};
use crate::domain::role::{Actor, Permission};
use crate::domain::team::{SingleInput, TeamInput};
use serde::Serialize;

/// A Protokoll entry about single registrations: one of them, or (no id) the draw.
fn record_single<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    (action, single): (SingleAction, Option<SingleId>),
    before: Option<&B>,
    after: Option<&A>,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(tournament),
            event: AuditEvent::Single(action),
            entity_id: single.map(|s| s.0),
        },
        before,
        after,
    )?;
    Ok(())
}

/// Partners are found for single registrations in team modes; in the Einzelschieber every
/// player registers alone and partners are drawn each Passe.
fn ensure_team_mode(t: &crate::db::models::TournamentRow) -> Result<(), Refusal> {
    if t.mode.draws_players() {
        return Err(Refusal::invalid(format!(
            "Im {} werden die Partner jede {} neu ausgelost: Spieler unter «Spieler» erfassen.",
            t.mode.label(),
            t.mode.round()
        )));
    }
    Ok(())
}

pub fn add(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    input: &SingleInput,
) -> Result<SingleId, Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let t = guard::begin_write(conn, tournament)?;
        ensure_team_mode(&t)?;
        ensure_may_add(&t)?;
        let row = singles::insert(conn, tournament, input)?;
        record_single(
            conn,
            actor,
            tournament,
            (SingleAction::Create, Some(row.id)),
            None::<&SingleRow>,
            Some(&row),
        )?;
        Ok(row.id)
    })
}

pub fn remove(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    single: SingleId,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        guard::begin_write(conn, tournament)?;
        let before = singles::list(conn, tournament)?
            .into_iter()
            .find(|s| s.id == single)
            .ok_or_else(|| Refusal::NotFound("Diese Anmeldung gibt es nicht (mehr).".into()))?;
        singles::delete(conn, tournament, &[single])?;
        record_single(
            conn,
            actor,
            tournament,
            (SingleAction::Delete, Some(single)),
            Some(&before),
            None::<&SingleRow>,
        )?;
        Ok(())
    })
}

/// How the pairs were drawn, for the Protokoll.
#[derive(Serialize)]
pub struct Drawn<'a> {
    pub seed: u64,
    pub rule: &'a str,
    /// Swaps the office made before confirming, as pairs of names.
    pub swaps: Vec<(String, String)>,
}

/// Forms a team of each pair of `pairing` (indices into `drawn_from`, the registrations the
/// office saw, in order): automatic Startnummern after the highest, both Vereine and places
/// kept (joined when they differ). The registrations of the paired players are removed; the
/// one alone stays. Refused if the registrations changed since the office looked.
pub fn form_teams(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    drawn_from: &[SingleId],
    pairing: &Pairing,
    how: &Drawn<'_>,
) -> Result<Vec<TeamId>, Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let t = guard::begin_write(conn, tournament)?;
        ensure_team_mode(&t)?;
        ensure_may_add(&t)?;
        let now: Vec<SingleRow> = singles::list(conn, tournament)?;
        if now.iter().map(|s| s.id).ne(drawn_from.iter().copied()) {
            return Err(Refusal::Conflict(
                "Inzwischen hat sich die Liste der Einzelanmeldungen geändert: bitte neu auslosen."
                    .into(),
            ));
        }
        if pairing.pairs.is_empty() {
            return Err(Refusal::invalid(
                "Für ein Team braucht es mindestens zwei Einzelanmeldungen.",
            ));
        }
        let mut next = teams::startnummern(conn, tournament)?
            .into_iter()
            .max()
            .unwrap_or(0);
        let mut formed = Vec::with_capacity(pairing.pairs.len());
        let mut used = Vec::with_capacity(pairing.pairs.len() * 2);
        for &(a, b) in &pairing.pairs {
            let (Some(a), Some(b)) = (now.get(a), now.get(b)) else {
                return Err(Refusal::invalid("Diese Paarung passt nicht zur Liste."));
            };
            next += 1;
            let input = TeamInput {
                startnummer: Some(next),
                name: None,
                player1: a.player.clone(),
                player2: b.player.clone(),
                club: joined(a.club.as_deref(), b.club.as_deref()),
                place: joined(a.place.as_deref(), b.place.as_deref()),
            };
            let row = teams::insert(conn, tournament, &input, next)?;
            crate::db::persons::link_teams(conn, &t, std::slice::from_ref(&row))?;
            record(
                conn,
                actor,
                tournament,
                TeamAction::PartnerDrawn,
                None,
                Some(&row),
            )?;
            formed.push(row.id);
            used.extend([a.id, b.id]);
        }
        singles::delete(conn, tournament, &used)?;
        record_single(
            conn,
            actor,
            tournament,
            (SingleAction::PartnerDraw, None),
            None::<&()>,
            Some(how),
        )?;
        Ok(formed)
    })
}
