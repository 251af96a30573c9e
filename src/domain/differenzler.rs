//! The Differenzler (#81, seed 002: «die Königsdisziplin»): every player plays for himself;
//! before each Spiel he announces (the **Ansage**, on the **Schätzzettel**) the card points he
//! will make; his score for the Spiel is the difference between Ansage and points made; over
//! the Passe and the tournament the **lowest** total wins.
//!
//! This module is the rule alone: a Spiel's four lines checked and scored, a Passe's sheet,
//! the fast entry of four summed differences, the Pauschale, and the ranking. Decisions (the
//! tournament options where clubs differ):
//! - Per Spiel the points made by the four players sum to 157. Options: a **Match** (one player
//!   takes every trick) adds 100 (257); **Stöck** counted adds 20 for the player holding them.
//!   A sum allowed by none of the options is refused, naming the sum.
//! - An Ansage is 0…157 (with the Match option up to 257; with Stöck + 20).
//! - Exact Ansage: by default nothing extra; option «Nuller zählen» keeps the count of exact
//!   announcements as the first tie-break. (A bonus subtracted from the score was considered
//!   and left out: totals below zero read badly on every list, and the Nuller reward the same
//!   skill without changing anybody's total.)
//! - Fast entry (per table and Passe): each player's summed differences, at most the largest
//!   possible (Spiele × the largest sum).
//! - Ranking: lowest total first; ties by the Nuller (when counted), then the best (lowest)
//!   Passe, the second best, …; all equal: shared rank. In a provisional Rangliste a player
//!   with more Passen counted ranks ahead of one with fewer (a table not yet entered must not
//!   lift its players to the top).
//! - Pauschale for a player without a table (spielfrei) or whose table lost a player: by
//!   default the rounded-up average of the Passe's played scores (nobody gains on average;
//!   rounded up so that sitting out is never better than the average player), or a fixed
//!   number the Leitung sets.

use super::ranking::TieBreak;
use serde::{Deserialize, Serialize};
use std::cmp::{Ordering, Reverse};

/// The tournament's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Options {
    pub match_bonus: bool,
    pub stoeck: bool,
    pub exact: Exact,
}

/// What an exact Ansage is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Exact {
    #[default]
    Nothing,
    /// Counted, as the first tie-break.
    CountNuller,
}

pub const CARD_POINTS: u32 = 157;
pub const MATCH_BONUS: u32 = 100;
pub const STOECK: u32 = 20;

impl Options {
    /// The sums of a Spiel's made points these options allow.
    pub fn allowed_sums(self) -> Vec<u32> {
        let mut sums = vec![CARD_POINTS];
        if self.match_bonus {
            sums.push(CARD_POINTS + MATCH_BONUS);
        }
        if self.stoeck {
            let with: Vec<u32> = sums.iter().map(|s| s + STOECK).collect();
            sums.extend(with);
        }
        sums
    }

    /// The largest sum (and so the largest Ansage and difference).
    pub fn largest(self) -> u32 {
        self.allowed_sums().into_iter().max().unwrap_or(CARD_POINTS)
    }

    pub fn counts_nuller(self) -> bool {
        self.exact == Exact::CountNuller
    }
}

/// One player's line of a Spiel: Ansage and points made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    pub ansage: u32,
    pub gemacht: u32,
}

impl Line {
    pub fn difference(self) -> u32 {
        self.ansage.abs_diff(self.gemacht)
    }
}

/// A Spiel scored: per player the difference and whether the Ansage was exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scored {
    pub scores: [u32; 4],
    pub exact: [bool; 4],
}

/// Checks and scores one Spiel of four players; the German message says what is wrong.
pub fn score_spiel(lines: &[Line; 4], options: Options) -> Result<Scored, String> {
    let largest = options.largest();
    if let Some(l) = lines
        .iter()
        .find(|l| l.ansage > largest || l.gemacht > largest)
    {
        return Err(format!(
            "Ansage und Punkte: höchstens {largest} (nicht {}).",
            l.ansage.max(l.gemacht)
        ));
    }
    let sum: u32 = lines.iter().map(|l| l.gemacht).sum();
    let allowed = options.allowed_sums();
    if !allowed.contains(&sum) {
        let words: Vec<String> = allowed.iter().map(u32::to_string).collect();
        return Err(format!(
            "Die gemachten Punkte ergeben {sum}; ein Spiel hat {}.",
            words.join(" oder ")
        ));
    }
    Ok(Scored {
        scores: lines.map(Line::difference),
        exact: lines.map(|l| l.difference() == 0),
    })
}

/// A Passe at a table from its Spiele: per player the total and the Nuller.
pub fn passe_totals(spiele: &[Scored]) -> ([u32; 4], [u32; 4]) {
    let mut totals = [0u32; 4];
    let mut nuller = [0u32; 4];
    for s in spiele {
        for i in 0..4 {
            totals[i] += s.scores[i];
            nuller[i] += u32::from(s.exact[i]);
        }
    }
    (totals, nuller)
}

/// The fast entry: a player's summed differences for a Passe of `spiele` Spiele.
pub fn check_summed(difference: i64, spiele: u32, options: Options) -> Result<u32, String> {
    let most = i64::from(spiele) * i64::from(options.largest());
    if difference < 0 {
        return Err("Eine Differenz ist nie negativ.".into());
    }
    if difference > most {
        return Err(format!(
            "Höchstens {most} in {spiele} Spielen (nicht {difference})."
        ));
    }
    Ok(u32::try_from(difference).unwrap_or(u32::MAX))
}

/// A Differenzler table's result as it is kept with the table's result (its details): per
/// place (A1, A2, B1, B2 of the draw) the Passe's differences and Nuller, and the
/// Schätzzettel's lines when it was entered Spiel by Spiel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSheet {
    pub differenzen: [u32; 4],
    pub nuller: [u32; 4],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spiele: Vec<[Line; 4]>,
}

impl TableSheet {
    /// The sheet of a Schätzzettel entered Spiel by Spiel; the message names the first Spiel
    /// that does not add up. Every Spiel of the Passe must be there.
    pub fn of_spiele(
        spiele: Vec<[Line; 4]>,
        count: u32,
        options: Options,
    ) -> Result<TableSheet, (usize, String)> {
        if spiele.len() != usize::try_from(count).unwrap_or(usize::MAX) {
            return Err((
                spiele.len(),
                format!(
                    "Eine Passe hat {count} Spiele (eingegeben: {}).",
                    spiele.len()
                ),
            ));
        }
        let scored = spiele
            .iter()
            .enumerate()
            .map(|(i, l)| score_spiel(l, options).map_err(|m| (i, m)))
            .collect::<Result<Vec<Scored>, _>>()?;
        let (differenzen, nuller) = passe_totals(&scored);
        Ok(TableSheet {
            differenzen,
            nuller,
            spiele,
        })
    }

    /// The sheet of four summed differences (fast entry): no Nuller known.
    pub fn of_sums(differenzen: [u32; 4]) -> TableSheet {
        TableSheet {
            differenzen,
            nuller: [0; 4],
            spiele: Vec::new(),
        }
    }

    /// A stored sheet; None for text that is no sheet (the result then has none).
    pub fn parse(stored: Option<&str>) -> Option<TableSheet> {
        serde_json::from_str(stored?).ok()
    }
}

/// A tournament's Differenzler rules: the options and the Pauschale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rules {
    pub options: Options,
    pub pauschale: Pauschale,
}

impl Default for Rules {
    /// 157 per Spiel, no Nuller, the average as Pauschale: what a Differenzler without
    /// settings counts.
    fn default() -> Self {
        Rules {
            options: Options::default(),
            pauschale: Pauschale::Average,
        }
    }
}

/// The Schätzzettel's field of Spiel `spiel` (from 1), place `place` (1 to 4): Ansage `a…`,
/// gemacht `g…`.
pub fn sheet_field(ansage: bool, spiel: usize, place: usize) -> String {
    format!("{}{spiel}_{place}", if ansage { "a" } else { "g" })
}

/// Reads a typed Schätzzettel of `spiele` Spiele: every cell a whole number. Err: the Spiel
/// (from 0) and what is wrong with it.
pub fn parse_sheet<'a>(
    field: impl Fn(&str) -> Option<&'a str>,
    spiele: u32,
) -> Result<Vec<[Line; 4]>, (usize, String)> {
    let count = usize::try_from(spiele).unwrap_or(0);
    let mut sheet = Vec::with_capacity(count);
    for spiel in 0..count {
        let mut lines = [Line {
            ansage: 0,
            gemacht: 0,
        }; 4];
        for (place, line) in lines.iter_mut().enumerate() {
            for ansage in [true, false] {
                let what = if ansage { "Ansage" } else { "gemacht" };
                let raw = field(&sheet_field(ansage, spiel + 1, place + 1)).unwrap_or("");
                let cleaned: String = raw.trim().chars().filter(|c| *c != '\'').collect();
                let value = match cleaned.parse::<u32>() {
                    Ok(v) => v,
                    Err(_) if cleaned.is_empty() => {
                        return Err((spiel, format!("{what} Platz {} fehlt.", place + 1)));
                    }
                    Err(_) => {
                        return Err((
                            spiel,
                            format!(
                                "{what} Platz {}: «{}» ist keine Zahl.",
                                place + 1,
                                raw.trim()
                            ),
                        ));
                    }
                };
                match ansage {
                    true => line.ansage = value,
                    false => line.gemacht = value,
                }
            }
        }
        sheet.push(lines);
    }
    Ok(sheet)
}

/// How a player without a (complete) table is scored for a Passe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pauschale {
    /// The rounded-up average of the Passe's played scores.
    Average,
    Fixed(u32),
}

impl Pauschale {
    pub fn of(self, played: &[u32]) -> u32 {
        match self {
            Pauschale::Fixed(n) => n,
            Pauschale::Average if played.is_empty() => 0,
            Pauschale::Average => {
                let sum: u64 = played.iter().map(|&s| u64::from(s)).sum();
                let n = u64::try_from(played.len()).unwrap_or(1);
                u32::try_from(sum.div_ceil(n)).unwrap_or(u32::MAX)
            }
        }
    }
}

/// A player's tournament so far: the Passe totals and the Nuller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing<K> {
    pub player: K,
    pub passen: Vec<u32>,
    pub nuller: u32,
}

/// The order's key: smaller is better — more Passen counted, then the lower total, then
/// more Nuller (when counted), then the Passen lowest first.
type Key = (Reverse<usize>, u64, Reverse<u32>, Vec<u32>);

impl<K> Standing<K> {
    pub fn total(&self) -> u64 {
        self.passen.iter().map(|&p| u64::from(p)).sum()
    }

    fn key(&self, count_nuller: bool) -> Key {
        let mut best_first = self.passen.clone();
        best_first.sort_unstable();
        let nuller = if count_nuller { self.nuller } else { 0 };
        (
            Reverse(self.passen.len()),
            self.total(),
            Reverse(nuller),
            best_first,
        )
    }
}

/// The Rangliste: lowest total first; ties by the Nuller (when counted), then the best
/// Passe, the second best, …; all equal: shared rank. Returns (rank, standing) in order.
pub fn rank<K: Clone + Ord>(players: &[Standing<K>], options: Options) -> Vec<(u32, Standing<K>)> {
    let count = options.counts_nuller();
    let mut sorted: Vec<Standing<K>> = players.to_vec();
    sorted.sort_by(|a, b| {
        a.key(count)
            .cmp(&b.key(count))
            .then_with(|| a.player.cmp(&b.player))
    });
    let mut out: Vec<(u32, Standing<K>)> = Vec::with_capacity(sorted.len());
    for (position, s) in (1u32..).zip(sorted) {
        let rank = match out.last() {
            Some((r, before)) if before.key(count).cmp(&s.key(count)) == Ordering::Equal => *r,
            _ => position,
        };
        out.push((rank, s));
    }
    out
}

/// Why `ahead` ranks before `behind` of the same total: the Nuller, or the first Passe
/// (best, i.e. lowest, first) where they differ; None when the totals differ or they share
/// the rank.
pub fn tie_break_between<K>(
    ahead: &Standing<K>,
    behind: &Standing<K>,
    options: Options,
) -> Option<TieBreak> {
    if ahead.total() != behind.total() || ahead.passen.len() != behind.passen.len() {
        return None;
    }
    if options.counts_nuller() && ahead.nuller != behind.nuller {
        return Some(TieBreak {
            place: 0,
            ahead: ahead.nuller,
            behind: behind.nuller,
            struck: false,
            nuller: true,
        });
    }
    let (a, b) = (ahead.key(false).3, behind.key(false).3);
    let place = a.iter().zip(&b).position(|(x, y)| x != y)?;
    Some(TieBreak {
        place,
        ahead: a[place],
        behind: b[place],
        struck: false,
        nuller: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lines(a: [(u32, u32); 4]) -> [Line; 4] {
        a.map(|(ansage, gemacht)| Line { ansage, gemacht })
    }

    #[test]
    fn the_difference_is_the_score_and_the_sum_is_checked() {
        let s = score_spiel(
            &lines([(40, 35), (60, 62), (30, 30), (20, 30)]),
            Options::default(),
        )
        .unwrap();
        assert_eq!(s.scores, [5, 2, 0, 10]);
        assert_eq!(s.exact, [false, false, true, false]);
        assert_eq!(
            score_spiel(
                &lines([(40, 35), (60, 62), (30, 30), (20, 31)]),
                Options::default()
            ),
            Err("Die gemachten Punkte ergeben 158; ein Spiel hat 157.".into())
        );
        // A Match and Stöck when the options count them.
        let both = Options {
            match_bonus: true,
            stoeck: true,
            exact: Exact::Nothing,
        };
        assert_eq!(both.allowed_sums(), [157, 257, 177, 277]);
        assert!(score_spiel(&lines([(100, 257), (0, 0), (0, 0), (0, 0)]), both).is_ok());
        assert!(
            score_spiel(
                &lines([(100, 257), (0, 0), (0, 0), (0, 0)]),
                Options::default()
            )
            .is_err()
        );
    }

    #[test]
    fn a_typed_schaetzzettel_is_read_and_checked_spiel_by_spiel() {
        let mut fields = std::collections::HashMap::new();
        let rows = [
            [(40, 35), (60, 62), (30, 30), (20, 30)],
            [(0, 0), (157, 157), (0, 0), (0, 0)],
        ];
        for (s, row) in rows.iter().enumerate() {
            for (p, (a, g)) in row.iter().enumerate() {
                fields.insert(sheet_field(true, s + 1, p + 1), a.to_string());
                fields.insert(sheet_field(false, s + 1, p + 1), g.to_string());
            }
        }
        let get = |k: &str| fields.get(k).map(String::as_str);
        let spiele = parse_sheet(get, 2).unwrap();
        let sheet = TableSheet::of_spiele(spiele, 2, Options::default()).unwrap();
        assert_eq!(sheet.differenzen, [5, 2, 0, 10]);
        assert_eq!(sheet.nuller, [1, 1, 2, 1]);
        // Three Spiele asked, two typed: the third's first cell is missing.
        assert_eq!(
            parse_sheet(get, 3),
            Err((2, "Ansage Platz 1 fehlt.".into()))
        );
        fields.insert("g2_3".into(), "1".into());
        let get = |k: &str| fields.get(k).map(String::as_str);
        let spiele = parse_sheet(get, 2).unwrap();
        assert_eq!(
            TableSheet::of_spiele(spiele.clone(), 2, Options::default()),
            Err((
                1,
                "Die gemachten Punkte ergeben 158; ein Spiel hat 157.".into()
            ))
        );
        assert!(TableSheet::of_spiele(spiele, 3, Options::default()).is_err());
    }

    #[test]
    fn an_exact_ansage_counts_as_a_nuller() {
        let l = lines([(40, 40), (60, 62), (30, 30), (20, 25)]);
        let (totals, nuller) = passe_totals(&[
            score_spiel(&l, Options::default()).unwrap(),
            score_spiel(&l, Options::default()).unwrap(),
        ]);
        assert_eq!((totals, nuller), ([0, 4, 0, 10], [2, 0, 2, 0]));
    }

    #[test]
    fn summed_differences_are_checked_and_the_pauschale_is_the_average() {
        assert_eq!(check_summed(40, 12, Options::default()), Ok(40));
        assert!(check_summed(-1, 12, Options::default()).is_err());
        assert_eq!(
            check_summed(1_885, 12, Options::default()),
            Err("Höchstens 1884 in 12 Spielen (nicht 1885).".into())
        );
        assert_eq!(Pauschale::Average.of(&[10, 11, 12, 14]), 12);
        assert_eq!(Pauschale::Fixed(30).of(&[10]), 30);
    }

    #[test]
    fn the_lowest_total_wins_and_ties_go_to_the_best_passe() {
        let s = |p: &'static str, passen: Vec<u32>, nuller: u32| Standing {
            player: p,
            passen,
            nuller,
        };
        let players = [
            s("anna", vec![30, 20], 1),
            s("beat", vec![10, 40], 0),
            s("cora", vec![25, 25], 3),
            s("dora", vec![50, 0], 0),
        ];
        let r = rank(&players, Options::default());
        let line: Vec<(u32, &str)> = r.iter().map(|(rank, s)| (*rank, s.player)).collect();
        // All 50: dora's best Passe 0, beat 10, anna 20, cora 25.
        assert_eq!(line, [(1, "dora"), (2, "beat"), (3, "anna"), (4, "cora")]);
        let counted = Options {
            exact: Exact::CountNuller,
            ..Options::default()
        };
        let r = rank(&players, counted);
        assert_eq!(r[0].1.player, "cora");
        let same = [s("x", vec![20, 30], 0), s("y", vec![30, 20], 0)];
        let r = rank(&same, Options::default());
        assert_eq!((r[0].0, r[1].0), (1, 1));
    }

    proptest! {
        /// Any four made points summing to 157 are a Spiel; any other sum is refused.
        #[test]
        fn four_made_points_are_a_spiel_exactly_when_they_sum_to_157(
            made in proptest::array::uniform4(0u32..158),
            ansagen in proptest::array::uniform4(0u32..158),
        ) {
            let l: [Line; 4] = std::array::from_fn(|i| Line { ansage: ansagen[i], gemacht: made[i] });
            let sum: u32 = made.iter().sum();
            let scored = score_spiel(&l, Options::default());
            prop_assert_eq!(scored.is_ok(), sum == 157);
            if let Ok(s) = scored {
                for i in 0..4 {
                    prop_assert_eq!(s.scores[i], ansagen[i].abs_diff(made[i]));
                }
            }
        }

        /// The ranks: one more than the players with a strictly smaller total, or with the
        /// same total and a better sorted list of Passen (written apart from `rank`).
        #[test]
        fn ranks_match_an_independent_count(
            passen in proptest::collection::vec(proptest::collection::vec(0u32..40, 3), 1..12),
        ) {
            let players: Vec<Standing<usize>> = passen
                .iter()
                .enumerate()
                .map(|(i, p)| Standing { player: i, passen: p.clone(), nuller: 0 })
                .collect();
            let ranked = rank(&players, Options::default());
            for (r, s) in &ranked {
                let mut mine = s.passen.clone();
                mine.sort_unstable();
                let total: u32 = mine.iter().sum();
                let better = players.iter().filter(|o| {
                    let mut theirs = o.passen.clone();
                    theirs.sort_unstable();
                    let t: u32 = theirs.iter().sum();
                    t < total || (t == total && theirs < mine)
                }).count();
                prop_assert_eq!(*r as usize, better + 1);
            }
        }
    }
}
