//! Saving a typed table result from any form (fast entry, correction, Schnellerfassung):
//! one trip to the database for parsing, saving and the flash message. The form's own page
//! decides how to show a refusal.

use super::auth::Secured;
use super::live::publish::{VersionsPublished, announce};
use super::render::see_other;
use super::state::{AppState, db};
use crate::app::entry::{Typed, save_typed};
use crate::app::guard;
use crate::app::read;
use crate::app::result_write::SaveOutcome;
use crate::db::models::{ResultRow, TournamentRow};
use crate::domain::form::FieldErrors;
use crate::domain::format;
use crate::domain::ids::TournamentId;
use crate::domain::mode::ScoreKind;
use crate::domain::result::ResultForm;
use crate::domain::role::Actor;
use crate::web::error::AppError;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};

/// What the clerk sees after saving.
pub enum Answer {
    /// Saved (or kept blind as a first entry): 303 to the page the clerk came from.
    Done(HttpResponse),
    /// Nothing counted: the form again, with why.
    Again(Refusal),
}

/// Why a typed result did not count, for the page that shows the form again.
pub struct Refusal {
    pub score_kind: ScoreKind,
    /// The form carried a version: it was a correction.
    pub correction: bool,
    pub errors: FieldErrors,
    /// Someone saved this table first (or changed it since): what is stored.
    pub conflict: Option<ResultRow>,
    /// 422 for input that does not fit, 409 for a conflict or a contradiction.
    pub status: StatusCode,
    /// The result came in another way: why, for an explicit replacement.
    pub other_source: Option<String>,
}

/// The flash message after a save that redirects; None when the page is shown again.
fn saved_message(
    t: &TournamentRow,
    outcome: &SaveOutcome,
    passe: u32,
    table: u32,
) -> Option<String> {
    let round = t.mode.round();
    let kind = t.mode.facts().score_kind;
    let saved = |row: &crate::db::models::ResultRow, what: &str| {
        format!(
            "{round} {passe}, Tisch {table} gespeichert: {}{what}",
            kind.score_text(
                row.points_a.get(),
                row.points_b.get(),
                row.details.as_deref()
            ),
        )
    };
    // Say exactly what happened: "Visum aufgehoben" only when there was one.
    match outcome {
        SaveOutcome::Saved(row) => Some(saved(row, "")),
        SaveOutcome::Corrected {
            row,
            visas_removed: true,
        } => Some(saved(row, " (korrigiert, Visum aufgehoben)")),
        SaveOutcome::Corrected { row, .. } => Some(saved(row, " (korrigiert)")),
        SaveOutcome::FirstEntry => Some(format!(
            "{round} {passe}, Tisch {table}: 1× erfasst – zählt nach der zweiten, blinden Erfassung durch ein anderes Konto."
        )),
        SaveOutcome::Mismatch(_) | SaveOutcome::Conflict(_) => None,
    }
}

/// Saves a typed result (new when `version` is empty, else a correction of that version)
/// in any mode. Parsing, saving and the flash message take one trip to the database: under
/// load every trip waits for a thread.
pub async fn save(
    state: &web::Data<AppState>,
    post: &Secured<ResultForm>,
    id: TournamentId,
    passe: u32,
    back: &str,
) -> Result<Answer, AppError> {
    let correction = !post.form.version.trim().is_empty();
    let form = post.form.clone();
    save_with(
        state,
        post.session.actor(),
        (id, passe),
        correction,
        back,
        move |conn, actor| save_typed(conn, actor, id, passe, &form),
    )
    .await
}

/// [`save`] of a result the use case `write` parses and saves its own way (a Schätzzettel).
pub async fn save_with(
    state: &web::Data<AppState>,
    actor: &Actor,
    (id, passe): (TournamentId, u32),
    correction: bool,
    back: &str,
    write: impl FnOnce(&mut crate::db::Conn, &Actor) -> Result<Typed, crate::app::Refusal>
    + Send
    + 'static,
) -> Result<Answer, AppError> {
    let actor = actor.clone();
    let (typed, after) = db(state, move |conn| {
        let typed = write(conn, &actor)?;
        // What follows only reads (for the message and the live pages): a connection lost
        // now must not turn a result that is stored into an error page.
        let after = guard::tournament(conn, id).and_then(|t| Ok((t, read::published(conn)?)));
        Ok((typed, after))
    })
    .await?;
    let t = match after {
        Ok((t, versions)) => {
            announce(state, &versions);
            t
        }
        Err(cause) => {
            let Typed::Done {
                table,
                outcome:
                    SaveOutcome::Saved(_) | SaveOutcome::Corrected { .. } | SaveOutcome::FirstEntry,
                ..
            } = &typed
            else {
                return Err(cause.into());
            };
            tracing::warn!(%cause, "result stored; reading after the save failed");
            return Ok(Answer::Done(super::flash::redirect(
                back,
                &format!("Tisch {table} gespeichert."),
            )));
        }
    };
    let message = match &typed {
        Typed::Done {
            table,
            outcome,
            replaced_report,
        } => saved_message(&t, outcome, passe, *table).map(|mut message| {
            if let Some((a, b)) = replaced_report {
                message.push_str(&format!(
                    " Die offene Meldung vom Tisch ({} : {}) ist damit ersetzt.",
                    format::number(i64::from(*a)),
                    format::number(i64::from(*b))
                ));
            }
            message
        }),
        _ => None,
    };
    let refusal = |errors, conflict, status| {
        Answer::Again(Refusal {
            score_kind: t.mode.facts().score_kind,
            correction,
            errors,
            conflict,
            status,
            other_source: None,
        })
    };
    Ok(match typed {
        Typed::Done {
            outcome: SaveOutcome::Saved(_) | SaveOutcome::Corrected { .. } | SaveOutcome::FirstEntry,
            ..
        } => {
            let mut response = see_other(back);
            if let Some(message) = &message {
                super::flash::set(&mut response, message);
            }
            response.extensions_mut().insert(VersionsPublished);
            Answer::Done(response)
        }
        Typed::Invalid(errors) => refusal(errors, None, StatusCode::UNPROCESSABLE_ENTITY),
        Typed::OtherSource(message) => Answer::Again(Refusal {
            score_kind: t.mode.facts().score_kind,
            correction,
            errors: FieldErrors::new(),
            conflict: None,
            status: StatusCode::CONFLICT,
            other_source: Some(message),
        }),
        // Double entry: the contradicting entry is shown with the one before it.
        Typed::Done {
            outcome: SaveOutcome::Mismatch(_),
            ..
        } => refusal(FieldErrors::new(), None, StatusCode::CONFLICT),
        Typed::Done {
            outcome: SaveOutcome::Conflict(stored),
            ..
        } => refusal(FieldErrors::new(), Some(stored), StatusCode::CONFLICT),
    })
}
