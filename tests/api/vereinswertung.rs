//! Vereinswertung (#79): the clubs ranked by their best teams, on the Rangliste page, in
//! the PDF and the JSON; a tournament without it shows none.

use crate::helpers::*;
use reqwest::StatusCode;
use std::collections::HashMap;

#[tokio::test]
async fn the_clubs_are_ranked_by_their_best_two_teams() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Vereinsjass"),
                ("date", "2026-12-05"),
                ("mode", "partnerschieber"),
                ("passen", "2"),
                ("spiele_per_passe", "2"),
                ("pauschale", "150"),
                ("club_best", "2"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let clubs = [
        "JC Uster",
        "Jassfreunde Zug",
        "JC Uster",
        "Jassfreunde Zug",
        "jc uster",
        "",
    ];
    let mut csv = String::from("nr;spieler1;spieler2;verein\n");
    for (n, club) in (1..).zip(clubs) {
        csv += &format!("{n};Anna{n};Urs{n};{club}\n");
    }
    import_teams(&leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "42")],
        )
        .await;
    let d = app.data(id);
    let mut totals: HashMap<u32, u32> = HashMap::new();
    for passe in 1..=2 {
        for t in d.tables(passe) {
            let a = (passe * 71 + t.number * 97) % 315;
            enter(&leitung, id, passe, t.number, a).await;
            *totals.entry(t.team_a.startnummer.get()).or_default() += a;
            *totals.entry(t.team_b.startnummer.get()).or_default() += 314 - a;
        }
    }
    // Apart from the app: per club the best two totals.
    let mut by_club: HashMap<&str, Vec<u32>> = HashMap::new();
    for (n, club) in (1u32..).zip(clubs) {
        if !club.is_empty() {
            by_club
                .entry(if club == "jc uster" { "JC Uster" } else { club })
                .or_default()
                .push(totals[&n]);
        }
    }
    let mut expected: Vec<(String, u32)> = by_club
        .into_iter()
        .map(|(club, mut t)| {
            t.sort_by(|a, b| b.cmp(a));
            (club.to_string(), t.iter().take(2).sum())
        })
        .collect();
    expected.sort_by_key(|e| std::cmp::Reverse(e.1));
    let html = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    let shown: Vec<(String, u32)> = select_all(&html, "#clubs tbody td:nth-child(2)")
        .into_iter()
        .zip(select_all(&html, "#clubs tbody td:nth-child(3)"))
        .map(|(club, total)| (club, total.replace('\'', "").parse().unwrap()))
        .collect();
    assert_eq!(shown, expected);
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/ranking.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["clubs"][0]["club"], expected[0].0.as_str());
    assert_eq!(json["clubs"][0]["total"], expected[0].1);
    assert_eq!(json["clubs"][0]["counted"].as_array().unwrap().len(), 2);
    let (_, _, pdf) = bytes(&leitung, &format!("/tournaments/{id}/ranking.pdf")).await;
    let text_pdf = pdf_pages(&pdf).join("\n");
    assert!(text_pdf.contains("Vereinswertung: es zählen die besten 2 Teams jedes Vereins"));

    // Without the setting: no club ranking anywhere.
    let other = create_tournament_with(&leitung, "Ohne", "2", "2", "150").await;
    let html = leitung.html(&format!("/tournaments/{other}/ranking")).await;
    assert!(select_all(&html, "#clubs").is_empty());
    let r = leitung
        .post(
            &format!("/tournaments/{other}/edit"),
            &[
                ("name", "X"),
                ("date", "2026-12-05"),
                ("mode", "partnerschieber"),
                ("passen", "2"),
                ("spiele_per_passe", "2"),
                ("pauschale", "150"),
                ("club_best", "0"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
}
