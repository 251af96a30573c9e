//! The Differenzler's Schätzzettel in the Büro: a Passe's tables with their four players and
//! each place's differences, the fast entry of four sums per table, and one table's sheet
//! typed Spiel by Spiel (Ansage and gemacht per player).

use super::auth::{Secured, Session, User};
use super::ctx::Ctx;
use super::render::page_with;
use super::result_save::{Answer, save_with};
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::entry::save_schaetzzettel;
use crate::app::guard;
use crate::db::models::{ResultRow, TournamentRow};
use crate::db::tournament_data::TournamentData;
use crate::domain::differenzler::{Line, TableSheet, parse_sheet, sheet_field};
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::{RoundNo, TournamentId};
use crate::domain::result::ResultForm;
use crate::domain::role::ResultWrite;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::collections::HashMap;

/// One table of a Passe as the Schätzzettel pages show it.
pub(super) struct PlaceTable {
    number: u32,
    /// The players at places 1 to 4 (seats A1, A2, B1, B2 of the draw).
    names: [String; 4],
    /// Each place's differences, once entered.
    differenzen: Option<[String; 4]>,
    visiert: bool,
    /// Entered Spiel by Spiel (the sheet holds the Ansagen).
    per_spiel: bool,
    /// Somebody at the table has left: everybody else gets the Pauschale.
    pauschale: bool,
}

fn place_tables(data: &TournamentData, passe: u32) -> Vec<PlaceTable> {
    data.tables(passe)
        .iter()
        .filter_map(|table| {
            let four = data.foursome(passe, table)?;
            let result = data.result_at(passe, table.number);
            let sheet = result.and_then(|r| TableSheet::parse(r.details.as_deref()));
            Some(PlaceTable {
                number: table.number,
                names: four.map(team_label),
                differenzen: sheet
                    .as_ref()
                    .map(|s| s.differenzen.map(|d| format::number(i64::from(d)))),
                visiert: result.is_some_and(ResultRow::visaed),
                per_spiel: sheet.is_some_and(|s| !s.spiele.is_empty()),
                pauschale: data.table_has_left(passe, table),
            })
        })
        .collect()
}

#[derive(Template)]
#[template(path = "schaetzzettel_entry.html")]
pub(super) struct EntryPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    form: ResultForm,
    errors: FieldErrors,
    /// A table already entered (or changed since): nothing was overwritten.
    conflict: Option<u32>,
    tables: Vec<PlaceTable>,
    entered: usize,
    expected: usize,
}

/// The Passe's page: its tables and the fast entry (four summed differences per table).
pub(super) async fn entry_page(
    state: &web::Data<AppState>,
    session: &Session,
    (id, passe): (TournamentId, u32),
    form: ResultForm,
    (errors, conflict, status): (FieldErrors, Option<ResultRow>, StatusCode),
) -> Result<HttpResponse, AppError> {
    let actor = session.actor().clone();
    actor
        .may_write_result(ResultWrite::New)
        .map_err(|m| AppError::Forbidden(m.into()))?;
    let data = db(state, move |conn| Ok(guard::load_round(conn, id, passe)?)).await?;
    let tables = place_tables(&data, passe);
    let playing: Vec<&PlaceTable> = tables.iter().filter(|t| !t.pauschale).collect();
    let page = EntryPage {
        ctx: session.ctx().with_tournament(&data.tournament),
        passe,
        form,
        errors,
        conflict: conflict.map(|r| r.table_no.get()),
        entered: playing.iter().filter(|t| t.differenzen.is_some()).count(),
        expected: playing.len(),
        tables,
        t: data.tournament,
    };
    page_with(&page, status)
}

#[derive(Template)]
#[template(path = "schaetzzettel.html")]
struct SheetPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    table: PlaceTable,
    /// Per Spiel (from 1) the typed cells: [place][Ansage, gemacht].
    rows: Vec<(usize, [[String; 2]; 4])>,
    version: String,
    errors: FieldErrors,
    conflict: bool,
}

impl SheetPage {
    fn field(&self, ansage: bool, spiel: &usize, place: &usize) -> String {
        sheet_field(ansage, *spiel, place + 1)
    }

    /// Whether no Spiel is typed (a result of the fast entry): its sums are corrected as sums.
    fn rows_empty(&self) -> bool {
        self.rows
            .iter()
            .all(|(_, cells)| cells.iter().flatten().all(String::is_empty))
    }

    fn spiel_error(&self, spiel: &usize) -> Option<&str> {
        self.errors.get(&format!("spiel_{spiel}"))
    }
}

/// The sheet of one table: stored lines (or the typed ones again), and its version.
async fn sheet_page(
    state: &web::Data<AppState>,
    session: &Session,
    (id, passe, number): (TournamentId, u32, u32),
    typed: Option<&HashMap<String, String>>,
    (errors, conflict, status): (FieldErrors, bool, StatusCode),
) -> Result<HttpResponse, AppError> {
    let data = db(state, move |conn| Ok(guard::load_round(conn, id, passe)?)).await?;
    let Some(table) = place_tables(&data, passe)
        .into_iter()
        .find(|t| t.number == number)
    else {
        return Err(AppError::NotFound(format!(
            "Tisch {number} gibt es in Passe {passe} nicht."
        )));
    };
    let stored = data.result_at(passe, number);
    let sheet = stored.and_then(|r| TableSheet::parse(r.details.as_deref()));
    let spiele = usize::try_from(data.spiele()).unwrap_or(0);
    let rows = (1..=spiele)
        .map(|spiel| {
            let cells = std::array::from_fn(|place| {
                [true, false].map(|ansage| match typed {
                    Some(typed) => typed
                        .get(&sheet_field(ansage, spiel, place + 1))
                        .cloned()
                        .unwrap_or_default(),
                    None => sheet
                        .as_ref()
                        .and_then(|s| s.spiele.get(spiel - 1))
                        .map(|l: &[Line; 4]| match ansage {
                            true => l[place].ansage.to_string(),
                            false => l[place].gemacht.to_string(),
                        })
                        .unwrap_or_default(),
                })
            });
            (spiel, cells)
        })
        .collect();
    let version = match typed {
        Some(typed) => typed.get("version").cloned().unwrap_or_default(),
        None => stored.map(|r| r.version.to_string()).unwrap_or_default(),
    };
    let page = SheetPage {
        ctx: session.ctx().with_tournament(&data.tournament),
        passe,
        table,
        rows,
        version,
        errors,
        conflict,
        t: data.tournament,
    };
    page_with(&page, status)
}

/// Who opens a Schätzzettel: the Büro enters it, the Leitung and Kontrolleure correct it
/// (whether a given change is allowed is decided when it is saved).
fn may_type_sheets(session: &Session) -> Result<(), AppError> {
    let actor = session.actor();
    match actor.may_write_result(ResultWrite::New).is_ok() || actor.may_change_results() {
        true => Ok(()),
        false => Err(AppError::forbidden()),
    }
}

async fn show_sheet(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(TournamentId, RoundNo, u32)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe, table) = path.into_inner();
    may_type_sheets(&user.0)?;
    let ok = (FieldErrors::new(), false, StatusCode::OK);
    sheet_page(&state, &user.0, (id, passe.get(), table), None, ok).await
}

async fn save_sheet(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, u32)>,
    post: Secured<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let (id, passe, table) = path.into_inner();
    may_type_sheets(&post.session)?;
    let passe = passe.get();
    let spiele = db(&state, move |conn| {
        Ok(guard::tournament(conn, id)?.spiele_per_passe.get())
    })
    .await?;
    let typed = post.form.clone();
    let again = |errors: FieldErrors, conflict: bool, status| {
        sheet_page(
            &state,
            &post.session,
            (id, passe, table),
            Some(&typed),
            (errors, conflict, status),
        )
    };
    let lines = match parse_sheet(|k| post.form.get(k).map(String::as_str), spiele) {
        Ok(lines) => lines,
        Err((spiel, message)) => {
            let field = crate::app::entry::SPIEL_FIELDS
                .get(spiel)
                .copied()
                .unwrap_or("table");
            let errors = FieldErrors::single(field, format!("Spiel {}: {message}", spiel + 1));
            return again(errors, false, StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let version = match post.form.get("version").map(|v| v.trim()) {
        None | Some("") => None,
        Some(v) => Some(
            v.parse::<i32>()
                .map_err(|_| AppError::BadRequest("Ungültige Version.".into()))?,
        ),
    };
    let back = format!("/tournaments/{id}/passen/{passe}/entry");
    let answer = save_with(
        &state,
        post.session.actor(),
        (id, passe),
        version.is_some(),
        &back,
        move |conn, actor| save_schaetzzettel(conn, actor, (id, passe, table), version, lines),
    )
    .await?;
    match answer {
        Answer::Done(response) => Ok(response),
        Answer::Again(refusal) => {
            let conflict = refusal.conflict.is_some();
            again(refusal.errors, conflict, refusal.status).await
        }
    }
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/schaetzzettel/{table}",
        web::get().to(show_sheet),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/schaetzzettel/{table}",
        web::post().to(save_sheet),
    );
}
