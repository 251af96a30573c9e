//! Settings from flags and environment.

#[derive(Debug, Clone)]
pub struct Settings {
    /// Address to listen on; port 0 picks a free port (tests).
    pub bind: String,
    /// SQLite file (optionally prefixed `sqlite://`).
    pub database_url: String,
    pub workers: usize,
}

pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "jassturnier.sqlite3";
