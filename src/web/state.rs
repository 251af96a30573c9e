//! What every handler shares: the database pool, the threads that use it, the live hub.

use super::error::AppError;
use super::live::hub::LiveHub;
use super::threads::Workers;
use crate::db::{Conn, Pool};
use actix_web::web;

#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub public_url: Option<String>,
    pub live: std::sync::Arc<LiveHub>,
    /// The public Rangliste formats, rendered once per version.
    pub public_cache: std::sync::Arc<super::public_cache::PublicCache>,
    pub db_threads: Workers,
    /// Logins' password checks, one at a time at the lowest priority.
    pub password_checks: Workers,
    pub setup: SetupAccess,
    /// Where the automatic backups go; downloads are written there too while they are made.
    pub backup_dir: std::path::PathBuf,
    /// The address the server listens on (the Halle page tells the office what phones reach).
    pub listen: std::net::SocketAddr,
    /// The window of a team's phone writes.
    pub phone_window: crate::domain::throttle::PhoneWindow,
}

/// Who may run the first-run setup of an empty database: the machine itself (unless the
/// settings say otherwise) or whoever has the one-time code printed on the server's console.
#[derive(Clone)]
pub struct SetupAccess {
    pub code: String,
    pub from_loopback: bool,
}

/// Runs blocking database work off the async threads, at normal priority. A use case's
/// refusal or a query error becomes an [`AppError`] with `?`.
pub async fn db<F, T>(state: &web::Data<AppState>, f: F) -> Result<T, AppError>
where
    F: FnOnce(&mut Conn) -> Result<T, AppError> + Send + 'static,
    T: Send + 'static,
{
    let pool = state.pool.clone();
    // The request's span goes with the work to the database thread: what is logged there
    // belongs to the request (see `request_log`).
    let span = tracing::Span::current();
    state
        .db_threads
        .run(move || {
            let _request = span.enter();
            let mut conn = pool.get()?;
            f(&mut conn)
        })
        .await?
}
