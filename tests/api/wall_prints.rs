//! Prints for the wall: the Tischliste and "Wer sitzt wo" in large print, and no name cut
//! off anywhere.

use crate::helpers::*;

#[tokio::test]
async fn wall_prints_are_large_and_never_cut_a_name() {
    let app = spawn_app().await;
    let leitung = app.leitung().await;
    let id = create_tournament(&leitung, "3", "12").await;
    let csv = "nr;spieler1;spieler2\n\
        1;Hansjörg Würgler-Zbinden;Susanne Ammann-Gämperli\n\
        2;Vreni Bächtold;Rosmarie Bürgisser\n\
        3;Anna Müller;Urs Bär\n\
        4;Zita Zeller;Beat Aebi\n\
        5;Ämi Keller;Heidi Frei\n";
    import_teams(&leitung, id, csv.as_bytes().to_vec()).await;
    leitung
        .post_ok(
            &format!("/tournaments/{id}/draw"),
            &[("mode", "fest"), ("seed", "42")],
        )
        .await;
    let (_, _, tischliste) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/tischliste.pdf"),
    )
    .await;
    // Page header and footer are small (≤ 9 pt); the list itself is in 20 pt, only a very
    // long name shrinks (here 52 characters, to about 15 pt) instead of being cut.
    let sizes = pdf_text_sizes(&tischliste, 0);
    let large = sizes.iter().filter(|s| **s >= 20.0).count();
    assert!(
        large >= 2 * 3,
        "table numbers and names in large print: {sizes:?}"
    );
    assert!(
        sizes.iter().all(|s| *s <= 9.0 || *s >= 14.0),
        "nothing small: {sizes:?}"
    );
    let (_, _, seating) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/wer-sitzt-wo.pdf"),
    )
    .await;
    let text = pdf_pages(&seating).join("\n");
    let d = app.data(id);
    let table_of = |nr: u32| {
        d.tables(1)
            .iter()
            .find(|t| t.team_a.startnummer.get() == nr || t.team_b.startnummer.get() == nr)
            .map(|t| t.number.to_string())
            .unwrap_or_else(|| "spielfrei".into())
    };
    // In Startnummer order, each with its table.
    let order: Vec<usize> = (1..=5)
        .map(|nr| text.find(&format!("\n{nr}\n")).unwrap_or(usize::MAX))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert!(text.contains(&table_of(3)) && text.contains("spielfrei"));
    let sizes = pdf_text_sizes(&seating, 0);
    assert!(sizes.iter().all(|s| *s <= 9.0 || *s >= 14.0), "{sizes:?}");
    assert!(sizes.iter().filter(|s| **s >= 20.0).count() >= 5 * 2);
    let (_, _, by_name) = bytes(
        &leitung,
        &format!("/tournaments/{id}/passen/1/wer-sitzt-wo.pdf?order=name"),
    )
    .await;
    let text = pdf_pages(&by_name).join("\n");
    assert!(text.find("Anna Müller").unwrap() < text.find("Zita Zeller").unwrap());
    // German order: Ä with A (byte order put "Ämi" after "Zita").
    assert!(
        text.find("Ämi Keller").expect(&text) < text.find("Anna Müller").unwrap(),
        "{text}"
    );
    // No name is cut off anywhere: every PDF of the tournament, every piece of text.
    for path in [
        format!("/tournaments/{id}/standblaetter.pdf"),
        format!("/tournaments/{id}/passen/1/tischliste.pdf"),
        format!("/tournaments/{id}/passen/1/wer-sitzt-wo.pdf"),
        format!("/tournaments/{id}/startliste.pdf"),
        format!("/tournaments/{id}/ranking.pdf"),
        format!("/tournaments/{id}/passen/1/jasszettel.pdf"),
    ] {
        let (_, _, pdf) = bytes(&leitung, &path).await;
        let all = pdf_pages(&pdf).join(" ");
        assert!(!all.contains('…'), "{path}: {all}");
        let flat = all.split_whitespace().collect::<Vec<_>>().join(" ");
        for name in ["Susanne Ammann-Gämperli", "Rosmarie Bürgisser"] {
            assert!(flat.contains(name), "{path}: {name} whole in {flat}");
        }
    }
}
