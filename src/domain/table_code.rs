//! The personal table code printed on a Standblatt: what a phone at the table gives to enter
//! or confirm its table's result (README "Resultate vom Tisch").
//!
//! Eight characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B):
//! 26⁸ ≈ 2.1 · 10¹¹ codes, read and typed on a phone without doubt. Typing is forgiving
//! (small letters, spaces and the dash of the printed form are ignored); the comparison
//! runs in constant time.

use rand::Rng;
use subtle::ConstantTimeEq;

/// The characters a code is made of.
pub const ALPHABET: &[u8] = b"ACDEFGHJKMNPQRTUVWXY346789";
/// Characters per code.
pub const LENGTH: usize = 8;

/// How many codes there are (for the README's arithmetic and the tests).
pub fn code_space() -> u64 {
    (ALPHABET.len() as u64).pow(LENGTH as u32)
}

/// A new random code (from the operating system's generator through `rand`'s thread RNG).
pub fn generate() -> String {
    let mut rng = rand::rng();
    (0..LENGTH)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// The printed form: two groups of four, "KM4T-9QXD".
pub fn printed(code: &str) -> String {
    match code.len() == LENGTH && code.is_ascii() {
        true => format!("{}-{}", &code[..LENGTH / 2], &code[LENGTH / 2..]),
        false => code.to_string(),
    }
}

/// What a person typed, as a code: None when it cannot be one (wrong length or a character
/// outside the alphabet), so such input is refused before anything is compared.
pub fn parse(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == LENGTH && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// Whether a presented code is the stored one, in time independent of where they differ.
pub fn matches(stored: &str, presented: &str) -> bool {
    stored.as_bytes().ct_eq(presented.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_of_the_alphabet_and_differ() {
        let codes: std::collections::HashSet<String> = (0..500).map(|_| generate()).collect();
        assert_eq!(codes.len(), 500);
        for code in &codes {
            assert_eq!(parse(code).as_deref(), Some(code.as_str()));
        }
        assert_eq!(ALPHABET.len(), 26);
        assert!(code_space() > 200_000_000_000);
    }

    #[test]
    fn typing_is_forgiving_but_not_loose() {
        assert_eq!(parse(" km4t-9qxd ").as_deref(), Some("KM4T9QXD"));
        assert_eq!(printed("KM4T9QXD"), "KM4T-9QXD");
        // Look-alikes are not in the alphabet: such input is no code at all.
        assert_eq!(parse("KM4T9QX0"), None);
        assert_eq!(parse("KM4T9QXI"), None);
        assert_eq!(parse("KM4T9QX"), None);
        assert_eq!(parse("KM4T9QXDD"), None);
        assert_eq!(parse("KM4T9QXÄ"), None);
    }

    #[test]
    fn only_the_same_code_matches() {
        assert!(matches("KM4T9QXD", "KM4T9QXD"));
        assert!(!matches("KM4T9QXD", "KM4T9QXC"));
        assert!(!matches("KM4T9QXD", "KM4T9QX"));
    }
}
