"""One player over a design, and one Passe after it: can that reach K repeats?

The draw's route "one player over" (src/domain/einzel_draw.rs) seats an extra player X in a
schedule without a repeat of N - 1 players (a resolvable design: every pair meets once) by
letting him take a different player's seat in each Passe, who sits out, and then draws one
Passe more around it. This script asks a SAT solver for the best such schedule of the whole
field at once: which player X replaces in each Passe of the design, and the last Passe, with
at most K repeats and no pair three times. The design is a 1-rotational one found by
`einzel_rotational.py` (players as ROWS rows of Z_G and FIXED points).

Why it can beat the draw (29 x 10: the draw has 21, the target is 20): after the design
every pair has met once except the players X replaced with their three table mates, and X
with the one player he never met. In the last Passe a table of four seats at most three of
those unmet pairs, unless the players X replaced form a cycle (s sat at t's table when X took
t's seat, t at u's, u at s's): then four. A search over seats one Passe at a time rarely finds
such a cycle; the solver looks for it directly.

That is the whole picture for K = counting bound + 1 (29 x 10: 20), with X spielfrei at the
end or seated with the one player he never met: the players X replaced point to their table
mates of that Passe ("parents"), and 20 needs a table of the last Passe holding a 3-cycle of
them, the cycle's five other mates each replaced in a Passe of its own with three mates who
were not, and the ninth replaced player met by X never. `--structure=COUNT` looks for exactly
that in COUNT different 1-rotational designs (drawn by the solver under random assumptions),
by a depth-first search of a second or two each.

Usage: pip install python-sat
       python3 bench/einzel_over.py G ROWS FIXED K
       python3 bench/einzel_over.py G ROWS FIXED K --structure=COUNT
e.g.   python3 bench/einzel_over.py 9 3 1 20      (29 x 10 over the 28 x 9 design)
"""

import itertools
import random
import sys
import time
from collections import Counter

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from einzel_rotational import check, pair_orbits, solve as design_of
import einzel_sat


def solve(design, points, most):
    """The schedule of points + 1 players over the design's Passen and one more, with at most
    `most` repeats and no pair three times, or None."""
    x = points
    players = points + 1
    classes = len(design)
    tables = players // 4
    out = players % 4
    if out != 1 or any(byes for _, byes in design):
        sys.exit("made for designs without spielfrei players and one player over them")
    pool = IDPool()
    clauses = []

    def cardinality(literals, bound, encode):
        clauses.extend(encode(lits=literals, bound=bound, vpool=pool, encoding=EncType.seqcounter).clauses)

    replaces = lambda i, p: pool.id(("replaces", i, p))
    seat = lambda p, t: pool.id(("seat", p, t))
    last_out = lambda p: pool.id(("out", p))
    together = lambda p, q: pool.id(("together", min(p, q), max(p, q)))
    unmet = lambda p, q: pool.id(("unmet", min(p, q), max(p, q)))
    meets_x = lambda i, q: pool.id(("meets_x", i, q))

    for i in range(classes):
        cardinality([replaces(i, p) for p in range(points)], 1, CardEnc.equals)
    for p in range(points):
        # Nobody sits out twice: replaced once at most, and then not spielfrei at the end.
        cardinality([replaces(i, p) for i in range(classes)] + [last_out(p)], 1, CardEnc.atmost)
    # The last Passe: every player at one table or spielfrei, four per table, one spielfrei.
    for p in range(players):
        cardinality([seat(p, t) for t in range(tables)] + [last_out(p)], 1, CardEnc.equals)
    for t in range(tables):
        cardinality([seat(p, t) for p in range(players)], 4, CardEnc.equals)
    cardinality([last_out(p) for p in range(players)], 1, CardEnc.equals)
    # Tables ordered by their smallest player.
    for p, t in itertools.product(range(players), range(1, tables)):
        clauses.append([-seat(p, t)] + [seat(q, t - 1) for q in range(p)])
    # together(p, q) exactly when p and q share a table of the last Passe.
    for p, q in itertools.combinations(range(players), 2):
        both = []
        for t in range(tables):
            b = pool.id(("both", p, q, t))
            clauses.extend([[-b, seat(p, t)], [-b, seat(q, t)], [b, -seat(p, t), -seat(q, t)]])
            both.append(b)
        clauses.append([-together(p, q)] + both)
        clauses.extend([together(p, q), -b] for b in both)
    # The design's pairs: met in their class unless X took one of the two seats there.
    for i, (passe, _) in enumerate(design):
        for table in passe:
            for p, q in itertools.combinations(table, 2):
                clauses.append([-replaces(i, p), together(p, q), unmet(p, q)])
                clauses.append([-replaces(i, q), together(p, q), unmet(p, q)])
                # X meets q in class i exactly when he took the seat of one of q's mates.
            for q in table:
                mates = [replaces(i, p) for p in table if p != q]
                clauses.append([-meets_x(i, q)] + mates)
                clauses.extend([meets_x(i, q), -m] for m in mates)
    for q in range(points):
        met = [meets_x(i, q) for i in range(classes)] + [together(x, q)]
        clauses.append(met + [unmet(x, q)])
        cardinality(met, 2, CardEnc.atmost)
    # Every meeting beyond the pairs that met is a repeat: the meetings are fixed, so at most
    # `most` repeats is at most so many unmet pairs.
    meetings = (classes + 1) * tables * 6
    pairs = players * (players - 1) // 2
    cardinality([unmet(p, q) for p, q in itertools.combinations(range(players), 2)], most - (meetings - pairs), CardEnc.atmost)
    model = einzel_sat.true_literals(clauses)
    if model is None:
        return None
    schedule = []
    for i, (passe, _) in enumerate(design):
        gone = next(p for p in range(points) if replaces(i, p) in model)
        schedule.append(([[x if p == gone else p for p in table] for table in passe], [gone]))
    last = [[p for p in range(players) if seat(p, t) in model] for t in range(tables)]
    schedule.append((last, [p for p in range(players) if last_out(p) in model]))
    return schedule


def designs(g, rows, fixed, count, seed=1):
    """`count` different 1-rotational designs (base Passen without a spielfrei player), each
    drawn by the solver with three random pairs of players asked to share a table."""
    players = g * rows + fixed
    tables = players // 4
    shifted, orbit, members = pair_orbits(g, rows, fixed)
    pool = IDPool()
    clauses = []
    seat = lambda p, t: pool.id(("seat", p, t))  # noqa: E731
    together = lambda p, q: pool.id(("together", p, q))  # noqa: E731
    for p in range(players):
        clauses.extend(CardEnc.equals([seat(p, t) for t in range(tables)], 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    for t in range(tables):
        clauses.extend(CardEnc.equals([seat(p, t) for p in range(players)], 4, vpool=pool, encoding=EncType.seqcounter).clauses)
    for (p, q), t in itertools.product(orbit, range(tables)):
        clauses.append([-seat(p, t), -seat(q, t), together(p, q)])
    for o, pairs in members.items():
        clauses.extend(CardEnc.atmost([together(p, q) for p, q in pairs], 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    for p, t in itertools.product(range(players), range(1, tables)):
        clauses.append([-seat(p, t)] + [seat(q, t - 1) for q in range(p)])
    rng = random.Random(seed)
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while count:
            asked = [together(*sorted(rng.sample(range(players), 2))) for _ in range(3)]
            if not solver.solve(assumptions=asked):
                continue
            model = {literal for literal in solver.get_model() if literal > 0}
            base = [[p for p in range(players) if seat(p, t) in model] for t in range(tables)]
            solver.add_clause([-seat(p, t) for t in range(tables) for p in base[t]])
            count -= 1
            yield [[[shifted(p, s) for p in table] for table in base] for s in range(g)]


def structures(design, points):
    """The 3-cycles of replaced players with the rest of the picture above (K = bound + 1):
    how many cycles were tried, and the pictures found."""
    classes = len(design)
    table = [{p: frozenset(t) for t in passe for p in t} for passe in design]
    mates = lambda i, p: table[i][p] - {p}  # noqa: E731
    cycles, found = 0, []

    def place(kids, rest, used, seen, assigned):
        # Each kid replaced in a Passe of its own whose mates nobody has yet.
        if len(assigned) == len(kids):
            last = next(c for c in rest if c not in used)
            left = frozenset(range(points)) - seen
            found.extend((assigned, (last, m)) for m in left if table[last][m] == left)
            return
        kid = kids[len(assigned)]
        for c in rest:
            if c not in used and not mates(c, kid) & seen:
                place(kids, rest, used | {c}, seen | mates(c, kid), assigned + [(c, kid)])

    for a, b, c in itertools.permutations(range(classes), 3):
        if a > min(b, c):
            continue
        for sa in range(points):
            for sb in mates(a, sa):
                for sc in mates(b, sb):
                    if sc == sa or sa not in mates(c, sc):
                        continue
                    own = [mates(a, sa), mates(b, sb), mates(c, sc)]
                    if own[0] & own[1] or own[0] & own[2] or own[1] & own[2]:
                        continue
                    cycles += 1
                    seen = own[0] | own[1] | own[2]
                    others = sorted(seen - {sa, sb, sc})
                    rest = [r for r in range(classes) if r not in (a, b, c)]
                    for pendant in others:
                        place([k for k in others if k != pendant], rest, frozenset(), seen, [])
    return cycles, found


def main():
    g, rows, fixed, most = map(int, [a for a in sys.argv[1:] if not a.startswith("--")][:4])
    points = g * rows + fixed
    start = time.time()
    count = next((int(a.split("=")[1]) for a in sys.argv if a.startswith("--structure=")), None)
    if count:
        for n, design in enumerate(designs(g, rows, fixed, count)):
            cycles, found = structures(design, points)
            print(f"design {n + 1}: {cycles} 3-cycles, {len(found)} pictures ({time.time() - start:.0f} s)", flush=True)
            if found:
                print(design[0], found[0])
                return
        return
    design = design_of(g, rows, fixed, 1, 0)
    if design is None:
        sys.exit("no design of that form")
    passen = len(design) + 1
    shape = f"{points + 1} x {passen} over the {points} x {len(design)} design (Z_{g}), at most {most} repeats"
    schedule = solve(design, points, most)
    took = f"{time.time() - start:.1f} s"
    if schedule is None:
        print(f"{shape}: UNSAT ({took})")
        return
    repeats, most_met, most_out = check(points + 1, schedule)
    print(f"{shape}: SAT ({took}); repeats {repeats}, most meetings of a pair {most_met}, most spielfrei {most_out}")
    for passe, byes in schedule:
        print(passe, "spielfrei", byes)
    spielfrei = Counter(p for _, byes in schedule for p in byes)
    assert max(spielfrei.values()) == 1


if __name__ == "__main__":
    main()
