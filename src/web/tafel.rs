//! The digital Tafel of one table in one Spielrunde: its lines, Partien and Striche.

use super::auth::flash_redirect;
use super::auth::{Secured, User};
use super::ctx::Ctx;
use super::prints;
use super::render::page_with;
use super::state::{AppState, db};
use super::views::{clock_view, team_label};
use crate::app::Refusal;
use crate::app::read;
use crate::app::tafel::{TafelChange, change_tafel, set_entry_mode};
use crate::db::models::TournamentRow;
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::{RoundNo, TournamentId};
use crate::domain::marathon::quick::SpielForm;
use crate::domain::marathon::tafel::{Tafel, compute};
use crate::domain::marathon::{Ruling, Side, Spiel, Trump};
use crate::pdf::tafel::blank_tafeln;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

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
    /// The line that won its Partie: the Tafel draws the line under it.
    pub partie_ends: bool,
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
    replace_offer: Option<String>,
    /// The Spielrunde's gong has sounded and this Tafel is still open.
    after_gong: bool,
    /// Who wrote the Gong-Strich of a closed Tafel.
    gong_strich: String,
    trumps: [Trump; 6],
    rulings: [Ruling; 4],
    /// Points are typed multiplied, as the Schreiber wrote them.
    multiplied: bool,
}

pub(super) fn striche_text(s: &crate::domain::marathon::Striche) -> String {
    format!(
        "Berg {} · Sieg {} · Schneider {} · Match {} · Gong {}",
        s.berg, s.sieg, s.schneider, s.matches, s.gong
    )
}

pub(super) fn line_views(spiele: &[Spiel], tafel: &Tafel) -> Vec<LineView> {
    spiele
        .iter()
        .zip(&tafel.lines)
        .enumerate()
        .map(|(i, (s, l))| LineView {
            number: i + 1,
            partie: l.partie,
            trump: s.trump_text(),
            cards: s.cards_text(),
            weis: s.weis_text(),
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
            partie_ends: l
                .events
                .iter()
                .any(|e| matches!(e, crate::domain::marathon::tafel::Event::Sieg(_))),
        })
        .collect()
}

#[derive(Deserialize)]
struct TafelQuery {
    edit: Option<usize>,
}

/// What the Tafel page shows besides the Tafel itself.
struct Shown {
    form: Option<SpielForm>,
    editing: Option<usize>,
    errors: FieldErrors,
    error: Option<String>,
    /// After a refused change of another source's result: the action to repeat as an
    /// explicit replacement.
    replace_offer: Option<String>,
}

async fn tafel_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    passe: u32,
    table: u32,
    shown: Shown,
) -> Result<HttpResponse, AppError> {
    let read::TafelRead {
        data,
        rules,
        spiele,
        gong,
        clock,
        multiplied,
    } = db(state, move |conn| Ok(read::tafel(conn, id, passe, table)?)).await?;
    let after_gong = clock_view(&rules, clock.as_ref()).gong && !gong;
    if !data.tournament.mode.has_tafel() {
        return Err(AppError::not_found());
    }
    let seating = data
        .tables(passe)
        .into_iter()
        .find(|t| t.number == table)
        .ok_or_else(AppError::not_found)?;
    let tafel = compute(&rules, &spiele, gong).map_err(|e| AppError::Internal(e.message))?;
    let Shown {
        form,
        editing,
        errors,
        error,
        replace_offer,
    } = shown;
    let form = form.unwrap_or_else(|| {
        editing
            .and_then(|n| spiele.get(n.wrapping_sub(1)))
            .map(|s| SpielForm::of_typed(s, &rules, multiplied))
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
            replace_offer,
            after_gong,
            gong_strich: match tafel.gong {
                Some(Side::A) => format!("A ({})", team_label(seating.team_a)),
                Some(Side::B) => format!("B ({})", team_label(seating.team_b)),
                None => "keiner (Gleichstand in der offenen Partie)".into(),
            },
            trumps: Trump::ALL,
            rulings: Ruling::ALL,
            multiplied,
            t: data.tournament,
        },
        status,
    )
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(TournamentId, RoundNo, u32)>,
    query: web::Query<TafelQuery>,
) -> Result<HttpResponse, AppError> {
    let (id, passe, table) = path.into_inner();
    let passe = passe.get();
    let shown = Shown {
        form: None,
        editing: query.edit,
        errors: FieldErrors::new(),
        error: None,
        replace_offer: None,
    };
    tafel_page(&state, user.0.ctx(), id, passe, table, shown).await
}

#[derive(Deserialize)]
struct TafelForm {
    #[serde(default)]
    action: String,
    #[serde(default)]
    line: String,
    /// The explicit replacement of a Schnellerfassung by this Tafel.
    #[serde(default)]
    replace_source: String,
    /// With `entry_mode`: "1" when the points are typed multiplied.
    #[serde(default)]
    multiplied: String,
    #[serde(flatten)]
    spiel: SpielForm,
}

async fn change(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, u32)>,
    post: Secured<TafelForm>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    // Who may touch a Tafel at all; whether this change is allowed is the use case's rule.
    if !actor.may_change_results() {
        return Err(AppError::forbidden());
    }
    let (id, passe, table) = path.into_inner();
    let passe = passe.get();
    let tid = id;
    let line = post.form.line.trim().parse::<usize>().ok();
    if post.form.action == "entry_mode" {
        let multiplied = !post.form.multiplied.trim().is_empty();
        db(&state, move |conn| {
            Ok(set_entry_mode(conn, &actor, tid, passe, table, multiplied)?)
        })
        .await?;
        let how = if multiplied {
            "multipliziert, wie auf der Tafel"
        } else {
            "als Kartenpunkte"
        };
        return flash_redirect(
            &format!("/tournaments/{id}/passen/{passe}/tafel/{table}"),
            format!("Punkte werden {how} eingegeben."),
        );
    }
    let (rules, multiplied) = db(&state, move |conn| {
        Ok(read::tafel_typing(conn, tid, passe, table)?)
    })
    .await?;
    let which = || line.ok_or_else(|| AppError::BadRequest("Welche Zeile?".into()));
    let editing = (post.form.action == "replace").then_some(line).flatten();
    let change = match post.form.action.as_str() {
        "gong" => TafelChange::Gong(true),
        "ungong" => TafelChange::Gong(false),
        "delete" => TafelChange::Delete(which()?),
        action @ ("add" | "replace") => match post.form.spiel.spiel(&rules, multiplied) {
            Ok(spiel) if action == "add" => TafelChange::Add(spiel, line),
            Ok(spiel) => TafelChange::Replace(which()?, spiel),
            Err(errors) => {
                let shown = Shown {
                    form: Some(post.form.spiel),
                    editing,
                    errors,
                    error: None,
                    replace_offer: None,
                };
                return tafel_page(&state, post.session.ctx(), tid, passe, table, shown).await;
            }
        },
        _ => return Err(AppError::BadRequest("Unbekannte Aktion.".into())),
    };
    let replace = !post.form.replace_source.trim().is_empty();
    let done = db(&state, move |conn| {
        Ok(change_tafel(
            conn, &actor, tid, passe, table, change, replace,
        ))
    })
    .await?;
    match done {
        Ok(tafel) => flash_redirect(
            &format!("/tournaments/{id}/passen/{passe}/tafel/{table}"),
            format!(
                "Tafel gespeichert: {} : {} Striche.",
                tafel.a.total(),
                tafel.b.total()
            ),
        ),
        Err(Refusal::Invalid(message)) => {
            let shown = Shown {
                form: Some(post.form.spiel),
                editing,
                errors: FieldErrors::new(),
                error: Some(message),
                replace_offer: None,
            };
            tafel_page(&state, post.session.ctx(), tid, passe, table, shown).await
        }
        Err(Refusal::Conflict(message)) => {
            let shown = Shown {
                form: Some(post.form.spiel),
                editing,
                errors: FieldErrors::new(),
                error: Some(message),
                replace_offer: Some(post.form.action.clone()),
            };
            let mut page = tafel_page(&state, post.session.ctx(), tid, passe, table, shown).await?;
            *page.status_mut() = StatusCode::CONFLICT;
            Ok(page)
        }
        Err(other) => Err(other.into()),
    }
}

/// The blank Tafeln of a Spielrunde, one page per table, for the Schreiber.
async fn blank(
    state: web::Data<AppState>,
    _user: User,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let tid = id;
    let (data, rules) = db(&state, move |conn| {
        Ok(read::round_with_rules(conn, tid, passe)?)
    })
    .await?;
    if !data.tournament.mode.has_tafel() {
        return Err(AppError::NotFound(format!(
            "Im {} wird auf dem Jasszettel geschrieben: Tafeln gibt es hier nicht.",
            data.tournament.mode.label()
        )));
    }
    let tables = prints::tables_to_play(&data, passe)?;
    let m = rules.multipliers;
    let s = rules.striche;
    let summary = vec![
        format!(
            "Partie bis {}, Bergpreis bei {} · Match +{} (Matchprämie)",
            rules.target, rules.berg, rules.match_bonus
        ),
        format!(
            "Eichel ×{}, Rose ×{}, Schelle ×{}, Schilte ×{}, Obenabe ×{}, Undenufe ×{}",
            m[0], m[1], m[2], m[3], m[4], m[5]
        ),
        format!(
            "Striche: Berg {}, Sieg {}, Schneider {}, Match {}, Gong {}",
            s.berg, s.sieg, s.schneider, s.matches, s.gong
        ),
    ];
    let round = format!("{} {passe}", data.tournament.mode.round());
    let name = prints::download_name(&data, &["Tafeln", &round], "pdf");
    let header = prints::header(&data, format!("Tafeln {round}"));
    let bytes =
        super::prints::made(move || blank_tafeln(header, &round, &summary, &tables)).await?;
    Ok(prints::pdf(bytes, &name))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/passen/{passe}/tafeln.pdf",
        web::get().to(blank),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/tafel/{table}",
        web::get().to(show),
    )
    .route(
        "/tournaments/{id}/passen/{passe}/tafel/{table}",
        web::post().to(change),
    );
}
