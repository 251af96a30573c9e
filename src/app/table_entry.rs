//! Results from the table (README "Resultate vom Tisch"): the Leitung switches it on and
//! opens a Passe; a phone gives its team's code once; one team reports its table's result,
//! the other confirms (the result is written through [`super::result_write`], as every
//! other) or disputes it (the office decides). Every step is in the Protokoll with the team
//! and the client's address.

use super::Refusal;
use super::guard;
use crate::db::audit::{AuditEvent, CodeAction, SwitchAction};
use crate::db::models::{TeamRow, TournamentRow};
use crate::db::table_entry::{self as stored};
use crate::db::tournament_data::{self, TournamentData};
use crate::db::{Conn, Lock, audit, seats, teams, throttle as counters, users};
use crate::domain::ids::{TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use crate::domain::table_code;
use crate::domain::throttle::{self, Counter};
use serde_json::json;

pub mod at_table;
pub mod report;
/// What the Leitung does with table entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch {
    /// On, with codes for every team, open for the first Passe not yet complete.
    On,
    Off,
    /// Open for this Passe (closes the one open before).
    Open(u32),
    /// Closed for every Passe; reports still waiting go to the office.
    Close,
}

impl Switch {
    /// The Protokoll's word for it.
    fn event(self) -> AuditEvent {
        AuditEvent::TableEntry(match self {
            Switch::On => SwitchAction::On,
            Switch::Off => SwitchAction::Off,
            Switch::Open(_) => SwitchAction::Open,
            Switch::Close => SwitchAction::Close,
        })
    }
}

pub(super) fn audit_entry(id: TournamentId, event: AuditEvent) -> audit::Entry {
    audit::Entry {
        tournament: Some(id),
        event,
        entity_id: None,
    }
}

/// Switches table entry; the message for the Leitung.
pub fn switch(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    switch: Switch,
) -> Result<String, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    crate::db::write_tx(conn, Lock::Tournament(id), |conn| {
        let t = guard::begin_write(conn, id)?;
        let round = t.mode.round();
        if matches!(switch, Switch::Open(_) | Switch::Close) && !stored::opening(conn, id)?.is_on()
        {
            return Err(Refusal::invalid(
                "Resultate vom Tisch sind nicht eingeschaltet.",
            ));
        }
        let (open, message) = match switch {
            Switch::On => {
                let data = tournament_data::load_row(conn, t.clone())?;
                let open = first_unfinished_passe(&data);
                let message = match open {
                    Some(p) => format!("Resultate vom Tisch eingeschaltet, offen für {round} {p}."),
                    None => "Resultate vom Tisch eingeschaltet; noch keine Passe offen (zuerst auslosen).".into(),
                };
                (open, message)
            }
            Switch::Open(passe) => {
                guard::round(&t, passe)?;
                if seats::table_count(conn, id, passe)? == 0 {
                    return Err(Refusal::invalid(format!(
                        "{round} {passe} ist noch nicht ausgelost."
                    )));
                }
                (
                    Some(passe),
                    format!("{round} {passe} ist offen für Resultate vom Tisch."),
                )
            }
            Switch::Close => {
                (None, "Resultate vom Tisch geschlossen: Meldungen, die noch warten, entscheidet das Büro.".into())
            }
            Switch::Off => {
                stored::switch_off(conn, id)?;
                audit::record(
                    conn,
                    Some(actor),
                    audit_entry(id, switch.event()),
                    None::<&()>,
                    None::<&()>,
                )?;
                return Ok("Resultate vom Tisch ausgeschaltet.".into());
            }
        };
        stored::set(conn, id, open)?;
        let ids: Vec<TeamId> = teams::list(conn, id)?.iter().map(|t| t.id).collect();
        let new_codes = stored::ensure_codes(conn, id, &ids)?;
        audit::record(
            conn,
            Some(actor),
            audit_entry(id, switch.event()),
            None::<&()>,
            Some(&json!({ "offen": open, "neue_codes": new_codes })),
        )?;
        Ok(message)
    })
}

/// The first drawn Passe with a table still to play.
fn first_unfinished_passe(data: &TournamentData) -> Option<u32> {
    (1..=data.drawn_passen()).find(|&p| {
        data.tables(p).iter().any(|table| {
            data.result_at(p, table.number).is_none() && !data.table_has_left(p, table)
        })
    })
}

/// A new code for a team (its old one and the phones admitted by it no longer work).
pub fn revoke(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    team: TeamId,
) -> Result<TeamRow, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    crate::db::write_tx(conn, Lock::Tournament(id), |conn| {
        guard::begin_write(conn, id)?;
        let team = guard::team(conn, id, team)?;
        stored::replace_code(conn, id, team.id)?;
        counters::clear(conn, Counter::CodeTeam, &team.id.to_string())?;
        // The code itself is not written to the Protokoll: it is printed for the team only.
        audit::record(
            conn,
            Some(actor),
            audit::Entry {
                entity_id: Some(team.id.0),
                ..audit_entry(id, AuditEvent::TableCode(CodeAction::Revoke))
            },
            None::<&()>,
            Some(&json!({ "startnummer": team.startnummer })),
        )?;
        Ok(team)
    })
}

/// What became of a code typed on a phone.
pub enum Admission {
    /// The phone is admitted: the token for its cookie.
    Admitted(String),
    Refused,
    /// Too many wrong codes from this address (for this team): seconds to wait.
    Throttled(i64),
}

/// Checks a typed code for the team with this Startnummer. Wrong codes are counted per
/// address (IPv6: its /64), per team at that address (these two block for a while) and per
/// team from anywhere (never blocks: the office is warned instead).
/// What a phone is told once the tournament is closed.
pub const CLOSED_FOR_PHONES: &str =
    "Das Turnier ist abgeschlossen: Resultate vom Tisch sind nicht mehr möglich.";

pub fn admit(
    conn: &mut Conn,
    id: TournamentId,
    startnummer: u32,
    typed: &str,
    address: &str,
) -> Result<Admission, Refusal> {
    let t = guard::tournament(conn, id)?;
    // A closed tournament admits no phone (and writes no admission into its Protokoll).
    if t.closed {
        return Err(Refusal::invalid(CLOSED_FOR_PHONES));
    }
    if !stored::opening(conn, id)?.is_on() {
        return Err(Refusal::invalid(
            "Resultate vom Tisch sind in diesem Turnier nicht eingeschaltet.",
        ));
    }
    let team = teams::by_startnummer(conn, id, startnummer)?
        .ok_or_else(|| Refusal::NotFound("Diese Startnummer gibt es nicht.".into()))?;
    let group = throttle::address_group(address);
    let at_address = format!("{}@{group}", team.id);
    let wait = match counters::blocked(conn, Counter::CodeAddress, &group)? {
        Some(wait) => Some(wait),
        None => counters::blocked(conn, Counter::CodeTeamAtAddress, &at_address)?,
    };
    if let Some(wait) = wait {
        return Ok(Admission::Throttled(wait));
    }
    let stored_code = stored::code_of(conn, team.id)?;
    let right = match (table_code::parse(typed), stored_code) {
        (Some(typed), Some(code)) => table_code::matches(&code, &typed),
        _ => false,
    };
    let name = phone_name(&t, &team, address);
    if !right {
        crate::db::write_tx(conn, Lock::Global, |conn| {
            counters::count_failure(conn, Counter::CodeAddress, &group)?;
            counters::count_failure(conn, Counter::CodeTeamAtAddress, &at_address)?;
            counters::count_failure(conn, Counter::CodeTeam, &team.id.to_string())?;
            audit::record_as(
                conn,
                audit::Author::Named(&name),
                audit::Entry {
                    entity_id: Some(team.id.0),
                    ..audit_entry(id, AuditEvent::TableCode(CodeAction::Refused))
                },
                None::<&()>,
                Some(&json!({ "startnummer": team.startnummer, "adresse": address })),
            )?;
            counters::purge(conn)
        })?;
        return Ok(Admission::Refused);
    }
    let token = users::random_token();
    let csrf = users::random_token();
    crate::db::write_tx(conn, Lock::Tournament(id), |conn| {
        stored::admit(conn, id, team.id, &token, &csrf, address)?;
        counters::clear(conn, Counter::CodeTeamAtAddress, &at_address)?;
        audit::record_as(
            conn,
            audit::Author::Named(&name),
            audit::Entry {
                entity_id: Some(team.id.0),
                ..audit_entry(id, AuditEvent::TableCode(CodeAction::Admitted))
            },
            None::<&()>,
            Some(&json!({ "startnummer": team.startnummer, "adresse": address })),
        )
    })?;
    Ok(Admission::Admitted(token))
}

/// How the Protokoll names a phone: its team (or player) and the client's address.
pub(super) fn phone_name(t: &TournamentRow, team: &TeamRow, address: &str) -> String {
    format!(
        "Tisch: {} {} ({address})",
        t.mode.entrant().one(),
        team.startnummer
    )
}

/// What a tournament's code page (where a phone types its team's code) may show: a hidden
/// tournament that admits no phone now answers as if there were none (its id and name are
/// not for strangers to list); the name itself only where the tournament is public.
pub fn code_page_name(conn: &mut Conn, id: TournamentId) -> Result<Option<String>, Refusal> {
    let t = guard::tournament(conn, id)?;
    let admits = !t.closed && stored::opening(conn, id)?.is_on();
    if !t.public && !admits {
        return Err(Refusal::NotFound("Dieses Turnier gibt es nicht.".into()));
    }
    Ok(t.public.then_some(t.name))
}

/// How long a phone's admission lasts (its cookie lives as long).
pub use crate::db::table_entry::ACCESS_HOURS;

/// The admission a phone's token holds for this tournament, if it is still valid.
pub fn access(
    conn: &mut Conn,
    id: TournamentId,
    token: &str,
) -> Result<Option<crate::db::models::TableAccessRow>, Refusal> {
    Ok(stored::access(conn, id, token)?)
}
