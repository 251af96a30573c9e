//! `jassturnier demo`: a realistic Partnerschieber tournament to look around in.

use crate::db::{self, results, teams, tournaments, users};
use crate::domain::ids::{TeamId, TournamentId, UserId};
use crate::domain::result::TableScore;
use crate::domain::role::{Actor, Role};
use crate::domain::team::{TeamInput, TeamStatus};
use crate::domain::tournament::{Mode, TournamentSettings};
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

pub fn create(database_url: &str) -> Result<String, String> {
    let pool = db::connect(database_url, 1)?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let conn = &mut conn;
    let err = |e: crate::error::AppError| e.to_string();

    let mut created_account = false;
    let leitung = match users::list(conn)
        .map_err(|e| e.to_string())?
        .into_iter()
        .find(|u| u.role == "leitung" && u.active)
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
                Err(users::CreateError::Db(e)) => return Err(e.to_string()),
            }
        }
    };
    let actor = Actor {
        id: UserId(leitung.id),
        username: leitung.username.clone(),
        role: Role::Leitung,
    };

    let settings = TournamentSettings {
        name: "Demo: Herbst-Partnerschieber".into(),
        date: chrono::Local::now().date_naive(),
        location: "Zürich, Volkshaus".into(),
        mode: Mode::Partnerschieber,
        passen: 4,
        spiele_per_passe: 12,
        pauschale: 1000,
    };
    let id: TournamentId = tournaments::create(conn, &actor, &settings).map_err(err)?;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for i in 0..24 {
        let (club, place) = PLACES[i % PLACES.len()];
        let team = TeamInput {
            startnummer: Some(i as u32 + 1),
            name: (i % 2 == 0).then(|| TEAMS[i / 2].to_string()),
            player1: format!("{} {}", FIRST[i], LAST[i]),
            player2: format!("{} {}", FIRST[(i + 7) % 24], LAST[(i + 11) % 24]),
            club: Some(club.to_string()),
            place: Some(place.to_string()),
        };
        teams::create(conn, &actor, id, &team).map_err(|e| match e {
            teams::TeamWriteError::StartnummerTaken(n) => format!("Startnummer {n} doppelt"),
            teams::TeamWriteError::App(e) => e.to_string(),
        })?;
    }
    results::draw(conn, &actor, id, results::DrawMode::Fest, 2026).map_err(err)?;

    let disqualified = results::load(conn, id).map_err(err)?.teams[16].id;
    for passe in 1..=3u32 {
        if passe == 3 {
            results::set_team_status(
                conn,
                &actor,
                id,
                TeamId(disqualified),
                TeamStatus::Disqualifiziert,
                Some(3),
                Some("Zeichengeben nach Verwarnung (Regeln Partnerschieber §6)".into()),
            )
            .map_err(err)?;
        }
        let data = results::load(conn, id).map_err(err)?;
        let tables: Vec<u32> = data.tables(passe).iter().map(|t| t.number).collect();
        for table in tables {
            let points_a: u32 = rng.random_range(560..=1324);
            let matches_a = u32::from(rng.random_bool(0.15));
            let score = TableScore {
                points_a,
                points_b: 1884 - points_a,
                matches_a,
                matches_b: 0,
            };
            match results::save_result(conn, &actor, id, passe, table, score, None) {
                Ok(_) => {}
                // Tables of the disqualified team count the Pauschale instead.
                Err(crate::error::AppError::BadRequest(_)) => continue,
                Err(e) => return Err(e.to_string()),
            }
            // Most results are visaed; a few in the last Passe still wait for the Kontrolleur.
            if passe < 3 || table % 4 != 0 {
                results::visa(conn, &actor, id, passe, table, None).map_err(err)?;
            }
        }
    }
    let mut message = format!(
        "Demo-Turnier #{id} angelegt: 24 Teams, 4 Passen à 12 Spiele, Resultate der Passen 1–3."
    );
    if created_account {
        message += &format!(
            "\nAnmelden mit Benutzer «{DEMO_USER}», Passwort «{DEMO_PASSWORD}» (Turnierleitung)."
        );
    }
    Ok(message)
}
