//! HTTP: extract → parse → use case (`app`) → render or 303. One file per area of the
//! office; shared view types in [`views`], the live page and its hub in [`live`].

pub mod accounts;
pub mod audit;
pub mod auth;
pub mod categories;
pub mod correction;
pub mod ctx;
pub mod draw;
pub mod entry;
pub mod error;
pub mod flash;
pub mod hall;
pub mod head;
pub mod help;
pub mod kontrolle;
pub mod live;
pub mod partners;
pub mod passe;
pub mod prints;
pub mod prizes;
pub mod public_cache;
pub mod ranking;
pub mod ranking_exports;
pub mod register;
pub mod render;
pub mod reports;
pub mod request_log;
pub mod result_save;
pub mod results_import;
pub mod safety;
pub mod schaetzzettel;
pub mod series;
pub mod spielrunde;
pub mod standblatt;
pub mod state;
pub mod table_entry;
pub mod table_office;
pub mod tafel;
pub mod team_page;
pub mod teams;
pub mod threads;
pub mod tournaments;
pub mod views;

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use error::AppError;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(|| async { "ok" }))
        .route("/static/{name}", web::get().to(asset))
        .configure(auth::routes)
        .configure(accounts::routes)
        .configure(audit::routes)
        .configure(safety::routes)
        .configure(tournaments::routes)
        .configure(teams::routes)
        .configure(partners::routes)
        .configure(draw::routes)
        .configure(passe::routes)
        .configure(entry::routes)
        .configure(correction::routes)
        .configure(results_import::routes)
        .configure(prints::routes)
        .configure(prizes::routes)
        .configure(categories::routes)
        .configure(series::routes)
        .configure(reports::routes)
        .configure(register::routes)
        .configure(ranking_exports::routes)
        .configure(live::routes)
        .configure(spielrunde::routes)
        .configure(tafel::routes)
        .configure(schaetzzettel::routes)
        .configure(standblatt::routes)
        .configure(team_page::routes)
        .configure(table_entry::routes)
        .configure(table_office::routes)
        .configure(hall::routes)
        .configure(kontrolle::routes)
        .configure(ranking::routes)
        .configure(help::routes);
}

/// Stylesheets and scripts are part of the binary, so it runs from any directory.
const ASSETS: [(&str, &str, &str); 10] = [
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../static/style.css"),
    ),
    (
        "live.css",
        "text/css; charset=utf-8",
        include_str!("../../static/live.css"),
    ),
    (
        "live.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/live.js"),
    ),
    (
        "entry.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/entry.js"),
    ),
    (
        "team.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/team.js"),
    ),
    (
        "print.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/print.js"),
    ),
    (
        "clock.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/clock.js"),
    ),
    (
        "tournament_form.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/tournament_form.js"),
    ),
    (
        "absenden.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/absenden.js"),
    ),
    (
        "suggest.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/suggest.js"),
    ),
];

async fn asset(
    req: actix_web::HttpRequest,
    name: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    if let Some((_, content_type, body)) = ASSETS.iter().find(|(n, _, _)| *n == name.as_str()) {
        return Ok(HttpResponse::Ok()
            .insert_header((header::CONTENT_TYPE, *content_type))
            .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
            .body(*body));
    }
    // Other files (e.g. the benchmark's static copy) come from the source tree's static/.
    if name.starts_with('.') || name.contains(['/', '\\']) {
        return Err(AppError::not_found());
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("static")
        .join(name.as_str());
    // Files only: a folder (`/static/fonts`) is no page.
    if !path.is_file() {
        return Err(AppError::not_found());
    }
    let file = actix_files::NamedFile::open(path).map_err(|_| AppError::not_found())?;
    Ok(file.into_response(&req))
}

pub async fn not_found() -> Result<HttpResponse, AppError> {
    Err(AppError::not_found())
}
