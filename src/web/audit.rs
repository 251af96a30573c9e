//! The Protokoll for the Turnierleitung: every change as a German sentence, filtered by
//! tournament, team, Passe and user, paged.

use super::auth::{Permitted, gate};
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use super::views::protocol::{Names, ProtocolLine, describe};
use super::views::team_label;
use crate::app::read;
use crate::db::models::TournamentRow;
use crate::domain::ids::{TeamId, TournamentId};
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

/// Entries per page.
const PAGE: usize = 50;
/// Entries read per request at most (newest first).
const READ: i64 = 20_000;

#[derive(Template)]
#[template(path = "audit.html")]
struct AuditPage {
    ctx: Ctx,
    lines: Vec<ProtocolLine>,
    tournaments: Vec<TournamentRow>,
    filter: Filter,
    selected: Option<i32>,
    page_no: usize,
    pages: usize,
    total: usize,
    /// The query string of the filter without the page (for the page links).
    query: String,
}

#[derive(Deserialize, Default, Clone)]
struct Filter {
    #[serde(default)]
    tournament: String,
    /// Startnummer.
    #[serde(default)]
    team: String,
    #[serde(default)]
    passe: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    seite: String,
}

impl AuditPage {
    fn is_selected(&self, id: &TournamentId) -> bool {
        self.selected == Some(id.0)
    }
}

fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn list(
    state: web::Data<AppState>,
    user: Permitted<gate::ViewAudit>,
    filter: web::Query<Filter>,
) -> Result<HttpResponse, AppError> {
    let filter = filter.into_inner();
    let selected = filter.tournament.trim().parse::<i32>().ok();
    let startnummer = filter.team.trim().parse::<u32>().ok();
    let passe = filter.passe.trim().parse::<u32>().ok();
    let who = filter.user.trim().to_lowercase();
    let (entries, tournaments, data) = db(&state, move |conn| {
        Ok(read::protocol(conn, selected.map(TournamentId), READ)?)
    })
    .await?;
    let labels: HashMap<TeamId, String> = data
        .as_ref()
        .map(|d| d.teams.iter().map(|t| (t.id, team_label(t))).collect())
        .unwrap_or_default();
    let team = startnummer.and_then(|nr| {
        data.as_ref()
            .and_then(|d| d.teams.iter().find(|t| t.startnummer.get() == nr))
            .map(|t| t.id)
    });
    let rounds: HashMap<TournamentId, &'static str> =
        tournaments.iter().map(|t| (t.id, t.mode.round())).collect();
    let lines: Vec<ProtocolLine> = entries
        .iter()
        .map(|e| {
            let round = e
                .tournament_id
                .and_then(|t| rounds.get(&t).copied())
                .unwrap_or("Passe");
            describe(
                e,
                &Names {
                    round,
                    teams: &labels,
                },
            )
        })
        .filter(|l| startnummer.is_none() || team.is_some_and(|t| l.teams.contains(&t)))
        .filter(|l| passe.is_none() || l.passe == passe)
        .filter(|l| who.is_empty() || l.user.to_lowercase() == who)
        .collect();
    let total = lines.len();
    let pages = total.div_ceil(PAGE).max(1);
    let page_no = filter
        .seite
        .trim()
        .parse::<usize>()
        .unwrap_or(1)
        .clamp(1, pages);
    let lines = lines
        .into_iter()
        .skip((page_no - 1) * PAGE)
        .take(PAGE)
        .collect();
    let query = format!(
        "tournament={}&team={}&passe={}&user={}",
        encode(&filter.tournament),
        encode(&filter.team),
        encode(&filter.passe),
        encode(&filter.user)
    );
    page(&AuditPage {
        ctx: user.session.ctx(),
        lines,
        tournaments,
        filter,
        selected,
        page_no,
        pages,
        total,
        query,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/audit", web::get().to(list));
}
