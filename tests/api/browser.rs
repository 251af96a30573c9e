//! Real-browser tests: Debian's headless Chromium, driven through chromedriver (WebDriver),
//! against the real app. Without Chromium they are skipped with a clear message, unless
//! `JASSTURNIER_REQUIRE_BROWSER=1` (set by `.ci/run`) makes a missing browser a failure.
//! A failing check saves a screenshot under `target/browser-failures/`.

use crate::helpers::*;
use fantoccini::{Client as Browser, ClientBuilder, Locator, key::Key};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Debian's paths; `JASSTURNIER_CHROMIUM` / `JASSTURNIER_CHROMEDRIVER` point elsewhere.
fn program(variable: &str, default: &str) -> String {
    std::env::var(variable).unwrap_or_else(|_| default.to_string())
}

/// A running chromedriver with one browser session; the driver stops with it.
struct Session {
    browser: Browser,
    driver: Child,
    name: &'static str,
}

impl Drop for Session {
    /// Ends chromedriver and the browser it started (one process group: killing only the
    /// driver would leave Chromium running, with its live pages, after the test).
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.driver.id())])
            .status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Starts Chromium at a viewport of `width` × `height`, or says why the browser tests do
/// not run here.
async fn open(name: &'static str, width: u32, height: u32, mobile: bool) -> Option<Session> {
    let chromium = program("JASSTURNIER_CHROMIUM", "/usr/bin/chromium");
    let chromedriver = program("JASSTURNIER_CHROMEDRIVER", "/usr/bin/chromedriver");
    let installed =
        std::path::Path::new(&chromium).exists() && std::path::Path::new(&chromedriver).exists();
    if !installed {
        let message = format!(
            "browser test {name} NOT RUN: {chromium} or {chromedriver} missing \
             (apt-get install -y chromium chromium-driver)"
        );
        if std::env::var("JASSTURNIER_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
            panic!("{message}");
        }
        say_not_run(&message);
        return None;
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let driver = Command::new(&chromedriver)
        .process_group(0)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let mut capabilities = serde_json::Map::new();
    let mut options = serde_json::json!({
        "binary": chromium,
        "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            format!("--window-size={width},{height}"), "--hide-scrollbars"
        ],
    });
    if mobile {
        options["mobileEmulation"] = serde_json::json!({
            "deviceMetrics": { "width": width, "height": height, "pixelRatio": 2.0, "touch": true }
        });
    }
    capabilities.insert("goog:chromeOptions".into(), options);
    let url = format!("http://127.0.0.1:{port}");
    let mut last_error = String::new();
    for _ in 0..50 {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&url)
            .await
        {
            Ok(browser) => {
                // The window includes the browser's own bars: size it so that the page
                // itself gets exactly `width` × `height`.
                if !mobile {
                    let _ = browser.set_window_size(width, height).await;
                    let bars = browser
                        .execute(
                            "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]",
                            vec![],
                        )
                        .await
                        .ok()
                        .and_then(|v| Some((v[0].as_u64()? as u32, v[1].as_u64()? as u32)))
                        .unwrap_or((0, 0));
                    let _ = browser
                        .set_window_size(width + bars.0, height + bars.1)
                        .await;
                }
                return Some(Session {
                    browser,
                    driver,
                    name,
                });
            }
            Err(e) => {
                last_error = e.to_string();
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    panic!("chromedriver did not start a session: {last_error}");
}

impl Session {
    /// Fails the test with a screenshot of what the browser showed.
    async fn fail(&self, message: String) -> ! {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/browser-failures");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join(format!("{}.png", self.name));
        if let Ok(png) = self.browser.screenshot().await {
            let _ = std::fs::write(&file, png);
        }
        panic!("{message} (screenshot: {})", file.display());
    }

    async fn ensure(&self, ok: bool, message: impl Into<String>) {
        if !ok {
            self.fail(message.into()).await;
        }
    }

    async fn js(&self, script: &str) -> serde_json::Value {
        match self.browser.execute(script, vec![]).await {
            Ok(v) => v,
            Err(e) => self.fail(format!("script {script}: {e}")).await,
        }
    }

    /// A script that ends by calling `arguments[0]` with its answer.
    async fn js_async(&self, script: &str) -> serde_json::Value {
        match self.browser.execute_async(script, vec![]).await {
            Ok(v) => v,
            Err(e) => self.fail(format!("script {script}: {e}")).await,
        }
    }

    async fn goto(&self, url: &str) {
        if let Err(e) = self.browser.goto(url).await {
            self.fail(format!("open {url}: {e}")).await;
        }
    }

    /// Waits up to 10 s for a script to return true.
    async fn wait_for(&self, script: &str, what: &str) {
        for _ in 0..100 {
            if self.js(script).await == serde_json::Value::Bool(true) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.fail(format!("waited in vain for {what}")).await;
    }

    /// Types into whatever has the focus, as a clerk would.
    async fn keys(&self, text: &str) {
        let active = match self.browser.active_element().await {
            Ok(e) => e,
            Err(e) => self.fail(format!("no focused element: {e}")).await,
        };
        if let Err(e) = active.send_keys(text).await {
            self.fail(format!("typing {text:?}: {e}")).await;
        }
    }

    async fn login(&self, app: &TestApp, (name, password): (&str, &str)) {
        self.goto(&format!("{}/login", app.address)).await;
        let form = async {
            self.browser
                .find(Locator::Css("input[name=username]"))
                .await?
                .send_keys(name)
                .await?;
            self.browser
                .find(Locator::Css("input[name=password]"))
                .await?
                .send_keys(&format!("{password}{}", char::from(Key::Enter)))
                .await
        };
        if let Err(e) = form.await {
            self.fail(format!("login: {e}")).await;
        }
        self.wait_for(
            "return !location.pathname.startsWith('/login')",
            "the login",
        )
        .await;
    }
}

/// Keyboard only: table, Tab, points, Enter, for a whole Passe; one wrong input puts the
/// cursor into the points with the wrong number selected, so typing replaces it.
#[tokio::test]
async fn a_whole_passe_is_entered_by_keyboard_with_one_mistake() {
    let Some(s) = open("keyboard_entry", 1280, 900, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    s.login(&app, LEITUNG).await;
    s.goto(&format!("{}/tournaments/{id}/passen/1/entry", app.address))
        .await;
    let focused = "return document.activeElement && document.activeElement.id";
    s.ensure(s.js(focused).await == "table", "the cursor starts at Tisch")
        .await;
    let (tab, enter) = (char::from(Key::Tab), char::from(Key::Enter));
    for table in 1..=4 {
        if table == 3 {
            s.keys(&format!("3{tab}99999{enter}")).await;
            s.wait_for(
                "return !!document.querySelector('[aria-invalid=true]')",
                "the error",
            )
            .await;
            let state = s
                .js("var e = document.activeElement; return [e.id, e.value.substring(e.selectionStart, e.selectionEnd)]")
                .await;
            s.ensure(
                state == serde_json::json!(["points_a", "99999"]),
                format!("cursor in the points with the wrong number selected: {state}"),
            )
            .await;
            s.keys(&format!("900{enter}")).await;
        } else {
            s.keys(&format!("{table}{tab}1000{enter}")).await;
        }
        s.wait_for(
            &format!(
                "return document.getElementById('progress').textContent.startsWith('{table} / 4')"
            ),
            "the saved table",
        )
        .await;
        s.ensure(s.js(focused).await == "table", "back at Tisch after saving")
            .await;
    }
    let d = app.data(id);
    let points: Vec<u32> = (1..=4)
        .map(|t| d.result_at(1, t).unwrap().points_a.get())
        .collect();
    s.ensure(
        points == vec![1000, 1000, 900, 1000],
        format!("stored {points:?}"),
    )
    .await;
}

impl Session {
    /// Types into the focused field as a clerk would, ending with Enter, and waits for the
    /// page the form leads to (saved or refused).
    async fn type_and_send(&self, text: &str) {
        self.js("window.__typedOnThisPage = true").await;
        self.keys(&format!("{text}{}", char::from(Key::Enter)))
            .await;
        self.wait_for(
            "return !window.__typedOnThisPage && document.readyState === 'complete'",
            "the answer to the entry",
        )
        .await;
    }

    /// The focused field and its selected text.
    async fn focus(&self) -> serde_json::Value {
        self.js("var e = document.activeElement; return [e.name || e.id, e.value.substring(e.selectionStart, e.selectionEnd)]")
            .await
    }
}

/// After every refusal of the fast entry (a table already entered, a double-entry
/// Widerspruch, an unknown table, a Pauschale table) the next keystrokes replace the Tisch
/// number: typing `1 Tab 1000 Enter` after a conflict on table 2 stored 1'000 : 884 on
/// table 12.
#[tokio::test]
async fn after_every_refusal_the_next_table_typed_is_the_table_saved() {
    let Some(s) = open("entry_refusals", 1280, 900, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let erste = app
        .account(&leitung, ("erste", "erste-passwort"), "buero")
        .await;
    app.account(&leitung, ("zweite", "zweite-passwort"), "buero")
        .await;
    let id = drawn_field(&leitung, "3", "12", "", 24).await;
    let gone = app.data(id).tables(1)[4].team_a.id;
    assert_eq!(app.data(id).tables(1)[4].number, 5);
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{gone}/status"),
            &[("action", "withdraw"), ("passe", "1"), ("reason", "")],
        )
        .await;
    s.login(&app, ("zweite", "zweite-passwort")).await;
    s.goto(&format!("{}/tournaments/{id}/passen/1/entry", app.address))
        .await;
    let tab = char::from(Key::Tab);
    let stored = |table: u32| app.data(id).result_at(1, table).map(|r| r.points_a.get());
    // Where the fields stand in the form: a message must not move them.
    let layout = "var f = document.getElementById('entry-form').getBoundingClientRect(); \
        return ['table', 'points_a', 'points_b'].map(function (n) { \
        var r = document.getElementById(n).getBoundingClientRect(); return [r.left - f.left, r.top - f.top]; })";
    let fields_at = s.js(layout).await;

    s.type_and_send(&format!("2{tab}1000")).await;
    s.type_and_send(&format!("2{tab}900")).await;
    s.ensure(
        s.js("return !!document.getElementById('conflict')").await == true,
        "the conflict is shown",
    )
    .await;
    let focus = s.focus().await;
    s.ensure(
        focus == serde_json::json!(["table", "2"]),
        format!("after the conflict the Tisch number is selected: {focus}"),
    )
    .await;
    s.type_and_send(&format!("1{tab}1000")).await;
    s.ensure(
        stored(1) == Some(1000) && stored(12).is_none() && stored(2) == Some(1000),
        format!(
            "table 1 saved, 12 untouched: {:?} {:?}",
            stored(1),
            stored(12)
        ),
    )
    .await;

    // An unknown table: one message (the server's, at the field), the number selected.
    s.type_and_send(&format!("99{tab}1000")).await;
    let shown = s
        .js("return [document.querySelectorAll('#table-error').length, document.getElementById('teams').textContent]")
        .await;
    s.ensure(
        shown == serde_json::json!([1, ""]),
        format!("one message for an unknown table: {shown}"),
    )
    .await;
    let moved = s.js(layout).await;
    s.ensure(
        moved == fields_at,
        format!("the fields stay where they were: {fields_at} → {moved}"),
    )
    .await;
    let focus = s.focus().await;
    s.ensure(
        focus == serde_json::json!(["table", "99"]),
        format!("unknown table selected: {focus}"),
    )
    .await;
    s.type_and_send(&format!("3{tab}1000")).await;
    s.ensure(
        stored(3) == Some(1000),
        "table 3 saved after the unknown one",
    )
    .await;

    // A Pauschale table: the entry form again with the message at the Tisch field.
    s.type_and_send(&format!("5{tab}1000")).await;
    let message = s
        .js("var e = document.getElementById('table-error'); return [!!document.getElementById('entry-form'), e ? e.textContent : '']")
        .await;
    s.ensure(
        message[0] == true && message[1].as_str().is_some_and(|m| m.contains("Pauschale")),
        format!("the entry form says the Pauschale applies: {message}"),
    )
    .await;
    let focus = s.focus().await;
    s.ensure(
        focus == serde_json::json!(["table", "5"]),
        format!("Pauschale table selected: {focus}"),
    )
    .await;
    s.type_and_send(&format!("4{tab}1000")).await;
    s.ensure(
        stored(4) == Some(1000) && stored(5).is_none(),
        "table 4 saved",
    )
    .await;

    // Double entry: a Widerspruch, then the next table is a first entry of its own.
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
    erste
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "6"), ("points_a", "1000")],
        )
        .await;
    s.goto(&format!("{}/tournaments/{id}/passen/1/entry", app.address))
        .await;
    s.type_and_send(&format!("6{tab}900")).await;
    s.ensure(
        s.js("return !!document.getElementById('contradiction')")
            .await
            == true,
        "the Widerspruch is shown",
    )
    .await;
    let focus = s.focus().await;
    s.ensure(
        focus == serde_json::json!(["table", "6"]),
        format!("after the Widerspruch the Tisch number is selected: {focus}"),
    )
    .await;
    s.type_and_send(&format!("7{tab}1000")).await;
    let pending = app.data(id).pending_at(1, 7).len();
    s.ensure(
        pending == 1,
        format!("table 7 has its first entry: {pending}"),
    )
    .await;
}

/// The correction opened from the fast entry has the stored number selected (typing 962
/// over 926 gave 962926) and returns to the fast entry after saving.
#[tokio::test]
async fn a_correction_from_the_entry_replaces_the_number_and_returns_to_the_entry() {
    let Some(s) = open("correction_from_entry", 1280, 900, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    enter(&buero, id, 1, 2, 926).await;
    s.login(&app, BUERO).await;
    s.goto(&format!("{}/tournaments/{id}/passen/1/entry", app.address))
        .await;
    let link = s
        .js("return document.querySelector('#entered a').getAttribute('href')")
        .await;
    s.goto(&format!(
        "{}{}",
        app.address,
        link.as_str().unwrap_or_default()
    ))
    .await;
    let focus = s.focus().await;
    s.ensure(
        focus == serde_json::json!(["points_a", "926"]),
        format!("the stored points are selected: {focus}"),
    )
    .await;
    s.type_and_send("962").await;
    let path = s.js("return location.pathname").await;
    s.ensure(
        path == format!("/tournaments/{id}/passen/1/entry"),
        format!("back at the fast entry: {path}"),
    )
    .await;
    let stored = app
        .data(id)
        .result_at(1, 2)
        .map(|r| (r.points_a.get(), r.points_b.get()));
    s.ensure(
        stored == Some((962, 922)),
        format!("962 : 922 stored: {stored:?}"),
    )
    .await;
    s.ensure(
        s.js("return document.activeElement.id").await == "table",
        "the cursor is at Tisch for the next table",
    )
    .await;
}

/// The live page follows an entry through SSE without reloading.
#[tokio::test]
async fn the_live_page_updates_without_a_reload() {
    let Some(s) = open("live_update", 1920, 1080, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    s.goto(&format!("{}/tournaments/{id}/live", app.address))
        .await;
    s.wait_for(
        "return !!document.getElementById('live-progress')",
        "the live page",
    )
    .await;
    s.js("window.notReloaded = true; return true").await;
    enter(&leitung, id, 1, 1, 1000).await;
    s.wait_for(
        "return document.getElementById('live-progress').textContent.startsWith('1 / 4')",
        "the new result on the live page",
    )
    .await;
    s.ensure(
        s.js("return window.notReloaded === true").await == true,
        "no reload",
    )
    .await;

    // Further results, a correction and a visa arrive as deltas: the page is not fetched
    // again, and what it shows is exactly the page the server renders now.
    let fetches = "return performance.getEntriesByType('resource').filter(function (e) { return e.initiatorType === 'fetch'; }).length";
    let before = s.js(fetches).await;
    for (table, points) in [(2, 1884), (3, 0), (4, 942)] {
        enter(&leitung, id, 1, table, points).await;
    }
    let result = app.data(id).result_at(1, 1).unwrap().version.to_string();
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/correct"),
            &[
                ("table", "1"),
                ("version", &result),
                ("points_a", "1200"),
                ("points_b", "684"),
                ("reason", "Tippfehler"),
            ],
        )
        .await;
    leitung
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/2/visa"), &[])
        .await;
    let version = app
        .live
        .state(jassturnier::domain::ids::TournamentId(id))
        .unwrap()
        .0;
    s.wait_for(
        &format!("return document.body.dataset.version === '{version}'"),
        "the last version on the live page",
    )
    .await;
    s.ensure(s.js(fetches).await == before, "no page fetched for deltas")
        .await;
    let shown = "function rows(root) { return Array.prototype.map.call(root.querySelectorAll('#board table.source tbody tr'), function (r) { return r.id + ':' + r.textContent.replace(/\\s+/g, ' ').trim(); }); }";
    let same = s
        .js_async(&format!(
            "{shown} var done = arguments[0]; fetch(location.pathname, {{ cache: 'no-cache' }}).then(function (r) {{ return r.text(); }}).then(function (html) {{ var doc = new DOMParser().parseFromString(html, 'text/html'); var a = rows(document), b = rows(doc); var round = document.querySelector('.live-meta').textContent === doc.querySelector('.live-meta').textContent; done(JSON.stringify(a) === JSON.stringify(b) && round && b.length === 8 ? 'same' : JSON.stringify([a, b])); }});"
        ))
        .await;
    s.ensure(
        same == "same",
        &format!("the page after the deltas: {same}"),
    )
    .await;
}

/// 200 teams on a 1920×1080 beamer: at most 6 pages, nothing scrolls.
#[tokio::test]
async fn the_beamer_shows_200_teams_in_at_most_6_pages() {
    let Some(s) = open("beamer_200", 1920, 1080, false).await else {
        return;
    };
    let app = spawn_app().await;
    let url = app.database_url.clone();
    jassturnier::demo::create(
        &url,
        jassturnier::demo::Size {
            mode: jassturnier::domain::mode::Mode::Partnerschieber,
            teams: 200,
            passen: 8,
            spiele: 12,
        },
    )
    .expect("demo");
    s.goto(&format!("{}/tournaments/1/live", app.address)).await;
    s.wait_for(
        "return !!document.getElementById('board-columns')",
        "the paged board",
    )
    .await;
    let facts = s
        .js("var b = document.getElementById('board'); return [window.innerWidth, window.innerHeight, parseInt(b.dataset.pages, 10), parseInt(b.dataset.columns, 10), document.documentElement.scrollHeight, document.documentElement.scrollWidth, document.querySelectorAll('#board-columns tr.row').length]")
        .await;
    let n = |i: usize| facts[i].as_i64().unwrap_or(-1);
    s.ensure(n(0) == 1920 && n(1) == 1080, format!("viewport {facts}"))
        .await;
    s.ensure(n(2) >= 1 && n(2) <= 6, format!("at most 6 pages: {facts}"))
        .await;
    s.ensure(
        n(4) <= n(1) && n(5) <= n(0),
        format!("no scrolling: {facts}"),
    )
    .await;
    s.ensure(
        n(6) * n(2) >= 200,
        format!("every team on some page: {facts}"),
    )
    .await;
    // A beamer may cut the screen's outer pixels: the board and its legend keep off the
    // left edge as far as the title does.
    let lefts = s
        .js("var x = function (q) { var r = document.createRange(); r.selectNodeContents(document.querySelector(q)); return Math.round(r.getBoundingClientRect().left); }; return [x('.live-head h1'), Math.round(document.querySelector('#board-columns tr.row td').getBoundingClientRect().left), x('#legend')]")
        .await;
    let left = |i: usize| lefts[i].as_i64().unwrap_or(-1);
    s.ensure(
        left(0) > 0 && left(1) >= left(0) && left(2) >= left(0),
        format!("title, first row, legend start at {lefts}"),
    )
    .await;
}

/// A phone at 390×844: the top 3 once, "Mein Team" marked and kept across an update.
#[tokio::test]
async fn a_phone_keeps_mein_team_across_updates() {
    let Some(s) = open("phone_mein_team", 390, 844, true).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    s.goto(&format!("{}/tournaments/{id}/live", app.address))
        .await;
    s.wait_for("return !!document.getElementById('nr')", "the live page")
        .await;
    s.ensure(
        s.js("return document.documentElement.scrollWidth <= window.innerWidth")
            .await
            == true,
        "no sideways scrolling",
    )
    .await;
    s.ensure(
        s.js("var p = document.getElementById('podium'); return !p || getComputedStyle(p).display === 'none'").await == true,
        "the top 3 are not shown twice",
    )
    .await;
    let field = match s.browser.find(Locator::Id("nr")).await {
        Ok(f) => f,
        Err(e) => s.fail(format!("Mein Team field: {e}")).await,
    };
    let _ = field
        .send_keys(&format!("5{}", char::from(Key::Enter)))
        .await;
    s.wait_for(
        "return !!document.querySelector('#t-5.mine')",
        "team 5 marked",
    )
    .await;
    enter(&leitung, id, 1, 1, 1000).await;
    s.wait_for(
        "return document.getElementById('live-progress').textContent.startsWith('1 / 4')",
        "the update",
    )
    .await;
    let kept = s
        .js("return [document.getElementById('nr').value, !!document.querySelector('#t-5.mine')]")
        .await;
    s.ensure(
        kept == serde_json::json!(["5", true]),
        format!("Mein Team kept: {kept}"),
    )
    .await;
}

/// The Kontrolleur visas a whole Passe in two clicks.
#[tokio::test]
async fn the_kontrolleur_visas_a_passe_in_one_action() {
    let Some(s) = open("bulk_visa", 1280, 900, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    for table in 1..=3 {
        enter(&leitung, id, 1, table, 1000).await;
    }
    s.login(&app, KONTROLLEUR).await;
    s.goto(&format!("{}/tournaments/{id}/passen/1", app.address))
        .await;
    let clicked = async {
        s.browser
            .find(Locator::Id("visa-all"))
            .await?
            .click()
            .await?;
        s.browser
            .find(Locator::Css(
                "#content form button[type=submit], main form.actions button[type=submit]",
            ))
            .await?
            .click()
            .await
    };
    if let Err(e) = clicked.await {
        s.fail(format!("bulk visa: {e}")).await;
    }
    s.wait_for(
        "var f = document.querySelector('.flash'); return !!f && f.textContent.indexOf('3 Tische visiert') >= 0",
        "the confirmation",
    )
    .await;
    let d = app.data(id);
    let visaed = (1..=3)
        .filter(|t| {
            d.result_at(1, *t)
                .is_some_and(|r| r.visa_a_by.is_some() && r.visa_b_by.is_some())
        })
        .count();
    s.ensure(visaed == 3, format!("{visaed} tables visaed"))
        .await;
}

/// The office pages used walking around fit a phone: no sideways scrolling at 390 px.
#[tokio::test]
async fn office_pages_fit_a_phone() {
    let Some(s) = open("office_390", 390, 844, true).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    for table in 1..=2 {
        enter(&leitung, id, 1, table, 1000).await;
    }
    let team = app.data(id).teams[0].id.0;
    s.login(&app, LEITUNG).await;
    for path in [
        format!("/tournaments/{id}/passen/1"),
        format!("/tournaments/{id}/teams/{team}"),
        format!("/tournaments/{id}/ranking"),
        format!("/tournaments/{id}/passen/1/entry"),
        format!("/tournaments/{id}/endvisa"),
    ] {
        s.goto(&format!("{}{path}", app.address)).await;
        let widths = s
            .js("return [document.documentElement.scrollWidth, window.innerWidth]")
            .await;
        s.ensure(
            widths[0].as_i64() <= widths[1].as_i64() && widths[1].as_i64() == Some(390),
            format!("{path}: page {widths} wide"),
        )
        .await;
    }
}

/// The correction form fills in team B as the rest while only team A is typed; a question
/// stands before closing the tournament, and "Abbrechen" leaves it open.
#[tokio::test]
async fn the_correction_form_computes_b_and_closing_asks_first() {
    let Some(s) = open("correction_and_confirm", 1280, 900, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    enter(&leitung, id, 1, 1, 1000).await;
    let result = app.data(id).result_at(1, 1).unwrap().id.0;
    s.login(&app, LEITUNG).await;
    s.goto(&format!(
        "{}/tournaments/{id}/results/{result}/edit",
        app.address
    ))
    .await;
    let typed = async {
        let a = s.browser.find(Locator::Id("points_a")).await?;
        a.clear().await?;
        a.send_keys("700").await
    };
    if let Err(e) = typed.await {
        s.fail(format!("typing team A: {e}")).await;
    }
    let b = s
        .js("return document.getElementById('points_b').value")
        .await;
    s.ensure(b == "1184", format!("team B is the rest of 1'884: {b}"))
        .await;
    s.goto(&format!("{}/tournaments/{id}", app.address)).await;
    let clicked = async {
        s.browser
            .find(Locator::Css(&format!(
                "form[action=\"/tournaments/{id}/close\"] button"
            )))
            .await?
            .click()
            .await?;
        let question = s.browser.get_alert_text().await?;
        s.browser.dismiss_alert().await?;
        Ok::<_, fantoccini::error::CmdError>(question)
    };
    let question = match clicked.await {
        Ok(q) => q,
        Err(e) => s.fail(format!("no question before closing: {e}")).await,
    };
    s.ensure(
        question.starts_with("Turnier abschliessen?"),
        question.clone(),
    )
    .await;
    // A form sent after the question would be on its way before the browser's next request:
    // the page loaded again (a round trip through the server) shows the close button still,
    // and the database an open tournament.
    s.goto(&format!("{}/tournaments/{id}", app.address)).await;
    let button = s
        .js(&format!(
            "return document.querySelectorAll('form[action=\"/tournaments/{id}/close\"] button').length"
        ))
        .await;
    s.ensure(
        button == 1,
        format!("the close button is still there: {button}"),
    )
    .await;
    s.ensure(
        !app.data(id).tournament.closed,
        "still open after Abbrechen",
    )
    .await;
}

/// Results from the table, in real browsers: one phone (390×844) reports its table's
/// result, the opponents' phone confirms it; the office's Tischliste, the live page and the
/// reporting phone show it without a reload.
#[tokio::test]
async fn a_phone_reports_the_other_confirms_and_office_and_hall_follow() {
    let Some(office) = open("table_office", 1920, 1080, false).await else {
        return;
    };
    let Some(phone_a) = open("table_phone_a", 390, 844, true).await else {
        return;
    };
    let Some(phone_b) = open("table_phone_b", 390, 844, true).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::table_entry::tournament_with_table_entry(&leitung).await;
    let codes = crate::table_entry::codes(&leitung, id).await;
    let data = app.data(id);
    let table = data.table(1, 1).unwrap();
    let (a, b) = (table.team_a.startnummer, table.team_b.startnummer);

    office.login(&app, LEITUNG).await;
    office
        .goto(&format!("{}/tournaments/{id}/live", app.address))
        .await;
    office
        .wait_for(
            "return !!document.getElementById('live-progress')",
            "the live page",
        )
        .await;
    let live_window = match office.browser.window().await {
        Ok(w) => w,
        Err(e) => office.fail(format!("window: {e}")).await,
    };
    let passe_window = match office.browser.new_window(true).await {
        Ok(w) => w.handle,
        Err(e) => office.fail(format!("new window: {e}")).await,
    };
    let _ = office.browser.switch_to_window(passe_window.clone()).await;
    office
        .goto(&format!("{}/tournaments/{id}/passen/1", app.address))
        .await;
    office
        .wait_for(
            "return !!document.getElementById('tisch-1')",
            "the Tischliste",
        )
        .await;
    office.js("window.notReloaded = true; return true").await;

    // Team a's phone: from the public team page to its table, by the printed code.
    phone_a
        .goto(&format!("{}/tournaments/{id}/team/{a}", app.address))
        .await;
    phone_a
        .wait_for(
            "return !!document.getElementById('enter-result')",
            "Resultat eingeben",
        )
        .await;
    phone_a
        .js("document.getElementById('enter-result').click(); return true")
        .await;
    phone_a
        .wait_for("return !!document.getElementById('code')", "the code form")
        .await;
    phone_a
        .keys(&format!(
            "{}{}",
            codes[&a.get()].to_lowercase(),
            char::from(Key::Enter)
        ))
        .await;
    phone_a
        .wait_for(
            "return !!document.getElementById('points')",
            "the entry form",
        )
        .await;
    phone_a
        .ensure(
            phone_a
                .js("return document.documentElement.scrollWidth <= window.innerWidth")
                .await
                == true,
            "no sideways scrolling on the phone",
        )
        .await;
    // The points field has the focus: one number, Enter.
    phone_a
        .keys(&format!("1000{}", char::from(Key::Enter)))
        .await;
    phone_a
        .wait_for(
            "return (document.getElementById('headline') || {}).textContent.indexOf('wartet') >= 0",
            "the report waiting for confirmation",
        )
        .await;
    // The reporter sees the report and a small, folded "ändern" (not a big button over an
    // empty field); every button a finger can hit (≥ 44 px); no staff login in the header.
    let shown = phone_a
        .js("var d = document.getElementById('change-report'); \
             var buttons = Array.prototype.slice.call(document.querySelectorAll('#table-phone button, #table-phone summary')) \
               .filter(function (b) { return b.offsetParent !== null; }); \
             return [document.getElementById('reported').textContent.indexOf(\"1'000\") >= 0, \
                     !!d && !d.open, d ? d.querySelector('summary').textContent : '', \
                     buttons.every(function (b) { return b.getBoundingClientRect().height >= 44; }), \
                     !document.querySelector('header a[href=\"/login\"]')]")
        .await;
    phone_a
        .ensure(
            shown == serde_json::json!([true, true, "ändern", true, true]),
            format!("the reporter's phone after reporting: {shown}"),
        )
        .await;
    phone_a.js("window.notReloaded = true; return true").await;

    // The office sees the report arrive, without a reload.
    office
        .wait_for(
            "return document.getElementById('tisch-1').textContent.indexOf('vom Tisch gemeldet') >= 0",
            "the report on the Tischliste",
        )
        .await;

    // Team b's phone confirms.
    phone_b
        .goto(&format!("{}/tournaments/{id}/team/{b}/tisch", app.address))
        .await;
    phone_b
        .wait_for("return !!document.getElementById('code')", "the code form")
        .await;
    phone_b
        .keys(&format!("{}{}", codes[&b.get()], char::from(Key::Enter)))
        .await;
    phone_b
        .wait_for(
            "return !!document.getElementById('confirm')",
            "the confirmation",
        )
        .await;
    let reported = phone_b
        .js("return document.getElementById('reported').textContent.replace(/\\s+/g, ' ')")
        .await;
    phone_b
        .ensure(
            reported
                .as_str()
                .is_some_and(|r| r.contains("1'000") && r.contains("884")),
            format!("the reported result on the opponents' phone: {reported}"),
        )
        .await;
    phone_b
        .js("document.getElementById('confirm').click(); return true")
        .await;
    phone_b
        .wait_for(
            "return (document.getElementById('headline') || {}).textContent.indexOf('bestätigt') >= 0",
            "the confirmation",
        )
        .await;

    // Everybody follows without a reload: the reporting phone, the office, the hall.
    phone_a
        .wait_for(
            "return window.notReloaded === true && document.getElementById('headline').textContent.indexOf('bestätigt') >= 0",
            "the confirmed result on the reporting phone",
        )
        .await;
    office
        .wait_for(
            "return window.notReloaded === true && document.getElementById('tisch-1').textContent.indexOf('1\\'000') >= 0 && document.getElementById('progress').textContent.indexOf('1 / 4') === 0",
            "the result on the Tischliste",
        )
        .await;
    let _ = office.browser.switch_to_window(live_window).await;
    office
        .wait_for(
            "return document.getElementById('live-progress').textContent.startsWith('1 / 4')",
            "the result on the live page",
        )
        .await;
    assert_eq!(
        app.data(id)
            .result_at(1, 1)
            .map(|r| (r.points_a.get(), r.points_b.get())),
        Some((1000, 884))
    );
}

/// The public team page (the QR code on the Standblatt) follows the results without a
/// reload (at most every 15 s, at a random moment: the first change within 3 s).
#[tokio::test]
async fn the_public_team_page_follows_its_results() {
    let Some(s) = open("team_page_follows", 390, 844, true).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    let a = app.data(id).table(1, 1).unwrap().team_a.startnummer;
    s.goto(&format!("{}/tournaments/{id}/team/{a}", app.address))
        .await;
    s.wait_for("return !!document.getElementById('seats')", "the team page")
        .await;
    s.js("window.notReloaded = true; return true").await;
    enter(&leitung, id, 1, 1, 1000).await;
    s.wait_for(
        "return window.notReloaded === true && document.querySelector('#seats tr[data-passe=\"1\"]').textContent.indexOf(\"1'000\") >= 0",
        "Passe 1's points on the team page",
    )
    .await;
}

/// The Absenden by keyboard: Space shows the next name, ← the one before; the live page
/// shows the same name and hides the Rangliste meanwhile.
#[tokio::test]
async fn the_absenden_goes_on_with_the_space_bar_and_the_hall_follows() {
    let Some(s) = open("absenden", 1920, 1080, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::absenden::finished(&app, &leitung).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/preise"),
            &[("prizes", "Gold\nSilber\nBronze")],
        )
        .await;
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    s.login(&app, LEITUNG).await;
    s.goto(&format!("{}/tournaments/{id}/absenden", app.address))
        .await;
    s.keys(&char::from(Key::Enter).to_string()).await;
    s.wait_for(
        "return (document.getElementById('what') || {}).textContent === '3. Rang'",
        "the first name after Absenden beginnen",
    )
    .await;
    s.keys(" ").await;
    s.wait_for(
        "return document.getElementById('what').textContent === '2. Rang'",
        "the next name after Space",
    )
    .await;
    s.keys(" ").await;
    s.wait_for(
        "return document.getElementById('what').textContent === '1. Rang' && !!document.getElementById('last')",
        "the winner, the last",
    )
    .await;
    s.keys(&char::from(Key::Left).to_string()).await;
    s.wait_for(
        "return document.getElementById('what').textContent === '2. Rang'",
        "the name before after ←",
    )
    .await;
    let name = s
        .js("return document.getElementById('name').textContent")
        .await;
    s.goto(&format!("{}/tournaments/{id}/live", app.address))
        .await;
    s.wait_for(
        "return !!document.getElementById('absenden-live')",
        "the Absenden on the live page",
    )
    .await;
    let shown = s
        .js("var box = document.getElementById('absenden-live'); return [box.querySelector('.name').textContent, getComputedStyle(document.getElementById('board')).display];")
        .await;
    s.ensure(
        shown == serde_json::json!([name, "none"]),
        format!("the live page shows {shown}, the Rangliste hidden"),
    )
    .await;
}

/// Registration by keyboard: typing suggests persons of the register, ↓ and Enter take one
/// (with Verein and Ort), and the new team's player is the same person as before.
#[tokio::test]
async fn registration_suggests_persons_of_the_register_by_keyboard() {
    let Some(s) = open("suggestions", 1280, 900, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let earlier = create_tournament(&leitung, "4", "12").await;
    import_teams(
        &leitung,
        earlier,
        "nr;spieler1;spieler2;verein;ort\n1;Anna Müller;Urs Bär;JC Uster;Uster\n"
            .as_bytes()
            .to_vec(),
    )
    .await;
    let id = create_tournament(&leitung, "4", "12").await;
    app.account(&leitung, BUERO, "buero").await;
    s.login(&app, BUERO).await;
    s.goto(&format!("{}/tournaments/{id}/teams", app.address))
        .await;
    s.js("document.getElementById('player1').focus(); return true")
        .await;
    s.keys("mül").await;
    s.wait_for(
        "var l = document.getElementById('player1-suggestions'); return !!l && !l.hidden && l.children.length === 1",
        "one suggestion",
    )
    .await;
    s.keys(&char::from(Key::Down).to_string()).await;
    s.keys(&char::from(Key::Enter).to_string()).await;
    let filled = s
        .js("return [document.getElementById('player1').value, document.getElementById('club').value, document.getElementById('place').value, document.getElementById('player1-suggestions').hidden]")
        .await;
    s.ensure(
        filled == serde_json::json!(["Anna Müller", "JC Uster", "Uster", true]),
        format!("taken: {filled}"),
    )
    .await;
    s.keys(&format!("\tBeat Neu{}", char::from(Key::Enter)))
        .await;
    s.wait_for(
        "return !!document.querySelector('.flash')",
        "the team saved",
    )
    .await;
    let data = app.data(id);
    s.ensure(
        data.teams.len() == 1 && data.teams[0].player1 == "Anna Müller",
        format!(
            "saved: {:?}",
            data.teams.iter().map(|t| &t.player1).collect::<Vec<_>>()
        ),
    )
    .await;
    let html = leitung.html("/personen?q=anna+müller").await;
    s.ensure(
        select_all(&html, "#persons tbody td:last-child") == ["2"],
        "the same person, now in two tournaments",
    )
    .await;
}

/// The series' standings follow a new result in one of its tournaments without a reload.
#[tokio::test]
async fn the_series_standings_follow_a_new_result_without_a_reload() {
    let Some(s) = open("series", 1920, 1080, false).await else {
        return;
    };
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "2", "2", "150", 4).await;
    crate::series::play_passe(&app, &leitung, id, 1, 0).await;
    leitung
        .post_ok(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    leitung
        .post_ok("/serien/1/turniere", &[(&format!("t_{id}"), "1")])
        .await;
    // A visitor, not logged in.
    s.goto(&format!("{}/serien/1", app.address)).await;
    s.wait_for(
        "return document.querySelectorAll('#standings tbody tr').length === 8",
        "the standings of Passe 1",
    )
    .await;
    let before = s
        .js("window.notReloaded = true; return document.getElementById('series-standings').dataset.version")
        .await;
    let table = app.data(id).tables(2)[0].number;
    enter(&leitung, id, 2, table, 300).await;
    s.wait_for(
        &format!(
            "return window.notReloaded === true && document.getElementById('series-standings').dataset.version !== {before}"
        ),
        "the new standings, the page not reloaded",
    )
    .await;
}
