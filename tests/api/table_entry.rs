//! Results from the table: a phone gives its team's code, reports its table's result, the
//! opponents confirm or dispute on theirs, the office decides, the Kontrolleur visas.

use crate::helpers::*;
use jassturnier::domain::ids::TournamentId;
use reqwest::StatusCode;
use scraper::Html;

/// A phone at a table: its own cookies, the code it was given.
struct Phone {
    client: Client,
    tournament: i32,
    startnummer: u32,
    /// The phone's form token as last seen on its page (a page without a form has none).
    csrf: std::sync::Mutex<String>,
}

impl Phone {
    fn base(&self) -> String {
        format!(
            "/tournaments/{}/team/{}/tisch",
            self.tournament, self.startnummer
        )
    }

    async fn give_code(&self, code: &str) -> reqwest::Response {
        self.client
            .http
            .post(self.client.url(&format!("{}/code", self.base())))
            .form(&[("code", code)])
            .send()
            .await
            .expect("POST code")
    }

    async fn page(&self) -> Html {
        self.client.html(&self.base()).await
    }

    /// Posts one of the table's forms with the CSRF token its page carries.
    async fn post(&self, action: &str, form: &[(&str, &str)]) -> reqwest::Response {
        let page = self.page().await;
        let mut remembered = self.csrf.lock().unwrap().clone();
        if let Some(token) = attr(&page, "input[name=_csrf]", "value") {
            remembered = token.clone();
            *self.csrf.lock().unwrap() = token;
        }
        let csrf = remembered;
        let mut fields = form.to_vec();
        fields.push(("_csrf", &csrf));
        self.client
            .http
            .post(self.client.url(&format!("{}/{action}", self.base())))
            .form(&fields)
            .send()
            .await
            .expect("POST")
    }

    /// The version of the report the page shows (for confirming or disputing).
    async fn seen(&self) -> String {
        attr(&self.page().await, "input[name=seen]", "value").expect("a report to answer")
    }
}

async fn phone(app: &TestApp, ip: &str, tournament: i32, startnummer: u32, code: &str) -> Phone {
    let phone = Phone {
        client: app.client_at(ip),
        tournament,
        startnummer,
        csrf: Default::default(),
    };
    let r = phone.give_code(code).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER, "code for {startnummer}");
    assert_eq!(location(&r), phone.base());
    if let Some(token) = attr(&phone.page().await, "input[name=_csrf]", "value") {
        *phone.csrf.lock().unwrap() = token;
    }
    phone
}

/// The codes as the Leitung's page lists them, by Startnummer.
pub(crate) async fn codes(leitung: &Client, id: i32) -> std::collections::HashMap<u32, String> {
    let page = leitung.html(&format!("/tournaments/{id}/tisch")).await;
    let rows = select_all(&page, "#codes tbody tr");
    let codes = select_all(&page, "#codes tbody tr code");
    rows.iter()
        .zip(codes)
        .map(|(row, code)| {
            let startnummer = row.split_whitespace().next().unwrap().parse().unwrap();
            (startnummer, code)
        })
        .collect()
}

/// The Startnummern of table `table` in Passe `passe`, A first.
fn sitting(app: &TestApp, id: i32, passe: u32, table: u32) -> (u32, u32) {
    let data = app.data(id);
    let t = data.table(passe, table).expect("table");
    (t.team_a.startnummer.get(), t.team_b.startnummer.get())
}

fn stored(app: &TestApp, id: i32, passe: u32, table: u32) -> Option<(u32, u32, bool)> {
    app.data(id)
        .result_at(passe, table)
        .map(|r| (r.points_a.get(), r.points_b.get(), r.visaed()))
}

fn report_state(app: &TestApp, id: i32, passe: u32, table: u32) -> Option<String> {
    let mut conn = app.pool.get().unwrap();
    jassturnier::db::table_entry::report_at(&mut conn, TournamentId(id), passe, table)
        .unwrap()
        .map(|r| r.state.key().to_string())
}

/// An 8-team Partnerschieber of 3 Passen à 12 Spiele (1884 per table), table entry on.
pub(crate) async fn tournament_with_table_entry(leitung: &Client) -> i32 {
    let id = drawn_field(leitung, "3", "12", "", 8).await;
    let page = leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    assert!(
        text(&page, "#table-entry-state").contains("Passe 1"),
        "{}",
        text(&page, "#table-entry-state")
    );
    id
}

#[tokio::test]
async fn a_table_reports_the_opponents_confirm_the_kontrolleur_visas() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = tournament_with_table_entry(&leitung).await;
    let codes = codes(&leitung, id).await;
    assert_eq!(codes.len(), 8);
    assert!(
        codes
            .values()
            .all(|c| c.len() == 9 && c.as_bytes()[4] == b'-')
    );
    // The code is printed on the team's Standblatt.
    let team_one = app.data(id).teams[0].clone();
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/teams/{}/standblatt.pdf", team_one.id),
    )
    .await;
    let sheet = pdf_pages(&pdf).join("\n");
    assert!(sheet.contains("Tisch-Code"), "{sheet}");
    assert!(
        sheet.contains(&codes[&team_one.startnummer.get()]),
        "{sheet}"
    );

    let (a, b) = sitting(&app, id, 1, 1);
    // The public team page offers the entry.
    let public = app
        .client()
        .html(&format!("/tournaments/{id}/team/{a}"))
        .await;
    assert_eq!(
        attr(&public, "#enter-result", "href").as_deref(),
        Some(format!("/tournaments/{id}/team/{a}/tisch").as_str())
    );
    // Without the code, the table page asks for it.
    let stranger = app.client();
    let asked = stranger
        .html(&format!("/tournaments/{id}/team/{a}/tisch"))
        .await;
    assert!(select_all(&asked, "input[name=code]").len() == 1);

    // Typed loosely (small letters, no dash): still the code.
    let loose = codes[&a].replace('-', "").to_lowercase();
    let phone_a = phone(&app, "127.0.0.1", id, a, &loose).await;
    let page = phone_a.page().await;
    assert!(text(&page, "h1").contains("Tisch 1"), "{}", page.html());
    assert!(text(&page, "#headline").contains("Noch kein Resultat"));
    let r = phone_a.post("melden", &[("points", "1'000")]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    // Reported is not counted.
    assert_eq!(stored(&app, id, 1, 1), None);
    assert_eq!(report_state(&app, id, 1, 1).as_deref(), Some("gemeldet"));
    let waiting = phone_a.page().await;
    assert!(text(&waiting, "#headline").contains("wartet auf die Bestätigung"));

    // The office sees it on the Tischliste, as reported and not yet counted.
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    let row = text(&passe, "#tisch-1");
    assert!(
        row.contains("vom Tisch gemeldet") && row.contains("1'000 : 884"),
        "{row}"
    );
    assert!(text(&passe, "#from-tables").contains("1 gemeldet"));

    // The reporting team cannot confirm its own report.
    let seen = attr(&phone_a.page().await, "input[name=seen]", "value");
    assert_eq!(seen, None, "no confirmation form for the reporters");
    let r = phone_a.post("bestaetigen", &[("seen", "1")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored(&app, id, 1, 1), None);

    // The opponents confirm on their phone.
    let phone_b = phone(&app, "127.0.0.2", id, b, &codes[&b]).await;
    let theirs = phone_b.page().await;
    assert!(text(&theirs, "#headline").contains("bitte prüfen"));
    assert!(
        text(&theirs, "#reported").contains("1'000") && text(&theirs, "#reported").contains("884")
    );
    let seen = phone_b.seen().await;
    let r = phone_b.post("bestaetigen", &[("seen", &seen)]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, id, 1, 1), Some((1000, 884, false)));
    assert_eq!(report_state(&app, id, 1, 1).as_deref(), Some("bestaetigt"));
    // Confirming twice does nothing more.
    let r = phone_b.post("bestaetigen", &[("seen", &seen)]).await;
    assert_eq!(
        r.status(),
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        r.text().await.unwrap()
    );

    // The Kontrolleur visas it like any other result.
    kontrolle
        .post_ok(&format!("/tournaments/{id}/passen/1/tables/1/visa"), &[])
        .await;
    assert_eq!(stored(&app, id, 1, 1), Some((1000, 884, true)));
    let done = phone_a.page().await;
    assert!(
        text(&done, "#headline").contains("bestätigt"),
        "{}",
        done.html()
    );

    // Every step in the Protokoll, with the team and the client's address.
    let mut conn = app.pool.get().unwrap();
    let rows = jassturnier::db::audit::list(&mut conn, Some(TournamentId(id)), 1000).unwrap();
    let by = |entity: &str, action: &str| {
        rows.iter()
            .filter(|r| r.entity == entity && r.action == action)
            .map(|r| r.username.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        by("table_code", "admitted"),
        vec![
            format!("Tisch: Team {b} (127.0.0.2)"),
            format!("Tisch: Team {a} (127.0.0.1)")
        ]
    );
    assert_eq!(
        by("table_report", "report"),
        vec![format!("Tisch: Team {a} (127.0.0.1)")]
    );
    assert_eq!(
        by("table_report", "confirm"),
        vec![format!("Tisch: Team {b} (127.0.0.2)")]
    );
    assert_eq!(
        by("result", "enter"),
        vec![format!("Tisch: Team {b} (127.0.0.2)")]
    );
    // The Protokoll page says it in German, with the team and the address.
    let protocol = text(
        &leitung.html(&format!("/audit?tournament={id}")).await,
        "main",
    );
    for sentence in [
        format!(
            "Passe 1, Tisch 1: Resultat vom Tisch gemeldet: 1'000 : 884 – Tisch: Team {a} (127.0.0.1)"
        ),
        format!(
            "Passe 1, Tisch 1: Meldung 1'000 : 884 von den Gegnern bestätigt – Tisch: Team {b} (127.0.0.2)"
        ),
        format!("Tisch-Code von Nr. {b} angenommen – Tisch: Team {b} (127.0.0.2)"),
    ] {
        assert!(protocol.contains(&sentence), "{sentence} in {protocol}");
    }
}

#[tokio::test]
async fn a_disputed_result_waits_for_the_office_which_takes_one_version() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let kontrolle = app.account(&leitung, KONTROLLEUR, "kontrolleur").await;
    let id = tournament_with_table_entry(&leitung).await;
    let codes = codes(&leitung, id).await;
    let (a, b) = sitting(&app, id, 1, 2);
    let phone_a = phone(&app, "127.0.0.1", id, a, &codes[&a]).await;
    let phone_b = phone(&app, "127.0.0.1", id, b, &codes[&b]).await;
    phone_a.post("melden", &[("points", "1000")]).await;
    // The reporters change their figure before it is confirmed: the opponents' page shows
    // the new one, and an answer to the old version is refused.
    let old = phone_b.seen().await;
    let r = phone_a.post("melden", &[("points", "1100")]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let r = phone_b.post("bestaetigen", &[("seen", &old)]).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert_eq!(stored(&app, id, 1, 2), None);
    // A figure that cannot be: refused at the field, nothing written.
    let seen = phone_b.seen().await;
    let r = phone_b
        .post(
            "widersprechen",
            &[("seen", &seen), ("points", "2000"), ("note", "")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(report_state(&app, id, 1, 2).as_deref(), Some("gemeldet"));
    let r = phone_b
        .post(
            "widersprechen",
            &[
                ("seen", &seen),
                ("points", "884"),
                ("note", "Match vergessen"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(report_state(&app, id, 1, 2).as_deref(), Some("widerspruch"));
    assert_eq!(stored(&app, id, 1, 2), None);
    // Neither phone can settle it now.
    let r = phone_a.post("melden", &[("points", "1000")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(text(&phone_b.page().await, "#headline").contains("Widerspruch"));

    // The office sees both versions and the note.
    let passe = kontrolle.html(&format!("/tournaments/{id}/passen/1")).await;
    let row = text(&passe, "#tisch-2");
    assert!(row.contains("Widerspruch"), "{row}");
    assert!(
        row.contains("1'100 : 784") && row.contains("1'000 : 884"),
        "{row}"
    );
    assert!(row.contains("Match vergessen"), "{row}");
    // A Kontrolleur decides: the disputing team's version.
    let version = attr(&passe, "#tisch-2 input[name=seen]", "value").unwrap();
    let r = kontrolle
        .post(
            &format!("/tournaments/{id}/passen/1/tables/2/entscheiden"),
            &[("version", "widerspruch"), ("seen", &version)],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, id, 1, 2), Some((1000, 884, false)));
    assert_eq!(report_state(&app, id, 1, 2).as_deref(), Some("entschieden"));
    // Deciding again is refused; the result stands.
    let r = kontrolle
        .post(
            &format!("/tournaments/{id}/passen/1/tables/2/entscheiden"),
            &[
                ("version", "gemeldet"),
                ("seen", &(version.parse::<i32>().unwrap() + 1).to_string()),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored(&app, id, 1, 2), Some((1000, 884, false)));
    assert!(text(&phone_a.page().await, "#headline").contains("entschieden"));
    let actions = app.audit_actions();
    assert!(actions.contains(&"table_report:dispute".to_string()));
    assert!(actions.contains(&"table_report:decide_answer".to_string()));

    // A later change by the office is a correction with the usual rules (version, audit).
    let result = app.data(id).result_at(1, 2).unwrap().clone();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/passen/1/correct"),
            &[
                ("table", "2"),
                ("points_a", "990"),
                ("version", &result.version.to_string()),
                ("reason", "Nachzählung"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, id, 1, 2), Some((990, 894, false)));
}

#[tokio::test]
async fn phones_act_only_at_their_table_in_the_open_passe_with_a_valid_code() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = tournament_with_table_entry(&leitung).await;
    let codes = codes(&leitung, id).await;
    let (a1, b1) = sitting(&app, id, 1, 1);
    let (a3, _) = sitting(&app, id, 1, 3);
    // A wrong code, and another team's code, do not open a team's table page.
    let wrong = app.client_at("127.0.0.5");
    let wrong_phone = Phone {
        client: wrong,
        tournament: id,
        startnummer: a1,
        csrf: Default::default(),
    };
    let r = wrong_phone.give_code(&codes[&b1]).await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
    let r = wrong_phone.give_code("AAAA-AAAA").await;
    assert_eq!(r.status(), StatusCode::UNAUTHORIZED);

    let phone_a1 = phone(&app, "127.0.0.1", id, a1, &codes[&a1]).await;
    let phone_a3 = phone(&app, "127.0.0.1", id, a3, &codes[&a3]).await;
    phone_a1.post("melden", &[("points", "1000")]).await;
    // Another table's phone can do nothing with table 1: it answers its own table only.
    let r = phone_a3.post("bestaetigen", &[("seen", "1")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored(&app, id, 1, 1), None);
    // Another team's page on an admitted phone asks for that team's code.
    let other = phone_a3
        .client
        .html(&format!("/tournaments/{id}/team/{a1}/tisch"))
        .await;
    assert!(text(&other, "#code-error").contains(&format!("für Nr. {a3} angemeldet")));
    assert_eq!(select_all(&other, "input[name=code]").len(), 1);
    assert!(select_all(&other, "input[name=seen]").is_empty());
    // Posting to another team's address still acts for the phone's own team only.
    let r = phone_a3
        .client
        .http
        .post(
            phone_a3
                .client
                .url(&format!("/tournaments/{id}/team/{b1}/tisch/bestaetigen")),
        )
        .form(&[
            ("seen", "1"),
            (
                "_csrf",
                &attr(&phone_a3.page().await, "input[name=_csrf]", "value").unwrap(),
            ),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored(&app, id, 1, 1), None);
    // A forged form (no or another phone's token) is refused.
    let r = phone_a1
        .client
        .http
        .post(phone_a1.client.url(&format!("{}/melden", phone_a1.base())))
        .form(&[("points", "999")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);

    // The office types table 3 by keyboard: the table's own report no longer counts.
    phone_a3.post("melden", &[("points", "900")]).await;
    enter(&buero, id, 1, 3, 950).await;
    assert_eq!(report_state(&app, id, 1, 3).as_deref(), Some("ersetzt"));
    assert_eq!(stored(&app, id, 1, 3).map(|s| s.0), Some(950));
    let r = phone_a3.post("melden", &[("points", "900")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // Closed for the Passe: nothing from the tables, reports still waiting go to the office.
    let phone_b1 = phone(&app, "127.0.0.1", id, b1, &codes[&b1]).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/tisch"),
            &[("action", "schliessen")],
        )
        .await;
    assert!(text(&phone_b1.page().await, "#headline").contains("geschlossen"));
    let r = phone_b1.post("bestaetigen", &[("seen", "1")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(stored(&app, id, 1, 1), None);
    // Open for Passe 2: the phones act at their table of Passe 2, never Passe 1's.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/tisch"),
            &[("action", "oeffnen"), ("passe", "2")],
        )
        .await;
    let page = phone_b1.page().await;
    assert!(text(&page, "h1").contains("Passe 2"), "{}", page.html());
    assert!(
        select_all(&page, "input[name=seen]").is_empty(),
        "Passe 1's report is not offered in Passe 2"
    );
    assert_eq!(stored(&app, id, 1, 1), None);
    // The office still decides Passe 1's waiting report.
    let passe = buero.html(&format!("/tournaments/{id}/passen/1")).await;
    let seen = attr(&passe, "#tisch-1 input[name=seen]", "value").unwrap();
    let r = buero
        .post(
            &format!("/tournaments/{id}/passen/1/tables/1/entscheiden"),
            &[("version", "gemeldet"), ("seen", &seen)],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, id, 1, 1), Some((1000, 884, false)));

    // A revoked code: the old code and the phones admitted by it are refused.
    let team = app
        .data(id)
        .teams
        .iter()
        .find(|t| t.startnummer.get() == b1)
        .unwrap()
        .id;
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch/codes/{team}"), &[])
        .await;
    let r = phone_b1.post("melden", &[("points", "900")]).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let again = Phone {
        client: app.client_at("127.0.0.6"),
        tournament: id,
        startnummer: b1,
        csrf: Default::default(),
    };
    assert_eq!(
        again.give_code(&codes[&b1]).await.status(),
        StatusCode::UNAUTHORIZED
    );
    let new_code = self::codes(&leitung, id).await[&b1].clone();
    assert_ne!(new_code, codes[&b1]);
    assert_eq!(
        again.give_code(&new_code).await.status(),
        StatusCode::SEE_OTHER
    );
    assert!(
        app.audit_actions()
            .contains(&"table_code:revoke".to_string())
    );

    // A closed tournament takes nothing from the tables.
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let (a2, _) = sitting(&app, id, 2, 1);
    let late = Phone {
        client: app.client_at("127.0.0.7"),
        tournament: id,
        startnummer: a2,
        csrf: Default::default(),
    };
    let r = late.give_code(&codes[&a2]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY, "no admission");
    let r = phone_a1.post("melden", &[("points", "900")]).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert_eq!(stored(&app, id, 2, 1), None);
}

#[tokio::test]
async fn wrong_codes_are_throttled_per_address_without_locking_the_team_out() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament_with_table_entry(&leitung).await;
    let codes = codes(&leitung, id).await;
    let (a, b) = sitting(&app, id, 1, 1);
    // Three strangers guess team a's code, five times each: the fifth failure blocks each
    // of them for this team; further guesses are refused unchecked, even the right code.
    for n in 2..=4 {
        let stranger = Phone {
            client: app.client_at(&format!("127.0.0.{n}")),
            tournament: id,
            startnummer: a,
            csrf: Default::default(),
        };
        for _ in 0..5 {
            let r = stranger.give_code("AAAA-AAAA").await;
            assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        }
        let r = stranger.give_code(&codes[&a]).await;
        assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS, "stranger {n}");
        let page = Html::parse_document(&r.text().await.unwrap());
        assert!(text(&page, "#code-error").contains("Zu viele falsche Codes"));
        // The same stranger may still give another team's right code (its own phone).
        let other = Phone {
            client: app.client_at(&format!("127.0.0.{n}")),
            tournament: id,
            startnummer: b,
            csrf: Default::default(),
        };
        assert_eq!(
            other.give_code(&codes[&b]).await.status(),
            StatusCode::SEE_OTHER
        );
    }
    // The team's own phone, at its own address, is not locked out.
    phone(&app, "127.0.0.9", id, a, &codes[&a]).await;
    // Guessing many teams from one address is slowed by the address's own counter.
    let mut statuses = Vec::new();
    for startnummer in (1..=8).cycle().take(21) {
        let p = Phone {
            client: app.client_at("127.0.0.10"),
            tournament: id,
            startnummer,
            csrf: Default::default(),
        };
        statuses.push(p.give_code("AAAA-AAAA").await.status());
    }
    assert!(
        statuses[..19]
            .iter()
            .all(|s| *s == StatusCode::UNAUTHORIZED)
    );
    assert_eq!(statuses[20], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    // The office sees the team under attack and can give it a new code.
    let page = leitung.html(&format!("/tournaments/{id}/tisch")).await;
    assert!(
        text(&page, "#code-alarm").contains("1 Code"),
        "{}",
        text(&page, "#codes")
    );
    let team = app
        .data(id)
        .teams
        .iter()
        .find(|t| t.startnummer.get() == a)
        .unwrap()
        .id;
    let failures = text(&page, &format!("#code-{team} td.num"));
    assert!(failures.parse::<u32>().unwrap() >= 15, "{failures}");
    let refused = app
        .audit_actions()
        .iter()
        .filter(|a| *a == "table_code:refused")
        .count();
    assert_eq!(refused, 15 + 20);
}

#[tokio::test]
async fn an_imported_copy_keeps_the_printed_codes_and_the_open_passe() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = tournament_with_table_entry(&leitung).await;
    let before = codes(&leitung, id).await;
    let (status, _, json) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    assert_eq!(status, StatusCode::OK);
    let r = leitung
        .upload("/tournaments/import", json, Some(&leitung.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    assert_ne!(copy, id);
    assert_eq!(codes(&leitung, copy).await, before);
    let page = leitung.html(&format!("/tournaments/{copy}/tisch")).await;
    assert!(text(&page, "#table-entry-state").contains("Passe 1"));
    // A printed Standblatt's code opens the copy's table page.
    let (a, _) = sitting(&app, copy, 1, 1);
    phone(&app, "127.0.0.1", copy, a, &before[&a]).await;
}

#[tokio::test]
async fn in_the_einzelschieber_a_player_reports_for_his_pair_and_an_opponent_confirms() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::einzelschieber::einzel_field(&leitung, 16, "3").await;
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    let codes = codes(&leitung, id).await;
    assert_eq!(codes.len(), 16, "a code per player");
    let data = app.data(id);
    let table = data.table(1, 1).unwrap();
    let [a1, a2, b1, b2] = data
        .foursome(1, &table)
        .unwrap()
        .map(|p| p.startnummer.get());
    let phone_a2 = phone(&app, "127.0.0.1", id, a2, &codes[&a2]).await;
    let page = phone_a2.page().await;
    assert!(
        text(&page, "label[for=points]").contains("1'256"),
        "{}",
        page.html()
    );
    let r = phone_a2.post("melden", &[("points", "1000")]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    // His partner is on the same side: he does not confirm.
    let phone_a1 = phone(&app, "127.0.0.1", id, a1, &codes[&a1]).await;
    assert!(text(&phone_a1.page().await, "#headline").contains("wartet"));
    let r = phone_a1.post("bestaetigen", &[("seen", "1")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // Either opponent confirms: the result is filed under A1 and B1 as every other.
    let phone_b2 = phone(&app, "127.0.0.1", id, b2, &codes[&b2]).await;
    let seen = phone_b2.seen().await;
    let r = phone_b2.post("bestaetigen", &[("seen", &seen)]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, id, 1, 1), Some((1000, 256, false)));
    let sheets = app.data(id).standblaetter();
    let points = |nr: u32| {
        let player = app
            .data(id)
            .teams
            .iter()
            .find(|t| t.startnummer.get() == nr)
            .unwrap()
            .id;
        sheets.iter().find(|s| s.team == player).unwrap().total
    };
    assert_eq!(
        (points(a1), points(a2), points(b1), points(b2)),
        (1000, 1000, 256, 256)
    );
}

#[tokio::test]
async fn in_the_jassmarathon_the_schreiber_writes_the_tafel_and_the_opponents_confirm_it() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::marathon::marathon_tournament(&app, &leitung, "60").await;
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    let codes = codes(&leitung, id).await;
    let (a, b) = sitting(&app, id, 1, 1);
    let schreiber = phone(&app, "127.0.0.1", id, a, &codes[&a]).await;
    let opponents = phone(&app, "127.0.0.1", id, b, &codes[&b]).await;
    // Points are no way to report a Tafel.
    let r = schreiber.post("melden", &[("points", "4")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // Line by line during the Spielrunde, the running Striche on the phone.
    for line in crate::marathon::lines() {
        let mut form = line.clone();
        form.push(("action", "add"));
        let r = schreiber.post("tafel", &form).await;
        assert_eq!(r.status(), StatusCode::SEE_OTHER, "{line:?}");
    }
    let page = schreiber.page().await;
    assert_eq!(select_all(&page, "#tafel-lines tbody tr").len(), 15);
    assert!(text(&page, "#headline").contains("Tafel läuft"));
    // Deleting a line asks first.
    assert_eq!(
        select_attr(&page, "#tafel-lines form", "data-confirm")[2],
        "Spiel 3 löschen?"
    );
    // A line that cannot be: refused at its field, the Tafel unchanged.
    let r = schreiber
        .post(
            "tafel",
            &[("action", "add"), ("trump", ""), ("cards_a", "80")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        select_all(&schreiber.page().await, "#tafel-lines tbody tr").len(),
        15
    );
    // Nothing counts yet, and the office's Tischliste says the Tafel is running.
    assert_eq!(stored(&app, id, 1, 1), None);
    assert_eq!(report_state(&app, id, 1, 1).as_deref(), Some("laufend"));
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert!(text(&passe, "#tisch-1").contains("Tafel läuft am Tisch"));
    assert!(
        select_all(&passe, "#tisch-1 input[name=seen]").is_empty(),
        "nothing to decide yet"
    );
    // The opponents follow it, but neither write on it nor confirm it before the Gong.
    let theirs = opponents.page().await;
    assert!(text(&theirs, "#headline").contains("Die Gegner führen die Tafel"));
    let r = opponents
        .post(
            "tafel",
            &[("action", "add"), ("trump", "rose"), ("cards_a", "80")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let r = opponents.post("bestaetigen", &[("seen", "16")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // The Gong closes and reports it; the opponents confirm: 8 : 4 Striche, the Tafel kept.
    let r = schreiber.post("tafel", &[("action", "gong")]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(report_state(&app, id, 1, 1).as_deref(), Some("gemeldet"));
    let theirs = opponents.page().await;
    assert_eq!(select_all(&theirs, "#score td.num"), vec!["8", "4"]);
    let seen = opponents.seen().await;
    // A dispute of a Tafel needs a word on what is wrong.
    let r = opponents
        .post("widersprechen", &[("seen", &seen), ("note", "")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let r = opponents.post("bestaetigen", &[("seen", &seen)]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored(&app, id, 1, 1).map(|s| (s.0, s.1)), Some((8, 4)));
    let data = app.data(id);
    assert!(!data.open_tafeln.contains(&(1, 1)), "the Tafel is closed");
    let mut conn = app.pool.get().unwrap();
    let (lines, gong) =
        jassturnier::db::marathon::tafel(&mut conn, TournamentId(id), 1, 1).unwrap();
    assert_eq!((lines.len(), gong), (15, true));
    drop(conn);
    // The office's Tafel of that table shows what the table wrote.
    let tafel = leitung
        .html(&format!("/tournaments/{id}/passen/1/tafel/1"))
        .await;
    assert_eq!(text(&tafel, "#total-a"), "8");
    assert_eq!(text(&tafel, "#total-b"), "4");

    // Table 2: the Schreiber closes, the opponents dispute with a note, the office decides.
    let (c, d) = sitting(&app, id, 1, 2);
    let schreiber2 = phone(&app, "127.0.0.1", id, c, &codes[&c]).await;
    let opponents2 = phone(&app, "127.0.0.1", id, d, &codes[&d]).await;
    schreiber2
        .post(
            "tafel",
            &[("action", "add"), ("trump", "rose"), ("cards_a", "100")],
        )
        .await;
    schreiber2.post("tafel", &[("action", "gong")]).await;
    let seen = opponents2.seen().await;
    let r = opponents2
        .post(
            "widersprechen",
            &[("seen", &seen), ("note", "Weis B fehlt")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    let row = text(&passe, "#tisch-2");
    assert!(
        row.contains("Widerspruch") && row.contains("Weis B fehlt"),
        "{row}"
    );
    // The office corrects on its own Tafel: that replaces the table's report.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/tafel/2"),
            &[
                ("action", "add"),
                ("trump", "rose"),
                ("cards_a", "100"),
                ("weis_b", "50"),
            ],
        )
        .await;
    assert_eq!(report_state(&app, id, 1, 2).as_deref(), Some("ersetzt"));
    assert!(app.data(id).result_at(1, 2).is_some());
}

/// A Tafel line sent twice — its answer lost on the hall's Wi-Fi, «Spiel eintragen» pressed
/// again (found by the day simulator, #82) — is written once, on the phone and in the Büro;
/// a line offered for a Tafel that changed meanwhile is refused, nothing written.
#[tokio::test]
async fn a_tafel_line_sent_twice_is_written_once() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::marathon::marathon_tournament(&app, &leitung, "60").await;
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    let codes = codes(&leitung, id).await;
    let (a, _) = sitting(&app, id, 1, 1);
    let schreiber = phone(&app, "127.0.0.1", id, a, &codes[&a]).await;
    let first = [
        ("action", "add"),
        ("number", "1"),
        ("trump", "rose"),
        ("cards_a", "80"),
    ];
    // The page offers the next line's number.
    assert_eq!(
        select_attr(
            &schreiber.page().await,
            "#line-form input[name=number]",
            "value"
        ),
        vec!["1"]
    );
    let r = schreiber.post("tafel", &first).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let before = app.dump();
    let r = schreiber.post("tafel", &first).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert!(location(&r).contains("ok=schon"), "{}", location(&r));
    assert_eq!(app.dump(), before, "the same line again writes nothing");
    let page = schreiber.page().await;
    assert_eq!(select_all(&page, "#tafel-lines tbody tr").len(), 1);
    assert_eq!(
        select_attr(&page, "#line-form input[name=number]", "value"),
        vec!["2"]
    );
    // Another Spiel as line 1: the Tafel changed since that page; refused, nothing written.
    let r = schreiber
        .post(
            "tafel",
            &[
                ("action", "add"),
                ("number", "1"),
                ("trump", "eichel"),
                ("cards_a", "90"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert!(r.text().await.unwrap().contains("inzwischen 1 Spiele"));
    assert_eq!(app.dump(), before);

    // The Büro's Tafel: the same.
    let tafel = format!("/tournaments/{id}/passen/1/tafel/2");
    let page = leitung.html(&tafel).await;
    assert_eq!(
        select_attr(&page, "#line-form input[name=line]", "value"),
        vec!["1"]
    );
    let line = [
        ("action", "add"),
        ("line", "1"),
        ("trump", "schelle"),
        ("cards_a", "100"),
    ];
    leitung.post_ok(&tafel, &line).await;
    let before = app.dump();
    leitung.post_ok(&tafel, &line).await;
    assert_eq!(
        app.dump(),
        before,
        "the Büro's line sent twice: written once"
    );
    // A ruling is a line too.
    let page = leitung.html(&tafel).await;
    assert_eq!(
        select_attr(&page, "#ruling-form input[name=line]", "value"),
        vec!["2"]
    );
    let ruling = [("action", "add"), ("line", "2"), ("ruling", "berg_a")];
    leitung.post_ok(&tafel, &ruling).await;
    let before = app.dump();
    leitung.post_ok(&tafel, &ruling).await;
    assert_eq!(app.dump(), before, "a ruling sent twice: written once");
    let mut conn = app.pool.get().unwrap();
    let (lines, _) = jassturnier::db::marathon::tafel(&mut conn, TournamentId(id), 1, 2).unwrap();
    assert_eq!(lines.len(), 2);
}

/// A dispute says something: another figure and a note; the players' page speaks to them
/// (their words, 1'884, no staff login, the own report folded behind "ändern"); the office
/// is told when its entry replaces an open report; the Tischliste counts every report; the
/// Protokoll gives the disputing side's figure; a closed tournament admits no phone.
#[tokio::test]
async fn disputes_say_something_phones_speak_to_players_and_the_office_is_told() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = tournament_with_table_entry(&leitung).await;
    let codes = codes(&leitung, id).await;
    let (a1, b1) = sitting(&app, id, 1, 1);
    let phone_a = phone(&app, "127.0.3.11", id, a1, &codes[&a1]).await;
    let phone_b = phone(&app, "127.0.3.12", id, b1, &codes[&b1]).await;

    // The players' page: no staff "Anmelden", the total as 1'884, their words in errors.
    let page = phone_a.page().await;
    assert!(!page.html().contains("/login"), "no staff login on a phone");
    assert!(text(&page, "label[for=points]").contains("Rest von 1'884"));
    let r = phone_a.post("melden", &[("points", "1885")]).await;
    let page = Html::parse_document(&r.text().await.unwrap());
    assert!(
        text(&page, "p.error").contains("Ihre Punkte: muss zwischen 0 und 1'884 liegen"),
        "{}",
        text(&page, "p.error")
    );
    let r = phone_a.post("melden", &[("points", "1000")]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    // The reporter sees the report, and "ändern" folded with the own figure in it.
    let page = phone_a.page().await;
    assert!(text(&page, "#reported").contains("1'000"));
    assert_eq!(text(&page, "#change-report summary"), "ändern");
    assert!(attr(&page, "#change-report", "open").is_none());
    assert_eq!(attr(&page, "#points", "value").as_deref(), Some("1000"));

    // A dispute with the same figure and no note is no dispute.
    let seen = phone_b.seen().await;
    let before = app.dump();
    let r = phone_b
        .post(
            "widersprechen",
            &[("seen", &seen), ("points", "884"), ("note", "")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = Html::parse_document(&r.text().await.unwrap());
    let errors = select_all(&page, "p.error");
    assert!(
        errors.iter().any(|e| e.contains("gemeldete Resultat")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("was nicht stimmt")),
        "{errors:?}"
    );
    assert_eq!(app.dump(), before, "nothing written");
    let r = phone_b
        .post(
            "widersprechen",
            &[
                ("seen", &seen),
                ("points", "900"),
                ("note", "Weis vergessen"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let protokoll = leitung.html(&format!("/audit?tournament={id}")).await;
    let lines = select_all(&protokoll, "#protocol tbody tr .entry").join("\n");
    assert!(
        lines.contains(
            "Widerspruch gegen 1'000 : 884, die Gegner sagen 984 : 900 – «Weis vergessen»"
        ),
        "{lines}"
    );

    // Table 2 reports; the office types it instead and is told what it replaced.
    let (a2, _) = sitting(&app, id, 1, 2);
    let phone_c = phone(&app, "127.0.3.13", id, a2, &codes[&a2]).await;
    phone_c.post("melden", &[("points", "700")]).await;
    let html = enter(&buero, id, 1, 2, 710).await;
    assert!(
        text(&html, ".flash")
            .contains("Die offene Meldung vom Tisch (700 : 1'184) ist damit ersetzt."),
        "{}",
        text(&html, ".flash")
    );
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert_eq!(
        text(&passe, "#from-tables")
            .split("): ")
            .nth(1)
            .unwrap_or_default(),
        "1 Widerspruch · 1 im Büro erfasst (Meldung ersetzt) · 2 ohne Meldung"
    );

    // Closed: the phone offers nothing, a code opens nothing and writes nothing.
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let page = phone_a.page().await;
    assert!(text(&page, "#headline").contains("abgeschlossen"));
    assert!(select_all(&page, "form").is_empty());
    let (a3, _) = sitting(&app, id, 1, 3);
    let before = app.dump();
    let late = Phone {
        client: app.client_at("127.0.3.14"),
        tournament: id,
        startnummer: a3,
        csrf: Default::default(),
    };
    let r = late.give_code(&codes[&a3]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("abgeschlossen"));
    assert_eq!(app.dump(), before, "no admission after the close");
}

/// A phone cannot fill the disk: each Tafel line leaves a small Protokoll entry, a Tafel
/// holds one Spielrunde's Spiele, and a phone that writes too often is stopped for a while —
/// which the office sees.
#[tokio::test]
async fn a_phone_writing_without_end_is_stopped_and_the_office_sees_it() {
    use diesel::prelude::*;
    use jassturnier::db::schema::audit_log;
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::marathon::marathon_tournament(&app, &leitung, "90").await;
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    let codes = codes(&leitung, id).await;
    let (a, _) = sitting(&app, id, 1, 1);
    let schreiber = phone(&app, "127.0.0.1", id, a, &codes[&a]).await;
    // A line written and deleted again, over and over: every post is a write.
    let line = [("trump", "rose"), ("cards_a", "80"), ("action", "add")];
    let delete = [("action", "delete"), ("line", "1")];
    let mut statuses = Vec::new();
    for n in 0..32 {
        let form: &[(&str, &str)] = if n % 2 == 0 { &line } else { &delete };
        statuses.push(schreiber.post("tafel", form).await.status());
    }
    assert!(
        statuses[..30].iter().all(|s| *s == StatusCode::SEE_OTHER),
        "{statuses:?}"
    );
    assert_eq!(statuses[30], StatusCode::TOO_MANY_REQUESTS);
    let r = schreiber.post("tafel", &line).await;
    let body = r.text().await.unwrap();
    assert!(body.contains("Zu viele Einträge"), "{body}");
    // The Protokoll holds what changed: no entry grows with the Tafel.
    let mut conn = app.pool.get().unwrap();
    let sizes: Vec<usize> = audit_log::table
        .filter(audit_log::entity.eq("table_report"))
        .select((audit_log::before, audit_log::after))
        .load::<(Option<String>, Option<String>)>(&mut conn)
        .unwrap()
        .into_iter()
        .map(|(b, a)| b.map_or(0, |s| s.len()) + a.map_or(0, |s| s.len()))
        .collect();
    assert_eq!(sizes.len(), 30);
    assert!(sizes.iter().all(|&n| n < 800), "{sizes:?}");
    let office = leitung.html(&format!("/tournaments/{id}/tisch")).await;
    assert!(
        text(&office, "#phones-stopped").contains("1 Tisch-Telefon"),
        "{}",
        office.html()
    );
    assert!(text(&office, "#codes").contains("gestoppt bis"));
}

/// The code page of a hidden tournament that admits no phone is no different from that of
/// a tournament that does not exist: strangers cannot list tournaments by their ids.
#[tokio::test]
async fn a_hidden_tournaments_code_page_tells_nothing() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = drawn_field(&leitung, "3", "12", "", 8).await;
    leitung
        .post_ok(&format!("/tournaments/{id}/hide"), &[])
        .await;
    let stranger = app.client_at("127.0.0.5");
    let hidden = stranger
        .get(&format!("/tournaments/{id}/team/1/tisch"))
        .await;
    let missing = stranger.get("/tournaments/9999/team/1/tisch").await;
    assert_eq!(hidden.status(), StatusCode::NOT_FOUND);
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let (hidden, missing) = (hidden.text().await.unwrap(), missing.text().await.unwrap());
    assert!(!hidden.contains("Cup im Saal"), "{hidden}");
    for body in [&hidden, &missing] {
        assert!(body.contains("Dieses Turnier gibt es nicht."), "{body}");
    }
    // With phones admitted, the page asks for the code, without the hidden tournament's name.
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    let page = stranger
        .get(&format!("/tournaments/{id}/team/1/tisch"))
        .await;
    assert_eq!(page.status(), StatusCode::OK);
    let name = app.data(id).tournament.name.clone();
    assert!(!page.text().await.unwrap().contains(&name));
}

/// Differenzler (#81): the Schreiber (any player) reports the Schätzzettel's four summed
/// differences from his phone; a player of the other half of the table confirms (his own
/// half does not); a disputed report says why and the office takes it. Each player's
/// Standblatt gets his own place's figure.
#[tokio::test]
async fn in_the_differenzler_the_schreiber_reports_four_differences_and_the_other_half_confirms() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::differenzler::differenzler_field(&leitung, 8).await;
    leitung
        .post_ok(&format!("/tournaments/{id}/tisch"), &[("action", "ein")])
        .await;
    let codes = codes(&leitung, id).await;
    let data = app.data(id);
    let four = |table: u32| {
        data.foursome(1, &data.table(1, table).unwrap())
            .unwrap()
            .map(|p| p.startnummer.get())
    };
    let [p1, p2, p3, p4] = four(1);
    let schreiber = phone(&app, "127.0.0.1", id, p2, &codes[&p2]).await;
    let page = schreiber.page().await;
    assert!(
        text(&page, "#headline").contains("vier Differenzen"),
        "{}",
        page.html()
    );
    assert_eq!(select_all(&page, "input[name^=diff_]").len(), 4);
    // Too much for 2 Spiele (2 × 157): refused at its field, nothing written.
    let before = app.dump();
    let report = |d3: &'static str| {
        [
            ("diff_1", "10"),
            ("diff_2", "0"),
            ("diff_3", d3),
            ("diff_4", "7"),
        ]
    };
    let r = schreiber.post("melden", &report("315")).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&page, "#diff_3 + p.error, .field p.error").contains("Differenz Platz 3"));
    assert_eq!(app.dump(), before, "nothing written");
    let r = schreiber.post("melden", &report("25")).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    // The office sees the four figures of the report.
    let passe = leitung.html(&format!("/tournaments/{id}/passen/1")).await;
    assert!(
        text(&passe, "#tisch-1").contains("10 · 0 · 25 · 7"),
        "{}",
        text(&passe, "#tisch-1")
    );
    // Place 1 sits on the Schreiber's half: he does not confirm.
    let same_half = phone(&app, "127.0.0.1", id, p1, &codes[&p1]).await;
    let r = same_half.post("bestaetigen", &[("seen", "1")]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let other_half = phone(&app, "127.0.0.1", id, p4, &codes[&p4]).await;
    let page = other_half.page().await;
    assert!(text(&page, "#reported").contains("25"), "{}", page.html());
    let seen = other_half.seen().await;
    let r = other_half.post("bestaetigen", &[("seen", &seen)]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let sheets = app.data(id).standblaetter();
    let points = |nr: u32| sheets.iter().find(|s| s.startnummer == nr).unwrap().lines[0].points();
    assert_eq!(
        [p1, p2, p3, p4].map(points),
        [Some(10), Some(0), Some(25), Some(7)]
    );

    // Table 2: disputed; without a word it is refused, with one the office decides.
    let [q1, _, q3, _] = four(2);
    let reporter = phone(&app, "127.0.0.1", id, q1, &codes[&q1]).await;
    let r = reporter
        .post(
            "melden",
            &[
                ("diff_1", "3"),
                ("diff_2", "4"),
                ("diff_3", "5"),
                ("diff_4", "6"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let disputer = phone(&app, "127.0.0.1", id, q3, &codes[&q3]).await;
    let seen = disputer.seen().await;
    let r = disputer
        .post("widersprechen", &[("seen", &seen), ("note", "")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let r = disputer
        .post(
            "widersprechen",
            &[("seen", &seen), ("note", "Platz 3 hatte 15")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(report_state(&app, id, 1, 2).as_deref(), Some("widerspruch"));
    let version = {
        let mut conn = app.pool.get().unwrap();
        jassturnier::db::table_entry::report_at(&mut conn, TournamentId(id), 1, 2)
            .unwrap()
            .unwrap()
            .version
    };
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/tables/2/entscheiden"),
            &[("seen", &version.to_string()), ("version", "gemeldet")],
        )
        .await;
    let stored = app
        .data(id)
        .result_at(1, 2)
        .unwrap()
        .details
        .clone()
        .unwrap();
    let sheet: serde_json::Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(sheet["differenzen"], serde_json::json!([3, 4, 5, 6]));
}
