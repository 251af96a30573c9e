//! Categories (#79): Damen, Senioren, Junioren, … — per tournament a list of names; a team
//! (player) belongs to none or several. A category's Rangliste is the overall one with
//! only its members, ranked within it: the order never differs from the overall order, and
//! members sharing an overall rank share the category rank.
//!
//! Decision: without the person register a team's categories are set by hand by the office
//! (a table of checkboxes, or a column `kategorie` in the team import).

use super::form::FieldErrors;

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
