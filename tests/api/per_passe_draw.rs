//! The per-Passe draw through the real app: no avoidable rematch, Vereine apart.

use crate::helpers::*;
use jassturnier::domain::schedule::rematches;
use reqwest::StatusCode;

/// Creates a Partnerschieber with `passen` Passen, imports `clubs.len()` teams (one Verein
/// each) and draws Passe 1 per Passe with `seed`.
async fn per_passe_tournament(
    app: &TestApp,
    leitung: &Client,
    passen: &str,
    clubs: &[&str],
    separate: bool,
    seed: &str,
) -> i32 {
    let mut form = vec![
        ("name", "Cup Einsiedeln"),
        ("date", "2026-11-22"),
        ("location", "Einsiedeln"),
        ("mode", "partnerschieber"),
        ("passen", passen),
        ("spiele_per_passe", "8"),
        ("pauschale", "500"),
    ];
    if separate {
        form.push(("separate_clubs", "1"));
    }
    let r = leitung.post("/tournaments", &form).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let mut csv = String::from("nr;spieler1;spieler2;verein\n");
    for (n, club) in clubs.iter().enumerate() {
        csv += &format!("{};A{n};B{n};{club}\n", n + 1);
    }
    import_teams(leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "pro_passe"), ("seed", seed)],
        )
        .await;
    let _ = app;
    id
}

/// The case: 7 teams over 6 Passen drawn per Passe ended with an avoidable rematch
/// in about a quarter of the seeds. Seeds 1–8, every Passe drawn through the app.
#[tokio::test]
async fn seven_teams_six_passen_drawn_per_passe_never_meet_twice() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    for seed in 1..=8 {
        let id =
            per_passe_tournament(&app, &leitung, "6", &[""; 7], false, &seed.to_string()).await;
        for _ in 2..=6 {
            leitung
                .post_ok(&format!("/tournaments/{id}/draw/next"), &[])
                .await;
        }
        let drawn = app.data(id).draws();
        assert_eq!(drawn.len(), 6);
        assert!(
            rematches(&drawn).is_empty(),
            "seed {seed}: {:?}",
            rematches(&drawn)
        );
        let byes: std::collections::HashSet<_> = drawn.iter().filter_map(|d| d.bye).collect();
        assert_eq!(byes.len(), 6, "six different teams had the bye");
        let html = leitung.html(&format!("/tournaments/{id}/draw")).await;
        assert!(select_all(&html, "#rematches").is_empty());
    }
}

#[tokio::test]
async fn teams_of_one_verein_are_kept_apart_and_counted_on_the_draw_list() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let clubs = [
        "JC Gonten",
        "jc gonten ",
        "JC Gonten",
        "Edelweiss",
        "Edelweiss",
        "Edelweiss",
        "",
        "Bären",
    ];
    let id = per_passe_tournament(&app, &leitung, "3", &clubs, true, "11").await;
    let d = app.data(id);
    for t in d.tables(1) {
        let (a, b) = (
            t.team_a.startnummer.get() as usize - 1,
            t.team_b.startnummer.get() as usize - 1,
        );
        let norm = |c: &str| c.trim().to_lowercase();
        assert!(
            clubs[a].trim().is_empty() || norm(clubs[a]) != norm(clubs[b]),
            "{} and {} are of the same Verein",
            clubs[a],
            clubs[b]
        );
    }
    let html = leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert_eq!(
        text(&html, "#same-club"),
        "Vereine getrennt: 0 Paarungen desselben Vereins (Passe 1: 0)"
    );
    // Without the option the line is not there.
    let other = per_passe_tournament(&app, &leitung, "3", &clubs, false, "11").await;
    let html = leitung.html(&format!("/tournaments/{other}/draw")).await;
    assert!(select_all(&html, "#same-club").is_empty());
}
