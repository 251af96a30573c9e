//! The cost model of the search: how often each pair met and partnered, what a repeat, a
//! partner twice and a same-Verein table mate cost, and the change of a seat swap.

use super::passe::EinzelPasse;

/// Cost of a pair having met `m` times: nothing for once, ten per repeat, and much more for
/// a third meeting, so the search spreads repeats over many pairs.
pub(super) fn meet_cost(m: u8) -> i64 {
    match m {
        0 | 1 => 0,
        2 => 10,
        m => 10 + 300 * i64::from(m - 2) * i64::from(m - 1),
    }
}

/// A repeated partner outweighs any number of repeated meetings.
pub(super) const PARTNER_COST: i64 = 1_000_000;

/// A same-Verein table mate, when asked for: a tenth of a repeated meeting.
pub(super) const CLUB_COST: i64 = 1;

#[derive(Clone)]
pub(super) struct Search<'a> {
    pub(super) n: usize,
    pub(super) meet: Vec<u8>,
    pub(super) partner: Vec<u8>,
    pub(super) clubs: Option<&'a [Option<u32>]>,
    pub(super) club_cost: i64,
}

impl Search<'_> {
    pub(super) fn at(&self, a: usize, b: usize) -> usize {
        a * self.n + b
    }
    pub(super) fn add_table(&mut self, table: &[usize; 4], sign: i8) {
        for i in 0..4 {
            for j in 0..4 {
                if i != j {
                    let k = self.at(table[i], table[j]);
                    self.meet[k] = self.meet[k].wrapping_add_signed(sign);
                }
            }
            let k = self.at(table[i], table[EinzelPasse::partner_seat(i)]);
            self.partner[k] = self.partner[k].wrapping_add_signed(sign);
        }
    }
    pub(super) fn same_club(&self, a: usize, b: usize) -> bool {
        self.clubs
            .and_then(|c| Some((c.get(a).copied()??, c.get(b).copied()??)))
            .is_some_and(|(x, y)| x == y)
    }
    pub(super) fn partner_cost(p: u8) -> i64 {
        if p <= 1 {
            0
        } else {
            PARTNER_COST * i64::from(p - 1)
        }
    }
    /// Cost change if `leaving` gives its seat `seat` at `table` to `coming`.
    pub(super) fn seat_change(
        &self,
        table: &[usize; 4],
        seat: usize,
        leaving: usize,
        coming: usize,
    ) -> i64 {
        let mut delta = 0;
        for (i, &x) in table.iter().enumerate() {
            if i == seat {
                continue;
            }
            let old = self.meet[self.at(leaving, x)];
            let new = self.meet[self.at(coming, x)];
            delta += meet_cost(old - 1) - meet_cost(old) + meet_cost(new + 1) - meet_cost(new);
            if self.same_club(leaving, x) {
                delta -= self.club_cost;
            }
            if self.same_club(coming, x) {
                delta += self.club_cost;
            }
        }
        let mate = table[EinzelPasse::partner_seat(seat)];
        let old = self.partner[self.at(leaving, mate)];
        let new = self.partner[self.at(coming, mate)];
        delta += Self::partner_cost(old - 1) - Self::partner_cost(old)
            + Self::partner_cost(new + 1)
            - Self::partner_cost(new);
        delta
    }
    pub(super) fn apply_swap(
        &mut self,
        tables: &mut [[usize; 4]],
        (t1, s1): (usize, usize),
        (t2, s2): (usize, usize),
    ) {
        let (a, b) = (tables[t1][s1], tables[t2][s2]);
        let touched: &[usize] = if t1 == t2 { &[t1] } else { &[t1, t2] };
        for &t in touched {
            self.add_table(&tables[t], -1);
        }
        tables[t1][s1] = b;
        tables[t2][s2] = a;
        for &t in touched {
            self.add_table(&tables[t], 1);
        }
    }
    /// Repeats of a player's table mates in a table: whether it is worth moving.
    pub(super) fn troubled(&self, table: &[usize; 4], seat: usize) -> bool {
        let p = table[seat];
        table.iter().enumerate().any(|(i, &x)| {
            i != seat
                && (self.meet[self.at(p, x)] > 1
                    || self.partner[self.at(p, x)] > 1
                    || (self.club_cost > 0 && self.same_club(p, x)))
        })
    }
}
