//! Logging in on the hall's network: throttling that slows a guesser without locking out
//! the Leitung, bounded records of failures, and a first-run setup nobody else can claim.

use crate::helpers::*;
use diesel::prelude::*;
use jassturnier::db::schema::login_throttle;
use reqwest::StatusCode;
use reqwest::redirect::Policy;

/// A browser at another address of this machine (127.0.0.2): what the server sees of a
/// stranger's phone on the hall's network.
fn stranger(app: &TestApp) -> Client {
    Client {
        http: reqwest::Client::builder()
            .cookie_store(true)
            .redirect(Policy::none())
            .local_address(Some("127.0.0.2".parse().unwrap()))
            .build()
            .unwrap(),
        address: app.address.clone(),
        csrf: String::new(),
    }
}

fn throttle_rows(app: &TestApp) -> i64 {
    let mut conn = app.pool.get().unwrap();
    login_throttle::table.count().get_result(&mut conn).unwrap()
}

async fn try_login(c: &mut Client, name: &str, password: &str) -> StatusCode {
    c.post_anonymous("/login", &[("username", name), ("password", password)])
        .await
        .status()
}

#[tokio::test]
async fn a_stranger_cannot_lock_out_the_leitung() {
    let app = spawn_app().await;
    app.leitung().await;
    let mut guesser = stranger(&app);
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(try_login(&mut guesser, LEITUNG.0, "geraten-geraten").await);
    }
    assert_eq!(&statuses[..4], &[StatusCode::UNAUTHORIZED; 4]);
    assert_eq!(
        statuses[5..],
        [StatusCode::TOO_MANY_REQUESTS; 3],
        "the guesser waits: {statuses:?}"
    );
    // The right password from the guesser's address waits as well …
    assert_eq!(
        try_login(&mut guesser, LEITUNG.0, LEITUNG.1).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // … but the Leitung at the office computer logs in.
    let mut office = app.client();
    assert_eq!(
        try_login(&mut office, LEITUNG.0, LEITUNG.1).await,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test]
async fn guessing_many_names_from_one_address_is_slowed_and_stays_small() {
    let app = spawn_app().await;
    app.leitung().await;
    let mut guesser = stranger(&app);
    let mut last = StatusCode::OK;
    for n in 0..25 {
        last = try_login(&mut guesser, &format!("name{n}"), "geraten").await;
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS, "the address waits");
    // The address's counter and one per name tried before it blocked: no more.
    assert!(throttle_rows(&app) <= 21, "{} rows", throttle_rows(&app));
    let mut office = app.client();
    assert_eq!(
        try_login(&mut office, LEITUNG.0, LEITUNG.1).await,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test]
async fn overlong_usernames_are_counted_like_any_other_and_stay_small() {
    let app = spawn_app().await;
    app.leitung().await;
    let size = || app.stored_bytes();
    let before = size();
    let long = "x".repeat(250 * 1024);
    let mut guesser = stranger(&app);
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(try_login(&mut guesser, &long, "egal").await);
    }
    // As for a real account: five refusals, then the name waits at this address.
    assert_eq!(
        &statuses[..5],
        &[StatusCode::UNAUTHORIZED; 5],
        "{statuses:?}"
    );
    assert_eq!(
        &statuses[5..],
        &[StatusCode::TOO_MANY_REQUESTS; 3],
        "{statuses:?}"
    );
    assert_eq!(throttle_rows(&app), 2, "the address and the (cut) name");
    assert!(size() < before + 256 * 1024, "the database did not grow");
}

async fn eight_guesses(c: &mut Client, name: &str) -> Vec<StatusCode> {
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(try_login(c, name, "geraten-geraten").await);
    }
    statuses
}

#[tokio::test]
async fn the_throttle_does_not_tell_which_usernames_exist() {
    let app = spawn_app().await;
    app.leitung().await;
    let existing = eight_guesses(&mut app.client_at("127.0.0.2"), LEITUNG.0).await;
    let unknown = eight_guesses(&mut app.client_at("127.0.0.3"), "niemand").await;
    assert_eq!(existing, unknown, "an account and no account answer alike");
    assert_eq!(existing[5], StatusCode::TOO_MANY_REQUESTS, "{existing:?}");
    // A name that is no valid username at all is counted at the address too: a flood of
    // them is refused unchecked, no password hashed.
    let mut flooder = app.client_at("127.0.0.4");
    let mut flood = Vec::new();
    for _ in 0..25 {
        flood.push(try_login(&mut flooder, "in valid", "x").await);
    }
    assert_eq!(
        flood.last(),
        Some(&StatusCode::TOO_MANY_REQUESTS),
        "{flood:?}"
    );
}

async fn run_cli(app: &TestApp, args: &[&str], stdin: &[u8]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(args)
        .env("DATABASE_URL", &app.database_url)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test]
async fn unlock_and_a_new_password_open_a_blocked_account() {
    let app = spawn_app().await;
    app.leitung().await;
    let mut office = app.client();
    for _ in 0..5 {
        try_login(&mut office, LEITUNG.0, "vertippt-vertippt").await;
    }
    assert_eq!(
        try_login(&mut office, LEITUNG.0, LEITUNG.1).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    let said = run_cli(&app, &["user", "unlock", LEITUNG.0], b"").await;
    assert!(said.contains("entsperrt"), "{said}");
    assert_eq!(
        try_login(&mut office, LEITUNG.0, LEITUNG.1).await,
        StatusCode::SEE_OTHER
    );
    for _ in 0..5 {
        try_login(&mut office, LEITUNG.0, "vertippt-vertippt").await;
    }
    assert_eq!(
        try_login(&mut office, LEITUNG.0, LEITUNG.1).await,
        StatusCode::TOO_MANY_REQUESTS
    );
    run_cli(
        &app,
        &["user", "passwd", LEITUNG.0],
        b"ganz-neues-passwort\n",
    )
    .await;
    assert_eq!(
        try_login(&mut office, LEITUNG.0, "ganz-neues-passwort").await,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test]
async fn the_setup_of_an_empty_server_needs_the_machine_or_the_code() {
    // As behind a reverse proxy: loopback is not trusted, only the code counts.
    let app = spawn_app_with(|s| s.setup_from_loopback = false).await;
    let mut visitor = app.client();
    assert_eq!(visitor.get("/setup").await.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        visitor.get("/setup?code=AAAAAAAAAA").await.status(),
        StatusCode::FORBIDDEN
    );
    let form = [
        ("username", "fremd"),
        ("password", "fremd-fremd"),
        ("password2", "fremd-fremd"),
    ];
    let r = visitor.post_anonymous("/setup", &form).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let mut with_code = form.to_vec();
    with_code.push(("code", "FALSCHCODE"));
    assert_eq!(
        visitor.post_anonymous("/setup", &with_code).await.status(),
        StatusCode::FORBIDDEN
    );
    assert!(!app.dump().contains("fremd"), "nobody claimed the server");
    // The office, with the code from the console (typed in lower case).
    let code = app.setup_code.to_lowercase();
    let page = visitor.html(&format!("/setup?code={code}")).await;
    assert_eq!(attr(&page, "input[name=code]", "value"), Some(code.clone()));
    let mut office = form.to_vec();
    office[0].1 = "chefin";
    office.push(("code", &code));
    let r = visitor.post_anonymous("/setup", &office).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert!(app.dump().contains("chefin"));
}
