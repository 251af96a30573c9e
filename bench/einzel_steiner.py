"""Is there an Einzelschieber schedule without a repeat for 25 x 8 or 37 x 12 that is a Steiner
system S(2,4,v) less a few disjoint blocks?

Both fields have one spielfrei player per Passe (v - 1 = 3R), so at the bound 0 every player who
never sits out meets each other exactly once, and each of the R players who sit out once meets
all but three: their unmet pairs form a cubic graph on them. Where that graph is (v - 1) / 12
disjoint K4 (two for 25, three for 37), adding them as tables gives an S(2,4,v), and the
schedule is that system less those blocks, its other blocks split into R Passen of (v - 1) / 4
disjoint tables (each Passe then leaves out exactly one player of the removed blocks, a
different one each time, by counting). This script takes known systems and asks a SAT solver
for such a split, one answer per system:

- 25: every system developed from a difference family over Z_5 x Z_5 (two base blocks);
- 37: the two cyclic systems (difference families over Z_37 up to multipliers); with
  --multiplier the first one's automorphism x -> 10x is asked of the split too (classes in
  orbits of three), one question per choice of removed blocks, each answered in seconds.

"UNSAT" says only that these systems give no such schedule: there are 18 systems S(2,4,25) and
many more of order 37, and the unmet pairs may form another cubic graph.

Usage: pip install python-sat
       python3 bench/einzel_steiner.py 25
       python3 bench/einzel_steiner.py 37 [--multiplier]
"""

import itertools
import sys
import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver


def z5_squared_systems():
    """The block sets of all S(2,4,25) developed from a difference family over Z_5 x Z_5."""
    points = [(a, b) for a in range(5) for b in range(5)]
    index = {p: i for i, p in enumerate(points)}
    minus = lambda p, q: ((p[0] - q[0]) % 5, (p[1] - q[1]) % 5)
    plus = lambda p, q: ((p[0] + q[0]) % 5, (p[1] + q[1]) % 5)
    nonzero = [p for p in points if p != (0, 0)]
    differences = lambda block: [minus(x, y) for x in block for y in block if x != y]
    systems = set()
    for first, second in itertools.combinations(itertools.combinations(nonzero, 3), 2):
        base = [((0, 0),) + first, ((0, 0),) + second]
        if sorted(differences(base[0]) + differences(base[1])) != sorted(nonzero):
            continue
        blocks = {tuple(sorted(index[plus(x, s)] for x in b)) for b in base for s in points}
        systems.add(tuple(sorted(blocks)))
    return [list(s) for s in sorted(systems)]


CYCLIC_37 = [[[0, 1, 3, 24], [0, 4, 26, 32], [0, 10, 18, 30]], [[0, 1, 3, 24], [0, 4, 9, 15], [0, 7, 17, 25]]]


def cyclic_system(family, v):
    return sorted({tuple(sorted((x + s) % v for x in b)) for b in family for s in range(v)})


def images(blocks, v, multiplier):
    """For each block, the index of its image under x -> multiplier·x."""
    index = {b: i for i, b in enumerate(blocks)}
    return [index[tuple(sorted(x * multiplier % v for x in b))] for b in blocks]


def split(blocks, v, removed=None, multiplier=None):
    """Passen of the system less (v - 1) / 12 disjoint blocks (`removed`, or any), or None.
    With `multiplier` m the split is invariant under x -> m·x (classes in orbits of three)."""
    passen, size = (v - 1) // 3, (v - 1) // 4
    pool, clauses = IDPool(), []

    def cardinality(literals, bound, encode):
        clauses.extend(encode(lits=literals, bound=bound, vpool=pool, encoding=EncType.seqcounter).clauses)

    at = lambda b, k: pool.id(("at", b, k))
    out = lambda b: pool.id(("out", b))
    image = images(blocks, v, multiplier) if multiplier is not None else None
    for b in range(len(blocks)):
        cardinality([at(b, k) for k in range(passen)] + [out(b)], 1, CardEnc.equals)
        if removed is not None:
            clauses.append([out(b)] if b in removed else [-out(b)])
        if image is not None:
            clauses.extend([-at(b, k), at(image[b], k // 3 * 3 + (k + 1) % 3)] for k in range(passen))
    cardinality([out(b) for b in range(len(blocks))], (v - 1) // 12, CardEnc.equals)
    for p in range(v):
        through = [b for b in range(len(blocks)) if p in blocks[b]]
        cardinality([out(b) for b in through], 1, CardEnc.atmost)
        for k in range(passen):
            cardinality([at(b, k) for b in through], 1, CardEnc.atmost)
    for k in range(passen):
        cardinality([at(b, k) for b in range(len(blocks))], size, CardEnc.equals)
    if multiplier is None:
        # Passen ordered by their first table.
        for k, b in itertools.product(range(1, passen), range(len(blocks))):
            clauses.append([-at(b, k)] + [at(c, k - 1) for c in range(b)])
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        if not solver.solve():
            return None
        model = {literal for literal in solver.get_model() if literal > 0}
    return [[blocks[b] for b in range(len(blocks)) if at(b, k) in model] for k in range(passen)]


def removable_orbits(blocks, v, multiplier):
    """Sets of three disjoint blocks that x -> m·x maps onto themselves (no block is fixed)."""
    image = images(blocks, v, multiplier)
    orbits = {frozenset([b, image[b], image[image[b]]]) for b in range(len(blocks))}
    return [o for o in orbits if len(o) == 3 and len({p for b in o for p in blocks[b]}) == 12]


def main():
    v = int(sys.argv[1])
    if v == 25:
        questions = [(blocks, None) for blocks in z5_squared_systems()]
    elif v == 37 and "--multiplier" in sys.argv:
        blocks = cyclic_system(CYCLIC_37[0], v)
        questions = [(blocks, orbit) for orbit in sorted(removable_orbits(blocks, v, 10), key=sorted)]
    elif v == 37:
        questions = [(cyclic_system(family, v), None) for family in CYCLIC_37]
    else:
        sys.exit("v is 25 or 37")
    for blocks, removed in questions:
        start = time.time()
        passen = split(blocks, v, removed, 10 if removed else None)
        what = f"removed {sorted(blocks[b] for b in removed)}" if removed else f"system {blocks[:2]}…"
        print(f"{v}: {what}: {'UNSAT' if passen is None else 'SAT'} ({time.time() - start:.1f} s)", flush=True)
        if passen is not None:
            for passe in passen:
                print(passe)
            return


if __name__ == "__main__":
    main()
