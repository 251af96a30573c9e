//! The Rangliste: the HTML page and the shared view that PDF, CSV and JSON print.

use super::auth::MaybeUser;
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::guard;
use crate::db::models::{TeamRow, TournamentRow};
use crate::db::tournament_data::TournamentData;
use crate::domain::format;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::standblatt::{RanglisteKind, Section, SheetStatus, rangliste};
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub struct RowView {
    pub rank: Option<u32>,
    pub team: TeamRow,
    pub label: String,
    pub passen: Vec<Option<u32>>,
    pub total: u32,
    pub status: SheetStatus,
}

impl RowView {
    pub fn rank_text(&self) -> String {
        self.rank.map(|r| format!("{r}.")).unwrap_or_default()
    }
    pub fn players(&self) -> String {
        format!("{} / {}", self.team.player1, self.team.player2)
    }
    pub fn passen_text(&self) -> Vec<String> {
        self.passen
            .iter()
            .map(|p| p.map(|p| format::number(i64::from(p))).unwrap_or_default())
            .collect()
    }
    pub fn total_text(&self) -> String {
        format::number(i64::from(self.total))
    }
}

pub struct SectionView {
    pub section: Section,
    pub rows: Vec<RowView>,
}

impl SectionView {
    pub fn title(&self) -> &'static str {
        self.section.label()
    }
    pub fn ranked(&self) -> bool {
        self.section == Section::Rangiert
    }
}

/// The Rangliste as printed everywhere: official once the tournament is closed (or on request).
pub fn ranking_view(data: &TournamentData, official: bool) -> Vec<SectionView> {
    let kind = if official {
        RanglisteKind::Offiziell
    } else {
        RanglisteKind::Provisorisch
    };
    let sheets = data.standblaetter();
    let teams: HashMap<TeamId, &TeamRow> = data.teams.iter().map(|t| (t.id, t)).collect();
    let mut sections: Vec<SectionView> = Vec::new();
    for row in rangliste(kind, &sheets) {
        let Some(team) = teams.get(&row.sheet.team) else {
            continue;
        };
        let view = RowView {
            rank: row.rank,
            label: team_label(team),
            team: (*team).clone(),
            passen: row.sheet.lines.iter().map(|l| l.points()).collect(),
            total: row.sheet.total,
            status: row.sheet.status,
        };
        match sections.last_mut() {
            Some(s) if s.section == row.section => s.rows.push(view),
            _ => sections.push(SectionView {
                section: row.section,
                rows: vec![view],
            }),
        }
    }
    sections
}

/// Anonymous visitors see a tournament's public pages only while the Leitung allows it.
pub fn ensure_visible(data: &TournamentData, user: &MaybeUser) -> Result<(), AppError> {
    if data.tournament.public || user.0.is_some() {
        Ok(())
    } else {
        Err(AppError::not_found())
    }
}

#[derive(Template)]
#[template(path = "ranking.html")]
struct RankingPage {
    ctx: Ctx,
    t: TournamentRow,
    official: bool,
    passen: Vec<u32>,
    sections: Vec<SectionView>,
}

#[derive(Deserialize)]
pub struct RankingQuery {
    pub official: Option<String>,
}

async fn show(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<i32>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let id = TournamentId(path.into_inner());
    let data = db(&state, move |conn| Ok(guard::load(conn, id)?)).await?;
    ensure_visible(&data, &user)?;
    let official = data.tournament.closed || query.official.is_some();
    let ctx = match &user.0 {
        Some(session) => session.ctx().with_tournament(&data.tournament),
        None => Ctx::anonymous(),
    };
    page(&RankingPage {
        ctx,
        official,
        passen: (1..=data.tournament.passen as u32).collect(),
        sections: ranking_view(&data, official),
        t: data.tournament,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/ranking", web::get().to(show));
}
