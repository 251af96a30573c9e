//! The register: persons, and which team seat each plays in.

use super::models::{PersonRow, TeamRow, TournamentRow};
use super::schema::{persons, series_wildcards, team_persons, teams, tournaments};
use super::types::Nat;
use super::{Conn, now};
use crate::domain::ids::{PersonId, SeriesId, TeamId, TournamentId};
use crate::domain::person::PersonKey;
use crate::domain::person::team_persons as persons_of_team;
use diesel::prelude::*;
use std::collections::HashMap;

pub fn list(conn: &mut Conn) -> QueryResult<Vec<PersonRow>> {
    persons::table
        .select(PersonRow::as_select())
        .order((persons::name, persons::vorname, persons::id))
        .load(conn)
}

pub fn find(conn: &mut Conn, id: PersonId) -> QueryResult<Option<PersonRow>> {
    persons::table
        .find(id)
        .select(PersonRow::as_select())
        .first(conn)
        .optional()
}

/// The persons of these numbers (those that exist).
pub fn find_many(conn: &mut Conn, ids: &[PersonId]) -> QueryResult<Vec<PersonRow>> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(super::audit::BATCH_ROWS) {
        out.extend(
            persons::table
                .filter(persons::id.eq_any(chunk))
                .select(PersonRow::as_select())
                .load(conn)?,
        );
    }
    Ok(out)
}

/// Who sits where in a tournament: team, seat, person (the numbers only).
pub fn seat_links(
    conn: &mut Conn,
    tournament: TournamentId,
) -> QueryResult<Vec<(TeamId, u32, PersonId)>> {
    let rows: Vec<(TeamId, Nat, PersonId)> = team_persons::table
        .filter(team_persons::tournament_id.eq(tournament))
        .select((
            team_persons::team_id,
            team_persons::seat,
            team_persons::person_id,
        ))
        .load(conn)?;
    Ok(rows.into_iter().map(|(t, s, p)| (t, s.get(), p)).collect())
}

/// How many tournaments each person played in.
pub fn participations(conn: &mut Conn) -> QueryResult<HashMap<PersonId, usize>> {
    let pairs: Vec<(PersonId, TournamentId)> = team_persons::table
        .select((team_persons::person_id, team_persons::tournament_id))
        .distinct()
        .load(conn)?;
    let mut count: HashMap<PersonId, usize> = HashMap::new();
    for (person, _) in pairs {
        *count.entry(person).or_default() += 1;
    }
    Ok(count)
}

/// The team seats a person played: (tournament, team, seat), oldest tournament first.
pub fn seats_of(
    conn: &mut Conn,
    person: PersonId,
) -> QueryResult<Vec<(TournamentId, TeamId, Nat)>> {
    team_persons::table
        .inner_join(tournaments::table.on(tournaments::id.eq(team_persons::tournament_id)))
        .filter(team_persons::person_id.eq(person))
        .select((
            team_persons::tournament_id,
            team_persons::team_id,
            team_persons::seat,
        ))
        .order((tournaments::date, tournaments::id, team_persons::seat))
        .load(conn)
}

/// Links the seats of the tournament's teams that have no link yet (see [`link_teams`]);
/// linked teams stay as they are.
pub fn link_tournament(conn: &mut Conn, tournament: &TournamentRow) -> QueryResult<usize> {
    let linked = team_persons::table.select(team_persons::team_id);
    // Read here, not through db::teams (which calls this module when a team goes).
    let teams: Vec<TeamRow> = teams::table
        .filter(teams::tournament_id.eq(tournament.id))
        .filter(teams::id.ne_all(linked))
        .select(TeamRow::as_select())
        .order(teams::startnummer)
        .load(conn)?;
    link_teams(conn, tournament, &teams)
}

/// Links the seats of `teams` (of `tournament`) to their persons: a seat already linked to
/// the same person stays; otherwise the person is found in the register (Name, Vorname,
/// Ort) or added. Seats without a player lose their link. Returns how many were added.
pub fn link_teams(
    conn: &mut Conn,
    tournament: &TournamentRow,
    teams: &[TeamRow],
) -> QueryResult<usize> {
    let entrant = tournament.mode.entrant();
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id).collect();
    let mut linked: HashMap<(TeamId, u32), PersonId> = HashMap::new();
    for chunk in ids.chunks(super::audit::BATCH_ROWS) {
        let rows: Vec<(TeamId, Nat, PersonId)> = team_persons::table
            .filter(team_persons::team_id.eq_any(chunk))
            .select((
                team_persons::team_id,
                team_persons::seat,
                team_persons::person_id,
            ))
            .load(conn)?;
        linked.extend(rows.into_iter().map(|(t, s, p)| ((t, s.get()), p)));
    }
    // The register by identity (Name, Vorname, Ort); of two alike the older.
    let mut by_identity: HashMap<String, PersonId> = HashMap::new();
    let mut key_of: HashMap<PersonId, PersonKey> = HashMap::new();
    for person in list(conn)? {
        let key = person.key();
        let id = by_identity.entry(key.identity()).or_insert(person.id);
        *id = (*id).min(person.id);
        key_of.insert(person.id, key);
    }
    // The seats of each team as they should be; teams with a change are linked anew.
    // Per seat: unchanged (linked to a person of that name, or nobody and no player), or
    // to be linked anew (a seat linked already is unlinked first).
    let mut relink: Vec<(TeamId, u32, Option<PersonKey>, bool)> = Vec::new();
    for team in teams {
        let wanted = persons_of_team(
            entrant,
            &team.player1,
            &team.player2,
            team.club.as_deref(),
            team.place.as_deref(),
        );
        for seat in [1u32, 2] {
            let current = linked.get(&(team.id, seat));
            let key = wanted.iter().find(|(s, _)| *s == seat).map(|(_, k)| k);
            let unchanged = match (current, key) {
                (Some(p), Some(k)) => key_of.get(p).is_some_and(|linked| linked.same_name(k)),
                (None, None) => true,
                _ => false,
            };
            if !unchanged {
                relink.push((team.id, seat, key.cloned(), current.is_some()));
            }
        }
    }
    if relink.is_empty() {
        return Ok(0);
    }
    // Persons not in the register yet, each once, in few statements.
    let mut new: Vec<&PersonKey> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for key in relink.iter().filter_map(|(_, _, key, _)| key.as_ref()) {
        let identity = key.identity();
        if !by_identity.contains_key(&identity) && seen.insert(identity) {
            new.push(key);
        }
    }
    let created = now();
    for chunk in new.chunks(super::audit::BATCH_ROWS) {
        let rows: Vec<_> = chunk
            .iter()
            .map(|key| {
                (
                    persons::name.eq(key.name.clone()),
                    persons::vorname.eq(key.vorname.clone()),
                    persons::verein.eq(key.verein.clone()),
                    persons::ort.eq(key.ort.clone()),
                    persons::created_at.eq(created),
                )
            })
            .collect();
        super::on_backend!(conn, |c| diesel::insert_into(persons::table)
            .values(&rows)
            .execute(c))?;
    }
    if !new.is_empty() {
        for person in list(conn)? {
            by_identity
                .entry(person.key().identity())
                .or_insert(person.id);
        }
    }
    let mut links = Vec::new();
    for (team, seat, key, was_linked) in &relink {
        if *was_linked {
            diesel::delete(
                team_persons::table
                    .filter(team_persons::team_id.eq(*team))
                    .filter(team_persons::seat.eq(Nat::of(*seat)?)),
            )
            .execute(conn)?;
        }
        let Some(key) = key else {
            continue;
        };
        let person = by_identity
            .get(&key.identity())
            .copied()
            .ok_or(diesel::result::Error::NotFound)?;
        links.push((
            team_persons::team_id.eq(*team),
            team_persons::seat.eq(Nat::of(*seat)?),
            team_persons::person_id.eq(person),
            team_persons::tournament_id.eq(tournament.id),
        ));
    }
    for chunk in links.chunks(super::audit::BATCH_ROWS) {
        super::on_backend!(conn, |c| diesel::insert_into(team_persons::table)
            .values(chunk)
            .execute(c))?;
    }
    Ok(new.len())
}

/// The tournaments with a team none of whose seats is linked yet: the teams of a database
/// from before the register (or written by an older version).
pub fn unlinked_tournaments(conn: &mut Conn) -> QueryResult<Vec<TournamentId>> {
    let linked = team_persons::table.select(team_persons::team_id);
    teams::table
        .filter(teams::id.ne_all(linked))
        .select(teams::tournament_id)
        .distinct()
        .load(conn)
}

/// A team deleted: its seats' links go with it (the persons stay in the register).
pub fn forget_team(conn: &mut Conn, team: TeamId) -> QueryResult<()> {
    diesel::delete(team_persons::table.filter(team_persons::team_id.eq(team))).execute(conn)?;
    Ok(())
}

/// At start: the teams of tournaments from before the register (or written by an older
/// version) get their persons — the migration of existing names. Idempotent.
pub fn link_existing(conn: &mut Conn) -> QueryResult<usize> {
    let pending = unlinked_tournaments(conn)?;
    if pending.is_empty() {
        return Ok(0);
    }
    super::write_tx(conn, super::Lock::Global, |conn| {
        let mut added = 0;
        let rows: Vec<TournamentRow> = tournaments::table
            .filter(tournaments::id.eq_any(&pending))
            .select(TournamentRow::as_select())
            .load(conn)?;
        for t in rows {
            added += link_tournament(conn, &t)?;
        }
        Ok(added)
    })
}

pub fn update(
    conn: &mut Conn,
    id: PersonId,
    p: &crate::domain::person::PersonInput,
) -> QueryResult<PersonRow> {
    diesel::update(persons::table.find(id))
        .set((
            persons::name.eq(&p.name),
            persons::vorname.eq(&p.vorname),
            persons::verein.eq(&p.verein),
            persons::ort.eq(&p.ort),
            persons::jahrgang.eq(p.jahrgang.map(Nat::of).transpose()?),
            persons::geschlecht.eq(p.geschlecht),
            persons::email.eq(&p.email),
            persons::phone.eq(&p.phone),
        ))
        .returning(persons::all_columns)
        .get_result(conn)
}

/// Every seat of `from` goes to `into`; `from` is removed. How many seats moved.
pub fn merge(conn: &mut Conn, from: PersonId, into: PersonId) -> QueryResult<usize> {
    let moved = diesel::update(team_persons::table.filter(team_persons::person_id.eq(from)))
        .set(team_persons::person_id.eq(into))
        .execute(conn)?;
    // A series' wildcard goes with the person (once, where both were one).
    let both: Vec<SeriesId> = series_wildcards::table
        .filter(series_wildcards::person_id.eq(into))
        .select(series_wildcards::series_id)
        .load(conn)?;
    diesel::delete(
        series_wildcards::table
            .filter(series_wildcards::person_id.eq(from))
            .filter(series_wildcards::series_id.eq_any(both)),
    )
    .execute(conn)?;
    diesel::update(series_wildcards::table.filter(series_wildcards::person_id.eq(from)))
        .set(series_wildcards::person_id.eq(into))
        .execute(conn)?;
    diesel::delete(persons::table.find(from)).execute(conn)?;
    Ok(moved)
}

/// Deletion on request: every team seat of the person reads «gelöscht» (its rank and points
/// stay), a player's own Verein and Ort go, the links and the person go. The tournaments
/// touched, for their versions.
pub fn erase(conn: &mut Conn, id: PersonId) -> QueryResult<Vec<TournamentId>> {
    let seats = seats_of(conn, id)?;
    let mut touched = Vec::new();
    for (tournament, team, seat) in &seats {
        let mode: crate::domain::mode::Mode = tournaments::table
            .find(tournament)
            .select(tournaments::mode)
            .first(conn)?;
        let target = teams::table.find(team);
        match (mode.entrant(), seat.get()) {
            (crate::domain::mode::Entrant::Player, _) => {
                diesel::update(target)
                    .set((
                        teams::player1.eq(ERASED),
                        teams::player2.eq(""),
                        teams::club.eq(None::<String>),
                        teams::place.eq(None::<String>),
                    ))
                    .execute(conn)?;
            }
            (_, 1) => {
                diesel::update(target)
                    .set(teams::player1.eq(ERASED))
                    .execute(conn)?;
            }
            _ => {
                diesel::update(target)
                    .set(teams::player2.eq(ERASED))
                    .execute(conn)?;
            }
        }
        if !touched.contains(tournament) {
            touched.push(*tournament);
        }
    }
    diesel::delete(team_persons::table.filter(team_persons::person_id.eq(id))).execute(conn)?;
    diesel::delete(series_wildcards::table.filter(series_wildcards::person_id.eq(id)))
        .execute(conn)?;
    diesel::delete(persons::table.find(id)).execute(conn)?;
    Ok(touched)
}

/// What a deleted person's seat reads in every Rangliste.
pub const ERASED: &str = "gelöscht";

/// Every linked seat of a tournament: Startnummer, seat and the person, in order.
pub fn seats_in(
    conn: &mut Conn,
    tournament: TournamentId,
) -> QueryResult<Vec<(u32, u32, PersonRow)>> {
    let rows: Vec<(Nat, Nat, PersonRow)> = team_persons::table
        .inner_join(teams::table.on(teams::id.eq(team_persons::team_id)))
        .inner_join(persons::table.on(persons::id.eq(team_persons::person_id)))
        .filter(team_persons::tournament_id.eq(tournament))
        .select((
            teams::startnummer,
            team_persons::seat,
            PersonRow::as_select(),
        ))
        .order((teams::startnummer, team_persons::seat))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(nr, seat, p)| (nr.get(), seat.get(), p))
        .collect())
}

/// A seat linked as a database copy says.
pub fn link(
    conn: &mut Conn,
    tournament: TournamentId,
    team: TeamId,
    seat: u32,
    person: PersonId,
) -> QueryResult<()> {
    diesel::insert_into(team_persons::table)
        .values((
            team_persons::team_id.eq(team),
            team_persons::seat.eq(Nat::of(seat)?),
            team_persons::person_id.eq(person),
            team_persons::tournament_id.eq(tournament),
        ))
        .execute(conn)?;
    Ok(())
}

/// A new person of the register.
pub fn create(conn: &mut Conn, key: &PersonKey) -> QueryResult<PersonId> {
    let row: PersonRow = diesel::insert_into(persons::table)
        .values((
            persons::name.eq(&key.name),
            persons::vorname.eq(&key.vorname),
            persons::verein.eq(&key.verein),
            persons::ort.eq(&key.ort),
            persons::jahrgang.eq(key.jahrgang.map(Nat::of).transpose()?),
            persons::created_at.eq(now()),
        ))
        .returning(persons::all_columns)
        .get_result(conn)?;
    Ok(row.id)
}

/// Links a seat to the person the office chose (instead of the one found by name).
pub fn relink(
    conn: &mut Conn,
    tournament: TournamentId,
    team: TeamId,
    seat: u32,
    person: PersonId,
) -> QueryResult<()> {
    diesel::delete(
        team_persons::table
            .filter(team_persons::team_id.eq(team))
            .filter(team_persons::seat.eq(Nat::of(seat)?)),
    )
    .execute(conn)?;
    link(conn, tournament, team, seat, person)
}

/// The person of a team seat, if linked.
pub fn person_at(conn: &mut Conn, team: TeamId, seat: u32) -> QueryResult<Option<PersonId>> {
    team_persons::table
        .filter(team_persons::team_id.eq(team))
        .filter(team_persons::seat.eq(Nat::of(seat)?))
        .select(team_persons::person_id)
        .first(conn)
        .optional()
}

/// Gives a person the Geschlecht an import named, unless the register knows one already.
pub fn set_geschlecht_if_missing(
    conn: &mut Conn,
    person: PersonId,
    geschlecht: crate::domain::person::Geschlecht,
) -> QueryResult<()> {
    diesel::update(
        persons::table
            .find(person)
            .filter(persons::geschlecht.is_null()),
    )
    .set(persons::geschlecht.eq(geschlecht))
    .execute(conn)?;
    Ok(())
}

/// Gives a person the Jahrgang an import named, unless the register knows one already.
pub fn set_jahrgang_if_missing(
    conn: &mut Conn,
    person: PersonId,
    jahrgang: u32,
) -> QueryResult<()> {
    diesel::update(
        persons::table
            .find(person)
            .filter(persons::jahrgang.is_null()),
    )
    .set(persons::jahrgang.eq(Nat::of(jahrgang)?))
    .execute(conn)?;
    Ok(())
}
