//! Settings from flags and environment.

#[derive(Debug, Clone)]
pub struct Settings {
    /// Address to listen on; port 0 picks a free port (tests).
    pub bind: String,
    /// SQLite file (optionally prefixed `sqlite://`), or a `postgres://` URL.
    pub database_url: String,
    pub workers: usize,
    /// Nice value of the HTTP worker threads; see [`crate::web::threads`].
    pub worker_nice: i32,
    /// The address players' phones reach the app at, for QR codes on printed sheets
    /// (e.g. `http://192.168.1.20:8080`); None: the address of the printing request.
    pub public_url: Option<String>,
    /// Where automatic backups go; None: `backups/` next to the database file.
    pub backup_dir: Option<std::path::PathBuf>,
    /// How often to back up while a tournament is open and something changed; zero: never.
    pub backup_interval: std::time::Duration,
    /// Whether the first-run setup is open to requests from the machine itself without the
    /// setup code. Off behind a reverse proxy on the same machine, where every visitor
    /// arrives from loopback.
    pub setup_from_loopback: bool,
    /// How often the live pages look for writes made outside this server (the CLI, other
    /// instances on PostgreSQL, where notifications usually bring them sooner).
    pub live_poll: std::time::Duration,
    /// PostgreSQL: listen for the writes of other instances (`LISTEN/NOTIFY`).
    pub pg_listen: bool,
    /// The window of a team's phone writes (10 minutes; shorter only for the compressed
    /// day of the simulator).
    pub phone_window: crate::domain::throttle::PhoneWindow,
}

impl Settings {
    pub fn backup_dir(&self) -> std::path::PathBuf {
        self.backup_dir.clone().unwrap_or_else(|| {
            if crate::db::is_postgres(&self.database_url) {
                return "backups".into();
            }
            std::path::Path::new(crate::db::sqlite_path(&self.database_url))
                .parent()
                .map(|p| p.join("backups"))
                .unwrap_or_else(|| "backups".into())
        })
    }
}

pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "jassturnier.sqlite3";
