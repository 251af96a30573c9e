//! Tournaments: list, create, edit, close and reopen.

use super::auth::flash_redirect;
use super::auth::{MaybeUser, Permitted, Secured, User, gate};
use super::ctx::Ctx;
use super::render::{page, page_with, see_other};
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::read;
use crate::app::{self, guard};
use crate::db::models::{Nat, TournamentRow};
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::mode::Mode;
use crate::domain::score_kind::RulesSource;
use crate::domain::tournament::{TournamentForm, TournamentSettings};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::collections::HashMap;

/// A tournament as the lists show it.
pub struct TournamentView {
    pub row: TournamentRow,
    pub date: String,
    pub mode: &'static str,
    pub pauschale: String,
}

impl TournamentView {
    pub fn new(row: TournamentRow) -> Self {
        TournamentView {
            date: format::date(row.date),
            mode: row.mode.label(),
            pauschale: format::number(i64::from(row.pauschale)),
            row,
        }
    }
}

#[derive(Template)]
#[template(path = "tournaments.html")]
struct ListPage {
    ctx: Ctx,
    tournaments: Vec<TournamentView>,
}

#[derive(Template)]
#[template(path = "tournament_form.html")]
struct FormPage {
    ctx: Ctx,
    id: Option<TournamentId>,
    modes: [Mode; 4],
    form: TournamentForm,
    errors: FieldErrors,
    /// Drawn: mode, Passen and Spiele are fixed and shown as such.
    drawn: Option<Mode>,
    /// The modes (keys, space-separated) whose results are points, and those in Striche:
    /// which fields of the form apply to which mode.
    points_modes: String,
    striche_modes: String,
    /// Modes with four numbers per table (the Differenzler's options), and modes that play
    /// a number of Spiele per Passe (not on the clock).
    differenz_modes: String,
    spiele_modes: String,
}

impl FormPage {
    fn new(
        ctx: Ctx,
        id: Option<TournamentId>,
        form: TournamentForm,
        errors: FieldErrors,
        drawn: Option<Mode>,
    ) -> Self {
        let keys = |which: fn(&Mode) -> bool| {
            Mode::ALL
                .iter()
                .filter(|m| which(m))
                .map(|m| m.key())
                .collect::<Vec<_>>()
                .join(" ")
        };
        FormPage {
            ctx,
            id,
            modes: Mode::ALL,
            form,
            errors,
            drawn,
            points_modes: keys(|m| m.facts().score_kind.rules_source() == RulesSource::None),
            striche_modes: keys(|m| m.facts().score_kind.counts_striche()),
            differenz_modes: keys(|m| m.facts().score_kind.per_player()),
            spiele_modes: keys(|m| !m.has_clock()),
        }
    }

    /// The mode the form shows, if any.
    fn shown(&self) -> Option<Mode> {
        Mode::from_key(&self.form.mode)
    }

    fn differenzen(&self) -> bool {
        self.shown()
            .is_some_and(|m| m.facts().score_kind.per_player())
    }

    fn points(&self) -> bool {
        self.shown()
            .is_none_or(|m| m.facts().score_kind.rules_source() == RulesSource::None)
    }

    fn timed(&self) -> bool {
        self.shown().is_some_and(Mode::has_clock)
    }

    /// Whether the mode the form shows counts Striche (its fields are shown, the others
    /// hidden; the script follows a change of mode).
    fn striche(&self) -> bool {
        Mode::from_key(&self.form.mode).is_some_and(|m| m.facts().score_kind.counts_striche())
    }
}

pub struct PasseProgress {
    pub passe: u32,
    pub tables: usize,
    /// Tables that take a result (not those where somebody has left: Pauschale).
    pub played: usize,
    pub entered: usize,
    pub visaed: usize,
}

#[derive(Template)]
#[template(path = "tournament.html")]
struct ShowPage {
    ctx: Ctx,
    base: String,
    t: TournamentView,
    teams: usize,
    drawn: bool,
    progress: Vec<PasseProgress>,
    /// Parts the Standblätter are printed in (a big field: several PDFs).
    sheet_parts: Vec<usize>,
    /// Before closing: the teams without final visa (they will be *nicht bewertet*), the
    /// first few named, and how many there are.
    unvisaed: Vec<String>,
    unvisaed_count: usize,
    /// The server listens on this computer only and no public address is set: the QR
    /// codes printed on the Standblätter point at this computer, no phone opens them.
    qr_points_here: bool,
}

/// How many teams without final visa the overview names before closing.
const UNVISAED_NAMED: i64 = 30;

async fn home(state: web::Data<AppState>, user: MaybeUser) -> Result<HttpResponse, AppError> {
    let Some(session) = user.0 else {
        let any = db(&state, |conn| Ok(read::account_count(conn)?)).await?;
        return Ok(see_other(if any == 0 { "/setup" } else { "/login" }));
    };
    let rows = db(&state, |conn| Ok(read::tournaments(conn)?)).await?;
    page(&ListPage {
        ctx: session.ctx(),
        tournaments: rows.into_iter().map(TournamentView::new).collect(),
    })
}

async fn new_form(user: Permitted<gate::ManageTournament>) -> Result<HttpResponse, AppError> {
    let form = TournamentForm {
        date: chrono::Local::now()
            .date_naive()
            .format("%Y-%m-%d")
            .to_string(),
        mode: Mode::DEFAULT.key().into(),
        passen: "4".into(),
        spiele_per_passe: "12".into(),
        marathon: crate::domain::tournament::MarathonForm::of(
            &crate::domain::marathon::Rules::jassmarathon(),
        ),
        ..Default::default()
    };
    page(&FormPage::new(
        user.session.ctx(),
        None,
        form,
        FieldErrors::new(),
        None,
    ))
}

async fn create(
    state: web::Data<AppState>,
    post: Secured<TournamentForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let settings = match TournamentSettings::try_from(&post.form) {
        Ok(s) => s,
        Err(errors) => {
            return page_with(
                &FormPage::new(post.session.ctx(), None, post.form, errors, None),
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let id = db(&state, move |conn| {
        Ok(app::tournaments::create(conn, &actor, &settings)?)
    })
    .await?;
    flash_redirect(&format!("/tournaments/{id}"), "Turnier angelegt.".into())
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    // Counted in the database: the overview of 5000 teams does not load them.
    let (tournament, teams, counts, running, unvisaed) = db(&state, move |conn| {
        let o = read::overview(conn, id, UNVISAED_NAMED)?;
        Ok((o.tournament, o.teams, o.counts, o.running, o.unvisaed))
    })
    .await?;
    let progress = counts
        .iter()
        .map(|(passe, c)| PasseProgress {
            passe: *passe,
            tables: c.tables,
            played: c.played,
            entered: c
                .results
                .saturating_sub(running.get(passe).copied().unwrap_or(0)),
            visaed: c.visaed,
        })
        .collect();
    page(&ShowPage {
        ctx: user.0.ctx().with_tournament(&tournament),
        base: format!("/tournaments/{}", tournament.id),
        teams,
        sheet_parts: (1..=super::prints::sheet_parts(teams)).collect(),
        drawn: tournament.draw_seed.is_some(),
        progress,
        unvisaed: unvisaed.1.iter().map(team_label).collect(),
        unvisaed_count: unvisaed.0,
        qr_points_here: state.listen.ip().is_loopback() && state.public_url.is_none(),
        t: TournamentView::new(tournament),
    })
}

fn form_of(
    row: &TournamentRow,
    rules: &crate::domain::marathon::Rules,
    differenzler: &crate::domain::differenzler::Rules,
) -> TournamentForm {
    let tick = |on: bool| on.then(|| "1".to_string());
    let average = differenzler.pauschale == crate::domain::differenzler::Pauschale::Average;
    TournamentForm {
        name: row.name.clone(),
        date: row.date.format("%Y-%m-%d").to_string(),
        location: row.location.clone(),
        mode: row.mode.key().into(),
        passen: row.passen.to_string(),
        spiele_per_passe: if row.spiele_per_passe > Nat::ZERO {
            row.spiele_per_passe.to_string()
        } else {
            String::new()
        },
        pauschale: match row.mode.facts().score_kind.per_player() && average {
            true => String::new(),
            false => row.pauschale.to_string(),
        },
        double_entry: row.double_entry.then(|| "1".into()),
        double_entry_same_user: row.double_entry_same_user.then(|| "1".into()),
        separate_clubs: row.separate_clubs.then(|| "1".into()),
        counted_best: row.counted_best.map(|k| k.to_string()).unwrap_or_default(),
        club_best: row.club_best.map(|k| k.to_string()).unwrap_or_default(),
        marathon: crate::domain::tournament::MarathonForm::of(rules),
        d_match: tick(differenzler.options.match_bonus),
        d_stoeck: tick(differenzler.options.stoeck),
        d_nuller: tick(differenzler.options.counts_nuller()),
    }
}

async fn edit_form(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let (row, rules, differenzler) = db(&state, move |conn| {
        Ok(read::tournament_with_rules(conn, id)?)
    })
    .await?;
    page(&FormPage::new(
        user.session.ctx().with_tournament(&row),
        Some(row.id),
        form_of(&row, &rules, &differenzler),
        FieldErrors::new(),
        row.draw_seed.map(|_| row.mode),
    ))
}

async fn update(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<TournamentForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let settings = match TournamentSettings::try_from(&post.form) {
        Ok(s) => s,
        Err(errors) => {
            let row = db(&state, move |conn| Ok(guard::tournament(conn, id)?)).await?;
            let drawn = row.draw_seed.map(|_| row.mode);
            return page_with(
                &FormPage::new(
                    post.session.ctx().with_tournament(&row),
                    Some(id),
                    post.form,
                    errors,
                    drawn,
                ),
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    db(&state, move |conn| {
        Ok(app::tournaments::update(conn, &actor, id, &settings)?)
    })
    .await?;
    flash_redirect(&format!("/tournaments/{id}"), "Turnier gespeichert.".into())
}

async fn set_closed(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, String)>,
    post: Secured<HashMap<String, String>, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, action) = path.into_inner();
    let message = match action.as_str() {
        "close" => {
            db(&state, move |conn| {
                Ok(app::tournaments::set_closed(conn, &actor, id, true)?)
            })
            .await?;
            "Turnier abgeschlossen: die Rangliste ist offiziell, Änderungen sind gesperrt."
        }
        "reopen" => {
            db(&state, move |conn| {
                Ok(app::tournaments::set_closed(conn, &actor, id, false)?)
            })
            .await?;
            "Turnier wieder geöffnet."
        }
        "publish" | "hide" => {
            let public = action == "publish";
            db(&state, move |conn| {
                Ok(app::tournaments::set_public(conn, &actor, id, public)?)
            })
            .await?;
            if public {
                "Öffentliche Seiten eingeschaltet."
            } else {
                "Öffentliche Seiten ausgeschaltet."
            }
        }
        _ => return Err(AppError::not_found()),
    };
    flash_redirect(&format!("/tournaments/{id}"), message.into())
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(home))
        .route("/tournaments/new", web::get().to(new_form))
        .route("/tournaments", web::post().to(create))
        .route("/tournaments/{id}", web::get().to(show))
        .route("/tournaments/{id}/edit", web::get().to(edit_form))
        .route("/tournaments/{id}/edit", web::post().to(update))
        .route(
            "/tournaments/{id}/{action:close|reopen|publish|hide}",
            web::post().to(set_closed),
        );
}
