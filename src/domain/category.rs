//! Categories (#79): Damen, Senioren, Junioren, … — per tournament a list of names; a team
//! (player) belongs to none or several. A category's Rangliste is the overall one with
//! only its members, ranked within it: the order never differs from the overall order, and
//! members sharing an overall rank share the category rank.
//!
//! Membership: a category follows a [`Rule`] over the register's persons — «Damen»: every
//! person of the team a woman; «Senioren»: every person of Jahrgang 1961 or older — or is set
//! by hand. Decisions:
//! - A team belongs by rule only when each of its seats is linked to a person and every one
//!   of them meets the rule; an unknown Geschlecht or Jahrgang does not meet it.
//! - The office may override the rule for a team (a tick against it, kept as its choice);
//!   a category without rule is the office's ticks alone (a table of checkboxes, or the
//!   column `kategorie` of the team import).
//! - New categories named like a preset get its rule: Damen all women, Herren all men,
//!   Senioren Jahrgang up to the tournament's year − 65 (AHV age), Junioren from the year −
//!   18; Gäste and free names are by hand. The Leitung changes rule or year on the page.

use super::form::FieldErrors;
use super::person::Geschlecht;

/// Which teams belong to a category.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// The office's ticks alone.
    ByHand,
    Women,
    Men,
    /// Jahrgang this year or earlier (Senioren).
    BornUpTo(u32),
    /// Jahrgang this year or later (Junioren).
    BornFrom(u32),
}

/// The kind of a rule, as the form and the database name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    ByHand,
    Women,
    Men,
    BornUpTo,
    BornFrom,
}

impl RuleKind {
    pub const ALL: [RuleKind; 5] = [
        RuleKind::ByHand,
        RuleKind::Women,
        RuleKind::Men,
        RuleKind::BornUpTo,
        RuleKind::BornFrom,
    ];

    pub fn key(self) -> &'static str {
        match self {
            RuleKind::ByHand => "hand",
            RuleKind::Women => "frauen",
            RuleKind::Men => "maenner",
            RuleKind::BornUpTo => "jahrgang_bis",
            RuleKind::BornFrom => "jahrgang_ab",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.key() == key)
    }

    /// The choice in the form.
    pub fn label(self) -> &'static str {
        match self {
            RuleKind::ByHand => "von Hand",
            RuleKind::Women => "alle Frauen",
            RuleKind::Men => "alle Männer",
            RuleKind::BornUpTo => "Jahrgang bis …",
            RuleKind::BornFrom => "Jahrgang ab …",
        }
    }

    pub fn needs_year(self) -> bool {
        matches!(self, RuleKind::BornUpTo | RuleKind::BornFrom)
    }
}

/// What a rule asks of one person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PersonFacts {
    pub geschlecht: Option<Geschlecht>,
    pub jahrgang: Option<u32>,
}

impl Rule {
    pub fn kind(self) -> RuleKind {
        match self {
            Rule::ByHand => RuleKind::ByHand,
            Rule::Women => RuleKind::Women,
            Rule::Men => RuleKind::Men,
            Rule::BornUpTo(_) => RuleKind::BornUpTo,
            Rule::BornFrom(_) => RuleKind::BornFrom,
        }
    }

    pub fn year(self) -> Option<u32> {
        match self {
            Rule::BornUpTo(y) | Rule::BornFrom(y) => Some(y),
            _ => None,
        }
    }

    /// Kind and year back together; a year-rule without a year is none.
    pub fn of(kind: RuleKind, year: Option<u32>) -> Option<Rule> {
        match (kind, year) {
            (RuleKind::ByHand, _) => Some(Rule::ByHand),
            (RuleKind::Women, _) => Some(Rule::Women),
            (RuleKind::Men, _) => Some(Rule::Men),
            (RuleKind::BornUpTo, Some(y)) => Some(Rule::BornUpTo(y)),
            (RuleKind::BornFrom, Some(y)) => Some(Rule::BornFrom(y)),
            (RuleKind::BornUpTo | RuleKind::BornFrom, None) => None,
        }
    }

    /// The rule a new category of this name gets (see the module's decisions).
    pub fn preset(name: &str, tournament_year: u32) -> Rule {
        match name.trim().to_lowercase().as_str() {
            "damen" | "frauen" => Rule::Women,
            "herren" | "männer" => Rule::Men,
            "senioren" | "seniorinnen" => Rule::BornUpTo(tournament_year.saturating_sub(65)),
            "junioren" | "juniorinnen" | "jugend" => {
                Rule::BornFrom(tournament_year.saturating_sub(18))
            }
            _ => Rule::ByHand,
        }
    }

    /// Whether one person meets the rule.
    fn admits_person(self, p: &PersonFacts) -> bool {
        match self {
            Rule::ByHand => false,
            Rule::Women => p.geschlecht == Some(Geschlecht::Frau),
            Rule::Men => p.geschlecht == Some(Geschlecht::Mann),
            Rule::BornUpTo(y) => p.jahrgang.is_some_and(|j| j <= y),
            Rule::BornFrom(y) => p.jahrgang.is_some_and(|j| j >= y),
        }
    }

    /// Whether a team belongs by the rule: `seats` persons linked (a team two, a player
    /// one), every one meeting it.
    pub fn admits(self, persons: &[PersonFacts], seats: usize) -> bool {
        persons.len() == seats && persons.iter().all(|p| self.admits_person(p))
    }

    /// The rule in words, for the page and the Protokoll.
    pub fn describe(self) -> String {
        match self {
            Rule::BornUpTo(y) => format!("Jahrgang {y} und älter"),
            Rule::BornFrom(y) => format!("Jahrgang {y} und jünger"),
            other => other.kind().label().to_string(),
        }
    }
}

/// How a rule makes a member, in words for the page.
pub fn rule_scope(entrant: super::mode::Entrant) -> &'static str {
    match entrant {
        super::mode::Entrant::Team => {
            "ein Team gehört dazu, wenn beide Personen die Regel erfüllen"
        }
        super::mode::Entrant::Player => "ein Spieler gehört dazu, wenn er die Regel erfüllt",
    }
}

/// Whether a team is a member: the office's choice where it made one, else the rule (a
/// category by hand: the choice alone).
pub fn is_member(rule: Rule, by_rule: bool, choice: Option<bool>) -> bool {
    match (rule, choice) {
        (_, Some(chosen)) => chosen,
        (Rule::ByHand, None) => false,
        (_, None) => by_rule,
    }
}

/// The choice to keep so that a team is `wanted` in a category: none where the rule gives
/// it anyway (a category by hand keeps its members).
pub fn choice_for(rule: Rule, by_rule: bool, wanted: bool) -> Option<bool> {
    match rule {
        Rule::ByHand => wanted.then_some(true),
        _ => (wanted != by_rule).then_some(wanted),
    }
}

/// The rules form: per category a kind and, for a Jahrgang, the year (1900…`max_year`).
pub fn parse_rule(
    errors: &mut FieldErrors,
    category: &str,
    kind: &str,
    year: &str,
    max_year: u32,
) -> Option<Rule> {
    let Some(kind) = RuleKind::from_key(kind.trim()) else {
        errors.add("rules", format!("{category}: unbekannte Regel."));
        return None;
    };
    if !kind.needs_year() {
        return Rule::of(kind, None);
    }
    match year.trim().parse::<u32>() {
        Ok(y) if (1900..=max_year).contains(&y) => Rule::of(kind, Some(y)),
        _ => {
            errors.add(
                "rules",
                format!("{category}: Jahrgang bitte als Jahreszahl zwischen 1900 und {max_year} (z. B. 1961)."),
            );
            None
        }
    }
}

/// The names offered when a tournament has none yet.
pub const PRESETS: [&str; 5] = ["Damen", "Herren", "Senioren", "Junioren", "Gäste"];
pub const MAX_CATEGORIES: usize = 12;
pub const MAX_NAME: usize = 40;

/// The category list of the form: one name per line (or separated by commas); empty lines
/// skipped; a name twice (case ignored) or too long is refused at the field.
pub fn parse_names(raw: &str) -> Result<Vec<String>, FieldErrors> {
    let mut errors = FieldErrors::new();
    let mut names: Vec<String> = Vec::new();
    for name in raw
        .split(['\n', ','])
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        if name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
            errors.add(
                "categories",
                format!("«{name}»: höchstens {MAX_NAME} Zeichen, ohne Steuerzeichen."),
            );
        } else if names.iter().any(|n| same_name(n, name)) {
            errors.add(
                "categories",
                format!("«{name}» steht zweimal in der Liste."),
            );
        } else {
            names.push(name.to_string());
        }
    }
    if names.len() > MAX_CATEGORIES {
        errors.add(
            "categories",
            format!("Höchstens {MAX_CATEGORIES} Kategorien."),
        );
    }
    errors.into_result(|| names)
}

/// Two category names that mean the same ("damen" = "Damen").
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// The category Rangliste: of `ranked` (keys with their overall rank, in Rangliste order)
/// the members, each with its rank in the category: one more than the members ranked
/// strictly better overall.
pub fn category_ranks<K: Copy>(ranked: &[(K, u32)], member: impl Fn(K) -> bool) -> Vec<(K, u32)> {
    let mut out: Vec<(K, u32)> = Vec::new();
    let mut previous: Option<(u32, u32)> = None;
    for (position, &(key, overall)) in (1u32..).zip(ranked.iter().filter(|(k, _)| member(*k))) {
        let rank = match previous {
            Some((before, rank)) if before == overall => rank,
            _ => position,
        };
        previous = Some((overall, rank));
        out.push((key, rank));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_one_per_line_or_by_commas_without_doubles() {
        assert_eq!(
            parse_names("Damen\n Senioren , Junioren\n\n").unwrap(),
            ["Damen", "Senioren", "Junioren"]
        );
        let e = parse_names("Damen\ndamen").unwrap_err();
        assert_eq!(
            e.get("categories"),
            Some("«damen» steht zweimal in der Liste.")
        );
        assert!(parse_names(&"x".repeat(41)).is_err());
    }

    fn facts(g: Option<Geschlecht>, j: Option<u32>) -> PersonFacts {
        PersonFacts {
            geschlecht: g,
            jahrgang: j,
        }
    }

    #[test]
    fn a_team_belongs_by_rule_when_every_person_meets_it() {
        let anna = facts(Some(Geschlecht::Frau), Some(1950));
        let beat = facts(Some(Geschlecht::Mann), Some(1961));
        let unknown = facts(None, None);
        assert!(Rule::Women.admits(&[anna, anna], 2));
        assert!(!Rule::Women.admits(&[anna, beat], 2));
        // One seat not linked: not known to be a Damen team.
        assert!(!Rule::Women.admits(&[anna], 2));
        assert!(Rule::Women.admits(&[anna], 1));
        assert!(!Rule::Women.admits(&[unknown], 1));
        assert!(Rule::BornUpTo(1961).admits(&[anna, beat], 2));
        assert!(!Rule::BornUpTo(1960).admits(&[anna, beat], 2));
        assert!(Rule::BornFrom(1961).admits(&[beat], 1));
        assert!(!Rule::BornFrom(1961).admits(&[unknown], 1));
        assert!(!Rule::ByHand.admits(&[anna, anna], 2));
    }

    #[test]
    fn presets_name_their_rules_and_the_words_say_them() {
        assert_eq!(Rule::preset("Damen", 2026), Rule::Women);
        assert_eq!(Rule::preset("herren", 2026), Rule::Men);
        assert_eq!(Rule::preset("Senioren", 2026), Rule::BornUpTo(1961));
        assert_eq!(Rule::preset("Junioren", 2026), Rule::BornFrom(2008));
        assert_eq!(Rule::preset("Gäste", 2026), Rule::ByHand);
        assert_eq!(Rule::BornUpTo(1961).describe(), "Jahrgang 1961 und älter");
        assert_eq!(Rule::Women.describe(), "alle Frauen");
        for kind in RuleKind::ALL {
            assert_eq!(RuleKind::from_key(kind.key()), Some(kind));
        }
        assert_eq!(Rule::of(RuleKind::BornFrom, None), None);
    }

    #[test]
    fn the_rules_form_refuses_a_missing_year_at_the_field() {
        let mut e = FieldErrors::new();
        assert_eq!(
            parse_rule(&mut e, "Senioren", "jahrgang_bis", "1961", 2026),
            Some(Rule::BornUpTo(1961))
        );
        assert_eq!(
            parse_rule(&mut e, "Damen", "frauen", "", 2026),
            Some(Rule::Women)
        );
        assert!(e.is_empty());
        assert_eq!(
            parse_rule(&mut e, "Senioren", "jahrgang_bis", "", 2026),
            None
        );
        assert_eq!(parse_rule(&mut e, "X", "irgendwas", "", 2026), None);
        assert_eq!(
            e.all("rules"),
            [
                "Senioren: Jahrgang bitte als Jahreszahl zwischen 1900 und 2026 (z. B. 1961).",
                "X: unbekannte Regel."
            ]
        );
    }

    proptest! {
        /// Storing the choice that `choice_for` gives makes the team a member exactly as
        /// wanted, whatever the rule says; and no choice is stored where the rule agrees.
        #[test]
        fn the_kept_choice_gives_what_the_office_ticked(
            kind in 0usize..5, by_rule: bool, wanted: bool,
        ) {
            let rule = Rule::of(RuleKind::ALL[kind], Some(1961)).unwrap();
            let by_rule = by_rule && rule != Rule::ByHand;
            let choice = choice_for(rule, by_rule, wanted);
            prop_assert_eq!(is_member(rule, by_rule, choice), wanted);
            if rule != Rule::ByHand && wanted == by_rule {
                prop_assert_eq!(choice, None);
            }
        }
    }

    #[test]
    fn members_keep_the_overall_order_and_shared_ranks() {
        let ranked = [(1, 1), (2, 2), (3, 2), (4, 4), (5, 5)];
        let r = category_ranks(&ranked, |k| k != 2);
        assert_eq!(r, [(1, 1), (3, 2), (4, 3), (5, 4)]);
        let r = category_ranks(&ranked, |k| k == 2 || k == 3);
        assert_eq!(r, [(2, 1), (3, 1)]);
    }

    proptest! {
        /// The rank within the category is one more than the members strictly ahead
        /// overall.
        #[test]
        fn the_rank_counts_the_members_ahead(
            steps in proptest::collection::vec(0u32..2, 0..30),
            members in proptest::collection::vec(any::<bool>(), 30),
        ) {
            // Overall ranks with ties: a step of 0 shares the rank before.
            let mut ranked: Vec<(usize, u32)> = Vec::new();
            for (i, step) in steps.iter().enumerate() {
                let rank = match ranked.last() {
                    Some(&(_, r)) if *step == 0 => r,
                    _ => u32::try_from(i + 1).unwrap(),
                };
                ranked.push((i, rank));
            }
            let got = category_ranks(&ranked, |k| members[k]);
            let expected: Vec<(usize, u32)> = ranked
                .iter()
                .filter(|(k, _)| members[*k])
                .map(|&(k, overall)| {
                    let ahead = ranked.iter().filter(|(o, r)| members[*o] && *r < overall).count();
                    (k, 1 + u32::try_from(ahead).unwrap())
                })
                .collect();
            prop_assert_eq!(got, expected);
        }
    }
}
