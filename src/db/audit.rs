//! The audit log: every write, who and when, before → after as JSON.

use super::models::{AuditRow, NewAudit};
use super::schema::audit_log;
use super::{Conn, now};
pub use crate::domain::audit_event::*;
use crate::domain::ids::TournamentId;
use crate::domain::role::Actor;
use diesel::prelude::*;
use serde::Serialize;

/// One write for the Protokoll: which tournament (none: accounts), what happened, and the
/// row it happened to.
pub struct Entry {
    pub tournament: Option<TournamentId>,
    pub event: AuditEvent,
    pub entity_id: Option<i32>,
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
    entry: Entry,
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

/// Rows written in one statement at most: a batch of thousands is split (PostgreSQL takes at
/// most 65'535 bound values per statement).
pub const BATCH_ROWS: usize = 500;

/// Records many writes of one author at once (a whole import, a batch of visas): the same
/// entries as [`record`] one by one, in a few statements. Over a network connection every
/// statement is a round trip; 5000 of them cost seconds.
pub fn record_many<'a, B: Serialize + 'a, A: Serialize + 'a>(
    conn: &mut Conn,
    actor: &Actor,
    entries: impl IntoIterator<Item = (Entry, Option<&'a B>, Option<&'a A>)>,
) -> QueryResult<()> {
    let at = now();
    let rows = entries
        .into_iter()
        .map(|(entry, before, after)| audit_row(at, Author::User(actor), &entry, before, after))
        .collect::<QueryResult<Vec<_>>>()?;
    for chunk in rows.chunks(BATCH_ROWS) {
        super::on_backend!(conn, |c| diesel::insert_into(audit_log::table)
            .values(chunk)
            .execute(c))?;
    }
    Ok(())
}

/// [`record`] for writes that need not come from an account.
pub fn record_as<B: Serialize, A: Serialize>(
    conn: &mut Conn,
    author: Author<'_>,
    entry: Entry,
    before: Option<&B>,
    after: Option<&A>,
) -> QueryResult<()> {
    diesel::insert_into(audit_log::table)
        .values(audit_row(now(), author, &entry, before, after)?)
        .execute(conn)?;
    Ok(())
}

/// The stored row of one entry.
fn audit_row<'a, B: Serialize, A: Serialize>(
    at: chrono::NaiveDateTime,
    author: Author<'a>,
    entry: &Entry,
    before: Option<&B>,
    after: Option<&A>,
) -> QueryResult<NewAudit<'a>> {
    let (user_id, username) = match author {
        Author::User(actor) => (Some(actor.id), actor.username.as_str()),
        Author::Named(name) => (None, name),
    };
    Ok(NewAudit {
        at,
        user_id,
        username,
        tournament_id: entry.tournament,
        entity: entry.event.entity(),
        entity_id: entry.entity_id,
        action: entry.event.action(),
        before: to_json(before)?,
        after: to_json(after)?,
    })
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
