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
    /// Nothing can be saved right now (database file gone, disk full, read-only); reading
    /// still works.
    #[error("{0}")]
    Unavailable(String),
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
            other => match cannot_save(&other.to_string()) {
                Some(message) => {
                    tracing::error!(cause = %other, "Schreiben nicht möglich");
                    AppError::Unavailable(message)
                }
                None => AppError::Internal(other.to_string()),
            },
        }
    }
}

/// The German message for a write that the storage refused, if it was one.
fn cannot_save(cause: &str) -> Option<String> {
    use crate::db::CANNOT_SAVE;
    let lower = cause.to_lowercase();
    if cause.starts_with(CANNOT_SAVE) {
        Some(cause.to_string())
    } else if lower.contains("database or disk is full") {
        Some(format!(
            "{CANNOT_SAVE}: der Datenträger ist voll. Nichts wurde geändert; bitte Platz schaffen und nochmals senden."
        ))
    } else if lower.contains("readonly database") || lower.contains("read-only") {
        Some(format!(
            "{CANNOT_SAVE}: die Datenbankdatei ist schreibgeschützt. Nichts wurde geändert."
        ))
    } else if lower.contains("disk i/o error") {
        Some(format!(
            "{CANNOT_SAVE}: Fehler beim Schreiben auf den Datenträger. Nichts wurde geändert."
        ))
    } else {
        None
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
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
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
            AppError::Unavailable(_) => ("Speichern nicht möglich", self.to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite_error(message: &str) -> diesel::result::Error {
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::Unknown,
            Box::new(message.to_string()),
        )
    }

    #[test]
    fn storage_refusals_become_a_german_503() {
        for (cause, says) in [
            ("database or disk is full", "Datenträger ist voll"),
            ("attempt to write a readonly database", "schreibgeschützt"),
            ("disk I/O error", "Fehler beim Schreiben"),
        ] {
            let e = AppError::from(sqlite_error(cause));
            assert_eq!(e.status_code(), StatusCode::SERVICE_UNAVAILABLE, "{cause}");
            assert!(
                e.to_string().starts_with("Speichern nicht möglich: "),
                "{e}"
            );
            assert!(e.to_string().contains(says), "{e}");
        }
        let other = AppError::from(sqlite_error("UNIQUE constraint failed"));
        assert_eq!(other.status_code(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
