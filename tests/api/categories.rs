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
    let category = |name: &str| {
        d.categories
            .list
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .id
    };
    let (damen, senioren) = (category("Damen"), category("Senioren"));
    // The Büro ticks: teams 1, 3, 5 are Damen; 2 and 3 Senioren.
    let team = |nr: u32| {
        d.teams
            .iter()
            .find(|t| t.startnummer.get() == nr)
            .unwrap()
            .id
    };
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
    let r = leitung
        .upload("/tournaments/import", export, Some(&leitung.csrf))
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let c = app.data(copy);
    let copied_team = |nr: u32| {
        c.teams
            .iter()
            .find(|t| t.startnummer.get() == nr)
            .unwrap()
            .id
    };
    assert_eq!(c.categories.names_of(copied_team(5)), ["damen"]);
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
