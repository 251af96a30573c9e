//! The failure counters behind throttling ([`crate::domain::throttle`]): failed logins and
//! wrong table codes, one row per counter and subject.

use super::schema::login_throttle;
use super::{Conn, now};
use crate::db::types::Nat;
use crate::domain::throttle::{self, Counter};
use diesel::prelude::*;

fn throttle_row(
    conn: &mut Conn,
    counter: Counter,
    subject: &str,
) -> QueryResult<Option<(Nat, chrono::NaiveDateTime, Option<chrono::NaiveDateTime>)>> {
    login_throttle::table
        .find((counter.key(), subject))
        .select((
            login_throttle::failures,
            login_throttle::last_failure,
            login_throttle::blocked_until,
        ))
        .first(conn)
        .optional()
}

/// Seconds the counter still blocks, if it does.
pub fn blocked(conn: &mut Conn, counter: Counter, subject: &str) -> QueryResult<Option<i64>> {
    let at = now();
    Ok(throttle_row(conn, counter, subject)?
        .and_then(|(_, _, until)| until)
        .filter(|until| *until > at)
        .map(|until| (until - at).num_seconds().max(1)))
}

/// Counts one failure on a counter, blocking it for a while past its free attempts.
pub fn count_failure(conn: &mut Conn, counter: Counter, subject: &str) -> QueryResult<()> {
    let at = now();
    let failures = match throttle_row(conn, counter, subject)? {
        Some((failures, last, _)) => throttle::current_failures(failures.get(), last, at),
        None => 0,
    } + 1;
    let until = throttle::block_after(counter, failures).map(|d| at + d);
    super::on_backend!(conn, |c| diesel::insert_into(login_throttle::table)
        .values((
            login_throttle::kind.eq(counter.key()),
            login_throttle::subject.eq(subject),
            login_throttle::failures.eq(Nat::of(failures)?),
            login_throttle::last_failure.eq(at),
            login_throttle::blocked_until.eq(until),
        ))
        .on_conflict((login_throttle::kind, login_throttle::subject))
        .do_update()
        .set((
            login_throttle::failures.eq(Nat::of(failures)?),
            login_throttle::last_failure.eq(at),
            login_throttle::blocked_until.eq(until),
        ))
        .execute(c))?;
    Ok(())
}

/// Counts one write of a team's phones ([`throttle::phone_write`]) and stores the window.
pub fn phone_write(
    conn: &mut Conn,
    subject: &str,
    window: throttle::PhoneWindow,
) -> QueryResult<throttle::PhoneWrite> {
    let counter = Counter::PhoneWrites;
    let stored = throttle_row(conn, counter, subject)?
        .map(|(count, since, until)| (count.get(), since, until));
    let decided = throttle::phone_write(stored, now(), window);
    let (count, since, until) = match decided {
        throttle::PhoneWrite::Allowed { count, since } => (count, since, None),
        throttle::PhoneWrite::Stopped { newly: false, .. } => return Ok(decided),
        throttle::PhoneWrite::Stopped { until, newly: true } => {
            let (count, since, _) = stored.unwrap_or((0, now(), None));
            (count, since, Some(until))
        }
    };
    super::on_backend!(conn, |c| diesel::insert_into(login_throttle::table)
        .values((
            login_throttle::kind.eq(counter.key()),
            login_throttle::subject.eq(subject),
            login_throttle::failures.eq(Nat::of(count)?),
            login_throttle::last_failure.eq(since),
            login_throttle::blocked_until.eq(until),
        ))
        .on_conflict((login_throttle::kind, login_throttle::subject))
        .do_update()
        .set((
            login_throttle::failures.eq(Nat::of(count)?),
            login_throttle::last_failure.eq(since),
            login_throttle::blocked_until.eq(until),
        ))
        .execute(c))?;
    Ok(decided)
}

/// The subjects of a counter blocked now, with the end of the block.
pub fn blocked_now(
    conn: &mut Conn,
    counter: Counter,
) -> QueryResult<std::collections::HashMap<String, chrono::NaiveDateTime>> {
    Ok(login_throttle::table
        .filter(login_throttle::kind.eq(counter.key()))
        .filter(login_throttle::blocked_until.gt(now()))
        .select((login_throttle::subject, login_throttle::blocked_until))
        .load::<(String, Option<chrono::NaiveDateTime>)>(conn)?
        .into_iter()
        .filter_map(|(subject, until)| Some((subject, until?)))
        .collect())
}

/// The current failures of a counter (old ones forgotten); 0 without a row.
pub fn failures(conn: &mut Conn, counter: Counter, subject: &str) -> QueryResult<u32> {
    Ok(throttle_row(conn, counter, subject)?
        .map(|(failures, last, _)| throttle::current_failures(failures.get(), last, now()))
        .unwrap_or(0))
}

/// Clears one counter (after a success).
pub fn clear(conn: &mut Conn, counter: Counter, subject: &str) -> QueryResult<()> {
    diesel::delete(login_throttle::table.find((counter.key(), subject))).execute(conn)?;
    Ok(())
}

/// Forgets counters without a failure for a day.
pub fn purge(conn: &mut Conn) -> QueryResult<()> {
    diesel::delete(
        login_throttle::table.filter(
            login_throttle::last_failure
                .lt(now() - chrono::Duration::hours(throttle::FORGET_AFTER_HOURS)),
        ),
    )
    .execute(conn)?;
    Ok(())
}

/// Every subject's current failures on one counter (for the office's warning list).
pub fn all_failures(
    conn: &mut Conn,
    counter: Counter,
) -> QueryResult<std::collections::HashMap<String, u32>> {
    let at = now();
    Ok(login_throttle::table
        .filter(login_throttle::kind.eq(counter.key()))
        .select((
            login_throttle::subject,
            login_throttle::failures,
            login_throttle::last_failure,
        ))
        .load::<(String, Nat, chrono::NaiveDateTime)>(conn)?
        .into_iter()
        .map(|(subject, failures, last)| {
            (
                subject,
                throttle::current_failures(failures.get(), last, at),
            )
        })
        .collect())
}
