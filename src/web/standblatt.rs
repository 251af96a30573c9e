//! The Standblatt of a team: its Passen, visas, final visa, disqualification.

use super::auth::flash_redirect;
use super::auth::{Secured, User, gate};
use super::ctx::Ctx;
use super::passe::safe_back;
use super::render::page;
use super::state::{AppState, db};
use super::views::{opponents_cell, seat_cells, side_label, team_label};
use crate::app::{guard, team_status, visa};
use crate::db::models::{TeamRow, TournamentRow};
use crate::db::tournament_data::TournamentData;
use crate::domain::format;
use crate::domain::ids::{ResultId, TeamId, TournamentId};
use crate::domain::marathon::Details;
use crate::domain::mode::Entrant;
use crate::domain::standblatt::{
    PasseLine, RanglisteKind, Standblatt, coming_passen, counted_total, final_visa_refusal,
    struck_passen,
};
use crate::domain::streichresultat::Wertung;
use crate::domain::team::TeamStatus;
use crate::domain::withdrawal::WithdrawalPlan;
use crate::domain::withdrawal::{StatusAsk, StatusTyped, parse_status_ask};
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap};

pub struct LineView {
    pub passe: u32,
    pub table: String,
    /// Einzelschieber: the seat and the partner of this Passe.
    pub seat: String,
    pub partner: String,
    pub opponent: String,
    pub points: String,
    /// Struck by the Streichresultat (shown struck through; not in the total).
    pub struck: bool,
    pub status: &'static str,
    pub visa: String,
    /// The table to visa, when this line waits for a visa.
    pub visa_table: Option<u32>,
    pub result_id: Option<ResultId>,
}

fn line_views(
    sheet: &Standblatt,
    label_of: &dyn Fn(TeamId) -> String,
    gong_of: &dyn Fn(ResultId) -> bool,
) -> Vec<LineView> {
    sheet
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let (visa, visa_table, result_id) = match line {
                PasseLine::Gespielt {
                    visa: Some(v),
                    result,
                    ..
                } => (
                    format!("{} {}", v.by, format::date_time(v.at)),
                    None,
                    Some(*result),
                ),
                PasseLine::Gespielt {
                    visa: None,
                    table,
                    result,
                    ..
                } => (String::new(), Some(*table), Some(*result)),
                _ => (String::new(), None, None),
            };
            LineView {
                passe: index as u32 + 1,
                table: line.table().map(|t| t.to_string()).unwrap_or_default(),
                seat: String::new(),
                partner: String::new(),
                opponent: line.opponent().map(label_of).unwrap_or_default(),
                points: match line {
                    PasseLine::Pauschale { points, .. } => {
                        format!("{} (Pauschale)", format::number(i64::from(*points)))
                    }
                    PasseLine::Spielfrei { points } => {
                        format!("{} (spielfrei)", format::number(i64::from(*points)))
                    }
                    PasseLine::Gespielt { result, points, .. } if gong_of(*result) => {
                        format!("{} (inkl. Gong-Strich)", format::number(i64::from(*points)))
                    }
                    other => other
                        .points()
                        .map(|p| format::number(i64::from(p)))
                        .unwrap_or_default(),
                },
                struck: false,
                status: line.status_label(),
                visa,
                visa_table,
                result_id,
            }
        })
        .collect()
}

#[derive(Template)]
#[template(path = "standblatt.html")]
struct StandblattPage {
    ctx: Ctx,
    t: TournamentRow,
    team: TeamRow,
    label: String,
    lines: Vec<LineView>,
    total: String,
    /// "Total bisher" while a Pauschale of a coming Passe is shown but not counted yet.
    total_label: &'static str,
    /// The Streichresultat rule, if any.
    wertung: Option<String>,
    status_css: &'static str,
    final_visa: Option<String>,
    final_visa_refusal: Option<String>,
    status_text: String,
    back: String,
    passen: Vec<u32>,
    /// The Passe the disqualification form proposes: the latest one with a result.
    current_passe: u32,
}

/// Which Rangliste a sheet's total follows: the provisional one while the tournament is
/// open, the official one once it is closed; with the Passen under way and the
/// Streichresultat, so that a sheet and the Rangliste never disagree.
pub(super) struct SheetRule {
    kind: RanglisteKind,
    wertung: Wertung,
    under_way: BTreeSet<u32>,
}

impl SheetRule {
    pub(super) fn of(data: &TournamentData) -> Self {
        SheetRule {
            kind: match data.tournament.closed {
                true => RanglisteKind::Offiziell,
                false => RanglisteKind::Provisorisch,
            },
            wertung: data.tournament.wertung(),
            under_way: data.passen_under_way(),
        }
    }
    fn is_under_way(&self) -> impl Fn(u32) -> bool + '_ {
        |passe| self.under_way.contains(&passe)
    }
    /// The total as the Rangliste counts it.
    pub(super) fn total(&self, sheet: &Standblatt) -> u32 {
        counted_total(self.kind, sheet, self.wertung, &self.is_under_way())
    }
    /// Passen shown with points that do not count yet (a Pauschale of a coming Passe).
    pub(super) fn coming(&self, sheet: &Standblatt) -> Vec<u32> {
        coming_passen(self.kind, sheet, &self.is_under_way())
    }
    /// Passen struck by the Streichresultat.
    pub(super) fn struck(&self, sheet: &Standblatt) -> Vec<u32> {
        struck_passen(self.kind, sheet, self.wertung, &self.is_under_way())
    }
}

async fn show(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<(TournamentId, TeamId)>,
) -> Result<HttpResponse, AppError> {
    let (id, team) = path.into_inner();
    let data = db(&state, move |conn| Ok(guard::load(conn, id)?)).await?;
    let row = data.team(team).cloned().ok_or_else(AppError::not_found)?;
    let sheets = data.standblaetter();
    let sheet = sheets
        .iter()
        .find(|s| s.team == team)
        .ok_or_else(AppError::not_found)?;
    let labels: HashMap<TeamId, String> =
        data.teams.iter().map(|t| (t.id, team_label(t))).collect();
    let label_of = |t: TeamId| labels.get(&t).cloned().unwrap_or_default();
    // The results in which this team wrote the Gong-Strich (Striche per category).
    let gongs: std::collections::HashSet<ResultId> = data
        .results
        .iter()
        .filter_map(|r| {
            let d = Details::parse(r.details.as_deref())?;
            let ours = if r.team_a_id == team { d.a } else { d.b };
            (ours.gong > 0).then_some(r.id)
        })
        .collect();
    let gong_of = |r: ResultId| gongs.contains(&r);
    let mut lines = line_views(sheet, &label_of, &gong_of);
    // A Tafel still being written: its Striche are provisional, nothing to visa yet.
    for (line, passe_line) in lines.iter_mut().zip(&sheet.lines) {
        if let Some(table) = passe_line.table()
            && data.open_tafeln.contains(&(line.passe, table))
        {
            line.status = "Tafel läuft";
            line.points = format!("{} (provisorisch)", line.points);
            line.visa_table = None;
        }
    }
    // The same total as the Rangliste: a Pauschale of a Passe not under way is shown, but
    // counts only once that Passe begins.
    let rule = SheetRule::of(&data);
    let coming = rule.coming(sheet);
    let struck = rule.struck(sheet);
    for line in lines.iter_mut() {
        line.struck = struck.contains(&line.passe);
    }
    let round = data.tournament.mode.round();
    for line in lines.iter_mut().filter(|l| coming.contains(&l.passe)) {
        line.points = format!(
            "{} – zählt ab Beginn von {round} {}",
            line.points, line.passe
        );
    }
    if data.tournament.mode.draws_players() {
        for (line, passe_line) in lines.iter_mut().zip(&sheet.lines) {
            (line.seat, line.partner) = seat_cells(&data, line.passe, row.id);
            line.opponent = opponents_cell(&data, line.passe, row.id, passe_line, " & ");
        }
    }
    page(&StandblattPage {
        ctx: user.0.ctx().with_tournament(&data.tournament),
        label: team_label(&row),
        lines,
        total: format::number(i64::from(rule.total(sheet))),
        wertung: super::ranking::wertung_note(&data.tournament),
        total_label: if coming.is_empty() {
            "Total"
        } else {
            "Total bisher"
        },
        status_text: sheet.status.label(data.tournament.mode),
        status_css: sheet.status.css(),
        final_visa: sheet
            .final_visa
            .as_ref()
            .map(|v| format!("{} {}", v.by, format::date_time(v.at))),
        final_visa_refusal: final_visa_refusal(sheet, data.tournament.mode),
        back: format!("/tournaments/{id}/teams/{team}"),
        passen: (1..=data.tournament.passen.get()).collect(),
        current_passe: data.current_passe(),
        team: row,
        t: data.tournament,
    })
}

async fn final_visa(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
    post: Secured<HashMap<String, String>, gate::Visa>,
) -> Result<HttpResponse, AppError> {
    // The worklist comes back to where it was (an anchor of the next team).
    let back = safe_back(
        post.form
            .get("back")
            .map(String::as_str)
            .unwrap_or_default(),
        format!("/tournaments/{}/teams/{}", path.0, path.1),
    );
    let actor = post.session.actor().clone();
    let (id, team) = path.into_inner();
    db(&state, move |conn| {
        Ok(visa::final_visa(conn, &actor, id, team)?)
    })
    .await?;
    flash_redirect(&back, "Endtotal visiert.".into())
}

#[derive(Deserialize)]
struct StatusForm {
    #[serde(default)]
    action: String,
    #[serde(default)]
    passe: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    back: String,
    /// The answer to "was that Passe aborted?": "ja" or "nein".
    #[serde(default)]
    aborted: String,
    /// The tournament version the confirmation was shown at.
    #[serde(default)]
    confirm: String,
}

pub struct QuestionView {
    pub passe: u32,
    pub table: u32,
    pub opponent: String,
    pub score: String,
    pub next_passe: u32,
    pub last_passe: bool,
}

pub struct ConfirmView {
    pub version: i32,
    pub out_passe: u32,
    pub items: Vec<String>,
}

#[derive(Template)]
#[template(path = "withdrawal.html")]
struct WithdrawalPage {
    ctx: Ctx,
    t: TournamentRow,
    team: TeamRow,
    label: String,
    action: String,
    action_label: &'static str,
    passe: u32,
    reason: String,
    aborted: String,
    back: String,
    question: Option<QuestionView>,
    confirm: Option<ConfirmView>,
}

/// The lines of a confirmation: every result, visa and final visa the change removes.
fn confirm_items(
    plan: &WithdrawalPlan,
    team: TeamId,
    label_of: &dyn Fn(TeamId) -> String,
    opponents_of: &dyn Fn(u32, TeamId) -> String,
    partners: &[(u32, String)],
    round: &str,
    pauschale: u32,
) -> Vec<String> {
    let mut items = Vec::new();
    // Einzelschieber: the partner of each Passe from then on gets the Pauschale too.
    for (passe, partner) in partners {
        items.push(format!(
            "{round} {passe}: sein Partner {partner} erhält die Pauschale, wie die Gegner."
        ));
    }
    let own = plan.own_final_visa.as_ref().map(|v| (team, v.clone()));
    for r in &plan.replaced {
        items.push(format!(
            "{round} {}, Tisch {}: Resultat {} : {} gegen {} wird durch die Pauschale ({}) für {} ersetzt.",
            r.passe,
            r.table,
            format::number(i64::from(r.points)),
            format::number(i64::from(r.opponent_points)),
            opponents_of(r.passe, r.opponent),
            format::number(i64::from(pauschale)),
            opponents_of(r.passe, r.opponent),
        ));
        for (team, visa) in &r.visas {
            items.push(format!(
                "Visum {round} {} von {} entfällt ({} {}).",
                r.passe,
                label_of(*team),
                visa.by,
                format::date_time(visa.at)
            ));
        }
    }
    for (team, visa) in plan.final_visas.iter().chain(&own) {
        items.push(format!(
            "Endvisum von {} entfällt ({} {}).",
            label_of(*team),
            visa.by,
            format::date_time(visa.at)
        ));
    }
    items
}

/// Einzelschieber: the partner of the player who leaves in each drawn Passe from `from` on
/// (empty where the mode has teams).
fn partners_from(data: &TournamentData, player: TeamId, from: u32) -> Vec<(u32, String)> {
    (from..=data.drawn_passen())
        .filter_map(|passe| Some((passe, team_label(data.partner(passe, player)?))))
        .collect()
}

async fn set_status(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
    post: Secured<StatusForm, gate::Disqualify>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, team) = path.into_inner();
    let (tid, team_id) = (id, team);
    let back = safe_back(&post.form.back, format!("/tournaments/{id}/teams/{team}"));
    let form = &post.form;
    let ask = parse_status_ask(&StatusTyped {
        action: &form.action,
        passe: &form.passe,
        reason: &form.reason,
        aborted: &form.aborted,
        confirm: &form.confirm,
    })
    .map_err(AppError::BadRequest)?;
    let leaving = match ask {
        StatusAsk::Leave(leaving) => leaving,
        StatusAsk::Reinstate => {
            let restored = db(&state, move |conn| {
                Ok(team_status::reinstate(conn, &actor, tid, team_id)?)
            })
            .await?;
            let message = if restored.is_empty() {
                "Team wieder aufgenommen: seine Resultate und Visa gelten wieder.".to_string()
            } else {
                format!(
                    "Team wieder aufgenommen: seine Resultate und Visa gelten wieder; {} Endvisum/Endvisa wiederhergestellt.",
                    restored.len()
                )
            };
            return flash_redirect(&back, message);
        }
    };
    let (status, passe, reason) = (leaving.status, leaving.passe, leaving.reason.clone());
    let (outcome, data) = db(&state, move |conn| {
        let outcome = team_status::leave(conn, &actor, tid, team_id, leaving)?;
        Ok((outcome, guard::load(conn, tid)?))
    })
    .await?;
    let round = data.tournament.mode.round();
    let labels: HashMap<TeamId, String> =
        data.teams.iter().map(|t| (t.id, team_label(t))).collect();
    let label_of = |t: TeamId| labels.get(&t).cloned().unwrap_or_default();
    // The other side of a table: the team, or (Einzelschieber) both players of the pair.
    let opponents_of = |passe: u32, first: TeamId| {
        data.team(first)
            .map(|row| side_label(&data, passe, row, false))
            .unwrap_or_default()
    };
    let entrant = data.tournament.mode.entrant();
    let (question, confirm) = match outcome {
        team_status::LeaveOutcome::Done(plan) => {
            let word = if status == TeamStatus::Disqualifiziert {
                format!("{} disqualifiziert", entrant.one())
            } else {
                "Rückzug erfasst".to_string()
            };
            // Einzelschieber: the partner, not at fault, gets the Pauschale too (named).
            let partners = partners_from(&data, team_id, plan.out_passe);
            let who = match entrant {
                Entrant::Team => "seine Gegner erhalten".to_string(),
                Entrant::Player if !data.tournament.mode.plays_in_pairs() => {
                    "seine Mitspieler am Tisch erhalten".to_string()
                }
                Entrant::Player if partners.is_empty() => {
                    "sein Partner und seine Gegner erhalten".to_string()
                }
                Entrant::Player => format!(
                    "sein Partner ({}) und seine Gegner erhalten",
                    partners
                        .iter()
                        .map(|(p, name)| format!("{round} {p}: {name}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let mut message = if plan.out_passe > data.tournament.passen.get() {
                format!("{word}: seine Resultate bleiben, es wird nicht rangiert.")
            } else {
                format!("{word}: {who} ab {round} {} die Pauschale.", plan.out_passe)
            };
            for r in &plan.replaced {
                message += &format!(
                    " {round} {}, Tisch {}: Resultat durch die Pauschale ersetzt.",
                    r.passe, r.table
                );
            }
            return flash_redirect(&back, message);
        }
        team_status::LeaveOutcome::Question(q) => (
            Some(QuestionView {
                passe: q.passe,
                table: q.table,
                opponent: opponents_of(q.passe, q.opponent),
                score: format!(
                    "{} : {}",
                    format::number(i64::from(q.points)),
                    format::number(i64::from(q.opponent_points))
                ),
                next_passe: q.passe + 1,
                last_passe: q.passe >= data.tournament.passen.get(),
            }),
            None,
        ),
        team_status::LeaveOutcome::Confirm { plan, version } => (
            None,
            Some(ConfirmView {
                version,
                out_passe: plan.out_passe,
                items: confirm_items(
                    &plan,
                    team_id,
                    &label_of,
                    &opponents_of,
                    &partners_from(&data, team_id, plan.out_passe),
                    round,
                    data.tournament.pauschale.get(),
                ),
            }),
        ),
    };
    let row = data
        .team(team_id)
        .cloned()
        .ok_or_else(AppError::not_found)?;
    page(&WithdrawalPage {
        ctx: post.session.ctx().with_tournament(&data.tournament),
        label: team_label(&row),
        team: row,
        action: post.form.action.clone(),
        action_label: if status == TeamStatus::Disqualifiziert {
            "Disqualifikation"
        } else {
            "Rückzug"
        },
        passe,
        reason: reason.unwrap_or_default(),
        aborted: post.form.aborted.clone(),
        back,
        question,
        confirm,
        t: data.tournament,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/teams/{team}", web::get().to(show))
        .route(
            "/tournaments/{id}/teams/{team}/final-visa",
            web::post().to(final_visa),
        )
        .route(
            "/tournaments/{id}/teams/{team}/status",
            web::post().to(set_status),
        );
}
