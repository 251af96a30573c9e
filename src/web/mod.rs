//! HTTP: extract → parse → domain → db → render or 303.

pub mod accounts;
pub mod audit;
pub mod auth;
pub mod draw;
pub mod entry;
pub mod live;
pub mod marathon;
pub mod prints;
pub mod ranking;
pub mod safety;
pub mod standblatt;
pub mod teams;
pub mod tournaments;

use crate::db::{Conn, Pool};
use crate::domain::ids::TournamentId;
use crate::domain::role::{Actor, Permission};
use crate::error::AppError;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, web};

pub use auth::{MaybeUser, Secured, SecuredUpload, User};

#[derive(Clone)]
pub struct AppState {
    pub pool: Pool,
    pub public_url: Option<String>,
    pub live: std::sync::Arc<live::LiveHub>,
}

/// Runs blocking database work off the async threads.
pub async fn db<F, T>(state: &web::Data<AppState>, f: F) -> Result<T, AppError>
where
    F: FnOnce(&mut Conn) -> Result<T, AppError> + Send + 'static,
    T: Send + 'static,
{
    let pool = state.pool.clone();
    web::block(move || {
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
    let body = template.render()?;
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(body))
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
    /// "Passe" or "Spielrunde".
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
            id: TournamentId(tournament.id),
            name: tournament.name.clone(),
            passen: (1..=tournament.passen as u32).collect(),
            round: if tournament.mode == "jassmarathon" {
                "Spielrunde"
            } else {
                "Passe"
            },
        });
        self
    }
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(|| async { "ok" }))
        .service(actix_files::Files::new(
            "/static",
            concat!(env!("CARGO_MANIFEST_DIR"), "/static"),
        ))
        .configure(auth::routes)
        .configure(accounts::routes)
        .configure(audit::routes)
        .configure(safety::routes)
        .configure(tournaments::routes)
        .configure(teams::routes)
        .configure(draw::routes)
        .configure(entry::routes)
        .configure(prints::routes)
        .configure(live::routes)
        .configure(marathon::routes)
        .configure(standblatt::routes)
        .configure(ranking::routes);
}

pub async fn not_found() -> Result<HttpResponse, AppError> {
    Err(AppError::not_found())
}
