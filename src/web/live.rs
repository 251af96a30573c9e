//! The live Rangliste for the hall: a public page rendered once per change and served from
//! memory (ETag/304), and a Server-Sent-Events stream that tells open pages to refresh.
//!
//! Every write bumps its tournament's version in the database. After each write request the
//! hub reads all versions (one query) and wakes the subscribers of changed tournaments; a
//! poller does the same every second for writes from outside the server (CLI). Neither the
//! cached page nor an SSE connection touches the database.

use super::entry::{progress, table_views};
use super::ranking::{SectionView, ranking_view};
use super::{AppState, base_url, db};
use crate::db::results::{self, TournamentData};
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::error::AppError;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use diesel::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// How often writes from outside the server are picked up.
const POLL_INTERVAL: Duration = Duration::from_secs(1);
/// SSE keep-alive, so proxies do not drop idle connections.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

struct Published {
    version: watch::Sender<i32>,
    public: bool,
}

pub struct CachedPage {
    version: i32,
    etag: String,
    body: Bytes,
}

#[derive(Default)]
pub struct LiveHub {
    tournaments: Mutex<HashMap<i32, Published>>,
    pages: Mutex<HashMap<i32, Arc<CachedPage>>>,
    /// Tournaments whose page one request is re-rendering right now.
    rendering: Mutex<std::collections::HashSet<i32>>,
}

/// Held by the one request that re-renders a tournament's page; released on drop.
struct RenderTicket<'a> {
    hub: &'a LiveHub,
    id: i32,
}

impl Drop for RenderTicket<'_> {
    fn drop(&mut self) {
        lock(&self.hub.rendering).remove(&self.id);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data behind; keep serving it.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl LiveHub {
    /// Takes the current (id, version, public) of every tournament and wakes subscribers.
    pub fn publish(&self, rows: &[(i32, i32, bool)]) {
        let mut tournaments = lock(&self.tournaments);
        for &(id, version, public) in rows {
            match tournaments.get_mut(&id) {
                Some(entry) => {
                    entry.public = public;
                    entry.version.send_if_modified(|v| {
                        let changed = *v != version;
                        *v = version;
                        changed
                    });
                }
                None => {
                    tournaments.insert(
                        id,
                        Published {
                            version: watch::Sender::new(version),
                            public,
                        },
                    );
                }
            }
        }
    }

    /// (version, public) as last published; None for an unknown tournament.
    pub fn state(&self, id: i32) -> Option<(i32, bool)> {
        lock(&self.tournaments)
            .get(&id)
            .map(|p| (*p.version.borrow(), p.public))
    }

    fn subscribe(&self, id: i32) -> Option<watch::Receiver<i32>> {
        lock(&self.tournaments)
            .get(&id)
            .map(|p| p.version.subscribe())
    }

    fn cached(&self, id: i32, version: i32) -> Option<Arc<CachedPage>> {
        lock(&self.pages)
            .get(&id)
            .filter(|p| p.version == version)
            .cloned()
    }

    /// The latest page of any version, to serve while another request renders the new one.
    fn latest(&self, id: i32) -> Option<Arc<CachedPage>> {
        lock(&self.pages).get(&id).cloned()
    }

    /// Single flight: only one request renders a tournament's page at a time.
    fn start_render(&self, id: i32) -> Option<RenderTicket<'_>> {
        // The guard must be gone before a ticket can exist: dropping one takes the lock.
        let started = lock(&self.rendering).insert(id);
        started.then(|| RenderTicket { hub: self, id })
    }

    fn store(&self, id: i32, page: Arc<CachedPage>) {
        let mut pages = lock(&self.pages);
        if pages.get(&id).is_none_or(|old| old.version <= page.version) {
            pages.insert(id, page);
        }
    }
}

pub async fn refresh(state: &web::Data<AppState>) -> Result<(), AppError> {
    use crate::db::schema::tournaments;
    let rows = db(state, |conn| {
        Ok(tournaments::table
            .select((tournaments::id, tournaments::version, tournaments::public))
            .load::<(i32, i32, bool)>(conn)?)
    })
    .await?;
    state.live.publish(&rows);
    Ok(())
}

/// Middleware: after every request that may have written, publish the new versions at once,
/// so the next live request and every SSE subscriber see the change.
pub async fn refresh_after_writes(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let wrote = !matches!(*req.method(), Method::GET | Method::HEAD);
    let state = req.app_data::<web::Data<AppState>>().cloned();
    let response = next.call(req).await?;
    if let (true, Some(state)) = (wrote, state)
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

/// What the hall sees about one Passe: the one being played (the first with missing results).
pub struct Progress {
    pub passe: u32,
    pub entered: usize,
    pub expected: usize,
}

fn current_progress(data: &TournamentData) -> Option<Progress> {
    let drawn = data.drawn_passen();
    let all: Vec<Progress> = (1..=drawn)
        .map(|passe| {
            let (entered, expected) = progress(&table_views(data, passe));
            Progress {
                passe,
                entered,
                expected,
            }
        })
        .collect();
    let open = all.iter().position(|p| p.entered < p.expected);
    let index = open.unwrap_or(all.len().checked_sub(1)?);
    all.into_iter().nth(index)
}

/// The QR code of `text` as inline SVG (one path, crisp at any size).
fn qr_svg(text: &str) -> String {
    let Some((width, modules)) = crate::pdf::documents::qr_modules(text) else {
        return String::new();
    };
    let mut path = String::new();
    for (index, _) in modules.iter().enumerate().filter(|(_, dark)| **dark) {
        path += &format!("M{} {}h1v1h-1z", index % width + 4, index / width + 4);
    }
    let side = width + 8;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" role="img" aria-label="QR-Code zur Handy-Ansicht"><rect width="{side}" height="{side}" fill="#fff"/><path d="{path}" fill="#000"/></svg>"##
    )
}

#[derive(Template)]
#[template(path = "live.html")]
struct LivePage<'a> {
    t: &'a crate::db::models::TournamentRow,
    version: i32,
    progress: Option<Progress>,
    updated: String,
    passen: Vec<u32>,
    top: Vec<&'a super::ranking::RowView>,
    sections: &'a [SectionView],
    qr: String,
    phone_url: String,
    /// Without JavaScript a phone can still find its team: `?nr=12`.
    own: Option<&'a super::ranking::RowView>,
    /// Jassmarathon: the clock of the current Spielrunde.
    clock: Option<super::marathon::ClockView>,
}

impl LivePage<'_> {
    /// Changes of this string mark a row as updated in the browser.
    fn signature(row: &super::ranking::RowView) -> String {
        format!("{}|{}|{:?}", row.total, row.status.css(), row.rank)
    }
}

fn render(
    data: &TournamentData,
    base: &str,
    own_nr: Option<i32>,
    clock: Option<super::marathon::ClockView>,
) -> Result<String, AppError> {
    let sections = ranking_view(data, data.tournament.closed);
    let top: Vec<&super::ranking::RowView> = sections
        .first()
        .filter(|s| s.ranked())
        .map(|s| s.rows.iter().take(3).collect())
        .unwrap_or_default();
    let own = own_nr.and_then(|nr| {
        sections
            .iter()
            .flat_map(|s| s.rows.iter())
            .find(|r| r.team.startnummer == nr)
    });
    let phone_url = format!("{base}/tournaments/{}/live", data.tournament.id);
    Ok(LivePage {
        t: &data.tournament,
        version: data.tournament.version,
        progress: current_progress(data),
        updated: format::date_time(crate::db::now()),
        passen: (1..=data.tournament.passen as u32).collect(),
        top,
        sections: &sections,
        qr: qr_svg(&phone_url),
        phone_url,
        own,
        clock,
    }
    .render()?)
}

#[derive(Deserialize)]
struct LiveQuery {
    nr: Option<String>,
}

fn respond(req: &HttpRequest, page: &CachedPage) -> HttpResponse {
    let fresh = req
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == page.etag));
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((ETAG, page.etag.clone()))
        .insert_header((CACHE_CONTROL, "no-cache"));
    if fresh {
        response.finish()
    } else {
        response
            .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
            .body(page.body.clone())
    }
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
        return Ok(respond(&req, &page));
    }
    // Under load, a change must not make every waiting viewer render the page at once:
    // one request renders, the others get the previous version meanwhile (the browser's
    // script fetches again when it got an older version than the event announced).
    let ticket = if own.is_none() {
        match state.live.start_render(id) {
            Some(ticket) => Some(ticket),
            None => match state.live.latest(id) {
                Some(stale) => return Ok(respond(&req, &stale)),
                None => None,
            },
        }
    } else {
        None
    };
    let (data, clock) = db(&state, move |conn| {
        let data = results::load(conn, TournamentId(id))?;
        let clock = if data.tournament.mode == "jassmarathon" {
            let passe = current_progress(&data).map(|p| p.passe).unwrap_or(1);
            let rules = crate::db::marathon::rules(conn, TournamentId(id))?;
            let facts = crate::db::marathon::clock(conn, TournamentId(id), passe)?;
            Some(super::marathon::clock_view(&rules, facts.as_ref()))
        } else {
            None
        };
        Ok((data, clock))
    })
    .await?;
    if !data.tournament.public {
        return Err(AppError::not_found());
    }
    let base = base_url(&state, &req);
    let rendered_version = data.tournament.version;
    let html = web::block(move || render(&data, &base, own, clock)).await??;
    let page = CachedPage {
        version: rendered_version,
        etag: format!("\"t{id}-v{rendered_version}\""),
        body: Bytes::from(html),
    };
    if own.is_some() {
        return Ok(HttpResponse::Ok()
            .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
            .body(page.body));
    }
    let page = Arc::new(page);
    state.live.store(id, page.clone());
    drop(ticket);
    Ok(respond(&req, &page))
}

fn event(version: i32) -> Bytes {
    Bytes::from(format!("event: version\ndata: {version}\n\n"))
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
    let stream =
        futures_util::stream::unfold((receiver, true), |(mut receiver, first)| async move {
            if first {
                let version = *receiver.borrow_and_update();
                return Some((
                    Ok::<Bytes, actix_web::Error>(event(version)),
                    (receiver, false),
                ));
            }
            match tokio::time::timeout(KEEP_ALIVE, receiver.changed()).await {
                Ok(Ok(())) => {
                    let version = *receiver.borrow_and_update();
                    Some((Ok(event(version)), (receiver, false)))
                }
                Ok(Err(_)) => None,
                Err(_) => Some((
                    Ok(Bytes::from_static(b": keep-alive\n\n")),
                    (receiver, false),
                )),
            }
        });
    Ok(HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/event-stream"))
        .insert_header((CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/live", web::get().to(live))
        .route("/tournaments/{id}/live/events", web::get().to(events));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishing_wakes_only_changed_tournaments() {
        let hub = LiveHub::default();
        hub.publish(&[(1, 5, true), (2, 1, false)]);
        let mut first = hub.subscribe(1).unwrap();
        let second = hub.subscribe(2).unwrap();
        hub.publish(&[(1, 6, true), (2, 1, false)]);
        assert!(first.has_changed().unwrap());
        assert!(!second.has_changed().unwrap());
        assert_eq!(*first.borrow_and_update(), 6);
        assert_eq!(hub.state(2), Some((1, false)));
        assert_eq!(hub.state(3), None);
    }

    #[test]
    fn the_cache_serves_only_the_current_version() {
        let hub = LiveHub::default();
        hub.store(
            1,
            Arc::new(CachedPage {
                version: 3,
                etag: "a".into(),
                body: Bytes::new(),
            }),
        );
        assert!(hub.cached(1, 3).is_some());
        assert!(hub.cached(1, 4).is_none());
        // A slow render of an older version never replaces a newer page.
        hub.store(
            1,
            Arc::new(CachedPage {
                version: 2,
                etag: "b".into(),
                body: Bytes::new(),
            }),
        );
        assert_eq!(hub.cached(1, 3).unwrap().etag, "a");
    }

    #[test]
    fn only_one_render_at_a_time() {
        let hub = LiveHub::default();
        let ticket = hub.start_render(1);
        assert!(ticket.is_some());
        assert!(hub.start_render(1).is_none());
        assert!(
            hub.start_render(2).is_some(),
            "other tournaments are independent"
        );
        drop(ticket);
        assert!(hub.start_render(1).is_some());
    }

    #[test]
    fn qr_svg_has_dark_modules() {
        let svg = qr_svg("http://192.168.1.20:8080/tournaments/1/live");
        assert!(svg.starts_with("<svg") && svg.contains("h1v1h-1z"));
    }
}
