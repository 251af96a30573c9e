//! The public page of one team, opened from the QR code on its Standblatt: where it sits in
//! every Passe, its results and visas, its provisional rank; it follows the live updates.

use super::auth::MaybeUser;
use super::ctx::Ctx;
use super::public_cache::PerVersion;
use super::ranking::{SectionView, ensure_visible, ranking_view};
use super::render::page;
use super::state::{AppState, db};
use super::views::{opponents_cell, seat_cells, table_cell, team_label};
use crate::app::guard;
use crate::db::models::TournamentRow;
use crate::db::tournament_data::TournamentData;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::standblatt::{PasseLine, Standblatt};
use crate::domain::team::players_line;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::sync::Arc;

pub struct SeatLine {
    pub passe: u32,
    pub table: String,
    /// Einzelschieber: seat and partner of this Passe.
    pub seat: String,
    pub partner: String,
    pub opponent: String,
    pub points: String,
    /// Struck by the Streichresultat.
    pub struck: bool,
    pub state: &'static str,
    /// The first Passe still to play: "wo sitze ich".
    pub next: bool,
}

#[derive(Template)]
#[template(path = "team_public.html")]
struct TeamPage {
    ctx: Ctx,
    t: TournamentRow,
    label: String,
    startnummer: u32,
    players: String,
    rank: String,
    total: String,
    /// The Streichresultat rule, if any.
    wertung: Option<String>,
    status: String,
    lines: Vec<SeatLine>,
    next: Option<String>,
    version: i32,
    /// Results from the table are open for a Passe: the page offers "Resultat eingeben".
    table_entry: bool,
}

/// The address the QR code on a Standblatt encodes.
pub fn team_page_path(tournament: i32, startnummer: u32) -> String {
    format!("/tournaments/{tournament}/team/{startnummer}")
}

/// What every team's page needs of the whole tournament at one version: loaded and ranked
/// once, shared by the anonymous phones until the next write.
pub struct TeamPages {
    data: TournamentData,
    sheets: Vec<Standblatt>,
    ranking: Vec<SectionView>,
    /// Results from the table are open for a Passe.
    table_entry: bool,
}

/// The shared [`TeamPages`] of each tournament (one per server, given to the app at start).
pub type TeamPagesCache = PerVersion<TeamPages>;

async fn team_pages(state: &web::Data<AppState>, id: TournamentId) -> Result<TeamPages, AppError> {
    let (data, setting) = db(state, move |conn| {
        Ok((guard::load(conn, id)?, crate::app::read::opening(conn, id)?))
    })
    .await?;
    Ok(TeamPages {
        sheets: data.standblaetter(),
        ranking: ranking_view(&data, data.tournament.closed),
        table_entry: setting.passe().is_some() && !data.tournament.closed,
        data,
    })
}

async fn show(
    state: web::Data<AppState>,
    cache: web::Data<TeamPagesCache>,
    user: MaybeUser,
    path: web::Path<(TournamentId, u32)>,
) -> Result<HttpResponse, AppError> {
    let (id, startnummer) = path.into_inner();
    // Anonymous phones share the tournament of the version the live hub last published; a
    // logged-in user (who may see a hidden tournament) gets it fresh.
    let pages = match state.live.state(id).filter(|_| user.0.is_none()) {
        Some((_, false)) => return Err(AppError::not_found()),
        Some((version, true)) => {
            cache
                .get(id, version, || async {
                    let pages = team_pages(&state, id).await?;
                    Ok((pages.data.tournament.version, pages))
                })
                .await?
        }
        None => Arc::new(team_pages(&state, id).await?),
    };
    let TeamPages {
        data,
        sheets,
        ranking,
        table_entry,
    } = &*pages;
    ensure_visible(data, &user)?;
    let team = data
        .teams
        .iter()
        .find(|t| t.startnummer.get() == startnummer)
        .cloned()
        .ok_or_else(AppError::not_found)?;
    let sheet = sheets
        .iter()
        .find(|s| s.team == team.id)
        .ok_or_else(AppError::not_found)?;
    let first_open = sheet
        .lines
        .iter()
        .position(|l| matches!(l, PasseLine::Offen { .. }));
    let mut lines: Vec<SeatLine> = sheet
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let passe = index as u32 + 1;
            let (seat, partner) = seat_cells(data, passe, team.id);
            SeatLine {
                passe,
                table: table_cell(line),
                seat,
                partner,
                opponent: opponents_cell(data, passe, team.id, line, " & "),
                points: line
                    .score()
                    .map(|s| format::number(i64::from(s.points)))
                    .unwrap_or_default(),
                struck: false,
                state: line.status_label(),
                next: Some(index) == first_open,
            }
        })
        .collect();
    let round = data.tournament.mode.round();
    let next = first_open.and_then(|i| {
        let line = &lines[i];
        (!line.table.is_empty()).then(|| match line.seat.is_empty() {
            true => format!(
                "{round} {}: Tisch {} gegen {}",
                line.passe, line.table, line.opponent
            ),
            false if line.partner.is_empty() => format!(
                "{round} {}: Tisch {}, Platz {}, mit {}",
                line.passe, line.table, line.seat, line.opponent
            ),
            false => format!(
                "{round} {}: Tisch {}, Sitz {}, mit {} gegen {}",
                line.passe, line.table, line.seat, line.partner, line.opponent
            ),
        })
    });
    let row = ranking
        .iter()
        .flat_map(|s| &s.rows)
        .find(|r| r.team.id == team.id);
    if let Some(row) = row {
        for (line, struck) in lines.iter_mut().zip(&row.struck) {
            line.struck = *struck;
        }
    }
    let ctx = match &user.0 {
        Some(session) => session.ctx().with_tournament(&data.tournament),
        None => Ctx::anonymous(),
    };
    page(&TeamPage {
        ctx,
        label: team_label(&team),
        startnummer,
        players: match data.tournament.mode.draws_players() {
            true => [team.club.clone(), team.place.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", "),
            false => players_line(data.tournament.mode.entrant(), &team.player1, &team.player2),
        },
        rank: row.map(|r| r.rank_text()).unwrap_or_default(),
        total: row.map(|r| r.total_text()).unwrap_or_default(),
        wertung: super::ranking::wertung_note(&data.tournament),
        status: row
            .map(|r| r.status.label(data.tournament.mode))
            .unwrap_or_default(),
        lines,
        next,
        version: data.tournament.version,
        table_entry: *table_entry,
        t: data.tournament.clone(),
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/team/{startnummer}", web::get().to(show));
}
