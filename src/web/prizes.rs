//! Gabentisch and Absenden: the prize list (Leitung), the prize giving screen (Leitung;
//! Space = next name), the Preisliste and the Urkunden.

use super::auth::{Permitted, Secured, User, flash_redirect, gate};
use super::ctx::Ctx;
use super::prints::{download_name, header, made, pdf};
use super::render::{page, page_with, see_other};
use super::state::{AppState, db};
use super::views::awards::{AwardView, award_views, screen};
use crate::app::prizes::{Move, Saved};
use crate::app::{self, guard};
use crate::db::models::TournamentRow;
use crate::db::tournament_data::TournamentData;
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::prizes::{Award, PrizeForm};
use crate::pdf::documents::{self, Certificate, PrizeLine};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "prizes.html")]
struct PrizesPage {
    ctx: Ctx,
    t: TournamentRow,
    form: PrizeForm,
    errors: FieldErrors,
    /// The prize giving as it would be read out now (official Rangliste).
    preview: Vec<AwardView>,
}

async fn prizes_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    form: Option<PrizeForm>,
    errors: FieldErrors,
) -> Result<HttpResponse, AppError> {
    let (data, list, awards) = db(state, move |conn| {
        let data = guard::load(conn, id)?;
        let (_, list) = app::prizes::list(conn, id)?;
        let awards = app::prizes::awards(conn, &data)?;
        Ok((data, list, awards))
    })
    .await?;
    let status = match errors.is_empty() {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &PrizesPage {
            ctx: ctx.with_tournament(&data.tournament),
            form: form.unwrap_or_else(|| PrizeForm::of(&list)),
            errors,
            preview: award_views(&data, &awards),
            t: data.tournament,
        },
        status,
    )
}

async fn show_prizes(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let ctx = user.session.ctx();
    prizes_page(&state, ctx, path.into_inner(), None, FieldErrors::new()).await
}

async fn save_prizes(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<PrizeForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = post.session.actor().clone();
    let form = post.form.clone();
    let saved = db(&state, move |conn| {
        Ok(app::prizes::save(conn, &actor, id, &form)?)
    })
    .await?;
    match saved {
        Saved::Done => flash_redirect(
            &format!("/tournaments/{id}/preise"),
            "Preisliste gespeichert.".into(),
        ),
        Saved::Invalid(errors) => {
            prizes_page(&state, post.session.ctx(), id, Some(post.form), errors).await
        }
    }
}

#[derive(Template)]
#[template(path = "absenden.html")]
struct AbsendenPage {
    ctx: Ctx,
    t: TournamentRow,
    /// The name on screen while the Absenden runs.
    current: Option<AwardView>,
    /// "Preis 3 von 15".
    progress: String,
    last: bool,
    /// Before it starts: how many names will be read out.
    count: usize,
}

async fn show_absenden(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let (data, running, count) = db(&state, move |conn| {
        let data = guard::load(conn, id)?;
        let running = app::prizes::current(conn, &data)?;
        let count = app::prizes::awards(conn, &data)?.len();
        Ok((data, running, count))
    })
    .await?;
    let (current, progress, last) = match &running {
        Some(a) => screen(&data, a),
        None => (None, String::new(), false),
    };
    page(&AbsendenPage {
        ctx: user.session.ctx().with_tournament(&data.tournament),
        current,
        progress,
        last,
        count,
        t: data.tournament,
    })
}

#[derive(Deserialize)]
struct StepForm {
    #[serde(default)]
    step: String,
}

async fn step_absenden(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<StepForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let to = Move::parse(&post.form.step)
        .ok_or_else(|| AppError::BadRequest("Unbekannter Schritt des Absendens.".into()))?;
    let actor = post.session.actor().clone();
    db(&state, move |conn| {
        Ok(app::prizes::step(conn, &actor, id, to)?)
    })
    .await?;
    Ok(see_other(&format!("/tournaments/{id}/absenden")))
}

/// The tournament and the awards of its official Rangliste, in the order handed out.
async fn official_awards(
    state: &web::Data<AppState>,
    id: TournamentId,
) -> Result<(TournamentData, Vec<Award>), AppError> {
    db(state, move |conn| {
        let data = guard::load(conn, id)?;
        let awards = app::prizes::awards(conn, &data)?;
        Ok((data, awards))
    })
    .await
}

fn provisional_note(t: &TournamentRow) -> &'static str {
    match t.closed {
        true => "",
        false => " (Vorschau: Turnier offen)",
    }
}

async fn preisliste_pdf(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let (data, awards) = official_awards(&state, path.into_inner()).await?;
    let lines: Vec<PrizeLine> = award_views(&data, &awards)
        .into_iter()
        .map(|v| PrizeLine {
            what: v.what,
            startnummer: v.startnummer,
            name: v.name,
            prize: v.prize,
        })
        .collect();
    let header = header(
        &data,
        format!("Preisliste{}", provisional_note(&data.tournament)),
    );
    let bytes = made(move || documents::preisliste(header, &lines)).await?;
    Ok(pdf(bytes, &download_name(&data, &["Preisliste"], "pdf")))
}

/// Certificates for the first three places (prize or not), each category winner and every
/// special prize.
async fn urkunden_pdf(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let (data, honoured) = db(&state, move |conn| {
        let data = guard::load(conn, id)?;
        let honoured = app::prizes::certificates(conn, &data)?;
        Ok((data, honoured))
    })
    .await?;
    let views = award_views(&data, &honoured);
    let t = &data.tournament;
    let when_where = [format::date(t.date), t.location.clone()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ");
    let certificates: Vec<Certificate> = views
        .into_iter()
        .map(|v| Certificate {
            tournament: t.name.clone(),
            when_where: when_where.clone(),
            honour: v.what,
            name: v.name,
            detail: v.detail,
            points: v.points,
        })
        .collect();
    let header = header(&data, "Urkunden".into());
    let bytes = made(move || documents::urkunden(header, &certificates)).await?;
    Ok(pdf(bytes, &download_name(&data, &["Urkunden"], "pdf")))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/preise", web::get().to(show_prizes))
        .route("/tournaments/{id}/preise", web::post().to(save_prizes))
        .route("/tournaments/{id}/absenden", web::get().to(show_absenden))
        .route("/tournaments/{id}/absenden", web::post().to(step_absenden))
        .route(
            "/tournaments/{id}/preisliste.pdf",
            web::get().to(preisliste_pdf),
        )
        .route(
            "/tournaments/{id}/urkunden.pdf",
            web::get().to(urkunden_pdf),
        );
}
