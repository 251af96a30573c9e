//! Publishing versions to the hub: right after every request that may have written, and
//! every second for writes from outside the server (CLI).

use super::super::error::AppError;
use super::super::state::{AppState, db};
use crate::db::tournaments;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web;
use std::time::Duration;

/// How often writes from outside the server are picked up.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

pub async fn refresh(state: &web::Data<AppState>) -> Result<(), AppError> {
    let rows = db(state, |conn| Ok(tournaments::versions(conn)?)).await?;
    announce(state, &rows);
    Ok(())
}

/// Publishes the versions read after a write; the followed pages that changed are rendered
/// at once, so their viewers get the change as a delta. (A plain tokio task: the poller that
/// calls this for writes from outside the server is one, and runs outside actix's local set.)
pub fn announce(state: &web::Data<AppState>, rows: &[tournaments::Published]) {
    for id in state.live.publish(rows) {
        tokio::spawn(super::render::keep_current(state.clone(), id));
    }
}

/// Marks a response whose handler already published the versions after its write (read in
/// the same trip to the database), so the middleware need not read them again.
#[derive(Clone, Copy)]
pub struct VersionsPublished;

/// Middleware: after every request that may have written, publish the new versions at once,
/// so the next live request and every SSE subscriber see the change.
pub async fn refresh_after_writes(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let wrote = !matches!(*req.method(), Method::GET | Method::HEAD);
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let response = next.call(req).await?;
    let published = response
        .response()
        .extensions()
        .get::<VersionsPublished>()
        .is_some();
    if let (true, false, Some(state)) = (wrote, published, state)
        && let Err(e) = refresh(&state).await
    {
        tracing::warn!(error = %e, "live refresh failed");
    }
    Ok(response)
}

pub fn spawn_poller(state: web::Data<AppState>) {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(POLL_INTERVAL);
        loop {
            interval.tick().await;
            if let Err(e) = refresh(&state).await {
                tracing::warn!(error = %e, "live poll failed");
            }
        }
    });
}
