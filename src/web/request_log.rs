//! One log line per request: method, route (the pattern, not the ids a visitor typed),
//! status, duration, the logged-in user's id and the device's address. Everything logged while the request runs
//! (a slow write lock, a refused import) carries the same `request` span, so the lines of
//! one request belong together, also those written on a database thread (see
//! [`super::state::db`]).
//!
//! Written here rather than with `tracing-actix-web`: its root span carries a dozen OpenTelemetry
//! fields (user agent, host, scheme …) on every line, and it logs no line of its own at the
//! end; the office needs the six fields above, readable in a terminal.

use crate::domain::ids::UserId;
use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tracing::Instrument;

/// The logged-in user of a request, put there by the login extractors.
#[derive(Clone, Copy)]
pub struct LoggedIn(pub UserId);

/// Requests numbered from the start of the server, to tell their lines apart.
static NEXT_REQUEST: AtomicU64 = AtomicU64::new(1);

pub async fn log_request(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let number = NEXT_REQUEST.fetch_add(1, Ordering::Relaxed);
    let method = request.method().clone();
    // Which device: a phone or visitor that hammers the server is found by its address.
    let address = request
        .peer_addr()
        .map_or_else(|| "-".to_string(), |peer| peer.ip().to_string());
    let span = tracing::info_span!("request", nr = number);
    let outcome = next.call(request).instrument(span.clone()).await;
    let ms = (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0;
    span.in_scope(|| match &outcome {
        Ok(response) => {
            let request = response.request();
            // The route's pattern ("/tournaments/{id}/passen/{passe}/entry", known once the
            // request was routed): ids vary, the pattern says what was asked.
            let route = request
                .match_pattern()
                .unwrap_or_else(|| "(keine Route)".to_string());
            let user = request.extensions().get::<LoggedIn>().map(|user| user.0.0);
            let status = response.status().as_u16();
            // Server errors stand out; their cause is logged by `AppError` just before.
            if response.status().is_server_error() {
                tracing::error!(%method, %route, status, ms, user, %address, "Anfrage");
            } else {
                tracing::info!(%method, %route, status, ms, user, %address, "Anfrage");
            }
        }
        Err(error) => tracing::error!(%method, ms, %address, %error, "Anfrage"),
    });
    outcome
}
