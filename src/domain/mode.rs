//! The tournament modes, and everything that differs between them, asked in one place.
//!
//! Code and templates never compare a mode with a text: they ask [`Mode::facts`]. A new
//! mode is one new variant and its [`ModeFacts`].

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Card points of one Spiel, including 5 for the last trick (every seed agrees).
pub const POINTS_PER_SPIEL: u32 = 157;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Partnerschieber,
    Jassmarathon,
    /// Players register alone; partners and opponents are drawn anew every Passe (seed 001).
    Einzelschieber,
    /// Every player for himself, four at a table drawn anew every Passe; the lowest total of
    /// differences between Ansage and points made wins (seed 002, #81).
    Differenzler,
}

/// Who registers, plays a Standblatt and is ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entrant {
    /// A team of two players that plays together all day.
    Team,
    /// One player; his partner and his opponents are drawn every Passe (seats A1 with A2
    /// against B1 with B2). A registration row holds Name and Vorname of one player.
    Player,
}

impl Entrant {
    pub fn one(self) -> &'static str {
        match self {
            Entrant::Team => "Team",
            Entrant::Player => "Spieler",
        }
    }
    pub fn many(self) -> &'static str {
        match self {
            Entrant::Team => "Teams",
            Entrant::Player => "Spieler",
        }
    }
    /// One side of a table: a team, or a pair of drawn partners.
    pub fn side(self) -> &'static str {
        match self {
            Entrant::Team => "Team",
            Entrant::Player => "Paar",
        }
    }
    pub fn sides(self) -> &'static str {
        match self {
            Entrant::Team => "Teams",
            Entrant::Player => "Paare",
        }
    }
    /// Players at one side of a table: the team, or two drawn partners.
    pub fn per_side(self) -> usize {
        match self {
            Entrant::Team => 1,
            Entrant::Player => 2,
        }
    }
}

/// What the result of one table is (its behaviour: [`super::score_kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreKind {
    /// One number per table: team A's points, team B gets the rest of 157 × Spiele
    /// (seed 004); corrected in the same form with the stored version.
    Points,
    /// Striche per category, from the table's digital Tafel or a Schnellerfassung
    /// (seed 003); a Tafel is corrected line by line, a Schnellerfassung in its form.
    Striche,
    /// Four numbers per table: each player's differences between Ansage and points made,
    /// from the Schätzzettel Spiel by Spiel or summed per Passe (seed 002).
    Differenzen,
}

/// The sheet the Schreiber writes at the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScoreSheet {
    /// One line per Spiel, checked against 157 per Spiel.
    Jasszettel,
    /// The Jassmarathon Tafel: Spiele, Partien, Striche.
    Tafel,
    /// The Differenzler's Schätzzettel: per Spiel and player Ansage, gemacht, Differenz.
    Schaetzzettel,
}

/// Which end of the Rangliste wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    /// The most points (or Striche) win; ties by the best Passe.
    Higher,
    /// The fewest differences win; ties by the Nuller (where counted), then the lowest Passe.
    Lower,
}

/// What a mode is, for every page, message, print and export.
#[derive(Debug)]
pub struct ModeFacts {
    /// The text stored in the database and used in forms and exports.
    pub key: &'static str,
    pub label: &'static str,
    /// One round of play: "Passe" or "Spielrunde".
    pub round: &'static str,
    pub rounds: &'static str,
    /// Column heading of a round in narrow tables: "P1", "S1".
    pub round_short: &'static str,
    /// What a table result is counted in.
    pub unit: &'static str,
    /// What the Pauschale is counted in.
    pub pauschale_unit: &'static str,
    pub score_kind: ScoreKind,
    /// Whether both teams of a table sum to 157 × Spiele (and Spiele per Passe are set).
    pub table_sum_checked: bool,
    pub sheet: ScoreSheet,
    /// Whether a round runs on the clock (and ends by the gong).
    pub clock: bool,
    /// Whether the tournament's blind double entry applies to typed results.
    pub double_entry: bool,
    pub entrant: Entrant,
    /// Whether the two players at a side of a table play together as a pair (and share its
    /// result): Einzelschieber yes, Differenzler no (everybody for himself).
    pub pairs: bool,
    pub better: Better,
    /// Whether a Streichresultat (the best k Passen) may be set.
    pub streichresultat: bool,
}

const PARTNERSCHIEBER: ModeFacts = ModeFacts {
    key: "partnerschieber",
    label: "Partnerschieber",
    round: "Passe",
    rounds: "Passen",
    round_short: "P",
    unit: "Punkte",
    pauschale_unit: "Punkte",
    score_kind: ScoreKind::Points,
    table_sum_checked: true,
    sheet: ScoreSheet::Jasszettel,
    clock: false,
    double_entry: true,
    entrant: Entrant::Team,
    pairs: true,
    better: Better::Higher,
    streichresultat: true,
};

/// Seed 001: the points of a Passe as in Partnerschieber (157 per Spiel, one number per
/// table), but every player collects the points of the pair he played in.
const EINZELSCHIEBER: ModeFacts = ModeFacts {
    key: "einzelschieber",
    label: "Einzelschieber",
    entrant: Entrant::Player,
    ..PARTNERSCHIEBER
};

/// Seed 002: tables of four drawn like the Einzelschieber's (its seats A1, A2, B1, B2 are
/// the four places of the Schätzzettel), but nobody plays with a partner; four numbers per
/// table, the lowest total wins.
const DIFFERENZLER: ModeFacts = ModeFacts {
    key: "differenzler",
    label: "Differenzler",
    unit: "Differenzpunkte",
    pauschale_unit: "Differenzpunkte",
    score_kind: ScoreKind::Differenzen,
    table_sum_checked: false,
    sheet: ScoreSheet::Schaetzzettel,
    // The Schätzzettel is checked Spiel by Spiel (157 each) and visaed against the paper;
    // a blind second typing of four numbers compares nothing the visa does not.
    double_entry: false,
    entrant: Entrant::Player,
    pairs: false,
    better: Better::Lower,
    // Striking the worst Passe of a Differenzler is not a rule any seed knows.
    streichresultat: false,
    ..PARTNERSCHIEBER
};

const JASSMARATHON: ModeFacts = ModeFacts {
    key: "jassmarathon",
    label: "Jassmarathon",
    round: "Spielrunde",
    rounds: "Spielrunden",
    round_short: "S",
    unit: "Striche",
    pauschale_unit: "Striche",
    score_kind: ScoreKind::Striche,
    table_sum_checked: false,
    sheet: ScoreSheet::Tafel,
    clock: true,
    // Striche come from a Tafel or per category; a blind second typing adds nothing there.
    double_entry: false,
    entrant: Entrant::Team,
    pairs: true,
    better: Better::Higher,
    streichresultat: true,
};

impl Mode {
    pub const ALL: [Mode; 4] = [
        Mode::Partnerschieber,
        Mode::Jassmarathon,
        Mode::Einzelschieber,
        Mode::Differenzler,
    ];

    /// What a new tournament's form proposes.
    pub const DEFAULT: Mode = Mode::Partnerschieber;

    pub const fn facts(self) -> &'static ModeFacts {
        match self {
            Mode::Partnerschieber => &PARTNERSCHIEBER,
            Mode::Jassmarathon => &JASSMARATHON,
            Mode::Einzelschieber => &EINZELSCHIEBER,
            Mode::Differenzler => &DIFFERENZLER,
        }
    }

    /// The stored text; [`Mode::from_key`] reads it back.
    pub fn key(self) -> &'static str {
        self.facts().key
    }

    /// Exactly a stored key, nothing else: unknown text is not a mode.
    pub fn from_key(key: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.key() == key)
    }

    pub fn label(self) -> &'static str {
        self.facts().label
    }

    pub fn round(self) -> &'static str {
        self.facts().round
    }

    pub fn rounds(self) -> &'static str {
        self.facts().rounds
    }

    pub fn unit(self) -> &'static str {
        self.facts().unit
    }

    pub fn has_jasszettel(self) -> bool {
        self.facts().sheet == ScoreSheet::Jasszettel
    }

    pub fn has_tafel(self) -> bool {
        self.facts().sheet == ScoreSheet::Tafel
    }

    pub fn has_schaetzzettel(self) -> bool {
        self.facts().sheet == ScoreSheet::Schaetzzettel
    }

    /// Whether the fewest points win (Differenzler).
    pub fn lower_wins(self) -> bool {
        self.facts().better == Better::Lower
    }

    /// Whether the two players at a side of a table are a pair sharing one result.
    pub fn plays_in_pairs(self) -> bool {
        self.facts().pairs
    }

    /// Who else sits at a player's table, as a column heading: his opponents, or (nobody
    /// playing in a pair) the three others.
    pub fn others(self) -> &'static str {
        match self.plays_in_pairs() {
            true => "Gegner",
            false => "Mitspieler",
        }
    }

    /// A seat's heading: the Sitz of a pair, or the place on the Schätzzettel.
    pub fn seat_word(self) -> &'static str {
        match self.plays_in_pairs() {
            true => "Sitz",
            false => "Platz",
        }
    }

    pub fn entrant(self) -> Entrant {
        self.facts().entrant
    }

    /// Whether players are drawn to tables of four per Passe (Einzelschieber: two pairs;
    /// Differenzler: four players for themselves).
    pub fn draws_players(self) -> bool {
        self.facts().entrant == Entrant::Player
    }

    pub fn has_clock(self) -> bool {
        self.facts().clock
    }

    /// The sum both teams of a table write in one round, where the mode checks one.
    pub fn table_total(self, spiele: u32) -> Option<u32> {
        self.facts()
            .table_sum_checked
            .then_some(POINTS_PER_SPIEL * spiele)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// From a form: the key, case and surrounding blanks forgiven.
impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::from_key(s.trim().to_lowercase().as_str())
            .ok_or_else(|| "Bitte einen Modus wählen.".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_unknown_text_is_no_mode() {
        for mode in Mode::ALL {
            assert_eq!(Mode::from_key(mode.key()), Some(mode));
            assert_eq!(mode.key().parse::<Mode>(), Ok(mode));
        }
        assert_eq!(Mode::from_key("Jassmarathon"), None);
        assert_eq!(Mode::from_key(""), None);
        assert!("schieber".parse::<Mode>().is_err());
    }

    #[test]
    fn every_mode_speaks_its_own_words() {
        assert_eq!(Mode::Partnerschieber.round(), "Passe");
        assert_eq!(Mode::Partnerschieber.unit(), "Punkte");
        assert_eq!(Mode::Jassmarathon.round(), "Spielrunde");
        assert_eq!(Mode::Jassmarathon.rounds(), "Spielrunden");
        assert_eq!(Mode::Jassmarathon.unit(), "Striche");
        assert_eq!(Mode::Jassmarathon.facts().pauschale_unit, "Striche");
    }

    #[test]
    fn only_point_modes_check_the_table_sum() {
        assert_eq!(Mode::Partnerschieber.table_total(12), Some(1884));
        assert_eq!(Mode::Jassmarathon.table_total(12), None);
        assert!(Mode::Partnerschieber.has_jasszettel() && !Mode::Partnerschieber.has_tafel());
        assert!(Mode::Jassmarathon.has_tafel() && Mode::Jassmarathon.has_clock());
        assert!(!Mode::Partnerschieber.has_clock());
    }

    #[test]
    fn einzelschieber_counts_points_but_draws_players() {
        let einzel = Mode::Einzelschieber;
        assert_eq!(einzel.table_total(8), Some(1256));
        assert!(einzel.has_jasszettel() && !einzel.has_clock());
        assert!(einzel.draws_players() && !Mode::Partnerschieber.draws_players());
        assert_eq!(einzel.entrant().many(), "Spieler");
        assert_eq!(einzel.entrant().per_side(), 2);
        assert_eq!(Mode::Partnerschieber.entrant().per_side(), 1);
    }

    #[test]
    fn facts_are_distinct_per_mode() {
        for a in Mode::ALL {
            for b in Mode::ALL {
                assert_eq!(a == b, a.key() == b.key());
                assert_eq!(a == b, a.label() == b.label());
            }
        }
    }
}
