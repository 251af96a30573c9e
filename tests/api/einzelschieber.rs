//! A whole Einzelschieber tournament over HTTP (seed 001): players registered alone, four
//! per table drawn to seats A1 with A2 against B1 with B2, one number per table, each player
//! collecting his pair's points, visas, a disqualified player, the official Rangliste of
//! players, prints.

use crate::helpers::*;
use jassturnier::db::models::Nat;
use jassturnier::domain::sitz::Sitz;
use reqwest::StatusCode;
use scraper::Html;
use std::collections::{HashMap, HashSet};

/// An Einzelschieber tournament of `players` players (CSV with Name and Vorname, in Excel's
/// Windows-1252), drawn with a fixed schedule.
pub(crate) async fn einzel_field(leitung: &Client, players: usize, passen: &str) -> i32 {
    let id = einzel_registered(leitung, players, passen).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "7")],
        )
        .await;
    id
}

/// An Einzelschieber tournament of `players` players imported, not drawn yet.
async fn einzel_registered(leitung: &Client, players: usize, passen: &str) -> i32 {
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Einzelschieber Kilchberg"),
                ("date", "2026-11-28"),
                ("location", "Kilchberg"),
                ("mode", "einzelschieber"),
                ("passen", passen),
                ("spiele_per_passe", "8"),
                ("pauschale", "600"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let mut csv: Vec<u8> = b"Nr;Name;Vorname;Verein;Ort\r\n".to_vec();
    for n in 1..=players {
        // "Bär" in Windows-1252: B, 0xE4, r.
        csv.extend(format!("{n};B").as_bytes());
        csv.push(0xe4);
        csv.extend(format!("r{n};Hans{n};JC {};Kilchberg\r\n", n % 3).as_bytes());
    }
    let preview = import_teams(leitung, id, csv).await;
    assert!(text(&preview, ".flash").contains(&format!("{players} Spieler importiert")));
    id
}

#[tokio::test]
async fn a_whole_einzelschieber_from_import_to_official_rangliste() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_field(&leitung, 18, "3").await;
    let data = app.data(id);
    let player = |nr: u32| {
        data.teams
            .iter()
            .find(|t| t.startnummer.get() == nr)
            .unwrap()
    };
    assert_eq!(player(1).name.as_deref(), Some("Bär1 Hans1"));
    assert_eq!(
        (player(1).player1.as_str(), player(1).player2.as_str()),
        ("Bär1", "Hans1")
    );

    // The draw: every Passe four tables of four (seats A1, A2, B1, B2) and two players
    // spielfrei, nobody spielfrei twice (18 players, 3 Passen: 6 byes), no partner twice.
    let mut byes = HashSet::new();
    let mut partners = HashSet::new();
    for p in 1..=3u32 {
        let tables = data.tables(p);
        assert_eq!(tables.len(), 4);
        for t in &tables {
            let four = data.foursome(p, t).unwrap();
            let seats: Vec<Option<Sitz>> = four
                .iter()
                .map(|pl| data.seat(p, pl.id).unwrap().position)
                .collect();
            assert_eq!(seats, Sitz::ALL.map(Some).to_vec());
            for (a, b) in [(four[0].id, four[1].id), (four[2].id, four[3].id)] {
                assert!(partners.insert((a.min(b), a.max(b))), "partners twice");
            }
        }
        for b in data.byes(p) {
            assert!(byes.insert(b.id), "spielfrei twice: {}", b.startnummer);
        }
    }
    assert_eq!(byes.len(), 6);

    // The draw list prints the seed and the quality of the draw.
    let draw = leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert_eq!(text(&draw, "#seed"), "7");
    assert_eq!(text(&draw, "#q-partner"), "0");
    assert!(!text(&draw, "#q-most").is_empty());
    assert!(text(&draw, "#by-los").contains("Tisch 1 A1 · mit"));

    // Passe 1: one number per table; the pair at B gets the rest of 157 × 8 = 1'256.
    let mut expected: HashMap<Nat, Vec<u32>> = HashMap::new();
    for p in 1..=3u32 {
        for b in data.byes(p) {
            expected.entry(b.startnummer).or_default().push(600);
        }
    }
    let t1 = data.tables(1);
    for (i, t) in t1.iter().enumerate() {
        let points_a = 500 + 37 * i as u32;
        enter(&leitung, id, 1, t.number, points_a).await;
        let four = data.foursome(1, t).unwrap();
        for (k, pl) in four.iter().enumerate() {
            let points = if k < 2 { points_a } else { 1256 - points_a };
            expected.entry(pl.startnummer).or_default().push(points);
        }
    }

    // The overview counts tables, not seats: four tables of four each Passe.
    let overview = leitung.html(&format!("/tournaments/{id}")).await;
    for (passe, entered) in [(1, "4 / 4"), (2, "0 / 4")] {
        let row = select_all(&overview, &format!("tr[data-passe=\"{passe}\"] td"));
        assert_eq!(
            (row[1].as_str(), row[2].as_str()),
            ("4", entered),
            "{row:?}"
        );
    }
    assert_eq!(text(&overview, "#nav-entrants"), "Spieler");

    // Each player's Standblatt: his seat, his partner, both opponents, his pair's points.
    let t = &t1[0];
    let four = data.foursome(1, t).unwrap();
    let a2 = four[1];
    let sheet = leitung
        .html(&format!("/tournaments/{id}/teams/{}", a2.id))
        .await;
    let line = text(&sheet, "#lines tbody tr[data-passe='1']");
    assert!(line.contains("A2"), "{line}");
    assert!(line.contains(four[0].name.as_deref().unwrap()), "{line}");
    assert!(line.contains(four[2].name.as_deref().unwrap()), "{line}");
    assert!(line.contains(four[3].name.as_deref().unwrap()), "{line}");
    assert!(line.contains("500"), "{line}");

    // A visa from A2's Standblatt visas his pair's side: A1's line is visaed too, B's not.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/passen/1/tables/{}/visa", t.number),
            &[("team", &a2.id.to_string())],
        )
        .await;
    let visas = |nr: u32| {
        app.data(id)
            .standblaetter()
            .into_iter()
            .find(|s| s.startnummer == nr)
            .unwrap()
            .lines[0]
            .is_visiert()
    };
    assert!(visas(four[0].startnummer.get()) && visas(a2.startnummer.get()));
    assert!(!visas(four[2].startnummer.get()) && !visas(four[3].startnummer.get()));

    // A player disqualified in Passe 2 (before its results): his partner and both
    // opponents get the Pauschale; that table takes no result; his Standblatt ends.
    let t2 = data.tables(2);
    let culprit_table = &t2[1];
    let culprit_four = data.foursome(2, culprit_table).unwrap();
    let culprit = culprit_four[3];
    let html = leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{}/status", culprit.id),
            &[
                ("action", "disqualify"),
                ("passe", "2"),
                ("reason", "Spiel verraten"),
            ],
        )
        .await;
    let partner = culprit_four[2];
    assert!(
        text(&html, ".flash").contains(&format!(
            "Spieler disqualifiziert: sein Partner (Passe 2: {} {}) und seine Gegner erhalten ab Passe 2 die Pauschale",
            partner.startnummer,
            partner.name.as_deref().unwrap()
        )),
        "{}",
        text(&html, ".flash")
    );
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/passen/2/entry"),
            &[
                ("table", &culprit_table.number.to_string()),
                ("points_a", "600"),
            ],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("Pauschale"));
    assert_eq!(app.dump(), before, "nothing written");
    for p in 2..=3u32 {
        for t in &data.tables(p) {
            let four = data.foursome(p, t).unwrap();
            let left = four.iter().any(|pl| pl.id == culprit.id);
            if !left {
                continue;
            }
            for pl in four.iter().filter(|pl| pl.id != culprit.id) {
                expected.entry(pl.startnummer).or_default().push(600);
            }
        }
    }
    for p in 2..=3u32 {
        for (i, t) in data.tables(p).iter().enumerate() {
            let four = data.foursome(p, t).unwrap();
            if four.iter().any(|pl| pl.id == culprit.id) {
                continue;
            }
            let points_a = 400 + 53 * i as u32 + 11 * p;
            enter(&leitung, id, p, t.number, points_a).await;
            for (k, pl) in four.iter().enumerate() {
                let points = if k < 2 { points_a } else { 1256 - points_a };
                expected.entry(pl.startnummer).or_default().push(points);
            }
        }
    }
    // The culprit's table takes no result: the overview expects three of the four, as the
    // Passe's page does.
    let overview = leitung.html(&format!("/tournaments/{id}")).await;
    let row = select_all(&overview, "tr[data-passe=\"2\"] td");
    assert_eq!(
        (row[1].as_str(), row[2].as_str()),
        ("4", "3 / 3"),
        "{row:?}"
    );
    let passe = leitung.html(&format!("/tournaments/{id}/passen/2")).await;
    assert_eq!(text(&passe, "#progress"), "3 / 3 Tische erfasst");
    // The prints say so too: the Tischliste names who left and the table not played, no
    // Jasszettel is printed for it, "Wer sitzt wo" sends its three others to the Pauschale.
    let culprit_name = culprit.name.as_deref().unwrap();
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/2/tischliste.pdf"),
    )
    .await;
    let list = pdf_pages(&pdf).join("\n");
    assert!(
        list.contains(&format!("{culprit_name} (ausgeschieden)")),
        "{list}"
    );
    assert!(
        list.contains(&format!(
            "Nicht gespielt (Pauschale): Tisch {}",
            culprit_table.number
        )),
        "{list}"
    );
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/2/jasszettel.pdf"),
    )
    .await;
    let sheets = pdf_pages(&pdf);
    assert_eq!(sheets.len(), 3, "one Jasszettel per table played");
    assert!(
        sheets
            .iter()
            .all(|p| !p.contains(&format!("Tisch {}", culprit_table.number))),
        "{sheets:?}"
    );
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/2/wer-sitzt-wo.pdf"),
    )
    .await;
    let seating = pdf_pages(&pdf).join("\n");
    assert!(seating.contains("ausgeschieden"), "{seating}");
    assert_eq!(seating.matches("Pauschale").count(), 3, "{seating}");
    // The draw list keeps the draw and marks that table the same way.
    let draw = leitung.html(&format!("/tournaments/{id}/draw")).await;
    let marked = |mark: &str| {
        // Spieler, Los, Passe 1, Passe 2.
        select_all(&draw, "#by-startnummer tbody td:nth-child(4)")
            .into_iter()
            .filter(|c| {
                c.contains(&format!("Tisch {} ", culprit_table.number)) && c.ends_with(mark)
            })
            .count()
    };
    assert_eq!((marked(" · ausgeschieden"), marked(" · Pauschale")), (1, 3));
    // The Passe page: both pairs get the Pauschale (his partner too), in their own column.
    let page = leitung.html(&format!("/tournaments/{id}/passen/2")).await;
    let row = select_all(&page, &format!("#tisch-{} td", culprit_table.number));
    assert_eq!(
        (row[3].as_str(), row[4].as_str()),
        ("Pauschale", "Pauschale"),
        "{row:?}"
    );
    let partner_sheet = leitung
        .html(&format!("/tournaments/{id}/teams/{}", culprit_four[2].id))
        .await;
    assert!(text(&partner_sheet, "#lines tbody tr[data-passe='2']").contains("Pauschale"));

    // Visas of every table, then final visas of all but one player.
    let data = app.data(id);
    for p in 1..=3u32 {
        for t in data.tables(p) {
            if data.result_at(p, t.number).is_some() {
                leitung
                    .post_ok(
                        &format!("/tournaments/{id}/passen/{p}/tables/{}/visa", t.number),
                        &[],
                    )
                    .await;
            }
        }
    }
    let overview = leitung.html(&format!("/tournaments/{id}")).await;
    for passe in 1..=3u32 {
        let row = select_all(&overview, &format!("tr[data-passe=\"{passe}\"] td"));
        // From Passe 2 on the culprit's table (if he is not spielfrei) is not played.
        let played = data
            .tables(passe)
            .iter()
            .filter(|t| {
                passe == 1
                    || !data
                        .foursome(passe, t)
                        .unwrap()
                        .iter()
                        .any(|pl| pl.id == culprit.id)
            })
            .count();
        let all = format!("{played} / {played}");
        assert_eq!(
            (row[2].as_str(), row[3].as_str()),
            (&*all, &*all),
            "{row:?}"
        );
    }
    let unvisaed = player(18).id;
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
        let total: u32 = expected[&pl.startnummer].iter().sum();
        assert_eq!(text(&html, "#total").replace('\'', ""), total.to_string());
    }

    // The official Rangliste ranks players by total, then best Passe…; the unvisaed
    // player is "nicht bewertet", the disqualified one apart.
    leitung
        .post_ok(&format!("/tournaments/{id}/close"), &[])
        .await;
    let html = leitung.html(&format!("/tournaments/{id}/ranking")).await;
    assert_eq!(text(&html, "#kind"), "offiziell");
    let shown: Vec<u32> = select_all(&html, "#section-1 tbody tr td:nth-child(2)")
        .iter()
        .map(|cell| cell.split(' ').next().unwrap().parse().unwrap())
        .collect();
    let mut order: Vec<(Nat, Vec<u32>)> = expected
        .iter()
        .filter(|(nr, _)| **nr != culprit.startnummer && nr.get() != 18)
        .map(|(nr, points)| {
            let mut sorted = points.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            (*nr, sorted)
        })
        .collect();
    order.sort_by(|(na, a), (nb, b)| {
        let (ta, tb): (u32, u32) = (a.iter().sum(), b.iter().sum());
        tb.cmp(&ta).then_with(|| b.cmp(a)).then(na.cmp(nb))
    });
    assert_eq!(
        shown,
        order.iter().map(|(nr, _)| nr.get()).collect::<Vec<_>>()
    );
    let page = html.html();
    assert!(page.contains("nicht bewertet"));
    assert!(page.contains("disqualifiziert"));
    assert!(text(&html, "#section-2").contains("Bär18 Hans18"));

    // Prints: a player's Standblatt with seat and partner; the Tischliste with seats.
    let (status, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/teams/{}/standblatt.pdf", a2.id),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let pages = pdf_pages(&pdf);
    assert!(
        pages[0].contains("Sitz") && pages[0].contains("Partner"),
        "{}",
        pages[0]
    );
    assert!(pages[0].contains("A2"));
    assert!(
        pages[0].contains(four[0].name.as_deref().unwrap()),
        "{}",
        pages[0]
    );
    let (_, _, pdf) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/tischliste.pdf"),
    )
    .await;
    let list = pdf_pages(&pdf).join("\n");
    assert!(list.contains("A1") && list.contains("B2"), "{list}");
    let (_, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/ranking.csv")).await;
    assert!(String::from_utf8_lossy(&csv).contains("Hans1"));
    // ranking.json: one player by Name and Vorname, not two players.
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/ranking.json")).await;
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let first = json["teams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["startnummer"] == 1)
        .unwrap();
    assert_eq!(
        (first["name"].as_str(), first["vorname"].as_str()),
        (Some("Bär1"), Some("Hans1"))
    );
    assert!(
        first.get("player1").is_none() && first.get("player2").is_none(),
        "{first}"
    );
}

#[tokio::test]
async fn einzelschieber_registration_is_by_player_and_the_draw_needs_four() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let r = leitung
        .post(
            "/tournaments",
            &[
                ("name", "Einzel"),
                ("date", "2026-11-28"),
                ("location", "Kilchberg"),
                ("mode", "einzelschieber"),
                ("passen", "3"),
                ("spiele_per_passe", "8"),
                ("pauschale", "600"),
            ],
        )
        .await;
    let id: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let teams = leitung.html(&format!("/tournaments/{id}/teams")).await;
    assert!(attr(&teams, "label[for=player2]", "for").is_some());
    assert!(text(&teams, "#team-form").contains("Vorname"));
    assert!(select_all(&teams, "#partner-link").is_empty());
    // Name and Vorname are required, at their fields.
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/teams"),
            &[("player1", "Muster"), ("player2", " ")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let html = Html::parse_document(&r.text().await.unwrap());
    assert!(text(&html, "#player2-error").contains("Vorname"));
    assert_eq!(app.dump(), before);
    for (name, vorname) in [("Muster", "Hans"), ("Bär", "Anna"), ("Frei", "Eva")] {
        let html = leitung
            .post_ok(
                &format!("/tournaments/{id}/teams"),
                &[
                    ("player1", name),
                    ("player2", vorname),
                    ("club", "JC Kilchberg"),
                ],
            )
            .await;
        assert!(text(&html, ".flash").contains("Spieler erfasst"));
    }
    // The draw form says that a tight field takes a while and the office may go on meanwhile.
    let form = leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert!(text(&form, "#draw-duration").contains("Währenddessen kann weiter erfasst werden"));
    let r = leitung
        .post(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "1")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("mindestens vier Spieler"));
    // Partners for single registrations belong to team modes; here every player is single.
    let before = app.dump();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/singles"),
            &[("player", "Hans Muster")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("jede Passe neu ausgelost"));
    assert_eq!(app.dump(), before);
    // The template file speaks of players.
    let (_, _, csv) = bytes(&leitung, &format!("/tournaments/{id}/teams/vorlage.csv")).await;
    assert!(String::from_utf8_lossy(&csv).contains("startnummer;name;vorname;verein;ort"));
}

#[tokio::test]
async fn per_passe_einzelschieber_draws_among_the_players_still_in() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_field(&leitung, 13, "3").await;
    // Redraw per Passe: 13 players, one spielfrei.
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "pro_passe"), ("seed", "3")],
        )
        .await;
    let data = app.data(id);
    assert_eq!(data.drawn_passen(), 1);
    assert_eq!(data.byes(1).len(), 1);
    for t in data.tables(1) {
        enter(&leitung, id, 1, t.number, 600).await;
    }
    let gone = data.teams[4].id;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/teams/{gone}/status"),
            &[("action", "withdraw"), ("passe", "2"), ("reason", "krank")],
        )
        .await;
    leitung
        .post_ok(&format!("/tournaments/{id}/draw/next"), &[])
        .await;
    let data = app.data(id);
    assert_eq!(data.drawn_passen(), 2);
    // 12 players left: three full tables, nobody spielfrei, the one who left sits nowhere.
    assert_eq!(data.tables(2).len(), 3);
    assert!(data.byes(2).is_empty());
    assert!(data.seat(2, gone).is_none());
    // The draw list calls him what he is: ausgeschieden, not spielfrei.
    let list = leitung.html(&format!("/tournaments/{id}/draw")).await;
    let nr = data.team(gone).unwrap().startnummer;
    let row = select_all(&list, "tbody tr")
        .into_iter()
        .find(|r| {
            r.split_whitespace().nth(1) == Some(&nr.to_string()) || r.starts_with(&format!("{nr} "))
        })
        .unwrap_or_default();
    assert!(
        row.contains("ausgeschieden") && !row.contains("spielfrei"),
        "{row}"
    );
    let mut partners = HashSet::new();
    for p in 1..=2 {
        for t in data.tables(p) {
            let four = data.foursome(p, &t).unwrap();
            for (a, b) in [(four[0].id, four[1].id), (four[2].id, four[3].id)] {
                assert!(partners.insert((a.min(b), a.max(b))), "partners twice");
            }
        }
    }
    // Passe 1 stays as it was.
    assert_eq!(app.data(id).tables(1).len(), 3);
}

/// Who sits where in every Passe, by Startnummer: (Passe, Tisch, A1, A2, B1, B2) and the
/// spielfrei players per Passe.
fn seating(data: &jassturnier::db::tournament_data::TournamentData) -> Vec<(u32, u32, [u32; 4])> {
    let mut out = Vec::new();
    for p in 1..=data.drawn_passen() {
        for t in data.tables(p) {
            let four = data.foursome(p, &t).unwrap();
            out.push((p, t.number, four.map(|player| player.startnummer.get())));
        }
        for bye in data.byes(p) {
            out.push((p, 0, [bye.startnummer.get(); 4]));
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn drawn_passe_by_passe_an_unchanged_field_sits_as_the_fixed_plan() {
    // Each Passe drawn alone took what was left of the field and left the later ones worse
    // off (16 players over 5 Passen: repeats where the fixed plan has none).
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let fixed = einzel_registered(&leitung, 16, "5").await;
    let per_passe = einzel_registered(&leitung, 16, "5").await;
    for (id, mode) in [(fixed, "fest"), (per_passe, "pro_passe")] {
        leitung
            .post_ok(
                &format!("/tournaments/{id}/draw"),
                &[("mode", mode), ("seed", "11")],
            )
            .await;
    }
    for _ in 2..=5 {
        leitung
            .post_ok(&format!("/tournaments/{per_passe}/draw/next"), &[])
            .await;
    }
    let drawn = app.data(per_passe);
    assert_eq!(drawn.drawn_passen(), 5);
    assert_eq!(seating(&drawn), seating(&app.data(fixed)));
    let list = leitung
        .html(&format!("/tournaments/{per_passe}/draw"))
        .await;
    assert_eq!(text(&list, "#q-partner"), "0");
    assert_eq!(text(&list, "#q-meetings"), "0");
    assert_eq!(text(&list, "#q-most"), "1");
}

#[tokio::test]
async fn a_club_evening_of_twelve_says_how_many_repeats_three_tables_need() {
    // Three tables: every table of a Passe takes two players who sat together before. The
    // draw list said "mindestens nötig: 6" (counting alone) beside the draw's 18, as if the
    // draw were three times worse than it is; over 4 Passen 18 is the fewest.
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_registered(&leitung, 12, "4").await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "5")],
        )
        .await;
    let list = leitung.html(&format!("/tournaments/{id}/draw")).await;
    assert_eq!(text(&list, "#q-partner"), "0");
    assert_eq!(text(&list, "#q-meetings"), "18");
    assert_eq!(text(&list, "#q-bound"), "18");
    assert_eq!(text(&list, "#q-most"), "2");
}

#[tokio::test]
async fn an_einzelschieber_export_imports_with_its_seats_and_partners() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_field(&leitung, 9, "2").await;
    let data = app.data(id);
    let t = &data.tables(1)[0];
    enter(&leitung, id, 1, t.number, 700).await;
    let (_, _, json) = bytes(&leitung, &format!("/tournaments/{id}/export.json")).await;
    let doc: jassturnier::db::transfer::Export = serde_json::from_slice(&json).unwrap();
    assert!(doc.seats.iter().any(|s| s.seat.as_deref() == Some("B2")));
    let r = leitung
        .upload(
            "/tournaments/import",
            serde_json::to_vec(&doc).unwrap(),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let copy: i32 = location(&r).rsplit('/').next().unwrap().parse().unwrap();
    let (_, _, again) = bytes(&leitung, &format!("/tournaments/{copy}/export.json")).await;
    let mut again: jassturnier::db::transfer::Export = serde_json::from_slice(&again).unwrap();
    assert_eq!(again.audit.pop().unwrap().action, "import");
    assert_eq!(again.seats, doc.seats);
    assert_eq!(again.results, doc.results);
    // The copy scores the partners alike: A2 has A1's 700.
    let copied = app.data(copy);
    let sheets = copied.standblaetter();
    let ct = &copied.tables(1)[0];
    let four = copied.foursome(1, ct).unwrap();
    let points = |team: jassturnier::domain::ids::TeamId| {
        sheets.iter().find(|s| s.team == team).unwrap().lines[0].points()
    };
    assert_eq!(points(four[1].id), Some(700));
    assert_eq!(points(four[3].id), Some(1256 - 700));
    // A seat the app does not know is refused, nothing written.
    let mut bad = doc.clone();
    bad.seats[0].seat = Some("C1".into());
    let before = app.dump();
    let r = leitung
        .upload(
            "/tournaments/import",
            serde_json::to_vec(&bad).unwrap(),
            Some(&leitung.csrf),
        )
        .await;
    assert_ne!(r.status(), StatusCode::SEE_OTHER);
    assert!(r.text().await.unwrap().contains("Unbekannter Sitz"));
    assert_eq!(app.dump(), before);
}

/// The results CSV names any player of a pair: A2's line is pair A's points.
#[tokio::test]
async fn a_results_file_may_name_either_partner() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_field(&leitung, 8, "2").await;
    let data = app.data(id);
    let tables = data.tables(1);
    let one = data.foursome(1, &tables[0]).unwrap();
    let two = data.foursome(1, &tables[1]).unwrap();
    let csv = format!(
        "passe;startnummer;punkte\n1;{};700\n1;{};556\n1;{};1000\n1;{};256\n",
        one[1].startnummer, one[3].startnummer, two[2].startnummer, two[0].startnummer
    );
    let r = leitung
        .upload(
            &format!("/tournaments/{id}/results/import"),
            csv.into_bytes(),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let data = app.data(id);
    let first = data.result_at(1, tables[0].number).unwrap();
    assert_eq!((first.points_a.get(), first.points_b.get()), (700, 556));
    let second = data.result_at(1, tables[1].number).unwrap();
    assert_eq!((second.points_a.get(), second.points_b.get()), (256, 1000));
    // Both partners of one pair is one line too many.
    let csv = format!(
        "passe;startnummer;punkte\n2;{a1};700\n2;{a2};700\n",
        a1 = data.foursome(2, &data.tables(2)[0]).unwrap()[0].startnummer,
        a2 = data.foursome(2, &data.tables(2)[0]).unwrap()[1].startnummer,
    );
    let r = leitung
        .upload(
            &format!("/tournaments/{id}/results/import"),
            csv.into_bytes(),
            Some(&leitung.csrf),
        )
        .await;
    assert_eq!(r.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().await.unwrap().contains("doppelt"));
}

/// A player leaving in a Passe already played is asked about, naming both opponents.
#[tokio::test]
async fn leaving_in_a_played_passe_names_both_opponents() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_field(&leitung, 8, "2").await;
    let data = app.data(id);
    let t = &data.tables(1)[0];
    enter(&leitung, id, 1, t.number, 700).await;
    let four = data.foursome(1, t).unwrap();
    let r = leitung
        .post(
            &format!("/tournaments/{id}/teams/{}/status", four[1].id),
            &[("action", "disqualify"), ("passe", "1"), ("reason", "x")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let html = Html::parse_document(&r.text().await.unwrap());
    let question = text(&html, "#question");
    for opponent in [four[2], four[3]] {
        assert!(
            question.contains(opponent.name.as_deref().unwrap()),
            "{question}"
        );
    }
    assert!(question.contains("700 : 556"), "{question}");
}

/// The Turnierleitung's user, for calling use cases directly.
fn leitung_actor(conn: &mut jassturnier::db::Conn) -> jassturnier::domain::role::Actor {
    let user = jassturnier::db::users::find_by_name(conn, LEITUNG.0)
        .unwrap()
        .unwrap();
    jassturnier::domain::role::Actor {
        id: user.id,
        username: user.username,
        role: user.role,
    }
}

/// Registers a player from another office desk, one that gives up at once where it would
/// have to wait for another writer.
fn register_without_waiting(
    url: &str,
    actor: &jassturnier::domain::role::Actor,
    id: i32,
    name: &str,
) {
    let impatient = jassturnier::db::connect(url, 1).unwrap();
    let mut other = impatient.get().unwrap();
    let no_waiting = if on_postgres() {
        "SET lock_timeout = '100ms'"
    } else {
        "PRAGMA busy_timeout = 0"
    };
    diesel::connection::SimpleConnection::batch_execute(&mut *other, no_waiting).unwrap();
    let player = jassturnier::domain::team::TeamInput::player(None, name, "Fritz", None, None);
    jassturnier::app::teams::create(
        &mut other,
        actor,
        jassturnier::domain::ids::TournamentId(id),
        &player,
    )
    .expect("a registration while the draw is computed");
}

/// The Leitung draws tournament `id` (fixed schedule, seed 7) with the real computation, and
/// before each computation `meanwhile(number, database URL, actor)` runs; the outcome and how
/// many players each computation drew for.
async fn draw_with_meanwhile(
    app: &TestApp,
    id: i32,
    mut meanwhile: impl FnMut(usize, &str, &jassturnier::domain::role::Actor) + Send + 'static,
) -> (Result<(), jassturnier::app::Refusal>, Vec<usize>) {
    use jassturnier::app::draw::{EinzelInput, compute_einzel, draw_computing};
    let (pool, url) = (app.pool.clone(), app.database_url.clone());
    tokio::task::spawn_blocking(move || {
        let mut conn = pool.get().unwrap();
        let actor = leitung_actor(&mut conn);
        let mut seen = Vec::new();
        let mut compute = |input: &EinzelInput| {
            meanwhile(seen.len(), &url, &actor);
            seen.push(input.players());
            compute_einzel(input)
        };
        let outcome = draw_computing(
            &mut conn,
            &actor,
            jassturnier::domain::ids::TournamentId(id),
            jassturnier::domain::draw::DrawMode::Fest,
            7,
            &mut compute,
        );
        (outcome, seen)
    })
    .await
    .unwrap()
}

/// A tight field's schedule takes tens of seconds to draw. Meanwhile the office goes on
/// writing (the draw is computed before its write transaction, which on SQLite holds the
/// whole file); a player registered meanwhile is in the draw that is written.
#[tokio::test]
async fn a_registration_while_the_draw_is_computed_neither_waits_nor_is_left_out() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_registered(&leitung, 16, "4").await;
    let (outcome, seen) = draw_with_meanwhile(&app, id, move |computation, url, actor| {
        if computation == 0 {
            register_without_waiting(url, actor, id, "Spät");
        }
    })
    .await;
    outcome.unwrap();
    // Drawn for 16, found 17 at the write, drawn again for 17 and written.
    assert_eq!(seen, [16, 17]);
    let data = app.data(id);
    let late = data.teams.iter().find(|t| t.player1 == "Spät").unwrap();
    for passe in 1..=4 {
        assert!(data.seat(passe, late.id).is_some(), "Passe {passe}");
        let seated: usize = data.tables(passe).len() * 4 + data.byes(passe).len();
        assert_eq!(seated, 17, "Passe {passe}");
    }
}

/// A draw overtaken by a registration every time it is computed gives up after a few tries
/// and says so; it writes nothing, and the tournament stays undrawn.
#[tokio::test]
async fn a_draw_overtaken_again_and_again_is_refused_and_writes_nothing() {
    use jassturnier::app::Refusal;

    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_registered(&leitung, 16, "4").await;
    let (refusal, seen) = draw_with_meanwhile(&app, id, move |computation, url, actor| {
        register_without_waiting(url, actor, id, &format!("Spät{}", computation + 1));
    })
    .await;
    assert_eq!(seen.len(), 3);
    match refusal {
        Err(Refusal::Conflict(message)) => {
            assert!(message.contains("Bitte nochmals auslosen"), "{message}")
        }
        other => panic!("expected a conflict, got {other:?}"),
    }
    let data = app.data(id);
    assert_eq!(data.teams.len(), 19);
    assert!(data.seats.is_empty());
    assert!(data.tournament.draw_seed.is_none());
    assert!(data.teams.iter().all(|t| t.los.is_none()));
}

/// The partner of a player who left: his Standblatt marks the player "(ausgeschieden)" where
/// the Pauschale comes from him.
#[tokio::test]
async fn the_partners_standblatt_marks_the_player_who_left() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = einzel_field(&leitung, 8, "2").await;
    let data = app.data(id);
    let t = &data.tables(1)[0];
    let four = data.foursome(1, t).unwrap();
    let (gone, partner) = (four[1].clone(), four[0].clone());
    let path = format!("/tournaments/{id}/teams/{}/status", gone.id);
    let mut form = vec![
        ("action", "withdraw".to_string()),
        ("passe", "1".to_string()),
        ("reason", String::new()),
    ];
    let partner_label = format!(
        "{} {}",
        partner.startnummer,
        partner.name.as_deref().unwrap()
    );
    let r = loop {
        let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = leitung.post(&path, &fields).await;
        if r.status() != StatusCode::OK {
            break r;
        }
        let page = Html::parse_document(&r.text().await.unwrap());
        // The confirmation names the partner who gets the Pauschale.
        let changes = text(&page, "#changes");
        assert!(
            changes.contains(&format!(
                "Passe 1: sein Partner {partner_label} erhält die Pauschale"
            )),
            "{changes}"
        );
        let version = attr(&page, "input[name=confirm]", "value").expect("a confirmation");
        form.push(("confirm", version));
    };
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let flash = text(&leitung.html(&location(&r)).await, ".flash");
    assert!(
        flash.contains(&format!("sein Partner (Passe 1: {partner_label}")),
        "{flash}"
    );
    let sheet = leitung
        .html(&format!("/tournaments/{id}/teams/{}", partner.id))
        .await;
    let line = text(&sheet, "tr[data-passe='1']");
    let label = format!("{} {}", gone.startnummer, gone.name.as_deref().unwrap());
    assert!(
        line.contains(&format!("{label} (ausgeschieden)")),
        "{label}: {line}"
    );
    let own = leitung
        .html(&format!("/tournaments/{id}/teams/{}", four[2].id))
        .await;
    let opponent_line = text(&own, "tr[data-passe='1']");
    assert!(
        !opponent_line.contains(&format!("{} (ausgeschieden)", four[3].startnummer)),
        "{opponent_line}"
    );
}
