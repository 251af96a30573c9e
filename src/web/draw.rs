//! Lose and tables: the draw, its lists, and the per-Passe draw.

use super::auth::flash_redirect;
use super::auth::{Secured, User, gate};
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::{self, guard};
use crate::db::models::TournamentRow;
use crate::db::tournament_data::TournamentData;
use crate::domain::draw::DrawMode;
use crate::domain::einzel_draw;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::schedule::{PasseDraw, Table, rematches};
use crate::domain::team::club_numbers;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

pub struct DrawRow {
    pub los: String,
    pub startnummer: u32,
    pub team: String,
    /// Per Passe: "Tisch 3 · gegen 12" or "spielfrei".
    pub passen: Vec<String>,
}

#[derive(Template)]
#[template(path = "draw.html")]
struct DrawPage {
    ctx: Ctx,
    t: TournamentRow,
    drawn: bool,
    may_redraw: bool,
    next_passe: Option<u32>,
    passen: Vec<u32>,
    by_los: Vec<DrawRow>,
    by_startnummer: Vec<DrawRow>,
    rematches: Vec<String>,
    /// With the Verein option: how many pairings of the same Verein remained, per Passe.
    same_club: Option<String>,
    /// Einzelschieber: how good the drawn Passen are.
    quality: Option<QualityView>,
}

/// The Einzelschieber draw's quality, as the draw list prints it.
pub struct QualityView {
    pub partner_repeats: u32,
    pub opponent_repeats: u32,
    pub meeting_repeats: u32,
    /// No schedule of this field can have fewer meeting repeats.
    pub bound: u32,
    pub most_meetings: u32,
    pub same_club: u32,
}

fn einzel_quality(data: &TournamentData) -> Option<QualityView> {
    if !data.tournament.mode.draws_players() || !data.is_drawn() {
        return None;
    }
    let index: HashMap<TeamId, usize> = data
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id, i))
        .collect();
    let clubs = club_numbers(data.teams.iter().map(|t| (t.id, t.club.as_deref())));
    let clubs: Vec<Option<u32>> = data
        .teams
        .iter()
        .map(|t| clubs.get(&t.id).copied())
        .collect();
    let q = einzel_draw::quality(data.teams.len(), &data.einzel_passen(&index), Some(&clubs));
    Some(QualityView {
        partner_repeats: q.partner_repeats,
        opponent_repeats: q.opponent_repeats,
        meeting_repeats: q.meeting_repeats,
        bound: q.bound,
        most_meetings: q.most_meetings,
        same_club: q.same_club,
    })
}

/// Einzelschieber: a player's cell in the draw list, "Tisch 3 A2 · mit 5 · gegen 7, 8";
/// Differenzler: "Tisch 3 Platz 2 · mit 5, 7, 8".
fn einzel_cell(data: &TournamentData, seat: &crate::db::models::SeatRow) -> Option<String> {
    let (table, sitz) = (seat.table_no?, seat.position?);
    let partner = data.team(seat.partner_id?)?;
    let opponents = data.side(seat.passe.get(), data.team(seat.opponent_id?)?);
    let numbers: Vec<String> = opponents
        .iter()
        .map(|t| t.startnummer.to_string())
        .collect();
    // Differenzler: a place on the Schätzzettel with three others, nobody's partner.
    if !data.tournament.mode.plays_in_pairs() {
        return Some(format!(
            "Tisch {table} Platz {} · mit {}, {}",
            sitz.place(),
            partner.startnummer,
            numbers.join(", ")
        ));
    }
    Some(format!(
        "Tisch {table} {} · mit {} · gegen {}",
        sitz.key(),
        partner.startnummer,
        numbers.join(", ")
    ))
}

fn same_club_summary(data: &TournamentData) -> Option<String> {
    // Einzelschieber: counted per pair of players in the quality summary.
    if !data.tournament.separate_clubs || data.tournament.mode.draws_players() {
        return None;
    }
    let clubs = club_numbers(data.teams.iter().map(|t| (t.id, t.club.as_deref())));
    let per_passe: Vec<usize> = (1..=data.drawn_passen())
        .map(|p| {
            data.tables(p)
                .iter()
                .filter(|t| {
                    matches!((clubs.get(&t.team_a.id), clubs.get(&t.team_b.id)), (Some(a), Some(b)) if a == b)
                })
                .count()
        })
        .collect();
    let total: usize = per_passe.iter().sum();
    let round = data.tournament.mode.round();
    let detail: Vec<String> = per_passe
        .iter()
        .enumerate()
        .map(|(i, n)| format!("{round} {}: {n}", i + 1))
        .collect();
    Some(format!(
        "Vereine getrennt: {total} Paarung{} desselben Vereins ({})",
        if total == 1 { "" } else { "en" },
        detail.join(", ")
    ))
}

fn draws_of(data: &TournamentData) -> Vec<PasseDraw<u32>> {
    (1..=data.drawn_passen())
        .map(|p| PasseDraw {
            tables: data
                .tables(p)
                .iter()
                .map(|t| Table {
                    number: t.number,
                    team_a: t.team_a.startnummer.get(),
                    team_b: t.team_b.startnummer.get(),
                })
                .collect(),
            bye: data.byes(p).first().map(|t| t.startnummer.get()),
        })
        .collect()
}

fn rows(data: &TournamentData) -> Vec<DrawRow> {
    // The draw stays as drawn; a table somebody has left is marked, as "Wer sitzt wo" does.
    let not_played: HashSet<(u32, u32)> = (1..=data.drawn_passen())
        .flat_map(|p| {
            data.tables(p)
                .into_iter()
                .filter(move |t| data.table_has_left(p, t))
                .map(move |t| (p, t.number))
        })
        .collect();
    let mut cells: HashMap<(TeamId, u32), String> = HashMap::new();
    for seat in &data.seats {
        let mut cell = match (seat.table_no, seat.opponent_id.and_then(|o| data.team(o))) {
            _ if seat.position.is_some() => einzel_cell(data, seat).unwrap_or_default(),
            (Some(table), Some(opponent)) => {
                format!("Tisch {table} · gegen {}", opponent.startnummer)
            }
            // No seat after leaving is no bye: who left is "ausgeschieden" from then on.
            _ if data
                .team(seat.team_id)
                .is_some_and(|t| t.is_out(seat.passe.get())) =>
            {
                "ausgeschieden".to_string()
            }
            _ => "spielfrei".to_string(),
        };
        let passe = seat.passe.get();
        if let Some(table) = seat.table_no
            && let Some(team) = data.team(seat.team_id)
            && let Some(mark) = team.left_mark(passe, not_played.contains(&(passe, table.get())))
        {
            cell.push_str(" · ");
            cell.push_str(mark);
        }
        cells.insert((seat.team_id, passe), cell);
    }
    data.teams
        .iter()
        .map(|team| DrawRow {
            los: team.los.map(|l| l.to_string()).unwrap_or_default(),
            startnummer: team.startnummer.get(),
            team: team_label(team),
            passen: (1..=data.drawn_passen())
                .map(|p| {
                    cells
                        .get(&(team.id, p))
                        .cloned()
                        .unwrap_or_else(|| match team.is_out(p) {
                            true => "ausgeschieden".into(),
                            false => "–".into(),
                        })
                })
                .collect(),
        })
        .collect()
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let data = db(&state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let by_startnummer = rows(&data);
    let mut by_los: Vec<DrawRow> = rows(&data);
    by_los.sort_by_key(|r| (r.los.parse::<u32>().unwrap_or(u32::MAX), r.startnummer));
    let round = data.tournament.mode.round();
    let rematches = match data.tournament.mode.draws_players() {
        true => Vec::new(),
        false => rematches(&draws_of(&data)),
    }
    .into_iter()
    .map(|(passe, a, b)| format!("{round} {passe}: Team {a} gegen Team {b}"))
    .collect();
    let drawn_passen = data.drawn_passen();
    let next_passe = (data.is_drawn()
        && data.tournament.draw_mode == DrawMode::ProPasse
        && drawn_passen < data.tournament.passen.get())
    .then_some(drawn_passen + 1);
    page(&DrawPage {
        ctx: user.0.ctx().with_tournament(&data.tournament),
        drawn: data.is_drawn(),
        may_redraw: data.results.is_empty(),
        next_passe,
        passen: (1..=drawn_passen).collect(),
        by_los,
        by_startnummer,
        rematches,
        same_club: same_club_summary(&data),
        quality: einzel_quality(&data),
        t: data.tournament,
    })
}

#[derive(Deserialize)]
struct DrawForm {
    #[serde(default)]
    mode: String,
    #[serde(default)]
    seed: String,
}

async fn draw(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<DrawForm, gate::Draw>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let mode = DrawMode::parse(&post.form.mode)
        .ok_or_else(|| AppError::BadRequest("Bitte eine Art der Auslosung wählen.".into()))?;
    let seed = match post.form.seed.trim() {
        "" => u64::from(rand::random::<u32>()),
        raw => raw.parse::<u32>().map(u64::from).map_err(|_| {
            AppError::BadRequest(format!(
                "Startwert «{raw}»: bitte eine ganze Zahl von 0 bis 4'294'967'295."
            ))
        })?,
    };
    db(&state, move |conn| {
        Ok(app::draw::draw(conn, &actor, id, mode, seed)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/draw"),
        format!("Lose gezogen (Startwert {seed})."),
    )
}

async fn draw_next(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<HashMap<String, String>, gate::Draw>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let (passe, round) = db(&state, move |conn| {
        let passe = app::draw::draw_next_passe(conn, &actor, id)?;
        Ok((passe, guard::tournament(conn, id)?.mode.round()))
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/passen/{passe}"),
        format!("{round} {passe} ausgelost."),
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/draw", web::get().to(show))
        .route("/tournaments/{id}/draw", web::post().to(draw))
        .route("/tournaments/{id}/draw/next", web::post().to(draw_next));
}
