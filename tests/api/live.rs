use crate::helpers::*;
use jassturnier::db::tournament_data as results;
use jassturnier::domain::ids::TournamentId;
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

/// Reads the event stream until `want` appears or the time is up.
async fn read_until(response: &mut reqwest::Response, want: &str, within: Duration) -> String {
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + within;
    while !seen.contains(want) {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => seen += &String::from_utf8_lossy(&chunk),
            _ => break,
        }
    }
    seen
}

#[tokio::test]
async fn the_event_stream_announces_a_saved_result() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament(&app, &leitung).await;
    let anonymous = app.client();
    let mut stream = anonymous
        .get(&format!("/tournaments/{id}/live/events"))
        .await;
    assert_eq!(stream.status(), StatusCode::OK);
    assert_eq!(
        stream.headers().get("content-type").unwrap(),
        "text/event-stream"
    );
    let first = read_until(&mut stream, "\n\n", Duration::from_secs(5)).await;
    let version: i32 = first
        .trim()
        .rsplit("data: ")
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "2"), ("points_a", "950")],
        )
        .await;
    let next = format!("data: {}", version + 1);
    let seen = read_until(&mut stream, &next, Duration::from_secs(3)).await;
    assert!(
        seen.contains("event: version") && seen.contains(&next),
        "{seen:?}"
    );
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
