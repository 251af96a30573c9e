//! Result entry per round: the fast one-number entry of a points mode, and the one save
//! handler behind every typed result (new, correction, Schnellerfassung).

use super::views::{ResultView, TableView, progress, table_views};
use super::{
    AppState, Ctx, Secured, User, correction, db, html_page, live, page_with, see_other, spielrunde,
};
use crate::app::entry::{SaveOutcome, Typed, save_typed};
use crate::app::guard;
use crate::db::models::TournamentRow;
use crate::db::tournament_data::TournamentData;
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::mode::{POINTS_PER_SPIEL, ResultEntry};
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
        total: t.mode.table_total(t.spiele_per_passe as u32).unwrap_or(0),
        per_spiel: POINTS_PER_SPIEL,
        form,
        errors,
        conflict,
        contradiction,
        missing,
        entered,
        entered_count,
        expected,
        // `</` cannot end the script element early: names are user input.
        tables_json: serde_json::Value::Object(json)
            .to_string()
            .replace("</", "<\\/"),
        t: data.tournament,
    }
}

/// The entry page of a round: the fast entry in a points mode, the Spielrunde page (clock,
/// Schnellerfassung, Tafeln) where the mode counts Striche.
async fn entry_form(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(i32, u32)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let actor = user.0.actor().clone();
    let ctx = user.0.ctx();
    // Built and rendered on a database thread: the page the Büro reloads after every result
    // gets normal priority, not the workers' lowered one. None: the mode counts Striche.
    let html = db(&state, move |conn| {
        let data = guard::load_round(conn, TournamentId(id), passe)?;
        if data.tournament.mode.facts().entry == ResultEntry::Striche {
            return Ok(None);
        }
        actor
            .may_write_result(ResultWrite::New)
            .map_err(|m| AppError::Forbidden(m.into()))?;
        let page = entry_page(
            ctx,
            data,
            passe,
            ResultForm::default(),
            FieldErrors::new(),
            None,
        );
        Ok(Some(page.render()?))
    })
    .await?;
    match html {
        Some(html) => Ok(html_page(html, StatusCode::OK)),
        None => spielrunde::show(&state, user.0, id, passe).await,
    }
}

/// The flash message after a save that redirects; None when the page is shown again.
fn saved_message(
    t: &TournamentRow,
    outcome: &SaveOutcome,
    passe: u32,
    table: u32,
    correction: bool,
) -> Option<String> {
    let round = t.mode.round();
    match outcome {
        SaveOutcome::Saved(row) => Some(format!(
            "{round} {passe}, Tisch {table} gespeichert: {} : {}{}{}",
            format::number(i64::from(row.points_a)),
            format::number(i64::from(row.points_b)),
            match t.mode.facts().entry {
                ResultEntry::Striche => " Striche",
                ResultEntry::Points => "",
            },
            if correction {
                " (korrigiert, Visum aufgehoben)"
            } else {
                ""
            }
        )),
        SaveOutcome::FirstEntry => Some(format!(
            "{round} {passe}, Tisch {table}: 1× erfasst – zählt nach der zweiten, blinden Erfassung durch ein anderes Konto."
        )),
        SaveOutcome::Mismatch(_) | SaveOutcome::Conflict(_) => None,
    }
}

/// Saves a typed result (new when `version` is empty, else a correction of that version)
/// in any mode: 303 on success, 409 on a conflict, 422 on bad input, each with the page
/// the clerk came from. Parsing, saving and the flash message take one trip to the
/// database: under load every trip waits for a thread.
pub(super) async fn save(
    state: &web::Data<AppState>,
    post: Secured<ResultForm>,
    id: TournamentId,
    passe: u32,
    back: String,
) -> Result<HttpResponse, AppError> {
    let correction = !post.form.version.trim().is_empty();
    let actor = post.session.actor().clone();
    let form = post.form.clone();
    let token = post.session.token.clone();
    let (typed, t, versions) = db(state, move |conn| {
        let typed = save_typed(conn, &actor, id, passe, &form)?;
        let t = guard::tournament(conn, id)?;
        if let Typed::Done { table, outcome } = &typed
            && let Some(message) = saved_message(&t, outcome, passe, *table, correction)
        {
            crate::db::users::set_flash(conn, &token, &message)?;
        }
        Ok((typed, t, crate::db::tournaments::versions(conn)?))
    })
    .await?;
    state.live.publish(&versions);
    let (errors, conflict, status) = match typed {
        Typed::Done {
            outcome: SaveOutcome::Saved(_) | SaveOutcome::FirstEntry,
            ..
        } => {
            let mut response = see_other(&back);
            response.extensions_mut().insert(live::VersionsPublished);
            return Ok(response);
        }
        Typed::Invalid(errors) => (errors, None, StatusCode::UNPROCESSABLE_ENTITY),
        // Double entry: the contradicting entry is shown with the one before it.
        Typed::Done {
            outcome: SaveOutcome::Mismatch(_),
            ..
        } => (FieldErrors::new(), None, StatusCode::CONFLICT),
        Typed::Done {
            outcome: SaveOutcome::Conflict(stored),
            ..
        } => (FieldErrors::new(), Some(stored), StatusCode::CONFLICT),
    };
    // The form again, with the round as it is now.
    if correction && status == StatusCode::UNPROCESSABLE_ENTITY {
        return correction::again(state, post, id, passe, errors).await;
    }
    if t.mode.facts().entry == ResultEntry::Striche {
        return spielrunde::again(state, post, id, passe, errors, conflict, status).await;
    }
    let data = db(state, move |conn| Ok(guard::load_round(conn, id, passe)?)).await?;
    let conflict = conflict.map(|stored| (stored.table_no as u32, ResultView::new(&stored)));
    let page = entry_page(post.session.ctx(), data, passe, post.form, errors, conflict);
    page_with(&page, status)
}

async fn enter(
    state: web::Data<AppState>,
    path: web::Path<(i32, u32)>,
    post: Secured<ResultForm>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    save(
        &state,
        post,
        TournamentId(id),
        passe,
        format!("/tournaments/{id}/passen/{passe}/entry"),
    )
    .await
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/entry",
        web::get().to(entry_form),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/entry",
        web::post().to(enter),
    );
}
