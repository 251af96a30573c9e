//! A tournament day, simulated (#82): the real server binary, two Büro clerks typing every
//! table blind twice (double entry, a typo now and then), phones reporting and confirming
//! from the tables (a dispute now and then, decided by the office), a Kontrolleur visaing each
//! Passe and giving the final visas, viewers following the live page (reconnecting), public
//! team pages polled, the Standblätter printed — and the server killed with SIGKILL in the
//! middle of a Passe and started again. Clients retry what was not acknowledged, as a
//! browser's user would.
//!
//! At the end the driver's own log of what was acknowledged is the truth: every acknowledged
//! result is stored exactly once with its points, nothing else is stored, and the official
//! Rangliste equals an independent computation from the log.
//!
//! The reduced day runs in the suite (both backends); `bash bench/day.sh` runs the full day
//! through [`full_day`] and prints the figures.

use crate::crash::{free_port, wait_until_up};
use crate::helpers::*;
use jassturnier::domain::marathon::quick::SpielForm;
use jassturnier::domain::marathon::tafel::compute;
use jassturnier::domain::marathon::{Rules, Spiel, Trump};
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use reqwest::redirect::Policy;
use std::collections::{BTreeMap, HashMap};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the day is made of.
#[derive(Debug, Clone)]
pub struct DayConfig {
    pub teams: u32,
    pub passen: u32,
    /// Every `phone_every`-th table reports by phone; the others are typed in the Büro (0: no
    /// phones).
    pub phone_every: u32,
    pub viewers: usize,
    pub pollers: usize,
    /// How much faster than a human day: a clerk pauses 8 s / speed between two tables, the
    /// automatic backup runs every 5 min / speed (at least every second).
    pub speed: f64,
    pub seed: u64,
    /// Server instances on the one database (2: PostgreSQL only; requests alternate).
    pub instances: usize,
    /// The fault of the day, in this Passe when half of its tables are in.
    pub fault: Option<(u32, Fault)>,
    pub typo_percent: u32,
    pub dispute_percent: u32,
    /// A Jassmarathon instead of a Partnerschieber: every Tafel kept on the phone of team A,
    /// `tafel_lines` Spiele in the Spielrunde's 90 minutes (of day time), the opponents
    /// confirming at the gong. (Passen are then Spielrunden.)
    pub marathon: bool,
    pub tafel_lines: u32,
}

/// What goes wrong.
#[derive(Debug, Clone)]
pub enum Fault {
    /// SIGKILL of every instance, then a restart.
    Kill,
    /// SIGKILL of the first instance only (two instances): the other serves on; the killed
    /// one is started again.
    KillOne,
    /// PostgreSQL: every connection of the app's database terminated (`pg_terminate_backend`
    /// through this admin URL); the app must recover without a restart.
    DropConnections(String),
    /// SQLite: the filesystem of the database (a small one) filled up with a ballast file
    /// for a while, then freed.
    DiskFull(std::path::PathBuf),
    /// PostgreSQL, two instances: one killed, and while it is down every connection of the
    /// other terminated; then the killed one started again.
    KillOneAndDrop(String),
}

impl DayConfig {
    fn clerk_pause(&self) -> Duration {
        Duration::from_secs_f64(8.0 / self.speed)
    }

    fn backup_seconds(&self) -> u64 {
        Duration::from_secs_f64(300.0 / self.speed).as_secs().max(1)
    }

    /// The 10 minutes in which a team's phones may write 30 times, compressed as the day.
    fn phone_window_seconds(&self) -> u64 {
        Duration::from_secs_f64(600.0 / self.speed).as_secs().max(1)
    }

    /// The pause between two Tafel lines: the Spielrunde's 90 minutes over its Spiele.
    fn line_pause(&self) -> Duration {
        Duration::from_secs_f64(90.0 * 60.0 / f64::from(self.tafel_lines.max(1)) / self.speed)
    }
}

impl DayConfig {
    /// The day of the test suite: 40 teams, 4 Passen, 20 phones, 100 viewers, one kill.
    pub fn reduced() -> Self {
        DayConfig {
            teams: 40,
            passen: 4,
            phone_every: 2,
            viewers: 100,
            pollers: 10,
            speed: 1600.0,
            seed: 7,
            instances: 1,
            fault: Some((2, Fault::Kill)),
            // More slips than a real Büro, so that a short day meets each of them.
            typo_percent: 10,
            dispute_percent: 5,
            marathon: false,
            tafel_lines: 0,
        }
    }

    /// The Jassmarathon of the test suite: 20 teams × 2 Spielrunden, 10 Tafeln on phones of
    /// 8 Spiele each, 50 viewers, one kill.
    pub fn reduced_marathon() -> Self {
        DayConfig {
            teams: 20,
            passen: 2,
            phone_every: 1,
            viewers: 50,
            pollers: 10,
            // A Spielrunde of 8 lines in about 2 s.
            speed: 2400.0,
            seed: 11,
            instances: 1,
            fault: Some((2, Fault::Kill)),
            // Answers lost on the hall's Wi-Fi (the phone sends the line again): often, so
            // that a short day meets it.
            typo_percent: 15,
            dispute_percent: 10,
            marathon: true,
            tafel_lines: 8,
        }
    }

    /// The benchmark's day: 200 teams × 8 Passen, 100 phones (every second table of 100),
    /// 500 viewers, 200 team pages polled; `DAY_*` environment variables change it.
    pub fn full() -> Self {
        let var = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let text = |name: &str| std::env::var(name).unwrap_or_default();
        let in_passe = var("DAY_FAULT_PASSE", 4) as u32;
        let fault = match text("DAY_FAULT").as_str() {
            "" | "none" => None,
            "kill" => Some(Fault::Kill),
            "kill-one" => Some(Fault::KillOne),
            "drop-connections" => Some(Fault::DropConnections(text("DAY_PG_ADMIN"))),
            "disk-full" => Some(Fault::DiskFull(text("DAY_DISK").into())),
            "all" => Some(Fault::KillOneAndDrop(text("DAY_PG_ADMIN"))),
            other => {
                panic!("DAY_FAULT={other}: kill, kill-one, drop-connections, disk-full, all")
            }
        };
        let marathon = text("DAY_MODE") == "marathon";
        DayConfig {
            teams: var("DAY_TEAMS", if marathon { 100 } else { 200 }) as u32,
            passen: var("DAY_PASSEN", if marathon { 4 } else { 8 }) as u32,
            phone_every: var("DAY_PHONE_EVERY", 2) as u32,
            viewers: var("DAY_VIEWERS", 500) as usize,
            pollers: var("DAY_POLLERS", 200) as usize,
            speed: var("DAY_SPEED", 200) as f64,
            seed: var("DAY_SEED", 7),
            instances: var("DAY_INSTANCES", 1) as usize,
            fault: fault.map(|f| (in_passe, f)),
            typo_percent: 2,
            dispute_percent: 5,
            marathon,
            tafel_lines: var("DAY_TAFEL_LINES", 24) as u32,
        }
    }
}

/// What the day showed.
#[derive(Debug, Default)]
pub struct DayReport {
    pub acknowledged: usize,
    /// Jassmarathon: Tafel lines acknowledged to the phones.
    pub tafel_lines: usize,
    /// Results without the Kontrolleur's visa and teams without their final visa, although
    /// both were acknowledged (must be 0).
    pub without_visa: usize,
    /// Acknowledged results missing or stored with other points (must be 0).
    pub lost: usize,
    /// More than one result for a table (must be 0).
    pub duplicated: usize,
    /// Results stored that nobody was told were saved (must be 0 outside the crash).
    pub unacknowledged_visible: usize,
    /// The official Rangliste differs from the computation from the log (must be 0).
    pub ranking_differences: usize,
    /// 5xx answers outside the crash window (must be 0).
    pub server_errors: usize,
    pub latencies: BTreeMap<&'static str, Vec<Duration>>,
    /// Save acknowledged → the next event at a viewer.
    pub live_delays: Vec<Duration>,
    /// From the restart after SIGKILL until the server answered.
    pub back_after_kill: Option<Duration>,
    pub events_seen: usize,
    /// Viewers whose last event is older than the tournament's final version a few seconds
    /// after the last change (must be 0: they converged without a reload).
    pub viewers_behind: usize,
    /// Per instance: peak resident memory (kB) and CPU seconds, summed over its runs.
    pub rss_kb: Vec<u64>,
    pub cpu_seconds: Vec<f64>,
    /// The automatic backups written: how many, and the largest (bytes).
    pub backups: (usize, u64),
    /// Requests answered with an error while the fault was on (retried by the clients).
    pub errors_in_fault: usize,
    /// Disk full: the ballast that filled the filesystem (bytes).
    pub disk_filled: u64,
}

impl DayReport {
    pub fn percentile(values: &[Duration], p: f64) -> Duration {
        if values.is_empty() {
            return Duration::ZERO;
        }
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        // The nearest rank: p of the way from the first to the last.
        let last = sorted.len() - 1;
        let i = (0..=last)
            .min_by(|a, b| {
                let at = |i: usize| (i as f64 - last as f64 * p).abs();
                at(*a).total_cmp(&at(*b))
            })
            .unwrap_or(last);
        sorted[i]
    }

    pub fn print(&self) {
        println!(
            "acknowledged results {} (Tafel lines {}), lost {}, duplicated {}, unacknowledged visible {}, without visa {}, ranking differences {}, 5xx outside the crash {}",
            self.acknowledged,
            self.tafel_lines,
            self.lost,
            self.duplicated,
            self.unacknowledged_visible,
            self.without_visa,
            self.ranking_differences,
            self.server_errors
        );
        for (action, values) in &self.latencies {
            println!(
                "{action:<24} n={:<6} p50 {:>8.1} ms  p99 {:>8.1} ms",
                values.len(),
                ms(Self::percentile(values, 0.5)),
                ms(Self::percentile(values, 0.99))
            );
        }
        println!(
            "live delay (save → next event at a viewer): n={} p50 {:.1} ms p99 {:.1} ms; events seen {}",
            self.live_delays.len(),
            ms(Self::percentile(&self.live_delays, 0.5)),
            ms(Self::percentile(&self.live_delays, 0.99)),
            self.events_seen
        );
        if let Some(back) = self.back_after_kill {
            println!("serving again {:.0} ms after the restart", ms(back));
        }
        println!("viewers behind at the end: {}", self.viewers_behind);
        if self.disk_filled > 0 {
            println!("disk filled with {} bytes for 3 s", self.disk_filled);
        }
        println!(
            "server: peak RSS {:?} kB, CPU {:?} s; backups {} (largest {} bytes); answers retried during the fault {}",
            self.rss_kb,
            self.cpu_seconds
                .iter()
                .map(|c| (c * 10.0).round() / 10.0)
                .collect::<Vec<_>>(),
            self.backups.0,
            self.backups.1,
            self.errors_in_fault
        );
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A server process: started, killed with SIGKILL, started again on the same port; what it
/// used (peak RSS, CPU) is read before each kill.
struct Server {
    child: Option<Child>,
    database_url: String,
    port: u16,
    backup_dir: std::path::PathBuf,
    backup_seconds: u64,
    phone_window_seconds: u64,
    rss_kb: u64,
    cpu_seconds: f64,
}

impl Server {
    fn start(
        database_url: &str,
        port: u16,
        backup_dir: &std::path::Path,
        config: &DayConfig,
    ) -> Server {
        let mut s = Server {
            child: None,
            database_url: database_url.to_string(),
            port,
            backup_dir: backup_dir.to_path_buf(),
            backup_seconds: config.backup_seconds(),
            phone_window_seconds: config.phone_window_seconds(),
            rss_kb: 0,
            cpu_seconds: 0.0,
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        self.child = Some(
            Command::new(env!("CARGO_BIN_EXE_jassturnier"))
                .env("DATABASE_URL", &self.database_url)
                .env("JASSTURNIER_BIND", format!("127.0.0.1:{}", self.port))
                .env("JASSTURNIER_BACKUP_DIR", &self.backup_dir)
                .env(
                    "JASSTURNIER_BACKUP_SECONDS",
                    self.backup_seconds.to_string(),
                )
                .env(
                    "JASSTURNIER_PHONE_WINDOW_SECONDS",
                    self.phone_window_seconds.to_string(),
                )
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("server starts"),
        );
    }

    /// Reads what the running process used: peak RSS and CPU time (Linux /proc).
    fn measure(&mut self) {
        let Some(pid) = self.child.as_ref().map(Child::id) else {
            return;
        };
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            let peak = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                .unwrap_or(0);
            self.rss_kb = self.rss_kb.max(peak);
        }
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // After the command in parentheses: state is field 3, utime 14, stime 15.
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let ticks = |i: usize| {
                fields
                    .get(i)
                    .and_then(|v| v.parse::<f64>().ok())
                    .unwrap_or(0.0)
            };
            self.cpu_seconds += (ticks(11) + ticks(12)) / 100.0;
        }
    }

    fn kill(&mut self) {
        self.measure();
        if let Some(mut child) = self.child.take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("reaped");
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The shared state of the day: the log of what was acknowledged and the figures.
#[derive(Default)]
struct Log {
    /// (Passe, table) → points (Striche) of team A and B, as acknowledged to whoever entered
    /// it.
    results: HashMap<(u32, u32), (u32, u32)>,
    /// Jassmarathon: (Spielrunde, table) → the Tafel's lines, each as acknowledged.
    tafeln: HashMap<(u32, u32), Vec<Spiel>>,
    latencies: BTreeMap<&'static str, Vec<Duration>>,
    /// When results were acknowledged (for the live delay).
    acks: Vec<Instant>,
    server_errors: usize,
    errors_in_fault: usize,
}

/// A browser (or phone) of the day: own cookies, its form token, retrying through a fault.
/// With two instances its requests alternate between them (the session is in the database,
/// the cookie is the same for both ports).
#[derive(Clone)]
struct Browser {
    http: reqwest::Client,
    bases: Arc<Vec<String>>,
    next: Arc<std::sync::atomic::AtomicUsize>,
    csrf: Arc<Mutex<String>>,
    log: Arc<Mutex<Log>>,
    /// While set a fault is on: errors are retried as a user presses again.
    fault_on: Arc<std::sync::atomic::AtomicBool>,
}

impl Browser {
    fn new(
        bases: &Arc<Vec<String>>,
        log: &Arc<Mutex<Log>>,
        fault_on: &Arc<std::sync::atomic::AtomicBool>,
    ) -> Self {
        Browser {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .redirect(Policy::none())
                .timeout(Duration::from_secs(60))
                .build()
                .expect("client"),
            bases: bases.clone(),
            next: Default::default(),
            csrf: Default::default(),
            log: log.clone(),
            fault_on: fault_on.clone(),
        }
    }

    /// The instance for the next request (round robin).
    fn base(&self) -> String {
        let i = self.next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.bases[i % self.bases.len()].clone()
    }

    /// Sends until the server answers (a user presses again after a connection error, or
    /// after an error page while the fault is on); records the latency of the answer and any
    /// 5xx outside the fault.
    async fn send(
        &self,
        action: &'static str,
        make: impl Fn(&str) -> reqwest::RequestBuilder,
    ) -> reqwest::Response {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let started = Instant::now();
            let fault_at_start = self.fault_on.load(std::sync::atomic::Ordering::SeqCst);
            let sent = make(&self.base()).send().await;
            // A request in flight when the fault began counts as hit by it.
            let fault = fault_at_start || self.fault_on.load(std::sync::atomic::Ordering::SeqCst);
            match sent {
                Ok(r) if r.status().is_server_error() && fault && Instant::now() < deadline => {
                    self.log.lock().unwrap().errors_in_fault += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Ok(r) => {
                    let mut log = self.log.lock().unwrap();
                    log.latencies
                        .entry(action)
                        .or_default()
                        .push(started.elapsed());
                    if r.status().is_server_error() {
                        log.server_errors += 1;
                    }
                    return r;
                }
                Err(_) if Instant::now() < deadline => {
                    self.log.lock().unwrap().errors_in_fault += usize::from(fault);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(e) => panic!("{action}: no answer within a minute: {e}"),
            }
        }
    }

    async fn get(&self, action: &'static str, path: &str) -> (StatusCode, String) {
        let r = self
            .send(action, |base| self.http.get(format!("{base}{path}")))
            .await;
        let status = r.status();
        let body = r.text().await.unwrap_or_default();
        if let Some(token) = attr(
            &scraper::Html::parse_document(&body),
            "input[name=_csrf]",
            "value",
        ) {
            *self.csrf.lock().unwrap() = token;
        }
        (status, body)
    }

    async fn post(&self, action: &'static str, path: &str, form: &[(&str, String)]) -> StatusCode {
        let csrf = self.csrf.lock().unwrap().clone();
        let mut fields: Vec<(&str, String)> = form.to_vec();
        fields.push(("_csrf", csrf));
        self.send(action, |base| {
            self.http.post(format!("{base}{path}")).form(&fields)
        })
        .await
        .status()
    }

    /// Sends a form whose answer never reaches the user (the hall's Wi-Fi lost it): the
    /// server did what it did, the user sees nothing and presses again.
    async fn post_answer_lost(&self, path: &str, form: &[(&str, String)]) {
        let csrf = self.csrf.lock().unwrap().clone();
        let mut fields: Vec<(&str, String)> = form.to_vec();
        fields.push(("_csrf", csrf));
        let _ = self
            .http
            .post(format!("{}{path}", self.base()))
            .form(&fields)
            .send()
            .await;
    }

    async fn login(&self, user: &str, password: &str) {
        let form = [("username", user), ("password", password)];
        let r = self
            .send("login", |base| {
                self.http.post(format!("{base}/login")).form(&form)
            })
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "login {user}");
        self.get("page", "/").await;
    }
}

const PASSWORD: &str = "tag-passwort-2026";

fn add_account(database_url: &str, name: &str, role: &str) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["user", "add", "--role", role, name])
        .env("DATABASE_URL", database_url)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("user add");
    writeln!(child.stdin.take().unwrap(), "{PASSWORD}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs one day against a fresh database; the report says what happened.
pub async fn run_day(config: &DayConfig, database_url: &str) -> DayReport {
    for (name, role) in [
        ("leitung", "leitung"),
        ("buero1", "buero"),
        ("buero2", "buero"),
        ("kontrolle", "kontrolleur"),
    ] {
        add_account(database_url, name, role);
    }
    // The backups go where DAY_BACKUP_DIR says (beside the database on its small disk in the
    // disk-full run), else to a folder of their own.
    let backups = tempfile::tempdir().expect("backup folder");
    let backups_at = std::env::var("DAY_BACKUP_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| backups.path().to_path_buf());
    let _ = std::fs::create_dir_all(&backups_at);
    let mut servers: Vec<Server> = (0..config.instances.max(1))
        .map(|_| Server::start(database_url, free_port(), &backups_at, config))
        .collect();
    let bases: Arc<Vec<String>> = Arc::new(
        servers
            .iter()
            .map(|s| format!("http://127.0.0.1:{}", s.port))
            .collect(),
    );
    let base = bases[0].clone();
    let probe = reqwest::Client::new();
    for b in bases.iter() {
        wait_until_up(&probe, b).await;
    }
    let log: Arc<Mutex<Log>> = Default::default();
    let crashing: Arc<std::sync::atomic::AtomicBool> = Default::default();
    let browser = || Browser::new(&bases, &log, &crashing);
    let mut rng = rand::rngs::StdRng::seed_from_u64(config.seed);

    // The Leitung sets the day up: tournament with double entry, teams, draw, public, table
    // entry on (codes).
    let leitung = browser();
    leitung.login("leitung", PASSWORD).await;
    let tournament: Vec<(&str, String)> = match config.marathon {
        false => vec![
            ("name", "Tag im Saal".into()),
            ("date", "2026-12-12".into()),
            ("location", "Saal".into()),
            ("mode", "partnerschieber".into()),
            ("passen", config.passen.to_string()),
            ("spiele_per_passe", "12".into()),
            // Half of the table's 1'884 (the preset covers 3 and 4 Passen only).
            ("pauschale", "942".into()),
            ("double_entry", "1".into()),
        ],
        true => vec![
            ("name", "Jassmarathon im Saal".into()),
            ("date", "2026-12-12".into()),
            ("location", "Saal".into()),
            ("mode", "jassmarathon".into()),
            ("passen", config.passen.to_string()),
            ("pauschale", "3".into()),
            ("round_minutes", "90".into()),
        ],
    };
    let r = leitung.post("setup", "/tournaments", &tournament).await;
    assert_eq!(r, StatusCode::SEE_OTHER, "create the tournament");
    let id = 1;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=config.teams {
        csv += &format!("{n};Anna{n};Urs{n}\n");
    }
    leitung
        .get("page", &format!("/tournaments/{id}/teams/import"))
        .await;
    let csrf = leitung.csrf.lock().unwrap().clone();
    let part = reqwest::multipart::Part::bytes(csv.into_bytes()).file_name("teams.csv");
    let form = reqwest::multipart::Form::new()
        .text("_csrf", csrf.clone())
        .part("file", part);
    // The import's preview and its confirmation go to the same instance (the upload waits in
    // the database, but one browser tab talks to one address).
    let leitung = Browser {
        bases: Arc::new(vec![base.clone()]),
        ..leitung
    };
    let r = leitung
        .http
        .post(format!("{base}/tournaments/{id}/teams/import"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    let preview = r.text().await.unwrap();
    let confirm_csrf = attr(
        &scraper::Html::parse_document(&preview),
        "input[name=_csrf]",
        "value",
    )
    .unwrap_or(csrf);
    let upload = attr(
        &scraper::Html::parse_document(&preview),
        "input[name=upload]",
        "value",
    )
    .expect("import preview");
    *leitung.csrf.lock().unwrap() = confirm_csrf;
    let r = leitung
        .post(
            "setup",
            &format!("/tournaments/{id}/teams/import/confirm"),
            &[("upload", upload)],
        )
        .await;
    assert_eq!(r, StatusCode::SEE_OTHER);
    leitung.get("page", &format!("/tournaments/{id}")).await;
    for (path, form) in [
        (
            format!("/tournaments/{id}/draw"),
            vec![("mode", "fest".to_string()), ("seed", "42".to_string())],
        ),
        (format!("/tournaments/{id}/publish"), vec![]),
        (
            format!("/tournaments/{id}/tisch"),
            vec![("action", "ein".to_string())],
        ),
    ] {
        let r = leitung.post("setup", &path, &form).await;
        assert_eq!(r, StatusCode::SEE_OTHER, "{path}");
    }
    let (_, page) = leitung
        .get("page", &format!("/tournaments/{id}/tisch"))
        .await;
    let codes: HashMap<u32, String> = {
        let html = scraper::Html::parse_document(&page);
        let rows = select_all(&html, "#codes tbody tr");
        let codes = select_all(&html, "#codes tbody tr code");
        rows.iter()
            .zip(codes)
            .map(|(row, code)| {
                (
                    row.split_whitespace().next().unwrap().parse().unwrap(),
                    code,
                )
            })
            .collect()
    };
    // The schedule, as the driver's own: (Passe, table) → (Startnummer A, Startnummer B).
    let schedule: BTreeMap<(u32, u32), (u32, u32)> = {
        let pool = jassturnier::db::connect(database_url, 1).expect("database");
        let mut conn = pool.get().expect("connection");
        let data = jassturnier::db::tournament_data::load(
            &mut conn,
            jassturnier::domain::ids::TournamentId(id),
        )
        .expect("tournament");
        (1..=config.passen)
            .flat_map(|p| {
                data.tables(p)
                    .iter()
                    .map(|t| {
                        (
                            (p, t.number),
                            (t.team_a.startnummer.get(), t.team_b.startnummer.get()),
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    assert!(!schedule.is_empty(), "the draw is readable");

    let clerks = [browser(), browser()];
    clerks[0].login("buero1", PASSWORD).await;
    clerks[1].login("buero2", PASSWORD).await;
    let kontrolle = browser();
    kontrolle.login("kontrolle", PASSWORD).await;

    // Viewers on the live page: one SSE stream each, reconnecting after a drop.
    let events: Arc<Mutex<Vec<Instant>>> = Default::default();
    // Per viewer the version of the last event it got.
    let lasts: Arc<Mutex<Vec<i32>>> = Arc::new(Mutex::new(vec![0; config.viewers]));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut watchers = Vec::new();
    for v in 0..config.viewers {
        let (events, stop, lasts) = (events.clone(), stop.clone(), lasts.clone());
        let base = bases[v % bases.len()].clone();
        watchers.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut last: Option<String> = None;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let mut req = http.get(format!("{base}/tournaments/{id}/live/events"));
                if let Some(last) = &last {
                    req = req.header("Last-Event-ID", last.clone());
                }
                let Ok(mut r) = req.send().await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                loop {
                    let chunk = tokio::time::timeout(Duration::from_millis(500), r.chunk()).await;
                    match chunk {
                        Ok(Ok(Some(bytes))) => {
                            let text = String::from_utf8_lossy(&bytes);
                            for line in text.lines() {
                                if let Some(version) = line.strip_prefix("id: ") {
                                    last = Some(version.to_string());
                                    events.lock().unwrap().push(Instant::now());
                                    if let Ok(n) = version.trim().parse() {
                                        lasts.lock().unwrap()[v] = n;
                                    }
                                }
                            }
                        }
                        Ok(_) => break,
                        Err(_) if stop.load(std::sync::atomic::Ordering::SeqCst) => break,
                        Err(_) => {}
                    }
                }
            }
        }));
    }
    // Public team pages, each reloaded every 30 s of day time (a player's phone).
    // (At least 100 ms apart: the suite's short day is compressed too far for more.)
    let reload = Duration::from_secs_f64(30.0 / config.speed).max(Duration::from_millis(100));
    for n in 0..config.pollers {
        let (stop, poller) = (stop.clone(), browser());
        let startnummer = 1 + (n as u32 % config.teams);
        watchers.push(tokio::spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                poller
                    .get(
                        "team page",
                        &format!("/tournaments/{id}/team/{startnummer}"),
                    )
                    .await;
                tokio::time::sleep(reload).await;
            }
        }));
    }

    let mut back_after_kill = None;
    let mut disk_filled = 0u64;
    for passe in 1..=config.passen {
        if passe > 1 {
            let r = leitung
                .post(
                    "setup",
                    &format!("/tournaments/{id}/tisch"),
                    &[("action", "oeffnen".into()), ("passe", passe.to_string())],
                )
                .await;
            assert_eq!(r, StatusCode::SEE_OTHER);
        }
        let tables: Vec<(u32, u32, u32)> = schedule
            .iter()
            .filter(|((p, _), _)| *p == passe)
            .map(|((_, t), (a, b))| (*t, *a, *b))
            .collect();
        let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let mut work = Vec::new();
        let half = match config.marathon {
            true => {
                // The Leitung starts the Spielrunde's clock; the phones keep the Tafeln.
                let r = leitung
                    .post(
                        "setup",
                        &format!("/tournaments/{id}/passen/{passe}/clock"),
                        &[("action", "start".into())],
                    )
                    .await;
                assert_eq!(r, StatusCode::SEE_OTHER);
                for (table, a, b) in tables.iter().copied() {
                    let tafel = Tafel {
                        id,
                        passe,
                        table,
                        teams: (a, b),
                        codes: (codes[&a].clone(), codes[&b].clone()),
                        lines: tafel_lines(&mut rng, config.tafel_lines),
                        resent: (0..config.tafel_lines)
                            .map(|_| rng.random_range(0..100) < config.typo_percent)
                            .collect(),
                        dispute: rng.random_range(0..100) < config.dispute_percent,
                        // Each Spiel takes its own time: between half and one and a half of
                        // the average.
                        pauses: (0..config.tafel_lines)
                            .map(|_| config.line_pause().mul_f64(rng.random_range(0.5..1.5)))
                            .collect(),
                    };
                    let phones = (browser(), browser(), leitung.clone());
                    let (log, done) = (log.clone(), done.clone());
                    work.push(tokio::spawn(keep_tafel(tafel, phones, log, done)));
                }
                tables.len() * config.tafel_lines as usize / 2
            }
            false => tables.len(),
        };
        let points: HashMap<u32, u32> = tables
            .iter()
            .map(|(t, _, _)| (*t, rng.random_range(400..=1484)))
            .collect();
        // (The Jassmarathon's Tafeln are all on phones, above.)
        let phoned = |t: u32| config.phone_every > 0 && t.is_multiple_of(config.phone_every);
        let by_phone: Vec<(u32, u32, u32)> = tables
            .iter()
            .copied()
            .filter(|(t, _, _)| phoned(*t))
            .collect();
        let typed: Vec<u32> = tables
            .iter()
            .filter(|(t, _, _)| !phoned(*t) && !config.marathon)
            .map(|(t, _, _)| *t)
            .collect();
        let by_phone: Vec<(u32, u32, u32)> = match config.marathon {
            true => Vec::new(),
            false => by_phone,
        };
        let typos: Vec<bool> = typed
            .iter()
            .map(|_| rng.random_range(0..100) < config.typo_percent)
            .collect();
        let disputes: HashMap<u32, bool> = by_phone
            .iter()
            .map(|(t, _, _)| (*t, rng.random_range(0..100) < config.dispute_percent))
            .collect();
        // Two clerks type every table not reported by phone, blind: the first ascending, the
        // second descending (so that both have typed half when they cross).
        for (k, clerk) in clerks.iter().enumerate() {
            let mut order = typed.clone();
            if k == 1 {
                order.reverse();
            }
            let (clerk, points, done, typos, typed) = (
                clerk.clone(),
                points.clone(),
                done.clone(),
                typos.clone(),
                typed.clone(),
            );
            let pause = config.clerk_pause();
            let log = log.clone();
            work.push(tokio::spawn(async move {
                let path = format!("/tournaments/{id}/passen/{passe}/entry");
                clerk.get("entry page", &path).await;
                for table in order {
                    tokio::time::sleep(pause).await;
                    let at = typed.iter().position(|t| *t == table).unwrap_or(0);
                    if typos[at] && k == 0 {
                        // A typo the form refuses (more than 1'884): typed again.
                        let r = clerk
                            .post(
                                "office entry",
                                &path,
                                &[("table", table.to_string()), ("points_a", "1999".into())],
                            )
                            .await;
                        assert_eq!(r, StatusCode::UNPROCESSABLE_ENTITY);
                    }
                    let p = points[&table];
                    let r = clerk
                        .post(
                            "office entry",
                            &path,
                            &[("table", table.to_string()), ("points_a", p.to_string())],
                        )
                        .await;
                    // 303: saved (first or second entry); 409: the table was stored
                    // before a retry after a connection error — the end checks it.
                    assert!(
                        r == StatusCode::SEE_OTHER || r == StatusCode::CONFLICT,
                        "table {table}: {r}"
                    );
                    if typos[at] && k == 1 {
                        // «Speichern» pressed twice: the same entry again changes nothing.
                        let again = clerk
                            .post(
                                "office entry",
                                &path,
                                &[("table", table.to_string()), ("points_a", p.to_string())],
                            )
                            .await;
                        assert!(
                            again == StatusCode::SEE_OTHER || again == StatusCode::CONFLICT,
                            "table {table} again: {again}"
                        );
                    }
                    let mut log = log.lock().unwrap();
                    if k == 1 || log.results.contains_key(&(passe, table)) {
                        log.acks.push(Instant::now());
                    }
                    // The second entry makes it count; the driver notes it once.
                    if let std::collections::hash_map::Entry::Vacant(e) =
                        log.results.entry((passe, table))
                    {
                        e.insert((p, 1884 - p));
                    }
                    done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            }));
        }
        // Phones: team A's phone reports, team B's confirms (or disputes; the office takes
        // the report) — each when its table has finished: spread over the time the clerks
        // take for the paper ones, as tables finish one after the other in a hall.
        let entry_window = config.clerk_pause() * (typed.len() as u32).div_ceil(2).max(1);
        for (table, a, b) in by_phone {
            let finished = entry_window.mul_f64(rng.random_range(0.0..1.0));
            let (pa, pb) = (browser(), browser());
            let (code_a, code_b) = (codes[&a].clone(), codes[&b].clone());
            let p = points[&table];
            let dispute = disputes[&table];
            let (log, done, leitung) = (log.clone(), done.clone(), leitung.clone());
            work.push(tokio::spawn(async move {
                tokio::time::sleep(finished).await;
                for (phone, nr, code) in [(&pa, a, &code_a), (&pb, b, &code_b)] {
                    let path = format!("/tournaments/{id}/team/{nr}/tisch");
                    let form = [("code", code.clone())];
                    let r = phone
                        .send("phone code", |base| {
                            phone.http.post(format!("{base}{path}/code")).form(&form)
                        })
                        .await;
                    assert_eq!(r.status(), StatusCode::SEE_OTHER);
                    phone.get("phone page", &path).await;
                }
                let tisch = |nr: u32| format!("/tournaments/{id}/team/{nr}/tisch");
                let r = pa
                    .post(
                        "phone report",
                        &format!("{}/melden", tisch(a)),
                        &[("points", p.to_string())],
                    )
                    .await;
                assert!(
                    r == StatusCode::SEE_OTHER || r.is_client_error(),
                    "report {r}"
                );
                let (_, page) = pb.get("phone page", &tisch(b)).await;
                let seen = attr(
                    &scraper::Html::parse_document(&page),
                    "input[name=seen]",
                    "value",
                );
                if let Some(seen) = seen {
                    if dispute {
                        pb.post(
                            "phone dispute",
                            &format!("{}/widersprechen", tisch(b)),
                            &[
                                ("seen", seen.clone()),
                                ("points", (1884 - p + 10).to_string()),
                                ("note", "zehn Punkte mehr".into()),
                            ],
                        )
                        .await;
                        let r = leitung
                            .post(
                                "office decision",
                                &format!(
                                    "/tournaments/{id}/passen/{passe}/tables/{table}/entscheiden"
                                ),
                                &[
                                    ("seen", (seen.parse::<i32>().unwrap_or(1) + 1).to_string()),
                                    ("version", "gemeldet".into()),
                                ],
                            )
                            .await;
                        assert!(
                            r == StatusCode::SEE_OTHER || r.is_client_error(),
                            "decide {r}"
                        );
                    } else {
                        let r = pb
                            .post(
                                "phone confirm",
                                &format!("{}/bestaetigen", tisch(b)),
                                &[("seen", seen)],
                            )
                            .await;
                        assert!(
                            r == StatusCode::SEE_OTHER || r.is_client_error(),
                            "confirm {r}"
                        );
                    }
                }
                let mut log = log.lock().unwrap();
                log.results.insert((passe, table), (p, 1884 - p));
                log.acks.push(Instant::now());
                done.fetch_add(2, std::sync::atomic::Ordering::SeqCst);
            }));
        }
        // The fault: when about half of the Passe's work is done.
        if let Some((_, fault)) = config.fault.as_ref().filter(|(p, _)| *p == passe) {
            while done.load(std::sync::atomic::Ordering::SeqCst) < half {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            crashing.store(true, std::sync::atomic::Ordering::SeqCst);
            match fault {
                Fault::Kill => {
                    for s in servers.iter_mut() {
                        s.kill();
                    }
                    let restarted = Instant::now();
                    for s in servers.iter_mut() {
                        s.spawn();
                    }
                    for b in bases.iter() {
                        wait_until_up(&probe, b).await;
                    }
                    back_after_kill = Some(restarted.elapsed());
                }
                Fault::KillOne => {
                    servers[0].kill();
                    // The other instance serves alone for a while.
                    tokio::time::sleep(Duration::from_secs(2)).await;
                    let restarted = Instant::now();
                    servers[0].spawn();
                    wait_until_up(&probe, &bases[0]).await;
                    back_after_kill = Some(restarted.elapsed());
                }
                Fault::KillOneAndDrop(admin) => {
                    servers[0].kill();
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    drop_connections(admin, database_url);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    let restarted = Instant::now();
                    servers[0].spawn();
                    wait_until_up(&probe, &bases[0]).await;
                    back_after_kill = Some(restarted.elapsed());
                }
                Fault::DropConnections(admin) => {
                    drop_connections(admin, database_url);
                    // The requests in flight at that moment may fail (their transaction is
                    // gone); the clients press again. Later ones must not.
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
                Fault::DiskFull(dir) => {
                    let ballast = dir.join("ballast");
                    fill(&ballast);
                    disk_filled = std::fs::metadata(&ballast).map_or(0, |m| m.len());
                    tokio::time::sleep(Duration::from_secs(3)).await;
                    let _ = std::fs::remove_file(&ballast);
                }
            }
            crashing.store(false, std::sync::atomic::Ordering::SeqCst);
        }
        for w in work {
            w.await.expect("actor");
        }
        if config.marathon {
            let r = leitung
                .post(
                    "setup",
                    &format!("/tournaments/{id}/passen/{passe}/clock"),
                    &[("action", "end".into())],
                )
                .await;
            assert_eq!(r, StatusCode::SEE_OTHER);
        }
        // The Standblätter printed between the Passen.
        let (status, _) = leitung
            .get(
                "standblaetter pdf",
                &format!("/tournaments/{id}/standblaetter.pdf"),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        // The Kontrolleur visas the Passe.
        let path = format!("/tournaments/{id}/passen/{passe}/visa-all");
        let (_, page) = kontrolle.get("visa page", &path).await;
        let listed = attr(
            &scraper::Html::parse_document(&page),
            "input[name=tables]",
            "value",
        )
        .unwrap_or_default();
        let r = kontrolle
            .post("visa all", &path, &[("tables", listed)])
            .await;
        assert_eq!(r, StatusCode::SEE_OTHER);
    }
    let _ = base;
    // Final visas, then the Rangliste is official.
    let ids = team_ids(&leitung, id).await;
    for team in ids {
        let r = kontrolle
            .post(
                "final visa",
                &format!("/tournaments/{id}/teams/{team}/final-visa"),
                &[],
            )
            .await;
        assert_eq!(r, StatusCode::SEE_OTHER);
    }
    let r = leitung
        .post("setup", &format!("/tournaments/{id}/close"), &[])
        .await;
    assert_eq!(r, StatusCode::SEE_OTHER);
    // The viewers converge: each gets the final version within a few seconds.
    let version = {
        let pool = jassturnier::db::connect(database_url, 1).expect("database");
        let mut conn = pool.get().expect("connection");
        jassturnier::db::tournaments::get(&mut conn, jassturnier::domain::ids::TournamentId(id))
            .expect("tournament")
            .version
    };
    let behind = || {
        lasts
            .lock()
            .unwrap()
            .iter()
            .filter(|v| **v < version)
            .count()
    };
    let waited = Instant::now();
    while behind() > 0 && waited.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let viewers_behind = behind();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for w in watchers {
        let _ = w.await;
    }

    // What is stored, against the log.
    let (_, ranking) = leitung
        .get("ranking json", &format!("/tournaments/{id}/ranking.json"))
        .await;
    let ranking: serde_json::Value = serde_json::from_str(&ranking).expect("ranking json");
    let log = log.lock().unwrap();
    let pool = jassturnier::db::connect(database_url, 1).expect("database");
    let mut conn = pool.get().expect("connection");
    let data = jassturnier::db::tournament_data::load(
        &mut conn,
        jassturnier::domain::ids::TournamentId(id),
    )
    .expect("tournament");
    for s in servers.iter_mut() {
        s.kill();
    }
    let written: Vec<u64> = std::fs::read_dir(&backups_at)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .collect()
        })
        .unwrap_or_default();
    let mut report = DayReport {
        acknowledged: log.results.len(),
        server_errors: log.server_errors,
        errors_in_fault: log.errors_in_fault,
        latencies: log.latencies.clone(),
        back_after_kill,
        rss_kb: servers.iter().map(|s| s.rss_kb).collect(),
        cpu_seconds: servers.iter().map(|s| s.cpu_seconds).collect(),
        backups: (written.len(), written.iter().copied().max().unwrap_or(0)),
        viewers_behind,
        disk_filled,
        ..Default::default()
    };
    let mut stored: HashMap<(u32, u32), Vec<(u32, u32)>> = HashMap::new();
    for r in &data.results {
        stored
            .entry((r.passe.get(), r.table_no.get()))
            .or_default()
            .push((r.points_a.get(), r.points_b.get()));
    }
    for (key, points) in &log.results {
        match stored.get(key).map(Vec::as_slice) {
            Some([p]) if p == points => {}
            Some([_]) | None => report.lost += 1,
            Some(_) => report.duplicated += 1,
        }
    }
    // Jassmarathon: every Tafel holds the lines acknowledged to its phone, each once.
    for ((passe, table), lines) in &log.tafeln {
        let (kept, gong) = jassturnier::db::marathon::tafel(
            &mut conn,
            jassturnier::domain::ids::TournamentId(id),
            *passe,
            *table,
        )
        .expect("Tafel");
        report.tafel_lines += lines.len();
        if kept.len() > lines.len() {
            report.duplicated += 1;
        } else if kept != *lines || !gong {
            report.lost += 1;
        }
    }
    // Every result visaed (the Kontrolleur's bulk visa per Passe), every team its final visa.
    report.without_visa = data.results.iter().filter(|r| !r.visaed()).count()
        + data
            .teams
            .iter()
            .filter(|t| t.final_visa_at.is_none())
            .count();
    report.unacknowledged_visible = stored
        .keys()
        .filter(|k| !log.results.contains_key(k))
        .count();
    // The independent Rangliste: per team its Passen's points, total first, then the best
    // Passe, the second best, …
    let mut per_team: HashMap<u32, Vec<u32>> = HashMap::new();
    for ((passe, table), (a, b)) in &schedule {
        if let Some((points_a, points_b)) = log.results.get(&(*passe, *table)) {
            per_team.entry(*a).or_default().push(*points_a);
            per_team.entry(*b).or_default().push(*points_b);
        }
    }
    // Per team: its total and its Passen best first; its rank is one more than the teams
    // ahead of it (equal teams share a rank).
    let standing: Vec<(u32, (u32, Vec<u32>))> = per_team
        .into_iter()
        .map(|(nr, mut passen)| {
            passen.sort_unstable_by(|x, y| y.cmp(x));
            (nr, (passen.iter().sum(), passen))
        })
        .collect();
    let expected: HashMap<u32, (u64, u64)> = standing
        .iter()
        .map(|(nr, key)| {
            let ahead = standing.iter().filter(|(_, other)| other > key).count();
            (*nr, (ahead as u64 + 1, u64::from(key.0)))
        })
        .collect();
    let shown: HashMap<u32, (u64, u64)> = ranking["teams"]
        .as_array()
        .expect("teams")
        .iter()
        .filter(|t| t["rank"].is_u64())
        .map(|t| {
            (
                t["startnummer"].as_u64().unwrap() as u32,
                (t["rank"].as_u64().unwrap(), t["total"].as_u64().unwrap()),
            )
        })
        .collect();
    report.ranking_differences = expected
        .iter()
        .filter(|(nr, e)| shown.get(nr) != Some(e))
        .count()
        + expected.len().abs_diff(shown.len());
    // Live delay: from each acknowledged save to the next event a viewer received.
    let mut seen = events.lock().unwrap().clone();
    seen.sort_unstable();
    report.events_seen = seen.len();
    for ack in &log.acks {
        let next = seen.partition_point(|e| e < ack);
        if let Some(e) = seen.get(next) {
            report.live_delays.push(e.duration_since(*ack));
        }
    }
    report
}

/// One Tafel of the Jassmarathon as its table keeps it.
struct Tafel {
    id: i32,
    passe: u32,
    table: u32,
    /// Startnummern of team A (its phone writes the Tafel) and team B (confirms it).
    teams: (u32, u32),
    codes: (String, String),
    lines: Vec<Spiel>,
    /// Per line: its answer is lost on the hall's Wi-Fi and the phone sends it again.
    resent: Vec<bool>,
    /// The opponents dispute the Tafel at the gong (the office decides for it).
    dispute: bool,
    /// Before each line: the time its Spiel takes.
    pauses: Vec<Duration>,
}

/// Team A's phone writes the Tafel line by line through the Spielrunde and closes it at the
/// gong; team B's phone confirms it (or disputes it, and the office decides).
async fn keep_tafel(
    t: Tafel,
    (schreiber, opponents, leitung): (Browser, Browser, Browser),
    log: Arc<Mutex<Log>>,
    done: Arc<std::sync::atomic::AtomicUsize>,
) {
    let Tafel {
        id, passe, table, ..
    } = t;
    let (a, b) = t.teams;
    let tisch = |nr: u32| format!("/tournaments/{id}/team/{nr}/tisch");
    for (phone, nr, code) in [(&schreiber, a, &t.codes.0), (&opponents, b, &t.codes.1)] {
        let form = [("code", code.clone())];
        let r = phone
            .send("phone code", |base| {
                phone
                    .http
                    .post(format!("{base}{}/code", tisch(nr)))
                    .form(&form)
            })
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
        phone.get("phone page", &tisch(nr)).await;
    }
    let path = format!("{}/tafel", tisch(a));
    for (n, spiel) in t.lines.iter().enumerate() {
        tokio::time::sleep(t.pauses[n]).await;
        let typed = SpielForm::of(spiel);
        let form: Vec<(&str, String)> = vec![
            ("action", "add".into()),
            // The line the phone's page offers to write (its form says which).
            ("number", (n + 1).to_string()),
            ("trump", typed.trump),
            ("cards_a", typed.cards_a),
            ("match_side", typed.match_side),
            ("weis_a", typed.weis_a),
            ("weis_b", typed.weis_b),
            ("stoeck", typed.stoeck),
            ("first", typed.first),
        ];
        if t.resent[n] {
            schreiber.post_answer_lost(&path, &form).await;
        }
        let r = schreiber.post("tafel line", &path, &form).await;
        assert_eq!(
            r,
            StatusCode::SEE_OTHER,
            "Spielrunde {passe}, Tisch {table}, Spiel {}",
            n + 1
        );
        log.lock()
            .unwrap()
            .tafeln
            .entry((passe, table))
            .or_default()
            .push(*spiel);
        done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
    let r = schreiber
        .post("tafel gong", &path, &[("action", "gong".into())])
        .await;
    assert_eq!(r, StatusCode::SEE_OTHER, "gong at table {table}");
    let (_, page) = opponents.get("phone page", &tisch(b)).await;
    let seen = attr(
        &scraper::Html::parse_document(&page),
        "input[name=seen]",
        "value",
    )
    .expect("the opponents see the closed Tafel");
    let r = match t.dispute {
        false => {
            opponents
                .post(
                    "phone confirm",
                    &format!("{}/bestaetigen", tisch(b)),
                    &[("seen", seen)],
                )
                .await
        }
        true => {
            let r = opponents
                .post(
                    "phone dispute",
                    &format!("{}/widersprechen", tisch(b)),
                    &[("seen", seen.clone()), ("note", "Weis fehlt".into())],
                )
                .await;
            assert_eq!(r, StatusCode::SEE_OTHER, "dispute at table {table}");
            leitung
                .post(
                    "office decision",
                    &format!("/tournaments/{id}/passen/{passe}/tables/{table}/entscheiden"),
                    &[
                        ("seen", (seen.parse::<i32>().unwrap_or(1) + 1).to_string()),
                        ("version", "gemeldet".into()),
                    ],
                )
                .await
        }
    };
    // 422/409: already answered before a retry after a lost connection — the end checks.
    assert!(
        r == StatusCode::SEE_OTHER || r.is_client_error(),
        "table {table}: {r}"
    );
    let striche = compute(&Rules::jassmarathon(), &t.lines, true).expect("a Tafel that closes");
    let mut log = log.lock().unwrap();
    log.results
        .insert((passe, table), (striche.a.total(), striche.b.total()));
    log.acks.push(Instant::now());
}

/// A Tafel of `n` Spiele as a table plays it: random trumps and card points, now and then
/// a Match or a Weis; where both teams reach the mark in the same Spiel, who was first.
fn tafel_lines(rng: &mut rand::rngs::StdRng, n: u32) -> Vec<Spiel> {
    let rules = Rules::jassmarathon();
    let mut lines: Vec<Spiel> = Vec::new();
    while lines.len() < n as usize {
        let mut form = SpielForm {
            trump: Trump::ALL[rng.random_range(0..6)].as_str().into(),
            ..Default::default()
        };
        match rng.random_range(0..100) {
            0..3 => form.match_side = "a".into(),
            3..6 => form.match_side = "b".into(),
            _ => form.cards_a = rng.random_range(0..=157u32).to_string(),
        }
        if rng.random_range(0..10) == 0 {
            form.weis_a = ["20", "50", "100"][rng.random_range(0..3)].into();
        }
        let fits = ["", "a", "b"].into_iter().find_map(|first| {
            form.first = first.into();
            let spiel = form.spiel(&rules, false).ok()?;
            let mut tried = lines.clone();
            tried.push(spiel);
            compute(&rules, &tried, true).ok().map(|_| spiel)
        });
        if let Some(spiel) = fits {
            lines.push(spiel);
        }
    }
    lines
}

/// PostgreSQL: terminates every connection to the app's database but the admin's own.
fn drop_connections(admin: &str, database_url: &str) {
    use diesel::Connection;
    use diesel::RunQueryDsl;
    let database = database_url
        .rsplit('/')
        .next()
        .and_then(|d| d.split('?').next())
        .unwrap_or("");
    let mut conn = diesel::PgConnection::establish(admin).expect("admin connection");
    diesel::sql_query(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = '{database}' AND pid <> pg_backend_pid()"
    ))
    .execute(&mut conn)
    .expect("terminate");
}

/// Fills the filesystem of `ballast` up to the last block.
fn fill(ballast: &std::path::Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(ballast).expect("ballast");
    let block = vec![0u8; 1 << 16];
    while file.write_all(&block).is_ok() {}
    let small = [0u8; 512];
    while file.write_all(&small).is_ok() {}
    let _ = file.sync_all();
}

/// The teams' ids, from the teams list.
async fn team_ids(leitung: &Browser, id: i32) -> Vec<i32> {
    let (_, page) = leitung
        .get("page", &format!("/tournaments/{id}/teams"))
        .await;
    let html = scraper::Html::parse_document(&page);
    let selector = scraper::Selector::parse("a[href]").unwrap();
    let prefix = format!("/tournaments/{id}/teams/");
    let mut ids: Vec<i32> = html
        .select(&selector)
        .filter_map(|a| a.value().attr("href"))
        .filter_map(|h| h.strip_prefix(&prefix))
        .filter_map(|rest| rest.parse().ok())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The reduced day of the suite: nothing acknowledged lost, nothing duplicated, nothing
/// unacknowledged visible, the Rangliste as the log computes it, no 5xx outside the crash,
/// the live viewers converged (they saw events after the restart).
#[tokio::test]
async fn a_reduced_day_with_a_kill_loses_nothing_and_converges() {
    let dir = tempfile::tempdir().unwrap();
    let url = test_database(dir.path());
    let report = run_day(&DayConfig::reduced(), &url).await;
    report.assert_held();
    assert!(report.acknowledged > 0);
}

impl DayReport {
    /// What every day must show: nothing acknowledged lost or written twice, nothing
    /// unacknowledged visible, every visa stored, the Rangliste as the log computes it, no 5xx
    /// outside the fault, the server back after the kill, every viewer converged (it saw the
    /// events after the restart) without a reload.
    fn assert_held(&self) {
        self.print();
        assert_eq!(self.lost, 0, "lost");
        assert_eq!(self.duplicated, 0, "duplicated");
        assert_eq!(self.unacknowledged_visible, 0, "unacknowledged visible");
        assert_eq!(self.without_visa, 0, "every visa stored");
        assert_eq!(self.ranking_differences, 0, "Rangliste");
        assert_eq!(self.server_errors, 0, "5xx outside the crash");
        assert!(
            self.back_after_kill.is_some(),
            "served again after the kill"
        );
        assert!(self.events_seen > 0, "the viewers got events");
        assert_eq!(
            self.viewers_behind, 0,
            "every viewer converged without a reload"
        );
    }
}

/// The Jassmarathon of the suite: every Tafel kept on a phone line by line — some answers
/// lost on the Wi-Fi and the line sent again — the server killed in the second Spielrunde;
/// every Tafel holds each acknowledged line once, the Striche and the Rangliste as the log
/// computes them.
#[tokio::test]
async fn a_reduced_jassmarathon_keeps_every_tafel_line_once() {
    let dir = tempfile::tempdir().unwrap();
    let url = test_database(dir.path());
    let report = run_day(&DayConfig::reduced_marathon(), &url).await;
    report.assert_held();
    assert!(report.tafel_lines > 0);
}

/// The full day of the benchmark (`bash bench/day.sh`), not part of the suite. Its clients
/// run on two threads, so that 500 viewers' events do not hold up the clerks' clocks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn full_day() {
    let dir = tempfile::tempdir().unwrap();
    let url = match std::env::var("DAY_DATABASE_URL") {
        Ok(url) => url,
        Err(_) => test_database(dir.path()),
    };
    let config = DayConfig::full();
    println!("{config:?}");
    let started = Instant::now();
    let report = run_day(&config, &url).await;
    println!("day simulated in {:.1} s", started.elapsed().as_secs_f64());
    report.print();
    assert_eq!(
        (report.lost, report.duplicated, report.without_visa),
        (0, 0, 0)
    );
}
