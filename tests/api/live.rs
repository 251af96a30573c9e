use crate::helpers::*;
use jassturnier::db::tournament_data as results;
use jassturnier::domain::ids::TournamentId;
use jassturnier::web::live::model::{Delta, LiveModel, RowModel, SectionModel, apply};
use reqwest::StatusCode;
use scraper::Html;
use std::time::Duration;

async fn tournament(app: &TestApp, leitung: &Client) -> i32 {
    let id = create_tournament(leitung, "3", "12").await;
    import_teams(leitung, id, fixture("teams_semikolon_cp1252.csv")).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "3")],
        )
        .await;
    let _ = app;
    id
}

async fn etag(client: &Client, path: &str) -> (String, Html) {
    let r = client.get(path).await;
    assert_eq!(r.status(), StatusCode::OK);
    let tag = r
        .headers()
        .get("etag")
        .expect("ETag")
        .to_str()
        .unwrap()
        .to_string();
    (tag, Html::parse_document(&r.text().await.unwrap()))
}

#[tokio::test]
async fn live_page_is_public_and_shows_the_provisional_ranking() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "1100")],
        )
        .await;
    let anonymous = app.client();
    let (status, html) = anonymous.page(&format!("/tournaments/{id}/live")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text(&html, "h1"), "Herbstturnier Zürich");
    assert_eq!(text(&html, "#live-progress"), "1 / 2 Tische erfasst");
    assert_eq!(text(&html, "#current-passe"), "Passe 1 von 3");
    let rows = select_all(&html, "#board tr.row");
    assert_eq!(rows.len(), 4);
    assert!(
        rows[0].starts_with("1.")
            && rows[0].contains("1'100")
            && rows[0].contains("Resultate fehlen"),
        "{rows:?}"
    );
    assert_eq!(select_all(&html, "#podium li").len(), 3);
    assert!(html.html().contains("<svg"), "QR code for phones");
    // Without JavaScript a phone finds its team with ?nr=.
    let (_, html) = anonymous
        .page(&format!("/tournaments/{id}/live?nr=2"))
        .await;
    assert!(text(&html, "#own").contains("Die Schellen"));
    // A disqualified team shows as such.
    let team = {
        let mut conn = app.pool.get().unwrap();
        results::load(&mut conn, TournamentId(id)).unwrap().teams[3].id
    };
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{team}/status"),
            &[
                ("action", "disqualify"),
                ("passe", "2"),
                ("reason", "Verwarnung"),
            ],
        )
        .await;
    let (_, html) = anonymous.page(&format!("/tournaments/{id}/live")).await;
    assert!(text(&html, "#board").contains("disqualifiziert"));
}

#[tokio::test]
async fn hidden_tournaments_answer_404() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    leitung
        .post_ok(&format!("/tournaments/{id}/hide"), &[])
        .await;
    let anonymous = app.client();
    assert_eq!(
        anonymous
            .get(&format!("/tournaments/{id}/live"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        anonymous
            .get(&format!("/tournaments/{id}/live/events"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        anonymous.get("/tournaments/999/live").await.status(),
        StatusCode::NOT_FOUND
    );
    leitung
        .post_ok(&format!("/tournaments/{id}/publish"), &[])
        .await;
    assert_eq!(
        anonymous
            .get(&format!("/tournaments/{id}/live"))
            .await
            .status(),
        StatusCode::OK
    );
}

#[tokio::test]
async fn etag_gives_304_and_every_kind_of_write_invalidates_the_cache() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = tournament(&app, &leitung).await;
    let live = format!("/tournaments/{id}/live");
    let anonymous = app.client();
    let (first, _) = etag(&anonymous, &live).await;
    let r = anonymous
        .http
        .get(anonymous.url(&live))
        .header("If-None-Match", &first)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    assert!(r.bytes().await.unwrap().is_empty());
    let (again, _) = etag(&anonymous, &live).await;
    assert_eq!(again, first, "no write, same page");

    let mut seen = vec![first];
    let mut expect_new = |tag: String, what: &str| {
        assert!(
            !seen.contains(&tag),
            "{what} did not invalidate the live page"
        );
        seen.push(tag);
    };
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "1000")],
        )
        .await;
    let (tag, html) = etag(&anonymous, &live).await;
    assert!(text(&html, "#board").contains("1'000"));
    expect_new(tag, "entry");
    let result = {
        let mut conn = app.pool.get().unwrap();
        results::load(&mut conn, TournamentId(id)).unwrap().results[0].clone()
    };
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/correct"),
            &[
                ("table", "1"),
                ("version", &result.version.to_string()),
                ("points_a", "1200"),
                ("points_b", "684"),
            ],
        )
        .await;
    let (tag, html) = etag(&anonymous, &live).await;
    assert!(text(&html, "#board").contains("1'200"));
    expect_new(tag, "correction");
    kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    let (tag, _) = etag(&anonymous, &live).await;
    expect_new(tag, "visa");
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", result.team_b_id),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "")],
        )
        .await;
    let (tag, html) = etag(&anonymous, &live).await;
    assert!(text(&html, "#board").contains("zurückgezogen"));
    expect_new(tag, "withdrawal");
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", result.team_b_id),
            &[("action", "reinstate")],
        )
        .await;
    let (tag, _) = etag(&anonymous, &live).await;
    expect_new(tag, "undo");
}

/// One Server-Sent Event: (event, id, data).
type Event = (String, String, String);

/// Reads the event stream until `count` events arrived or the time is up; also returns the
/// bytes they took.
pub async fn events(
    response: &mut reqwest::Response,
    count: usize,
    within: Duration,
) -> (Vec<Event>, usize) {
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let parsed: Vec<Event> = seen
            .split("\n\n")
            .filter(|block| block.starts_with("event: "))
            .filter(|block| seen.contains(&format!("{block}\n\n")))
            .map(|block| {
                let field = |name: &str| {
                    block
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .unwrap_or_default()
                        .to_string()
                };
                (field("event: "), field("id: "), field("data: "))
            })
            .collect();
        if parsed.len() >= count {
            return (parsed, seen.len());
        }
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => seen += &String::from_utf8_lossy(&chunk),
            _ => return (parsed, seen.len()),
        }
    }
}

/// The live page as the delta protocol sees it, read from the HTML (cells re-serialised, so
/// that the page and the event compare alike).
pub fn page_model(html: &Html) -> LiveModel {
    let version: i32 = attr(html, "body", "data-version").unwrap().parse().unwrap();
    let part = |id: &str| {
        let sel = scraper::Selector::parse(&format!("#{id}")).unwrap();
        normalized(
            &html
                .select(&sel)
                .next()
                .map(|e| e.inner_html())
                .unwrap_or_default(),
        )
    };
    let sections = html
        .select(&scraper::Selector::parse("#board table.source tbody").unwrap())
        .map(|tbody| SectionModel {
            ranked: tbody
                .select(&scraper::Selector::parse("tr.section-row").unwrap())
                .next()
                .is_none(),
            rows: tbody
                .select(&scraper::Selector::parse("tr.row").unwrap())
                .map(|tr| {
                    let cells: Vec<_> = tr
                        .select(&scraper::Selector::parse("td").unwrap())
                        .collect();
                    RowModel {
                        nr: tr.value().attr("data-team").unwrap().parse().unwrap(),
                        rank: cells[0].text().collect(),
                        cells: cells[1..].iter().map(|c| c.html()).collect(),
                    }
                })
                .collect(),
        })
        .collect();
    LiveModel {
        version,
        frame: String::new(),
        parts: [
            "current-passe",
            "live-progress",
            "running-tafeln",
            "updated",
            "clock-box",
            "podium-box",
            "legend-marks",
        ]
        .into_iter()
        .map(|id| (id, part(id)))
        .collect(),
        sections,
    }
}

fn normalized(fragment: &str) -> String {
    Html::parse_fragment(fragment).root_element().inner_html()
}

fn normalized_cells(cells: &str) -> String {
    let table = Html::parse_fragment(&format!("<table><tr>{cells}</tr></table>"));
    table
        .select(&scraper::Selector::parse("td").unwrap())
        .map(|c| c.html())
        .collect()
}

/// The event of one entered result carries the change, not the page: the two teams' rows
/// with their places, the progress, the ranks to rewrite, a few hundred bytes. Applied to the
/// page before, it gives the page after. A reconnect with a known `Last-Event-ID` gets the
/// deltas it missed, one with an unknown id a reset.
#[tokio::test]
async fn an_entered_result_reaches_the_live_page_as_a_delta() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    enter(&leitung, id, 1, 1, 1100).await;
    let anonymous = app.client();
    let live = format!("/tournaments/{id}/live");
    let (_, before) = anonymous.page(&live).await;
    let before = page_model(&before);
    let mut stream = anonymous
        .get(&format!(
            "/tournaments/{id}/live/events?v={}",
            before.version
        ))
        .await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(
        stream.headers().get("content-type").unwrap(),
        "text/event-stream"
    );
    enter(&leitung, id, 1, 2, 950).await;
    let (got, bytes) = events(&mut stream, 1, Duration::from_secs(5)).await;
    assert_eq!(got.len(), 1, "{got:?}");
    let (event, event_id, data) = &got[0];
    assert_eq!(event, "delta");
    let mut delta: Delta = serde_json::from_str(data).unwrap();
    assert_eq!((delta.base, delta.v), (before.version, before.version + 1));
    assert_eq!(event_id, &delta.v.to_string());
    assert!(bytes < 1000, "{bytes} bytes: {data}");
    let teams = results::load(&mut app.pool.get().unwrap(), TournamentId(id)).unwrap();
    let table = teams.table(1, 2).unwrap();
    let mut sent: Vec<u32> = delta.rows.iter().map(|r| r.0).collect();
    sent.sort();
    let mut seated = vec![
        table.team_a.startnummer.get(),
        table.team_b.startnummer.get(),
    ];
    seated.sort();
    assert_eq!(sent, seated, "exactly the two teams of table 2");
    assert!(
        data.contains("Passe 2 von 3") && data.contains("0 / 2 Tische erfasst"),
        "Passe 1 is complete: {data}"
    );

    let (_, after) = anonymous.page(&live).await;
    let after = page_model(&after);
    for row in &mut delta.rows {
        row.4 = normalized_cells(&row.4);
    }
    for part in &mut delta.parts {
        part.1 = normalized(&part.1);
    }
    assert_eq!(apply(&before, &delta).as_ref(), Some(&after));

    // Reconnecting after two visas: both deltas, in order.
    for table in [1, 2] {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/passen/1/tables/{table}/visa"),
                &[],
            )
            .await;
    }
    let resumed = |last: i32| {
        anonymous
            .http
            .get(anonymous.url(&format!("/tournaments/{id}/live/events?v=1")))
            .header("Last-Event-ID", last.to_string())
            .send()
    };
    let mut again = resumed(after.version).await.unwrap();
    let (got, _) = events(&mut again, 2, Duration::from_secs(5)).await;
    let kinds: Vec<(&str, i32)> = got
        .iter()
        .map(|(e, i, _)| (e.as_str(), i.parse().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        vec![("delta", after.version + 1), ("delta", after.version + 2)]
    );
    // The first result of Passe 2 adds its column: the page is fetched.
    enter(&leitung, id, 2, 1, 700).await;
    let (got, _) = events(&mut again, 1, Duration::from_secs(5)).await;
    assert_eq!(got.first().map(|e| e.0.as_str()), Some("reset"), "{got:?}");
    // An id the server does not know (from before a restart): fetch the page.
    let mut lost = resumed(after.version - 100).await.unwrap();
    let (got, _) = events(&mut lost, 1, Duration::from_secs(5)).await;
    assert_eq!(got[0].0, "reset", "{got:?}");
}

#[tokio::test]
async fn browsers_get_the_page_compressed_with_its_own_etag() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    let live = format!("/tournaments/{id}/live");
    let anonymous = app.client();
    let (plain_tag, plain) = etag(&anonymous, &live).await;
    let get = |headers: &[(&str, &str)]| {
        let mut request = anonymous.http.get(anonymous.url(&live));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send()
    };
    let r = get(&[("Accept-Encoding", "gzip, deflate, br")])
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["content-encoding"], "gzip");
    assert_eq!(r.headers()["vary"], "Accept-Encoding");
    let gz_tag = r.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(gz_tag, plain_tag, "two representations, two ETags");
    let packed = r.bytes().await.unwrap();
    let mut html = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&packed[..]), &mut html)
        .unwrap();
    assert_eq!(
        text(&Html::parse_document(&html), "#board"),
        text(&plain, "#board")
    );
    assert!(
        packed.len() * 3 < html.len(),
        "compressed: {} of {}",
        packed.len(),
        html.len()
    );
    let r = get(&[("Accept-Encoding", "gzip"), ("If-None-Match", &gz_tag)])
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_MODIFIED);
    // A client without gzip never gets it, not even a 304 for the compressed one.
    let r = get(&[("If-None-Match", &gz_tag)]).await.unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(r.headers().get("content-encoding").is_none());
}

/// A write from outside the server (the command line, another process) is found by the
/// poller, and the open pages still get it as an event.
#[tokio::test]
async fn a_write_from_outside_the_server_reaches_the_open_pages() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    enter(&leitung, id, 1, 1, 1100).await;
    let anonymous = app.client();
    let (_, page) = anonymous.page(&format!("/tournaments/{id}/live")).await;
    let version = page_model(&page).version;
    let mut stream = anonymous
        .get(&format!("/tournaments/{id}/live/events?v={version}"))
        .await;
    {
        use diesel::RunQueryDsl;
        let mut conn = app.pool.get().unwrap();
        diesel::sql_query(format!(
            "UPDATE tournaments SET version = version + 1 WHERE id = {id}"
        ))
        .execute(&mut conn)
        .unwrap();
    }
    let (got, _) = events(&mut stream, 1, Duration::from_secs(5)).await;
    assert_eq!(
        got.first().map(|(event, v, _)| (event.as_str(), v.clone())),
        Some(("delta", (version + 1).to_string())),
        "{got:?}"
    );
}

/// After a restart no live page is cached: 300 viewers asking at once cause exactly one
/// render; the others wait for it.
#[tokio::test]
async fn a_cold_live_page_is_rendered_once_for_300_simultaneous_viewers() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "3", "12").await;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=40 {
        csv += &format!("{n};Anna{n};Urs{n}\n");
    }
    import_teams(&leitung, id, csv.into_bytes()).await;
    assert_eq!(app.live.render_count(), 0, "nobody looked yet");
    let http = reqwest::Client::new();
    let url = format!("{}/tournaments/{id}/live", app.address);
    let requests: Vec<_> = (0..300)
        .map(|_| {
            let (http, url) = (http.clone(), url.clone());
            tokio::spawn(async move { http.get(&url).send().await.map(|r| r.status()) })
        })
        .collect();
    for r in requests {
        assert_eq!(r.await.unwrap().unwrap(), reqwest::StatusCode::OK);
    }
    assert_eq!(app.live.render_count(), 1);
}

/// Every public Rangliste format (and the team pages' tournament) is rendered (loaded) once per
/// version and then served from memory:
/// a change behind the server's back (no new version) is not seen by anonymous readers,
/// while the office, served fresh, sees it; the next write through the server brings it to
/// everybody. Hidden tournaments stay hidden.
#[tokio::test]
async fn public_ranking_formats_are_rendered_once_per_version() {
    use diesel::prelude::*;
    use jassturnier::db::schema::teams;
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    let hall = app.client_at("127.0.0.7");
    let formats = [
        "ranking".to_string(),
        "ranking.json".to_string(),
        "ranking.csv".to_string(),
        "ranking.pdf".to_string(),
        "ranking.json?official=1".to_string(),
        "live?nr=1".to_string(),
        // The team page from the QR code: rendered per request, but from the tournament as
        // loaded once per version.
        "team/1".to_string(),
    ];
    let mut first = Vec::new();
    for f in &formats {
        first.push(fetch(&hall, id, f).await);
    }
    let team = app.data(id).teams[0].id;
    {
        let mut conn = app.pool.get().unwrap();
        diesel::update(teams::table.find(team))
            .set(teams::name.eq(Some("Hinter dem Rücken")))
            .execute(&mut conn)
            .unwrap();
    }
    for (f, before) in formats.iter().zip(&first) {
        assert_eq!(&fetch(&hall, id, f).await, before, "{f}: from the cache");
    }
    let office = String::from_utf8_lossy(&fetch(&leitung, id, "ranking.json").await).into_owned();
    assert!(
        office.contains("Hinter dem Rücken"),
        "the office is served fresh"
    );
    enter(&leitung, id, 1, 1, 900).await;
    let json = String::from_utf8_lossy(&fetch(&hall, id, "ranking.json").await).into_owned();
    assert!(
        json.contains("Hinter dem Rücken"),
        "a new version is rendered anew"
    );
    leitung
        .post_ok(&format!("/tournaments/{id}/hide"), &[])
        .await;
    for f in &formats {
        let r = hall.get(&format!("/tournaments/{id}/{f}")).await;
        assert_eq!(r.status(), StatusCode::NOT_FOUND, "{f}");
    }
}

async fn fetch(client: &Client, id: i32, format: &str) -> Vec<u8> {
    let path = format!("/tournaments/{id}/{format}");
    let r = client.get(&path).await;
    assert_eq!(r.status(), StatusCode::OK, "{path}");
    r.bytes().await.unwrap().to_vec()
}
