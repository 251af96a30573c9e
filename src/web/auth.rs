//! Sessions, CSRF, login/logout and the first-run setup.

use super::ctx::Ctx;
use super::render::{page, page_with, see_other};
use super::state::{AppState, SetupAccess, db};
use crate::app::accounts::{self, SessionInfo};
use crate::domain::role::{Actor, Permission, Role};
use crate::web::error::AppError;
use actix_web::HttpMessage;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use askama::Template;
use futures_util::StreamExt;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

pub const SESSION_COOKIE: &str = "jassturnier_session";
pub const CSRF_FIELD: &str = "_csrf";
/// Largest file accepted by an upload form, unless its route says otherwise.
pub const MAX_UPLOAD_BYTES: usize = 2 * 1024 * 1024;

/// A route's own upload limit (route data), for files that are big by nature: the export of
/// a 5000-team tournament.
#[derive(Debug, Clone, Copy)]
pub struct UploadLimit(pub usize);
/// Room for the other fields of an upload form (CSRF token, options).
const MAX_FORM_FIELDS_BYTES: usize = 64 * 1024;
/// Fields of an upload form: the file, the token and a few options.
const MAX_UPLOAD_FIELDS: usize = 8;

pub struct Session {
    pub token: String,
    pub info: SessionInfo,
}

impl Session {
    pub fn actor(&self) -> &Actor {
        &self.info.actor
    }

    pub fn require(&self, permission: Permission) -> Result<&Actor, AppError> {
        if self.info.actor.may(permission) {
            Ok(&self.info.actor)
        } else {
            Err(AppError::forbidden())
        }
    }

    pub fn ctx(&self) -> Ctx {
        Ctx {
            user: Some(self.info.actor.clone()),
            csrf: self.info.csrf.clone(),
            flash: self.info.flash.clone(),
            tournament: None,
        }
    }
}

async fn load_session(req: &HttpRequest) -> Result<Option<Session>, AppError> {
    let Some(token) = req.cookie(SESSION_COOKIE).map(|c| c.value().to_string()) else {
        return Ok(None);
    };
    let state = req
        .app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| AppError::Internal("AppState fehlt".into()))?;
    let lookup = token.clone();
    let info = db(&state, move |conn| Ok(accounts::session(conn, &lookup)?)).await?;
    let flash = super::flash::waiting(req);
    if let Some(info) = &info {
        req.extensions_mut()
            .insert(super::request_log::LoggedIn(info.actor.id));
    }
    Ok(info.map(|info| Session {
        token,
        info: SessionInfo { flash, ..info },
    }))
}

/// A page anybody may see; the session if there is one.
pub struct MaybeUser(pub Option<Session>);

impl FromRequest for MaybeUser {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(MaybeUser(load_session(&req).await?)) })
    }
}

/// What a page or form needs beyond a login: one of the [`gate`] types, named in the
/// extractor's type (`Secured<Form, gate::ManageTeams>`, `Permitted<gate::Visa>`), so a
/// handler cannot forget the check and its signature says who may call it.
pub trait Gate {
    const PERMISSION: Option<Permission>;
}

/// The gates: any logged-in user, or one permission of [`Permission`].
pub mod gate {
    use crate::domain::role::Permission;
    use crate::web::auth::Gate;

    /// Any logged-in user.
    pub struct LoggedIn;

    impl Gate for LoggedIn {
        const PERMISSION: Option<Permission> = None;
    }

    macro_rules! gates {
        ($($name:ident),+) => {
            $(
                #[doc = concat!("Users who may `", stringify!($name), "`.")]
                pub struct $name;

                impl Gate for $name {
                    const PERMISSION: Option<Permission> = Some(Permission::$name);
                }
            )+
        };
    }

    gates!(
        ManageUsers,
        ManageTournament,
        ManageTeams,
        Draw,
        EnterResults,
        Visa,
        Disqualify,
        ViewAudit
    );
}

/// 403 unless the session passes the gate `G`.
fn pass<G: Gate>(session: &Session) -> Result<(), AppError> {
    match G::PERMISSION {
        Some(permission) => session.require(permission).map(|_| ()),
        None => Ok(()),
    }
}

/// A page that needs a login: anonymous visitors are sent to the login page.
pub struct User(pub Session);

/// A page for the users of one gate: login required, others get 403.
pub struct Permitted<G: Gate> {
    pub session: Session,
    gate: PhantomData<G>,
}

impl<G: Gate + 'static> FromRequest for Permitted<G> {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let session = load_session(&req).await?.ok_or(AppError::LoginRequired)?;
            pass::<G>(&session)?;
            Ok(Permitted {
                session,
                gate: PhantomData,
            })
        })
    }
}

impl FromRequest for User {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            load_session(&req)
                .await?
                .map(User)
                .ok_or(AppError::LoginRequired)
        })
    }
}

#[derive(Deserialize)]
struct CsrfOnly {
    #[serde(rename = "_csrf", default)]
    csrf: String,
}

fn check_csrf(session: &Session, presented: &str) -> Result<(), AppError> {
    let expected = session.info.csrf.as_bytes();
    let presented = presented.as_bytes();
    // Constant-time comparison: the token must not leak through timing.
    let same = expected.len() == presented.len()
        && expected
            .iter()
            .zip(presented)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if same {
        Ok(())
    } else {
        Err(AppError::Forbidden(
            "Das Formular ist abgelaufen oder ungültig (CSRF-Schutz). Bitte die Seite neu laden und nochmals senden.".into(),
        ))
    }
}

/// A state-changing form post: a logged-in user who passes the gate `G`, a valid CSRF token,
/// and the parsed form (in that order: a user without the permission gets 403 before
/// anything of the body is read).
pub struct Secured<T, G: Gate = gate::LoggedIn> {
    pub session: Session,
    pub form: T,
    gate: PhantomData<G>,
}

impl<T: DeserializeOwned + 'static, G: Gate + 'static> FromRequest for Secured<T, G> {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let body = web::Bytes::from_request(&req, payload);
        Box::pin(async move {
            let session = load_session(&req).await?.ok_or(AppError::LoginRequired)?;
            pass::<G>(&session)?;
            let body = body
                .await
                .map_err(|_| AppError::PayloadTooLarge("Die Anfrage ist zu gross.".into()))?;
            let csrf: CsrfOnly = serde_urlencoded::from_bytes(&body)
                .map_err(|_| AppError::BadRequest("Ungültige Formulardaten.".into()))?;
            check_csrf(&session, &csrf.csrf)?;
            let form = serde_urlencoded::from_bytes(&body)
                .map_err(|_| AppError::BadRequest("Ungültige Formulardaten.".into()))?;
            Ok(Secured {
                session,
                form,
                gate: PhantomData,
            })
        })
    }
}

/// A state-changing file upload (multipart): login, CSRF token field, and every field's bytes.
pub struct SecuredUpload<G: Gate = gate::LoggedIn> {
    pub session: Session,
    pub fields: HashMap<String, Vec<u8>>,
    gate: PhantomData<G>,
}

impl<G: Gate + 'static> FromRequest for SecuredUpload<G> {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let multipart = actix_multipart::Multipart::from_request(&req, payload);
        Box::pin(async move {
            let session = load_session(&req).await?.ok_or(AppError::LoginRequired)?;
            // Before the upload is read: a user without the permission sends no file here.
            pass::<G>(&session)?;
            let fields = read_fields(&req, multipart).await?;
            let presented = fields
                .get(CSRF_FIELD)
                .map(|b| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_default();
            check_csrf(&session, &presented)?;
            Ok(SecuredUpload {
                session,
                fields,
                gate: PhantomData,
            })
        })
    }
}

/// Every field of a multipart upload, bounded by the route's [`UploadLimit`].
async fn read_fields(
    req: &HttpRequest,
    multipart: impl Future<Output = Result<actix_multipart::Multipart, actix_web::Error>>,
) -> Result<HashMap<String, Vec<u8>>, AppError> {
    let mut multipart = multipart
        .await
        .map_err(|_| AppError::BadRequest("Bitte eine Datei hochladen.".into()))?;
    let limit = req
        .app_data::<UploadLimit>()
        .map_or(MAX_UPLOAD_BYTES, |l| l.0);
    let mut fields = HashMap::new();
    let mut total = 0usize;
    while let Some(field) = multipart.next().await {
        // The whole request, not each field, is bounded: many small fields of a forged
        // upload are refused as early as one big file.
        if fields.len() >= MAX_UPLOAD_FIELDS {
            return Err(AppError::PayloadTooLarge(
                "Zu viele Felder in der Anfrage.".into(),
            ));
        }
        let mut field = field
            .map_err(|_| AppError::BadRequest("Die Datei kam nicht vollständig an.".into()))?;
        let name = field.name().unwrap_or_default().to_string();
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk
                .map_err(|_| AppError::BadRequest("Die Datei kam nicht vollständig an.".into()))?;
            total += chunk.len();
            if bytes.len() + chunk.len() > limit || total > limit + MAX_FORM_FIELDS_BYTES {
                return Err(AppError::PayloadTooLarge(format!(
                    "Die Datei ist zu gross (höchstens {} MB).",
                    limit / (1024 * 1024)
                )));
            }
            bytes.extend_from_slice(&chunk);
        }
        fields.insert(name, bytes);
    }
    Ok(fields)
}

/// An upload anyone may send because it changes nothing (a report to verify): no login,
/// no CSRF token; bounded like every upload.
pub struct PublicUpload {
    pub fields: HashMap<String, Vec<u8>>,
}

impl FromRequest for PublicUpload {
    type Error = AppError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let req = req.clone();
        let multipart = actix_multipart::Multipart::from_request(&req, payload);
        Box::pin(async move {
            Ok(PublicUpload {
                fields: read_fields(&req, multipart).await?,
            })
        })
    }
}

/// Redirects to `location`, which then shows `message` ([`super::flash`]).
pub fn flash_redirect(location: &str, message: String) -> Result<HttpResponse, AppError> {
    Ok(super::flash::redirect(location, &message))
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    ctx: Ctx,
    username: String,
    error: Option<String>,
}

#[derive(Template)]
#[template(path = "setup.html")]
struct SetupPage {
    ctx: Ctx,
    username: String,
    /// The setup code this page was opened with, sent along with the form.
    code: String,
    errors: crate::domain::form::FieldErrors,
}

#[derive(Deserialize)]
struct LoginForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

#[derive(Deserialize)]
struct SetupForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password2: String,
    #[serde(default)]
    code: String,
}

/// The session cookie; `Secure` when the app is reached by https (its public URL).
fn session_cookie(state: &AppState, token: &str) -> Cookie<'static> {
    let secure = state
        .public_url
        .as_deref()
        .is_some_and(|url| url.trim().to_ascii_lowercase().starts_with("https://"));
    Cookie::build(SESSION_COOKIE, token.to_string())
        .path("/")
        .http_only(true)
        .secure(secure)
        .same_site(SameSite::Lax)
        .finish()
}

async fn login_page(state: web::Data<AppState>, user: MaybeUser) -> Result<HttpResponse, AppError> {
    if user.0.is_some() {
        return Ok(see_other("/"));
    }
    if db(&state, |conn| Ok(accounts::count(conn)?)).await? == 0 {
        return Ok(see_other("/setup"));
    }
    page(&LoginPage {
        ctx: Ctx::anonymous(),
        username: String::new(),
        error: None,
    })
}

/// The client's address as the server sees it: the peer of the connection. Behind a
/// reverse proxy every client has the proxy's address (see the README).
pub fn client_address(req: &HttpRequest) -> String {
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unbekannt".into())
}

/// A login: the throttle and the account on a database thread, the password on the password
/// thread (no database connection held meanwhile), then the session or the failure counted.
async fn check_login(
    state: &web::Data<AppState>,
    username: String,
    password: String,
    address: String,
) -> Result<accounts::LoginOutcome, AppError> {
    let (name, at) = (username.clone(), address.clone());
    let check = db(state, move |conn| {
        Ok(accounts::login_check(conn, &name, &at)?)
    })
    .await?;
    if let accounts::LoginCheck::Throttled(wait) = check {
        return Ok(accounts::LoginOutcome::Throttled(wait));
    }
    let matched = state
        .password_checks
        .run(move || check.matches(&password))
        .await?;
    db(state, move |conn| {
        Ok(accounts::login_finish(conn, &username, &address, matched)?)
    })
    .await
}

async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<LoginForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let (username, password) = (form.username.clone(), form.password);
    let address = client_address(&req);
    let opened = check_login(&state, username, password, address).await?;
    let (status, message) = match opened {
        accounts::LoginOutcome::Opened(token, _csrf) => {
            return Ok(HttpResponse::SeeOther()
                .cookie(session_cookie(&state, &token))
                .insert_header((actix_web::http::header::LOCATION, "/"))
                .finish());
        }
        accounts::LoginOutcome::Refused => (
            StatusCode::UNAUTHORIZED,
            "Benutzername oder Passwort ist falsch.".to_string(),
        ),
        accounts::LoginOutcome::Throttled(seconds) => (
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "Zu viele Fehlversuche von diesem Gerät. Bitte in {} nochmals versuchen oder die Turnierleitung fragen.",
                if seconds > 90 {
                    format!("{} Minuten", (seconds + 59) / 60)
                } else {
                    format!("{seconds} Sekunden")
                }
            ),
        ),
    };
    page_with(
        &LoginPage {
            ctx: Ctx::anonymous(),
            username: form.username,
            error: Some(message),
        },
        status,
    )
}

async fn logout(
    state: web::Data<AppState>,
    post: Secured<HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let token = post.session.token.clone();
    db(&state, move |conn| Ok(accounts::logout(conn, &token)?)).await?;
    let mut removal = session_cookie(&state, "");
    removal.make_removal();
    Ok(HttpResponse::SeeOther()
        .cookie(removal)
        .insert_header((actix_web::http::header::LOCATION, "/login"))
        .finish())
}

async fn setup_gone() -> AppError {
    AppError::NotFound("Die Einrichtung ist abgeschlossen. Bitte anmelden.".into())
}

/// Characters of the setup code: no 0/O, 1/I/L, so that it is read off a console safely.
const SETUP_CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const SETUP_CODE_LENGTH: usize = 10;

/// A fresh one-time setup code (31^10 ≈ 8·10^14 possibilities).
pub fn new_setup_code() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..SETUP_CODE_LENGTH)
        .map(|_| SETUP_CODE_ALPHABET[rng.random_range(0..SETUP_CODE_ALPHABET.len())] as char)
        .collect()
}

/// Whether a request may run the first-run setup: from the machine itself (where allowed),
/// or with the code from the console, compared in constant time.
pub fn may_set_up(peer: Option<std::net::IpAddr>, presented: &str, access: &SetupAccess) -> bool {
    let local = access.from_loopback && peer.is_some_and(|ip| ip.is_loopback());
    let expected = access.code.as_bytes();
    let presented = presented.trim().to_uppercase();
    let presented = presented.as_bytes();
    let same = expected.len() == presented.len()
        && expected
            .iter()
            .zip(presented)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    local || same
}

#[derive(Deserialize)]
struct SetupQuery {
    #[serde(default)]
    code: String,
}

fn setup_refused() -> AppError {
    AppError::Forbidden(
        "Die Ersteinrichtung ist nur am Server selbst möglich, oder mit dem Einrichtungscode, den der Server beim Start in seiner Konsole zeigt: /setup?code=…".into(),
    )
}

async fn setup_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<SetupQuery>,
) -> Result<HttpResponse, AppError> {
    if db(&state, |conn| Ok(accounts::count(conn)?)).await? > 0 {
        return Err(setup_gone().await);
    }
    let peer = req.peer_addr().map(|a| a.ip());
    if !may_set_up(peer, &query.code, &state.setup) {
        return Err(setup_refused());
    }
    page(&SetupPage {
        ctx: Ctx::anonymous(),
        username: String::new(),
        code: query.code.clone(),
        errors: Default::default(),
    })
}

async fn setup(
    state: web::Data<AppState>,
    req: HttpRequest,
    form: web::Form<SetupForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    if !may_set_up(req.peer_addr().map(|a| a.ip()), &form.code, &state.setup) {
        return Err(setup_refused());
    }
    let mut errors = crate::domain::form::FieldErrors::new();
    let username = match accounts::check_username(&form.username) {
        Ok(name) => name.to_string(),
        Err(message) => {
            errors.add("username", message);
            String::new()
        }
    };
    if let Err(message) = accounts::check_password(&form.password) {
        errors.add("password", message);
    } else if form.password != form.password2 {
        errors.add("password2", "Die Passwörter stimmen nicht überein.");
    }
    if !errors.is_empty() {
        return page_with(
            &SetupPage {
                ctx: Ctx::anonymous(),
                username: form.username,
                code: form.code,
                errors,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    }
    let hash = accounts::hash_password(&form.password).map_err(AppError::Internal)?;
    let (name, password) = (username.clone(), form.password.clone());
    let created = db(&state, move |conn| {
        match accounts::create(conn, None, &name, &hash, Role::Leitung, true) {
            Ok(row) => Ok(row),
            Err(accounts::CreateError::Taken) => Ok(None),
            Err(accounts::CreateError::Db(e)) => Err(e.into()),
        }
    })
    .await?;
    if created.is_none() {
        return Err(setup_gone().await);
    }
    let address = client_address(&req);
    let opened = check_login(&state, username, password, address).await?;
    let mut response = HttpResponse::SeeOther();
    if let accounts::LoginOutcome::Opened(token, _) = opened {
        response.cookie(session_cookie(&state, &token));
    }
    Ok(response
        .insert_header((actix_web::http::header::LOCATION, "/"))
        .finish())
}

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/login", web::get().to(login_page))
        .route("/login", web::post().to(login))
        .route("/logout", web::post().to(logout))
        .route("/setup", web::get().to(setup_page))
        .route("/setup", web::post().to(setup));
}
