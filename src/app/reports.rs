//! Sealed tournament reports (#80): made and signed here for a series elsewhere, checked by
//! anyone, taken into a series from the halls it trusts.
//!
//! Decisions:
//! - A report carries the whole tournament export, the tournament's identity across
//!   instances (a UUID given when its first report is made) and its revision (the
//!   tournament's version: every write raises it, so a later report of the same tournament
//!   has a higher revision). Made twice without a change in between, it is the same report,
//!   byte for byte.
//! - A series takes reports only from halls it has accepted (by their key's fingerprint,
//!   compared by telephone or on the printed Rangliste). The same report twice changes
//!   nothing; a newer revision replaces the older (the older local tournament stays, renamed
//!   «… (Revision N, ersetzt)» and not public, with its Protokoll); an older one is refused; a
//!   different hall for the same tournament is refused.

use super::import::Register;
use super::persons::SeatChoice;
use super::series::{self, SeriesEntrant, standings_of};
use super::{Refusal, guard};
use crate::db::instance;
use crate::db::reports::{self as taken, Hall, TakenReport};
use crate::db::transfer::{self, Export};
use crate::db::{Conn, Lock, write_tx};
use crate::domain::audit_event::SeriesAction;
use crate::domain::format;
use crate::domain::ids::{PersonId, SeriesId, TournamentId};
use crate::domain::person::Match;
use crate::domain::role::{Actor, Permission};
use crate::domain::seal::{self, SealError, fingerprint, public_key_of};
use crate::domain::team::TeamInput;
use crate::domain::team_import::ImportedTeam;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What a report says, signed.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReportPayload {
    pub uuid: String,
    pub revision: u32,
    /// The signing hall's name.
    pub hall: String,
    pub tournament: Export,
}

/// A report file ready to download.
pub struct Made {
    pub file_name: String,
    pub bytes: Vec<u8>,
}

fn new_uuid() -> String {
    let mut b: [u8; 16] = rand::random();
    // Version 4, variant 1 (RFC 9562).
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex::encode(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// The tournament's identity across instances (given now if it has none).
fn uuid_for(conn: &mut Conn, id: TournamentId) -> Result<String, Refusal> {
    if let Some(uuid) = instance::uuid_of(conn, id)? {
        return Ok(uuid);
    }
    write_tx(conn, Lock::Tournament(id), |conn| {
        guard::tournament(conn, id)?;
        match instance::uuid_of(conn, id)? {
            Some(uuid) => Ok(uuid),
            None => {
                let uuid = new_uuid();
                instance::set_uuid(conn, id, &uuid)?;
                Ok(uuid)
            }
        }
    })
}

/// The sealed report of a tournament as it stands.
pub fn make(conn: &mut Conn, actor: &Actor, id: TournamentId) -> Result<Made, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let uuid = uuid_for(conn, id)?;
    let sealed = sealed_now(conn, id, uuid)?;
    let t = guard::tournament(conn, id)?;
    Ok(Made {
        file_name: format::file_name(&["Bericht", &t.name], "jassbericht.json"),
        bytes: serde_json::to_vec_pretty(&sealed).map_err(|e| Refusal::Internal(e.to_string()))?,
    })
}

fn sealed_now(
    conn: &mut Conn,
    id: TournamentId,
    uuid: String,
) -> Result<seal::SealedReport, Refusal> {
    let key = instance::key(conn)?;
    let t = guard::tournament(conn, id)?;
    let payload = ReportPayload {
        uuid,
        revision: u32::try_from(t.version).unwrap_or_default(),
        hall: key.hall_name.clone(),
        tournament: transfer::export(conn, id)?,
    };
    let text = serde_json::to_string(&payload).map_err(|e| Refusal::Internal(e.to_string()))?;
    Ok(seal::seal(text, &key.secret))
}

/// What the seal of a tournament's report says, for the printed Rangliste: the hall, its
/// fingerprint, the revision and the digest (None before its first report).
pub struct PrintedSeal {
    pub hall: String,
    pub fingerprint: String,
    pub uuid: String,
    pub revision: u32,
    pub digest: String,
}

pub fn printed_seal(conn: &mut Conn, id: TournamentId) -> Result<PrintedSeal, Refusal> {
    let uuid = uuid_for(conn, id)?;
    let sealed = sealed_now(conn, id, uuid.clone())?;
    let key = instance::key(conn)?;
    let t = guard::tournament(conn, id)?;
    Ok(PrintedSeal {
        hall: key.hall_name,
        fingerprint: fingerprint(&public_key_of(&key.secret)),
        uuid,
        revision: u32::try_from(t.version).unwrap_or_default(),
        digest: sealed.digest,
    })
}

/// A report whose seal holds, as the verification page shows it.
#[derive(Debug, Clone)]
pub struct Verified {
    pub hall: String,
    pub public_key: String,
    pub fingerprint: String,
    pub uuid: String,
    pub revision: u32,
    pub tournament: String,
    pub date: NaiveDate,
    pub official: bool,
    pub digest: String,
    pub payload: ReportPayload,
}

/// Checks a report file: its seal, then its content. The message says why not.
pub fn verify(bytes: &[u8]) -> Result<Verified, String> {
    let opened = seal::open(bytes).map_err(|e: SealError| e.message().to_string())?;
    let payload: ReportPayload = serde_json::from_str(&opened.payload).map_err(|_| {
        "Der Bericht ist unterschrieben, aber sein Inhalt ist kein Turnier dieser Version."
            .to_string()
    })?;
    Ok(Verified {
        hall: payload.hall.clone(),
        public_key: hex::encode(opened.public_key),
        fingerprint: fingerprint(&opened.public_key),
        uuid: payload.uuid.clone(),
        revision: payload.revision,
        tournament: payload.tournament.tournament.name.clone(),
        date: payload.tournament.tournament.date,
        official: payload.tournament.tournament.closed,
        digest: opened.digest,
        payload,
    })
}

/// Whether this instance made (or a series here took) the report of a printed Rangliste:
/// its tournament UUID, revision and digest (at least its first 32 hex digits).
pub enum Printed {
    /// This instance's own tournament at exactly this revision.
    Own {
        hall: String,
        fingerprint: String,
    },
    /// A report a series here took.
    Taken {
        hall: String,
        fingerprint: String,
    },
    /// Known tournament, other revision: the print is not the latest state.
    Outdated {
        current: u32,
    },
    Unknown,
}

pub fn check_printed(
    conn: &mut Conn,
    uuid: &str,
    revision: u32,
    digest: &str,
) -> Result<Printed, Refusal> {
    let digest = digest.trim().to_ascii_lowercase();
    if digest.len() < 32 || !digest.chars().all(|c| c.is_ascii_hexdigit()) {
        return Ok(Printed::Unknown);
    }
    let own: Option<TournamentId> = crate::db::instance::tournament_of_uuid(conn, uuid)?;
    if let Some(id) = own {
        let sealed = sealed_now(conn, id, uuid.to_string())?;
        let key = instance::key(conn)?;
        let t = guard::tournament(conn, id)?;
        let current = u32::try_from(t.version).unwrap_or_default();
        return Ok(
            if current == revision && sealed.digest.starts_with(&digest) {
                Printed::Own {
                    hall: key.hall_name,
                    fingerprint: fingerprint(&public_key_of(&key.secret)),
                }
            } else {
                Printed::Outdated { current }
            },
        );
    }
    for r in taken::with_digest(conn, &digest)? {
        if r.uuid == uuid && r.revision == revision {
            let key: [u8; 32] = hex::decode(&r.public_key)
                .ok()
                .and_then(|b| b.try_into().ok())
                .unwrap_or_default();
            let hall = hall_name_of(conn, &r.public_key)?;
            return Ok(Printed::Taken {
                hall,
                fingerprint: fingerprint(&key),
            });
        }
    }
    Ok(Printed::Unknown)
}

fn hall_name_of(conn: &mut Conn, public_key: &str) -> Result<String, Refusal> {
    for s in series::list(conn)? {
        if let Some(h) = taken::halls(conn, s.id)?
            .into_iter()
            .find(|h| h.public_key == public_key)
        {
            return Ok(h.hall_name);
        }
    }
    Ok(String::new())
}

/// This instance's name and key, for the Halle page.
pub struct OwnKey {
    pub hall: String,
    pub public_key: String,
    pub fingerprint: String,
}

pub fn own_key(conn: &mut Conn) -> Result<OwnKey, Refusal> {
    let key = instance::key(conn)?;
    let public = public_key_of(&key.secret);
    Ok(OwnKey {
        hall: key.hall_name,
        public_key: hex::encode(public),
        fingerprint: fingerprint(&public),
    })
}

/// The name reports are signed with (Leitung).
pub fn set_hall_name(conn: &mut Conn, actor: &Actor, name: &str) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(Refusal::invalid(
            "Name der Halle: 1 bis 100 Zeichen, zum Beispiel «Jassclub Uster».",
        ));
    }
    write_tx(conn, Lock::Global, |conn| {
        Ok(instance::set_hall_name(conn, name)?)
    })
}

/// Accepts a hall for a series (its public key, hex).
pub fn accept_hall(
    conn: &mut Conn,
    actor: &Actor,
    id: SeriesId,
    public_key: &str,
    hall_name: &str,
) -> Result<(), Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let key: [u8; 32] = hex::decode(public_key.trim())
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| {
            Refusal::invalid("Schlüssel der Halle: 64 Hex-Zeichen, wie auf ihrer Seite «Halle».")
        })?;
    let hall_name = hall_name.trim();
    if hall_name.is_empty() {
        return Err(Refusal::invalid("Name der Halle fehlt."));
    }
    write_tx(conn, Lock::Global, |conn| {
        let s = series::series(conn, id)?;
        let hall = Hall {
            public_key: hex::encode(key),
            hall_name: hall_name.to_string(),
        };
        taken::add_hall(conn, id, &hall)?;
        let entry = serde_json::json!({
            "name": s.settings.name,
            "hall": hall.hall_name,
            "fingerprint": fingerprint(&key),
        });
        series::record(conn, actor, SeriesAction::Hall, id, None, &entry)
    })
}

pub fn halls(conn: &mut Conn, id: SeriesId) -> Result<Vec<(Hall, String)>, Refusal> {
    Ok(taken::halls(conn, id)?
        .into_iter()
        .map(|h| {
            let key: [u8; 32] = hex::decode(&h.public_key)
                .ok()
                .and_then(|b| b.try_into().ok())
                .unwrap_or_default();
            (h, fingerprint(&key))
        })
        .collect())
}

pub fn taken_reports(conn: &mut Conn, id: SeriesId) -> Result<Vec<TakenReport>, Refusal> {
    Ok(taken::list(conn, id)?)
}

/// What became of a report sent to a series.
pub enum Taken {
    Added(TournamentId),
    /// A newer revision: what changed in the standings.
    Replaced {
        tournament: TournamentId,
        summary: String,
    },
    Unchanged,
    /// The hall is not accepted by the series yet: nothing written.
    UnknownHall {
        hall: String,
        public_key: String,
        fingerprint: String,
    },
    /// Players the register cannot tell apart: the office chooses (the report is kept).
    Choose(Preview),
}

/// A report's players the office must choose for (same name, other Ort), kept until it
/// confirms.
pub struct Preview {
    pub token: String,
    pub fingerprint: String,
    pub new: usize,
    pub matched: usize,
    pub ambiguous: Vec<AmbiguousSeat>,
}

pub struct AmbiguousSeat {
    /// The form's key: `<line>_<seat>`.
    pub key: String,
    pub startnummer: u32,
    pub player: String,
    pub candidates: Vec<(PersonId, String)>,
}

/// Takes a sealed report into a series (see the module's decisions). A report whose seal
/// or content does not hold is refused with its reason; nothing is written. Players the
/// register cannot tell apart wait for the office's choice ([`Taken::Choose`]).
pub fn take(conn: &mut Conn, actor: &Actor, id: SeriesId, bytes: &[u8]) -> Result<Taken, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let report = verify(bytes).map_err(Refusal::Invalid)?;
    let checked = super::import::checked(&report.payload.tournament)?;
    write_tx(conn, Lock::Global, |conn| {
        let before = match admitted(conn, id, &report)? {
            Admitted::Go(before) => before,
            Admitted::Done(taken) => return Ok(taken),
        };
        let matches = report_matches(conn, &report.payload.tournament, checked.0)?;
        let ambiguous: Vec<AmbiguousSeat> = matches
            .seats
            .iter()
            .filter_map(|m| match &m.found {
                Match::Ambiguous(candidates) => Some(AmbiguousSeat {
                    key: format!("{}_{}", m.line, m.seat),
                    startnummer: m.startnummer,
                    player: m.player.clone(),
                    candidates: candidates
                        .iter()
                        .map(|p| (*p, matches.labels.get(p).cloned().unwrap_or_default()))
                        .collect(),
                }),
                _ => None,
            })
            .collect();
        if !ambiguous.is_empty() {
            let count = |new: bool| {
                matches
                    .seats
                    .iter()
                    .filter(|m| matches!(m.found, Match::New) == new)
                    .filter(|m| !matches!(m.found, Match::Ambiguous(_)))
                    .count()
            };
            return Ok(Taken::Choose(Preview {
                token: taken::keep(conn, id, actor.id, bytes)?,
                fingerprint: matches.fingerprint.clone(),
                new: count(true),
                matched: count(false),
                ambiguous,
            }));
        }
        write(conn, actor, id, &report, checked, before, Register::ByName)
    })
}

/// The office's choices for a kept report: who each ambiguous player is. Refused when the
/// register changed since the preview (nothing written; upload again).
pub fn confirm(
    conn: &mut Conn,
    actor: &Actor,
    id: SeriesId,
    token: &str,
    fingerprint: &str,
    choices: &HashMap<(usize, u32), SeatChoice>,
) -> Result<Taken, Refusal> {
    guard::require(actor, Permission::ManageTournament)?;
    let bytes = write_tx(conn, Lock::Global, |conn| {
        Ok::<_, Refusal>(taken::take_kept(conn, id, actor.id, token)?)
    })?
    .ok_or_else(|| {
        Refusal::invalid("Dieser Bericht wartet nicht mehr (nach einer Stunde verfallen oder schon übernommen): bitte nochmals hochladen.")
    })?;
    let report = verify(&bytes).map_err(Refusal::Invalid)?;
    let checked = super::import::checked(&report.payload.tournament)?;
    write_tx(conn, Lock::Global, |conn| {
        let before = match admitted(conn, id, &report)? {
            Admitted::Go(before) => before,
            Admitted::Done(taken) => return Ok(taken),
        };
        let matches = report_matches(conn, &report.payload.tournament, checked.0)?;
        if matches.fingerprint != fingerprint {
            return Err(Refusal::Conflict(
                "Das Register hat sich seit der Vorschau geändert: bitte den Bericht nochmals hochladen und neu wählen.".into(),
            ));
        }
        let register = Register::Chosen(&matches.seats, choices);
        write(conn, actor, id, &report, checked, before, register)
    })
}

/// Whether the series takes this report at all: its hall accepted, not the same or an older
/// revision, not another hall's tournament. `Go` with the report in force before, if any.
enum Admitted {
    Go(Option<TakenReport>),
    Done(Taken),
}

fn admitted(conn: &mut Conn, id: SeriesId, report: &Verified) -> Result<Admitted, Refusal> {
    series::series(conn, id)?;
    if !taken::halls(conn, id)?
        .iter()
        .any(|h| h.public_key == report.public_key)
    {
        return Ok(Admitted::Done(Taken::UnknownHall {
            hall: report.hall.clone(),
            public_key: report.public_key.clone(),
            fingerprint: report.fingerprint.clone(),
        }));
    }
    let before = taken::find(conn, id, &report.uuid)?;
    if let Some(b) = &before {
        if b.public_key != report.public_key {
            return Err(Refusal::invalid(format!(
                "Dieses Turnier kam bisher von einer anderen Halle: der Bericht von «{}» wird nicht übernommen.",
                report.hall
            )));
        }
        if b.revision == report.revision && b.digest == report.digest {
            return Ok(Admitted::Done(Taken::Unchanged));
        }
        if b.revision >= report.revision {
            return Err(Refusal::invalid(format!(
                "Dieser Bericht (Revision {}) ist nicht neuer als der übernommene (Revision {}): nichts geändert.",
                report.revision, b.revision
            )));
        }
    }
    Ok(Admitted::Go(before))
}

/// The report's players against the register, as the team import's preview sees them
/// (Name, Vorname, Ort; the Jahrgang where the report gives it).
fn report_matches(
    conn: &mut Conn,
    doc: &transfer::Export,
    mode: crate::domain::mode::Mode,
) -> Result<super::persons::ImportMatches, Refusal> {
    let fact = |nr: u32, seat: u32| {
        doc.persons
            .iter()
            .find(|p| p.startnummer == nr && p.seat == seat)
            .map(|p| (p.person.jahrgang, p.person.geschlecht))
            .unwrap_or_default()
    };
    let rows: Vec<ImportedTeam> = doc
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| ImportedTeam {
            line: i + 1,
            startnummer: t.startnummer,
            team: TeamInput {
                startnummer: Some(t.startnummer),
                name: t.name.clone(),
                player1: t.player1.clone(),
                player2: t.player2.clone(),
                club: t.club.clone(),
                place: t.place.clone(),
            },
            categories: Vec::new(),
            jahrgang: [fact(t.startnummer, 1).0, fact(t.startnummer, 2).0],
            geschlecht: [fact(t.startnummer, 1).1, fact(t.startnummer, 2).1],
        })
        .collect();
    super::persons::import_matches(conn, mode.entrant(), &rows)
}

/// Writes a report that passed [`admitted`]: the tournament, its place in the series (in
/// place of the older revision), what changed, the Protokoll.
fn write(
    conn: &mut Conn,
    actor: &Actor,
    id: SeriesId,
    report: &Verified,
    checked: (crate::domain::mode::Mode, crate::domain::draw::DrawMode),
    before: Option<TakenReport>,
    register: Register<'_>,
) -> Result<Taken, Refusal> {
    let s = series::series(conn, id)?;
    let totals_before = totals(conn, id)?;
    let tournament =
        super::import::write_imported(conn, actor, &report.payload.tournament, checked, register)?;
    let mut list = series::tournaments(conn, id)?;
    if let Some(b) = &before {
        for t in &mut list {
            if t.tournament == b.tournament {
                t.tournament = tournament;
            }
        }
        let old = guard::tournament(conn, b.tournament)?;
        let retired = format!("{} (Revision {}, ersetzt)", old.name, b.revision);
        crate::db::tournaments::retire(conn, b.tournament, &retired)?;
    } else {
        list.push(crate::db::series::SeriesTournament {
            tournament,
            is_final: false,
        });
    }
    crate::db::series::set_tournaments(conn, id, &list)?;
    let summary = match &before {
        None => format!(
            "Neu: «{}» vom {} (Halle «{}», Revision {}).",
            report.tournament,
            format::date(report.date),
            report.hall,
            report.revision
        ),
        Some(b) => changes(report, b.revision, &totals_before, &totals(conn, id)?),
    };
    taken::put(
        conn,
        id,
        &TakenReport {
            uuid: report.uuid.clone(),
            revision: report.revision,
            tournament,
            public_key: report.public_key.clone(),
            digest: report.digest.clone(),
            imported_at: crate::db::now(),
            summary: summary.clone(),
        },
    )?;
    let entry = serde_json::json!({
        "name": s.settings.name,
        "tournament": report.tournament,
        "revision": report.revision,
        "hall": report.hall,
        "uuid": report.uuid,
    });
    series::record(conn, actor, SeriesAction::Report, id, None, &entry)?;
    Ok(match before {
        None => Taken::Added(tournament),
        Some(_) => Taken::Replaced {
            tournament,
            summary,
        },
    })
}

/// Each entrant's name and total in the standings now.
fn totals(conn: &mut Conn, id: SeriesId) -> Result<HashMap<String, u32>, Refusal> {
    let s = standings_of(conn, id, true)?;
    let name = |e: &SeriesEntrant| {
        e.persons()
            .iter()
            .map(|p| {
                s.persons
                    .get(p)
                    .map(|r| format!("{} {}", r.vorname, r.name).trim().to_string())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" / ")
    };
    Ok(s.rows.iter().map(|r| (name(&r.entrant), r.total)).collect())
}

/// «Revision 7 ersetzt Revision 5 von «Cup Uster»: Anna Meier 20 → 25, …» (or no change).
fn changes(
    report: &Verified,
    old_revision: u32,
    before: &HashMap<String, u32>,
    after: &HashMap<String, u32>,
) -> String {
    let mut changed: Vec<String> = after
        .iter()
        .filter_map(|(who, total)| {
            let was = before.get(who).copied().unwrap_or(0);
            (was != *total).then(|| format!("{who} {was} → {total}"))
        })
        .chain(
            before
                .iter()
                .filter(|(who, _)| !after.contains_key(*who))
                .map(|(who, was)| format!("{who} {was} → 0")),
        )
        .collect();
    changed.sort();
    let what = match changed.is_empty() {
        true => "die Gesamtwertung bleibt gleich".to_string(),
        false => changed.join(", "),
    };
    format!(
        "Revision {} ersetzt Revision {old_revision} von «{}»: {what}.",
        report.revision, report.tournament
    )
}
