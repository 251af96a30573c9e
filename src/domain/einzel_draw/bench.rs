//! Who sits out (spielfrei): the rotation before the search, the trades the search may make
//! with it, and a design renamed onto it.

use super::cost::*;
use super::passe::*;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Who is spielfrei in each of `passen` Passen after `fixed`: those who sat out least so far,
/// ties in a seeded order, so that nobody sits out twice before everybody once.
pub(super) fn byes(
    players: usize,
    absent: &[usize],
    fixed: &[EinzelPasse],
    passen: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..players).filter(|p| !absent.contains(p)).collect();
    let out = order.len() % 4;
    let mut sat_out = vec![0u32; players];
    for passe in fixed {
        for &p in &passe.spielfrei {
            sat_out[p] += 1;
        }
    }
    order.shuffle(rng);
    (0..passen)
        .map(|_| {
            // Stable sort keeps the seeded order among equals: the rotation goes on.
            order.sort_by_key(|&p| sat_out[p]);
            let chosen: Vec<usize> = order[..out].to_vec();
            for &p in &chosen {
                sat_out[p] += 1;
            }
            // The ones just chosen go to the end of their new class.
            order.rotate_left(out);
            chosen
        })
        .collect()
}

/// Renames the players of `next` (Passen of all `players`) so that those it has spielfrei are
/// the ones who sat out least in `before`: nobody sits out twice before everybody once.
pub(super) fn onto_rotation(
    players: usize,
    before: &[EinzelPasse],
    next: Vec<EinzelPasse>,
    rng: &mut ChaCha8Rng,
) -> Vec<EinzelPasse> {
    let mut sat_out = vec![0u32; players];
    for &p in before.iter().flat_map(|passe| &passe.spielfrei) {
        sat_out[p] += 1;
    }
    let mut least: Vec<usize> = (0..players).collect();
    least.shuffle(rng);
    least.sort_by_key(|&p| sat_out[p]);
    // The design's points, those it has spielfrei first (each once), named in that order.
    let mut points: Vec<usize> = next
        .iter()
        .flat_map(|p| p.spielfrei.iter().copied())
        .collect();
    points.extend(
        (0..players)
            .filter(|p| !points.contains(p))
            .collect::<Vec<_>>(),
    );
    let mut name = vec![0; players];
    for (point, player) in points.into_iter().zip(least) {
        name[point] = player;
    }
    next.into_iter()
        .map(|passe| EinzelPasse {
            tables: passe.tables.iter().map(|t| t.map(|p| name[p])).collect(),
            spielfrei: passe.spielfrei.iter().map(|&p| name[p]).collect(),
        })
        .collect()
}

/// Who is spielfrei in the Passen being drawn, for moves that give a player's seat to one who
/// sits out, as long as the rotation's rule still holds: where nobody sits out twice (the
/// fixed Passen counted), any player who has not sat out may take the place on the bench of
/// one who has; where some do (small fields, see [`ROTATION_CHECK_MAX_PLAYERS`]), each trade
/// is checked against the whole rotation. Which players sit out is then searched with the
/// tables, not fixed beforehand.
#[derive(Clone)]
pub(super) struct Bench {
    pub(super) byes: Vec<Vec<usize>>,
    pub(super) sat_out: Vec<u32>,
    /// Where some player sits out more than once (more spielfrei places than players, 19 × 7):
    /// the record for checking the whole rotation on each trade.
    pub(super) rotation: Option<Rotation>,
}

/// The rotation's record where players sit out more than once: the Passen (fixed ones first,
/// then the ones drawn) in which each player sits out, in order, and who takes part at all.
#[derive(Clone)]
pub(super) struct Rotation {
    pub(super) when: Vec<Vec<usize>>,
    pub(super) present: Vec<bool>,
    pub(super) fixed: usize,
}

impl Rotation {
    /// The Passe of `p`'s (k + 1)-th time out if `seated` sat out in Passe `at` instead of
    /// `resting`.
    pub(super) fn nth(
        &self,
        p: usize,
        k: usize,
        (at, seated, resting): (usize, usize, usize),
    ) -> Option<usize> {
        let times = &self.when[p];
        let before = times.partition_point(|&t| t < at);
        if p == seated {
            match k.cmp(&before) {
                std::cmp::Ordering::Less => times.get(k).copied(),
                std::cmp::Ordering::Equal => Some(at),
                std::cmp::Ordering::Greater => times.get(k - 1).copied(),
            }
        } else if p == resting {
            times.get(if k < before { k } else { k + 1 }).copied()
        } else {
            times.get(k).copied()
        }
    }
}

/// Fields up to this size may move the bench where players sit out more than once (the
/// rotation is then checked whole on every trade; only small fields have that many places).
pub(super) const ROTATION_CHECK_MAX_PLAYERS: usize = 64;

impl Bench {
    pub(super) fn new(
        players: usize,
        fixed: &[EinzelPasse],
        byes: &[Vec<usize>],
        absent: &[usize],
    ) -> Option<Bench> {
        if byes.iter().all(Vec::is_empty) {
            return None;
        }
        let mut when: Vec<Vec<usize>> = vec![Vec::new(); players];
        let all = fixed.iter().map(|passe| &passe.spielfrei).chain(byes);
        for (passe, out) in all.enumerate() {
            for &p in out {
                when[p].push(passe);
            }
        }
        let sat_out: Vec<u32> = when.iter().map(|times| times.len() as u32).collect();
        let rotation = if sat_out.iter().all(|&c| c <= 1) {
            None
        } else if players <= ROTATION_CHECK_MAX_PLAYERS {
            Some(Rotation {
                when,
                present: (0..players).map(|p| !absent.contains(&p)).collect(),
                fixed: fixed.len(),
            })
        } else {
            return None;
        };
        Some(Bench {
            byes: byes.to_vec(),
            sat_out,
            rotation,
        })
    }

    /// Whether `seated` may sit out in Passe `w` instead of `resting` and the rotation still
    /// holds: nobody sits out a (k + 1)-th time before everybody has sat out k times.
    pub(super) fn may_trade(&self, w: usize, seated: usize, resting: usize) -> bool {
        let Some(rotation) = &self.rotation else {
            // Nobody sits out twice: any player who has not sat out may.
            return self.sat_out[seated] == 0;
        };
        let trade = (rotation.fixed + w, seated, resting);
        let players = self.sat_out.len();
        let most = self.sat_out.iter().max().map_or(0, |&m| m as usize + 1);
        (1..most).all(|k| {
            // The k-th time of everybody present, and the earliest (k + 1)-th of anybody.
            let latest_kth = (0..players)
                .filter(|&p| rotation.present[p])
                .try_fold(0, |latest, p| {
                    Some(latest.max(rotation.nth(p, k - 1, trade)?))
                });
            let earliest_next = (0..players).filter_map(|p| rotation.nth(p, k, trade)).min();
            match (latest_kth, earliest_next) {
                (_, None) => true,
                (None, Some(_)) => false,
                (Some(latest), Some(next)) => latest <= next,
            }
        })
    }

    /// The player at `seat` of `table` (in Passe `w`) sits out in place of the `i`-th who did,
    /// who takes the seat, the counts kept; returns (who sat, who sat out).
    pub(super) fn trade(
        &mut self,
        search: &mut Search<'_>,
        (w, i): (usize, usize),
        table: &mut [usize; 4],
        seat: usize,
    ) -> (usize, usize) {
        let seated = table[seat];
        let resting = std::mem::replace(&mut self.byes[w][i], seated);
        self.sat_out[seated] += 1;
        self.sat_out[resting] -= 1;
        if let Some(rotation) = &mut self.rotation {
            let at = rotation.fixed + w;
            rotation.when[resting].retain(|&t| t != at);
            let times = &mut rotation.when[seated];
            times.insert(times.partition_point(|&t| t < at), at);
        }
        search.add_table(table, -1);
        table[seat] = resting;
        search.add_table(table, 1);
        (seated, resting)
    }
}
