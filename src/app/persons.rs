//! The club's register (Leitung): search, and a person's tournaments with rank and points.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::models::PersonRow;
use crate::db::{Conn, persons, write_tx};
use crate::domain::audit_event::{AuditEvent, PersonAction};
use crate::domain::ids::{PersonId, TournamentId};
use crate::domain::mode::Entrant;
use crate::domain::person::PersonInput;
use crate::domain::person::{Match, PersonKey, match_person, matches_search, team_persons};
use crate::domain::role::{Actor, Permission};
use crate::domain::team_import::ImportedTeam;
use chrono::NaiveDate;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// The register, or the persons matching a search; each with its number of tournaments.
pub fn search(
    conn: &mut Conn,
    actor: &Actor,
    query: &str,
) -> Result<Vec<(PersonRow, usize)>, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let count = persons::participations(conn)?;
    Ok(persons::list(conn)?
        .into_iter()
        .filter(|p| matches_search(&p.key(), query))
        .map(|p| {
            let n = count.get(&p.id).copied().unwrap_or(0);
            (p, n)
        })
        .collect())
}

/// One tournament a person played.
pub struct Played {
    pub tournament: TournamentId,
    pub name: String,
    pub date: NaiveDate,
    pub mode: &'static str,
    pub startnummer: u32,
    /// The team's name and players as entered (for a player: Name, Vorname).
    pub team: String,
    /// The rank in the official Rangliste (closed tournament) or the provisional one.
    pub rank: Option<u32>,
    pub official: bool,
    pub total: u32,
}

/// A person and every tournament played, oldest first.
pub fn history(
    conn: &mut Conn,
    actor: &Actor,
    id: PersonId,
) -> Result<(PersonRow, Vec<Played>), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let person = persons::find(conn, id)?
        .ok_or_else(|| Refusal::NotFound("Diese Person gibt es im Register nicht.".into()))?;
    let mut played = Vec::new();
    for (tournament, team, _) in persons::seats_of(conn, id)? {
        let data = guard::load(conn, tournament)?;
        let t = &data.tournament;
        let Some(row) = data.team(team) else {
            continue;
        };
        let ranked = super::read::ranks_now(&data);
        let line = ranked.iter().find(|r| r.0 == team);
        played.push(Played {
            tournament,
            name: t.name.clone(),
            date: t.date,
            mode: t.mode.label(),
            startnummer: row.startnummer.get(),
            team: crate::domain::team::display_name(
                row.name.as_deref(),
                &row.player1,
                &row.player2,
            ),
            rank: line.and_then(|l| l.1),
            official: t.closed,
            total: line.map_or(0, |l| l.2),
        });
    }
    Ok((person, played))
}

fn record(
    conn: &mut Conn,
    actor: &Actor,
    action: PersonAction,
    entity: PersonId,
    before: &serde_json::Value,
    after: &serde_json::Value,
) -> Result<(), Refusal> {
    crate::db::audit::record(
        conn,
        Some(actor),
        crate::db::audit::Entry {
            tournament: None,
            event: AuditEvent::Person(action),
            entity_id: Some(entity.0),
        },
        Some(before),
        Some(after),
    )?;
    Ok(())
}

/// The Protokoll's view of a person: who, not how to reach them.
fn shown(p: &PersonRow) -> serde_json::Value {
    serde_json::json!({"id": p.id.0, "name": p.name, "vorname": p.vorname, "verein": p.verein, "ort": p.ort, "jahrgang": p.jahrgang, "geschlecht": p.geschlecht.map(|g| g.label())})
}

fn person(conn: &mut Conn, id: PersonId) -> Result<PersonRow, Refusal> {
    persons::find(conn, id)?
        .ok_or_else(|| Refusal::NotFound("Diese Person gibt es im Register nicht.".into()))
}

/// Changes a person's data (the teams keep the names as entered).
pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    id: PersonId,
    input: &PersonInput,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Global, |conn| {
        let before = person(conn, id)?;
        let after = persons::update(conn, id, input)?;
        record(
            conn,
            actor,
            PersonAction::Update,
            id,
            &shown(&before),
            &shown(&after),
        )
    })
}

/// Merges `from` into `into`: every tournament of `from` becomes `into`'s; the Protokoll
/// names both records.
pub fn merge(
    conn: &mut Conn,
    actor: &Actor,
    from: PersonId,
    into: PersonId,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    if from == into {
        return Err(Refusal::invalid(
            "Eine Person lässt sich nicht mit sich selbst zusammenführen.",
        ));
    }
    write_tx(conn, Lock::Global, |conn| {
        let source = person(conn, from)?;
        let target = person(conn, into)?;
        persons::merge(conn, from, into)?;
        record(
            conn,
            actor,
            PersonAction::Merge,
            into,
            &shown(&source),
            &shown(&target),
        )
    })
}

/// Deletes a person on request: past Ranglisten keep the line as «gelöscht» with its rank
/// and points, nothing else; the Protokoll keeps only the number of the record.
pub fn erase(conn: &mut Conn, actor: &Actor, id: PersonId) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Global, |conn| {
        person(conn, id)?;
        // Without its person a team would fall out of a category its rule gave it.
        for (tournament, team, _) in persons::seats_of(conn, id)? {
            crate::db::categories::keep_members(conn, tournament, team)?;
        }
        for tournament in persons::erase(conn, id)? {
            crate::db::tournaments::bump_version(conn, tournament)?;
        }
        let gone = serde_json::json!({"id": id.0, "name": persons::ERASED});
        record(
            conn,
            actor,
            PersonAction::Delete,
            id,
            &gone,
            &serde_json::Value::Null,
        )
    })
}

/// Suggestions while the Büro types a player (registration): at most `limit` persons of
/// the register whose Name, Vorname, Verein or Ort hold every typed word; those whose Name
/// or Vorname begins with the first word first.
pub fn suggest(
    conn: &mut Conn,
    actor: &Actor,
    query: &str,
    limit: usize,
) -> Result<Vec<PersonRow>, Refusal> {
    guard::require(actor, Permission::ManageTeams)?;
    let query = query.trim();
    if query.chars().count() < 2 {
        return Ok(Vec::new());
    }
    let first = query
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let mut found: Vec<PersonRow> = persons::list(conn)?
        .into_iter()
        .filter(|p| matches_search(&p.key(), query))
        .collect();
    found.sort_by_key(|p| {
        let starts = p.name.to_lowercase().starts_with(&first)
            || p.vorname.to_lowercase().starts_with(&first);
        !starts
    });
    found.truncate(limit);
    Ok(found)
}

/// One player of an import file as the register meets it.
pub struct SeatMatch {
    pub line: usize,
    pub startnummer: u32,
    pub seat: u32,
    /// The player as the file names him.
    pub player: String,
    /// The file names no Ort, or a Jahrgang: a person found is linked as found.
    pub by_name: bool,
    pub jahrgang: Option<u32>,
    pub geschlecht: Option<crate::domain::person::Geschlecht>,
    pub found: Match<PersonId>,
}

/// An import file against the register: each player's match, the persons' labels, and a
/// fingerprint of the matches.
pub struct ImportMatches {
    pub seats: Vec<SeatMatch>,
    pub labels: HashMap<PersonId, String>,
    pub fingerprint: String,
}

/// What the office chose for a player of an import whose person was not plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatChoice {
    Person(PersonId),
    New,
}

/// The register's view of an import file: per player new, matched or ambiguous, the
/// persons' labels, and a fingerprint of it all (the confirm is refused when the register
/// changed in between).
pub fn import_matches(
    conn: &mut Conn,
    entrant: Entrant,
    rows: &[ImportedTeam],
) -> Result<ImportMatches, Refusal> {
    let register: Vec<PersonRow> = persons::list(conn)?;
    let keys: Vec<(PersonId, PersonKey)> = register.iter().map(|p| (p.id, p.key())).collect();
    let mut matches = Vec::new();
    for row in rows {
        let t = &row.team;
        for (seat, mut key) in team_persons(
            entrant,
            &t.player1,
            &t.player2,
            t.club.as_deref(),
            t.place.as_deref(),
        ) {
            key.jahrgang = usize::try_from(seat)
                .ok()
                .and_then(|s| row.jahrgang.get(s.wrapping_sub(1)).copied().flatten());
            matches.push(SeatMatch {
                line: row.line,
                startnummer: row.startnummer,
                seat,
                player: format!("{} {}", key.vorname, key.name).trim().to_string(),
                // Without an Ort, or with a Jahrgang, the link is made as found here (the
                // link by name and Ort would miss it).
                by_name: key.ort.is_none() || key.jahrgang.is_some(),
                jahrgang: key.jahrgang,
                geschlecht: usize::try_from(seat)
                    .ok()
                    .and_then(|s| row.geschlecht.get(s.wrapping_sub(1)).copied().flatten()),
                found: match_person(&key, &keys),
            });
        }
    }
    let labels = register
        .iter()
        .map(|p| {
            let parts: Vec<String> = [
                Some(format!("{} {}", p.vorname, p.name).trim().to_string()),
                p.verein.clone(),
                p.ort.clone(),
                p.jahrgang.map(|j| format!("Jg. {j}")),
            ]
            .into_iter()
            .flatten()
            .filter(|s| !s.is_empty())
            .collect();
            (p.id, format!("{} (#{})", parts.join(", "), p.id))
        })
        .collect();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for m in &matches {
        (m.line, m.seat).hash(&mut hasher);
        match &m.found {
            Match::New => 0u8.hash(&mut hasher),
            Match::Matched(p) => (1u8, p.0).hash(&mut hasher),
            Match::Ambiguous(ps) => {
                (2u8, ps.iter().map(|p| p.0).collect::<Vec<_>>()).hash(&mut hasher)
            }
        }
    }
    Ok(ImportMatches {
        seats: matches,
        labels,
        fingerprint: format!("{:016x}", hasher.finish()),
    })
}

/// After an import's teams are written and linked by name: the players matched by name
/// alone (no Ort in the file) and the ambiguous ones get the person the preview showed or
/// the office chose. Refused when the register changed since the preview.
pub fn apply_import_choices(
    conn: &mut Conn,
    tournament: &crate::db::models::TournamentRow,
    matches: &[SeatMatch],
    choices: &HashMap<(usize, u32), SeatChoice>,
    teams: &HashMap<u32, crate::domain::ids::TeamId>,
) -> Result<(), Refusal> {
    for m in matches {
        let chosen = match (&m.found, choices.get(&(m.line, m.seat))) {
            // Found with its Ort: linked by name and Ort already.
            (Match::Matched(p), None) if m.by_name => SeatChoice::Person(*p),
            (Match::Ambiguous(candidates), Some(SeatChoice::Person(p)))
                if candidates.contains(p) =>
            {
                SeatChoice::Person(*p)
            }
            (Match::Ambiguous(_), Some(SeatChoice::New)) => SeatChoice::New,
            (Match::Ambiguous(_), _) => {
                return Err(Refusal::invalid(format!(
                    "Zeile {}: bitte wählen, wer «{}» ist.",
                    m.line, m.player
                )));
            }
            _ => continue,
        };
        let Some(&team) = teams.get(&m.startnummer) else {
            continue;
        };
        let person = match chosen {
            SeatChoice::Person(p) => p,
            SeatChoice::New => {
                let (vorname, name) = crate::domain::person::split_name(&m.player);
                persons::create(
                    conn,
                    &PersonKey {
                        name,
                        vorname,
                        verein: None,
                        ort: None,
                        jahrgang: m.jahrgang,
                    },
                )?
            }
        };
        persons::relink(conn, tournament.id, team, m.seat, person)?;
    }
    Ok(())
}

/// After an import: a person of the register without a Jahrgang or Geschlecht takes the one
/// the file gave for its seat.
pub fn note_facts(
    conn: &mut Conn,
    matches: &[SeatMatch],
    teams: &HashMap<u32, crate::domain::ids::TeamId>,
) -> Result<(), Refusal> {
    for m in matches {
        let Some(team) = teams.get(&m.startnummer) else {
            continue;
        };
        if m.jahrgang.is_none() && m.geschlecht.is_none() {
            continue;
        }
        if let Some(person) = persons::person_at(conn, *team, m.seat)? {
            if let Some(jahrgang) = m.jahrgang {
                persons::set_jahrgang_if_missing(conn, person, jahrgang)?;
            }
            if let Some(geschlecht) = m.geschlecht {
                persons::set_geschlecht_if_missing(conn, person, geschlecht)?;
            }
        }
    }
    Ok(())
}
