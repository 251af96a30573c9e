//! The Kontrolleur's desk: visa a whole Passe in one action (after a list of what will be
//! visaed), jump to a Standblatt by Startnummer, and the Endvisum worklist.

use super::auth::flash_redirect;
use super::auth::{Permitted, Secured, User, gate};
use super::ctx::Ctx;
use super::render::{page, see_other};
use super::state::{AppState, db};
use super::views::{TableView, table_views, team_label};
use crate::app::{guard, visa};
use crate::db::models::TournamentRow;
use crate::domain::format;
use crate::domain::ids::{RoundNo, TournamentId};
use crate::domain::standblatt::SheetStatus;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "visa_all.html")]
struct VisaAllPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    tables: Vec<TableView>,
    /// `table:version,…` as the form posts it back.
    listed: String,
}

/// Tables a bulk visa takes: final results with a side still unvisaed.
fn to_visa(tables: Vec<TableView>) -> Vec<TableView> {
    tables
        .into_iter()
        .filter(|t| t.is_entered() && t.result.as_ref().is_some_and(|r| !(r.visa_a && r.visa_b)))
        .collect()
}

async fn visa_all_form(
    state: web::Data<AppState>,
    user: Permitted<gate::Visa>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let data = db(&state, move |conn| Ok(guard::load_round(conn, id, passe)?)).await?;
    let tables = to_visa(table_views(&data, passe));
    let listed = tables
        .iter()
        .filter_map(|t| {
            t.result
                .as_ref()
                .map(|r| format!("{}:{}", t.number, r.version))
        })
        .collect::<Vec<_>>()
        .join(",");
    page(&VisaAllPage {
        ctx: user.session.ctx().with_tournament(&data.tournament),
        passe,
        tables,
        listed,
        t: data.tournament,
    })
}

#[derive(Deserialize)]
struct VisaAllForm {
    #[serde(default)]
    tables: String,
}

fn parse_listed(raw: &str) -> Result<Vec<(u32, i32)>, AppError> {
    raw.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|item| {
            let (table, version) = item.split_once(':').unwrap_or((item, ""));
            match (table.trim().parse(), version.trim().parse()) {
                (Ok(t), Ok(v)) => Ok((t, v)),
                _ => Err(AppError::BadRequest("Ungültige Tischliste.".into())),
            }
        })
        .collect()
}

async fn visa_all(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    post: Secured<VisaAllForm, gate::Visa>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let tables = parse_listed(&post.form.tables)?;
    let (count, round) = db(&state, move |conn| {
        let count = visa::visa_tables(conn, &actor, id, passe, &tables)?;
        Ok((count, guard::tournament(conn, id)?.mode.round()))
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/passen/{passe}"),
        format!(
            "{round} {passe}: {count} {} visiert.",
            if count == 1 { "Tisch" } else { "Tische" }
        ),
    )
}

#[derive(Deserialize)]
struct JumpQuery {
    #[serde(default)]
    nr: String,
}

/// `?nr=12` → the Standblatt of Startnummer 12.
async fn jump(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<TournamentId>,
    query: web::Query<JumpQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let nr: u32 = query
        .nr
        .trim()
        .parse()
        .map_err(|_| AppError::BadRequest("Bitte eine Startnummer eingeben.".into()))?;
    let data = db(&state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let _ = user;
    let team = data
        .teams
        .iter()
        .find(|t| t.startnummer.get() == nr)
        .ok_or_else(|| AppError::NotFound(format!("Startnummer {nr} gibt es nicht.")))?;
    Ok(see_other(&format!("/tournaments/{id}/teams/{}", team.id)))
}

pub struct WorkRow {
    pub team_id: i32,
    pub startnummer: u32,
    pub label: String,
    pub total: String,
    /// Where the list continues after this team's Endvisum (its row is gone then).
    pub next_anchor: String,
}

#[derive(Template)]
#[template(path = "endvisa.html")]
struct EndvisaPage {
    ctx: Ctx,
    t: TournamentRow,
    rows: Vec<WorkRow>,
    waiting: usize,
    done: usize,
}

async fn endvisa(
    state: web::Data<AppState>,
    user: Permitted<gate::Visa>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let data = db(&state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let sheets = data.standblaetter();
    // The total of the Standblatt page: without a Passe struck by the Streichresultat.
    let rule = super::standblatt::SheetRule::of(&data);
    let ready: Vec<_> = data
        .teams
        .iter()
        .zip(&sheets)
        .filter(|(_, s)| s.status == SheetStatus::Visiert)
        .collect();
    let mut rows: Vec<WorkRow> = ready
        .iter()
        .map(|(team, sheet)| WorkRow {
            team_id: team.id.0,
            startnummer: team.startnummer.get(),
            label: team_label(team),
            total: format::number(i64::from(rule.total(sheet))),
            next_anchor: String::new(),
        })
        .collect();
    let anchors: Vec<String> = rows
        .iter()
        .skip(1)
        .map(|r| format!("t-{}", r.startnummer))
        .chain(std::iter::once("liste".to_string()))
        .collect();
    for (row, anchor) in rows.iter_mut().zip(anchors) {
        row.next_anchor = anchor;
    }
    page(&EndvisaPage {
        ctx: user.session.ctx().with_tournament(&data.tournament),
        waiting: sheets
            .iter()
            .filter(|s| matches!(s.status, SheetStatus::Offen | SheetStatus::Erfasst))
            .count(),
        done: sheets
            .iter()
            .filter(|s| s.status == SheetStatus::Endvisum)
            .count(),
        rows,
        t: data.tournament,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/visa-all",
        web::get().to(visa_all_form),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/visa-all",
        web::post().to(visa_all),
    )
    .route("/tournaments/{id}/standblatt", web::get().to(jump))
    .route("/tournaments/{id}/endvisa", web::get().to(endvisa));
}
