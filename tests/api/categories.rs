//! Categories (#79): the list (Leitung), who belongs where (Büro), each category's
//! Rangliste on the page, in the PDF, CSV and JSON, and through the export.

use crate::helpers::*;
use reqwest::StatusCode;
use scraper::Html;

#[tokio::test]
async fn each_category_is_ranked_within_itself_in_the_overall_order() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = drawn_field(&leitung, "2", "2", "150", 6).await;
    let page = format!("/tournaments/{id}/kategorien");

    // Doubles are refused at the field; nothing written.
    let before = app.dump();
    let r = leitung
        .post(&page, &[("categories", "Damen\nSenioren\ndamen")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert_eq!(
        text(&html, "#categories-error"),
        "«damen» steht zweimal in der Liste."
    );
    assert_eq!(app.dump(), before);
    // The list is the Leitung's.
    let r = buero.post(&page, &[("categories", "Damen")]).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);

    let html = leitung
        .post_ok(&page, &[("categories", "Damen\nSenioren")])
        .await;
    assert_eq!(text(&html, ".flash"), "Kategorien gespeichert.");
    let d = app.data(id);
    let category = |name: &str| category_id(&d, name);
    let (damen, senioren) = (category("Damen"), category("Senioren"));
    // The Büro ticks: teams 1, 3, 5 are Damen; 2 and 3 Senioren.
    let team = |nr: u32| team_id(&d, nr);
    let mut form: Vec<(String, String)> = Vec::new();
    for nr in [1, 3, 5] {
        form.push((format!("m_{}_{}", team(nr), damen), "1".into()));
    }
    for nr in [2, 3] {
        form.push((format!("m_{}_{}", team(nr), senioren), "1".into()));
    }
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let html = buero.post_ok(&format!("{page}/mitglieder"), &fields).await;
    assert_eq!(text(&html, ".flash"), "Kategorien der Teams gespeichert.");
    assert_eq!(select_all(&html, "#member-table input[checked]").len(), 5);
    // A box of another tournament's team is refused.
    let r = buero
        .post(&format!("{page}/mitglieder"), &[("m_99999_1", "1")])
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);

    for passe in 1..=2 {
        for t in d.tables(passe) {
            enter(
                &leitung,
                id,
                passe,
                t.number,
                (passe * 53 + t.number * 89) % 315,
            )
            .await;
        }
    }
    let html = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    let overall: Vec<String> = select_attr(&html, "#section-1 tbody tr", "data-team");
    let ranks_overall: Vec<String> = select_all(&html, "#section-1 tbody tr td:first-child");
    let nr_of = |team_id: &str| {
        d.teams
            .iter()
            .find(|t| t.id.0.to_string() == team_id)
            .unwrap()
            .startnummer
            .get()
    };
    // Apart from the app: the Damen in the overall order, ranked 1, 2, 3 (no ties here).
    let damen_order: Vec<u32> = overall
        .iter()
        .map(|t| nr_of(t))
        .filter(|nr| [1, 3, 5].contains(nr))
        .collect();
    assert_eq!(ranks_overall.len(), 6);
    let shown: Vec<u32> = select_attr(&html, "h2#kategorie-1 + table tbody tr", "data-team")
        .iter()
        .map(|t| nr_of(t))
        .collect();
    assert_eq!(shown, damen_order);
    assert_eq!(
        select_all(&html, "h2#kategorie-1 + table tbody td:first-child"),
        ["1.", "2.", "3."]
    );
    assert_eq!(text(&html, "#kategorie-2"), "Kategorie Senioren");
    assert_eq!(text(&html, "#category-tabs"), "Gesamt · Damen · Senioren");

    // CSV: the categories per team; JSON: each category's Rangliste; PDF: a section each.
    let (_, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    let csv = String::from_utf8_lossy(&csv).to_string();
    assert!(csv.lines().next().unwrap().ends_with(";kategorien"));
    assert!(csv.contains(";Damen, Senioren"), "{csv}");
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/ranking.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["categories"][0]["name"], "Damen");
    let json_order: Vec<u64> = json["categories"][0]["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["startnummer"].as_u64().unwrap())
        .collect();
    assert_eq!(
        json_order,
        damen_order
            .iter()
            .map(|&n| u64::from(n))
            .collect::<Vec<_>>()
    );
    let (_, _, pdf) = bytes(&leitung, &format!("/tournaments/{id}/ranking.pdf")).await;
    let text_pdf = pdf_pages(&pdf).join("\n");
    assert!(text_pdf.contains("Kategorie Damen") && text_pdf.contains("Kategorie Senioren"));
    // The live page: each category's first three under the podium.
    let live = app.client().html(&format!("/tournaments/{id}/live")).await;
    assert_eq!(
        select_all(&live, "#live-categories h2"),
        ["Damen", "Senioren"]
    );
    let first_dame = select_all(&live, "#live-categories section:first-child li .name");
    assert_eq!(first_dame.len(), 3);
    assert!(
        first_dame[0].starts_with(&format!("{} ", damen_order[0])),
        "{first_dame:?}"
    );

    // Renaming keeps the members of a name that stays; a name gone takes its members.
    leitung
        .post_ok(&page, &[("categories", "damen\nJunioren")])
        .await;
    let d2 = app.data(id);
    assert_eq!(
        d2.categories
            .list
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["damen", "Junioren"]
    );
    assert_eq!(d2.categories.names_of(team(3)), ["damen"]);

    // The export carries them.
    let (_, _, export) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let copy = import_export(&leitung, export).await;
    let c = app.data(copy);
    assert_eq!(c.categories.names_of(team_id(&c, 5)), ["damen"]);
}

/// A special prize for a category goes to its best ranked member; each category winner
/// gets an Urkunde.
#[tokio::test]
async fn a_category_prize_and_certificate_go_to_the_category_winner() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = crate::absenden::finished(&app, &leitung).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/kategorien"),
            &[("categories", "Damen")],
        )
        .await;
    let d = app.data(id);
    let damen = d.categories.list[0].id;
    let ranking = leitung
        .html(&format!("/tournaments/{id}/ranking?official=1"))
        .await;
    let order: Vec<String> = select_attr(&ranking, "#section-1 tbody tr", "data-team");
    // The Damen: the teams ranked 2nd and 4th; the 2nd is their winner.
    let (second, fourth) = (&order[1], &order[3]);
    leitung
        .post_ok(
            &format!("/tournaments/{id}/kategorien/mitglieder"),
            &[
                (format!("m_{second}_{damen}").as_str(), "1"),
                (format!("m_{fourth}_{damen}").as_str(), "1"),
            ],
        )
        .await;
    let html = leitung
        .post_ok(
            &format!("/tournaments/{id}/preise"),
            &[("prizes", "Gold"), ("special", "beste Dame; damen; Blumen")],
        )
        .await;
    let winner = d
        .teams
        .iter()
        .find(|t| t.id.0.to_string() == *second)
        .unwrap();
    let first_line = select_all(&html, "#readout tbody tr").remove(0);
    assert!(
        first_line.contains("beste Dame") && first_line.contains(&winner.player1),
        "{first_line}"
    );
    let (_, _, pdf) = bytes(&leitung, &format!("/tournaments/{id}/urkunden.pdf")).await;
    let pages = pdf_pages(&pdf);
    // Three places, the category winner, the special prize.
    assert_eq!(pages.len(), 5);
    assert!(pages[3].contains("1. Rang Kategorie Damen") && pages[3].contains(&winner.player1));
}

/// The team import's column `kategorie` sets the categories; an unknown one refuses the file.
#[tokio::test]
async fn the_import_file_names_the_categories() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "4", "12").await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/kategorien"),
            &[("categories", "Damen\nSenioren")],
        )
        .await;
    let before = app.dump();
    let r = leitung
        .upload(
            &format!("/tournaments/{id}/teams/import"),
            b"nr;spieler1;spieler2;kategorie\n1;Anna;Urs;Junioren\n".to_vec(),
            Some(&leitung.csrf),
        )
        .await;
    let html = Html::parse_document(&r.text().await.unwrap());
    let r = leitung
        .post(
            &format!("/tournaments/{id}/teams/import/confirm"),
            &[
                (
                    "upload",
                    &attr(&html, "input[name=upload]", "value").unwrap(),
                ),
                (
                    "register",
                    &attr(&html, "input[name=register]", "value").unwrap(),
                ),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text()
            .await
            .unwrap()
            .contains("«Junioren» gibt es in diesem Turnier nicht")
    );
    assert_eq!(app.dump(), before, "nothing written");
    import_teams(
        &leitung,
        id,
        b"nr;spieler1;spieler2;kategorie\n1;Anna;Urs;damen, Senioren\n2;Beat;Ida;\n".to_vec(),
    )
    .await;
    let d = app.data(id);
    let first = d
        .teams
        .iter()
        .find(|t| t.startnummer.get() == 1)
        .unwrap()
        .id;
    let second = d
        .teams
        .iter()
        .find(|t| t.startnummer.get() == 2)
        .unwrap()
        .id;
    assert_eq!(d.categories.names_of(first), ["Damen", "Senioren"]);
    assert!(d.categories.names_of(second).is_empty());
}

fn category_id(
    d: &jassturnier::db::tournament_data::TournamentData,
    name: &str,
) -> jassturnier::domain::ids::CategoryId {
    let c = d.categories.list.iter().find(|c| c.name == name);
    c.expect("a category of this name").id
}

/// The category names of teams 1 to `teams`.
fn category_names(
    d: &jassturnier::db::tournament_data::TournamentData,
    teams: u32,
) -> Vec<Vec<String>> {
    (1..=teams)
        .map(|nr| {
            let names = d.categories.names_of(team_id(d, nr));
            names.into_iter().map(String::from).collect()
        })
        .collect()
}

async fn post_form<'a>(
    client: &'a Client,
    path: &'a str,
    form: Vec<(String, String)>,
) -> reqwest::Response {
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    client.post(path, &fields).await
}

/// The person behind a name, from the register's search.
async fn person_id(leitung: &Client, query: &str) -> String {
    let html = leitung.html(&format!("/personen?q={query}")).await;
    let ids = select_attr(&html, "tr[data-person]", "data-person");
    assert_eq!(ids.len(), 1, "one person for «{query}»");
    ids[0].clone()
}

/// Changes a person's Geschlecht on the person page, the rest as it is.
async fn set_geschlecht(leitung: &Client, person: &str, geschlecht: &str) {
    let html = leitung.html(&format!("/personen/{person}")).await;
    let field = |name: &str| {
        attr(&html, &format!("#person-form input[name={name}]"), "value").unwrap_or_default()
    };
    let fields = [
        ("name", field("name")),
        ("vorname", field("vorname")),
        ("jahrgang", field("jahrgang")),
        ("geschlecht", geschlecht.to_string()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    leitung
        .post_ok(&format!("/personen/{person}"), &fields)
        .await;
}

/// Categories by rule: a team is Damen when both its persons are women, Senioren when both
/// are of the Jahrgang; the office overrides either way; the Leitung changes the rules; a
/// closed tournament keeps its memberships whatever the register says later, and the export
/// carries rules and members.
#[tokio::test]
async fn a_team_is_damen_when_both_persons_are_and_the_office_overrides() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let buero = app.account(&leitung, BUERO, "buero").await;
    let id = create_tournament_with(&leitung, "Damen-Cup", "2", "2", "150").await;
    let page = format!("/tournaments/{id}/kategorien");
    leitung
        .post_ok(&page, &[("categories", "Damen\nSenioren\nGäste")])
        .await;
    import_teams(
        &leitung,
        id,
        "nr;spieler1;spieler2;geschlecht1;geschlecht2;jahrgang1;jahrgang2\n\
         1;Anna Meier;Ida Roth;w;w;1950;1955\n\
         2;Beat Frei;Rita Zaugg;m;w;1940;1958\n\
         3;Clara Vogt;Doris Kunz;W;Frau;1980;1990\n\
         4;Urs Hug;Karl Bühler;m;m;;1950\n"
            .as_bytes()
            .to_vec(),
    )
    .await;
    let members = |app: &TestApp| category_names(&app.data(id), 4);
    // The presets' rules (tournament of 2026: Senioren of 1961 and older), from the persons
    // the file described.
    assert_eq!(
        members(&app),
        [
            vec!["Damen", "Senioren"],
            vec!["Senioren"],
            vec!["Damen"],
            vec![]
        ]
    );
    let html = leitung.html(&page).await;
    assert_eq!(
        select_all(&html, "#member-table thead small"),
        ["alle Frauen", "Jahrgang 1961 und älter", "von Hand"]
    );
    assert!(select_all(&html, "#member-table .chosen").is_empty());

    // The Büro ticks what it sees, but Damen for team 2 and not for team 3, and Gäste 4.
    let d = app.data(id);
    let team = |nr: u32| team_id(&d, nr);
    let category = |name: &str| category_id(&d, name);
    let ticks = [
        (1, "Damen"),
        (2, "Damen"),
        (1, "Senioren"),
        (2, "Senioren"),
        (4, "Gäste"),
    ];
    let form: Vec<(String, String)> = ticks
        .iter()
        .map(|(nr, c)| (format!("m_{}_{}", team(*nr), category(c)), "1".to_string()))
        .collect();
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let html = buero.post_ok(&format!("{page}/mitglieder"), &fields).await;
    assert_eq!(
        select_all(&html, "#member-table .chosen").len(),
        2,
        "team 2 and 3 against the Damen rule"
    );
    let after_ticks = [
        vec!["Damen", "Senioren"],
        vec!["Damen", "Senioren"],
        vec![],
        vec!["Gäste"],
    ];
    assert_eq!(members(&app), after_ticks);

    // The register changes while the tournament is open: the rule follows.
    let ida = person_id(&leitung, "Ida Roth").await;
    set_geschlecht(&leitung, &ida, "mann").await;
    assert_eq!(members(&app)[0], ["Senioren"]);
    set_geschlecht(&leitung, &ida, "frau").await;
    assert_eq!(members(&app), after_ticks);

    // The rules are the Leitung's; a year-rule without its year is refused, nothing written.
    let rules = |damen: &str, year: &str| {
        vec![
            (format!("rule_{}", category("Damen")), damen.to_string()),
            (
                format!("rule_{}", category("Senioren")),
                "jahrgang_bis".to_string(),
            ),
            (format!("year_{}", category("Senioren")), year.to_string()),
            (format!("rule_{}", category("Gäste")), "hand".to_string()),
        ]
    };
    let path = format!("{page}/regeln");
    let post_rules = |client, form| post_form(client, &path, form);
    let r = post_rules(&buero, rules("frauen", "1945")).await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let before = app.dump();
    let r = post_rules(&leitung, rules("frauen", "neunzehn")).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert_eq!(
        text(&html, "#rules-error"),
        "Senioren: Jahrgang bitte als Jahreszahl zwischen 1900 und 2026 (z. B. 1961)."
    );
    assert_eq!(app.dump(), before, "nothing written");
    // Senioren from 1945: team 1 (1950, 1955) and 2 (1940, 1958) no longer.
    let r = post_rules(&leitung, rules("frauen", "1945")).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    assert_eq!(members(&app)[0], ["Damen"]);
    assert_eq!(members(&app)[1], ["Damen"]);
    // Damen by hand keeps who is one now (1 and 2); back to the rule, the rule decides.
    post_rules(&leitung, rules("hand", "1945")).await;
    assert_eq!(members(&app)[..3], [vec!["Damen"], vec!["Damen"], vec![]]);
    post_rules(&leitung, rules("frauen", "1945")).await;
    assert_eq!(members(&app)[..3], [vec!["Damen"], vec![], vec!["Damen"]]);

    // Closed: the official category rankings keep their members whatever the register says.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "42")],
        )
        .await;
    crate::absenden::play_and_visa(&app, &leitung, id, 0).await;
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let closed = members(&app);
    set_geschlecht(&leitung, &ida, "mann").await;
    assert_eq!(members(&app), closed);
    let html = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    assert_eq!(text(&html, "#kategorie-1"), "Kategorie Damen");
    assert_eq!(
        select_all(&html, "h2#kategorie-1 + table tbody tr").len(),
        2
    );
    // Reopened, the rule applies again.
    leitung
        .post_ok(&format!("/tournaments/{id}/reopen"), &[])
        .await;
    assert_eq!(members(&app)[0], Vec::<String>::new());

    // The export carries the rules and the members as they are.
    let (_, _, export) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&export).unwrap();
    assert_eq!(json["categories"]["rules"][0]["rule"], "frauen");
    assert_eq!(json["categories"]["rules"][1]["year"], 1945);
    let copy = import_export(&leitung, export).await;
    let c = app.data(copy);
    assert_eq!(
        c.categories
            .list
            .iter()
            .map(|x| x.rule.describe())
            .collect::<Vec<_>>(),
        ["alle Frauen", "Jahrgang 1945 und älter", "von Hand"]
    );
    assert_eq!(category_names(&c, 4), members(&app));
}

/// A person deleted on request: the team keeps the categories its rule gave it.
#[tokio::test]
async fn a_deleted_person_leaves_the_team_its_categories() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament_with(&leitung, "Damen-Cup", "2", "2", "150").await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/kategorien"),
            &[("categories", "Damen")],
        )
        .await;
    import_teams(
        &leitung,
        id,
        b"nr;spieler1;spieler2;geschlecht1;geschlecht2\n1;Anna Meier;Ida Roth;w;w\n".to_vec(),
    )
    .await;
    let names = |app: &TestApp| {
        let d = app.data(id);
        d.categories
            .names_of(d.teams[0].id)
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&app), ["Damen"]);
    let ida = person_id(&leitung, "Ida Roth").await;
    leitung
        .post_ok(&format!("/personen/{ida}/loeschen"), &[])
        .await;
    assert_eq!(app.data(id).teams[0].player2, "gelöscht");
    assert_eq!(names(&app), ["Damen"]);
}
