//! A table's result: what the office types, and a Passe result at one table with both
//! teams' points summing to 157 × Spiele.

use super::form::{FieldErrors, parse_number};
use super::mode::{Entrant, POINTS_PER_SPIEL};
use serde::Deserialize;

/// What the office types for one table, in any mode: points (Partnerschieber) or Striche
/// per category (Jassmarathon Schnellerfassung). Fields of the other mode stay empty.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct ResultForm {
    #[serde(default)]
    pub table: String,
    #[serde(default)]
    pub points_a: String,
    #[serde(default)]
    pub points_b: String,
    #[serde(default)]
    pub matches_a: String,
    #[serde(default)]
    pub matches_b: String,
    /// The version of the stored result the clerk saw; empty for a new entry.
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub berg_a: String,
    #[serde(default)]
    pub sieg_a: String,
    #[serde(default)]
    pub schneider_a: String,
    #[serde(default)]
    pub match_a: String,
    #[serde(default)]
    pub gong_a: String,
    #[serde(default)]
    pub berg_b: String,
    #[serde(default)]
    pub sieg_b: String,
    #[serde(default)]
    pub schneider_b: String,
    #[serde(default)]
    pub match_b: String,
    #[serde(default)]
    pub gong_b: String,
    /// Differenzler fast entry: the summed differences of places 1 to 4 of the table.
    #[serde(default)]
    pub diff_1: String,
    #[serde(default)]
    pub diff_2: String,
    #[serde(default)]
    pub diff_3: String,
    #[serde(default)]
    pub diff_4: String,
    /// Set when the Leitung or a Kontrolleur explicitly replaces a result that came in
    /// another way (a Tafel by a Schnellerfassung).
    #[serde(default)]
    pub replace_source: String,
    /// Why a result is corrected (optional; the Protokoll shows it).
    #[serde(default)]
    pub reason: String,
}

impl ResultForm {
    /// The Differenzler fast entry's field of a place (0 to 3).
    pub fn differenz(&self, place: usize) -> &str {
        match place {
            0 => &self.diff_1,
            1 => &self.diff_2,
            2 => &self.diff_3,
            _ => &self.diff_4,
        }
    }

    /// The stored version a correction was made against; None for a new result. A version
    /// that is no number is refused, never taken as "new".
    pub fn expected_version(&self) -> Result<Option<i32>, &'static str> {
        match self.version.trim() {
            "" => Ok(None),
            raw => raw.parse().map(Some).map_err(|_| "Ungültige Version."),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableScore {
    pub points_a: u32,
    pub points_b: u32,
    pub matches_a: u32,
    pub matches_b: u32,
}

/// Checks one table's score against the rules: the sum is exactly 157 × Spiele
/// (seed 004 §2 and §7), and each Match is a whole Spiel of 157 for the team.
pub fn check_score(score: TableScore, spiele: u32) -> Result<TableScore, FieldErrors> {
    check_score_of(score, spiele, Entrant::Team)
}

/// [`check_score`] in the words of who sits at the table (Teams, or Paare of drawn partners).
pub fn check_score_of(
    score: TableScore,
    spiele: u32,
    entrant: Entrant,
) -> Result<TableScore, FieldErrors> {
    let total = POINTS_PER_SPIEL * spiele;
    let mut errors = FieldErrors::new();
    if score.points_a + score.points_b != total {
        errors.add(
            "points_b",
            format!(
                "Die Summe beider {} ist {} statt {} ({POINTS_PER_SPIEL} × {} Spiele).",
                entrant.sides(),
                super::format::number(i64::from(score.points_a + score.points_b)),
                super::format::number(i64::from(total)),
                spiele
            ),
        );
    }
    if score.matches_a + score.matches_b > spiele {
        errors.add("matches_b", format!("Mehr Matches als Spiele ({spiele})."));
    } else {
        if score.points_a < POINTS_PER_SPIEL * score.matches_a {
            errors.add(
                "matches_a",
                format!(
                    "Mehr Matches, als die Punkte erlauben (ein Match zählt {POINTS_PER_SPIEL})."
                ),
            );
        }
        if score.points_b < POINTS_PER_SPIEL * score.matches_b {
            errors.add(
                "matches_b",
                format!(
                    "Mehr Matches, als die Punkte erlauben (ein Match zählt {POINTS_PER_SPIEL})."
                ),
            );
        }
    }
    errors.into_result(|| score)
}

/// The table number of a result form; `round` names the Passe or Spielrunde.
pub fn parse_table(raw: &str, tables: u32, round: &str) -> Result<u32, FieldErrors> {
    let mut errors = FieldErrors::new();
    let table = parse_number(&mut errors, "table", "Tisch", raw, 1, u32::MAX);
    match table {
        Some(t) if t <= tables => Ok(t),
        Some(t) => Err(FieldErrors::single(
            "table",
            format!("Tisch {t} gibt es in dieser {round} nicht (Tische 1 bis {tables})."),
        )),
        None => Err(errors),
    }
}

/// Parses the points of a result form. Only one team's points are needed: the other
/// team's are 157 × Spiele minus them. If both are given, their sum must be exact.
pub fn parse_score(form: &ResultForm, spiele: u32) -> Result<TableScore, FieldErrors> {
    parse_score_of(form, spiele, Entrant::Team)
}

/// [`parse_score`] with the messages in the words of who sits at the table ("Punkte Paar A"
/// in an Einzelschieber).
pub fn parse_score_of(
    form: &ResultForm,
    spiele: u32,
    entrant: Entrant,
) -> Result<TableScore, FieldErrors> {
    let side = entrant.side();
    let total = POINTS_PER_SPIEL * spiele;
    let mut errors = FieldErrors::new();
    let a_given = !form.points_a.trim().is_empty();
    let b_given = !form.points_b.trim().is_empty();
    if !a_given && !b_given {
        errors.add(
            "points_a",
            format!("Punkte: bitte die Punkte eines {}s eingeben.", side),
        );
        return Err(errors);
    }
    let points_a = a_given
        .then(|| {
            parse_number(
                &mut errors,
                "points_a",
                &format!("Punkte {side} A"),
                &form.points_a,
                0,
                total,
            )
        })
        .flatten();
    let points_b = b_given
        .then(|| {
            parse_number(
                &mut errors,
                "points_b",
                &format!("Punkte {side} B"),
                &form.points_b,
                0,
                total,
            )
        })
        .flatten();
    let mut matches = |field: &'static str, label: &str, raw: &str| {
        if raw.trim().is_empty() {
            Some(0)
        } else {
            parse_number(&mut errors, field, label, raw, 0, spiele)
        }
    };
    let matches_a = matches("matches_a", &format!("Matches {side} A"), &form.matches_a);
    let matches_b = matches("matches_b", &format!("Matches {side} B"), &form.matches_b);
    if !errors.is_empty() {
        return Err(errors);
    }
    let (points_a, points_b) = match (points_a, points_b) {
        (Some(a), Some(b)) => (a, b),
        (Some(a), None) => (a, total - a),
        (None, Some(b)) => (total - b, b),
        (None, None) => return Err(errors),
    };
    check_score_of(
        TableScore {
            points_a,
            points_b,
            matches_a: matches_a.unwrap_or(0),
            matches_b: matches_b.unwrap_or(0),
        },
        spiele,
        entrant,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn form(a: &str, b: &str) -> ResultForm {
        ResultForm {
            table: "1".into(),
            points_a: a.into(),
            points_b: b.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_version_is_a_number_or_nothing() {
        let mut f = form("1", "");
        assert_eq!(f.expected_version(), Ok(None));
        f.version = " 3 ".into();
        assert_eq!(f.expected_version(), Ok(Some(3)));
        f.version = "drei".into();
        assert!(f.expected_version().is_err());
    }

    #[test]
    fn one_number_gives_both_teams() {
        let s = parse_score(&form("1020", ""), 12).unwrap();
        assert_eq!((s.points_a, s.points_b), (1020, 864));
        let s = parse_score(&form("", "1'000"), 12).unwrap();
        assert_eq!((s.points_a, s.points_b), (884, 1000));
    }

    #[test]
    fn both_numbers_must_sum_to_157_per_spiel() {
        assert!(parse_score(&form("1000", "884"), 12).is_ok());
        let e = parse_score(&form("1000", "883"), 12).unwrap_err();
        assert!(e.get("points_b").unwrap().contains("1'884"));
    }

    #[test]
    fn bad_numbers_are_refused() {
        assert!(
            parse_score(&form("", ""), 12)
                .unwrap_err()
                .get("points_a")
                .is_some()
        );
        assert!(
            parse_score(&form("abc", ""), 12)
                .unwrap_err()
                .get("points_a")
                .is_some()
        );
        assert!(
            parse_score(&form("-5", ""), 12)
                .unwrap_err()
                .get("points_a")
                .is_some()
        );
        assert!(
            parse_score(&form("1885", ""), 12)
                .unwrap_err()
                .get("points_a")
                .is_some()
        );
        assert!(parse_score(&form("1884", ""), 12).is_ok());
        assert!(parse_score(&form("0", ""), 12).is_ok());
    }

    #[test]
    fn matches_must_be_possible() {
        let mut f = form("314", "");
        f.matches_a = "2".into();
        assert!(parse_score(&f, 12).is_ok());
        f.matches_a = "3".into();
        assert!(parse_score(&f, 12).unwrap_err().get("matches_a").is_some());
        f.matches_a = "13".into();
        assert!(parse_score(&f, 12).is_err());
    }

    #[test]
    fn tables_are_bounded() {
        assert_eq!(parse_table("3", 12, "Passe").unwrap(), 3);
        assert!(
            parse_table("13", 12, "Passe")
                .unwrap_err()
                .get("table")
                .unwrap()
                .contains("Tisch 13")
        );
        assert!(parse_table("0", 12, "Passe").is_err());
        assert!(parse_table("x", 12, "Passe").is_err());
    }

    proptest! {
        #[test]
        fn every_accepted_score_sums_to_157_times_spiele(spiele in 1u32..=40, a in 0u32..7000, b in proptest::option::of(0u32..7000)) {
            let f = form(&a.to_string(), &b.map(|b| b.to_string()).unwrap_or_default());
            if let Ok(score) = parse_score(&f, spiele) {
                prop_assert_eq!(score.points_a + score.points_b, 157 * spiele);
            }
        }
    }
}
