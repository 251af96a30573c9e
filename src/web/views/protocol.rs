//! Protokoll entries as German sentences ("Passe 1, Tisch 3: 655 : 601 → 665 : 591
//! korrigiert von anna"), with the teams and the Passe they concern, for filtering.

use crate::db::models::AuditRow;
use crate::domain::clock::ClockAction;
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
    let any = if after.is_null() { &before } else { &after };
    let round = names.round;
    let team_name = |id: Option<i64>| {
        id.and_then(|i| names.teams.get(&TeamId(i as i32)).cloned())
            .unwrap_or_else(|| id.map(|i| format!("Team #{i}")).unwrap_or_default())
    };
    let passe = int(any, "passe")
        .or_else(|| {
            (e.entity == "clock")
                .then(|| e.entity_id.map(i64::from))
                .flatten()
        })
        .map(|p| p as u32);
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
    let sentence = match (e.entity.as_str(), e.action.as_str()) {
        ("result", action) => {
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
                "enter" => format!(
                    "{}: {} erfasst ({pair}) von {by}",
                    at_table(),
                    points(&after)
                ),
                "correct" => {
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
                "visa" => format!("{} ({pair}) visiert von {by}", at_table()),
                "delete" => format!(
                    "{}: Resultat {} gelöscht von {by}",
                    at_table(),
                    points(&before)
                ),
                other => format!("{}: {other} von {by}", at_table()),
            }
        }
        ("pending_entry", action) => {
            let what = match action {
                "first" => "erste Erfassung",
                "confirm" => "zweite Erfassung, bestätigt",
                "resolve" => "von der Turnierleitung entschieden",
                "mismatch" => "Erfassungen widersprechen sich",
                other => other,
            };
            format!("{}: {} ({what}) von {by}", at_table(), points(any))
        }
        ("team", action) => {
            let id = e.entity_id.map(i64::from);
            teams.extend(e.entity_id.map(TeamId));
            let name = team_name(id);
            match action {
                "create" => format!("Team {name} angelegt von {by}"),
                "import" => format!("Team {name} importiert (CSV) von {by}"),
                "update" => format!("Team {name} geändert von {by}"),
                "delete" => format!(
                    "Team {} gelöscht von {by}",
                    text(&before, "player1").unwrap_or_default()
                ),
                "final_visa" => format!("Endvisum für {name} von {by}"),
                "disqualify" | "withdraw" => {
                    let word = if action == "disqualify" {
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
                "reinstate" => format!("{name} wieder aufgenommen von {by}"),
                other => format!("Team {name}: {other} von {by}"),
            }
        }
        ("standblatt", action) => {
            teams.extend(e.entity_id.map(TeamId));
            let name = team_name(e.entity_id.map(i64::from));
            let total = |v: &Value| format::number(int(v, "total").unwrap_or_default());
            let cause = int(any, "cause")
                .map(|c| format!("Nr. {c}"))
                .unwrap_or_default();
            let what = if action == "gegner_wieder_aufgenommen" {
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
        ("draw", "draw") => format!(
            "Lose gezogen ({}, Startwert {}) von {by}",
            match text(&after, "mode") {
                Some("pro_passe") => format!("pro {round} neu"),
                _ => "fester Tischplan".to_string(),
            },
            int(&after, "seed").unwrap_or_default()
        ),
        ("draw", "draw_passe") => {
            let p = int(&after, "passe").unwrap_or_default();
            format!("{round} {p} ausgelost von {by}")
        }
        ("tournament", action) => {
            let name = text(any, "name").unwrap_or_default();
            match action {
                "create" => format!("Turnier «{name}» angelegt von {by}"),
                "update" => format!("Einstellungen von «{name}» geändert von {by}"),
                "close" => format!("Turnier «{name}» abgeschlossen von {by}"),
                "reopen" => format!("Turnier «{name}» wieder geöffnet von {by}"),
                "visibility" => {
                    if after.get("public").and_then(Value::as_bool) == Some(true) {
                        format!("Öffentliche Seiten von «{name}» eingeschaltet von {by}")
                    } else {
                        format!("Öffentliche Seiten von «{name}» ausgeschaltet von {by}")
                    }
                }
                "import" => format!("Turnier «{name}» importiert von {by}"),
                other => format!("Turnier «{name}»: {other} von {by}"),
            }
        }
        ("clock", action) => format!(
            "{round} {}: {} ({by})",
            passe.unwrap_or_default(),
            ClockAction::parse(action).map_or(action.to_string(), |a| a.done_message().to_string())
        ),
        ("tafel", action) => {
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
                "add_line" => line_word("eingetragen"),
                "correct_line" => line_word("korrigiert"),
                "delete_line" => line_word("gelöscht"),
                "gong" if closed == Some(false) => "Tafel: Abschluss zurückgenommen".into(),
                "gong" => "Tafel abgeschlossen (Gong)".into(),
                "entry_mode" => "Tafel: Art der Punkte geändert".into(),
                "replace_source" => "Resultatquelle ersetzt".into(),
                other => other.into(),
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
                (None, Some(a)) if action != "entry_mode" && action != "replace_source" => {
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
        ("table_report", action) => {
            teams.extend(
                [int(any, "reporter_id"), int(any, "answer_by")]
                    .into_iter()
                    .flatten()
                    .map(|i| TeamId(i as i32)),
            );
            let what = match action {
                "report" => format!("Resultat vom Tisch gemeldet: {}", points(&after)),
                "change" => format!("Meldung geändert: {} → {}", points(&before), points(&after)),
                "tafel_line" => "Tafel am Tisch: Zeile eingetragen".into(),
                "tafel_delete" => "Tafel am Tisch: Zeile gelöscht".into(),
                "tafel_gong" => format!(
                    "Tafel am Tisch abgeschlossen und gemeldet: {}",
                    points(&after)
                ),
                "tafel_reopen" => "Tafel am Tisch: Abschluss zurückgenommen".into(),
                "confirm" => format!("Meldung {} von den Gegnern bestätigt", points(&after)),
                "dispute" => format!(
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
                "decide_reported" => format!("Meldung {} übernommen (entschieden)", points(&after)),
                "decide_answer" => {
                    "Version der widersprechenden Gegner übernommen (entschieden)".into()
                }
                "supersede" => "Meldung vom Tisch durch die Erfassung im Büro ersetzt".into(),
                other => other.to_string(),
            };
            format!("{}: {what} – {by}", at_table())
        }
        ("table_code", action) => {
            let nr = int(any, "startnummer").unwrap_or_default();
            teams.extend(e.entity_id.map(TeamId));
            match action {
                "admitted" => format!("Tisch-Code von Nr. {nr} angenommen – {by}"),
                "refused" => format!("Falscher Tisch-Code für Nr. {nr} – {by}"),
                "revoke" => format!("Neuer Tisch-Code für Nr. {nr} von {by}"),
                "stopped" => format!(
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
                other => format!("Tisch-Code Nr. {nr}: {other} – {by}"),
            }
        }
        ("table_entry", action) => match action {
            "on" | "open" => format!(
                "Resultate vom Tisch: offen für {round} {} – {by}",
                int(&after, "offen").map_or("keine".to_string(), |p| p.to_string())
            ),
            "off" => format!("Resultate vom Tisch ausgeschaltet von {by}"),
            "close" => format!("Resultate vom Tisch geschlossen von {by}"),
            other => format!("Resultate vom Tisch: {other} von {by}"),
        },
        ("user", action) => {
            let name = text(any, "username").unwrap_or_default();
            match action {
                "create" => format!("Benutzer {name} angelegt von {by}"),
                other => format!("Benutzer {name}: {other} von {by}"),
            }
        }
        (entity, action) => format!("{entity}: {action} von {by}"),
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
