use crate::helpers::*;
use reqwest::StatusCode;
use scraper::Html;

#[tokio::test]
async fn stylesheets_and_scripts_are_served_from_the_binary() {
    let app = spawn_app().await;
    let c = app.client();
    for (path, kind) in [
        ("/static/style.css", "text/css"),
        ("/static/live.js", "text/javascript"),
        ("/static/entry.js", "text/javascript"),
    ] {
        let r = c.get(path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with(kind)
        );
        assert!(!r.text().await.unwrap().is_empty());
    }
    assert_eq!(
        c.get("/static/..%2FCargo.toml").await.status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        c.get("/static/fehlt.css").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn healthz_answers_ok() {
    let app = spawn_app().await;
    let r = app.client().get("/healthz").await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.text().await.unwrap(), "ok");
}

#[tokio::test]
async fn setup_creates_the_first_account_once() {
    let app = spawn_app().await;
    let anonymous = app.client();
    let r = anonymous.get("/").await;
    assert_eq!(location(&r), "/setup");
    let (status, html) = anonymous.page("/setup").await;
    assert_eq!(status, StatusCode::OK);
    assert!(text(&html, "h1").contains("Ersteinrichtung"));

    // Invalid input: message next to the field, nothing written.
    let mut c = app.client();
    let before = app.dump();
    let r = c
        .post_anonymous(
            "/setup",
            &[
                ("username", "chef"),
                ("password", "kurz"),
                ("password2", "kurz"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#password-error").contains("mindestens 8 Zeichen"));
    assert_eq!(app.dump(), before);

    let leitung = app.leitung().await;
    let html = leitung.html("/").await;
    assert!(text(&html, ".who").contains("leitung"));
    assert_eq!(app.audit_actions(), vec!["user:create"]);

    // Afterwards the setup page is gone, also for a second attempt.
    let (status, _) = anonymous.page("/setup").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let before = app.dump();
    let mut intruder = app.client();
    let r = intruder
        .post_anonymous(
            "/setup",
            &[
                ("username", "boss"),
                ("password", "12345678"),
                ("password2", "12345678"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.dump(), before);
    assert_eq!(location(&anonymous.get("/").await), "/login");
}

#[tokio::test]
async fn login_and_logout() {
    let app = spawn_app().await;
    app.leitung().await;
    let mut c = app.client();
    let r = c
        .post_anonymous(
            "/login",
            &[("username", LEITUNG.0), ("password", "falsch-falsch")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, ".error").contains("falsch"));
    assert_eq!(location(&c.get("/").await), "/login");
    let r = c
        .post_anonymous(
            "/login",
            &[("username", "niemand"), ("password", LEITUNG.1)],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    let c = app.login(LEITUNG.0, LEITUNG.1).await;
    assert_eq!(c.get("/").await.status(), StatusCode::OK);
    // Logout needs the CSRF token too.
    assert_eq!(
        c.post_with_csrf("/logout", &[], Some("falsch"))
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(c.get("/").await.status(), StatusCode::OK);
    let r = c.post("/logout", &[]).await;
    assert_eq!(location(&r), "/login");
    assert_eq!(location(&c.get("/").await), "/login");
}

#[tokio::test]
async fn the_leitung_manages_accounts() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let html = leitung.html("/users").await;
    assert!(text(&html, "tbody").contains("buero"));
    // Büro may not manage accounts.
    assert_eq!(buero.get("/users").await.status(), StatusCode::FORBIDDEN);
    // Locking an account ends its sessions.
    let id = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::users::find_by_name(&mut conn, "buero")
            .unwrap()
            .unwrap()
            .id
            .0
    };
    leitung
        .post_ok(
            &format!("/users/{id}"),
            &[("role", "buero"), ("active", "0"), ("password", "")],
        )
        .await;
    assert_eq!(location(&buero.get("/").await), "/login");
    let r = app
        .client()
        .post_anonymous("/login", &[("username", BUERO.0), ("password", BUERO.1)])
        .await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    assert!(app.audit_actions().contains(&"user:update".to_string()));
}

/// Every state-changing route: (path, form, role that may do it).
fn writes(tournament: i32, team: i32) -> Vec<(String, Vec<(&'static str, &'static str)>)> {
    let t = format!("/tournaments/{tournament}");
    vec![
        (
            "/users".into(),
            vec![
                ("username", "neu"),
                ("role", "buero"),
                ("password", "12345678"),
            ],
        ),
        ("/users/1".into(), vec![("role", "buero"), ("active", "0")]),
        (
            "/tournaments".into(),
            vec![
                ("name", "X"),
                ("date", "2026-11-22"),
                ("mode", "partnerschieber"),
                ("passen", "4"),
                ("spiele_per_passe", "12"),
            ],
        ),
        (
            format!("{t}/edit"),
            vec![
                ("name", "X"),
                ("date", "2026-11-22"),
                ("mode", "partnerschieber"),
                ("passen", "4"),
                ("spiele_per_passe", "12"),
            ],
        ),
        (format!("{t}/close"), vec![]),
        (format!("{t}/hide"), vec![]),
        (
            format!("{t}/teams"),
            vec![("player1", "A"), ("player2", "B")],
        ),
        (
            format!("{t}/teams/{team}/edit"),
            vec![("player1", "A"), ("player2", "B")],
        ),
        (format!("{t}/teams/{team}/delete"), vec![]),
        (
            format!("{t}/teams/import/confirm"),
            vec![("upload", "0123456789abcdef")],
        ),
    ]
}

#[tokio::test]
async fn writes_are_refused_without_login_role_or_csrf() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolleur = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    import_teams(&leitung, tournament, fixture("teams_semikolon_cp1252.csv")).await;
    let team = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::teams::list(
            &mut conn,
            jassturnier::domain::ids::TournamentId(tournament),
        )
        .unwrap()[0]
            .id
            .0
    };
    let anonymous = app.client();
    let before = app.dump();
    for (path, form) in writes(tournament, team) {
        let r = anonymous
            .post_with_csrf(&path, &form, Some(&leitung.csrf))
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "anonymous {path}");
        assert_eq!(location(&r), "/login", "anonymous {path}");
        let r = kontrolleur.post(&path, &form).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "kontrolleur {path}");
        let r = leitung.post_with_csrf(&path, &form, None).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN, "no csrf {path}");
        let r = leitung
            .post_with_csrf(&path, &form, Some(&kontrolleur.csrf))
            .await;
        assert_eq!(
            r.status(),
            StatusCode::FORBIDDEN,
            "other session's csrf {path}"
        );
        assert_eq!(app.dump(), before, "{path} wrote something");
    }
    // The upload route checks the token inside the multipart body.
    let import = format!("/tournaments/{tournament}/teams/import");
    let r = leitung
        .upload(&import, fixture("teams_komma_utf8_bom.csv"), None)
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = anonymous
        .upload(
            &import,
            fixture("teams_komma_utf8_bom.csv"),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(location(&r), "/login");
    assert_eq!(app.dump(), before);
}

#[tokio::test]
async fn a_closed_tournament_refuses_writes_until_reopened() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    let t = format!("/tournaments/{tournament}");
    leitung.post_ok(&format!("{t}/close"), &[]).await;
    let before = app.dump();
    for (client, path, form) in [
        (
            &buero,
            format!("{t}/teams"),
            vec![("player1", "Anna"), ("player2", "Urs")],
        ),
        (
            &leitung,
            format!("{t}/edit"),
            vec![
                ("name", "Neu"),
                ("date", "2026-11-22"),
                ("mode", "partnerschieber"),
                ("passen", "4"),
                ("spiele_per_passe", "12"),
            ],
        ),
        (&leitung, format!("{t}/close"), vec![]),
        (&leitung, format!("{t}/hide"), vec![]),
    ] {
        let r = client.post(&path, &form).await;
        assert!(r.status().is_client_error(), "{path}: {}", r.status());
        let body = r.text().await.unwrap();
        assert!(body.contains("abgeschlossen"), "{path}: {body}");
    }
    let r = buero
        .upload(
            &format!("{t}/teams/import"),
            fixture("teams_semikolon_cp1252.csv"),
            Some(&buero.csrf),
        )
        .await;
    let preview = Html::parse_document(&r.text().await.unwrap());
    let upload = attr(&preview, "input[name=upload]", "value").unwrap();
    let r = buero
        .post(&format!("{t}/teams/import/confirm"), &[("upload", &upload)])
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.dump(), before);
    // Only the Leitung reopens.
    assert_eq!(
        buero.post(&format!("{t}/reopen"), &[]).await.status(),
        StatusCode::FORBIDDEN
    );
    leitung.post_ok(&format!("{t}/reopen"), &[]).await;
    buero
        .post_ok(
            &format!("{t}/teams"),
            &[("player1", "Anna"), ("player2", "Urs")],
        )
        .await;
    let actions = app.audit_actions();
    assert!(actions.contains(&"tournament:close".to_string()));
    assert!(actions.contains(&"tournament:reopen".to_string()));
    assert_eq!(actions.last().unwrap(), "team:create");
}

#[tokio::test]
async fn tournament_form_checks_fields_and_presets_the_pauschale() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let before = app.dump();
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", ""),
                ("date", "30.02.2026"),
                ("mode", "partnerschieber"),
                ("passen", "0"),
                ("spiele_per_passe", "zwölf"),
                ("pauschale", ""),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    for field in ["name", "date", "passen", "spiele_per_passe"] {
        assert!(
            !text(&html, &format!("#{field}-error")).is_empty(),
            "{field} has a message"
        );
    }
    assert_eq!(app.dump(), before);
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Frühling"),
                ("date", "2026-03-01"),
                ("mode", "partnerschieber"),
                ("passen", "5"),
                ("spiele_per_passe", "10"),
                ("pauschale", ""),
            ],
        )
        .await;
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#pauschale-error").contains("bitte eingeben"));
    let id = create_tournament(&leitung, "4", "8").await;
    let html = leitung.html(&format!("/tournaments/{id}")).await;
    assert!(
        text(&html, "main p").contains("Pauschale 660"),
        "{}",
        text(&html, "main p")
    );
    assert!(text(&html, "main p").contains("22.11.2026"));
    assert_eq!(text(&html, "#nav-entrants"), "Teams");
}

#[tokio::test]
async fn csv_import_reads_swiss_excel_and_utf8_files() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    let html = import_teams(&leitung, tournament, fixture("teams_semikolon_cp1252.csv")).await;
    assert!(text(&html, ".flash").contains("4 Teams importiert"));
    let rows = select_all(&html, "#teams tbody tr");
    assert!(
        rows[0].contains("Bärenstark")
            && rows[0].contains("Anna Müller / Urs Bär")
            && rows[0].contains("Zürich"),
        "{rows:?}"
    );
    assert!(rows[1].contains("Wädenswil"));

    let html = import_teams(&leitung, tournament, fixture("teams_komma_utf8_bom.csv")).await;
    let rows = select_all(&html, "#teams tbody tr");
    assert_eq!(rows.len(), 7);
    assert!(rows[4].starts_with("11 Röselijasser"), "{rows:?}");
    assert!(rows[4].contains("Jassclub Bern, Sektion Ost"));
    assert!(rows[5].contains("Marie-Thérèse Dubois / Noël Ménétrey"));
    // The team without a number gets the next one after the highest.
    assert!(rows[6].starts_with("13 Undenufe"), "{rows:?}");
    let imports = app
        .audit_actions()
        .iter()
        .filter(|a| *a == "team:import")
        .count();
    assert_eq!(imports, 7);
}

#[tokio::test]
async fn broken_csv_files_are_rejected_whole_with_line_numbers() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    let path = format!("/tournaments/{tournament}/teams/import");
    let before = app.dump();
    for (file, line, words) in [
        ("bad_fehlender_spieler.csv", 3, "Spieler 2 fehlt"),
        ("bad_doppelte_startnummer.csv", 4, "doppelt"),
        ("bad_unbekannte_spalte.csv", 1, "telefon"),
        ("bad_kodierung.csv", 3, "Zeichenkodierung"),
        ("bad_feldanzahl.csv", 3, "Felder"),
        ("bad_startnummer_text.csv", 3, "ungültig"),
        ("bad_leer.csv", 1, "leer"),
        ("bad_utf16.csv", 1, "UTF-16"),
    ] {
        let r = leitung
            .upload(&path, fixture(file), Some(&leitung.csrf))
            .await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{file}");
        let html = Html::parse_document(&r.text().await.unwrap());
        let errors = select_all(&html, "#import-errors li");
        assert!(
            errors[0].starts_with(&format!("Zeile {line}:")),
            "{file}: {errors:?}"
        );
        assert!(errors[0].contains(words), "{file}: {errors:?}");
        assert!(
            attr(&html, "input[name=upload]", "value").is_none(),
            "{file} offers no confirm"
        );
        // Confirming without a kept preview is refused as well.
        let r = leitung
            .post(&format!("{path}/confirm"), &[("upload", "keine-vorschau")])
            .await;
        assert_eq!(
            r.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{file} confirm"
        );
        assert_eq!(app.dump(), before, "{file} wrote something");
    }
}

#[tokio::test]
async fn team_form_keeps_startnummern_unique() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    let teams = format!("/tournaments/{tournament}/teams");
    buero
        .post_ok(
            &teams,
            &[
                ("startnummer", "7"),
                ("player1", "Anna Bär"),
                ("player2", "Urs Bär"),
            ],
        )
        .await;
    let before = app.dump();
    let r = buero
        .post(
            &teams,
            &[
                ("startnummer", "7"),
                ("player1", "Heidi"),
                ("player2", "Ruedi"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#startnummer-error").contains("bereits vergeben"));
    let r = buero
        .post(&teams, &[("player1", "Heidi"), ("player2", "")])
        .await;
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#player2-error").contains("leer"));
    assert_eq!(app.dump(), before);
    let html = buero
        .post_ok(
            &teams,
            &[
                ("name", "<script>alert(1)</script>"),
                ("player1", "Heidi"),
                ("player2", "Ruedi"),
            ],
        )
        .await;
    let rows = select_all(&html, "#teams tbody tr");
    assert!(
        rows[1].starts_with("8 <script>alert(1)</script>"),
        "escaped and numbered after 7: {rows:?}"
    );
    assert!(!html.html().contains("<script>alert(1)</script>"));
}

#[tokio::test]
async fn cli_user_add_writes_to_the_server_database() {
    let app = spawn_app().await;
    app.leitung().await;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["user", "add", "kontrolle2", "--role", "kontrolleur"])
        .env("DATABASE_URL", &app.database_url)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"sehr-geheim\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let c = app.login("kontrolle2", "sehr-geheim").await;
    let html = c.html("/").await;
    assert!(text(&html, ".who").contains("Kontrolleur"));
    // Kontrolleure read but may not create tournaments.
    assert_eq!(
        c.get("/tournaments/new").await.status(),
        StatusCode::FORBIDDEN
    );
}

/// Typed rows: text in the database that is no known status or mode is an error (an opaque
/// 500, the cause in the log), never silently read as "aktiv" or "Partnerschieber".
#[tokio::test]
async fn unknown_text_in_the_database_is_an_error_not_a_default() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    import_teams(&leitung, tournament, fixture("teams_semikolon_cp1252.csv")).await;
    let teams = format!("/tournaments/{tournament}/teams");
    assert_eq!(leitung.get(&teams).await.status(), StatusCode::OK);
    let corrupt = |sql: &str| {
        let mut conn = app.pool.get().unwrap();
        diesel::sql_query(sql).execute(&mut conn).unwrap();
    };
    corrupt("UPDATE teams SET status = 'gesperrt' WHERE startnummer = 1");
    let r = leitung.get(&teams).await;
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert!(
        !r.text().await.unwrap().contains("gesperrt"),
        "the cause stays in the log"
    );
    let mut conn = app.pool.get().unwrap();
    assert!(
        jassturnier::db::teams::list(
            &mut conn,
            jassturnier::domain::ids::TournamentId(tournament)
        )
        .is_err()
    );
    corrupt("UPDATE teams SET status = 'aktiv'");
    assert_eq!(leitung.get(&teams).await.status(), StatusCode::OK);
    corrupt("UPDATE tournaments SET mode = 'Schieber'");
    let r = leitung.get(&format!("/tournaments/{tournament}")).await;
    assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
}

/// A team file of any size under the upload limit imports: the file waits on the server
/// between preview and confirmation (the confirmation no longer carries it).
#[tokio::test]
async fn a_big_team_file_imports_through_preview_and_confirmation() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    let mut csv = String::from("nr;team;spieler1;spieler2;verein;ort\n");
    for n in 1..=4000 {
        csv += &format!(
            "{n};Team Nummer {n};Anna Beispiel {n};Urs Beispiel {n};Jassclub Zürich;Zürich\n"
        );
    }
    assert!(csv.len() > 300 * 1024, "bigger than the form limit");
    let page = import_teams(&leitung, tournament, csv.into_bytes()).await;
    assert!(text(&page, ".flash").contains("4000 Teams importiert"));
    assert_eq!(app.data(tournament).teams.len(), 4000);
    // A kept preview is used once.
    let path = format!("/tournaments/{tournament}/teams/import");
    let r = leitung
        .upload(
            &path,
            b"nr;spieler1;spieler2\n5001;A;B\n".to_vec(),
            Some(&leitung.csrf),
        )
        .await;
    let preview = Html::parse_document(&r.text().await.unwrap());
    let upload = attr(&preview, "input[name=upload]", "value").unwrap();
    leitung
        .post_ok(&format!("{path}/confirm"), &[("upload", &upload)])
        .await;
    let again = leitung
        .post(&format!("{path}/confirm"), &[("upload", &upload)])
        .await;
    assert_eq!(again.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.data(tournament).teams.len(), 4001);
}

/// A file with very many bad lines gets a short answer: the first 100 problems and a count.
#[tokio::test]
async fn very_many_bad_lines_give_a_short_summary() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let tournament = create_tournament(&leitung, "4", "12").await;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for _ in 0..100_000 {
        csv += "x;;\n";
    }
    let r = leitung
        .upload(
            &format!("/tournaments/{tournament}/teams/import"),
            csv.into_bytes(),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = r.text().await.unwrap();
    assert!(body.len() < 100 * 1024, "{} bytes", body.len());
    let html = Html::parse_document(&body);
    assert_eq!(select_all(&html, "#import-errors li").len(), 101);
    assert!(
        text(&html, "#import-errors-more").contains("99'900 weitere")
            || text(&html, "#import-errors-more").contains("99900 weitere")
    );
}
