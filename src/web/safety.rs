//! Data safety: database snapshot download, tournament export/import as JSON.

use super::auth::{Permitted, SecuredUpload, UploadLimit, flash_redirect, gate};

/// The largest tournament export accepted: a 5000-team tournament with every result, visa
/// and audit entry is about 30 MB.
pub const MAX_IMPORT_BYTES: usize = 64 * 1024 * 1024;
use super::state::{AppState, db};
use crate::app::copy;
use crate::app::import;
use crate::domain::ids::TournamentId;
use crate::web::error::AppError;
use actix_web::http::header::{
    CONTENT_DISPOSITION, ContentDisposition, DispositionParam, DispositionType,
};
use actix_web::{HttpRequest, HttpResponse, web};

/// A consistent snapshot of the whole database, at any moment (also during the tournament),
/// streamed from a file: a large database is never held in memory.
async fn download(
    state: web::Data<AppState>,
    _user: Permitted<gate::ManageTournament>,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let dir = state.backup_dir.clone();
    let (file, name, media) = db(&state, move |conn| Ok(copy::snapshot(conn, &dir)?)).await?;
    let file = actix_files::NamedFile::from_file(file, &name)
        .map_err(|e| AppError::Internal(e.to_string()))?
        .set_content_type(
            media
                .parse()
                .map_err(|_| AppError::Internal(format!("media type {media}")))?,
        )
        .set_content_disposition(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::Filename(name)],
        })
        .use_etag(false)
        .use_last_modified(false);
    Ok(file.into_response(&req))
}

async fn export(
    state: web::Data<AppState>,
    _user: Permitted<gate::ManageTournament>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let id = path.into_inner();
    let doc = db(&state, move |conn| Ok(copy::export(conn, id)?)).await?;
    Ok(HttpResponse::Ok()
        .insert_header((
            CONTENT_DISPOSITION,
            format!("attachment; filename=\"turnier-{id}.json\""),
        ))
        .json(doc))
}

async fn import(
    state: web::Data<AppState>,
    upload: SecuredUpload<gate::ManageTournament>,
) -> Result<HttpResponse, AppError> {
    let actor = upload.session.actor().clone();
    let bytes = upload.fields.get("file").cloned().unwrap_or_default();
    let doc: copy::Export = serde_json::from_slice(&bytes).map_err(|e| {
        AppError::BadRequest(format!(
            "Die Datei ist kein gültiger Turnier-Export von Jassturnier (Fehler in Zeile {}, Spalte {}).",
            e.line(),
            e.column()
        ))
    })?;
    let id = db(&state, move |conn| {
        Ok(import::import_tournament(conn, &actor, &doc)?)
    })
    .await?;
    flash_redirect(&format!("/tournaments/{id}"), "Turnier importiert.".into())
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/backup", web::get().to(download))
        .service(
            web::resource("/tournaments/import")
                .app_data(UploadLimit(MAX_IMPORT_BYTES))
                .route(web::post().to(import)),
        )
        .route("/tournaments/{id}/export.json", web::get().to(export));
}
