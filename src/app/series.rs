//! The Jass-Cup (#80): series made and changed by the Leitung, their standings for everyone.

use super::{Refusal, guard};
use crate::db::Lock;
use crate::db::audit::{self, AuditEvent};
use crate::db::models::PersonRow;
use crate::db::series::{self as stored};
pub use crate::db::series::{SeriesRow, SeriesTournament};
use crate::db::{Conn, persons, write_tx};
use crate::domain::audit_event::SeriesAction;
use crate::domain::form::FieldErrors;
use crate::domain::ids::{PersonId, SeriesId, TeamId, TournamentId};
use crate::domain::role::{Actor, Permission};
use crate::domain::series::{Event, SeriesForm, Standing, Unit, standings};
use chrono::NaiveDate;
use serde::Serialize;
use std::collections::HashMap;

/// Who collects a series' points: a person, or two persons together.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum SeriesEntrant {
    Person(PersonId),
    Pair(PersonId, PersonId),
}

impl SeriesEntrant {
    pub fn persons(&self) -> Vec<PersonId> {
        match self {
            SeriesEntrant::Person(p) => vec![*p],
            SeriesEntrant::Pair(a, b) => vec![*a, *b],
        }
    }
}

/// What became of a series form.
pub enum Saved {
    Done(SeriesId),
    Invalid(FieldErrors),
}

/// The Protokoll's view of a series.
#[derive(Serialize)]
struct Entry<'a> {
    name: &'a str,
    season: &'a str,
    rule: String,
    tournaments: Vec<i32>,
}

/// A series' Protokoll entry (its content before and after, as each change shows it).
pub(super) fn record<T: Serialize>(
    conn: &mut Conn,
    actor: &Actor,
    action: SeriesAction,
    id: SeriesId,
    before: Option<&T>,
    after: &T,
) -> Result<(), Refusal> {
    audit::record(
        conn,
        Some(actor),
        audit::Entry {
            tournament: None,
            event: AuditEvent::Series(action),
            entity_id: Some(id.0),
        },
        before,
        Some(after),
    )?;
    Ok(())
}

type EntryParts = (String, String, String, Vec<i32>);

fn entry_of(conn: &mut Conn, id: SeriesId) -> Result<EntryParts, Refusal> {
    let row = series(conn, id)?;
    let tournaments = stored::tournaments(conn, row.id)?
        .iter()
        .map(|t| t.tournament.0)
        .collect();
    let s = &row.settings;
    Ok((
        s.name.clone(),
        s.season.clone(),
        s.rule.describe(),
        tournaments,
    ))
}

fn entry(parts: &EntryParts) -> Entry<'_> {
    Entry {
        name: &parts.0,
        season: &parts.1,
        rule: parts.2.clone(),
        tournaments: parts.3.clone(),
    }
}

/// The wildcards must be persons of the register.
fn check_wildcards(
    conn: &mut Conn,
    wildcards: &[i32],
    errors: &mut FieldErrors,
) -> Result<(), Refusal> {
    for w in wildcards {
        if persons::find(conn, PersonId(*w))?.is_none() {
            errors.add(
                "wildcards",
                format!("Wildcards: Person Nr. {w} gibt es im Register nicht."),
            );
        }
    }
    Ok(())
}

/// Makes a series (`id` None) or changes one.
pub fn save(
    conn: &mut Conn,
    actor: &Actor,
    id: Option<SeriesId>,
    form: &SeriesForm,
) -> Result<Saved, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let settings = match form.parse() {
        Ok(s) => s,
        Err(errors) => return Ok(Saved::Invalid(errors)),
    };
    write_tx(conn, Lock::Global, |conn| {
        let mut errors = FieldErrors::new();
        check_wildcards(conn, &settings.wildcards, &mut errors)?;
        if !errors.is_empty() {
            return Ok(Saved::Invalid(errors));
        }
        match id {
            None => {
                let id = stored::create(conn, &settings, crate::db::now())?;
                let after = entry_of(conn, id)?;
                record(conn, actor, SeriesAction::Create, id, None, &entry(&after))?;
                Ok(Saved::Done(id))
            }
            Some(id) => {
                changed(conn, actor, SeriesAction::Update, id, |conn| {
                    Ok(stored::update(conn, id, &settings)?)
                })?;
                Ok(Saved::Done(id))
            }
        }
    })
}

/// Sets the series' tournaments (each perhaps a final).
pub fn set_tournaments(
    conn: &mut Conn,
    actor: &Actor,
    id: SeriesId,
    list: &[SeriesTournament],
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    write_tx(conn, Lock::Global, |conn| {
        for t in list {
            guard::tournament(conn, t.tournament)?;
        }
        changed(conn, actor, SeriesAction::Tournaments, id, |conn| {
            Ok(stored::set_tournaments(conn, id, list)?)
        })
    })
}

/// A change of a series with its Protokoll entry: the series before and after.
fn changed(
    conn: &mut Conn,
    actor: &Actor,
    action: SeriesAction,
    id: SeriesId,
    change: impl FnOnce(&mut Conn) -> Result<(), Refusal>,
) -> Result<(), Refusal> {
    let before = entry_of(conn, id)?;
    change(conn)?;
    let after = entry_of(conn, id)?;
    record(
        conn,
        actor,
        action,
        id,
        Some(&entry(&before)),
        &entry(&after),
    )
}

pub fn series(conn: &mut Conn, id: SeriesId) -> Result<SeriesRow, Refusal> {
    stored::find(conn, id)?.ok_or_else(|| Refusal::NotFound("Diese Serie gibt es nicht.".into()))
}

pub fn list(conn: &mut Conn) -> Result<Vec<SeriesRow>, Refusal> {
    Ok(stored::list(conn)?)
}

/// A tournament of the series as the standings name it.
#[derive(Debug, Clone, Serialize)]
pub struct EventInfo {
    pub tournament: TournamentId,
    pub name: String,
    pub date: NaiveDate,
    pub is_final: bool,
    pub official: bool,
    pub entries: usize,
}

/// The standings with what they are made of.
pub struct SeriesStandings {
    pub series: SeriesRow,
    pub events: Vec<EventInfo>,
    pub rows: Vec<Standing<SeriesEntrant>>,
    /// Name, Vorname and Verein of every person in the standings (public).
    pub persons: HashMap<PersonId, PersonRow>,
    /// Changes whenever a result, a tournament or the rule changes (the live page polls it).
    pub version: String,
}

/// The version alone (cheap): the tournaments' versions and the rule.
pub fn version(conn: &mut Conn, id: SeriesId) -> Result<String, Refusal> {
    let row = series(conn, id)?;
    let tournaments = stored::version(conn, id)?;
    Ok(version_text(&row, tournaments))
}

fn version_text(row: &SeriesRow, tournaments: i64) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{:?}", row.settings).hash(&mut h);
    format!("{tournaments}-{:x}", h.finish())
}

/// The standings: every tournament's Rangliste as it is (official when closed, provisional
/// while open), turned into the series' points; `include_open` false: the official
/// standings, of closed tournaments only.
pub fn standings_of(
    conn: &mut Conn,
    id: SeriesId,
    include_open: bool,
) -> Result<SeriesStandings, Refusal> {
    let row = series(conn, id)?;
    let unit = row.settings.unit;
    let mut events = Vec::new();
    let mut infos = Vec::new();
    let mut seen: Vec<PersonId> = Vec::new();
    for st in stored::tournaments(conn, id)? {
        let data = guard::load(conn, st.tournament)?;
        let t = &data.tournament;
        let ranked = super::read::ranks_now(&data);
        let mut by_team: HashMap<TeamId, Vec<(u32, PersonId)>> = HashMap::new();
        for (team, seat, person) in persons::seat_links(conn, st.tournament)? {
            by_team.entry(team).or_default().push((seat, person));
        }
        let mut results = Vec::new();
        for &(team, rank, total) in &ranked {
            let Some(rank) = rank else {
                continue;
            };
            let mut seats = by_team.get(&team).cloned().unwrap_or_default();
            seats.sort_unstable();
            let ids: Vec<PersonId> = seats.iter().map(|(_, p)| *p).collect();
            seen.extend(&ids);
            match (unit, ids.as_slice()) {
                (Unit::Team, [a, b]) => {
                    let (a, b) = ((*a).min(*b), (*a).max(*b));
                    results.push((SeriesEntrant::Pair(a, b), rank, total));
                }
                _ => {
                    for p in ids {
                        results.push((SeriesEntrant::Person(p), rank, total));
                    }
                }
            }
        }
        infos.push(EventInfo {
            tournament: st.tournament,
            name: t.name.clone(),
            date: t.date,
            is_final: st.is_final,
            official: t.closed,
            entries: results.len(),
        });
        events.push(Event {
            is_final: st.is_final,
            official: t.closed,
            field: u32::try_from(ranked.iter().filter(|r| r.1.is_some()).count())
                .unwrap_or(u32::MAX),
            results,
            lower_wins: t.mode.lower_wins(),
        });
    }
    let wildcard_persons: Vec<PersonId> = row
        .settings
        .wildcards
        .iter()
        .map(|w| PersonId(*w))
        .collect();
    // Per person: every wildcard (one without a result yet is listed too); per team: the
    // teams a wildcard played in.
    let mut wildcards: Vec<SeriesEntrant> = match unit {
        Unit::Person => wildcard_persons
            .iter()
            .map(|p| SeriesEntrant::Person(*p))
            .collect(),
        Unit::Team => events
            .iter()
            .flat_map(|e| e.results.iter().map(|r| r.0.clone()))
            .filter(|e| e.persons().iter().any(|p| wildcard_persons.contains(p)))
            .collect(),
    };
    wildcards.sort();
    wildcards.dedup();
    seen.extend(wildcards.iter().flat_map(SeriesEntrant::persons));
    let rows = standings(&row.settings.rule, &events, include_open, &wildcards);
    seen.sort_unstable();
    seen.dedup();
    let persons_seen: HashMap<PersonId, PersonRow> = persons::find_many(conn, &seen)?
        .into_iter()
        .map(|p| (p.id, p))
        .collect();
    let tournaments = stored::version(conn, id)?;
    Ok(SeriesStandings {
        version: version_text(&row, tournaments),
        series: row,
        events: infos,
        rows,
        persons: persons_seen,
    })
}

/// The series' tournaments, in date order.
pub fn tournaments(conn: &mut Conn, id: SeriesId) -> Result<Vec<SeriesTournament>, Refusal> {
    Ok(stored::tournaments(conn, id)?)
}
