//! The Jass-Cup (#80): a series made by the Leitung, its standings public and live, the
//! rule computed as the test computes it apart from the app.

use crate::helpers::*;
use reqwest::StatusCode;
use scraper::Html;
use std::collections::HashMap;

/// A tournament of four teams «Anna{n} / Urs{n}» played to the end (all visas); closed when
/// asked. The same names in every tournament: the same persons.
async fn played(app: &TestApp, leitung: &Client, shift: u32, close: bool) -> i32 {
    let id = drawn_field(leitung, "2", "2", "150", 4).await;
    crate::absenden::play_and_visa(app, leitung, id, shift).await;
    if close {
        leitung
            .post_ok(&format!("/tournaments/{id}/close"), &[])
            .await;
    }
    id
}

/// Apart from the app: each tournament's Rangliste (official or provisional, with its
/// factor), 10-8-6-4 points by rank to both players of a team «Anna{n} / Urs{n}», each
/// person's best `best` summed; sorted by name.
fn expected_totals(ranklists: &[(serde_json::Value, u32)], best: usize) -> Vec<(String, u32)> {
    let mut results: HashMap<String, Vec<u32>> = HashMap::new();
    for (ranking, factor) in ranklists {
        for team in ranking["teams"].as_array().unwrap() {
            let Some(rank) = team["rank"].as_u64() else {
                continue;
            };
            let points = [10, 8, 6, 4].get(rank as usize - 1).copied().unwrap_or(0) * factor;
            let nr = team["startnummer"].as_u64().unwrap();
            for who in [format!("Anna{nr}"), format!("Urs{nr}")] {
                results.entry(who).or_default().push(points);
            }
        }
    }
    let mut totals: Vec<(String, u32)> = results
        .into_iter()
        .map(|(who, mut p)| {
            p.sort_unstable_by(|a, b| b.cmp(a));
            (who, p.iter().take(best).sum())
        })
        .collect();
    totals.sort();
    totals
}

/// The standings' names and totals, sorted by name.
fn totals_of(standings: &serde_json::Value) -> Vec<(String, u32)> {
    let mut got: Vec<(String, u32)> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let total = u32::try_from(s["total"].as_u64().unwrap()).unwrap();
            (s["names"].as_str().unwrap().to_string(), total)
        })
        .collect();
    got.sort();
    got
}

pub(crate) async fn json(client: &Client, path: &str) -> serde_json::Value {
    let (status, _, body) = bytes(client, path).await;
    assert_eq!(status, StatusCode::OK, "{path}");
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test]
async fn a_season_is_ranked_by_the_rule_public_and_live() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let anonymous = app.client();
    let first = played(&app, &leitung, 0, true).await;
    let second = played(&app, &leitung, 100, true).await;
    let last = played(&app, &leitung, 200, false).await;

    // Made by the Leitung only; a missing name refused at the field, nothing written.
    let r = buero
        .post(
            "/serien",
            &[("name", "JM"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let before = app.dump();
    let r = leitung
        .post(
            "/serien",
            &[("name", ""), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.dump(), before);
    let r = leitung
        .post(
            "/serien",
            &[
                ("name", "Jahresmeisterschaft"),
                ("season", "2026"),
                ("preset", "jahresmeisterschaft"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let settings = location(&r);
    let id: i32 = settings.split('/').nth(2).unwrap().parse().unwrap();

    // The rule: table 10-8-6-4, best 2 count, the last tournament a final (×2).
    let rule = |best: &'static str| {
        vec![
            ("name", "Jahresmeisterschaft"),
            ("season", "2026"),
            ("points", "tabelle"),
            ("points_table", "10-8-6-4"),
            ("unit", "person"),
            ("best", best),
            ("minimum", "1"),
            ("final_factor", "2"),
            ("qualification", "top"),
            ("qualify_value", "3"),
            ("wildcards", ""),
        ]
    };
    let before = app.dump();
    let r = leitung.post(&settings, &rule("zwei")).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert_eq!(
        text(&html, "#best-error"),
        "Es zählen die besten: «zwei» ist keine ganze Zahl."
    );
    assert_eq!(app.dump(), before, "nothing written");
    leitung.post_ok(&settings, &rule("2")).await;
    let choose = [
        (format!("t_{first}"), "1"),
        (format!("t_{second}"), "1"),
        (format!("t_{last}"), "1"),
        (format!("final_{last}"), "1"),
    ];
    let fields: Vec<(&str, &str)> = choose.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    leitung
        .post_ok(&format!("/serien/{id}/turniere"), &fields)
        .await;

    // Apart from the app: each tournament's Rangliste (official or provisional), the points
    // by rank, each person's best two summed.
    let ranklists = vec![
        (
            json(&anonymous, &format!("/tournaments/{first}/ranking.json")).await,
            1,
        ),
        (
            json(&anonymous, &format!("/tournaments/{second}/ranking.json")).await,
            1,
        ),
        (
            json(&anonymous, &format!("/tournaments/{last}/ranking.json")).await,
            2,
        ),
    ];
    let standings = json(&anonymous, &format!("/serien/{id}/gesamtwertung.json")).await;
    assert_eq!(totals_of(&standings), expected_totals(&ranklists, 2));
    // The ranks follow the totals; three results each, one struck; the open final is
    // provisional; the first three (with ties) qualify.
    let rows = standings["standings"].as_array().unwrap();
    let totals: Vec<u64> = rows.iter().map(|s| s["total"].as_u64().unwrap()).collect();
    assert!(totals.windows(2).all(|w| w[0] >= w[1]));
    for s in rows {
        let results = s["results"].as_array().unwrap();
        assert_eq!(results.len(), 3);
        assert_eq!(results.iter().filter(|r| r["counted"] == false).count(), 1);
        assert_eq!(results[2]["provisional"], true);
        assert_eq!(
            s["qualified"].as_bool().unwrap(),
            s["rank"].as_u64().unwrap() <= 3
        );
    }
    assert_eq!(standings["tournaments"][2]["is_final"], true);
    // The official standings: only the two closed tournaments count.
    let official = json(
        &anonymous,
        &format!("/serien/{id}/gesamtwertung.json?offiziell=1"),
    )
    .await;
    assert_eq!(official["official"], true);
    assert_eq!(
        totals_of(&official),
        expected_totals(&ranklists[..2], 2),
        "the open final left out"
    );
    let html = anonymous.html(&format!("/serien/{id}?offiziell=1")).await;
    assert!(text(&html, "#which").starts_with("Offizielle Gesamtwertung"));
    assert_eq!(
        attr(&html, "#series-standings", "data-official").as_deref(),
        Some("1")
    );

    // The page, for anyone: names and Verein, the rule, the cut line, the struck results.
    let html = anonymous.html(&format!("/serien/{id}")).await;
    assert_eq!(
        text(&html, "#series-rule"),
        "Punkte nach Rang 10-8-6-4; es zählen die besten 2 Resultate; der Final zählt 2-fach; die ersten 3 erreichen den Final."
    );
    assert_eq!(select_all(&html, "#standings tbody tr").len(), 8);
    assert_eq!(select_all(&html, "#standings tr.cut").len(), 1);
    assert_eq!(select_all(&html, "#standings td.results s").len(), 8);
    let (status, kind, csv) = bytes(&anonymous, &format!("/serien/{id}/gesamtwertung.csv")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/csv"));
    let csv = String::from_utf8_lossy(&csv)
        .trim_start_matches('\u{feff}')
        .to_string();
    assert!(
        csv.starts_with("rang;name;verein;total;teilnahmen;"),
        "{csv}"
    );
    let (status, kind, pdf) = bytes(&anonymous, &format!("/serien/{id}/gesamtwertung.pdf")).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/pdf"));
    let text_of_pdf = pdf_pages(&pdf).join("\n");
    assert!(text_of_pdf.contains("Gesamtwertung"), "{text_of_pdf}");
    assert!(text_of_pdf.contains("Anna1"), "{text_of_pdf}");
    // A person's results in the series.
    let link = attr(&html, "#standings tbody tr a", "href").unwrap();
    let person = anonymous.html(&link).await;
    assert_eq!(select_all(&person, "#person-results tbody tr").len(), 3);
    assert_eq!(select_all(&person, "#person-results tr.struck").len(), 1);

    // Live: the table answers 204 while nothing changed; when the final is closed the new
    // table comes, without the provisional marks.
    let version = attr(&html, "#series-standings", "data-version").unwrap();
    let table = format!("/serien/{id}/tabelle?v={version}");
    let (status, _, _) = bytes(&anonymous, &table).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(text(&html, "#standings").contains('*'));
    leitung
        .post_ok(&format!("/tournaments/{last}/close"), &[])
        .await;
    let (status, _, body) = bytes(&anonymous, &table).await;
    assert_eq!(status, StatusCode::OK);
    let fresh = Html::parse_fragment(&String::from_utf8_lossy(&body));
    assert_ne!(
        attr(&fresh, "#series-standings", "data-version").unwrap(),
        version
    );
    assert!(!text(&fresh, "#standings").contains('*'));

    // A wildcard: qualified whatever the rank; merged into another person it goes along;
    // deleted on request it goes too (the series stays).
    let last_place = rows.last().unwrap()["names"].as_str().unwrap().to_string();
    let register = leitung.html(&format!("/personen?q={last_place}")).await;
    let person = select_attr(&register, "tr[data-person]", "data-person")[0].clone();
    let mut with_wildcard = rule("2");
    with_wildcard[10] = ("wildcards", person.as_str());
    leitung.post_ok(&settings, &with_wildcard).await;
    let standings = json(&anonymous, &format!("/serien/{id}/gesamtwertung.json")).await;
    let wild = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["names"] == last_place.as_str())
        .unwrap();
    assert_eq!(wild["qualified"], true);
    leitung
        .post_ok(&format!("/personen/{person}/loeschen"), &[])
        .await;
    let html = leitung.html(&settings).await;
    assert_eq!(attr(&html, "#wildcards", "value").unwrap(), "");
}

/// Enters every table of one Passe (team A's points shifted by `shift`) and visas it.
pub(crate) async fn play_passe(app: &TestApp, leitung: &Client, id: i32, passe: u32, shift: u32) {
    for t in app.data(id).tables(passe) {
        enter(
            leitung,
            id,
            passe,
            t.number,
            (90 + t.number * 40 + shift) % 300,
        )
        .await;
        leitung
            .post_ok(
                &format!("/tournaments/{id}/passen/{passe}/tables/{}/visa", t.number),
                &[],
            )
            .await;
    }
}

async fn upload(client: &Client, path: &str, bytes: Vec<u8>) -> reqwest::Response {
    client.upload(path, bytes, Some(&client.csrf)).await
}

/// Two instances, two databases: a hall runs a tournament offline and sends its sealed
/// report; the series' instance checks it, accepts the hall by its fingerprint, takes the
/// report once, takes a later revision in its place (and shows what changed), refuses an
/// older one and one with a point changed.
#[tokio::test]
async fn a_sealed_report_from_another_hall_counts_in_the_series() {
    let hall = spawn_app().await;
    let hall_leitung = hall.leitung().await;
    hall_leitung
        .post_ok("/halle/name", &[("hall_name", "Jassclub Uster")])
        .await;
    let halle = hall_leitung.html("/halle").await;
    let fingerprint = text(&halle, "#own-fingerprint");
    let tournament = drawn_field(&hall_leitung, "2", "2", "150", 4).await;
    play_passe(&hall, &hall_leitung, tournament, 1, 0).await;
    let report_path = format!("/tournaments/{tournament}/bericht");
    let (status, _, first) = bytes(&hall_leitung, &report_path).await;
    assert_eq!(status, StatusCode::OK);
    // The same state, the same report, byte for byte.
    assert_eq!(bytes(&hall_leitung, &report_path).await.2, first);
    // Not for the Büro, not for strangers.
    let hall_buero = hall.account(&hall_leitung, BUERO, "buero").await;
    assert_eq!(
        bytes(&hall_buero, &report_path).await.0,
        StatusCode::FORBIDDEN
    );

    let cup = spawn_app().await;
    let leitung = cup.leitung().await;
    let anonymous = cup.client();
    let r = leitung
        .post(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    let id: i32 = location(&r).split('/').nth(2).unwrap().parse().unwrap();
    let reports = format!("/serien/{id}/berichte");

    // Anyone can check a report; it names the hall and its fingerprint.
    let r = anonymous.upload("/pruefen", first.clone(), None).await;
    assert_eq!(r.status(), StatusCode::OK);
    let verdict = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&verdict, "#verdict").contains("Echt: unterschrieben von «Jassclub Uster»."));
    assert!(text(&verdict, "#verdict").contains(&fingerprint));

    // One point changed on the way: refused, at the check and at the series; nothing written.
    let mut doc: serde_json::Value = serde_json::from_slice(&first).unwrap();
    let mut payload: serde_json::Value =
        serde_json::from_str(doc["payload"].as_str().unwrap()).unwrap();
    let points = payload["tournament"]["results"][0]["points_a"]
        .as_u64()
        .unwrap();
    payload["tournament"]["results"][0]["points_a"] = (points + 1).into();
    doc["payload"] = serde_json::Value::String(payload.to_string());
    let tampered = serde_json::to_vec(&doc).unwrap();
    // Pasted as text instead of a file: the same answer.
    let form =
        reqwest::multipart::Form::new().text("text", String::from_utf8(first.clone()).unwrap());
    let pasted = reqwest::Client::new()
        .post(format!("{}/pruefen", cup.address))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(pasted.status(), StatusCode::OK);
    let r = anonymous.upload("/pruefen", tampered.clone(), None).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let verdict = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&verdict, "#verdict").contains("Der Bericht wurde verändert"));
    let before = cup.dump();
    let r = upload(&leitung, &reports, tampered).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("Der Bericht wurde verändert")
    );

    // An unknown hall: its fingerprint to compare, nothing taken.
    let r = upload(&leitung, &reports, first.clone()).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let confirm = Html::parse_document(&r.text().await.unwrap());
    assert_eq!(text(&confirm, "#fingerprint"), fingerprint);
    assert_eq!(cup.dump(), before, "nothing written");
    let key = attr(&confirm, "#accept-hall input[name=public_key]", "value").unwrap();
    leitung
        .post_ok(
            &format!("/serien/{id}/hallen"),
            &[("public_key", &key), ("hall_name", "Jassclub Uster")],
        )
        .await;
    let html = upload(&leitung, &reports, first.clone()).await;
    assert_eq!(html.status(), StatusCode::SEE_OTHER);
    let standings = |app: &TestApp| {
        let _ = app;
        async {
            let (_, _, body) = bytes(&anonymous, &format!("/serien/{id}/gesamtwertung.json")).await;
            serde_json::from_slice::<serde_json::Value>(&body).unwrap()
        }
    };
    let after_first = standings(&cup).await;
    assert_eq!(after_first["tournaments"].as_array().unwrap().len(), 1);
    assert_eq!(after_first["tournaments"][0]["official"], false);
    assert_eq!(after_first["standings"].as_array().unwrap().len(), 8);
    // The same report again: nothing changes.
    let dump = cup.dump();
    let r = upload(&leitung, &reports, first.clone()).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(cup.dump(), dump);

    // The hall plays on and closes: a later revision replaces the first; the page says what
    // changed.
    play_passe(&hall, &hall_leitung, tournament, 2, 150).await;
    for team in &hall.data(tournament).teams {
        hall_leitung
            .post_ok(
                &format!("/tournaments/{tournament}/teams/{}/final-visa", team.id),
                &[],
            )
            .await;
    }
    hall_leitung
        .post_ok(&format!("/tournaments/{tournament}/close"), &[])
        .await;
    let (_, _, second) = bytes(&hall_leitung, &report_path).await;
    let html = upload(&leitung, &reports, second.clone()).await;
    assert_eq!(html.status(), StatusCode::SEE_OTHER);
    let settings = leitung.html(&format!("/serien/{id}/einstellungen")).await;
    let latest = select_all(&settings, "#taken-reports li");
    assert!(latest[0].contains("ersetzt Revision"), "{latest:?}");
    assert!(latest[0].contains(" → "), "{latest:?}");
    let after_second = standings(&cup).await;
    assert_eq!(after_second["tournaments"].as_array().unwrap().len(), 1);
    assert_eq!(after_second["tournaments"][0]["official"], true);
    assert_ne!(after_second["standings"], after_first["standings"]);
    // The older one now: refused, nothing written.
    let dump = cup.dump();
    let r = upload(&leitung, &reports, first).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("nicht neuer"));
    assert_eq!(cup.dump(), dump);

    // The printed Rangliste's question (tournament, revision, digest) is answered by the hall.
    let sealed: serde_json::Value = serde_json::from_slice(&second).unwrap();
    let payload: serde_json::Value =
        serde_json::from_str(sealed["payload"].as_str().unwrap()).unwrap();
    let question = format!(
        "/pruefen?bericht={}&stand={}&pruefsumme={}",
        payload["uuid"].as_str().unwrap(),
        payload["revision"],
        &sealed["digest"].as_str().unwrap()[..32]
    );
    let answer = hall.client().html(&question).await;
    assert!(text(&answer, "#verdict").contains("Echt: unterschrieben von «Jassclub Uster»."));
    let answer = anonymous.html(&question).await;
    assert!(
        text(&answer, "#verdict").contains("Echt"),
        "the series knows it too"
    );

    // The official Rangliste prints the seal: the hall, its fingerprint, and a QR code that
    // opens this very question.
    let (_, _, pdf) = bytes(
        &hall_leitung,
        &format!("/tournaments/{tournament}/ranking.pdf"),
    )
    .await;
    let pages = pdf_pages(&pdf);
    let last = pages.last().unwrap();
    assert!(
        last.contains("Unterschrieben von «Jassclub Uster»"),
        "{last}"
    );
    assert!(last.contains(&fingerprint), "{last}");
    let url = pdf_qr(&pdf, pages.len() - 1).expect("a QR code on the last page");
    assert!(url.ends_with(&question), "{url}");
    // Once the hall changes the tournament, the print is no longer the latest state.
    hall_leitung
        .post_ok(&format!("/tournaments/{tournament}/reopen"), &[])
        .await;
    let answer = hall.client().html(&question).await;
    assert!(text(&answer, "#verdict").contains("inzwischen bei Stand"));
}

/// `jassturnier series import`: the same checks as the upload, on the series' database.
#[tokio::test]
async fn the_command_line_takes_a_report_into_a_series() {
    let hall = spawn_app().await;
    let hall_leitung = hall.leitung().await;
    let tournament = drawn_field(&hall_leitung, "2", "2", "150", 4).await;
    play_passe(&hall, &hall_leitung, tournament, 1, 0).await;
    let (_, _, report) = bytes(&hall_leitung, &format!("/tournaments/{tournament}/bericht")).await;
    let fingerprint = text(&hall_leitung.html("/halle").await, "#own-fingerprint");
    let cup = spawn_app().await;
    let leitung = cup.leitung().await;
    leitung
        .post_ok(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    let file = cup.dir.path().join("bericht.jassbericht.json");
    std::fs::write(&file, &report).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "--database-url",
            cup.database_url.as_str(),
            "series",
            "import",
            "--series",
            "1",
        ];
        args.extend_from_slice(extra);
        args.push(file.to_str().unwrap());
        std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .args(&args)
            .output()
            .unwrap()
    };
    let before = cup.dump();
    let out = run(&[]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&fingerprint), "{said}");
    assert_eq!(cup.dump(), before, "nothing written");
    let out = run(&["--accept-hall"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Bericht übernommen"));
    let standings = leitung.html("/serien/1").await;
    assert_eq!(select_all(&standings, "#standings tbody tr").len(), 8);
    let out = run(&[]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("schon"));
}

/// A season of five: three tournaments played here, two in another hall and sent as sealed
/// reports — one of them later corrected (its newer revision replaces it), and a tampered
/// copy refused. The standings equal the computation from the five Ranglisten in force.
#[tokio::test]
async fn a_season_of_five_with_two_sealed_reports() {
    let cup = spawn_app().await;
    let leitung = cup.leitung().await;
    let anonymous = cup.client();
    let mut local = Vec::new();
    for shift in [0, 100, 200] {
        let id = drawn_field(&leitung, "2", "2", "150", 4).await;
        crate::absenden::play_and_visa(&cup, &leitung, id, shift).await;
        leitung
            .post_ok(&format!("/tournaments/{id}/close"), &[])
            .await;
        local.push(id);
    }
    leitung
        .post_ok(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    let rule = [
        ("name", "Cup"),
        ("season", "2026"),
        ("points", "tabelle"),
        ("points_table", "10-8-6-4"),
        ("unit", "person"),
        ("best", "4"),
        ("minimum", "1"),
        ("final_factor", "1"),
        ("qualification", "keine"),
        ("qualify_value", ""),
        ("wildcards", ""),
    ];
    leitung.post_ok("/serien/1/einstellungen", &rule).await;
    let chosen: Vec<(String, &str)> = local.iter().map(|t| (format!("t_{t}"), "1")).collect();
    let fields: Vec<(&str, &str)> = chosen.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    leitung.post_ok("/serien/1/turniere", &fields).await;

    // The other hall: two tournaments, the first reported early and corrected later.
    let hall = spawn_app().await;
    let hall_leitung = hall.leitung().await;
    let early = drawn_field(&hall_leitung, "2", "2", "150", 4).await;
    play_passe(&hall, &hall_leitung, early, 1, 50).await;
    let report = |id: i32| {
        let client = &hall_leitung;
        async move { bytes(client, &format!("/tournaments/{id}/bericht")).await.2 }
    };
    let first_revision = report(early).await;
    let second = drawn_field(&hall_leitung, "2", "2", "150", 4).await;
    crate::absenden::play_and_visa(&hall, &hall_leitung, second, 30).await;
    hall_leitung
        .post_ok(&format!("/tournaments/{second}/close"), &[])
        .await;
    let other = report(second).await;
    play_passe(&hall, &hall_leitung, early, 2, 250).await;
    let corrected = report(early).await;

    let key = serde_json::from_slice::<serde_json::Value>(&other).unwrap()["public_key"]
        .as_str()
        .unwrap()
        .to_string();
    leitung
        .post_ok(
            "/serien/1/hallen",
            &[("public_key", &key), ("hall_name", "Halle Uster")],
        )
        .await;
    for file in [&first_revision, &other, &corrected] {
        let r = upload(&leitung, "/serien/1/berichte", file.clone()).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
    }
    // A copy of the other report with one point more: refused, nothing written.
    let mut doc: serde_json::Value = serde_json::from_slice(&other).unwrap();
    let payload = doc["payload"]
        .as_str()
        .unwrap()
        .replacen("\"points_a\":", "\"points_a\":1", 1);
    doc["payload"] = payload.into();
    let before = cup.dump();
    let r = upload(
        &leitung,
        "/serien/1/berichte",
        serde_json::to_vec(&doc).unwrap(),
    )
    .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(cup.dump(), before);

    let standings = json(&anonymous, "/serien/1/gesamtwertung.json").await;
    let tournaments = standings["tournaments"].as_array().unwrap();
    assert_eq!(tournaments.len(), 5);
    // The five in force here: the three local ones and the two taken (the corrected early one
    // in place of its first revision); each one's own Rangliste, on this instance.
    let settings = leitung.html("/serien/1/einstellungen").await;
    let in_series: Vec<String> = select_attr(
        &settings,
        "#tournament-choice input[name^=t_][checked]",
        "name",
    );
    assert_eq!(in_series.len(), 5);
    let mut ranklists = Vec::new();
    for name in &in_series {
        let t = name.trim_start_matches("t_");
        ranklists.push((
            json(&leitung, &format!("/tournaments/{t}/ranking.json")).await,
            1,
        ));
    }
    assert_eq!(totals_of(&standings), expected_totals(&ranklists, 4));
    // Each person played all five: one result struck.
    for s in standings["standings"].as_array().unwrap() {
        let results = s["results"].as_array().unwrap();
        assert_eq!(results.len(), 5);
        assert_eq!(results.iter().filter(|r| r["counted"] == false).count(), 1);
    }
}

/// One server process with its own database, logged in as the demo's Leitung.
struct Process {
    child: std::process::Child,
    base: String,
    http: reqwest::Client,
    csrf: String,
    _dir: tempfile::TempDir,
}

impl Process {
    async fn demo(teams: &str) -> Process {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("halle.sqlite3");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .args(["demo", "--teams", teams, "--passen", "2", "--spiele", "12"])
            .env("DATABASE_URL", &db)
            .output()
            .unwrap();
        assert!(out.status.success());
        let port = crate::crash::free_port();
        let base = format!("http://127.0.0.1:{port}");
        let child = crate::crash::start(&db, port);
        let http = reqwest::Client::builder()
            .cookie_store(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        crate::crash::wait_until_up(&http, &base).await;
        let r = http
            .post(format!("{base}/login"))
            .form(&[("username", "demo"), ("password", "demo-passwort")])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
        let page = http.get(format!("{base}/serien")).send().await.unwrap();
        let page = Html::parse_document(&page.text().await.unwrap());
        let csrf = attr(&page, "input[name=_csrf]", "value").unwrap();
        Process {
            child,
            base,
            http,
            csrf,
            _dir: dir,
        }
    }

    async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap()
    }

    async fn post(&self, path: &str, form: &[(&str, &str)]) -> reqwest::Response {
        let mut form = form.to_vec();
        form.push(("_csrf", &self.csrf));
        self.http
            .post(format!("{}{path}", self.base))
            .form(&form)
            .send()
            .await
            .unwrap()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two real instances — two server processes, two databases: the hall's report, downloaded
/// from one, is taken into the series of the other.
#[tokio::test]
async fn a_report_travels_between_two_server_processes() {
    let hall = Process::demo("16").await;
    hall.post("/halle/name", &[("hall_name", "Jassclub Uster")])
        .await;
    let report = hall.get("/tournaments/1/bericht").await;
    assert_eq!(report.status(), StatusCode::OK);
    let report = report.bytes().await.unwrap().to_vec();
    let key = serde_json::from_slice::<serde_json::Value>(&report).unwrap()["public_key"]
        .as_str()
        .unwrap()
        .to_string();

    let cup = Process::demo("4").await;
    let r = cup
        .post(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let r = cup
        .post(
            "/serien/1/hallen",
            &[("public_key", &key), ("hall_name", "Jassclub Uster")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let form = reqwest::multipart::Form::new()
        .text("_csrf", cup.csrf.clone())
        .part(
            "file",
            reqwest::multipart::Part::bytes(report).file_name("bericht.jassbericht.json"),
        );
    let r = cup
        .http
        .post(format!("{}/serien/1/berichte", cup.base))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let body = cup.get("/serien/1/gesamtwertung.json").await.bytes().await;
    let standings: serde_json::Value = serde_json::from_slice(&body.unwrap()).unwrap();
    assert_eq!(standings["tournaments"].as_array().unwrap().len(), 1);
    assert!(standings["standings"].as_array().unwrap().len() >= 30);
}

/// A report's players meet the register as a team import's do: a name the register holds
/// twice (other Orte) waits for the office's choice; the choice links the person; a register
/// changed between the preview and the choice is refused.
#[tokio::test]
async fn a_reports_players_are_matched_in_the_register_with_the_offices_choice() {
    let cup = spawn_app().await;
    let leitung = cup.leitung().await;
    for ort in ["Uster", "Bern"] {
        let id = create_tournament_with(&leitung, &format!("Abend {ort}"), "2", "2", "150").await;
        import_teams(
            &leitung,
            id,
            format!("nr;spieler1;spieler2;ort\n1;Anna1;Urs1;{ort}\n").into_bytes(),
        )
        .await;
    }
    let hall = spawn_app().await;
    let hall_leitung = hall.leitung().await;
    let tournament = drawn_field(&hall_leitung, "2", "2", "150", 4).await;
    play_passe(&hall, &hall_leitung, tournament, 1, 0).await;
    let (_, _, report) = bytes(&hall_leitung, &format!("/tournaments/{tournament}/bericht")).await;
    let key = serde_json::from_slice::<serde_json::Value>(&report).unwrap()["public_key"]
        .as_str()
        .unwrap()
        .to_string();
    leitung
        .post_ok(
            "/serien",
            &[("name", "Cup"), ("season", "2026"), ("preset", "cup")],
        )
        .await;
    leitung
        .post_ok(
            "/serien/1/hallen",
            &[("public_key", &key), ("hall_name", "Uster")],
        )
        .await;
    let preview = || {
        let (report, client) = (report.clone(), &leitung);
        async move {
            let r = upload(client, "/serien/1/berichte", report).await;
            assert_eq!(r.status(), StatusCode::OK);
            Html::parse_document(&r.text().await.unwrap())
        }
    };
    let before = cup.dump();
    let html = preview().await;
    assert_eq!(
        select_attr(&html, "#ambiguous tbody tr", "data-seat"),
        ["1_1", "1_2"],
        "Anna1 and Urs1 are twice in the register"
    );
    assert_eq!(cup.dump(), before, "nothing taken before the choice");
    let persons = |name: &'static str| {
        let client = &leitung;
        async move {
            let html = client.html(&format!("/personen?q={name}")).await;
            select_attr(&html, "tr[data-person]", "data-person")
        }
    };
    let annas = persons("Anna1").await;
    assert_eq!(annas.len(), 2);
    // The register changes in between: refused, nothing written.
    let stale = html;
    let id = create_tournament_with(&leitung, "Abend Zug", "2", "2", "150").await;
    import_teams(
        &leitung,
        id,
        b"nr;spieler1;spieler2;ort\n1;Anna1;Urs1;Zug\n".to_vec(),
    )
    .await;
    let choose = |html: &Html, anna: &str| -> Vec<(String, String)> {
        vec![
            (
                "token".into(),
                attr(html, "input[name=token]", "value").unwrap(),
            ),
            (
                "fingerprint".into(),
                attr(html, "input[name=fingerprint]", "value").unwrap(),
            ),
            ("c_1_1".into(), anna.to_string()),
            ("c_1_2".into(), "neu".into()),
        ]
    };
    let dump = cup.dump();
    let form = choose(&stale, &annas[0]);
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = leitung
        .post("/serien/1/berichte/bestaetigen", &fields)
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert_eq!(cup.dump(), dump);
    // Again, chosen: Anna1 of Uster (the first of the register), a new Urs1.
    let html = preview().await;
    let form = choose(&html, &annas[0]);
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = leitung
        .post("/serien/1/berichte/bestaetigen", &fields)
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let anna = leitung.html(&format!("/personen/{}", annas[0])).await;
    assert_eq!(select_all(&anna, "#played tbody tr").len(), 2);
    assert_eq!(
        persons("Urs1").await.len(),
        4,
        "Uster, Bern, Zug and the new one"
    );
    // The others were found or made by name; the standings list the report's players.
    let standings = json(&leitung, "/serien/1/gesamtwertung.json").await;
    assert_eq!(standings["standings"].as_array().unwrap().len(), 8);
}
