//! Bulk import of Passe results: `passe;startnummer;punkte`, one line per team and Passe.
//! All or nothing: the two teams of every table must both be there and sum to 157 × Spiele.
//! An optional column `art` (as the app's own export writes it) marks Pauschalen and byes:
//! those lines are skipped, because they follow from the draw and the team statuses.

use super::result::{TableScore, check_score};
use super::text_import::{ImportError, decode, read_records};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultLine {
    pub line: usize,
    pub passe: u32,
    pub startnummer: u32,
    pub points: u32,
}

/// A table being assembled: the lines of side A and side B, their (first) Startnummern,
/// and what the table holds already.
type TableLines = (Option<ResultLine>, Option<ResultLine>, u32, u32, TableState);

/// Striche of one team in one Spielrunde, at most (a plausibility bound).
pub const MAX_STRICHE: u32 = 99;

/// Where a Startnummer sits in a Passe, as the schedule says: its table, whether it plays on
/// side A, and the Startnummern that stand for side A and side B (the teams, or in the
/// Einzelschieber the players at A1 and B1); None when it has no table in that Passe.
pub struct Seated {
    pub table: u32,
    pub side_a: bool,
    pub first_a: u32,
    pub first_b: u32,
    /// What the table holds already: a file fills only tables that are open.
    pub state: TableState,
}

/// A table of the schedule as the import finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableState {
    /// No result yet: the file may fill it.
    Open,
    /// A result is stored: a correction goes through "korrigieren", not a file.
    Entered,
    /// Somebody at the table has left: the Pauschale applies, the table is not played.
    Pauschale,
}

pub type SeatLookup<'a> = dyn Fn(u32, u32) -> Option<Seated> + 'a;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportedTable {
    pub passe: u32,
    pub table: u32,
    pub score: TableScore,
    /// The file line of side A (what a problem found later names).
    pub line: usize,
}

pub fn parse_result_csv(bytes: &[u8], passen: u32) -> Result<Vec<ResultLine>, Vec<ImportError>> {
    let text = decode(bytes).map_err(|e| vec![e])?;
    let (header, rows) = read_records(&text).map_err(|e| vec![e])?;
    let position = |name: &str| header.iter().position(|h| h == name);
    let (Some(p), Some(s), Some(k)) = (
        position("passe"),
        position("startnummer").or_else(|| position("nr")),
        position("punkte"),
    ) else {
        return Err(vec![ImportError::new(
            1,
            "Kopfzeile muss «passe;startnummer;punkte» lauten.",
        )]);
    };
    if let Some(unknown) = header.iter().find(|h| {
        !matches!(
            h.as_str(),
            "passe" | "startnummer" | "nr" | "punkte" | "art"
        )
    }) {
        return Err(vec![ImportError::new(
            1,
            format!("Unbekannte Spalte «{unknown}»."),
        )]);
    }
    if rows.is_empty() {
        return Err(vec![ImportError::new(
            1,
            "Die Datei enthält keine Resultate.",
        )]);
    }
    let art = position("art");
    let mut errors = Vec::new();
    let mut lines = Vec::with_capacity(rows.len());
    for (line, fields) in rows {
        if fields.len() != header.len() {
            errors.push(ImportError::new(
                line,
                format!("{} Felder statt {}.", fields.len(), header.len()),
            ));
            continue;
        }
        match art.map(|a| fields[a].trim().to_lowercase()).as_deref() {
            None | Some("" | "gespielt") => {}
            Some("pauschale" | "spielfrei") => continue,
            Some(other) => {
                errors.push(ImportError::new(
                    line,
                    format!("Art «{other}» gibt es nicht (gespielt, pauschale oder spielfrei)."),
                ));
                continue;
            }
        }
        let number = |raw: &str, label: &str, max: u32| -> Result<u32, String> {
            match raw.replace('\'', "").parse::<u32>() {
                Ok(n) if n >= 1 || label == "Punkte" => {
                    if n <= max {
                        Ok(n)
                    } else {
                        Err(format!("{label} {n} ist zu gross (höchstens {max})."))
                    }
                }
                _ => Err(format!("{label} «{raw}» ist keine gültige Zahl.")),
            }
        };
        match (
            number(&fields[p], "Passe", passen),
            number(&fields[s], "Startnummer", u32::MAX),
            number(&fields[k], "Punkte", u32::MAX),
        ) {
            (Ok(passe), Ok(startnummer), Ok(points)) => lines.push(ResultLine {
                line,
                passe,
                startnummer,
                points,
            }),
            (a, b, c) => {
                let messages: Vec<String> =
                    [a.err(), b.err(), c.err()].into_iter().flatten().collect();
                errors.push(ImportError::new(line, messages.join(" ")));
            }
        }
    }
    if errors.is_empty() {
        Ok(lines)
    } else {
        Err(errors)
    }
}

/// Groups the lines into tables and checks them against the schedule and the 157 × n rule.
pub fn assemble(
    lines: &[ResultLine],
    seat: &SeatLookup<'_>,
    spiele: u32,
) -> Result<Vec<ImportedTable>, Vec<ImportError>> {
    let mut errors = Vec::new();
    // (passe, table) → (A's line, B's line)
    let mut tables: BTreeMap<(u32, u32), TableLines> = BTreeMap::new();
    for line in lines {
        let Some(Seated {
            table,
            side_a,
            first_a: a,
            first_b: b,
            state,
        }) = seat(line.passe, line.startnummer)
        else {
            errors.push(ImportError::new(
                line.line,
                format!("Team {} hat in Passe {} keinen Tisch (unbekannt, spielfrei oder nicht ausgelost).", line.startnummer, line.passe),
            ));
            continue;
        };
        let entry = tables
            .entry((line.passe, table))
            .or_insert((None, None, a, b, state));
        // Einzelschieber: either partner's line stands for the pair (both is one too many).
        let slot = if side_a { &mut entry.0 } else { &mut entry.1 };
        if let Some(first) = slot {
            errors.push(ImportError::new(
                line.line,
                format!(
                    "Team {} steht für Passe {} doppelt in der Datei (schon Zeile {}).",
                    line.startnummer, line.passe, first.line
                ),
            ));
        } else {
            *slot = Some(*line);
        }
    }
    let mut imported = Vec::with_capacity(tables.len());
    for ((passe, table), (a, b, nr_a, nr_b, state)) in tables {
        let first_line = a.iter().chain(b.iter()).map(|l| l.line).min().unwrap_or(0);
        match state {
            TableState::Open => {}
            TableState::Entered => {
                errors.push(ImportError::new(
                    first_line,
                    format!("Passe {passe}, Tisch {table}: es ist schon ein Resultat erfasst (ändern über «korrigieren»)."),
                ));
                continue;
            }
            TableState::Pauschale => {
                errors.push(ImportError::new(
                    first_line,
                    format!("Passe {passe}, Tisch {table}: hier gilt die Pauschale (ausgeschieden), der Tisch wird nicht gespielt. Diese Zeilen weglassen."),
                ));
                continue;
            }
        }
        match (a, b) {
            (Some(a), Some(b)) => {
                let score = TableScore {
                    points_a: a.points,
                    points_b: b.points,
                    matches_a: 0,
                    matches_b: 0,
                };
                // Spiele 0 is a Jassmarathon: the numbers are Striche, no 157 × Spiele rule.
                let checked = if spiele == 0 {
                    if score.points_a.max(score.points_b) > MAX_STRICHE {
                        Err(super::form::FieldErrors::single(
                            "points",
                            format!("Höchstens {MAX_STRICHE} Striche pro Spielrunde."),
                        ))
                    } else {
                        Ok(score)
                    }
                } else {
                    check_score(score, spiele)
                };
                match checked {
                    Ok(score) => imported.push(ImportedTable {
                        passe,
                        table,
                        score,
                        line: a.line,
                    }),
                    Err(e) => errors.push(ImportError::new(
                        b.line.max(a.line),
                        format!(
                            "Passe {passe}, Tisch {table}: {}",
                            e.messages().collect::<Vec<_>>().join(" ")
                        ),
                    )),
                }
            }
            (Some(only), None) | (None, Some(only)) => {
                let missing = if a.is_some() { nr_b } else { nr_a };
                errors.push(ImportError::new(
                    only.line,
                    format!("Passe {passe}, Tisch {table}: das Resultat des Gegners (Team {missing}) fehlt."),
                ));
            }
            (None, None) => {}
        }
    }
    errors.sort_by_key(|e| e.line);
    if errors.is_empty() {
        Ok(imported)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Passe 1: table 1 = 1 vs 2, table 2 = 3 vs 4.
    fn seat(passe: u32, nr: u32) -> Option<Seated> {
        let at = |table, a, b| Seated {
            table,
            side_a: nr == a,
            first_a: a,
            first_b: b,
            state: TableState::Open,
        };
        match (passe, nr) {
            (1, 1 | 2) => Some(at(1, 1, 2)),
            (1, 3 | 4) => Some(at(2, 3, 4)),
            _ => None,
        }
    }

    /// Passe 1 with table 1 entered, table 2 open and table 3 (5 against 6, who left) under
    /// the Pauschale.
    fn seat_with_states(passe: u32, nr: u32) -> Option<Seated> {
        let at = |table, a, b, state| Seated {
            table,
            side_a: nr == a,
            first_a: a,
            first_b: b,
            state,
        };
        match (passe, nr) {
            (1, 1 | 2) => Some(at(1, 1, 2, TableState::Entered)),
            (1, 3 | 4) => Some(at(2, 3, 4, TableState::Open)),
            (1, 5 | 6) => Some(at(3, 5, 6, TableState::Pauschale)),
            _ => None,
        }
    }

    /// Every problem with its line at once, those of the stored tournament among them: an
    /// entered table and a Pauschale table each named with the line where it starts.
    #[test]
    fn entered_and_pauschale_tables_are_named_with_their_lines_beside_the_other_problems() {
        let lines = parse_result_csv(
            b"passe;startnummer;punkte
1;3;1000
1;4;800
1;2;884
1;1;1000
1;5;900
",
            4,
        )
        .unwrap();
        let errors = assemble(&lines, &seat_with_states, 12).unwrap_err();
        let found: Vec<(usize, bool)> = errors
            .iter()
            .map(|e| (e.line, e.message.contains("Tisch")))
            .collect();
        assert_eq!(found, vec![(3, true), (4, true), (6, true)], "{errors:?}");
        assert!(errors[0].message.contains("1'884"), "{}", errors[0].message);
        assert!(
            errors[1].message.contains("schon ein Resultat"),
            "{}",
            errors[1].message
        );
        assert!(
            errors[2].message.contains("Pauschale"),
            "{}",
            errors[2].message
        );
    }

    #[test]
    fn a_complete_file_gives_tables() {
        let lines = parse_result_csv(
            b"passe;startnummer;punkte\n1;1;1000\n1;2;884\n1;4;900\n1;3;984\n",
            4,
        )
        .unwrap();
        let tables = assemble(&lines, &seat, 12).unwrap();
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[1].table, 2);
        assert_eq!(
            (tables[1].score.points_a, tables[1].score.points_b),
            (984, 900)
        );
    }

    #[test]
    fn schedule_and_sum_are_checked() {
        let lines = parse_result_csv(
            b"passe,startnummer,punkte\n1,1,1000\n1,2,880\n1,3,900\n1,9,100\n1,3,900\n",
            4,
        )
        .unwrap();
        let errors = assemble(&lines, &seat, 12).unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![3, 4, 5, 6]);
        assert!(errors[0].message.contains("1'884"));
        assert!(errors[1].message.contains("Gegners"));
        assert!(errors[2].message.contains("keinen Tisch"));
        assert!(errors[3].message.contains("doppelt"));
    }

    #[test]
    fn striche_have_no_sum_rule() {
        let lines = parse_result_csv(
            b"passe;startnummer;punkte\n1;1;7\n1;2;3\n1;3;100\n1;4;0\n",
            4,
        )
        .unwrap();
        let errors = assemble(&lines, &seat, 0).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("Striche"));
        let lines = parse_result_csv(b"passe;startnummer;punkte\n1;1;7\n1;2;3\n", 4).unwrap();
        assert_eq!(assemble(&lines, &seat, 0).unwrap()[0].score.points_a, 7);
    }

    #[test]
    fn bad_lines_are_numbered() {
        let errors =
            parse_result_csv(b"passe;startnummer;punkte\n1;1;abc\n9;2;100\n", 4).unwrap_err();
        assert_eq!(
            errors.iter().map(|e| e.line).collect::<Vec<_>>(),
            vec![2, 3]
        );
        assert!(parse_result_csv(b"passe;team;punkte\n", 4).is_err());
        assert!(parse_result_csv(b"", 4).is_err());
    }

    /// The app's own export marks Pauschalen and byes; the import skips them.
    #[test]
    fn pauschale_and_bye_lines_of_the_export_are_skipped() {
        let lines = parse_result_csv(
            b"passe;startnummer;punkte;art\n1;1;1000;gespielt\n1;2;884;gespielt\n1;3;660;Pauschale\n1;5;660;spielfrei\n",
            4,
        )
        .unwrap();
        assert_eq!(
            lines.iter().map(|l| l.startnummer).collect::<Vec<_>>(),
            vec![1, 2]
        );
        let errors =
            parse_result_csv(b"passe;startnummer;punkte;art\n1;1;1000;geschenkt\n", 4).unwrap_err();
        assert!(errors[0].message.contains("geschenkt"));
    }
}
