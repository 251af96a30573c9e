//! Tournament settings: mode, format, Pauschale.

use super::form::{FieldErrors, parse_number, parse_required_text, parse_text};
use super::mode::{Mode, POINTS_PER_SPIEL};
use super::streichresultat::Wertung;
use chrono::NaiveDate;
use serde::Deserialize;

pub const MAX_PASSEN: u32 = 30;
pub const MAX_SPIELE_PER_PASSE: u32 = 40;
/// Vereinswertung: more than this many teams per club is a club championship of its own.
pub const MAX_CLUB_BEST: u32 = 20;

/// Pauschale from the examples in seed 004 §9, where the format matches one.
/// (The seed's "3 à 12 → 660" does not fit "4 à 12 → 1000"; it is taken as written.)
pub fn preset_pauschale(passen: u32, spiele_per_passe: u32) -> Option<u32> {
    match (passen, spiele_per_passe) {
        (4, 12) => Some(1000),
        (4, 8) | (3, 12) => Some(660),
        _ => None,
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct TournamentForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub location: String,
    #[serde(default)]
    pub mode: String,
    #[serde(default)]
    pub passen: String,
    #[serde(default)]
    pub spiele_per_passe: String,
    #[serde(default)]
    pub pauschale: String,
    /// Checkbox: every table result is entered twice, blind.
    #[serde(default)]
    pub double_entry: Option<String>,
    /// Checkbox: one account may make both entries.
    #[serde(default)]
    pub double_entry_same_user: Option<String>,
    /// Checkbox: the per-Passe draw keeps teams of the same Verein apart where possible.
    #[serde(default)]
    pub separate_clubs: Option<String>,
    /// Streichresultat: "die besten … Passen zählen"; empty: every Passe counts.
    #[serde(default)]
    pub counted_best: String,
    /// Vereinswertung: "die besten … Teams pro Verein"; empty: no club ranking.
    #[serde(default)]
    pub club_best: String,
    /// Jassmarathon rules; empty fields take the seed's values.
    #[serde(flatten)]
    pub marathon: MarathonForm,
    /// Differenzler checkboxes: a Match counts 257, Stöck count 20, exact Ansagen are counted
    /// as Nuller (the first tie-break).
    #[serde(default)]
    pub d_match: Option<String>,
    #[serde(default)]
    pub d_stoeck: Option<String>,
    #[serde(default)]
    pub d_nuller: Option<String>,
}

/// The Jassmarathon settings of the tournament form (seed 003 presets when empty).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct MarathonForm {
    #[serde(default)]
    pub round_minutes: String,
    #[serde(default)]
    pub target: String,
    #[serde(default)]
    pub berg: String,
    #[serde(default)]
    pub match_bonus: String,
    #[serde(default)]
    pub mult_eichel: String,
    #[serde(default)]
    pub mult_rose: String,
    #[serde(default)]
    pub mult_schelle: String,
    #[serde(default)]
    pub mult_schilte: String,
    #[serde(default)]
    pub mult_obenabe: String,
    #[serde(default)]
    pub mult_undenufe: String,
    #[serde(default)]
    pub striche_match: String,
    #[serde(default)]
    pub striche_berg: String,
    #[serde(default)]
    pub striche_sieg: String,
    #[serde(default)]
    pub striche_schneider: String,
    #[serde(default)]
    pub striche_gong: String,
}

impl MarathonForm {
    pub fn of(r: &super::marathon::Rules) -> Self {
        let s = |x: u32| x.to_string();
        MarathonForm {
            round_minutes: s(r.round_minutes),
            target: s(r.target),
            berg: s(r.berg),
            match_bonus: s(r.match_bonus),
            mult_eichel: s(r.multipliers[0]),
            mult_rose: s(r.multipliers[1]),
            mult_schelle: s(r.multipliers[2]),
            mult_schilte: s(r.multipliers[3]),
            mult_obenabe: s(r.multipliers[4]),
            mult_undenufe: s(r.multipliers[5]),
            striche_match: s(r.striche.matches),
            striche_berg: s(r.striche.berg),
            striche_sieg: s(r.striche.sieg),
            striche_schneider: s(r.striche.schneider),
            striche_gong: s(r.striche.gong),
        }
    }

    fn parse(&self, errors: &mut FieldErrors) -> super::marathon::Rules {
        let preset = super::marathon::Rules::jassmarathon();
        let mut n =
            |field: &'static str, label: &str, raw: &str, default: u32, min: u32, max: u32| {
                if raw.trim().is_empty() {
                    default
                } else {
                    parse_number(errors, field, label, raw, min, max).unwrap_or(default)
                }
            };
        let m = preset.multipliers;
        let rules = super::marathon::Rules {
            round_minutes: n(
                "round_minutes",
                "Dauer einer Spielrunde",
                &self.round_minutes,
                preset.round_minutes,
                5,
                600,
            ),
            target: n(
                "target",
                "Partie bis",
                &self.target,
                preset.target,
                100,
                10_000,
            ),
            berg: n("berg", "Bergpreis bei", &self.berg, preset.berg, 50, 10_000),
            match_bonus: n(
                "match_bonus",
                "Matchprämie",
                &self.match_bonus,
                preset.match_bonus,
                0,
                1000,
            ),
            multipliers: [
                n("mult_eichel", "Eichel", &self.mult_eichel, m[0], 1, 10),
                n("mult_rose", "Rose", &self.mult_rose, m[1], 1, 10),
                n("mult_schelle", "Schelle", &self.mult_schelle, m[2], 1, 10),
                n("mult_schilte", "Schilte", &self.mult_schilte, m[3], 1, 10),
                n("mult_obenabe", "Obenabe", &self.mult_obenabe, m[4], 1, 10),
                n(
                    "mult_undenufe",
                    "Undenufe",
                    &self.mult_undenufe,
                    m[5],
                    1,
                    10,
                ),
            ],
            striche: super::marathon::StricheValues {
                matches: n(
                    "striche_match",
                    "Striche Match",
                    &self.striche_match,
                    1,
                    0,
                    10,
                ),
                berg: n(
                    "striche_berg",
                    "Striche Bergpreis",
                    &self.striche_berg,
                    1,
                    0,
                    10,
                ),
                sieg: n("striche_sieg", "Striche Sieg", &self.striche_sieg, 2, 0, 10),
                schneider: n(
                    "striche_schneider",
                    "Striche Schneider",
                    &self.striche_schneider,
                    1,
                    0,
                    10,
                ),
                gong: n("striche_gong", "Striche Gong", &self.striche_gong, 1, 0, 10),
            },
        };
        if rules.berg >= rules.target {
            errors.add(
                "berg",
                "Der Bergpreis muss unter dem Ziel der Partie liegen.",
            );
        }
        rules
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentSettings {
    pub name: String,
    pub date: NaiveDate,
    pub location: String,
    pub mode: Mode,
    pub passen: u32,
    /// Zero in Jassmarathon, where a Spielrunde is timed, not counted in Spiele.
    pub spiele_per_passe: u32,
    pub pauschale: u32,
    pub double_entry: bool,
    pub double_entry_same_user: bool,
    pub separate_clubs: bool,
    /// Streichresultat: which Passen count for the Rangliste.
    pub wertung: Wertung,
    /// Vereinswertung: the best this many teams (players) of each club count.
    pub club_best: Option<u32>,
    /// Modes counted in Striche only.
    pub marathon: Option<super::marathon::Rules>,
    /// The Differenzler only.
    pub differenzler: Option<super::differenzler::Rules>,
}

impl TournamentSettings {
    /// The sum both teams of a table write in one Passe: 157 × Spiele (0 where the mode
    /// checks no sum).
    pub fn passe_total(&self) -> u32 {
        self.mode.table_total(self.spiele_per_passe).unwrap_or(0)
    }
}

/// The Streichresultat field: empty for every Passe, else how many of the best count — at
/// least one and fewer than the tournament has (all of them is the same as empty).
fn parse_wertung(
    errors: &mut FieldErrors,
    raw: &str,
    passen: Option<u32>,
    rounds: &str,
) -> Wertung {
    if raw.trim().is_empty() {
        return Wertung::Alle;
    }
    let label = format!("Gewertete {rounds}");
    match passen {
        Some(p) if p < 2 => {
            errors.add(
                "counted_best",
                format!("{label}: ein Streichresultat braucht mindestens 2 {rounds}; leer lassen."),
            );
            Wertung::Alle
        }
        Some(p) => parse_number(errors, "counted_best", &label, raw, 1, p - 1)
            .map_or(Wertung::Alle, Wertung::Beste),
        // The number of Passen is wrong and has its own message.
        None => Wertung::Alle,
    }
}

pub fn parse_date(raw: &str) -> Option<NaiveDate> {
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(raw, "%d.%m.%Y"))
        .ok()
}

impl TryFrom<&TournamentForm> for TournamentSettings {
    type Error = FieldErrors;

    fn try_from(form: &TournamentForm) -> Result<Self, Self::Error> {
        let mut errors = FieldErrors::new();
        let name = parse_required_text(&mut errors, "name", "Name", &form.name, 200);
        let location = parse_text(&mut errors, "location", "Ort", &form.location, 200);
        let date = parse_date(&form.date);
        if date.is_none() {
            errors.add("date", "Datum: bitte als TT.MM.JJJJ eingeben.");
        }
        let mode = match form.mode.parse::<Mode>() {
            Ok(mode) => Some(mode),
            Err(message) => {
                errors.add("mode", message);
                None
            }
        };
        let round_label = mode.map_or("Passen", Mode::rounds);
        let sum_checked = mode.is_none_or(|m| m.facts().table_sum_checked);
        let striche = mode.is_some_and(|m| m.facts().score_kind.counts_striche());
        let differenzen = mode.is_some_and(|m| m.facts().score_kind.per_player());
        let timed = mode.is_some_and(Mode::has_clock);
        let passen = parse_number(
            &mut errors,
            "passen",
            round_label,
            &form.passen,
            1,
            MAX_PASSEN,
        );
        // A mode on the clock plays a time, not a number of Spiele.
        let spiele_per_passe = match timed {
            true => Some(0),
            false => parse_number(
                &mut errors,
                "spiele_per_passe",
                "Spiele pro Passe",
                &form.spiele_per_passe,
                1,
                MAX_SPIELE_PER_PASSE,
            ),
        };
        let options = super::differenzler::Options {
            match_bonus: form.d_match.is_some(),
            stoeck: form.d_stoeck.is_some(),
            exact: match form.d_nuller.is_some() {
                true => super::differenzler::Exact::CountNuller,
                false => super::differenzler::Exact::Nothing,
            },
        };
        // Differenzler: empty is the Passe's average; a number is fixed.
        let average = differenzen && form.pauschale.trim().is_empty();
        let pauschale = match (passen, spiele_per_passe, mode.is_some() && sum_checked) {
            _ if average => Some(0),
            (_, Some(s), false) if differenzen => parse_number(
                &mut errors,
                "pauschale",
                "Pauschale",
                &form.pauschale,
                0,
                s.saturating_mul(options.largest()).max(1),
            ),
            (Some(p), Some(s), true) if form.pauschale.trim().is_empty() => {
                let preset = preset_pauschale(p, s);
                if preset.is_none() {
                    errors.add(
                        "pauschale",
                        "Pauschale: für dieses Format gibt es keine Vorgabe, bitte eingeben.",
                    );
                }
                preset
            }
            (_, Some(s), true) => parse_number(
                &mut errors,
                "pauschale",
                "Pauschale",
                &form.pauschale,
                0,
                (POINTS_PER_SPIEL * s).max(1),
            ),
            _ => parse_number(
                &mut errors,
                "pauschale",
                "Pauschale",
                &form.pauschale,
                0,
                1000,
            ),
        };
        let wertung = match mode {
            Some(m) if !m.facts().streichresultat && !form.counted_best.trim().is_empty() => {
                errors.add(
                    "counted_best",
                    format!(
                        "Im {} zählen alle {}; bitte leer lassen.",
                        m.label(),
                        m.rounds()
                    ),
                );
                Wertung::Alle
            }
            _ => parse_wertung(&mut errors, &form.counted_best, passen, round_label),
        };
        let club_best = match form.club_best.trim().is_empty() {
            true => None,
            false => parse_number(
                &mut errors,
                "club_best",
                "Vereinswertung",
                &form.club_best,
                1,
                MAX_CLUB_BEST,
            ),
        };
        let marathon = striche.then(|| form.marathon.parse(&mut errors));
        let differenzler = differenzen.then_some(super::differenzler::Rules {
            options,
            pauschale: match (average, pauschale) {
                (false, Some(fixed)) => super::differenzler::Pauschale::Fixed(fixed),
                _ => super::differenzler::Pauschale::Average,
            },
        });
        match (name, date, mode, passen, spiele_per_passe, pauschale) {
            (
                Some(name),
                Some(date),
                Some(mode),
                Some(passen),
                Some(spiele_per_passe),
                Some(pauschale),
            ) if errors.is_empty() => Ok(TournamentSettings {
                name,
                date,
                location: location.unwrap_or_default(),
                mode,
                passen,
                spiele_per_passe,
                pauschale,
                double_entry: form.double_entry.is_some(),
                double_entry_same_user: form.double_entry_same_user.is_some(),
                separate_clubs: form.separate_clubs.is_some(),
                wertung,
                club_best,
                marathon,
                differenzler,
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(passen: &str, spiele: &str, pauschale: &str) -> TournamentForm {
        TournamentForm {
            name: "Herbstturnier".into(),
            date: "22.11.2026".into(),
            location: "Zürich".into(),
            mode: Mode::Partnerschieber.key().into(),
            passen: passen.into(),
            spiele_per_passe: spiele.into(),
            pauschale: pauschale.into(),
            ..Default::default()
        }
    }

    #[test]
    fn presets_follow_seed_004() {
        assert_eq!(preset_pauschale(4, 12), Some(1000));
        assert_eq!(preset_pauschale(4, 8), Some(660));
        assert_eq!(preset_pauschale(3, 12), Some(660));
        assert_eq!(preset_pauschale(5, 12), None);
    }

    #[test]
    fn empty_pauschale_takes_the_preset() {
        let s = TournamentSettings::try_from(&form("4", "12", "")).unwrap();
        assert_eq!(s.pauschale, 1000);
        assert_eq!(s.passe_total(), 1884);
        assert_eq!(s.date, NaiveDate::from_ymd_opt(2026, 11, 22).unwrap());
        let s = TournamentSettings::try_from(&form("4", "8", "")).unwrap();
        assert_eq!(s.pauschale, 660);
    }

    #[test]
    fn format_without_preset_needs_a_pauschale() {
        let e = TournamentSettings::try_from(&form("5", "10", "")).unwrap_err();
        assert!(e.get("pauschale").unwrap().contains("bitte eingeben"));
        let s = TournamentSettings::try_from(&form("5", "10", "800")).unwrap();
        assert_eq!(s.pauschale, 800);
    }

    #[test]
    fn bad_values_are_reported_per_field() {
        let mut f = form("0", "abc", "-5");
        f.name = "  ".into();
        f.date = "32.13.2026".into();
        let e = TournamentSettings::try_from(&f).unwrap_err();
        assert!(e.get("name").is_some());
        assert!(e.get("date").is_some());
        assert!(e.get("passen").is_some());
        assert!(e.get("spiele_per_passe").is_some());
        let e = TournamentSettings::try_from(&form("4", "12", "5000")).unwrap_err();
        assert!(e.get("pauschale").is_some());
    }

    #[test]
    fn streichresultat_counts_fewer_than_all_passen() {
        let with = |passen: &str, k: &str| {
            let mut f = form(passen, "12", "");
            f.counted_best = k.into();
            TournamentSettings::try_from(&f)
        };
        assert_eq!(with("4", "").unwrap().wertung, Wertung::Alle);
        assert_eq!(with("4", " 3 ").unwrap().wertung, Wertung::Beste(3));
        let e = with("4", "4").unwrap_err();
        assert_eq!(
            e.get("counted_best"),
            Some("Gewertete Passen: muss zwischen 1 und 3 liegen.")
        );
        assert!(with("4", "0").unwrap_err().get("counted_best").is_some());
        assert!(with("4", "drei").unwrap_err().get("counted_best").is_some());
        let mut f = form("1", "12", "500");
        f.counted_best = "1".into();
        let e = TournamentSettings::try_from(&f).unwrap_err();
        assert!(
            e.get("counted_best")
                .unwrap()
                .contains("mindestens 2 Passen")
        );
    }

    #[test]
    fn jassmarathon_needs_no_spiele() {
        let mut f = form("6", "", "3");
        f.mode = Mode::Jassmarathon.key().into();
        let s = TournamentSettings::try_from(&f).unwrap();
        assert_eq!(s.mode, Mode::Jassmarathon);
        assert_eq!(s.spiele_per_passe, 0);
        assert_eq!(s.pauschale, 3);
    }
}
