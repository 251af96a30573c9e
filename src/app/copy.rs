//! A whole database document ([`DatabaseDoc`]: every account and every tournament) written
//! into an empty database: restoring a PostgreSQL backup, and `jassturnier copy` between
//! SQLite and PostgreSQL. Tournaments keep their ids and creation times (printed QR codes
//! and phones' cookies name the id); a tournament is the same document (its export) before
//! and after.

use super::Refusal;
use super::import::{Identity, Register, check_document, write_tournament};
use crate::db::models::Signer;
pub use crate::db::transfer::Export;
use crate::db::transfer::{self, DATABASE_FORMAT, DatabaseDoc, VisaJson};
use crate::db::{Conn, Lock, tournaments, users, write_tx};
use crate::domain::ids::UserId;
use crate::domain::role::Role;
use std::collections::HashMap;

/// Writes a database document into an empty database, all or nothing: the accounts, then
/// every tournament in its order, its visas and audit entries signed by the same accounts.
pub fn restore(conn: &mut Conn, doc: &DatabaseDoc) -> Result<usize, Refusal> {
    if doc.format != DATABASE_FORMAT {
        return Err(Refusal::invalid(format!(
            "Keine Datenbank-Sicherung von Jassturnier (Format «{}»).",
            doc.format
        )));
    }
    write_tx(conn, Lock::Global, |conn| {
        if users::count(conn)? > 0 || !tournaments::list(conn)?.is_empty() {
            return Err(Refusal::invalid(
                "Die Ziel-Datenbank ist nicht leer: kopiert wird nur in eine neue Datenbank.",
            ));
        }
        let mut accounts: HashMap<String, UserId> = HashMap::new();
        for a in &doc.accounts {
            let role = Role::from_key(&a.role)
                .ok_or_else(|| Refusal::invalid(format!("Unbekannte Rolle «{}».", a.role)))?;
            let id = users::insert_account(
                conn,
                &a.username,
                &a.password_hash,
                role,
                a.active,
                a.created_at,
            )?;
            accounts.insert(a.username.clone(), id);
        }
        let visa_of = |v: &Option<VisaJson>| {
            v.as_ref().map(|v| {
                let signer = match accounts.get(&v.by) {
                    Some(id) => Signer::User(*id),
                    None => Signer::Imported(v.by.clone()),
                };
                (signer, v.at)
            })
        };
        for person in &doc.register {
            transfer::insert_copied_person(conn, person)?;
        }
        transfer::insert_audit(conn, None, &doc.audit, false)?;
        for t in &doc.tournaments {
            let modes = check_document(t).map_err(|problems| {
                Refusal::invalid(format!(
                    "Turnier «{}»: {}",
                    t.tournament.name,
                    problems.join(" · ")
                ))
            })?;
            let id = write_tournament(conn, t, modes, &visa_of, Identity::Kept, Register::ByName)?;
            transfer::insert_audit(conn, Some(id), &t.audit, false)?;
        }
        crate::db::series::copy_in(conn, &doc.series)?;
        if let Some(instance) = &doc.instance {
            crate::db::instance::copy_in(conn, instance)?;
        }
        transfer::continue_ids_after_copy(conn)?;
        Ok(doc.tournaments.len())
    })
}

/// A whole-database snapshot for download: the open file (in `dir`, where the start-up
/// cleanup finds what an interrupted download leaves), its file name as of now, and its
/// media type.
pub fn snapshot(
    conn: &mut Conn,
    dir: &std::path::Path,
) -> Result<(std::fs::File, String, &'static str), Refusal> {
    let file = crate::db::backup::snapshot_file(conn, dir).map_err(Refusal::Internal)?;
    let (suffix, media) = crate::db::backup::kind(conn);
    Ok((
        file,
        crate::db::backup::file_name(crate::db::now(), suffix),
        media,
    ))
}

/// A tournament as its export document (JSON), for another instance.
pub fn export(
    conn: &mut Conn,
    id: crate::domain::ids::TournamentId,
) -> Result<transfer::Export, Refusal> {
    Ok(transfer::export(conn, id)?)
}
