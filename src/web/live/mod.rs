//! The live Rangliste for the hall: the public page ([`page`]) served from memory by the
//! [`hub`], and the event stream that tells open pages to refresh.

pub mod hub;
pub mod page;
pub mod publish;

use super::hall::phone_base;
use super::state::AppState;
use crate::web::error::AppError;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpRequest, HttpResponse, web};
use hub::{CachedPage, respond};
use page::{Rendered, load_live, render};
use publish::refresh;
use serde::Deserialize;
use std::sync::Arc;

/// How long a request without any page waits for the render in flight before it looks again.
const RENDER_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

#[derive(Deserialize)]
struct LiveQuery {
    nr: Option<String>,
}

async fn live(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<i32>,
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
        .and_then(|n| n.trim().parse::<i32>().ok());
    if own.is_none()
        && let Some(page) = state.live.cached(id, version)
    {
        return respond(&state.live, &req, &page).await;
    }
    // Under load, a change must not make every waiting viewer render the page at once:
    // one request renders, the others get the previous version meanwhile (the browser's
    // script fetches again when it got an older version than the event announced). With no
    // page at all (after a restart) they wait for that one render.
    let ticket = if own.is_none() {
        loop {
            let mut ended = state.live.render_ended();
            if let Some(page) = state.live.cached(id, version) {
                return respond(&state.live, &req, &page).await;
            }
            match state.live.start_render(id) {
                Some(ticket) => break Some(ticket),
                None => match state.live.latest(id) {
                    Some(stale) => return respond(&state.live, &req, &stale).await,
                    None => {
                        // A render that fails wakes us too; then one of us tries again.
                        let _ = tokio::time::timeout(RENDER_WAIT, ended.changed()).await;
                    }
                },
            }
        }
    } else {
        None
    };
    let base = phone_base(&state, &req);
    let pool = state.pool.clone();
    // Not `db()`: a blocking thread of this worker inherits its lowered priority, so
    // re-rendering for the hall yields to the Büro's writes.
    let rendered = web::block(move || -> Result<Option<Rendered>, AppError> {
        let mut conn = pool.get()?;
        let (data, clock) = load_live(&mut conn, id)?;
        if !data.tournament.public {
            return Ok(None);
        }
        let html = render(&data, &base, own, clock)?;
        Ok(Some(match own {
            Some(_) => Rendered::Personal(html),
            None => Rendered::Shared(CachedPage::new(id, data.tournament.version, html)),
        }))
    })
    .await??;
    if own.is_none() {
        state.live.count_render();
    }
    let page = match rendered {
        None => return Err(AppError::not_found()),
        Some(Rendered::Personal(html)) => {
            return Ok(HttpResponse::Ok()
                .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
                .body(html));
        }
        Some(Rendered::Shared(page)) => Arc::new(page),
    };
    state.live.store(id, page.clone());
    drop(ticket);
    respond(&state.live, &req, &page).await
}

async fn events(
    state: web::Data<AppState>,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    if state.live.state(id).is_none() {
        refresh(&state).await?;
    }
    match state.live.state(id) {
        Some((_, true)) => {}
        _ => return Err(AppError::not_found()),
    }
    let receiver = state.live.subscribe(id).ok_or_else(AppError::not_found)?;
    Ok(hub::version_events(receiver))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/live", web::get().to(live))
        .route("/tournaments/{id}/live/events", web::get().to(events));
}
