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
use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;
use diesel::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

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
    /// The same page gzip-compressed, for browsers (a tenth of the bytes over the hall's
    /// Wi-Fi); compressed once per version.
    gzip: Option<Bytes>,
}

impl CachedPage {
    fn new(id: i32, version: i32, html: String) -> Self {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        let gzip = encoder
            .write_all(html.as_bytes())
            .and_then(|()| encoder.finish())
            .map(Bytes::from);
        if let Err(e) = &gzip {
            tracing::warn!(error = %e, "live page not compressed");
        }
        CachedPage {
            version,
            etag: format!("\"t{id}-v{version}\""),
            body: Bytes::from(html),
            gzip: gzip.ok(),
        }
    }

    /// The representation for this request: (ETag, body, gzip-encoded).
    fn variant(&self, req: &HttpRequest) -> (String, &Bytes, bool) {
        match &self.gzip {
            Some(gzip) if accepts_gzip(req) => (
                format!("\"{}-gz\"", self.etag.trim_matches('"')),
                gzip,
                true,
            ),
            _ => (self.etag.clone(), &self.body, false),
        }
    }
}

/// Whether Accept-Encoding lists gzip (or `*`) without `q=0`.
fn accepts_gzip(req: &HttpRequest) -> bool {
    req.headers()
        .get_all(ACCEPT_ENCODING)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

pub struct LiveHub {
    tournaments: Mutex<HashMap<i32, Published>>,
    pages: Mutex<HashMap<i32, Arc<CachedPage>>>,
    /// Tournaments whose page one request is re-rendering right now.
    rendering: Mutex<std::collections::HashSet<i32>>,
    /// Permits to send a page body; see [`PAGES_IN_FLIGHT`].
    senders: Arc<Semaphore>,
}

impl Default for LiveHub {
    fn default() -> Self {
        LiveHub {
            tournaments: Mutex::default(),
            pages: Mutex::default(),
            rendering: Mutex::default(),
            senders: Arc::new(Semaphore::new(PAGES_IN_FLIGHT)),
        }
    }
}

/// How many live page bodies are sent at the same time to viewers that read fast. The rest
/// wait (costing nothing) instead of crowding the workers' event loops and the CPU, where a
/// request of the Büro would otherwise queue behind hundreds of half-sent pages.
const PAGES_IN_FLIGHT: usize = 1;
/// Bodies go out in slices, so a permit is held until the page is nearly sent.
const SLICE_BYTES: usize = 64 * 1024;
/// A viewer that takes longer than this for a slice is limited by its network (a phone on
/// the hall's Wi-Fi), not by our CPU: it gives its permit back, so that slow phones never
/// hold up the others.
const SLOW_READER: Duration = Duration::from_millis(5);

/// A cached page on its way to one viewer, holding one of the send permits while the
/// viewer reads fast.
struct PermittedBody {
    size: u64,
    rest: Bytes,
    permit: Option<OwnedSemaphorePermit>,
    last_slice: Option<Instant>,
}

impl MessageBody for PermittedBody {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.size)
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let body = self.get_mut();
        if body.last_slice.is_some_and(|at| at.elapsed() > SLOW_READER) {
            body.permit = None;
        }
        if body.rest.is_empty() {
            body.permit = None;
            return Poll::Ready(None);
        }
        body.last_slice = Some(Instant::now());
        let slice = body.rest.len().min(SLICE_BYTES);
        Poll::Ready(Some(Ok(body.rest.split_to(slice))))
    }
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

/// Every tournament's (id, version, public), for [`LiveHub::publish`].
pub fn versions(conn: &mut crate::db::Conn) -> Result<Vec<(i32, i32, bool)>, AppError> {
    use crate::db::schema::tournaments;
    Ok(tournaments::table
        .select((tournaments::id, tournaments::version, tournaments::public))
        .load::<(i32, i32, bool)>(conn)?)
}

pub async fn refresh(state: &web::Data<AppState>) -> Result<(), AppError> {
    let rows = db(state, versions).await?;
    state.live.publish(&rows);
    Ok(())
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

enum Rendered {
    /// With a team highlighted (`?nr=`): for one viewer, not cached.
    Personal(String),
    Shared(CachedPage),
}

type LiveData = (TournamentData, Option<super::marathon::ClockView>);

fn load_live(conn: &mut crate::db::Conn, id: i32) -> Result<LiveData, AppError> {
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
}

#[derive(Deserialize)]
struct LiveQuery {
    nr: Option<String>,
}

async fn respond(
    hub: &LiveHub,
    req: &HttpRequest,
    page: &CachedPage,
) -> Result<HttpResponse, AppError> {
    let (etag, body, gzip) = page.variant(req);
    let fresh = req
        .headers()
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == etag));
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((ETAG, etag))
        .insert_header((CACHE_CONTROL, "no-cache"))
        .insert_header((VARY, "Accept-Encoding"));
    if fresh {
        return Ok(response.finish());
    }
    let permit = hub
        .senders
        .clone()
        .acquire_owned()
        .await
        .map_err(|e| AppError::Internal(e.to_string()))?;
    if gzip {
        response.insert_header((CONTENT_ENCODING, "gzip"));
    }
    Ok(response
        .insert_header((CONTENT_TYPE, "text/html; charset=utf-8"))
        .body(PermittedBody {
            size: body.len() as u64,
            rest: body.clone(),
            permit: Some(permit),
            last_slice: None,
        }))
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
    // script fetches again when it got an older version than the event announced).
    let ticket = if own.is_none() {
        match state.live.start_render(id) {
            Some(ticket) => Some(ticket),
            None => match state.live.latest(id) {
                Some(stale) => return respond(&state.live, &req, &stale).await,
                None => None,
            },
        }
    } else {
        None
    };
    let base = base_url(&state, &req);
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
                gzip: None,
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
                gzip: None,
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

    #[tokio::test]
    async fn a_page_goes_out_in_slices_and_holds_its_permit_until_sent() {
        let senders = Arc::new(Semaphore::new(1));
        let page: Vec<u8> = (0..150_000u32).map(|i| (i % 251) as u8).collect();
        let mut body = PermittedBody {
            size: page.len() as u64,
            rest: Bytes::from(page.clone()),
            permit: Some(senders.clone().acquire_owned().await.unwrap()),
            last_slice: None,
        };
        assert_eq!(body.size(), BodySize::Sized(150_000));
        assert_eq!(senders.available_permits(), 0, "a second viewer waits");
        let mut sent = Vec::new();
        let mut slices = Vec::new();
        while let Some(slice) =
            futures_util::future::poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await
        {
            let slice = slice.unwrap();
            slices.push(slice.len());
            sent.extend_from_slice(&slice);
        }
        assert_eq!(
            slices,
            [SLICE_BYTES, SLICE_BYTES, 150_000 - 2 * SLICE_BYTES]
        );
        assert_eq!(sent, page);
        drop(body);
        assert_eq!(senders.available_permits(), 1);
    }

    #[tokio::test]
    async fn a_slow_reader_gives_its_permit_back() {
        let senders = Arc::new(Semaphore::new(1));
        let mut body = PermittedBody {
            size: 200_000,
            rest: Bytes::from(vec![b'x'; 200_000]),
            permit: Some(senders.clone().acquire_owned().await.unwrap()),
            last_slice: None,
        };
        let mut next = || {
            futures_util::FutureExt::now_or_never(futures_util::future::poll_fn(|cx| {
                Pin::new(&mut body).poll_next(cx)
            }))
        };
        assert!(next().is_some());
        assert_eq!(
            senders.available_permits(),
            0,
            "reading, it holds the permit"
        );
        std::thread::sleep(SLOW_READER * 2);
        assert!(next().is_some());
        assert_eq!(senders.available_permits(), 1, "the next viewer may start");
    }

    #[test]
    fn gzip_only_when_accepted() {
        let accepts = |value: Option<&str>| {
            let mut req = actix_web::test::TestRequest::default();
            if let Some(value) = value {
                req = req.insert_header((ACCEPT_ENCODING, value));
            }
            accepts_gzip(&req.to_http_request())
        };
        assert!(accepts(Some("gzip, deflate, br")));
        assert!(accepts(Some("br;q=1.0, GZIP;q=0.5")));
        assert!(accepts(Some("*")));
        assert!(!accepts(None));
        assert!(!accepts(Some("br, deflate")));
        assert!(!accepts(Some("gzip;q=0, br")));
    }

    #[test]
    fn the_compressed_page_is_the_page() {
        let html = "<html>Rangliste</html>".repeat(1000);
        let page = CachedPage::new(7, 12, html.clone());
        let mut unpacked = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(&page.gzip.unwrap()[..]),
            &mut unpacked,
        )
        .unwrap();
        assert_eq!(unpacked, html);
        assert_eq!(page.etag, "\"t7-v12\"");
    }

    #[test]
    fn qr_svg_has_dark_modules() {
        let svg = qr_svg("http://192.168.1.20:8080/tournaments/1/live");
        assert!(svg.starts_with("<svg") && svg.contains("h1v1h-1z"));
    }
}
