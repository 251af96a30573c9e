//! One error type for the web layer: user errors become 4xx pages with a German message,
//! everything else an opaque 500 whose cause is logged.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use askama::Template;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("Bitte melden Sie sich an.")]
    LoginRequired,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("interner Fehler: {0}")]
    Internal(String),
}

impl AppError {
    pub fn forbidden() -> Self {
        AppError::Forbidden("Dafür fehlt Ihnen die Berechtigung.".into())
    }
    pub fn closed() -> Self {
        AppError::Forbidden(
            "Das Turnier ist abgeschlossen: Änderungen sind gesperrt, bis die Turnierleitung es wieder öffnet.".into(),
        )
    }
    pub fn not_found() -> Self {
        AppError::NotFound("Diese Seite gibt es nicht.".into())
    }
}

macro_rules! internal_from {
    ($($t:ty),*) => {$(
        impl From<$t> for AppError {
            fn from(e: $t) -> Self {
                AppError::Internal(e.to_string())
            }
        }
    )*};
}
internal_from!(
    diesel::r2d2::PoolError,
    askama::Error,
    actix_web::error::BlockingError,
    serde_json::Error,
    std::io::Error
);

/// A use case's refusal, as HTTP: its German text at the matching status.
impl From<crate::app::Refusal> for AppError {
    fn from(refusal: crate::app::Refusal) -> Self {
        use crate::app::Refusal;
        match refusal {
            Refusal::NotFound(m) => AppError::NotFound(m),
            Refusal::Forbidden(m) => AppError::Forbidden(m),
            Refusal::Closed => AppError::closed(),
            Refusal::Invalid(m) => AppError::BadRequest(m),
            Refusal::Conflict(m) => AppError::Conflict(m),
            Refusal::Database(e) => e.into(),
            Refusal::Internal(m) => AppError::Internal(m),
        }
    }
}

impl From<diesel::result::Error> for AppError {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => AppError::not_found(),
            other => AppError::Internal(other.to_string()),
        }
    }
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    status: u16,
    title: &'a str,
    message: &'a str,
}

impl ResponseError for AppError {
    fn status_code(&self) -> StatusCode {
        match self {
            AppError::LoginRequired => StatusCode::SEE_OTHER,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let AppError::LoginRequired = self {
            return HttpResponse::SeeOther()
                .insert_header((header::LOCATION, "/login"))
                .finish();
        }
        let status = self.status_code();
        let (title, message) = match self {
            AppError::Internal(cause) => {
                tracing::error!(%cause, "request failed");
                (
                    "Interner Fehler",
                    "Ein unerwarteter Fehler ist aufgetreten. Die Turnierleitung findet die Ursache im Server-Log.".to_string(),
                )
            }
            AppError::Forbidden(_) => ("Keine Berechtigung", self.to_string()),
            AppError::NotFound(_) => ("Nicht gefunden", self.to_string()),
            AppError::Conflict(_) => ("Konflikt", self.to_string()),
            _ => ("Ungültige Eingabe", self.to_string()),
        };
        let body = ErrorPage {
            status: status.as_u16(),
            title,
            message: &message,
        }
        .render()
        .unwrap_or_else(|_| message.clone());
        HttpResponse::build(status)
            .content_type("text/html; charset=utf-8")
            .body(body)
    }
}
