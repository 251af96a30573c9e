//! Result entry per round: the fast one-number entry of a points mode (the Spielrunde page
//! where the mode counts Striche).

use super::auth::{Secured, User};
use super::correction;
use super::ctx::Ctx;
use super::render::{html_page, page_with};
use super::result_save::{Answer, save};
use super::schaetzzettel;
use super::spielrunde;
use super::state::{AppState, db};
use super::views::{ResultView, TableView, progress, table_views};
use crate::app::guard;
use crate::db::models::TournamentRow;
use crate::db::tournament_data::TournamentData;
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::{RoundNo, TournamentId};
use crate::domain::mode::POINTS_PER_SPIEL;
use crate::domain::result::ResultForm;
use crate::domain::role::ResultWrite;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

#[derive(Template)]
#[template(path = "entry.html")]
pub(super) struct EntryPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    total: u32,
    /// The same, de-CH formatted (1'884).
    total_text: String,
    per_spiel: u32,
    form: ResultForm,
    errors: FieldErrors,
    conflict: Option<(u32, ResultView)>,
    /// Double entry: the table whose two entries disagree, with both entries.
    contradiction: Option<TableView>,
    missing: Vec<TableView>,
    entered: Vec<TableView>,
    entered_count: usize,
    expected: usize,
    /// Table → both teams, for the script that shows them as the number is typed.
    tables_json: String,
    /// Opened at a table to resolve its Widerspruch: the cursor waits in the points.
    resolving: bool,
}

fn entry_page(
    ctx: Ctx,
    data: TournamentData,
    passe: u32,
    form: ResultForm,
    errors: FieldErrors,
    conflict: Option<(u32, ResultView)>,
) -> EntryPage {
    let tables = table_views(&data, passe);
    let contradiction = form.table.trim().parse::<u32>().ok().and_then(|table| {
        table_views(&data, passe)
            .into_iter()
            .find(|t| t.number == table && t.contradiction())
    });
    let (entered_count, expected) = progress(&tables);
    let json: serde_json::Map<String, serde_json::Value> = tables
        .iter()
        .map(|t| {
            (
                t.number.to_string(),
                serde_json::json!({ "a": t.team_a, "b": t.team_b, "done": t.result.is_some(), "pauschale": t.pauschale }),
            )
        })
        .collect();
    let (entered, missing): (Vec<TableView>, Vec<TableView>) = tables
        .into_iter()
        .filter(|t| !t.pauschale)
        .partition(|t| t.result.is_some());
    let t = &data.tournament;
    EntryPage {
        ctx: ctx.with_tournament(t),
        passe,
        total: t.mode.table_total(t.spiele_per_passe.get()).unwrap_or(0),
        total_text: format::number(i64::from(
            t.mode.table_total(t.spiele_per_passe.get()).unwrap_or(0),
        )),
        per_spiel: POINTS_PER_SPIEL,
        form,
        errors,
        conflict,
        contradiction,
        missing,
        entered,
        entered_count,
        expected,
        tables_json: script_json(&serde_json::Value::Object(json)),
        resolving: false,
        t: data.tournament,
    }
}

/// JSON to embed in a `<script>` data block: no `<`, `>` or `&` in it, so that no team name
/// (`<!--<script>`, `</script>`) can end or change the block.
fn script_json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The entry page of a round: the fast entry in a points mode, the Spielrunde page (clock,
/// Schnellerfassung, Tafeln) where the mode counts Striche.
/// `?table=N`: the form opens at that table (the Leitung resolving its Widerspruch).
#[derive(serde::Deserialize)]
struct AtTable {
    table: Option<u32>,
}

async fn entry_form(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(TournamentId, RoundNo)>,
    at: web::Query<AtTable>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let form = ResultForm {
        table: at.table.map(|t| t.to_string()).unwrap_or_default(),
        ..ResultForm::default()
    };
    let actor = user.0.actor().clone();
    let ctx = user.0.ctx();
    // Built and rendered on a database thread: the page the Büro reloads after every result
    // gets normal priority, not the workers' lowered one. Err: the mode has its own page.
    let html = db(&state, move |conn| {
        let data = guard::load_round(conn, id, passe)?;
        let kind = data.tournament.mode.facts().score_kind;
        if kind.counts_striche() || kind.per_player() {
            return Ok(Err(kind));
        }
        actor
            .may_write_result(ResultWrite::New)
            .map_err(|m| AppError::Forbidden(m.into()))?;
        let mut page = entry_page(ctx, data, passe, form, FieldErrors::new(), None);
        page.resolving = page.contradiction.is_some();
        // Only a Widerspruch opens at its table; otherwise the form starts empty as always.
        if !page.resolving {
            page.form.table.clear();
        }
        Ok(Ok(page.render()?))
    })
    .await?;
    match html {
        Ok(html) => Ok(html_page(html, StatusCode::OK)),
        Err(kind) if kind.per_player() => {
            let ok = (FieldErrors::new(), None, StatusCode::OK);
            schaetzzettel::entry_page(&state, &user.0, (id, passe), ResultForm::default(), ok).await
        }
        Err(_) => spielrunde::show(&state, user.0, id, passe).await,
    }
}

async fn enter(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    post: Secured<ResultForm>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let back = format!("/tournaments/{id}/passen/{passe}/entry");
    let refusal = match save(&state, &post, id, passe, &back).await? {
        Answer::Done(response) => return Ok(response),
        Answer::Again(refusal) => refusal,
    };
    if refusal.score_kind.per_player() {
        let shown = (refusal.errors, refusal.conflict, refusal.status);
        return schaetzzettel::entry_page(&state, &post.session, (id, passe), post.form, shown)
            .await;
    }
    if refusal.correction
        && (refusal.status == StatusCode::UNPROCESSABLE_ENTITY || refusal.other_source.is_some())
    {
        return correction::again(&state, post, id, passe, refusal, true).await;
    }
    if refusal.score_kind.counts_striche() {
        return spielrunde::again(&state, post, id, passe, refusal).await;
    }
    // The form again, with the round as it is now.
    let data = db(&state, move |conn| Ok(guard::load_round(conn, id, passe)?)).await?;
    let conflict = refusal
        .conflict
        .map(|stored| (stored.table_no.get(), ResultView::new(&stored)));
    let page = entry_page(
        post.session.ctx(),
        data,
        passe,
        post.form,
        refusal.errors,
        conflict,
    );
    page_with(&page, refusal.status)
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/entry",
        web::get().to(entry_form),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/entry",
        web::post().to(enter),
    )
    // The Schnellerfassung of a Spielrunde: the same save, shown again on its own page.
    .route(
        "/tournaments/{id}/passen/{passe}/quick",
        web::post().to(enter),
    );
}
