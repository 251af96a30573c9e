//! Gabentisch and Absenden (#79): the prize list of a tournament and the order in which the
//! official Rangliste is read out at the prize giving.
//!
//! Decisions (the issue leaves them open):
//! - A prize belongs to a *place* of the official Rangliste (1., 2., … as the teams stand),
//!   not to a rank number: two teams sharing the 3rd rank take the prizes of the 3rd and 4th
//!   place, in the order the Rangliste lists them (by Startnummer). The Leitung may swap by
//!   hand at the table; the list says which place a prize belongs to.
//! - "Jeder erhält einen Preis": a text for every ranked team beyond the listed prizes.
//! - Special prizes ("beste Dame") are assigned by hand to a Startnummer and read out first,
//!   in the order they were entered; then the places from the last prize up to the winner.

use super::form::FieldErrors;
use serde::{Deserialize, Serialize};

/// At most this many prizes per tournament (a field of 5'000 with a prize for everyone still
/// uses the "others" text, not 5'000 lines).
pub const MAX_PRIZES: usize = 500;
/// A prize's text: "Gutschein Fr. 50.–", "Früchtekorb".
pub const MAX_PRIZE_TEXT: usize = 120;

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PrizeList {
    /// The prize of place 1, 2, … (index 0 is the winner's).
    #[serde(default)]
    pub by_place: Vec<String>,
    /// Every ranked team beyond the listed places gets this (None: no prize for them).
    #[serde(default)]
    pub others: Option<String>,
    #[serde(default)]
    pub special: Vec<SpecialPrize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialPrize {
    /// What it is for: "beste Dame", "ältester Teilnehmer".
    pub title: String,
    /// Who gets it: a Startnummer given by hand, or the winner of a category.
    #[serde(flatten)]
    pub to: Recipient,
    pub prize: String,
}

/// Who a special prize goes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recipient {
    Startnummer(u32),
    /// The best ranked member of the category (by its name).
    Category(String),
}

impl std::fmt::Display for Recipient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Recipient::Startnummer(n) => write!(f, "{n}"),
            Recipient::Category(name) => f.write_str(name),
        }
    }
}

/// The prize-list form: a column pasted from Excel, one prize per line from the winner down;
/// the text for all others; special prizes as "Titel; Startnummer; Preis" per line.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct PrizeForm {
    #[serde(default)]
    pub prizes: String,
    #[serde(default)]
    pub others: String,
    #[serde(default)]
    pub special: String,
}

impl PrizeForm {
    pub fn of(list: &PrizeList) -> Self {
        PrizeForm {
            prizes: list.by_place.join("\n"),
            others: list.others.clone().unwrap_or_default(),
            special: list
                .special
                .iter()
                .map(|s| format!("{}; {}; {}", s.title, s.to, s.prize))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// A prize text: trimmed, not empty (the caller skips empty lines), not too long.
fn prize_text(raw: &str) -> Result<String, String> {
    let text = raw.trim();
    if text.chars().count() > MAX_PRIZE_TEXT {
        return Err(format!("höchstens {MAX_PRIZE_TEXT} Zeichen"));
    }
    if text.chars().any(char::is_control) {
        return Err("enthält Steuerzeichen".into());
    }
    Ok(text.to_string())
}

impl PrizeList {
    /// Parses the form; `known` says whether a Startnummer belongs to the tournament,
    /// `categories` are its category names (a special prize may go to a category's winner).
    /// Excel pastes a column with tabs or a trailing "\r": both are taken as line ends.
    pub fn parse(
        form: &PrizeForm,
        known: &dyn Fn(u32) -> bool,
        categories: &[String],
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let mut by_place = Vec::new();
        let lines: Vec<&str> = form.prizes.lines().collect();
        // Trailing empty lines are nothing; an empty line inside means "no prize for that
        // place" and is refused, so that the places never shift silently.
        let last = lines.iter().rposition(|l| !l.trim().is_empty());
        for (number, line) in (1..).zip(lines.iter().take(last.map_or(0, |l| l + 1))) {
            let line = line.split('\t').next().unwrap_or_default();
            if line.trim().is_empty() {
                errors.add(
                    "prizes",
                    format!("Zeile {number}: leer — jeder Rang bis zum letzten Preis braucht einen Preis."),
                );
                continue;
            }
            match prize_text(line) {
                Ok(text) => by_place.push(text),
                Err(why) => errors.add("prizes", format!("Zeile {number}: {why}.")),
            }
        }
        if by_place.len() > MAX_PRIZES {
            errors.add(
                "prizes",
                format!(
                    "Höchstens {MAX_PRIZES} Preise; für alle übrigen gibt es das Feld darunter."
                ),
            );
        }
        let others = match prize_text(&form.others) {
            Ok(text) if text.is_empty() => None,
            Ok(text) => Some(text),
            Err(why) => {
                errors.add("others", format!("Preis für alle übrigen: {why}."));
                None
            }
        };
        let mut special = Vec::new();
        for (number, line) in (1..).zip(form.special.lines()) {
            if line.trim().is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split([';', '\t']).map(str::trim).collect();
            let [title, nr, prize] = parts.as_slice() else {
                errors.add(
                    "special",
                    format!("Zeile {number}: bitte «Titel; Startnummer; Preis» (drei Teile)."),
                );
                continue;
            };
            let category = categories
                .iter()
                .find(|c| super::category::same_name(c, nr));
            let to = match (nr.parse::<u32>(), category) {
                (_, Some(category)) => Recipient::Category(category.clone()),
                (Ok(n), None) if known(n) => Recipient::Startnummer(n),
                (Ok(n), None) => {
                    errors.add(
                        "special",
                        format!("Zeile {number}: Startnummer {n} gibt es in diesem Turnier nicht."),
                    );
                    continue;
                }
                (Err(_), None) => {
                    errors.add(
                        "special",
                        format!(
                            "Zeile {number}: «{nr}» ist weder eine Startnummer noch eine Kategorie."
                        ),
                    );
                    continue;
                }
            };
            match (prize_text(title), prize_text(prize)) {
                (Ok(title), Ok(prize)) if !title.is_empty() && !prize.is_empty() => {
                    special.push(SpecialPrize { title, to, prize });
                }
                (Ok(_), Ok(_)) => errors.add(
                    "special",
                    format!("Zeile {number}: Titel und Preis dürfen nicht leer sein."),
                ),
                (Err(why), _) | (_, Err(why)) => {
                    errors.add("special", format!("Zeile {number}: {why}."));
                }
            }
        }
        errors.into_result(|| PrizeList {
            by_place,
            others,
            special,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.by_place.is_empty() && self.others.is_none() && self.special.is_empty()
    }

    /// The prize of a place (1 = the winner), if any.
    pub fn prize_of(&self, place: usize) -> Option<&str> {
        let index = place.checked_sub(1)?;
        self.by_place
            .get(index)
            .or(self.others.as_ref())
            .map(String::as_str)
    }
}

/// One name read out at the Absenden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    /// The special prize's title, or None for a place of the Rangliste.
    pub title: Option<String>,
    /// The place in the official Rangliste (1 = winner); None for a special prize.
    pub place: Option<usize>,
    pub startnummer: u32,
    pub prize: String,
}

/// The Absenden in the order it is read out: the special prizes, then every place with a
/// prize from the last up to the winner. `ranked`: the Startnummern of the official
/// Rangliste's ranked teams, in order; `winner`: a category's winner (a special prize for
/// a category nobody of which is ranked is left out).
pub fn readout(
    list: &PrizeList,
    ranked: &[u32],
    winner: &dyn Fn(&str) -> Option<u32>,
) -> Vec<Award> {
    let special = list.special.iter().filter_map(|s| {
        let startnummer = match &s.to {
            Recipient::Startnummer(n) => *n,
            Recipient::Category(name) => winner(name)?,
        };
        Some(Award {
            title: Some(s.title.clone()),
            place: None,
            startnummer,
            prize: s.prize.clone(),
        })
    });
    let places = ranked
        .iter()
        .enumerate()
        .filter_map(|(i, &startnummer)| {
            let place = i + 1;
            list.prize_of(place).map(|prize| Award {
                title: None,
                place: Some(place),
                startnummer,
                prize: prize.to_string(),
            })
        })
        .collect::<Vec<_>>();
    special.chain(places.into_iter().rev()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn form(prizes: &str, others: &str, special: &str) -> PrizeForm {
        PrizeForm {
            prizes: prizes.into(),
            others: others.into(),
            special: special.into(),
        }
    }

    #[test]
    fn a_column_pasted_from_excel_becomes_the_prizes_from_the_winner_down() {
        let list = PrizeList::parse(
            &form(
                "Goldvreneli\r\nGutschein Fr. 100.–\tx\r\nFrüchtekorb\r\n\r\n",
                "Schoggi",
                "",
            ),
            &|_| true,
            &[],
        )
        .unwrap();
        assert_eq!(
            list.by_place,
            ["Goldvreneli", "Gutschein Fr. 100.–", "Früchtekorb"]
        );
        assert_eq!(list.prize_of(1), Some("Goldvreneli"));
        assert_eq!(list.prize_of(4), Some("Schoggi"));
        assert_eq!(list.prize_of(0), None, "there is no place 0");
    }

    #[test]
    fn bad_lines_are_named_at_their_field() {
        let e = PrizeList::parse(
            &form(
                "Goldvreneli\n\nFrüchtekorb",
                "",
                "beste Dame; 99; Blumen\nältester; x; Wein\nnur zwei; 3",
            ),
            &|n| n < 10,
            &[],
        )
        .unwrap_err();
        let messages: Vec<&str> = e.messages().collect();
        assert_eq!(
            messages,
            [
                "Zeile 2: leer — jeder Rang bis zum letzten Preis braucht einen Preis.",
                "Zeile 1: Startnummer 99 gibt es in diesem Turnier nicht.",
                "Zeile 2: «x» ist weder eine Startnummer noch eine Kategorie.",
                "Zeile 3: bitte «Titel; Startnummer; Preis» (drei Teile).",
            ]
        );
        assert!(e.get("prizes").is_some() && e.get("special").is_some());
        let long = "x".repeat(MAX_PRIZE_TEXT + 1);
        let e = PrizeList::parse(&form("", &long, ""), &|_| true, &[]).unwrap_err();
        assert!(e.get("others").unwrap().contains("höchstens 120 Zeichen"));
    }

    #[test]
    fn the_form_shows_what_was_saved() {
        let categories = ["Senioren".to_string()];
        let list = PrizeList::parse(
            &form(
                "A\nB",
                "C",
                "beste Dame; 7; Blumen\nbeste Seniorin; senioren; Wein",
            ),
            &|_| true,
            &categories,
        )
        .unwrap();
        assert_eq!(list.special[1].to, Recipient::Category("Senioren".into()));
        assert_eq!(
            PrizeList::parse(&PrizeForm::of(&list), &|_| true, &categories).unwrap(),
            list
        );
    }

    #[test]
    fn special_prizes_first_then_from_the_last_prize_up_to_the_winner() {
        let list = PrizeList {
            by_place: vec!["Gold".into(), "Silber".into(), "Bronze".into()],
            others: None,
            special: vec![SpecialPrize {
                title: "beste Dame".into(),
                to: Recipient::Startnummer(9),
                prize: "Blumen".into(),
            }],
        };
        let order: Vec<(Option<usize>, u32, String)> = readout(&list, &[4, 9, 2, 7, 5], &|_| None)
            .into_iter()
            .map(|a| (a.place, a.startnummer, a.prize))
            .collect();
        assert_eq!(
            order,
            [
                (None, 9, "Blumen".into()),
                (Some(3), 2, "Bronze".into()),
                (Some(2), 9, "Silber".into()),
                (Some(1), 4, "Gold".into()),
            ]
        );
    }

    #[test]
    fn a_category_prize_goes_to_its_winner_or_is_left_out() {
        let prize = |category: &str| SpecialPrize {
            title: format!("bester {category}"),
            to: Recipient::Category(category.into()),
            prize: "Wein".into(),
        };
        let list = PrizeList {
            special: vec![prize("Senioren"), prize("Junioren")],
            ..PrizeList::default()
        };
        let awards = readout(&list, &[4, 9], &|c| (c == "Senioren").then_some(9));
        assert_eq!(
            awards
                .iter()
                .map(|a| (a.title.as_deref(), a.startnummer))
                .collect::<Vec<_>>(),
            [(Some("bester Senioren"), 9)]
        );
    }

    proptest! {
        /// Every place with a prize is read out exactly once, from the last up; with a prize
        /// for everyone, every ranked team.
        #[test]
        fn each_place_with_a_prize_is_read_once_bottom_up(
            prizes in 0usize..12,
            ranked in 0usize..30,
            everyone in any::<bool>(),
        ) {
            let list = PrizeList {
                by_place: (1..=prizes).map(|p| format!("Preis {p}")).collect(),
                others: everyone.then(|| "Trostpreis".to_string()),
                special: Vec::new(),
            };
            let field: Vec<u32> = (1..=u32::try_from(ranked).unwrap()).collect();
            let places: Vec<usize> = readout(&list, &field, &|_| None).iter().filter_map(|a| a.place).collect();
            let expected = if everyone { ranked } else { prizes.min(ranked) };
            prop_assert_eq!(places, (1..=expected).rev().collect::<Vec<_>>());
        }
    }
}
