//! Accounts and server-side sessions. Sessions live in the database, so they survive a
//! restart; the cookie carries only an opaque random token.

use super::Lock;
use super::audit::{self, AuditEvent, Entry, UserAction};
use super::models::{NewUser, SessionRow, UserRow};
use super::schema::{login_throttle, sessions, users};
use super::throttle::{blocked, count_failure};
use super::{Conn, now};
use crate::domain::ids::UserId;
use crate::domain::role::{Actor, Role};
use crate::domain::throttle::{self, Counter};
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use diesel::prelude::*;
use rand::Rng;

pub const MIN_PASSWORD_CHARS: usize = 8;
pub const SESSION_HOURS: i64 = 24;

/// What the database keeps of a session token: its hash. A backup or export of the database
/// therefore holds no token that opens a session.
fn stored_token(token: &str) -> String {
    use blake2::{Blake2s256, Digest};
    Blake2s256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

pub fn random_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hash_password(password: &str) -> Result<String, String> {
    let salt_bytes: [u8; 16] = rand::rng().random();
    let salt = SaltString::encode_b64(&salt_bytes).map_err(|e| e.to_string())?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| e.to_string())
}

/// How many passwords this process has checked: refusing an unknown name must cost a check
/// like refusing a wrong password (the tests count them; nothing else reads it).
static PASSWORD_CHECKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

pub fn password_checks() -> usize {
    PASSWORD_CHECKS.load(std::sync::atomic::Ordering::Relaxed)
}

fn verify_password(password: &str, hash: &str) -> bool {
    PASSWORD_CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

pub fn check_username(name: &str) -> Result<&str, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err("Benutzername: 1 bis 64 Zeichen.".into());
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return Err("Benutzername: nur Buchstaben, Ziffern, Punkt, Binde- und Unterstrich.".into());
    }
    Ok(name)
}

pub fn check_password(password: &str) -> Result<(), String> {
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(format!(
            "Passwort: mindestens {MIN_PASSWORD_CHARS} Zeichen."
        ));
    }
    Ok(())
}

fn actor_of(row: &UserRow) -> Actor {
    Actor {
        id: row.id,
        username: row.username.clone(),
        role: row.role,
    }
}

pub fn count(conn: &mut Conn) -> QueryResult<i64> {
    users::table.count().get_result(conn)
}

pub fn list(conn: &mut Conn) -> QueryResult<Vec<UserRow>> {
    users::table
        .select(UserRow::as_select())
        .order(users::username)
        .load(conn)
}

pub fn find_by_name(conn: &mut Conn, username: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::username.eq(username))
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

pub enum CreateError {
    Taken,
    Db(diesel::result::Error),
}

impl From<diesel::result::Error> for CreateError {
    fn from(e: diesel::result::Error) -> Self {
        CreateError::Db(e)
    }
}

/// Creates an account; `only_if_first` makes it the first-run setup, refused once any user exists.
/// An account as a database copy brings it (inside the copy's write; no audit entry: the
/// account is not new, only moved).
pub fn insert_account(
    conn: &mut Conn,
    username: &str,
    password_hash: &str,
    role: Role,
    active: bool,
    created_at: chrono::NaiveDateTime,
) -> QueryResult<UserId> {
    diesel::insert_into(users::table)
        .values(NewUser {
            username,
            password_hash,
            role,
            active,
            created_at,
        })
        .returning(users::id)
        .get_result(conn)
}

pub fn create(
    conn: &mut Conn,
    actor: Option<&Actor>,
    username: &str,
    password_hash: &str,
    role: Role,
    only_if_first: bool,
) -> Result<Option<UserRow>, CreateError> {
    super::write_tx(conn, Lock::Global, |conn| {
        if only_if_first && count(conn)? > 0 {
            return Ok(None);
        }
        if find_by_name(conn, username)?.is_some() {
            return Err(CreateError::Taken);
        }
        let row: UserRow = diesel::insert_into(users::table)
            .values(NewUser {
                username,
                password_hash,
                role,
                active: true,
                created_at: now(),
            })
            .returning(users::all_columns)
            .get_result(conn)?;
        let actor = actor.cloned().unwrap_or_else(|| actor_of(&row));
        audit::record(
            conn,
            Some(&actor),
            Entry {
                tournament: None,
                event: AuditEvent::User(UserAction::Create),
                entity_id: Some(row.id.0),
            },
            None::<&UserRow>,
            Some(&row),
        )?;
        Ok(Some(row))
    })
}

pub struct UserChange<'a> {
    pub role: Option<Role>,
    pub active: Option<bool>,
    pub password_hash: Option<&'a str>,
}

pub fn update(
    conn: &mut Conn,
    actor: Option<&Actor>,
    user: UserId,
    change: UserChange<'_>,
) -> QueryResult<UserRow> {
    super::write_tx(conn, Lock::Global, |conn| {
        let before: UserRow = users::table
            .find(user)
            .select(UserRow::as_select())
            .first(conn)?;
        if let Some(role) = change.role {
            diesel::update(users::table.find(user))
                .set(users::role.eq(role))
                .execute(conn)?;
        }
        if let Some(active) = change.active {
            diesel::update(users::table.find(user))
                .set(users::active.eq(active))
                .execute(conn)?;
            if !active {
                diesel::delete(sessions::table.filter(sessions::user_id.eq(user))).execute(conn)?;
            }
        }
        if let Some(hash) = change.password_hash {
            diesel::update(users::table.find(user))
                .set(users::password_hash.eq(hash))
                .execute(conn)?;
            diesel::delete(sessions::table.filter(sessions::user_id.eq(user))).execute(conn)?;
            // A new password unlocks the account everywhere.
            unlock(conn, &before.username)?;
        }
        let after: UserRow = users::table
            .find(user)
            .select(UserRow::as_select())
            .first(conn)?;
        let action = if change.password_hash.is_some() {
            UserAction::Password
        } else {
            UserAction::Update
        };
        audit::record(
            conn,
            actor,
            Entry {
                tournament: None,
                event: AuditEvent::User(action),
                entity_id: Some(user.0),
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(after)
    })
}

pub enum LoginOutcome {
    /// A new session: (token, csrf token).
    Opened(String, String),
    Refused,
    /// Too many failed attempts from this address (for this account) recently; the password
    /// was not even checked. The wait in seconds.
    Throttled(i64),
}

/// A hash that no password matches, verified for unknown accounts so that refusing an
/// unknown name costs the same as refusing a wrong password (names cannot be probed).
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| {
        hash_password(&random_token()).unwrap_or_else(|_| {
            // Not reached with Argon2's defaults; any parseable hash keeps the timing.
            "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".into()
        })
    })
}

/// Forgets counters without a failure for a day, and expired sessions.
fn purge(conn: &mut Conn) -> QueryResult<()> {
    let at = now();
    super::throttle::purge(conn)?;
    diesel::delete(sessions::table.filter(sessions::expires_at.lt(at))).execute(conn)?;
    Ok(())
}

/// The first step of a login, before any password is checked: refused unchecked while the
/// address or the name at the address is blocked; otherwise the hash to check the password
/// against (a dummy for a name that is no account, so refusing it costs the same).
pub enum LoginCheck {
    Throttled(i64),
    Verify {
        hash: String,
        user: Option<(UserId, bool)>,
    },
}

impl LoginCheck {
    /// Whether `password` opens the account: the slow part (Argon2), run without a
    /// connection and away from the threads the office's requests need.
    pub fn matches(&self, password: &str) -> Option<UserId> {
        match self {
            LoginCheck::Throttled(_) => None,
            LoginCheck::Verify { hash, user } => {
                let checked = verify_password(password, hash);
                user.filter(|&(_, active)| checked && active)
                    .map(|(id, _)| id)
            }
        }
    }
}

/// The key a name is counted under at an address: every name, valid or not, an account or
/// not, is counted alike, so that the throttle neither reveals which names exist nor lets
/// an invalid name through uncounted (a long one is cut: the key stays short).
fn attempt_key(username: &str, address: &str) -> String {
    let name: String = username.trim().chars().take(64).collect();
    throttle::account_at(&name, address)
}

/// Checks whether a client at `address` may try `username` now, and against what.
/// Failures are counted per address and per name at that address
/// ([`crate::domain::throttle`]); a blocked counter refuses unchecked.
pub fn login_check(conn: &mut Conn, username: &str, address: &str) -> QueryResult<LoginCheck> {
    let wait = match blocked(conn, Counter::Address, address)? {
        Some(wait) => Some(wait),
        None => blocked(
            conn,
            Counter::AccountAtAddress,
            &attempt_key(username, address),
        )?,
    };
    if let Some(wait) = wait {
        return Ok(LoginCheck::Throttled(wait));
    }
    let user = match check_username(username) {
        Ok(name) => find_by_name(conn, name)?,
        Err(_) => None,
    };
    Ok(LoginCheck::Verify {
        hash: user
            .as_ref()
            .map_or_else(|| dummy_hash().to_string(), |u| u.password_hash.clone()),
        user: user.map(|u| (u.id, u.active)),
    })
}

/// The last step of a login: a session for the account whose password matched, or one
/// failure counted for the address and the name at it.
pub fn login_finish(
    conn: &mut Conn,
    username: &str,
    address: &str,
    matched: Option<UserId>,
) -> QueryResult<LoginOutcome> {
    let key = attempt_key(username, address);
    let Some(user_id) = matched else {
        super::write_tx(conn, Lock::Global, |conn| {
            count_failure(conn, Counter::Address, address)?;
            count_failure(conn, Counter::AccountAtAddress, &key)?;
            purge(conn)
        })?;
        return Ok(LoginOutcome::Refused);
    };
    let token = random_token();
    let csrf = random_token();
    super::write_tx(conn, Lock::Global, |conn| {
        diesel::delete(login_throttle::table.find((Counter::Address.key(), address)))
            .execute(conn)?;
        diesel::delete(login_throttle::table.find((Counter::AccountAtAddress.key(), key.as_str())))
            .execute(conn)?;
        purge(conn)?;
        let created = now();
        diesel::insert_into(sessions::table)
            .values((
                sessions::token.eq(stored_token(&token)),
                sessions::user_id.eq(user_id),
                sessions::csrf_token.eq(&csrf),
                sessions::created_at.eq(created),
                sessions::expires_at.eq(created + chrono::Duration::hours(SESSION_HOURS)),
            ))
            .execute(conn)
    })?;
    Ok(LoginOutcome::Opened(token, csrf))
}

/// A whole login in one go (check, password, finish), for the tests of this module.
#[cfg(test)]
fn login(
    conn: &mut Conn,
    username: &str,
    password: &str,
    address: &str,
) -> QueryResult<LoginOutcome> {
    match login_check(conn, username, address)? {
        LoginCheck::Throttled(wait) => Ok(LoginOutcome::Throttled(wait)),
        check => {
            let matched = check.matches(password);
            login_finish(conn, username, address, matched)
        }
    }
}

/// Clears the failure counters of an account at every address; the number cleared.
pub fn unlock(conn: &mut Conn, username: &str) -> QueryResult<usize> {
    let prefix = throttle::account_at(username, "");
    let subjects: Vec<String> = login_throttle::table
        .filter(login_throttle::kind.eq(Counter::AccountAtAddress.key()))
        .select(login_throttle::subject)
        .load::<String>(conn)?
        .into_iter()
        .filter(|s| s.starts_with(&prefix))
        .collect();
    diesel::delete(
        login_throttle::table
            .filter(login_throttle::kind.eq(Counter::AccountAtAddress.key()))
            .filter(login_throttle::subject.eq_any(&subjects)),
    )
    .execute(conn)
}

pub fn logout(conn: &mut Conn, token: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.find(stored_token(token))).execute(conn)?;
    Ok(())
}

pub struct SessionInfo {
    pub actor: Actor,
    pub csrf: String,
    pub flash: Option<String>,
}

/// The live session of a token (a read only: the flash message comes from its cookie).
pub fn session(conn: &mut Conn, token: &str) -> QueryResult<Option<SessionInfo>> {
    let token = stored_token(token);
    let token = token.as_str();
    let found: Option<(SessionRow, UserRow)> = sessions::table
        .inner_join(users::table)
        .filter(sessions::token.eq(token))
        .filter(sessions::expires_at.gt(now()))
        .filter(users::active.eq(true))
        .select((SessionRow::as_select(), UserRow::as_select()))
        .first(conn)
        .optional()?;
    let Some((session, user)) = found else {
        return Ok(None);
    };
    Ok(Some(SessionInfo {
        actor: actor_of(&user),
        csrf: session.csrf_token,
        flash: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusing_an_unknown_name_costs_a_password_check_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite3");
        let pool = super::super::connect(path.to_str().unwrap(), 1).unwrap();
        let mut conn = pool.get().unwrap();
        let hash = hash_password("richtig-richtig").unwrap();
        assert!(matches!(
            create(&mut conn, None, "leitung", &hash, Role::Leitung, true),
            Ok(Some(_))
        ));
        let checks = |conn: &mut Conn, name: &str, password: &str| {
            let before = password_checks();
            let outcome = login(conn, name, password, "127.0.0.9").unwrap();
            (
                password_checks() - before,
                matches!(outcome, LoginOutcome::Opened(..)),
            )
        };
        assert_eq!(checks(&mut conn, "leitung", "falsch-falsch"), (1, false));
        assert_eq!(checks(&mut conn, "niemand", "falsch-falsch"), (1, false));
        assert_eq!(checks(&mut conn, &"x".repeat(300), "falsch"), (1, false));
        assert_eq!(checks(&mut conn, "leitung", "richtig-richtig"), (1, true));
    }
}
