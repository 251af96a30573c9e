//! `jassturnier demo`: a realistic Partnerschieber, Einzelschieber or Jassmarathon
//! tournament to look around in.

use crate::app::entry::Typed;
use crate::app::tafel::TafelChange;
use crate::app::teams::TeamRefusal;
use crate::app::{self, Refusal, guard};
use crate::db::Lock;
use crate::db::{self, users};
use crate::domain::clock::ClockAction;
use crate::domain::differenzler::Line;
use crate::domain::draw::DrawMode;
use crate::domain::ids::TournamentId;
use crate::domain::marathon::{Cards, Rules, Side, Spiel, Trump};
use crate::domain::mode::{Mode, POINTS_PER_SPIEL};
use crate::domain::result::{ResultForm, TableScore};
use crate::domain::result_import::ImportedTable;
use crate::domain::role::{Actor, Role};
use crate::domain::streichresultat::Wertung;
use crate::domain::team::{TeamInput, TeamStatus};
use crate::domain::team_import::ImportedTeam;
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
/// Every demo team has a name (an office's list shows team and players, not players twice).
const TEAMS: [&str; 24] = [
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
    "Banner-Träger",
    "Ober und Under",
    "Die Bergpreisler",
    "Schellen-Nell",
    "Jass-Füchse",
    "Rosen-Ass",
    "Eichel-Ober",
    "Die Schieber",
    "Wiis-Chläus",
    "Matsch-Jäger",
    "Stöckli-Club",
    "Schilten-Puur",
];
const PLACES: [(&str, &str); 6] = [
    ("JC Zürich", "Zürich"),
    ("Jassfreunde Wädenswil", "Wädenswil"),
    ("Jassclub Bern", "Bern"),
    ("JC Kilchberg", "Kilchberg"),
    ("Jassgruppe Luzern", "Luzern"),
    ("JC St. Gallen", "St. Gallen"),
];

/// Said when the mode asked for is no mode.
pub const DEMO_MODES: &str = "Die Demo gibt es für --mode partnerschieber, einzelschieber, \
jassmarathon und differenzler.";

/// The Jassmarathon demo's Pauschale in Striche: about what a team writes in a Spielrunde.
const MARATHON_PAUSCHALE: u32 = 5;

pub struct Size {
    pub mode: Mode,
    /// Teams, or players in an Einzelschieber.
    pub teams: u32,
    pub passen: u32,
    pub spiele: u32,
}

pub fn create(database_url: &str, size: Size) -> Result<String, String> {
    // Spiele per round are a Passe's; a Spielrunde runs on the clock (--spiele is unused).
    let counts_spiele = !size.mode.has_clock();
    if size.teams < 4
        || size.teams > 5000
        || size.passen < 2
        || size.passen > 30
        || (counts_spiele && !(1..=40).contains(&size.spiele))
    {
        let spiele = if counts_spiele {
            ", 1 bis 40 Spiele"
        } else {
            ""
        };
        return Err(format!(
            "Demo: 4 bis 5000 {}, 2 bis 30 {}{spiele}.",
            size.mode.entrant().many(),
            size.mode.rounds()
        ));
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

    let players = size.mode.draws_players();
    let marathon = size.mode.has_tafel();
    let settings = TournamentSettings {
        name: match size.mode {
            Mode::Einzelschieber => "Demo: Einzelschieber Kilchberg".into(),
            Mode::Jassmarathon => "Demo: Jassmarathon Wädenswil".into(),
            Mode::Partnerschieber => "Demo: Herbst-Partnerschieber".into(),
            Mode::Differenzler => "Demo: Differenzler Thalwil".into(),
        },
        date: chrono::Local::now().date_naive(),
        location: "Zürich, Volkshaus".into(),
        mode: size.mode,
        passen: size.passen,
        spiele_per_passe: size.spiele,
        pauschale: match marathon {
            true => MARATHON_PAUSCHALE,
            false => crate::domain::tournament::preset_pauschale(size.passen, size.spiele)
                .unwrap_or(size.spiele * POINTS_PER_SPIEL / 2),
        },
        double_entry: false,
        double_entry_same_user: false,
        separate_clubs: false,
        wertung: Wertung::Alle,
        club_best: None,
        marathon: marathon.then(Rules::jassmarathon),
        differenzler: size.mode.lower_wins().then(Default::default),
    };
    let id: TournamentId = app::tournaments::create(conn, &actor, &settings).map_err(err)?;
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    // The field as one import, the visas as one batch per Passe: the demo is one transaction
    // and each use case a savepoint of it; PostgreSQL slows down sharply past 64 of them
    // (every row a savepoint wrote is then checked through pg_subtrans), 5000 teams made
    // it take minutes.
    let mut field = Vec::with_capacity(size.teams as usize);
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
                name: Some(format!("{}{suffix}", TEAMS[i % TEAMS.len()])),
                player1: format!("{} {}", FIRST[i % 24], LAST[(i + round) % 24]),
                player2: format!("{} {}", FIRST[(i + 7) % 24], LAST[(i + 11 + round) % 24]),
                club: Some(club.to_string()),
                place: Some(place.to_string()),
            },
        };
        field.push(ImportedTeam {
            line: i + 1,
            startnummer: i as u32 + 1,
            team,
            categories: Vec::new(),
            jahrgang: [None, None],
            geschlecht: [None, None],
        });
    }
    app::teams::import(conn, &actor, id, &field, false, &Default::default()).map_err(
        |e| match e {
            TeamRefusal::StartnummerTaken(n) => format!("Startnummer {n} doppelt"),
            TeamRefusal::Refused(e) => e.to_string(),
        },
    )?;
    app::draw::draw(conn, &actor, id, DrawMode::Fest, 2026).map_err(err)?;

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
        let to_play: Vec<u32> = data
            .tables(passe)
            .iter()
            .filter(|t| !data.table_has_left(passe, t))
            .map(|t| t.number)
            .collect();
        if marathon {
            play_spielrunde(conn, &actor, id, passe, &to_play, &mut rng)?;
        } else if size.mode.has_schaetzzettel() {
            play_schaetzzettel(conn, &actor, (id, passe), &to_play, size.spiele, &mut rng)?;
        } else {
            play_passe(conn, &actor, id, passe, &to_play, size.spiele, &mut rng)?;
        }
        // Most results are visaed; a few in the last played Passe still wait for the Kontrolleur.
        let played = guard::load(conn, id).map_err(err)?;
        let to_visa: Vec<(u32, i32)> = to_play
            .iter()
            .filter(|&&table| passe < dq_passe || table % 4 != 0)
            .filter_map(|&table| Some((table, played.result_at(passe, table)?.version)))
            .collect();
        app::visa::visa_tables(conn, &actor, id, passe, &to_visa).map_err(err)?;
    }
    if marathon {
        running_spielrunde(conn, &actor, id, size.passen)?;
    }
    let mode = size.mode;
    let spiele = match marathon {
        true => String::new(),
        false => format!(" à {} Spiele", size.spiele),
    };
    let mut message = format!(
        "Demo-Turnier #{id} angelegt ({}): {} {}, {} {}{spiele}, Resultate der {} 1–{}.",
        mode.label(),
        size.teams,
        mode.entrant().many(),
        size.passen,
        mode.rounds(),
        mode.rounds(),
        size.passen - 1
    );
    if created_account {
        message += &format!(
            "\nAnmelden mit Benutzer «{DEMO_USER}», Passwort «{DEMO_PASSWORD}» (Turnierleitung)."
        );
    }
    Ok(message)
}

/// Points at every table to be played, imported as one file.
fn play_passe(
    conn: &mut db::Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    to_play: &[u32],
    spiele: u32,
    rng: &mut ChaCha8Rng,
) -> Result<(), Failure> {
    let total = spiele * POINTS_PER_SPIEL;
    let tables: Vec<ImportedTable> = to_play
        .iter()
        .map(|&table| {
            let points_a: u32 = rng.random_range(total * 3 / 10..=total * 7 / 10);
            let matches_a = u32::from(rng.random_bool(0.15)).min(points_a / POINTS_PER_SPIEL);
            ImportedTable {
                passe,
                table,
                score: TableScore {
                    points_a,
                    points_b: total - points_a,
                    matches_a,
                    matches_b: 0,
                },
                // No file: a refusal names the table, not a line.
                line: 0,
            }
        })
        .collect();
    app::import::import_results(conn, actor, id, &tables).map_err(|e| e.to_string())?;
    Ok(())
}

/// Differenzler: every table's Schätzzettel typed Spiel by Spiel — the made points a random
/// split of 157, each Ansage a little off (sometimes exact).
fn play_schaetzzettel(
    conn: &mut db::Conn,
    actor: &Actor,
    (id, passe): (TournamentId, u32),
    to_play: &[u32],
    spiele: u32,
    rng: &mut ChaCha8Rng,
) -> Result<(), Failure> {
    for &table in to_play {
        let lines: Vec<[Line; 4]> = (0..spiele)
            .map(|_| {
                let mut cuts = [0u32; 3].map(|_| rng.random_range(0..=POINTS_PER_SPIEL));
                cuts.sort_unstable();
                let made = [
                    cuts[0],
                    cuts[1] - cuts[0],
                    cuts[2] - cuts[1],
                    POINTS_PER_SPIEL - cuts[2],
                ];
                made.map(|gemacht| {
                    let off: i64 = rng.random_range(-25..=25);
                    let ansage = (i64::from(gemacht) + off).clamp(0, i64::from(POINTS_PER_SPIEL));
                    Line {
                        ansage: u32::try_from(ansage).unwrap_or(0),
                        gemacht,
                    }
                })
            })
            .collect();
        match app::entry::save_schaetzzettel(conn, actor, (id, passe, table), None, lines) {
            Ok(app::entry::Typed::Done { .. }) => {}
            Ok(_) => return Err(format!("Passe {passe}, Tisch {table}: nicht gespeichert.").into()),
            Err(e) => return Err(e.to_string().into()),
        }
    }
    Ok(())
}

/// A Spielrunde played to the gong, its tables entered by Schnellerfassung: Striche per
/// category as the rules allow them (Sieg in steps, Schneider only with a Sieg, at most one
/// Bergpreis per Partie, one Gong-Strich).
fn play_spielrunde(
    conn: &mut db::Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
    to_play: &[u32],
    rng: &mut ChaCha8Rng,
) -> Result<(), Failure> {
    let err = |e: Refusal| e.to_string();
    app::tafel::clock_action(conn, actor, id, passe, ClockAction::Start).map_err(err)?;
    app::tafel::clock_action(conn, actor, id, passe, ClockAction::End).map_err(err)?;
    let v = Rules::jassmarathon().striche;
    for &table in to_play {
        let wins: [u32; 2] = [rng.random_range(0..=3), rng.random_range(0..=2)];
        let partien = wins[0] + wins[1] + 1;
        let berg_a = rng.random_range(0..=partien);
        let berg_b = rng.random_range(0..=partien - berg_a);
        let gong_a = rng.random_bool(0.5);
        let count = |n: u32, value: u32| (n * value).to_string();
        let form = ResultForm {
            table: table.to_string(),
            sieg_a: count(wins[0], v.sieg),
            sieg_b: count(wins[1], v.sieg),
            schneider_a: count(u32::from(wins[0] > 0 && rng.random_bool(0.3)), v.schneider),
            schneider_b: count(u32::from(wins[1] > 0 && rng.random_bool(0.3)), v.schneider),
            berg_a: count(berg_a, v.berg),
            berg_b: count(berg_b, v.berg),
            match_a: count(rng.random_range(0..=2), v.matches),
            match_b: count(rng.random_range(0..=1), v.matches),
            gong_a: count(u32::from(gong_a), v.gong),
            gong_b: count(u32::from(!gong_a), v.gong),
            ..ResultForm::default()
        };
        match app::entry::save_typed(conn, actor, id, passe, &form).map_err(err)? {
            Typed::Done { .. } => {}
            Typed::Invalid(errors) => return Err(format!("Tisch {table}: {errors:?}").into()),
            Typed::OtherSource(message) => return Err(message.into()),
        }
    }
    Ok(())
}

/// The last Spielrunde under way: its clock runs, and Tafel 1 has its first Spiele (no
/// Partie ends in them: four Spiele cannot bring both teams to the Bergpreis).
fn running_spielrunde(
    conn: &mut db::Conn,
    actor: &Actor,
    id: TournamentId,
    passe: u32,
) -> Result<(), Failure> {
    let err = |e: Refusal| e.to_string();
    app::tafel::clock_action(conn, actor, id, passe, ClockAction::Start).map_err(err)?;
    let data = guard::load(conn, id).map_err(err)?;
    let Some(table) = data
        .tables(passe)
        .iter()
        .find(|t| !data.table_has_left(passe, t))
        .map(|t| t.number)
    else {
        return Ok(());
    };
    let spiele = [
        (Trump::Obenabe, 92, 0, None),
        (Trump::Schelle, 61, 20, Some(Side::A)),
        (Trump::Undenufe, 110, 0, None),
        (Trump::Rose, 48, 50, None),
    ];
    for (trump, cards_a, weis_a, stoeck) in spiele {
        let spiel = Spiel {
            trump,
            cards: Cards::Points(cards_a),
            weis_a,
            weis_b: 0,
            stoeck,
            first: None,
            ruling: None,
        };
        app::tafel::change_tafel(
            conn,
            actor,
            id,
            passe,
            table,
            TafelChange::Add(spiel, None),
            false,
        )
        .map_err(err)?;
    }
    Ok(())
}
