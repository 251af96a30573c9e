//! Names in German alphabetical order (DIN 5007, variant 1: the telephone book's order of
//! names is not asked for): Ä with A, Ö with O, Ü with U, ß as ss, accents ignored, case
//! ignored. Byte order put "Ärni" after "Zürcher" and "Ölz" after everything.

use std::cmp::Ordering;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The key a name sorts by: without accents and umlaut dots, lower case, ß as ss.
pub fn sort_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len());
    for c in name.nfd().filter(|c| !is_combining_mark(*c)) {
        match c {
            'ß' | 'ẞ' => key.push_str("ss"),
            c => key.extend(c.to_lowercase()),
        }
    }
    key
}

/// Two names in German order; names equal but for accents or case in a fixed order.
pub fn compare(a: &str, b: &str) -> Ordering {
    sort_key(a).cmp(&sort_key(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn umlauts_sort_with_their_vowels() {
        let mut names = vec![
            "Zürcher", "Ölz", "Ärni", "Amrein", "Ott", "Uster", "Übersax", "Bär",
        ];
        names.sort_by(|a, b| compare(a, b));
        assert_eq!(
            names,
            vec![
                "Amrein", "Ärni", "Bär", "Ölz", "Ott", "Übersax", "Uster", "Zürcher"
            ]
        );
    }

    #[test]
    fn case_accents_and_sharp_s_are_ignored() {
        assert_eq!(sort_key("Straße"), "strasse");
        assert_eq!(sort_key("Gérard Müller"), "gerard muller");
        assert_eq!(
            compare("müller", "Muller").reverse(),
            compare("Muller", "müller")
        );
        assert_eq!(compare("Egli", "égli"), Ordering::Less);
    }

    proptest! {
        /// The order is total and consistent: equal only for equal names, and antisymmetric.
        #[test]
        fn the_order_is_total(a in "[a-zA-ZäöüÄÖÜéèß ]{0,8}", b in "[a-zA-ZäöüÄÖÜéèß ]{0,8}") {
            prop_assert_eq!(compare(&a, &b) == Ordering::Equal, a == b);
            prop_assert_eq!(compare(&a, &b), compare(&b, &a).reverse());
        }
    }
}
