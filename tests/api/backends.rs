//! Both backends: races between clerks over HTTP (on whichever backend the suite runs:
//! SQLite by default, PostgreSQL with `JASSTURNIER_TEST_POSTGRES`), the two schemas compared,
//! and a database copied SQLite → PostgreSQL → SQLite.

use crate::helpers::*;
use futures_util::future::join_all;
use reqwest::StatusCode;

/// Says whether the PostgreSQL suite ran; on CI (`JASSTURNIER_REQUIRE_POSTGRES=1`) a
/// missing server is a failure.
#[test]
fn the_postgresql_suite_ran_or_says_it_did_not() {
    if test_postgres().is_none() {
        let message = "PostgreSQL suite NOT RUN: set JASSTURNIER_TEST_POSTGRES=postgres://USER@HOST:5432/DB \
                       to run every API test on PostgreSQL too";
        if std::env::var("JASSTURNIER_REQUIRE_POSTGRES").is_ok_and(|v| v == "1") {
            panic!("{message}");
        }
        say_not_run(&format!("\n{message}\n"));
    }
}

/// The tables of a drawn field: `teams` teams, fixed schedule, seed 42.
async fn field(leitung: &Client, teams: usize) -> i32 {
    drawn_field(leitung, "3", "12", "", teams).await
}

fn no_server_error(statuses: &[StatusCode]) {
    assert!(
        statuses.iter().all(|s| !s.is_server_error()),
        "a race must never be a 500: {statuses:?}"
    );
}

#[tokio::test]
async fn two_clerks_entering_the_same_table_at_once_one_wins_the_other_gets_the_conflict() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let erste = app
        .account(&leitung, ("erste", "erste-pw-123"), "buero")
        .await;
    let zweite = app
        .account(&leitung, ("zweite", "zweite-pw-123"), "buero")
        .await;
    let id = field(&leitung, 40).await;
    let entry = format!("/tournaments/{id}/passen/1/entry");
    let mut races = Vec::new();
    let (erste, zweite, entry) = (&erste, &zweite, &entry);
    for table in 1..=20u32 {
        races.push(async move {
            let t = table.to_string();
            let first = [("table", t.as_str()), ("points_a", "1000")];
            let second = [("table", t.as_str()), ("points_a", "900")];
            let (a, b) = tokio::join!(erste.post(entry, &first), zweite.post(entry, &second));
            (a.status(), b.status())
        });
    }
    let outcomes = join_all(races).await;
    let statuses: Vec<StatusCode> = outcomes.iter().flat_map(|(a, b)| [*a, *b]).collect();
    no_server_error(&statuses);
    for (a, b) in &outcomes {
        let won = [a, b]
            .iter()
            .filter(|s| ***s == StatusCode::SEE_OTHER)
            .count();
        assert_eq!(won, 1, "exactly one clerk wins a table: {a} {b}");
        assert!(
            [a, b].contains(&&StatusCode::CONFLICT),
            "the other gets the conflict: {a} {b}"
        );
    }
    let data = app.data(id);
    assert_eq!(data.results.len(), 20);
    let entered = app
        .audit_actions()
        .iter()
        .filter(|a| *a == "result:enter")
        .count();
    assert_eq!(entered, 20, "one entry per table in the Protokoll");
}

#[tokio::test]
async fn the_first_double_entry_of_a_table_by_two_clerks_at_once_is_one_first_entry() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let erste = app
        .account(&leitung, ("erste", "erste-pw-123"), "buero")
        .await;
    let zweite = app
        .account(&leitung, ("zweite", "zweite-pw-123"), "buero")
        .await;
    let id = field(&leitung, 40).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/edit"),
            &[
                ("name", "Cup im Saal"),
                ("date", "2026-11-22"),
                ("mode", "partnerschieber"),
                ("passen", "3"),
                ("spiele_per_passe", "12"),
                ("pauschale", ""),
                ("double_entry", "1"),
            ],
        )
        .await;
    let entry = format!("/tournaments/{id}/passen/1/entry");
    let mut races = Vec::new();
    let (erste, zweite, entry) = (&erste, &zweite, &entry);
    for table in 1..=20u32 {
        races.push(async move {
            let t = table.to_string();
            let first = [("table", t.as_str()), ("points_a", "1017")];
            let second = [("table", t.as_str()), ("points_a", "1017")];
            let (a, b) = tokio::join!(erste.post(entry, &first), zweite.post(entry, &second));
            [a.status(), b.status()]
        });
    }
    let statuses: Vec<StatusCode> = join_all(races).await.into_iter().flatten().collect();
    no_server_error(&statuses);
    // Agreeing blind entries by two accounts: one is the first entry, the other confirms it.
    let data = app.data(id);
    assert_eq!(data.results.len(), 20, "every table confirmed");
    assert!(
        data.pending.is_empty(),
        "no first entry left over: {:?}",
        data.pending
    );
}

#[tokio::test]
async fn teams_added_at_once_get_distinct_automatic_startnummern() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = create_tournament(&leitung, "3", "12").await;
    let teams = format!("/tournaments/{id}/teams");
    let zweites = app
        .account(&leitung, ("buero2", "buero2-pw-123"), "buero")
        .await;
    let clients = [&leitung, &buero, &zweites];
    let adds = (0..48).map(|i| {
        let (client, p1, p2) = (clients[i % 3], format!("Anna {i}"), format!("Urs {i}"));
        let teams = teams.clone();
        async move {
            client
                .post(
                    &teams,
                    &[("player1", p1.as_str()), ("player2", p2.as_str())],
                )
                .await
                .status()
        }
    });
    let statuses = join_all(adds).await;
    no_server_error(&statuses);
    assert!(
        statuses.iter().all(|s| *s == StatusCode::SEE_OTHER),
        "{statuses:?}"
    );
    let mut numbers: Vec<u32> = app
        .data(id)
        .teams
        .iter()
        .map(|t| t.startnummer.get())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=48).collect::<Vec<_>>());
}

#[tokio::test]
async fn results_racing_with_closing_are_either_in_or_refused() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = field(&leitung, 40).await;
    let entry = format!("/tournaments/{id}/passen/1/entry");
    let enter = |table: u32| {
        let (buero, entry) = (&buero, &entry);
        async move {
            let t = table.to_string();
            buero
                .post(entry, &[("table", t.as_str()), ("points_a", "1000")])
                .await
                .status()
        }
    };
    // Tables 1–10 are saved before the close is sent; 11–20 race with it. No timing: the
    // first wave is answered first, the second is sent together with the close.
    let mut statuses = join_all((1..=10u32).map(enter)).await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::SEE_OTHER),
        "{statuses:?}"
    );
    let entries = join_all((11..=20u32).map(enter));
    let close = async {
        leitung
            .post(&format!("/tournaments/{id}/close"), &[])
            .await
            .status()
    };
    let (racing, closed) = tokio::join!(entries, close);
    statuses.extend(racing);
    assert_eq!(closed, StatusCode::SEE_OTHER);
    no_server_error(&statuses);
    let saved = statuses
        .iter()
        .filter(|s| **s == StatusCode::SEE_OTHER)
        .count();
    assert!(
        statuses
            .iter()
            .all(|s| *s == StatusCode::SEE_OTHER || *s == StatusCode::FORBIDDEN),
        "saved or refused as closed: {statuses:?}"
    );
    // Exactly what was acknowledged is stored, and nothing after the close.
    assert_eq!(app.data(id).results.len(), saved);
    let actions = app.audit_actions();
    let close_at = actions
        .iter()
        .position(|a| a == "tournament:close")
        .unwrap();
    assert!(
        actions[close_at..].iter().all(|a| a != "result:enter"),
        "no result after the close: {actions:?}"
    );
}

#[tokio::test]
async fn a_final_visa_racing_with_a_correction_never_visas_a_changed_total() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_field(&leitung, "2", "12", "500", 24).await;
    for p in 1..=2u32 {
        for t in 1..=12u32 {
            enter(&leitung, id, p, t, 1000).await;
            kontrolle
                .post_ok(
                    &format!("/tournaments/{id}/passen/{p}/tables/{t}/visa"),
                    &[],
                )
                .await;
        }
    }
    let data = app.data(id);
    let mut rounds = Vec::new();
    for t in data.tables(2) {
        let result = data.result_at(2, t.number).unwrap();
        let (team, result_id, version) = (t.team_a.id, result.id, result.version);
        let (kontrolle, leitung) = (&kontrolle, &leitung);
        rounds.push(async move {
            let visa_path = format!("/tournaments/{id}/teams/{team}/final-visa");
            let correct_path = format!("/tournaments/{id}/passen/2/correct");
            let (version, table) = (version.to_string(), t.number.to_string());
            let form = [
                ("table", table.as_str()),
                ("version", version.as_str()),
                ("points_a", "1100"),
                ("points_b", "784"),
                ("reason", "Rechenfehler"),
            ];
            let (a, b) = tokio::join!(
                kontrolle.post(&visa_path, &[]),
                leitung.post(&correct_path, &form)
            );
            let _ = result_id;
            [a.status(), b.status()]
        });
    }
    let statuses: Vec<StatusCode> = join_all(rounds).await.into_iter().flatten().collect();
    no_server_error(&statuses);
    // Whichever came first: a final visa stands only on a total whose Passen are visaed.
    for sheet in app.data(id).standblaetter() {
        if sheet.final_visa.is_some() {
            assert!(
                sheet.all_passen_visiert(),
                "final visa over a changed total: {sheet:?}"
            );
        }
    }
}

/// Normalised schema: (table, column, type, not null) and the unique/primary keys.
#[cfg(test)]
fn sqlite_schema(path: &str) -> std::collections::BTreeSet<String> {
    use diesel::{Connection, RunQueryDsl};
    #[derive(diesel::QueryableByName)]
    struct Col {
        #[diesel(sql_type = diesel::sql_types::Text)]
        t: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        c: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        ty: String,
        #[diesel(sql_type = diesel::sql_types::Integer)]
        nn: i32,
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pk: i32,
    }
    let mut conn = diesel::SqliteConnection::establish(path).unwrap();
    let cols: Vec<Col> = diesel::sql_query(
        "SELECT m.name AS t, p.name AS c, p.type AS ty, p.\"notnull\" AS nn, p.pk AS pk \
         FROM sqlite_master m JOIN pragma_table_info(m.name) p \
         WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> '__diesel_schema_migrations'",
    )
    .load(&mut conn)
    .unwrap();
    cols.into_iter()
        .map(|c| {
            let ty = normal_type(&c.ty);
            // SQLite reports a single-column INTEGER PRIMARY KEY as nullable.
            let not_null = c.nn == 1 || c.pk > 0;
            format!(
                "{}.{} {ty}{}{}",
                c.t,
                c.c,
                if not_null { " not null" } else { "" },
                if c.pk > 0 {
                    format!(" pk{}", c.pk)
                } else {
                    String::new()
                }
            )
        })
        .collect()
}

#[derive(diesel::QueryableByName)]
struct Constraint {
    #[diesel(sql_type = diesel::sql_types::Text)]
    kind: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    t: String,
    #[diesel(sql_type = diesel::sql_types::Text)]
    cols: String,
}

/// "unique t(a,b)" and "fk t.c -> u.d", columns sorted.
fn constraint_lines(rows: Vec<Constraint>) -> std::collections::BTreeSet<String> {
    rows.into_iter()
        .map(|r| {
            let mut cols: Vec<&str> = r.cols.split(',').collect();
            cols.sort_unstable();
            format!("{} {}({})", r.kind, r.t, cols.join(","))
        })
        .collect()
}

/// Unique constraints and foreign keys of the SQLite schema.
fn sqlite_constraints(path: &str) -> std::collections::BTreeSet<String> {
    use diesel::{Connection, RunQueryDsl};
    let mut conn = diesel::SqliteConnection::establish(path).unwrap();
    let rows: Vec<Constraint> = diesel::sql_query(
        "SELECT 'unique' AS kind, m.name AS t, group_concat(ii.name, ',') AS cols \
         FROM sqlite_master m JOIN pragma_index_list(m.name) il JOIN pragma_index_info(il.name) ii \
         WHERE m.type = 'table' AND il.origin = 'u' GROUP BY m.name, il.name \
         UNION ALL \
         SELECT 'fk' AS kind, m.name AS t, f.\"from\" || '->' || f.\"table\" || '.' || f.\"to\" AS cols \
         FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'",
    )
    .load(&mut conn)
    .unwrap();
    constraint_lines(rows)
}

/// Unique constraints and foreign keys of the PostgreSQL schema.
fn postgres_constraints(pg: &mut diesel::PgConnection) -> std::collections::BTreeSet<String> {
    use diesel::RunQueryDsl;
    let rows: Vec<Constraint> = diesel::sql_query(
        "SELECT 'unique' AS kind, tc.table_name::text AS t, \
                string_agg(k.column_name::text, ',') AS cols \
         FROM information_schema.table_constraints tc \
         JOIN information_schema.key_column_usage k \
           ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema \
         WHERE tc.constraint_type = 'UNIQUE' AND tc.table_schema = current_schema() \
         GROUP BY tc.table_name, tc.constraint_name \
         UNION ALL \
         SELECT 'fk' AS kind, k.table_name::text AS t, \
                k.column_name::text || '->' || c.table_name::text || '.' || c.column_name::text AS cols \
         FROM information_schema.table_constraints tc \
         JOIN information_schema.key_column_usage k \
           ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema \
         JOIN information_schema.constraint_column_usage c \
           ON c.constraint_name = tc.constraint_name AND c.table_schema = tc.table_schema \
         WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()",
    )
    .load(pg)
    .unwrap();
    constraint_lines(rows)
}

fn normal_type(ty: &str) -> &'static str {
    let ty = ty.to_lowercase();
    match ty.as_str() {
        t if t.starts_with("varchar") || t == "text" || t.starts_with("character varying") => {
            "text"
        }
        "integer" => "integer",
        "bigint" => "bigint",
        "boolean" => "boolean",
        "timestamp" | "timestamp without time zone" => "timestamp",
        "date" => "date",
        "blob" | "bytea" => "binary",
        _ => "UNKNOWN",
    }
}

#[test]
fn both_backends_have_the_same_schema() {
    let Some(server) = test_postgres() else {
        say_not_run("both_backends_have_the_same_schema NOT RUN: no JASSTURNIER_TEST_POSTGRES");
        return;
    };
    use diesel::{Connection, RunQueryDsl};
    let dir = tempfile::tempdir().unwrap();
    let sqlite = dir.path().join("schema.sqlite3");
    jassturnier::db::connect(sqlite.to_str().unwrap(), 1).unwrap();
    let url = test_database(dir.path());
    jassturnier::db::connect(&url, 1).unwrap();
    let _ = server;
    #[derive(diesel::QueryableByName)]
    struct Col {
        #[diesel(sql_type = diesel::sql_types::Text)]
        t: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        c: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        ty: String,
        #[diesel(sql_type = diesel::sql_types::Bool)]
        nn: bool,
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pk: i32,
    }
    let mut pg = diesel::PgConnection::establish(&url).unwrap();
    let cols: Vec<Col> = diesel::sql_query(
        "SELECT c.table_name::text AS t, c.column_name::text AS c, c.data_type::text AS ty, \
                (c.is_nullable = 'NO') AS nn, \
                COALESCE((SELECT k.ordinal_position::int FROM information_schema.table_constraints tc \
                  JOIN information_schema.key_column_usage k \
                    ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema \
                  WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = c.table_schema \
                    AND tc.table_name = c.table_name AND k.column_name = c.column_name), 0) AS pk \
         FROM information_schema.columns c \
         WHERE c.table_schema = current_schema() AND c.table_name <> '__diesel_schema_migrations'",
    )
    .load(&mut pg)
    .unwrap();
    let postgres: std::collections::BTreeSet<String> = cols
        .into_iter()
        .map(|c| {
            format!(
                "{}.{} {}{}{}",
                c.t,
                c.c,
                normal_type(&c.ty),
                if c.nn { " not null" } else { "" },
                if c.pk > 0 {
                    format!(" pk{}", c.pk)
                } else {
                    String::new()
                }
            )
        })
        .collect();
    let mut postgres = postgres;
    postgres.extend(postgres_constraints(&mut pg));
    let sqlite = {
        let mut all = sqlite_schema(sqlite.to_str().unwrap());
        all.extend(sqlite_constraints(sqlite.to_str().unwrap()));
        all
    };
    let only_sqlite: Vec<_> = sqlite.difference(&postgres).collect();
    let only_postgres: Vec<_> = postgres.difference(&sqlite).collect();
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "SQLite only: {only_sqlite:#?}\nPostgreSQL only: {only_postgres:#?}"
    );
    let count = |what: &str| sqlite.iter().filter(|l| l.starts_with(what)).count();
    assert!(
        sqlite.len() > 150,
        "{} columns and constraints compared",
        sqlite.len()
    );
    assert!(count("unique ") >= 5 && count("fk ") >= 20, "{sqlite:#?}");
}

/// A database with a played, visaed, partly disqualified tournament, copied to PostgreSQL and
/// back: the tournament's export is the same document, and the accounts log in.
#[tokio::test]
async fn a_database_copied_to_postgresql_and_back_exports_the_same_tournament() {
    if test_postgres().is_none() {
        say_not_run("copy round trip NOT RUN: no JASSTURNIER_TEST_POSTGRES");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("quelle.sqlite3").display().to_string();
    let app = spawn_app_with(|s| s.database_url = source.clone()).await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    for t in 1..=4u32 {
        enter(&leitung, id, 1, t, 900 + t).await;
        kontrolle
            .post_ok(&format!("/tournaments/{id}/passen/1/tables/{t}/visa"), &[])
            .await;
    }
    let gone = app.data(id).teams[2].id;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{gone}/status"),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "krank")],
        )
        .await;
    // The register travels with its contact data (office only) and numbers.
    leitung
        .post_ok(
            "/personen/1",
            &[
                ("name", "Anna1"),
                ("jahrgang", "1951"),
                ("email", "anna@jassclub.ch"),
            ],
        )
        .await;
    let (_, _, before) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let before: jassturnier::db::transfer::Export = serde_json::from_slice(&before).unwrap();
    assert_eq!(before.persons.len(), 16);
    // A series of the Jass-Cup and the key this instance signs with travel too.
    leitung
        .post_ok(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    leitung
        .post_ok("/serien/1/turniere", &[(&format!("t_{id}"), "1")])
        .await;
    let (_, _, standings) = bytes(&leitung, "/serien/1/gesamtwertung.json").await;
    let fingerprint = text(&leitung.html("/halle").await, "#own-fingerprint");

    let postgres = test_database(dir.path());
    let back = dir.path().join("zurueck.sqlite3").display().to_string();
    for (from, to) in [(&source, &postgres), (&postgres, &back)] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .args(["copy", "--from", from, "--to", to])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A copy goes only into an empty database.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["copy", "--from", &source, "--to", &back])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nicht leer"));

    let copy = spawn_app_with(|s| s.database_url = back.clone()).await;
    let leitung = copy.login(LEITUNG.0, LEITUNG.1).await;
    let (_, _, after) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let after: jassturnier::db::transfer::Export = serde_json::from_slice(&after).unwrap();
    assert_eq!(after, before);
    assert_eq!(
        bytes(&leitung, "/serien/1/gesamtwertung.json").await.2,
        standings
    );
    assert_eq!(
        text(&leitung.html("/halle").await, "#own-fingerprint"),
        fingerprint
    );
    let person = leitung.html("/personen/1").await;
    assert!(text(&person, "#contact").contains("anna@jassclub.ch"));
    assert!(text(&person, "#person-facts").contains("Jahrgang 1951"));
    // Visas stay the Kontrolleur's own (not "importiert").
    let sheet = leitung
        .html(&format!(
            "/tournaments/{id}/teams/{}",
            copy.data(id).teams[0].id
        ))
        .await;
    assert!(text(&sheet, "#lines").contains("kontrolle"));
    assert!(!text(&sheet, "#lines").contains("importiert"));
}

/// The tournaments of a database keep their ids (and creation times, and the Protokoll of
/// no tournament) through a copy to PostgreSQL and back: printed QR codes and beamer
/// addresses name the id. Four tournaments whose dates run against their ids.
#[tokio::test]
async fn a_copy_keeps_every_tournaments_id_in_both_directions() {
    use diesel::prelude::*;
    use jassturnier::db::schema::{audit_log, tournaments};
    if test_postgres().is_none() {
        say_not_run("copy ids NOT RUN: no JASSTURNIER_TEST_POSTGRES");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("quelle.sqlite3").display().to_string();
    let app = spawn_app_with(|s| s.database_url = source.clone()).await;
    let leitung = app.leitung().await;
    let mut ids = Vec::new();
    for (name, date) in [
        ("Herbst", "2026-11-22"),
        ("Winter", "2026-12-01"),
        ("Frühling", "2027-04-10"),
        ("Sommer", "2026-06-01"),
    ] {
        let r = leitung
            .post(
                "/tournaments",
                &[
                    ("name", name),
                    ("date", date),
                    ("location", "Zürich"),
                    ("mode", "partnerschieber"),
                    ("passen", "3"),
                    ("spiele_per_passe", "12"),
                    ("pauschale", "0"),
                ],
            )
            .await;
        ids.push(
            location(&r)
                .rsplit('/')
                .next()
                .unwrap()
                .parse::<i32>()
                .unwrap(),
        );
    }
    let rows = |url: &str| {
        let pool = jassturnier::db::connect(url, 1).unwrap();
        let mut conn = pool.get().unwrap();
        let t: Vec<(i32, String, chrono::NaiveDateTime)> = tournaments::table
            .select((tournaments::id, tournaments::name, tournaments::created_at))
            .order(tournaments::id)
            .load(&mut conn)
            .unwrap();
        let global: Vec<(String, String)> = audit_log::table
            .filter(audit_log::tournament_id.is_null())
            .select((audit_log::entity, audit_log::action))
            .order(audit_log::id)
            .load(&mut conn)
            .unwrap();
        (t, global)
    };
    let before = rows(&source);
    assert_eq!(before.0.len(), 4);
    assert!(
        !before.1.is_empty(),
        "accounts leave Protokoll entries of no tournament"
    );
    let postgres = test_database(dir.path());
    let back = dir.path().join("zurueck.sqlite3").display().to_string();
    for (from, to) in [(&source, &postgres), (&postgres, &back)] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .args(["copy", "--from", from, "--to", to])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(rows(to), before, "{from} → {to}");
    }
    // A tournament created after the copy takes the next id (PostgreSQL's sequence goes on).
    let copy = spawn_app_with(|s| s.database_url = postgres.clone()).await;
    let leitung = copy.login(LEITUNG.0, LEITUNG.1).await;
    let next = create_tournament(&leitung, "3", "12").await;
    assert_eq!(next, ids[3] + 1);
    let page = leitung.html(&format!("/tournaments/{}", ids[0])).await;
    assert!(page.html().contains("Herbst"));
}

/// Two instances on one PostgreSQL database: a result entered on A reaches a live page
/// served by B as a delta, by notification — B's own poll is set to an hour, so nothing
/// else could bring it within the test's five seconds.
#[tokio::test]
async fn an_entry_on_one_instance_reaches_a_live_page_on_the_other() {
    if !on_postgres() {
        say_not_run(
            "two instances NOT RUN: they share a PostgreSQL database (JASSTURNIER_TEST_POSTGRES)",
        );
        return;
    }
    let a = spawn_app().await;
    let url = a.database_url.clone();
    let b = spawn_app_with(|s| {
        s.database_url = url;
        s.live_poll = std::time::Duration::from_secs(3600);
    })
    .await;
    let leitung = a.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    enter(&leitung, id, 1, 1, 1000).await;
    let viewer = b.client();
    let (_, page) = viewer.page(&format!("/tournaments/{id}/live")).await;
    let before = crate::live::page_model(&page);
    let mut stream = viewer
        .get(&format!(
            "/tournaments/{id}/live/events?v={}",
            before.version
        ))
        .await;
    assert_eq!(stream.status(), StatusCode::OK);
    let start = std::time::Instant::now();
    enter(&leitung, id, 1, 2, 950).await;
    let (got, _) = crate::live::events(&mut stream, 1, std::time::Duration::from_secs(5)).await;
    assert_eq!(got.len(), 1, "B heard of A's write: {got:?}");
    assert_eq!(got[0].0, "delta");
    assert!(
        got[0].2.contains("950") || got[0].2.contains("934"),
        "{}",
        got[0].2
    );
    eprintln!("write on A → event on B: {:?}", start.elapsed());
}
