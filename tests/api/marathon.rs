use crate::helpers::*;
use jassturnier::domain::ids::TournamentId;
use jassturnier::domain::marathon::tafel::compute;
use jassturnier::domain::marathon::{Cards, Rules, Side, Spiel, Trump};
use reqwest::StatusCode;
use scraper::Html;
use std::collections::HashMap;

pub(crate) async fn marathon_tournament(app: &TestApp, leitung: &Client, minutes: &str) -> i32 {
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Jassmarathon Wädenswil"),
                ("date", "2026-11-22"),
                ("location", "Wädenswil"),
                ("mode", "jassmarathon"),
                ("passen", "2"),
                ("pauschale", "3"),
                ("round_minutes", minutes),
            ],
        )
        .await;
    assert_eq!(
        r.status(),
        StatusCode::SEE_OTHER,
        "{}",
        r.text().await.unwrap()
    );
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    import_teams(leitung, id, fixture("teams_semikolon_cp1252.csv")).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "21")],
        )
        .await;
    assert_eq!(app.data(id).tables(1).len(), 2);
    id
}

/// The hand-computed Spielrunde of the domain tests, as the Büro types it.
pub(crate) fn lines() -> Vec<Vec<(&'static str, &'static str)>> {
    let l = |trump: &'static str, cards: &'static str| vec![("trump", trump), ("cards_a", cards)];
    let m = |trump: &'static str, side: &'static str| vec![("trump", trump), ("match_side", side)];
    vec![
        m("obenabe", "a"),
        l("undenufe", "73"),
        m("schelle", "b"),
        l("rose", "0"),
        vec![("trump", "eichel"), ("cards_a", "40"), ("stoeck", "a")],
        l("obenabe", "150"),
        l("schelle", "100"),
        l("undenufe", "67"),
        l("schelle", "20"),
        vec![("trump", "schilte"), ("cards_a", "60"), ("weis_b", "150")],
        m("obenabe", "a"),
        m("obenabe", "a"),
        l("schelle", "150"),
        l("schilte", "120"),
        l("rose", "50"),
    ]
}

/// The first `n` lines of [`lines`] on a Tafel, added one by one as the Büro types them.
pub(crate) async fn write_lines(client: &Client, tafel: &str, n: usize) {
    for line in lines().into_iter().take(n) {
        let mut form = line.clone();
        form.push(("action", "add"));
        client.post_ok(tafel, &form).await;
    }
}

pub(crate) fn quick(
    table: u32,
    a: &[(&'static str, &'static str)],
    b: &[(&'static str, &'static str)],
) -> Vec<(String, String)> {
    let mut form = vec![("table".to_string(), table.to_string())];
    form.extend(a.iter().map(|(k, v)| (format!("{k}_a"), v.to_string())));
    form.extend(b.iter().map(|(k, v)| (format!("{k}_b"), v.to_string())));
    form
}

pub(crate) async fn post_owned(
    client: &Client,
    path: &str,
    form: &[(String, String)],
) -> reqwest::Response {
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.post(path, &pairs).await
}

#[tokio::test]
async fn a_whole_jassmarathon_from_tafel_to_rangliste_by_striche() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = marathon_tournament(&app, &leitung, "60").await;
    let edit = leitung.html(&format!("/tournaments/{id}/edit")).await;
    assert_eq!(
        attr(&edit, "#round_minutes", "value").as_deref(),
        Some("60"),
        "custom duration kept"
    );
    assert_eq!(
        attr(&edit, "#mult_obenabe", "value").as_deref(),
        Some("3"),
        "seed 003 preset"
    );

    // Spielrunde 1, table 1: the Tafel, line by line, then the gong.
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    for line in lines() {
        let mut form = line.clone();
        form.push(("action", "add"));
        leitung.post_ok(&tafel, &form).await;
    }
    let html = leitung.post_ok(&tafel, &[("action", "gong")]).await;
    assert_eq!(text(&html, "#total-a"), "8");
    assert_eq!(text(&html, "#total-b"), "4");
    let rows = select_all(&html, "#lines tbody tr[data-line]");
    assert_eq!(rows.len(), 15);
    assert!(
        rows[0].contains("771") && rows[0].contains("Match A"),
        "{}",
        rows[0]
    );
    assert!(rows[4].contains("Bergpreis A"), "Stöck decide: {}", rows[4]);
    assert!(
        rows[9].contains("Sieg B") && rows[9].contains("2'061 : 2'213"),
        "{}",
        rows[9]
    );
    assert!(rows[13].contains("Sieg A, Schneider A"), "{}", rows[13]);
    assert!(text(&html, "#striche-b").contains("Gong 1"));
    let d = app.data(id);
    let r = d.result_at(1, 1).unwrap();
    assert_eq!((r.points_a.get(), r.points_b.get()), (8, 4));

    // Closed means closed: no line added, corrected or deleted, by the Leitung or the Büro,
    // until the closing is taken back; the page offers no line form.
    assert!(select_all(&html, "#line-form").is_empty());
    assert!(select_all(&html, "#ruling-form").is_empty());
    assert!(text(&html, "#tafel-closed").contains("Abschluss zurücknehmen"));
    let buero = app.account(&leitung, BUERO, "buero").await;
    let before = app.dump();
    for (who, form) in [
        (
            &leitung,
            vec![("action", "add"), ("trump", "rose"), ("cards_a", "100")],
        ),
        (
            &buero,
            vec![("action", "add"), ("trump", "rose"), ("cards_a", "100")],
        ),
        (&leitung, vec![("action", "add"), ("ruling", "bedanken_a")]),
        (&leitung, vec![("action", "delete"), ("line", "15")]),
        (
            &buero,
            vec![
                ("action", "replace"),
                ("line", "1"),
                ("trump", "rose"),
                ("cards_a", "1"),
            ],
        ),
    ] {
        let r = who.post(&tafel, &form).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{form:?}");
        let page = Html::parse_document(&r.text().await.unwrap());
        assert!(
            text(&page, "#tafel-error").contains("abgeschlossen"),
            "{form:?}: {}",
            text(&page, "#tafel-error")
        );
    }
    assert_eq!(app.dump(), before, "nothing written on a closed Tafel");
    leitung.post_ok(&tafel, &[("action", "ungong")]).await;

    // A line that cannot be decided asks who was first; nothing changes meanwhile.
    let before = app.dump();
    let r = leitung
        .post(
            &tafel,
            &[
                ("action", "add"),
                ("trump", "obenabe"),
                ("cards_a", "157"),
                ("stoeck", "a"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        Html::parse_document(&r.text().await.unwrap())
            .html()
            .contains("Stöck")
    );
    assert_eq!(app.dump(), before);

    // Correcting line 1 (no Match after all) recomputes everything after it.
    leitung
        .post_ok(
            &tafel,
            &[
                ("action", "replace"),
                ("line", "1"),
                ("trump", "obenabe"),
                ("cards_a", "100"),
            ],
        )
        .await;
    let spiele: Vec<Spiel> = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::marathon::tafel(&mut conn, TournamentId(id), 1, 1)
            .unwrap()
            .0
    };
    assert_eq!(
        spiele[0],
        Spiel {
            trump: Trump::Obenabe,
            cards: Cards::Points(100),
            weis_a: 0,
            weis_b: 0,
            stoeck: None,
            first: None,
            ruling: None,
        }
    );
    let fresh = compute(&Rules::jassmarathon(), &spiele, false).unwrap();
    let r = app.data(id).result_at(1, 1).unwrap().clone();
    assert_eq!(
        (r.points_a.get(), r.points_b.get()),
        (fresh.a.total(), fresh.b.total())
    );
    leitung
        .post_ok(
            &tafel,
            &[
                ("action", "replace"),
                ("line", "1"),
                ("trump", "obenabe"),
                ("match_side", "a"),
            ],
        )
        .await;
    assert_eq!(app.data(id).result_at(1, 1).unwrap().points_a.get(), 8);
    leitung.post_ok(&tafel, &[("action", "gong")]).await;
    assert_eq!(app.data(id).result_at(1, 1).unwrap().points_b.get(), 4);

    // Table 2 by quick entry; an implausible one is refused.
    let round1 = format!("/tournaments/{id}/passen/1/quick");
    let before = app.dump();
    // The table number and Enter alone is no result (it was stored as a final 0 : 0).
    let r = post_owned(&leitung, &round1, &quick(2, &[], &[])).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        text(
            &Html::parse_document(&r.text().await.unwrap()),
            "#berg_a-error"
        )
        .contains("Keine Striche eingegeben")
    );
    assert_eq!(app.dump(), before);
    let r = post_owned(&leitung, &round1, &quick(2, &[("sieg", "3")], &[])).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        text(
            &Html::parse_document(&r.text().await.unwrap()),
            "#sieg_a-error"
        )
        .contains("Schritten von 2")
    );
    assert_eq!(app.dump(), before);
    let r = post_owned(
        &leitung,
        &round1,
        &quick(
            2,
            &[("berg", "1"), ("sieg", "2"), ("match", "1")],
            &[("sieg", "2"), ("gong", "1")],
        ),
    )
    .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);

    // Spielrunde 2: the team with 8 Striche makes 1; its opponent ends level on total.
    let d = app.data(id);
    let striche: HashMap<jassturnier::domain::ids::TeamId, u32> = [(1, 1), (1, 2)]
        .iter()
        .flat_map(|(p, t)| {
            let r = d.result_at(*p, *t).unwrap();
            [
                (r.team_a_id, r.points_a.get()),
                (r.team_b_id, r.points_b.get()),
            ]
        })
        .collect();
    let leader = d.teams.iter().find(|t| striche[&t.id] == 8).unwrap().id;
    let round2 = format!("/tournaments/{id}/passen/2/quick");
    for t in d.tables(2) {
        let (leader_side, other) = if t.team_a.id == leader {
            (Some(true), t.team_b)
        } else if t.team_b.id == leader {
            (Some(false), t.team_a)
        } else {
            (None, t.team_b)
        };
        let form = match leader_side {
            Some(leader_is_a) => {
                // The leader's opponent needs 9 − what it has.
                let needed = 9 - striche[&other.id];
                let other_fields: Vec<(&str, &str)> = match needed {
                    5 => vec![("sieg", "2"), ("berg", "1"), ("match", "2")],
                    6 => vec![("sieg", "4"), ("berg", "1"), ("match", "1")],
                    n => panic!("unexpected {n}"),
                };
                if leader_is_a {
                    quick(t.number, &[("match", "1")], &other_fields)
                } else {
                    quick(t.number, &other_fields, &[("match", "1")])
                }
            }
            None => quick(t.number, &[("sieg", "2")], &[("gong", "1")]),
        };
        let r = post_owned(&leitung, &round2, &form).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER);
    }
    // Visas, final visas, close: the official Rangliste by Striche.
    for p in 1..=2u32 {
        for t in [1, 2] {
            kontrolle
                .post_ok(
                    &format!("/tournaments/{id}/passen/{p}/tables/{t}/visa"),
                    &[],
                )
                .await;
        }
    }
    for team in &app.data(id).teams {
        kontrolle
            .post_ok(
                &format!("/tournaments/{id}/teams/{}/final-visa", team.id),
                &[],
            )
            .await;
    }
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let html = kontrolle.html(&format!("/tournaments/{id}/ranking")).await;
    assert!(text(&html, "thead").contains("S1") && text(&html, "thead").contains("Total Striche"));
    let ranks = select_all(&html, "#section-1 tbody tr td:nth-child(1)");
    let teams = select_all(&html, "#section-1 tbody tr td:nth-child(2)");
    let totals = select_all(&html, "#section-1 tbody tr td:nth-last-child(2)");
    assert_eq!(ranks, vec!["1.", "2.", "3.", "4."]);
    let leader_nr = app.data(id).team(leader).unwrap().startnummer;
    assert!(
        teams[0].starts_with(&format!("{leader_nr} ")),
        "equal total, best Spielrunde (8) decides: {teams:?}"
    );
    assert_eq!(&totals[..2], &["9", "9"]);
    // Standblatt, PDF and CSV speak Striche.
    let sheet = kontrolle
        .html(&format!("/tournaments/{id}/teams/{leader}"))
        .await;
    assert!(
        text(&sheet, "#lines thead").contains("Spielrunde")
            && text(&sheet, "#lines thead").contains("Striche")
    );
    let (_, _, pdf) = bytes(&kontrolle, &format!("/tournaments/{id}/ranking.pdf")).await;
    let pdf_text = pdf_pages(&pdf).join("\n");
    assert!(pdf_text.contains("S1") && pdf_text.contains("S2"));
    assert!(pdf_text.contains(&format!("1.\n{leader_nr}\n")));
    let (_, _, csv) = bytes(&kontrolle, &format!("/tournaments/{id}/ranking.csv")).await;
    let csv = String::from_utf8(csv[3..].to_vec()).unwrap();
    let first = csv.lines().nth(1).unwrap();
    assert!(
        first.starts_with(&format!("1;{leader_nr};"))
            && first.ends_with(";8;1;gespielt;gespielt;9;Endvisum"),
        "{first}"
    );
    let (_, _, standblatt) = bytes(
        &kontrolle,
        &format!("/tournaments/{id}/teams/{leader}/standblatt.pdf"),
    )
    .await;
    assert!(pdf_pages(&standblatt)[0].contains("Striche"));
}

#[tokio::test]
async fn the_round_clock_survives_a_restart() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = marathon_tournament(&app, &leitung, "90").await;
    let clock = format!("/tournaments/{id}/passen/1/clock");
    assert_eq!(
        buero.post(&clock, &[("action", "start")]).await.status(),
        StatusCode::FORBIDDEN,
        "only the Leitung runs the clock"
    );
    let html = leitung.post_ok(&clock, &[("action", "start")]).await;
    assert_eq!(text(&html, "#clock-state"), "läuft");
    let live = app.client().html(&format!("/tournaments/{id}/live")).await;
    assert!(
        attr(&live, "#live-clock", "data-ends-at").is_some(),
        "the hall sees the countdown"
    );
    let html = leitung.post_ok(&clock, &[("action", "pause")]).await;
    assert_eq!(text(&html, "#clock-state"), "angehalten");
    let remaining = text(&html, "#clock-remaining");
    assert!(
        remaining.starts_with("1:29:") || remaining == "1:30:00",
        "{remaining}"
    );

    // A second server on the same database: the clock is still paused at the same time.
    let db = app.database_url.clone();
    let restarted = spawn_app_with(|s| s.database_url = db).await;
    let again = restarted.login(LEITUNG.0, LEITUNG.1).await;
    let html = again
        .html(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    assert_eq!(text(&html, "#clock-state"), "angehalten");
    assert_eq!(text(&html, "#clock-remaining"), remaining);
    let html = again.post_ok(&clock, &[("action", "resume")]).await;
    assert_eq!(text(&html, "#clock-state"), "läuft");
    let html = again.post_ok(&clock, &[("action", "end")]).await;
    assert_eq!(text(&html, "#clock-state"), "Gong");
    let live = restarted
        .client()
        .html(&format!("/tournaments/{id}/live"))
        .await;
    assert_eq!(text(&live, "#live-remaining"), "Gong");
    let r = again.post(&clock, &[("action", "start")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        restarted
            .audit_actions()
            .iter()
            .filter(|a| a.starts_with("clock:"))
            .count()
            >= 4
    );
    let _ = Side::A;
}

/// A Tafel still being written is no result to visa: the single "Tisch visieren" refuses it
/// (and the Passe page does not offer it), as the visa of the whole Passe does; after the
/// Gong it is visaed.
#[tokio::test]
async fn a_running_tafel_is_visaed_only_after_its_gong() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = marathon_tournament(&app, &leitung, "60").await;
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    write_lines(&leitung, &tafel, 3).await;
    let page = kontrolle.html(&format!("/tournaments/{id}/passen/1")).await;
    let row = select_all(&page, "tr[data-table='1']").concat();
    assert!(row.contains("Tafel läuft"), "{row}");
    assert!(!row.contains("Tisch visieren"), "{row}");
    let visa = format!("/tournaments/{id}/passen/1/tables/1/visa");
    let before = app.dump();
    let r = kontrolle.post(&visa, &[]).await;
    assert!(r.status().is_client_error(), "{}", r.status());
    assert!(
        r.text().await.unwrap().contains("die Tafel läuft noch"),
        "the refusal says why"
    );
    assert_eq!(app.dump(), before, "nothing visaed");
    leitung.post_ok(&tafel, &[("action", "gong")]).await;
    kontrolle.post_ok(&visa, &[]).await;
    let r = app.data(id).result_at(1, 1).unwrap().clone();
    assert!(r.visa_a_by.is_some() && r.visa_b_by.is_some());
}

/// The Tischliste of a Spielrunde leads to its clock and Tafeln; the clock counts down in
/// the office too (the moment of the gong for the script); only the buttons that apply are
/// shown (a wrong one gave an error page).
#[tokio::test]
async fn the_spielrunde_clock_is_reachable_ticks_and_offers_what_applies() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = marathon_tournament(&app, &leitung, "60").await;
    let tischliste = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert_eq!(
        attr(&tischliste, "#round-page", "href"),
        Some(format!("/tournaments/{id}/passen/1/entry"))
    );
    assert_eq!(
        attr(&tischliste, "tr[data-table='1'] a.tafel-link", "href"),
        Some(format!("/tournaments/{id}/passen/1/tafel/1"))
    );
    let round = format!("/tournaments/{id}/passen/1/entry");
    let buttons = |page: &Html| select_all(page, "#clock-actions button");
    let page = leitung.html(&round).await;
    assert_eq!(buttons(&page), vec!["Start"]);
    assert!(attr(&page, "#clock", "data-ends-at").is_none());
    let clock = format!("/tournaments/{id}/passen/1/clock");
    let page = leitung.post_ok(&clock, &[("action", "start")]).await;
    assert_eq!(buttons(&page), vec!["Anhalten", "Gong (beenden)"]);
    let ends: i64 = attr(&page, "#clock", "data-ends-at")
        .unwrap()
        .parse()
        .unwrap();
    let in_an_hour = chrono::Local::now().timestamp_millis() + 3_600_000;
    assert!((ends - in_an_hour).abs() < 60_000, "{ends} vs {in_an_hour}");
    assert!(page.html().contains("/static/clock.js"));
    assert_eq!(
        leitung.get("/static/clock.js").await.status(),
        StatusCode::OK
    );
    let page = leitung.post_ok(&clock, &[("action", "pause")]).await;
    assert_eq!(buttons(&page), vec!["Weiter", "Gong (beenden)"]);
    assert!(
        attr(&page, "#clock", "data-ends-at").is_none(),
        "paused: no countdown"
    );
    let page = leitung.post_ok(&clock, &[("action", "end")]).await;
    assert!(buttons(&page).is_empty());
}

/// The Tafel marks where a Partie ended, asks before a line is deleted (office and phone
/// alike), and its Weis fields say whether they take raw or multiplied points.
#[tokio::test]
async fn the_tafel_marks_partie_ends_asks_before_deleting_and_names_the_weis_unit() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = marathon_tournament(&app, &leitung, "60").await;
    let tafel = format!("/tournaments/{id}/passen/1/tafel/1");
    let mut html = leitung.html(&tafel).await;
    for line in lines() {
        let mut form = line.clone();
        form.push(("action", "add"));
        html = leitung.post_ok(&tafel, &form).await;
    }
    let ends = select_attr(&html, "#lines tr.partie-end", "data-line");
    assert_eq!(
        ends,
        vec!["10", "14"],
        "Sieg B in Spiel 10, Sieg A in Spiel 14"
    );
    assert!(text(&html, "tr[data-line='10']").contains("Partie 1 zu Ende"));
    let question = attr(&html, "tr[data-line='3'] form", "data-confirm").unwrap();
    assert!(
        question.starts_with("Spiel 3 (Schelle Match B) löschen?"),
        "{question}"
    );
    assert!(text(&html, "label[for=weis_a]").contains("roh"));
    let html = leitung
        .post_ok(&tafel, &[("action", "entry_mode"), ("multiplied", "1")])
        .await;
    assert!(text(&html, "label[for=weis_a]").contains("multipliziert"));
}
