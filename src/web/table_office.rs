//! Results from the table, the office's side: the Leitung switches it and opens a Passe,
//! sees the codes (with wrong attempts) and revokes one; the office decides a report.

use super::auth::{Permitted, Secured, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::guard;
use crate::app::read;
use crate::app::table_entry::report;
use crate::app::table_entry::{self as use_case, Switch};
use crate::db::models::TournamentRow;
use crate::domain::ids::{RoundNo, TeamId, TournamentId};
use crate::domain::table_code;
use crate::domain::table_report::{Opening, Version};
use crate::domain::throttle::CODE_ALARM;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

pub struct CodeLine {
    pub team: TeamId,
    pub label: String,
    pub code: String,
    pub failures: u32,
    pub alarm: bool,
    /// The team's phones wrote too often: stopped until this time ("14:35").
    pub stopped: Option<String>,
}

#[derive(Template)]
#[template(path = "table_office.html")]
struct OfficePage {
    ctx: Ctx,
    t: TournamentRow,
    opening: Opening,
    /// The open Passe, 0 for none (preselected in the list).
    open_passe: u32,
    drawn: Vec<u32>,
    codes: Vec<CodeLine>,
    alarms: usize,
    stopped: usize,
}

async fn show(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let read::TableOffice {
        tournament: t,
        opening,
        teams,
        codes,
        failures,
        drawn,
        stopped,
    } = db(&state, move |conn| Ok(read::table_office(conn, id)?)).await?;
    let codes: Vec<CodeLine> = teams
        .iter()
        .map(|team| {
            let failures = failures.get(&team.id.to_string()).copied().unwrap_or(0);
            CodeLine {
                team: team.id,
                label: team_label(team),
                code: codes
                    .get(&team.id)
                    .map(|c| table_code::printed(c))
                    .unwrap_or_default(),
                failures,
                alarm: failures >= CODE_ALARM,
                stopped: stopped
                    .get(&team.id.to_string())
                    .map(|until| until.format("%H:%M").to_string()),
            }
        })
        .collect();
    page(&OfficePage {
        ctx: user.session.ctx().with_tournament(&t),
        alarms: codes.iter().filter(|c| c.alarm).count(),
        stopped: codes.iter().filter(|c| c.stopped.is_some()).count(),
        t,
        open_passe: opening.passe().unwrap_or(0),
        opening,
        drawn,
        codes,
    })
}

#[derive(Deserialize)]
struct SwitchForm {
    #[serde(default)]
    action: String,
    #[serde(default)]
    passe: String,
}

async fn switch(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<SwitchForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let switch = match post.form.action.as_str() {
        "ein" => Switch::On,
        "aus" => Switch::Off,
        "schliessen" => Switch::Close,
        "oeffnen" => Switch::Open(
            post.form
                .passe
                .trim()
                .parse()
                .map_err(|_| AppError::BadRequest("Bitte eine Passe wählen.".into()))?,
        ),
        _ => return Err(AppError::BadRequest("Unbekannte Aktion.".into())),
    };
    let actor = post.session.actor().clone();
    let message = db(&state, move |conn| {
        Ok(use_case::switch(conn, &actor, id, switch)?)
    })
    .await?;
    flash_redirect(&format!("/tournaments/{id}/tisch"), message)
}

#[derive(Deserialize)]
struct Empty {}

async fn revoke(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
    post: Secured<Empty>,
) -> Result<HttpResponse, AppError> {
    let (id, team) = path.into_inner();
    let actor = post.session.actor().clone();
    let team = db(&state, move |conn| {
        Ok(use_case::revoke(conn, &actor, id, team)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/tisch#code-{}", team.id),
        format!(
            "Neuer Tisch-Code für {}: der alte gilt nicht mehr, angemeldete Telefone müssen den neuen eingeben. Standblatt neu drucken.",
            team_label(&team)
        ),
    )
}

#[derive(Deserialize)]
struct DecideForm {
    #[serde(default)]
    version: String,
    #[serde(default)]
    seen: String,
}

async fn decide(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, u32)>,
    post: Secured<DecideForm>,
) -> Result<HttpResponse, AppError> {
    if !post.session.actor().may_change_results() {
        return Err(AppError::forbidden());
    }
    let (id, passe, table) = path.into_inner();
    let passe = passe.get();
    let version = match post.form.version.as_str() {
        "gemeldet" => Version::Reported,
        "widerspruch" => Version::Answer,
        _ => return Err(AppError::BadRequest("Bitte eine Version wählen.".into())),
    };
    let seen: i32 = post
        .form
        .seen
        .trim()
        .parse()
        .map_err(|_| AppError::BadRequest("Ungültiges Formular.".into()))?;
    let actor = post.session.actor().clone();
    let (score, round) = db(&state, move |conn| {
        let score = report::decide(conn, &actor, id, (passe, table), version, seen)?;
        Ok((score, guard::tournament(conn, id)?.mode.round()))
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/passen/{passe}#tisch-{table}"),
        format!(
            "{round} {passe}, Tisch {table} entschieden: {} : {}.",
            crate::domain::format::number(i64::from(score.points_a)),
            crate::domain::format::number(i64::from(score.points_b))
        ),
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/tisch", web::get().to(show))
        .route("/tournaments/{id}/tisch", web::post().to(switch))
        .route(
            "/tournaments/{id}/tisch/codes/{team}",
            web::post().to(revoke),
        )
        .route(
            "/tournaments/{id}/passen/{passe}/tables/{table}/entscheiden",
            web::post().to(decide),
        );
}
