//! The flash message: one line shown on the page after a Post/Redirect/Get ("Tisch 3
//! gespeichert"). It travels in a cookie, not in the database: showing a page never needs a
//! write (a full disk or a dropped database connection after a save cannot turn the page
//! that follows, or the save itself, into an error).

use actix_web::HttpResponse;
use actix_web::body::MessageBody;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;

const FLASH_COOKIE: &str = "flash";
/// Longer messages are cut: a cookie holds about 4 kB.
const MAX_CHARS: usize = 1_000;

fn cookie(value: String) -> Cookie<'static> {
    Cookie::build(FLASH_COOKIE, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .finish()
}

/// A redirect to `location` that shows `message` there.
pub fn redirect(location: &str, message: &str) -> HttpResponse {
    let mut response = HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish();
    set(&mut response, message);
    response
}

/// Shows `message` on the next page this browser gets.
pub fn set(response: &mut HttpResponse, message: &str) {
    let cut: String = message.chars().take(MAX_CHARS).collect();
    let encoded = serde_urlencoded::to_string([("m", cut.as_str())]).unwrap_or_default();
    // A cookie that cannot be added (never for this text) only loses the message.
    let _ = response.add_cookie(&cookie(encoded));
}

/// The message waiting for this request's page, if any (only a GET shows it).
pub fn waiting(req: &actix_web::HttpRequest) -> Option<String> {
    if req.method() != Method::GET {
        return None;
    }
    let raw = req.cookie(FLASH_COOKIE)?;
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.value()).ok()?;
    pairs
        .into_iter()
        .find(|(key, _)| key == "m")
        .map(|(_, message)| message)
        .filter(|m| !m.is_empty())
}

/// Middleware: a page that was shown (a successful GET) took the message with it; the cookie
/// is removed. A redirect passes it on to where it leads.
pub async fn consume(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let pending = req.method() == Method::GET && req.cookie(FLASH_COOKIE).is_some();
    let mut response = next.call(req).await?;
    if pending && !response.status().is_redirection() {
        let mut removal = cookie(String::new());
        removal.make_removal();
        response.response_mut().add_cookie(&removal)?;
    }
    Ok(response)
}
