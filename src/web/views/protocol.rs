//! Protokoll entries as German sentences ("Passe 1, Tisch 3: 655 : 601 → 665 : 591
//! korrigiert von anna"), with the teams and the Passe they concern, for filtering.

use crate::db::models::AuditRow;
use crate::domain::audit_event::{
    AuditEvent, CodeAction, DrawAction, PendingAction, PersonAction, ReportAction, ResultAction,
    SeriesAction, SingleAction, StandblattAction, SwitchAction, TafelAction, TeamAction,
    TournamentAction, UserAction,
};
use crate::domain::format;
use crate::domain::ids::TeamId;
use serde_json::Value;
use std::collections::HashMap;

pub struct ProtocolLine {
    pub id: i32,
    pub at: String,
    pub user: String,
    pub text: String,
    pub before: Option<String>,
    pub after: Option<String>,
    /// Teams the entry concerns (for the team filter).
    pub teams: Vec<TeamId>,
    pub passe: Option<u32>,
}

/// What the sentences need to know about the tournament of an entry.
pub struct Names<'a> {
    pub round: &'a str,
    pub teams: &'a HashMap<TeamId, String>,
}

fn json(raw: &Option<String>) -> Value {
    raw.as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or(Value::Null)
}

fn int(v: &Value, key: &str) -> Option<i64> {
    v.get(key).and_then(Value::as_i64)
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn points(v: &Value) -> String {
    format!(
        "{} : {}",
        format::number(int(v, "points_a").unwrap_or_default()),
        format::number(int(v, "points_b").unwrap_or_default())
    )
}

pub fn describe(e: &AuditRow, names: &Names<'_>) -> ProtocolLine {
    let (before, after) = (json(&e.before), json(&e.after));
    let event = AuditEvent::parse(&e.entity, &e.action);
    let any = if after.is_null() { &before } else { &after };
    let round = names.round;
    let team_name = |id: Option<i64>| {
        id.and_then(|i| names.teams.get(&TeamId(i32::try_from(i).ok()?)).cloned())
            .unwrap_or_else(|| id.map(|i| format!("Team #{i}")).unwrap_or_default())
    };
    let passe = int(any, "passe")
        .or_else(|| {
            matches!(event, Some(AuditEvent::Clock(_)))
                .then(|| e.entity_id.map(i64::from))
                .flatten()
        })
        .and_then(|p| u32::try_from(p).ok());
    let at_table = || {
        format!(
            "{round} {}, Tisch {}",
            passe.unwrap_or_default(),
            int(any, "table_no")
                .or_else(|| int(any, "table"))
                .unwrap_or_default()
        )
    };
    let mut teams = Vec::new();
    let by = &e.username;
    let sentence = match event {
        Some(AuditEvent::Result(action)) => {
            teams.extend(
                [int(any, "team_a_id"), int(any, "team_b_id")]
                    .into_iter()
                    .flatten()
                    .map(|i| TeamId(i as i32)),
            );
            let pair = format!(
                "{} – {}",
                team_name(int(any, "team_a_id")),
                team_name(int(any, "team_b_id"))
            );
            match action {
                ResultAction::Enter => format!(
                    "{}: {} erfasst ({pair}) von {by}",
                    at_table(),
                    points(&after)
                ),
                ResultAction::Correct => {
                    let reason = text(&after, "grund")
                        .map(|g| format!(" – Grund: {g}"))
                        .unwrap_or_default();
                    let visaed = |v: &Value| {
                        ["visa_a_at", "visa_b_at"]
                            .iter()
                            .any(|k| v.get(*k).is_some_and(|x| !x.is_null()))
                    };
                    let visa = if visaed(&before) && !visaed(&after) {
                        ", Visum aufgehoben"
                    } else {
                        ""
                    };
                    // A Tafel line that moves no Strich still rewrites the result: said so,
                    // not "1 : 0 → 1 : 0 korrigiert".
                    match points(&before) == points(&after) {
                        true => format!(
                            "{}: Resultat neu berechnet, unverändert {}{visa} ({by}){reason}",
                            at_table(),
                            points(&after)
                        ),
                        false => format!(
                            "{}: {} → {} korrigiert{visa} von {by}{reason}",
                            at_table(),
                            points(&before),
                            points(&after)
                        ),
                    }
                }
                ResultAction::Visa => format!("{} ({pair}) visiert von {by}", at_table()),
                ResultAction::Delete => format!(
                    "{}: Resultat {} gelöscht von {by}",
                    at_table(),
                    points(&before)
                ),
            }
        }
        Some(AuditEvent::PendingEntry(action)) => {
            let what = match action {
                PendingAction::EnterFirst => "erste Erfassung",
                PendingAction::Confirm => "zweite Erfassung, bestätigt",
                PendingAction::Resolve => "von der Turnierleitung entschieden",
                PendingAction::Contradiction => "Erfassungen widersprechen sich",
            };
            format!("{}: {} ({what}) von {by}", at_table(), points(any))
        }
        Some(AuditEvent::Team(action)) => {
            let id = e.entity_id.map(i64::from);
            teams.extend(e.entity_id.map(TeamId));
            let name = team_name(id);
            match action {
                TeamAction::Create => format!("Team {name} angelegt von {by}"),
                TeamAction::Import => format!("Team {name} importiert (CSV) von {by}"),
                TeamAction::Update => format!("Team {name} geändert von {by}"),
                TeamAction::PartnerDrawn => {
                    format!("Team {name} aus Einzelanmeldungen gezogen von {by}")
                }
                TeamAction::Delete => format!(
                    "Team {} gelöscht von {by}",
                    text(&before, "player1").unwrap_or_default()
                ),
                TeamAction::FinalVisa => format!("Endvisum für {name} von {by}"),
                TeamAction::Disqualify | TeamAction::Withdraw => {
                    let word = if action == TeamAction::Disqualify {
                        "disqualifiziert"
                    } else {
                        "zurückgezogen"
                    };
                    let from = int(&after, "out_passe")
                        .map(|p| format!(" (Pauschale für die Gegner ab {round} {p})"))
                        .unwrap_or_default();
                    let reason = text(&after, "out_reason")
                        .map(|r| format!(", Grund: {r}"))
                        .unwrap_or_default();
                    format!("{name} {word}{from}{reason} von {by}")
                }
                TeamAction::Reinstate => format!("{name} wieder aufgenommen von {by}"),
            }
        }
        Some(AuditEvent::Standblatt(action)) => {
            teams.extend(e.entity_id.map(TeamId));
            let name = team_name(e.entity_id.map(i64::from));
            let total = |v: &Value| format::number(int(v, "total").unwrap_or_default());
            let cause = int(any, "cause")
                .map(|c| format!("Nr. {c}"))
                .unwrap_or_default();
            let what = if action == StandblattAction::OpponentBack {
                format!("Gegner {cause} wieder aufgenommen")
            } else {
                format!("Gegner {cause} ausgeschieden")
            };
            format!(
                "Standblatt {name}: {what}, Total {} → {} ({by})",
                total(&before),
                total(&after)
            )
        }
        Some(AuditEvent::Draw(DrawAction::Draw)) => format!(
            "Lose gezogen ({}, Startwert {}) von {by}",
            match text(&after, "mode") {
                Some("pro_passe") => format!("pro {round} neu"),
                _ => "fester Tischplan".to_string(),
            },
            int(&after, "seed").unwrap_or_default()
        ),
        Some(AuditEvent::Draw(DrawAction::DrawPasse)) => {
            let p = int(&after, "passe").unwrap_or_default();
            format!("{round} {p} ausgelost von {by}")
        }
        Some(AuditEvent::Tournament(action)) => {
            let name = text(any, "name").unwrap_or_default();
            match action {
                TournamentAction::Create => format!("Turnier «{name}» angelegt von {by}"),
                TournamentAction::Update => {
                    format!("Einstellungen von «{name}» geändert von {by}")
                }
                TournamentAction::Close => format!("Turnier «{name}» abgeschlossen von {by}"),
                TournamentAction::Reopen => format!("Turnier «{name}» wieder geöffnet von {by}"),
                TournamentAction::Visibility => {
                    if after.get("public").and_then(Value::as_bool) == Some(true) {
                        format!("Öffentliche Seiten von «{name}» eingeschaltet von {by}")
                    } else {
                        format!("Öffentliche Seiten von «{name}» ausgeschaltet von {by}")
                    }
                }
                TournamentAction::Import => format!("Turnier «{name}» importiert von {by}"),
                TournamentAction::Prizes => format!("Preisliste von «{name}» geändert von {by}"),
                TournamentAction::Categories => {
                    format!("Kategorien von «{name}» geändert von {by}")
                }
                TournamentAction::CategoryMembers => {
                    format!("Kategorien der Teams von «{name}» geändert von {by}")
                }
                TournamentAction::Absenden => match after.get("absenden_step") {
                    Some(Value::Null) | None => format!("Absenden von «{name}» beendet von {by}"),
                    Some(_) => format!("Absenden von «{name}» begonnen von {by}"),
                },
            }
        }
        Some(AuditEvent::Clock(action)) => format!(
            "{round} {}: {} ({by})",
            passe.unwrap_or_default(),
            action.done_message()
        ),
        Some(AuditEvent::Tafel(action)) => {
            // Entries since the Spiel is named: which line, what it holds, the Striche
            // before and after, and whether a visa fell. Older entries say less.
            let spiel = int(&after, "line").map(|n| match text(&after, "spiel") {
                Some(what) => format!("Spiel {n} ({what})"),
                None => format!("Spiel {n}"),
            });
            let line_word = |done: &str| match &spiel {
                Some(spiel) => format!("Tafel: {spiel} {done}"),
                None => format!("Tafel: Zeile {done}"),
            };
            let closed = after.get("gong").and_then(Value::as_bool);
            let what = match action {
                TafelAction::AddLine => line_word("eingetragen"),
                TafelAction::CorrectLine => line_word("korrigiert"),
                TafelAction::DeleteLine => line_word("gelöscht"),
                TafelAction::Gong if closed == Some(false) => {
                    "Tafel: Abschluss zurückgenommen".into()
                }
                TafelAction::Gong => "Tafel abgeschlossen (Gong)".into(),
                TafelAction::EntryMode => "Tafel: Art der Punkte geändert".into(),
                TafelAction::ReplaceSource => "Resultatquelle ersetzt".into(),
            };
            let pair = |key: &str| {
                after.get(key).and_then(Value::as_array).map(|v| {
                    v.iter()
                        .map(|x| x.as_i64().unwrap_or_default().to_string())
                        .collect::<Vec<_>>()
                        .join(" : ")
                })
            };
            let striche = match (pair("striche_before"), pair("striche")) {
                (Some(b), Some(a)) if b != a => format!(", Striche {b} → {a}"),
                (Some(b), Some(_)) => format!(", Striche unverändert {b}"),
                (None, Some(a))
                    if !matches!(action, TafelAction::EntryMode | TafelAction::ReplaceSource) =>
                {
                    format!(", Striche {a}")
                }
                _ => String::new(),
            };
            let visa = match after.get("visa_removed").and_then(Value::as_bool) {
                Some(true) => ", Visum aufgehoben",
                _ => "",
            };
            format!("{}: {what}{striche}{visa} von {by}", at_table())
        }
        Some(AuditEvent::TableReport(action)) => {
            teams.extend(
                [int(any, "reporter_id"), int(any, "answer_by")]
                    .into_iter()
                    .flatten()
                    .map(|i| TeamId(i as i32)),
            );
            let what = match action {
                ReportAction::Report => {
                    format!("Resultat vom Tisch gemeldet: {}", points(&after))
                }
                ReportAction::Change => {
                    format!("Meldung geändert: {} → {}", points(&before), points(&after))
                }
                ReportAction::TafelLine => "Tafel am Tisch: Zeile eingetragen".into(),
                ReportAction::TafelDelete => "Tafel am Tisch: Zeile gelöscht".into(),
                ReportAction::TafelGong => format!(
                    "Tafel am Tisch abgeschlossen und gemeldet: {}",
                    points(&after)
                ),
                ReportAction::TafelReopen => "Tafel am Tisch: Abschluss zurückgenommen".into(),
                ReportAction::Confirm => {
                    format!("Meldung {} von den Gegnern bestätigt", points(&after))
                }
                ReportAction::Dispute => format!(
                    "Widerspruch gegen {}{}{}",
                    points(&after),
                    match (
                        int(&after, "answer_points_a"),
                        int(&after, "answer_points_b")
                    ) {
                        (Some(a), Some(b)) => format!(
                            ", die Gegner sagen {} : {}",
                            format::number(a),
                            format::number(b)
                        ),
                        _ => String::new(),
                    },
                    text(&after, "note")
                        .map(|n| format!(" – «{n}»"))
                        .unwrap_or_default()
                ),
                ReportAction::DecideReported => {
                    format!("Meldung {} übernommen (entschieden)", points(&after))
                }
                ReportAction::DecideAnswer => {
                    "Version der widersprechenden Gegner übernommen (entschieden)".into()
                }
                ReportAction::Supersede => {
                    "Meldung vom Tisch durch die Erfassung im Büro ersetzt".into()
                }
            };
            format!("{}: {what} – {by}", at_table())
        }
        Some(AuditEvent::TableCode(action)) => {
            let nr = int(any, "startnummer").unwrap_or_default();
            teams.extend(e.entity_id.map(TeamId));
            match action {
                CodeAction::Admitted => format!("Tisch-Code von Nr. {nr} angenommen – {by}"),
                CodeAction::Refused => format!("Falscher Tisch-Code für Nr. {nr} – {by}"),
                CodeAction::Revoke => format!("Neuer Tisch-Code für Nr. {nr} von {by}"),
                CodeAction::Stopped => format!(
                    "Tisch-Telefon von Nr. {nr} gestoppt (zu viele Einträge) bis {} – {by}",
                    text(any, "bis")
                        .and_then(|t| chrono::NaiveDateTime::parse_from_str(
                            t,
                            "%Y-%m-%dT%H:%M:%S%.f"
                        )
                        .ok())
                        .map(|t| t.format("%H:%M").to_string())
                        .unwrap_or_default()
                ),
            }
        }
        Some(AuditEvent::TableEntry(action)) => match action {
            SwitchAction::On | SwitchAction::Open => format!(
                "Resultate vom Tisch: offen für {round} {} – {by}",
                int(&after, "offen").map_or("keine".to_string(), |p| p.to_string())
            ),
            SwitchAction::Off => format!("Resultate vom Tisch ausgeschaltet von {by}"),
            SwitchAction::Close => format!("Resultate vom Tisch geschlossen von {by}"),
        },
        Some(AuditEvent::User(action)) => {
            let name = text(any, "username").unwrap_or_default();
            match action {
                UserAction::Create => format!("Benutzer {name} angelegt von {by}"),
                UserAction::Update => format!("Benutzer {name} geändert von {by}"),
                UserAction::Password => format!("Passwort von {name} geändert von {by}"),
            }
        }
        Some(AuditEvent::Person(action)) => {
            let who = |v: &Value| {
                format!(
                    "{} {} (#{})",
                    text(v, "vorname").unwrap_or_default(),
                    text(v, "name").unwrap_or_default(),
                    int(v, "id").unwrap_or_default()
                )
            };
            match action {
                PersonAction::Update => format!("Person {} geändert von {by}", who(any)),
                PersonAction::Merge => format!(
                    "Person {} mit {} zusammengeführt von {by}",
                    who(&before),
                    who(&after)
                ),
                PersonAction::Delete => format!(
                    "Person #{} auf Wunsch gelöscht von {by}",
                    int(&before, "id").unwrap_or_default()
                ),
            }
        }
        Some(AuditEvent::Series(action)) => {
            let name = text(any, "name").unwrap_or_default();
            match action {
                SeriesAction::Create => format!("Serie «{name}» angelegt von {by}"),
                SeriesAction::Update => format!("Serie «{name}» geändert von {by}"),
                SeriesAction::Tournaments => {
                    format!("Turniere der Serie «{name}» geändert von {by}")
                }
                SeriesAction::Hall => format!(
                    "Halle «{}» ({}) für die Serie «{name}» anerkannt von {by}",
                    text(any, "hall").unwrap_or_default(),
                    text(any, "fingerprint").unwrap_or_default()
                ),
                SeriesAction::Report => format!(
                    "Bericht «{}» (Revision {}, Halle «{}») in die Serie «{name}» übernommen von {by}",
                    text(any, "tournament").unwrap_or_default(),
                    int(any, "revision").unwrap_or_default(),
                    text(any, "hall").unwrap_or_default()
                ),
            }
        }
        Some(AuditEvent::Single(action)) => {
            let player = text(any, "player").unwrap_or_default();
            match action {
                SingleAction::Create => format!("Einzelanmeldung {player} angelegt von {by}"),
                SingleAction::Delete => format!("Einzelanmeldung {player} gelöscht von {by}"),
                SingleAction::PartnerDraw => {
                    format!("Partner für die Einzelanmeldungen gezogen von {by}")
                }
            }
        }
        // A row this version does not know (a newer version's): as stored.
        None => format!("{}: {} von {by}", e.entity, e.action),
    };
    ProtocolLine {
        id: e.id,
        at: format::date_time(e.at),
        user: e.username.clone(),
        text: sentence,
        before: e.before.clone(),
        after: e.after.clone(),
        teams,
        passe,
    }
}
