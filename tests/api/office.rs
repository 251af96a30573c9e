//! Office comfort: team files in the app's own words, a template, replacing and deleting
//! teams before the draw, focus for late registrations, German roles, questions before
//! destructive actions, a notice instead of an entry form on a closed tournament.

use crate::helpers::*;
use reqwest::StatusCode;

#[tokio::test]
async fn team_files_replace_and_delete_before_the_draw() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "3", "12").await;
    // The template's own header and the app's labels both import.
    let (status, content_type, template) =
        bytes(&leitung, &format!("/tournaments/{id}/teams/vorlage.csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/csv"));
    let template = String::from_utf8(template).unwrap();
    assert!(template.starts_with("\u{feff}startnummer;team;spieler1;spieler2;verein;ort\r\n"));
    import_teams(&leitung, id, template.into_bytes()).await;
    let csv = "Nr.;Name;Spieler 1;Spieler 2;Club\n7;Stöck;Vreni Bär;Sämi Keller;JC Gais\n8;;Ruedi Egli;Heidi Frei;\n";
    import_teams(&leitung, id, csv.as_bytes().to_vec()).await;
    let d = app.data(id);
    assert_eq!(d.teams.len(), 3);
    assert_eq!(d.teams[1].club.as_deref(), Some("JC Gais"));
    // Replace all: the file's teams only.
    let path = format!("/tournaments/{id}/teams/import");
    let file = "spieler1;spieler2\nA;B\nC;D\nE;F\nG;H\n";
    let r = leitung
        .upload_with(&path, file.as_bytes().to_vec(), &[("replace", "1")])
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let preview = scraper::Html::parse_document(&r.text().await.unwrap());
    assert!(text(&preview, "#replace-note").contains("ersetzt alle bisherigen Teams"));
    let upload = attr(&preview, "input[name=upload]", "value").unwrap();
    leitung
        .post_ok(
            &format!("{path}/confirm"),
            &[("upload", &upload), ("replace", "1")],
        )
        .await;
    let d = app.data(id);
    assert_eq!(
        d.teams
            .iter()
            .map(|t| (t.startnummer.get(), t.player1.as_str()))
            .collect::<Vec<_>>(),
        vec![(1, "A"), (2, "C"), (3, "E"), (4, "G")]
    );
    // Several at once, after a list.
    let (a, b) = (d.teams[0].id.0.to_string(), d.teams[2].id.0.to_string());
    let (ka, kb) = (format!("team_{a}"), format!("team_{b}"));
    let r = leitung
        .post(
            &format!("/tournaments/{id}/teams/delete"),
            &[(ka.as_str(), "1"), (kb.as_str(), "1")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK, "first a list");
    let list = scraper::Html::parse_document(&r.text().await.unwrap());
    assert_eq!(select_all(&list, "#chosen li").len(), 2);
    assert_eq!(app.data(id).teams.len(), 4, "nothing deleted yet");
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/delete"),
            &[(ka.as_str(), "1"), (kb.as_str(), "1"), ("confirm", "1")],
        )
        .await;
    assert_eq!(app.data(id).teams.len(), 2);
    // After the draw: neither.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "pro_passe"), ("seed", "1")],
        )
        .await;
    let c = format!("team_{}", app.data(id).teams[0].id.0);
    let r = leitung
        .post(
            &format!("/tournaments/{id}/teams/delete"),
            &[(c.as_str(), "1"), ("confirm", "1")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.data(id).teams.len(), 2);
}

#[tokio::test]
async fn late_registration_german_roles_questions_and_a_closed_notice() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "3", "12").await;
    let html = leitung.html(&format!("/tournaments/{id}/teams")).await;
    assert_eq!(
        attr(&html, "#team-form #startnummer", "autofocus").as_deref(),
        Some("")
    );
    let html = leitung
        .post_ok(
            &format!("/tournaments/{id}/teams"),
            &[("player1", "Anna"), ("player2", "Urs")],
        )
        .await;
    assert_eq!(
        attr(&html, "#team-form #player1", "value").as_deref(),
        Some(""),
        "an empty form again"
    );
    // Users: German role names, a new account is Turnierbüro unless chosen otherwise.
    let users = leitung.html("/users").await;
    assert!(
        select_all(&users, "td.role").iter().all(|r| [
            "Turnierleitung",
            "Turnierbüro",
            "Kontrolleur"
        ]
        .contains(&r.as_str()))
    );
    assert_eq!(
        attr(&users, "#role option[selected]", "value").as_deref(),
        Some("buero")
    );
    // Destructive actions ask first (the question is asked by the page's script).
    let overview = leitung.html(&format!("/tournaments/{id}")).await;
    assert!(
        attr(
            &overview,
            &format!("form[action=\"/tournaments/{id}/close\"]"),
            "data-confirm"
        )
        .is_some()
    );
    // Closed: a notice instead of the entry form.
    let mut csv = String::from("spieler1;spieler2\n");
    for n in 1..=4 {
        csv += &format!("A{n};B{n}\n");
    }
    import_teams(&leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "1")],
        )
        .await;
    let draw = leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert!(
        attr(
            &draw,
            &format!("form[action=\"/tournaments/{id}/draw\"]"),
            "data-confirm"
        )
        .is_some()
    );
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let entry = leitung
        .html(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    assert!(text(&entry, "#closed-notice").contains("abgeschlossen"));
    assert!(select_all(&entry, "#entry-form").is_empty());
}

/// A result the account may not correct opens as a notice that says why, not as a form whose
/// typed value would be refused and lost; a correction started from the fast entry returns
/// there, one from the Passe page to the Passe page.
#[tokio::test]
async fn the_correction_page_says_who_may_correct_and_returns_where_it_came_from() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    enter(&buero, id, 1, 1, 1000).await;
    enter(&buero, id, 1, 2, 926).await;
    kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    let d = app.data(id);
    let (visaed, open) = (
        d.result_at(1, 1).unwrap().clone(),
        d.result_at(1, 2).unwrap().clone(),
    );
    let page = buero
        .html(&format!(
            "/tournaments/{id}/results/{}/edit?from=entry",
            visaed.id
        ))
        .await;
    assert!(select_all(&page, "#correction-form").is_empty());
    assert!(
        text(&page, "#correction-refused").contains("visiert: korrigieren dürfen nur"),
        "{}",
        text(&page, "#correction-refused")
    );
    assert_eq!(
        attr(&page, "#correction-refused a", "href").as_deref(),
        Some(format!("/tournaments/{id}/passen/1/entry").as_str())
    );
    // The Kontrolleur may correct it: the form is there.
    let page = kontrolle
        .html(&format!("/tournaments/{id}/results/{}/edit", visaed.id))
        .await;
    assert_eq!(select_all(&page, "#correction-form").len(), 1);

    let entry = buero
        .html(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    let link = select_attr(&entry, "#entered a", "href");
    assert!(
        link.contains(&format!(
            "/tournaments/{id}/results/{}/edit?from=entry",
            open.id
        )),
        "{link:?}"
    );
    let form = buero
        .html(&format!(
            "/tournaments/{id}/results/{}/edit?from=entry",
            open.id
        ))
        .await;
    let action = attr(&form, "#correction-form", "action").unwrap();
    assert_eq!(
        action,
        format!("/tournaments/{id}/passen/1/correct?from=entry")
    );
    let version = open.version.to_string();
    let r = buero
        .post(
            &action,
            &[
                ("table", "2"),
                ("version", &version),
                ("points_a", "962"),
                ("points_b", "922"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), format!("/tournaments/{id}/passen/1/entry"));
    let version = app.data(id).result_at(1, 2).unwrap().version.to_string();
    let r = buero
        .post(
            &format!("/tournaments/{id}/passen/1/correct"),
            &[
                ("table", "2"),
                ("version", &version),
                ("points_a", "960"),
                ("points_b", "924"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), format!("/tournaments/{id}/passen/1"));
    assert_eq!(app.data(id).result_at(1, 2).unwrap().points_a.get(), 960);
}

/// Before closing, the overview names the teams without final visa (they will be *nicht
/// bewertet*), and the closing question counts them; a team that left is not among them.
#[tokio::test]
async fn closing_names_the_teams_without_final_visa_first() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    let gone = app.data(id).tables(1)[0].team_a.clone();
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", gone.id),
            &[("action", "withdraw"), ("passe", "1"), ("reason", "")],
        )
        .await;
    let page = leitung.html(&format!("/tournaments/{id}")).await;
    let list = text(&page, "#unvisaed");
    assert!(
        list.starts_with("Ohne Endvisum (7, werden beim Abschliessen nicht bewertet)"),
        "{list}"
    );
    assert!(
        !list.contains(&format!("{} Anna{}", gone.startnummer, gone.startnummer)),
        "{list}"
    );
    let other = app.data(id).tables(1)[0].team_b.startnummer;
    assert!(
        list.contains(&format!("{other} Anna{other} / Urs{other}")),
        "{list}"
    );
    let question = attr(
        &page,
        &format!("form[action='/tournaments/{id}/close']"),
        "data-confirm",
    )
    .unwrap();
    assert!(
        question.starts_with("Turnier abschliessen? 7 Teams ohne Endvisum werden nicht bewertet."),
        "{question}"
    );
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let page = leitung.html(&format!("/tournaments/{id}")).await;
    assert!(select_all(&page, "#unvisaed").is_empty());
}

/// The tournament form shows the fields of its mode: no Jassmarathon rules for a
/// Partnerschieber, no Spiele for a Jassmarathon, the Pauschale's unit per mode; after the
/// draw, mode, Passen and Spiele are shown as fixed (and saved unchanged), not refused.
#[tokio::test]
async fn the_tournament_form_shows_what_applies_to_its_mode_and_what_is_fixed() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let new = leitung.html("/tournaments/new").await;
    assert!(attr(&new, "#marathon-rules", "hidden").is_some());
    assert!(attr(&new, "#marathon-rules", "data-modes").is_some_and(|m| m == "jassmarathon"));
    let visible_label: Vec<String> = select_all(&new, "label[for=pauschale] span:not([hidden])");
    assert_eq!(visible_label.len(), 1);
    assert!(
        visible_label[0].contains("in Punkten pro Passe"),
        "{visible_label:?}"
    );

    let marathon = crate::marathon::marathon_tournament(&app, &leitung, "60").await;
    let edit = leitung.html(&format!("/tournaments/{marathon}/edit")).await;
    assert!(attr(&edit, "#marathon-rules", "hidden").is_none());
    let visible_label = select_all(&edit, "label[for=pauschale] span:not([hidden])");
    assert!(
        visible_label[0].contains("in Strichen pro Spielrunde"),
        "{visible_label:?}"
    );
    assert!(text(&edit, "#fixed-fields").contains("Jassmarathon, 2 Spielrunden"));

    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    let edit = leitung.html(&format!("/tournaments/{id}/edit")).await;
    assert!(select_all(&edit, "select#mode").is_empty());
    assert_eq!(
        text(&edit, "#fixed-fields p"),
        "Seit der Auslosung fest: Partnerschieber, 3 Passen à 12 Spiele."
    );
    // The form as shown saves: its fixed fields travel along unchanged.
    let mut form: Vec<(String, String)> =
        select_attr(&edit, "form.narrow input[type=hidden]", "name")
            .into_iter()
            .zip(select_attr(
                &edit,
                "form.narrow input[type=hidden]",
                "value",
            ))
            .filter(|(name, _)| name != "_csrf")
            .collect();
    form.extend([
        ("name".to_string(), "Cup im Saal, neu".to_string()),
        ("date".into(), "2026-11-22".into()),
        ("pauschale".into(), "660".into()),
    ]);
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    leitung
        .post_ok(&format!("/tournaments/{id}/edit"), &form)
        .await;
    assert_eq!(app.data(id).tournament.name, "Cup im Saal, neu");
}

#[tokio::test]
async fn a_passe_number_below_one_in_an_address_is_not_found_and_writes_nothing() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    for passe in ["0", "-1", "x"] {
        for page in ["entry", "quick", "correct", "tischliste.pdf", "tafel/1"] {
            let (status, _) = leitung
                .page(&format!("/tournaments/{id}/passen/{passe}/{page}"))
                .await;
            assert_eq!(status, StatusCode::NOT_FOUND, "Passe {passe}, {page}");
        }
    }
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/passen/0/tables/1/visa"),
            &[("team", "")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.dump(), before);
}
