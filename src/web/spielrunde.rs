//! The Spielrunde page of a mode that counts Striche: the clock, the Schnellerfassung
//! (Striche per category) and the Tafel of every table.

use super::auth::Secured;
use super::auth::{Session, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::page_with;
use super::result_save::Refusal;
use super::state::{AppState, db};
use super::views::{ClockView, TableView, clock_view, progress, table_views};
use crate::app::read;
use crate::app::tafel;
use crate::db::models::{ResultRow, TournamentRow};
use crate::domain::clock::ClockAction;
use crate::domain::form::FieldErrors;
use crate::domain::ids::{RoundNo, TournamentId};
use crate::domain::result::ResultForm;
use crate::domain::role::Permission;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "marathon_entry.html")]
struct RoundPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    clock: ClockView,
    tables: Vec<TableView>,
    entered: usize,
    expected: usize,
    form: ResultForm,
    errors: FieldErrors,
    conflict: Option<(u32, String)>,
}

/// What was typed, and what became of it, for showing the page again.
struct Typed {
    form: ResultForm,
    errors: FieldErrors,
    conflict: Option<ResultRow>,
    status: StatusCode,
}

async fn render(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    passe: u32,
    typed: Typed,
) -> Result<HttpResponse, AppError> {
    let Typed {
        form,
        errors,
        conflict,
        status,
    } = typed;
    let (data, rules, clock) = db(state, move |conn| {
        Ok(read::round_with_clock(conn, id, passe)?)
    })
    .await?;
    let tables = table_views(&data, passe);
    let (entered, expected) = progress(&tables);
    let unit = data.tournament.mode.unit();
    page_with(
        &RoundPage {
            ctx: ctx.with_tournament(&data.tournament),
            clock: clock_view(&rules, clock.as_ref()),
            tables,
            entered,
            expected,
            passe,
            form,
            errors,
            conflict: conflict.map(|stored| {
                (
                    stored.table_no.get(),
                    format!("{} : {} {unit}", stored.points_a, stored.points_b),
                )
            }),
            t: data.tournament,
        },
        status,
    )
}

/// The page, for the Büro and for the Turnierleitung (who runs the clock from it).
pub(super) async fn show(
    state: &web::Data<AppState>,
    session: Session,
    id: TournamentId,
    passe: u32,
) -> Result<HttpResponse, AppError> {
    let actor = session.actor();
    if !actor.may(Permission::EnterResults) && !actor.may(Permission::ManageTournament) {
        return Err(AppError::forbidden());
    }
    render(
        state,
        session.ctx(),
        id,
        passe,
        Typed {
            form: ResultForm::default(),
            errors: FieldErrors::new(),
            conflict: None,
            status: StatusCode::OK,
        },
    )
    .await
}

/// The page again after a Schnellerfassung that was refused or ran into a stored result.
pub(super) async fn again(
    state: &web::Data<AppState>,
    post: Secured<ResultForm>,
    id: TournamentId,
    passe: u32,
    refusal: Refusal,
) -> Result<HttpResponse, AppError> {
    let Refusal {
        errors,
        conflict,
        status,
        ..
    } = refusal;
    render(
        state,
        post.session.ctx(),
        id,
        passe,
        Typed {
            form: post.form,
            errors,
            conflict,
            status,
        },
    )
    .await
}

#[derive(Deserialize)]
struct ClockForm {
    #[serde(default)]
    action: String,
}

async fn clock_post(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    post: Secured<ClockForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let action = ClockAction::parse(&post.form.action)
        .ok_or_else(|| AppError::BadRequest("Unbekannte Aktion.".into()))?;
    db(&state, move |conn| {
        Ok(tafel::clock_action(conn, &actor, id, passe, action)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/passen/{passe}/entry"),
        action.done_message().into(),
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/clock",
        web::post().to(clock_post),
    );
}
