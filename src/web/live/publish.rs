//! Publishing versions to the hub: right after every request that may have written; when
//! another instance on the same PostgreSQL database notifies a write; and by a poll (every
//! second by default) for writes from outside the server (CLI) and lost notifications.

use super::super::error::AppError;
use super::super::state::{AppState, db};
use crate::app::read;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web;
use std::ops::ControlFlow;
use std::time::Duration;

/// How long the notification listener waits before connecting again after a failure.
const RECONNECT: Duration = Duration::from_secs(1);

pub async fn refresh(state: &web::Data<AppState>) -> Result<(), AppError> {
    let rows = db(state, |conn| Ok(crate::app::read::published(conn)?)).await?;
    announce(state, &rows);
    Ok(())
}

/// Publishes the versions read after a write; the followed pages that changed are rendered
/// at once, so their viewers get the change as a delta. (A plain tokio task: the poller that
/// calls this for writes from outside the server is one, and runs outside actix's local set.)
pub fn announce(state: &web::Data<AppState>, rows: &[read::Published]) {
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

pub fn spawn_poller(state: web::Data<AppState>, every: Duration) {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(every);
        loop {
            interval.tick().await;
            if let Err(e) = refresh(&state).await {
                tracing::warn!(error = %e, "live poll failed");
            }
        }
    });
}

/// PostgreSQL: a thread of its own listens for the writes of every instance on the database
/// and publishes the versions at once (the poll stays the fallback).
pub fn spawn_listener(state: web::Data<AppState>, database_url: String) {
    let runtime = tokio::runtime::Handle::current();
    // Weak: the listener ends (and closes its connection) when the server is gone.
    let weak = std::sync::Arc::downgrade(&state.into_inner());
    let spawned = std::thread::Builder::new()
        .name("pg-listen".into())
        .spawn(move || {
            loop {
                let outcome = crate::app::read::follow_writes(&database_url, |changed| {
                    let Some(state) = weak.upgrade() else {
                        return ControlFlow::Break(());
                    };
                    if !changed.is_empty() {
                        let state = web::Data::from(state);
                        runtime.spawn(async move {
                            if let Err(e) = refresh(&state).await {
                                tracing::warn!(error = %e, "live refresh after a notification failed");
                            }
                        });
                    }
                    ControlFlow::Continue(())
                });
                match outcome {
                    Ok(()) => return,
                    Err(e) => {
                        tracing::warn!(error = %e, "PostgreSQL notifications: connecting again");
                    }
                }
                if weak.strong_count() == 0 {
                    return;
                }
                std::thread::sleep(RECONNECT);
            }
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "no notification listener: live pages follow by the poll only");
    }
}
