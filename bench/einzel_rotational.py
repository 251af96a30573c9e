"""Is there an Einzelschieber schedule without a repeated meeting that has a given symmetry?

The draw's designs (src/domain/einzel_draw/design.rs) are 1-rotational: the players are ROWS
rows of Z_G (point (i, j)) and FIXED points ∞; a *base Passe* moved by every shift i -> i + s
gives G Passen, and a pair of players used once in the base meets exactly once in them. This
script asks a SAT solver for a schedule of that form, a little more general than the draw's
own backtracking, and answers exhaustively:

- BASES base Passen (each one gives G Passen; the spielfrei points of all of them in different
  rows, so that every player sits out at most once, and no ∞ spielfrei there);
- INVARIANT further Passen that the shift maps onto themselves (their tables are unions of
  orbits, so only ∞ can be spielfrei there, each at most once; but see `--out-twice`);
- no two players at one table twice over all BASES * G + INVARIANT Passen.

"UNSAT" says that no schedule of the field has this symmetry; it says nothing about schedules
without it. Symmetry breaking that keeps every solution up to renaming: the first spielfrei
point of base 0 is (0, 0) (rows and shifts are interchangeable), and tables within a base
Passe are ordered by their smallest point.

With REPEATS (default 0) it asks for a schedule of that form with at most that many repeated
meetings instead, for fields beyond the limit: an orbit may then be gone over more than once
(used in two base Passen, or a half-length orbit or two ∞ in one), each pass after the first
meeting each of its pairs once more.

Where the spielfrei places outnumber the players (23 x 8 and 35 x 12 by one, 19 x 7 and
31 x 11 by two), the rotation sends one or two players out twice; they are then points ∞
(a row would sit out twice as a whole), `--out-twice` (∞0, X) or `--out-twice=2` (∞0 and ∞1,
X and Y, who then share a Passe out: the last one of the rotation): each sits out exactly
twice, in two invariant Passen or, with G = 2, in one base Passe (its two shifts). A whole
row may then also sit out in an invariant Passe (`--rows-out` allows that alone). With G
an odd prime every Passe is a base Passe's shift or invariant and every player a row point
or ∞, so the forms asked over every ROWS, FIXED and BASES cover every schedule with a
symmetry of that order (with G = 2 and two players out twice, not those where the symmetry
swaps X and Y).

Usage: pip install python-sat
       python3 bench/einzel_rotational.py G ROWS FIXED BASES INVARIANT [REPEATS] [--twice]
                    [--group=AxB...] [--out-twice[=2]] [--rows-out]
                    (--twice: no pair three times, as the draw's quality target asks;
                     --group: the shift group Z_A x Z_B x ... of G elements instead of Z_G)
e.g.   python3 bench/einzel_rotational.py 8 3 1 1 0     (25 players x 8 Passen: UNSAT)
       python3 bench/einzel_rotational.py 7 3 0 1 0 7   (21 x 7 within its bound of 7: UNSAT)
       python3 bench/einzel_rotational.py 3 6 5 2 2 --out-twice   (23 x 8: UNSAT)
"""

import itertools
import math
import sys
import time
from collections import Counter

from einzel_cover import Group
from pysat.card import CardEnc, EncType, ITotalizer
from pysat.formula import IDPool

import einzel_sat


def pair_orbits(g, rows, fixed, moduli=None):
    """The shift (point p in the Passe moved by s), every pair's orbit under it (its smallest
    image stands for it) and each orbit's pairs."""
    finite = g * rows
    add = Group(moduli or [g]).add

    def shifted(p, s):
        return p if p >= finite else p // g * g + add(p % g, s)

    orbit, members = {}, {}
    for p, q in itertools.combinations(range(finite + fixed), 2):
        images = {tuple(sorted((shifted(p, s), shifted(q, s)))) for s in range(g)}
        orbit[p, q] = min(images)
        members[min(images)] = images
    return shifted, orbit, members


def solve(g, rows, fixed, bases, invariant, repeats=0, twice=False, moduli=None, out_twice=False, rows_out=False):
    finite = g * rows
    players = finite + fixed
    out = players % 4
    tables = players // 4
    shifted, orbit, members = pair_orbits(g, rows, fixed, moduli)
    pool = IDPool()
    clauses = []

    def cardinality(literals, bound, encode, unless=None):
        if bound > len(literals) and encode is not CardEnc.atmost:
            clauses.append([unless] if unless else [])  # cannot hold
            return
        encoded = encode(lits=literals, bound=bound, vpool=pool, encoding=EncType.seqcounter)
        clauses.extend(c + ([unless] if unless else []) for c in encoded.clauses)

    def orbit_costs(o, pairs):
        # Counted in passes over the orbit's pairs: a base Passe's pair goes over them
        # g / len(pairs) times, an invariant Passe's once. Every pass after the first meets
        # each of its pairs once more; literals that stand for those repeats, one per repeat.
        units = []
        for b, (p, q) in itertools.product(range(bases), pairs):
            units += [pool.id(("unit", b, p, q, c)) for c in range(g // len(pairs))]
            clauses.extend([-together(b, p, q), u] for u in units[-(g // len(pairs)):])
        units += [joined(k, o) for k in range(invariant)]
        passes = 1 + repeats // len(pairs)
        if twice:
            passes = min(passes, 2)
        total = ITotalizer(lits=units, ubound=passes, top_id=pool.top)
        pool.top = total.top_id  # the totalizer's own variables are taken
        clauses.extend(total.cnf.clauses)
        # rhs[k] holds when more than k passes; more than `passes` is not allowed (the
        # totalizer has no rhs[passes] where there are not that many units).
        clauses.extend([-x] for x in total.rhs[passes:])
        return [x for x in total.rhs[1:passes] for _ in pairs]

    seat = lambda b, p, t: pool.id(("seat", b, p, t))
    sits_out = lambda b, p: pool.id(("out", b, p))
    together = lambda b, p, q: pool.id(("together", b, p, q))
    used = lambda b, o: pool.id(("used", b, o))
    joined = lambda k, o: pool.id(("joined", k, o))
    spielfrei = lambda k, p: pool.id(("spielfrei", k, p))
    # With rows_out (implied by out_twice) a whole row may sit out in an invariant Passe (a
    # union of orbits).
    rows_out = rows_out or out_twice
    row_out = lambda k, j: pool.id(("row out", k, j))
    # The first `out_twice` points ∞ (X, and Y with 2) sit out twice: with g == 2 they may
    # do so in a base Passe (its two shifts); no other ∞ sits out in a base Passe (it would
    # sit out g times).
    doubles = range(finite, finite + int(out_twice))
    may_sit_out = lambda p: p < finite or (g == 2 and p in doubles)
    for b in range(bases):
        for p in range(players):
            options = [seat(b, p, t) for t in range(tables)]
            cardinality(options + ([sits_out(b, p)] if may_sit_out(p) else []), 1, CardEnc.equals)
        for t in range(tables):
            cardinality([seat(b, p, t) for p in range(players)], 4, CardEnc.equals)
        cardinality([sits_out(b, p) for p in range(players) if may_sit_out(p)], out, CardEnc.equals)
        for (p, q), t in itertools.product(orbit, range(tables)):
            clauses.append([-seat(b, p, t), -seat(b, q, t), together(b, p, q)])
        for p, t in itertools.product(range(players), range(1, tables)):
            clauses.append([-seat(b, p, t)] + [seat(b, q, t - 1) for q in range(p)])
    for j in range(rows):
        row = [sits_out(b, j * g + i) for b in range(bases) for i in range(g)]
        row += [row_out(k, j) for k in range(invariant)]
        cardinality(row, 1, CardEnc.atmost)
        clauses.extend([-row_out(k, j)] for k in range(invariant) if not rows_out)
    if bases and out:
        clauses.append([sits_out(0, 0)])
    costs = []
    for o, pairs in members.items():
        if repeats:
            costs += orbit_costs(o, pairs)
            continue
        users = []
        for b in range(bases):
            pairs_together = [together(b, p, q) for p, q in pairs]
            if len(pairs) < g:
                # A shorter orbit (two ∞, a half-length difference) would meet twice.
                clauses.extend([-x] for x in pairs_together)
                continue
            cardinality(pairs_together, 1, CardEnc.atmost)
            clauses.extend([-x, used(b, o)] for x in pairs_together)
            users.append(used(b, o))
        cardinality(users + [joined(k, o) for k in range(invariant)], 1, CardEnc.atmost)
    for k in range(invariant):
        mates = lambda p, q: joined(k, orbit[min(p, q), max(p, q)])
        for p in range(players):
            others = [q for q in range(players) if q != p]
            if p < finite:
                # One literal per mate (an orbit can hold two of p's mates).
                copies = [pool.id(("mate", k, p, q)) for q in others]
                for c, q in zip(copies, others):
                    clauses.extend([[-c, mates(p, q)], [c, -mates(p, q)]])
                cardinality(copies, 3, CardEnc.equals, unless=row_out(k, p // g))
                clauses.extend([-row_out(k, p // g), -mates(p, q)] for q in others)
            else:
                cardinality([mates(p, q) for q in others], 3, CardEnc.equals, unless=spielfrei(k, p))
                clauses.extend([-spielfrei(k, p), -mates(p, q)] for q in others)
        for p, q, r in itertools.permutations(range(players), 3):
            clauses.append([-mates(p, q), -mates(q, r), mates(p, r)])
        # The spielfrei of an invariant Passe: `whole` rows and out - whole * g points ∞.
        modes = [pool.id(("whole rows out", k, w)) for w in range(out // g + 1)]
        cardinality(modes, 1, CardEnc.equals)
        for whole, mode in enumerate(modes):
            cardinality([row_out(k, j) for j in range(rows)], whole, CardEnc.equals, unless=-mode)
            ends = [spielfrei(k, p) for p in range(finite, players)]
            cardinality(ends, out - whole * g, CardEnc.equals, unless=-mode)
    cardinality(costs, repeats, CardEnc.atmost)
    # Each ∞ but X (and Y) sits out at most once over the invariant Passen.
    for p in range(finite + len(doubles), players) if invariant else []:
        cardinality([spielfrei(k, p) for k in range(invariant)], 1, CardEnc.atmost)
    for x in doubles:
        # Exactly twice: in one base Passe or in two invariant Passen.
        x_bases = [sits_out(b, x) for b in range(bases)] if may_sit_out(x) else []
        x_invariant = [spielfrei(k, x) for k in range(invariant)]
        in_base = pool.id(("in a base", x))
        cardinality(x_bases, 1, CardEnc.equals, unless=-in_base)
        clauses.extend([-in_base, -y] for y in x_invariant)
        clauses.extend([in_base, -y] for y in x_bases)
        cardinality(x_invariant, 2, CardEnc.equals, unless=in_base)
        if len(doubles) == 1:
            # The first of their kind (base Passen and invariant Passen are each
            # interchangeable; base 0's other spielfrei are row points, so (0, 0) may still
            # be one of them).
            clauses.append([-in_base] + x_bases[:1])
            clauses.extend([in_base, y] for y in x_invariant[:2])
    if len(doubles) == 2:
        # The rotation sends X and Y out a second time in the same (last) Passe.
        pairs = [[spielfrei(k, x) for x in doubles] for k in range(invariant)]
        pairs += [[sits_out(b, x) for x in doubles] for b in range(bases)] if g == 2 else []
        shared = [pool.id(("both out", tuple(pair))) for pair in pairs]
        for both, pair in zip(shared, pairs):
            clauses.extend([-both, y] for y in pair)
        clauses.append(shared)
    model = einzel_sat.true_literals(clauses)
    if model is None:
        return None
    schedule = []
    for b in range(bases):
        base = [[p for p in range(players) if seat(b, p, t) in model] for t in range(tables)]
        byes = [p for p in range(players) if may_sit_out(p) and sits_out(b, p) in model]
        for s in range(g):
            schedule.append(([[shifted(p, s) for p in t] for t in base], [shifted(p, s) for p in byes]))
    for k in range(invariant):
        byes = [p for p in range(finite, players) if spielfrei(k, p) in model]
        byes += [p for p in range(finite) if row_out(k, p // g) in model]
        seated, passe = set(byes), []
        for p in range(players):
            if p not in seated:
                table = [p] + [q for q in range(players) if q != p and joined(k, orbit[min(p, q), max(p, q)]) in model]
                seated.update(table)
                passe.append(table)
        schedule.append((passe, byes))
    return schedule


def check(players, schedule):
    """Every Passe seats everybody once at tables of four; the repeated meetings, the most any
    pair met and the most anybody sat out."""
    met, spielfrei = Counter(), Counter()
    for passe, byes in schedule:
        assert sorted([p for t in passe for p in t] + byes) == list(range(players))
        assert all(len(t) == 4 for t in passe)
        for t in passe:
            met.update(itertools.combinations(sorted(t), 2))
        spielfrei.update(byes)
    repeats = sum(m - 1 for m in met.values())
    return repeats, max(met.values()), max(spielfrei.values(), default=0)


def report(shape, players, search):
    """Runs `search` (a schedule or None) and prints its answer with the time it took; a
    schedule is checked first and printed Passe by Passe."""
    start = time.time()
    schedule = search()
    took = f"{time.time() - start:.1f} s"
    if schedule is None:
        print(f"{shape}: UNSAT ({took})")
        return
    print(f"{shape}: SAT ({took}); repeats, most meetings of a pair, most spielfrei: {check(players, schedule)}")
    for passe, byes in schedule:
        print(passe, "spielfrei", byes)


def main():
    g, rows, fixed, bases, invariant = map(int, [a for a in sys.argv[1:] if not a.startswith("--")][:5])
    numbers = [a for a in sys.argv[1:] if not a.startswith("--")]
    repeats = int(numbers[5]) if len(numbers) > 5 else 0
    twice = "--twice" in sys.argv
    # --out-twice: ∞0 sits out twice; --out-twice=2: ∞0 and ∞1.
    out_twice = max([0] + [int((a.split("=") + ["1"])[1]) for a in sys.argv if a.startswith("--out-twice")])
    rows_out = "--rows-out" in sys.argv
    group = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--group=")), str(g))
    moduli = [int(m) for m in group.split("x")]
    if math.prod(moduli) != g:
        sys.exit(f"--group={group} does not have {g} elements")
    players, passen = g * rows + fixed, bases * g + invariant
    name = " x ".join(f"Z_{m}" for m in moduli)
    shape = f"{players} x {passen} ({name}, {rows} rows, {fixed} fixed, {bases} base, {invariant} invariant, at most {repeats} repeats{', no pair three times' if twice else ''}{f', {out_twice} ∞ out twice' if out_twice else ''}{', rows out' if rows_out else ''})"
    report(shape, players, lambda: solve(g, rows, fixed, bases, invariant, repeats, twice, moduli, out_twice, rows_out))


if __name__ == "__main__":
    main()
