//! The live Rangliste for the hall: the public page ([`page`]) served from memory by the
//! [`hub`], and the event stream that carries each change to the open pages as a delta
//! ([`model`]).

pub mod hub;
pub mod model;
pub mod page;
pub mod publish;
pub mod render;

use super::hall::phone_base;
use super::state::AppState;
use crate::domain::ids::TournamentId;
use crate::web::error::AppError;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, web};
use hub::respond;
use page::{live_view, load_live, render};
use publish::refresh;
use render::{keep_current, render_shared};
use serde::Deserialize;

/// How long a request without any page waits for the render in flight before it looks again.
const RENDER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

#[derive(Deserialize)]
struct LiveQuery {
    nr: Option<String>,
}

async fn live(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<TournamentId>,
    query: web::Query<LiveQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    if state.live.state(id).is_none() {
        refresh(&state).await?;
    }
    let (version, public) = state.live.state(id).ok_or_else(AppError::not_found)?;
    if !public {
        return Err(AppError::not_found());
    }
    let own = query
        .nr
        .as_deref()
        .and_then(|n| n.trim().parse::<u32>().ok());
    let base = phone_base(&state, &req);
    let Some(own) = own else {
        return shared_page(&state, &req, id, version, base).await;
    };
    // The page holds its QR code, made from the address the request came by.
    let key = format!("live?nr={own}@{base}");
    super::public_cache::serve((&state.live, &state.public_cache), true, id, key, || {
        own_page(&state, id, own, base)
    })
    .await
}

/// The live page with one team's line on top (`?nr=`, for phones without JavaScript).
async fn own_page(
    state: &web::Data<AppState>,
    id: TournamentId,
    own: u32,
    base: String,
) -> Result<HttpResponse, AppError> {
    let pool = state.pool.clone();
    // Not `db()`: a blocking thread of this worker inherits its lowered priority, so
    // rendering for the hall yields to the Büro's writes.
    let html = web::block(move || -> Result<Option<String>, AppError> {
        let mut conn = pool.get()?;
        let (data, clock, absenden) = load_live(&mut conn, id)?;
        if !data.tournament.public {
            return Ok(None);
        }
        let view = live_view(&data, clock.as_ref(), absenden.as_ref())?;
        Ok(Some(render(&data, &view, &base, Some(own))?))
    })
    .await??
    .ok_or_else(AppError::not_found)?;
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
        .body(html))
}

/// The page every viewer shares, rendered once per version.
async fn shared_page(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    id: TournamentId,
    version: i32,
    base: String,
) -> Result<HttpResponse, AppError> {
    // Under load, a change must not make every waiting viewer render the page at once:
    // one request renders, the others get the previous version meanwhile (the browser's
    // script fetches again when it got an older version than the event announced). With no
    // page at all (after a restart) they wait for that one render.
    let ticket = loop {
        let mut ended = state.live.render_ended();
        if let Some(page) = state.live.cached(id, version) {
            return respond(&state.live, req, &page).await;
        }
        match state.live.start_render(id) {
            Some(ticket) => break ticket,
            None => match state.live.latest(id) {
                Some(stale) => return respond(&state.live, req, &stale).await,
                None => {
                    // A render that fails wakes us too; then one of us tries again.
                    let _ = tokio::time::timeout(RENDER_WAIT, ended.changed()).await;
                }
            },
        }
    };
    let page = render_shared(state, id, base).await?;
    drop(ticket);
    match page {
        Some(page) => respond(&state.live, req, &page).await,
        None => Err(AppError::not_found()),
    }
}

#[derive(Deserialize)]
struct EventsQuery {
    /// The version of the page that opens the stream.
    v: Option<i32>,
}

async fn events(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<TournamentId>,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    if state.live.state(id).is_none() {
        refresh(&state).await?;
    }
    match state.live.state(id) {
        Some((_, true)) => {}
        _ => return Err(AppError::not_found()),
    }
    // After a reconnect the browser names the last event it got; it may be newer than the
    // page that opened the stream.
    let known = req
        .headers()
        .get("Last-Event-ID")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i32>().ok())
        .or(query.v);
    let rendered = state.live.follow(id);
    if state.live.latest(id).is_none() {
        tokio::spawn(keep_current(state.clone(), id));
    }
    Ok(hub::page_events(state.live.clone(), id, rendered, known))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/live", web::get().to(live))
        .route("/tournaments/{id}/live/events", web::get().to(events));
}
