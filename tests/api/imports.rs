//! The tournament import: checked like typed input, all or nothing, no accounts created,
//! big exports accepted.

use crate::helpers::*;
use jassturnier::db::transfer::Export;
use reqwest::StatusCode;
use scraper::Html;

/// A tournament with a visaed result and a final visa, exported.
async fn exported(app: &TestApp, leitung: &Client) -> Export {
    let kontrolle = app.account(leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_swiss(leitung).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "1000")],
        )
        .await;
    kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    let (_, _, json) = bytes(leitung, &format!("/tournaments/{id}/export.json")).await;
    serde_json::from_slice(&json).unwrap()
}

async fn import(leitung: &Client, doc: &Export) -> reqwest::Response {
    leitung
        .upload(
            "/tournaments/import",
            serde_json::to_vec(doc).unwrap(),
            Some(&leitung.csrf),
        )
        .await
}

#[tokio::test]
async fn an_import_is_checked_like_typed_input_and_writes_nothing_when_refused() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let good = exported(&app, &leitung).await;
    type Tamper = fn(&mut Export);
    let cases: [(&str, Tamper, &str); 7] = [
        (
            "against itself",
            |d| d.seats[0].opponent = Some(d.seats[0].startnummer),
            "unmöglicher Gegner",
        ),
        (
            "passe out of range",
            |d| d.seats[0].passe = 9,
            "gibt es nicht",
        ),
        (
            "unknown status",
            |d| d.teams[0].status = "gesperrt".into(),
            "unbekannter Status",
        ),
        (
            "long name",
            |d| d.teams[0].player1 = "x".repeat(300),
            "Team",
        ),
        (
            "result against itself",
            |d| d.results[0].team_b = d.results[0].team_a,
            "gegen sich selbst",
        ),
        ("wrong sum", |d| d.results[0].points_a += 1, "Summe"),
        (
            "tournament name",
            |d| d.tournament.name = "y".repeat(1000),
            "Turnier",
        ),
    ];
    for (what, tamper, says) in cases {
        let mut doc = good.clone();
        tamper(&mut doc);
        let before = app.dump();
        let r = import(&leitung, &doc).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{what}");
        let html = Html::parse_document(&r.text().await.unwrap());
        assert!(
            text(&html, "main").contains(says),
            "{what}: {}",
            text(&html, "main")
        );
        assert_eq!(app.dump(), before, "{what} wrote something");
    }
}

#[tokio::test]
async fn an_import_creates_no_accounts_and_names_its_authors_as_imported() {
    let source = spawn_app().await;
    let doc = exported(&source, &source.leitung().await).await;
    assert!(doc.results[0].visa_a.is_some());

    let target = spawn_app().await;
    let leitung = target.leitung().await;
    let users_before = leitung.html("/users").await;
    let r = import(&leitung, &doc).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let users_after = leitung.html("/users").await;
    assert_eq!(
        select_all(&users_before, "tbody tr").len(),
        select_all(&users_after, "tbody tr").len(),
        "no account was created"
    );
    let data = target.data(copy);
    let result = data.result_at(1, 1).unwrap();
    assert!(result.visa_a_by.is_none() && result.visa_a_at.is_some());
    let team = result.team_a_id;
    let sheet = leitung
        .html(&format!("/tournaments/{copy}/teams/{team}"))
        .await;
    assert!(text(&sheet, "#lines").contains("importiert: kontrolle"));
    let audit = leitung.html(&format!("/audit?tournament={copy}")).await;
    assert!(text(&audit, "main").contains("importiert: leitung"));
    // The imported tournament exports as it came in.
    let (_, _, again) = bytes(&leitung, &format!("/tournaments/{copy}/export.json")).await;
    let mut again: Export = serde_json::from_slice(&again).unwrap();
    assert_eq!(again.audit.pop().unwrap().action, "import");
    assert_eq!(again, doc);
}

#[tokio::test]
async fn a_big_export_imports() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let mut doc = exported(&app, &leitung).await;
    let entry = doc.audit[0].clone();
    while serde_json::to_vec(&doc).unwrap().len() < 5 * 1024 * 1024 {
        for _ in 0..1000 {
            let mut e = entry.clone();
            e.after = Some("x".repeat(500));
            doc.audit.push(e);
        }
    }
    let r = import(&leitung, &doc).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER, "a 5 MB export imports");
    let form = leitung.html("/").await;
    assert!(text(&form, "label[for=import-file]").contains("64 MB"));
}
