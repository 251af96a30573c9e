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
    pub db_path: PathBuf,
    pub pool: Pool,
    pub dir: tempfile::TempDir,
    pub live: std::sync::Arc<jassturnier::web::live::hub::LiveHub>,
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

/// The app on a temporary database, with settings adjusted by `adjust`.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    let dir = tempfile::tempdir().expect("temp dir");
    let db_path = dir.path().join("test.sqlite3");
    let mut settings = Settings {
        bind: "127.0.0.1:0".into(),
        database_url: db_path.display().to_string(),
        workers: 2,
        worker_nice: jassturnier::web::threads::WORKER_NICE,
        public_url: None,
        backup_dir: None,
        backup_interval: std::time::Duration::ZERO,
        setup_from_loopback: true,
    };
    adjust(&mut settings);
    let app = jassturnier::startup::build(&settings).expect("app starts");
    let address = format!("http://127.0.0.1:{}", app.port);
    tokio::spawn(app.server);
    TestApp {
        address,
        setup_code: app.setup_code.clone(),
        db_path,
        pool: app.pool,
        dir,
        live: app.live,
    }
}

/// Everything stored about a tournament, read straight from the database.
pub fn tournament_data(pool: &Pool, id: i32) -> TournamentData {
    let mut conn = pool.get().unwrap();
    jassturnier::db::tournament_data::load(&mut conn, jassturnier::domain::ids::TournamentId(id))
        .unwrap()
}

impl TestApp {
    pub fn data(&self, id: i32) -> TournamentData {
        tournament_data(&self.pool, id)
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

/// Decodes the QR code drawn as filled squares on a PDF page (rasterised from the
/// page's drawing operations, so the test reads what a phone would scan).
pub fn pdf_qr(bytes: &[u8], page: usize) -> Option<String> {
    let doc = lopdf::Document::load_mem(bytes).ok()?;
    let page_id = *doc.get_pages().values().nth(page)?;
    let content = lopdf::content::Content::decode(&doc.get_page_content(page_id)).ok()?;
    let number = |o: &lopdf::Object| {
        o.as_float()
            .ok()
            .or_else(|| o.as_i64().ok().map(|i| i as f32))
    };
    // QR modules are the small filled squares (a few pt); everything else is larger.
    let squares: Vec<(f32, f32, f32)> = content
        .operations
        .iter()
        .filter(|op| op.operator == "re" && op.operands.len() == 4)
        .filter_map(|op| {
            Some((
                number(&op.operands[0])?,
                number(&op.operands[1])?,
                number(&op.operands[2])?,
                number(&op.operands[3])?,
            ))
        })
        .filter(|(_, _, w, h)| (w - h).abs() < 0.01 && *w > 1.0 && *w < 6.0)
        .map(|(x, y, w, _)| (x, y, w))
        .collect();
    let cell = squares.first()?.2;
    let min_x = squares.iter().map(|s| s.0).fold(f32::MAX, f32::min);
    let max_y = squares.iter().map(|s| s.1).fold(f32::MIN, f32::max);
    let modules = squares
        .iter()
        .map(|s| ((s.0 - min_x) / cell).round() as usize)
        .max()?
        + 1;
    let scale = 6;
    let quiet = 4;
    let side = (modules + 2 * quiet) * scale;
    let mut dark = vec![false; side * side];
    for (x, y, _) in &squares {
        let col = ((x - min_x) / cell).round() as usize + quiet;
        let row = ((max_y - y) / cell).round() as usize + quiet;
        for dy in 0..scale {
            for dx in 0..scale {
                dark[(row * scale + dy) * side + col * scale + dx] = true;
            }
        }
    }
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
        if dark[y * side + x] { 0 } else { 255 }
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
