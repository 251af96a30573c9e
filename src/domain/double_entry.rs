//! Double entry (a tournament option): every table result is typed twice, blind, before it
//! counts. What happens with one more typed entry is decided here.

use super::result::TableScore;

/// One typed entry of a table: who typed it and what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Typed<U> {
    pub by: U,
    pub score: TableScore,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// The first entry: stored blind, the result does not count yet.
    KeepFirst,
    /// The second entry came from the account of the first, which the tournament forbids.
    RefuseSameAccount,
    /// The account of the first entry typed the same again (pressed «Speichern» twice, or
    /// again after a lost connection): nothing changes, the first entry waits as before.
    AlreadyEntered,
    /// The second entry differs from the first: both are kept, the Leitung decides.
    Contradiction,
    /// The entries already contradict each other and only the Leitung may decide:
    /// nothing is written, both are shown.
    AwaitLeitung,
    /// The second entry agrees with the first: the result counts.
    Confirm,
    /// The Leitung's entry decides a contradiction: the result counts.
    Resolve,
}

/// What to do with `new`, given the entries waiting for this table.
pub fn decide<U: Eq>(
    pending: &[Typed<U>],
    new: &Typed<U>,
    by_leitung: bool,
    same_account_allowed: bool,
) -> Decision {
    match pending {
        [] => Decision::KeepFirst,
        [first] if first.by == new.by && !same_account_allowed && first.score == new.score => {
            Decision::AlreadyEntered
        }
        [first] if first.by == new.by && !same_account_allowed => Decision::RefuseSameAccount,
        [first] if first.score != new.score => Decision::Contradiction,
        [_] => Decision::Confirm,
        [_, _, ..] if by_leitung => Decision::Resolve,
        [_, _, ..] => Decision::AwaitLeitung,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(by: u8, a: u32) -> Typed<u8> {
        Typed {
            by,
            score: TableScore {
                points_a: a,
                points_b: 1884 - a,
                matches_a: 0,
                matches_b: 0,
            },
        }
    }

    #[test]
    fn the_first_entry_waits_blind() {
        assert_eq!(
            decide(&[], &typed(1, 900), false, false),
            Decision::KeepFirst
        );
    }

    #[test]
    fn an_equal_second_entry_by_another_account_confirms() {
        let first = [typed(1, 900)];
        assert_eq!(
            decide(&first, &typed(2, 900), false, false),
            Decision::Confirm
        );
        assert_eq!(
            decide(&first, &typed(2, 901), false, false),
            Decision::Contradiction
        );
    }

    #[test]
    fn the_same_account_confirms_only_where_allowed() {
        let first = [typed(1, 900)];
        assert_eq!(
            decide(&first, &typed(1, 901), false, false),
            Decision::RefuseSameAccount
        );
        assert_eq!(
            decide(&first, &typed(1, 900), false, true),
            Decision::Confirm
        );
        // Even the Leitung's own second entry is not a second pair of eyes.
        assert_eq!(
            decide(&first, &typed(1, 901), true, false),
            Decision::RefuseSameAccount
        );
    }

    /// Found by the day simulator (#82): a clerk whose «Speichern» got no answer (a lost
    /// connection, a crash) presses again; the same entry again is not an error.
    #[test]
    fn the_same_entry_again_from_the_same_account_changes_nothing() {
        let first = [typed(1, 900)];
        assert_eq!(
            decide(&first, &typed(1, 900), false, false),
            Decision::AlreadyEntered
        );
        assert_eq!(
            decide(&first, &typed(1, 900), true, false),
            Decision::AlreadyEntered
        );
    }

    #[test]
    fn only_the_leitung_resolves_a_contradiction() {
        let both = [typed(1, 900), typed(2, 901)];
        assert_eq!(
            decide(&both, &typed(3, 900), false, false),
            Decision::AwaitLeitung
        );
        assert_eq!(
            decide(&both, &typed(3, 905), true, false),
            Decision::Resolve
        );
    }
}
