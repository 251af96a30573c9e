//! Categories: the list of a tournament (Leitung) and a table of checkboxes for which team
//! belongs to which (Büro).

use super::auth::{Permitted, Secured, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::page_with;
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::categories::Saved;
use crate::app::{self, guard};
use crate::db::models::TournamentRow;
use crate::domain::category::PRESETS;
use crate::domain::form::FieldErrors;
use crate::domain::ids::{CategoryId, TeamId, TournamentId};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub struct MemberRow {
    pub team: TeamId,
    pub label: String,
    /// Per category of the list: (category id, member).
    pub cells: Vec<(CategoryId, bool)>,
}

#[derive(Template)]
#[template(path = "categories.html")]
struct CategoriesPage {
    ctx: Ctx,
    t: TournamentRow,
    names: String,
    errors: FieldErrors,
    categories: Vec<(CategoryId, String)>,
    rows: Vec<MemberRow>,
    presets: String,
}

async fn categories_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    names: Option<String>,
    errors: FieldErrors,
) -> Result<HttpResponse, AppError> {
    let data = db(state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let c = &data.categories;
    let categories: Vec<(CategoryId, String)> =
        c.list.iter().map(|x| (x.id, x.name.clone())).collect();
    let rows = data
        .teams
        .iter()
        .map(|team| MemberRow {
            team: team.id,
            label: team_label(team),
            cells: c
                .list
                .iter()
                .map(|x| (x.id, c.is_member(team.id, x.id)))
                .collect(),
        })
        .collect();
    let status = match errors.is_empty() {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &CategoriesPage {
            ctx: ctx.with_tournament(&data.tournament),
            names: names.unwrap_or_else(|| {
                categories
                    .iter()
                    .map(|(_, n)| n.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            errors,
            categories,
            rows,
            presets: PRESETS.join(", "),
            t: data.tournament,
        },
        status,
    )
}

async fn show(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTeams>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let ctx = user.session.ctx();
    categories_page(&state, ctx, path.into_inner(), None, FieldErrors::new()).await
}

#[derive(Deserialize)]
struct ListForm {
    #[serde(default)]
    categories: String,
}

async fn save_list(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<ListForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = post.session.actor().clone();
    let raw = post.form.categories.clone();
    let saved = db(&state, move |conn| {
        Ok(app::categories::save_list(conn, &actor, id, &raw)?)
    })
    .await?;
    match saved {
        Saved::Done => flash_redirect(
            &format!("/tournaments/{id}/kategorien"),
            "Kategorien gespeichert.".into(),
        ),
        Saved::Invalid(errors) => {
            let names = post.form.categories.clone();
            categories_page(&state, post.session.ctx(), id, Some(names), errors).await
        }
    }
}

/// The checkboxes: `m_<team>_<category>` for every ticked one.
fn ticked(form: &HashMap<String, String>) -> Result<Vec<(TeamId, CategoryId)>, AppError> {
    form.keys()
        .filter_map(|k| k.strip_prefix("m_"))
        .map(|rest| {
            let (team, category) = rest.split_once('_').unwrap_or((rest, ""));
            match (team.parse(), category.parse()) {
                (Ok(t), Ok(c)) => Ok((TeamId(t), CategoryId(c))),
                _ => Err(AppError::BadRequest(
                    "Ungültiges Kästchen im Formular.".into(),
                )),
            }
        })
        .collect()
}

async fn save_members(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<HashMap<String, String>, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let mut pairs = ticked(&post.form)?;
    pairs.sort();
    pairs.dedup();
    let actor = post.session.actor().clone();
    db(&state, move |conn| {
        Ok(app::categories::save_members(conn, &actor, id, &pairs)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/kategorien"),
        "Kategorien der Teams gespeichert.".into(),
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/kategorien", web::get().to(show))
        .route("/tournaments/{id}/kategorien", web::post().to(save_list))
        .route(
            "/tournaments/{id}/kategorien/mitglieder",
            web::post().to(save_members),
        );
}
