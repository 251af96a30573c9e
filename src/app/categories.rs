//! Categories: the list (Leitung) and which team belongs to which (Büro).

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{self, AuditEvent, TournamentAction};
use crate::db::categories::{self, CategoryRow};
use crate::db::{Conn, write_tx};
use crate::domain::category::parse_names;
use crate::domain::form::FieldErrors;
use crate::domain::ids::{CategoryId, TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use serde::Serialize;

/// What became of a category list sent from the form.
pub enum Saved {
    Done,
    /// Nothing was written.
    Invalid(FieldErrors),
}

/// The Protokoll's view: whose categories, and which.
#[derive(Serialize)]
struct ListEntry<'a> {
    name: &'a str,
    categories: Vec<&'a str>,
}

fn record<T: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    action: TournamentAction,
    before: &T,
    after: &T,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: Some(id),
            event: AuditEvent::Tournament(action),
            entity_id: Some(id.0),
        },
        Some(before),
        Some(after),
    )?;
    Ok(())
}

/// Replaces the list of categories (names that stay keep their members).
pub fn save_list(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    raw: &str,
) -> Result<Saved, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let names = match parse_names(raw) {
        Ok(names) => names,
        Err(errors) => return Ok(Saved::Invalid(errors)),
    };
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        let before = categories::load(conn, id)?;
        categories::replace_list(conn, id, &names)?;
        let entry =
            |list: &[CategoryRow]| -> Vec<String> { list.iter().map(|c| c.name.clone()).collect() };
        let (old, new) = (entry(&before.list), names.clone());
        record(
            conn,
            actor,
            id,
            TournamentAction::Categories,
            &ListEntry {
                name: &t.name,
                categories: old.iter().map(String::as_str).collect(),
            },
            &ListEntry {
                name: &t.name,
                categories: new.iter().map(String::as_str).collect(),
            },
        )?;
        Ok(Saved::Done)
    })
}

/// The Protokoll's view of the memberships: Startnummer → category names.
#[derive(Serialize)]
struct MembersEntry<'a> {
    name: &'a str,
    members: Vec<(u32, Vec<String>)>,
}

/// Replaces which team belongs to which category; every team and category must be this
/// tournament's.
pub fn save_members(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    pairs: &[(TeamId, CategoryId)],
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        let teams = crate::db::teams::list(conn, id)?;
        let before = categories::load(conn, id)?;
        for (team, category) in pairs {
            if !teams.iter().any(|x| x.id == *team)
                || !before.list.iter().any(|c| c.id == *category)
            {
                return Err(Refusal::invalid(
                    "Team oder Kategorie gehört nicht zu diesem Turnier.",
                ));
            }
        }
        categories::set_members(conn, id, pairs)?;
        let after = categories::load(conn, id)?;
        let view = |c: &categories::Categories| -> Vec<(u32, Vec<String>)> {
            teams
                .iter()
                .map(|team| {
                    let names = c.names_of(team.id).into_iter().map(String::from).collect();
                    (team.startnummer.get(), names)
                })
                .filter(|(_, names): &(u32, Vec<String>)| !names.is_empty())
                .collect()
        };
        record(
            conn,
            actor,
            id,
            TournamentAction::CategoryMembers,
            &MembersEntry {
                name: &t.name,
                members: view(&before),
            },
            &MembersEntry {
                name: &t.name,
                members: view(&after),
            },
        )?;
        Ok(())
    })
}
