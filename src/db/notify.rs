//! PostgreSQL only: every write to a tournament notifies the other instances serving the same
//! database (`NOTIFY` inside the writing transaction, see `write_tx`, so it is sent when — and
//! only if — the write commits); each instance listens on one connection of its own. The live hub's poll
//! stays the fallback that keeps pages correct when a notification is lost.

use crate::domain::ids::TournamentId;
use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use std::ops::ControlFlow;
use std::time::Duration;

pub const CHANNEL: &str = "jassturnier_versions";

/// How often the listening connection looks for notifications that arrived (reading its
/// socket, no query): the most a change waits before another instance hears of it.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// Listens for changes written by any instance and calls `changed` with the tournaments
/// (every few milliseconds, mostly with none) until it answers `Break` (the server stopped)
/// or the connection fails (the caller connects again). Blocks its thread.
pub fn listen(
    database_url: &str,
    mut changed: impl FnMut(Vec<TournamentId>) -> ControlFlow<()>,
) -> Result<(), String> {
    let mut conn = PgConnection::establish(database_url).map_err(|e| e.to_string())?;
    conn.batch_execute(&format!("LISTEN {CHANNEL}"))
        .map_err(|e| e.to_string())?;
    loop {
        let mut ids = Vec::new();
        for notification in conn.notifications_iter() {
            let notification = notification.map_err(|e| e.to_string())?;
            if let Ok(id) = notification.payload.parse() {
                ids.push(TournamentId(id));
            }
        }
        ids.sort_unstable();
        ids.dedup();
        if changed(ids).is_break() {
            return Ok(());
        }
        std::thread::sleep(LOOK_EVERY);
    }
}
