//! The Tischliste of a Passe or Spielrunde, with its visas.

use super::auth::flash_redirect;
use super::auth::{Secured, User};
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use super::views::{TableView, progress, table_views, team_label, with_reports};
use crate::app::read;
use crate::app::{guard, visa};
use crate::db::models::TournamentRow;
use crate::domain::format;
use crate::domain::ids::{RoundNo, TeamId, TournamentId};
use crate::domain::table_report::ReportState;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "passe.html")]
struct PassePage {
    ctx: Ctx,
    t: TournamentRow,
    passe: u32,
    tables: Vec<TableView>,
    byes: Vec<String>,
    entered: usize,
    expected: usize,
    /// What both teams of a table sum to, where the mode checks a sum.
    total: Option<String>,
    /// Results from the table: whether on and open for this Passe, and the tables' count
    /// per state ("2 gemeldet · 1 Widerspruch").
    from_tables: Option<FromTables>,
    version: i32,
    /// Four numbers per table (Differenzler): one column of players, one of differences.
    per_player: bool,
}

pub struct FromTables {
    pub open: bool,
    pub summary: String,
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (id, passe) = path.into_inner();
    let passe = passe.get();
    let (data, setting, reports) =
        db(&state, move |conn| Ok(read::passe(conn, id, passe)?)).await?;
    let mut tables = table_views(&data, passe);
    with_reports(&data, &mut tables, &reports);
    let (entered, expected) = progress(&tables);
    let t = &data.tournament;
    let from_tables = setting.is_on().then(|| {
        let count = |state: ReportState| reports.iter().filter(|r| r.state == state).count();
        let missing = tables
            .iter()
            .filter(|t| !t.pauschale && t.result.is_none() && t.report.is_none())
            .count();
        FromTables {
            open: setting.passe() == Some(passe),
            // Every report counted once, by what became of it; a state none has is left out.
            summary: [
                (count(ReportState::Bestaetigt), "bestätigt"),
                (count(ReportState::Entschieden), "vom Büro entschieden"),
                (count(ReportState::Gemeldet), "gemeldet"),
                (count(ReportState::Laufend), "Tafel läuft"),
                (count(ReportState::Widerspruch), "Widerspruch"),
                (
                    count(ReportState::Ersetzt),
                    "im Büro erfasst (Meldung ersetzt)",
                ),
                (missing, "ohne Meldung"),
            ]
            .into_iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect::<Vec<_>>()
            .join(" · "),
        }
    });
    page(&PassePage {
        ctx: user.0.ctx().with_tournament(t),
        per_player: t.mode.facts().score_kind.per_player(),
        passe,
        byes: data.byes(passe).into_iter().map(team_label).collect(),
        total: t
            .mode
            .table_total(t.spiele_per_passe.get())
            .map(|total| format::number(i64::from(total))),
        tables,
        entered,
        expected,
        from_tables,
        version: t.version,
        t: data.tournament,
    })
}

#[derive(Deserialize)]
struct VisaForm {
    /// A team id for one Standblatt; empty for both teams of the table.
    #[serde(default)]
    team: String,
    #[serde(default)]
    back: String,
}

/// Only paths inside the app may be redirect targets.
pub fn safe_back(back: &str, fallback: String) -> String {
    if back.starts_with("/tournaments/") && !back.contains("//") {
        back.to_string()
    } else {
        fallback
    }
}

async fn visa(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo, u32)>,
    post: Secured<VisaForm>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, passe, table) = path.into_inner();
    let passe = passe.get();
    let team = match post.form.team.trim() {
        "" => None,
        raw => {
            Some(TeamId(raw.parse().map_err(|_| {
                AppError::BadRequest("Ungültiges Team.".into())
            })?))
        }
    };
    let round = db(&state, move |conn| {
        visa::visa(conn, &actor, id, passe, table, team)?;
        Ok(guard::tournament(conn, id)?.mode.round())
    })
    .await?;
    let back = safe_back(&post.form.back, format!("/tournaments/{id}/passen/{passe}"));
    flash_redirect(&back, format!("{round} {passe}, Tisch {table} visiert."))
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/passen/{passe}", web::get().to(show))
        .route(
            "/tournaments/{id}/passen/{passe}/tables/{table}/visa",
            web::post().to(visa),
        );
}
