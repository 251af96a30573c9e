//! What the hall fetches anonymously besides the live page — the Rangliste as a page, JSON,
//! CSV and PDF, the live page for one team (`?nr=`) — rendered once per version of the
//! tournament and then served from memory, like the live page. Without it 32 phones polling
//! `ranking.json` of 1000 teams kept both cores busy and the Büro's saves waited.
//!
//! The version comes from the live hub (published after every write): a hit touches no
//! database. Logged-in users are served fresh (they may see hidden tournaments; they are
//! few).

use super::error::AppError;
use super::live::hub::LiveHub;
use crate::domain::ids::TournamentId;
use actix_web::HttpResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::web::Bytes;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// Rendered bodies kept at most (old versions go first; beyond this, everything goes).
const MAX_BYTES: usize = 64 * 1024 * 1024;

/// Tournaments whose whole-tournament value is kept at once (see [`PerVersion`]).
const MAX_TOURNAMENTS: usize = 16;

/// The headers a cached answer keeps.
const KEPT: [HeaderName; 3] = [
    header::CONTENT_TYPE,
    header::CONTENT_DISPOSITION,
    header::ACCESS_CONTROL_ALLOW_ORIGIN,
];

struct Cached {
    version: i32,
    headers: Vec<(HeaderName, HeaderValue)>,
    body: Bytes,
}

impl Cached {
    fn response(&self) -> HttpResponse {
        let mut response = HttpResponse::Ok();
        for (name, value) in &self.headers {
            response.insert_header((name.clone(), value.clone()));
        }
        response.body(self.body.clone())
    }
}

#[derive(Default)]
pub struct PublicCache {
    entries: Mutex<HashMap<(TournamentId, String), Arc<Cached>>>,
    /// One render at a time: a new version makes the first request render it, the others
    /// wait for that one instead of rendering it too.
    rendering: tokio::sync::Mutex<()>,
}

impl PublicCache {
    fn hit(&self, id: TournamentId, key: &str, version: i32) -> Option<Arc<Cached>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .get(&(id, key.to_string()))
            .filter(|c| c.version >= version)
            .cloned()
    }

    fn keep(&self, id: TournamentId, key: String, cached: Arc<Cached>) {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let version = cached.version;
        entries.retain(|(t, _), c| *t != id || c.version >= version);
        let held: usize = entries.values().map(|c| c.body.len()).sum();
        if held + cached.body.len() > MAX_BYTES {
            entries.clear();
        }
        entries.insert((id, key), cached);
    }

    /// How many answers are kept (the tests look).
    pub fn len(&self) -> usize {
        self.entries.lock().map(|e| e.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Answers an anonymous request for tournament `id`'s public `key` (the format and its
/// query) from the cache of the version `live` last published, or renders it with `make`
/// once. A tournament the hub does not know yet (just after the start) is rendered fresh.
pub async fn serve<F, Fut>(
    (live, cache): (&LiveHub, &PublicCache),
    anonymous: bool,
    id: TournamentId,
    key: String,
    make: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<HttpResponse, AppError>>,
{
    let Some((version, public)) = live.state(id).filter(|_| anonymous) else {
        return make().await;
    };
    if !public {
        return Err(AppError::not_found());
    }
    if let Some(hit) = cache.hit(id, &key, version) {
        return Ok(hit.response());
    }
    let _turn = cache.rendering.lock().await;
    if let Some(hit) = cache.hit(id, &key, version) {
        return Ok(hit.response());
    }
    let made = make().await?;
    if made.status() != StatusCode::OK {
        return Ok(made);
    }
    let headers: Vec<(HeaderName, HeaderValue)> = KEPT
        .iter()
        .filter_map(|name| Some((name.clone(), made.headers().get(name)?.clone())))
        .collect();
    let body = actix_web::body::to_bytes(made.into_body())
        .await
        .map_err(|e| AppError::Internal(format!("public page body: {e}")))?;
    let cached = Arc::new(Cached {
        version,
        headers,
        body,
    });
    let response = cached.response();
    cache.keep(id, key, cached);
    Ok(response)
}

/// One value per tournament — what a public page needs of the whole tournament — built once
/// per version by the first request that needs it and shared by the others until the next
/// write. The public team pages use it: 200 phones reloading them made every request load
/// and rank the whole tournament, and the Büro's saves waited (#82).
pub struct PerVersion<T> {
    entries: Mutex<HashMap<TournamentId, (i32, Arc<T>)>>,
    building: tokio::sync::Mutex<()>,
}

impl<T> Default for PerVersion<T> {
    fn default() -> Self {
        PerVersion {
            entries: Mutex::default(),
            building: tokio::sync::Mutex::default(),
        }
    }
}

impl<T> PerVersion<T> {
    fn hit(&self, id: TournamentId, version: i32) -> Option<Arc<T>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries
            .get(&id)
            .filter(|(built, _)| *built >= version)
            .map(|(_, value)| value.clone())
    }

    /// The value of tournament `id` at `version` (the live hub's) or later; `build` returns
    /// a fresh value with the version it was read at.
    pub async fn get<F, Fut>(
        &self,
        id: TournamentId,
        version: i32,
        build: F,
    ) -> Result<Arc<T>, AppError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<(i32, T), AppError>>,
    {
        if let Some(hit) = self.hit(id, version) {
            return Ok(hit);
        }
        let _turn = self.building.lock().await;
        if let Some(hit) = self.hit(id, version) {
            return Ok(hit);
        }
        let (built, value) = build().await?;
        let value = Arc::new(value);
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        // A season's tournaments are not all kept: beyond a few, the next request builds again.
        if entries.len() >= MAX_TOURNAMENTS && !entries.contains_key(&id) {
            entries.clear();
        }
        entries.insert(id, (built, value.clone()));
        Ok(value)
    }

    /// How many tournaments have a value (the tests look).
    pub fn len(&self) -> usize {
        self.entries.lock().map(|e| e.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
