//! Registering teams: by hand, by CSV import, edits and deletion before the draw.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{AuditEvent, TeamAction};
use crate::db::models::{TeamRow, TournamentRow};
use crate::db::{Conn, audit, teams, write_tx};
use crate::domain::draw;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use crate::domain::team::TeamInput;
use crate::domain::team_import::ImportedTeam;

/// Why a team was not written: the Startnummer (shown at its field), or another refusal.
#[derive(Debug)]
pub enum TeamRefusal {
    StartnummerTaken(u32),
    Refused(Refusal),
}

impl From<Refusal> for TeamRefusal {
    fn from(e: Refusal) -> Self {
        TeamRefusal::Refused(e)
    }
}

impl From<diesel::result::Error> for TeamRefusal {
    fn from(e: diesel::result::Error) -> Self {
        TeamRefusal::Refused(e.into())
    }
}

/// Teams can be added after the draw only when tables are drawn per Passe.
pub(super) fn ensure_may_add(tournament: &crate::db::models::TournamentRow) -> Result<(), Refusal> {
    if !draw::may_add_teams(tournament.draw_seed.map(|_| tournament.draw_mode)) {
        return Err(Refusal::invalid(format!(
            "Die Lose sind gezogen (fester Tischplan): neue Teams sind nur mit «Auslosung pro {}» möglich.",
            tournament.mode.round()
        )));
    }
    Ok(())
}

pub(super) fn record(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    action: TeamAction,
    before: Option<&TeamRow>,
    after: Option<&TeamRow>,
) -> Result<(), Refusal> {
    let team = after.or(before).map(|t| t.id.0);
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(tournament),
            event: AuditEvent::Team(action),
            entity_id: team,
        },
        before,
        after,
    )?;
    Ok(())
}

pub fn create(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    input: &TeamInput,
) -> Result<TeamId, TeamRefusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let t = guard::begin_write(conn, tournament)?;
        ensure_may_add(&t)?;
        let startnummer = match input.startnummer {
            Some(n) if teams::taken(conn, tournament, n, None)? => {
                return Err(TeamRefusal::StartnummerTaken(n));
            }
            Some(n) => n,
            None => {
                teams::startnummern(conn, tournament)?
                    .into_iter()
                    .max()
                    .unwrap_or(0)
                    + 1
            }
        };
        let row = teams::insert(conn, tournament, input, startnummer)?;
        crate::db::persons::link_teams(conn, &t, std::slice::from_ref(&row))?;
        record(
            conn,
            actor,
            tournament,
            TeamAction::Create,
            None,
            Some(&row),
        )?;
        Ok(row.id)
    })
}

pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    team: TeamId,
    input: &TeamInput,
) -> Result<(), TeamRefusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let t = guard::begin_write(conn, tournament)?;
        let before = teams::find(conn, tournament, team)?.ok_or_else(no_team)?;
        // A Startnummer is never renumbered silently: an empty field keeps the old one.
        let startnummer = input.startnummer.unwrap_or(before.startnummer.get());
        if teams::taken(conn, tournament, startnummer, Some(team))? {
            return Err(TeamRefusal::StartnummerTaken(startnummer));
        }
        let after = teams::update(conn, team, input, startnummer)?;
        crate::db::persons::link_teams(conn, &t, std::slice::from_ref(&after))?;
        record(
            conn,
            actor,
            tournament,
            TeamAction::Update,
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}

fn no_team() -> Refusal {
    Refusal::NotFound("Dieses Team gibt es in diesem Turnier nicht.".into())
}

pub fn delete(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    team: TeamId,
) -> Result<TeamRow, Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let t = guard::begin_write(conn, tournament)?;
        if t.draw_seed.is_some() {
            return Err(Refusal::invalid(
                "Nach der Auslosung kann ein Team nicht mehr gelöscht werden, nur noch zurückgezogen oder disqualifiziert.",
            ));
        }
        let before = teams::find(conn, tournament, team)?.ok_or_else(no_team)?;
        teams::delete(conn, team)?;
        record(
            conn,
            actor,
            tournament,
            TeamAction::Delete,
            Some(&before),
            None,
        )?;
        Ok(before)
    })
}

/// Deletes several teams at once, only before the draw; all or nothing.
pub fn delete_many(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    ids: &[TeamId],
) -> Result<Vec<TeamRow>, Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let mut removed = Vec::with_capacity(ids.len());
        for team in ids {
            removed.push(delete(conn, actor, tournament, *team)?);
        }
        Ok(removed)
    })
}

fn ensure_before_draw(t: &TournamentRow) -> Result<(), Refusal> {
    if t.draw_seed.is_some() {
        return Err(Refusal::invalid(
            "Nach der Auslosung können Teams nicht mehr ersetzt oder gelöscht werden, nur noch zurückgezogen oder disqualifiziert.",
        ));
    }
    Ok(())
}

/// What the office confirmed of an import's preview: the register as it was shown (its
/// fingerprint) and who the ambiguous players are.
#[derive(Default)]
pub struct Confirmed {
    pub fingerprint: Option<String>,
    pub choices: std::collections::HashMap<(usize, u32), super::persons::SeatChoice>,
}

/// Writes a whole import in one transaction; any clash rolls everything back. `replace`
/// removes every team of the tournament first (only before the draw). The players become
/// persons of the register as the preview showed (`confirmed`); a register changed since
/// the preview is refused.
pub fn import(
    conn: &mut Conn,
    actor: &Actor,
    tournament: TournamentId,
    imported: &[ImportedTeam],
    replace: bool,
    confirmed: &Confirmed,
) -> Result<usize, TeamRefusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(tournament), |conn| {
        let t = guard::begin_write(conn, tournament)?;
        ensure_may_add(&t)?;
        let matches = super::persons::import_matches(conn, t.mode.entrant(), imported)?;
        if confirmed
            .fingerprint
            .as_ref()
            .is_some_and(|f| *f != matches.fingerprint)
        {
            return Err(Refusal::Conflict(
                "Das Register der Personen hat sich seit der Vorschau geändert: bitte die Datei nochmals hochladen und die Vorschau prüfen. Nichts wurde importiert.".into(),
            )
            .into());
        }
        if replace {
            ensure_before_draw(&t)?;
            for before in teams::list(conn, tournament)? {
                teams::delete(conn, before.id)?;
                record(
                    conn,
                    actor,
                    tournament,
                    TeamAction::Delete,
                    Some(&before),
                    None,
                )?;
            }
        }
        // Checked first, then written together: a few statements for thousands of teams.
        let mut taken: std::collections::HashSet<u32> =
            teams::startnummern(conn, tournament)?.into_iter().collect();
        for team in imported {
            if !taken.insert(team.startnummer) {
                return Err(TeamRefusal::StartnummerTaken(team.startnummer));
            }
        }
        let new: Vec<(&TeamInput, u32)> =
            imported.iter().map(|t| (&t.team, t.startnummer)).collect();
        let rows = teams::insert_many(conn, tournament, &new)?;
        // The players found by name alone or chosen first; then the rest by name and Ort
        // (a seat linked already stays).
        let by_number: std::collections::HashMap<u32, TeamId> =
            rows.iter().map(|r| (r.startnummer.get(), r.id)).collect();
        super::persons::apply_import_choices(
            conn,
            &t,
            &matches.seats,
            &confirmed.choices,
            &by_number,
        )?;
        crate::db::persons::link_teams(conn, &t, &rows)?;
        super::persons::note_facts(conn, &matches.seats, &by_number)?;
        add_categories(conn, tournament, imported, &by_number)?;
        audit::record_many(
            conn,
            actor,
            rows.iter().map(|row| {
                let entry = audit::Entry {
                    tournament: Some(tournament),
                    event: AuditEvent::Team(TeamAction::Import),
                    entity_id: Some(row.id.0),
                };
                (entry, None::<&TeamRow>, Some(row))
            }),
        )?;
        Ok(imported.len())
    })
}

/// Keeps an uploaded team file on the server until its preview is confirmed (the page
/// carries only the returned token).
pub fn keep_upload(
    conn: &mut Conn,
    id: TournamentId,
    user: crate::domain::ids::UserId,
    bytes: &[u8],
) -> Result<String, Refusal> {
    Ok(crate::db::uploads::keep(conn, id, user, bytes)?)
}

/// Takes back the file of a confirmed preview (once: the token is spent); None if it
/// expired or was imported already.
pub fn take_upload(
    conn: &mut Conn,
    id: TournamentId,
    user: crate::domain::ids::UserId,
    token: &str,
) -> Result<Option<Vec<u8>>, Refusal> {
    Ok(crate::db::uploads::take(conn, id, user, token)?)
}

/// The categories an import file names per team (column `kategorie`) join the ones the
/// teams have; a name the tournament does not have refuses the whole import.
fn add_categories(
    conn: &mut Conn,
    tournament: TournamentId,
    imported: &[ImportedTeam],
    teams: &std::collections::HashMap<u32, TeamId>,
) -> Result<(), Refusal> {
    if imported.iter().all(|t| t.categories.is_empty()) {
        return Ok(());
    }
    let current = crate::db::categories::load(conn, tournament)?;
    let mut pairs: Vec<(TeamId, crate::domain::ids::CategoryId)> = current
        .members
        .iter()
        .flat_map(|(team, cs)| cs.iter().map(move |c| (*team, *c)))
        .collect();
    for row in imported {
        for name in &row.categories {
            let category = current
                .list
                .iter()
                .find(|c| crate::domain::category::same_name(&c.name, name))
                .ok_or_else(|| {
                    Refusal::invalid(format!(
                        "Zeile {}: die Kategorie «{name}» gibt es in diesem Turnier nicht (zuerst unter Kategorien anlegen). Nichts wurde importiert.",
                        row.line
                    ))
                })?;
            if let Some(team) = teams.get(&row.startnummer) {
                pairs.push((*team, category.id));
            }
        }
    }
    pairs.sort();
    pairs.dedup();
    let all: Vec<TeamId> = teams::list(conn, tournament)?
        .iter()
        .map(|t| t.id)
        .collect();
    crate::db::categories::set_members(conn, tournament, &all, &pairs)?;
    Ok(())
}
