//! The Kontrolleur's desk: a whole Passe visaed in one action after a list, a jump to a
//! Standblatt by Startnummer, the Endvisum worklist that keeps its place.

use crate::helpers::*;
use reqwest::StatusCode;

struct Desk {
    app: TestApp,
    buero: Client,
    kontrolle: Client,
    id: i32,
}

/// Six teams, two Passen à 12; Passe 1 fully entered except table 3.
async fn desk() -> Desk {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_field(&leitung, "2", "12", "660", 6).await;
    for table in 1..=2 {
        enter(&buero, id, 1, table, 1000).await;
    }
    Desk {
        app,
        buero,
        kontrolle,
        id,
    }
}

#[tokio::test]
async fn a_whole_passe_is_visaed_in_one_action_after_a_list() {
    let d = desk().await;
    let id = d.id;
    let page = d
        .kontrolle
        .html(&format!("/tournaments/{id}/passen/1"))
        .await;
    assert_eq!(
        attr(&page, "#visa-all", "href"),
        Some(format!("/tournaments/{id}/passen/1/visa-all"))
    );
    let list = d
        .kontrolle
        .html(&format!("/tournaments/{id}/passen/1/visa-all"))
        .await;
    let listed: Vec<String> = select_all(&list, "#to-visa tbody tr td:first-child");
    assert_eq!(listed, vec!["1", "2"], "entered tables only, not table 3");
    let tables = attr(&list, "input[name=tables]", "value").unwrap();
    // A clerk corrects table 2 meanwhile: the stale list visas nothing.
    let r2 = d.app.data(id).result_at(1, 2).unwrap().clone();
    d.buero
        .post_ok(
            &format!("/tournaments/{id}/passen/1/correct"),
            &[
                ("table", "2"),
                ("version", &r2.version.to_string()),
                ("points_a", "1100"),
                ("points_b", "784"),
            ],
        )
        .await;
    let before = d.app.dump();
    let r = d
        .kontrolle
        .post(
            &format!("/tournaments/{id}/passen/1/visa-all"),
            &[("tables", &tables)],
        )
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert_eq!(d.app.dump(), before, "nothing visaed unseen");
    let list = d
        .kontrolle
        .html(&format!("/tournaments/{id}/passen/1/visa-all"))
        .await;
    let tables = attr(&list, "input[name=tables]", "value").unwrap();
    let html = d
        .kontrolle
        .post_ok(
            &format!("/tournaments/{id}/passen/1/visa-all"),
            &[("tables", &tables)],
        )
        .await;
    assert_eq!(text(&html, ".flash"), "Passe 1: 2 Tische visiert.");
    let data = d.app.data(id);
    for table in [1, 2] {
        let r = data.result_at(1, table).unwrap();
        assert!(
            r.visa_a_by.is_some() && r.visa_b_by.is_some(),
            "table {table}"
        );
    }
    // The Büro may not.
    assert_eq!(
        d.buero
            .post(
                &format!("/tournaments/{id}/passen/1/visa-all"),
                &[("tables", &tables)]
            )
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn a_startnummer_opens_its_standblatt_and_the_endvisum_worklist_keeps_its_place() {
    let d = desk().await;
    let id = d.id;
    let data = d.app.data(id);
    let r = d
        .kontrolle
        .get(&format!("/tournaments/{id}/standblatt?nr=4"))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let team4 = data
        .teams
        .iter()
        .find(|t| t.startnummer.get() == 4)
        .unwrap();
    assert_eq!(
        location(&r),
        format!("/tournaments/{id}/teams/{}", team4.id)
    );
    assert_eq!(
        d.kontrolle
            .get(&format!("/tournaments/{id}/standblatt?nr=99"))
            .await
            .status(),
        StatusCode::NOT_FOUND
    );
    // Every Passe entered and visaed: the worklist offers every team's Endvisum.
    d.buero
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "3"), ("points_a", "900")],
        )
        .await;
    for t in data.tables(2) {
        d.buero
            .post_ok(
                &format!("/tournaments/{id}/passen/2/entry"),
                &[("table", &t.number.to_string()), ("points_a", "800")],
            )
            .await;
    }
    for p in 1..=2 {
        let list = d
            .kontrolle
            .html(&format!("/tournaments/{id}/passen/{p}/visa-all"))
            .await;
        let tables = attr(&list, "input[name=tables]", "value").unwrap();
        d.kontrolle
            .post_ok(
                &format!("/tournaments/{id}/passen/{p}/visa-all"),
                &[("tables", &tables)],
            )
            .await;
    }
    let list = d
        .kontrolle
        .html(&format!("/tournaments/{id}/endvisa"))
        .await;
    let rows = select_all(&list, "#worklist tbody tr");
    assert_eq!(rows.len(), 6);
    let first = &data.teams[0];
    let back = attr(
        &list,
        "#worklist tbody tr:first-child input[name=back]",
        "value",
    )
    .unwrap();
    assert_eq!(
        back,
        format!("/tournaments/{id}/endvisa#t-{}", data.teams[1].startnummer)
    );
    let r = d
        .kontrolle
        .post(
            &format!("/tournaments/{id}/teams/{}/final-visa", first.id),
            &[("back", &back)],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), back, "back at the next team of the list");
    let list = d
        .kontrolle
        .html(&format!("/tournaments/{id}/endvisa"))
        .await;
    assert_eq!(select_all(&list, "#worklist tbody tr").len(), 5);
}
