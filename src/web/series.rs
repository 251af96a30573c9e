//! The Jass-Cup's pages: the series (Leitung makes and sets them up), the standings and a
//! person's results in a series (public, followed live), CSV and JSON.

use super::auth::{MaybeUser, Permitted, Secured, flash_redirect, gate};
use super::ctx::Ctx;
use super::prints::{excel_csv, file, made, pdf};
use super::render::{page, page_with};
use super::state::{AppState, db};
use crate::app::series::{
    EventInfo, Saved, SeriesEntrant, SeriesRow, SeriesStandings, SeriesTournament,
};
use crate::app::{self};
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::{PersonId, SeriesId, TournamentId};
use crate::domain::series::{
    PRESETS, PointsKind, QualificationKind, SeriesForm, Standing, Unit, cut_after,
};
use crate::pdf::Header;
use crate::pdf::documents::{SeriesLine, gesamtwertung};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

fn ctx_of(user: &MaybeUser) -> Ctx {
    match &user.0 {
        Some(session) => session.ctx(),
        None => Ctx::anonymous(),
    }
}

#[derive(Template)]
#[template(path = "series_list.html")]
struct ListPage {
    ctx: Ctx,
    series: Vec<SeriesRow>,
    presets: Vec<(&'static str, &'static str)>,
    errors: FieldErrors,
    new_name: String,
    new_season: String,
}

async fn list_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    errors: FieldErrors,
    name: String,
    season: String,
) -> Result<HttpResponse, AppError> {
    let series = db(state, move |conn| Ok(app::series::list(conn)?)).await?;
    let status = match errors.is_empty() {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &ListPage {
            ctx,
            series,
            presets: PRESETS.to_vec(),
            errors,
            new_name: name,
            new_season: season,
        },
        status,
    )
}

async fn list(state: web::Data<AppState>, user: MaybeUser) -> Result<HttpResponse, AppError> {
    list_page(
        &state,
        ctx_of(&user),
        FieldErrors::new(),
        String::new(),
        String::new(),
    )
    .await
}

#[derive(Deserialize)]
struct NewForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    season: String,
    #[serde(default)]
    preset: String,
}

async fn create(
    state: web::Data<AppState>,
    post: Secured<NewForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let f = &post.form;
    let form = SeriesForm::preset(&f.preset, &f.name, &f.season);
    let actor = post.session.actor().clone();
    let saved = db(&state, move |conn| {
        Ok(app::series::save(conn, &actor, None, &form)?)
    })
    .await?;
    match saved {
        Saved::Done(id) => flash_redirect(
            &format!("/serien/{id}/einstellungen"),
            "Serie angelegt: jetzt die Turniere wählen.".into(),
        ),
        Saved::Invalid(errors) => {
            let (name, season) = (f.name.clone(), f.season.clone());
            list_page(&state, post.session.ctx(), errors, name, season).await
        }
    }
}

/// A line of the standings, ready to show.
pub struct StandingView {
    pub rank: String,
    pub entrant: String,
    pub names: String,
    pub clubs: String,
    pub person: PersonId,
    pub total: String,
    /// Per result in date order: points, struck, provisional.
    pub results: Vec<(String, bool, bool)>,
    pub participations: usize,
    pub qualified: bool,
    /// The cut line is drawn under this line.
    pub cut_below: bool,
    pub provisional: bool,
}

fn entrant_key(e: &SeriesEntrant) -> String {
    match e {
        SeriesEntrant::Person(p) => p.to_string(),
        SeriesEntrant::Pair(a, b) => format!("{a}-{b}"),
    }
}

fn views(s: &SeriesStandings) -> Vec<StandingView> {
    let name = |p: &PersonId| {
        s.persons
            .get(p)
            .map(|r| format!("{} {}", r.vorname, r.name).trim().to_string())
            .unwrap_or_else(|| "gelöscht".into())
    };
    let club = |p: &PersonId| s.persons.get(p).and_then(|r| r.verein.clone());
    let mut out: Vec<StandingView> = s
        .rows
        .iter()
        .map(|row: &Standing<SeriesEntrant>| {
            let persons = row.entrant.persons();
            let mut clubs: Vec<String> = persons.iter().filter_map(club).collect();
            clubs.dedup();
            StandingView {
                rank: row.rank.map_or_else(|| "–".into(), |r| format!("{r}.")),
                entrant: entrant_key(&row.entrant),
                names: persons.iter().map(name).collect::<Vec<_>>().join(" / "),
                clubs: clubs.join(" / "),
                person: persons.first().copied().unwrap_or(PersonId(0)),
                total: format::number(i64::from(row.total)),
                results: row
                    .results
                    .iter()
                    .map(|r| {
                        (
                            format::number(i64::from(r.points)),
                            !r.counted,
                            r.provisional,
                        )
                    })
                    .collect(),
                participations: row.participations(),
                qualified: row.qualified,
                cut_below: false,
                provisional: row.provisional,
            }
        })
        .collect();
    if let Some(last) = cut_after(&s.series.settings.rule, &s.rows) {
        out[last].cut_below = true;
    }
    out
}

pub struct EventView {
    pub info: EventInfo,
    pub date: String,
}

#[derive(Template)]
#[template(path = "series.html")]
struct StandingsPage {
    ctx: Ctx,
    id: SeriesId,
    name: String,
    season: String,
    rule: String,
    events: Vec<EventView>,
    rows: Vec<StandingView>,
    version: String,
    any_provisional: bool,
    /// A tournament of the series is still open.
    any_open: bool,
    /// Only closed tournaments shown (`?offiziell=1`).
    official: bool,
}

#[derive(Template)]
#[template(path = "series_table.html")]
struct StandingsTable {
    id: SeriesId,
    rows: Vec<StandingView>,
    version: String,
    official: bool,
}

/// `?offiziell=1`: only closed tournaments count (the official standings).
#[derive(Deserialize, Default)]
struct Which {
    #[serde(default)]
    offiziell: Option<String>,
    #[serde(default)]
    v: String,
}

impl Which {
    fn official(&self) -> bool {
        self.offiziell.is_some()
    }
}

async fn standings(
    state: &web::Data<AppState>,
    id: SeriesId,
    official: bool,
) -> Result<SeriesStandings, AppError> {
    db(state, move |conn| {
        Ok(app::series::standings_of(conn, id, !official)?)
    })
    .await
}

async fn show(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<SeriesId>,
    which: web::Query<Which>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let official = which.official();
    let s = standings(&state, id, official).await?;
    let rows = views(&s);
    let settings = &s.series.settings;
    page(&StandingsPage {
        ctx: ctx_of(&user),
        id,
        name: settings.name.clone(),
        season: settings.season.clone(),
        rule: settings.rule.describe(),
        events: s
            .events
            .iter()
            .map(|e| EventView {
                date: format::date(e.date),
                info: e.clone(),
            })
            .collect(),
        any_provisional: s.rows.iter().any(|r| r.provisional),
        any_open: s.events.iter().any(|e| !e.official),
        official,
        rows,
        version: s.version.clone(),
    })
}

/// The table alone, for the live page: 204 while nothing changed since `v`.
async fn table(
    state: web::Data<AppState>,
    path: web::Path<SeriesId>,
    which: web::Query<Which>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let version = db(&state, move |conn| Ok(app::series::version(conn, id)?)).await?;
    if version == which.v {
        return Ok(HttpResponse::NoContent().finish());
    }
    let official = which.official();
    let s = standings(&state, id, official).await?;
    page(&StandingsTable {
        id,
        rows: views(&s),
        version: s.version.clone(),
        official,
    })
}

#[derive(Template)]
#[template(path = "series_settings.html")]
struct SettingsPage {
    ctx: Ctx,
    id: SeriesId,
    form: SeriesForm,
    errors: FieldErrors,
    points: Vec<(&'static str, &'static str)>,
    units: Vec<(&'static str, &'static str)>,
    qualifications: Vec<(&'static str, &'static str)>,
    /// Every tournament: id, name, date, in the series, final.
    tournaments: Vec<(TournamentId, String, String, bool, bool)>,
    /// Accepted halls: name, fingerprint.
    halls: Vec<(String, String)>,
    /// Reports taken: when, what changed.
    reports: Vec<(String, String)>,
}

async fn settings_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: SeriesId,
    form: Option<SeriesForm>,
    errors: FieldErrors,
) -> Result<HttpResponse, AppError> {
    let (row, chosen, all, halls, reports) = db(state, move |conn| {
        let row = app::series::series(conn, id)?;
        let chosen = crate::app::series::tournaments(conn, id)?;
        let all = app::read::tournaments(conn)?;
        let halls: Vec<(String, String)> = app::reports::halls(conn, id)?
            .into_iter()
            .map(|(h, fingerprint)| (h.hall_name, fingerprint))
            .collect();
        let reports: Vec<(String, String)> = app::reports::taken_reports(conn, id)?
            .into_iter()
            .map(|r| (format::date_time(r.imported_at), r.summary))
            .collect();
        Ok((row, chosen, all, halls, reports))
    })
    .await?;
    let tournaments = all
        .into_iter()
        .map(|t| {
            let chosen = chosen.iter().find(|c| c.tournament == t.id);
            (
                t.id,
                t.name,
                format::date(t.date),
                chosen.is_some(),
                chosen.is_some_and(|c| c.is_final),
            )
        })
        .collect();
    let status = match errors.is_empty() {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &SettingsPage {
            ctx,
            id,
            form: form.unwrap_or_else(|| SeriesForm::of(&row.settings)),
            errors,
            points: PointsKind::ALL
                .iter()
                .map(|k| (k.key(), k.label()))
                .collect(),
            units: Unit::ALL.iter().map(|k| (k.key(), k.label())).collect(),
            qualifications: QualificationKind::ALL
                .iter()
                .map(|k| (k.key(), k.label()))
                .collect(),
            tournaments,
            halls,
            reports,
        },
        status,
    )
}

async fn settings(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<SeriesId>,
) -> Result<HttpResponse, AppError> {
    let ctx = user.session.ctx();
    settings_page(&state, ctx, path.into_inner(), None, FieldErrors::new()).await
}

async fn save_settings(
    state: web::Data<AppState>,
    path: web::Path<SeriesId>,
    post: Secured<SeriesForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let form = post.form.clone();
    let actor = post.session.actor().clone();
    let saved = db(&state, move |conn| {
        Ok(app::series::save(conn, &actor, Some(id), &form)?)
    })
    .await?;
    match saved {
        Saved::Done(_) => flash_redirect(
            &format!("/serien/{id}/einstellungen"),
            "Serie gespeichert.".into(),
        ),
        Saved::Invalid(errors) => {
            let form = Some(post.form.clone());
            settings_page(&state, post.session.ctx(), id, form, errors).await
        }
    }
}

/// The tournaments form: `t_<id>` for each one in the series, `final_<id>` for a final.
fn tournaments_sent(form: &HashMap<String, String>) -> Result<Vec<SeriesTournament>, AppError> {
    let mut out = Vec::new();
    for key in form.keys() {
        let Some(id) = key.strip_prefix("t_") else {
            continue;
        };
        let tournament = id
            .parse()
            .map(TournamentId)
            .map_err(|_| AppError::BadRequest("Ungültiges Turnier im Formular.".into()))?;
        out.push(SeriesTournament {
            tournament,
            is_final: form.contains_key(&format!("final_{id}")),
        });
    }
    out.sort_by_key(|t| t.tournament);
    Ok(out)
}

async fn save_tournaments(
    state: web::Data<AppState>,
    path: web::Path<SeriesId>,
    post: Secured<HashMap<String, String>, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let list = tournaments_sent(&post.form)?;
    let actor = post.session.actor().clone();
    db(&state, move |conn| {
        Ok(app::series::set_tournaments(conn, &actor, id, &list)?)
    })
    .await?;
    flash_redirect(
        &format!("/serien/{id}/einstellungen"),
        "Turniere der Serie gespeichert.".into(),
    )
}

/// The standings as a file (public): one line per entrant.
#[derive(Serialize)]
struct StandingsJson<'a> {
    /// Only closed tournaments counted (`?offiziell=1`).
    official: bool,
    series: &'a str,
    season: &'a str,
    rule: String,
    tournaments: Vec<TournamentJson<'a>>,
    standings: Vec<EntrantJson>,
}

#[derive(Serialize)]
struct TournamentJson<'a> {
    name: &'a str,
    date: String,
    is_final: bool,
    official: bool,
}

#[derive(Serialize)]
struct EntrantJson {
    rank: Option<u32>,
    names: String,
    clubs: String,
    total: u32,
    participations: usize,
    qualified: bool,
    provisional: bool,
    results: Vec<ResultJson>,
}

#[derive(Serialize)]
struct ResultJson {
    tournament: usize,
    rank: u32,
    points: u32,
    counted: bool,
    provisional: bool,
}

async fn export(
    state: web::Data<AppState>,
    path: web::Path<(SeriesId, String)>,
    which: web::Query<Which>,
) -> Result<HttpResponse, AppError> {
    let (id, format) = path.into_inner();
    let official = which.official();
    let s = standings(&state, id, official).await?;
    let shown = views(&s);
    let settings = &s.series.settings;
    let file_name = |extension: &str| {
        format::file_name(
            &["Gesamtwertung", &settings.name, &settings.season],
            extension,
        )
    };
    match format.as_str() {
        "csv" => {
            let mut header: Vec<String> = ["rang", "name", "verein", "total", "teilnahmen"]
                .map(String::from)
                .to_vec();
            header.extend(
                s.events
                    .iter()
                    .map(|e| format!("{} {}", format::date(e.date), e.name)),
            );
            header.push("qualifiziert".into());
            let rows = s
                .rows
                .iter()
                .zip(&shown)
                .map(|(row, view)| {
                    let mut line = vec![
                        row.rank.map(|r| r.to_string()).unwrap_or_default(),
                        view.names.clone(),
                        view.clubs.clone(),
                        row.total.to_string(),
                        row.participations().to_string(),
                    ];
                    line.extend(s.events.iter().enumerate().map(|(i, _)| {
                        match row.results.iter().find(|r| r.event == i) {
                            Some(r) if r.counted => r.points.to_string(),
                            Some(r) => format!("({})", r.points),
                            None => String::new(),
                        }
                    }));
                    line.push(if row.qualified { "ja" } else { "" }.into());
                    line
                })
                .collect();
            Ok(file(
                excel_csv(header, rows)?,
                "text/csv; charset=utf-8",
                &file_name("csv"),
            ))
        }
        "json" => {
            let doc = StandingsJson {
                official,
                series: &settings.name,
                season: &settings.season,
                rule: settings.rule.describe(),
                tournaments: s
                    .events
                    .iter()
                    .map(|e| TournamentJson {
                        name: &e.name,
                        date: e.date.to_string(),
                        is_final: e.is_final,
                        official: e.official,
                    })
                    .collect(),
                standings: s
                    .rows
                    .iter()
                    .zip(&shown)
                    .map(|(row, view)| EntrantJson {
                        rank: row.rank,
                        names: view.names.clone(),
                        clubs: view.clubs.clone(),
                        total: row.total,
                        participations: row.participations(),
                        qualified: row.qualified,
                        provisional: row.provisional,
                        results: row
                            .results
                            .iter()
                            .map(|r| ResultJson {
                                tournament: r.event,
                                rank: r.rank,
                                points: r.points,
                                counted: r.counted,
                                provisional: r.provisional,
                            })
                            .collect(),
                    })
                    .collect(),
            };
            let bytes =
                serde_json::to_vec_pretty(&doc).map_err(|e| AppError::Internal(e.to_string()))?;
            Ok(file(
                bytes,
                "application/json; charset=utf-8",
                &file_name("json"),
            ))
        }
        "pdf" => {
            let lines: Vec<SeriesLine> = shown
                .iter()
                .map(|v| SeriesLine {
                    rank: v.rank.clone(),
                    names: v.names.clone(),
                    clubs: v.clubs.clone(),
                    total: format!("{}{}", v.total, if v.provisional { "*" } else { "" }),
                    results: v
                        .results
                        .iter()
                        .map(|(p, struck, _)| match struck {
                            true => format!("({p})"),
                            false => p.clone(),
                        })
                        .collect::<Vec<_>>()
                        .join(" · "),
                    qualified: v.qualified,
                })
                .collect();
            let header = Header {
                title: format!("{} {}", settings.name, settings.season),
                subtitle: match official {
                    true => "Gesamtwertung (offiziell)".into(),
                    false => "Gesamtwertung".into(),
                },
                footer: format!("gedruckt {}", format::date_time(crate::app::read::now())),
            };
            let rule = settings.rule.describe();
            let bytes = made(move || gesamtwertung(header, &rule, &lines)).await?;
            Ok(pdf(bytes, &file_name("pdf")))
        }
        _ => Err(AppError::NotFound("Dieses Format gibt es nicht.".into())),
    }
}

/// A person's line in a series: every result, counted or struck.
#[derive(Template)]
#[template(path = "series_person.html")]
struct PersonPage {
    ctx: Ctx,
    id: SeriesId,
    series: String,
    season: String,
    name: String,
    club: String,
    rank: String,
    total: String,
    /// Per tournament: date, name, rank, points, counted, provisional, final.
    results: Vec<(String, String, String, String, bool, bool, bool)>,
}

async fn person(
    state: web::Data<AppState>,
    user: MaybeUser,
    path: web::Path<(SeriesId, PersonId)>,
) -> Result<HttpResponse, AppError> {
    let (id, person) = path.into_inner();
    let s = standings(&state, id, false).await?;
    let views = views(&s);
    let Some((row, view)) = s
        .rows
        .iter()
        .zip(&views)
        .find(|(r, _)| r.entrant.persons().contains(&person))
    else {
        return Err(AppError::NotFound(
            "Diese Person hat in dieser Serie kein Resultat.".into(),
        ));
    };
    let results = row
        .results
        .iter()
        .filter_map(|r| {
            let e = s.events.get(r.event)?;
            Some((
                format::date(e.date),
                e.name.clone(),
                format!("{}.", r.rank),
                format::number(i64::from(r.points)),
                r.counted,
                r.provisional,
                e.is_final,
            ))
        })
        .collect();
    page(&PersonPage {
        ctx: ctx_of(&user),
        id,
        series: s.series.settings.name.clone(),
        season: s.series.settings.season.clone(),
        name: view.names.clone(),
        club: view.clubs.clone(),
        rank: view.rank.clone(),
        total: view.total.clone(),
        results,
    })
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/serien", web::get().to(list))
        .route("/serien", web::post().to(create))
        .route("/serien/{id}", web::get().to(show))
        .route("/serien/{id}/tabelle", web::get().to(table))
        .route("/serien/{id}/einstellungen", web::get().to(settings))
        .route("/serien/{id}/einstellungen", web::post().to(save_settings))
        .route("/serien/{id}/turniere", web::post().to(save_tournaments))
        .route("/serien/{id}/gesamtwertung.{format}", web::get().to(export))
        .route("/serien/{id}/personen/{person}", web::get().to(person));
}
