//! Correcting a stored table result through its "korrigieren" link, in any mode: the
//! points form, the Striche per category of a Schnellerfassung, or the table's Tafel.

use super::auth::{Secured, User};
use super::ctx::Ctx;
use super::render::{page as render_page, page_with, see_other};
use super::result_save::{Answer, Refusal, save};
use super::state::{AppState, db};
use super::views::{ResultView, TableView, table_views};
use crate::app::guard;
use crate::app::read;
use crate::app::result_write::correction_refusal;
use crate::db::models::TournamentRow;
use crate::db::tournament_data::TournamentData;
use crate::domain::form::FieldErrors;
use crate::domain::ids::{ResultId, RoundNo, TournamentId};
use crate::domain::result::ResultForm;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;

#[derive(Template)]
#[template(path = "correction.html")]
struct CorrectionPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    table: TableView,
    /// The mode counts Striche per category.
    striche: bool,
    form: ResultForm,
    errors: FieldErrors,
    /// The result was changed meanwhile: what is stored now.
    conflict: Option<ResultView>,
    /// The result came in another way (its Tafel): why, with the explicit replacement.
    other_source: Option<String>,
    /// Both teams' points together (0: the mode checks no sum), for the rest in the browser.
    table_total: u32,
    /// Why this account may not correct the result: said instead of a form.
    refused: Option<String>,
    /// Where the form returns after saving: `entry` for the fast entry the clerk came from.
    from: &'static str,
}

/// Where a correction returns: to the fast entry the clerk came from, else the Passe page.
#[derive(serde::Deserialize, Default)]
struct ReturnTo {
    #[serde(default)]
    from: String,
}

impl ReturnTo {
    fn entry(&self) -> bool {
        self.from == "entry"
    }

    fn key(&self) -> &'static str {
        if self.entry() { "entry" } else { "" }
    }
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
        striche: data.tournament.mode.facts().score_kind.counts_striche(),
        table_total: data
            .tournament
            .mode
            .table_total(data.tournament.spiele_per_passe.get())
            .unwrap_or(0),
        t: data.tournament,
        passe,
        table,
        form,
        errors,
        conflict: None,
        other_source: None,
        refused: None,
        from: "",
    })
}

/// Where a stored result is corrected.
enum Correction {
    Form(Box<(TournamentData, ResultForm, u32, u32, Option<String>)>),
    /// The result comes from a Tafel: it is corrected line by line there.
    Tafel(u32, u32),
    /// A Differenzler's result is corrected on its table's Schätzzettel.
    Schaetzzettel(u32, u32),
}

async fn form(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(TournamentId, ResultId)>,
    from: web::Query<ReturnTo>,
) -> Result<HttpResponse, AppError> {
    let (id, result) = path.into_inner();
    let tid = id;
    let actor = user.0.actor().clone();
    let found = db(&state, move |conn| {
        let (row, data, on_tafel) = read::result_to_correct(conn, tid, result)?;
        let (passe, table) = (row.passe.get(), row.table_no.get());
        let refused = correction_refusal(&actor, &data.tournament, &row);
        let kind = data.tournament.mode.facts().score_kind;
        // A result kept on a Tafel is corrected on its Tafel, line by line.
        if kind.counts_striche() && on_tafel {
            return Ok(Correction::Tafel(passe, table));
        }
        if kind.per_player() {
            return Ok(Correction::Schaetzzettel(passe, table));
        }
        let form = kind.correction_form(table, row.version, row.score(), row.details.as_deref());
        Ok(Correction::Form(Box::new((
            data, form, passe, table, refused,
        ))))
    })
    .await?;
    match found {
        Correction::Tafel(passe, table) => Ok(see_other(&format!(
            "/tournaments/{id}/passen/{passe}/tafel/{table}"
        ))),
        Correction::Schaetzzettel(passe, table) => Ok(see_other(&format!(
            "/tournaments/{id}/passen/{passe}/schaetzzettel/{table}"
        ))),
        Correction::Form(found) => {
            let (data, form, passe, table, refused) = *found;
            let mut page =
                correction_page(user.0.ctx(), data, passe, table, form, FieldErrors::new())?;
            page.refused = refused;
            page.from = from.key();
            render_page(&page)
        }
    }
}

/// The correction form again, with what was typed and why it was refused.
pub(super) async fn again(
    state: &web::Data<AppState>,
    post: Secured<ResultForm>,
    id: TournamentId,
    passe: u32,
    refusal: Refusal,
    from_entry: bool,
) -> Result<HttpResponse, AppError> {
    let data = db(state, move |conn| Ok(guard::load_round(conn, id, passe)?)).await?;
    let table = post.form.table.trim().parse::<u32>().unwrap_or(0);
    let mut page = correction_page(
        post.session.ctx(),
        data,
        passe,
        table,
        post.form,
        refusal.errors,
    )?;
    page.conflict = refusal.conflict.as_ref().map(ResultView::new);
    page.other_source = refusal.other_source;
    page.from = if from_entry { "entry" } else { "" };
    page_with(&page, refusal.status)
}

async fn correct(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
    from: web::Query<ReturnTo>,
    post: Secured<ResultForm>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    // The clerk who was entering results goes on entering after the correction.
    let back = match from.entry() {
        true => format!("/tournaments/{id}/passen/{passe}/entry"),
        false => format!("/tournaments/{id}/passen/{passe}"),
    };
    match save(&state, &post, id, passe, &back).await? {
        Answer::Done(response) => Ok(response),
        Answer::Again(refusal) => again(&state, post, id, passe, refusal, from.entry()).await,
    }
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/correct",
        web::post().to(correct),
    )
    .route(
        "/tournaments/{id}/results/{result}/edit",
        web::get().to(form),
    );
}
