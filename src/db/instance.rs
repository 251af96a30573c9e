//! This instance: the name it signs reports with and its Ed25519 secret key (made at the
//! first start, kept with the database), and tournaments' identities across instances.

use super::Conn;
use super::schema::{instance, tournament_uuids};
use crate::domain::ids::TournamentId;
use diesel::prelude::*;

/// The name and key this instance signs with.
#[derive(Clone)]
pub struct InstanceKey {
    pub hall_name: String,
    pub secret: [u8; 32],
}

/// The first start makes the key (`make_secret` gives its 32 random bytes).
pub fn ensure(conn: &mut Conn, make_secret: impl FnOnce() -> [u8; 32]) -> QueryResult<bool> {
    let present: i64 = instance::table.count().get_result(conn)?;
    if present > 0 {
        return Ok(false);
    }
    let inserted = diesel::insert_into(instance::table)
        .values((
            instance::id.eq(1),
            instance::hall_name.eq("Turnierbüro"),
            instance::secret_key.eq(hex::encode(make_secret())),
            instance::created_at.eq(super::now()),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(true),
        // Two instances on one PostgreSQL database started together: the other made it.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(false),
        Err(e) => Err(e),
    }
}

pub fn key(conn: &mut Conn) -> QueryResult<InstanceKey> {
    let (hall_name, secret): (String, String) = instance::table
        .find(1)
        .select((instance::hall_name, instance::secret_key))
        .first(conn)?;
    let secret: [u8; 32] = hex::decode(&secret)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| {
            diesel::result::Error::DeserializationError("instance key is not 32 bytes".into())
        })?;
    Ok(InstanceKey { hall_name, secret })
}

pub fn set_hall_name(conn: &mut Conn, name: &str) -> QueryResult<()> {
    diesel::update(instance::table.find(1))
        .set(instance::hall_name.eq(name))
        .execute(conn)?;
    Ok(())
}

/// The tournament's identity across instances, if it has one yet.
pub fn uuid_of(conn: &mut Conn, tournament: TournamentId) -> QueryResult<Option<String>> {
    tournament_uuids::table
        .find(tournament)
        .select(tournament_uuids::uuid)
        .first(conn)
        .optional()
}

pub fn set_uuid(conn: &mut Conn, tournament: TournamentId, uuid: &str) -> QueryResult<()> {
    diesel::insert_into(tournament_uuids::table)
        .values((
            tournament_uuids::tournament_id.eq(tournament),
            tournament_uuids::uuid.eq(uuid),
        ))
        .execute(conn)?;
    Ok(())
}

/// The tournament of this instance with that identity, if any.
pub fn tournament_of_uuid(conn: &mut Conn, uuid: &str) -> QueryResult<Option<TournamentId>> {
    tournament_uuids::table
        .filter(tournament_uuids::uuid.eq(uuid))
        .select(tournament_uuids::tournament_id)
        .first(conn)
        .optional()
}

/// This instance's identity and the tournaments' UUIDs, as a database copy carries them (the
/// copy signs as the original did).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InstanceJson {
    pub hall_name: String,
    pub secret_key: String,
    pub created_at: chrono::NaiveDateTime,
    pub uuids: Vec<(i32, String)>,
}

pub fn copy_out(conn: &mut Conn) -> QueryResult<Option<InstanceJson>> {
    let row: Option<(String, String, chrono::NaiveDateTime)> = instance::table
        .find(1)
        .select((
            instance::hall_name,
            instance::secret_key,
            instance::created_at,
        ))
        .first(conn)
        .optional()?;
    let uuids = tournament_uuids::table
        .select((tournament_uuids::tournament_id, tournament_uuids::uuid))
        .order(tournament_uuids::tournament_id)
        .load::<(i32, String)>(conn)?;
    Ok(row.map(|(hall_name, secret_key, created_at)| InstanceJson {
        hall_name,
        secret_key,
        created_at,
        uuids,
    }))
}

pub fn copy_in(conn: &mut Conn, copied: &InstanceJson) -> QueryResult<()> {
    diesel::delete(instance::table).execute(conn)?;
    diesel::insert_into(instance::table)
        .values((
            instance::id.eq(1),
            instance::hall_name.eq(&copied.hall_name),
            instance::secret_key.eq(&copied.secret_key),
            instance::created_at.eq(copied.created_at),
        ))
        .execute(conn)?;
    for (tournament, uuid) in &copied.uuids {
        diesel::insert_into(tournament_uuids::table)
            .values((
                tournament_uuids::tournament_id.eq(tournament),
                tournament_uuids::uuid.eq(uuid),
            ))
            .execute(conn)?;
    }
    Ok(())
}
