//! Result entry: a result typed in the Büro (fast entry, correction, Schnellerfassung),
//! parsed the way the tournament's mode counts and saved through [`super::result_write`],
//! blind twice where the tournament wants double entry.

use super::result_write::{
    SaveOutcome, TableEntry, Writer, finish_result_writes, seating, sheets_before_write,
    write_checked,
};
use super::tafel::record_replacement;
use super::{Refusal, double_entry, guard};
use crate::db::Lock;
use crate::db::models::TournamentRow;
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, differenzler, marathon, results, seats, table_entry, write_tx};
use crate::domain::differenzler::{Line, TableSheet};
use crate::domain::entry::{ParsedResult, RoundShape, parse_result};
use crate::domain::form::FieldErrors;
use crate::domain::ids::TournamentId;
use crate::domain::result::ResultForm;
use crate::domain::result::TableScore;
use crate::domain::role::{Actor, Permission, ResultWrite};
use crate::domain::score_kind::ResultDetails;
use crate::domain::score_kind::{KindRules, RulesSource};
use crate::domain::table_report::ReportState;

/// What became of a result typed in the Büro.
pub enum Typed {
    /// The input does not fit this round; nothing was written.
    Invalid(FieldErrors),
    /// The result came in another way (its Tafel): replaced only explicitly. Nothing was
    /// written; the message shows what is stored.
    OtherSource(String),
    Done {
        table: u32,
        outcome: SaveOutcome,
        /// The table's open report from the phones that this entry replaced (its points
        /// A : B): the clerk is told.
        replaced_report: Option<(u32, u32)>,
    },
}

/// Parses and saves a typed result (new, or a correction when the form carries the
/// version it was made against) in one transaction, against the round as stored at that
/// moment. Reads only the table concerned, so its cost does not grow with the tournament.
#[tracing::instrument(skip_all, fields(tournament = %id, passe))]
pub fn save_typed(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    form: &ResultForm,
) -> Result<Typed, Refusal> {
    let expected_version = form.expected_version().map_err(Refusal::invalid)?;
    let typed = Typing {
        expected_version,
        reason: &form.reason,
        replace_source: !form.replace_source.trim().is_empty(),
    };
    save_parsed(conn, actor, (id, passe), typed, |shape| {
        parse_result(shape, form)
    })
}

/// A Differenzler table's Schätzzettel typed Spiel by Spiel (places A1, A2, B1, B2 of the
/// draw): checked Spiel by Spiel against the sum of the tournament's options and saved like
/// any typed result. The message of a Spiel that does not add up goes to field `spiel_<n>`.
#[tracing::instrument(skip_all, fields(tournament = %id, passe, table))]
pub fn save_schaetzzettel(
    conn: &mut Conn,
    actor: &Actor,
    (id, passe, table): (TournamentId, u32, u32),
    expected_version: Option<i32>,
    spiele: Vec<[Line; 4]>,
) -> Result<Typed, Refusal> {
    let typed = Typing {
        expected_version,
        reason: "",
        replace_source: false,
    };
    save_parsed(conn, actor, (id, passe), typed, |shape| {
        let options = match shape.rules {
            KindRules::Differenzler(options) => options,
            _ => {
                return Err(FieldErrors::single(
                    "table",
                    "Dieses Turnier führt keine Schätzzettel.",
                ));
            }
        };
        let sheet =
            TableSheet::of_spiele(spiele, shape.spiele, options).map_err(|(spiel, message)| {
                FieldErrors::single(
                    SPIEL_FIELDS.get(spiel).copied().unwrap_or("table"),
                    format!("Spiel {}: {message}", spiel + 1),
                )
            })?;
        Ok(ParsedResult {
            table,
            score: TableScore::of_differenzen(&sheet),
            details: Some(ResultDetails::Differenzen(sheet)),
        })
    })
}

/// The Schätzzettel's row fields, where a Spiel's message is shown (Spiel 1 is `spiel_1`).
pub const SPIEL_FIELDS: [&str; 40] = [
    "spiel_1", "spiel_2", "spiel_3", "spiel_4", "spiel_5", "spiel_6", "spiel_7", "spiel_8",
    "spiel_9", "spiel_10", "spiel_11", "spiel_12", "spiel_13", "spiel_14", "spiel_15", "spiel_16",
    "spiel_17", "spiel_18", "spiel_19", "spiel_20", "spiel_21", "spiel_22", "spiel_23", "spiel_24",
    "spiel_25", "spiel_26", "spiel_27", "spiel_28", "spiel_29", "spiel_30", "spiel_31", "spiel_32",
    "spiel_33", "spiel_34", "spiel_35", "spiel_36", "spiel_37", "spiel_38", "spiel_39", "spiel_40",
];

/// What the office typed besides the score.
struct Typing<'a> {
    expected_version: Option<i32>,
    reason: &'a str,
    /// «Tafel ersetzen»: a Schnellerfassung replaces the table's Tafel.
    replace_source: bool,
}

/// Saves a result typed in the Büro, parsed by `parse` against the round as stored.
fn save_parsed(
    conn: &mut Conn,
    actor: &Actor,
    (id, passe): (TournamentId, u32),
    typed: Typing<'_>,
    parse: impl FnOnce(&RoundShape) -> Result<ParsedResult, FieldErrors>,
) -> Result<Typed, Refusal> {
    let expected_version = typed.expected_version;
    // A new result needs the Büro's right; a correction is judged against the stored result
    // (visaed or not) when it is written.
    match expected_version {
        None => actor
            .may_write_result(ResultWrite::New)
            .map_err(|m| Refusal::Forbidden(m.into()))?,
        Some(_) if !actor.may_change_results() => return Err(Refusal::forbidden()),
        Some(_) => {}
    }
    write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::open_tournament(conn, id)?;
        guard::round(&t, passe)?;
        let rules = kind_rules(conn, &t)?;
        let shape = RoundShape {
            mode: t.mode,
            tables: seats::table_count(conn, id, passe)?,
            spiele: t.spiele_per_passe.get(),
            rules,
        };
        let parsed = match parse(&shape) {
            Ok(parsed) => parsed,
            Err(errors) => return Ok(Typed::Invalid(errors)),
        };
        let table = parsed.table;
        // A table where the Pauschale applies is a typing slip like an unknown table: the
        // message goes to the Tisch field of the form, not to an error page. Checked before
        // anything is written: this answer commits the transaction.
        let mut data = tournament_data::load_table(conn, t.clone(), passe, table)?;
        if let Err(Refusal::Invalid(message)) = seating(&data, passe, table) {
            return Ok(Typed::Invalid(FieldErrors::single("table", message)));
        }
        if expected_version.is_some() && marathon::has_tafel(conn, id, passe, table)? {
            // One source per result: a Schnellerfassung replaces a Tafel only explicitly.
            if !typed.replace_source {
                let stored = results::at(conn, id, passe, table)?;
                return Ok(Typed::OtherSource(format!(
                    "Tisch {table} wird auf seiner Tafel geführt{}. Eine Schnellerfassung ersetzt sie nur ausdrücklich («Tafel ersetzen», Turnierleitung oder Kontrolleur).",
                    stored.map_or(String::new(), |r| format!(
                        " (gespeichert {} : {} {})",
                        r.points_a,
                        r.points_b,
                        t.mode.unit()
                    ))
                )));
            }
            guard::require(actor, Permission::CorrectVisaedResults)?;
            marathon::save_tafel(conn, id, passe, table, &[], false)?;
            let stored = results::at(conn, id, passe, table)?;
            record_replacement(
                conn,
                actor,
                id,
                (passe, table),
                stored.as_ref(),
                "schnellerfassung",
            )?;
            // The table as it is without its Tafel.
            data = tournament_data::load_table(conn, t, passe, table)?;
        }
        let entry = TableEntry {
            passe,
            table: parsed.table,
            score: parsed.score,
            expected_version,
            reason: Some(typed.reason.trim().chars().take(300).collect::<String>())
                .filter(|r| !r.is_empty()),
            details: parsed.details.map(|d| d.to_json()).transpose()?,
        };
        let open_report =
            table_entry::report_at(conn, id, passe, table)?.filter(|r| r.state.is_open());
        let outcome = save_loaded(conn, actor, &data, &entry)?;
        let replaced_report = match open_report {
            Some(before) => table_entry::report_at(conn, id, passe, table)?
                .filter(|now| now.state == ReportState::Ersetzt)
                .map(|_| (before.points_a.get(), before.points_b.get())),
            None => None,
        };
        Ok(Typed::Done {
            table: parsed.table,
            outcome,
            replaced_report,
        })
    })
}

/// The tournament's rules its kind of result is read against.
pub(crate) fn kind_rules(conn: &mut Conn, t: &TournamentRow) -> Result<KindRules, Refusal> {
    Ok(match t.mode.facts().score_kind.rules_source() {
        RulesSource::None => KindRules::None,
        RulesSource::Marathon => KindRules::Striche(marathon::rules(conn, t.id)?),
        RulesSource::Differenzler => KindRules::Differenzler(differenzler::rules(conn, t)?.options),
    })
}

/// Saves one table of `data` (loaded in the caller's transaction). A conflict writes
/// nothing, not even the version bump.
fn save_loaded(
    conn: &mut Conn,
    actor: &Actor,
    data: &TournamentData,
    entry: &TableEntry,
) -> Result<SaveOutcome, Refusal> {
    let t = &data.tournament;
    if t.double_entry
        && t.mode.facts().double_entry
        && entry.expected_version.is_none()
        && data.result_at(entry.passe, entry.table).is_none()
    {
        return double_entry::enter(conn, actor, data, entry);
    }
    let before = sheets_before_write(conn, data)?;
    let outcome = write_checked(conn, Writer::Office(actor), data, entry)?;
    if let SaveOutcome::Saved(_) | SaveOutcome::Corrected { .. } = outcome {
        finish_result_writes(conn, t.id, before.as_deref())?;
    }
    Ok(outcome)
}
