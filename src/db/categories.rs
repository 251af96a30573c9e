//! A tournament's categories and which team belongs to which.

use super::Conn;
use super::schema::{categories, team_categories};
use super::types::Nat;
use crate::domain::category::same_name;
use crate::domain::ids::{CategoryId, TeamId, TournamentId};
use diesel::prelude::*;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = categories)]
pub struct CategoryRow {
    pub id: CategoryId,
    pub name: String,
}

/// The categories and their members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Categories {
    pub list: Vec<CategoryRow>,
    pub members: HashMap<TeamId, Vec<CategoryId>>,
}

impl Categories {
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

pub fn load(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Categories> {
    let list = categories::table
        .filter(categories::tournament_id.eq(tournament))
        .select(CategoryRow::as_select())
        .order((categories::position, categories::id))
        .load(conn)?;
    let pairs: Vec<(TeamId, CategoryId)> = team_categories::table
        .filter(team_categories::tournament_id.eq(tournament))
        .select((team_categories::team_id, team_categories::category_id))
        .order((team_categories::team_id, team_categories::category_id))
        .load(conn)?;
    let mut members: HashMap<TeamId, Vec<CategoryId>> = HashMap::new();
    for (team, category) in pairs {
        members.entry(team).or_default().push(category);
    }
    Ok(Categories { list, members })
}

/// Replaces the list: a name that stays keeps its id and members; a name gone takes its
/// members with it.
pub fn replace_list(
    conn: &mut Conn,
    tournament: TournamentId,
    names: &[String],
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
                diesel::insert_into(categories::table)
                    .values((
                        categories::tournament_id.eq(tournament),
                        categories::position.eq(position),
                        categories::name.eq(name),
                    ))
                    .execute(conn)?;
            }
        }
    }
    Ok(())
}

/// Replaces every membership of the tournament.
pub fn set_members(
    conn: &mut Conn,
    tournament: TournamentId,
    pairs: &[(TeamId, CategoryId)],
) -> QueryResult<()> {
    diesel::delete(team_categories::table.filter(team_categories::tournament_id.eq(tournament)))
        .execute(conn)?;
    for chunk in pairs.chunks(super::audit::BATCH_ROWS) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|(team, category)| {
                (
                    team_categories::team_id.eq(*team),
                    team_categories::category_id.eq(*category),
                    team_categories::tournament_id.eq(tournament),
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
