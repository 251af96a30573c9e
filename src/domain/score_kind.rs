//! What a table's result is, kind by kind: how it is typed and read, what its number is
//! called, where it is kept at the table, whether the CSV import takes it, and the form that
//! corrects it. Every difference between the kinds is an arm here; pages, use cases and
//! prints ask these methods and never match the kind themselves, so a new kind (the
//! Differenzler's four numbers per table) is a new variant and its arms in this file.
//! The kind itself is a fact of the mode ([`super::mode::ModeFacts::score_kind`]).

use super::form::FieldErrors;
use super::marathon::quick::parse_quick;
use super::marathon::{Details, Rules};
pub use super::mode::ScoreKind;
use super::mode::{Entrant, Mode};
use super::result::{ResultForm, TableScore, parse_score_of};

impl ScoreKind {
    /// Whether reading a result needs the tournament's Striche rules.
    pub fn needs_rules(self) -> bool {
        match self {
            ScoreKind::Points => false,
            ScoreKind::Striche => true,
        }
    }

    /// Whether results are counted in Striche and kept on a Tafel (at the table, on the
    /// phone and in the office's Spielrunde), rather than as one number per table.
    pub fn counts_striche(self) -> bool {
        match self {
            ScoreKind::Points => false,
            ScoreKind::Striche => true,
        }
    }

    /// Reads a typed score: team A's points (B gets the rest of 157 × `spiele`), or Striche
    /// per category (kept as the result's details).
    pub fn parse_score(
        self,
        form: &ResultForm,
        spiele: u32,
        entrant: Entrant,
        rules: Option<Rules>,
    ) -> Result<(TableScore, Option<Details>), FieldErrors> {
        match self {
            ScoreKind::Points => Ok((parse_score_of(form, spiele, entrant)?, None)),
            ScoreKind::Striche => {
                let rules = rules.unwrap_or_else(Rules::jassmarathon);
                let (a, b) = parse_quick(&rules, form)?;
                let details = Details { a, b };
                Ok((TableScore::of_striche(&details), Some(details)))
            }
        }
    }

    /// What follows a score in a message ("1'000 : 884", "5 : 1 Striche").
    pub fn after_score(self) -> &'static str {
        match self {
            ScoreKind::Points => "",
            ScoreKind::Striche => " Striche",
        }
    }

    /// Whether results of `mode` come in through the CSV import; the refusal if not.
    pub fn csv_import(self, mode: Mode) -> Result<(), String> {
        match self {
            ScoreKind::Points => Ok(()),
            ScoreKind::Striche => Err(format!(
                "Der CSV-Import gilt für Punkte-Resultate; im {} zählen die Tafeln.",
                mode.label()
            )),
        }
    }

    /// The form that corrects a stored result: its points, or its Striche per category
    /// (`details` as stored; none stored reads as no Striche).
    pub fn correction_form(
        self,
        table: u32,
        version: i32,
        score: TableScore,
        details: Option<&str>,
    ) -> ResultForm {
        match self {
            ScoreKind::Points => ResultForm::of_points(table, version, score),
            ScoreKind::Striche => {
                ResultForm::of_striche(table, version, &Details::parse(details).unwrap_or_default())
            }
        }
    }

    /// What a phone at the table may not send in this kind, and why: a Tafel where one
    /// number is reported, or one number where the Tafel is kept.
    pub fn refuses_at_table(self, sends_tafel: bool) -> Option<&'static str> {
        match (self, sends_tafel) {
            (ScoreKind::Points, true) => {
                Some("In diesem Turnier gibt es keine Tafel: bitte die Punkte eingeben.")
            }
            (ScoreKind::Striche, false) => Some("Im Jassmarathon wird am Tisch die Tafel geführt."),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_has_one_kind_and_its_behaviour_agrees() {
        for mode in Mode::ALL {
            let kind = mode.facts().score_kind;
            assert_eq!(kind.counts_striche(), mode.unit() == "Striche", "{mode:?}");
            assert_eq!(kind.needs_rules(), kind.counts_striche());
            assert_eq!(kind.csv_import(mode).is_ok(), !kind.counts_striche());
            assert_eq!(kind.after_score().is_empty(), !kind.counts_striche());
            assert!(kind.refuses_at_table(kind.counts_striche()).is_none());
            assert!(kind.refuses_at_table(!kind.counts_striche()).is_some());
        }
    }

    #[test]
    fn a_correction_form_reads_back_as_the_stored_score() {
        let striche = ScoreKind::Striche;
        let form = ResultForm {
            table: "1".into(),
            sieg_a: "4".into(),
            berg_a: "1".into(),
            match_b: "1".into(),
            ..Default::default()
        };
        let (score, details) = striche
            .parse_score(&form, 12, Entrant::Team, None)
            .expect("valid Striche");
        let stored = serde_json::to_string(&details).expect("details as stored");
        let again = striche.correction_form(1, 3, score, Some(&stored));
        assert_eq!(
            striche.parse_score(&again, 12, Entrant::Team, None),
            Ok((score, details))
        );
        let points = ScoreKind::Points;
        let form = ResultForm {
            table: "2".into(),
            points_a: "1000".into(),
            ..Default::default()
        };
        let (score, none) = points
            .parse_score(&form, 12, Entrant::Team, None)
            .expect("valid points");
        assert_eq!(none, None);
        let again = points.correction_form(2, 1, score, None);
        assert_eq!(again.points_a, "1000");
        assert_eq!(again.version, "1");
    }
}
