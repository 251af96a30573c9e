//! A phone's report, confirmation or dispute, and the office's decision on a disputed one.

use super::at_table::{seat_of, table_data};
use super::{audit_entry, phone_name};
use crate::app::Refusal;
use crate::app::guard;
use crate::app::result_write::{
    SaveOutcome, TableEntry, Writer, finish_result_writes, sheets_before_write, write_checked,
};
use crate::db::audit::{AuditEvent, CodeAction, ReportAction};
use crate::db::models::TableReportRow;
use crate::db::table_entry::{self as stored, Answer};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::transfer::TafelDraft;
use crate::db::types::Nat;
use crate::db::{Conn, Lock, audit, marathon, throttle as counters, tournaments};
use crate::domain::form::FieldErrors;
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::marathon::Details;
use crate::domain::marathon::quick::SpielForm;
use crate::domain::marathon::tafel::{NewLine, compute, new_line};
use crate::domain::result::TableScore;
use crate::domain::role::Actor;
use crate::domain::table_report::{self, Ask, OwnFigures, ReportState, Step, Version};
use crate::domain::throttle::{self};
use serde_json::json;

/// What a phone asks for, as typed.
pub enum PhoneAsk {
    /// Partnerschieber, Einzelschieber: the side's own points.
    Report(OwnFigures),
    /// Jassmarathon: a change to the Tafel written at the table.
    Tafel(TafelAsk),
    Confirm {
        seen: i32,
    },
    Dispute {
        seen: i32,
        own: OwnFigures,
        note: String,
    },
}

/// A change to the Tafel at the table; the Gong closes it and reports it.
pub enum TafelAsk {
    /// A line, and which line the phone's page offered it as (see [`new_line`]).
    Add(SpielForm, Option<usize>),
    Delete(usize),
    Gong(bool),
}

/// What became of it.
pub enum Done {
    /// The figures do not fit; nothing was written.
    Invalid(crate::domain::form::FieldErrors),
    /// The team's phones wrote too often ([`throttle::phone_write`]): nothing was written
    /// until then; the office sees it.
    Stopped(chrono::NaiveDateTime),
    Reported,
    Confirmed,
    Disputed,
    /// The same Tafel line again (sent twice): nothing written.
    Unchanged,
}

/// A phone's report, confirmation or dispute, for the team its token was admitted for.
#[tracing::instrument(skip_all, fields(tournament = %id))]
pub fn act(
    conn: &mut Conn,
    id: TournamentId,
    token: &str,
    address: &str,
    ask: PhoneAsk,
    window: throttle::PhoneWindow,
) -> Result<Done, Refusal> {
    crate::db::write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::open_tournament(conn, id)?;
        let access = stored::access(conn, id, token)?.ok_or_else(|| {
            Refusal::Forbidden(
                "Dieses Telefon ist nicht (mehr) angemeldet. Bitte den Code vom Standblatt nochmals eingeben.".into(),
            )
        })?;
        let team = guard::team(conn, id, access.team_id)?;
        let opening = stored::opening(conn, id)?;
        let Some(passe) = opening.passe() else {
            return Err(Refusal::invalid(table_report::Refused::Closed.to_string()));
        };
        let not_seated = || {
            Refusal::invalid(format!(
                "{} {} sitzt in {} {passe} an keinem Tisch.",
                t.mode.entrant().one(),
                team.startnummer,
                t.mode.round()
            ))
        };
        let data = table_data(conn, &t, passe, team.id)?.ok_or_else(not_seated)?;
        let seat = seat_of(conn, &data, opening, team.id)?.ok_or_else(not_seated)?;
        // A confirmation or dispute answers a report of the right kind; a report itself must
        // be of the kind the tournament counts.
        let wrong_kind = match &ask {
            PhoneAsk::Confirm { .. } | PhoneAsk::Dispute { .. } => None,
            PhoneAsk::Report(_) => t.mode.facts().score_kind.refuses_at_table(false),
            PhoneAsk::Tafel(_) => t.mode.facts().score_kind.refuses_at_table(true),
        };
        if let Some(refusal) = wrong_kind {
            return Err(Refusal::invalid(refusal));
        }
        // Bounded writes per team: a phone cannot fill the disk or the Protokoll.
        if let throttle::PhoneWrite::Stopped { until, newly } =
            counters::phone_write(conn, &team.id.to_string(), window)?
        {
            if newly {
                audit::record_as(
                    conn,
                    audit::Author::Named(&phone_name(&t, &team, address)),
                    audit::Entry {
                        entity_id: Some(team.id.0),
                        ..audit_entry(id, AuditEvent::TableCode(CodeAction::Stopped))
                    },
                    None::<&()>,
                    Some(&json!({
                        "startnummer": team.startnummer,
                        "bis": until,
                        "adresse": address,
                    })),
                )?;
            }
            return Ok(Done::Stopped(until));
        }
        let domain_ask = match &ask {
            PhoneAsk::Report(_) | PhoneAsk::Tafel(_) => Ask::Report,
            PhoneAsk::Confirm { seen } => Ask::Confirm { seen: *seen },
            PhoneAsk::Dispute { seen, .. } => Ask::Dispute { seen: *seen },
        };
        let step =
            table_report::decide(&seat.situation, domain_ask).map_err(|refused| match refused {
                table_report::Refused::Changed => Refusal::Conflict(refused.to_string()),
                _ => Refusal::invalid(refused.to_string()),
            })?;
        let spiele = t.spiele_per_passe.get();
        let name = phone_name(&t, &team, address);
        let author = audit::Author::Named(&name);
        let key = (passe, seat.table);
        // The Protokoll keeps what changed, not the whole Tafel twice (a Tafel of 60 lines
        // would make every line's entry kilobytes).
        let record = |conn: &mut Conn,
                      action: ReportAction,
                      before: Option<&TableReportRow>,
                      after: &TableReportRow| {
            audit::record_as(
                conn,
                author,
                audit::Entry {
                    entity_id: Some(after.id),
                    ..audit_entry(id, AuditEvent::TableReport(action))
                },
                before.map(ReportAudit::of).as_ref(),
                Some(&ReportAudit::of(after)),
            )
        };
        let done = match (step, ask) {
            (Step::New | Step::Replace, PhoneAsk::Report(own)) => {
                // Differenzler: the whole table's four figures, kept with the report as the
                // table's sheet; otherwise the side's own points.
                let kind = t.mode.facts().score_kind;
                let parsed = match kind.per_player() {
                    true => {
                        let rules = crate::app::entry::kind_rules(conn, &t)?;
                        kind.parse_score(&own.as_differenzen(), spiele, t.mode.entrant(), rules)
                            .and_then(|(score, details)| {
                                let sheet = details.map(|d| d.to_json()).transpose();
                                Ok((score, sheet.map_err(|_| FieldErrors::new())?))
                            })
                    }
                    false => table_report::parse_own(seat.side, &own, spiele).map(|s| (s, None)),
                };
                let (score, sheet) = match parsed {
                    Ok(parsed) => parsed,
                    Err(errors) => return Ok(Done::Invalid(errors)),
                };
                let reporting = stored::Reporting {
                    score,
                    state: ReportState::Gemeldet,
                    tafel: sheet,
                };
                let after = match &seat.report {
                    Some(report) if step == Step::Replace => {
                        stored::change_report(conn, report, reporting)?
                    }
                    _ => stored::put_report(conn, id, key, team.id, reporting)?,
                };
                record(
                    conn,
                    if step == Step::New {
                        ReportAction::Report
                    } else {
                        ReportAction::Change
                    },
                    seat.report.as_ref(),
                    &after,
                )?;
                Done::Reported
            }
            (Step::New | Step::Replace, PhoneAsk::Tafel(change)) => {
                let rules = marathon::rules(conn, id)?;
                let draft = match &seat.report {
                    Some(report) if step == Step::Replace => {
                        TafelDraft::read(report).map_err(Refusal::Internal)?
                    }
                    _ => TafelDraft::default(),
                };
                let mut lines = draft.spiele().map_err(Refusal::Internal)?;
                let mut gong = draft.gong;
                let action = match change {
                    TafelAsk::Add(form, number) => match form.spiel(&rules, false) {
                        Ok(spiel) => match new_line(&lines, &spiel, number) {
                            NewLine::Append => {
                                lines.push(spiel);
                                ReportAction::TafelLine
                            }
                            NewLine::AlreadyThere => return Ok(Done::Unchanged),
                            NewLine::Changed { lines } => {
                                return Err(Refusal::Conflict(NewLine::changed(lines)));
                            }
                        },
                        Err(errors) => return Ok(Done::Invalid(errors)),
                    },
                    TafelAsk::Delete(n) => {
                        if n == 0 || n > lines.len() {
                            return Err(Refusal::invalid(format!("Zeile {n} gibt es nicht.")));
                        }
                        lines.remove(n - 1);
                        ReportAction::TafelDelete
                    }
                    TafelAsk::Gong(on) => {
                        gong = on;
                        if on {
                            ReportAction::TafelGong
                        } else {
                            ReportAction::TafelReopen
                        }
                    }
                };
                let computed = compute(&rules, &lines, gong)
                    .map_err(|e| Refusal::invalid(format!("Zeile {}: {}", e.line, e.message)))?;
                let draft = TafelDraft::of(&lines, gong);
                let reporting = stored::Reporting {
                    score: TableScore::of_striche(&Details {
                        a: computed.a,
                        b: computed.b,
                    }),
                    // The Gong closes the Tafel: then it is reported to the opponents.
                    state: if gong {
                        ReportState::Gemeldet
                    } else {
                        ReportState::Laufend
                    },
                    tafel: Some(draft.json().map_err(Refusal::Internal)?),
                };
                let after = match &seat.report {
                    Some(report) if step == Step::Replace => {
                        stored::change_report(conn, report, reporting)?
                    }
                    _ => stored::put_report(conn, id, key, team.id, reporting)?,
                };
                record(conn, action, seat.report.as_ref(), &after)?;
                Done::Reported
            }
            (Step::Confirm, PhoneAsk::Confirm { .. }) => {
                let report = seat
                    .report
                    .as_ref()
                    .ok_or_else(|| Refusal::Internal("confirm without report".into()))?;
                write_reported(conn, Writer::Table(&name), &data, key, report)?;
                let after = stored::answer(
                    conn,
                    report,
                    Answer {
                        state: ReportState::Bestaetigt,
                        by: Some(team.id),
                        score: None,
                        note: None,
                    },
                )?;
                record(conn, ReportAction::Confirm, Some(report), &after)?;
                Done::Confirmed
            }
            (Step::Dispute, PhoneAsk::Dispute { own, note, .. }) => {
                let report = seat
                    .report
                    .as_ref()
                    .ok_or_else(|| Refusal::Internal("dispute without report".into()))?;
                let note: String = note.trim().chars().take(300).collect();
                // A Tafel or a Schätzzettel is disputed with a note (the office looks at it);
                // points with the side's own, different figure and a note.
                let score = match t.mode.facts().score_kind.disputed_by_note() {
                    true if note.is_empty() => {
                        return Ok(Done::Invalid(crate::domain::form::FieldErrors::single(
                            "note",
                            format!(
                                "Bitte kurz sagen, was {} nicht stimmt.",
                                match t.mode.has_tafel() {
                                    true => "auf der Tafel",
                                    false => "an der Meldung",
                                }
                            ),
                        )));
                    }
                    true => None,
                    false => match table_report::parse_dispute(
                        seat.side,
                        &own,
                        &note,
                        spiele,
                        reported_score(report),
                    ) {
                        Ok(score) => Some(score),
                        Err(errors) => return Ok(Done::Invalid(errors)),
                    },
                };
                let after = stored::answer(
                    conn,
                    report,
                    Answer {
                        state: ReportState::Widerspruch,
                        by: Some(team.id),
                        score,
                        note: Some(note.as_str()).filter(|n| !n.is_empty()),
                    },
                )?;
                record(conn, ReportAction::Dispute, Some(report), &after)?;
                Done::Disputed
            }
            _ => return Err(Refusal::Internal("table step and ask disagree".into())),
        };
        tournaments::bump_version(conn, id)?;
        Ok(done)
    })
}

/// A report as the Protokoll shows it: its figures and state, a Tafel by its size and last
/// line (the lines themselves are on the Tafel).
#[derive(serde::Serialize)]
struct ReportAudit<'a> {
    passe: Nat,
    table: Nat,
    reporter_id: TeamId,
    points_a: Nat,
    points_b: Nat,
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer_by: Option<TeamId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer_points_a: Option<Nat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    answer_points_b: Option<Nat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tafel_lines: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_line: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    gong: bool,
}

impl<'a> ReportAudit<'a> {
    fn of(report: &'a TableReportRow) -> Self {
        let draft = report
            .tafel
            .as_ref()
            .and_then(|_| TafelDraft::read(report).ok());
        let last_line = draft
            .as_ref()
            .and_then(|d| d.lines.last())
            .and_then(|l| l.spiel())
            .map(|s| s.summary());
        ReportAudit {
            passe: report.passe,
            table: report.table_no,
            reporter_id: report.reporter_id,
            points_a: report.points_a,
            points_b: report.points_b,
            state: report.state.key(),
            answer_by: report.answer_by,
            answer_points_a: report.answer_points_a,
            answer_points_b: report.answer_points_b,
            note: report.note.as_deref(),
            tafel_lines: draft.as_ref().map(|d| d.lines.len()),
            last_line,
            gong: draft.is_some_and(|d| d.gong),
        }
    }
}

fn reported_score(report: &TableReportRow) -> TableScore {
    points_score(report.points_a, report.points_b)
}

/// A table's points as stored with a report (Matches are not reported from the table).
fn points_score(a: Nat, b: Nat) -> TableScore {
    TableScore {
        points_a: a.get(),
        points_b: b.get(),
        matches_a: 0,
        matches_b: 0,
    }
}

/// Writes a report as the table's result: its points, or its Tafel (stored as the table's
/// Tafel, closed, with the Striche as the result).
fn write_reported(
    conn: &mut Conn,
    writer: Writer<'_>,
    data: &TournamentData,
    key: (u32, u32),
    report: &TableReportRow,
) -> Result<TableScore, Refusal> {
    if report.tafel.is_none() {
        let score = reported_score(report);
        write_result(conn, writer, data, key, score, None)?;
        return Ok(score);
    }
    // Differenzler: the report keeps the table's sheet; it becomes the result's details.
    if data.tournament.mode.facts().score_kind.per_player() {
        let score = reported_score(report);
        write_result(conn, writer, data, key, score, report.tafel.clone())?;
        return Ok(score);
    }
    let id = data.tournament.id;
    let draft = TafelDraft::read(report).map_err(Refusal::Internal)?;
    let lines = draft.spiele().map_err(Refusal::Internal)?;
    let rules = marathon::rules(conn, id)?;
    let computed = compute(&rules, &lines, draft.gong)
        .map_err(|e| Refusal::invalid(format!("Zeile {}: {}", e.line, e.message)))?;
    let details = Details {
        a: computed.a,
        b: computed.b,
    };
    let score = TableScore::of_striche(&details);
    marathon::save_tafel(conn, id, key.0, key.1, &lines, draft.gong)?;
    write_result(
        conn,
        writer,
        data,
        key,
        score,
        Some(serde_json::to_string(&details)?),
    )?;
    Ok(score)
}

/// Writes the table's result through the one result path; a result stored meanwhile
/// refuses.
fn write_result(
    conn: &mut Conn,
    writer: Writer<'_>,
    data: &TournamentData,
    (passe, table): (u32, u32),
    score: TableScore,
    details: Option<String>,
) -> Result<(), Refusal> {
    let entry = TableEntry {
        passe,
        table,
        score,
        expected_version: None,
        details,
        reason: None,
    };
    let before = sheets_before_write(conn, data)?;
    match write_checked(conn, writer, data, &entry)? {
        SaveOutcome::Saved(_) => finish_result_writes(conn, data.tournament.id, before.as_deref()),
        _ => Err(Refusal::Conflict(format!(
            "Tisch {table} hat inzwischen ein Resultat."
        ))),
    }
}

/// The office (Büro, Kontrolleur or Leitung) decides a table's report: takes the reported
/// version or the disputing team's. `seen` is the report's version shown to the user.
#[tracing::instrument(skip_all, fields(tournament = %id, passe, table))]
pub fn decide(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    (passe, table): (u32, u32),
    version: Version,
    seen: i32,
) -> Result<TableScore, Refusal> {
    if !actor.may_change_results() {
        return Err(Refusal::forbidden());
    }
    crate::db::write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::open_tournament(conn, id)?;
        guard::round(&t, passe)?;
        let report = stored::report_at(conn, id, passe, table)?
            .ok_or_else(|| Refusal::NotFound("Zu diesem Tisch gibt es keine Meldung.".into()))?;
        if report.version != seen {
            return Err(Refusal::Conflict(
                "Die Meldung wurde inzwischen geändert. Bitte nochmals ansehen.".into(),
            ));
        }
        table_report::may_decide(report.state, version).map_err(Refusal::invalid)?;
        let data = tournament_data::load_table(conn, t, passe, table)?;
        let writer = Writer::Ruling(actor);
        let score = match (version, report.answer_points_a, report.answer_points_b) {
            (Version::Reported, ..) => {
                write_reported(conn, writer, &data, (passe, table), &report)?
            }
            (Version::Answer, Some(a), Some(b)) => {
                let score = points_score(a, b);
                write_result(conn, writer, &data, (passe, table), score, None)?;
                score
            }
            (Version::Answer, ..) => {
                return Err(Refusal::invalid(
                    "Zu dieser Meldung gibt es keine zweite Version: die Tafel im Büro korrigieren.",
                ));
            }
        };
        let after = stored::answer(
            conn,
            &report,
            Answer {
                state: ReportState::Entschieden,
                by: None,
                score: None,
                note: None,
            },
        )?;
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                entity_id: Some(after.id),
                ..audit_entry(
                    id,
                    AuditEvent::TableReport(match version {
                        Version::Reported => ReportAction::DecideReported,
                        Version::Answer => ReportAction::DecideAnswer,
                    }),
                )
            },
            Some(&report),
            Some(&after),
        )?;
        Ok(score)
    })
}
