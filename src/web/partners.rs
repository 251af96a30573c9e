//! "Sucht Partner": players registered alone, and drawing teams from them (proposal with
//! its seed, swaps, confirmation).

use super::auth::{Secured, User, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::page_with;
use super::state::{AppState, db};
use crate::app::partners::{self, Drawn};
use crate::app::read;
use crate::db::models::{SingleRow, TournamentRow};
use crate::domain::form::FieldErrors;
use crate::domain::ids::{SingleId, TournamentId};
use crate::domain::partner_draw::{ClubRule, Pairing, pair_players, same_club_pairs, swap};
use crate::domain::team::{SingleForm, SingleInput, club_numbers};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

/// A drawn pairing as the page shows it.
struct Proposal {
    seed: u64,
    rule: ClubRule,
    pairs: Vec<(SingleRow, SingleRow)>,
    alone: Option<SingleRow>,
    same_club: usize,
    /// The swaps so far and the registrations drawn from, for the next request.
    swaps: String,
    ids: String,
}

#[derive(Template)]
#[template(path = "partners.html")]
struct PartnerPage {
    ctx: Ctx,
    t: TournamentRow,
    singles: Vec<SingleRow>,
    form: SingleForm,
    errors: FieldErrors,
    proposal: Option<Proposal>,
    rules: [ClubRule; 3],
    /// A fresh seed for the next draw.
    new_seed: u64,
}

/// What the draw form and the swap form send (GET: nothing is written before "Bestätigen").
#[derive(Deserialize, Default)]
struct DrawQuery {
    seed: Option<String>,
    verein: Option<String>,
    /// Swaps so far: "12-15,3-8" (registration ids).
    tausch: Option<String>,
    /// A new swap.
    a: Option<i32>,
    b: Option<i32>,
}

/// Each registration's Verein as a number (the draws' one rule for Vereine).
fn clubs(singles: &[SingleRow]) -> Vec<Option<u32>> {
    let numbers = club_numbers(singles.iter().map(|s| (s.id, s.club.as_deref())));
    singles
        .iter()
        .map(|s| numbers.get(&s.id).copied())
        .collect()
}

fn parse_swaps(text: &str) -> Result<Vec<(SingleId, SingleId)>, AppError> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|pair| {
            let (a, b) = pair
                .split_once('-')
                .ok_or_else(|| AppError::BadRequest("Ungültiger Tausch.".into()))?;
            let number = |s: &str| {
                s.trim()
                    .parse::<i32>()
                    .map(SingleId)
                    .map_err(|_| AppError::BadRequest("Ungültiger Tausch.".into()))
            };
            Ok((number(a)?, number(b)?))
        })
        .collect()
}

/// The pairing of `singles` (their Vereine: `clubs`) by seed and rule, with the swaps
/// applied in order.
fn pairing(
    singles: &[SingleRow],
    clubs: &[Option<u32>],
    seed: u64,
    rule: ClubRule,
    swaps: &[(SingleId, SingleId)],
) -> Result<Pairing, AppError> {
    let mut pairing = pair_players(clubs, rule, seed);
    let index = |id: SingleId| {
        singles.iter().position(|s| s.id == id).ok_or_else(|| {
            AppError::Conflict(
                "Eine getauschte Anmeldung gibt es nicht mehr: bitte neu auslosen.".into(),
            )
        })
    };
    for &(a, b) in swaps {
        pairing = swap(&pairing, index(a)?, index(b)?);
    }
    Ok(pairing)
}

fn parse_rule(key: Option<&str>) -> Result<ClubRule, AppError> {
    match key {
        None => Ok(ClubRule::Egal),
        Some(k) => ClubRule::parse(k)
            .ok_or_else(|| AppError::BadRequest("Unbekannte Regel für Vereine.".into())),
    }
}

fn parse_seed(text: &str) -> Result<u64, AppError> {
    text.trim().parse::<u64>().map_err(|_| {
        AppError::BadRequest(
            "Der Seed ist eine ganze Zahl (er macht die Auslosung nachvollziehbar).".into(),
        )
    })
}

async fn show_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    form: SingleForm,
    errors: FieldErrors,
    query: DrawQuery,
) -> Result<HttpResponse, AppError> {
    let (t, singles) = db(state, move |conn| {
        Ok(read::tournament_with_singles(conn, id)?)
    })
    .await?;
    let proposal = match query.seed.as_deref() {
        Some(seed) => {
            let seed = parse_seed(seed)?;
            let rule = parse_rule(query.verein.as_deref())?;
            let mut swaps = parse_swaps(query.tausch.as_deref().unwrap_or_default())?;
            if let (Some(a), Some(b)) = (query.a, query.b)
                && a != b
            {
                swaps.push((SingleId(a), SingleId(b)));
            }
            let clubs = clubs(&singles);
            let pairing = pairing(&singles, &clubs, seed, rule, &swaps)?;
            Some(Proposal {
                seed,
                rule,
                same_club: same_club_pairs(&clubs, &pairing),
                pairs: pairing
                    .pairs
                    .iter()
                    .map(|&(a, b)| (singles[a].clone(), singles[b].clone()))
                    .collect(),
                alone: pairing.alone.map(|p| singles[p].clone()),
                swaps: swaps
                    .iter()
                    .map(|(a, b)| format!("{a}-{b}"))
                    .collect::<Vec<_>>()
                    .join(","),
                ids: singles
                    .iter()
                    .map(|s| s.id.to_string())
                    .collect::<Vec<_>>()
                    .join(","),
            })
        }
        None => None,
    };
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    page_with(
        &PartnerPage {
            ctx: ctx.with_tournament(&t),
            t,
            singles,
            form,
            errors,
            proposal,
            rules: ClubRule::ALL,
            new_seed: rand::random::<u32>().into(),
        },
        status,
    )
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<TournamentId>,
    query: web::Query<DrawQuery>,
) -> Result<HttpResponse, AppError> {
    show_page(
        &state,
        user.0.ctx(),
        path.into_inner(),
        SingleForm::default(),
        FieldErrors::new(),
        query.into_inner(),
    )
    .await
}

async fn add(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<SingleForm, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let input = match SingleInput::try_from(&post.form) {
        Ok(input) => input,
        Err(errors) => {
            return show_page(
                &state,
                post.session.ctx(),
                id,
                post.form,
                errors,
                DrawQuery::default(),
            )
            .await;
        }
    };
    let player = input.player.clone();
    db(&state, move |conn| {
        Ok(partners::add(conn, &actor, id, &input)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/partner"),
        format!("{player} sucht einen Partner."),
    )
}

async fn remove(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, SingleId)>,
    post: Secured<std::collections::HashMap<String, String>, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, single) = path.into_inner();
    db(&state, move |conn| {
        Ok(partners::remove(conn, &actor, id, single)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/partner"),
        "Einzelanmeldung gelöscht.".into(),
    )
}

/// All fields default: a request without them is answered after the role check, not
/// before it.
#[derive(Deserialize)]
struct ConfirmForm {
    #[serde(default)]
    seed: String,
    #[serde(default)]
    verein: String,
    #[serde(default)]
    tausch: String,
    /// The registrations the proposal was drawn from, in order.
    #[serde(default)]
    ids: String,
}

async fn confirm(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<ConfirmForm, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let seed = parse_seed(&post.form.seed)?;
    let rule = parse_rule(Some(&post.form.verein))?;
    let swaps = parse_swaps(&post.form.tausch)?;
    let drawn_from: Vec<SingleId> = post
        .form
        .ids
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse::<i32>().map(SingleId))
        .collect::<Result<_, _>>()
        .map_err(|_| AppError::BadRequest("Ungültige Liste.".into()))?;
    let formed = db(&state, move |conn| {
        let now = read::singles(conn, id)?;
        let ordered: Vec<SingleRow> = drawn_from
            .iter()
            .filter_map(|d| now.iter().find(|s| s.id == *d).cloned())
            .collect();
        let pairing = pairing(&ordered, &clubs(&ordered), seed, rule, &swaps)?;
        let names = |x: SingleId| {
            now.iter()
                .find(|s| s.id == x)
                .map(|s| s.player.clone())
                .unwrap_or_default()
        };
        let how = Drawn {
            seed,
            rule: rule.key(),
            swaps: swaps.iter().map(|&(a, b)| (names(a), names(b))).collect(),
        };
        Ok(partners::form_teams(
            conn,
            &actor,
            id,
            &drawn_from,
            &pairing,
            &how,
        )?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/teams"),
        format!("{} Teams aus Einzelanmeldungen gebildet.", formed.len()),
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/partner", web::get().to(show))
        .route("/tournaments/{id}/partner", web::post().to(confirm))
        .route("/tournaments/{id}/singles", web::post().to(add))
        .route(
            "/tournaments/{id}/singles/{single}/delete",
            web::post().to(remove),
        );
}
