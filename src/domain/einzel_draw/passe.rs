//! What the draw works on and gives: a Passe of tables and spielfrei players, the request,
//! and the quality of a schedule (repeats against the fewest possible).

use super::bound::meeting_bound;

/// One Passe: the tables (seats A1, A2, B1, B2 as indices into the players) in table-number
/// order, and who is spielfrei.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EinzelPasse {
    pub tables: Vec<[usize; 4]>,
    pub spielfrei: Vec<usize>,
}

impl EinzelPasse {
    /// The partner of the player at `seat` (0 A1 ↔ 1 A2, 2 B1 ↔ 3 B2).
    pub fn partner_seat(seat: usize) -> usize {
        seat ^ 1
    }
}

/// What to draw.
pub struct EinzelRequest<'a> {
    pub players: usize,
    /// The Passen already played or fixed, in order; they are not changed.
    pub fixed: &'a [EinzelPasse],
    /// How many Passen to draw after them.
    pub passen: usize,
    /// Each player's Verein as a number (same number, same Verein); None: not considered.
    pub clubs: Option<&'a [Option<u32>]>,
    /// Players who take no seat in the Passen to draw (disqualified, withdrawn); they keep
    /// their index so that the fixed Passen stay as they were.
    pub absent: &'a [usize],
    pub seed: u64,
}

impl EinzelRequest<'_> {
    /// A whole schedule for the whole field: nothing played yet, nobody absent — what the
    /// designs and the stored schedules are made for.
    pub(super) fn is_whole(&self) -> bool {
        self.fixed.is_empty() && self.absent.is_empty()
    }
}

/// The quality of a schedule, as the draw list prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawQuality {
    /// Partner pairs beyond the first time (a pair partnered three times counts 2).
    pub partner_repeats: u32,
    /// Opponent pairs beyond the first time.
    pub opponent_repeats: u32,
    /// Meetings (same table) beyond the first time, summed over all pairs.
    pub meeting_repeats: u32,
    /// The most often two players met.
    pub most_meetings: u32,
    /// Pairs of the same Verein at one table, over all Passen.
    pub same_club: u32,
    /// Players at the same table number as in the Passe before.
    pub same_table: u32,
    /// The fewest meeting repeats a schedule of this field can have in which no pair meets
    /// more often than in this one (see [`meeting_bound`]).
    pub bound: u32,
}

/// The quality of the Passen `schedule` (the fixed ones included).
pub fn quality(
    players: usize,
    schedule: &[EinzelPasse],
    clubs: Option<&[Option<u32>]>,
) -> DrawQuality {
    let n = players;
    let mut meet = vec![0u32; n * n];
    let mut partner = vec![0u32; n * n];
    let mut opponent = vec![0u32; n * n];
    let mut played = vec![0u32; n];
    let mut q = DrawQuality::default();
    let mut last: Vec<Option<usize>> = vec![None; n];
    for passe in schedule {
        let mut now: Vec<Option<usize>> = vec![None; n];
        for (number, table) in passe.tables.iter().enumerate() {
            for (i, &a) in table.iter().enumerate() {
                played[a] += 1;
                now[a] = Some(number);
                if last[a] == Some(number) {
                    q.same_table += 1;
                }
                for (j, &b) in table.iter().enumerate().skip(i + 1) {
                    meet[a * n + b] += 1;
                    if j == EinzelPasse::partner_seat(i) {
                        partner[a * n + b] += 1;
                    } else {
                        opponent[a * n + b] += 1;
                    }
                    let same = clubs
                        .and_then(|c| Some((c.get(a).copied()??, c.get(b).copied()??)))
                        .is_some_and(|(x, y)| x == y);
                    if same {
                        q.same_club += 1;
                    }
                }
            }
        }
        last = now;
    }
    let sym = |v: &[u32], a: usize, b: usize| v[a * n + b] + v[b * n + a];
    for a in 0..n {
        for b in a + 1..n {
            let m = sym(&meet, a, b);
            q.meeting_repeats += m.saturating_sub(1);
            q.most_meetings = q.most_meetings.max(m);
            q.partner_repeats += sym(&partner, a, b).saturating_sub(1);
            q.opponent_repeats += sym(&opponent, a, b).saturating_sub(1);
        }
    }
    let seated: Vec<usize> = schedule.iter().map(|p| 4 * p.tables.len()).collect();
    q.bound = meeting_bound(n, &played, &seated, q.most_meetings);
    q
}
