//! Gabentisch and Absenden (#79): a prize list through the official Rangliste to the prize
//! giving, screen by screen, mirrored on the live page; the prints; reopening withdraws it.

use crate::helpers::*;
use reqwest::StatusCode;
use scraper::Html;

/// Four teams, two Passen à 2 Spiele, every result entered and visaed, every final visa.
pub(crate) async fn finished(app: &TestApp, leitung: &Client) -> i32 {
    let id = drawn_field(leitung, "2", "2", "150", 4).await;
    play_and_visa(app, leitung, id, 0).await;
    id
}

/// Every table of a drawn field of two Passen entered (team A's points shifted by `shift`)
/// and visaed, every team's Endvisa.
pub(crate) async fn play_and_visa(app: &TestApp, leitung: &Client, id: i32, shift: u32) {
    let d = app.data(id);
    for passe in 1..=2 {
        for t in d.tables(passe) {
            enter(
                leitung,
                id,
                passe,
                t.number,
                (100 + passe * 40 + t.number * 30 + shift) % 300,
            )
            .await;
            leitung
                .post_ok(
                    &format!("/tournaments/{id}/passen/{passe}/tables/{}/visa", t.number),
                    &[],
                )
                .await;
        }
    }
    for team in &d.teams {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/teams/{}/final-visa", team.id),
                &[],
            )
            .await;
    }
}

async fn absenden(client: &Client, id: i32, step: &str) -> reqwest::Response {
    client
        .post(&format!("/tournaments/{id}/absenden"), &[("step", step)])
        .await
}

#[tokio::test]
async fn the_prize_giving_reads_the_official_rangliste_from_the_last_prize_up() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = finished(&app, &leitung).await;
    let prizes = format!("/tournaments/{id}/preise");

    // A gap in the list and an unknown Startnummer: refused at their fields, nothing written.
    let before = app.dump();
    let r = leitung
        .post(
            &prizes,
            &[
                ("prizes", "Goldvreneli\n\nFrüchtekorb"),
                ("special", "beste Dame; 99; Blumen"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#prizes-error").starts_with("Zeile 2: leer"));
    assert!(text(&html, "#special-error").contains("Startnummer 99 gibt es"));
    assert_eq!(
        attr(&html, "#prizes", "aria-invalid").as_deref(),
        Some("true")
    );
    assert_eq!(app.dump(), before, "nothing written");

    // The Büro neither sees nor changes the list.
    assert_eq!(
        buero.get(&prizes).await.status(),
        StatusCode::FORBIDDEN,
        "prizes are the Leitung's"
    );

    // A column pasted from Excel (CR LF, a second column) and a special prize.
    let html = leitung
        .post_ok(
            &prizes,
            &[
                (
                    "prizes",
                    "Goldvreneli\r\nGutschein Fr. 100.–\tx\r\nFrüchtekorb\r\n",
                ),
                ("others", ""),
                ("special", "beste Dame; 2; Blumenstrauss"),
            ],
        )
        .await;
    assert_eq!(text(&html, ".flash"), "Preisliste gespeichert.");
    assert_eq!(
        html.select(&scraper::Selector::parse("#prizes").unwrap())
            .next()
            .unwrap()
            .text()
            .collect::<String>(),
        "Goldvreneli\nGutschein Fr. 100.–\nFrüchtekorb"
    );
    // The order it will be read out: the special prize, then 3rd, 2nd, 1st place.
    let order = select_all(&html, "#readout tbody td:nth-child(2)");
    assert_eq!(order, ["beste Dame", "3. Rang", "2. Rang", "1. Rang"]);

    // Only the official Rangliste is read out.
    let r = absenden(&leitung, id, "start").await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = leitung.html(&format!("/tournaments/{id}/absenden")).await;
    assert!(text(&page, "#not-closed").contains("zuerst alle Endvisa"));

    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let official = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    let names_by_rank: Vec<String> = select_attr(&official, "#section-1 tbody tr", "data-team");
    let d = app.data(id);
    let name_of = |team_id: &str| {
        let t = d
            .teams
            .iter()
            .find(|t| t.id.0.to_string() == team_id)
            .unwrap();
        format!("{} / {}", t.player1, t.player2)
    };

    assert_eq!(
        buero
            .post(&format!("/tournaments/{id}/absenden"), &[("step", "start")])
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    let r = absenden(&leitung, id, "start").await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let screen = leitung.html(&format!("/tournaments/{id}/absenden")).await;
    assert_eq!(text(&screen, "#what"), "beste Dame");
    assert_eq!(text(&screen, "#prize"), "Blumenstrauss");
    assert_eq!(text(&screen, "#progress"), "Preis 1 von 4");
    let live = app.client().html(&format!("/tournaments/{id}/live")).await;
    assert!(text(&live, "#absenden-live").contains("Blumenstrauss"));

    let mut shown = Vec::new();
    for _ in 0..3 {
        assert_eq!(
            absenden(&leitung, id, "next").await.status(),
            StatusCode::SEE_OTHER
        );
        let screen = leitung.html(&format!("/tournaments/{id}/absenden")).await;
        shown.push((
            text(&screen, "#what"),
            text(&screen, "#name"),
            text(&screen, "#prize"),
        ));
    }
    assert_eq!(
        shown,
        [
            (
                "3. Rang".to_string(),
                name_of(&names_by_rank[2]),
                "Früchtekorb".to_string()
            ),
            (
                "2. Rang".to_string(),
                name_of(&names_by_rank[1]),
                "Gutschein Fr. 100.–".to_string()
            ),
            (
                "1. Rang".to_string(),
                name_of(&names_by_rank[0]),
                "Goldvreneli".to_string()
            ),
        ]
    );
    let screen = leitung.html(&format!("/tournaments/{id}/absenden")).await;
    assert_eq!(text(&screen, "#last"), "Das war der letzte Preis.");
    assert!(select_all(&screen, "#next-form").is_empty());
    // The live page follows: the winner on the hall's screens.
    let live = app.client().html(&format!("/tournaments/{id}/live")).await;
    assert!(text(&live, "#absenden-live").contains(&name_of(&names_by_rank[0])));
    // Past the last: stays on the winner; back: the 2nd place again.
    absenden(&leitung, id, "next").await;
    let screen = leitung.html(&format!("/tournaments/{id}/absenden")).await;
    assert_eq!(text(&screen, "#what"), "1. Rang");
    absenden(&leitung, id, "back").await;
    let screen = leitung.html(&format!("/tournaments/{id}/absenden")).await;
    assert_eq!(text(&screen, "#what"), "2. Rang");

    // While it runs the list stays as read out.
    let r = leitung.post(&prizes, &[("prizes", "Anderes")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // The prints.
    let (status, _, pdf) = bytes(&buero, &format!("/tournaments/{id}/preisliste.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    let text_pdf = pdf_pages(&pdf).join("\n");
    for words in [
        "Preisliste",
        "Abgegeben",
        "beste Dame",
        "Goldvreneli",
        "Früchtekorb",
    ] {
        assert!(text_pdf.contains(words), "{words}: {text_pdf}");
    }
    let (_, _, pdf) = bytes(&buero, &format!("/tournaments/{id}/urkunden.pdf")).await;
    let pages = pdf_pages(&pdf);
    assert_eq!(pages.len(), 4, "the podium and the special prize");
    assert!(pages[0].contains("Urkunde") && pages[0].contains("1. Rang"));
    assert!(pages[0].contains(&name_of(&names_by_rank[0])));
    assert!(pages[3].contains("beste Dame"));
    assert!(
        !pages[0].contains("Seite 1 von"),
        "a certificate has no running footer"
    );
    let anonymous = app.client();
    let r = anonymous
        .get(&format!("/tournaments/{id}/urkunden.pdf"))
        .await;
    assert_ne!(r.status(), StatusCode::OK, "prints are the office's");

    // Reopening withdraws the Absenden.
    leitung
        .post_ok(&format!("/tournaments/{id}/reopen"), &[])
        .await;
    let page = leitung.html(&format!("/tournaments/{id}/absenden")).await;
    assert!(select_all(&page, "#absenden").is_empty());
    let live = app.client().html(&format!("/tournaments/{id}/live")).await;
    assert!(select_all(&live, "#absenden-live").is_empty());
    let actions = app.audit_actions();
    assert!(actions.contains(&"tournament:prizes".to_string()));
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "tournament:absenden")
            .count(),
        1,
        "the start is in the Protokoll, not every step"
    );
    // The export carries the prize list; its import reads out alike.
    let (_, _, export) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let doc: serde_json::Value = serde_json::from_slice(&export).unwrap();
    assert_eq!(doc["prizes"]["by_place"][0], "Goldvreneli");
    let copy = import_export(&leitung, export).await;
    let original = leitung.html(&prizes).await;
    let copied = leitung.html(&format!("/tournaments/{copy}/preise")).await;
    assert_eq!(
        select_all(&copied, "#readout tbody tr"),
        select_all(&original, "#readout tbody tr")
    );
}
