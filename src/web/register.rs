//! The club's register (Leitung): search over every person, and a person's tournaments.

use super::auth::{Permitted, gate};
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use crate::app::persons::Played;
use crate::db::models::PersonRow;
use crate::domain::format;
use crate::domain::ids::PersonId;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Deserialize)]
struct SearchQuery {
    #[serde(default)]
    q: String,
}

#[derive(Template)]
#[template(path = "register.html")]
struct RegisterPage {
    ctx: Ctx,
    q: String,
    persons: Vec<(PersonRow, usize)>,
}

async fn list(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    query: web::Query<SearchQuery>,
) -> Result<HttpResponse, AppError> {
    let actor = user.session.actor().clone();
    let q = query.into_inner().q;
    let search = q.clone();
    let persons = db(&state, move |conn| {
        Ok(crate::app::persons::search(conn, &actor, &search)?)
    })
    .await?;
    page(&RegisterPage {
        ctx: user.session.ctx(),
        q,
        persons,
    })
}

/// A line of a person's history, print-ready.
pub struct PlayedView {
    pub played: Played,
    pub date: String,
    pub rank: String,
    pub total: String,
}

#[derive(Template)]
#[template(path = "person.html")]
struct PersonPage {
    ctx: Ctx,
    person: PersonRow,
    played: Vec<PlayedView>,
}

async fn show(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<PersonId>,
) -> Result<HttpResponse, AppError> {
    let actor = user.session.actor().clone();
    let id = path.into_inner();
    let (person, played) = db(&state, move |conn| {
        Ok(crate::app::persons::history(conn, &actor, id)?)
    })
    .await?;
    let played = played
        .into_iter()
        .map(|p| PlayedView {
            date: format::date(p.date),
            rank: match (p.rank, p.official) {
                (Some(r), true) => format!("{r}."),
                (Some(r), false) => format!("{r}. (provisorisch)"),
                (None, _) => "–".into(),
            },
            total: format::number(i64::from(p.total)),
            played: p,
        })
        .collect();
    page(&PersonPage {
        ctx: user.session.ctx(),
        person,
        played,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/personen", web::get().to(list))
        .route("/personen/{id}", web::get().to(show));
}
