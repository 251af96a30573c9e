//! "Sucht Partner": players registered alone get partners drawn before the Los (seeded,
//! swappable before confirming, audited), and then play as registered teams.

use crate::helpers::*;
use reqwest::StatusCode;
use scraper::Html;

fn pairs(html: &Html) -> Vec<String> {
    select_all(html, "#pairs tbody tr")
}

#[tokio::test]
async fn single_players_become_teams_by_a_seeded_draw_with_swaps() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    import_teams(&leitung, id, fixture("teams_semikolon_cp1252.csv")).await;
    let highest = app
        .data(id)
        .teams
        .iter()
        .map(|t| t.startnummer)
        .max()
        .unwrap();
    let partner = format!("/tournaments/{id}/partner");

    // A name is required: refused at the field, nothing written.
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/singles"),
            &[("player", " "), ("club", "JC Zürich")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#player-error").contains("Spieler"));
    assert_eq!(app.dump(), before);

    for (player, club) in [
        ("Anna Frei", "JC Zürich"),
        ("Beat Keller", "JC Zürich"),
        ("Carla Meier", "jc  zürich"),
        ("Dario Rossi", "Jassclub Kilchberg"),
        ("Eva Huber", ""),
    ] {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/singles"),
                &[("player", player), ("club", club), ("place", "Zürich")],
            )
            .await;
    }
    let page = leitung.html(&partner).await;
    assert_eq!(select_all(&page, "#singles tbody tr").len(), 5);

    // The proposal is reproducible from its seed. 3 of the 5 are of JC Zürich (written two
    // ways): apart, none of them pair up (one is left alone); together, two of them do.
    let url = format!("{partner}?seed=42&verein=getrennt");
    let first = leitung.html(&url).await;
    assert_eq!(pairs(&first), pairs(&leitung.html(&url).await));
    assert_eq!(pairs(&first).len(), 2);
    let summary = text(&first, "#pair-summary");
    assert!(summary.contains("bleibt ohne Partner"), "{summary}");
    assert!(!summary.contains("desselben Verein"), "{summary}");
    let together = leitung
        .html(&format!("{partner}?seed=42&verein=zusammen"))
        .await;
    assert!(text(&together, "#pair-summary").contains("1 davon aus demselben Verein"));

    // Swapping two players changes exactly their places.
    let ids: Vec<String> = select_attr(&first, "#singles tbody tr", "data-single");
    let swapped = leitung
        .html(&format!("{url}&tausch=&a={}&b={}", ids[0], ids[4]))
        .await;
    assert_ne!(pairs(&swapped), pairs(&first));
    let tausch = attr(&swapped, "#confirm-form input[name=tausch]", "value").unwrap();
    assert_eq!(tausch, format!("{}-{}", ids[0], ids[4]));
    let shown: Vec<String> = pairs(&swapped);

    // Confirmed: the shown pairs become teams with the next Startnummern; the one alone
    // stays registered; the Protokoll has the teams and the draw with its seed.
    let field = |name: &str| {
        attr(
            &swapped,
            &format!("#confirm-form input[name={name}]"),
            "value",
        )
        .unwrap()
    };
    leitung
        .post_ok(
            &partner,
            &[
                ("seed", &field("seed")),
                ("verein", &field("verein")),
                ("tausch", &field("tausch")),
                ("ids", &field("ids")),
            ],
        )
        .await;
    let data = app.data(id);
    let new: Vec<_> = data
        .teams
        .iter()
        .filter(|t| t.startnummer > highest)
        .collect();
    assert_eq!(
        new.iter().map(|t| t.startnummer.get()).collect::<Vec<_>>(),
        vec![highest.get() + 1, highest.get() + 2]
    );
    for (team, row) in new.iter().zip(&shown) {
        assert!(
            row.contains(&team.player1) && row.contains(&team.player2),
            "{row} vs {team:?}"
        );
    }
    let left = leitung.html(&partner).await;
    assert_eq!(select_all(&left, "#singles tbody tr").len(), 1);
    let actions = app.audit_actions();
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "team:partner_drawn")
            .count(),
        2
    );
    assert!(actions.contains(&"single:partner_draw".to_string()));

    // A proposal drawn from a list that changed since is refused, nothing written.
    let before = app.dump();
    let r = leitung
        .post(
            &partner,
            &[
                ("seed", "1"),
                ("verein", "egal"),
                ("tausch", ""),
                ("ids", &ids.join(",")),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert_eq!(app.dump(), before);
}

#[tokio::test]
async fn no_single_registrations_after_a_fixed_draw() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/singles"),
            &[("player", "Anna Frei")],
        )
        .await;
    assert!(r.status().is_client_error(), "{}", r.status());
    assert_eq!(app.dump(), before);
}
