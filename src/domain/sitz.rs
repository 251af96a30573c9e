//! The four seats of an Einzelschieber table (seed 001): "A1 mit A2 gegen B1 mit B2".
//!
//! A table's result is filed under its first seats: A1 stands for pair A, B1 for pair B,
//! exactly as team A and team B of a Partnerschieber table. A2 and B2 get the points of
//! their partner's side.

use super::marathon::Side;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Sitz {
    A1,
    A2,
    B1,
    B2,
}

impl Sitz {
    /// In the order of the draw's seat indices (0 A1, 1 A2, 2 B1, 3 B2).
    pub const ALL: [Sitz; 4] = [Sitz::A1, Sitz::A2, Sitz::B1, Sitz::B2];

    pub fn key(self) -> &'static str {
        match self {
            Sitz::A1 => "A1",
            Sitz::A2 => "A2",
            Sitz::B1 => "B1",
            Sitz::B2 => "B2",
        }
    }

    /// The Differenzler's place on the Schätzzettel: 1 to 4 in the order of [`Sitz::ALL`].
    pub fn place(self) -> usize {
        match self {
            Sitz::A1 => 1,
            Sitz::A2 => 2,
            Sitz::B1 => 3,
            Sitz::B2 => 4,
        }
    }

    /// The seat as lists of `mode` print it: "A2", or (nobody playing in a pair, the
    /// Differenzler) the place "Platz 2".
    pub fn name_in(self, mode: super::mode::Mode) -> String {
        match mode.plays_in_pairs() {
            true => self.key().to_string(),
            false => format!("Platz {}", self.place()),
        }
    }

    pub fn from_key(key: &str) -> Option<Sitz> {
        Sitz::ALL.into_iter().find(|s| s.key() == key)
    }

    pub fn side(self) -> Side {
        match self {
            Sitz::A1 | Sitz::A2 => Side::A,
            Sitz::B1 | Sitz::B2 => Side::B,
        }
    }

    /// The seat the side's result is filed under.
    pub fn is_first(self) -> bool {
        matches!(self, Sitz::A1 | Sitz::B1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_back_and_belong_to_their_side() {
        for s in Sitz::ALL {
            assert_eq!(Sitz::from_key(s.key()), Some(s));
        }
        assert_eq!(Sitz::from_key("a1"), None);
        assert_eq!(Sitz::A2.side(), Side::A);
        assert_eq!(Sitz::B2.side(), Side::B);
        assert!(Sitz::B1.is_first() && !Sitz::B2.is_first());
    }
}
