//! What the office types for a Jassmarathon table: the Schnellerfassung (Striche per
//! category) and one Tafel line, each parsed and checked.

use super::{CARD_POINTS, Cards, Rules, Ruling, Side, Spiel, Striche, Trump};
use crate::domain::form::{FieldErrors, parse_number};
use crate::domain::result::ResultForm;
use serde::Deserialize;

/// Parses and checks a quick entry: plausible Striche in every category. A form with no
/// category typed is refused (the table number and Enter stored a final 0 : 0); a table
/// without any Striche is typed as an explicit 0.
pub fn parse_quick(rules: &Rules, form: &ResultForm) -> Result<(Striche, Striche), FieldErrors> {
    let typed = [
        &form.berg_a,
        &form.sieg_a,
        &form.schneider_a,
        &form.match_a,
        &form.gong_a,
        &form.berg_b,
        &form.sieg_b,
        &form.schneider_b,
        &form.match_b,
        &form.gong_b,
    ];
    if typed.iter().all(|raw| raw.trim().is_empty()) {
        return Err(FieldErrors::single(
            "berg_a",
            "Keine Striche eingegeben. Für eine Tafel ohne Striche 0 eintragen.",
        ));
    }
    let mut errors = FieldErrors::new();
    let mut number = |field: &'static str, label: &str, raw: &str| -> u32 {
        if raw.trim().is_empty() {
            0
        } else {
            parse_number(&mut errors, field, label, raw, 0, 99).unwrap_or(0)
        }
    };
    let a = Striche {
        berg: number("berg_a", "Berg A", &form.berg_a),
        sieg: number("sieg_a", "Sieg A", &form.sieg_a),
        schneider: number("schneider_a", "Schneider A", &form.schneider_a),
        matches: number("match_a", "Match A", &form.match_a),
        gong: number("gong_a", "Gong A", &form.gong_a),
    };
    let b = Striche {
        berg: number("berg_b", "Berg B", &form.berg_b),
        sieg: number("sieg_b", "Sieg B", &form.sieg_b),
        schneider: number("schneider_b", "Schneider B", &form.schneider_b),
        matches: number("match_b", "Match B", &form.match_b),
        gong: number("gong_b", "Gong B", &form.gong_b),
    };
    if !errors.is_empty() {
        return Err(errors);
    }
    let v = rules.striche;
    for (s, side) in [(&a, "a"), (&b, "b")] {
        let field = |name: &str| -> &'static str {
            match (name, side) {
                ("sieg", "a") => "sieg_a",
                ("sieg", _) => "sieg_b",
                ("schneider", "a") => "schneider_a",
                ("schneider", _) => "schneider_b",
                ("berg", "a") => "berg_a",
                ("berg", _) => "berg_b",
                ("match", "a") => "match_a",
                _ => "match_b",
            }
        };
        if v.sieg > 0 && !s.sieg.is_multiple_of(v.sieg) {
            errors.add(
                field("sieg"),
                format!(
                    "Sieg-Striche kommen in Schritten von {} (pro gewonnene Partie).",
                    v.sieg
                ),
            );
        }
        let wins = s.sieg.checked_div(v.sieg).unwrap_or(0);
        if s.schneider > wins * v.schneider {
            errors.add(
                field("schneider"),
                "Schneider gibt es nur für gewonnene Partien (höchstens einer pro Sieg).",
            );
        }
        if v.berg > 0 && !s.berg.is_multiple_of(v.berg) {
            errors.add(
                field("berg"),
                format!("Berg-Striche kommen in Schritten von {}.", v.berg),
            );
        }
        if v.matches > 0 && !s.matches.is_multiple_of(v.matches) {
            errors.add(
                field("match"),
                format!("Match-Striche kommen in Schritten von {}.", v.matches),
            );
        }
    }
    let partien =
        a.sieg.checked_div(v.sieg).unwrap_or(0) + b.sieg.checked_div(v.sieg).unwrap_or(0) + 1;
    let bergpreise =
        a.berg.checked_div(v.berg).unwrap_or(0) + b.berg.checked_div(v.berg).unwrap_or(0);
    if bergpreise > partien {
        errors.add(
            "berg_b",
            format!("Höchstens ein Bergpreis pro Partie ({partien} Partien)."),
        );
    }
    if a.gong + b.gong > v.gong {
        errors.add("gong_b", "Den Gong-Strich schreibt höchstens ein Team.");
    }
    errors.into_result(|| (a, b))
}

/// One Tafel line as typed: trump, team A's card points (or a Match), Weis, Stöck.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct SpielForm {
    #[serde(default)]
    pub trump: String,
    #[serde(default)]
    pub cards_a: String,
    /// `a` or `b` for a Match (or Kontermatch) of that team.
    #[serde(default)]
    pub match_side: String,
    #[serde(default)]
    pub weis_a: String,
    #[serde(default)]
    pub weis_b: String,
    #[serde(default)]
    pub stoeck: String,
    #[serde(default)]
    pub first: String,
    /// A ruling instead of a Spiel (key of [`Ruling`]).
    #[serde(default)]
    pub ruling: String,
}

impl SpielForm {
    pub fn of(s: &Spiel) -> Self {
        let opt = |x: u32| if x == 0 { String::new() } else { x.to_string() };
        SpielForm {
            trump: s.trump.as_str().into(),
            cards_a: match s.cards {
                Cards::Points(a) => a.to_string(),
                Cards::Match(_) => String::new(),
            },
            match_side: match s.cards {
                Cards::Match(side) => side.as_str().into(),
                Cards::Points(_) => String::new(),
            },
            weis_a: opt(s.weis_a),
            weis_b: opt(s.weis_b),
            stoeck: s.stoeck.map(|x| x.as_str().to_string()).unwrap_or_default(),
            first: s.first.map(|x| x.as_str().to_string()).unwrap_or_default(),
            ruling: s.ruling.map(|r| r.key().to_string()).unwrap_or_default(),
        }
    }
}

impl SpielForm {
    /// The line as typed: raw card points and Weis, or (`multiplied`) as the Schreiber wrote
    /// them on the Tafel, times the trump's multiplier; a multiplied value that the
    /// multiplier does not divide, or beyond 157 × it, is refused at its field.
    pub fn spiel(&self, rules: &Rules, multiplied: bool) -> Result<Spiel, FieldErrors> {
        if !multiplied || !self.ruling.trim().is_empty() {
            return Spiel::try_from(self);
        }
        let trump = self
            .trump
            .parse::<Trump>()
            .map_err(|m| FieldErrors::single("trump", m))?;
        let m = rules.multiplier(trump);
        let mut errors = FieldErrors::new();
        let mut raw = self.clone();
        for (field, label, value, max) in [
            (
                "cards_a",
                "Kartenpunkte A",
                &mut raw.cards_a,
                CARD_POINTS * m,
            ),
            ("weis_a", "Weis A", &mut raw.weis_a, 1000 * m),
            ("weis_b", "Weis B", &mut raw.weis_b, 1000 * m),
        ] {
            if value.trim().is_empty() {
                continue;
            }
            match parse_number(&mut errors, field, label, value, 0, max) {
                Some(v) if v % m == 0 => *value = (v / m).to_string(),
                Some(v) => errors.add(
                    field,
                    format!("{label}: {v} geht bei {} (×{m}) nicht auf.", trump.label()),
                ),
                None => {}
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Spiel::try_from(&raw)
    }

    /// The form of a stored line as the office types it (multiplied or raw).
    pub fn of_typed(s: &Spiel, rules: &Rules, multiplied: bool) -> Self {
        let mut form = SpielForm::of(s);
        if multiplied && s.ruling.is_none() {
            let m = rules.multiplier(s.trump);
            for value in [&mut form.cards_a, &mut form.weis_a, &mut form.weis_b] {
                if let Ok(v) = value.parse::<u32>() {
                    *value = (v * m).to_string();
                }
            }
        }
        form
    }
}

impl TryFrom<&SpielForm> for Spiel {
    type Error = FieldErrors;

    fn try_from(form: &SpielForm) -> Result<Self, Self::Error> {
        if !form.ruling.trim().is_empty() {
            return Ruling::from_key(form.ruling.trim())
                .map(Spiel::ruling)
                .ok_or_else(|| FieldErrors::single("ruling", "Unbekannter Regelentscheid."));
        }
        let mut errors = FieldErrors::new();
        let trump = form
            .trump
            .parse::<Trump>()
            .map_err(|m| errors.add("trump", m))
            .ok();
        let cards = match Side::parse(&form.match_side) {
            Some(side) => Some(Cards::Match(side)),
            None => parse_number(
                &mut errors,
                "cards_a",
                "Kartenpunkte Team A",
                &form.cards_a,
                0,
                CARD_POINTS,
            )
            .map(Cards::Points),
        };
        let mut weis = |field: &'static str, label: &str, raw: &str| {
            if raw.trim().is_empty() {
                0
            } else {
                parse_number(&mut errors, field, label, raw, 0, 1000).unwrap_or(0)
            }
        };
        let weis_a = weis("weis_a", "Weis A", &form.weis_a);
        let weis_b = weis("weis_b", "Weis B", &form.weis_b);
        match (trump, cards) {
            (Some(trump), Some(cards)) if errors.is_empty() => Ok(Spiel {
                trump,
                cards,
                weis_a,
                weis_b,
                stoeck: Side::parse(&form.stoeck),
                first: Side::parse(&form.first),
                ruling: None,
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplied_points_give_the_same_line_as_raw_points() {
        let rules = Rules::jassmarathon();
        let form = |cards: &str, weis: &str| SpielForm {
            trump: "obenabe".into(),
            cards_a: cards.into(),
            weis_a: weis.into(),
            ..Default::default()
        };
        let raw = form("80", "50").spiel(&rules, false).unwrap();
        let multiplied = form("240", "150").spiel(&rules, true).unwrap();
        assert_eq!(raw, multiplied);
        assert_eq!(SpielForm::of_typed(&raw, &rules, true).cards_a, "240");
        let e = form("241", "").spiel(&rules, true).unwrap_err();
        assert!(
            e.get("cards_a")
                .unwrap()
                .contains("geht bei Obenabe (×3) nicht auf")
        );
        assert!(
            form("472", "").spiel(&rules, true).is_err(),
            "beyond 157 × 3"
        );
    }
}
