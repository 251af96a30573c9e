//! The bulk CSV import of table results (`passe;startnummer;punkte`).

use super::auth::{Permitted, SecuredUpload, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::{page, page_with};
use super::state::{AppState, db};
use crate::app::{guard, import};
use crate::db::models::TournamentRow;
use crate::domain::ids::TournamentId;
use crate::domain::result_import::{Seated, TableState, assemble, parse_result_csv};
use crate::domain::text_import::ImportError;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;

#[derive(Template)]
#[template(path = "results_import.html")]
struct ImportPage {
    ctx: Ctx,
    t: TournamentRow,
    errors: Vec<ImportError>,
}

async fn form(
    state: web::Data<AppState>,
    user: Permitted<gate::EnterResults>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let t = db(&state, move |conn| Ok(guard::tournament(conn, id)?)).await?;
    page(&ImportPage {
        ctx: user.session.ctx().with_tournament(&t),
        t,
        errors: Vec::new(),
    })
}

async fn upload(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    upload: SecuredUpload<gate::EnterResults>,
) -> Result<HttpResponse, AppError> {
    let actor = upload.session.actor().clone();
    let id = path.into_inner();
    let bytes = upload.fields.get("file").cloned().unwrap_or_default();
    let data = db(&state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let mode = data.tournament.mode;
    mode.facts()
        .score_kind
        .csv_import(mode)
        .map_err(AppError::BadRequest)?;
    let parsed = parse_result_csv(&bytes, data.tournament.passen.get()).and_then(|lines| {
        let seat = |passe: u32, startnummer: u32| {
            data.table_of_startnummer(passe, startnummer)
                .map(|t| Seated {
                    table: t.number,
                    // Einzelschieber: A2 plays on side A with A1.
                    side_a: data
                        .side(passe, t.team_a)
                        .iter()
                        .any(|p| p.startnummer.get() == startnummer),
                    first_a: t.team_a.startnummer.get(),
                    first_b: t.team_b.startnummer.get(),
                    state: if data.table_has_left(passe, &t) {
                        TableState::Pauschale
                    } else if data.result_at(passe, t.number).is_some() {
                        TableState::Entered
                    } else {
                        TableState::Open
                    },
                })
        };
        assemble(&lines, &seat, data.spiele())
    });
    let tables = match parsed {
        Ok(tables) => tables,
        Err(errors) => {
            return page_with(
                &ImportPage {
                    ctx: upload.session.ctx().with_tournament(&data.tournament),
                    t: data.tournament,
                    errors,
                },
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let imported = db(&state, move |conn| {
        Ok(import::import_results(conn, &actor, id, &tables)?)
    })
    .await?;
    flash_redirect(&format!("/tournaments/{id}"), imported.message())
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/results/import", web::get().to(form))
        .route("/tournaments/{id}/results/import", web::post().to(upload));
}
