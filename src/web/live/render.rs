//! Rendering the shared live page of a version, with the delta from the version before:
//! on a viewer's request, or right after a change while pages are open.

use super::hub::CachedPage;
use super::model::{Delta, diff};
use super::page::{live_view, load_live, render};
use crate::domain::ids::TournamentId;
use crate::web::error::AppError;
use crate::web::hall::default_phone_base;
use crate::web::state::AppState;
use actix_web::web;
use std::sync::Arc;

/// Renders the shared page of a tournament's current version, keeps it with the delta from
/// the page before, and wakes the open pages. The caller holds the render ticket.
pub(super) async fn render_shared(
    state: &web::Data<AppState>,
    id: TournamentId,
    base: String,
) -> Result<Option<Arc<CachedPage>>, AppError> {
    let previous = state.live.latest(id);
    let pool = state.pool.clone();
    let rendered = web::block(
        move || -> Result<Option<(CachedPage, Option<Delta>)>, AppError> {
            let mut conn = pool.get()?;
            let (data, clock, absenden) = load_live(&mut conn, id)?;
            if !data.tournament.public {
                return Ok(None);
            }
            let view = live_view(&data, clock.as_ref(), absenden.as_ref())?;
            let html = render(&data, &view, &base, None)?;
            let delta = previous.and_then(|p| diff(&p.model, &view.model));
            Ok(Some((CachedPage::new(id, view.model, base, html), delta)))
        },
    )
    .await??;
    state.live.count_render();
    Ok(rendered.map(|(page, delta)| {
        let page = Arc::new(page);
        state.live.store(id, page.clone(), delta);
        page
    }))
}

/// Renders a followed tournament's page after a change, so that the open pages get their
/// delta without asking; one render at a time, again until the page is current.
pub async fn keep_current(state: web::Data<AppState>, id: TournamentId) {
    loop {
        let Some(ticket) = state.live.start_render(id) else {
            // The render in flight looks again when it ends.
            return;
        };
        let Some((version, true)) = state.live.state(id) else {
            return;
        };
        if state.live.cached(id, version).is_some() {
            return;
        }
        let base = state
            .live
            .latest(id)
            .map_or_else(|| default_phone_base(&state), |p| p.phone_base.clone());
        if let Err(e) = render_shared(&state, id, base).await {
            tracing::warn!(error = %e, tournament = %id, "live page not rendered");
            return;
        }
        drop(ticket);
    }
}
