//! Tournaments: create, edit, close/reopen, and the write guard every tournament write uses.

use super::audit::{self, Entry};
use super::models::{TournamentRow, TournamentValues};
use super::schema::{teams, tournaments};
use super::{Conn, now};
use crate::domain::ids::TournamentId;
use crate::domain::role::Actor;
use crate::domain::tournament::TournamentSettings;
use crate::error::AppError;
use diesel::prelude::*;

pub fn list(conn: &mut Conn) -> QueryResult<Vec<TournamentRow>> {
    tournaments::table
        .select(TournamentRow::as_select())
        .order((tournaments::date.desc(), tournaments::id.desc()))
        .load(conn)
}

pub fn get(conn: &mut Conn, id: TournamentId) -> Result<TournamentRow, AppError> {
    tournaments::table
        .find(id.0)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()?
        .ok_or_else(|| AppError::NotFound("Dieses Turnier gibt es nicht.".into()))
}

/// Every write to a tournament starts here, inside its transaction: refuses when the
/// tournament is closed and bumps its version (which invalidates cached live pages).
pub fn begin_write(conn: &mut Conn, id: TournamentId) -> Result<TournamentRow, AppError> {
    let row = ensure_open(conn, id)?;
    bump_version(conn, id)?;
    Ok(row)
}

/// The read half of [`begin_write`], for writes that may still turn out to be refused.
pub fn ensure_open(conn: &mut Conn, id: TournamentId) -> Result<TournamentRow, AppError> {
    let row = get(conn, id)?;
    if row.closed {
        return Err(AppError::closed());
    }
    Ok(row)
}

pub fn bump_version(conn: &mut Conn, id: TournamentId) -> QueryResult<()> {
    diesel::update(tournaments::table.find(id.0))
        .set(tournaments::version.eq(tournaments::version + 1))
        .execute(conn)?;
    Ok(())
}

fn values(settings: &TournamentSettings) -> TournamentValues {
    TournamentValues {
        name: settings.name.clone(),
        date: settings.date,
        location: settings.location.clone(),
        mode: settings.mode.as_str().to_string(),
        passen: settings.passen as i32,
        spiele_per_passe: settings.spiele_per_passe as i32,
        pauschale: settings.pauschale as i32,
        double_entry: settings.double_entry,
        double_entry_same_user: settings.double_entry_same_user,
    }
}

pub fn create(
    conn: &mut Conn,
    actor: &Actor,
    settings: &TournamentSettings,
) -> Result<TournamentId, AppError> {
    conn.immediate_transaction(|conn| {
        let row: TournamentRow = diesel::insert_into(tournaments::table)
            .values((values(settings), tournaments::created_at.eq(now())))
            .returning(TournamentRow::as_returning())
            .get_result(conn)?;
        if let Some(rules) = &settings.marathon {
            super::marathon::save_rules(conn, TournamentId(row.id), rules)?;
        }
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(TournamentId(row.id)),
                entity: "tournament",
                entity_id: Some(row.id),
                action: "create",
            },
            None::<&TournamentRow>,
            Some(&row),
        )?;
        Ok(TournamentId(row.id))
    })
}

pub fn update(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    settings: &TournamentSettings,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        let before = begin_write(conn, id)?;
        if before.draw_seed.is_some()
            && (before.passen != settings.passen as i32
                || before.spiele_per_passe != settings.spiele_per_passe as i32
                || before.mode != settings.mode.as_str())
        {
            return Err(AppError::BadRequest(
                "Nach der Auslosung lassen sich Modus, Anzahl Passen und Spiele pro Passe nicht mehr ändern.".into(),
            ));
        }
        diesel::update(tournaments::table.find(id.0)).set(values(settings)).execute(conn)?;
        if let Some(rules) = &settings.marathon {
            super::marathon::save_rules(conn, id, rules)?;
        }
        let after = get(conn, id)?;
        audit::record(
            conn,
            Some(actor),
            Entry { tournament: Some(id), entity: "tournament", entity_id: Some(id.0), action: "update" },
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}

/// Closing is itself refused on a closed tournament; reopening is the one write allowed then.
pub fn set_closed(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    closed: bool,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        let before = get(conn, id)?;
        if before.closed == closed {
            return Err(AppError::BadRequest(if closed {
                "Das Turnier ist bereits abgeschlossen.".into()
            } else {
                "Das Turnier ist bereits offen.".into()
            }));
        }
        diesel::update(tournaments::table.find(id.0))
            .set((
                tournaments::closed.eq(closed),
                tournaments::version.eq(tournaments::version + 1),
            ))
            .execute(conn)?;
        let after = get(conn, id)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "tournament",
                entity_id: Some(id.0),
                action: if closed { "close" } else { "reopen" },
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}

pub fn set_public(
    conn: &mut Conn,
    actor: &Actor,
    id: TournamentId,
    public: bool,
) -> Result<(), AppError> {
    conn.immediate_transaction(|conn| {
        let before = begin_write(conn, id)?;
        diesel::update(tournaments::table.find(id.0))
            .set(tournaments::public.eq(public))
            .execute(conn)?;
        let after = get(conn, id)?;
        audit::record(
            conn,
            Some(actor),
            Entry {
                tournament: Some(id),
                entity: "tournament",
                entity_id: Some(id.0),
                action: "visibility",
            },
            Some(&before),
            Some(&after),
        )?;
        Ok(())
    })
}

pub fn team_count(conn: &mut Conn, id: TournamentId) -> QueryResult<i64> {
    teams::table
        .filter(teams::tournament_id.eq(id.0))
        .count()
        .get_result(conn)
}
