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

/// The Kontrolleur reads the Protokoll (he has nothing to write there); Tafel changes name
/// the Spiel, what it holds, the Striche before and after, a reopened Tafel and a fallen
/// visa — never "1 : 0 → 1 : 0 korrigiert".
#[tokio::test]
async fn tafel_changes_in_the_protokoll_name_the_spiel_and_the_kontrolleur_reads_them() {
    use crate::marathon::{marathon_tournament, write_lines};
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = marathon_tournament(&app, &leitung, "60").await;
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    write_lines(&leitung, &tafel, 3).await;
    leitung.post_ok(&tafel, &[("action", "gong")]).await;
    kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    leitung.post_ok(&tafel, &[("action", "ungong")]).await;
    leitung
        .post_ok(
            &tafel,
            &[
                ("action", "add"),
                ("trump", "rose"),
                ("cards_a", "100"),
                ("weis_b", "50"),
            ],
        )
        .await;
    let r = buero.get(&format!("/audit?tournament={id}")).await;
    assert_eq!(r.status(), reqwest::StatusCode::FORBIDDEN, "not the Büro");
    let html = kontrolle.html(&format!("/audit?tournament={id}")).await;
    let entries = select_all(&html, "#protocol tbody tr .entry");
    let all = entries.join("\n");
    assert!(
        all.contains(
            "Spielrunde 1, Tisch 1: Tafel: Spiel 4 (Rose 100 : 57, Weis B 50) eingetragen, Striche"
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "Spielrunde 1, Tisch 1: Tafel: Spiel 1 (Obenabe Match A) eingetragen, Striche"
        ),
        "{all}"
    );
    assert!(
        all.contains("Tafel: Abschluss zurückgenommen, Striche")
            && all.contains("Visum aufgehoben"),
        "{all}"
    );
    for line in &entries {
        if let Some((before, after)) = line
            .split_once(": ")
            .and_then(|(_, rest)| rest.split_once(" korrigiert"))
            .and_then(|(change, _)| change.split_once(" → "))
        {
            assert_ne!(before, after, "no unchanged correction: {line}");
        }
    }
}
