//! `jassturnier demo`: a realistic Partnerschieber (or Einzelschieber) tournament to look
//! around in.

use crate::app::teams::TeamRefusal;
use crate::app::{self, Refusal, guard};
use crate::db::Lock;
use crate::db::{self, users};
use crate::domain::draw::DrawMode;
use crate::domain::ids::TournamentId;
use crate::domain::mode::{Mode, POINTS_PER_SPIEL};
use crate::domain::result::TableScore;
use crate::domain::result_import::ImportedTable;
use crate::domain::role::{Actor, Role};
use crate::domain::team::{TeamInput, TeamStatus};
use crate::domain::tournament::TournamentSettings;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const DEMO_USER: &str = "demo";
pub const DEMO_PASSWORD: &str = "demo-passwort";

const FIRST: [&str; 24] = [
    "Anna",
    "Urs",
    "Heidi",
    "Ruedi",
    "Käthi",
    "Jürg",
    "Vreni",
    "Fritz",
    "Regula",
    "Beat",
    "Margrit",
    "Hansjörg",
    "Ursula",
    "Sämi",
    "Therese",
    "Bruno",
    "Rösli",
    "Chläus",
    "Susanne",
    "Walter",
    "Brigitte",
    "Peter",
    "Elsbeth",
    "Toni",
];
const LAST: [&str; 24] = [
    "Müller",
    "Bär",
    "Gämperli",
    "Jäggi",
    "Frei",
    "Zürcher",
    "Schmid",
    "Käser",
    "Bühler",
    "Häfliger",
    "Stöckli",
    "Würgler",
    "Brunner",
    "Hürlimann",
    "Egli",
    "Nüesch",
    "Baumann",
    "Keller",
    "Meier",
    "Suter",
    "Zbinden",
    "Rüegg",
    "Ammann",
    "Lüthi",
];
const TEAMS: [&str; 12] = [
    "Bärenstark",
    "Die Schellen-Asse",
    "Röselijasser",
    "Undenufe",
    "Eichelbuur",
    "Stöck-Wys-Stich",
    "Schilte-Zehner",
    "Obenabe",
    "Nell-Fänger",
    "Trumpf-Buur",
    "Die Matchmacher",
    "Chrüz-Jasser",
];
const PLACES: [(&str, &str); 6] = [
    ("JC Zürich", "Zürich"),
    ("Jassfreunde Wädenswil", "Wädenswil"),
    ("Jassclub Bern", "Bern"),
    ("JC Kilchberg", "Kilchberg"),
    ("Jassgruppe Luzern", "Luzern"),
    ("JC St. Gallen", "St. Gallen"),
];

/// Said when the mode asked for has no demo (or is no mode at all).
pub const DEMO_MODES: &str = "Die Demo gibt es für Partnerschieber und Einzelschieber \
(--mode partnerschieber oder --mode einzelschieber).";

pub struct Size {
    pub mode: Mode,
    /// Teams, or players in an Einzelschieber.
    pub teams: u32,
    pub passen: u32,
    pub spiele: u32,
}

pub fn create(database_url: &str, size: Size) -> Result<String, String> {
    if size.teams < 4
        || size.teams > 5000
        || size.passen < 2
        || size.passen > 30
        || size.spiele < 1
        || size.spiele > 40
    {
        return Err(format!(
            "Demo: 4 bis 5000 {}, 2 bis 30 Passen, 1 bis 40 Spiele.",
            size.mode.entrant().many()
        ));
    }
    if size.mode.has_tafel() {
        return Err(DEMO_MODES.into());
    }
    let pool = db::connect(database_url, 1)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    // All or nothing: the use cases below run inside this one transaction (as savepoints),
    // so a failure leaves no half-written demo tournament.
    db::write_tx(&mut conn, Lock::Global, |conn| fill(conn, size)).map_err(|f| f.0)
}

/// Why the demo could not be written.
struct Failure(String);

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure(message.to_string())
    }
}

impl From<diesel::result::Error> for Failure {
    fn from(e: diesel::result::Error) -> Self {
        Failure(e.to_string())
    }
}

fn fill(conn: &mut db::Conn, size: Size) -> Result<String, Failure> {
    let err = |e: Refusal| e.to_string();

    let mut created_account = false;
    let leitung = match users::list(conn)
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|u| u.role == Role::Leitung && u.active)
    {
        Some(user) => user,
        None => {
            let hash = users::hash_password(DEMO_PASSWORD)?;
            created_account = true;
            match users::create(conn, None, DEMO_USER, &hash, Role::Leitung, false) {
                Ok(Some(user)) => user,
                Ok(None) | Err(users::CreateError::Taken) => {
                    return Err("Konto demo konnte nicht angelegt werden.".into());
                }
                Err(users::CreateError::Db(e)) => return Err(e.into()),
            }
        }
    };
    let actor = Actor {
        id: leitung.id,
        username: leitung.username.clone(),
        role: Role::Leitung,
    };

    let players = size.mode.draws_partners();
    let settings = TournamentSettings {
        name: match players {
            true => "Demo: Einzelschieber Kilchberg".into(),
            false => "Demo: Herbst-Partnerschieber".into(),
        },
        date: chrono::Local::now().date_naive(),
        location: "Zürich, Volkshaus".into(),
        mode: size.mode,
        passen: size.passen,
        spiele_per_passe: size.spiele,
        pauschale: crate::domain::tournament::preset_pauschale(size.passen, size.spiele)
            .unwrap_or(size.spiele * POINTS_PER_SPIEL / 2),
        double_entry: false,
        double_entry_same_user: false,
        separate_clubs: false,
        marathon: None,
    };
    let id: TournamentId = app::tournaments::create(conn, &actor, &settings).map_err(err)?;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for i in 0..size.teams as usize {
        let (club, place) = PLACES[i % PLACES.len()];
        let round = i / 24;
        let suffix = if round == 0 {
            String::new()
        } else {
            format!(" {}", round + 1)
        };
        let team = match players {
            true => TeamInput::player(
                Some(i as u32 + 1),
                LAST[(i + round) % 24],
                FIRST[(i * 5 + round) % 24],
                Some(club.to_string()),
                Some(place.to_string()),
            ),
            false => TeamInput {
                startnummer: Some(i as u32 + 1),
                name: (i % 2 == 0).then(|| format!("{}{suffix}", TEAMS[(i / 2) % TEAMS.len()])),
                player1: format!("{} {}", FIRST[i % 24], LAST[(i + round) % 24]),
                player2: format!("{} {}", FIRST[(i + 7) % 24], LAST[(i + 11 + round) % 24]),
                club: Some(club.to_string()),
                place: Some(place.to_string()),
            },
        };
        app::teams::create(conn, &actor, id, &team).map_err(|e| match e {
            TeamRefusal::StartnummerTaken(n) => format!("Startnummer {n} doppelt"),
            TeamRefusal::Refused(e) => e.to_string(),
        })?;
    }
    app::draw::draw(conn, &actor, id, DrawMode::Fest, 2026).map_err(err)?;

    let total = size.spiele * POINTS_PER_SPIEL;
    // Team 17 of a full demo; the last team of a small one.
    let teams = guard::load(conn, id).map_err(err)?.teams;
    let disqualified = teams[16.min(teams.len() - 1)].id;
    let dq_passe = size.passen - 1;
    for passe in 1..size.passen {
        if passe == dq_passe {
            // Before any result of that Passe: nothing to ask or confirm.
            app::team_status::leave(
                conn,
                &actor,
                id,
                disqualified,
                app::team_status::Leaving {
                    status: TeamStatus::Disqualifiziert,
                    passe: dq_passe,
                    reason: Some("Zeichengeben nach Verwarnung".into()),
                    aborted: None,
                    confirmed_at: None,
                },
            )
            .map_err(err)?;
        }
        let data = guard::load(conn, id).map_err(err)?;
        // Tables of the disqualified team count the Pauschale instead.
        let tables: Vec<ImportedTable> = data
            .tables(passe)
            .iter()
            .filter(|t| !data.table_has_left(passe, t))
            .map(|t| {
                let points_a: u32 = rng.random_range(total * 3 / 10..=total * 7 / 10);
                let matches_a = u32::from(rng.random_bool(0.15)).min(points_a / POINTS_PER_SPIEL);
                ImportedTable {
                    passe,
                    table: t.number,
                    score: TableScore {
                        points_a,
                        points_b: total - points_a,
                        matches_a,
                        matches_b: 0,
                    },
                }
            })
            .collect();
        app::import::import_results(conn, &actor, id, &tables).map_err(err)?;
        // Most results are visaed; a few in the last played Passe still wait for the Kontrolleur.
        for t in &tables {
            if passe < dq_passe || t.table % 4 != 0 {
                app::visa::visa(conn, &actor, id, passe, t.table, None).map_err(err)?;
            }
        }
    }
    let mut message = format!(
        "Demo-Turnier #{id} angelegt ({}): {} {}, {} Passen à {} Spiele, Resultate der Passen 1–{}.",
        size.mode.label(),
        size.teams,
        size.mode.entrant().many(),
        size.passen,
        size.spiele,
        size.passen - 1
    );
    if created_account {
        message += &format!(
            "\nAnmelden mit Benutzer «{DEMO_USER}», Passwort «{DEMO_PASSWORD}» (Turnierleitung)."
        );
    }
    Ok(message)
}
