"""Is there an Einzelschieber schedule without a repeated meeting? An exhaustive answer.

N players over R Passen at tables of four; N % 4 players are spielfrei in each Passe and
nobody twice (the draw's rotation, while N % 4 * R <= N). A SAT solver is asked for a schedule
in which no two players sit at one table twice; "UNSAT" for every case means there is none,
and the fewest repeats a schedule of this field can have is at least 1 (the draw's bound,
src/domain/einzel_draw/bound.rs, lists such fields).

Symmetry, so that the search is finite in practice: players are renamed so that the
spielfrei of Passe r are fixed players (S, the last ones), the others (F) are renamed in
the order they sit in Passe 1, and tables within a Passe are ordered by their smallest
player. With one spielfrei per Passe, the S players of Passe 1 sit together as one of the
integer partitions of R - 1 into at most N // 4 parts of at most 4 (renaming the later
Passen with their spielfrei players gives every other arrangement): one case each.
Without spielfrei, Passe 1 is fixed outright and the later Passen are ordered. Other fields are not covered.

Usage: pip install python-sat; python3 bench/einzel_floor.py 17 5
"""

import itertools
import sys
import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver


def partitions(total, parts, largest):
    """The integer partitions of total into at most `parts` parts of at most `largest`."""
    if total == 0:
        yield []
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, parts - 1, first):
            yield [first] + rest


class Seating:
    """The SAT model of a schedule that this script and einzel_twice.py share: the literal
    seat(p, r, t) for player p at table t in Passe r and met(p, q, r) for p and q at one table
    in Passe r (implied by their seats, see `meetings`); clauses seat every player who is not
    spielfrei at one table per Passe and four players at each table."""

    def __init__(self, players, passen, spielfrei):
        self.players, self.passen, self.tables = players, passen, players // 4
        self.spielfrei = spielfrei
        self.pool, self.clauses = IDPool(), []
        for p, r in itertools.product(range(players), range(passen)):
            if self.playing(p, r):
                self.cardinality([self.seat(p, r, t) for t in range(self.tables)], 1, CardEnc.equals)
            else:
                self.clauses.extend([-self.seat(p, r, t)] for t in range(self.tables))
        for r, t in itertools.product(range(passen), range(self.tables)):
            playing = [self.seat(p, r, t) for p in range(players) if self.playing(p, r)]
            self.cardinality(playing, 4, CardEnc.equals)

    def playing(self, p, r):
        return p not in self.spielfrei[r]

    def seat(self, p, r, t):
        return self.pool.id(("seat", p, r, t))

    def met(self, p, q, r):
        return self.pool.id(("met", p, q, r))

    def cardinality(self, literals, bound, encode):
        encoded = encode(lits=literals, bound=bound, vpool=self.pool, encoding=EncType.seqcounter)
        self.clauses.extend(encoded.clauses)

    def meetings(self, p, q):
        """The Passen that p and q both play, with met(p, q, r) implied by a shared table."""
        both = [r for r in range(self.passen) if self.playing(p, r) and self.playing(q, r)]
        for r, t in itertools.product(both, range(self.tables)):
            self.clauses.append([-self.seat(p, r, t), -self.seat(q, r, t), self.met(p, q, r)])
        return both

    def met_only_at_a_shared_table(self, p, q, both):
        """met(p, q, r) for r in `both` only where p and q share a table, so that "met" (and
        so "never met") is counted exactly, not just bounded from below."""
        for r in both:
            together = [self.pool.id(("both", p, q, r, t)) for t in range(self.tables)]
            for t, shared in enumerate(together):
                self.clauses.extend([[-shared, self.seat(p, r, t)], [-shared, self.seat(q, r, t)]])
            self.clauses.append([-self.met(p, q, r)] + together)

    def solve(self, solver_name):
        """Each Passe's tables in a model of the clauses, or None if there is none."""
        with Solver(name=solver_name, bootstrap_with=self.clauses) as solver:
            if not solver.solve():
                return None
            model = {literal for literal in solver.get_model() if literal > 0}
        return [
            [[p for p in range(self.players) if self.seat(p, r, t) in model] for t in range(self.tables)]
            for r in range(self.passen)
        ]


def solve(players, passen, sizes):
    """A schedule without a repeat whose first Passe seats the S players as `sizes`, or None."""
    tables, out = players // 4, players % 4
    full = players - out * passen
    spielfrei = [set(range(full + out * r, full + out * (r + 1))) for r in range(passen)]
    model = Seating(players, passen, spielfrei)
    seat, clauses, playing = model.seat, model.clauses, model.playing
    for p, q in itertools.combinations(range(players), 2):
        both = model.meetings(p, q)
        if len(both) > 1:
            model.cardinality([model.met(p, q, r) for r in both], 1, CardEnc.atmost)
    # The first Passe: the S players in groups of `sizes`, then the F players in order.
    s_players = iter(sorted(p for p in range(full, players) if playing(p, 0)))
    first = [[next(s_players) for _ in range(size)] for size in sizes]
    first += [[] for _ in range(tables - len(first))]
    f_players = iter(range(full))
    for table, group in enumerate(first):
        group += [next(f_players) for _ in range(4 - len(group))]
        clauses.extend([seat(p, 0, table)] for p in group)
    # Later Passen: a table's smallest player is smaller than the next table's.
    for r, t, p in itertools.product(range(1, passen), range(1, tables), range(players)):
        if playing(p, r):
            clauses.append([-seat(p, r, t)] + [seat(q, r, t - 1) for q in range(p) if playing(q, r)])
    # Without spielfrei the later Passen are interchangeable: ordered by player 0's smallest
    # table mate (player 0 sits at table 0 in each; no mate twice, so these differ).
    if out == 0:
        for r, p in itertools.product(range(2, passen), range(1, players)):
            clauses.append([-seat(p, r, 0)] + [seat(q, r - 1, 0) for q in range(1, p)])
    return model.solve("cadical195")


def main():
    players, passen = int(sys.argv[1]), int(sys.argv[2])
    out = players % 4
    if out > 1 or out * passen > players:
        sys.exit("covered: no spielfrei, or one per Passe and nobody twice")
    cases = list(partitions(passen - 1, players // 4, 4)) if out else [[]]
    for sizes in cases:
        start = time.time()
        schedule = solve(players, passen, sizes)
        answer = "UNSAT" if schedule is None else f"SAT {schedule}"
        print(f"{players} x {passen}, spielfrei of Passe 1 seated {sizes}: {answer} ({time.time() - start:.1f} s)", flush=True)
        if schedule is not None:
            return
    print(f"{players} x {passen}: no schedule without a repeated meeting")


if __name__ == "__main__":
    main()
