//! HTTP: extract → parse → use case (`app`) → render or 303. One file per area of the
//! office; shared view types in [`views`], the live page and its hub in [`live`].

pub mod accounts;
pub mod audit;
pub mod auth;
pub mod correction;
pub mod draw;
pub mod entry;
pub mod error;
pub mod live;
pub mod passe;
pub mod prints;
pub mod ranking;
pub mod results_import;
pub mod safety;
pub mod spielrunde;
pub mod standblatt;
pub mod tafel;
pub mod teams;
pub mod threads;
pub mod tournaments;
pub mod views;

use crate::db::{Conn, Pool};
use crate::domain::ids::TournamentId;
use crate::domain::role::{Actor, Permission};
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, web};
use error::AppError;

pub use auth::{MaybeUser, Secured, SecuredUpload, User};

#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub public_url: Option<String>,
    pub live: std::sync::Arc<live::LiveHub>,
    pub db_threads: threads::DbThreads,
}

/// Runs blocking database work off the async threads, at normal priority. A use case's
/// refusal or a query error becomes an [`AppError`] with `?`.
pub async fn db<F, T>(state: &web::Data<AppState>, f: F) -> Result<T, AppError>
where
    F: FnOnce(&mut Conn) -> Result<T, AppError> + Send + 'static,
    T: Send + 'static,
{
    let pool = state.pool.clone();
    state
        .db_threads
        .run(move || {
            let mut conn = pool.get()?;
            f(&mut conn)
        })
        .await?
}

pub fn page<T: askama::Template>(template: &T) -> Result<HttpResponse, AppError> {
    page_with(template, StatusCode::OK)
}

/// A rendered page with a status other than 200, e.g. 422 for a form with errors.
pub fn page_with<T: askama::Template>(
    template: &T,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    Ok(html_page(template.render()?, status))
}

/// An already rendered page.
pub fn html_page(html: String, status: StatusCode) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(html)
}

/// The address players reach the app at: the configured public URL, else this request's.
pub fn base_url(state: &AppState, req: &actix_web::HttpRequest) -> String {
    match &state.public_url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => {
            let info = req.connection_info();
            format!("{}://{}", info.scheme(), info.host())
        }
    }
}

pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// What every page's frame needs: who is logged in, the CSRF token for its forms, the flash.
pub struct Ctx {
    pub user: Option<Actor>,
    pub csrf: String,
    pub flash: Option<String>,
    pub tournament: Option<NavTournament>,
}

pub struct NavTournament {
    pub id: TournamentId,
    pub name: String,
    pub passen: Vec<u32>,
    /// What a round is called in the tournament's mode.
    pub round: &'static str,
}

impl Ctx {
    pub fn anonymous() -> Self {
        Ctx {
            user: None,
            csrf: String::new(),
            flash: None,
            tournament: None,
        }
    }

    pub fn may(&self, permission: &str) -> bool {
        let permission = match permission {
            "users" => Permission::ManageUsers,
            "tournament" => Permission::ManageTournament,
            "teams" => Permission::ManageTeams,
            "draw" => Permission::Draw,
            "results" => Permission::EnterResults,
            "correct_visaed" => Permission::CorrectVisaedResults,
            "visa" => Permission::Visa,
            "disqualify" => Permission::Disqualify,
            "audit" => Permission::ViewAudit,
            _ => return false,
        };
        self.user.as_ref().is_some_and(|u| u.may(permission))
    }

    pub fn username(&self) -> &str {
        self.user
            .as_ref()
            .map(|u| u.username.as_str())
            .unwrap_or("")
    }

    pub fn role_label(&self) -> &str {
        self.user.as_ref().map(|u| u.role.label()).unwrap_or("")
    }

    pub fn with_tournament(mut self, tournament: &crate::db::models::TournamentRow) -> Self {
        self.tournament = Some(NavTournament {
            id: tournament.id,
            name: tournament.name.clone(),
            passen: (1..=tournament.passen as u32).collect(),
            round: tournament.mode.round(),
        });
        self
    }
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(|| async { "ok" }))
        .route("/static/{name}", web::get().to(asset))
        .configure(auth::routes)
        .configure(accounts::routes)
        .configure(audit::routes)
        .configure(safety::routes)
        .configure(tournaments::routes)
        .configure(teams::routes)
        .configure(draw::routes)
        .configure(passe::routes)
        .configure(entry::routes)
        .configure(correction::routes)
        .configure(results_import::routes)
        .configure(prints::routes)
        .configure(live::routes)
        .configure(spielrunde::routes)
        .configure(tafel::routes)
        .configure(standblatt::routes)
        .configure(ranking::routes);
}

/// Stylesheets and scripts are part of the binary, so it runs from any directory.
const ASSETS: [(&str, &str, &str); 4] = [
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
    let file = actix_files::NamedFile::open(path).map_err(|_| AppError::not_found())?;
    Ok(file.into_response(&req))
}

pub async fn not_found() -> Result<HttpResponse, AppError> {
    Err(AppError::not_found())
}
