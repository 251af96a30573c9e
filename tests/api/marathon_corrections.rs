//! A Jassmarathon after the redesign: its results are corrected through the same links as
//! in the Partnerschieber, and every page speaks of Spielrunden and Striche.

use crate::helpers::*;
use crate::marathon::{lines, marathon_tournament, post_owned, quick};
use jassturnier::domain::marathon::Details;
use reqwest::StatusCode;
use scraper::{Html, Selector};

/// The "korrigieren" link of a table on the Tischliste of Spielrunde 1.
fn correction_link(tischliste: &Html, table: u32) -> String {
    let selector =
        Selector::parse(&format!("tr[data-table=\"{table}\"] a[href$=\"/edit\"]")).unwrap();
    let link = tischliste
        .select(&selector)
        .next()
        .unwrap_or_else(|| panic!("table {table} has a korrigieren link"));
    assert!(link.text().collect::<String>().contains("korrigieren"));
    link.value().attr("href").unwrap().to_string()
}

#[tokio::test]
async fn jassmarathon_results_are_corrected_through_the_tischliste_link() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = marathon_tournament(&app, &leitung, "90").await;

    // Table 1 from its Tafel (closed: a running one is not visaed), table 2 by
    // Schnellerfassung; both visaed.
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    for line in lines().into_iter().take(3) {
        let mut form = line.clone();
        form.push(("action", "add"));
        buero.post_ok(&tafel, &form).await;
    }
    buero.post_ok(&tafel, &[("action", "gong")]).await;
    let r = post_owned(
        &buero,
        &format!("/tournaments/{id}/passen/1/quick"),
        &quick(2, &[("sieg", "2"), ("berg", "1")], &[("gong", "1")]),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    for table in [1, 2] {
        kontrolle
            .post_ok(
                &format!("/tournaments/{id}/passen/1/tables/{table}/visa"),
                &[],
            )
            .await;
    }
    let before = app.data(id);
    let stored = |data: &jassturnier::db::tournament_data::TournamentData, table: u32| {
        data.result_at(1, table).cloned().unwrap()
    };
    assert!(stored(&before, 1).visa_a_by.is_some() && stored(&before, 2).visa_b_by.is_some());
    let tischliste = kontrolle.html(&format!("/tournaments/{id}/passen/1")).await;

    // The Schnellerfassung: its link opens the Striche per category with the version.
    let link = correction_link(&tischliste, 2);
    let form = kontrolle.html(&link).await;
    assert!(text(&form, "h1").contains("Spielrunde 1, Tisch 2"));
    assert_eq!(attr(&form, "#sieg_a", "value").as_deref(), Some("2"));
    assert_eq!(attr(&form, "#berg_a", "value").as_deref(), Some("1"));
    assert_eq!(attr(&form, "#gong_b", "value").as_deref(), Some("1"));
    let version = attr(&form, "input[name=version]", "value").unwrap();
    assert_eq!(version, stored(&before, 2).version.to_string());
    let action = attr(&form, "#correction-form", "action").unwrap();
    let corrected = [
        ("table", "2"),
        ("version", version.as_str()),
        ("sieg_a", "4"),
        ("berg_a", "1"),
        ("gong_b", "1"),
    ];
    // A visaed result is not the Büro's to change.
    let dump = app.dump();
    let r = buero.post(&action, &corrected).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(app.dump(), dump, "a refused correction writes nothing");
    let page = kontrolle.post_ok(&action, &corrected).await;
    assert!(text(&page, ".flash").contains("Spielrunde 1, Tisch 2 gespeichert: 5 : 1 Striche"));
    let after = app.data(id);
    let quick_result = stored(&after, 2);
    assert_eq!(
        (quick_result.points_a.get(), quick_result.points_b.get()),
        (5, 1)
    );
    assert_eq!(
        (quick_result.visa_a_by, quick_result.visa_b_by),
        (None, None),
        "the correction removes both visas"
    );
    assert_eq!(quick_result.version, stored(&before, 2).version + 1);
    let details = Details::parse(quick_result.details.as_deref()).unwrap();
    assert_eq!((details.a.sieg, details.a.berg, details.b.gong), (4, 1, 1));
    // The old version is stale now: a second correction against it is a conflict.
    let r = kontrolle.post(&action, &corrected).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);

    // The Tafel: its link leads to the Tafel, where a line is corrected.
    let link = correction_link(&tischliste, 1);
    let r = kontrolle.get(&link).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(location(&r), tafel);
    let dump = app.dump();
    let r = buero
        .post(
            &tafel,
            &[
                ("action", "replace"),
                ("line", "2"),
                ("trump", "rose"),
                ("cards_a", "100"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN, "visaed: not the Büro's");
    assert_eq!(app.dump(), dump);
    // A closed, visaed Tafel is reopened by the Kontrolleur (the visa falls: the result is
    // the Büro's again), then the Büro corrects its line.
    kontrolle.post_ok(&tafel, &[("action", "ungong")]).await;
    let page = buero
        .post_ok(
            &tafel,
            &[
                ("action", "replace"),
                ("line", "2"),
                ("trump", "rose"),
                ("cards_a", "100"),
            ],
        )
        .await;
    let tafel_result = stored(&app.data(id), 1);
    assert_eq!(
        (
            tafel_result.points_a.to_string(),
            tafel_result.points_b.to_string()
        ),
        (text(&page, "#total-a"), text(&page, "#total-b")),
        "the result is what the Tafel shows"
    );
    assert_eq!(
        (tafel_result.visa_a_by, tafel_result.visa_b_by),
        (None, None)
    );
    assert!(tafel_result.version > stored(&before, 1).version);
    let rows = select_all(&page, "#lines tbody tr[data-line]");
    assert!(
        rows[1].contains("Rose") && rows[1].contains("100 : 57"),
        "{}",
        rows[1]
    );
    let audit = app.audit_actions();
    // Every Tafel change after the first line rewrites the table's result: lines 2 and 3,
    // the Gong, the corrected Schnellerfassung, the reopening and the corrected line.
    assert_eq!(audit.iter().filter(|a| *a == "result:correct").count(), 6);
    assert!(audit.contains(&"tafel:correct_line".to_string()));
}

/// The visible text of a page's main part.
fn main_text(html: &Html) -> String {
    text(html, "main")
}

fn assert_marathon_words(what: &str, text: &str) {
    for word in ["Passe", "Punkte", "Summe pro Tisch"] {
        assert!(!text.contains(word), "{what} says «{word}»: {text}");
    }
}

#[tokio::test]
async fn jassmarathon_pages_prints_and_exports_speak_spielrunde_and_striche() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let r = post_owned(
        &leitung,
        &format!("/tournaments/{id}/passen/1/quick"),
        &quick(2, &[("sieg", "2")], &[("berg", "1")]),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let entry = leitung
        .html(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    assert!(text(&entry, ".flash").contains("Spielrunde 1, Tisch 2 gespeichert: 2 : 1 Striche"));
    assert!(text(&entry, "h1").contains("Spielrunde 1"));
    assert_marathon_words("the Spielrunde page", &main_text(&entry));

    // A table that does not exist: the message speaks of the Spielrunde.
    let r = post_owned(
        &leitung,
        &format!("/tournaments/{id}/passen/1/quick"),
        &quick(9, &[("sieg", "2")], &[]),
    )
    .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#table-error").contains("Tisch 9 gibt es in dieser Spielrunde nicht"));
    assert_marathon_words("the refused Schnellerfassung", &main_text(&html));

    let tischliste = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert!(text(&tischliste, "h1").contains("Spielrunde 1: Tischliste"));
    assert!(text(&tischliste, "#tables thead").contains("Striche A"));
    assert_marathon_words("the Tischliste", &main_text(&tischliste));

    let visa = kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/2/visa"), &[])
        .await;
    assert!(text(&visa, ".flash").contains("Spielrunde 1, Tisch 2 visiert"));

    let data = app.data(id);
    let result = data.result_at(1, 2).unwrap();
    let team = result.team_a_id;
    let sheet = leitung
        .html(&format!("/tournaments/{id}/teams/{team}"))
        .await;
    assert!(text(&sheet, "#lines thead").contains("Spielrunde"));
    assert!(text(&sheet, "#lines thead").contains("Striche"));
    assert!(text(&sheet, "label[for=passe]").contains("in Spielrunde"));
    assert_marathon_words("the Standblatt", &main_text(&sheet));

    let correction = leitung
        .html(&format!("/tournaments/{id}/results/{}/edit", result.id))
        .await;
    assert!(text(&correction, "h1").contains("Spielrunde 1, Tisch 2: Resultat korrigieren"));
    assert!(text(&correction, "#stored").contains("2 : 1 Striche"));
    assert_marathon_words("the correction page", &main_text(&correction));

    let draw = leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert!(text(&draw, "#by-los thead").contains("Spielrunde 1"));
    assert_marathon_words("the draw list", &main_text(&draw));
    let overview = leitung.html(&format!("/tournaments/{id}")).await;
    assert_marathon_words("the overview", &main_text(&overview));

    // Prints and exports.
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/tischliste.pdf"),
    )
    .await;
    let pdf_text = pdf_pages(&pdf).join("\n");
    assert!(pdf_text.contains("Spielrunde 1"));
    assert_marathon_words("the Tischliste PDF", &pdf_text);
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/teams/{team}/standblatt.pdf"),
    )
    .await;
    let pdf_text = pdf_pages(&pdf).join("\n");
    assert!(pdf_text.contains("Striche") && pdf_text.contains("Nach jeder Spielrunde"));
    assert_marathon_words("the Standblatt PDF", &pdf_text);
    let (status, _, _) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/jasszettel.pdf"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "a Tafel, not a Jasszettel");
    let (_, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    let header = String::from_utf8(csv[3..].to_vec()).unwrap();
    let header = header.lines().next().unwrap().to_string();
    assert_eq!(
        header,
        "rang;startnummer;team;spieler1;spieler2;spielrunde_1;spielrunde_2;spielrunde_1_art;spielrunde_2_art;total;status"
    );
    let (_, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/results.csv")).await;
    assert!(csv.starts_with(b"\xEF\xBB\xBFspielrunde;startnummer;striche;art\r\n"));
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/ranking.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["mode"], "jassmarathon");
}

/// The Tafel: only the Büro and the Leitung write its lines (a Kontrolleur corrects visaed
/// results), every line needs its trump, Weis totals must be possible, and the stored
/// categories always equal what the Tafel gives.
#[tokio::test]
async fn tafel_lines_are_checked_and_their_categories_follow_every_change() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    let line =
        |cards: &'static str| vec![("action", "add"), ("trump", "obenabe"), ("cards_a", cards)];

    let before = app.dump();
    let r = kontrolle.post(&tafel, &line("100")).await;
    assert_eq!(
        r.status(),
        StatusCode::FORBIDDEN,
        "a Kontrolleur writes no Tafel line"
    );
    let r = buero
        .post(&tafel, &[("action", "add"), ("cards_a", "100")])
        .await;
    assert_eq!(
        r.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "no trump, no line"
    );
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, ".has-error").contains("Trumpf"));
    let r = buero
        .post(
            &tafel,
            &[
                ("action", "add"),
                ("trump", "rose"),
                ("cards_a", "100"),
                ("weis_a", "30"),
            ],
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "30 is no Weis"
    );
    assert!(r.text().await.unwrap().contains("Weis"));
    assert_eq!(app.dump(), before, "nothing written");
    let form = buero.html(&tafel).await;
    assert_eq!(
        attr(&form, "#trump option[selected]", "value").as_deref(),
        Some(""),
        "no trump is chosen in advance"
    );

    // The categories of the stored result follow the Tafel after add, replace and delete.
    let check = |what: &str| {
        let data = app.data(id);
        let stored = data.result_at(1, 1).cloned();
        let mut conn = app.pool.get().unwrap();
        let (spiele, gong) = jassturnier::db::marathon::tafel(
            &mut conn,
            jassturnier::domain::ids::TournamentId(id),
            1,
            1,
        )
        .unwrap();
        let rules =
            jassturnier::db::marathon::rules(&mut conn, jassturnier::domain::ids::TournamentId(id))
                .unwrap();
        let tafel = jassturnier::domain::marathon::tafel::compute(&rules, &spiele, gong).unwrap();
        let details = Details::parse(stored.unwrap().details.as_deref()).unwrap();
        assert_eq!((details.a, details.b), (tafel.a, tafel.b), "{what}");
    };
    for cards in ["157", "150", "157", "140", "157"] {
        buero.post_ok(&tafel, &line(cards)).await;
    }
    buero
        .post_ok(
            &tafel,
            &[("action", "add"), ("trump", "rose"), ("match_side", "a")],
        )
        .await;
    check("after adding");
    buero
        .post_ok(
            &tafel,
            &[
                ("action", "replace"),
                ("line", "6"),
                ("trump", "rose"),
                ("cards_a", "10"),
            ],
        )
        .await;
    check("after replacing the Match");
    buero
        .post_ok(&tafel, &[("action", "delete"), ("line", "1")])
        .await;
    check("after deleting");
}

/// Export → import → export of a Jassmarathon with a Tafel and its gong, a Schnellerfassung,
/// a clock and rules of its own: identical, and the imported Tafel shows the same lines.
#[tokio::test]
async fn a_whole_jassmarathon_survives_export_and_import() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = marathon_tournament(&app, &leitung, "60").await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/edit"),
            &[
                ("name", "Jassmarathon Wädenswil"),
                ("date", "2026-11-22"),
                ("location", "Wädenswil"),
                ("mode", "jassmarathon"),
                ("passen", "2"),
                ("pauschale", "3"),
                ("round_minutes", "60"),
                ("mult_schelle", "3"),
                ("striche_sieg", "3"),
            ],
        )
        .await;
    let clock = format!("/tournaments/{id}/passen/1/clock");
    leitung.post_ok(&clock, &[("action", "start")]).await;
    leitung.post_ok(&clock, &[("action", "pause")]).await;
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    for line in lines().into_iter().take(6) {
        let mut form = line.clone();
        form.push(("action", "add"));
        leitung.post_ok(&tafel, &form).await;
    }
    let original = leitung.post_ok(&tafel, &[("action", "gong")]).await;
    let r = post_owned(
        &leitung,
        &format!("/tournaments/{id}/passen/1/quick"),
        &quick(2, &[("sieg", "3")], &[("berg", "1")]),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);

    let (_, _, first) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let a: jassturnier::db::transfer::Export = serde_json::from_slice(&first).unwrap();
    let m = a.marathon.as_ref().expect("the Tafeln are in the export");
    assert_eq!(m.rules.round_minutes, 60);
    assert_eq!(m.tafeln.len(), 1);
    assert_eq!(m.tafeln[0].lines.len(), 6);
    assert!(m.tafeln[0].gong);
    assert_eq!(m.clocks.len(), 1);
    let r = leitung
        .upload("/tournaments/import", first.clone(), Some(&leitung.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let (_, _, second) = bytes(&leitung, &format!("/tournaments/{copy}/export.json")).await;
    let mut b: jassturnier::db::transfer::Export = serde_json::from_slice(&second).unwrap();
    assert_eq!(b.audit.pop().unwrap().action, "import");
    assert_eq!(a, b);
    let imported = leitung
        .html(&format!("/tournaments/{copy}/passen/1/tafel/1"))
        .await;
    assert_eq!(
        select_all(&imported, "#lines tbody tr[data-line]"),
        select_all(&original, "#lines tbody tr[data-line]")
    );
    assert_eq!(text(&imported, "#total-a"), text(&original, "#total-a"));
    let edit = leitung.html(&format!("/tournaments/{copy}/edit")).await;
    assert_eq!(attr(&edit, "#mult_schelle", "value").as_deref(), Some("3"));
    let round = leitung
        .html(&format!("/tournaments/{copy}/passen/1/entry"))
        .await;
    assert_eq!(text(&round, "#clock-state"), "angehalten");
}

/// A result has one source, Tafel or Schnellerfassung: an action of the other kind is
/// refused with what is stored, and only the Leitung or a Kontrolleur replaces it, explicitly
/// and audited.
#[tokio::test]
async fn a_result_is_never_overwritten_by_its_other_source() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let r = post_owned(
        &buero,
        &format!("/tournaments/{id}/passen/1/quick"),
        &quick(
            2,
            &[("sieg", "4"), ("berg", "1")],
            &[("sieg", "2"), ("berg", "1"), ("schneider", "1")],
        ),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let stored = |table| {
        let r = app.data(id).result_at(1, table).cloned().unwrap();
        (r.points_a.get(), r.points_b.get())
    };
    assert_eq!(stored(2), (5, 4));

    // The Tafel of a table entered by Schnellerfassung: the gong and a line are refused.
    let tafel2 = format!("/tournaments/{id}/passen/1/tafel/2");
    let before = app.dump();
    let r = buero.post(&tafel2, &[("action", "gong")]).await;
    assert_eq!(
        r.status(),
        StatusCode::CONFLICT,
        "today's bug: the gong made 5 : 4 into 0 : 0"
    );
    let line = [("action", "add"), ("trump", "rose"), ("cards_a", "100")];
    let r = buero.post(&tafel2, &line).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#tafel-error").contains("Schnellerfassung"));
    assert!(text(&html, "#tafel-error").contains("5 : 4 Striche"));
    assert!(
        attr(&html, "#replace-source", "method").is_none(),
        "not the Büro's to replace"
    );
    assert_eq!(app.dump(), before, "nothing overwritten");
    assert_eq!(stored(2), (5, 4));
    // The Leitung replaces it explicitly.
    let r = leitung.post(&tafel2, &line).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let html = Html::parse_document(&r.text().await.unwrap());
    let mut replace: Vec<(String, String)> = vec![];
    for field in [
        "action",
        "replace_source",
        "trump",
        "cards_a",
        "match_side",
        "weis_a",
        "weis_b",
        "stoeck",
        "first",
    ] {
        let value = attr(
            &html,
            &format!("#replace-source input[name={field}]"),
            "value",
        )
        .unwrap();
        replace.push((field.to_string(), value));
    }
    let r = post_owned(&leitung, &tafel2, &replace).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(2), (0, 0), "now the Tafel's result");
    assert!(
        app.audit_actions()
            .contains(&"tafel:replace_source".to_string())
    );

    // A Tafel result and a Schnellerfassung correction: refused, then replaced explicitly.
    let tafel1 = format!("/tournaments/{id}/passen/1/tafel/1");
    for l in lines().into_iter().take(3) {
        let mut form = l.clone();
        form.push(("action", "add"));
        buero.post_ok(&tafel1, &form).await;
    }
    let version = app.data(id).result_at(1, 1).unwrap().version.to_string();
    let correct = format!("/tournaments/{id}/passen/1/correct");
    let form = [
        ("table", "1"),
        ("version", version.as_str()),
        ("sieg_a", "2"),
        ("berg_b", "1"),
    ];
    let before = app.dump();
    let r = buero.post(&correct, &form).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#other-source").contains("Tafel"));
    assert!(attr(&html, "#replace-source", "method").is_none());
    assert_eq!(app.dump(), before);
    let mut explicit = form.to_vec();
    explicit.push(("replace_source", "1"));
    let r = buero.post(&correct, &explicit).await;
    assert_eq!(
        r.status(),
        StatusCode::FORBIDDEN,
        "the Büro does not replace a Tafel"
    );
    leitung.post_ok(&correct, &explicit).await;
    assert_eq!(stored(1), (2, 1));
    let mut conn = app.pool.get().unwrap();
    let (spiele, gong) = jassturnier::db::marathon::tafel(
        &mut conn,
        jassturnier::domain::ids::TournamentId(id),
        1,
        1,
    )
    .unwrap();
    assert!(spiele.is_empty() && !gong, "the replaced Tafel is gone");
}

/// A table of a Spielrunde is entered when its result is final: a Schnellerfassung, or a
/// Tafel closed after the gong. Until then the hall sees the running Spielrunde, and after
/// the clock's gong the office sees which Tafeln are still open.
#[tokio::test]
async fn the_spielrunde_runs_until_its_tafeln_are_closed_after_the_gong() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let round = format!("/tournaments/{id}/passen/1/entry");
    let live = format!("/tournaments/{id}/live");
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    // Table 1: the first Spiel on its Tafel; table 2: a Schnellerfassung.
    let mut first = lines()[0].clone();
    first.push(("action", "add"));
    buero.post_ok(&tafel, &first).await;
    let page = buero.html(&round).await;
    assert_eq!(text(&page, "#progress"), "0 / 2 Tische erfasst");
    assert!(text(&page, "tr[data-table=\"1\"]").contains("Tafel läuft"));
    let r = post_owned(
        &buero,
        &format!("/tournaments/{id}/passen/1/quick"),
        &quick(2, &[("sieg", "2")], &[("berg", "1")]),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        text(&buero.html(&round).await, "#progress"),
        "1 / 2 Tische erfasst"
    );
    let hall = app.client().html(&live).await;
    assert!(
        text(&hall, "#current-passe").contains("Spielrunde 1 von 2"),
        "no jump ahead"
    );
    assert!(text(&hall, "#live-progress").contains("1 / 2"));
    assert!(text(&hall, "#running-tafeln").contains("1 Tafel läuft (Striche provisorisch)"));
    let overview = leitung.html(&format!("/tournaments/{id}")).await;
    assert!(text(&overview, "main").contains("Spielrunde 1"));
    // Counted in the database, the running Tafel is not entered yet.
    let row = select_all(&overview, "tr[data-passe=\"1\"] td");
    assert_eq!(row[2], "1 / 2", "{row:?}");

    // The clock's gong: the open Tafel is asked for its last Spiel and its close.
    let clock = format!("/tournaments/{id}/passen/1/clock");
    leitung.post_ok(&clock, &[("action", "start")]).await;
    leitung.post_ok(&clock, &[("action", "end")]).await;
    let page = buero.html(&round).await;
    assert!(
        text(&page, "#open-after-gong").contains("Tisch 1"),
        "the office sees the open Tafel"
    );
    assert!(
        text(&page, "tr[data-table=\"1\"]")
            .contains("Gong: letztes Spiel eintragen, dann abschliessen")
    );
    assert!(text(&buero.html(&tafel).await, "#gong-state").contains("letztes Spiel eintragen"));
    for line in lines().into_iter().skip(1) {
        let mut form = line.clone();
        form.push(("action", "add"));
        buero.post_ok(&tafel, &form).await;
    }
    let closed = buero.post_ok(&tafel, &[("action", "gong")]).await;
    assert!(
        text(&closed, "#gong-strich").starts_with("B ("),
        "{}",
        text(&closed, "#gong-strich")
    );
    let page = buero.html(&round).await;
    assert_eq!(text(&page, "#progress"), "2 / 2 Tische erfasst");
    assert!(attr(&page, "#open-after-gong", "class").is_none());
    let hall = app.client().html(&live).await;
    assert_eq!(
        text(&hall, "#running-tafeln"),
        "",
        "no Tafel running any more"
    );
    // The Standblatt says who wrote the Gong-Strich.
    let data = app.data(id);
    let team_b = data.result_at(1, 1).unwrap().team_b_id;
    let sheet = buero
        .html(&format!("/tournaments/{id}/teams/{team_b}"))
        .await;
    assert!(text(&sheet, "tr[data-passe=\"1\"]").contains("(inkl. Gong-Strich)"));
}

/// Prints of a Jassmarathon: the Standblatt names the Spielrunde in full, and a blank Tafel
/// per table is printable for the Schreiber.
#[tokio::test]
async fn a_blank_tafel_per_table_and_standblaetter_in_full_words() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let (status, content_type, pdf) =
        bytes(&leitung, &format!("/tournaments/{id}/passen/1/tafeln.pdf")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "application/pdf");
    let pages = pdf_pages(&pdf);
    let data = app.data(id);
    let tables = data.tables(1);
    assert_eq!(pages.len(), tables.len(), "one Tafel per table");
    for (page, table) in pages.iter().zip(&tables) {
        assert!(page.contains("Tafel Spielrunde 1"), "{page}");
        assert!(page.contains(&format!("Tisch {}", table.number)));
        assert!(
            page.contains(&table.team_a.player1)
                || page.contains(table.team_a.name.as_deref().unwrap_or("?"))
        );
        assert!(page.contains("Bergpreis bei 1000") && page.contains("Obenabe ×3"));
    }
    let tischliste = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert!(attr(&tischliste, "a[href$=\"/tafeln.pdf\"]", "href").is_some());
    let (_, _, sheets) = bytes(&leitung, &format!("/tournaments/{id}/standblaetter.pdf")).await;
    let first = &pdf_pages(&sheets)[0];
    assert!(
        first.matches("Spielrunde").count() >= 2,
        "the column heading is printed in full: {first}"
    );
    // Partnerschieber prints no Tafel.
    let other = create_tournament(&leitung, "4", "12").await;
    let (status, _, _) = bytes(
        &leitung,
        &format!("/tournaments/{other}/passen/1/tafeln.pdf"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The rulings of seed 003 are lines of the Tafel: a false "bedanken" gives the Partie to the
/// opponent, a wrongly claimed Bergpreis goes to the opponent.
#[tokio::test]
async fn rulings_are_lines_of_the_tafel() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    leitung
        .post_ok(
            &tafel,
            &[("action", "add"), ("trump", "rose"), ("cards_a", "100")],
        )
        .await;
    let page = leitung
        .post_ok(&tafel, &[("action", "add"), ("ruling", "berg_a")])
        .await;
    assert_eq!(text(&page, "#total-b"), "1", "the Bergpreis goes to B");
    let page = leitung
        .post_ok(&tafel, &[("action", "add"), ("ruling", "bedanken_a")])
        .await;
    let rows = select_all(&page, "#lines tbody tr[data-line]");
    assert!(
        rows[2].contains("A bedankt zu Unrecht: Partie an B"),
        "{}",
        rows[2]
    );
    assert!(
        rows[2].contains("Sieg B") && rows[2].contains("Schneider B"),
        "{}",
        rows[2]
    );
    assert_eq!(text(&page, "#total-b"), "4", "Berg 1, Sieg 2, Schneider 1");
    let r = leitung
        .post(&tafel, &[("action", "add"), ("ruling", "gibt_es_nicht")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // Exported and imported with the Tafel.
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let doc: jassturnier::db::transfer::Export = serde_json::from_slice(&json).unwrap();
    let lines = &doc.marathon.unwrap().tafeln[0].lines;
    assert_eq!(lines[2].ruling.as_deref(), Some("bedanken_a"));
}

/// The office types a Tafel's points raw or already multiplied, chosen per Tafel: both give
/// the same Striche; a multiplied value the trump cannot give is refused.
#[tokio::test]
async fn multiplied_points_give_the_same_striche_as_raw_points() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let raw = format!("/tournaments/{id}/passen/1/tafel/1");
    let multiplied = format!("/tournaments/{id}/passen/1/tafel/2");
    let page = leitung
        .post_ok(
            &multiplied,
            &[("action", "entry_mode"), ("multiplied", "1")],
        )
        .await;
    assert_eq!(
        attr(&page, "#multiplied option[selected]", "value").as_deref(),
        Some("1")
    );
    for (trump, cards, weis) in [
        ("obenabe", 80, 50),
        ("schelle", 120, 0),
        ("rose", 157, 20),
        ("undenufe", 100, 0),
    ] {
        let m = match trump {
            "obenabe" | "undenufe" => 3,
            "schelle" => 2,
            _ => 1,
        };
        let (c, w) = (cards.to_string(), weis.to_string());
        leitung
            .post_ok(
                &raw,
                &[
                    ("action", "add"),
                    ("trump", trump),
                    ("cards_a", &c),
                    ("weis_a", &w),
                ],
            )
            .await;
        let (c, w) = ((cards * m).to_string(), (weis * m).to_string());
        leitung
            .post_ok(
                &multiplied,
                &[
                    ("action", "add"),
                    ("trump", trump),
                    ("cards_a", &c),
                    ("weis_a", &w),
                ],
            )
            .await;
    }
    let a = leitung.html(&raw).await;
    let b = leitung.html(&multiplied).await;
    assert_eq!(
        select_all(&a, "#lines tbody tr td:nth-child(8)"),
        select_all(&b, "#lines tbody tr td:nth-child(8)")
    );
    assert_eq!(text(&a, "#striche-a"), text(&b, "#striche-a"));
    assert_eq!(text(&a, "#total-b"), text(&b, "#total-b"));
    let data = app.data(id);
    let (ra, rb) = (data.result_at(1, 1).unwrap(), data.result_at(1, 2).unwrap());
    assert_eq!(
        (ra.points_a.get(), ra.points_b.get()),
        (rb.points_a.get(), rb.points_b.get())
    );
    let r = leitung
        .post(
            &multiplied,
            &[("action", "add"), ("trump", "obenabe"), ("cards_a", "241")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("geht bei Obenabe (×3) nicht auf")
    );
}
