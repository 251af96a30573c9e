use crate::helpers::*;
use jassturnier::db::models::Nat;
use jassturnier::db::tournament_data as results;
use jassturnier::domain::ids::TournamentId;
use reqwest::StatusCode;
use scraper::Html;
use std::collections::HashMap;

struct Setup {
    app: TestApp,
    leitung: Client,
    buero: Client,
    kontrolle: Client,
    id: i32,
}

/// A tournament with `teams` teams, `passen` Passen à `spiele` Spiele, drawn with seed 42.
async fn drawn_tournament(teams: usize, passen: &str, spiele: &str, pauschale: &str) -> Setup {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id =
        create_tournament_with(&leitung, "Jassturnier Wädenswil", passen, spiele, pauschale).await;
    let mut csv = String::from("nr;team;spieler1;spieler2\n");
    for n in 1..=teams {
        csv += &format!("{n};Team {n};Spieler {n}a;Spieler {n}b\n");
    }
    import_teams(&buero, id, csv.into_bytes()).await;
    let html = buero
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "42")],
        )
        .await;
    assert_eq!(text(&html, "#seed"), "42");
    Setup {
        app,
        leitung,
        buero,
        kontrolle,
        id,
    }
}

/// The points team A makes at a table: varied, but fixed by Passe and table.
fn points_a(passe: u32, table: u32, total: u32) -> u32 {
    (passe * 97 + table * 61) % (total + 1)
}

/// Rank order by the rules, computed independently of the app: total, then best Passe, …
fn expected_order(points: &HashMap<Nat, Vec<u32>>) -> Vec<u32> {
    let mut order: Vec<(u32, u32, Vec<u32>)> = points
        .iter()
        .map(|(nr, p)| {
            let mut sorted = p.clone();
            sorted.sort_by(|a, b| b.cmp(a));
            (nr.get(), p.iter().sum(), sorted)
        })
        .collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
    order.into_iter().map(|o| o.0).collect()
}

#[tokio::test]
async fn whole_tournament_from_draw_to_official_rangliste() {
    let s = drawn_tournament(8, "3", "2", "300").await;
    let id = s.id;
    let total = 314;
    let d = s.app.data(s.id);
    // Every team meets a different opponent in each Passe and changes table.
    let mut met = std::collections::HashSet::new();
    for p in 1..=3 {
        let tables = d.tables(p);
        assert_eq!(tables.len(), 4);
        for t in &tables {
            assert!(
                met.insert((t.team_a.id, t.team_b.id)),
                "rematch in Passe {p}"
            );
        }
    }
    let draw_page = s.buero.html(&format!("/tournaments/{id}/draw")).await;
    assert_eq!(select_all(&draw_page, "#by-los tbody tr").len(), 8);
    assert!(select_all(&draw_page, "#rematches").is_empty());

    let mut expected: HashMap<Nat, Vec<u32>> = HashMap::new();
    // Passe 1: the fast path, one number per table.
    for t in d.tables(1) {
        let a = points_a(1, t.number, total);
        let html = s
            .buero
            .post_ok(
                &format!("/tournaments/{id}/passen/1/entry"),
                &[
                    ("table", &t.number.to_string()),
                    ("points_a", &a.to_string()),
                ],
            )
            .await;
        assert!(text(&html, ".flash").contains(&format!("Tisch {} gespeichert", t.number)));
        assert_eq!(
            attr(&html, "#table", "autofocus").as_deref(),
            Some(""),
            "cursor back on the table field"
        );
        expected.entry(t.team_a.startnummer).or_default().push(a);
        expected
            .entry(t.team_b.startnummer)
            .or_default()
            .push(total - a);
    }
    let html = s.buero.html(&format!("/tournaments/{id}/passen/1")).await;
    assert_eq!(text(&html, "#progress"), "4 / 4 Tische erfasst");
    // Passe 2: both numbers typed (with Swiss thousands separator allowed).
    for t in d.tables(2) {
        let a = points_a(2, t.number, total);
        s.buero
            .post_ok(
                &format!("/tournaments/{id}/passen/2/entry"),
                &[
                    ("table", &t.number.to_string()),
                    ("points_a", &a.to_string()),
                    ("points_b", &(total - a).to_string()),
                ],
            )
            .await;
        expected.entry(t.team_a.startnummer).or_default().push(a);
        expected
            .entry(t.team_b.startnummer)
            .or_default()
            .push(total - a);
    }
    // Passe 3: bulk CSV, one line per team.
    let mut csv = String::from("passe;startnummer;punkte\n");
    for t in d.tables(3) {
        let a = points_a(3, t.number, total);
        csv += &format!(
            "3;{};{}\n3;{};{}\n",
            t.team_b.startnummer,
            total - a,
            t.team_a.startnummer,
            a
        );
        expected.entry(t.team_a.startnummer).or_default().push(a);
        expected
            .entry(t.team_b.startnummer)
            .or_default()
            .push(total - a);
    }
    let r = s
        .buero
        .upload(
            &format!("/tournaments/{id}/results/import"),
            csv.into_bytes(),
            Some(&s.buero.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);

    // Kontrolleur visas every table, then every final total.
    let html = s
        .kontrolle
        .html(&format!("/tournaments/{id}/ranking?official=1"))
        .await;
    assert_eq!(
        select_all(&html, "table.ranking tbody tr td:first-child")
            .iter()
            .filter(|r| !r.is_empty())
            .count(),
        0,
        "no final visa yet: nobody ranked"
    );
    assert!(text(&html, "h2").contains("nicht bewertet"));
    for p in 1..=3u32 {
        for t in d.tables(p) {
            s.kontrolle
                .post_ok(
                    &format!("/tournaments/{id}/passen/{p}/tables/{}/visa", t.number),
                    &[],
                )
                .await;
        }
    }
    for team in &d.teams {
        let html = s
            .kontrolle
            .post_ok(
                &format!("/tournaments/{id}/teams/{}/final-visa", team.id),
                &[],
            )
            .await;
        assert_eq!(text(&html, "#status"), "Endvisum");
        let total_points: u32 = expected[&team.startnummer].iter().sum();
        assert_eq!(
            text(&html, "#total").replace('\'', ""),
            total_points.to_string()
        );
    }
    s.leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let html = s
        .kontrolle
        .html(&format!("/tournaments/{id}/ranking"))
        .await;
    assert_eq!(text(&html, "#kind"), "offiziell");
    let shown: Vec<u32> = select_all(&html, "#section-1 tbody tr td:nth-child(2)")
        .iter()
        .map(|cell| cell.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(shown, expected_order(&expected));
    let ranks = select_all(&html, "#section-1 tbody tr td:first-child");
    assert_eq!(ranks[0], "1.");
    // Closed: visas and entries are refused.
    let r = s
        .kontrolle
        .post(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let actions = s.app.audit_actions();
    for action in [
        "draw:draw",
        "result:enter",
        "result:visa",
        "team:final_visa",
        "tournament:close",
    ] {
        assert!(actions.contains(&action.to_string()), "{action} audited");
    }
    assert_eq!(actions.iter().filter(|a| *a == "result:enter").count(), 12);
}

#[tokio::test]
async fn bad_result_input_is_rejected_and_writes_nothing() {
    let s = drawn_tournament(4, "3", "12", "").await;
    let entry = format!("/tournaments/{}/passen/1/entry", s.id);
    let before = s.app.dump();
    for (form, field, words) in [
        (
            vec![("table", "9"), ("points_a", "1000")],
            "table",
            "Tisch 9 gibt es",
        ),
        (
            vec![("table", "eins"), ("points_a", "1000")],
            "table",
            "keine ganze Zahl",
        ),
        (
            vec![("table", "1"), ("points_a", "zehn")],
            "points_a",
            "keine ganze Zahl",
        ),
        (
            vec![("table", "1"), ("points_a", "-10")],
            "points_a",
            "negative",
        ),
        (
            vec![("table", "1"), ("points_a", "1885")],
            "points_a",
            "zwischen 0 und 1'884",
        ),
        (
            vec![("table", "1"), ("points_a", "99999999999999999999")],
            "points_a",
            "zwischen",
        ),
        (
            vec![("table", "1"), ("points_a", "1000"), ("points_b", "800")],
            "points_b",
            "1'800 statt 1'884",
        ),
        (
            vec![("table", "1"), ("points_a", "")],
            "points_a",
            "Punkte eines Teams",
        ),
        (
            vec![("table", "1"), ("points_a", "200"), ("matches_a", "2")],
            "matches_a",
            "Matches",
        ),
    ] {
        let r = s.buero.post(&entry, &form).await;
        assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "{form:?}");
        let html = Html::parse_document(&r.text().await.unwrap());
        let message = text(&html, &format!("#{field}-error"));
        assert!(message.contains(words), "{form:?}: «{message}»");
        assert_eq!(s.app.dump(), before, "{form:?} wrote something");
    }
    // Bulk import: a table with only one team, and a sum that is off.
    let d = s.app.data(s.id);
    let t = &d.tables(1)[0];
    let csv = format!(
        "passe;startnummer;punkte\n1;{};1000\n1;{};800\n2;{};900\n",
        t.team_a.startnummer, t.team_b.startnummer, t.team_a.startnummer
    );
    let r = s
        .buero
        .upload(
            &format!("/tournaments/{}/results/import", s.id),
            csv.into_bytes(),
            Some(&s.buero.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    let errors = select_all(&html, "#import-errors li");
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("Zeile 3:") && e.contains("1'884")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("Zeile 4:") && e.contains("Gegners")),
        "{errors:?}"
    );
    assert_eq!(s.app.dump(), before);
}

#[tokio::test]
async fn concurrent_clerks_get_a_conflict_instead_of_overwriting() {
    let s = drawn_tournament(4, "3", "12", "").await;
    let id = s.id;
    let second = s.app.login(BUERO.0, BUERO.1).await;
    let entry = format!("/tournaments/{id}/passen/1/entry");
    s.buero
        .post_ok(&entry, &[("table", "1"), ("points_a", "1000")])
        .await;
    let before = s.app.dump();
    let r = second
        .post(&entry, &[("table", "1"), ("points_a", "700")])
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(
        text(&html, "#conflict").contains("1'000 : 884"),
        "{}",
        text(&html, "#conflict")
    );
    assert_eq!(s.app.dump(), before);

    // Both open the correction form of version 1; the later save conflicts.
    let result_id = s.app.data(s.id).results[0].id;
    let form = s
        .buero
        .html(&format!("/tournaments/{id}/results/{result_id}/edit"))
        .await;
    let version = attr(&form, "input[name=version]", "value").unwrap();
    let correct = format!("/tournaments/{id}/passen/1/correct");
    s.buero
        .post_ok(
            &correct,
            &[
                ("table", "1"),
                ("version", &version),
                ("points_a", "1100"),
                ("points_b", "784"),
            ],
        )
        .await;
    let before = s.app.dump();
    let r = second
        .post(
            &correct,
            &[
                ("table", "1"),
                ("version", &version),
                ("points_a", "600"),
                ("points_b", "1284"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#conflict").contains("1'100 : 784"));
    assert_eq!(s.app.dump(), before);
    assert_eq!(s.app.data(s.id).results[0].points_a.get(), 1100);
}

#[tokio::test]
async fn corrections_revoke_visas_and_only_officials_correct_visaed_results() {
    let s = drawn_tournament(4, "1", "12", "660").await;
    let id = s.id;
    let d = s.app.data(s.id);
    for t in d.tables(1) {
        s.buero
            .post_ok(
                &format!("/tournaments/{id}/passen/1/entry"),
                &[("table", &t.number.to_string()), ("points_a", "942")],
            )
            .await;
    }
    let t = &d.tables(1)[0];
    // One Standblatt visaed alone, then the whole table; then the final visa.
    let html = s
        .kontrolle
        .post_ok(
            &format!("/tournaments/{id}/passen/1/tables/{}/visa", t.number),
            &[
                ("team", &t.team_a.id.to_string()),
                ("back", &format!("/tournaments/{id}/teams/{}", t.team_a.id)),
            ],
        )
        .await;
    assert!(text(&html, "#lines").contains("visiert"));
    let b_sheet = s
        .kontrolle
        .html(&format!("/tournaments/{id}/teams/{}", t.team_b.id))
        .await;
    assert!(text(&b_sheet, "#lines").contains("erfasst"));
    s.kontrolle
        .post_ok(
            &format!("/tournaments/{id}/passen/1/tables/{}/visa", t.number),
            &[],
        )
        .await;
    s.kontrolle
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/final-visa", t.team_a.id),
            &[],
        )
        .await;

    let result = s
        .app
        .data(s.id)
        .results
        .iter()
        .find(|r| r.table_no.get() == t.number)
        .unwrap()
        .clone();
    let correct = format!("/tournaments/{id}/passen/1/correct");
    let form = [
        ("table", t.number.to_string()),
        ("version", result.version.to_string()),
        ("points_a", "1000".into()),
        ("points_b", "884".into()),
    ];
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let before = s.app.dump();
    let r = s.buero.post(&correct, &form).await;
    assert_eq!(
        r.status(),
        StatusCode::FORBIDDEN,
        "the Büro may not correct a visaed result"
    );
    assert!(r.text().await.unwrap().contains("visiert"));
    assert_eq!(s.app.dump(), before);
    s.kontrolle.post_ok(&correct, &form).await;
    let after = s.app.data(s.id);
    let row = after.results.iter().find(|r| r.id == result.id).unwrap();
    assert_eq!(
        (row.points_a.get(), row.visa_a_by, row.visa_b_by),
        (1000, None, None)
    );
    assert_eq!(
        after.team(t.team_a.id).unwrap().final_visa_by,
        None,
        "final visa revoked"
    );
    let audit = s.app.audit_actions();
    assert_eq!(audit.iter().filter(|a| *a == "result:correct").count(), 1);
    // An unvisaed result the Büro may correct itself; a final visa waits for all visas.
    let r = s
        .kontrolle
        .post(
            &format!("/tournaments/{id}/teams/{}/final-visa", t.team_a.id),
            &[],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

#[tokio::test]
async fn disqualification_gives_opponents_the_pauschale_and_can_be_undone() {
    let s = drawn_tournament(4, "3", "12", "").await;
    let id = s.id;
    let d = s.app.data(s.id);
    let culprit = d.tables(2)[0].team_a;
    let victim_p2 = d.tables(2)[0].team_b;
    let victim_p3 = d
        .tables(3)
        .iter()
        .find(|t| t.team_a.id == culprit.id || t.team_b.id == culprit.id)
        .map(|t| {
            if t.team_a.id == culprit.id {
                t.team_b
            } else {
                t.team_a
            }
        })
        .unwrap();
    for t in d.tables(1) {
        s.buero
            .post_ok(
                &format!("/tournaments/{id}/passen/1/entry"),
                &[("table", &t.number.to_string()), ("points_a", "900")],
            )
            .await;
    }
    // Only the Leitung disqualifies.
    let dq = format!("/tournaments/{id}/teams/{}/status", culprit.id);
    let form = [
        ("action", "disqualify"),
        ("passe", "2"),
        ("reason", "Zeichengeben nach Verwarnung"),
    ];
    assert_eq!(
        s.buero.post(&dq, &form).await.status(),
        StatusCode::FORBIDDEN
    );
    let html = s.leitung.post_ok(&dq, &form).await;
    assert_eq!(text(&html, "#status"), "disqualifiziert");
    let lines = select_all(&html, "#lines tbody tr");
    assert!(
        lines[0].contains("900") || lines[0].contains("984"),
        "Passe 1 stays: {lines:?}"
    );
    assert!(lines[1].contains("ausgeschieden"));
    for (victim, passe) in [(victim_p2, 2), (victim_p3, 3)] {
        let html = s
            .kontrolle
            .html(&format!("/tournaments/{id}/teams/{}", victim.id))
            .await;
        let line = &select_all(&html, "#lines tbody tr")[passe - 1];
        assert!(
            line.contains("660 (Pauschale)"),
            "3 à 12 presets 660; Passe {passe}: {line}"
        );
    }
    // The aborted table takes no result.
    let table = d.tables(2)[0].number.to_string();
    let r = s
        .buero
        .post(
            &format!("/tournaments/{id}/passen/2/entry"),
            &[("table", &table), ("points_a", "900")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let ranking = s
        .kontrolle
        .html(&format!("/tournaments/{id}/ranking"))
        .await;
    assert!(text(&ranking, "h2").contains("disqualifiziert"));
    // Undo restores.
    let html = s.leitung.post_ok(&dq, &[("action", "reinstate")]).await;
    assert_eq!(text(&html, "#status"), "Resultate fehlen");
    let html = s
        .kontrolle
        .html(&format!("/tournaments/{id}/teams/{}", victim_p2.id))
        .await;
    assert!(!text(&html, "#lines").contains("Pauschale"));
    let audit = s.app.audit_actions();
    assert!(
        audit.contains(&"team:disqualify".to_string())
            && audit.contains(&"team:reinstate".to_string())
    );
}

#[tokio::test]
async fn odd_field_gives_byes_with_pauschale() {
    let s = drawn_tournament(5, "5", "8", "660").await;
    let d = s.app.data(s.id);
    let mut byes = std::collections::HashSet::new();
    for p in 1..=5 {
        let bye = d.byes(p);
        assert_eq!(bye.len(), 1);
        assert!(byes.insert(bye[0].id), "nobody gets a second bye first");
        let html = s
            .kontrolle
            .html(&format!("/tournaments/{}/passen/{p}", s.id))
            .await;
        assert!(text(&html, "#byes").contains(&format!("{} Team", bye[0].startnummer)));
    }
    let team = d.byes(1)[0].id;
    let html = s
        .kontrolle
        .html(&format!("/tournaments/{}/teams/{team}", s.id))
        .await;
    assert!(select_all(&html, "#lines tbody tr")[0].contains("660 (spielfrei)"));
}

#[tokio::test]
async fn per_passe_draw_only_pairs_active_teams() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "3", "12").await;
    let mut csv = String::from("nr;spieler1;spieler2\n");
    for n in 1..=6 {
        csv += &format!("{n};A{n};B{n}\n");
    }
    import_teams(&leitung, id, csv.into_bytes()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "pro_passe"), ("seed", "7")],
        )
        .await;
    let load = || {
        let mut conn = app.pool.get().unwrap();
        results::load(&mut conn, TournamentId(id)).unwrap()
    };
    assert_eq!(load().drawn_passen(), 1);
    let gone = load().teams[0].id;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{gone}/status"),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "")],
        )
        .await;
    let html = leitung
        .post_ok(&format!("/tournaments/{id}/draw/next"), &[])
        .await;
    assert!(text(&html, ".flash").contains("Passe 2 ausgelost"));
    let d = load();
    assert_eq!(d.tables(2).len(), 2);
    assert_eq!(d.byes(2).len(), 1);
    assert!(
        d.tables(2)
            .iter()
            .all(|t| t.team_a.id != gone && t.team_b.id != gone)
    );
    // Late arrivals may be added in this mode.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams"),
            &[("player1", "Spät"), ("player2", "Komm")],
        )
        .await;
}

/// Every route of this issue refuses anonymous users, wrong roles and bad tokens.
#[tokio::test]
async fn new_routes_check_role_and_csrf() {
    let s = drawn_tournament(4, "2", "12", "1000").await;
    let id = s.id;
    s.buero
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "900")],
        )
        .await;
    let team = s.app.data(s.id).teams[0].id;
    let anonymous = s.app.client();
    // (path, form, a role that may not do it)
    type Route<'a> = (String, Vec<(&'a str, &'a str)>, &'a Client);
    let routes: Vec<Route> = vec![
        (
            format!("/tournaments/{id}/draw"),
            vec![("mode", "fest"), ("seed", "1")],
            &s.kontrolle,
        ),
        (format!("/tournaments/{id}/draw/next"), vec![], &s.kontrolle),
        (
            format!("/tournaments/{id}/passen/1/entry"),
            vec![("table", "2"), ("points_a", "900")],
            &s.kontrolle,
        ),
        (
            format!("/tournaments/{id}/passen/1/correct"),
            vec![("table", "1"), ("version", "1"), ("points_a", "1000")],
            &s.leitung,
        ),
        (
            format!("/tournaments/{id}/passen/1/tables/1/visa"),
            vec![],
            &s.buero,
        ),
        (
            format!("/tournaments/{id}/teams/{team}/final-visa"),
            vec![],
            &s.buero,
        ),
        (
            format!("/tournaments/{id}/teams/{team}/status"),
            vec![("action", "disqualify"), ("passe", "1"), ("reason", "x")],
            &s.kontrolle,
        ),
    ];
    let before = s.app.dump();
    for (path, form, wrong_role) in &routes {
        let r = anonymous
            .post_with_csrf(path, form, Some(&s.leitung.csrf))
            .await;
        assert_eq!(location(&r), "/login", "anonymous {path}");
        if !std::ptr::eq(*wrong_role, &s.leitung) {
            assert_eq!(
                wrong_role.post(path, form).await.status(),
                StatusCode::FORBIDDEN,
                "wrong role {path}"
            );
        }
        assert_eq!(
            s.leitung.post_with_csrf(path, form, None).await.status(),
            StatusCode::FORBIDDEN,
            "no csrf {path}"
        );
        assert_eq!(
            s.leitung
                .post_with_csrf(path, form, Some("0000"))
                .await
                .status(),
            StatusCode::FORBIDDEN,
            "bad csrf {path}"
        );
        assert_eq!(s.app.dump(), before, "{path} wrote something");
    }
    let import = format!("/tournaments/{id}/results/import");
    let csv = b"passe;startnummer;punkte\n".to_vec();
    assert_eq!(
        location(
            &anonymous
                .upload(&import, csv.clone(), Some(&s.buero.csrf))
                .await
        ),
        "/login"
    );
    assert_eq!(
        s.kontrolle
            .upload(&import, csv.clone(), Some(&s.kontrolle.csrf))
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        s.buero.upload(&import, csv, Some("falsch")).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(s.app.dump(), before);
}

#[tokio::test]
async fn demo_command_fills_a_fresh_database() {
    let app = spawn_app().await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .arg("demo")
        .env("DATABASE_URL", &app.database_url)
        .output()
        .expect("demo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c = app.login("demo", "demo-passwort").await;
    let html = c.html("/tournaments/1/ranking").await;
    assert_eq!(select_all(&html, "#section-1 tbody tr").len(), 23);
    assert!(text(&html, "h2").contains("disqualifiziert"));
    let html = c.html("/tournaments/1").await;
    let rows = select_all(&html, "main table tbody tr");
    assert!(rows[0].contains("12 / 12"), "{rows:?}");
    let mut conn = app.pool.get().unwrap();
    let d = results::load(&mut conn, TournamentId(1)).unwrap();
    assert_eq!(d.teams.len(), 24);
    assert!(
        d.results
            .iter()
            .all(|r| r.points_a.get() + r.points_b.get() == 1884)
    );
    assert!(d.results.iter().filter(|r| r.visa_a_by.is_some()).count() > d.results.len() / 2);
}

/// The Jassmarathon demo: Spielrunden played to the gong and entered in Striche, a team
/// disqualified, the last Spielrunde running on the clock with a Tafel begun.
#[tokio::test]
async fn the_jassmarathon_demo_is_played_in_striche_up_to_a_running_spielrunde() {
    let app = spawn_app().await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["demo", "--mode", "jassmarathon"])
        .env("DATABASE_URL", &app.database_url)
        .output()
        .expect("demo runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("(Jassmarathon): 24 Teams, 4 Spielrunden, Resultate der Spielrunden 1–3."),
        "{said}"
    );
    let d = app.data(1);
    assert_eq!(
        d.tournament.mode,
        jassturnier::domain::mode::Mode::Jassmarathon
    );
    assert_eq!(d.teams.len(), 24);
    let out = d
        .teams
        .iter()
        .filter(|t| t.out_passe.map(u32::from) == Some(3))
        .count();
    assert_eq!(out, 1, "one team disqualified in Spielrunde 3");
    for p in 1..=3u32 {
        let played = d
            .tables(p)
            .iter()
            .filter(|t| !d.table_has_left(p, t))
            .count();
        assert_eq!(
            d.results.iter().filter(|r| r.passe.get() == p).count(),
            played
        );
    }
    // Striche, not points: a Spielrunde of Sieg, Berg, Match and Gong stays far below 157.
    assert!(
        d.results
            .iter()
            .all(|r| r.points_a.get() + r.points_b.get() < 40)
    );
    let c = app.login("demo", "demo-passwort").await;
    let page = c.html("/tournaments/1/passen/4/entry").await;
    assert_eq!(text(&page, "#clock-state"), "läuft");
    let played = c.html("/tournaments/1/passen/3/entry").await;
    assert_eq!(text(&played, "#clock-state"), "Gong");
    let tafel_lines = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::marathon::tafel(&mut conn, TournamentId(1), 4, d.tables(4)[0].number)
            .unwrap()
            .0
            .len()
    };
    assert_eq!(tafel_lines, 4, "Tafel 1 of the running Spielrunde is begun");
    let ranking = c.html("/tournaments/1/ranking").await;
    assert!(text(&ranking, "main").contains("Striche"));
    // Every demo team has a name: the Rangliste shows team and players, no one twice.
    assert!(
        d.teams
            .iter()
            .all(|t| t.name.as_deref().is_some_and(|n| !n.is_empty()))
    );
    let rows = select_all(&ranking, "#section-1 tbody tr").join("\n");
    for team in &d.teams {
        let players = format!("{} / {}", team.player1, team.player2);
        assert!(
            rows.matches(&players).count() <= 1,
            "{players} once: {rows}"
        );
    }
    // The team whose Tafel runs: its Standblatt says so, not "erfasst", and offers no visa.
    let running = d.tables(4)[0].team_a.id;
    let sheet = c.html(&format!("/tournaments/1/teams/{running}")).await;
    let line = text(&sheet, "tr[data-passe='4']");
    assert!(
        line.contains("Tafel läuft") && line.contains("provisorisch"),
        "{line}"
    );
    assert!(
        !line.contains("erfasst") && !line.contains("visieren"),
        "{line}"
    );
    // The demo's help lists the demo's flags, not the server's.
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["demo", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--teams") && help.contains("--database-url"),
        "{help}"
    );
    for server_flag in ["--bind", "--public-url", "--workers", "--backup-dir"] {
        assert!(!help.contains(server_flag), "{server_flag} in {help}");
    }
}

/// The demo works for every size it accepts, and refuses the others before writing.
#[tokio::test]
async fn the_demo_works_for_every_size_it_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.sqlite3");
    let demo = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
            .arg("demo")
            .args(args)
            .env("DATABASE_URL", &db)
            .output()
            .unwrap()
    };
    let refused = demo(&["--teams", "3"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("4 bis 5000 Teams"));
    assert!(!db.exists(), "nothing written for a refused size");
    // Each refusal says what is accepted, in the words of the mode asked for.
    let refused = demo(&["--mode", "einzelschieber", "--teams", "3"]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("4 bis 5000 Spieler"));
    let refused = demo(&["--mode", "jassmarathon", "--passen", "1"]);
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .ends_with("Demo: 4 bis 5000 Teams, 2 bis 30 Spielrunden.\n")
    );
    let refused = demo(&["--mode", "marathon"]);
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("Unbekannter Modus «marathon»") && said.contains("jassmarathon"),
        "{said}"
    );
    assert!(!db.exists(), "nothing written for a refused mode");
    for (id, (teams, passen, spiele)) in [("7", "3", "8"), ("4", "2", "1"), ("5", "4", "12")]
        .into_iter()
        .enumerate()
    {
        let out = demo(&["--teams", teams, "--passen", passen, "--spiele", spiele]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let pool = jassturnier::db::connect(db.to_str().unwrap(), 1).unwrap();
        let mut conn = pool.get().unwrap();
        let d = results::load(&mut conn, TournamentId(i32::try_from(id).unwrap() + 1)).unwrap();
        assert_eq!(d.teams.len(), teams.parse::<usize>().unwrap());
        let total = 157 * spiele.parse::<u32>().unwrap();
        assert!(
            d.results
                .iter()
                .all(|r| r.points_a.get() + r.points_b.get() == total)
        );
        assert!(
            d.teams.iter().any(|t| t.out_passe.is_some()),
            "one team disqualified"
        );
    }
}

/// The entry page writes its numbers de-CH; the official Rangliste of an open tournament is
/// a preview, and says so.
#[tokio::test]
async fn entry_numbers_read_swiss_and_an_early_official_ranking_is_a_preview() {
    let s = drawn_tournament(8, "4", "12", "").await;
    let id = s.id;
    let html = s
        .buero
        .html(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    assert_eq!(text(&html, "#table-total"), "1'884");
    let (_, _, json) = bytes(
        &s.leitung,
        &format!("/tournaments/{id}/ranking.json?official=1"),
    )
    .await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["official"], true);
    assert_eq!(json["preview"], true);
    assert_eq!(json["kind"], "Vorschau (Turnier offen)");
    let (_, _, json) = bytes(&s.leitung, &format!("/tournaments/{id}/ranking.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(
        (json["preview"].as_bool(), json["kind"].as_str()),
        (Some(false), Some("provisorisch"))
    );
}

/// The message after a correction says exactly what happened.
#[tokio::test]
async fn a_correction_says_visum_aufgehoben_only_when_there_was_one() {
    let s = drawn_tournament(8, "4", "12", "").await;
    let id = s.id;
    s.buero
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[("table", "1"), ("points_a", "1000")],
        )
        .await;
    let correct = format!("/tournaments/{id}/passen/1/correct");
    let version = |app: &TestApp| app.data(id).result_at(1, 1).unwrap().version.to_string();
    let v = version(&s.app);
    let page = s
        .buero
        .post_ok(
            &correct,
            &[("table", "1"), ("version", &v), ("points_a", "1100")],
        )
        .await;
    let flash = text(&page, ".flash");
    assert!(
        flash.contains("(korrigiert)") && !flash.contains("Visum"),
        "{flash}"
    );
    s.kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    let v = version(&s.app);
    let page = s
        .kontrolle
        .post_ok(
            &correct,
            &[("table", "1"), ("version", &v), ("points_a", "1200")],
        )
        .await;
    assert!(text(&page, ".flash").contains("(korrigiert, Visum aufgehoben)"));
}

/// After a refused entry the cursor is in the field with the error (autofocus; the entry
/// script also selects its content), not back in Tisch where the next digit would make
/// table 2 into table 23.
#[tokio::test]
async fn after_an_entry_error_the_cursor_is_in_the_field_with_the_error() {
    let s = drawn_tournament(4, "3", "12", "").await;
    let path = format!("/tournaments/{}/passen/1/entry", s.id);
    let r = s
        .buero
        .post(&path, &[("table", "2"), ("points_a", "99999")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert_eq!(attr(&html, "#points_a", "autofocus").as_deref(), Some(""));
    assert_eq!(attr(&html, "#table", "autofocus"), None);
    assert_eq!(
        attr(&html, "#points_a", "aria-invalid").as_deref(),
        Some("true")
    );
    let r = s
        .buero
        .post(&path, &[("table", "77"), ("points_a", "900")])
        .await;
    let html = Html::parse_document(&r.text().await.unwrap());
    assert_eq!(attr(&html, "#table", "autofocus").as_deref(), Some(""));
    // A fresh form starts at Tisch.
    let html = s.buero.html(&path).await;
    assert_eq!(attr(&html, "#table", "autofocus").as_deref(), Some(""));
}

/// A bye and a Pauschale are marked as such on every output: Rangliste page and PDF, live
/// page, ranking.csv, ranking.json and results.csv (with their kind per Passe).
#[tokio::test]
async fn pauschale_and_bye_are_marked_in_every_output() {
    let s = drawn_tournament(5, "5", "8", "660").await;
    let id = s.id;
    let d = s.app.data(id);
    let bye = d.byes(1)[0];
    for t in d.tables(1) {
        s.buero
            .post_ok(
                &format!("/tournaments/{id}/passen/1/entry"),
                &[("table", &t.number.to_string()), ("points_a", "700")],
            )
            .await;
    }
    // A withdrawal from Passe 1 on: its Passe 1 opponent gets the Pauschale.
    let gone = d.tables(2)[0].team_a;
    s.leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", gone.id),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "")],
        )
        .await;
    let victim = d.tables(2)[0].team_b;
    s.buero
        .post_ok(
            &format!("/tournaments/{id}/passen/2/entry"),
            &[
                ("table", &d.tables(2)[1].number.to_string()),
                ("points_a", "700"),
            ],
        )
        .await;
    let page = s
        .kontrolle
        .html(&format!("/tournaments/{id}/ranking"))
        .await;
    let cells = |team: i32| select_all(&page, &format!("tr[data-team=\"{team}\"] td"));
    assert!(
        cells(bye.id.0).contains(&"660 s".to_string()),
        "{:?}",
        cells(bye.id.0)
    );
    assert!(
        cells(victim.id.0).contains(&"660 P".to_string()),
        "{:?}",
        cells(victim.id.0)
    );
    assert_eq!(text(&page, "#legend"), "P = Pauschale, s = spielfrei");
    let live = s
        .app
        .client()
        .html(&format!("/tournaments/{id}/live"))
        .await;
    assert!(text(&live, &format!("#t-{}", bye.startnummer)).contains("660 s"));
    let (_, _, pdf) = bytes(&s.kontrolle, &format!("/tournaments/{id}/ranking.pdf")).await;
    let pdf_text = pdf_pages(&pdf).join("\n");
    assert!(pdf_text.contains("660 s") && pdf_text.contains("660 P"));
    assert!(pdf_text.contains("P = Pauschale, s = spielfrei"));
    let (_, _, csv) = bytes(&s.kontrolle, &format!("/tournaments/{id}/ranking.csv")).await;
    let csv = String::from_utf8(csv[3..].to_vec()).unwrap();
    let row_of = |nr: u32| {
        csv.lines()
            .find(|l| l.split(';').nth(1) == Some(&nr.to_string()))
            .unwrap()
            .to_string()
    };
    assert!(
        row_of(bye.startnummer.get()).contains(";660;")
            && row_of(bye.startnummer.get()).contains(";spielfrei;")
    );
    assert!(row_of(victim.startnummer.get()).contains(";Pauschale;"));
    let json: serde_json::Value = serde_json::from_str(
        &s.kontrolle
            .get(&format!("/tournaments/{id}/ranking.json"))
            .await
            .text()
            .await
            .unwrap(),
    )
    .unwrap();
    let team_json = |nr: u32| {
        json["teams"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["startnummer"] == nr)
            .unwrap()
            .clone()
    };
    assert_eq!(
        team_json(bye.startnummer.get())["round_kinds"][0],
        "spielfrei"
    );
    assert_eq!(
        team_json(victim.startnummer.get())["round_kinds"][1],
        "pauschale"
    );
    assert_eq!(
        team_json(gone.startnummer.get())["status"],
        "zurueckgezogen"
    );
    for (team, word) in [(bye.id.0, "spielfrei"), (victim.id.0, "Pauschale")] {
        let (_, _, pdf) = bytes(
            &s.kontrolle,
            &format!("/tournaments/{id}/teams/{team}/standblatt.pdf"),
        )
        .await;
        let text = pdf_pages(&pdf).join("\n");
        assert!(text.contains(word) && !text.contains('…'), "{text}");
    }
    let (_, _, results) = bytes(&s.kontrolle, &format!("/tournaments/{id}/results.csv")).await;
    let results = String::from_utf8(results[3..].to_vec()).unwrap();
    assert!(results.contains(&format!("1;{};660;spielfrei", bye.startnummer)));
    assert!(results.contains(&format!("2;{};660;pauschale", victim.startnummer)));
}

/// A Pauschale of a Passe not yet under way: the Standblatt (page and PDF) shows it, marks
/// that it counts once that Passe begins, and totals as the provisional Rangliste does
/// ("Total bisher"); before, the sheet said 1'544 and the Rangliste 884.
#[tokio::test]
async fn standblatt_and_rangliste_agree_on_a_pauschale_of_a_coming_passe() {
    let s = drawn_tournament(4, "3", "12", "").await;
    let id = s.id;
    let d = s.app.data(id);
    for t in d.tables(1) {
        enter(&s.buero, id, 1, t.number, 1000).await;
    }
    let gone = d.tables(2)[0].team_a;
    let victim = d.tables(2)[0].team_b;
    s.leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", gone.id),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "")],
        )
        .await;
    let ranking = s.leitung.html(&format!("/tournaments/{id}/ranking")).await;
    let ranked_total = text(
        &ranking,
        &format!("tr[data-team='{}'] td:nth-last-child(2)", victim.id),
    );
    let sheet = s
        .leitung
        .html(&format!("/tournaments/{id}/teams/{}", victim.id))
        .await;
    assert_eq!(text(&sheet, "#total"), ranked_total, "one rule for both");
    assert_eq!(text(&sheet, "#total-label"), "Total bisher");
    let line = text(&sheet, "tr[data-passe='2']");
    assert!(line.contains("zählt ab Beginn von Passe 2"), "{line}");
    let (_, _, pdf) = bytes(
        &s.leitung,
        &format!("/tournaments/{id}/teams/{}/standblatt.pdf", victim.id),
    )
    .await;
    let pdf_text = pdf_pages(&pdf).join("\n");
    assert!(pdf_text.contains("zählt ab Passe 2"), "{pdf_text}");
    assert!(
        pdf_text.contains(&format!("\n{ranked_total}\n")),
        "{ranked_total}: {pdf_text}"
    );
    // Once Passe 2 is under way the Pauschale counts everywhere, and the sheet says Total.
    let other = d.tables(2)[1].number;
    enter(&s.buero, id, 2, other, 1000).await;
    let sheet = s
        .leitung
        .html(&format!("/tournaments/{id}/teams/{}", victim.id))
        .await;
    let ranking = s.leitung.html(&format!("/tournaments/{id}/ranking")).await;
    assert_eq!(
        text(&sheet, "#total"),
        text(
            &ranking,
            &format!("tr[data-team='{}'] td:nth-last-child(2)", victim.id)
        )
    );
    assert_eq!(text(&sheet, "#total-label"), "Total");
}
