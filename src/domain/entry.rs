//! A typed table result, read the way the tournament's mode counts: one number of points
//! (the other team gets the rest of 157 × Spiele), Striche per category, or four players'
//! differences.

use super::differenzler::TableSheet;
use super::form::FieldErrors;
use super::marathon::Details;
use super::mode::Mode;
use super::result::{ResultForm, TableScore, parse_table};
use super::score_kind::{KindRules, ResultDetails};

/// What a typed result is checked against: the round as stored when it is saved.
#[derive(Debug, Clone, Copy)]
pub struct RoundShape {
    pub mode: Mode,
    pub tables: u32,
    pub spiele: u32,
    /// The tournament's rules for its kind of result (Striche, Differenzler options).
    pub rules: KindRules,
}

/// A typed result that fits its round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedResult {
    pub table: u32,
    pub score: TableScore,
    /// Striche per category or the players' differences, where the mode counts them.
    pub details: Option<ResultDetails>,
}

pub fn parse_result(shape: &RoundShape, form: &ResultForm) -> Result<ParsedResult, FieldErrors> {
    let table = parse_table(&form.table, shape.tables, shape.mode.round())?;
    let (score, details) = shape.mode.facts().score_kind.parse_score(
        form,
        shape.spiele,
        shape.mode.entrant(),
        shape.rules,
    )?;
    Ok(ParsedResult {
        table,
        score,
        details,
    })
}

impl TableScore {
    /// A Differenzler table as two numbers: the differences of places 1 and 2, and of 3 and
    /// 4 (the seats of the draw). Nothing is ranked by them; the places' own numbers are in
    /// the sheet.
    pub fn of_differenzen(sheet: &TableSheet) -> Self {
        let d = sheet.differenzen;
        TableScore {
            points_a: d[0] + d[1],
            points_b: d[2] + d[3],
            matches_a: 0,
            matches_b: 0,
        }
    }

    /// A result in Striche: the totals, and the Matches among them.
    pub fn of_striche(details: &Details) -> Self {
        TableScore {
            points_a: details.a.total(),
            points_b: details.b.total(),
            matches_a: details.a.matches,
            matches_b: details.b.matches,
        }
    }
}

impl ResultForm {
    /// The form of a stored Striche result, for its correction.
    pub fn of_striche(table: u32, version: i32, d: &Details) -> Self {
        let n = |x: u32| x.to_string();
        ResultForm {
            table: table.to_string(),
            version: version.to_string(),
            berg_a: n(d.a.berg),
            sieg_a: n(d.a.sieg),
            schneider_a: n(d.a.schneider),
            match_a: n(d.a.matches),
            gong_a: n(d.a.gong),
            berg_b: n(d.b.berg),
            sieg_b: n(d.b.sieg),
            schneider_b: n(d.b.schneider),
            match_b: n(d.b.matches),
            gong_b: n(d.b.gong),
            ..Default::default()
        }
    }

    /// The form of a stored Differenzler result (its four summed differences).
    pub fn of_differenzen(table: u32, version: i32, d: [u32; 4]) -> Self {
        ResultForm {
            table: table.to_string(),
            version: version.to_string(),
            diff_1: d[0].to_string(),
            diff_2: d[1].to_string(),
            diff_3: d[2].to_string(),
            diff_4: d[3].to_string(),
            ..Default::default()
        }
    }

    /// The form of a stored points result, for its correction.
    pub fn of_points(table: u32, version: i32, score: TableScore) -> Self {
        ResultForm {
            table: table.to_string(),
            version: version.to_string(),
            points_a: score.points_a.to_string(),
            points_b: score.points_b.to_string(),
            matches_a: score.matches_a.to_string(),
            matches_b: score.matches_b.to_string(),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(mode: Mode) -> RoundShape {
        RoundShape {
            mode,
            tables: 4,
            spiele: 12,
            rules: KindRules::None,
        }
    }

    #[test]
    fn points_modes_read_points() {
        let form = ResultForm {
            table: "2".into(),
            points_a: "1000".into(),
            ..Default::default()
        };
        let parsed = parse_result(&shape(Mode::Partnerschieber), &form).unwrap();
        assert_eq!(parsed.table, 2);
        assert_eq!((parsed.score.points_a, parsed.score.points_b), (1000, 884));
        assert_eq!(parsed.details, None);
        // The same form means nothing in Striche: no category was typed, which is refused
        // (not stored as 0 : 0).
        let striche = parse_result(&shape(Mode::Jassmarathon), &form).unwrap_err();
        assert!(striche.get("berg_a").is_some(), "{striche:?}");
    }

    #[test]
    fn striche_modes_read_categories_and_keep_them() {
        let form = ResultForm {
            table: "1".into(),
            sieg_a: "4".into(),
            berg_a: "1".into(),
            match_b: "1".into(),
            ..Default::default()
        };
        let parsed = parse_result(&shape(Mode::Jassmarathon), &form).unwrap();
        assert_eq!((parsed.score.points_a, parsed.score.points_b), (5, 1));
        assert_eq!(parsed.score.matches_b, 1);
        let Some(ResultDetails::Striche(d)) = parsed.details.clone() else {
            panic!("Striche kept")
        };
        assert_eq!((d.a.sieg, d.a.berg, d.b.matches), (4, 1, 1));
        let again = ResultForm::of_striche(1, 3, &d);
        assert_eq!(again.version, "3");
        assert_eq!(
            parse_result(&shape(Mode::Jassmarathon), &again).unwrap(),
            parsed
        );
    }

    #[test]
    fn the_round_word_follows_the_mode() {
        let form = ResultForm {
            table: "9".into(),
            ..Default::default()
        };
        let e = parse_result(&shape(Mode::Jassmarathon), &form).unwrap_err();
        assert!(
            e.get("table")
                .unwrap()
                .contains("in dieser Spielrunde nicht")
        );
        let e = parse_result(&shape(Mode::Partnerschieber), &form).unwrap_err();
        assert!(e.get("table").unwrap().contains("in dieser Passe nicht"));
    }

    /// An Einzelschieber's table has two Paare, not two Teams: its messages say so.
    #[test]
    fn the_side_word_follows_the_mode() {
        let form = |a: &str, b: &str| ResultForm {
            table: "1".into(),
            points_a: a.into(),
            points_b: b.into(),
            ..Default::default()
        };
        let e = parse_result(&shape(Mode::Einzelschieber), &form("1885", "")).unwrap_err();
        assert!(
            e.get("points_a").unwrap().starts_with("Punkte Paar A:"),
            "{e:?}"
        );
        let e = parse_result(&shape(Mode::Einzelschieber), &form("1000", "800")).unwrap_err();
        assert!(
            e.get("points_b")
                .unwrap()
                .starts_with("Die Summe beider Paare"),
            "{e:?}"
        );
        let e = parse_result(&shape(Mode::Partnerschieber), &form("1885", "")).unwrap_err();
        assert!(
            e.get("points_a").unwrap().starts_with("Punkte Team A:"),
            "{e:?}"
        );
    }
}
