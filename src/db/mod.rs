//! Persistence: schema, row structs, and query functions taking `&mut Conn`.

pub mod audit;
pub mod backup;
pub mod categories;
pub mod differenzler;
pub mod dump;
pub mod instance;
pub mod marathon;
pub mod models;
pub mod notify;
pub mod persons;
pub mod prizes;
pub mod reports;
pub mod results;
pub mod schema;
pub mod seats;
pub mod series;
pub mod singles;
pub mod table_entry;
pub mod teams;
pub mod throttle;
pub mod tournament_data;
pub mod tournaments;
pub mod transfer;
pub mod types;
pub mod uploads;
pub mod users;

use crate::domain::ids::TournamentId;
use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{CustomizeConnection, ManageConnection, Pool as R2d2Pool, R2D2Connection};
use diesel::sqlite::SqliteConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

/// One connection type for both backends: the queries are written once in diesel's DSL and
/// run on either (the pattern of vaultwarden's `db/mod.rs`). SQLite is the embedded
/// default; `postgres://…` selects PostgreSQL.
#[derive(diesel::MultiConnection)]
pub enum Conn {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

pub type Pool = R2d2Pool<Manager>;

/// Opens connections of the backend the URL names, never the other: the derived
/// `establish` would try SQLite on a PostgreSQL URL that cannot be reached right now, and
/// create a file of that name.
#[derive(Debug, Clone)]
pub struct Manager {
    url: String,
    postgres: bool,
}

impl ManageConnection for Manager {
    type Connection = Conn;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<Conn, Self::Error> {
        let conn = match self.postgres {
            true => PgConnection::establish(&self.url).map(Conn::Postgres),
            false => SqliteConnection::establish(&self.url).map(Conn::Sqlite),
        };
        conn.map_err(diesel::r2d2::Error::ConnectionError)
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), Self::Error> {
        conn.ping().map_err(diesel::r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        std::thread::panicking() || conn.is_broken()
    }
}

/// What queries are built for: either backend, chosen at run time.
pub type Backend = <Conn as diesel::Connection>::Backend;

/// The same statement on the concrete connection of either backend, for the few that
/// diesel's combined backend cannot express (upserts, inserts of many rows at once).
macro_rules! on_backend {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::db::Conn::Sqlite($c) => $body,
            $crate::db::Conn::Postgres($c) => $body,
        }
    };
}
pub(crate) use on_backend;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgresql");

/// Whether a database URL names a PostgreSQL server (anything else is an SQLite file).
pub fn is_postgres(database_url: &str) -> bool {
    database_url.starts_with("postgres://") || database_url.starts_with("postgresql://")
}

#[derive(Debug)]
struct Pragmas;

impl CustomizeConnection<Conn, diesel::r2d2::Error> for Pragmas {
    fn on_acquire(&self, conn: &mut Conn) -> Result<(), diesel::r2d2::Error> {
        let Conn::Sqlite(conn) = conn else {
            return Ok(());
        };
        // WAL lets the live display read while the office writes; the busy timeout makes
        // concurrent writers wait instead of failing.
        conn.batch_execute(
            "PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; PRAGMA synchronous = NORMAL;",
        )
        .map_err(diesel::r2d2::Error::QueryError)
    }
}

/// Strips an optional `sqlite://` prefix so both URL and plain path work.
pub fn sqlite_path(database_url: &str) -> &str {
    database_url
        .strip_prefix("sqlite://")
        .or_else(|| database_url.strip_prefix("sqlite:"))
        .unwrap_or(database_url)
}

/// The tables every jassturnier database has; a file without them is not one.
const EXPECTED_TABLES: [&str; 5] = [
    "__diesel_schema_migrations",
    "users",
    "tournaments",
    "teams",
    "results",
];

#[derive(diesel::QueryableByName)]
struct TextRow {
    #[diesel(sql_type = diesel::sql_types::Text)]
    value: String,
}

/// Checks that a file is a sound jassturnier database: SQLite's integrity check passes and
/// the app's tables are there.
pub fn check_database_file(path: &std::path::Path) -> Result<(), String> {
    use diesel::RunQueryDsl;
    let shown = path.display();
    let url = path.to_str().ok_or("Der Pfad ist kein gültiger Text.")?;
    let mut conn = SqliteConnection::establish(url).map_err(|e| format!("{shown}: {e}"))?;
    let check: Vec<TextRow> =
        diesel::sql_query("SELECT integrity_check AS value FROM pragma_integrity_check")
            .load(&mut conn)
            .map_err(|e| format!("{shown}: {e}"))?;
    if check.first().map(|r| r.value.as_str()) != Some("ok") {
        return Err(format!("{shown}: die Datei ist beschädigt."));
    }
    let tables: Vec<TextRow> =
        diesel::sql_query("SELECT name AS value FROM sqlite_master WHERE type = 'table'")
            .load(&mut conn)
            .map_err(|e| format!("{shown}: {e}"))?;
    let missing: Vec<&str> = EXPECTED_TABLES
        .into_iter()
        .filter(|t| !tables.iter().any(|r| r.value == *t))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{shown} ist keine Jassturnier-Datenbank (es fehlen: {}).",
            missing.join(", ")
        ));
    }
    Ok(())
}

/// Refuses to start on a file that has content but is no jassturnier database (a damaged or
/// foreign file, a half-written backup): it would get a fresh schema, and its first-run
/// setup would be open. A missing or empty file is a new database.
fn refuse_foreign_file(path: &str) -> Result<(), String> {
    let path = std::path::Path::new(path);
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() > 0 => check_database_file(path).map_err(|e| {
            format!("Start abgebrochen: {e} Bitte eine gültige Datenbank oder Sicherung angeben.")
        }),
        _ => Ok(()),
    }
}

pub fn connect(database_url: &str, max_size: u32) -> Result<Pool, String> {
    let postgres = is_postgres(database_url);
    let url = match postgres {
        true => database_url.to_string(),
        false => {
            refuse_foreign_file(sqlite_path(database_url))?;
            sqlite_path(database_url).to_string()
        }
    };
    let pool = R2d2Pool::builder()
        .max_size(max_size)
        .connection_customizer(Box::new(Pragmas))
        .build(Manager { url, postgres })
        .map_err(|e| {
            format!(
                "Datenbank {} nicht erreichbar: {e}",
                shown_url(database_url)
            )
        })?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    migrate(&mut conn).map_err(|e| format!("Migrationen fehlgeschlagen: {e}"))?;
    if let Conn::Sqlite(_) = &mut *conn {
        remember_file(&mut conn).map_err(|e| e.to_string())?;
    }
    Ok(pool)
}

/// A database URL for messages: without a password.
pub fn shown_url(database_url: &str) -> String {
    match (database_url.find("://"), database_url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user_info = &database_url[scheme + 3..at];
            let user = user_info.split(':').next().unwrap_or_default();
            format!(
                "{}{user}@{}",
                &database_url[..scheme + 3],
                &database_url[at + 1..]
            )
        }
        _ => database_url.to_string(),
    }
}

/// Brings the schema up to date. Several instances may start at once on one PostgreSQL
/// database: the first migrates under an advisory lock, the others wait and find nothing to do.
fn migrate(conn: &mut Conn) -> Result<(), String> {
    match conn {
        Conn::Sqlite(_) => conn
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        Conn::Postgres(pg) => {
            pg.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
                .map_err(|e| e.to_string())?;
            let done = conn
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(|_| ())
                .map_err(|e| e.to_string());
            if let Conn::Postgres(pg) = conn {
                pg.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
                    .map_err(|e| e.to_string())?;
            }
            done
        }
    }
}

/// Advisory lock keys (PostgreSQL): one for migrations, one for writes to no tournament.
const MIGRATION_LOCK: i64 = 0x4a61_7373_0001;
const GLOBAL_WRITE_LOCK: i64 = 0x4a61_7373_0002;

/// What a write holds while it runs: one tournament (every change of a tournament's data),
/// or the database as a whole (accounts, a new or imported tournament).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    Tournament(TournamentId),
    Global,
}

/// The one way to write: a transaction that holds its [`Lock`] from its first statement,
/// so that a use case reads and writes with no other writer of the same tournament in
/// between. No other code opens a transaction (`.ci/run` checks).
///
/// SQLite: `BEGIN IMMEDIATE` (one writer for the whole file, as SQLite has anyway); before
/// it commits, the database file must still be the one the server opened: a write into a
/// file that was deleted or replaced meanwhile would be acknowledged and lost.
/// PostgreSQL: `BEGIN`, then the tournament's row `FOR UPDATE` (or an advisory lock for a
/// global write), so writes to different tournaments run side by side.
pub fn write_tx<T, E>(
    conn: &mut Conn,
    lock: Lock,
    work: impl FnOnce(&mut Conn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::TransactionManager;
    type Manager = <Conn as Connection>::TransactionManager;
    // Inside another write (the demo writes a whole tournament as one) a use case becomes a
    // savepoint of it, under the outer write's lock (and its own).
    let nested = Manager::transaction_manager_status_mut(conn)
        .transaction_depth()
        .ok()
        .flatten()
        .is_some();
    if nested {
        return conn.transaction(|conn| {
            take_lock(conn, lock)?;
            work(conn)
        });
    }
    let asked = std::time::Instant::now();
    // SQLite: this process's writers queue here, first come first served, so that only one
    // at a time waits in BEGIN IMMEDIATE. SQLite's own busy wait sleeps and retries, and
    // under 32 writers a few of them lost every retry for seconds.
    let _turn = match conn {
        Conn::Sqlite(_) => Some(WRITERS.turn()),
        Conn::Postgres(_) => None,
    };
    let start = std::time::Instant::now();
    let waited = start - asked;
    let done = match conn {
        // diesel's own `immediate_transaction` exists on the SQLite connection only.
        Conn::Sqlite(_) => begun_with(conn, "BEGIN IMMEDIATE", "BEGIN", |conn| {
            let done = work(conn)?;
            ensure_same_file(conn)?;
            Ok(done)
        }),
        Conn::Postgres(_) => conn.transaction(|conn| {
            take_lock(conn, lock)?;
            let done = work(conn)?;
            if let Lock::Tournament(id) = lock {
                tournament_changed(conn, id)?;
            }
            Ok(done)
        }),
    };
    let held = start.elapsed();
    // Every other writer waits this long: a long hold is worth a line in the log (the
    // scale benchmark reads it for the results import). Waiting for the turn is not
    // holding: it is logged apart.
    if held >= SLOW_WRITE {
        tracing::info!(held_ms = held.as_millis() as u64, "write lock held");
    }
    if waited >= SLOW_WRITE {
        tracing::info!(
            waited_ms = waited.as_millis() as u64,
            "write lock waited for"
        );
    }
    done
}

/// The queue of this process's SQLite writers: a ticket lock (first come, first served).
struct WriterQueue {
    /// The next ticket to hand out and the ticket whose turn it is.
    tickets: std::sync::Mutex<(u64, u64)>,
    turn_changed: std::sync::Condvar,
}

static WRITERS: WriterQueue = WriterQueue {
    tickets: std::sync::Mutex::new((0, 0)),
    turn_changed: std::sync::Condvar::new(),
};

/// A writer's turn: the next one's begins when it is dropped (also after a panic).
struct Turn(&'static WriterQueue);

impl WriterQueue {
    fn turn(&'static self) -> Turn {
        let mut tickets = self.tickets.lock().unwrap_or_else(|p| p.into_inner());
        let mine = tickets.0;
        tickets.0 += 1;
        while tickets.1 != mine {
            tickets = self
                .turn_changed
                .wait(tickets)
                .unwrap_or_else(|p| p.into_inner());
        }
        Turn(self)
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut tickets = self.0.tickets.lock().unwrap_or_else(|p| p.into_inner());
        tickets.1 += 1;
        drop(tickets);
        self.0.turn_changed.notify_all();
    }
}

/// A consistent read of many queries (a backup): one snapshot of the whole database, on
/// SQLite a read transaction (WAL keeps it while the office writes), on PostgreSQL
/// `REPEATABLE READ READ ONLY`.
pub fn read_snapshot<T, E>(
    conn: &mut Conn,
    work: impl FnOnce(&mut Conn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    begun_with(
        conn,
        "BEGIN DEFERRED",
        "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        work,
    )
}

/// A transaction opened with the backend's own `BEGIN …`, committed when `work` succeeds and
/// rolled back when it fails. Statements inside that open a transaction become savepoints.
fn begun_with<T, E>(
    conn: &mut Conn,
    sqlite_begin: &str,
    postgres_begin: &str,
    work: impl FnOnce(&mut Conn) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    match conn {
        Conn::Sqlite(c) => AnsiTransactionManager::begin_transaction_sql(c, sqlite_begin)?,
        Conn::Postgres(c) => AnsiTransactionManager::begin_transaction_sql(c, postgres_begin)?,
    }
    let done = work(conn);
    let ended = match (&done, &mut *conn) {
        (Ok(_), Conn::Sqlite(c)) => AnsiTransactionManager::commit_transaction(c),
        (Ok(_), Conn::Postgres(c)) => AnsiTransactionManager::commit_transaction(c),
        // The error that ended the work is the one to report; a failed rollback leaves the
        // connection broken, and the pool drops it.
        (Err(_), Conn::Sqlite(c)) => AnsiTransactionManager::rollback_transaction(c),
        (Err(_), Conn::Postgres(c)) => AnsiTransactionManager::rollback_transaction(c),
    };
    match (done, ended) {
        (Ok(value), Ok(())) => Ok(value),
        (Ok(_), Err(e)) => Err(e.into()),
        (Err(e), _) => Err(e),
    }
}

/// Inside a write to tournament `id` on PostgreSQL: tells the other instances at commit.
fn tournament_changed(conn: &mut Conn, id: TournamentId) -> diesel::QueryResult<()> {
    use diesel::RunQueryDsl;
    if let Conn::Postgres(pg) = conn {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<diesel::sql_types::Text, _>(notify::CHANNEL)
            .bind::<diesel::sql_types::Text, _>(id.0.to_string())
            .execute(pg)?;
    }
    Ok(())
}

/// The first statement of a PostgreSQL write: waits for the tournament's other writers (or
/// the other global writers). SQLite's `BEGIN IMMEDIATE` already holds the whole file.
fn take_lock(conn: &mut Conn, lock: Lock) -> diesel::QueryResult<()> {
    use diesel::prelude::*;
    let Conn::Postgres(pg) = conn else {
        return Ok(());
    };
    match lock {
        Lock::Tournament(id) => {
            schema::tournaments::table
                .find(id)
                .select(schema::tournaments::id)
                .for_update()
                .first::<TournamentId>(pg)
                .optional()?;
        }
        Lock::Global => {
            pg.batch_execute(&format!(
                "SELECT pg_advisory_xact_lock({GLOBAL_WRITE_LOCK})"
            ))?;
        }
    }
    Ok(())
}

/// From how long a write transaction on it is logged.
const SLOW_WRITE: std::time::Duration = std::time::Duration::from_millis(20);

/// The start of every refusal to save that is no fault of the user's.
pub const CANNOT_SAVE: &str = "Speichern nicht möglich";

/// The identity (device, inode) of each database file this process opened.
fn opened_files() -> &'static std::sync::Mutex<std::collections::HashMap<String, (u64, u64)>> {
    static OPENED: std::sync::OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, (u64, u64)>>,
    > = std::sync::OnceLock::new();
    OPENED.get_or_init(Default::default)
}

fn identity(path: &str) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(path).ok().map(|m| (m.len(), 0))
    }
}

/// The file of the connection's main database, as SQLite names it.
fn main_file(conn: &mut Conn) -> diesel::QueryResult<String> {
    use diesel::RunQueryDsl;
    let rows: Vec<TextRow> =
        diesel::sql_query("SELECT file AS value FROM pragma_database_list WHERE name = 'main'")
            .load(conn)?;
    Ok(rows.into_iter().next().map(|r| r.value).unwrap_or_default())
}

fn remember_file(conn: &mut Conn) -> diesel::QueryResult<()> {
    let file = main_file(conn)?;
    if let Some(id) = identity(&file) {
        let mut opened = opened_files().lock().unwrap_or_else(|p| p.into_inner());
        opened.insert(file, id);
    }
    Ok(())
}

fn ensure_same_file(conn: &mut Conn) -> diesel::QueryResult<()> {
    let file = main_file(conn)?;
    let expected = opened_files()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&file)
        .copied();
    let Some(expected) = expected else {
        return Ok(());
    };
    if identity(&file) == Some(expected) {
        return Ok(());
    }
    tracing::error!(
        file = %file,
        "die Datenbankdatei wurde entfernt oder ersetzt: Schreiben abgelehnt"
    );
    Err(diesel::result::Error::DatabaseError(
        diesel::result::DatabaseErrorKind::Unknown,
        Box::new(format!(
            "{CANNOT_SAVE}: die Datenbankdatei {file} wurde entfernt oder ersetzt. Der Server muss neu gestartet werden (auf einer Sicherung, falls die Datei fehlt). Lesen geht weiter."
        )),
    ))
}

/// The time of a write, to the microsecond: what both backends store alike (PostgreSQL keeps
/// microseconds), so that a database copied between them reads the same.
pub fn now() -> chrono::NaiveDateTime {
    use chrono::SubsecRound;
    chrono::Local::now().naive_local().trunc_subsecs(6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_url_is_shown_without_its_password() {
        assert_eq!(
            shown_url("postgres://jass:geheim@db.local:5432/turnier"),
            "postgres://jass@db.local:5432/turnier"
        );
        assert_eq!(
            shown_url("postgres://db.local/turnier"),
            "postgres://db.local/turnier"
        );
        assert_eq!(shown_url("jassturnier.sqlite3"), "jassturnier.sqlite3");
        assert!(is_postgres("postgresql://x/y") && !is_postgres("daten/postgres.sqlite3"));
    }
}
