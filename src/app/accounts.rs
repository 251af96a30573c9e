//! Accounts and sessions: the first-run setup, the Leitung's list of accounts, logins and
//! logouts. Each write runs in its own transaction under the global lock (in `db::users`);
//! these are the use cases the web layer calls for them.

use super::Refusal;
use crate::db::models::UserRow;
use crate::db::{Conn, users};
use crate::domain::ids::UserId;
use crate::domain::role::{Actor, Role};

pub use crate::db::users::{
    CreateError, LoginCheck, LoginOutcome, SessionInfo, UserChange, check_password, check_username,
    hash_password,
};

/// The live session of a token (a read: the flash message comes from its cookie).
pub fn session(conn: &mut Conn, token: &str) -> Result<Option<SessionInfo>, Refusal> {
    Ok(users::session(conn, token)?)
}

/// How many accounts there are (none: the first-run setup is open).
pub fn count(conn: &mut Conn) -> Result<i64, Refusal> {
    Ok(users::count(conn)?)
}

/// Every account, for the Leitung's list.
pub fn list(conn: &mut Conn) -> Result<Vec<UserRow>, Refusal> {
    Ok(users::list(conn)?)
}

/// Creates an account (`only_if_first`: the first-run setup, refused once any exists).
pub fn create(
    conn: &mut Conn,
    actor: Option<&Actor>,
    username: &str,
    password_hash: &str,
    role: Role,
    only_if_first: bool,
) -> Result<Option<UserRow>, CreateError> {
    users::create(conn, actor, username, password_hash, role, only_if_first)
}

/// Changes an account's role, whether it is active, or its password.
pub fn update(
    conn: &mut Conn,
    actor: Option<&Actor>,
    user: UserId,
    change: UserChange<'_>,
) -> Result<UserRow, Refusal> {
    Ok(users::update(conn, actor, user, change)?)
}

/// Before a password is checked: whether this address (and name) may try now, and the
/// hash to check against.
pub fn login_check(conn: &mut Conn, username: &str, address: &str) -> Result<LoginCheck, Refusal> {
    Ok(users::login_check(conn, username, address)?)
}

/// After the password was checked: counts a failure, or opens a session.
pub fn login_finish(
    conn: &mut Conn,
    username: &str,
    address: &str,
    matched: Option<UserId>,
) -> Result<LoginOutcome, Refusal> {
    Ok(users::login_finish(conn, username, address, matched)?)
}

/// Ends a session.
pub fn logout(conn: &mut Conn, token: &str) -> Result<(), Refusal> {
    Ok(users::logout(conn, token)?)
}
