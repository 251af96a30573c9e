use crate::helpers::*;
use reqwest::StatusCode;

/// A drawn tournament of the Swiss fixture teams (umlauts), 3 Passen à 12 Spiele.
async fn swiss_tournament(app: &TestApp, leitung: &Client) -> i32 {
    let id = create_tournament(leitung, "3", "12").await;
    import_teams(leitung, id, fixture("teams_semikolon_cp1252.csv")).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "11")],
        )
        .await;
    assert_eq!(app.data(id).teams.len(), 4);
    id
}

#[tokio::test]
async fn standblaetter_print_schedule_results_and_a_scannable_qr_code() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = swiss_tournament(&app, &leitung).await;
    for table in ["1", "2"] {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/passen/1/entry"),
                &[("table", table), ("points_a", "1020")],
            )
            .await;
    }
    let data = app.data(id);
    let (status, content_type, pdf) =
        bytes(&leitung, &format!("/tournaments/{id}/standblaetter.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "application/pdf");
    let pages = pdf_pages(&pdf);
    assert_eq!(pages.len(), 4, "one page per team");
    let label = |t: &jassturnier::db::models::TeamRow| {
        format!(
            "{} {}",
            t.startnummer,
            t.name
                .clone()
                .unwrap_or_else(|| format!("{} / {}", t.player1, t.player2))
        )
    };
    for (team, page) in data.teams.iter().zip(&pages) {
        assert!(
            page.contains(&format!("{} / {}", team.player1, team.player2)),
            "{page}"
        );
        assert!(page.contains(&format!("Los {}", team.los.unwrap())));
        for passe in 1..=3u32 {
            let table = data
                .tables(passe)
                .into_iter()
                .find(|t| t.team_a.id == team.id || t.team_b.id == team.id)
                .unwrap();
            let opponent = if table.team_a.id == team.id {
                table.team_b
            } else {
                table.team_a
            };
            let row = format!("{passe}\n{}\n{}\n", table.number, label(opponent));
            assert!(
                page.contains(&row),
                "Passe {passe} of team {}: expected {row:?} in {page}",
                team.startnummer
            );
        }
        let expected_total = if data.tables(1).iter().any(|t| t.team_a.id == team.id) {
            "1'020"
        } else {
            "864"
        };
        assert!(page.contains(expected_total), "{page}");
    }
    assert!(
        pages[0].contains("Bärenstark")
            && pages[0].contains("Anna Müller / Urs Bär")
            && pages[0].contains("JC Zürich, Zürich")
    );
    assert!(
        pages
            .iter()
            .any(|p| p.contains("Heidi Gämperli / Ruedi Jäggi") && p.contains("Wädenswil"))
    );
    assert!(pages[0].contains("Seite 1 von 4"));

    // The QR code on each sheet opens that team's public page.
    for (index, team) in data.teams.iter().enumerate() {
        let url = pdf_qr(&pdf, index).expect("a QR code that decodes");
        assert_eq!(
            url,
            format!(
                "{}/tournaments/{id}/team/{}",
                leitung.address, team.startnummer
            )
        );
    }

    // Blank sheets: schedule only, no points.
    let (_, _, blank) = bytes(
        &leitung,
        &format!("/tournaments/{id}/standblaetter.pdf?variant=leer"),
    )
    .await;
    let blank = pdf_pages(&blank);
    assert!(
        blank
            .iter()
            .all(|p| !p.contains("1'020") && !p.contains("864"))
    );
    assert!(blank[0].contains("Bärenstark"));
    // One team only; and login required.
    let team = data.teams[1].id;
    let (_, _, single) = bytes(
        &leitung,
        &format!("/tournaments/{id}/teams/{team}/standblatt.pdf"),
    )
    .await;
    assert_eq!(pdf_pages(&single).len(), 1);
    assert_eq!(
        location(
            &app.client()
                .get(&format!("/tournaments/{id}/standblaetter.pdf"))
                .await
        ),
        "/login"
    );
    // A few KB per page thanks to the font subset.
    assert!(pdf.len() < 150_000, "{} bytes", pdf.len());
}

#[tokio::test]
async fn tischliste_startliste_and_jasszettel() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = swiss_tournament(&app, &leitung).await;
    let data = app.data(id);
    let (status, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/2/tischliste.pdf"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let text = pdf_pages(&pdf).join("\n");
    for t in data.tables(2) {
        assert!(
            text.contains(&format!("{}\n{} ", t.number, t.team_a.startnummer)),
            "{text}"
        );
    }
    assert!(text.contains("Tischliste Passe 2"));
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/jasszettel.pdf"),
    )
    .await;
    let pages = pdf_pages(&pdf);
    assert_eq!(pages.len(), 2, "one Jasszettel per table");
    assert!(pages[0].contains("Total beider Teams = 157 × 12 Spiele = 1'884"));
    assert!(pages[0].contains("Unterschrift Schreiber"));
    assert!(pages[0].contains("\n12\n"), "a line per Spiel");
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/startliste.pdf?order=los"),
    )
    .await;
    let text = pdf_pages(&pdf).join("\n");
    assert!(text.contains("Losliste") && text.contains("Jassfreunde Wädenswil"));
    let first = data
        .teams
        .iter()
        .find(|t| t.los.map(u32::from) == Some(1))
        .unwrap();
    assert!(
        text.contains(&format!("1\n{}\n", first.startnummer)),
        "{text}"
    );
    assert_eq!(
        bytes(
            &leitung,
            &format!("/tournaments/{id}/passen/9/tischliste.pdf")
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
}

async fn many_teams(app: &TestApp, leitung: &Client, teams: usize) -> i32 {
    let id = create_tournament_with(leitung, "Grosses Turnier Zürich", "2", "4", "400").await;
    let mut csv = String::from("nr;team;spieler1;spieler2\n");
    for n in 1..=teams {
        csv += &format!("{n};Équipe Nr. {n};Käthi {n};Jürg {n}\n");
    }
    import_teams(leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "5")],
        )
        .await;
    let data = app.data(id);
    let mut results = String::from("passe;startnummer;punkte\n");
    for passe in 1..=2 {
        for t in data.tables(passe) {
            let a = (t.number * 37 + passe * 11) % 629;
            results += &format!(
                "{passe};{};{a}\n{passe};{};{}\n",
                t.team_a.startnummer,
                t.team_b.startnummer,
                628 - a
            );
        }
    }
    let r = leitung
        .upload(
            &format!("/tournaments/{id}/results/import"),
            results.into_bytes(),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    id
}

#[tokio::test]
async fn ranking_pdf_is_paged_and_marked_provisional_only_while_open() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = many_teams(&app, &leitung, 60).await;
    let anonymous = app.client();
    let (status, _, pdf) = bytes(&anonymous, &format!("/tournaments/{id}/ranking.pdf")).await;
    assert_eq!(status, StatusCode::OK, "public");
    let pages = pdf_pages(&pdf);
    assert!(pages.len() >= 2);
    let n = pages.len();
    for (i, page) in pages.iter().enumerate() {
        assert!(page.contains(&format!("Seite {} von {n}", i + 1)));
        assert!(page.contains("PROVISORISCH"));
        assert!(page.contains("Total"), "header repeated on page {}", i + 1);
    }
    // The ranking in the PDF follows the app's Rangliste: compare with the CSV export.
    let (_, _, csv) = bytes(&anonymous, &format!("/tournaments/{id}/ranking.csv")).await;
    let csv = String::from_utf8(csv).unwrap();
    let text = pages.join("\n");
    let total_column = csv
        .lines()
        .next()
        .unwrap()
        .split(';')
        .position(|h| h == "total")
        .unwrap();
    for line in csv.lines().skip(1).take(5) {
        let f: Vec<&str> = line.split(';').collect();
        let total: u32 = f[total_column].parse().unwrap();
        let expected = format!(
            "{}.\n{}\nÉquipe Nr. {} · Käthi {} / Jürg {}",
            f[0], f[1], f[1], f[1], f[1]
        );
        assert!(text.contains(&expected), "{expected:?}");
        let formatted = jassturnier::domain::format::number(i64::from(total));
        assert!(text.contains(&formatted));
    }
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let (_, _, pdf) = bytes(&anonymous, &format!("/tournaments/{id}/ranking.pdf")).await;
    let text = pdf_pages(&pdf).join("\n");
    assert!(!text.contains("PROVISORISCH"));
    assert!(
        text.contains("nicht bewertet"),
        "no final visas: nobody ranked"
    );
}

#[tokio::test]
async fn ranking_csv_and_json_follow_excel_conventions_and_hide_with_the_tournament() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = swiss_tournament(&app, &leitung).await;
    for table in ["1", "2"] {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/passen/1/entry"),
                &[("table", table), ("points_a", "1100")],
            )
            .await;
    }
    let team = app.data(id).teams[3].id;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{team}/status"),
            &[
                ("action", "disqualify"),
                ("passe", "2"),
                ("reason", "Mahnung missachtet"),
            ],
        )
        .await;
    let anonymous = app.client();
    let (status, content_type, csv) =
        bytes(&anonymous, &format!("/tournaments/{id}/ranking.csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/csv"));
    assert!(csv.starts_with(b"\xEF\xBB\xBF"), "BOM for Excel");
    let text = String::from_utf8(csv[3..].to_vec()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "rang;startnummer;team;spieler1;spieler2;passe_1;passe_2;passe_3;passe_1_art;passe_2_art;passe_3_art;total;status"
    );
    assert_eq!(lines.len(), 5);
    assert!(
        lines[1].starts_with("1;") && lines[1].ends_with(";Resultate fehlen"),
        "{}",
        lines[1]
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Bärenstark;Anna Müller;Urs Bär"))
    );
    assert!(
        lines[4].ends_with(";disqualifiziert") && lines[4].starts_with(';'),
        "{}",
        lines[4]
    );

    let r = anonymous
        .get(&format!("/tournaments/{id}/ranking.json"))
        .await;
    let json: serde_json::Value = serde_json::from_str(&r.text().await.unwrap()).unwrap();
    assert_eq!(json["tournament"], "Herbstturnier Zürich");
    assert_eq!(json["official"], false);
    assert_eq!(json["teams"][0]["rank"], 1);
    assert_eq!(json["teams"][0]["rounds"][0], 1100);
    assert_eq!(json["teams"].as_array().unwrap().len(), 4);
    assert_eq!(json["teams"][3]["status"], "disqualifiziert");
    assert_eq!(json["teams"][3]["status_label"], "disqualifiziert");
    assert_eq!(json["teams"][0]["status"], "resultate_fehlen");
    assert_eq!(json["teams"][0]["status_label"], "Resultate fehlen");
    assert_eq!(json["teams"][0]["round_kinds"][0], "gespielt");

    // Hidden: anonymous visitors get 404, the office still sees everything.
    leitung
        .post_ok(&format!("/tournaments/{id}/hide"), &[])
        .await;
    for path in ["ranking", "ranking.pdf", "ranking.csv", "ranking.json"] {
        let url = format!("/tournaments/{id}/{path}");
        assert_eq!(
            anonymous.get(&url).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
        assert_eq!(leitung.get(&url).await.status(), StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn exported_results_reimport_into_an_identical_ranking() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let first = many_teams(&app, &leitung, 10).await;
    let (_, _, results_csv) = bytes(&leitung, &format!("/tournaments/{first}/results.csv")).await;
    assert!(results_csv.starts_with(b"\xEF\xBB\xBFpasse;startnummer;punkte;art\r\n"));
    // A fresh tournament with the same teams and draw seed has the same schedule.
    let second = create_tournament_with(&leitung, "Kopie", "2", "4", "400").await;
    let mut csv = String::from("nr;team;spieler1;spieler2\n");
    for n in 1..=10 {
        csv += &format!("{n};Équipe Nr. {n};Käthi {n};Jürg {n}\n");
    }
    import_teams(&leitung, second, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{second}/draw"),
            &[("mode", "fest"), ("seed", "5")],
        )
        .await;
    let r = leitung
        .upload(
            &format!("/tournaments/{second}/results/import"),
            results_csv,
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::SEE_OTHER,
        "{}",
        r.text().await.unwrap()
    );
    let (_, _, a) = bytes(&leitung, &format!("/tournaments/{first}/ranking.csv")).await;
    let (_, _, b) = bytes(&leitung, &format!("/tournaments/{second}/ranking.csv")).await;
    assert!(String::from_utf8(a.clone()).unwrap().lines().count() == 11);
    assert_eq!(a, b);
}

/// Downloads say what they are and of which tournament ("Tischliste_Passe-2_…" rather than
/// the fifth "tischliste.pdf" in the folder); the public Rangliste page names its tournament
/// and starts no line with a stray "·".
#[tokio::test]
async fn downloads_are_named_by_what_they_are_and_the_public_rangliste_names_its_tournament() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = swiss_tournament(&app, &leitung).await;
    let team = app.data(id).teams[1].clone();
    let tournament = "Herbstturnier-Zuerich";
    for (path, name) in [
        (
            format!("/tournaments/{id}/passen/2/tischliste.pdf"),
            format!("Tischliste_Passe-2_{tournament}.pdf"),
        ),
        (
            format!("/tournaments/{id}/passen/2/wer-sitzt-wo.pdf?order=name"),
            format!("Wer-sitzt-wo_Passe-2_nach-Name_{tournament}.pdf"),
        ),
        (
            format!("/tournaments/{id}/passen/1/jasszettel.pdf"),
            format!("Jasszettel_Passe-1_{tournament}.pdf"),
        ),
        (
            format!("/tournaments/{id}/teams/{}/standblatt.pdf", team.id),
            format!("Standblatt-{}_{tournament}.pdf", team.startnummer),
        ),
        (
            format!("/tournaments/{id}/standblaetter.pdf?variant=leer"),
            format!("Standblaetter_leer_{tournament}.pdf"),
        ),
        (
            format!("/tournaments/{id}/startliste.pdf?order=los"),
            format!("Losliste_{tournament}.pdf"),
        ),
        (
            format!("/tournaments/{id}/ranking.pdf"),
            format!("Rangliste_Zwischenstand_{tournament}.pdf"),
        ),
        (
            format!("/tournaments/{id}/ranking.csv"),
            format!("Rangliste_{tournament}.csv"),
        ),
        (
            format!("/tournaments/{id}/results.csv"),
            format!("Resultate_{tournament}.csv"),
        ),
    ] {
        let r = leitung.get(&path).await;
        assert_eq!(r.status(), StatusCode::OK, "{path}");
        let disposition = r
            .headers()
            .get("content-disposition")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            disposition,
            format!("inline; filename=\"{name}\""),
            "{path}"
        );
    }
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let page = app
        .client()
        .html(&format!("/tournaments/{id}/ranking"))
        .await;
    assert_eq!(
        text(&page, "#tournament-name"),
        "Herbstturnier Zürich · 22.11.2026, Zürich"
    );
    for line in select_all(&page, "main p") {
        assert!(!line.trim_start().starts_with('·'), "{line:?}");
    }
}

/// Equal totals ordered by the best Passe are explained where players read the Rangliste:
/// under the team on the page, and in a list below the PDF's table.
#[tokio::test]
async fn a_tie_decided_by_the_best_passe_says_so_on_page_and_pdf() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = swiss_tournament(&app, &leitung).await;
    let d = app.data(id);
    let (x, y) = (d.tables(1)[0].team_a.id, d.tables(1)[1].team_a.id);
    // X: 1'000 + 900, Y: 916 + 984 — both 1'900; X's best Passe (1'000) beats Y's (984).
    let wanted = |passe: u32, team| match (passe, team) {
        (1, t) if t == x => Some(1000),
        (1, t) if t == y => Some(916),
        (2, t) if t == x => Some(900),
        (2, t) if t == y => Some(984),
        _ => None,
    };
    for passe in 1..=2 {
        for t in d.tables(passe) {
            let a = match (wanted(passe, t.team_a.id), wanted(passe, t.team_b.id)) {
                (Some(a), _) => a,
                (None, Some(b)) => 1884 - b,
                (None, None) => 942,
            };
            enter(&leitung, id, passe, t.number, a).await;
        }
    }
    let page = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    let note = |team: jassturnier::domain::ids::TeamId| {
        text(&page, &format!("tr[data-team='{team}'] .tie-note"))
    };
    assert_eq!(note(y), "Stichentscheid: beste Passe 1'000 / 984");
    assert_eq!(note(x), "", "the team ahead needs no note");
    let (_, _, pdf) = bytes(&leitung, &format!("/tournaments/{id}/ranking.pdf")).await;
    let text = pdf_pages(&pdf).join("\n");
    assert!(text.contains("Stichentscheid bei gleichem Total"), "{text}");
    assert!(
        text.contains("vor") && text.contains("(beide 1'900): beste Passe 1'000 / 984"),
        "{text}"
    );
}
