//! The hall: phones reach a public team page from the Standblatt's QR code, the Halle page
//! tells the office how phones reach the server, HEAD works, the live page is linked.

use crate::helpers::*;
use reqwest::StatusCode;

#[tokio::test]
async fn the_qr_code_opens_a_public_team_page_that_says_where_the_team_sits() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 4).await;
    let d = app.data(id);
    let team = d.teams[1].clone();
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/teams/{}/standblatt.pdf", team.id),
    )
    .await;
    let url = pdf_qr(&pdf, 0).expect("QR code");
    assert_eq!(
        url,
        format!(
            "{}/tournaments/{id}/team/{}",
            leitung.address, team.startnummer
        )
    );
    // A phone without login opens it.
    let phone = app.client();
    let (status, html) = phone.page(&url.replace(&phone.address, "")).await;
    assert_eq!(status, StatusCode::OK);
    let table = d
        .tables(1)
        .into_iter()
        .find(|t| t.team_a.id == team.id || t.team_b.id == team.id)
        .unwrap();
    let opponent = if table.team_a.id == team.id {
        table.team_b
    } else {
        table.team_a
    };
    assert_eq!(
        text(&html, "#next"),
        format!(
            "Passe 1: Tisch {} gegen {} Anna{} / Urs{}",
            table.number, opponent.startnummer, opponent.startnummer, opponent.startnummer
        )
    );
    assert_eq!(
        select_all(&html, "#seats tbody tr").len(),
        3,
        "every Passe with its table"
    );
    // After a result: points and provisional rank.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", &table.number.to_string()), ("points_a", "1000")],
        )
        .await;
    let html = phone
        .html(&format!("/tournaments/{id}/team/{}", team.startnummer))
        .await;
    let first = &select_all(&html, "#seats tbody tr")[0];
    assert!(first.contains("1'000") || first.contains("884"), "{first}");
    assert!(text(&html, "#standing").contains("Rang"));
    assert!(text(&html, "#next").starts_with("Passe 2: Tisch"));
    // Public pages off: no team page for strangers, no QR code on the Standblatt.
    leitung
        .post_ok(&format!("/tournaments/{id}/hide"), &[])
        .await;
    assert_eq!(
        phone
            .get(&format!("/tournaments/{id}/team/{}", team.startnummer))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/teams/{}/standblatt.pdf", team.id),
    )
    .await;
    assert_eq!(pdf_qr(&pdf, 0), None);
    assert!(pdf_pages(&pdf)[0].contains("Öffentliche Seiten aus: kein QR-Code"));
}

#[tokio::test]
async fn the_halle_page_warns_about_loopback_and_shows_a_test_qr() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let html = leitung.html("/halle").await;
    // The test app listens on 127.0.0.1: phones cannot reach it.
    assert!(
        text(&html, "#loopback-warning").contains("Telefone im Saal erreichen diesen Server nicht")
    );
    assert!(text(&html, "#bind-command").starts_with("jassturnier --bind 0.0.0.0:"));
    assert_eq!(text(&html, "#addresses"), "Keine (nur dieser Computer).");
    assert!(text(&html, "#public-url").contains("Keine öffentliche Adresse gesetzt"));
    let test_url = text(&html, "#test-url");
    assert!(test_url.ends_with("/hallentest"), "{test_url}");
    assert!(!select_all(&html, "#test-qr svg").is_empty());
    let (status, page) = app.client().page("/hallentest").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(text(&page, "#ok"), "Verbindung zum Turnierbüro: OK");
    // Only the Leitung.
    let buero = app.account(&leitung, BUERO, "buero").await;
    assert_eq!(buero.get("/halle").await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn head_is_answered_like_get_and_every_tournament_links_its_live_page() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 4).await;
    let html = leitung.html(&format!("/tournaments/{id}")).await;
    assert_eq!(
        attr(&html, "#nav-live", "href"),
        Some(format!("/tournaments/{id}/live"))
    );
    let http = reqwest::Client::new();
    for path in [
        format!("/tournaments/{id}/live"),
        format!("/tournaments/{id}/ranking"),
        "/healthz".into(),
    ] {
        let r = http
            .head(format!("{}{path}", app.address))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK, "HEAD {path}");
        assert!(
            r.bytes().await.unwrap().is_empty(),
            "no body for HEAD {path}"
        );
    }
    let r = http
        .head(format!("{}/nowhere", app.address))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
}

/// Printing Standblätter while the server listens on this computer only and no public
/// address is set: the page with the print links warns that the QR codes point here; with
/// a public address (or the hall's bind) it does not.
#[tokio::test]
async fn the_print_links_warn_while_qr_codes_would_point_at_this_computer() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 4).await;
    let page = leitung.html(&format!("/tournaments/{id}")).await;
    assert!(
        text(&page, "#qr-warning").contains("zeigen auf diesen Computer"),
        "{}",
        text(&page, "#prints")
    );
    let public = spawn_app_with(|s| s.public_url = Some("http://192.168.1.20:8080".into())).await;
    let leitung = public.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 4).await;
    let page = leitung.html(&format!("/tournaments/{id}")).await;
    assert!(select_all(&page, "#qr-warning").is_empty());
}
