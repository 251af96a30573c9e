//! A tournament's categories and which team belongs to which: by the category's rule over
//! the register's persons, or by the office's choice (see `domain::category`).

use super::Conn;
use super::schema::{categories, persons, team_categories, team_persons, tournaments};
use super::types::Nat;
use crate::domain::category::{PersonFacts, Rule, RuleKind, choice_for, is_member, same_name};
use crate::domain::ids::{CategoryId, TeamId, TournamentId};
use crate::domain::mode::{Entrant, Mode};
use crate::domain::person::Geschlecht;
use diesel::prelude::*;
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CategoryRow {
    pub id: CategoryId,
    pub name: String,
    pub rule: Rule,
}

/// The categories and their members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Categories {
    pub list: Vec<CategoryRow>,
    /// Who is a member, by rule or by choice.
    pub members: HashMap<TeamId, Vec<CategoryId>>,
    /// The teams a category's rule admits (categories with a rule only).
    pub by_rule: HashSet<(TeamId, CategoryId)>,
    /// The office's choices as stored (for a category by hand: its members).
    pub choices: HashMap<(TeamId, CategoryId), bool>,
}

impl Categories {
    /// Whether the office's choice sets the team against the category's rule.
    pub fn against_rule(&self, team: TeamId, category: &CategoryRow) -> bool {
        category.rule != Rule::ByHand
            && self.is_member(team, category.id) != self.by_rule.contains(&(team, category.id))
    }

    /// The choices to store so that exactly `wanted` are members, for the given teams:
    /// none where a rule gives the membership anyway.
    pub fn choices_for(
        &self,
        teams: &[TeamId],
        wanted: &[(TeamId, CategoryId)],
    ) -> Vec<(TeamId, CategoryId, bool)> {
        let wanted: HashSet<&(TeamId, CategoryId)> = wanted.iter().collect();
        let mut out = Vec::new();
        for &team in teams {
            for c in &self.list {
                let by_rule = self.by_rule.contains(&(team, c.id));
                if let Some(member) = choice_for(c.rule, by_rule, wanted.contains(&(team, c.id))) {
                    out.push((team, c.id, member));
                }
            }
        }
        out
    }

    pub fn is_member(&self, team: TeamId, category: CategoryId) -> bool {
        self.members
            .get(&team)
            .is_some_and(|cs| cs.contains(&category))
    }
    /// The names of a team's categories, in the list's order.
    pub fn names_of(&self, team: TeamId) -> Vec<&str> {
        self.list
            .iter()
            .filter(|c| self.is_member(team, c.id))
            .map(|c| c.name.as_str())
            .collect()
    }
}

fn rule_of(kind: RuleKind, year: Option<Nat>) -> QueryResult<Rule> {
    Rule::of(kind, year.map(Nat::get)).ok_or_else(|| {
        diesel::result::Error::DeserializationError(
            format!("category rule «{}» without its year", kind.key()).into(),
        )
    })
}

pub fn load(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Categories> {
    let rows: Vec<(CategoryId, String, RuleKind, Option<Nat>)> = categories::table
        .filter(categories::tournament_id.eq(tournament))
        .select((
            categories::id,
            categories::name,
            categories::rule,
            categories::rule_year,
        ))
        .order((categories::position, categories::id))
        .load(conn)?;
    let list = rows
        .into_iter()
        .map(|(id, name, kind, year)| {
            Ok(CategoryRow {
                id,
                name,
                rule: rule_of(kind, year)?,
            })
        })
        .collect::<QueryResult<Vec<_>>>()?;
    let stored = stored(conn, tournament)?;
    let choices: HashMap<(TeamId, CategoryId), bool> = stored
        .iter()
        .filter_map(|(key, (member, _))| member.map(|m| (*key, m)))
        .collect();
    let closed: bool = tournaments::table
        .find(tournament)
        .select(tournaments::closed)
        .first(conn)?;
    // Closed: the rules' answers as they were at closing.
    let by_rule = match closed {
        true => stored
            .iter()
            .filter(|(_, (_, at_closing))| *at_closing)
            .map(|(key, _)| *key)
            .collect(),
        false => admitted(conn, tournament, &list)?,
    };
    let mut members: HashMap<TeamId, Vec<CategoryId>> = HashMap::new();
    let teams: HashSet<TeamId> = choices
        .keys()
        .map(|(team, _)| *team)
        .chain(by_rule.iter().map(|(team, _)| *team))
        .collect();
    for team in teams {
        for c in &list {
            let choice = choices.get(&(team, c.id)).copied();
            if is_member(c.rule, by_rule.contains(&(team, c.id)), choice) {
                members.entry(team).or_default().push(c.id);
            }
        }
    }
    Ok(Categories {
        list,
        members,
        by_rule,
        choices,
    })
}

type Key = (TeamId, CategoryId);

/// The stored rows: the office's choice (if any) and the rule's answer at closing.
fn stored(
    conn: &mut Conn,
    tournament: TournamentId,
) -> QueryResult<HashMap<Key, (Option<bool>, bool)>> {
    let rows: Vec<(TeamId, CategoryId, Option<bool>, bool)> = team_categories::table
        .filter(team_categories::tournament_id.eq(tournament))
        .select((
            team_categories::team_id,
            team_categories::category_id,
            team_categories::member,
            team_categories::closed_by_rule,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(team, category, member, at_closing)| ((team, category), (member, at_closing)))
        .collect())
}

/// The teams each rule admits, from the persons linked to their seats.
fn admitted(
    conn: &mut Conn,
    tournament: TournamentId,
    list: &[CategoryRow],
) -> QueryResult<HashSet<Key>> {
    let mut out = HashSet::new();
    if list.iter().all(|c| c.rule == Rule::ByHand) {
        return Ok(out);
    }
    let mode: Mode = tournaments::table
        .find(tournament)
        .select(tournaments::mode)
        .first(conn)?;
    let seats = match mode.entrant() {
        Entrant::Team => 2,
        Entrant::Player => 1,
    };
    let rows: Vec<(TeamId, Option<Geschlecht>, Option<Nat>)> = team_persons::table
        .inner_join(persons::table.on(persons::id.eq(team_persons::person_id)))
        .filter(team_persons::tournament_id.eq(tournament))
        .select((
            team_persons::team_id,
            persons::geschlecht,
            persons::jahrgang,
        ))
        .load(conn)?;
    let mut facts: HashMap<TeamId, Vec<PersonFacts>> = HashMap::new();
    for (team, geschlecht, jahrgang) in rows {
        facts.entry(team).or_default().push(PersonFacts {
            geschlecht,
            jahrgang: jahrgang.map(Nat::get),
        });
    }
    for (team, persons) in &facts {
        for c in list.iter().filter(|c| c.rule.admits(persons, seats)) {
            out.insert((*team, c.id));
        }
    }
    Ok(out)
}

/// Replaces the list: a name that stays keeps its id, rule and members; a name gone takes
/// its members with it; a new name gets `rule_of_new(name)`.
pub fn replace_list(
    conn: &mut Conn,
    tournament: TournamentId,
    names: &[String],
    rule_of_new: impl Fn(&str) -> Rule,
) -> QueryResult<()> {
    let before = load(conn, tournament)?.list;
    for old in &before {
        if !names.iter().any(|n| same_name(n, &old.name)) {
            diesel::delete(team_categories::table.filter(team_categories::category_id.eq(old.id)))
                .execute(conn)?;
            diesel::delete(categories::table.find(old.id)).execute(conn)?;
        }
    }
    for (position, name) in (1u32..).zip(names) {
        let position = Nat::of(position)?;
        match before.iter().find(|old| same_name(&old.name, name)) {
            Some(old) => {
                diesel::update(categories::table.find(old.id))
                    .set((categories::name.eq(name), categories::position.eq(position)))
                    .execute(conn)?;
            }
            None => {
                let rule = rule_of_new(name);
                diesel::insert_into(categories::table)
                    .values((
                        categories::tournament_id.eq(tournament),
                        categories::position.eq(position),
                        categories::name.eq(name),
                        categories::rule.eq(rule.kind()),
                        categories::rule_year.eq(rule.year().map(Nat::of).transpose()?),
                    ))
                    .execute(conn)?;
            }
        }
    }
    Ok(())
}

/// Changes a category's rule (its stored choices stay).
pub fn set_rule(conn: &mut Conn, category: CategoryId, rule: Rule) -> QueryResult<()> {
    diesel::update(categories::table.find(category))
        .set((
            categories::rule.eq(rule.kind()),
            categories::rule_year.eq(rule.year().map(Nat::of).transpose()?),
        ))
        .execute(conn)?;
    Ok(())
}

/// Sets exactly the members `wanted` (every other team of `teams` is not one), keeping
/// only the choices the rules do not give.
pub fn set_members(
    conn: &mut Conn,
    tournament: TournamentId,
    teams: &[TeamId],
    wanted: &[(TeamId, CategoryId)],
) -> QueryResult<()> {
    let choices = load(conn, tournament)?.choices_for(teams, wanted);
    set_choices(conn, tournament, &choices)
}

/// Closing a tournament keeps what each rule gives now: its official category rankings do
/// not follow later edits of the register. (Called once the tournament is closed.)
pub fn freeze(conn: &mut Conn, tournament: TournamentId) -> QueryResult<()> {
    let list = load(conn, tournament)?.list;
    let now = admitted(conn, tournament, &list)?;
    let choices = stored(conn, tournament)?
        .into_iter()
        .filter_map(|(key, (member, _))| member.map(|m| (key, m)))
        .collect();
    write_rows(conn, tournament, &choices, &now)
}

/// Reopening: the rules answer from the register again (the office's choices stay).
pub fn thaw(conn: &mut Conn, tournament: TournamentId) -> QueryResult<()> {
    let choices = load(conn, tournament)?.choices;
    write_rows(conn, tournament, &choices, &HashSet::new())
}

/// A team whose person leaves the register keeps the categories it has now.
pub fn keep_members(conn: &mut Conn, tournament: TournamentId, team: TeamId) -> QueryResult<()> {
    let c = load(conn, tournament)?;
    let mut choices: Vec<(TeamId, CategoryId, bool)> = c
        .choices
        .iter()
        .filter(|((t, _), _)| *t != team)
        .map(|((t, cat), member)| (*t, *cat, *member))
        .collect();
    for category in &c.list {
        let member = c.is_member(team, category.id);
        if category.rule != Rule::ByHand || member {
            choices.push((team, category.id, member));
        }
    }
    set_choices(conn, tournament, &choices)
}

/// Replaces every stored choice of the tournament (what the rules gave at closing stays).
pub fn set_choices(
    conn: &mut Conn,
    tournament: TournamentId,
    choices: &[(TeamId, CategoryId, bool)],
) -> QueryResult<()> {
    let at_closing: HashSet<Key> = stored(conn, tournament)?
        .into_iter()
        .filter(|(_, (_, at_closing))| *at_closing)
        .map(|(key, _)| key)
        .collect();
    let choices: HashMap<Key, bool> = choices
        .iter()
        .map(|(team, category, member)| ((*team, *category), *member))
        .collect();
    write_rows(conn, tournament, &choices, &at_closing)
}

/// Writes the tournament's rows anew: a row per choice or rule's answer at closing.
fn write_rows(
    conn: &mut Conn,
    tournament: TournamentId,
    choices: &HashMap<Key, bool>,
    at_closing: &HashSet<Key>,
) -> QueryResult<()> {
    diesel::delete(team_categories::table.filter(team_categories::tournament_id.eq(tournament)))
        .execute(conn)?;
    let mut keys: Vec<Key> = choices.keys().chain(at_closing.iter()).copied().collect();
    keys.sort();
    keys.dedup();
    for chunk in keys.chunks(super::audit::BATCH_ROWS) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|key| {
                (
                    team_categories::team_id.eq(key.0),
                    team_categories::category_id.eq(key.1),
                    team_categories::tournament_id.eq(tournament),
                    team_categories::member.eq(choices.get(key).copied()),
                    team_categories::closed_by_rule.eq(at_closing.contains(key)),
                )
            })
            .collect();
        super::on_backend!(conn, |c| diesel::insert_into(team_categories::table)
            .values(&rows)
            .execute(c))?;
    }
    Ok(())
}

/// A team deleted: its memberships go with it.
pub fn forget_team(conn: &mut Conn, team: TeamId) -> QueryResult<()> {
    diesel::delete(team_categories::table.filter(team_categories::team_id.eq(team)))
        .execute(conn)?;
    Ok(())
}
