//! Streichresultat (#79): only the best Passen count. A whole tournament under "die 3 besten
//! von 4" through the official Rangliste: page, Standblatt, PDF, CSV, JSON, live page and the
//! export; the form refuses a count that is not fewer than the Passen.

use crate::helpers::*;
use reqwest::StatusCode;
use std::collections::HashMap;

const TOTAL: u32 = 314;

/// Team A's points at a table: varied, fixed by Passe and table.
fn points_a(passe: u32, table: u32) -> u32 {
    (passe + table * 18 + passe * table * 31) % (TOTAL + 1)
}

/// The order by the rule, computed apart from the app: the best `k` Passen summed; ties by
/// the counted Passen best first, then the struck ones; then Startnummer.
fn expected_order(points: &HashMap<u32, Vec<u32>>, k: usize) -> Vec<(u32, u32)> {
    let mut order: Vec<(u32, u32, Vec<u32>)> = points
        .iter()
        .map(|(nr, p)| {
            let mut sorted = p.clone();
            sorted.sort_by(|a, b| b.cmp(a));
            (*nr, sorted[..k].iter().sum(), sorted)
        })
        .collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    order
        .into_iter()
        .map(|(nr, total, _)| (nr, total))
        .collect()
}

#[tokio::test]
async fn only_the_best_three_of_four_passen_count_everywhere() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Klubmeisterschaft"),
                ("date", "2026-12-05"),
                ("location", "Uster"),
                ("mode", "partnerschieber"),
                ("passen", "4"),
                ("spiele_per_passe", "2"),
                ("pauschale", "150"),
                ("counted_best", "3"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=6 {
        csv += &format!("{n};Anna{n};Urs{n}\n");
    }
    import_teams(&leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "42")],
        )
        .await;
    let d = app.data(id);
    let mut points: HashMap<u32, Vec<u32>> = HashMap::new();
    for passe in 1..=4 {
        for t in d.tables(passe) {
            let a = points_a(passe, t.number);
            enter(&leitung, id, passe, t.number, a).await;
            points
                .entry(t.team_a.startnummer.get())
                .or_default()
                .push(a);
            points
                .entry(t.team_b.startnummer.get())
                .or_default()
                .push(TOTAL - a);
            leitung
                .post_ok(
                    &format!("/tournaments/{id}/passen/{passe}/tables/{}/visa", t.number),
                    &[],
                )
                .await;
        }
    }
    let expected = expected_order(&points, 3);
    let all_count = expected_order(&points, 4);
    assert_ne!(
        expected.iter().map(|e| e.0).collect::<Vec<_>>(),
        all_count.iter().map(|e| e.0).collect::<Vec<_>>(),
        "the field is one where striking changes the order"
    );
    // The Standblatt: the struck Passe struck through, the total without it.
    let first = d.teams.iter().find(|t| t.startnummer.get() == 1).unwrap();
    let sheet = leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/final-visa", first.id),
            &[],
        )
        .await;
    let mut mine = points[&1].clone();
    assert_eq!(select_all(&sheet, "#lines td.gestrichen s").len(), 1);
    let struck: u32 = select_all(&sheet, "#lines td.gestrichen s")[0]
        .replace('\'', "")
        .parse()
        .unwrap();
    mine.sort_by(|a, b| b.cmp(a));
    assert_eq!(struck, mine[3], "the worst Passe is struck");
    assert_eq!(
        text(&sheet, "#total").replace('\'', ""),
        mine[..3].iter().sum::<u32>().to_string()
    );
    assert!(text(&sheet, "#wertung").starts_with("Gewertet: die 3 besten von 4 Passen"));
    for team in d.teams.iter().filter(|t| t.id != first.id) {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/teams/{}/final-visa", team.id),
                &[],
            )
            .await;
    }
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;

    // The official Rangliste page.
    let html = app
        .client()
        .html(&format!("/tournaments/{id}/ranking"))
        .await;
    assert_eq!(text(&html, "#kind"), "offiziell");
    let nr_of: HashMap<String, u32> = d
        .teams
        .iter()
        .map(|t| (t.id.0.to_string(), t.startnummer.get()))
        .collect();
    let shown: Vec<(u32, u32)> = select_attr(&html, "#section-1 tbody tr", "data-team")
        .iter()
        .map(|team| nr_of[team])
        .zip(select_all(&html, "#section-1 tbody tr td:nth-child(8)"))
        .map(|(nr, total)| (nr, total.replace('\'', "").parse().unwrap()))
        .collect();
    assert_eq!(shown, expected);
    assert_eq!(
        select_all(&html, "#section-1 td.gestrichen s").len(),
        6,
        "one struck Passe per team"
    );
    assert_eq!(
        text(&html, "#wertung"),
        "Gewertet: die 3 besten von 4 Passen; gestrichene Passen sind durchgestrichen."
    );

    // CSV: a flag per Passe; the total counted.
    let (status, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let csv = String::from_utf8_lossy(&csv)
        .trim_start_matches('\u{feff}')
        .to_string();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(';').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    for line in lines {
        let cells: Vec<&str> = line.split(';').collect();
        let nr: u32 = cells[at("startnummer")].parse().unwrap();
        let flags: Vec<bool> = (1..=4)
            .map(|p| cells[at(&format!("passe_{p}_gestrichen"))] == "ja")
            .collect();
        assert_eq!(flags.iter().filter(|f| **f).count(), 1, "{line}");
        let struck_points: u32 = (1..=4)
            .find(|p| flags[*p - 1])
            .map(|p| cells[at(&format!("passe_{p}"))].parse().unwrap())
            .unwrap();
        assert_eq!(struck_points, *points[&nr].iter().min().unwrap());
        let total: u32 = cells[at("total")].parse().unwrap();
        assert_eq!((nr, total), *expected.iter().find(|e| e.0 == nr).unwrap());
    }

    // JSON: the rule and the flags.
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/ranking.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["counted_best"], 3);
    assert_eq!(json["counted_rule"], "Gewertet: die 3 besten von 4 Passen");
    for team in json["teams"].as_array().unwrap() {
        let flags: Vec<bool> = team["struck"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_bool().unwrap())
            .collect();
        assert_eq!(flags.iter().filter(|f| **f).count(), 1);
    }

    // PDF: the rule under the list.
    let (_, _, pdf) = bytes(&leitung, &format!("/tournaments/{id}/ranking.pdf")).await;
    let pages = pdf_pages(&pdf).join("\n");
    assert!(
        pages.contains("Gewertet: die 3 besten von 4 Passen"),
        "{pages}"
    );
    let (_, _, sheets) = bytes(&leitung, &format!("/tournaments/{id}/standblaetter.pdf")).await;
    assert!(pdf_pages(&sheets)[0].contains("Gewertet: die 3 besten von 4 Passen"));

    // The live page says the rule too.
    let live = app.client().html(&format!("/tournaments/{id}/live")).await;
    assert!(text(&live, "#legend-marks").starts_with("Gewertet: die 3 besten von 4 Passen"));
    assert_eq!(select_all(&live, "td.gestrichen").len(), 6);

    // The export carries the rule; its import ranks alike.
    let (_, _, export) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let doc: serde_json::Value = serde_json::from_slice(&export).unwrap();
    assert_eq!(doc["tournament"]["counted_best"], 3);
    let copy = import_export(&leitung, export).await;
    let again = leitung
        .html(&format!("/tournaments/{copy}/ranking?official=1"))
        .await;
    assert_eq!(
        select_all(&again, "#section-1 tbody tr td:nth-child(8)"),
        select_all(&html, "#section-1 tbody tr td:nth-child(8)")
    );
}

#[tokio::test]
async fn a_streichresultat_of_all_passen_or_more_is_refused_at_the_field() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let before = app.dump();
    for (k, words) in [
        ("4", "zwischen 1 und 3"),
        ("0", "zwischen 1 und 3"),
        ("drei", "keine ganze Zahl"),
    ] {
        let r = leitung
            .post(
                "/tournaments",
                &[
                    ("name", "Klubmeisterschaft"),
                    ("date", "2026-12-05"),
                    ("mode", "partnerschieber"),
                    ("passen", "4"),
                    ("spiele_per_passe", "12"),
                    ("counted_best", k),
                ],
            )
            .await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{k}");
        let html = scraper::Html::parse_document(&r.text().await.unwrap());
        let message = text(&html, "#counted_best-error");
        assert!(message.contains(words), "{k}: «{message}»");
    }
    assert_eq!(app.dump(), before, "nothing written");
    // Changed later to every Passe: the field empty again stores no rule.
    let id = create_tournament(&leitung, "4", "12").await;
    let form = leitung.html(&format!("/tournaments/{id}/edit")).await;
    assert_eq!(attr(&form, "#counted_best", "value").as_deref(), Some(""));
}
