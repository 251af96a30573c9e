//! Accounts and server-side sessions. Sessions live in the database, so they survive a
//! restart; the cookie carries only an opaque random token.

use super::audit::{self, Entry};
use super::models::{NewUser, SessionRow, UserRow};
use super::schema::{sessions, users};
use super::{Conn, now};
use crate::domain::ids::UserId;
use crate::domain::role::{Actor, Role};
use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use diesel::prelude::*;
use rand::Rng;

pub const MIN_PASSWORD_CHARS: usize = 8;
pub const SESSION_HOURS: i64 = 24;

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

fn verify_password(password: &str, hash: &str) -> bool {
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
pub fn create(
    conn: &mut Conn,
    actor: Option<&Actor>,
    username: &str,
    password_hash: &str,
    role: Role,
    only_if_first: bool,
) -> Result<Option<UserRow>, CreateError> {
    super::write_tx(conn, |conn| {
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
            .returning(UserRow::as_returning())
            .get_result(conn)?;
        let actor = actor.cloned().unwrap_or_else(|| actor_of(&row));
        audit::record(
            conn,
            Some(&actor),
            Entry {
                tournament: None,
                entity: "user",
                entity_id: Some(row.id.0),
                action: "create",
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
    super::write_tx(conn, |conn| {
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
        }
        let after: UserRow = users::table
            .find(user)
            .select(UserRow::as_select())
            .first(conn)?;
        let action = if change.password_hash.is_some() {
            "password"
        } else {
            "update"
        };
        audit::record(
            conn,
            actor,
            Entry {
                tournament: None,
                entity: "user",
                entity_id: Some(user.0),
                action,
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(after)
    })
}

/// Failed logins per account before it is locked for [`LOCKOUT_MINUTES`].
pub const MAX_FAILURES: i64 = 5;
pub const LOCKOUT_MINUTES: i64 = 15;

pub enum LoginOutcome {
    /// A new session: (token, csrf token).
    Opened(String, String),
    Refused,
    /// Too many failed attempts for this name recently; the password was not even checked.
    Throttled,
}

/// Checks the credentials and opens a session. Failed attempts are counted per user name;
/// after [`MAX_FAILURES`] within [`LOCKOUT_MINUTES`] further attempts are refused unchecked.
pub fn login(conn: &mut Conn, username: &str, password: &str) -> QueryResult<LoginOutcome> {
    use super::schema::login_failures;
    let username = username.trim();
    let since = now() - chrono::Duration::minutes(LOCKOUT_MINUTES);
    let recent: i64 = login_failures::table
        .filter(login_failures::username.eq(username))
        .filter(login_failures::at.gt(since))
        .count()
        .get_result(conn)?;
    if recent >= MAX_FAILURES {
        return Ok(LoginOutcome::Throttled);
    }
    let user = find_by_name(conn, username)?;
    let Some(user) = user.filter(|u| u.active && verify_password(password, &u.password_hash))
    else {
        diesel::insert_into(login_failures::table)
            .values((
                login_failures::username.eq(username),
                login_failures::at.eq(now()),
            ))
            .execute(conn)?;
        return Ok(LoginOutcome::Refused);
    };
    diesel::delete(login_failures::table.filter(login_failures::username.eq(username)))
        .execute(conn)?;
    let token = random_token();
    let csrf = random_token();
    let created = now();
    diesel::insert_into(sessions::table)
        .values((
            sessions::token.eq(&token),
            sessions::user_id.eq(user.id),
            sessions::csrf_token.eq(&csrf),
            sessions::created_at.eq(created),
            sessions::expires_at.eq(created + chrono::Duration::hours(SESSION_HOURS)),
        ))
        .execute(conn)?;
    Ok(LoginOutcome::Opened(token, csrf))
}

pub fn logout(conn: &mut Conn, token: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.find(token)).execute(conn)?;
    Ok(())
}

pub struct SessionInfo {
    pub actor: Actor,
    pub csrf: String,
    pub flash: Option<String>,
}

/// The live session of a token; with `take_flash` the flash message is consumed.
pub fn session(conn: &mut Conn, token: &str, take_flash: bool) -> QueryResult<Option<SessionInfo>> {
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
    if take_flash && session.flash.is_some() {
        diesel::update(sessions::table.find(token))
            .set(sessions::flash.eq(None::<String>))
            .execute(conn)?;
    }
    Ok(Some(SessionInfo {
        actor: actor_of(&user),
        csrf: session.csrf_token,
        flash: if take_flash { session.flash } else { None },
    }))
}

pub fn set_flash(conn: &mut Conn, token: &str, message: &str) -> QueryResult<()> {
    diesel::update(sessions::table.find(token))
        .set(sessions::flash.eq(Some(message)))
        .execute(conn)?;
    Ok(())
}
