use jassturnier::config::Settings;
use jassturnier::db::tournament_data::TournamentData;
use jassturnier::db::{self, Pool};
use reqwest::redirect::Policy;
use reqwest::{Response, StatusCode};
use scraper::{Html, Selector};
use std::path::PathBuf;

pub const LEITUNG: (&str, &str) = ("leitung", "leitung-passwort");
pub const BUERO: (&str, &str) = ("buero", "buero-passwort");
pub const KONTROLLEUR: (&str, &str) = ("kontrolle", "kontrolle-passwort");

pub struct TestApp {
    pub address: String,
    pub setup_code: String,
    /// The SQLite file (unused on PostgreSQL).
    pub db_path: PathBuf,
    /// What the app was started with: the file, or the PostgreSQL URL with its schema.
    pub database_url: String,
    pub pool: Pool,
    pub dir: tempfile::TempDir,
    pub live: std::sync::Arc<jassturnier::web::live::hub::LiveHub>,
    /// Finished automatic backup checks (see `startup::Application`).
    pub backup_checks: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl TestApp {
    /// Waits until `n` automatic backup checks have finished (at most 30 s).
    pub async fn backup_checks_reach(&self, n: u64) {
        for _ in 0..3000 {
            if self.backup_checks.load(std::sync::atomic::Ordering::SeqCst) >= n {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("{n} backup checks did not finish within 30 s");
    }

    pub fn backup_checks(&self) -> u64 {
        self.backup_checks.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// One logged-in (or anonymous) browser: its own cookies and CSRF token.
pub struct Client {
    pub http: reqwest::Client,
    pub address: String,
    pub csrf: String,
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// The PostgreSQL server the suite runs on when `JASSTURNIER_TEST_POSTGRES` names one
/// (`postgres://root@127.0.0.1:5432/test`); otherwise every test has its own SQLite file.
pub fn test_postgres() -> Option<String> {
    std::env::var("JASSTURNIER_TEST_POSTGRES")
        .ok()
        .filter(|url| !url.trim().is_empty())
}

/// A database of its own for one test: an SQLite file in `dir`, or a fresh schema on the
/// test PostgreSQL server (the URL sets it as the connections' search path).
pub fn test_database(dir: &std::path::Path) -> String {
    use diesel::Connection;
    use diesel::connection::SimpleConnection;
    let Some(server) = test_postgres() else {
        return dir.join("test.sqlite3").display().to_string();
    };
    let schema = format!(
        "t_{}",
        jassturnier::db::users::random_token()[..16].to_lowercase()
    );
    let mut conn = diesel::PgConnection::establish(&server)
        .unwrap_or_else(|e| panic!("JASSTURNIER_TEST_POSTGRES={server}: {e}"));
    conn.batch_execute(&format!("CREATE SCHEMA {schema}"))
        .expect("create schema");
    let separator = if server.contains('?') { '&' } else { '?' };
    format!("{server}{separator}options=-csearch_path%3D{schema}")
}

/// Says that a test did not run, straight to the terminal (the harness captures
/// `eprintln!` of passing tests), and counts it for the last line of the run: the harness
/// counts such a test as passed, so its summary alone would hide it.
pub fn say_not_run(message: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{message}");
    let mut not_run = NOT_RUN.lock().unwrap_or_else(|e| e.into_inner());
    if not_run.is_empty() {
        // After the harness's summary: it ends the process with `exit`, which runs this.
        // SAFETY: `say_how_many_did_not_run` is a plain `extern "C"` function without
        // arguments that never unwinds (it only formats and writes to stderr).
        unsafe {
            libc::atexit(say_how_many_did_not_run);
        }
    }
    not_run.push(message.trim().to_string());
}

static NOT_RUN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

extern "C" fn say_how_many_did_not_run() {
    use std::io::Write;
    let not_run = NOT_RUN.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(
        std::io::stderr(),
        "\nNOT RUN: {} test(s) above counted as passed without running (see the lines \
         with NOT RUN; the README says what they need)",
        not_run.len()
    );
}

/// For a test of the SQLite file itself: on PostgreSQL it says so and is skipped.
pub fn sqlite_file_test(name: &str) -> bool {
    if on_postgres() {
        say_not_run(&format!(
            "{name}: tests the SQLite file, NOT RUN on PostgreSQL"
        ));
        return false;
    }
    true
}

/// Whether this run is on PostgreSQL: tests of the SQLite file itself (backups by file,
/// a replaced or damaged file) do not apply there.
pub fn on_postgres() -> bool {
    test_postgres().is_some()
}

/// The app on a temporary database, with settings adjusted by `adjust`.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("test.sqlite3");
    let mut settings = Settings {
        bind: "127.0.0.1:0".into(),
        database_url: test_database(dir.path()),
        workers: 2,
        worker_nice: jassturnier::web::threads::WORKER_NICE,
        public_url: None,
        backup_dir: Some(dir.path().join("backups")),
        backup_interval: std::time::Duration::ZERO,
        setup_from_loopback: true,
        live_poll: std::time::Duration::from_secs(1),
        pg_listen: true,
        phone_window: Default::default(),
    };
    adjust(&mut settings);
    let database_url = settings.database_url.clone();
    let app = jassturnier::startup::build(&settings).expect("app starts");
    let address = format!("http://127.0.0.1:{}", app.port);
    tokio::spawn(app.server);
    TestApp {
        address,
        setup_code: app.setup_code.clone(),
        db_path,
        database_url,
        pool: app.pool,
        dir,
        live: app.live,
        backup_checks: app.backup_checks,
    }
}

/// Everything stored about a tournament, read straight from the database.
pub fn tournament_data(pool: &Pool, id: i32) -> TournamentData {
    let mut conn = pool.get().unwrap();
    jassturnier::db::tournament_data::load(&mut conn, jassturnier::domain::ids::TournamentId(id))
        .unwrap()
}

impl TestApp {
    /// How much the database holds on disk: the SQLite file, or this test's schema on
    /// PostgreSQL (for checks that refused input was not stored).
    pub fn stored_bytes(&self) -> u64 {
        use diesel::RunQueryDsl;
        if !on_postgres() {
            return std::fs::metadata(&self.db_path).unwrap().len();
        }
        #[derive(diesel::QueryableByName)]
        struct Size {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            bytes: i64,
        }
        let mut conn = self.pool.get().unwrap();
        let size: Size = diesel::sql_query(
            "SELECT CAST(COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS BIGINT) AS bytes \
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = current_schema()",
        )
        .get_result(&mut *conn)
        .unwrap();
        u64::try_from(size.bytes).unwrap()
    }

    pub fn data(&self, id: i32) -> TournamentData {
        tournament_data(&self.pool, id)
    }

    /// How many tournaments the database holds.
    pub fn data_count_tournaments(&self) -> i64 {
        use diesel::prelude::*;
        let mut conn = self.pool.get().expect("connection");
        jassturnier::db::schema::tournaments::table
            .count()
            .get_result(&mut conn)
            .expect("count")
    }

    pub fn client(&self) -> Client {
        Client {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .redirect(Policy::none())
                .build()
                .expect("client"),
            address: self.address.clone(),
            csrf: String::new(),
        }
    }

    /// A client whose requests come from another loopback address (127.0.0.2 …): another
    /// device on the hall's network, as far as throttling by address goes.
    pub fn client_at(&self, ip: &str) -> Client {
        Client {
            http: reqwest::Client::builder()
                .cookie_store(true)
                .redirect(Policy::none())
                .local_address(ip.parse::<std::net::IpAddr>().expect("address"))
                .build()
                .expect("client"),
            address: self.address.clone(),
            csrf: String::new(),
        }
    }

    pub fn dump(&self) -> String {
        let mut conn = self.pool.get().expect("conn");
        db::dump::dump(&mut conn).expect("dump")
    }

    pub fn audit_actions(&self) -> Vec<String> {
        let mut conn = self.pool.get().expect("conn");
        let mut rows = db::audit::list(&mut conn, None, 100_000).expect("audit");
        rows.reverse();
        rows.into_iter()
            .map(|r| format!("{}:{}", r.entity, r.action))
            .collect()
    }

    /// Runs the first-run setup and returns the Leitung's client.
    pub async fn leitung(&self) -> Client {
        let mut c = self.client();
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
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
        c.refresh_csrf().await;
        c
    }

    /// The Leitung creates an account; the returned client is logged in with it.
    pub async fn account(
        &self,
        leitung: &Client,
        (name, password): (&str, &str),
        role: &str,
    ) -> Client {
        let r = leitung
            .post(
                "/users",
                &[("username", name), ("role", role), ("password", password)],
            )
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "create account {name}");
        self.login(name, password).await
    }

    pub async fn login(&self, name: &str, password: &str) -> Client {
        let mut c = self.client();
        let r = c
            .post_anonymous("/login", &[("username", name), ("password", password)])
            .await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "login {name}");
        c.refresh_csrf().await;
        c
    }
}

impl Client {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> Response {
        self.http.get(self.url(path)).send().await.expect("GET")
    }

    pub async fn page(&self, path: &str) -> (StatusCode, Html) {
        let r = self.get(path).await;
        let status = r.status();
        (status, Html::parse_document(&r.text().await.expect("body")))
    }

    /// A GET that must succeed, as HTML.
    pub async fn html(&self, path: &str) -> Html {
        let (status, html) = self.page(path).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {}", html.html());
        html
    }

    pub async fn refresh_csrf(&mut self) {
        let html = self.html("/").await;
        self.csrf = attr(&html, "input[name=_csrf]", "value").expect("csrf token on page");
    }

    pub async fn post_anonymous(&mut self, path: &str, form: &[(&str, &str)]) -> Response {
        self.http
            .post(self.url(path))
            .form(form)
            .send()
            .await
            .expect("POST")
    }

    /// A form post with this client's CSRF token.
    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Response {
        let mut fields: Vec<(&str, &str)> = form.to_vec();
        fields.push(("_csrf", &self.csrf));
        self.http
            .post(self.url(path))
            .form(&fields)
            .send()
            .await
            .expect("POST")
    }

    pub async fn post_with_csrf(
        &self,
        path: &str,
        form: &[(&str, &str)],
        csrf: Option<&str>,
    ) -> Response {
        let mut fields: Vec<(&str, &str)> = form.to_vec();
        if let Some(token) = csrf {
            fields.push(("_csrf", token));
        }
        self.http
            .post(self.url(path))
            .form(&fields)
            .send()
            .await
            .expect("POST")
    }

    pub async fn upload(&self, path: &str, file: Vec<u8>, csrf: Option<&str>) -> Response {
        self.upload_fields(path, file, csrf, &[]).await
    }

    /// An upload with the session's token and further text fields.
    pub async fn upload_with(
        &self,
        path: &str,
        file: Vec<u8>,
        fields: &[(&str, &str)],
    ) -> Response {
        self.upload_fields(path, file, Some(&self.csrf.clone()), fields)
            .await
    }

    async fn upload_fields(
        &self,
        path: &str,
        file: Vec<u8>,
        csrf: Option<&str>,
        fields: &[(&str, &str)],
    ) -> Response {
        let mut form = reqwest::multipart::Form::new();
        if let Some(token) = csrf {
            form = form.text("_csrf", token.to_string());
        }
        for (name, value) in fields {
            form = form.text(name.to_string(), value.to_string());
        }
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(file).file_name("daten.csv"),
        );
        self.http
            .post(self.url(path))
            .multipart(form)
            .send()
            .await
            .expect("upload")
    }

    /// Posts and follows the 303, returning the page it leads to.
    pub async fn post_ok(&self, path: &str, form: &[(&str, &str)]) -> Html {
        let r = self.post(path, form).await;
        let status = r.status();
        let location = location(&r);
        assert_eq!(
            status,
            StatusCode::SEE_OTHER,
            "POST {path} → {status}: {}",
            r.text().await.unwrap_or_default()
        );
        self.html(&location).await
    }
}

pub fn location(r: &Response) -> String {
    r.headers()
        .get("location")
        .and_then(|l| l.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

pub fn select_all(html: &Html, selector: &str) -> Vec<String> {
    let sel = Selector::parse(selector).expect("selector");
    html.select(&sel)
        .map(|e| {
            e.text()
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

pub fn text(html: &Html, selector: &str) -> String {
    select_all(html, selector).join(" | ")
}

/// The attribute `name` of every element `selector` matches.
pub fn select_attr(html: &Html, selector: &str, name: &str) -> Vec<String> {
    let sel = Selector::parse(selector).expect("selector");
    html.select(&sel)
        .filter_map(|e| e.value().attr(name).map(str::to_string))
        .collect()
}

pub fn attr(html: &Html, selector: &str, name: &str) -> Option<String> {
    let sel = Selector::parse(selector).expect("selector");
    html.select(&sel)
        .next()
        .and_then(|e| e.value().attr(name))
        .map(str::to_string)
}

pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture")
}

/// Creates a Partnerschieber tournament and returns its id.
pub async fn create_tournament(leitung: &Client, passen: &str, spiele: &str) -> i32 {
    create_tournament_with(leitung, "Herbstturnier Zürich", passen, spiele, "").await
}

/// A Partnerschieber tournament with its name and Pauschale (empty: the seed's preset).
pub async fn create_tournament_with(
    leitung: &Client,
    name: &str,
    passen: &str,
    spiele: &str,
    pauschale: &str,
) -> i32 {
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", name),
                ("date", "2026-11-22"),
                ("location", "Zürich"),
                ("mode", "partnerschieber"),
                ("passen", passen),
                ("spiele_per_passe", spiele),
                ("pauschale", pauschale),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    location(&r).rsplit('/').next().unwrap().parse().unwrap()
}

/// The four teams of the CP1252 fixture in 3 Passen à 12 Spiele, drawn with a fixed plan
/// and seed 9; its id.
pub async fn drawn_swiss(leitung: &Client) -> i32 {
    let id = create_tournament(leitung, "3", "12").await;
    import_teams(leitung, id, fixture("teams_semikolon_cp1252.csv")).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "9")],
        )
        .await;
    id
}

/// Imports teams from CSV bytes via preview + confirm.
pub async fn import_teams(client: &Client, tournament: i32, csv: Vec<u8>) -> Html {
    let path = format!("/tournaments/{tournament}/teams/import");
    let r = client.upload(&path, csv, Some(&client.csrf)).await;
    assert_eq!(r.status(), StatusCode::OK);
    let preview = Html::parse_document(&r.text().await.unwrap());
    let upload = attr(&preview, "input[name=upload]", "value").expect("preview kept the file");
    client
        .post_ok(&format!("{path}/confirm"), &[("upload", &upload)])
        .await
}

/// The text of every page of a PDF.
pub fn pdf_pages(bytes: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(bytes).expect("a valid PDF");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    pages
        .iter()
        .map(|p| doc.extract_text(&[*p]).expect("text"))
        .collect()
}

/// Decodes the QR code on a PDF page: the page's image, at the size and place its drawing
/// operation gives it, with the white quiet zone a printed page has around it, as a phone
/// would see it.
pub fn pdf_qr(bytes: &[u8], page: usize) -> Option<String> {
    let doc = lopdf::Document::load_mem(bytes).ok()?;
    let page_id = *doc.get_pages().values().nth(page)?;
    let content = lopdf::content::Content::decode(&doc.get_page_content(page_id)).ok()?;
    // The image this page draws (`/QR7 Do`), looked up in the page's XObject resources.
    let name = content
        .operations
        .iter()
        .find(|op| op.operator == "Do")
        .and_then(|op| op.operands.first()?.as_name().ok())?;
    let image = doc
        .get_page_images(page_id)
        .ok()?
        .into_iter()
        .find(|image| {
            doc.get_dictionary(page_id)
                .and_then(|page| doc.get_dict_in_dict(page, b"Resources"))
                .and_then(|resources| doc.get_dict_in_dict(resources, b"XObject"))
                .and_then(|xobjects| xobjects.get(name))
                .and_then(|o| o.as_reference())
                .is_ok_and(|id| id == image.id)
        })?;
    let stream = doc.get_object(image.id).ok()?.as_stream().ok()?;
    let filter = stream
        .dict
        .get(b"Filter")
        .ok()
        .and_then(|f| f.as_name().ok())
        .map(|f| f.to_vec());
    let mut pixels = Vec::new();
    match filter.as_deref() {
        None => pixels = stream.content.clone(),
        Some(b"FlateDecode") => {
            std::io::Read::read_to_end(
                &mut flate2::read::ZlibDecoder::new(&stream.content[..]),
                &mut pixels,
            )
            .ok()?;
        }
        // Anything lossy (JPEG) would blur the modules.
        Some(_) => return None,
    }
    let modules = usize::try_from(image.width).ok()?;
    if usize::try_from(image.height).ok()? != modules || pixels.len() < modules * modules {
        return None;
    }
    // The image is scaled on the page by a `cm` operation: at least 15 mm (43 pt) wide, to
    // be scanned from a sheet on the table.
    let number = |o: &lopdf::Object| {
        o.as_float()
            .ok()
            .or_else(|| o.as_i64().ok().map(|i| i as f32))
    };
    let drawn = content
        .operations
        .iter()
        .filter(|op| op.operator == "cm" && op.operands.len() == 6)
        .filter_map(|op| number(&op.operands[0]))
        .any(|scale| scale >= 43.0);
    if !drawn {
        return None;
    }
    let scale = 6;
    let quiet = 4;
    let side = (modules + 2 * quiet) * scale;
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
        let (col, row) = (x / scale, y / scale);
        if col < quiet || row < quiet || col >= modules + quiet || row >= modules + quiet {
            255
        } else {
            pixels[(row - quiet) * modules + col - quiet]
        }
    });
    let grids = image.detect_grids();
    grids.first()?.decode().ok().map(|(_, content)| content)
}

pub async fn bytes(client: &Client, path: &str) -> (StatusCode, String, Vec<u8>) {
    let r = client.get(path).await;
    let status = r.status();
    let content_type = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (
        status,
        content_type,
        r.bytes().await.expect("body").to_vec(),
    )
}

/// The font size (pt) of every piece of text shown on a PDF page, in order.
pub fn pdf_text_sizes(bytes: &[u8], page: usize) -> Vec<f32> {
    let doc = lopdf::Document::load_mem(bytes).expect("a valid PDF");
    let page_id = *doc.get_pages().values().nth(page).expect("page");
    let content =
        lopdf::content::Content::decode(&doc.get_page_content(page_id)).expect("content stream");
    let mut size = 0.0;
    let mut out = Vec::new();
    for op in &content.operations {
        match op.operator.as_str() {
            "Tf" => {
                size = op.operands[1]
                    .as_float()
                    .ok()
                    .or_else(|| op.operands[1].as_i64().ok().map(|i| i as f32))
                    .unwrap_or(0.0);
            }
            "Tj" | "TJ" => out.push(size),
            _ => {}
        }
    }
    out
}

/// A Partnerschieber with teams `1..=teams` (players "Anna{n}" / "Urs{n}"), drawn with a
/// fixed table plan and seed 42; its id.
pub async fn drawn_field(
    leitung: &Client,
    passen: &str,
    spiele: &str,
    pauschale: &str,
    teams: usize,
) -> i32 {
    let id = create_tournament_with(leitung, "Cup im Saal", passen, spiele, pauschale).await;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=teams {
        csv += &format!("{n};Anna{n};Urs{n}\n");
    }
    import_teams(leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "42")],
        )
        .await;
    id
}

/// Enters team A's points at a table (team B gets the rest).
pub async fn enter(client: &Client, id: i32, passe: u32, table: u32, points_a: u32) -> Html {
    client
        .post_ok(
            &format!("/tournaments/{id}/passen/{passe}/entry"),
            &[
                ("table", &table.to_string()),
                ("points_a", &points_a.to_string()),
            ],
        )
        .await
}

/// Imports a tournament export as a new tournament; its id.
pub async fn import_export(client: &Client, export: Vec<u8>) -> i32 {
    let r = client
        .upload("/tournaments/import", export, Some(&client.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    location(&r).rsplit('/').next().unwrap().parse().unwrap()
}

/// The team of a Startnummer.
pub fn team_id(d: &TournamentData, startnummer: u32) -> jassturnier::domain::ids::TeamId {
    d.teams
        .iter()
        .find(|t| t.startnummer.get() == startnummer)
        .expect("a team of this Startnummer")
        .id
}
