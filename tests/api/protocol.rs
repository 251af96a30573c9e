//! The Protokoll in German sentences, filtered by team, Passe and user, paged; a correction
//! carries its reason.

use crate::helpers::*;

#[tokio::test]
async fn the_protokoll_speaks_german_filters_and_pages() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let anna = app
        .account(&leitung, ("anna", "anna-passwort-1"), "buero")
        .await;
    let id = drawn_field(&leitung, "2", "12", "660", 60).await;
    let d = app.data(id);
    for t in d.tables(1) {
        enter(&anna, id, 1, t.number, 655).await;
    }
    let t3 = d.tables(1).into_iter().find(|t| t.number == 3).unwrap();
    let version = app.data(id).result_at(1, 3).unwrap().version.to_string();
    anna.post_ok(
        &format!("/tournaments/{id}/passen/1/correct"),
        &[
            ("table", "3"),
            ("version", &version),
            ("points_a", "665"),
            ("points_b", "1219"),
            ("reason", "Zettel falsch abgeschrieben"),
        ],
    )
    .await;
    let html = leitung
        .html(&format!(
            "/audit?tournament={id}&team={}",
            t3.team_a.startnummer
        ))
        .await;
    let lines = select_all(&html, "#protocol tbody tr .entry");
    assert!(
        lines[0].starts_with(
            "Passe 1, Tisch 3: 655 : 1'229 → 665 : 1'219 korrigiert von anna – Grund: Zettel falsch abgeschrieben"
        ),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Passe 1, Tisch 3: 655 : 1'229 erfasst")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("importiert (CSV) von leitung")),
        "the team's creation: {lines:?}"
    );
    // Every line of the team filter concerns that team.
    assert_eq!(lines.len(), 3, "{lines:?}");
    // Passe and user filters; paging of the many entries.
    let html = leitung
        .html(&format!("/audit?tournament={id}&passe=1&user=anna"))
        .await;
    assert_eq!(text(&html, "#count"), "31 Einträge");
    let html = leitung.html(&format!("/audit?tournament={id}")).await;
    let count = text(&html, "#count");
    assert!(count.contains("Seite 1 von 2"), "{count}");
    assert_eq!(select_all(&html, "#protocol tbody tr").len(), 50);
    let next = attr(&html, "#pager a[rel=next]", "href").unwrap();
    let html = leitung.html(&next).await;
    assert!(text(&html, "#count").contains("Seite 2 von 2"));
    assert!(
        select_all(&html, "#protocol .entry")
            .iter()
            .all(|e| !e.contains("{\"")),
        "no raw JSON in the sentences"
    );
}
