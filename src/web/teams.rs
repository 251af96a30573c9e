//! Teams: list, add, edit, remove, CSV import with preview.

use super::auth::{Permitted, Secured, User, gate};
use super::auth::{SecuredUpload, flash_redirect};
use super::ctx::Ctx;
use super::render::{page, page_with};
use super::state::{AppState, db};
use crate::app::guard;
use crate::app::read;
use crate::app::teams::{self as team_writes, TeamRefusal};
use crate::db::models::{TeamRow, TournamentRow};
use crate::domain::form::FieldErrors;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::mode::Entrant;
use crate::domain::team::{TeamForm, TeamInput};
use crate::domain::team_import::{ImportedTeam, parse_team_csv, template_header};
use crate::domain::text_import::ImportError;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use askama::Template;
use std::collections::HashMap;

pub struct TeamView {
    pub row: TeamRow,
    pub status: &'static str,
    pub url: String,
}

#[derive(Template)]
#[template(path = "teams.html")]
struct ListPage {
    ctx: Ctx,
    t: TournamentRow,
    teams: Vec<TeamView>,
    form: TeamForm,
    errors: FieldErrors,
}

#[derive(Template)]
#[template(path = "team_form.html")]
struct EditPage {
    ctx: Ctx,
    t: TournamentRow,
    team: TeamRow,
    form: TeamForm,
    errors: FieldErrors,
}

#[derive(Template)]
#[template(path = "team_import.html")]
struct ImportPage {
    ctx: Ctx,
    t: TournamentRow,
    errors: Vec<ImportError>,
    preview: Vec<ImportedTeam>,
    data: String,
    /// The file replaces every team of the tournament.
    replace: bool,
    /// How the players meet the register, and its fingerprint for the confirm.
    matches: Vec<MatchView>,
    register: String,
}

/// A player of the file as the register meets him, for the preview.
pub struct MatchView {
    pub line: usize,
    pub startnummer: u32,
    pub seat: u32,
    pub player: String,
    /// "neu", "bekannt: …", or empty when the office chooses.
    pub status: String,
    pub css: &'static str,
    /// The persons to choose from (id, label); empty unless ambiguous.
    pub candidates: Vec<(i32, String)>,
}

fn match_views(
    matches: Vec<crate::app::persons::SeatMatch>,
    labels: &HashMap<crate::domain::ids::PersonId, String>,
) -> Vec<MatchView> {
    use crate::domain::person::Match;
    let label = |p: &crate::domain::ids::PersonId| labels.get(p).cloned().unwrap_or_default();
    matches
        .into_iter()
        .map(|m| {
            let (status, css, candidates) = match &m.found {
                Match::New => ("neu".to_string(), "match-new", Vec::new()),
                Match::Matched(p) => (format!("bekannt: {}", label(p)), "match-known", Vec::new()),
                Match::Ambiguous(ps) => (
                    String::new(),
                    "match-choose",
                    ps.iter().map(|p| (p.0, label(p))).collect(),
                ),
            };
            MatchView {
                line: m.line,
                startnummer: m.startnummer,
                seat: m.seat,
                player: m.player,
                status,
                css,
                candidates,
            }
        })
        .collect()
}

fn views(rows: Vec<TeamRow>) -> Vec<TeamView> {
    rows.into_iter()
        .map(|row| TeamView {
            status: row.status.label(),
            url: format!("/tournaments/{}/teams/{}", row.tournament_id, row.id),
            row,
        })
        .collect()
}

async fn list_page(
    state: &web::Data<AppState>,
    ctx: Ctx,
    id: TournamentId,
    form: TeamForm,
    errors: FieldErrors,
) -> Result<HttpResponse, AppError> {
    let (t, rows) = db(state, move |conn| {
        Ok(read::tournament_with_teams(conn, id)?)
    })
    .await?;
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    page_with(
        &ListPage {
            ctx: ctx.with_tournament(&t),
            t,
            teams: views(rows),
            form,
            errors,
        },
        status,
    )
}

async fn list(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    list_page(
        &state,
        user.0.ctx(),
        path.into_inner(),
        TeamForm::default(),
        FieldErrors::new(),
    )
    .await
}

/// Who registers in the tournament: a team, or one player (Einzelschieber).
async fn entrant_of(state: &web::Data<AppState>, id: TournamentId) -> Result<Entrant, AppError> {
    db(state, move |conn| {
        Ok(guard::tournament(conn, id)?.mode.entrant())
    })
    .await
}

fn write_error(e: TeamRefusal) -> Result<FieldErrors, AppError> {
    match e {
        TeamRefusal::StartnummerTaken(n) => Ok(FieldErrors::single(
            "startnummer",
            format!("Startnummer {n} ist bereits vergeben."),
        )),
        TeamRefusal::Refused(e) => Err(e.into()),
    }
}

async fn create(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<TeamForm, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let entrant = entrant_of(&state, id).await?;
    let input = match TeamInput::parse(&post.form, entrant) {
        Ok(input) => input,
        Err(errors) => return list_page(&state, post.session.ctx(), id, post.form, errors).await,
    };
    let saved = db(&state, move |conn| {
        Ok(team_writes::create(conn, &actor, id, &input))
    })
    .await?;
    match saved {
        Ok(_) => flash_redirect(
            &format!("/tournaments/{id}/teams"),
            format!("{} erfasst.", entrant.one()),
        ),
        Err(e) => list_page(&state, post.session.ctx(), id, post.form, write_error(e)?).await,
    }
}

fn form_of(team: &TeamRow) -> TeamForm {
    TeamForm {
        startnummer: team.startnummer.to_string(),
        name: team.name.clone().unwrap_or_default(),
        player1: team.player1.clone(),
        player2: team.player2.clone(),
        club: team.club.clone().unwrap_or_default(),
        place: team.place.clone().unwrap_or_default(),
    }
}

async fn edit_form(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTeams>,
    path: web::Path<(TournamentId, TeamId)>,
) -> Result<HttpResponse, AppError> {
    let (id, team) = path.into_inner();
    let (t, team) = db(&state, move |conn| {
        Ok((guard::tournament(conn, id)?, guard::team(conn, id, team)?))
    })
    .await?;
    page(&EditPage {
        ctx: user.session.ctx().with_tournament(&t),
        form: form_of(&team),
        t,
        team,
        errors: FieldErrors::new(),
    })
}

async fn update(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
    post: Secured<TeamForm, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, team) = path.into_inner();
    let (id, team) = (id, team);
    let entrant = entrant_of(&state, id).await?;
    let errors = match TeamInput::parse(&post.form, entrant) {
        Ok(input) => match db(&state, move |conn| {
            Ok(team_writes::update(conn, &actor, id, team, &input))
        })
        .await?
        {
            Ok(()) => {
                return flash_redirect(
                    &format!("/tournaments/{id}/teams"),
                    format!("{} gespeichert.", entrant.one()),
                );
            }
            Err(e) => write_error(e)?,
        },
        Err(errors) => errors,
    };
    let (t, row) = db(&state, move |conn| {
        Ok((guard::tournament(conn, id)?, guard::team(conn, id, team)?))
    })
    .await?;
    page_with(
        &EditPage {
            ctx: post.session.ctx().with_tournament(&t),
            t,
            team: row,
            form: post.form,
            errors,
        },
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

async fn delete(
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, TeamId)>,
    post: Secured<HashMap<String, String>, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let (id, team) = path.into_inner();
    let removed = db(&state, move |conn| {
        Ok(team_writes::delete(conn, &actor, id, team)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/teams"),
        format!("Team {} gelöscht.", removed.startnummer),
    )
}

async fn import_form(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTeams>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let t = db(&state, move |conn| Ok(guard::tournament(conn, id)?)).await?;
    page(&ImportPage {
        ctx: user.session.ctx().with_tournament(&t),
        t,
        errors: Vec::new(),
        preview: Vec::new(),
        data: String::new(),
        replace: false,
        matches: Vec::new(),
        register: String::new(),
    })
}

/// `replace`: the file replaces every team, so no Startnummer is taken yet.
async fn parse_upload(
    state: &web::Data<AppState>,
    id: TournamentId,
    bytes: Vec<u8>,
    replace: bool,
) -> Result<(TournamentRow, Result<Vec<ImportedTeam>, Vec<ImportError>>), AppError> {
    db(state, move |conn| {
        let t = guard::tournament(conn, id)?;
        let existing = if replace {
            Vec::new()
        } else {
            read::startnummern(conn, id)?
        };
        let parsed = parse_team_csv(&bytes, &existing, t.mode.entrant());
        Ok((t, parsed))
    })
    .await
}

/// Step 1: upload → preview (nothing written yet).
async fn import_preview(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    upload: SecuredUpload<gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = upload.session.actor().clone();
    let id = path.into_inner();
    let bytes = upload.fields.get("file").cloned().unwrap_or_default();
    let replace = upload.fields.get("replace").is_some_and(|v| !v.is_empty());
    let (t, parsed) = parse_upload(&state, id, bytes.clone(), replace).await?;
    // The file stays on the server until it is confirmed; the page carries a token only.
    let (data, matches, register) = match &parsed {
        Ok(rows) => {
            let rows = rows.clone();
            let entrant = t.mode.entrant();
            db(&state, move |conn| {
                let token = team_writes::keep_upload(conn, id, actor.id, &bytes)?;
                let found = crate::app::persons::import_matches(conn, entrant, &rows)?;
                Ok((
                    token,
                    match_views(found.seats, &found.labels),
                    found.fingerprint,
                ))
            })
            .await?
        }
        Err(_) => Default::default(),
    };
    let ctx = upload.session.ctx().with_tournament(&t);
    match parsed {
        Ok(preview) => page(&ImportPage {
            ctx,
            t,
            errors: Vec::new(),
            preview,
            data,
            replace,
            matches,
            register,
        }),
        Err(errors) => page_with(
            &ImportPage {
                ctx,
                t,
                errors,
                preview: Vec::new(),
                data: String::new(),
                replace: false,
                matches: Vec::new(),
                register: String::new(),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    }
}

/// The confirm of a preview: `upload` (the token of the file kept since), `replace` ("1":
/// the file replaces every team), `register` (the register's fingerprint as shown) and
/// `c_<line>_<seat>` (a person's number, or "neu") for each player the office chose.
type ConfirmForm = HashMap<String, String>;

fn confirmed(form: &ConfirmForm) -> Result<team_writes::Confirmed, AppError> {
    Ok(team_writes::Confirmed {
        fingerprint: form.get("register").cloned().filter(|f| !f.is_empty()),
        choices: seat_choices(form)?,
    })
}

/// The office's choices in a register preview (team import, sealed report):
/// `c_<line>_<seat>` = a person's number, or "neu".
pub(super) fn seat_choices(
    form: &HashMap<String, String>,
) -> Result<HashMap<(usize, u32), crate::app::persons::SeatChoice>, AppError> {
    use crate::app::persons::SeatChoice;
    let mut choices = HashMap::new();
    for (key, value) in form {
        let Some(rest) = key.strip_prefix("c_") else {
            continue;
        };
        let parsed = rest
            .split_once('_')
            .and_then(|(line, seat)| Some((line.parse().ok()?, seat.parse().ok()?)));
        let choice = match value.as_str() {
            "neu" => Some(SeatChoice::New),
            other => other
                .parse()
                .ok()
                .map(|n| SeatChoice::Person(crate::domain::ids::PersonId(n))),
        };
        match (parsed, choice) {
            (Some(at), Some(choice)) => {
                choices.insert(at, choice);
            }
            _ => {
                return Err(AppError::BadRequest(
                    "Ungültige Auswahl im Formular.".into(),
                ));
            }
        }
    }
    Ok(choices)
}

/// Step 2: the confirmed file is parsed again and written in one transaction.
async fn import_confirm(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<ConfirmForm, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let (user, token) = (
        actor.id,
        post.form.get("upload").cloned().unwrap_or_default(),
    );
    let confirmed = confirmed(&post.form)?;
    let bytes = db(&state, move |conn| Ok(team_writes::take_upload(conn, id, user, &token)?))
        .await?
        .ok_or_else(|| {
            AppError::BadRequest(
                "Diese Vorschau ist abgelaufen oder schon importiert. Bitte die Datei nochmals hochladen.".into(),
            )
        })?;
    let replace = post.form.get("replace").is_some_and(|v| v == "1");
    let (t, parsed) = parse_upload(&state, id, bytes, replace).await?;
    let imported = match parsed {
        Ok(imported) => imported,
        Err(errors) => {
            return page_with(
                &ImportPage {
                    ctx: post.session.ctx().with_tournament(&t),
                    t,
                    errors,
                    preview: Vec::new(),
                    data: String::new(),
                    replace: false,
                    matches: Vec::new(),
                    register: String::new(),
                },
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let written = db(&state, move |conn| {
        Ok(team_writes::import(
            conn, &actor, id, &imported, replace, &confirmed,
        ))
    })
    .await?;
    let many = t.mode.entrant().many();
    match written {
        Ok(count) => flash_redirect(
            &format!("/tournaments/{id}/teams"),
            format!("{count} {many} importiert."),
        ),
        Err(TeamRefusal::StartnummerTaken(n)) => Err(AppError::BadRequest(format!(
            "Startnummer {n} ist inzwischen vergeben. Nichts wurde importiert."
        ))),
        Err(TeamRefusal::Refused(e)) => Err(e.into()),
    }
}

/// An empty registration file with the app's column names and one example line, for Excel.
async fn template_csv(
    state: web::Data<AppState>,
    user: User,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let _ = user;
    let entrant = entrant_of(&state, path.into_inner()).await?;
    let example = match entrant {
        Entrant::Team => "1;Bärenstark;Anna Müller;Urs Bär;JC Zürich;Zürich",
        Entrant::Player => "1;Müller;Anna;JC Kilchberg;Kilchberg",
    };
    let body = format!("\u{feff}{}\r\n{example}\r\n", template_header(entrant));
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            "attachment; filename=\"anmeldungen-vorlage.csv\"",
        ))
        .body(body))
}

#[derive(Template)]
#[template(path = "teams_delete.html")]
struct DeletePage {
    ctx: Ctx,
    t: TournamentRow,
    teams: Vec<TeamRow>,
}

/// Several teams at once (checkboxes `team_<id>`): the first post lists them, the second
/// (`confirm=1`) deletes them, only before the draw.
async fn delete_many(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
    post: Secured<HashMap<String, String>, gate::ManageTeams>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let id = path.into_inner();
    let ids: Vec<TeamId> = post
        .form
        .keys()
        .filter_map(|k| k.strip_prefix("team_")?.parse().ok().map(TeamId))
        .collect();
    if ids.is_empty() {
        return Err(AppError::BadRequest(
            "Bitte Teams zum Löschen ankreuzen.".into(),
        ));
    }
    if post.form.get("confirm").map(String::as_str) != Some("1") {
        let (t, chosen) = db(&state, move |conn| {
            let rows = read::teams(conn, id)?;
            Ok((
                guard::tournament(conn, id)?,
                rows.into_iter().filter(|r| ids.contains(&r.id)).collect(),
            ))
        })
        .await?;
        return page(&DeletePage {
            ctx: post.session.ctx().with_tournament(&t),
            t,
            teams: chosen,
        });
    }
    let removed = db(&state, move |conn| {
        Ok(team_writes::delete_many(conn, &actor, id, &ids)?)
    })
    .await?;
    flash_redirect(
        &format!("/tournaments/{id}/teams"),
        format!("{} Teams gelöscht.", removed.len()),
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route(
        "/tournaments/{id}/teams/vorlage.csv",
        web::get().to(template_csv),
    )
    .route(
        "/tournaments/{id}/teams/delete",
        web::post().to(delete_many),
    )
    .route("/tournaments/{id}/teams", web::get().to(list))
    .route("/tournaments/{id}/teams", web::post().to(create))
    .route("/tournaments/{id}/teams/import", web::get().to(import_form))
    .route(
        "/tournaments/{id}/teams/import",
        web::post().to(import_preview),
    )
    .route(
        "/tournaments/{id}/teams/import/confirm",
        web::post().to(import_confirm),
    )
    .route(
        "/tournaments/{id}/teams/{team}/edit",
        web::get().to(edit_form),
    )
    .route(
        "/tournaments/{id}/teams/{team}/edit",
        web::post().to(update),
    )
    .route(
        "/tournaments/{id}/teams/{team}/delete",
        web::post().to(delete),
    );
}
