//! Use cases: one place per write the office makes. Each opens the write transaction
//! through [`crate::db::write_tx`], checks its guard ([`guard`]), asks the domain for the
//! decision, writes through `db`, and records the audit entry in the same transaction.
//! It answers with a [`Refusal`] that the web edge turns into HTTP and German text.

pub mod accounts;
pub mod categories;
pub mod copy;
pub mod double_entry;
pub mod draw;
pub mod entry;
pub mod guard;
pub mod import;
pub mod partners;
pub mod persons;
pub mod prizes;
pub mod read;
pub mod reports;
pub mod result_write;
pub mod series;
pub mod table_entry;
pub mod tafel;
pub mod team_status;
pub mod teams;
pub mod tournaments;
pub mod visa;

/// Why a use case wrote nothing. The texts are German: they go to the user as they are.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    #[error(
        "Das Turnier ist abgeschlossen: Änderungen sind gesperrt, bis die Turnierleitung es wieder öffnet."
    )]
    Closed,
    /// The request does not fit the tournament's state or the rules.
    #[error("{0}")]
    Invalid(String),
    /// Someone else changed the same thing first.
    #[error("{0}")]
    Conflict(String),
    /// Not the user's doing: logged, shown as an internal error.
    #[error("Datenbank: {0}")]
    Database(diesel::result::Error),
    #[error("{0}")]
    Internal(String),
}

impl From<diesel::result::Error> for Refusal {
    fn from(e: diesel::result::Error) -> Self {
        match e {
            diesel::result::Error::NotFound => {
                Refusal::NotFound("Diese Seite gibt es nicht.".into())
            }
            other => Refusal::Database(other),
        }
    }
}

/// A number too large for its column that no check before caught: a bug, not the user's.
impl From<crate::db::types::OutOfRange> for Refusal {
    fn from(e: crate::db::types::OutOfRange) -> Self {
        Refusal::Internal(e.to_string())
    }
}

impl From<serde_json::Error> for Refusal {
    fn from(e: serde_json::Error) -> Self {
        Refusal::Internal(e.to_string())
    }
}

impl Refusal {
    pub fn invalid(message: impl Into<String>) -> Self {
        Refusal::Invalid(message.into())
    }

    pub fn forbidden() -> Self {
        Refusal::Forbidden("Dafür fehlt Ihnen die Berechtigung.".into())
    }
}
