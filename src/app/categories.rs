//! Categories: the list and the rules (Leitung) and which team belongs to which (Büro).

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{self, AuditEvent, TournamentAction};
use crate::db::categories::{self, Categories, CategoryRow};
use crate::db::{Conn, write_tx};
use crate::domain::category::{Rule, parse_names, parse_rule};
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

/// The Protokoll's view: whose categories, and which (each with its rule).
#[derive(Serialize)]
struct ListEntry<'a> {
    name: &'a str,
    categories: Vec<String>,
}

impl<'a> ListEntry<'a> {
    fn of(name: &'a str, list: &[CategoryRow]) -> Self {
        ListEntry {
            name,
            categories: list
                .iter()
                .map(|c| format!("{} ({})", c.name, c.rule.describe()))
                .collect(),
        }
    }
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
        let year = u32::try_from(chrono::Datelike::year(&t.date)).unwrap_or_default();
        categories::replace_list(conn, id, &names, |name| Rule::preset(name, year))?;
        record_list(conn, actor, &t, &before)?;
        Ok(Saved::Done)
    })
}

/// The Protokoll's entry of a changed list or rules: before, and as it is now.
fn record_list(
    conn: &mut Conn,
    actor: &Actor,
    t: &crate::db::models::TournamentRow,
    before: &Categories,
) -> Result<(), Refusal> {
    let after = categories::load(conn, t.id)?;
    record(
        conn,
        actor,
        t.id,
        TournamentAction::Categories,
        &ListEntry::of(&t.name, &before.list),
        &ListEntry::of(&t.name, &after.list),
    )
}

/// A category's rule as the form sends it: the kind's key and the year field.
pub struct RuleInput {
    pub category: CategoryId,
    pub kind: String,
    pub year: String,
}

/// Sets the categories' rules. Changing a category from by hand to a rule lets the rule
/// decide (the ticks go); from a rule to by hand keeps who is a member now (as ticks); from
/// one rule to another keeps the office's choices against it.
pub fn save_rules(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    input: &[RuleInput],
) -> Result<Saved, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Tournament(id), |conn| {
        // Checked before the write begins: a refused form changes nothing.
        let t = guard::open_tournament(conn, id)?;
        let before = categories::load(conn, id)?;
        let year = u32::try_from(chrono::Datelike::year(&t.date)).unwrap_or_default();
        let mut errors = FieldErrors::new();
        let mut rules: Vec<(CategoryId, Rule)> = Vec::new();
        for i in input {
            let Some(c) = before.list.iter().find(|x| x.id == i.category) else {
                return Err(Refusal::invalid(
                    "Kategorie gehört nicht zu diesem Turnier.",
                ));
            };
            if let Some(rule) = parse_rule(&mut errors, &c.name, &i.kind, &i.year, year) {
                rules.push((c.id, rule));
            }
        }
        if !errors.is_empty() {
            return Ok(Saved::Invalid(errors));
        }
        guard::begin_write(conn, id)?;
        let rules = &rules;
        let choices = choices_after_rules(&before, rules);
        for (category, rule) in rules {
            categories::set_rule(conn, *category, *rule)?;
        }
        categories::set_choices(conn, id, &choices)?;
        record_list(conn, actor, &t, &before)?;
        Ok(Saved::Done)
    })
}

/// The choices to keep when the rules change (see [`save_rules`]).
fn choices_after_rules(
    before: &Categories,
    rules: &[(CategoryId, Rule)],
) -> Vec<(TeamId, CategoryId, bool)> {
    let new_rule = |c: &CategoryRow| {
        rules
            .iter()
            .find(|(id, _)| *id == c.id)
            .map_or(c.rule, |(_, r)| *r)
    };
    let mut out = Vec::new();
    for c in &before.list {
        let kept = before
            .choices
            .iter()
            .filter(|((_, cat), _)| *cat == c.id)
            .map(|((team, cat), member)| (*team, *cat, *member));
        match (c.rule == Rule::ByHand, new_rule(c) == Rule::ByHand) {
            (true, true) | (false, false) => out.extend(kept),
            // The rule decides from now on.
            (true, false) => {}
            // Who is a member now stays one, by hand.
            (false, true) => out.extend(
                before
                    .members
                    .iter()
                    .filter(|(_, cs)| cs.contains(&c.id))
                    .map(|(team, _)| (*team, c.id, true)),
            ),
        }
    }
    out.sort();
    out
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
        let all: Vec<TeamId> = teams.iter().map(|t| t.id).collect();
        categories::set_members(conn, id, &all, pairs)?;
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
