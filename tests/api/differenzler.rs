//! A whole Differenzler over HTTP (seed 002, #81): players registered alone, four to a table
//! drawn each Passe, a Schätzzettel typed Spiel by Spiel (each Spiel checked against 157) and
//! four summed differences per table, the spielfrei player's Pauschale as the Passe's
//! rounded-up average, a table visaed as a whole, a disqualification, and the official
//! Rangliste with the lowest total first.

use crate::helpers::*;
use crate::series::json;
use jassturnier::db::models::Nat;
use reqwest::StatusCode;
use std::collections::HashMap;

/// A Differenzler of `players` players, 2 Passen à 2 Spiele, Nuller counted, drawn.
pub(crate) async fn differenzler_field(leitung: &Client, players: usize) -> i32 {
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Differenzler Thalwil"),
                ("date", "2026-12-12"),
                ("location", "Thalwil"),
                ("mode", "differenzler"),
                ("passen", "2"),
                ("spiele_per_passe", "2"),
                ("pauschale", ""),
                ("d_nuller", "1"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let mut csv = String::from("Nr;Name;Vorname;Verein;Ort\r\n");
    for n in 1..=players {
        csv += &format!("{n};Huber{n};Rita{n};JC Thalwil;Thalwil\r\n");
    }
    let preview = import_teams(leitung, id, csv.into_bytes()).await;
    assert!(text(&preview, ".flash").contains(&format!("{players} Spieler importiert")));
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "7")],
        )
        .await;
    id
}

/// The Schätzzettel form of a table: per Spiel four (Ansage, gemacht).
fn sheet_form(spiele: &[[(u32, u32); 4]], version: &str) -> Vec<(String, String)> {
    let mut form = vec![("version".to_string(), version.to_string())];
    for (s, row) in spiele.iter().enumerate() {
        for (p, (ansage, gemacht)) in row.iter().enumerate() {
            form.push((format!("a{}_{}", s + 1, p + 1), ansage.to_string()));
            form.push((format!("g{}_{}", s + 1, p + 1), gemacht.to_string()));
        }
    }
    form
}

/// The fast entry of Passe 1: a table and its four summed differences.
async fn fast_entry(leitung: &Client, id: i32, table: u32, d: [&str; 4]) -> reqwest::Response {
    let table = table.to_string();
    leitung
        .post(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[
                ("table", table.as_str()),
                ("diff_1", d[0]),
                ("diff_2", d[1]),
                ("diff_3", d[2]),
                ("diff_4", d[3]),
            ],
        )
        .await
}

fn pairs(form: &[(String, String)]) -> Vec<(&str, &str)> {
    form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

#[tokio::test]
async fn a_whole_differenzler_from_import_to_official_rangliste() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = differenzler_field(&leitung, 9).await;
    let data = app.data(id);
    // Nine players: two tables of four and one spielfrei per Passe.
    for p in 1..=2 {
        assert_eq!(data.tables(p).len(), 2);
        assert_eq!(data.byes(p).len(), 1);
    }
    let mut expected: HashMap<Nat, Vec<u32>> = HashMap::new();

    // Passe 1, table 1, Spiel by Spiel. A Spiel whose made points are not 157 is refused
    // with its number, and nothing is written.
    let t1 = data.tables(1);
    let four = data.foursome(1, &t1[0]).unwrap();
    let entry_page = leitung
        .html(&format!("/tournaments/{id}/passen/1/entry"))
        .await;
    assert!(text(&entry_page, "h1").contains("Schätzzettel"));
    assert!(text(&entry_page, "#tables").contains(four[2].name.as_deref().unwrap()));
    let sheet_url = format!("/tournaments/{id}/passen/1/schaetzzettel/{}", t1[0].number);
    let wrong = [
        [(40, 35), (60, 62), (30, 30), (20, 30)],
        [(50, 50), (50, 60), (30, 40), (20, 8)],
    ];
    let before = app.dump();
    let r = leitung
        .post(&sheet_url, &pairs(&sheet_form(&wrong, "")))
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = r.text().await.unwrap();
    assert!(
        body.contains("Spiel 2: Die gemachten Punkte ergeben 158; ein Spiel hat 157."),
        "{body}"
    );
    assert_eq!(app.dump(), before, "nothing written");
    let right = [
        [(40, 35), (60, 62), (30, 30), (20, 30)],
        [(50, 50), (50, 60), (30, 40), (20, 7)],
    ];
    // Differences: place 1: 5 + 0, place 2: 2 + 10, place 3: 0 + 10, place 4: 10 + 13;
    // Nuller: place 1 one, place 3 one.
    let page = leitung
        .post_ok(&sheet_url, &pairs(&sheet_form(&right, "")))
        .await;
    assert!(
        text(&page, ".flash").contains("Tisch 1 gespeichert: 5 · 12 · 10 · 23 Differenzpunkte"),
        "{}",
        text(&page, ".flash")
    );
    for (pl, d) in four.iter().zip([5, 12, 10, 23]) {
        expected.entry(pl.startnummer).or_default().push(d);
    }
    // The stored sheet opens again with its lines.
    let again = leitung.html(&sheet_url).await;
    assert_eq!(
        again
            .select(&scraper::Selector::parse("input[name='g2_4']").unwrap())
            .next()
            .unwrap()
            .value()
            .attr("value"),
        Some("7")
    );

    // The Schätzzettel PDF: a page per table, the typed Spiele and totals on table 1's.
    let (status, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/schaetzzettel.pdf"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let pages = pdf_pages(&pdf);
    assert_eq!(pages.len(), 2, "one page per table");
    assert!(pages[0].contains("Schätzzettel Passe 1") && pages[0].contains("Ansage"));
    assert!(
        pages[0].contains(four[3].name.as_deref().unwrap()),
        "{}",
        pages[0]
    );
    assert!(pages[0].contains("ergeben zusammen 157"), "{}", pages[0]);
    let (status, _, _) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/jasszettel.pdf"),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::NOT_FOUND,
        "no Jasszettel in a Differenzler"
    );

    // Table 2 by the fast entry: four sums; too large refused at its field.
    let t2 = &t1[1];
    let four2 = data.foursome(1, t2).unwrap();
    let fast = |table: u32, d: [&'static str; 4]| fast_entry(&leitung, id, table, d);
    let before = app.dump();
    let r = fast(t2.number, ["3", "315", "8", "0"]).await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("Differenz Platz 2"));
    assert_eq!(app.dump(), before, "nothing written");
    let r = fast(t2.number, ["3", "31", "8", "0"]).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    // A correction of the sums, against the stored version (from the table's sheet page,
    // which offers the four sums of a fast entry).
    let stored = app.data(id).result_at(1, t2.number).unwrap().version;
    let sheet2 = leitung
        .html(&format!(
            "/tournaments/{id}/passen/1/schaetzzettel/{}",
            t2.number
        ))
        .await;
    assert!(text(&sheet2, "#sums-form").contains("Summen korrigieren"));
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/entry"),
            &[
                ("table", &t2.number.to_string()),
                ("version", &stored.to_string()),
                ("diff_1", "4"),
                ("diff_2", "31"),
                ("diff_3", "8"),
                ("diff_4", "0"),
            ],
        )
        .await;
    for (pl, d) in four2.iter().zip([4, 31, 8, 0]) {
        expected.entry(pl.startnummer).or_default().push(d);
    }
    // The same table again is a conflict: nothing is overwritten.
    let before = app.dump();
    let r = fast(t2.number, ["1", "1", "1", "1"]).await;
    assert_eq!(r.status(), StatusCode::CONFLICT);
    assert_eq!(app.dump(), before, "nothing written");
    // The spielfrei player: the rounded-up average of the eight places (93 / 8 = 11.6 → 12).
    let bye1 = data.byes(1)[0];
    expected.entry(bye1.startnummer).or_default().push(12);

    // A player disqualified in Passe 2: the three others at his table get the Pauschale,
    // that table takes no result.
    let p2 = data.tables(2);
    let culprit_table = &p2[0];
    let culprit_four = data.foursome(2, culprit_table).unwrap();
    let culprit = culprit_four[1];
    let page = leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", culprit.id),
            &[
                ("action", "disqualify"),
                ("passe", "2"),
                ("reason", "Ansagen abgesprochen"),
            ],
        )
        .await;
    assert!(
        text(&page, ".flash")
            .contains("seine Mitspieler am Tisch erhalten ab Passe 2 die Pauschale"),
        "{}",
        text(&page, ".flash")
    );
    // The Tischliste names the four places and who left; «Wer sitzt wo» the place.
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/2/tischliste.pdf"),
    )
    .await;
    let list = pdf_pages(&pdf).join("\n");
    assert!(list.contains("Platz 1 bis 4"), "{list}");
    assert!(
        list.contains(&format!(
            "Platz 2 {} {} (ausgeschieden)",
            culprit.startnummer,
            culprit.name.as_deref().unwrap()
        )),
        "{list}"
    );
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/wer-sitzt-wo.pdf"),
    )
    .await;
    let seating = pdf_pages(&pdf).join("\n");
    assert!(seating.contains("Tisch Platz"), "{seating}");
    assert!(
        !seating.contains("A1") && !seating.contains("B2"),
        "{seating}"
    );
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/passen/2/entry"),
            &[
                ("table", &culprit_table.number.to_string()),
                ("diff_1", "1"),
                ("diff_2", "1"),
                ("diff_3", "1"),
                ("diff_4", "1"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("Pauschale"));
    assert_eq!(app.dump(), before, "nothing written");
    // The other table of Passe 2, Spiel by Spiel with two exact Ansagen at place 4.
    let other = &p2[1];
    let other_four = data.foursome(2, other).unwrap();
    let sheet = [
        [(57, 50), (40, 40), (40, 37), (30, 30)],
        [(0, 7), (100, 100), (20, 20), (30, 30)],
    ];
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/2/schaetzzettel/{}", other.number),
            &pairs(&sheet_form(&sheet, "")),
        )
        .await;
    // Passe 2's average: only this table was played: (14 + 0 + 3 + 0) / 4 = 4.25 → 5.
    for (pl, d) in other_four.iter().zip([14, 0, 3, 0]) {
        expected.entry(pl.startnummer).or_default().push(d);
    }
    for pl in culprit_four.iter().filter(|pl| pl.id != culprit.id) {
        expected.entry(pl.startnummer).or_default().push(5);
    }
    for b in data.byes(2) {
        expected.entry(b.startnummer).or_default().push(5);
    }
    let sheets = app.data(id).standblaetter();
    for s in &sheets {
        if s.team == culprit.id {
            continue;
        }
        let startnummer = Nat::of(s.startnummer).unwrap();
        assert_eq!(
            s.passe_points(),
            expected[&startnummer],
            "player {}",
            s.startnummer
        );
    }

    // A player's Standblatt: his place and the three others at his table, his own differences.
    let page = leitung
        .html(&format!("/tournaments/{id}/teams/{}", four[1].id))
        .await;
    let heads = select_all(&page, "#lines thead th");
    assert!(heads.contains(&"Platz".to_string()) && heads.contains(&"Mitspieler".to_string()));
    assert!(!heads.contains(&"Partner".to_string()), "{heads:?}");
    let line = text(&page, "#lines tbody tr[data-passe='1']");
    for other in [four[0], four[2], four[3]] {
        assert!(line.contains(other.name.as_deref().unwrap()), "{line}");
    }
    assert!(line.contains("12"), "{line}");

    // Visas: one player's visa visas his whole table (one Schätzzettel per table).
    let data = app.data(id);
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/tables/{}/visa", t1[0].number),
            &[("team", &four[3].id.to_string())],
        )
        .await;
    let visiert = |nr: Nat| {
        app.data(id)
            .standblaetter()
            .into_iter()
            .find(|s| s.startnummer == nr.get())
            .unwrap()
            .lines[0]
            .is_visiert()
    };
    assert!(four.iter().all(|pl| visiert(pl.startnummer)));
    assert!(!visiert(four2[0].startnummer));
    for (p, table) in [(1, t2.number), (2, other.number)] {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/passen/{p}/tables/{table}/visa"),
                &[],
            )
            .await;
    }
    // Final visas for all but one player: he is «nicht bewertet».
    let unvisaed = other_four[0].id;
    for pl in &data.teams {
        if pl.id == culprit.id || pl.id == unvisaed {
            continue;
        }
        let html = leitung
            .post_ok(
                &format!("/tournaments/{id}/teams/{}/final-visa", pl.id),
                &[],
            )
            .await;
        assert_eq!(text(&html, "#status"), "Endvisum");
    }
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;

    // The official Rangliste: lowest total first; on equal totals more Nuller first, then
    // the lowest Passe. Computed here from the expected differences and the typed Ansagen.
    let html = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    assert_eq!(text(&html, "#kind"), "offiziell");
    let shown: Vec<u32> = select_all(&html, "#section-1 tbody tr td:nth-child(2)")
        .iter()
        .map(|cell| cell.split(' ').next().unwrap().parse().unwrap())
        .collect();
    let mut nuller: HashMap<Nat, u32> = HashMap::new();
    for (pl, n) in four.iter().zip([1, 0, 1, 0]) {
        *nuller.entry(pl.startnummer).or_default() += n;
    }
    for (pl, n) in other_four.iter().zip([0, 2, 1, 2]) {
        *nuller.entry(pl.startnummer).or_default() += n;
    }
    let unvisaed_nr = data.team(unvisaed).unwrap().startnummer;
    let mut order: Vec<(u32, std::cmp::Reverse<u32>, Vec<u32>, u32)> = expected
        .iter()
        .filter(|(nr, _)| **nr != culprit.startnummer && **nr != unvisaed_nr)
        .map(|(nr, points)| {
            let mut sorted = points.clone();
            sorted.sort_unstable();
            (
                points.iter().sum(),
                std::cmp::Reverse(nuller.get(nr).copied().unwrap_or(0)),
                sorted,
                nr.get(),
            )
        })
        .collect();
    order.sort();
    assert_eq!(
        shown,
        order.iter().map(|o| o.3).collect::<Vec<_>>(),
        "{order:?}"
    );
    let page = html.html();
    assert!(page.contains("nicht bewertet"));
    assert!(page.contains("disqualifiziert"));

    // Exported and imported, the copy keeps the options (Nuller counted, the average as
    // Pauschale): its Rangliste is the same.
    let (_, _, export) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let doc: serde_json::Value = serde_json::from_slice(&export).unwrap();
    assert_eq!(doc["differenzler"]["count_nuller"], true);
    assert_eq!(doc["differenzler"]["pauschale_average"], true);
    let copy = import_export(&leitung, export).await;
    let copied = leitung.html(&format!("/tournaments/{copy}/ranking")).await;
    assert_eq!(
        select_all(&copied, "#section-1 tbody tr"),
        select_all(&html, "#section-1 tbody tr")
    );

    // In a Jass-Cup with normalised points the lowest total is the winner's 1000, the
    // others 1000 × the winner's total / their own.
    let r = leitung
        .post(
            "/serien",
            &[
                ("name", "Differenzler-Cup"),
                ("season", "2026"),
                ("preset", "cup"),
            ],
        )
        .await;
    let settings = location(&r);
    let series: i32 = settings.split('/').nth(2).unwrap().parse().unwrap();
    leitung
        .post_ok(
            &settings,
            &[
                ("name", "Differenzler-Cup"),
                ("season", "2026"),
                ("points", "normiert"),
                ("points_table", ""),
                ("unit", "person"),
                ("best", ""),
                ("minimum", "1"),
                ("final_factor", "1"),
                ("qualification", "keine"),
                ("qualify_value", ""),
                ("wildcards", ""),
            ],
        )
        .await;
    leitung
        .post_ok(
            &format!("/serien/{series}/turniere"),
            &[(format!("t_{id}").as_str(), "1")],
        )
        .await;
    let standings = json(&leitung, &format!("/serien/{series}/gesamtwertung.json")).await;
    let got: HashMap<String, u64> = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["names"].as_str().unwrap().to_string(),
                s["total"].as_u64().unwrap(),
            )
        })
        .collect();
    let winner = order[0].0;
    for (total, _, _, nr) in &order {
        let person = format!("Rita{nr} Huber{nr}");
        let points = (2000 * u64::from(winner) + u64::from(*total)) / (2 * u64::from(*total));
        let shown = got
            .iter()
            .find(|(names, _)| names.contains(&format!("Huber{nr}")))
            .map(|(_, t)| *t);
        assert_eq!(shown, Some(points), "{person}: {got:?}");
    }
}

/// `demo --mode differenzler`: every table played is a Schätzzettel typed Spiel by Spiel;
/// the provisional Rangliste has the lowest total first.
#[tokio::test]
async fn the_differenzler_demo_types_every_schaetzzettel_spiel_by_spiel() {
    let app = spawn_app().await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_jassturnier"))
        .args(["demo", "--mode", "differenzler"])
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
        said.contains("(Differenzler): 24 Spieler, 4 Passen à 12 Spiele"),
        "{said}"
    );
    let d = app.data(1);
    assert!(!d.results.is_empty());
    for r in &d.results {
        let sheet: serde_json::Value =
            serde_json::from_str(r.details.as_deref().expect("a sheet")).unwrap();
        assert_eq!(sheet["spiele"].as_array().unwrap().len(), 12);
    }
    let sheets = d.standblaetter();
    let under_way = d.passen_under_way();
    let totals: Vec<u32> = jassturnier::domain::standblatt::rangliste(
        jassturnier::domain::standblatt::RanglisteKind::Provisorisch,
        &sheets,
        d.tournament.wertung(),
        &|p| under_way.contains(&p),
        d.tournament.mode.facts().better,
    )
    .iter()
    .filter(|r| r.rank.is_some())
    .map(|r| r.total)
    .collect();
    assert!(totals.len() > 10, "{totals:?}");
    assert!(totals.windows(2).all(|w| w[0] <= w[1]), "{totals:?}");
}
