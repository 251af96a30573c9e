//! What a table's result is, kind by kind: how it is typed and read, what its number is
//! called, where it is kept at the table, whether the CSV import takes it, and the form that
//! corrects it. Every difference between the kinds is an arm here; pages, use cases and
//! prints ask these methods and never match the kind themselves: the Differenzler's four
//! numbers per table came in as the variant [`ScoreKind::Differenzen`] and its arms here.
//! The kind itself is a fact of the mode ([`super::mode::ModeFacts::score_kind`]).

use super::differenzler::{self, TableSheet};
use super::form::{FieldErrors, parse_number};
use super::marathon::quick::parse_quick;
use super::marathon::{Details, Rules};
pub use super::mode::ScoreKind;
use super::mode::{Entrant, Mode};
use super::result::{ResultForm, TableScore, parse_score_of};

/// The tournament's own rules a result is read against, where its kind has some.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KindRules {
    #[default]
    None,
    Striche(Rules),
    Differenzler(differenzler::Options),
}

/// Which of the tournament's rules a kind reads its results against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesSource {
    None,
    Marathon,
    Differenzler,
}

/// What a result of one kind keeps besides its two numbers (the results row's details).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultDetails {
    Striche(Details),
    Differenzen(TableSheet),
}

impl ResultDetails {
    /// As stored: the Striche or the table's sheet as JSON.
    pub fn to_json(&self) -> serde_json::Result<String> {
        match self {
            ResultDetails::Striche(d) => serde_json::to_string(d),
            ResultDetails::Differenzen(sheet) => serde_json::to_string(sheet),
        }
    }
}

/// The fields of the fast Differenzler entry, one per place at the table.
pub const DIFFERENZ_FIELDS: [&str; 4] = ["diff_1", "diff_2", "diff_3", "diff_4"];

impl ScoreKind {
    /// Which of the tournament's rules reading a result needs.
    pub fn rules_source(self) -> RulesSource {
        match self {
            ScoreKind::Points => RulesSource::None,
            ScoreKind::Striche => RulesSource::Marathon,
            ScoreKind::Differenzen => RulesSource::Differenzler,
        }
    }

    /// Whether a phone disputes a report with a note only (the office looks at the Tafel or
    /// the Schätzzettel), not with a figure of its own.
    pub fn disputed_by_note(self) -> bool {
        match self {
            ScoreKind::Points => false,
            ScoreKind::Striche | ScoreKind::Differenzen => true,
        }
    }

    /// Whether a result is four numbers, one per player (entered on the Schätzzettel page,
    /// corrected there, printed with four places).
    pub fn per_player(self) -> bool {
        match self {
            ScoreKind::Points | ScoreKind::Striche => false,
            ScoreKind::Differenzen => true,
        }
    }

    /// Whether results are counted in Striche and kept on a Tafel (at the table, on the
    /// phone and in the office's Spielrunde), rather than as one number per table.
    pub fn counts_striche(self) -> bool {
        match self {
            ScoreKind::Points | ScoreKind::Differenzen => false,
            ScoreKind::Striche => true,
        }
    }

    /// Reads a typed score: team A's points (B gets the rest of 157 × `spiele`), Striche
    /// per category, or the four players' summed differences (the last two kept as the
    /// result's details).
    pub fn parse_score(
        self,
        form: &ResultForm,
        spiele: u32,
        entrant: Entrant,
        rules: KindRules,
    ) -> Result<(TableScore, Option<ResultDetails>), FieldErrors> {
        match self {
            ScoreKind::Points => Ok((parse_score_of(form, spiele, entrant)?, None)),
            ScoreKind::Striche => {
                let rules = match rules {
                    KindRules::Striche(rules) => rules,
                    _ => Rules::jassmarathon(),
                };
                let (a, b) = parse_quick(&rules, form)?;
                let details = Details { a, b };
                Ok((
                    TableScore::of_striche(&details),
                    Some(ResultDetails::Striche(details)),
                ))
            }
            ScoreKind::Differenzen => {
                let options = match rules {
                    KindRules::Differenzler(options) => options,
                    _ => differenzler::Options::default(),
                };
                let sheet = parse_differenzen(form, spiele, options)?;
                Ok((
                    TableScore::of_differenzen(&sheet),
                    Some(ResultDetails::Differenzen(sheet)),
                ))
            }
        }
    }

    /// What follows a score in a message ("1'000 : 884", "5 : 1 Striche").
    pub fn after_score(self) -> &'static str {
        match self {
            ScoreKind::Points => "",
            ScoreKind::Striche => " Striche",
            ScoreKind::Differenzen => " Differenzpunkte",
        }
    }

    /// A stored result as a message reads it: "1'000 : 884", "5 : 1 Striche", or each
    /// place's differences "12 · 0 · 30 · 7 Differenzpunkte" (`details` as stored).
    pub fn score_text(self, points_a: u32, points_b: u32, details: Option<&str>) -> String {
        let n = |x: u32| super::format::number(i64::from(x));
        match (self, TableSheet::parse(details)) {
            (ScoreKind::Differenzen, Some(sheet)) => format!(
                "{}{}",
                sheet.differenzen.map(n).join(" · "),
                self.after_score()
            ),
            _ => format!("{} : {}{}", n(points_a), n(points_b), self.after_score()),
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
            ScoreKind::Differenzen => Err(format!(
                "Der CSV-Import gilt für Punkte-Resultate; im {} zählen die Schätzzettel.",
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
            ScoreKind::Differenzen => ResultForm::of_differenzen(
                table,
                version,
                TableSheet::parse(details).map_or([0; 4], |s| s.differenzen),
            ),
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
            (ScoreKind::Differenzen, true) => {
                Some("Im Differenzler gibt es keine Tafel: bitte die vier Differenzen eingeben.")
            }
            _ => None,
        }
    }
}

/// The fast entry's four summed differences (places 1 to 4 of the table).
fn parse_differenzen(
    form: &ResultForm,
    spiele: u32,
    options: differenzler::Options,
) -> Result<TableSheet, FieldErrors> {
    let mut errors = FieldErrors::new();
    let most = spiele.saturating_mul(options.largest());
    let mut differenzen = [0u32; 4];
    for (place, field) in DIFFERENZ_FIELDS.into_iter().enumerate() {
        let label = format!("Differenz Platz {}", place + 1);
        if let Some(d) = parse_number(&mut errors, field, &label, form.differenz(place), 0, most) {
            differenzen[place] = d;
        }
    }
    errors.into_result(|| TableSheet::of_sums(differenzen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_has_one_kind_and_its_behaviour_agrees() {
        for mode in Mode::ALL {
            let kind = mode.facts().score_kind;
            assert_eq!(kind.counts_striche(), mode.unit() == "Striche", "{mode:?}");
            assert_eq!(
                kind.rules_source() == RulesSource::None,
                kind == ScoreKind::Points
            );
            assert_eq!(kind.csv_import(mode).is_ok(), kind == ScoreKind::Points);
            assert_eq!(kind.after_score().is_empty(), kind == ScoreKind::Points);
            assert_eq!(kind.per_player(), mode.lower_wins(), "{mode:?}");
            // A phone sends what the table keeps, and nothing else.
            assert!(kind.refuses_at_table(!kind.counts_striche()).is_some());
            assert!(kind.refuses_at_table(kind.counts_striche()).is_none());
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
            .parse_score(&form, 12, Entrant::Team, KindRules::None)
            .expect("valid Striche");
        let stored = details
            .as_ref()
            .map(|d| d.to_json().expect("details as stored"));
        let again = striche.correction_form(1, 3, score, stored.as_deref());
        assert_eq!(
            striche.parse_score(&again, 12, Entrant::Team, KindRules::None),
            Ok((score, details))
        );
        let points = ScoreKind::Points;
        let form = ResultForm {
            table: "2".into(),
            points_a: "1000".into(),
            ..Default::default()
        };
        let (score, none) = points
            .parse_score(&form, 12, Entrant::Team, KindRules::None)
            .expect("valid points");
        assert_eq!(none, None);
        let again = points.correction_form(2, 1, score, None);
        assert_eq!(again.points_a, "1000");
        assert_eq!(again.version, "1");
    }

    #[test]
    fn a_differenzler_result_is_four_summed_differences() {
        let kind = ScoreKind::Differenzen;
        let form = ResultForm {
            table: "3".into(),
            diff_1: "12".into(),
            diff_2: "0".into(),
            diff_3: "1'256".into(),
            diff_4: "7".into(),
            ..Default::default()
        };
        let rules = KindRules::Differenzler(differenzler::Options::default());
        let (score, details) = kind
            .parse_score(&form, 8, Entrant::Player, rules)
            .expect("four differences");
        assert_eq!((score.points_a, score.points_b), (12, 1263));
        let Some(ResultDetails::Differenzen(sheet)) = &details else {
            panic!("the sheet is kept")
        };
        assert_eq!(sheet.differenzen, [12, 0, 1256, 7]);
        // At most 8 × 157 in 8 Spielen; every place is needed.
        let too_many = ResultForm {
            diff_3: "1257".into(),
            diff_4: "".into(),
            ..form.clone()
        };
        let e = kind
            .parse_score(&too_many, 8, Entrant::Player, rules)
            .unwrap_err();
        assert!(
            e.get("diff_3").is_some() && e.get("diff_4").is_some(),
            "{e:?}"
        );
        let stored = details.map(|d| d.to_json().expect("json"));
        let again = kind.correction_form(3, 2, score, stored.as_deref());
        assert_eq!(
            (
                again.diff_1.as_str(),
                again.diff_3.as_str(),
                again.version.as_str()
            ),
            ("12", "1256", "2")
        );
    }
}
