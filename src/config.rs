//! Settings from flags and environment.

#[derive(Debug, Clone)]
pub struct Settings {
    /// Address to listen on; port 0 picks a free port (tests).
    pub bind: String,
    /// SQLite file (optionally prefixed `sqlite://`).
    pub database_url: String,
    pub workers: usize,
    /// The address players' phones reach the app at, for QR codes on printed sheets
    /// (e.g. `http://192.168.1.20:8080`); None: the address of the printing request.
    pub public_url: Option<String>,
}

pub const DEFAULT_BIND: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE: &str = "jassturnier.sqlite3";
