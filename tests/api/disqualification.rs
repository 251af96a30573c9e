//! Disqualification after a Passe was played (seed 004 §9): the "aborted?" question, the
//! confirmation naming what changes, one audit entry per affected team, an exact undo,
//! and Pauschalen of Passen not yet under way outside the provisional Rangliste.

use crate::helpers::*;
use jassturnier::db::tournament_data::TournamentData;
use reqwest::StatusCode;

struct Field {
    app: TestApp,
    leitung: Client,
    kontrolle: Client,
    id: i32,
}

/// Four teams, two Passen à 12 Spiele, Pauschale 660; every result of Passe 1 and 2
/// entered and visaed, every final visa given.
async fn played_and_visaed() -> Field {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = drawn_field(&leitung, "2", "12", "660", 4).await;
    let d = app.data(id);
    for p in 1..=2u32 {
        for t in d.tables(p) {
            enter(&leitung, id, p, t.number, 1000).await;
            kontrolle
                .post_ok(
                    &format!("/tournaments/{id}/passen/{p}/tables/{}/visa", t.number),
                    &[],
                )
                .await;
        }
    }
    for team in &d.teams {
        kontrolle
            .post_ok(
                &format!("/tournaments/{id}/teams/{}/final-visa", team.id),
                &[],
            )
            .await;
    }
    Field {
        app,
        leitung,
        kontrolle,
        id,
    }
}

/// The culprit (team A at table 1 of Passe 2) and its Passe 2 opponent.
fn culprit_and_victim(d: &TournamentData) -> (i32, i32) {
    let t = &d.tables(2)[0];
    (t.team_a.id.0, t.team_b.id.0)
}

fn dq_form<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut form = vec![
        ("action", "disqualify"),
        ("passe", "2"),
        ("reason", "Zeichengeben"),
    ];
    form.extend_from_slice(extra);
    form
}

#[tokio::test]
async fn the_form_proposes_the_current_passe() {
    let f = played_and_visaed().await;
    let (culprit, _) = culprit_and_victim(&f.app.data(f.id));
    let html = f
        .leitung
        .html(&format!("/tournaments/{}/teams/{culprit}", f.id))
        .await;
    assert_eq!(
        attr(&html, "#passe option[selected]", "value").as_deref(),
        Some("2")
    );
}

#[tokio::test]
async fn a_played_passe_asks_and_by_default_keeps_the_result() {
    let f = played_and_visaed().await;
    let id = f.id;
    let (culprit, victim) = culprit_and_victim(&f.app.data(id));
    let before = f.app.dump();
    let path = format!("/tournaments/{id}/teams/{culprit}/status");
    let r = f.leitung.post(&path, &dq_form(&[])).await;
    assert_eq!(r.status(), StatusCode::OK, "a question, not a redirect");
    let html = scraper::Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#question").contains("Wurde Passe 2 abgebrochen?"));
    assert!(text(&html, "#question").contains("1'000 : 884"));
    assert_eq!(f.app.dump(), before, "asking writes nothing");
    // Not aborted: the result stays with its visas; the team is out after the last Passe.
    let html = f
        .leitung
        .post_ok(&path, &dq_form(&[("aborted", "nein")]))
        .await;
    assert!(
        text(&html, ".flash").contains("seine Resultate bleiben"),
        "{}",
        text(&html, ".flash")
    );
    let d = f.app.data(id);
    assert_eq!(
        d.team(jassturnier::domain::ids::TeamId(culprit))
            .unwrap()
            .out_passe
            .map(u32::from),
        Some(3)
    );
    let victim_html = f
        .kontrolle
        .html(&format!("/tournaments/{id}/teams/{victim}"))
        .await;
    let line = &select_all(&victim_html, "#lines tbody tr")[1];
    assert!(line.contains("884") && line.contains("visiert"), "{line}");
    assert_eq!(
        text(&victim_html, "#status"),
        "Endvisum",
        "its total did not change"
    );
}

#[tokio::test]
async fn an_aborted_passe_is_confirmed_audited_per_team_and_undone_exactly() {
    let f = played_and_visaed().await;
    let id = f.id;
    let (culprit, victim) = culprit_and_victim(&f.app.data(id));
    let path = format!("/tournaments/{id}/teams/{culprit}/status");
    let before = f.app.dump();
    let r = f.leitung.post(&path, &dq_form(&[("aborted", "ja")])).await;
    assert_eq!(r.status(), StatusCode::OK);
    let html = scraper::Html::parse_document(&r.text().await.unwrap());
    let changes = select_all(&html, "#changes li");
    let d = f.app.data(id);
    let victim_nr = d
        .team(jassturnier::domain::ids::TeamId(victim))
        .unwrap()
        .startnummer;
    let culprit_nr = d
        .team(jassturnier::domain::ids::TeamId(culprit))
        .unwrap()
        .startnummer;
    assert!(
        changes[0].starts_with("Passe 2, Tisch 1: Resultat 1'000 : 884 gegen")
            && changes[0].contains("Pauschale (660)"),
        "{changes:?}"
    );
    let visas: Vec<&String> = changes
        .iter()
        .filter(|c| c.starts_with("Visum Passe 2"))
        .collect();
    assert_eq!(
        visas.len(),
        2,
        "both visas of the table are named: {changes:?}"
    );
    let finals: Vec<&String> = changes
        .iter()
        .filter(|c| c.starts_with("Endvisum"))
        .collect();
    assert_eq!(
        finals.len(),
        2,
        "the victim's (884 → 660) and the culprit's own: {changes:?}"
    );
    assert!(
        finals
            .iter()
            .any(|c| c.contains(&format!("Team {victim_nr}"))
                || c.contains(&format!("{victim_nr} "))),
        "{finals:?}"
    );
    assert_eq!(f.app.dump(), before, "the confirmation page writes nothing");
    let version = attr(&html, "input[name=confirm]", "value").unwrap();
    // A stale confirmation (something changed meanwhile) is asked again, not carried out.
    let r = f
        .leitung
        .post(&path, &dq_form(&[("aborted", "ja"), ("confirm", "0")]))
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(f.app.dump(), before);
    let audit_before = f.app.audit_actions().len();
    let html = f
        .leitung
        .post_ok(&path, &dq_form(&[("aborted", "ja"), ("confirm", &version)]))
        .await;
    assert!(text(&html, ".flash").contains("Resultat durch die Pauschale ersetzt"));
    let victim_html = f
        .kontrolle
        .html(&format!("/tournaments/{id}/teams/{victim}"))
        .await;
    assert!(select_all(&victim_html, "#lines tbody tr")[1].contains("660 (Pauschale)"));
    assert_eq!(
        text(&victim_html, "#status"),
        "Passen visiert",
        "final visa removed"
    );
    // Table 1 of Passe 2 is not played now: the overview does not wait for it, the prints
    // name the culprit and print no Jasszettel for it.
    let progress = |html: &scraper::Html| {
        let row = select_all(html, "tr[data-passe=\"2\"] td");
        (row[1].clone(), row[2].clone(), row[3].clone())
    };
    let overview = f.leitung.html(&format!("/tournaments/{id}")).await;
    assert_eq!(
        progress(&overview),
        ("2".into(), "1 / 1".into(), "1 / 1".into())
    );
    // The Passe page puts the Pauschale under the team that gets it (Team A: the lower
    // Startnummer), not across both columns as if it were B's.
    let page = f.leitung.html(&format!("/tournaments/{id}/passen/2")).await;
    let row = select_all(&page, "#tisch-1 td");
    let points = (row[3].as_str(), row[4].as_str());
    let expected = match culprit_nr < victim_nr {
        true => ("–", "Pauschale"),
        false => ("Pauschale", "–"),
    };
    assert_eq!(points, expected, "{row:?}");
    let (_, _, pdf) = bytes(
        &f.leitung,
        &format!("/tournaments/{id}/passen/2/tischliste.pdf"),
    )
    .await;
    let list = pdf_pages(&pdf).join("\n");
    assert!(list.contains("(ausgeschieden)"), "{list}");
    assert!(
        list.contains("Nicht gespielt (Pauschale): Tisch 1"),
        "{list}"
    );
    let (_, _, pdf) = bytes(
        &f.leitung,
        &format!("/tournaments/{id}/passen/2/jasszettel.pdf"),
    )
    .await;
    let sheets = pdf_pages(&pdf);
    assert_eq!(sheets.len(), 1, "{sheets:?}");
    assert!(sheets[0].contains("Tisch 2"), "{sheets:?}");
    let audit = f.app.audit_actions();
    let new: Vec<&String> = audit[audit_before..].iter().collect();
    assert!(new.contains(&&"team:disqualify".to_string()), "{new:?}");
    assert_eq!(
        new.iter()
            .filter(|a| *a == &"standblatt:gegner_ausgeschieden")
            .count(),
        1,
        "one entry for the one opponent whose Standblatt changed: {new:?}"
    );
    // The draw list keeps the draw and marks both teams of that table.
    let passe_2 = |html: &scraper::Html| -> Vec<String> {
        // Team, Los, Passe 1, Passe 2.
        select_all(html, "#by-startnummer tbody td:nth-child(4)")
    };
    let draw = f.leitung.html(&format!("/tournaments/{id}/draw")).await;
    let cells = passe_2(&draw);
    assert!(
        cells.contains(&format!("Tisch 1 · gegen {victim_nr} · ausgeschieden"))
            && cells.contains(&format!("Tisch 1 · gegen {culprit_nr} · Pauschale")),
        "{cells:?}"
    );
    // Undo: results, visas and both final visas exactly as before.
    let html = f.leitung.post_ok(&path, &[("action", "reinstate")]).await;
    let draw = f.leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert!(
        passe_2(&draw)
            .iter()
            .all(|c| !c.ends_with("ausgeschieden") && !c.ends_with("Pauschale")),
        "{:?}",
        passe_2(&draw)
    );
    assert!(
        text(&html, ".flash").contains("2 Endvisum/Endvisa wiederhergestellt"),
        "{}",
        text(&html, ".flash")
    );
    let overview = f.leitung.html(&format!("/tournaments/{id}")).await;
    assert_eq!(
        progress(&overview),
        ("2".into(), "2 / 2".into(), "2 / 2".into())
    );
    let strip = |dump: String| {
        // One line per table (users, tournaments, teams, seats, results, audit, …): the
        // tournament's version and the audit log grow; teams, seats and results are back.
        let lines: Vec<String> = dump.lines().map(String::from).collect();
        [lines[2].clone(), lines[3].clone(), lines[4].clone()].join("\n")
    };
    assert_eq!(strip(f.app.dump()), strip(before));
}

/// A Pauschale of a Passe nobody has started playing does not lift the opponent in the
/// provisional Rangliste or on the live page; from the first result of that Passe it counts.
#[tokio::test]
async fn a_future_pauschale_waits_for_its_passe_in_the_provisional_ranking() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 4).await;
    leitung
        .post_ok(&format!("/tournaments/{id}/publish"), &[])
        .await;
    let d = app.data(id);
    for t in d.tables(1) {
        enter(&leitung, id, 1, t.number, 1000).await;
    }
    let t2 = &d.tables(2)[0];
    let (culprit, victim) = (t2.team_a, t2.team_b);
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", culprit.id),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "")],
        )
        .await;
    let victim_total = |html: &scraper::Html| {
        select_all(
            html,
            &format!("tr[data-team=\"{}\"] td strong", victim.id.0),
        )
        .first()
        .cloned()
        .unwrap_or_default()
    };
    let passe1 = |nr: u32| {
        let r = app.data(id);
        let t = r
            .tables(1)
            .into_iter()
            .find(|t| t.team_a.startnummer.get() == nr || t.team_b.startnummer.get() == nr)
            .unwrap();
        if t.team_a.startnummer.get() == nr {
            1000
        } else {
            884
        }
    };
    let expected_before = passe1(victim.startnummer.get());
    let ranking = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    assert_eq!(
        victim_total(&ranking).replace('\'', ""),
        expected_before.to_string(),
        "Passe 2 not under way: its Pauschale waits"
    );
    let live = app
        .client()
        .page(&format!("/tournaments/{id}/live"))
        .await
        .1;
    assert_eq!(
        text(
            &live,
            &format!("#t-{} td:nth-last-child(2)", victim.startnummer)
        )
        .replace('\'', ""),
        expected_before.to_string()
    );
    let official = leitung
        .html(&format!("/tournaments/{id}/ranking?official=1"))
        .await;
    assert!(
        select_all(&official, &format!("tr[data-team=\"{}\"] td", victim.id.0))
            .iter()
            .any(|c| c == "660 P"),
        "the official Rangliste counts every Pauschale, marked"
    );
    // The other table of Passe 2 starts: now the Pauschale counts.
    let other = d.tables(2)[1].number.to_string();
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/2/entry"),
            &[("table", &other), ("points_a", "1000")],
        )
        .await;
    let ranking = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    assert_eq!(
        victim_total(&ranking).replace('\'', ""),
        (expected_before + 660).to_string()
    );
    assert_eq!(text(&ranking, "#legend"), "P = Pauschale, s = spielfrei");
}

/// The final visa held aside by a disqualification travels with the tournament's export
/// (and so with a backup or `copy`): reinstating the team in the imported copy gives it back.
#[tokio::test]
async fn a_final_visa_held_aside_survives_export_and_import() {
    let f = played_and_visaed().await;
    let id = f.id;
    let (culprit, victim) = culprit_and_victim(&f.app.data(id));
    let victim_nr = f
        .app
        .data(id)
        .team(jassturnier::domain::ids::TeamId(victim))
        .unwrap()
        .startnummer;
    let path = format!("/tournaments/{id}/teams/{culprit}/status");
    let r = f.leitung.post(&path, &dq_form(&[("aborted", "ja")])).await;
    let html = scraper::Html::parse_document(&r.text().await.unwrap());
    let version = attr(&html, "input[name=confirm]", "value").unwrap();
    f.leitung
        .post_ok(&path, &dq_form(&[("aborted", "ja"), ("confirm", &version)]))
        .await;
    let (_, _, json) = bytes(&f.leitung, &format!("/tournaments/{id}/export.json")).await;
    let doc: jassturnier::db::transfer::Export = serde_json::from_slice(&json).unwrap();
    let held = doc
        .teams
        .iter()
        .find(|t| t.startnummer == victim_nr.get())
        .and_then(|t| t.suspended_final_visa.clone())
        .expect("the victim's final visa is held aside in the export");
    assert_eq!(held.visa.by, "kontrolle");

    let r = f
        .leitung
        .upload("/tournaments/import", json.clone(), Some(&f.leitung.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let data = f.app.data(copy);
    let team_of = |nr: u32| {
        data.teams
            .iter()
            .find(|t| t.startnummer.get() == nr)
            .unwrap()
            .id
    };
    let culprit_nr = f
        .app
        .data(id)
        .team(jassturnier::domain::ids::TeamId(culprit))
        .unwrap()
        .startnummer;
    let html = f
        .leitung
        .post_ok(
            &format!(
                "/tournaments/{copy}/teams/{}/status",
                team_of(culprit_nr.get())
            ),
            &[("action", "reinstate")],
        )
        .await;
    assert!(
        text(&html, ".flash").contains("Endvisum/Endvisa wiederhergestellt"),
        "{}",
        text(&html, ".flash")
    );
    let victim_row = f.app.data(copy);
    let victim_row = victim_row.team(team_of(victim_nr.get())).unwrap();
    assert!(victim_row.final_visa().is_some(), "the held visa is back");
}
