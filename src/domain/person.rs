//! The club's register (#79): a person across tournaments.
//!
//! Decisions:
//! - A team's player is written as one free text ("Anna Müller"); the person behind it gets
//!   the last word as Name and the words before as Vorname ("Hans Peter Meier" → Vorname
//!   "Hans Peter", Name "Meier"). An Einzelschieber player has Name and Vorname already.
//!   The text on the team stays as typed: rankings and exports do not change.
//! - The same person is the same Name, Vorname and Ort (case and spaces ignored); the Verein
//!   may change from year to year and does not tell persons apart.

use super::mode::Entrant;

/// Who a player of a team is, as the register matches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonKey {
    pub name: String,
    pub vorname: String,
    pub verein: Option<String>,
    pub ort: Option<String>,
}

impl PersonKey {
    /// Whether two keys name the same person: Name, Vorname and Ort alike.
    pub fn same_person(&self, other: &PersonKey) -> bool {
        self.identity() == other.identity()
    }

    /// What tells persons apart, as one text: Name, Vorname and Ort, case and spaces
    /// ignored.
    pub fn identity(&self) -> String {
        let norm = |s: &str| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase()
        };
        format!(
            "{}\u{1f}{}\u{1f}{}",
            norm(&self.name),
            norm(&self.vorname),
            norm(self.ort.as_deref().unwrap_or_default())
        )
    }
}

/// "Hans Peter Meier" → ("Hans Peter", "Meier"); one word is the Name alone.
pub fn split_name(text: &str) -> (String, String) {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.split_last() {
        Some((name, vorname)) => (vorname.join(" "), (*name).to_string()),
        None => (String::new(), String::new()),
    }
}

/// The persons of a team, by seat (1, 2): two players of a team, or one Einzelschieber
/// player (Name in `player1`, Vorname in `player2`). Empty names are nobody.
pub fn team_persons(
    entrant: Entrant,
    player1: &str,
    player2: &str,
    club: Option<&str>,
    place: Option<&str>,
) -> Vec<(u32, PersonKey)> {
    let key = |vorname: String, name: String| PersonKey {
        name,
        vorname,
        verein: club.map(str::to_string).filter(|s| !s.trim().is_empty()),
        ort: place.map(str::to_string).filter(|s| !s.trim().is_empty()),
    };
    let persons = match entrant {
        Entrant::Player => vec![(
            1,
            key(player2.trim().to_string(), player1.trim().to_string()),
        )],
        Entrant::Team => [(1, player1), (2, player2)]
            .into_iter()
            .map(|(seat, text)| {
                let (vorname, name) = split_name(text);
                (seat, key(vorname, name))
            })
            .collect(),
    };
    persons
        .into_iter()
        .filter(|(_, p)| !p.name.is_empty())
        .collect()
}

/// The register's search: every word of `query` in Name, Vorname, Verein or Ort (case
/// ignored).
pub fn matches_search(person: &PersonKey, query: &str) -> bool {
    let haystack = format!(
        "{} {} {} {}",
        person.name,
        person.vorname,
        person.verein.as_deref().unwrap_or_default(),
        person.ort.as_deref().unwrap_or_default()
    )
    .to_lowercase();
    query
        .split_whitespace()
        .all(|word| haystack.contains(&word.to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_word_is_the_name() {
        assert_eq!(
            split_name(" Hans  Peter Meier "),
            ("Hans Peter".into(), "Meier".into())
        );
        assert_eq!(split_name("Müller"), (String::new(), "Müller".into()));
        assert_eq!(split_name("  "), (String::new(), String::new()));
    }

    #[test]
    fn a_team_has_two_persons_an_einzelschieber_player_one() {
        let team = team_persons(
            Entrant::Team,
            "Anna Müller",
            "Urs Bär",
            Some("JC Uster"),
            None,
        );
        assert_eq!(team.len(), 2);
        assert_eq!(
            (team[1].1.vorname.as_str(), team[1].1.name.as_str()),
            ("Urs", "Bär")
        );
        assert_eq!(team[0].1.verein.as_deref(), Some("JC Uster"));
        let player = team_persons(Entrant::Player, "Müller", "Anna", None, Some("Uster"));
        assert_eq!(player.len(), 1);
        assert_eq!(
            (player[0].1.vorname.as_str(), player[0].1.name.as_str()),
            ("Anna", "Müller")
        );
    }

    #[test]
    fn the_same_person_is_name_vorname_and_ort() {
        let p = |name: &str, vorname: &str, ort: Option<&str>, verein: Option<&str>| PersonKey {
            name: name.into(),
            vorname: vorname.into(),
            verein: verein.map(String::from),
            ort: ort.map(String::from),
        };
        let anna = p("Müller", "Anna", Some("Uster"), Some("JC Uster"));
        assert!(anna.same_person(&p("müller", " Anna", Some("uster"), Some("Jassfreunde"))));
        assert!(!anna.same_person(&p("Müller", "Anna", Some("Zug"), Some("JC Uster"))));
        assert!(!anna.same_person(&p("Müller", "Anne", Some("Uster"), None)));
        assert!(matches_search(&anna, "anna uster"));
        assert!(!matches_search(&anna, "anna zug"));
    }
}
