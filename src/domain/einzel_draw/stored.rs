//! Schedules without a repeated meeting for tight fields that neither the annealing search nor
//! the 1-rotational design search reaches: 32 players × 10 Passen, the social golfer instance
//! 8-4-10 (a Passe more than the affine geometry AG(5,2) gives; long open, first solved by a
//! construction in 2004).
//!
//! The design was found once, offline, as an exact cover with a prescribed symmetry (the
//! group Z₂³ of order 8, the symmetry of the known solutions; a SAT solver took about five
//! minutes) and is stored here as its base tables; this module develops them. The points are
//! rows of the group's elements (`8·row + v`, moved by `g` to `8·row + (v ⊕ g)`). A *class*
//! of Passen is one base Passe fixed by a subgroup `H`: its tables are the images of the base
//! tables under `H`, and the class's Passen are its images under the group, one per coset of
//! `H`. The players are given to the points in a seeded random order; a field of fewer Passen
//! takes the first ones.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// The order of the group Z₂³.
const ORDER: usize = 8;

/// The point `point` moved by the group element `g`.
fn apply(g: usize, point: usize) -> usize {
    point / ORDER * ORDER + ((point % ORDER) ^ g)
}

/// `g` and `h` lie in the same coset of the subgroup `sub`.
fn same_coset(g: usize, h: usize, sub: &[u8]) -> bool {
    sub.iter().any(|&s| usize::from(s) == g ^ h)
}

/// One class of Passen: the subgroup fixing its base Passe and the base tables.
struct Class {
    stabiliser: &'static [u8],
    tables: &'static [[u8; 4]],
}

struct Stored {
    players: usize,
    classes: &'static [Class],
}

/// Z₂³ fixes four Passen whole; three pairs of Passen are fixed by a subgroup of order 4.
const ALL8: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7];
const GOLFER_32: Stored = Stored {
    players: 32,
    classes: &[
        Class {
            stabiliser: ALL8,
            tables: &[[0, 6, 26, 28], [8, 10, 12, 14], [16, 17, 22, 23]],
        },
        Class {
            stabiliser: ALL8,
            tables: &[[0, 2, 5, 7], [8, 13, 18, 23], [24, 25, 28, 29]],
        },
        Class {
            stabiliser: ALL8,
            tables: &[[0, 4, 18, 22], [8, 15, 25, 30]],
        },
        Class {
            stabiliser: ALL8,
            tables: &[[0, 8, 19, 27]],
        },
        Class {
            stabiliser: &[0, 1, 2, 3],
            tables: &[[0, 10, 23, 29], [4, 15, 17, 26]],
        },
        Class {
            stabiliser: &[0, 1, 2, 3],
            tables: &[[0, 13, 17, 31], [4, 5, 10, 11], [20, 22, 25, 27]],
        },
        Class {
            stabiliser: &[0, 1, 4, 5],
            tables: &[[0, 9, 16, 25], [2, 14, 22, 26]],
        },
    ],
};

const DESIGNS: [&Stored; 1] = [&GOLFER_32];

impl Stored {
    fn passen_count(&self) -> usize {
        self.classes
            .iter()
            .map(|c| ORDER / c.stabiliser.len())
            .sum()
    }
    /// Every Passe of the design, as tables of points.
    fn passen(&self) -> Vec<Vec<[usize; 4]>> {
        let mut passen = Vec::new();
        for class in self.classes {
            let mut base: Vec<[usize; 4]> = Vec::new();
            for table in class.tables {
                for &h in class.stabiliser {
                    let mut image = table.map(|p| apply(usize::from(h), usize::from(p)));
                    image.sort_unstable();
                    if !base.contains(&image) {
                        base.push(image);
                    }
                }
            }
            let mut representatives: Vec<usize> = Vec::new();
            for g in 0..ORDER {
                if representatives
                    .iter()
                    .all(|&r| !same_coset(g, r, class.stabiliser))
                {
                    representatives.push(g);
                }
            }
            for g in representatives {
                passen.push(base.iter().map(|t| t.map(|p| apply(g, p))).collect());
            }
        }
        passen
    }
}

/// Whether a design is stored for `players` that has `passen` Passen or more.
pub fn covers(players: usize, passen: usize) -> bool {
    DESIGNS
        .iter()
        .any(|d| d.players == players && passen <= d.passen_count())
}

/// The stored design's first `passen` Passen for `players`, players placed in a seeded order;
/// None where no design is stored for that field.
pub fn schedule(
    players: usize,
    passen: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<Vec<[usize; 4]>>> {
    let design = DESIGNS.iter().find(|d| d.players == players)?;
    let all = design.passen();
    if passen == 0 || passen > all.len() {
        return None;
    }
    let mut label: Vec<usize> = (0..players).collect();
    label.shuffle(rng);
    Some(
        all.into_iter()
            .take(passen)
            .map(|tables| tables.iter().map(|t| t.map(|p| label[p])).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::einzel_draw::design::tests::meetings;
    use rand::SeedableRng;

    #[test]
    fn thirty_two_players_meet_nobody_twice_in_ten_passen() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let passen = schedule(32, 10, &mut rng).expect("stored");
        assert_eq!(passen.len(), 10);
        let passen: Vec<_> = passen.into_iter().map(|t| (t, Vec::new())).collect();
        let meet = meetings(32, &passen);
        assert!(meet.iter().all(|&m| m <= 1));
        // 10 Passen × 8 tables × 6 pairs, all different.
        assert_eq!(meet.iter().filter(|&&m| m == 1).count(), 480);
    }

    #[test]
    fn fields_without_a_stored_design_get_none_and_a_seed_its_order() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(schedule(28, 9, &mut rng), None);
        assert_eq!(schedule(24, 8, &mut rng), None);
        assert_eq!(schedule(32, 11, &mut rng), None);
        let draw = |seed| schedule(32, 10, &mut ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(5));
    }
}
