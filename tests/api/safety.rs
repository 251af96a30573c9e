use crate::helpers::*;
use reqwest::StatusCode;
use scraper::Html;
use std::collections::HashMap;
use std::time::Duration;

/// The Swiss fixture teams, drawn; Passe 1, table 2 entered.
async fn prepared(app: &TestApp, leitung: &Client) -> i32 {
    let id = create_tournament(leitung, "3", "12").await;
    import_teams(leitung, id, fixture("teams_semikolon_cp1252.csv")).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "9")],
        )
        .await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "2"), ("points_a", "1000")],
        )
        .await;
    assert_eq!(tournament_data(&app.pool, id).results.len(), 1);
    id
}

#[tokio::test]
async fn a_downloaded_or_cli_backup_restores_the_state_at_backup_time() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = prepared(&app, &leitung).await;
    let (status, content_type, snapshot) = bytes(&leitung, "/backup").await;
    assert_eq!(status, StatusCode::OK);
    // SQLite: a database file; PostgreSQL: every account and tournament as JSON.
    let suffix = if on_postgres() { "json" } else { "sqlite3" };
    let expected = if on_postgres() {
        "application/json"
    } else {
        "application/vnd.sqlite3"
    };
    assert_eq!(content_type, expected);
    // The download was written where interrupted backups are cleaned up, and is gone.
    let backups = app.dir.path().join("backups");
    let left: Vec<_> = std::fs::read_dir(&backups)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    let buero = app.account(&leitung, BUERO, "buero").await;
    assert_eq!(buero.get("/backup").await.status(), StatusCode::FORBIDDEN);
    let cli_file = app.dir.path().join(format!("cli-backup.{suffix}"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["backup", cli_file.to_str().unwrap()])
        .env("DATABASE_URL", &app.database_url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Later changes are not in the backups.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "700")],
        )
        .await;
    let downloaded = app.dir.path().join(format!("download.{suffix}"));
    std::fs::write(&downloaded, snapshot).unwrap();
    for file in [downloaded, cli_file] {
        // A PostgreSQL backup is restored by `copy` into a new database.
        let database = if on_postgres() {
            let fresh = tempfile::tempdir().unwrap();
            let url = test_database(fresh.path());
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
                .args(["copy", "--from", file.to_str().unwrap(), "--to", &url])
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            url
        } else {
            file.display().to_string()
        };
        let restored = spawn_app_with(|s| s.database_url = database).await;
        let c = restored.login(LEITUNG.0, LEITUNG.1).await;
        let html = c.html(&format!("/tournaments/{id}/passen/1")).await;
        assert_eq!(
            text(&html, "#progress"),
            "1 / 2 Tische erfasst",
            "{}",
            file.display()
        );
        let data = tournament_data(&restored.pool, id);
        assert_eq!(data.results.len(), 1);
        assert_eq!(data.teams.len(), 4);
    }
}

#[tokio::test]
async fn automatic_backups_are_written_while_a_tournament_is_open_and_something_changed() {
    let backups = tempfile::tempdir().unwrap();
    let dir = backups.path().to_path_buf();
    let app = spawn_app_with(|s| {
        s.backup_dir = Some(dir.clone());
        s.backup_interval = Duration::from_millis(400);
    })
    .await;
    let leitung = app.leitung().await;
    let id = prepared(&app, &leitung).await;
    let mut files = Vec::new();
    for _ in 0..40 {
        files = jassturnier::db::backup::list(backups.path());
        if !files.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!files.is_empty(), "a backup was written");
    // The check that wrote it has finished one check later at the latest; then two whole
    // checks without a change write nothing.
    let seen = app.backup_checks();
    app.backup_checks_reach(seen + 1).await;
    let quiet = jassturnier::db::backup::list(backups.path()).len();
    app.backup_checks_reach(seen + 3).await;
    assert_eq!(
        jassturnier::db::backup::list(backups.path()).len(),
        quiet,
        "nothing changed, no new backup"
    );
    let newest = jassturnier::db::backup::list(backups.path()).pop().unwrap();
    if on_postgres() {
        let doc: jassturnier::db::transfer::DatabaseDoc =
            serde_json::from_slice(&std::fs::read(&newest).unwrap()).unwrap();
        assert_eq!(doc.tournaments[0].results.len(), 1);
        return;
    }
    let pool = jassturnier::db::connect(newest.to_str().unwrap(), 1).unwrap();
    assert_eq!(tournament_data(&pool, id).results.len(), 1);
}

#[tokio::test]
async fn a_tournament_round_trips_through_its_json_export() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = prepared(&app, &leitung).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "900")],
        )
        .await;
    kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    let team = tournament_data(&app.pool, id).teams[2].id;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{team}/status"),
            &[
                ("action", "disqualify"),
                ("passe", "2"),
                ("reason", "Mahnung missachtet"),
            ],
        )
        .await;
    let (_, _, first) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let r = leitung
        .upload("/tournaments/import", first.clone(), Some(&leitung.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    assert_ne!(copy, id);
    let (_, _, second) = bytes(&leitung, &format!("/tournaments/{copy}/export.json")).await;
    let a: jassturnier::db::transfer::Export = serde_json::from_slice(&first).unwrap();
    let mut b: jassturnier::db::transfer::Export = serde_json::from_slice(&second).unwrap();
    let import_entry = b.audit.pop().unwrap();
    assert_eq!(import_entry.action, "import");
    assert_eq!(
        a, b,
        "identical tournament: teams, schedule, results, visas, disqualification, audit"
    );
    let (_, _, ranking_a) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    let (_, _, ranking_b) = bytes(&leitung, &format!("/tournaments/{copy}/ranking.csv")).await;
    assert_eq!(ranking_a, ranking_b);
}

/// A drawn tournament of 3 Passen à 12 Spiele whose results are entered twice, blind.
async fn double_entry_tournament(leitung: &Client) -> i32 {
    let id = drawn_swiss(leitung).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/edit"),
            &double_entry_tournament_settings(),
        )
        .await;
    id
}

#[tokio::test]
async fn double_entry_counts_only_agreeing_blind_entries() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let (erste, zweite) = two_clerks(&app, &leitung).await;
    let id = double_entry_tournament(&leitung).await;
    let entry = format!("/tournaments/{id}/passen/1/entry");
    let html = erste
        .post_ok(&entry, &[("table", "1"), ("points_a", "1017")])
        .await;
    assert!(text(&html, ".flash").contains("1× erfasst"));
    assert!(
        tournament_data(&app.pool, id).results.is_empty(),
        "one entry does not count"
    );
    // Blind: the second clerk does not see the first entry.
    let page = zweite.html(&entry).await;
    assert!(text(&page, "#missing").contains("1× erfasst"));
    // The page without its random tokens (a CSRF token may hold "1017" by chance).
    let shown = page
        .html()
        .replace(&zweite.csrf, "")
        .replace(&erste.csrf, "");
    assert!(!shown.contains("1'017") && !shown.contains("1017"));
    // The same account cannot confirm itself: another figure is refused; the same figure
    // again (pressed twice, or again after a lost connection) changes nothing and says that
    // the table waits for the second entry (#82: it was refused as an error).
    let before = app.dump();
    let r = erste
        .post(&entry, &[("table", "1"), ("points_a", "1018")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("anderen Konto"));
    let html = erste
        .post_ok(&entry, &[("table", "1"), ("points_a", "1017")])
        .await;
    assert!(text(&html, ".flash").contains("1× erfasst"));
    assert_eq!(app.dump(), before, "nothing written");
    let html = zweite
        .post_ok(&entry, &[("table", "1"), ("points_a", "1017")])
        .await;
    assert!(text(&html, ".flash").contains("gespeichert"));
    assert_eq!(
        tournament_data(&app.pool, id).results[0].points_a.get(),
        1017
    );
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert!(text(&passe, "tr[data-table='1']").contains("bestätigt"));

    // Disagreement: shown to both clerks and the Leitung, who decides.
    erste
        .post_ok(&entry, &[("table", "2"), ("points_a", "1000")])
        .await;
    let r = zweite
        .post(&entry, &[("table", "2"), ("points_a", "900")])
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let html = Html::parse_document(&r.text().await.unwrap());
    let box_text = text(&html, "#contradiction");
    assert!(
        box_text.contains("erste: 1'000 : 884") && box_text.contains("zweite: 900 : 984"),
        "{box_text}"
    );
    for client in [&erste, &leitung] {
        let passe = client.html(&format!("/tournaments/{id}/passen/1")).await;
        let row = text(&passe, "tr[data-table='2']");
        assert!(
            row.contains("Widerspruch") && row.contains("erste: 1'000 : 884"),
            "{row}"
        );
    }
    // The Protokoll names each typing in German (it showed "enter_first" and
    // "contradiction" as stored while its sentences waited for other words).
    let html = leitung.html(&format!("/audit?tournament={id}")).await;
    let lines = select_all(&html, "#protocol tbody tr .entry");
    for said in [
        "Passe 1, Tisch 1: 1'017 : 867 (erste Erfassung) von erste",
        "Passe 1, Tisch 2: 900 : 984 (Erfassungen widersprechen sich) von zweite",
    ] {
        assert!(lines.iter().any(|l| l == said), "{said}: {lines:#?}");
    }
    // The Leitung opens the resolution from the Passe page: the entry form at table 2,
    // both entries shown, the cursor in the points. A clerk gets no such button.
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    let resolve = select_attr(&passe, "tr[data-table='2'] a.resolve", "href");
    assert_eq!(
        resolve,
        vec![format!("/tournaments/{id}/passen/1/entry?table=2")]
    );
    let clerk_view = erste.html(&format!("/tournaments/{id}/passen/1")).await;
    assert!(select_all(&clerk_view, "a.resolve").is_empty());
    let form = leitung.html(&resolve[0]).await;
    assert_eq!(attr(&form, "#table", "value").as_deref(), Some("2"));
    assert!(text(&form, "#contradiction").contains("erste: 1'000 : 884"));
    assert!(attr(&form, "#points_a", "autofocus").is_some());
    assert!(attr(&form, "#table", "autofocus").is_none());
    let plain = leitung.html(&format!("{entry}?table=3")).await;
    assert_eq!(
        attr(&plain, "#table", "value").as_deref(),
        Some(""),
        "no Widerspruch at table 3: the form starts empty"
    );
    let before = app.dump();
    let r = erste
        .post(&entry, &[("table", "2"), ("points_a", "1000")])
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT, "clerks cannot resolve");
    assert_eq!(app.dump(), before);
    leitung
        .post_ok(&entry, &[("table", "2"), ("points_a", "950")])
        .await;
    let data = tournament_data(&app.pool, id);
    assert_eq!(data.result_at(1, 2).unwrap().points_a.get(), 950);
    assert!(data.pending.is_empty());
    let audit = app.audit_actions();
    for action in [
        "pending_entry:enter_first",
        "pending_entry:confirm",
        "pending_entry:contradiction",
        "pending_entry:resolve",
    ] {
        assert!(audit.contains(&action.to_string()), "{action}");
    }
}

#[tokio::test]
async fn repeated_failed_logins_are_throttled() {
    let app = spawn_app().await;
    app.leitung().await;
    let mut c = app.client();
    for _ in 0..5 {
        let r = c
            .post_anonymous(
                "/login",
                &[("username", LEITUNG.0), ("password", "falsch-falsch")],
            )
            .await;
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    }
    let r = c
        .post_anonymous(
            "/login",
            &[("username", LEITUNG.0), ("password", LEITUNG.1)],
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "even the right password waits"
    );
    assert!(r.text().await.unwrap().contains("Zu viele Fehlversuche"));
    let r = c
        .post_anonymous("/login", &[("username", "andere"), ("password", "x")])
        .await;
    assert_eq!(
        r.status(),
        StatusCode::UNAUTHORIZED,
        "other names are not affected"
    );
}

#[tokio::test]
async fn oversized_uploads_and_forms_are_refused() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = prepared(&app, &leitung).await;
    let before = app.dump();
    let mut big = b"nr;spieler1;spieler2\n".to_vec();
    while big.len() < 3 * 1024 * 1024 {
        big.extend_from_slice(b"1;Anna Muster;Urs Muster\n");
    }
    let r = leitung
        .upload(
            &format!("/tournaments/{id}/teams/import"),
            big,
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(r.text().await.unwrap().contains("zu gross"));
    let long = "x".repeat(300 * 1024);
    let r = leitung
        .post(
            &format!("/tournaments/{id}/teams"),
            &[("player1", &long), ("player2", "B")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(app.dump(), before);
}

/// Every file in `tests/fixtures/bad/` is refused with a German message and writes nothing
/// (names with markup are the exception: stored, and rendered escaped).
#[tokio::test]
async fn the_bad_input_corpus_is_refused_without_writing() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = prepared(&app, &leitung).await;
    // Team forms go to a tournament not drawn yet, where new teams are allowed.
    let open = create_tournament(&leitung, "3", "12").await;
    import_teams(&leitung, open, fixture("teams_semikolon_cp1252.csv")).await;
    let data = tournament_data(&app.pool, id);
    let (t1, t2) = (&data.tables(1)[0], &data.tables(1)[1]);
    let fill = |text: String| {
        text.replace("{A1}", &t1.team_a.startnummer.to_string())
            .replace("{B1}", &t1.team_b.startnummer.to_string())
            .replace("{A2}", &t2.team_a.startnummer.to_string())
            .replace("{B2}", &t2.team_b.startnummer.to_string())
    };
    let dir = format!("{}/tests/fixtures/bad", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 40, "{} bad inputs", files.len());
    let german = [
        "bitte",
        "ungültig",
        "fehlt",
        "Zahl",
        "Zeile",
        "doppelt",
        "gibt es",
        "leer",
        "Summe",
        "erfasst",
        "höchstens",
        "zwischen",
        "Spalte",
        "Format",
        "Kodierung",
        "Steuerzeichen",
        "negativ",
        "vergeben",
        "Matches",
        "Datum",
        "Modus",
        "Turnier-Export",
        "Textdatei",
    ];
    let mut before = app.dump();
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        let raw = std::fs::read(&file).unwrap();
        let response = if name.starts_with("teams_") {
            leitung
                .upload(
                    &format!("/tournaments/{id}/teams/import"),
                    raw,
                    Some(&leitung.csrf),
                )
                .await
        } else if name.starts_with("results_") {
            let body = String::from_utf8(raw.clone())
                .map(fill)
                .map(String::into_bytes)
                .unwrap_or(raw);
            leitung
                .upload(
                    &format!("/tournaments/{id}/results/import"),
                    body,
                    Some(&leitung.csrf),
                )
                .await
        } else if name.starts_with("import_") {
            leitung
                .upload("/tournaments/import", raw, Some(&leitung.csrf))
                .await
        } else {
            let target = match name.split('_').next().unwrap() {
                "entry" => format!("/tournaments/{id}/passen/1/entry"),
                "tournament" => "/tournaments".to_string(),
                "team" => format!("/tournaments/{open}/teams"),
                other => panic!("unknown kind {other}"),
            };
            let form: Vec<(String, String)> = serde_urlencoded::from_bytes(&raw).unwrap();
            let form: Vec<(&str, &str)> =
                form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            leitung.post(&target, &form).await
        };
        let status = response.status();
        let body = response.text().await.unwrap();
        if name == "team_50_script_name.form" {
            assert_eq!(status, StatusCode::SEE_OTHER, "{name}");
            let page = leitung.html(&format!("/tournaments/{open}/teams")).await;
            // Shown as text, never as markup.
            let rows = text(&page, "#teams tbody");
            assert!(
                rows.contains("<script>alert('x')</script>") && rows.contains("<b>Anna</b> / Urs"),
                "{name}: {rows}"
            );
            assert!(
                select_all(&page, "#teams script, #teams b").is_empty(),
                "{name}: markup rendered"
            );
            before = app.dump();
            continue;
        }
        assert!(status.is_client_error(), "{name}: {status}");
        let html = Html::parse_document(&body);
        let message = text(
            &html,
            ".error, .error-message, #import-errors li, #conflict",
        );
        assert!(!message.is_empty(), "{name}: a message is shown");
        assert!(
            german.iter().any(|w| message.contains(w)),
            "{name}: «{message}»"
        );
        assert_eq!(app.dump(), before, "{name} wrote something");
    }
}

/// 4 concurrent clients enter 500 table results, some tables twice on purpose: every table
/// ends with exactly the value of the one save that was acknowledged; every other is a conflict.
#[tokio::test]
async fn concurrent_clients_lose_no_update() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament_with(&leitung, "Last", "4", "2", "150").await;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=250 {
        csv += &format!("{n};A{n};B{n}\n");
    }
    import_teams(&leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "4")],
        )
        .await;
    let mut clients = Vec::new();
    for _ in 0..4 {
        clients.push(app.login(LEITUNG.0, LEITUNG.1).await);
    }
    // (passe, table) → the clients that post it, each with its own value.
    let mut work: Vec<Vec<(u32, u32, u32)>> = vec![Vec::new(); 4];
    let mut table_count = 0;
    for passe in 1..=4u32 {
        for table in 1..=125u32 {
            table_count += 1;
            let owner = (table as usize) % 4;
            work[owner].push((passe, table, (passe * 7 + table * 3) % 315));
            if table % 10 == 0 {
                work[(owner + 1) % 4].push((passe, table, (passe * 11 + table) % 315));
            }
        }
    }
    assert_eq!(table_count, 500);
    let collisions = work.iter().map(Vec::len).sum::<usize>() - 500;
    assert!(collisions >= 40);
    let mut handles = Vec::new();
    for (client, jobs) in clients.into_iter().zip(work) {
        handles.push(tokio::spawn(async move {
            let mut outcomes = Vec::new();
            for (passe, table, points) in jobs {
                let r = client
                    .post(
                        &format!("/tournaments/{id}/passen/{passe}/entry"),
                        &[
                            ("table", &table.to_string()),
                            ("points_a", &points.to_string()),
                        ],
                    )
                    .await;
                outcomes.push((passe, table, points, r.status()));
            }
            outcomes
        }));
    }
    let mut acknowledged: HashMap<(u32, u32), u32> = HashMap::new();
    let mut conflicts = 0;
    for handle in handles {
        for (passe, table, points, status) in handle.await.unwrap() {
            match status {
                StatusCode::SEE_OTHER => assert!(
                    acknowledged.insert((passe, table), points).is_none(),
                    "two saves acknowledged for one table"
                ),
                StatusCode::CONFLICT => conflicts += 1,
                other => panic!("unexpected {other}"),
            }
        }
    }
    assert_eq!(acknowledged.len(), 500);
    assert_eq!(
        conflicts, collisions,
        "every deliberate collision is reported"
    );
    let data = tournament_data(&app.pool, id);
    assert_eq!(data.results.len(), 500);
    for r in &data.results {
        assert_eq!(
            acknowledged[&(r.passe.get(), r.table_no.get())],
            r.points_a.get(),
            "lost update at {}/{}",
            r.passe,
            r.table_no
        );
        assert_eq!(r.points_a.get() + r.points_b.get(), 314);
    }
}

/// The database file deleted (or replaced) under the running server: writes are refused with
/// a clear message before they are acknowledged, reading goes on.
#[tokio::test]
async fn writes_stop_when_the_database_file_is_removed_or_replaced() {
    if !sqlite_file_test("writes_stop_when_the_database_file_is_removed_or_replaced") {
        return;
    }
    for replace in [false, true] {
        let app = spawn_app().await;
        let leitung = app.leitung().await;
        let id = create_tournament(&leitung, "4", "12").await;
        let teams = format!("/tournaments/{id}/teams");
        let team = [("player1", "Anna Muster"), ("player2", "Urs Muster")];
        assert_eq!(
            leitung.post(&teams, &team).await.status(),
            StatusCode::SEE_OTHER
        );
        let copy = app.dir.path().join("kopie.sqlite3");
        std::fs::copy(&app.db_path, &copy).unwrap();
        std::fs::remove_file(&app.db_path).unwrap();
        if replace {
            std::fs::rename(&copy, &app.db_path).unwrap();
        }
        for _ in 0..3 {
            let r = leitung.post(&teams, &team).await;
            assert_eq!(
                r.status(),
                StatusCode::SERVICE_UNAVAILABLE,
                "replace: {replace}"
            );
            let body = r.text().await.unwrap();
            assert!(body.contains("Speichern nicht möglich"), "{body}");
            assert!(body.contains("entfernt oder ersetzt"), "{body}");
        }
        assert_eq!(
            leitung.get(&teams).await.status(),
            StatusCode::OK,
            "reading goes on"
        );
    }
}

/// A result two accounts confirmed is not changed by one Büro account alone; the Leitung or
/// a Kontrolleur may.
#[tokio::test]
async fn a_confirmed_double_entry_is_not_changed_by_one_clerk() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let (erste, zweite) = two_clerks(&app, &leitung).await;
    let id = double_entry_tournament(&leitung).await;
    let entry = format!("/tournaments/{id}/passen/1/entry");
    erste
        .post_ok(&entry, &[("table", "1"), ("points_a", "1017")])
        .await;
    zweite
        .post_ok(&entry, &[("table", "1"), ("points_a", "1017")])
        .await;
    let version = tournament_data(&app.pool, id).results[0]
        .version
        .to_string();
    let correction = [
        ("table", "1"),
        ("version", version.as_str()),
        ("points_a", "900"),
    ];
    let correct = format!("/tournaments/{id}/passen/1/correct");
    let before = app.dump();
    let r = erste.post(&correct, &correction).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("doppelt erfasst und bestätigt")
    );
    assert_eq!(app.dump(), before);
    leitung.post_ok(&correct, &correction).await;
    assert_eq!(
        tournament_data(&app.pool, id).results[0].points_a.get(),
        900
    );
}

/// Double entry is not bypassed by a file: a results import is the importing account's
/// entry (blind, 1× erfasst) and counts after a second account's agreeing entry. A result
/// entered once before double entry was switched on is "erfasst", not "bestätigt". The
/// file's problems are listed with their lines (an entered table and a Pauschale table too).
#[tokio::test]
async fn a_results_import_is_a_first_entry_and_only_confirmed_results_say_bestaetigt() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let (erste, zweite) = two_clerks(&app, &leitung).await;
    let id = drawn_swiss(&leitung).await;
    let d = app.data(id);
    let tables = d.tables(1);
    let nr = |t: usize| {
        (
            tables[t].team_a.startnummer.get(),
            tables[t].team_b.startnummer.get(),
        )
    };
    // Table 1 is entered once, before double entry is switched on.
    enter(&erste, id, 1, tables[0].number, 1000).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/edit"),
            &double_entry_tournament_settings(),
        )
        .await;
    let csv = |rows: &[(u32, u32)]| {
        let mut csv = String::from("passe;startnummer;punkte\n");
        for (startnummer, points) in rows {
            csv += &format!("1;{startnummer};{points}\n");
        }
        csv.into_bytes()
    };
    // The file repeats table 1: refused, the line named, nothing written.
    let before = app.dump();
    let r = erste
        .upload(
            &format!("/tournaments/{id}/results/import"),
            csv(&[
                (nr(1).0, 950),
                (nr(1).1, 934),
                (nr(0).0, 1000),
                (nr(0).1, 884),
            ]),
            Some(&erste.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = Html::parse_document(&r.text().await.unwrap());
    let errors = select_all(&page, "#import-errors li");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("Zeile 4:") && errors[0].contains("schon ein Resultat"),
        "{errors:?}"
    );
    assert_eq!(app.dump(), before);

    let html = erste
        .upload(
            &format!("/tournaments/{id}/results/import"),
            csv(&[(nr(1).0, 950), (nr(1).1, 934)]),
            Some(&erste.csrf),
        )
        .await;
    assert_eq!(html.status(), StatusCode::SEE_OTHER);
    let flash = text(&erste.html(&location(&html)).await, ".flash");
    assert!(flash.contains("1 Tische 1× erfasst"), "{flash}");
    let table2 = tables[1].number;
    assert!(
        app.data(id).result_at(1, table2).is_none(),
        "an imported result does not count before the second entry"
    );
    zweite
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", &table2.to_string()), ("points_a", "950")],
        )
        .await;
    let data = app.data(id);
    assert_eq!(data.result_at(1, table2).unwrap().points_a.get(), 950);
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    let row = |t: u32| text(&passe, &format!("tr[data-table='{t}']"));
    assert!(row(table2).contains("bestätigt"), "{}", row(table2));
    assert!(
        row(tables[0].number).contains("erfasst") && !row(tables[0].number).contains("bestätigt"),
        "entered once: {}",
        row(tables[0].number)
    );
}

/// Two Büro accounts, "erste" and "zweite", for the two blind entries.
async fn two_clerks(app: &TestApp, leitung: &Client) -> (Client, Client) {
    (
        app.account(leitung, ("erste", "erste-passwort"), "buero")
            .await,
        app.account(leitung, ("zweite", "zweite-passwort"), "buero")
            .await,
    )
}

/// The tournament form of [`double_entry_tournament`] with double entry on.
fn double_entry_tournament_settings() -> Vec<(&'static str, &'static str)> {
    vec![
        ("name", "Herbstturnier Zürich"),
        ("date", "2026-11-22"),
        ("mode", "partnerschieber"),
        ("passen", "3"),
        ("spiele_per_passe", "12"),
        ("pauschale", "660"),
        ("double_entry", "1"),
    ]
}

/// Makes every update of a session fail, as a full disk or a connection lost after a save
/// would: on both backends, by a trigger.
fn refuse_session_updates(app: &TestApp) {
    use diesel::connection::SimpleConnection;
    let mut conn = app.pool.get().unwrap();
    let sql = match on_postgres() {
        true => {
            "CREATE FUNCTION refuse_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'Platte voll'; END $$ LANGUAGE plpgsql;
             CREATE TRIGGER refuse_session_update BEFORE UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION refuse_write();"
        }
        false => {
            "CREATE TRIGGER refuse_session_update BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'Platte voll'); END;"
        }
    };
    conn.batch_execute(sql).unwrap();
}

/// A save is answered by what it did, whatever fails after its commit; the page after it
/// shows its message without writing anything.
#[tokio::test]
async fn a_stored_result_is_never_answered_with_an_error_and_reading_needs_no_write() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = prepared(&app, &leitung).await;
    refuse_session_updates(&app);
    let r = leitung
        .post(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "1200")],
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::SEE_OTHER,
        "{}",
        r.text().await.unwrap()
    );
    let page = leitung.html(&location(&r)).await;
    assert!(
        text(&page, ".flash").contains("Tisch 1 gespeichert: 1'200"),
        "{}",
        text(&page, ".flash")
    );
    // The message was shown once: the next page has none.
    let again = leitung.html(&location(&r)).await;
    assert!(select_all(&again, ".flash").is_empty());
    assert_eq!(tournament_data(&app.pool, id).results.len(), 2);
}

/// Private pages stay out of browsers' and proxies' caches; assets may be kept.
#[tokio::test]
async fn private_responses_say_no_store() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = prepared(&app, &leitung).await;
    for path in [
        "/backup".to_string(),
        format!("/tournaments/{id}/export.json"),
        "/users".to_string(),
        format!("/audit?tournament={id}"),
        format!("/tournaments/{id}/tisch"),
    ] {
        let r = leitung.get(&path).await;
        let cache = r
            .headers()
            .get("cache-control")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(cache.as_deref(), Some("no-store"), "{path}: {}", r.status());
    }
    let css = leitung.get("/static/style.css").await;
    assert!(
        css.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("max-age"),
    );
}

/// What a download or backup interrupted by a crash (kill -9) left in the backup directory
/// is removed when the server starts again.
#[tokio::test]
async fn leftovers_of_an_interrupted_download_go_at_the_next_start() {
    let first = spawn_app().await;
    let backups = first.dir.path().join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    let left = [
        "jassturnier-download.unfertig-1a2b.sqlite3",
        "jassturnier-download.unfertig-1a2b.sqlite3.unfertig-3c4d-journal",
    ];
    for name in left {
        std::fs::write(backups.join(name), b"halb").unwrap();
    }
    std::fs::write(
        backups.join("jassturnier-20261205-140000.sqlite3"),
        b"fertig",
    )
    .unwrap();
    let url = first.database_url.clone();
    let dir = backups.clone();
    let _again = spawn_app_with(|s| {
        s.database_url = url;
        s.backup_dir = Some(dir);
    })
    .await;
    let mut kept: Vec<String> = std::fs::read_dir(&backups)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    kept.sort();
    assert_eq!(kept, ["jassturnier-20261205-140000.sqlite3"]);
}

/// A tournament file is checked against its own draw and the limits the forms keep: a
/// result of teams that did not sit at that table, a third team at a table, opponents that
/// do not name each other, a visa signed with a name of 200 kB. Each is refused, nothing
/// is written.
#[tokio::test]
async fn an_imported_tournament_must_agree_with_its_own_draw() {
    use jassturnier::db::transfer::{Export, VisaJson};
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    for table in 1..=4 {
        enter(&leitung, id, 1, table, 900 + table).await;
    }
    let (_, _, bytes_) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let good: Export = serde_json::from_slice(&bytes_).unwrap();
    let at = |doc: &Export, passe: u32, table: u32| -> Vec<u32> {
        doc.seats
            .iter()
            .filter(|s| s.passe == passe && s.table == Some(table))
            .map(|s| s.startnummer)
            .collect()
    };
    let mut broken: Vec<(&str, Export)> = Vec::new();
    // The result of table 1 credited to a team of table 2.
    let mut doc = good.clone();
    let elsewhere = at(&doc, 1, 2)[0];
    let r = doc
        .results
        .iter_mut()
        .find(|r| r.passe == 1 && r.table == 1)
        .unwrap();
    r.team_b = elsewhere;
    broken.push(("nicht an diesem Tisch", doc));
    // A third team at table 1 (moved from table 2).
    let mut doc = good.clone();
    let moved = at(&doc, 2, 2)[0];
    doc.seats
        .iter_mut()
        .find(|s| s.passe == 2 && s.startnummer == moved)
        .unwrap()
        .table = Some(1);
    broken.push(("am Tisch", doc));
    // Opponents that do not name each other.
    let mut doc = good.clone();
    let (a, b) = (at(&doc, 3, 1), at(&doc, 3, 2));
    doc.seats
        .iter_mut()
        .find(|s| s.passe == 3 && s.startnummer == a[0])
        .unwrap()
        .opponent = Some(b[0]);
    broken.push(("anderes Gegenüber", doc));
    // A visa name of 200 kB.
    let mut doc = good.clone();
    doc.results[0].visa_a = Some(VisaJson {
        by: "x".repeat(200 * 1024),
        at: doc.audit[0].at,
    });
    broken.push(("Visum", doc));
    let tournaments_before = app.data_count_tournaments();
    for (said, doc) in broken {
        let r = leitung
            .upload(
                "/tournaments/import",
                serde_json::to_vec(&doc).unwrap(),
                Some(&leitung.csrf),
            )
            .await;
        let status = r.status();
        let body = r.text().await.unwrap();
        assert!(status.is_client_error(), "{said}: {status}");
        assert!(body.contains(said), "{said}: {body}");
    }
    assert_eq!(
        app.data_count_tournaments(),
        tournaments_before,
        "nothing written"
    );
    // The file as exported is still fine.
    let r = leitung
        .upload("/tournaments/import", bytes_, Some(&leitung.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}
