//! Categories: the list of a tournament and each one's rule (Leitung) and a table of
//! checkboxes for which team belongs to which (Büro).

use super::auth::{Permitted, Secured, flash_redirect, gate};
use super::ctx::Ctx;
use super::render::page_with;
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::categories::{RuleInput, Saved};
use crate::app::{self, guard};
use crate::db::models::TournamentRow;
use crate::domain::category::{PRESETS, RuleKind, rule_scope};
use crate::domain::form::FieldErrors;
use crate::domain::ids::{CategoryId, TeamId, TournamentId};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub struct MemberRow {
    pub team: TeamId,
    pub label: String,
    /// Per category of the list: (category id, member, set by the office against the
    /// category's rule).
    pub cells: Vec<(CategoryId, bool, bool)>,
}

/// A category's line of the rules form.
pub struct RuleRow {
    pub id: CategoryId,
    pub name: String,
    /// The chosen kind's key.
    pub kind: String,
    pub year: String,
}

/// What the rules form sent, to show it again beside its message.
type RuleEcho = HashMap<CategoryId, (String, String)>;

#[derive(Template)]
#[template(path = "categories.html")]
struct CategoriesPage {
    ctx: Ctx,
    t: TournamentRow,
    names: String,
    errors: FieldErrors,
    /// Id, name and the rule in words.
    categories: Vec<(CategoryId, String, String)>,
    rules: Vec<RuleRow>,
    rule_errors: FieldErrors,
    kinds: Vec<(&'static str, &'static str)>,
    rows: Vec<MemberRow>,
    presets: String,
    /// How a rule makes a member, for this mode's entrants.
    rule_scope: &'static str,
}

/// What the page shows beside a form sent back.
#[derive(Default)]
struct Sent {
    names: Option<String>,
    errors: FieldErrors,
    rules: Option<RuleEcho>,
    rule_errors: FieldErrors,
}

async fn categories_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    sent: Sent,
) -> Result<HttpResponse, AppError> {
    let Sent {
        names,
        errors,
        rules: echo,
        rule_errors,
    } = sent;
    let data = db(state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let c = &data.categories;
    let categories: Vec<(CategoryId, String, String)> = c
        .list
        .iter()
        .map(|x| (x.id, x.name.clone(), x.rule.describe()))
        .collect();
    let rows = data
        .teams
        .iter()
        .map(|team| MemberRow {
            team: team.id,
            label: team_label(team),
            cells: c
                .list
                .iter()
                .map(|x| (x.id, c.is_member(team.id, x.id), c.against_rule(team.id, x)))
                .collect(),
        })
        .collect();
    let rules = c
        .list
        .iter()
        .map(|x| {
            let (kind, year) = echo
                .as_ref()
                .and_then(|e| e.get(&x.id).cloned())
                .unwrap_or_else(|| {
                    let year = x.rule.year().map(|y| y.to_string()).unwrap_or_default();
                    (x.rule.kind().key().to_string(), year)
                });
            RuleRow {
                id: x.id,
                name: x.name.clone(),
                kind,
                year,
            }
        })
        .collect();
    let status = match errors.is_empty() && rule_errors.is_empty() {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &CategoriesPage {
            ctx: ctx.with_tournament(&data.tournament),
            names: names.unwrap_or_else(|| {
                categories
                    .iter()
                    .map(|(_, n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
            }),
            errors,
            categories,
            rules,
            rule_errors,
            kinds: RuleKind::ALL.iter().map(|k| (k.key(), k.label())).collect(),
            rows,
            presets: PRESETS.join(", "),
            rule_scope: rule_scope(data.tournament.mode.entrant()),
            t: data.tournament,
        },
        status,
    )
}

async fn show(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTeams>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let ctx = user.session.ctx();
    categories_page(&state, ctx, path.into_inner(), Sent::default()).await
}

#[derive(Deserialize)]
struct ListForm {
    #[serde(default)]
    categories: String,
}

async fn save_list(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<ListForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = post.session.actor().clone();
    let raw = post.form.categories.clone();
    let saved = db(&state, move |conn| {
        Ok(app::categories::save_list(conn, &actor, id, &raw)?)
    })
    .await?;
    match saved {
        Saved::Done => flash_redirect(
            &format!("/tournaments/{id}/kategorien"),
            "Kategorien gespeichert.".into(),
        ),
        Saved::Invalid(errors) => {
            let sent = Sent {
                names: Some(post.form.categories.clone()),
                errors,
                ..Sent::default()
            };
            categories_page(&state, post.session.ctx(), id, sent).await
        }
    }
}

/// The checkboxes: `m_<team>_<category>` for every ticked one.
fn ticked(form: &HashMap<String, String>) -> Result<Vec<(TeamId, CategoryId)>, AppError> {
    form.keys()
        .filter_map(|k| k.strip_prefix("m_"))
        .map(|rest| {
            let (team, category) = rest.split_once('_').unwrap_or((rest, ""));
            match (team.parse(), category.parse()) {
                (Ok(t), Ok(c)) => Ok((TeamId(t), CategoryId(c))),
                _ => Err(AppError::BadRequest(
                    "Ungültiges Kästchen im Formular.".into(),
                )),
            }
        })
        .collect()
}

async fn save_members(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<HashMap<String, String>, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let mut pairs = ticked(&post.form)?;
    pairs.sort();
    pairs.dedup();
    let actor = post.session.actor().clone();
    db(&state, move |conn| {
        Ok(app::categories::save_members(conn, &actor, id, &pairs)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/kategorien"),
        "Kategorien der Teams gespeichert.".into(),
    )
}

/// The rules form: `rule_<category>` (a kind's key) and `year_<category>`.
fn rules_sent(form: &HashMap<String, String>) -> Result<Vec<RuleInput>, AppError> {
    let mut out = Vec::new();
    for (key, kind) in form {
        let Some(id) = key.strip_prefix("rule_") else {
            continue;
        };
        let category = id
            .parse()
            .map(CategoryId)
            .map_err(|_| AppError::BadRequest("Ungültige Regel im Formular.".into()))?;
        let year = form.get(&format!("year_{id}")).cloned().unwrap_or_default();
        out.push(RuleInput {
            category,
            kind: kind.clone(),
            year,
        });
    }
    out.sort_by_key(|r| r.category);
    Ok(out)
}

async fn save_rules(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<HashMap<String, String>, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let input = rules_sent(&post.form)?;
    let echo: RuleEcho = input
        .iter()
        .map(|r| (r.category, (r.kind.clone(), r.year.clone())))
        .collect();
    let actor = post.session.actor().clone();
    let saved = db(&state, move |conn| {
        Ok(app::categories::save_rules(conn, &actor, id, &input)?)
    })
    .await?;
    match saved {
        Saved::Done => flash_redirect(
            &format!("/tournaments/{id}/kategorien"),
            "Regeln der Kategorien gespeichert.".into(),
        ),
        Saved::Invalid(rule_errors) => {
            let sent = Sent {
                rules: Some(echo),
                rule_errors,
                ..Sent::default()
            };
            categories_page(&state, post.session.ctx(), id, sent).await
        }
    }
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/kategorien", web::get().to(show))
        .route("/tournaments/{id}/kategorien", web::post().to(save_list))
        .route(
            "/tournaments/{id}/kategorien/mitglieder",
            web::post().to(save_members),
        )
        .route(
            "/tournaments/{id}/kategorien/regeln",
            web::post().to(save_rules),
        );
}
