"""Fields with two spielfrei players per Passe at their fewest: the players who never sit out
seated in pairs. A SAT question of a restricted form, to find schedules (UNSAT says nothing
about the field, only about the form).

In 18x6, 22x7, 22x8, 26x9, 30x10 and 34x12 (N = 4T + 2, two spielfrei per Passe, nobody twice)
counting says where the fewest repeats would lie: each of the 2R players who sit out once
(S) meets every other player once or misses a few, and only the F = N - 2R players who never
sit out meet each other more than once. If in every Passe the F players sit two by two at
F / 2 tables, each with two S players (the other tables four S players), then each F player
meets two S players per Passe — all 2R of them once over the R Passen — and each S player
meets F players at exactly F / 2 of his Passen: the counts come out exactly at the fewest in
all six fields (18x6 3, 22x7 0, 22x8 9, 26x9 8, 30x10 5, 34x12 15: the F pairs of a Passe are a
perfect matching of the F players, R of them covering every F pair, the rest repeats). So
this form asks: S players meet every F player exactly once and each other at most once,
every F pair meets (with `--ff-exact`, exactly once: 22x7 without a repeat), two F and two
S at each of F / 2 tables per Passe.

Symmetry: S players 2r and 2r + 1 (numbered after F) sit out Passe r; the F players sit in
Passe 1 two by two at tables 1, 2, ...; F tables are ordered by their smallest F player and
the other tables by their smallest player. Swapping the two F players of a table of Passe 1,
or the two S players who sit out together, changes nothing else, so the smaller number sits
at a table no later than the larger's: the F players in Passe 2, the S players in Passe 1
(those of Passe 1 in Passe 2). The swaps are of consecutive numbers, so they reorder at most
the tables those players head; taken in increasing order each keeps a representative of
every schedule.

Usage: pip install python-sat; python3 bench/einzel_paired.py 18 6 60   (UNSAT, about 15 s)
       python3 bench/einzel_paired.py 22 7 900 --ff-exact
"""

import itertools
import sys
import time

from einzel_floor import UNKNOWN, Seating, answer_within
from einzel_rotational import check
from pysat.card import CardEnc


def model(players, passen, ff_exact):
    """The clauses of a schedule of this form, the symmetry broken as set out above."""
    full = players - 2 * passen
    f_tables, tables = full // 2, players // 4
    spielfrei = [{full + 2 * r, full + 2 * r + 1} for r in range(passen)]
    seating = Seating(players, passen, spielfrei)
    seat, clauses, playing = seating.seat, seating.clauses, seating.playing
    for p, q in itertools.combinations(range(players), 2):
        both = seating.meetings(p, q)
        seating.met_only_at_a_shared_table(p, q, both)
        literals = [seating.met(p, q, r) for r in both]
        if q < full and not ff_exact:
            clauses.append(literals)
        elif p < full:
            seating.cardinality(literals, 1, CardEnc.equals)
        else:
            seating.cardinality(literals, 1, CardEnc.atmost)
    for r, t in itertools.product(range(passen), range(tables)):
        seating.cardinality([seat(f, r, t) for f in range(full)], 2 if t < f_tables else 0, CardEnc.equals)
    clauses.extend([seat(f, 0, f // 2)] for f in range(full))
    for r in range(passen):
        for p in (p for p in range(players) if playing(p, r)):
            for t in range(f_tables + 1, tables):
                clauses.append([-seat(p, r, t)] + [seat(q, r, t - 1) for q in range(p) if playing(q, r)])
            if p < full:
                clauses.extend([-seat(p, r, t)] + [seat(q, r, t - 1) for q in range(p)] for t in range(1, f_tables))
    for t in range(f_tables):
        seating.not_at_a_larger_table(2 * t, 2 * t + 1, 1, strict=False)
    for r in range(passen):
        seating.not_at_a_larger_table(full + 2 * r, full + 2 * r + 1, 1 if r == 0 else 0, strict=False)
    return seating


def repeats(players, passen, tables):
    """A schedule found, checked (einzel_rotational's check: everybody but Passe r's spielfrei
    seated once, tables of four), and its repeats."""
    full = players - 2 * passen
    found, _, _ = check(players, [(passe, [full + 2 * r, full + 2 * r + 1]) for r, passe in enumerate(tables)])
    return found


def ask(players, passen, ff_exact):
    """A schedule of this form (each Passe's tables), or None if there is none."""
    return model(players, passen, ff_exact).solve("cadical195")


def main():
    players, passen, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    full = players - 2 * passen
    if players % 4 != 2 or full < 2 or full // 2 > players // 4:
        sys.exit("covered: N = 4T + 2 with two spielfrei per Passe, nobody twice, at most T F pairs")
    start = time.time()
    tables = answer_within(seconds, ask, players, passen, "--ff-exact" in sys.argv)
    took = time.time() - start
    if tables is None:
        print(f"{players} x {passen}: UNSAT in this form ({took:.1f} s)")
    elif tables == UNKNOWN:
        print(f"{players} x {passen}: no answer in {seconds:.0f} s")
    else:
        print(f"{players} x {passen}: SAT, {repeats(players, passen, tables)} repeats ({took:.1f} s): {tables}")


if __name__ == "__main__":
    main()
