//! Sealed tournament reports: the download (Leitung), the series' upload and its halls
//! (Leitung), and the public verification page.

use super::auth::{
    MaybeUser, Permitted, PublicUpload, Secured, SecuredUpload, UploadLimit, flash_redirect, gate,
};
use super::ctx::Ctx;
use super::prints::file;
use super::render::{page, page_with};
use super::safety::MAX_IMPORT_BYTES;
use super::state::{AppState, db};
use crate::app::reports::{self, Preview, Printed, Taken};
use crate::domain::format;
use crate::domain::ids::{SeriesId, TournamentId};
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_DISPOSITION;
use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;
use std::collections::HashMap;

/// Anyone may have a report checked: a smaller bound than the office's imports (a report of
/// 1000 teams is a few MB).
const MAX_CHECKED_BYTES: usize = 16 * 1024 * 1024;

async fn download(
    state: web::Data<AppState>,
    user: Permitted<gate::ManageTournament>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = user.session.actor().clone();
    let made = db(&state, move |conn| Ok(reports::make(conn, &actor, id)?)).await?;
    let mut response = file(
        made.bytes,
        "application/json; charset=utf-8",
        &made.file_name,
    );
    response.headers_mut().insert(
        CONTENT_DISPOSITION,
        format!("attachment; filename=\"{}\"", made.file_name)
            .parse()
            .map_err(|_| AppError::Internal("file name".into()))?,
    );
    Ok(response)
}

#[derive(Template)]
#[template(path = "series_hall_confirm.html")]
struct UnknownHallPage {
    ctx: Ctx,
    id: SeriesId,
    hall: String,
    public_key: String,
    fingerprint: String,
}

async fn take(
    state: web::Data<AppState>,
    path: web::Path<SeriesId>,
    upload: SecuredUpload<gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = upload.session.actor().clone();
    let bytes = upload.fields.get("file").cloned().unwrap_or_default();
    let taken = db(&state, move |conn| {
        Ok(reports::take(conn, &actor, id, &bytes)?)
    })
    .await?;
    let back = format!("/serien/{id}/einstellungen");
    match taken {
        Taken::Added(_) => flash_redirect(
            &back,
            "Bericht übernommen: das Turnier zählt jetzt in der Serie.".into(),
        ),
        Taken::Replaced { summary, .. } => flash_redirect(&back, summary),
        Taken::Unchanged => flash_redirect(
            &back,
            "Diesen Bericht hat die Serie schon: nichts geändert.".into(),
        ),
        Taken::Choose(preview) => page_with(
            &ChoicePage {
                ctx: upload.session.ctx(),
                id,
                preview,
            },
            StatusCode::OK,
        ),
        Taken::UnknownHall {
            hall,
            public_key,
            fingerprint,
        } => page_with(
            &UnknownHallPage {
                ctx: upload.session.ctx(),
                id,
                hall,
                public_key,
                fingerprint,
            },
            StatusCode::CONFLICT,
        ),
    }
}

#[derive(Template)]
#[template(path = "series_report_choice.html")]
struct ChoicePage {
    ctx: Ctx,
    id: SeriesId,
    preview: Preview,
}

/// The choices of a kept report: `token`, `fingerprint`, and per ambiguous player
/// `c_<line>_<seat>` = a person's number or `neu`.
async fn confirm(
    state: web::Data<AppState>,
    path: web::Path<SeriesId>,
    post: Secured<HashMap<String, String>, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let form = &post.form;
    let token = form.get("token").cloned().unwrap_or_default();
    let fingerprint = form.get("fingerprint").cloned().unwrap_or_default();
    let choices = super::teams::seat_choices(form)?;
    let actor = post.session.actor().clone();
    let taken = db(&state, move |conn| {
        Ok(reports::confirm(
            conn,
            &actor,
            id,
            &token,
            &fingerprint,
            &choices,
        )?)
    })
    .await?;
    let back = format!("/serien/{id}/einstellungen");
    let message = match taken {
        Taken::Replaced { summary, .. } => summary,
        Taken::Unchanged => "Diesen Bericht hat die Serie schon: nichts geändert.".into(),
        _ => "Bericht übernommen: das Turnier zählt jetzt in der Serie.".into(),
    };
    flash_redirect(&back, message)
}

#[derive(Deserialize)]
struct HallForm {
    #[serde(default)]
    public_key: String,
    #[serde(default)]
    hall_name: String,
}

async fn accept_hall(
    state: web::Data<AppState>,
    path: web::Path<SeriesId>,
    post: Secured<HallForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let actor = post.session.actor().clone();
    let (key, name) = (post.form.public_key.clone(), post.form.hall_name.clone());
    db(&state, move |conn| {
        Ok(reports::accept_hall(conn, &actor, id, &key, &name)?)
    })
    .await?;
    flash_redirect(
        &format!("/serien/{id}/einstellungen"),
        "Halle anerkannt: ihre Berichte werden übernommen.".into(),
    )
}

#[derive(Deserialize)]
struct NameForm {
    #[serde(default)]
    hall_name: String,
}

async fn hall_name(
    state: web::Data<AppState>,
    post: Secured<NameForm, gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let actor = post.session.actor().clone();
    let name = post.form.hall_name.clone();
    db(&state, move |conn| {
        Ok(reports::set_hall_name(conn, &actor, &name)?)
    })
    .await?;
    flash_redirect("/halle", "Name der Halle gespeichert.".into())
}

/// The verification page's answer.
pub struct Answer {
    pub genuine: bool,
    pub lines: Vec<String>,
}

#[derive(Template)]
#[template(path = "verify.html")]
struct VerifyPage {
    ctx: Ctx,
    answer: Option<Answer>,
}

fn ctx_of(user: &MaybeUser) -> Ctx {
    match &user.0 {
        Some(session) => session.ctx(),
        None => Ctx::anonymous(),
    }
}

#[derive(Deserialize)]
struct PrintedQuery {
    bericht: Option<String>,
    stand: Option<u32>,
    pruefsumme: Option<String>,
}

/// The page, and the answer for a printed Rangliste's QR code.
async fn verify_page(
    state: web::Data<AppState>,
    user: MaybeUser,
    query: web::Query<PrintedQuery>,
) -> Result<HttpResponse, AppError> {
    let q = query.into_inner();
    let answer = match (q.bericht, q.stand, q.pruefsumme) {
        (Some(uuid), Some(revision), Some(digest)) => {
            let printed = db(&state, move |conn| {
                Ok(reports::check_printed(conn, &uuid, revision, &digest)?)
            })
            .await?;
            Some(match printed {
                Printed::Own { hall, fingerprint } | Printed::Taken { hall, fingerprint } => {
                    Answer {
                        genuine: true,
                        lines: vec![
                            format!("Echt: unterschrieben von «{hall}»."),
                            format!("Fingerabdruck {fingerprint}, Stand {revision}."),
                        ],
                    }
                }
                Printed::Outdated { current } => Answer {
                    genuine: false,
                    lines: vec![format!(
                        "Dieser Ausdruck zeigt Stand {revision}; das Turnier ist inzwischen bei Stand {current}. Bitte die aktuelle Rangliste verlangen."
                    )],
                },
                Printed::Unknown => Answer {
                    genuine: false,
                    lines: vec![
                        "Diesen Bericht kennt dieser Server nicht: die Datei des Berichts hier hochladen, um sie zu prüfen.".into(),
                    ],
                },
            })
        }
        _ => None,
    };
    page(&VerifyPage {
        ctx: ctx_of(&user),
        answer,
    })
}

/// A report file checked: genuine and by whom, or why not. Nothing is written.
async fn verify_upload(user: MaybeUser, upload: PublicUpload) -> Result<HttpResponse, AppError> {
    // The file, or the report pasted as text.
    let bytes = match upload.fields.get("file").filter(|f| !f.is_empty()) {
        Some(file) => file.clone(),
        None => upload.fields.get("text").cloned().unwrap_or_default(),
    };
    let answer = match reports::verify(&bytes) {
        Ok(v) => Answer {
            genuine: true,
            lines: vec![
                format!("Echt: unterschrieben von «{}».", v.hall),
                format!("Fingerabdruck {}, Stand {}.", v.fingerprint, v.revision),
                format!(
                    "Turnier «{}» vom {}{}.",
                    v.tournament,
                    format::date(v.date),
                    if v.official {
                        ", abgeschlossen"
                    } else {
                        ", noch offen"
                    }
                ),
            ],
        },
        Err(message) => Answer {
            genuine: false,
            lines: vec![message],
        },
    };
    let status = match answer.genuine {
        true => StatusCode::OK,
        false => StatusCode::UNPROCESSABLE_ENTITY,
    };
    page_with(
        &VerifyPage {
            ctx: ctx_of(&user),
            answer: Some(answer),
        },
        status,
    )
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/tournaments/{id}/bericht", web::get().to(download))
        .service(
            web::resource("/serien/{id}/berichte")
                .app_data(UploadLimit(MAX_IMPORT_BYTES))
                .route(web::post().to(take)),
        )
        .route("/serien/{id}/hallen", web::post().to(accept_hall))
        .route("/serien/{id}/berichte/bestaetigen", web::post().to(confirm))
        .route("/halle/name", web::post().to(hall_name))
        .service(
            web::resource("/pruefen")
                .app_data(UploadLimit(MAX_CHECKED_BYTES))
                .route(web::get().to(verify_page))
                .route(web::post().to(verify_upload)),
        );
}
