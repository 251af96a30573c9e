//! Crash proof: the real server binary is killed with SIGKILL in the middle of a burst of
//! result entries; after a restart every acknowledged entry is there and nothing is half-written.

use crate::helpers::*;
use jassturnier::db::tournament_data as results;
use jassturnier::domain::ids::TournamentId;
use jassturnier::domain::team::TeamStatus;
use reqwest::StatusCode;
use reqwest::redirect::Policy;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

pub(crate) fn start(db: &std::path::Path, port: u16) -> Child {
    Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .env("DATABASE_URL", db)
        .env("JASSTURNIER_BIND", format!("127.0.0.1:{port}"))
        .env("JASSTURNIER_BACKUP_MINUTES", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("server starts")
}

pub(crate) async fn wait_until_up(http: &reqwest::Client, base: &str) {
    for _ in 0..100 {
        if http
            .get(format!("{base}/healthz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("server did not come up");
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test]
async fn acknowledged_entries_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.sqlite3");
    let out = Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["demo", "--teams", "40", "--passen", "4", "--spiele", "12"])
        .env("DATABASE_URL", &db)
        .output()
        .unwrap();
    assert!(out.status.success());
    let tables: Vec<u32> = {
        let pool = jassturnier::db::connect(db.to_str().unwrap(), 1).unwrap();
        let mut conn = pool.get().unwrap();
        let data = results::load(&mut conn, TournamentId(1)).unwrap();
        data.tables(4)
            .iter()
            .filter(|t| {
                t.team_a.status == TeamStatus::Aktiv && t.team_b.status == TeamStatus::Aktiv
            })
            .map(|t| t.number)
            .collect()
    };
    assert!(tables.len() >= 16);

    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let mut server = start(&db, port);
    let http = reqwest::Client::builder()
        .cookie_store(true)
        .redirect(Policy::none())
        .build()
        .unwrap();
    wait_until_up(&http, &base).await;
    let r = http
        .post(format!("{base}/login"))
        .form(&[("username", "demo"), ("password", "demo-passwort")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let page = http
        .get(format!("{base}/tournaments/1/passen/4/entry"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let csrf = attr(
        &scraper::Html::parse_document(&page),
        "input[name=_csrf]",
        "value",
    )
    .unwrap();

    let acknowledged = Arc::new(std::sync::Mutex::new(Vec::new()));
    let count = Arc::new(AtomicUsize::new(0));
    let mut senders = Vec::new();
    for lane in 0..4 {
        let mine: Vec<u32> = tables.iter().copied().skip(lane).step_by(4).collect();
        let (http, base, csrf, acknowledged, count) = (
            http.clone(),
            base.clone(),
            csrf.clone(),
            acknowledged.clone(),
            count.clone(),
        );
        senders.push(tokio::spawn(async move {
            for table in mine {
                let points = 500 + table;
                let sent = http
                    .post(format!("{base}/tournaments/1/passen/4/entry"))
                    .form(&[
                        ("_csrf", csrf.as_str()),
                        ("table", &table.to_string()),
                        ("points_a", &points.to_string()),
                    ])
                    .send()
                    .await;
                match sent {
                    Ok(r) if r.status() == StatusCode::SEE_OTHER => {
                        acknowledged.lock().unwrap().push((table, points));
                        count.fetch_add(1, Ordering::SeqCst);
                    }
                    _ => break,
                }
            }
        }));
    }
    while count.load(Ordering::SeqCst) < 5 {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    server.kill().expect("SIGKILL");
    server.wait().unwrap();
    for sender in senders {
        sender.await.unwrap();
    }
    let acknowledged = acknowledged.lock().unwrap().clone();
    assert!(
        acknowledged.len() >= 5 && acknowledged.len() < tables.len(),
        "killed mid-burst: {} of {}",
        acknowledged.len(),
        tables.len()
    );

    let mut server = start(&db, port);
    wait_until_up(&http, &base).await;
    let page = http
        .get(format!("{base}/tournaments/1/passen/4"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        page.status(),
        StatusCode::OK,
        "the restarted server serves the data"
    );
    let pool = jassturnier::db::connect(db.to_str().unwrap(), 1).unwrap();
    let mut conn = pool.get().unwrap();
    let data = results::load(&mut conn, TournamentId(1)).unwrap();
    for (table, points) in &acknowledged {
        let stored = data
            .result_at(4, *table)
            .unwrap_or_else(|| panic!("acknowledged table {table} lost"));
        assert_eq!(stored.points_a.get(), *points);
    }
    for r in &data.results {
        assert_eq!(
            r.points_a.get() + r.points_b.get(),
            1884,
            "no half-written result"
        );
        assert!(
            r.visa_a_by.is_some() == r.visa_a_at.is_some()
                && r.visa_b_by.is_some() == r.visa_b_at.is_some()
        );
    }
    let _ = server.kill();
    let _ = server.wait();
}

/// Chaos: the server is killed again and again around its automatic backup (every second
/// while something changed). Whatever moment the kill hits, every file that looks like a
/// backup is a sound jassturnier database.
#[tokio::test]
async fn killing_the_server_during_automatic_backups_leaves_no_invalid_backup() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chaos.sqlite3");
    let backups = dir.path().join("backups");
    let out = Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["demo", "--teams", "300", "--passen", "8", "--spiele", "12"])
        .env("DATABASE_URL", &db)
        .output()
        .unwrap();
    assert!(out.status.success());
    let http = reqwest::Client::builder()
        .redirect(Policy::none())
        .build()
        .unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for round in 0..8 {
        // Something changes before every start: an account more (written by the CLI).
        let mut add = Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .args(["user", "add", &format!("chaos{round}"), "--role", "buero"])
            .env("DATABASE_URL", &db)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            add.stdin
                .take()
                .unwrap()
                .write_all(b"chaos-passwort\n")
                .unwrap();
        }
        assert!(add.wait().unwrap().success());
        let port = free_port();
        let mut server = Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .env("DATABASE_URL", &db)
            .env("JASSTURNIER_BIND", format!("127.0.0.1:{port}"))
            .env("JASSTURNIER_BACKUP_DIR", &backups)
            .env("JASSTURNIER_BACKUP_SECONDS", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        wait_until_up(&http, &format!("http://127.0.0.1:{port}")).await;
        // The first backup is due about a second after the start.
        tokio::time::sleep(Duration::from_millis(rng.random_range(700..1600))).await;
        server.kill().unwrap();
        server.wait().unwrap();
    }
    let written = jassturnier::db::backup::list(&backups);
    assert!(!written.is_empty(), "some backups were written");
    for file in written {
        jassturnier::db::check_database_file(&file)
            .unwrap_or_else(|e| panic!("{} is no valid backup: {e}", file.display()));
    }
}

/// A file that has content but is no jassturnier database is refused at start: it gets no
/// fresh schema (and no open first-run setup).
#[tokio::test]
async fn the_server_refuses_a_file_that_is_no_jassturnier_database() {
    let dir = tempfile::tempdir().unwrap();
    let foreign = dir.path().join("fremd.sqlite3");
    std::fs::write(&foreign, b"Dies ist keine Datenbank, sondern eine Notiz.\n").unwrap();
    let empty_sqlite = dir.path().join("leer.sqlite3");
    {
        use diesel::{Connection, RunQueryDsl};
        let mut conn = diesel::SqliteConnection::establish(empty_sqlite.to_str().unwrap()).unwrap();
        diesel::sql_query("CREATE TABLE notizen (text TEXT)")
            .execute(&mut conn)
            .unwrap();
    }
    for file in [&foreign, &empty_sqlite] {
        let before = std::fs::read(file).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .env("DATABASE_URL", file)
            .env("JASSTURNIER_BIND", "127.0.0.1:0")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{} was accepted", file.display());
        let said = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("Start abgebrochen"), "{said}");
        assert_eq!(
            std::fs::read(file).unwrap(),
            before,
            "the file is untouched"
        );
    }
}
