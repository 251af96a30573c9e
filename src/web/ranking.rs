//! The Rangliste page: provisional while the tournament runs, official once closed.

use super::draw::team_label;
use super::{AppState, Ctx, User, db, page};
use crate::db::models::TournamentRow;
use crate::db::results;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::standblatt::{RanglisteKind, Section, rangliste};
use crate::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub struct RowView {
    pub rank: String,
    pub team_id: i32,
    pub team: String,
    pub players: String,
    pub passen: Vec<String>,
    pub total: String,
    pub status: &'static str,
    pub status_css: &'static str,
}

pub struct SectionView {
    pub title: &'static str,
    pub ranked: bool,
    pub rows: Vec<RowView>,
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
struct Query {
    official: Option<String>,
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<i32>,
    query: web::Query<Query>,
) -> Result<HttpResponse, AppError> {
    let id = TournamentId(path.into_inner());
    let data = db(&state, move |conn| results::load(conn, id)).await?;
    let official = data.tournament.closed || query.official.is_some();
    let kind = if official {
        RanglisteKind::Offiziell
    } else {
        RanglisteKind::Provisorisch
    };
    let sheets = data.standblaetter();
    let teams: HashMap<i32, &crate::db::models::TeamRow> =
        data.teams.iter().map(|t| (t.id, t)).collect();
    let mut sections: Vec<SectionView> = Vec::new();
    for row in rangliste(kind, &sheets) {
        let Some(team) = teams.get(&row.sheet.team.0) else {
            continue;
        };
        let view = RowView {
            rank: row.rank.map(|r| format!("{r}.")).unwrap_or_default(),
            team_id: team.id,
            team: team_label(team),
            players: format!("{} / {}", team.player1, team.player2),
            passen: row
                .sheet
                .lines
                .iter()
                .map(|l| {
                    l.points()
                        .map(|p| format::number(i64::from(p)))
                        .unwrap_or_default()
                })
                .collect(),
            total: format::number(i64::from(row.sheet.total)),
            status: row.sheet.status.label(),
            status_css: row.sheet.status.css(),
        };
        match sections.last_mut() {
            Some(s) if s.title == row.section.label() => s.rows.push(view),
            _ => sections.push(SectionView {
                title: row.section.label(),
                ranked: row.section == Section::Rangiert,
                rows: vec![view],
            }),
        }
    }
    page(&RankingPage {
        ctx: user.0.ctx().with_tournament(&data.tournament),
        official,
        passen: (1..=data.tournament.passen as u32).collect(),
        sections,
        t: data.tournament,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/ranking", web::get().to(show));
}
