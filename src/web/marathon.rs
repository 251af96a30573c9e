//! Jassmarathon: the Spielrunde page (clock, quick entry, Tafel per table) and the Tafel.

use super::auth::flash_redirect;
use super::draw::team_label;
use super::entry::{TableView, progress, safe_back, table_views};
use super::{AppState, Ctx, Secured, User, db, page, page_with};
use crate::db::marathon::{self, ClockAction, TafelChange};
use crate::db::models::TournamentRow;
use crate::db::results::{self, SaveOutcome, TableEntry, TournamentData};
use crate::domain::clock::{self, ClockState};
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::marathon::{
    Cards, QuickForm, Rules, Side, Spiel, SpielForm, Tafel, Trump, compute, parse_quick,
};
use crate::domain::result::TableScore;
use crate::domain::role::Permission;
use crate::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub struct ClockView {
    pub state: &'static str,
    pub remaining: String,
    /// While running: the moment of the gong, epoch milliseconds, for the live countdown.
    pub ends_at_ms: Option<i64>,
}

pub fn clock_view(rules: &Rules, facts: Option<&crate::domain::clock::ClockFacts>) -> ClockView {
    let now = crate::db::now();
    match clock::state(rules.round_minutes, facts, now) {
        ClockState::NotStarted => ClockView {
            state: "nicht gestartet",
            remaining: clock::format_remaining(i64::from(rules.round_minutes) * 60),
            ends_at_ms: None,
        },
        ClockState::Running {
            remaining_seconds,
            ends_at,
        } => ClockView {
            state: "läuft",
            remaining: clock::format_remaining(remaining_seconds),
            ends_at_ms: ends_at
                .and_local_timezone(chrono::Local)
                .single()
                .map(|t| t.timestamp_millis()),
        },
        ClockState::Paused { remaining_seconds } => ClockView {
            state: "angehalten",
            remaining: clock::format_remaining(remaining_seconds),
            ends_at_ms: None,
        },
        ClockState::Gong => ClockView {
            state: "Gong",
            remaining: "0:00".into(),
            ends_at_ms: None,
        },
    }
}

#[derive(Template)]
#[template(path = "marathon_entry.html")]
struct RoundPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    clock: ClockView,
    tables: Vec<TableView>,
    entered: usize,
    expected: usize,
    form: QuickForm,
    errors: FieldErrors,
    conflict: Option<(u32, String)>,
}

async fn load_round(
    state: &web::Data<AppState>,
    id: i32,
    passe: u32,
) -> Result<
    (
        TournamentData,
        Rules,
        Option<crate::domain::clock::ClockFacts>,
    ),
    AppError,
> {
    let id = TournamentId(id);
    let (data, rules, clock) = db(state, move |conn| {
        Ok((
            results::load(conn, id)?,
            marathon::rules(conn, id)?,
            marathon::clock(conn, id, passe)?,
        ))
    })
    .await?;
    if passe == 0 || passe > data.tournament.passen as u32 {
        return Err(AppError::NotFound(format!(
            "Spielrunde {passe} gibt es nicht."
        )));
    }
    Ok((data, rules, clock))
}

#[allow(clippy::too_many_arguments)]
fn round_page(
    ctx: Ctx,
    data: TournamentData,
    rules: &Rules,
    clock: Option<&crate::domain::clock::ClockFacts>,
    passe: u32,
    form: QuickForm,
    errors: FieldErrors,
    conflict: Option<(u32, String)>,
) -> RoundPage {
    let tables = table_views(&data, passe);
    let (entered, expected) = progress(&tables);
    RoundPage {
        ctx: ctx.with_tournament(&data.tournament),
        clock: clock_view(rules, clock),
        tables,
        entered,
        expected,
        passe,
        form,
        errors,
        conflict,
        t: data.tournament,
    }
}

/// The entry page of a Spielrunde in a Jassmarathon tournament.
pub async fn round(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: i32,
    passe: u32,
) -> Result<HttpResponse, AppError> {
    let (data, rules, clock) = load_round(state, id, passe).await?;
    page(&round_page(
        ctx,
        data,
        &rules,
        clock.as_ref(),
        passe,
        QuickForm::default(),
        FieldErrors::new(),
        None,
    ))
}

async fn quick(
    state: web::Data<AppState>,
    path: web::Path<(i32, u32)>,
    post: Secured<QuickForm>,
) -> Result<HttpResponse, AppError> {
    let correction = !post.form.version.trim().is_empty();
    let actor = post.session.actor().clone();
    let may_correct = correction && actor.may(Permission::CorrectVisaedResults);
    if !(actor.may(Permission::EnterResults) || may_correct) {
        return Err(AppError::forbidden());
    }
    let (id, passe) = path.into_inner();
    let (data, rules, clock) = load_round(&state, id, passe).await?;
    let tables = data.tables(passe).len() as u32;
    let parsed = crate::domain::result::parse_table(&post.form.table, tables)
        .and_then(|table| parse_quick(&rules, &post.form).map(|s| (table, s)));
    let (table, (a, b)) = match parsed {
        Ok(ok) => ok,
        Err(errors) => {
            return page_with(
                &round_page(
                    post.session.ctx(),
                    data,
                    &rules,
                    clock.as_ref(),
                    passe,
                    post.form,
                    errors,
                    None,
                ),
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let version = if correction {
        post.form.version.trim().parse::<i32>().ok()
    } else {
        None
    };
    let details = serde_json::to_string(&marathon::Details { a, b })?;
    let score = TableScore {
        points_a: a.total(),
        points_b: b.total(),
        matches_a: a.matches,
        matches_b: b.matches,
    };
    let tid = TournamentId(id);
    let outcome = db(&state, move |conn| {
        results::save_result(
            conn,
            &actor,
            tid,
            TableEntry {
                passe,
                table,
                score,
                expected_version: version,
                details: Some(details),
            },
        )
    })
    .await?;
    match outcome {
        SaveOutcome::Saved(_) => {
            let message = format!(
                "Spielrunde {passe}, Tisch {table}: {} : {} Striche gespeichert.",
                a.total(),
                b.total()
            );
            flash_redirect(
                &state,
                &post.session,
                &format!("/tournaments/{id}/passen/{passe}/entry"),
                message,
            )
            .await
        }
        SaveOutcome::Conflict(stored) => {
            let (data, rules, clock) = load_round(&state, id, passe).await?;
            let conflict = Some((
                table,
                format!("{} : {} Striche", stored.points_a, stored.points_b),
            ));
            page_with(
                &round_page(
                    post.session.ctx(),
                    data,
                    &rules,
                    clock.as_ref(),
                    passe,
                    post.form,
                    FieldErrors::new(),
                    conflict,
                ),
                StatusCode::CONFLICT,
            )
        }
        SaveOutcome::FirstEntry | SaveOutcome::Mismatch(_) => Err(AppError::BadRequest(
            "Die Doppelerfassung gilt für Punkte-Resultate, nicht für Striche.".into(),
        )),
    }
}

#[derive(Deserialize)]
struct ClockForm {
    #[serde(default)]
    action: String,
}

async fn clock_post(
    state: web::Data<AppState>,
    path: web::Path<(i32, u32)>,
    post: Secured<ClockForm>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.require(Permission::ManageTournament)?.clone();
    let (id, passe) = path.into_inner();
    let action = ClockAction::parse(&post.form.action)
        .ok_or_else(|| AppError::BadRequest("Unbekannte Aktion.".into()))?;
    db(&state, move |conn| {
        marathon::clock_action(conn, &actor, TournamentId(id), passe, action)
    })
    .await?;
    let message = match action {
        ClockAction::Start => "Spielrunde gestartet.",
        ClockAction::Pause => "Spielrunde angehalten.",
        ClockAction::Resume => "Spielrunde läuft weiter.",
        ClockAction::End => "Gong: Spielrunde beendet.",
    };
    flash_redirect(
        &state,
        &post.session,
        &format!("/tournaments/{id}/passen/{passe}/entry"),
        message.into(),
    )
    .await
}

pub struct LineView {
    pub number: usize,
    pub partie: u32,
    pub trump: &'static str,
    pub cards: String,
    pub weis: String,
    pub added_a: String,
    pub added_b: String,
    pub score: String,
    pub events: String,
}

#[derive(Template)]
#[template(path = "tafel.html")]
struct TafelPage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    table: u32,
    team_a: String,
    team_b: String,
    lines: Vec<LineView>,
    gong: bool,
    striche_a: String,
    striche_b: String,
    total_a: u32,
    total_b: u32,
    form: SpielForm,
    /// The line being corrected, if any.
    editing: Option<usize>,
    errors: FieldErrors,
    error: Option<String>,
    trumps: [Trump; 6],
}

fn striche_text(s: &crate::domain::marathon::Striche) -> String {
    format!(
        "Berg {} · Sieg {} · Schneider {} · Match {} · Gong {}",
        s.berg, s.sieg, s.schneider, s.matches, s.gong
    )
}

fn line_views(spiele: &[Spiel], tafel: &Tafel) -> Vec<LineView> {
    spiele
        .iter()
        .zip(&tafel.lines)
        .enumerate()
        .map(|(i, (s, l))| LineView {
            number: i + 1,
            partie: l.partie,
            trump: s.trump.label(),
            cards: match s.cards {
                Cards::Points(a) => format!("{a} : {}", 157 - a),
                Cards::Match(Side::A) => "Match A".into(),
                Cards::Match(Side::B) => "Match B".into(),
            },
            weis: [
                (s.weis_a > 0).then(|| format!("Weis A {}", s.weis_a)),
                (s.weis_b > 0).then(|| format!("Weis B {}", s.weis_b)),
                s.stoeck
                    .map(|x| format!("Stöck {}", if x == Side::A { "A" } else { "B" })),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", "),
            added_a: format::number(i64::from(l.added.0)),
            added_b: format::number(i64::from(l.added.1)),
            score: format!(
                "{} : {}",
                format::number(i64::from(l.score.0)),
                format::number(i64::from(l.score.1))
            ),
            events: l
                .events
                .iter()
                .map(|e| e.label())
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect()
}

#[derive(Deserialize)]
struct TafelQuery {
    edit: Option<usize>,
}

#[allow(clippy::too_many_arguments)]
async fn tafel_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: i32,
    passe: u32,
    table: u32,
    form: Option<SpielForm>,
    editing: Option<usize>,
    errors: FieldErrors,
    error: Option<String>,
) -> Result<HttpResponse, AppError> {
    let tid = TournamentId(id);
    let (data, rules, (spiele, gong)) = db(state, move |conn| {
        Ok((
            results::load(conn, tid)?,
            marathon::rules(conn, tid)?,
            marathon::tafel(conn, tid, passe, table)?,
        ))
    })
    .await?;
    let seating = data
        .tables(passe)
        .into_iter()
        .find(|t| t.number == table)
        .ok_or_else(AppError::not_found)?;
    let tafel = compute(&rules, &spiele, gong).map_err(|e| AppError::Internal(e.message))?;
    let form = form.unwrap_or_else(|| {
        editing
            .and_then(|n| spiele.get(n.wrapping_sub(1)))
            .map(SpielForm::of)
            .unwrap_or_default()
    });
    let status = if errors.is_empty() && error.is_none() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    page_with(
        &TafelPage {
            ctx: ctx.with_tournament(&data.tournament),
            passe,
            table,
            team_a: team_label(seating.team_a),
            team_b: team_label(seating.team_b),
            lines: line_views(&spiele, &tafel),
            gong,
            striche_a: striche_text(&tafel.a),
            striche_b: striche_text(&tafel.b),
            total_a: tafel.a.total(),
            total_b: tafel.b.total(),
            form,
            editing,
            errors,
            error,
            trumps: Trump::ALL,
            t: data.tournament,
        },
        status,
    )
}

async fn tafel_get(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(i32, u32, u32)>,
    query: web::Query<TafelQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, passe, table) = path.into_inner();
    tafel_page(
        &state,
        user.0.ctx(),
        id,
        passe,
        table,
        None,
        query.edit,
        FieldErrors::new(),
        None,
    )
    .await
}

#[derive(Deserialize)]
struct TafelForm {
    #[serde(default)]
    action: String,
    #[serde(default)]
    line: String,
    #[serde(flatten)]
    spiel: SpielForm,
}

async fn tafel_post(
    state: web::Data<AppState>,
    path: web::Path<(i32, u32, u32)>,
    post: Secured<TafelForm>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    if !actor.may(Permission::EnterResults) && !actor.may(Permission::CorrectVisaedResults) {
        return Err(AppError::forbidden());
    }
    let (id, passe, table) = path.into_inner();
    let line = post.form.line.trim().parse::<usize>().ok();
    let change = match post.form.action.as_str() {
        "gong" => TafelChange::Gong(true),
        "ungong" => TafelChange::Gong(false),
        "delete" => {
            TafelChange::Delete(line.ok_or_else(|| AppError::BadRequest("Welche Zeile?".into()))?)
        }
        action @ ("add" | "replace") => match Spiel::try_from(&post.form.spiel) {
            Ok(spiel) if action == "add" => TafelChange::Add(spiel),
            Ok(spiel) => TafelChange::Replace(
                line.ok_or_else(|| AppError::BadRequest("Welche Zeile?".into()))?,
                spiel,
            ),
            Err(errors) => {
                let editing = if action == "replace" { line } else { None };
                return tafel_page(
                    &state,
                    post.session.ctx(),
                    id,
                    passe,
                    table,
                    Some(post.form.spiel),
                    editing,
                    errors,
                    None,
                )
                .await;
            }
        },
        _ => return Err(AppError::BadRequest("Unbekannte Aktion.".into())),
    };
    let done = db(&state, move |conn| {
        Ok(marathon::change_tafel(
            conn,
            &actor,
            TournamentId(id),
            passe,
            table,
            change,
        ))
    })
    .await?;
    match done {
        Ok(tafel) => {
            let back = safe_back(
                "",
                format!("/tournaments/{id}/passen/{passe}/tafel/{table}"),
            );
            flash_redirect(
                &state,
                &post.session,
                &back,
                format!(
                    "Tafel gespeichert: {} : {} Striche.",
                    tafel.a.total(),
                    tafel.b.total()
                ),
            )
            .await
        }
        Err(AppError::BadRequest(message)) => {
            let editing = if post.form.action == "replace" {
                line
            } else {
                None
            };
            tafel_page(
                &state,
                post.session.ctx(),
                id,
                passe,
                table,
                Some(post.form.spiel),
                editing,
                FieldErrors::new(),
                Some(message),
            )
            .await
        }
        Err(other) => Err(other),
    }
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/quick",
        web::post().to(quick),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/clock",
        web::post().to(clock_post),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/tafel/{table}",
        web::get().to(tafel_get),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/tafel/{table}",
        web::post().to(tafel_post),
    );
}

/// Striche per category of every result, for the Standblatt.
pub fn details_by_result(data: &TournamentData) -> HashMap<i32, marathon::Details> {
    data.results
        .iter()
        .filter_map(|r| marathon::details(r.details.as_deref()).map(|d| (r.id, d)))
        .collect()
}
