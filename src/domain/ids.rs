//! Id newtypes, so a team id can never be passed where a tournament id is expected.

use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id_type {
    ($name:ident) => {
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub i32);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(TournamentId);
id_type!(TeamId);
id_type!(UserId);
id_type!(ResultId);
id_type!(SingleId);
id_type!(CategoryId);
id_type!(PersonId);
id_type!(SeriesId);

/// The number of a Passe (or Spielrunde) as an address names it: 1 or more. An address
/// with 0 or a negative number does not reach a handler (404); whether the tournament
/// has that many Passen is the use case's question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct RoundNo(u32);

impl RoundNo {
    pub fn get(self) -> u32 {
        self.0
    }
}

impl TryFrom<u32> for RoundNo {
    type Error = &'static str;

    fn try_from(n: u32) -> Result<Self, Self::Error> {
        if n == 0 {
            Err("the first Passe is Passe 1")
        } else {
            Ok(RoundNo(n))
        }
    }
}

impl From<RoundNo> for u32 {
    fn from(n: RoundNo) -> u32 {
        n.0
    }
}

impl fmt::Display for RoundNo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::RoundNo;

    #[test]
    fn a_round_number_starts_at_one() {
        assert!(serde_json::from_str::<RoundNo>("0").is_err());
        assert!(serde_json::from_str::<RoundNo>("-1").is_err());
        assert_eq!(
            serde_json::from_str::<RoundNo>("3").map(RoundNo::get).ok(),
            Some(3)
        );
        assert_eq!(
            serde_json::to_string(&RoundNo::try_from(7).ok())
                .ok()
                .as_deref(),
            Some("7")
        );
    }
}
