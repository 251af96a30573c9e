//! Persistence: schema, row structs, and query functions taking `&mut Conn`.

pub mod audit;
pub mod backup;
pub mod dump;
pub mod marathon;
pub mod models;
pub mod results;
pub mod schema;
pub mod seats;
pub mod singles;
pub mod teams;
pub mod tournament_data;
pub mod tournaments;
pub mod transfer;
pub mod types;
pub mod uploads;
pub mod users;

use diesel::connection::SimpleConnection;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, Pool as R2d2Pool};
use diesel::sqlite::SqliteConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

pub type Conn = SqliteConnection;
pub type Pool = R2d2Pool<ConnectionManager<Conn>>;

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

#[derive(Debug)]
struct Pragmas;

impl CustomizeConnection<Conn, diesel::r2d2::Error> for Pragmas {
    fn on_acquire(&self, conn: &mut Conn) -> Result<(), diesel::r2d2::Error> {
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
    use diesel::{Connection, RunQueryDsl};
    let shown = path.display();
    let url = path.to_str().ok_or("Der Pfad ist kein gültiger Text.")?;
    let mut conn = Conn::establish(url).map_err(|e| format!("{shown}: {e}"))?;
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
    refuse_foreign_file(sqlite_path(database_url))?;
    let manager = ConnectionManager::<Conn>::new(sqlite_path(database_url));
    let pool = R2d2Pool::builder()
        .max_size(max_size)
        .connection_customizer(Box::new(Pragmas))
        .build(manager)
        .map_err(|e| format!("Datenbank {database_url} nicht erreichbar: {e}"))?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    conn.run_pending_migrations(MIGRATIONS)
        .map_err(|e| format!("Migrationen fehlgeschlagen: {e}"))?;
    remember_file(&mut conn).map_err(|e| e.to_string())?;
    Ok(pool)
}

/// The one way to write: an immediate (write-locking) transaction, so that a use case reads
/// and writes with no other writer in between. No other code opens a transaction. Before it
/// commits, the database file must still be the one the server opened: a write into a file
/// that was deleted or replaced meanwhile would be acknowledged and lost.
pub fn write_tx<T, E>(conn: &mut Conn, work: impl FnOnce(&mut Conn) -> Result<T, E>) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    let checked = |conn: &mut Conn| {
        let done = work(conn)?;
        ensure_same_file(conn)?;
        Ok(done)
    };
    // Inside another write (the demo writes a whole tournament as one) a use case becomes a
    // savepoint of it; on its own it takes the write lock at once.
    let nested =
        <AnsiTransactionManager as TransactionManager<Conn>>::transaction_manager_status_mut(conn)
            .transaction_depth()
            .ok()
            .flatten()
            .is_some();
    if nested {
        diesel::Connection::transaction(conn, checked)
    } else {
        let start = std::time::Instant::now();
        let done = conn.immediate_transaction(checked);
        let held = start.elapsed();
        // Every other writer waits this long: a long hold is worth a line in the log (the
        // scale benchmark reads it for the results import).
        if held >= SLOW_WRITE {
            tracing::info!(held_ms = held.as_millis() as u64, "write lock held");
        }
        done
    }
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

pub fn now() -> chrono::NaiveDateTime {
    chrono::Local::now().naive_local()
}
