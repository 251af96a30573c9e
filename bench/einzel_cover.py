"""A schedule on rows of a group that meets every pair at most once, a few orbits exactly twice.

At the counting bound beyond the limit (3R > N - 1) the repeated meetings have a fixed shape:
without spielfrei players each player meets one other twice and everybody else once (a perfect
matching of repeats); with them, each player who never sits out meets one other twice and each
who sits out once meets nobody twice. `einzel_rotational.py` asks for "at most K repeats" and
leaves the solver to find where they go (36 x 12 with Z3 x Z3: no answer in 25 minutes). Here
they are placed beforehand, up to renaming: with ROWS rows of a group G (point (i, x), x in G)
the pairs fall into orbits under the shift x -> x + s — within row i by the difference +-d,
between rows i < j by the difference d — and a perfect matching of repeats among two rows is
an orbit between them, which shifting a row makes (i, j, 0).

The form: BASES base Passen, each moved by every shift (|G| Passen each; a pair of players at
one of its tables meets once in each pair of its orbit), with N % 4 spielfrei players each:
base b's are (r, 0) for the rows r = ROWS - (BASES - b) * out ..., so each player of those rows
sits out once and the first rows never (shifting a row renames nothing else); and INVARIANT
Passen that the shift maps onto themselves, each the orbit of one table with a player of every
row (four rows, row 0's at 0). The orbits given with --double are covered exactly twice, those
given with --unmet never, every other at most once (the meetings each player has then say how
many pairs stay unmet): a SAT solver over the base Passen's seats and the invariant tables'
shifts (cadical). Orbits must have |G| pairs (a group of odd order: no half-length orbits).
With --fixed=F there are F fixed points besides the rows (no invariant Passen then): each
sits at a table of every base Passe, never two at one (they would meet |G| times), never
spielfrei, and its pairs with row j form one orbit (fK-J below).

With --unmet-cases=K it asks nothing and lists instead, one --unmet option per line, every
way up to renaming that the rows that sit out can miss each other when each of their players
misses exactly K others (see unmet_cases): where the players who never sit out meet everybody
and the others have no repeat to spare, those are all the questions of the form at the bound.

Usage: pip install python-sat
       python3 bench/einzel_cover.py MODULI ROWS BASES INVARIANT [--double=I-J:D,...]
                                     [--unmet=I:D,I-J:D,...] [--fixed=F] [--unmet-cases=K]
e.g.   python3 bench/einzel_cover.py 3x3 4 1 3 --double=0-1:0,2-3:0
                            (36 x 12 with 18 repeats, the fewest: SAT in 82 s to 5 minutes)
       python3 bench/einzel_cover.py 7 4 1 2      (28 x 9 without a repeat: SAT, 0.2 s)
       python3 bench/einzel_cover.py 3 6 2 0 --double=0-1:0   (18 x 6 at its fewest, 3: UNSAT)
       python3 bench/einzel_cover.py 9 3 1 0 --fixed=1   (28 x 9 without a repeat: SAT, 0.1 s)
       python3 bench/einzel_cover.py 11 3 1 0 --fixed=1 --unmet-cases=3
                            (34 x 11 without a repeat: 35 cases; e.g. --unmet=1-2:0,1-2:1,1-2:3
                             SAT in 0.3 s)
       (MODULI: Z_A x Z_B ... as AxB; D: a group element as its mixed-radix number;
        an orbit: I:D within row I by +-D, I-J:D between rows I and J, fK-J fixed point K
        with row J; --double: covered twice, --unmet: never)
"""

import itertools
import math
import sys
import time
from collections import Counter

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

import einzel_sat


class Group:
    """Z_m1 x Z_m2 x ..., its elements numbered in mixed radix."""

    def __init__(self, moduli):
        self.moduli, self.order = moduli, math.prod(moduli)

    def digits(self, x):
        out = []
        for m in reversed(self.moduli):
            out.append(x % m)
            x //= m
        return out[::-1]

    def number(self, digits):
        total = 0
        for m, d in zip(self.moduli, digits):
            total = total * m + d % m
        return total

    def add(self, x, y):
        return self.number([a + b for a, b in zip(self.digits(x), self.digits(y))])

    def neg(self, x):
        return self.number([-a for a in self.digits(x)])


def orbit_of(group, p, q):
    """The orbit of the pair of points p = (i, x), q = (j, y) under the shifts (a fixed point
    is (-1 - k, None): its pairs with row j form one orbit; two fixed points never meet)."""
    (i, x), (j, y) = sorted([p, q])
    if x is None:
        return ("fixed", -1 - i, j) if y is not None else None
    d = group.add(y, group.neg(x))
    return ("within", i, min(d, group.neg(d))) if i == j else ("between", i, j, d)


def solve(group, rows, bases, invariant, double, unmet=frozenset(), fixed=0):
    g = group.order
    points = [(i, x) for i in range(rows) for x in range(g)] + [(-1 - k, None) for k in range(fixed)]
    tables, out = len(points) // 4, len(points) % 4
    first_out = rows - bases * out
    spielfrei = [[(first_out + b * out + k) * g for k in range(out)] for b in range(bases)]
    orbits = {}
    for a, b in itertools.combinations(range(len(points)), 2):
        orbit = orbit_of(group, points[a], points[b])
        if orbit is not None:
            orbits.setdefault(orbit, []).append((a, b))
    if any(len(pairs) != g for pairs in orbits.values()):
        sys.exit("a half-length orbit: take a group of odd order")
    fixed_points = range(rows * g, len(points))
    pool, clauses = IDPool(), []

    def cardinality(literals, count, encode):
        encoded = encode(lits=literals, bound=count, vpool=pool, encoding=EncType.seqcounter)
        clauses.extend(encoded.clauses)

    seat = lambda b, p, t: pool.id(("seat", b, p, t))
    together = lambda b, p, q: pool.id(("together", b, p, q))
    shift = lambda k, row, x: pool.id(("shift", k, row, x))
    seated = [[p for p in range(len(points)) if p not in spielfrei[b]] for b in range(bases)]
    for b in range(bases):
        for p in seated[b]:
            cardinality([seat(b, p, t) for t in range(tables)], 1, CardEnc.equals)
        for t in range(tables):
            cardinality([seat(b, p, t) for p in seated[b]], 4, CardEnc.equals)
            # Tables in the order of their smallest point.
            if t:
                clauses.extend([-seat(b, p, t)] + [seat(b, q, t - 1) for q in seated[b] if q < p] for p in seated[b])
        # Two fixed points at one table would meet in every shift of the Passe.
        for p, q in itertools.combinations(fixed_points, 2):
            clauses.extend([-seat(b, p, t), -seat(b, q, t)] for t in range(tables))
        for p, q in itertools.combinations(seated[b], 2):
            if p in fixed_points and q in fixed_points:
                continue
            shared = [pool.id(("shared", b, p, q, t)) for t in range(tables)]
            for t, s in enumerate(shared):
                clauses.extend([[-s, seat(b, p, t)], [-s, seat(b, q, t)], [s, -seat(b, p, t), -seat(b, q, t)]])
            clauses.append([-together(b, p, q)] + shared)
            clauses.extend([together(b, p, q), -s] for s in shared)
    # Invariant Passe k: the table (0, 0), (1, s1), (2, s2), (3, s3) and its shifts; it
    # covers the orbit (i, j, s_j - s_i) of each pair of rows.
    covering = {}
    for k in range(invariant):
        for row in range(1, rows):
            cardinality([shift(k, row, x) for x in range(g)], 1, CardEnc.equals)
        for i, j in itertools.combinations(range(rows), 2):
            for d in range(g):
                covers = pool.id(("covers", k, i, j, d))
                covering.setdefault(("between", i, j, d), []).append(covers)
                ways = []
                for x in [0] if i == 0 else range(g):
                    y = group.add(x, d)
                    way = pool.id(("way", k, i, j, x, y))
                    ways.append(way)
                    needed = [shift(k, j, y)] + ([shift(k, i, x)] if i else [])
                    clauses.extend([-way, n] for n in needed)
                    clauses.append([way] + [-n for n in needed])
                clauses.append([-covers] + ways)
                clauses.extend([covers, -w] for w in ways)
    # Where the Passen's pairs are exactly as many as the orbits ask for (nobody spielfrei, or
    # the unmet orbits given too),
    # "at most once" is "exactly once", and the solver is told so (36 x 12: 82 s instead of
    # no answer in 13 CPU-minutes).
    tight = bases * tables * 6 + invariant * 6 == len(orbits) - len(unmet) + len(double)
    for orbit, pairs in orbits.items():
        used = [together(b, p, q) for b in range(bases) for p, q in pairs if p in seated[b] and q in seated[b]]
        used += covering.get(orbit, [])
        if orbit in double:
            cardinality(used, 2, CardEnc.equals)
        elif orbit in unmet:
            clauses.extend([-x] for x in used)
        else:
            cardinality(used, 1, CardEnc.equals if tight else CardEnc.atmost)
    start = time.time()
    model = einzel_sat.true_literals(clauses)
    took = time.time() - start
    if model is None:
        return None, took
    schedule = []
    for b in range(bases):
        base = [[points[p] for p in seated[b] if seat(b, p, t) in model] for t in range(tables)]
        byes = [points[p] for p in spielfrei[b]]
        for s in range(g):
            moved = lambda i, x: (i, x if x is None else group.add(x, s))
            schedule.append(([[moved(i, x) for i, x in table] for table in base], [moved(i, x) for i, x in byes]))
    shifts = [[0] + [next(x for x in range(g) if shift(k, row, x) in model) for row in range(1, rows)] for k in range(invariant)]
    schedule += [([[(i, group.add(sh[i], s)) for i in range(rows)] for s in range(g)], []) for sh in shifts]
    number = lambda players: [i * g + x if x is not None else rows * g - 1 - i for i, x in players]
    return [([number(table) for table in passe], number(byes)) for passe, byes in schedule], took


def unmet_cases(g, rows, bases, out, degree):
    """Every way, up to renaming, that the rows that sit out can miss each other when each of
    their players misses exactly DEGREE others and every missed pair is a whole orbit: sets of
    orbits among those rows (within row i by +-d: two missed each; between rows i and j: one),
    each such row missing DEGREE. Renamings that keep the form: the bases in any order with
    their rows, the rows of one base in any order, the rows of one base shifted together (a
    base Passe shifted is another of its Passen, so its spielfrei points may be taken at 0
    again), and multiplying every point by a unit of Z_g. Z_g only, g odd."""
    blocks = [list(range(rows - bases * out + b * out, rows - bases * out + (b + 1) * out)) for b in range(bases)]
    sitting = [r for block in blocks for r in block]
    candidates = [("within", i, d) for i in sitting for d in range(1, g // 2 + 1)]
    candidates += [("between", i, j, d) for i, j in itertools.combinations(sitting, 2) for d in range(g)]
    renamings = []
    for order in itertools.permutations(range(bases)):
        for inner in itertools.product(*[list(itertools.permutations(block)) for block in blocks]):
            rename = {}
            for b, block in enumerate(blocks):
                rename.update(zip(block, inner[order[b]]))
            for moves in itertools.product(range(g), repeat=bases):
                move = {r: moves[b] for b, block in enumerate(blocks) for r in block}
                for unit in (u for u in range(1, g) if math.gcd(u, g) == 1):
                    renamings.append((rename, move, unit))

    def renamed(orbit, rename, move, unit):
        if orbit[0] == "within":
            d = orbit[2] * unit % g
            return ("within", rename[orbit[1]], min(d, g - d))
        _, i, j, d = orbit
        d = (d - move[i] + move[j]) * unit % g
        a, b = rename[i], rename[j]
        return ("between", a, b, d) if a < b else ("between", b, a, -d % g)

    cases, seen = [], set()

    def extend(start, chosen, missing):
        if not any(missing.values()):
            canonical = min(tuple(sorted(renamed(o, *r) for o in chosen)) for r in renamings)
            if canonical not in seen:
                seen.add(canonical)
                cases.append(canonical)
            return
        for k in range(start, len(candidates)):
            orbit = candidates[k]
            ends = [orbit[1], orbit[1]] if orbit[0] == "within" else [orbit[1], orbit[2]]
            if all(missing[r] >= ends.count(r) for r in set(ends)):
                for r in ends:
                    missing[r] -= 1
                extend(k + 1, chosen + [orbit], missing)
                for r in ends:
                    missing[r] += 1

    extend(0, [], {r: degree for r in sitting})
    return cases


def orbit_named(item):
    """An orbit as given on the command line: I:D within row I, I-J:D between rows, fK-J the
    fixed point K with row J."""
    if item.startswith("f"):
        k, j = item[1:].split("-")
        return ("fixed", int(k), int(j))
    rows_of, d = item.split(":")
    ends = sorted(map(int, rows_of.split("-")))
    return ("within", ends[0], int(d)) if len(ends) == 1 else ("between", *ends, int(d))


def orbit_label(orbit):
    """An orbit as orbit_named reads it."""
    if orbit[0] == "fixed":
        return f"f{orbit[1]}-{orbit[2]}"
    return f"{orbit[1]}:{orbit[2]}" if orbit[0] == "within" else f"{orbit[1]}-{orbit[2]}:{orbit[3]}"


def main():
    moduli = [int(m) for m in sys.argv[1].split("x")]
    rows, bases, invariant = map(int, sys.argv[2:5])
    double, unmet, fixed, cases_of_degree = set(), set(), 0, None
    for option in sys.argv[5:]:
        name, _, value = option.partition("=")
        if name == "--double":
            double.update(orbit_named(item) for item in value.split(","))
        elif name == "--unmet":
            unmet.update(orbit_named(item) for item in value.split(","))
        elif name == "--fixed":
            fixed = int(value)
        elif name == "--unmet-cases":
            cases_of_degree = int(value)
        else:
            sys.exit(f"unknown option {option}")
    group = Group(moduli)
    players, passen = group.order * rows + fixed, bases * group.order + invariant
    if invariant and (rows != 4 or players % 4 or fixed):
        sys.exit("invariant Passen: four rows, nobody spielfrei, no fixed point")
    if rows < bases * (players % 4):
        sys.exit("too few rows for a spielfrei player of each base Passe in a row of its own")
    if cases_of_degree is not None:
        if len(moduli) != 1 or group.order % 2 == 0:
            sys.exit("--unmet-cases: Z_g with g odd")
        for case in unmet_cases(group.order, rows, bases, players % 4, cases_of_degree):
            print("--unmet=" + ",".join(map(orbit_label, case)))
        return
    schedule, took = solve(group, rows, bases, invariant, double, unmet, fixed)
    if schedule is None:
        print(f"{players} x {passen}: UNSAT ({took:.1f} s)")
        return
    met = Counter()
    for passe, byes in schedule:
        assert sorted([p for table in passe for p in table] + byes) == list(range(players))
        assert all(len(table) == 4 for table in passe)
        for table in passe:
            met.update(itertools.combinations(sorted(table), 2))
    assert len({p for _, byes in schedule for p in byes}) == sum(len(byes) for _, byes in schedule), "nobody sits out twice"
    repeats = sum(m - 1 for m in met.values())
    print(f"{players} x {passen}: SAT ({took:.1f} s); repeats {repeats}, most meetings of a pair {max(met.values())}, pairs never met {players * (players - 1) // 2 - len(met)}")
    for passe, byes in schedule:
        print(passe, "spielfrei", byes)


if __name__ == "__main__":
    main()
