//! The live hub: each tournament's version as last published, the rendered page of the
//! latest version (gzip-compressed once, ETag/304) with its model, flow control for sending
//! it, the last steps from version to version as the Server-Sent Events that carry them
//! (deltas, or a reset that makes a page fetch itself), and the event stream of one page.
//!
//! Every write bumps its tournament's version in the database. After each write request the
//! versions are read (one query) and published here; a poller does the same every second
//! for writes from outside the server (CLI). Tournaments that open pages follow are then
//! rendered once (see `render.rs`), and their followers woken. Neither the cached page nor
//! an SSE connection touches the database.

use super::model::{Delta, LiveModel};
use crate::app::read::Published;
use crate::domain::ids::TournamentId;
use crate::web::error::AppError;
use actix_web::body::{BodySize, MessageBody};
use actix_web::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// SSE keep-alive, so proxies do not drop idle connections.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A tournament's version and visibility as last published.
struct Announced {
    version: i32,
    public: bool,
}

pub struct CachedPage {
    version: i32,
    /// The page as data, to compute the next version's delta from.
    pub(super) model: LiveModel,
    /// The address its QR code points to (kept when the page is re-rendered without a request).
    pub(super) phone_base: String,
    etag: String,
    body: Bytes,
    /// The same page gzip-compressed, for browsers (a tenth of the bytes over the hall's
    /// Wi-Fi); compressed once per version.
    gzip: Option<Bytes>,
}

impl CachedPage {
    pub(super) fn new(
        id: TournamentId,
        model: LiveModel,
        phone_base: String,
        html: String,
    ) -> Self {
        let version = model.version;
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
            model,
            phone_base,
            etag: format!("\"t{id}-v{version}\""),
            body: Bytes::from(html),
            gzip: gzip.ok(),
        }
    }

    /// The representation for this request: (ETag, body, gzip-encoded).
    pub(super) fn variant(&self, req: &HttpRequest) -> (String, &Bytes, bool) {
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

/// How the page of one tournament got from version to version, as the SSE events that say
/// it; followed by the open pages.
struct Steps {
    /// The version of the latest rendered page (-1: none yet).
    rendered: watch::Sender<i32>,
    log: VecDeque<Step>,
}

struct Step {
    base: i32,
    version: i32,
    /// `event: delta` (the change) or `event: reset` (fetch the page).
    event: Bytes,
}

/// Steps kept per tournament: a phone that was away for fewer changes than this catches up
/// by deltas, one away longer fetches the page.
const STEPS_KEPT: usize = 64;

pub struct LiveHub {
    tournaments: Mutex<HashMap<TournamentId, Announced>>,
    pages: Mutex<HashMap<TournamentId, Arc<CachedPage>>>,
    steps: Mutex<HashMap<TournamentId, Steps>>,
    /// Tournaments whose page one request is re-rendering right now.
    rendering: Mutex<std::collections::HashSet<TournamentId>>,
    /// Permits to send a page body; see [`PAGES_IN_FLIGHT`].
    senders: Arc<Semaphore>,
    /// Bumped whenever a render ends (stored or not): requests that found no page at all
    /// wait for it instead of rendering their own.
    renders_done: watch::Sender<u64>,
    /// How many shared pages were rendered (for tests and diagnostics).
    renders: std::sync::atomic::AtomicU64,
}

impl Default for LiveHub {
    fn default() -> Self {
        LiveHub {
            tournaments: Mutex::default(),
            pages: Mutex::default(),
            steps: Mutex::default(),
            rendering: Mutex::default(),
            senders: Arc::new(Semaphore::new(PAGES_IN_FLIGHT)),
            renders_done: watch::Sender::new(0),
            renders: std::sync::atomic::AtomicU64::new(0),
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
pub(super) struct RenderTicket<'a> {
    hub: &'a LiveHub,
    id: TournamentId,
}

impl Drop for RenderTicket<'_> {
    fn drop(&mut self) {
        lock(&self.hub.rendering).remove(&self.id);
        self.hub.renders_done.send_modify(|n| *n += 1);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data behind; keep serving it.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl LiveHub {
    /// Takes the current version and visibility of every tournament; returns the public
    /// ones whose version changed and that open pages follow (their page is re-rendered).
    pub fn publish(&self, rows: &[Published]) -> Vec<TournamentId> {
        let mut changed = Vec::new();
        let mut tournaments = lock(&self.tournaments);
        for row in rows {
            let (id, version, public) = (row.id, row.version, row.public);
            match tournaments.get_mut(&id) {
                Some(entry) => {
                    let moved = entry.version != version;
                    *entry = Announced { version, public };
                    if moved && public {
                        changed.push(id);
                    }
                }
                None => {
                    tournaments.insert(id, Announced { version, public });
                }
            }
        }
        drop(tournaments);
        let steps = lock(&self.steps);
        changed.retain(|id| {
            steps
                .get(id)
                .is_some_and(|s| s.rendered.receiver_count() > 0)
        });
        changed
    }

    /// (version, public) as last published; None for an unknown tournament.
    pub fn state(&self, id: TournamentId) -> Option<(i32, bool)> {
        lock(&self.tournaments)
            .get(&id)
            .map(|p| (p.version, p.public))
    }

    /// Follows the rendered versions of a tournament's page.
    pub(super) fn follow(&self, id: TournamentId) -> watch::Receiver<i32> {
        let rendered = self.cached_version(id).unwrap_or(-1);
        lock(&self.steps)
            .entry(id)
            .or_insert_with(|| Steps {
                rendered: watch::Sender::new(rendered),
                log: VecDeque::new(),
            })
            .rendered
            .subscribe()
    }

    fn cached_version(&self, id: TournamentId) -> Option<i32> {
        lock(&self.pages).get(&id).map(|p| p.version)
    }

    /// The events that bring a page from version `from` to `to`: the deltas in between, or
    /// a reset when they are not all known (an unknown or too old base).
    fn events_between(&self, id: TournamentId, from: Option<i32>, to: i32) -> Bytes {
        let steps = lock(&self.steps);
        let log = steps.get(&id).map(|s| &s.log);
        let mut events = Vec::new();
        let mut at = from;
        while at != Some(to) {
            let next = at.and_then(|base| log?.iter().rev().find(|s| s.base == base));
            match next {
                Some(step) if step.version <= to => {
                    events.extend_from_slice(&step.event);
                    at = Some(step.version);
                }
                _ => return reset_event(to),
            }
        }
        Bytes::from(events)
    }

    pub(super) fn cached(&self, id: TournamentId, version: i32) -> Option<Arc<CachedPage>> {
        lock(&self.pages)
            .get(&id)
            .filter(|p| p.version == version)
            .cloned()
    }

    /// The latest page of any version, to serve while another request renders the new one.
    pub(super) fn latest(&self, id: TournamentId) -> Option<Arc<CachedPage>> {
        lock(&self.pages).get(&id).cloned()
    }

    /// Single flight: only one request renders a tournament's page at a time.
    pub(super) fn start_render(&self, id: TournamentId) -> Option<RenderTicket<'_>> {
        // The guard must be gone before a ticket can exist: dropping one takes the lock.
        let started = lock(&self.rendering).insert(id);
        started.then(|| RenderTicket { hub: self, id })
    }

    /// Notified when the render in flight ends; subscribe before looking for a page.
    pub(super) fn render_ended(&self) -> watch::Receiver<u64> {
        self.renders_done.subscribe()
    }

    /// Counts one render of a shared page.
    pub(super) fn count_render(&self) {
        self.renders
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Shared pages rendered since the start.
    pub fn render_count(&self) -> u64 {
        self.renders.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Keeps a newly rendered page, with the step from the page before it (`delta`, when
    /// it was computed against that page), and tells the open pages.
    pub(super) fn store(&self, id: TournamentId, page: Arc<CachedPage>, delta: Option<Delta>) {
        let mut pages = lock(&self.pages);
        let base = pages.get(&id).map(|old| old.version);
        if base.is_some_and(|base| base >= page.version) {
            return;
        }
        let version = page.version;
        pages.insert(id, page);
        drop(pages);
        let mut steps = lock(&self.steps);
        let Some(steps) = steps.get_mut(&id) else {
            return;
        };
        if let Some(base) = base {
            let event = match delta {
                Some(d) if d.base == base && d.v == version => delta_event(&d),
                _ => reset_event(version),
            };
            if steps.log.len() == STEPS_KEPT {
                steps.log.pop_front();
            }
            steps.log.push_back(Step {
                base,
                version,
                event,
            });
        }
        steps.rendered.send_replace(version);
    }
}

pub(super) async fn respond(
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

fn delta_event(delta: &Delta) -> Bytes {
    match serde_json::to_string(delta) {
        Ok(json) => Bytes::from(format!("event: delta\nid: {}\ndata: {json}\n\n", delta.v)),
        Err(_) => reset_event(delta.v),
    }
}

fn reset_event(version: i32) -> Bytes {
    Bytes::from(format!("event: reset\nid: {version}\ndata: {version}\n\n"))
}

/// The SSE stream of one tournament's page for a viewer that has version `known` (from the
/// page or, after a reconnect, `Last-Event-ID`): the deltas to each new rendered version, a
/// reset when they are not known, and a keep-alive comment when nothing happens.
pub(super) fn page_events(
    hub: Arc<LiveHub>,
    id: TournamentId,
    rendered: watch::Receiver<i32>,
    known: Option<i32>,
) -> HttpResponse {
    let stream = futures_util::stream::unfold(
        (hub, rendered, known),
        move |(hub, mut rendered, mut sent)| async move {
            loop {
                let current = *rendered.borrow_and_update();
                if current >= 0 && sent != Some(current) {
                    let events = hub.events_between(id, sent, current);
                    sent = Some(current);
                    return Some((Ok::<Bytes, actix_web::Error>(events), (hub, rendered, sent)));
                }
                match tokio::time::timeout(KEEP_ALIVE, rendered.changed()).await {
                    Ok(Ok(())) => {}
                    Ok(Err(_)) => return None,
                    Err(_) => {
                        return Some((
                            Ok(Bytes::from_static(b": keep-alive\n\n")),
                            (hub, rendered, sent),
                        ));
                    }
                }
            }
        },
    );
    HttpResponse::Ok()
        .insert_header((CONTENT_TYPE, "text/event-stream"))
        .insert_header((CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::ids::TournamentId;

    fn published(rows: &[(i32, i32, bool)]) -> Vec<Published> {
        rows.iter()
            .map(|&(id, version, public)| Published {
                id: TournamentId(id),
                version,
                public,
            })
            .collect()
    }

    #[test]
    fn publishing_names_the_followed_public_tournaments_that_changed() {
        let hub = LiveHub::default();
        hub.publish(&published(&[(1, 5, true), (2, 1, false), (3, 1, true)]));
        let _first = hub.follow(TournamentId(1));
        let _second = hub.follow(TournamentId(2));
        let changed = hub.publish(&published(&[(1, 6, true), (2, 2, false), (3, 2, true)]));
        assert_eq!(
            changed,
            vec![TournamentId(1)],
            "2 is not public, nobody follows 3"
        );
        assert!(hub.publish(&published(&[(1, 6, true)])).is_empty());
        assert_eq!(hub.state(TournamentId(2)), Some((2, false)));
        assert_eq!(hub.state(TournamentId(4)), None);
    }

    fn page(version: i32, etag: &str) -> Arc<CachedPage> {
        Arc::new(CachedPage {
            version,
            model: LiveModel {
                version,
                frame: String::new(),
                parts: Vec::new(),
                sections: Vec::new(),
            },
            phone_base: String::new(),
            etag: etag.into(),
            body: Bytes::new(),
            gzip: None,
        })
    }

    #[test]
    fn the_cache_serves_only_the_current_version() {
        let hub = LiveHub::default();
        hub.store(TournamentId(1), page(3, "a"), None);
        assert!(hub.cached(TournamentId(1), 3).is_some());
        assert!(hub.cached(TournamentId(1), 4).is_none());
        // A slow render of an older version never replaces a newer page.
        hub.store(TournamentId(1), page(2, "b"), None);
        assert_eq!(hub.cached(TournamentId(1), 3).unwrap().etag, "a");
    }

    fn text(bytes: Bytes) -> String {
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn followers_get_the_deltas_they_miss_or_a_reset() {
        let hub = LiveHub::default();
        let mut rendered = hub.follow(TournamentId(1));
        assert_eq!(*rendered.borrow_and_update(), -1, "nothing rendered yet");
        hub.store(TournamentId(1), page(3, "a"), None);
        assert_eq!(*rendered.borrow_and_update(), 3);
        let delta = |base, v| Delta {
            v,
            base,
            parts: vec![("updated".into(), "x".into())],
            rows: Vec::new(),
            gone: Vec::new(),
            ranks: Vec::new(),
        };
        hub.store(TournamentId(1), page(4, "b"), Some(delta(3, 4)));
        // A delta computed against another page than the one stored before is not sent.
        hub.store(TournamentId(1), page(5, "c"), Some(delta(3, 5)));
        hub.store(TournamentId(1), page(6, "d"), Some(delta(5, 6)));
        let four = text(hub.events_between(TournamentId(1), Some(3), 4));
        assert!(four.starts_with("event: delta\nid: 4\ndata: {"), "{four}");
        let six = text(hub.events_between(TournamentId(1), Some(3), 6));
        assert_eq!(
            six.matches("event: ").collect::<Vec<_>>().len(),
            3,
            "delta, reset, delta: {six}"
        );
        assert!(six.contains("event: reset\nid: 5\ndata: 5\n\n"));
        assert_eq!(
            text(hub.events_between(TournamentId(1), Some(2), 6)),
            "event: reset\nid: 6\ndata: 6\n\n",
            "an unknown base"
        );
        assert_eq!(
            text(hub.events_between(TournamentId(1), None, 6)),
            "event: reset\nid: 6\ndata: 6\n\n"
        );
        assert!(text(hub.events_between(TournamentId(1), Some(6), 6)).is_empty());
    }

    #[test]
    fn only_one_render_at_a_time() {
        let hub = LiveHub::default();
        let ticket = hub.start_render(TournamentId(1));
        assert!(ticket.is_some());
        assert!(hub.start_render(TournamentId(1)).is_none());
        assert!(
            hub.start_render(TournamentId(2)).is_some(),
            "other tournaments are independent"
        );
        drop(ticket);
        assert!(hub.start_render(TournamentId(1)).is_some());
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
        let model = LiveModel {
            version: 12,
            frame: String::new(),
            parts: Vec::new(),
            sections: Vec::new(),
        };
        let page = CachedPage::new(TournamentId(7), model, String::new(), html.clone());
        let mut unpacked = String::new();
        std::io::Read::read_to_string(
            &mut flate2::read::GzDecoder::new(&page.gzip.unwrap()[..]),
            &mut unpacked,
        )
        .unwrap();
        assert_eq!(unpacked, html);
        assert_eq!(page.etag, "\"t7-v12\"");
    }
}
