//! Result entry per Passe and table: the fast path, corrections with optimistic locking,
//! the bulk CSV import, and the table list with its visas.

use super::auth::{SecuredUpload, flash_redirect};
use super::draw::team_label;
use super::{AppState, Ctx, Secured, User, db, html_page, live, page, page_with, see_other};
use crate::db::models::{ResultRow, TournamentRow};
use crate::db::results::{self, PasseShape, SaveOutcome, TournamentData, Typed};
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::result::{ResultForm, TableScore, parse_score, parse_table};
use crate::domain::result_import::{assemble, parse_result_csv};
use crate::domain::role::Permission;
use crate::domain::text_import::ImportError;
use crate::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

/// One table of a Passe as the office sees it.
pub struct TableView {
    pub number: u32,
    pub team_a: String,
    pub team_b: String,
    pub result: Option<ResultView>,
    /// "Pauschale" when a team of the table has left the tournament.
    pub pauschale: bool,
    /// Double entry: entries not yet confirmed. Their values are shown only once they
    /// contradict each other, so that the second clerk types blind.
    pub pending: Vec<PendingView>,
}

pub struct PendingView {
    pub by: String,
    pub points: String,
}

impl TableView {
    pub fn contradiction(&self) -> bool {
        self.pending.len() > 1
    }
    /// Progress word: offen, 1× erfasst, Widerspruch, erfasst (bestätigt with double entry).
    pub fn state(&self, double_entry: &bool) -> &'static str {
        match (&self.result, self.pending.len()) {
            (Some(_), _) if *double_entry => "bestätigt",
            (Some(_), _) => "erfasst",
            (None, 0) => "offen",
            (None, 1) => "1× erfasst",
            (None, _) => "Widerspruch",
        }
    }
}

fn pending_views(data: &TournamentData, passe: u32, table: u32) -> Vec<PendingView> {
    data.pending_at(passe, table)
        .into_iter()
        .map(|p| PendingView {
            by: data.usernames.get(&p.user_id).cloned().unwrap_or_default(),
            points: format!(
                "{} : {}",
                format::number(i64::from(p.points_a)),
                format::number(i64::from(p.points_b))
            ),
        })
        .collect()
}

pub struct ResultView {
    pub id: i32,
    pub points_a: String,
    pub points_b: String,
    pub matches: String,
    pub visa_a: bool,
    pub visa_b: bool,
    pub version: i32,
}

impl ResultView {
    fn new(r: &ResultRow) -> Self {
        ResultView {
            id: r.id,
            points_a: format::number(i64::from(r.points_a)),
            points_b: format::number(i64::from(r.points_b)),
            matches: if r.matches_a + r.matches_b > 0 {
                format!("{} : {}", r.matches_a, r.matches_b)
            } else {
                String::new()
            },
            visa_a: r.visa_a_by.is_some(),
            visa_b: r.visa_b_by.is_some(),
            version: r.version,
        }
    }
}

pub(crate) fn table_views(data: &TournamentData, passe: u32) -> Vec<TableView> {
    let out = |t: &crate::db::models::TeamRow| results::is_out(t, passe);
    data.tables(passe)
        .iter()
        .map(|t| TableView {
            number: t.number,
            team_a: team_label(t.team_a),
            team_b: team_label(t.team_b),
            result: data.result_at(passe, t.number).map(ResultView::new),
            pauschale: out(t.team_a) || out(t.team_b),
            pending: pending_views(data, passe, t.number),
        })
        .collect()
}

/// The tournament with this Passe's tables and results (only this Passe's), if it has it.
async fn load_passe(
    state: &web::Data<AppState>,
    id: TournamentId,
    passe: u32,
) -> Result<TournamentData, AppError> {
    db(state, move |conn| results::load_passe(conn, id, passe)).await
}

#[derive(Template)]
#[template(path = "passe.html")]
struct PassePage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    tables: Vec<TableView>,
    byes: Vec<String>,
    entered: usize,
    expected: usize,
    total: String,
}

pub(crate) fn progress(tables: &[TableView]) -> (usize, usize) {
    let expected = tables.iter().filter(|t| !t.pauschale).count();
    let entered = tables
        .iter()
        .filter(|t| !t.pauschale && t.result.is_some())
        .count();
    (entered, expected)
}

async fn passe_page(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(i32, u32)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let data = load_passe(&state, TournamentId(id), passe).await?;
    let tables = table_views(&data, passe);
    let (entered, expected) = progress(&tables);
    page(&PassePage {
        ctx: user.0.ctx().with_tournament(&data.tournament),
        passe,
        byes: data.byes(passe).into_iter().map(team_label).collect(),
        total: format::number(i64::from(data.tournament.spiele_per_passe) * 157),
        tables,
        entered,
        expected,
        t: data.tournament,
    })
}

#[derive(Template)]
#[template(path = "entry.html")]
struct EntryPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    total: u32,
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
    let contradiction = form.table.trim().parse::<u32>().ok().and_then(|table| {
        table_views(&data, passe)
            .into_iter()
            .find(|t| t.number == table && t.contradiction())
    });
    let tables = table_views(&data, passe);
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
    EntryPage {
        ctx: ctx.with_tournament(&data.tournament),
        passe,
        total: data.tournament.spiele_per_passe as u32 * 157,
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

async fn entry_form(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(i32, u32)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let may_enter = user.0.actor().may(Permission::EnterResults);
    let ctx = user.0.ctx();
    // Built and rendered on a database thread: the page the Büro reloads after every result
    // gets normal priority, not the workers' lowered one. None: a Jassmarathon.
    let html = db(&state, move |conn| {
        let data = results::load_passe(conn, TournamentId(id), passe)?;
        if data.tournament.mode == "jassmarathon" {
            return Ok(None);
        }
        if !may_enter {
            return Err(AppError::forbidden());
        }
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
    if let Some(html) = html {
        return Ok(html_page(html, StatusCode::OK));
    }
    // The Turnierleitung runs the clock from this page in a Jassmarathon.
    if !may_enter && !user.0.actor().may(Permission::ManageTournament) {
        return Err(AppError::forbidden());
    }
    super::marathon::round(&state, user.0.ctx(), id, passe).await
}

fn parse(form: &ResultForm, shape: PasseShape) -> Result<(u32, TableScore), FieldErrors> {
    let table = parse_table(&form.table, shape.tables)?;
    Ok((table, parse_score(form, shape.spiele)?))
}

/// The flash message after a save that redirects; None when the page is shown again.
fn saved_message(
    outcome: &SaveOutcome,
    passe: u32,
    table: u32,
    correction: bool,
) -> Option<String> {
    match outcome {
        SaveOutcome::Saved(row) => Some(format!(
            "Passe {passe}, Tisch {table} gespeichert: {} : {}{}",
            format::number(i64::from(row.points_a)),
            format::number(i64::from(row.points_b)),
            if correction {
                " (korrigiert, Visum aufgehoben)"
            } else {
                ""
            }
        )),
        SaveOutcome::FirstEntry => Some(format!(
            "Passe {passe}, Tisch {table}: 1× erfasst – zählt nach der zweiten, blinden Erfassung durch ein anderes Konto."
        )),
        SaveOutcome::Mismatch(_) | SaveOutcome::Conflict(_) => None,
    }
}

/// Saves a result (new when `version` is empty, else a correction of that version) and
/// answers with the entry page again: 303 on success, 409 on a conflict, 422 on bad input.
/// Parsing, saving and the flash message take one trip to the database: under load every
/// trip waits for a thread.
async fn save(
    state: &web::Data<AppState>,
    post: Secured<ResultForm>,
    id: TournamentId,
    passe: u32,
    back: String,
) -> Result<HttpResponse, AppError> {
    let correction = !post.form.version.trim().is_empty();
    let actor = if correction {
        let actor = post.session.actor();
        if !actor.may(Permission::EnterResults) && !actor.may(Permission::CorrectVisaedResults) {
            return Err(AppError::forbidden());
        }
        actor.clone()
    } else {
        post.session.require(Permission::EnterResults)?.clone()
    };
    let version = if correction {
        Some(
            post.form
                .version
                .trim()
                .parse::<i32>()
                .map_err(|_| AppError::BadRequest("Ungültige Version.".into()))?,
        )
    } else {
        None
    };
    let form = post.form.clone();
    let token = post.session.token.clone();
    let (typed, versions) = db(state, move |conn| {
        let mut table = 0;
        let typed = results::save_typed_result(conn, &actor, id, passe, version, |shape| {
            let parsed = parse(&form, shape)?;
            table = parsed.0;
            Ok(parsed)
        })?;
        if let Typed::Done(outcome) = &typed
            && let Some(message) = saved_message(outcome, passe, table, correction)
        {
            crate::db::users::set_flash(conn, &token, &message)?;
        }
        Ok((typed, live::versions(conn)?))
    })
    .await?;
    state.live.publish(&versions);
    let (errors, conflict, status) = match typed {
        Typed::Done(SaveOutcome::Saved(_) | SaveOutcome::FirstEntry) => {
            let mut response = see_other(&back);
            response.extensions_mut().insert(live::VersionsPublished);
            return Ok(response);
        }
        Typed::Invalid(errors) => (errors, None, StatusCode::UNPROCESSABLE_ENTITY),
        // Double entry: the contradicting entry is shown with the one before it.
        Typed::Done(SaveOutcome::Mismatch(_)) => (FieldErrors::new(), None, StatusCode::CONFLICT),
        Typed::Done(SaveOutcome::Conflict(stored)) => {
            let conflict = (stored.table_no as u32, ResultView::new(&stored));
            (FieldErrors::new(), Some(conflict), StatusCode::CONFLICT)
        }
    };
    // The form again, with the Passe as it is now.
    let data = load_passe(state, id, passe).await?;
    if correction && status == StatusCode::UNPROCESSABLE_ENTITY {
        let table = post.form.table.trim().parse::<u32>().unwrap_or(0);
        let page = correction_page(post.session.ctx(), data, passe, table, post.form, errors)?;
        return page_with(&page, status);
    }
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

#[derive(Template)]
#[template(path = "correction.html")]
struct CorrectionPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: i32,
    table: TableView,
    form: ResultForm,
    errors: FieldErrors,
}

fn correction_page(
    ctx: Ctx,
    data: TournamentData,
    passe: u32,
    table: u32,
    form: ResultForm,
    errors: FieldErrors,
) -> Result<CorrectionPage, AppError> {
    let table = table_views(&data, passe)
        .into_iter()
        .find(|t| t.number == table)
        .ok_or_else(AppError::not_found)?;
    Ok(CorrectionPage {
        ctx: ctx.with_tournament(&data.tournament),
        t: data.tournament,
        passe: passe as i32,
        table,
        form,
        errors,
    })
}

async fn correction_form(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(i32, i32)>,
) -> Result<HttpResponse, AppError> {
    let (id, result) = path.into_inner();
    let data = db(&state, move |conn| results::load(conn, TournamentId(id))).await?;
    let row = data
        .results
        .iter()
        .find(|r| r.id == result)
        .cloned()
        .ok_or_else(AppError::not_found)?;
    let form = ResultForm {
        table: row.table_no.to_string(),
        points_a: row.points_a.to_string(),
        points_b: row.points_b.to_string(),
        matches_a: row.matches_a.to_string(),
        matches_b: row.matches_b.to_string(),
        version: row.version.to_string(),
    };
    page(&correction_page(
        user.0.ctx(),
        data,
        row.passe as u32,
        row.table_no as u32,
        form,
        FieldErrors::new(),
    )?)
}

async fn correct(
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
        format!("/tournaments/{id}/passen/{passe}"),
    )
    .await
}

#[derive(Deserialize)]
struct VisaForm {
    /// A team id for one Standblatt; empty for both teams of the table.
    #[serde(default)]
    team: String,
    #[serde(default)]
    back: String,
}

/// Only paths inside the app may be redirect targets.
pub fn safe_back(back: &str, fallback: String) -> String {
    if back.starts_with("/tournaments/") && !back.contains("//") {
        back.to_string()
    } else {
        fallback
    }
}

async fn visa(
    state: web::Data<AppState>,
    path: web::Path<(i32, u32, u32)>,
    post: Secured<VisaForm>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.require(Permission::Visa)?.clone();
    let (id, passe, table) = path.into_inner();
    let team = match post.form.team.trim() {
        "" => None,
        raw => {
            Some(crate::domain::ids::TeamId(raw.parse().map_err(|_| {
                AppError::BadRequest("Ungültiges Team.".into())
            })?))
        }
    };
    db(&state, move |conn| {
        results::visa(conn, &actor, TournamentId(id), passe, table, team)
    })
    .await?;
    let back = safe_back(&post.form.back, format!("/tournaments/{id}/passen/{passe}"));
    flash_redirect(
        &state,
        &post.session,
        &back,
        format!("Passe {passe}, Tisch {table} visiert."),
    )
    .await
}

#[derive(Template)]
#[template(path = "results_import.html")]
struct ImportPage {
    ctx: Ctx,
    t: TournamentRow,
    errors: Vec<ImportError>,
}

async fn import_form(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<i32>,
) -> Result<HttpResponse, AppError> {
    user.0.require(Permission::EnterResults)?;
    let id = TournamentId(path.into_inner());
    let t = db(&state, move |conn| crate::db::tournaments::get(conn, id)).await?;
    page(&ImportPage {
        ctx: user.0.ctx().with_tournament(&t),
        t,
        errors: Vec::new(),
    })
}

async fn import(
    state: web::Data<AppState>,
    path: web::Path<i32>,
    upload: SecuredUpload,
) -> Result<HttpResponse, AppError> {
    let actor = upload.session.require(Permission::EnterResults)?.clone();
    let id = TournamentId(path.into_inner());
    let bytes = upload.fields.get("file").cloned().unwrap_or_default();
    let data = db(&state, move |conn| results::load(conn, id)).await?;
    let parsed = parse_result_csv(&bytes, data.tournament.passen as u32).and_then(|lines| {
        let seat = |passe: u32, startnummer: u32| {
            data.tables(passe)
                .iter()
                .find(|t| {
                    t.team_a.startnummer as u32 == startnummer
                        || t.team_b.startnummer as u32 == startnummer
                })
                .map(|t| {
                    (
                        t.number,
                        t.team_a.startnummer as u32,
                        t.team_b.startnummer as u32,
                    )
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
    let count = db(&state, move |conn| {
        results::import_results(conn, &actor, id, &tables)
    })
    .await?;
    flash_redirect(
        &state,
        &upload.session,
        &format!("/tournaments/{id}"),
        format!("{count} Tischresultate importiert."),
    )
    .await
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}",
        web::get().to(passe_page),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/entry",
        web::get().to(entry_form),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/entry",
        web::post().to(enter),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/correct",
        web::post().to(correct),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/tables/{table}/visa",
        web::post().to(visa),
    )
    .route(
        "/tournaments/{id}/results/import",
        web::get().to(import_form),
    )
    .route("/tournaments/{id}/results/import", web::post().to(import))
    .route(
        "/tournaments/{id}/results/{result}/edit",
        web::get().to(correction_form),
    );
}
