//! Persistence: schema, row structs, and query functions taking `&mut Conn`.

pub mod audit;
pub mod backup;
pub mod dump;
pub mod marathon;
pub mod models;
pub mod results;
pub mod schema;
pub mod seats;
pub mod teams;
pub mod tournament_data;
pub mod tournaments;
pub mod transfer;
pub mod types;
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

pub fn connect(database_url: &str, max_size: u32) -> Result<Pool, String> {
    let manager = ConnectionManager::<Conn>::new(sqlite_path(database_url));
    let pool = R2d2Pool::builder()
        .max_size(max_size)
        .connection_customizer(Box::new(Pragmas))
        .build(manager)
        .map_err(|e| format!("Datenbank {database_url} nicht erreichbar: {e}"))?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    conn.run_pending_migrations(MIGRATIONS)
        .map_err(|e| format!("Migrationen fehlgeschlagen: {e}"))?;
    Ok(pool)
}

/// The one way to write: an immediate (write-locking) transaction, so that a use case reads
/// and writes with no other writer in between. No other code opens a transaction.
pub fn write_tx<T, E>(conn: &mut Conn, work: impl FnOnce(&mut Conn) -> Result<T, E>) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    conn.immediate_transaction(work)
}

pub fn now() -> chrono::NaiveDateTime {
    chrono::Local::now().naive_local()
}
