//! The audit log page for the Turnierleitung.

use super::auth::User;
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use crate::db::models::{AuditRow, TournamentRow};
use crate::db::{audit, tournaments};
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::role::Permission;
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

#[derive(Template)]
#[template(path = "audit.html")]
struct AuditPage {
    ctx: Ctx,
    entries: Vec<(String, AuditRow)>,
    tournaments: Vec<TournamentRow>,
    selected: Option<i32>,
}

#[derive(Deserialize)]
struct Filter {
    tournament: Option<String>,
}

impl AuditPage {
    fn is_selected(&self, id: &TournamentId) -> bool {
        self.selected == Some(id.0)
    }
}

const SHOWN: i64 = 1000;

async fn list(
    state: web::Data<AppState>,
    user: User,
    filter: web::Query<Filter>,
) -> Result<HttpResponse, AppError> {
    user.0.require(Permission::ViewAudit)?;
    let selected = filter
        .tournament
        .as_deref()
        .and_then(|t| t.parse::<i32>().ok());
    let (entries, tournaments) = db(&state, move |conn| {
        Ok((
            audit::list(conn, selected.map(TournamentId), SHOWN)?,
            tournaments::list(conn)?,
        ))
    })
    .await?;
    let entries = entries
        .into_iter()
        .map(|e| (format::date_time(e.at), e))
        .collect();
    page(&AuditPage {
        ctx: user.0.ctx(),
        entries,
        tournaments,
        selected,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/audit", web::get().to(list));
}
