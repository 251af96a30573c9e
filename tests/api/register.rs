//! The person register (#79, first part): players of every tournament become persons (same
//! Name, Vorname and Ort = one person), existing tournaments are linked at start without
//! changing any export, the register is searched and a person's page lists the tournaments.

use crate::helpers::*;
use diesel::RunQueryDsl;
use reqwest::StatusCode;

async fn tournament_with(leitung: &Client, mode: &str, csv: &str) -> i32 {
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", &format!("Turnier {mode}")),
                ("date", "2026-12-05"),
                ("mode", mode),
                ("passen", "2"),
                ("spiele_per_passe", "2"),
                ("pauschale", "150"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    import_teams(leitung, id, csv.as_bytes().to_vec()).await;
    id
}

#[tokio::test]
async fn players_across_tournaments_are_one_person_in_the_register() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let first = tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;verein;ort\n1;Anna Müller;Urs Bär;JC Uster;Uster\n2;Käthi Frei;Hans Peter Meier;;Zug\n",
    )
    .await;
    let second = tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;verein;ort\n1;anna  müller;Käthi Frei;Jassfreunde;Uster\n2;Anna Müller;Beat Egli;;Zürich\n",
    )
    .await;
    let third = tournament_with(
        &leitung,
        "einzelschieber",
        "nr;name;vorname;ort\n1;Müller;Anna;Uster\n2;Bär;Urs;Uster\n3;Egli;Beat;Zürich\n4;Frei;Käthi;Zug\n",
    )
    .await;

    // Anna Müller of Uster: three tournaments (the one of Zürich is another person).
    let html = leitung.html("/personen?q=anna+uster").await;
    let found = select_attr(&html, "#persons tbody tr", "data-person");
    assert_eq!(
        found.len(),
        1,
        "{:?}",
        select_all(&html, "#persons tbody tr")
    );
    assert_eq!(
        select_all(&html, "#persons tbody td:last-child"),
        ["3"],
        "three tournaments"
    );
    let page = leitung.html(&format!("/personen/{}", found[0])).await;
    assert_eq!(text(&page, "#person-name"), "Anna Müller");
    assert_eq!(text(&page, "#participations"), "3 Turniere");
    let tournaments: Vec<String> = select_attr(&page, "#played tbody tr", "data-tournament");
    assert_eq!(
        tournaments,
        [first.to_string(), second.to_string(), third.to_string()]
    );
    // "Hans Peter Meier": Vorname "Hans Peter", Name "Meier".
    let html = leitung.html("/personen?q=meier").await;
    assert_eq!(
        select_all(&html, "#persons tbody td:nth-child(2)"),
        ["Hans Peter"]
    );
    // Käthi Frei: of Zug in the first, of Uster in the second (the team's Ort): two persons.
    let html = leitung.html("/personen?q=frei").await;
    assert_eq!(select_all(&html, "#persons tbody tr").len(), 2);

    // The register is the Leitung's.
    assert_eq!(buero.get("/personen").await.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        app.client().get("/personen").await.status(),
        StatusCode::SEE_OTHER
    );

    // A renamed player moves to another person; a deleted team leaves the register as it was.
    let d = app.data(first);
    let team = d.teams.iter().find(|t| t.startnummer.get() == 2).unwrap();
    leitung
        .post_ok(
            &format!("/tournaments/{first}/teams/{}/edit", team.id),
            &[
                ("startnummer", "2"),
                ("player1", "Käthi Frei"),
                ("player2", "Hans Peter Meierhans"),
                ("place", "Zug"),
            ],
        )
        .await;
    let html = leitung.html("/personen?q=meierhans").await;
    assert_eq!(select_all(&html, "#persons tbody td:last-child"), ["1"]);
    let html = leitung.html("/personen?q=hans+peter").await;
    assert_eq!(
        select_all(&html, "#persons tbody td:last-child"),
        ["0", "1"],
        "Meier keeps his row, with no tournament now"
    );
    let r = leitung
        .post(
            &format!("/tournaments/{first}/teams/{}/delete", team.id),
            &[],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
}

/// Tournaments from before the register: their players are linked when the server starts,
/// and their exports do not change.
#[tokio::test]
async fn existing_tournaments_get_their_persons_without_changing_an_export() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "2", "2", "150", 4).await;
    enter(&leitung, id, 1, 1, 200).await;
    let (_, _, before) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let (_, _, ranking_before) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    // As a database of the version before: no person, no link.
    {
        let mut conn = app.pool.get().unwrap();
        diesel::sql_query("DELETE FROM team_persons")
            .execute(&mut *conn)
            .unwrap();
        diesel::sql_query("DELETE FROM persons")
            .execute(&mut *conn)
            .unwrap();
    }
    let html = leitung.html("/personen").await;
    assert!(select_all(&html, "#persons tbody tr").is_empty());
    let added = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::persons::link_existing(&mut conn).unwrap()
    };
    assert_eq!(added, 8, "two players of four teams");
    let again = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::persons::link_existing(&mut conn).unwrap()
    };
    assert_eq!(again, 0, "linking twice adds nobody");
    let html = leitung.html("/personen").await;
    assert_eq!(select_all(&html, "#persons tbody tr").len(), 8);
    let (_, _, after) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let (_, _, ranking_after) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    // The export is the same but for the register's numbers of its persons (new ones).
    let strip = |doc: &[u8]| {
        let mut v: serde_json::Value = serde_json::from_slice(doc).unwrap();
        let o = v.as_object_mut().unwrap();
        o.remove("audit");
        let persons = o.remove("persons").unwrap();
        let names: Vec<String> = persons
            .as_array()
            .unwrap()
            .iter()
            .map(|s| format!("{}:{}:{}", s["startnummer"], s["seat"], s["person"]["name"]))
            .collect();
        (v, names)
    };
    let (after, after_names) = strip(&after);
    let (before, before_names) = strip(&before);
    assert_eq!(after, before);
    assert_eq!(after_names, before_names);
    assert_eq!(after_names.len(), 8);
    assert_eq!(ranking_after, ranking_before);
}

/// The Leitung corrects a person, merges a double and deletes a person on request.
#[tokio::test]
async fn a_person_is_corrected_merged_and_deleted_on_request() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "2", "2", "150", 4).await;
    let other = tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;ort\n1;Anna1 Meier;Urs9 Keller;Zug\n2;Beat Egli;Ida Frei;Zug\n",
    )
    .await;
    let find = |html: &scraper::Html| select_attr(html, "#persons tbody tr", "data-person");
    let anna = find(&leitung.html("/personen?q=anna1").await);
    assert_eq!(anna.len(), 2, "Anna1 (no Ort) and Anna1 Meier of Zug");
    let page = format!("/personen/{}", anna[0]);

    // Bad fields: messages at the fields, nothing written.
    let before = app.dump();
    let r = leitung
        .post(
            &page,
            &[("name", ""), ("jahrgang", "1850"), ("email", "anna")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = scraper::Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#name-error").contains("Name"));
    assert!(text(&html, "#jahrgang-error").contains("zwischen 1'900"));
    assert!(text(&html, "#email-error").contains("name@beispiel.ch"));
    assert_eq!(app.dump(), before);
    let html = leitung
        .post_ok(
            &page,
            &[
                ("name", "Meier"),
                ("vorname", "Anna1"),
                ("jahrgang", "1948"),
                ("email", "anna@jassclub.ch"),
            ],
        )
        .await;
    assert_eq!(text(&html, ".flash"), "Person gespeichert.");
    assert!(text(&html, "#contact").contains("anna@jassclub.ch"));
    // E-mail stays in the office: not on a public page or export.
    let (_, _, json) = bytes(&app.client(), &format!("/tournaments/{id}/ranking.json")).await;
    assert!(!String::from_utf8_lossy(&json).contains("jassclub.ch"));

    // Merge the double: Anna1 of Zug into the corrected one.
    let html = leitung
        .post_ok(
            &format!("/personen/{}/zusammenfuehren", anna[1]),
            &[("into", &anna[0])],
        )
        .await;
    assert_eq!(text(&html, "#participations"), "2 Turniere");
    assert_eq!(
        find(&leitung.html("/personen?q=anna1").await),
        [anna[0].clone()]
    );
    let protokoll = leitung.html("/audit").await;
    let merged = select_all(&protokoll, "body").join(" ").contains(&format!(
        "Person Anna1 Meier (#{}) mit Anna1 Meier (#{}) zusammengeführt",
        anna[1], anna[0]
    ));
    assert!(merged, "the Protokoll names both records");

    // Deleted on request: the Rangliste keeps the line as «gelöscht» with rank and points.
    let ranking = leitung.html(&format!("/tournaments/{other}/ranking")).await;
    let totals_before = select_all(&ranking, "#section-1 tbody td:nth-child(8)");
    let urs = find(&leitung.html("/personen?q=urs9").await);
    assert_eq!(urs.len(), 1);
    let r = leitung
        .post(&format!("/personen/{}/loeschen", urs[0]), &[])
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert!(find(&leitung.html("/personen?q=urs9").await).is_empty());
    let ranking = leitung.html(&format!("/tournaments/{other}/ranking")).await;
    let players = select_all(&ranking, "#section-1 tbody td:nth-child(2)");
    assert!(
        players
            .iter()
            .any(|p| p.ends_with("Anna1 Meier / gelöscht")),
        "{players:?}"
    );
    assert!(!ranking.html().contains("Urs9"));
    assert_eq!(
        select_all(&ranking, "#section-1 tbody td:nth-child(8)"),
        totals_before
    );
    let protokoll = leitung.html("/audit").await;
    assert!(
        select_all(&protokoll, "body")
            .join(" ")
            .contains(&format!("Person #{} auf Wunsch gelöscht", urs[0]))
    );
}

/// The suggestions for the registration form: the Büro's, as JSON.
#[tokio::test]
async fn suggestions_are_the_bueros_and_need_two_letters() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;verein;ort\n1;Anna Müller;Urs Bär;JC Uster;Uster\n2;Hans Müller;Beat Egli;;Zug\n",
    )
    .await;
    let (status, _, body) = bytes(&buero, "/personen/vorschlaege?q=m%C3%BCl").await;
    assert_eq!(status, StatusCode::OK);
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let texts: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["Anna Müller", "Hans Müller"]);
    assert_eq!(list[0]["label"], "Anna Müller · JC Uster · Uster");
    let (_, _, body) = bytes(&buero, "/personen/vorschlaege?q=m").await;
    assert_eq!(body, b"[]", "one letter suggests nothing");
    assert_eq!(
        kontrolle.get("/personen/vorschlaege?q=anna").await.status(),
        StatusCode::FORBIDDEN
    );
}

/// An import meets the register in its preview: new, known, or ambiguous (the office
/// chooses); a register changed since the preview is refused; nothing is written before.
#[tokio::test]
async fn an_import_shows_new_known_and_ambiguous_players_and_the_office_chooses() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;ort\n1;Anna Müller;Urs Bär;Uster\n",
    )
    .await;
    tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;ort\n1;Anna Müller;Käthi Frei;Zug\n",
    )
    .await;
    let id = create_tournament(&leitung, "4", "12").await;
    let file =
        "nr;spieler1;spieler2;verein;ort\n1;Anna Müller;Urs Bär;;\n2;Beat Neu;Ida Neu;;Bern\n";
    let html = preview(&leitung, id, file).await;
    assert_eq!(
        select_all(&html, "#matches tr.match-choose").len(),
        1,
        "Anna: two of that name"
    );
    assert_eq!(
        select_all(&html, "#matches tr.match-known").len(),
        1,
        "Urs Bär: the one of that name"
    );
    assert_eq!(select_all(&html, "#matches tr.match-new").len(), 2);
    let options = select_all(&html, "#c_2_1 option");
    assert_eq!(options.len(), 4, "{options:?}");
    let zug = select_attr(&html, "#c_2_1 option", "value")
        .into_iter()
        .zip(&options)
        .find(|(_, label)| label.contains("Zug"))
        .map(|(value, _)| value)
        .unwrap();
    // Without a choice: refused, nothing written.
    let before = app.dump();
    let r = post(&leitung, id, confirm(&html, None)).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("bitte wählen, wer «Anna Müller» ist")
    );
    assert_eq!(app.dump(), before);
    // The register changes between preview and confirm: refused.
    let html = preview(&leitung, id, file).await;
    tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;ort\n1;Anna Müller;Hans Egli;Bern\n",
    )
    .await;
    let r = post(&leitung, id, confirm(&html, Some(&zug))).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("Register der Personen hat sich seit der Vorschau geändert")
    );
    assert!(app.data(id).teams.is_empty());
    // Shown again and chosen: Anna of Zug, Urs Bär of Uster, two new persons.
    let html = preview(&leitung, id, file).await;
    let r = post(&leitung, id, confirm(&html, Some(&zug))).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let register = leitung.html("/personen?q=anna+müller").await;
    let counts: Vec<(String, String)> = select_all(&register, "#persons tbody td:nth-child(4)")
        .into_iter()
        .zip(select_all(&register, "#persons tbody td:last-child"))
        .collect();
    assert_eq!(
        counts,
        [
            ("Uster".to_string(), "1".to_string()),
            ("Zug".to_string(), "2".to_string()),
            ("Bern".to_string(), "1".to_string())
        ]
    );
    let urs = leitung.html("/personen?q=urs+bär").await;
    assert_eq!(select_all(&urs, "#persons tbody td:last-child"), ["2"]);
    let neu = leitung.html("/personen?q=neu").await;
    assert_eq!(select_all(&neu, "#persons tbody tr").len(), 2);
}

async fn preview(client: &Client, id: i32, file: &str) -> scraper::Html {
    let r = client
        .upload(
            &format!("/tournaments/{id}/teams/import"),
            file.as_bytes().to_vec(),
            Some(&client.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    scraper::Html::parse_document(&r.text().await.unwrap())
}

fn confirm(html: &scraper::Html, choice: Option<&str>) -> Vec<(String, String)> {
    let mut form = vec![
        (
            "upload".to_string(),
            attr(html, "input[name=upload]", "value").unwrap(),
        ),
        (
            "register".to_string(),
            attr(html, "input[name=register]", "value").unwrap(),
        ),
    ];
    if let Some(choice) = choice {
        form.push(("c_2_1".to_string(), choice.to_string()));
    }
    form
}

async fn post(client: &Client, id: i32, form: Vec<(String, String)>) -> reqwest::Response {
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client
        .post(&format!("/tournaments/{id}/teams/import/confirm"), &fields)
        .await
}

/// A Jahrgang in the import file tells persons of one name apart, and a new person keeps it.
#[tokio::test]
async fn a_jahrgang_in_the_file_finds_the_person_of_that_year() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    tournament_with(
        &leitung,
        "partnerschieber",
        "nr;spieler1;spieler2;ort;jahrgang1;jahrgang2\n1;Anna Müller;Urs Bär;Uster;1950;\n2;Anna Müller;Käthi Frei;Zug;1980;\n",
    )
    .await;
    let html = leitung.html("/personen?q=anna").await;
    assert_eq!(
        select_all(&html, "#persons tbody td:nth-child(5)"),
        ["1950", "1980"],
        "the file's Jahrgang is kept"
    );
    let id = create_tournament(&leitung, "4", "12").await;
    let file = "nr;spieler1;spieler2;jahrgang1;jahrgang2\n1;Anna Müller;Beat Neu;1980;1970\n";
    let html = preview(&leitung, id, file).await;
    assert_eq!(select_all(&html, "#matches tr.match-known").len(), 1);
    assert!(text(&html, "#matches tr.match-known").contains("Zug"));
    let r = post(&leitung, id, confirm(&html, None)).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let html = leitung.html("/personen?q=anna").await;
    assert_eq!(
        select_all(&html, "#persons tbody td:last-child"),
        ["1", "2"]
    );
    let neu = leitung.html("/personen?q=beat+neu").await;
    assert_eq!(select_all(&neu, "#persons tbody td:nth-child(5)"), ["1970"]);
    // A Jahrgang that is no year: the file is refused at its line.
    let r = leitung
        .upload(
            &format!("/tournaments/{id}/teams/import"),
            b"nr;spieler1;spieler2;jahrgang1\n5;Ida Frei;Hans Egli;neunzehn\n".to_vec(),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("Jahrgang «neunzehn» ist ungültig")
    );
}
