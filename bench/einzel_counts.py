"""Is there a 1-rotational Einzelschieber schedule at the counting bound, for fields just beyond
the limit where counting alone says how often each pair orbit must be used?

Three rows of Z_G (point (i, j) is j·G + i), one base Passe moved by every shift (G Passen),
spielfrei points in the first rows, at most one per row (so each of their players sits out
once). A base Passe's pair goes over its orbit once; a pair at the half-length difference G/2
goes over its orbit (G/2 pairs) twice, so each of those pairs meets twice. A player of a row
that never sits out has 3·G table mates, one more than there are others: he gets that mate
either from his row's half-length orbit or from an orbit to another row used twice, and each
costs repeats. Counting the mates of each row this way, within the field's target, fixes how
often each kind of orbit is used (see FIELDS, one function per way it can be done); the SAT
solver is asked for a base Passe with exactly those counts, and "UNSAT" for every way of a
field says that no schedule of this form is at its bound. bench/einzel_rotational.py with a
REPEATS argument asks the same without the counts, which the solver answers much more slowly.

Usage: pip install python-sat
       python3 bench/einzel_counts.py FIELD [--rows-turned]
FIELD is one of 21x7, 30x10, 33x11, 36x12, 36x12-twice, or 27x9 as a check (see FIELDS);
--rows-turned (36x12, where no row sits out) also asks that turning the three rows into each
other ((i, j) -> (i, j + 1)) maps the base Passe onto itself.
"""

import itertools
import sys

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from einzel_rotational import pair_orbits, report
import einzel_sat


def uses_21x7_33x11(kind, orbits):
    # One player spielfrei per Passe, from row 0. Rows 1 and 2 play all G Passen: 3G mates,
    # one more than the 3G − 1 others, and G is odd (no half-length orbit), so one orbit
    # between them is used twice (a repeat for each of its G pairs; the target, 7 or 12,
    # allows one such orbit, not two). Row 0 plays G − 1 Passen: 3G − 3 mates, two fewer than
    # the others, so one difference within row 0 is not used. Everything else once.
    if kind == ("between", 1, 2):
        return 2, orbits + 1
    if kind[:2] == ("within", 0):
        return 1, orbits - 1
    return 1, orbits


def uses_30x10(kind, orbits):
    # Two spielfrei per Passe, from rows 0 and 1. Row 2 plays all ten Passen: 30 mates for 29
    # others, so its half-length orbit is used once (five repeats, the bound; an orbit used
    # twice would cost ten). Rows 0 and 1 play nine: 27 mates for 29 others, so one orbit
    # between them is not used. Everything else once; the half-length orbits of rows 0 and 1
    # not at all.
    if kind[0] == "within" and kind[2] == 5:
        return 1, int(kind[1] == 2)
    if kind == ("between", 0, 1):
        return 1, orbits - 1
    return 1, orbits


def uses_36x12(kind, orbits):
    # Nobody spielfrei: every player has 36 mates for 35 others. Within the bound of 18 (the
    # target is 19), each row gets its one mate more either from its half-length orbit (six
    # repeats) or from an orbit to another row used twice (twelve): so either every orbit once,
    # the half-length ones of all three rows too (18) ...
    return 1, orbits


def uses_36x12_twice(kind, orbits):
    # ... or one orbit between rows 0 and 1 twice and the half-length orbit of row 2 (12 + 6).
    if kind == ("between", 0, 1):
        return 2, orbits + 1
    if kind[0] == "within" and kind[2] == 6:
        return 1, int(kind[1] == 2)
    return 1, orbits


def uses_27x9(kind, orbits):
    # A check of the script: three spielfrei per Passe, one from each row, so every player has
    # 24 mates for 26 others; the design the draw stores for 27 × 9 leaves one orbit between
    # each two rows unused. The solver must find such a base Passe (no repeat).
    if kind[0] == "between":
        return 1, orbits - 1
    return 1, orbits


FIELDS = {
    "27x9": (9, uses_27x9),
    "21x7": (7, uses_21x7_33x11),
    "30x10": (10, uses_30x10),
    "33x11": (11, uses_21x7_33x11),
    "36x12": (12, uses_36x12),
    "36x12-twice": (12, uses_36x12_twice),
}


def solve(g, uses, rows_turned, rows=3):
    players = g * rows
    out, tables = players % 4, players // 4
    shifted, _, members = pair_orbits(g, rows, 0)

    def kind(o):
        p, q = o
        if p // g == q // g:
            d = (q - p) % g
            return ("within", p // g, min(d, g - d))
        return ("between", p // g, q // g)

    pool = IDPool()
    clauses = []

    def cardinality(literals, bound, encode):
        clauses.extend(encode(lits=literals, bound=bound, vpool=pool, encoding=EncType.seqcounter).clauses)

    seat = lambda p, t: pool.id(("seat", p, t))
    sits_out = lambda p: pool.id(("out", p))
    together = lambda p, q: pool.id(("together", p, q))
    for p in range(players):
        cardinality([seat(p, t) for t in range(tables)] + [sits_out(p)], 1, CardEnc.equals)
    for t in range(tables):
        cardinality([seat(p, t) for p in range(players)], 4, CardEnc.equals)
    for j in range(rows):
        cardinality([sits_out(j * g + i) for i in range(g)], int(j < out), CardEnc.equals)
    for p, q in itertools.combinations(range(players), 2):
        # together(p, q) exactly when p and q share a table.
        both = [pool.id(("both", p, q, t)) for t in range(tables)]
        for t, x in enumerate(both):
            clauses += [[-seat(p, t), -seat(q, t), together(p, q)], [-x, seat(p, t)], [-x, seat(q, t)]]
        clauses.append([-together(p, q)] + both)
    if rows_turned:
        # Tables come in threes, 3k + r turned into 3k + (r + 1) % 3 with the rows.
        turned = lambda p: (p // g + 1) % rows * g + p % g
        for p, t in itertools.product(range(players), range(tables)):
            clauses.append([-seat(p, t), seat(turned(p), t // rows * rows + (t % rows + 1) % rows)])
    else:
        # Up to renaming: the spielfrei point of row 0 is (0, 0); tables ordered by their
        # smallest point.
        if out:
            clauses.append([sits_out(0)])
        for p, t in itertools.product(range(players), range(1, tables)):
            clauses.append([-seat(p, t)] + [seat(q, t - 1) for q in range(p)])
    by_kind = {}
    for o, pairs in members.items():
        by_kind.setdefault(kind(o), []).append([together(p, q) for p, q in pairs])
    for k, orbits in by_kind.items():
        each, total = uses(k, len(orbits))
        for pairs in orbits:
            cardinality(pairs, each, CardEnc.atmost)
        cardinality([x for pairs in orbits for x in pairs], total, CardEnc.equals)
    model = einzel_sat.true_literals(clauses)
    if model is None:
        return None
    base = [[p for p in range(players) if seat(p, t) in model] for t in range(tables)]
    byes = [p for p in range(players) if sits_out(p) in model]
    return [([[shifted(p, s) for p in t] for t in base], [shifted(p, s) for p in byes]) for s in range(g)]


def main():
    field, rows_turned = sys.argv[1], "--rows-turned" in sys.argv[2:]
    g, uses = FIELDS[field]
    shape = f"{field} (Z_{g}, 3 rows{', rows turned' if rows_turned else ''})"
    report(shape, 3 * g, lambda: solve(g, uses, rows_turned))


if __name__ == "__main__":
    main()
