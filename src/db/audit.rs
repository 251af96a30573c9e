//! The audit log: every write, who and when, before → after as JSON.

use super::models::{AuditRow, NewAudit};
use super::schema::audit_log;
use super::{Conn, now};
use crate::domain::ids::TournamentId;
use crate::domain::role::Actor;
use diesel::prelude::*;
use serde::Serialize;

pub struct Entry<'a> {
    pub tournament: Option<TournamentId>,
    pub entity: &'a str,
    pub entity_id: Option<i32>,
    pub action: &'a str,
}

fn to_json<T: Serialize>(value: Option<&T>) -> QueryResult<Option<String>> {
    value
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))
}

/// Records one write; call it inside the transaction of the write itself.
pub fn record<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    actor: Option<&Actor>,
    entry: Entry<'_>,
    before: Option<&B>,
    after: Option<&A>,
) -> QueryResult<()> {
    let author = match actor {
        Some(actor) => Author::User(actor),
        None => Author::Named("system"),
    };
    record_as(conn, author, entry, before, after)
}

/// Who made a write: an account, or someone without one (a phone at a table, the system),
/// named as the Protokoll shows it.
#[derive(Clone, Copy)]
pub enum Author<'a> {
    User(&'a Actor),
    Named(&'a str),
}

/// [`record`] for writes that need not come from an account.
pub fn record_as<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    author: Author<'_>,
    entry: Entry<'_>,
    before: Option<&B>,
    after: Option<&A>,
) -> QueryResult<()> {
    let (user_id, username) = match author {
        Author::User(actor) => (Some(actor.id), actor.username.as_str()),
        Author::Named(name) => (None, name),
    };
    diesel::insert_into(audit_log::table)
        .values(NewAudit {
            at: now(),
            user_id,
            username,
            tournament_id: entry.tournament,
            entity: entry.entity,
            entity_id: entry.entity_id,
            action: entry.action,
            before: to_json(before)?,
            after: to_json(after)?,
        })
        .execute(conn)?;
    Ok(())
}

pub fn list(
    conn: &mut Conn,
    tournament: Option<TournamentId>,
    limit: i64,
) -> QueryResult<Vec<AuditRow>> {
    let mut query = audit_log::table
        .select(AuditRow::as_select())
        .order(audit_log::id.desc())
        .limit(limit)
        .into_boxed();
    if let Some(t) = tournament {
        query = query.filter(audit_log::tournament_id.eq(t));
    }
    query.load(conn)
}

pub fn count(conn: &mut Conn) -> QueryResult<i64> {
    audit_log::table.count().get_result(conn)
}
