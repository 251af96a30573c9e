//! Jassmarathon scoring (seed 003): the Tafel of one table and Spielrunde, computed Spiel by
//! Spiel into Partien and Striche ([`tafel`]); and the plausibility checks of the
//! Schnellerfassung and of a typed Tafel line ([`quick`]).
//!
//! Rules, each a tournament setting with the seed's values as defaults:
//! - a Partie goes to 2000, the Bergpreis is at 1000;
//! - card points, Weis and Stöck are multiplied: Obenabe/Undenufe ×3, Schelle/Schilte ×2,
//!   Rose/Eichel ×1 (Stöck are a Weis; they exist only with a trump suit);
//! - a Match counts 157 + 100 = 257 (a Kontermatch as well, no doubling) and writes a Strich;
//! - Bergpreis 1 Strich, Sieg 2, Schneider +1 for the winner if the loser is below the
//!   Bergpreis at the end of the Partie, Gong 1 for the team ahead in the unfinished Partie;
//! - Ausmachregel Stöck – Weis – Stich: within a Spiel, Stöck count first, then Weis, then card
//!   points. Only one team can have Stöck, only the team with the best Weis writes Weis. If both
//!   teams cross a mark by card points alone, whoever reached it first is entered.

pub mod quick;
pub mod tafel;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Card points of one Spiel (before multipliers).
pub const CARD_POINTS: u32 = super::mode::POINTS_PER_SPIEL;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Trump {
    Eichel,
    Rose,
    Schelle,
    Schilte,
    Obenabe,
    Undenufe,
}

impl Trump {
    pub const ALL: [Trump; 6] = [
        Trump::Eichel,
        Trump::Rose,
        Trump::Schelle,
        Trump::Schilte,
        Trump::Obenabe,
        Trump::Undenufe,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Trump::Eichel => "eichel",
            Trump::Rose => "rose",
            Trump::Schelle => "schelle",
            Trump::Schilte => "schilte",
            Trump::Obenabe => "obenabe",
            Trump::Undenufe => "undenufe",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Trump::Eichel => "Eichel",
            Trump::Rose => "Rose",
            Trump::Schelle => "Schelle",
            Trump::Schilte => "Schilte",
            Trump::Obenabe => "Obenabe",
            Trump::Undenufe => "Undenufe",
        }
    }

    fn index(self) -> usize {
        Trump::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    /// Stöck (König and Ober of trump) need a trump suit.
    pub fn has_stoeck(self) -> bool {
        !matches!(self, Trump::Obenabe | Trump::Undenufe)
    }
}

impl fmt::Display for Trump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

impl FromStr for Trump {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Trump::ALL
            .into_iter()
            .find(|t| t.as_str() == s.trim().to_lowercase())
            .ok_or_else(|| "Bitte den Trumpf wählen.".to_string())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
    pub fn parse(s: &str) -> Option<Side> {
        match s.trim().to_lowercase().as_str() {
            "a" => Some(Side::A),
            "b" => Some(Side::B),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }
    /// As the Tafel writes it: A or B.
    pub fn label(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }
}

/// Striche per category (already in Striche, i.e. multiplied by the category's value).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Striche {
    pub berg: u32,
    pub sieg: u32,
    pub schneider: u32,
    #[serde(rename = "match")]
    pub matches: u32,
    pub gong: u32,
}

impl Striche {
    pub fn total(&self) -> u32 {
        self.berg + self.sieg + self.schneider + self.matches + self.gong
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StricheValues {
    pub matches: u32,
    pub berg: u32,
    pub sieg: u32,
    pub schneider: u32,
    pub gong: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub round_minutes: u32,
    pub target: u32,
    pub berg: u32,
    pub match_bonus: u32,
    /// Per trump, in the order of [`Trump::ALL`].
    pub multipliers: [u32; 6],
    pub striche: StricheValues,
}

impl Rules {
    /// The most Spiele one Tafel holds: a Spiel takes at least a minute and a half (shuffle,
    /// nine Stiche, writing), so 60 in the 90 minutes of seed 003's Spielrunde; never fewer
    /// than 20. More is no play but a typing error or an attack on the disk.
    pub fn most_spiele(&self) -> usize {
        (self.round_minutes as usize * 2 / 3).max(20)
    }

    /// The values of seed 003 (jassmarathon.ch, version 2017-1).
    pub fn jassmarathon() -> Self {
        Rules {
            round_minutes: 90,
            target: 2000,
            berg: 1000,
            match_bonus: 100,
            multipliers: [1, 1, 2, 2, 3, 3],
            striche: StricheValues {
                matches: 1,
                berg: 1,
                sieg: 2,
                schneider: 1,
                gong: 1,
            },
        }
    }

    pub fn multiplier(&self, trump: Trump) -> u32 {
        self.multipliers[trump.index()]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cards {
    /// Team A's card points (incl. 5 for the last trick); team B has 157 minus them.
    Points(u32),
    /// All nine tricks to one team (Match or Kontermatch): 157 + Matchprämie.
    Match(Side),
}

/// A ruling of seed 003, written on the Tafel as a line of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Ruling {
    /// The team "bedankt" without having reached the target: the Partie goes to the
    /// opponent (seed 003 §8).
    FalseBedanken(Side),
    /// The team claimed the Bergpreis without having the points: it goes to the opponent
    /// (seed 003 §5).
    WrongBerg(Side),
}

impl Ruling {
    pub fn key(self) -> &'static str {
        match self {
            Ruling::FalseBedanken(Side::A) => "bedanken_a",
            Ruling::FalseBedanken(Side::B) => "bedanken_b",
            Ruling::WrongBerg(Side::A) => "berg_a",
            Ruling::WrongBerg(Side::B) => "berg_b",
        }
    }

    pub const ALL: [Ruling; 4] = [
        Ruling::FalseBedanken(Side::A),
        Ruling::FalseBedanken(Side::B),
        Ruling::WrongBerg(Side::A),
        Ruling::WrongBerg(Side::B),
    ];

    pub fn from_key(key: &str) -> Option<Ruling> {
        Ruling::ALL.into_iter().find(|r| r.key() == key)
    }

    /// As the Tafel shows it.
    pub fn label(self) -> &'static str {
        match self {
            Ruling::FalseBedanken(Side::A) => "A bedankt zu Unrecht: Partie an B",
            Ruling::FalseBedanken(Side::B) => "B bedankt zu Unrecht: Partie an A",
            Ruling::WrongBerg(Side::A) => "A beansprucht den Bergpreis zu Unrecht: Berg an B",
            Ruling::WrongBerg(Side::B) => "B beansprucht den Bergpreis zu Unrecht: Berg an A",
        }
    }
}

/// One line of the Tafel: one Spiel, or a ruling (then trump and cards are not counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spiel {
    pub trump: Trump,
    pub cards: Cards,
    pub weis_a: u32,
    pub weis_b: u32,
    pub stoeck: Option<Side>,
    /// Who reached a mark first when both teams cross it by card points in this Spiel.
    pub first: Option<Side>,
    pub ruling: Option<Ruling>,
}

impl Spiel {
    /// A line that carries only a ruling.
    pub fn ruling(ruling: Ruling) -> Self {
        Spiel {
            trump: Trump::Rose,
            cards: Cards::Points(0),
            weis_a: 0,
            weis_b: 0,
            stoeck: None,
            first: None,
            ruling: Some(ruling),
        }
    }

    /// The trump column of a Tafel line ("Regelentscheid" for a ruling).
    pub fn trump_text(&self) -> &'static str {
        match self.ruling {
            Some(_) => "Regelentscheid",
            None => self.trump.label(),
        }
    }

    /// The cards column: "100 : 57", "Match A", or the ruling.
    pub fn cards_text(&self) -> String {
        match (self.ruling, self.cards) {
            (Some(ruling), _) => ruling.label().into(),
            (None, Cards::Points(a)) => format!("{a} : {}", CARD_POINTS.saturating_sub(a)),
            (None, Cards::Match(side)) => format!("Match {}", side.label()),
        }
    }

    /// Weis and Stöck: "Weis A 50, Stöck B" (empty without).
    pub fn weis_text(&self) -> String {
        [
            (self.weis_a > 0).then(|| format!("Weis A {}", self.weis_a)),
            (self.weis_b > 0).then(|| format!("Weis B {}", self.weis_b)),
            self.stoeck.map(|x| format!("Stöck {}", x.label())),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
    }

    /// The whole line in one phrase, for the Protokoll: "Rose 100 : 57, Weis A 50".
    pub fn summary(&self) -> String {
        let head = match self.ruling {
            Some(_) => self.cards_text(),
            None => format!("{} {}", self.trump_text(), self.cards_text()),
        };
        match self.weis_text() {
            weis if weis.is_empty() => head,
            weis => format!("{head}, {weis}"),
        }
    }
}

/// Card points of both teams before multipliers: always 157, or 257 for a Match.
pub fn card_points(cards: Cards, match_bonus: u32) -> (u32, u32) {
    match cards {
        Cards::Points(a) => (a, CARD_POINTS - a.min(CARD_POINTS)),
        Cards::Match(Side::A) => (CARD_POINTS + match_bonus, 0),
        Cards::Match(Side::B) => (0, CARD_POINTS + match_bonus),
    }
}

/// The Striche behind a table result, per category: what the Standblatt and the exports
/// show, and what a Schnellerfassung is corrected from.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Details {
    pub a: Striche,
    pub b: Striche,
}

impl Details {
    /// Parses stored details; None when there are none or they are not readable.
    pub fn parse(raw: Option<&str>) -> Option<Details> {
        raw.and_then(|r| serde_json::from_str(r).ok())
    }
}
