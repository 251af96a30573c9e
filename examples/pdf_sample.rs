use jassturnier::pdf::Header;
use jassturnier::pdf::documents::*;
fn header() -> Header {
    Header { title: "Herbstturnier Zürich".into(), subtitle: "Rangliste".into(), footer: "22.11.2026, Zürich · gedruckt 22.11.2026 17:45".into() }
}
fn main() {
    let sheets: Vec<Sheet> = (1..=2).map(|n| Sheet {
        startnummer: n, team: "Bärenstark".into(), players: "Anna Müller / Urs Bär".into(), club: "JC Zürich, Zürich".into(), los: "7".into(),
        url: format!("http://127.0.0.1:8080/tournaments/1/teams/{n}"),
        lines: (1..=4).map(|p| SheetLine { round: p, table: p.to_string(), opponent: "12 Röselijasser".into(), points: if p < 3 { "1'020".into() } else { String::new() }, visa: if p < 2 { "kontrolle 14:02".into() } else { String::new() } }).collect(),
        total: "2'040".into(), final_visa: String::new() }).collect();
    std::fs::write("/tmp/standblatt.pdf", standblaetter(header(), "Passe", &sheets)).unwrap();
    let rows: Vec<RankRow> = (1..=80).map(|i| RankRow { rank: format!("{i}."), startnummer: i, team: format!("Team Nummer {i} · Käthi Frei / Jürg Bär"), rounds: vec!["1'200".into(); 8], total: "9'600".into() }).collect();
    std::fs::write("/tmp/rangliste.pdf", rangliste(header(), true, "Passe", 8, &[RankSection { title: None, rows }, RankSection { title: Some("nicht bewertet".into()), rows: vec![] }])).unwrap();
    let tables: Vec<TableEntry> = (1..=3).map(|n| TableEntry { number: n, team_a: "3 Bärenstark".into(), team_b: "8 Die Schellen-Asse".into() }).collect();
    std::fs::write("/tmp/jasszettel.pdf", jasszettel(header(), 2, 12, "1'884", &tables)).unwrap();
    std::fs::write("/tmp/tischliste.pdf", tischliste(header(), "Passe 2", &tables, &["5 Undenufe".to_string()])).unwrap();
    let doc = lopdf::Document::load_mem(&std::fs::read("/tmp/rangliste.pdf").unwrap()).unwrap();
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    println!("pages {:?}", pages.len());
    println!("{}", doc.extract_text(&[1]).unwrap_or_else(|e| format!("ERR {e}")).chars().take(400).collect::<String>());
    let doc = lopdf::Document::load_mem(&std::fs::read("/tmp/standblatt.pdf").unwrap()).unwrap();
    println!("{}", doc.extract_text(&[1]).unwrap_or_else(|e| format!("ERR {e}")).chars().take(400).collect::<String>());
}
