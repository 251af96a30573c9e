"""A local search for Einzelschieber schedules with a symmetry, for fields that miss their
target: the players as ROWS rows of Z_G plus FIXED points ∞ (as in einzel_rotational.py), and
BASES base Passen, each moved by the G shifts (BASES * G Passen). The spielfrei players of a
base Passe are points of rows that sit out nowhere else, so the shifts have each player of those
rows sit out once.

Where einzel_rotational.py asks a SAT solver whether a schedule of that form has at most so
many repeats (exhaustive, but often without an answer in half an hour), this anneals the base
Passen: a move swaps two players of one base Passe (at two tables, or a table and the
spielfrei, keeping the rows apart), and a schedule's cost is counted on the orbits of pairs —
a pair used k times in the base Passen meets k * G / (length of its orbit) times in the
schedule. Cost: its meeting repeats, a hundred more for every meeting beyond the second. The
search is small (BASES Passen instead of all of them), so a few minutes go a long way, but it
proves nothing.

The best schedule found is checked, its partners chosen (einzel_twice.seat_partners: nobody
partners anybody twice) and printed as the Rust rows of at_most_twice.rs.

Usage: pip install python-sat
       python3 bench/einzel_orbits.py G ROWS FIXED BASES TARGET [SEED] [SECONDS]
e.g.   python3 bench/einzel_orbits.py 5 6 0 2 5     (30 players x 10 Passen, Z_5 on six rows)
"""

import itertools
import math
import random
import sys
import time
from collections import Counter

from einzel_rotational import pair_orbits
from einzel_twice import check, print_rows, seat_partners


class Orbits:
    """Z_g on `rows` rows plus `fixed` fixed points (einzel_rotational.pair_orbits): every
    pair's orbit as a number, and each orbit's length."""

    def __init__(self, g, rows, fixed):
        self.g, self.finite = g, g * rows
        self.players = self.finite + fixed
        self.shift, orbit_of, members = pair_orbits(g, rows, fixed)
        number = {smallest: n for n, smallest in enumerate(members)}
        self.id = {pair: number[smallest] for pair, smallest in orbit_of.items()}
        self.length = [len(images) for images in members.values()]

    def of(self, p, q):
        return self.id[(p, q) if p < q else (q, p)]


class Search:
    def __init__(self, orbits, bases, rng):
        self.o, self.bases, self.rng = orbits, bases, rng
        g, players = orbits.g, orbits.players
        self.out = players % 4
        self.tables = players // 4
        rows = orbits.finite // g
        if self.out * bases > rows:
            sys.exit("more spielfrei rows needed than there are rows")
        # Base b: its seats (4 * tables, then `out` spielfrei). The spielfrei start as element
        # 0 of rows out*b, out*b + 1, ...; `resting_rows[b]` keeps each base's rows.
        self.seats = []
        for b in range(bases):
            resting = [(self.out * b + i) * g for i in range(self.out)]
            seated = [p for p in range(players) if p not in resting]
            rng.shuffle(seated)
            self.seats.append(seated + resting)
        self.used = self.count_used()
        self.cost = sum(self.orbit_cost(o) for o in range(len(orbits.length)))

    def count_used(self):
        """How often the base Passen use each orbit of pairs."""
        used = Counter()
        for b in range(self.bases):
            for table in self.tables_of(b):
                for p, q in itertools.combinations(table, 2):
                    used[self.o.of(p, q)] += 1
        return used

    def tables_of(self, b):
        s = self.seats[b]
        return [s[4 * t : 4 * t + 4] for t in range(self.tables)]

    def orbit_cost(self, o, used=None):
        length = self.o.length[o]
        k = self.used[o] if used is None else used
        meets = k * self.o.g // length
        return length * (max(meets - 1, 0) + 100 * max(meets - 2, 0))

    def mates(self, b, i):
        """The other seats at seat i's table (none for a spielfrei seat)."""
        if i >= 4 * self.tables:
            return []
        t = i // 4
        return [j for j in range(4 * t, 4 * t + 4) if j != i]

    def swap_delta(self, b, i, j):
        """Cost change of swapping seats i and j of base b (different tables), and the orbit
        counts to change."""
        s = self.seats[b]
        p, q = s[i], s[j]
        change = Counter()
        for k in self.mates(b, i):
            change[self.o.of(p, s[k])] -= 1
            change[self.o.of(q, s[k])] += 1
        for k in self.mates(b, j):
            change[self.o.of(q, s[k])] -= 1
            change[self.o.of(p, s[k])] += 1
        delta = 0
        for o, d in change.items():
            if d:
                delta += self.orbit_cost(o, self.used[o] + d) - self.orbit_cost(o)
        return delta, change

    def allowed(self, b, i, j):
        """A spielfrei seat takes only a point of a row no other spielfrei seat holds."""
        seated = 4 * self.tables
        if i // 4 == j // 4 and i < seated and j < seated:
            return False
        if (i >= seated) == (j >= seated):
            return i < seated
        rest, new = (i, j) if i >= seated else (j, i)
        q = self.seats[b][new]
        if q >= self.o.finite:
            return False
        row = q // self.o.g
        old_row = self.seats[b][rest] // self.o.g
        if row == old_row:
            return True
        for c in range(self.bases):
            for k in range(seated, seated + self.out):
                if self.seats[c][k] // self.o.g == row:
                    return False
        return True

    def apply(self, b, i, j, change):
        s = self.seats[b]
        s[i], s[j] = s[j], s[i]
        for o, d in change.items():
            self.used[o] += d

    def anneal(self, target, seconds, report):
        best, best_seats = self.cost, [list(s) for s in self.seats]
        start = time.time()
        temperature, steps = 2.0, 0
        n = len(self.seats[0])
        while time.time() - start < seconds and best > target:
            steps += 1
            b = self.rng.randrange(self.bases)
            i, j = self.rng.randrange(n), self.rng.randrange(n)
            if not self.allowed(b, i, j):
                continue
            delta, change = self.swap_delta(b, i, j)
            if delta <= 0 or self.rng.random() < math.exp(-delta / temperature):
                self.apply(b, i, j, change)
                self.cost += delta
                if self.cost < best:
                    best, best_seats = self.cost, [list(s) for s in self.seats]
                    report(best, time.time() - start)
            if steps % 20000 == 0:
                temperature *= 0.97
                if temperature < 0.05:
                    # Reheat from the best schedule found.
                    temperature = 1.5
                    self.seats = [list(s) for s in best_seats]
                    self.used = self.count_used()
                    self.cost = best
        self.seats = best_seats
        return best

    def schedule(self):
        """All Passen: per Passe its tables and its spielfrei."""
        passen = []
        for b in range(self.bases):
            for s in range(self.o.g):
                moved = [self.o.shift(p, s) for p in self.seats[b]]
                seated = 4 * self.tables
                passen.append(([moved[4 * t : 4 * t + 4] for t in range(self.tables)], moved[seated:]))
        return passen


def main():
    g, rows, fixed, bases, target = map(int, sys.argv[1:6])
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    seconds = float(sys.argv[7]) if len(sys.argv) > 7 else 120
    orbits = Orbits(g, rows, fixed)
    search = Search(orbits, bases, random.Random(seed))
    players, passen = orbits.players, g * bases
    print(f"{players} x {passen} (Z_{g}, {rows} rows, {fixed} fixed, {bases} base): start {search.cost}", flush=True)
    best = search.anneal(target, seconds, lambda c, t: print(f"  {c} after {t:.1f} s", flush=True))
    schedule = search.schedule()
    seated = seat_partners([tables for tables, _ in schedule])
    if seated is None:
        print(f"best {best}: no seating without a partner twice")
        return
    spielfrei = [out for _, out in schedule]
    meetings = check(players, seated, spielfrei)
    repeats = sum(m - 1 for m in meetings.values())
    sat_out = Counter(p for out in spielfrei for p in out)
    print(
        f"{players} x {passen}: {repeats} repeats (cost {best}), most meetings {max(meetings.values())}, "
        f"never met {players * (players - 1) // 2 - len(meetings)}, most spielfrei {max(sat_out.values(), default=0)}"
    )
    print_rows(seated, spielfrei)


if __name__ == "__main__":
    main()
