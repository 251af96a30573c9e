//! Whole schedules from a 1-rotational design, for the tight fields where the annealing
//! search leaves repeats although a schedule without any exists (24 players × 7 Passen: the
//! social golfer instance 6-4-7; 28 × 9: a resolvable (28,4,1) design).
//!
//! The players are `m` rows of `g` points (`(i, j)`, i in Z_g) and `f` fixed points ∞. One
//! base Passe is searched; Passe `w` is the base with every `i` moved by `w` (∞ stays). Two
//! points' *orbit* under that shift — the row pair and the difference of `i`, or ∞ with a row
//! — is met in exactly one Passe per pair of its orbit, so a base Passe that uses every
//! orbit at most once (and never puts two ∞ at one table, never a difference of g/2, whose
//! orbit is only half as long) gives `g` Passen in which no two players meet twice. The
//! search is a seeded backtracking over the base Passe with a budget of steps, never time.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Steps of the backtracking per shape and try; far more than 24 × 7 and 28 × 9 need.
const STEP_BUDGET: u32 = 400_000;
/// Seeded tries per shape.
const TRIES: usize = 3;
/// Larger fields are left to the annealing search (they reach the targets there).
const MAX_PLAYERS: usize = 64;

struct Shape {
    g: usize,
    rows: usize,
    fixed: usize,
    /// Players spielfrei per Passe (the number of players modulo four): points of the base
    /// Passe without a table, at most one per row, so that each of them stands for a row
    /// whose players sit out once each in `g` Passen (an ∞ would sit out every Passe).
    out: usize,
}

impl Shape {
    fn points(&self) -> usize {
        self.g * self.rows + self.fixed
    }
    /// The orbit of two points as an index into the used-orbit table; None where the pair
    /// may not sit together (two ∞, or a half-length orbit).
    fn orbit(&self, a: usize, b: usize) -> Option<usize> {
        let finite = self.g * self.rows;
        let half = self.g / 2 + 1;
        let same = self.rows * half;
        let mixed = self.rows * self.rows * self.g;
        match (a >= finite, b >= finite) {
            (true, true) => None,
            (true, false) | (false, true) => {
                let (inf, p) = if a >= finite { (a, b) } else { (b, a) };
                Some(same + mixed + (inf - finite) * self.rows + p / self.g)
            }
            (false, false) => {
                let (i, j, i2, j2) = (a % self.g, a / self.g, b % self.g, b / self.g);
                if j == j2 {
                    let d = (i2 + self.g - i) % self.g;
                    let d = d.min(self.g - d);
                    (2 * d != self.g).then_some(j * half + d)
                } else {
                    let (i, j, i2, j2) = if j < j2 {
                        (i, j, i2, j2)
                    } else {
                        (i2, j2, i, j)
                    };
                    Some(same + (j * self.rows + j2) * self.g + (i2 + self.g - i) % self.g)
                }
            }
        }
    }
    fn orbits(&self) -> usize {
        self.rows * (self.g / 2 + 1) + self.rows * self.rows * self.g + self.fixed * self.rows
    }
    /// The point `p` in Passe `w`.
    fn shifted(&self, p: usize, w: usize) -> usize {
        let finite = self.g * self.rows;
        if p >= finite {
            p
        } else {
            (p % self.g + w) % self.g + (p / self.g) * self.g
        }
    }
}

struct Backtrack<'a> {
    shape: &'a Shape,
    used: Vec<bool>,
    free: Vec<bool>,
    tables: Vec<[usize; 4]>,
    byes: Vec<usize>,
    steps: u32,
    rng: &'a mut ChaCha8Rng,
}

impl Backtrack<'_> {
    /// Fills the rest of the base Passe; false when the budget is spent or nothing fits.
    fn fill(&mut self) -> bool {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return false;
        }
        // ∞ first (they are the most constrained), then the lowest free point.
        let n = self.shape.points();
        let Some(first) = (0..n)
            .rev()
            .find(|&p| p >= n - self.shape.fixed && self.free[p])
            .or_else(|| (0..n).find(|&p| self.free[p]))
        else {
            return true;
        };
        self.free[first] = false;
        let mut candidates: Vec<usize> = (0..n).filter(|&p| self.free[p]).collect();
        candidates.shuffle(self.rng);
        let mut table = vec![first];
        if self.grow(&mut table, &candidates, 0) {
            return true;
        }
        // Or `first` sits out, if its row has no one sitting out yet.
        let row = first / self.shape.g;
        let finite = first < self.shape.g * self.shape.rows;
        if finite
            && self.byes.len() < self.shape.out
            && self.byes.iter().all(|&b| b / self.shape.g != row)
        {
            self.byes.push(first);
            if self.fill() {
                return true;
            }
            self.byes.pop();
        }
        self.free[first] = true;
        false
    }

    fn grow(&mut self, table: &mut Vec<usize>, candidates: &[usize], from: usize) -> bool {
        if table.len() == 4 {
            self.tables.push([table[0], table[1], table[2], table[3]]);
            if self.fill() {
                return true;
            }
            self.tables.pop();
            return false;
        }
        for (k, &q) in candidates.iter().enumerate().skip(from) {
            if !self.free[q] || self.steps > STEP_BUDGET {
                continue;
            }
            let orbits: Option<Vec<usize>> =
                table.iter().map(|&p| self.shape.orbit(p, q)).collect();
            let Some(orbits) = orbits else { continue };
            let distinct = orbits
                .iter()
                .enumerate()
                .all(|(x, o)| !self.used[*o] && !orbits[..x].contains(o));
            if !distinct {
                continue;
            }
            for &o in &orbits {
                self.used[o] = true;
            }
            self.free[q] = false;
            table.push(q);
            if self.grow(table, candidates, k + 1) {
                return true;
            }
            table.pop();
            self.free[q] = true;
            for &o in &orbits {
                self.used[o] = false;
            }
        }
        false
    }
}

/// A base Passe over Z_{3g} ∪ {∞} that the subgroup {0, g, 2g} fixes: the table
/// {∞, 0, g, 2g} and (g − 1)/4 base tables, each with its two images under the subgroup. Its
/// `g` shifts are a resolvable design (every pair once) when the base tables' differences are
/// all different and none is a multiple of g; the base tables then take one point of each
/// non-zero residue mod g. This is how 40 players get 13 Passen (the search over rows finds
/// none within its budget).
struct Cyclic {
    g: usize,
    /// Differences used so far (mod 3g).
    used: Vec<bool>,
    /// Residues mod g used so far.
    taken: Vec<bool>,
    tables: Vec<Vec<usize>>,
    steps: u32,
}

impl Cyclic {
    fn fill(&mut self, rng: &mut ChaCha8Rng) -> bool {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return false;
        }
        let g = self.g;
        if self.tables.last().is_none_or(|t| t.len() == 4) {
            // A new base table starts at the lowest free residue; of its three lifts one
            // suffices, the others give the same table's images.
            let Some(r) = (1..g).find(|&r| !self.taken[r]) else {
                return true;
            };
            self.taken[r] = true;
            self.tables.push(vec![r]);
            if self.fill(rng) {
                return true;
            }
            self.tables.pop();
            self.taken[r] = false;
            return false;
        }
        let n = 3 * g;
        let mut candidates: Vec<usize> = (1..g)
            .filter(|&r| !self.taken[r])
            .flat_map(|r| [r, r + g, r + 2 * g])
            .collect();
        candidates.shuffle(rng);
        let low = self.tables.last().map_or(0, |t| t[t.len() - 1] % g);
        for x in candidates {
            if x % g <= low {
                continue;
            }
            let Some(table) = self.tables.last() else {
                return false;
            };
            let differences: Vec<usize> = table
                .iter()
                .flat_map(|&y| [(x + n - y) % n, (y + n - x) % n])
                .collect();
            let fresh = differences.iter().enumerate().all(|(i, &d)| {
                !d.is_multiple_of(g) && !self.used[d] && !differences[..i].contains(&d)
            });
            if !fresh {
                continue;
            }
            for &d in &differences {
                self.used[d] = true;
            }
            self.taken[x % g] = true;
            if let Some(table) = self.tables.last_mut() {
                table.push(x);
            }
            if self.fill(rng) {
                return true;
            }
            if let Some(table) = self.tables.last_mut() {
                table.pop();
            }
            self.taken[x % g] = false;
            for &d in &differences {
                self.used[d] = false;
            }
        }
        false
    }
}

/// `passen` Passen of a cyclic resolvable design (see [`Cyclic`]) for `players` = 3g + 1 with
/// g ≡ 1 (mod 4), or None.
fn cyclic(players: usize, passen: usize, rng: &mut ChaCha8Rng) -> Option<Vec<DesignPasse>> {
    let g = (players - 1) / 3;
    // g = 5 and g = 9 (16, 28 players) have no such base Passe (exhaustive search); the
    // search over rows finds theirs.
    if players % 12 != 4 || g < 13 || passen > g {
        return None;
    }
    let mut search = Cyclic {
        g,
        used: vec![false; 3 * g],
        taken: vec![false; g],
        tables: Vec::new(),
        steps: 0,
    };
    if !search.fill(rng) {
        return None;
    }
    let n = 3 * g;
    let infinity = n;
    let mut base: Vec<[usize; 4]> = vec![[infinity, 0, g, 2 * g]];
    for table in &search.tables {
        for k in 0..3 {
            let image: Vec<usize> = table.iter().map(|&x| (x + k * g) % n).collect();
            base.push([image[0], image[1], image[2], image[3]]);
        }
    }
    let mut label: Vec<usize> = (0..players).collect();
    label.shuffle(rng);
    let shifted = |p: usize, w: usize| if p == infinity { p } else { (p + w) % n };
    Some(
        (0..passen)
            .map(|w| {
                let tables = base
                    .iter()
                    .map(|t| t.map(|p| label[shifted(p, w)]))
                    .collect();
                (tables, Vec::new())
            })
            .collect(),
    )
}

/// One Passe of a design: its tables and who is spielfrei.
pub type DesignPasse = (Vec<[usize; 4]>, Vec<usize>);

/// `passen` Passen of `players` players in which no two players meet twice, from a
/// 1-rotational design, or None (no shape found within the budget). The players are given
/// to the design's points in a seeded random order. With a number of players that is not a
/// multiple of four, nobody is spielfrei twice and the ones who are rotate by rows.
pub fn rotational(players: usize, passen: usize, rng: &mut ChaCha8Rng) -> Option<Vec<DesignPasse>> {
    if players < 4 || passen < 2 || players > MAX_PLAYERS {
        return None;
    }
    let out = players % 4;
    // The Passen a player plays at most: one fewer than all where the spielfrei go round
    // everybody (27 × 9: three rows of nine, each player spielfrei once).
    let played = if out * passen >= players {
        passen - 1
    } else {
        passen
    };
    if 3 * played > players - 1 {
        return None;
    }
    if let Some(passen) = cyclic(players, passen, rng) {
        return Some(passen);
    }
    // A design of more Passen than asked for serves with its first ones (40 × 12: the
    // resolvable (40,4,1) design over Z₁₃ where none over Z₁₂ is found).
    let longest = ((players - 1) / 3).max(passen);
    let shapes = (passen..=longest).flat_map(|g| (0..=players / 4).map(move |f| (g, f)));
    for (g, fixed) in shapes {
        // Whole rows, at least one, and a row for each player spielfrei.
        if !(players - fixed).is_multiple_of(g) || players - fixed < g * out.max(1) {
            continue;
        }
        let shape = Shape {
            g,
            rows: (players - fixed) / g,
            fixed,
            out,
        };
        if let Some(found) = FOUND.iter().find(|f| f.fits(&shape)) {
            let base: Vec<[usize; 4]> = found.tables.iter().map(|t| t.map(usize::from)).collect();
            let byes: Vec<usize> = found.out.iter().map(|&p| usize::from(p)).collect();
            return Some(develop(&shape, &base, &byes, passen, rng));
        }
        for _ in 0..TRIES {
            let mut search = Backtrack {
                shape: &shape,
                used: vec![false; shape.orbits()],
                free: vec![true; players],
                tables: Vec::new(),
                byes: Vec::new(),
                steps: 0,
                rng: &mut *rng,
            };
            if search.fill() {
                let (base, byes) = (search.tables, search.byes);
                return Some(develop(&shape, &base, &byes, passen, rng));
            }
        }
    }
    None
}

/// The first `passen` shifts of a base Passe, the players given to its points in a seeded
/// random order.
fn develop(
    shape: &Shape,
    base: &[[usize; 4]],
    byes: &[usize],
    passen: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<DesignPasse> {
    let mut label: Vec<usize> = (0..shape.points()).collect();
    label.shuffle(rng);
    (0..passen)
        .map(|w| {
            let tables = base
                .iter()
                .map(|t| t.map(|p| label[shape.shifted(p, w)]))
                .collect();
            let out = byes.iter().map(|&p| label[shape.shifted(p, w)]).collect();
            (tables, out)
        })
        .collect()
}

/// A base Passe found once, offline, for a shape whose backtracking runs out of its budget:
/// the same conditions (every orbit at most once, at most one spielfrei point per row, no ∞
/// spielfrei), encoded as an exact cover for a SAT solver (cadical, under a minute). Points are
/// numbered as in [`Shape`]: `(i, j)` is `j·g + i`, the ∞ follow the rows.
struct Found {
    g: usize,
    rows: usize,
    fixed: usize,
    tables: &'static [[u8; 4]],
    out: &'static [u8],
}

impl Found {
    fn fits(&self, shape: &Shape) -> bool {
        (self.g, self.rows, self.fixed, self.out.len())
            == (shape.g, shape.rows, shape.fixed, shape.out)
    }
}

const FOUND: &[Found] = &[
    // 27 × 9: three rows of Z₉, one player of each row spielfrei per Passe.
    Found {
        g: 9,
        rows: 3,
        fixed: 0,
        tables: &[
            [0, 1, 6, 20],
            [25, 3, 21, 24],
            [4, 17, 11, 2],
            [5, 16, 22, 15],
            [7, 12, 10, 23],
            [26, 14, 9, 19],
        ],
        out: &[8, 13, 18],
    },
    // 38 × 12: three rows of Z₁₂ and two ∞, two spielfrei per Passe.
    Found {
        g: 12,
        rows: 3,
        fixed: 2,
        tables: &[
            [0, 17, 3, 2],
            [14, 7, 28, 36],
            [5, 37, 18, 35],
            [32, 29, 13, 23],
            [9, 15, 20, 19],
            [1, 30, 6, 22],
            [33, 26, 11, 25],
            [24, 21, 12, 34],
            [27, 16, 8, 4],
        ],
        out: &[10, 31],
    },
];

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use rand::SeedableRng;

    /// How often each pair met; asserts that every Passe seats everybody once or has them
    /// spielfrei, and nobody spielfrei twice. Also used by the stored designs' tests.
    pub(in crate::domain::einzel_draw) fn meetings(
        players: usize,
        weeks: &[DesignPasse],
    ) -> Vec<u32> {
        let mut meet = vec![0u32; players * players];
        let mut sat_out = vec![0; players];
        for (week, out) in weeks {
            let mut seen: Vec<usize> = week.iter().flatten().chain(out).copied().collect();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..players).collect::<Vec<_>>(),
                "a Passe seats everybody once or has them spielfrei"
            );
            assert_eq!(out.len(), players % 4);
            for &p in out {
                sat_out[p] += 1;
                assert_eq!(sat_out[p], 1, "player {p} spielfrei twice");
            }
            for t in week {
                for a in 0..4 {
                    for b in a + 1..4 {
                        meet[t[a].min(t[b]) * players + t[a].max(t[b])] += 1;
                    }
                }
            }
        }
        meet
    }

    #[test]
    fn the_tight_fields_get_schedules_without_a_repeated_meeting() {
        // 27 × 8 with three spielfrei per Passe (one row of eight players each); 27 × 9 and
        // 38 × 12 from the base Passen found offline.
        for (players, passen) in [
            (24, 7),
            (28, 9),
            (16, 5),
            (20, 5),
            (27, 8),
            (27, 9),
            (38, 12),
            (40, 13),
        ] {
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let weeks = rotational(players, passen, &mut rng)
                .unwrap_or_else(|| panic!("{players} × {passen}: a design"));
            assert_eq!(weeks.len(), passen);
            let meet = meetings(players, &weeks);
            assert!(
                meet.iter().all(|&m| m <= 1),
                "{players} × {passen}: a pair met twice"
            );
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_schedule_and_impossible_fields_none() {
        let draw = |seed| rotational(28, 9, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(draw(3), draw(3));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // 3R > N − 1: no schedule without repeats exists.
        assert_eq!(rotational(24, 8, &mut rng), None);
        assert_eq!(rotational(0, 5, &mut rng), None);
    }
}
