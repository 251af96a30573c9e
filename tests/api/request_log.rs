//! The request log: one line per request with method, route, status, duration, user and
//! address (README "Reading the log on the day").

use crate::helpers::*;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

/// Everything the app logs in this test process (all tests share one global subscriber).
static LOG: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Capture;

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        LOG.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn capture_log() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        tracing_subscriber::fmt()
            .with_writer(|| Capture)
            .with_ansi(false)
            .with_env_filter("jassturnier=info")
            .try_init()
            .expect("the only subscriber of the test process");
    });
}

/// The request lines of the device at `address`.
fn requests_from(address: &str) -> Vec<String> {
    let log = LOG.lock().unwrap_or_else(|e| e.into_inner());
    String::from_utf8_lossy(&log)
        .lines()
        .filter(|line| line.contains("Anfrage") && line.ends_with(&format!("address={address}")))
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn every_request_writes_one_line_with_route_status_duration_user_and_address() {
    capture_log();
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    let address = "127.0.0.91";
    let mut office = app.client_at(address);
    let r = office
        .post_anonymous(
            "/login",
            &[("username", LEITUNG.0), ("password", LEITUNG.1)],
        )
        .await;
    assert_eq!(r.status(), 303);
    office.refresh_csrf().await;
    let before = requests_from(address).len();
    assert_eq!(
        office.get(&format!("/tournaments/{id}")).await.status(),
        200
    );
    assert_eq!(office.get("/tournaments/99999").await.status(), 404);
    assert_eq!(office.get("/gibt-es-nicht").await.status(), 404);
    let lines = requests_from(address);
    // Login, CSRF refresh, then exactly one line for each of the three requests.
    assert_eq!(lines.len(), before + 3, "{lines:#?}");
    let login = &lines[0];
    assert!(
        login.contains("method=POST route=/login status=303") && !login.contains("user="),
        "the login is answered before anybody is logged in: {login}"
    );
    let [page, unknown, no_route] = &lines[before..] else {
        unreachable!()
    };
    assert!(
        page.contains("method=GET route=/tournaments/{id} status=200 ms=")
            && page.contains(" user=1 "),
        "{page}"
    );
    assert!(
        unknown.contains("route=/tournaments/{id} status=404"),
        "{unknown}"
    );
    assert!(
        no_route.contains("route=(keine Route) status=404"),
        "{no_route}"
    );
    for line in &lines {
        assert!(
            line.contains("request{nr="),
            "inside the request's span: {line}"
        );
        let ms: f64 = line
            .split(" ms=")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|ms| ms.parse().ok())
            .unwrap_or_else(|| panic!("a duration: {line}"));
        assert!(ms >= 0.0);
    }
}
