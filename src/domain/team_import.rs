//! CSV import of teams: all or nothing, every bad line reported with its number.

use super::mode::Entrant;
use super::person::Geschlecht;
use super::team::{MAX_STARTNUMMER, TeamInput};
use super::text_import::{ImportError, decode, read_records};
use std::collections::HashSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Startnummer,
    Team,
    Spieler1,
    Spieler2,
    /// Einzelschieber: the player's Name and Vorname.
    Name,
    Vorname,
    Verein,
    Ort,
    /// The team's categories, e.g. "Damen, Senioren" (they must exist in the tournament).
    Kategorie,
    /// The Jahrgang of player 1 and 2 (an Einzelschieber player: the first).
    Jahrgang1,
    Jahrgang2,
    /// The Geschlecht of player 1 and 2 («w»/«m»; an Einzelschieber player: the first).
    Geschlecht1,
    Geschlecht2,
}

/// The header line of the CSV template (the app's own column names).
pub fn template_header(entrant: Entrant) -> &'static str {
    match entrant {
        Entrant::Team => "startnummer;team;spieler1;spieler2;verein;ort",
        Entrant::Player => "startnummer;name;vorname;verein;ort",
    }
}

/// The columns a file must have, with their names in messages.
fn required(entrant: Entrant) -> [(Column, &'static str, &'static str); 2] {
    match entrant {
        Entrant::Team => [
            (Column::Spieler1, "spieler1", "Spieler 1"),
            (Column::Spieler2, "spieler2", "Spieler 2"),
        ],
        Entrant::Player => [
            (Column::Name, "name", "Name"),
            (Column::Vorname, "vorname", "Vorname"),
        ],
    }
}

/// A header as typed in a spreadsheet: the app's labels ("Spieler 1", "Verein") and common
/// variants ("Name", "Club", "Nr.") are accepted; case, spaces, dots, `-` and `_` do not
/// matter.
fn column(name: &str, entrant: Entrant) -> Option<Column> {
    let key: String = name
        .chars()
        .filter(|c| !matches!(c, ' ' | '.' | '-' | '_'))
        .flat_map(char::to_lowercase)
        .collect();
    match (key.as_str(), entrant) {
        ("startnummer" | "nr" | "startnr" | "nummer", _) => Some(Column::Startnummer),
        ("verein" | "club" | "jassclub" | "klub", _) => Some(Column::Verein),
        ("ort" | "wohnort" | "gemeinde", _) => Some(Column::Ort),
        ("kategorie" | "kategorien" | "category", _) => Some(Column::Kategorie),
        ("jahrgang" | "jg", Entrant::Player) | ("jahrgang1" | "jg1", Entrant::Team) => {
            Some(Column::Jahrgang1)
        }
        ("jahrgang2" | "jg2", Entrant::Team) => Some(Column::Jahrgang2),
        ("geschlecht", Entrant::Player) | ("geschlecht1", Entrant::Team) => {
            Some(Column::Geschlecht1)
        }
        ("geschlecht2", Entrant::Team) => Some(Column::Geschlecht2),
        ("team" | "teamname" | "name" | "mannschaft", Entrant::Team) => Some(Column::Team),
        ("spieler1" | "spielerin1" | "player1" | "jasser1", Entrant::Team) => {
            Some(Column::Spieler1)
        }
        ("spieler2" | "spielerin2" | "player2" | "jasser2", Entrant::Team) => {
            Some(Column::Spieler2)
        }
        ("name" | "nachname" | "familienname", Entrant::Player) => Some(Column::Name),
        ("vorname", Entrant::Player) => Some(Column::Vorname),
        _ => None,
    }
}

/// A team read from the file, with its final Startnummer and source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedTeam {
    pub line: usize,
    pub startnummer: u32,
    pub team: TeamInput,
    /// The category names of the file's `kategorie` column (empty without one).
    pub categories: Vec<String>,
    /// The Jahrgang of seat 1 and 2 where the file gives it.
    pub jahrgang: [Option<u32>; 2],
    /// The Geschlecht of seat 1 and 2 where the file gives it.
    pub geschlecht: [Option<Geschlecht>; 2],
}

/// Parses a team CSV. `existing` are the Startnummern already taken in the tournament;
/// missing numbers are assigned after the highest one (existing or in the file).
pub fn parse_team_csv(
    bytes: &[u8],
    existing: &[u32],
    entrant: Entrant,
) -> Result<Vec<ImportedTeam>, Vec<ImportError>> {
    let text = decode(bytes).map_err(|e| vec![e])?;
    let (header, rows) = read_records(&text).map_err(|e| vec![e])?;

    let mut errors = Vec::new();
    let mut columns = Vec::with_capacity(header.len());
    for name in &header {
        match column(name, entrant) {
            Some(col) if columns.contains(&col) => errors.push(ImportError::new(
                1,
                format!("Spalte «{name}» kommt doppelt vor."),
            )),
            Some(col) => columns.push(col),
            None => errors.push(ImportError::new(
                1,
                format!(
                    "Unbekannte Spalte «{name}» (erlaubt: {}).",
                    template_header(entrant)
                        .replace("startnummer", "startnummer oder nr")
                        .replace(';', ", ")
                ),
            )),
        }
    }
    for (required, name, _) in required(entrant) {
        if !columns.contains(&required) && errors.is_empty() {
            errors.push(ImportError::new(1, format!("Die Spalte «{name}» fehlt.")));
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if rows.is_empty() {
        return Err(vec![ImportError::new(
            1,
            format!("Die Datei enthält keine {}.", entrant.many()),
        )]);
    }

    let mut taken: HashSet<u32> = existing.iter().copied().collect();
    let mut parsed = Vec::with_capacity(rows.len());
    for (line, fields) in rows {
        if fields.len() != columns.len() {
            errors.push(ImportError::new(
                line,
                format!("{} Felder statt {}.", fields.len(), columns.len()),
            ));
            continue;
        }
        let get = |col: Column| -> &str {
            columns
                .iter()
                .position(|c| *c == col)
                .map(|i| fields[i].as_str())
                .unwrap_or("")
        };
        let mut line_errors = Vec::new();
        let startnummer = match get(Column::Startnummer) {
            "" => None,
            raw => match raw.parse::<u32>() {
                Ok(n) if (1..=MAX_STARTNUMMER).contains(&n) => {
                    if !taken.insert(n) {
                        line_errors.push(format!("Startnummer {n} ist doppelt."));
                    }
                    Some(n)
                }
                _ => {
                    line_errors.push(format!("Startnummer «{raw}» ist ungültig."));
                    None
                }
            },
        };
        for (col, _, label) in required(entrant) {
            if get(col).is_empty() {
                line_errors.push(format!("{label} fehlt."));
            }
        }
        for col in [
            Column::Team,
            Column::Spieler1,
            Column::Spieler2,
            Column::Name,
            Column::Vorname,
            Column::Verein,
            Column::Ort,
        ] {
            if get(col).chars().count() > 100 {
                line_errors.push(format!(
                    "«{}…» ist zu lang (höchstens 100 Zeichen).",
                    get(col).chars().take(20).collect::<String>()
                ));
            }
        }
        if !line_errors.is_empty() {
            errors.push(ImportError::new(line, line_errors.join(" ")));
            continue;
        }
        let optional = |col: Column| Some(get(col).to_string()).filter(|s| !s.is_empty());
        let input = match entrant {
            Entrant::Team => TeamInput {
                startnummer,
                name: optional(Column::Team),
                player1: get(Column::Spieler1).to_string(),
                player2: get(Column::Spieler2).to_string(),
                club: optional(Column::Verein),
                place: optional(Column::Ort),
            },
            Entrant::Player => TeamInput::player(
                startnummer,
                get(Column::Name),
                get(Column::Vorname),
                optional(Column::Verein),
                optional(Column::Ort),
            ),
        };
        let mut jahrgang = [None, None];
        for (at, col) in [Column::Jahrgang1, Column::Jahrgang2]
            .into_iter()
            .enumerate()
        {
            let raw = get(col).trim();
            if raw.is_empty() {
                continue;
            }
            match raw.parse::<u32>() {
                Ok(j) if (1900..=2100).contains(&j) => jahrgang[at] = Some(j),
                _ => line_errors.push(format!("Jahrgang «{raw}» ist ungültig (z. B. 1954).")),
            }
        }
        let mut geschlecht = [None, None];
        for (at, col) in [Column::Geschlecht1, Column::Geschlecht2]
            .into_iter()
            .enumerate()
        {
            match Geschlecht::parse(get(col)) {
                Ok(g) => geschlecht[at] = g,
                Err(message) => line_errors.push(message),
            }
        }
        if !line_errors.is_empty() {
            errors.push(ImportError::new(line, line_errors.join(" ")));
            continue;
        }
        let categories: Vec<String> = get(Column::Kategorie)
            .split([',', '/'])
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect();
        parsed.push((line, input, categories, jahrgang, geschlecht));
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let mut next = taken.iter().copied().max().unwrap_or(0) + 1;
    let mut teams = Vec::with_capacity(parsed.len());
    for (line, team, categories, jahrgang, geschlecht) in parsed {
        let startnummer = match team.startnummer {
            Some(n) => n,
            None => {
                let n = next;
                next += 1;
                n
            }
        };
        if startnummer > MAX_STARTNUMMER {
            errors.push(ImportError::new(line, "Keine freie Startnummer mehr."));
            continue;
        }
        teams.push(ImportedTeam {
            line,
            startnummer,
            team: TeamInput {
                startnummer: Some(startnummer),
                ..team
            },
            categories,
            jahrgang,
            geschlecht,
        });
    }
    if errors.is_empty() {
        Ok(teams)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semicolon_windows_1252_file_is_imported() {
        let file = b"Nr;Team;Spieler1;Spieler2;Verein;Ort\r\n1;B\xe4renstark;Anna M\xfcller;Urs B\xe4r;JC Z\xfcrich;Z\xfcrich\r\n2;;Eva Frei;Max Frei;;Bern\r\n";
        let teams = parse_team_csv(file, &[], Entrant::Team).unwrap();
        assert_eq!(teams.len(), 2);
        assert_eq!(teams[0].team.name.as_deref(), Some("Bärenstark"));
        assert_eq!(teams[0].team.player1, "Anna Müller");
        assert_eq!(teams[0].team.place.as_deref(), Some("Zürich"));
        assert_eq!(teams[1].team.name, None);
        assert_eq!(teams[1].line, 3);
    }

    #[test]
    fn geschlecht_per_seat_or_a_message_at_the_line() {
        let file = "nr;spieler1;spieler2;geschlecht1;geschlecht2\n1;A;B;w;M\n2;C;D;;x\n";
        let errors = parse_team_csv(file.as_bytes(), &[], Entrant::Team).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(
            (errors[0].line, errors[0].message.as_str()),
            (3, "Geschlecht «x» ist ungültig (w oder m).")
        );
        let file = "nr;spieler1;spieler2;geschlecht1;geschlecht2\n1;A;B;w;M\n2;C;D;;\n";
        let teams = parse_team_csv(file.as_bytes(), &[], Entrant::Team).unwrap();
        assert_eq!(
            teams[0].geschlecht,
            [Some(Geschlecht::Frau), Some(Geschlecht::Mann)]
        );
        assert_eq!(teams[1].geschlecht, [None, None]);
        let players = "name;vorname;geschlecht\nMeier;Anna;Frau\n";
        let players = parse_team_csv(players.as_bytes(), &[], Entrant::Player).unwrap();
        assert_eq!(players[0].geschlecht, [Some(Geschlecht::Frau), None]);
    }

    #[test]
    fn missing_numbers_follow_the_highest() {
        let file = "spieler1,spieler2,startnummer\nA,B,\nC,D,7\nE,F,\n";
        let teams = parse_team_csv(file.as_bytes(), &[3, 9], Entrant::Team).unwrap();
        let numbers: Vec<u32> = teams.iter().map(|t| t.startnummer).collect();
        assert_eq!(numbers, vec![10, 7, 11]);
    }

    #[test]
    fn every_bad_line_is_reported() {
        let file = "nr;spieler1;spieler2\n1;A;B\n1;C;D\nx;E;F\n4;;G\n5;H\n";
        let errors = parse_team_csv(file.as_bytes(), &[], Entrant::Team).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![3, 4, 5, 6]);
        assert!(errors[0].message.contains("doppelt"));
        assert!(errors[1].message.contains("ungültig"));
        assert!(errors[2].message.contains("Spieler 1 fehlt"));
        assert!(errors[3].message.contains("Felder"));
    }

    #[test]
    fn existing_numbers_count_as_duplicates() {
        let errors =
            parse_team_csv(b"nr;spieler1;spieler2\n5;A;B\n", &[5], Entrant::Team).unwrap_err();
        assert_eq!(errors[0].line, 2);
    }

    #[test]
    fn header_problems_are_line_one() {
        let errors = parse_team_csv(
            b"nr;spieler1;spieler2;handy\n1;A;B;0791234567\n",
            &[],
            Entrant::Team,
        )
        .unwrap_err();
        assert_eq!(errors[0].line, 1);
        assert!(errors[0].message.contains("handy"));
        let errors = parse_team_csv(b"nr;spieler1\n1;A\n", &[], Entrant::Team).unwrap_err();
        assert!(errors[0].message.contains("spieler2"));
        assert!(parse_team_csv(b"nr;spieler1;spieler2\n", &[], Entrant::Team).is_err());
        assert!(parse_team_csv(b"", &[], Entrant::Team).is_err());
    }

    #[test]
    fn the_apps_labels_and_common_variants_are_headers() {
        let teams = parse_team_csv(
            "Nr.;Name;Spieler 1;Spieler 2;Club;Wohnort\n5;Bärenstark;Anna Müller;Urs Bär;JC Zürich;Zürich\n"
                .as_bytes(),
            &[],
            Entrant::Team,
        )
        .unwrap();
        assert_eq!(teams[0].startnummer, 5);
        assert_eq!(teams[0].team.name.as_deref(), Some("Bärenstark"));
        assert_eq!(teams[0].team.club.as_deref(), Some("JC Zürich"));
        assert!(
            parse_team_csv(
                format!("{}\n;;A;B;;\n", template_header(Entrant::Team)).as_bytes(),
                &[],
                Entrant::Team
            )
            .is_ok()
        );
    }

    #[test]
    fn einzelschieber_players_have_name_and_vorname() {
        let file =
            "Nr;Name;Vorname;Verein;Ort\n7;Muster;Hans;JC Kilchberg;Kilchberg\n;Bär;Anna;;\n";
        let players = parse_team_csv(file.as_bytes(), &[], Entrant::Player).unwrap();
        assert_eq!(players[0].startnummer, 7);
        assert_eq!(players[0].team.player1, "Muster");
        assert_eq!(players[0].team.player2, "Hans");
        assert_eq!(players[0].team.name.as_deref(), Some("Muster Hans"));
        assert_eq!(players[1].startnummer, 8);
        assert_eq!(players[1].team.club, None);
        // A team file is no player file, and a missing Vorname is reported at its line.
        let errors =
            parse_team_csv(b"nr;spieler1;spieler2\n1;A;B\n", &[], Entrant::Player).unwrap_err();
        assert!(errors[0].message.contains("spieler1"), "{errors:?}");
        let errors = parse_team_csv(b"nr;name;vorname\n1;A;\n", &[], Entrant::Player).unwrap_err();
        assert_eq!(errors[0].line, 2);
        assert!(errors[0].message.contains("Vorname fehlt"));
        let header = template_header(Entrant::Player);
        assert!(
            parse_team_csv(
                format!("{header}\n;A;B;;\n").as_bytes(),
                &[],
                Entrant::Player
            )
            .is_ok()
        );
    }
}
