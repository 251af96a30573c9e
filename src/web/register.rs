//! The club's register (Leitung): search over every person, and a person's tournaments.

use super::auth::{Permitted, Secured, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::{page, page_with};
use super::state::{AppState, db};
use crate::app::persons::Played;
use crate::db::models::PersonRow;
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::PersonId;
use crate::domain::person::PersonForm;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
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
    form: PersonForm,
    errors: FieldErrors,
}

fn form_of(p: &PersonRow) -> PersonForm {
    PersonForm {
        name: p.name.clone(),
        vorname: p.vorname.clone(),
        verein: p.verein.clone().unwrap_or_default(),
        ort: p.ort.clone().unwrap_or_default(),
        jahrgang: p.jahrgang.map(|j| j.to_string()).unwrap_or_default(),
        geschlecht: p
            .geschlecht
            .map(|g| g.key().to_string())
            .unwrap_or_default(),
        email: p.email.clone().unwrap_or_default(),
        phone: p.phone.clone().unwrap_or_default(),
    }
}

async fn show(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<PersonId>,
) -> Result<HttpResponse, AppError> {
    let ctx = user.session.ctx();
    let actor = user.session.actor().clone();
    person_page(
        &state,
        ctx,
        actor,
        path.into_inner(),
        None,
        FieldErrors::new(),
    )
    .await
}

async fn person_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    actor: crate::domain::role::Actor,
    id: PersonId,
    form: Option<PersonForm>,
    errors: FieldErrors,
) -> Result<HttpResponse, AppError> {
    let (person, played) = db(state, move |conn| {
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
    let status = match errors.is_empty() {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &PersonPage {
            ctx,
            form: form.unwrap_or_else(|| form_of(&person)),
            errors,
            person,
            played,
        },
        status,
    )
}

async fn update(
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
    post: Secured<PersonForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = post.session.actor().clone();
    let this_year =
        u32::try_from(chrono::Datelike::year(&crate::app::read::now().date())).unwrap_or(u32::MAX);
    match post.form.parse(this_year) {
        Ok(input) => {
            db(&state, move |conn| {
                Ok(crate::app::persons::update(conn, &actor, id, &input)?)
            })
            .await?;
            flash_redirect(&format!("/personen/{id}"), "Person gespeichert.".into())
        }
        Err(errors) => {
            let ctx = post.session.ctx();
            person_page(&state, ctx, actor, id, Some(post.form), errors).await
        }
    }
}

#[derive(Deserialize)]
struct MergeForm {
    #[serde(default)]
    into: String,
}

async fn merge(
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
    post: Secured<MergeForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let from = path.into_inner();
    let into = post
        .form
        .into
        .trim()
        .trim_start_matches('#')
        .parse::<i32>()
        .map(PersonId)
        .map_err(|_| AppError::BadRequest("Bitte die Nummer der anderen Person angeben.".into()))?;
    let actor = post.session.actor().clone();
    db(&state, move |conn| {
        Ok(crate::app::persons::merge(conn, &actor, from, into)?)
    })
    .await?;
    flash_redirect(
        &format!("/personen/{into}"),
        format!("Person #{from} mit dieser zusammengeführt."),
    )
}

async fn erase(
    state: web::Data<AppState>,
    path: web::Path<PersonId>,
    post: Secured<std::collections::HashMap<String, String>, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = post.session.actor().clone();
    db(&state, move |conn| {
        Ok(crate::app::persons::erase(conn, &actor, id)?)
    })
    .await?;
    flash_redirect(
        "/personen",
        "Person gelöscht; ihre Ranglisten-Zeilen lauten «gelöscht».".into(),
    )
}

/// One suggestion for a player field, as the script fills it.
#[derive(serde::Serialize)]
struct Suggestion {
    /// "Anna Müller · JC Uster · Uster".
    label: String,
    /// A team's player as one text ("Anna Müller").
    text: String,
    name: String,
    vorname: String,
    verein: String,
    ort: String,
}

/// Persons of the register for the registration form (Büro), as JSON.
async fn suggestions(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTeams>,
    query: web::Query<SearchQuery>,
) -> Result<HttpResponse, AppError> {
    let actor = user.session.actor().clone();
    let q = query.into_inner().q;
    let found = db(&state, move |conn| {
        Ok(crate::app::persons::suggest(conn, &actor, &q, 8)?)
    })
    .await?;
    let list: Vec<Suggestion> = found
        .into_iter()
        .map(|p| {
            let text = [p.vorname.as_str(), p.name.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            let label = [Some(text.clone()), p.verein.clone(), p.ort.clone()]
                .into_iter()
                .flatten()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · ");
            Suggestion {
                label,
                text,
                name: p.name,
                vorname: p.vorname,
                verein: p.verein.unwrap_or_default(),
                ort: p.ort.unwrap_or_default(),
            }
        })
        .collect();
    Ok(HttpResponse::Ok().json(list))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/personen", web::get().to(list))
        .route("/personen/vorschlaege", web::get().to(suggestions))
        .route("/personen/{id}", web::get().to(show))
        .route("/personen/{id}", web::post().to(update))
        .route("/personen/{id}/zusammenfuehren", web::post().to(merge))
        .route("/personen/{id}/loeschen", web::post().to(erase));
}
