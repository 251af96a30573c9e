//! Outputs pinned as snapshots (`tests/api/snapshots/`, crate `insta`): a seeded draw of each
//! mode (fixed and per Passe), the demo's Rangliste as CSV and JSON, and one Standblatt's text.
//! A change to any of them shows in review as a changed file; accept an intended one with
//! `INSTA_UPDATE=always cargo test --test api snapshots` (or `cargo insta review`). Today's
//! date and the print time are replaced, so the snapshots hold on any day and on both backends.

use crate::helpers::*;
use jassturnier::domain::mode::Mode;

/// Every seat of a tournament's draw, one line each: Passe, table, seat, Startnummer.
fn draw_text(app: &TestApp, id: i32) -> String {
    let data = app.data(id);
    let startnummer = |team| {
        data.teams
            .iter()
            .find(|t| t.id == team)
            .map(|t| t.startnummer.get())
            .expect("a team of the tournament")
    };
    let mut lines: Vec<(u32, u32, String, u32)> = data
        .seats
        .iter()
        .map(|seat| {
            (
                seat.passe.get(),
                seat.table_no.map_or(0, u32::from),
                seat.position.map_or("-".to_string(), |p| format!("{p:?}")),
                startnummer(seat.team_id),
            )
        })
        .collect();
    lines.sort();
    lines
        .into_iter()
        .map(|(passe, table, seat, nr)| match table {
            0 => format!("Passe {passe} spielfrei #{nr}"),
            _ => format!("Passe {passe} Tisch {table} {seat} #{nr}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Today's date and times of day replaced: what changes from run to run.
fn without_today(text: &str) -> String {
    let today = chrono::Local::now().date_naive();
    let text = text
        .replace(&today.format("%d.%m.%Y").to_string(), "[heute]")
        .replace(&today.format("%Y-%m-%d").to_string(), "[heute]");
    regex_lite::Regex::new(r"\b\d{2}:\d{2}\b")
        .expect("pattern")
        .replace_all(&text, "[zeit]")
        .into_owned()
}

/// The demo of `mode` in the test's database (seeded: the same tournament on every run);
/// its id and a client logged in as the demo's Leitung.
async fn demo(app: &TestApp, mode: Mode, teams: u32) -> (i32, Client) {
    jassturnier::demo::create(
        &app.database_url,
        jassturnier::demo::Size {
            mode,
            teams,
            passen: 4,
            spiele: 12,
        },
    )
    .expect("the demo is created");
    let client = app
        .login(
            jassturnier::demo::DEMO_USER,
            jassturnier::demo::DEMO_PASSWORD,
        )
        .await;
    (1, client)
}

#[tokio::test]
async fn a_fixed_and_a_per_passe_draw_of_the_partnerschieber() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let fixed = drawn_field(&leitung, "4", "12", "", 13).await;
    insta::assert_snapshot!(
        "partnerschieber_fixed_13_teams_seed_42",
        draw_text(&app, fixed)
    );
    let per_passe = create_tournament(&leitung, "3", "12").await;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=10 {
        csv += &format!("{n};Anna{n};Urs{n}\n");
    }
    import_teams(&leitung, per_passe, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{per_passe}/draw"),
            &[("mode", "pro_passe"), ("seed", "7")],
        )
        .await;
    for _ in 2..=3 {
        leitung
            .post_ok(&format!("/tournaments/{per_passe}/draw/next"), &[])
            .await;
    }
    insta::assert_snapshot!(
        "partnerschieber_per_passe_10_teams_seed_7",
        draw_text(&app, per_passe)
    );
}

#[tokio::test]
async fn the_demo_of_the_einzelschieber_draw() {
    let app = spawn_app().await;
    let (id, _) = demo(&app, Mode::Einzelschieber, 18).await;
    insta::assert_snapshot!("einzelschieber_demo_18_players", draw_text(&app, id));
}

#[tokio::test]
async fn the_demo_of_the_jassmarathon_draw_and_rangliste() {
    let app = spawn_app().await;
    let (id, office) = demo(&app, Mode::Jassmarathon, 10).await;
    insta::assert_snapshot!("jassmarathon_demo_10_teams", draw_text(&app, id));
    let (status, _, csv) = bytes(&office, &format!("/tournaments/{id}/ranking.csv")).await;
    assert_eq!(status, 200);
    insta::assert_snapshot!(
        "jassmarathon_demo_ranking_csv",
        without_today(&String::from_utf8_lossy(&csv))
    );
}

#[tokio::test]
async fn the_demo_rangliste_as_csv_and_json_and_a_standblatt() {
    let app = spawn_app().await;
    let (id, office) = demo(&app, Mode::Partnerschieber, 12).await;
    insta::assert_snapshot!("partnerschieber_demo_12_teams", draw_text(&app, id));
    let (status, _, csv) = bytes(&office, &format!("/tournaments/{id}/ranking.csv")).await;
    assert_eq!(status, 200);
    insta::assert_snapshot!(
        "partnerschieber_demo_ranking_csv",
        without_today(&String::from_utf8_lossy(&csv))
    );
    let (status, _, json) = bytes(&office, &format!("/tournaments/{id}/ranking.json")).await;
    assert_eq!(status, 200);
    let json: serde_json::Value = serde_json::from_slice(&json).expect("JSON");
    insta::assert_snapshot!(
        "partnerschieber_demo_ranking_json",
        without_today(&serde_json::to_string_pretty(&json).expect("JSON text"))
    );
    let team = app.data(id).teams[0].id.0;
    let (status, _, pdf) = bytes(
        &office,
        &format!("/tournaments/{id}/teams/{team}/standblatt.pdf"),
    )
    .await;
    assert_eq!(status, 200);
    insta::assert_snapshot!(
        "partnerschieber_demo_standblatt_text",
        without_today(&pdf_pages(&pdf)[0])
    );
}
