//! Answers: a rendered page, a redirect, the address players reach the app at.

use super::error::AppError;
use super::state::AppState;
use actix_web::HttpResponse;
use actix_web::http::{StatusCode, header};

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
