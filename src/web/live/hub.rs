//! The live hub: which version of each tournament the open pages follow, the rendered page
//! of each version (gzip-compressed once, ETag/304), flow control for sending it, and the
//! Server-Sent-Events that tell open pages to refresh.
//!
//! Every write bumps its tournament's version in the database. After each write request the
//! hub reads all versions (one query) and wakes the subscribers of changed tournaments; a
//! poller does the same every second for writes from outside the server (CLI). Neither the
//! cached page nor an SSE connection touches the database.

use crate::db::tournaments::Published;
use crate::web::error::AppError;
use actix_web::body::{BodySize, MessageBody};
use actix_web::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use std::collections::HashMap;
use std::io::Write;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

/// SSE keep-alive, so proxies do not drop idle connections.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A tournament's version as the open pages follow it.
struct Subscribers {
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
    pub(super) fn new(id: i32, version: i32, html: String) -> Self {
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

pub struct LiveHub {
    tournaments: Mutex<HashMap<i32, Subscribers>>,
    pages: Mutex<HashMap<i32, Arc<CachedPage>>>,
    /// Tournaments whose page one request is re-rendering right now.
    rendering: Mutex<std::collections::HashSet<i32>>,
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
    id: i32,
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
    /// Takes the current version and visibility of every tournament and wakes the
    /// subscribers of those that changed.
    pub fn publish(&self, rows: &[Published]) {
        let mut tournaments = lock(&self.tournaments);
        for row in rows {
            let (id, version, public) = (row.id.0, row.version, row.public);
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
                        Subscribers {
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

    pub(super) fn subscribe(&self, id: i32) -> Option<watch::Receiver<i32>> {
        lock(&self.tournaments)
            .get(&id)
            .map(|p| p.version.subscribe())
    }

    pub(super) fn cached(&self, id: i32, version: i32) -> Option<Arc<CachedPage>> {
        lock(&self.pages)
            .get(&id)
            .filter(|p| p.version == version)
            .cloned()
    }

    /// The latest page of any version, to serve while another request renders the new one.
    pub(super) fn latest(&self, id: i32) -> Option<Arc<CachedPage>> {
        lock(&self.pages).get(&id).cloned()
    }

    /// Single flight: only one request renders a tournament's page at a time.
    pub(super) fn start_render(&self, id: i32) -> Option<RenderTicket<'_>> {
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

    pub(super) fn store(&self, id: i32, page: Arc<CachedPage>) {
        let mut pages = lock(&self.pages);
        if pages.get(&id).is_none_or(|old| old.version <= page.version) {
            pages.insert(id, page);
        }
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

fn event(version: i32) -> Bytes {
    Bytes::from(format!("event: version\ndata: {version}\n\n"))
}

/// The SSE stream of one tournament: its version now, then every new version, with a
/// keep-alive comment when nothing happens.
pub(super) fn version_events(receiver: watch::Receiver<i32>) -> HttpResponse {
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
    fn publishing_wakes_only_changed_tournaments() {
        let hub = LiveHub::default();
        hub.publish(&published(&[(1, 5, true), (2, 1, false)]));
        let mut first = hub.subscribe(1).unwrap();
        let second = hub.subscribe(2).unwrap();
        hub.publish(&published(&[(1, 6, true), (2, 1, false)]));
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
}
