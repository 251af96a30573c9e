//! What leaves the app is safe: spreadsheets see no formulas, team names cannot break a page,
//! browsers are told to run only the app's own scripts and never to frame it.

use crate::helpers::*;
use diesel::prelude::*;
use reqwest::StatusCode;
use scraper::{Html, Selector};

async fn team(leitung: &Client, id: i32, name: &str, nr: &str) {
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams"),
            &[
                ("startnummer", nr),
                ("name", name),
                ("player1", "Anna Muster"),
                ("player2", "Urs Muster"),
            ],
        )
        .await;
}

#[tokio::test]
async fn csv_cells_that_look_like_formulas_are_text() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    for (nr, name) in [
        ("1", "=SUMME(1;2)"),
        ("2", "+41 79 000"),
        ("3", "@cmd"),
        ("4", "-x"),
    ] {
        team(&leitung, id, name, nr).await;
    }
    let (status, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let csv = String::from_utf8(csv[3..].to_vec()).unwrap();
    for cell in ["\"'=SUMME(1;2)\"", ";'+41 79 000;", ";'@cmd;", ";'-x;"] {
        assert!(csv.contains(cell), "{cell} in {csv}");
    }
    assert!(!csv.contains(";=SUMME") && !csv.contains(";@cmd"));
}

#[tokio::test]
async fn team_names_cannot_break_the_entry_pages_data_block() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    team(&leitung, id, "<!--<script>", "1").await;
    team(&leitung, id, "</script><b>fett</b>", "2").await;
    team(&leitung, id, "A & B", "3").await;
    team(&leitung, id, "Normal", "4").await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "1")],
        )
        .await;
    let r = leitung
        .get(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    let raw = r.text().await.unwrap();
    let block = raw
        .split("<script type=\"application/json\" id=\"tables-data\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    assert!(!block.contains('<') && !block.contains('>'), "{block}");
    let tables: serde_json::Value = serde_json::from_str(block).unwrap();
    let names = tables.to_string();
    assert!(names.contains("<!--<script>") && names.contains("</script><b>fett</b>"));
    // The page after the block is intact: both lists are there, nothing is bold.
    let html = Html::parse_document(&raw);
    assert!(
        html.select(&Selector::parse("#missing").unwrap())
            .next()
            .is_some()
    );
    assert!(html.select(&Selector::parse("b").unwrap()).next().is_none());
}

#[tokio::test]
async fn pages_carry_security_headers_and_no_inline_scripts() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    for path in ["/login".to_string(), format!("/tournaments/{id}/ranking")] {
        let r = leitung.get(&path).await;
        let header = |name: &str| {
            r.headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_string())
                .unwrap_or_default()
        };
        let csp = header("content-security-policy");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(header("referrer-policy"), "same-origin");
        let body = r.text().await.unwrap();
        assert!(!body.contains("onclick="), "{path} has an inline handler");
    }
    assert_eq!(
        leitung.get("/static/print.js").await.status(),
        StatusCode::OK
    );
    assert_eq!(
        leitung.get("/static/fonts").await.status(),
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn the_session_cookie_is_secure_behind_https() {
    let plain = spawn_app().await;
    let https = spawn_app_with(|s| s.public_url = Some("https://turnier.example".into())).await;
    for (app, secure) in [(&plain, false), (&https, true)] {
        let mut c = app.client();
        let r = c
            .post_anonymous(
                "/setup",
                &[
                    ("username", LEITUNG.0),
                    ("password", LEITUNG.1),
                    ("password2", LEITUNG.1),
                ],
            )
            .await;
        let cookie = r
            .headers()
            .get("set-cookie")
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        assert!(cookie.contains("HttpOnly"));
        assert_eq!(cookie.contains("Secure"), secure, "{cookie}");
    }
}

#[tokio::test]
async fn expired_sessions_are_purged() {
    use jassturnier::db::schema::sessions;
    let app = spawn_app().await;
    app.leitung().await;
    {
        let mut conn = app.pool.get().unwrap();
        diesel::sql_query(
            "INSERT INTO sessions (token, user_id, csrf_token, created_at, expires_at) \
             VALUES ('alt', 1, 'x', '2020-01-01 10:00:00', '2020-01-02 10:00:00')",
        )
        .execute(&mut conn)
        .unwrap();
    }
    let count = |token: &str| -> i64 {
        let mut conn = app.pool.get().unwrap();
        sessions::table
            .filter(sessions::token.eq(token))
            .count()
            .get_result(&mut conn)
            .unwrap()
    };
    assert_eq!(count("alt"), 1);
    app.login(LEITUNG.0, LEITUNG.1).await;
    assert_eq!(
        count("alt"),
        0,
        "an expired session is gone after the next login"
    );
}

/// A downloaded backup holds the sessions, but no token in it opens one.
#[tokio::test]
async fn a_backup_holds_no_usable_session_token() {
    use jassturnier::db::schema::sessions;
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let (status, _, snapshot) = bytes(&leitung, "/backup").await;
    assert_eq!(status, StatusCode::OK);
    if on_postgres() {
        // The document of a PostgreSQL backup holds accounts and tournaments, no sessions.
        let doc: serde_json::Value = serde_json::from_slice(&snapshot).unwrap();
        assert!(doc.get("sessions").is_none());
        assert!(!String::from_utf8_lossy(&snapshot).contains("csrf"));
        return;
    }
    let file = app.dir.path().join("aus-der-sicherung.sqlite3");
    std::fs::write(&file, snapshot).unwrap();
    let tokens: Vec<String> = {
        let pool = jassturnier::db::connect(file.to_str().unwrap(), 1).unwrap();
        let mut conn = pool.get().unwrap();
        sessions::table
            .select(sessions::token)
            .load(&mut conn)
            .unwrap()
    };
    assert!(!tokens.is_empty(), "the Leitung's session is in the backup");
    for token in tokens {
        let thief = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let r = thief
            .get(format!("{}/users", app.address))
            .header("cookie", format!("jassturnier_session={token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(
            r.status(),
            StatusCode::SEE_OTHER,
            "a stored token opens nothing"
        );
        assert_eq!(location(&r), "/login");
    }
    assert_eq!(leitung.get("/users").await.status(), StatusCode::OK);
}

/// An upload is bounded as a whole: many fields below the file limit are refused too.
#[tokio::test]
async fn an_upload_with_many_big_fields_is_refused() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    let before = app.dump();
    let mut form = reqwest::multipart::Form::new().text("_csrf", leitung.csrf.clone());
    for n in 0..6 {
        form = form.part(
            format!("teil{n}"),
            reqwest::multipart::Part::bytes(vec![b'x'; 1024 * 1024]).file_name("x.csv"),
        );
    }
    let r = leitung
        .http
        .post(leitung.url(&format!("/tournaments/{id}/teams/import")))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(app.dump(), before);
}
