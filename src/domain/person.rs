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

/// What a category rule («Damen»: all women) asks of a person. Office only, like the
/// Jahrgang: never on a public page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Geschlecht {
    Frau,
    Mann,
}

impl Geschlecht {
    pub const ALL: [Geschlecht; 2] = [Geschlecht::Frau, Geschlecht::Mann];

    /// As stored.
    pub fn key(self) -> &'static str {
        match self {
            Geschlecht::Frau => "frau",
            Geschlecht::Mann => "mann",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.key() == key)
    }

    pub fn label(self) -> &'static str {
        match self {
            Geschlecht::Frau => "Frau",
            Geschlecht::Mann => "Mann",
        }
    }

    /// As a spreadsheet or the form writes it: «w», «f», «Frau», «D», «Dame» / «m», «h»,
    /// «Mann», «Herr» (case ignored); empty is unknown; anything else is refused.
    pub fn parse(raw: &str) -> Result<Option<Self>, String> {
        match raw.trim().to_lowercase().as_str() {
            "" => Ok(None),
            "w" | "f" | "frau" | "d" | "dame" | "weiblich" => Ok(Some(Geschlecht::Frau)),
            "m" | "h" | "mann" | "herr" | "männlich" => Ok(Some(Geschlecht::Mann)),
            _ => Err(format!(
                "Geschlecht «{}» ist ungültig (w oder m).",
                raw.trim()
            )),
        }
    }
}

/// Who a player of a team is, as the register matches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonKey {
    pub name: String,
    pub vorname: String,
    pub verein: Option<String>,
    pub ort: Option<String>,
    /// Known from the register, or given by an import file; it does not enter the identity
    /// (a register without it still finds the person), but it tells persons of one name
    /// apart when a file gives it.
    pub jahrgang: Option<u32>,
}

impl PersonKey {
    /// Whether two keys name the same person: Name, Vorname and Ort alike.
    pub fn same_person(&self, other: &PersonKey) -> bool {
        self.identity() == other.identity()
    }

    /// Whether the names (Name and Vorname) are alike, whatever the Ort: a seat linked to a
    /// person stays linked while its player's name does not change (a merge or a corrected
    /// Ort in the register is not undone by the next edit of the team).
    pub fn same_name(&self, other: &PersonKey) -> bool {
        let strip = |k: &PersonKey| PersonKey {
            ort: None,
            verein: None,
            jahrgang: None,
            ..k.clone()
        };
        strip(self).identity() == strip(other).identity()
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
        jahrgang: None,
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
            jahrgang: None,
        };
        let anna = p("Müller", "Anna", Some("Uster"), Some("JC Uster"));
        assert!(anna.same_person(&p("müller", " Anna", Some("uster"), Some("Jassfreunde"))));
        assert!(!anna.same_person(&p("Müller", "Anna", Some("Zug"), Some("JC Uster"))));
        assert!(!anna.same_person(&p("Müller", "Anne", Some("Uster"), None)));
        assert!(matches_search(&anna, "anna uster"));
        assert!(!matches_search(&anna, "anna zug"));
    }
}

/// The person form of the register (Leitung).
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct PersonForm {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub vorname: String,
    #[serde(default)]
    pub verein: String,
    #[serde(default)]
    pub ort: String,
    #[serde(default)]
    pub jahrgang: String,
    #[serde(default)]
    pub geschlecht: String,
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub phone: String,
}

/// A person as the form gives it, checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PersonInput {
    pub name: String,
    pub vorname: String,
    pub verein: Option<String>,
    pub ort: Option<String>,
    pub jahrgang: Option<u32>,
    pub geschlecht: Option<Geschlecht>,
    pub email: Option<String>,
    pub phone: Option<String>,
}

impl PersonForm {
    /// `this_year` bounds the Jahrgang.
    pub fn parse(&self, this_year: u32) -> Result<PersonInput, super::form::FieldErrors> {
        use super::form::{FieldErrors, parse_number, parse_required_text, parse_text};
        let mut errors = FieldErrors::new();
        let name = parse_required_text(&mut errors, "name", "Name", &self.name, 100);
        let vorname = parse_text(&mut errors, "vorname", "Vorname", &self.vorname, 100);
        let verein = parse_text(&mut errors, "verein", "Verein", &self.verein, 100);
        let ort = parse_text(&mut errors, "ort", "Ort", &self.ort, 100);
        let jahrgang = match self.jahrgang.trim().is_empty() {
            true => None,
            false => parse_number(
                &mut errors,
                "jahrgang",
                "Jahrgang",
                &self.jahrgang,
                1900,
                this_year,
            ),
        };
        let geschlecht = Geschlecht::parse(&self.geschlecht).unwrap_or_else(|message| {
            errors.add("geschlecht", message);
            None
        });
        let email = parse_text(&mut errors, "email", "E-Mail", &self.email, 200);
        if email.as_deref().is_some_and(|e| {
            let (user, host) = e.split_once('@').unwrap_or_default();
            user.is_empty() || !host.contains('.') || e.contains(char::is_whitespace)
        }) {
            errors.add("email", "E-Mail: bitte als name@beispiel.ch eingeben.");
        }
        let phone = parse_text(&mut errors, "phone", "Telefon", &self.phone, 40);
        if phone.as_deref().is_some_and(|p| {
            !p.chars()
                .all(|c| c.is_ascii_digit() || " +()/-".contains(c))
        }) {
            errors.add("phone", "Telefon: nur Ziffern, Leerzeichen und + ( ) / -.");
        }
        match name {
            Some(name) if errors.is_empty() => Ok(PersonInput {
                name,
                vorname: vorname.unwrap_or_default(),
                verein,
                ort,
                jahrgang,
                geschlecht,
                email,
                phone,
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod form_tests {
    use super::*;

    #[test]
    fn geschlecht_as_a_spreadsheet_writes_it() {
        for (raw, g) in [
            ("w", Some(Geschlecht::Frau)),
            ("Frau", Some(Geschlecht::Frau)),
            ("D", Some(Geschlecht::Frau)),
            ("m", Some(Geschlecht::Mann)),
            ("Herr", Some(Geschlecht::Mann)),
            (" ", None),
        ] {
            assert_eq!(Geschlecht::parse(raw), Ok(g), "{raw}");
        }
        assert_eq!(
            Geschlecht::parse("divers"),
            Err("Geschlecht «divers» ist ungültig (w oder m).".into())
        );
        for g in Geschlecht::ALL {
            assert_eq!(Geschlecht::from_key(g.key()), Some(g));
        }
    }

    #[test]
    fn the_form_gives_a_person_or_messages_at_the_fields() {
        let form = PersonForm {
            name: " Müller ".into(),
            vorname: "Anna".into(),
            jahrgang: "1950".into(),
            email: "anna@jassclub.ch".into(),
            phone: "+41 44 123 45 67".into(),
            ..Default::default()
        };
        let p = form.parse(2026).unwrap();
        assert_eq!((p.name.as_str(), p.jahrgang), ("Müller", Some(1950)));
        assert_eq!(p.geschlecht, None);
        let with = PersonForm {
            geschlecht: " W ".into(),
            ..form.clone()
        };
        assert_eq!(with.parse(2026).unwrap().geschlecht, Some(Geschlecht::Frau));
        let bad = PersonForm {
            name: String::new(),
            geschlecht: "x".into(),
            jahrgang: "2030".into(),
            email: "anna".into(),
            phone: "abc".into(),
            ..Default::default()
        };
        let e = bad.parse(2026).unwrap_err();
        for field in ["name", "jahrgang", "geschlecht", "email", "phone"] {
            assert!(e.get(field).is_some(), "{field}");
        }
    }
}

/// How an imported player meets the register (the preview shows it; #79).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Match<P> {
    /// Nobody of that name (or of that name and Ort): a new person.
    New,
    /// One person: the same Name, Vorname and Ort; or, the file naming no Ort, the one
    /// person of that name.
    Matched(P),
    /// The file names no Ort and the register has several of that name: the office chooses.
    Ambiguous(Vec<P>),
}

/// Matches an imported player against the register (`register`: each person's id and key).
/// A Jahrgang in the file decides first: the persons of that name and Jahrgang, whatever
/// their Ort; where the register knows none of them, Name, Vorname and Ort decide.
pub fn match_person<P: Copy>(key: &PersonKey, register: &[(P, PersonKey)]) -> Match<P> {
    if let Some(jahrgang) = key.jahrgang {
        let born: Vec<P> = register
            .iter()
            .filter(|(_, k)| k.jahrgang == Some(jahrgang) && k.same_name(key))
            .map(|(id, _)| *id)
            .collect();
        match born.as_slice() {
            [] => {}
            [one] => return Match::Matched(*one),
            _ => return Match::Ambiguous(born),
        }
    }
    if key.ort.is_some() {
        return match register.iter().find(|(_, k)| k.same_person(key)) {
            Some((id, _)) => Match::Matched(*id),
            None => Match::New,
        };
    }
    let named: Vec<P> = register
        .iter()
        .filter(|(_, k)| k.same_name(key))
        .map(|(id, _)| *id)
        .collect();
    match named.as_slice() {
        [] => Match::New,
        [one] => Match::Matched(*one),
        _ => Match::Ambiguous(named),
    }
}

#[cfg(test)]
mod match_tests {
    use super::*;

    fn key(name: &str, ort: Option<&str>) -> PersonKey {
        PersonKey {
            name: name.into(),
            vorname: "Anna".into(),
            verein: None,
            ort: ort.map(String::from),
            jahrgang: None,
        }
    }

    #[test]
    fn with_an_ort_the_same_person_without_it_the_name_or_a_choice() {
        let register = [
            (1, key("Müller", Some("Uster"))),
            (2, key("Müller", Some("Zug"))),
            (3, key("Bär", Some("Uster"))),
        ];
        assert_eq!(
            match_person(&key("müller", Some("uster")), &register),
            Match::Matched(1)
        );
        assert_eq!(
            match_person(&key("Müller", Some("Bern")), &register),
            Match::New
        );
        assert_eq!(
            match_person(&key("Müller", None), &register),
            Match::Ambiguous(vec![1, 2])
        );
        assert_eq!(
            match_person(&key("Bär", None), &register),
            Match::Matched(3)
        );
        assert_eq!(match_person(&key("Egli", None), &register), Match::New);
        // A Jahrgang tells the two of one name apart, whatever the Ort says.
        let born = |ort: Option<&str>, j: u32| PersonKey {
            jahrgang: Some(j),
            ..key("Müller", ort)
        };
        let register = [(1, born(Some("Uster"), 1950)), (2, born(Some("Zug"), 1980))];
        assert_eq!(
            match_person(&born(None, 1980), &register),
            Match::Matched(2)
        );
        assert_eq!(
            match_person(&born(Some("Bern"), 1950), &register),
            Match::Matched(1)
        );
        assert_eq!(
            match_person(&born(None, 1999), &register),
            Match::Ambiguous(vec![1, 2])
        );
    }
}
