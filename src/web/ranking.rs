//! The Rangliste: the HTML page and the shared view that PDF, CSV and JSON print.

use super::auth::MaybeUser;
use super::ctx::Ctx;
use super::render::page;
use super::state::{AppState, db};
use super::views::team_label;
use crate::app::guard;
use crate::db::models::{TeamRow, TournamentRow};
use crate::db::tournament_data::TournamentData;
use crate::domain::category::category_ranks;
use crate::domain::format;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::standblatt::{PointsKind, RanglisteKind, RankStatus, Score, Section, rangliste};
use crate::domain::vereinswertung::{Member, vereinswertung_by};
use crate::web::error::AppError;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

pub struct RowView {
    pub rank: Option<u32>,
    pub team: TeamRow,
    pub label: String,
    /// What counts per Passe, with its kind (gespielt, Pauschale, spielfrei).
    pub scores: Vec<Option<Score>>,
    /// Per Passe: struck by the Streichresultat.
    pub struck: Vec<bool>,
    pub total: u32,
    pub status: RankStatus,
    /// Behind the row before on equal total: "Stichentscheid: beste Passe 1'174 / 1'170".
    pub tie: Option<String>,
}

/// One Passe cell of a Rangliste row: points and, for a Pauschale or bye, its mark.
pub struct CellView {
    /// "660 P": points and mark, for pages and exports.
    pub text: String,
    /// The points alone and the mark alone, for narrow columns (the live page's beamer
    /// prints the mark small).
    pub points: String,
    pub mark: &'static str,
    pub kind: Option<PointsKind>,
    /// Struck by the Streichresultat: shown struck through, not in the total.
    pub struck: bool,
}

impl CellView {
    pub fn css(&self) -> String {
        let kind = self.kind.map_or("", PointsKind::key);
        match self.struck {
            true if kind.is_empty() => STRUCK_CSS.into(),
            true => format!("{kind} {STRUCK_CSS}"),
            false => kind.into(),
        }
    }
    pub fn title(&self) -> String {
        let kind = self.kind.map_or("", PointsKind::label);
        match self.struck {
            true if kind.is_empty() => STRUCK_TITLE.into(),
            true => format!("{kind}, {STRUCK_TITLE}"),
            false => kind.into(),
        }
    }
    /// Whether the cell needs a title (a mark or a struck Passe to explain).
    pub fn explained(&self) -> bool {
        self.kind.is_some() || self.struck
    }
}

/// The class of a struck Passe (style.css strikes it through) and its tooltip.
const STRUCK_CSS: &str = "gestrichen";
const STRUCK_TITLE: &str = "Streichresultat: zählt nicht";

impl RowView {
    pub fn rank_text(&self) -> String {
        self.rank.map(|r| format!("{r}.")).unwrap_or_default()
    }
    pub fn players(&self) -> String {
        format!("{} / {}", self.team.player1, self.team.player2)
    }
    /// The players column: empty where the team has no name (its label is the players).
    pub fn players_column(&self) -> String {
        match self.team.name.as_deref() {
            Some(name) if !name.is_empty() => self.players(),
            _ => String::new(),
        }
    }
    /// "660 P" for a Pauschale, "660 s" for a bye, the points otherwise.
    pub fn passen_text(&self) -> Vec<String> {
        self.cells().into_iter().map(|c| c.text).collect()
    }
    pub fn cells(&self) -> Vec<CellView> {
        self.scores
            .iter()
            .zip(self.struck.iter().copied().chain(std::iter::repeat(false)))
            .map(|(score, struck)| match score {
                Some(s) => {
                    let points = format::number(i64::from(s.points));
                    let mark = s.kind.mark();
                    CellView {
                        text: if mark.is_empty() {
                            points.clone()
                        } else {
                            format!("{points} {mark}")
                        },
                        points,
                        mark,
                        kind: (s.kind != PointsKind::Gespielt).then_some(s.kind),
                        struck,
                    }
                }
                None => CellView {
                    text: String::new(),
                    points: String::new(),
                    mark: "",
                    kind: None,
                    struck: false,
                },
            })
            .collect()
    }
    /// The cells of the first `n` Passen.
    pub fn cells_until(&self, n: &usize) -> Vec<CellView> {
        self.cells().into_iter().take(*n).collect()
    }
    pub fn has_marks(&self) -> bool {
        self.scores
            .iter()
            .flatten()
            .any(|s| s.kind != PointsKind::Gespielt)
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

/// Whether any row shows a Pauschale or bye mark (then the legend is printed).
pub fn any_marks(sections: &[SectionView]) -> bool {
    sections
        .iter()
        .flat_map(|s| &s.rows)
        .any(RowView::has_marks)
}

/// The legend to the marks, the same on page, PDF and live page.
pub const MARKS_LEGEND: &str = "P = Pauschale, s = spielfrei";

/// The Streichresultat rule as printed under the Rangliste ("Gewertet: die 3 besten von 4
/// Passen; gestrichene Passen sind durchgestrichen"); None when every Passe counts.
pub fn wertung_note(t: &TournamentRow) -> Option<String> {
    t.wertung()
        .text(t.passen.get(), t.mode.rounds())
        .map(|rule| {
            format!(
                "{rule}; gestrichene {} sind durchgestrichen.",
                t.mode.rounds()
            )
        })
}

/// The ranked rows of a Rangliste, in order (what categories and clubs are made of).
pub fn ranked_rows(sections: &[SectionView]) -> Vec<&RowView> {
    sections
        .iter()
        .filter(|s| s.ranked())
        .flat_map(|s| &s.rows)
        .filter(|r| r.rank.is_some())
        .collect()
}

/// One category's Rangliste: its name and its members' ranks within it, each with the
/// member's index in [`ranked_rows`].
pub struct CategoryRanking {
    pub name: String,
    pub members: Vec<(u32, usize)>,
}

/// The Rangliste of every category of the tournament, in the list's order.
pub fn category_rankings(data: &TournamentData, sections: &[SectionView]) -> Vec<CategoryRanking> {
    let ranked = ranked_rows(sections);
    let overall: Vec<(usize, u32)> = ranked
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.rank?)))
        .collect();
    let c = &data.categories;
    c.list
        .iter()
        .map(|category| CategoryRanking {
            name: category.name.clone(),
            members: category_ranks(&overall, |i| c.is_member(ranked[i].team.id, category.id))
                .into_iter()
                .map(|(i, rank)| (rank, i))
                .collect(),
        })
        .collect()
}

/// A category's table on the Rangliste page.
pub struct CategoryView {
    pub name: String,
    pub rows: Vec<CategoryRowView>,
}

pub struct CategoryRowView {
    pub rank: u32,
    pub team: TeamRow,
    pub label: String,
    pub total: String,
}

/// A club in the Vereinswertung, print-ready.
pub struct ClubView {
    pub rank: u32,
    pub club: String,
    pub total: String,
    pub points: u64,
    /// The teams that counted with their totals: "2 Die Schellen-Asse 3'712 · 7 …".
    pub counted: String,
    pub startnummern: Vec<u32>,
}

/// The Vereinswertung over the ranked teams of the Rangliste, when the tournament has one:
/// the rule in words and the clubs.
pub fn club_ranking(
    t: &TournamentRow,
    sections: &[SectionView],
) -> Option<(String, Vec<ClubView>)> {
    let n = t.club_best?.get();
    let ranked = ranked_rows(sections);
    let members: Vec<Member<usize>> = ranked
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            Some(Member {
                club: r.team.club.clone()?,
                key: i,
                total: r.total,
            })
        })
        .collect();
    let better = t.mode.facts().better;
    let clubs = vereinswertung_by(&members, usize::try_from(n).unwrap_or(usize::MAX), better)
        .into_iter()
        .map(|c| ClubView {
            rank: c.rank,
            total: format::number(i64::try_from(c.total).unwrap_or(i64::MAX)),
            points: c.total,
            counted: c
                .counted
                .iter()
                .map(|(i, total)| {
                    format!("{} {}", ranked[*i].label, format::number(i64::from(*total)))
                })
                .collect::<Vec<_>>()
                .join(" · "),
            startnummern: c
                .counted
                .iter()
                .map(|(i, _)| ranked[*i].team.startnummer.get())
                .collect(),
            club: c.club,
        })
        .collect();
    let rule = format!(
        "Vereinswertung: es zählen die besten {n} {} jedes Vereins",
        match n {
            1 => t.mode.entrant().one(),
            _ => t.mode.entrant().many(),
        }
    );
    Some((rule, clubs))
}

/// The lines under a Rangliste: the Streichresultat rule, the legend to the marks.
pub fn notes(t: &TournamentRow, sections: &[SectionView]) -> Vec<String> {
    wertung_note(t)
        .into_iter()
        .chain(any_marks(sections).then(|| MARKS_LEGEND.to_string()))
        .collect()
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
    let under_way = data.passen_under_way();
    let mut sections: Vec<SectionView> = Vec::new();
    let wertung = data.tournament.wertung();
    let better = data.tournament.mode.facts().better;
    for row in rangliste(kind, &sheets, wertung, &|p| under_way.contains(&p), better) {
        let Some(team) = teams.get(&row.sheet.team) else {
            continue;
        };
        let view = RowView {
            rank: row.rank,
            label: team_label(team),
            team: (*team).clone(),
            scores: row.scores,
            struck: row.struck,
            total: row.total,
            status: row.status,
            tie: row.tie.map(|t| t.text(data.tournament.mode.round())),
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
    marks: bool,
    legend: &'static str,
    /// The Streichresultat rule, if any.
    wertung: Option<String>,
    /// The Vereinswertung's rule and clubs, if the tournament has one.
    clubs: Option<(String, Vec<ClubView>)>,
    /// One table per category of the tournament.
    categories: Vec<CategoryView>,
    /// The tournament's date and place under its name (the public page has no menu that
    /// names it).
    when_where: String,
}

#[derive(Deserialize)]
pub struct RankingQuery {
    pub official: Option<String>,
}

async fn show(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<TournamentId>,
    query: web::Query<RankingQuery>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    served(&state, &user, id, "html", &query, || {
        make_page(&state, &user, id, &query)
    })
    .await
}

/// A public Rangliste format (`html`, `pdf`, `csv`, `json`): anonymous visitors get it from
/// the public cache, rendered once per version, format and official/provisional; logged-in
/// users get it made fresh by `make`.
pub(super) async fn served<F, Fut>(
    state: &web::Data<AppState>,
    user: &MaybeUser,
    id: TournamentId,
    format: &str,
    query: &RankingQuery,
    make: F,
) -> Result<HttpResponse, AppError>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Result<HttpResponse, AppError>>,
{
    let key = format!("{format}{}", query.official.is_some());
    super::public_cache::serve(
        (&state.live, &state.public_cache),
        user.0.is_none(),
        id,
        key,
        make,
    )
    .await
}

async fn make_page(
    state: &web::Data<AppState>,
    user: &MaybeUser,
    id: TournamentId,
    query: &RankingQuery,
) -> Result<HttpResponse, AppError> {
    let data = db(state, move |conn| Ok(guard::load(conn, id)?)).await?;
    ensure_visible(&data, user)?;
    let official = data.tournament.closed || query.official.is_some();
    let sections = ranking_view(&data, official);
    let ctx = match &user.0 {
        Some(session) => session.ctx().with_tournament(&data.tournament),
        None => Ctx::anonymous(),
    };
    page(&RankingPage {
        ctx,
        official,
        passen: (1..=data.tournament.passen.get()).collect(),
        marks: any_marks(&sections),
        legend: MARKS_LEGEND,
        wertung: wertung_note(&data.tournament),
        clubs: club_ranking(&data.tournament, &sections),
        categories: {
            let ranked = ranked_rows(&sections);
            category_rankings(&data, &sections)
                .into_iter()
                .map(|c| CategoryView {
                    name: c.name,
                    rows: c
                        .members
                        .into_iter()
                        .map(|(rank, i)| CategoryRowView {
                            rank,
                            team: ranked[i].team.clone(),
                            label: ranked[i].label.clone(),
                            total: ranked[i].total_text(),
                        })
                        .collect(),
                })
                .collect()
        },
        sections,
        when_where: [
            crate::domain::format::date(data.tournament.date),
            data.tournament.location.clone(),
        ]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", "),
        t: data.tournament,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/ranking", web::get().to(show));
}
