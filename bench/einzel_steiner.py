"""Is there an Einzelschieber schedule without a repeat for 25 x 8 or 37 x 12 that is a Steiner
system S(2,4,v) less a few disjoint blocks?

Both fields have one spielfrei player per Passe (v - 1 = 3R), so at the bound 0 every player who
never sits out meets each other exactly once, and each of the R players who sit out once meets
all but three: their unmet pairs form a cubic graph on them. Where that graph is (v - 1) / 12
disjoint K4 (two for 25, three for 37), adding them as tables gives an S(2,4,v), and the
schedule is that system less those blocks, its other blocks split into R Passen of (v - 1) / 4
disjoint tables (each Passe then leaves out exactly one player of the removed blocks, a
different one each time, by counting).

Every Passe of such a split is a near-parallel class of the system: (v - 1) / 4 disjoint
blocks. A system has few of them, so the script lists them all (a clique search over disjoint
blocks, seconds) and asks a SAT solver for R of them and the removed blocks that together use
every block once, each player sitting out at most once. The answer is exact for the system
asked, and far faster than leaving the classes to the solver (the cyclic systems of order 37
gave no answer in half an hour that way).

Systems asked:
- 25: every system developed from a difference family over Z_5 x Z_5 (two base blocks);
- 37: the two cyclic systems (difference families over Z_37 up to multipliers);
- with --random G FIXED COUNT [SECONDS]: COUNT systems drawn by the SAT solver with the
  automorphism that fixes FIXED points and turns the others in cycles of length G
  (Kramer-Mesner: one variable per orbit of blocks), variables in a random order per seed;
  a system not found within SECONDS (default 60) is skipped;
- with --all G FIXED COUNT: up to COUNT distinct systems with that automorphism, one after the
  other (each found is excluded from the next question), until there are no more.

"UNSAT" says only that these systems give no such schedule: there are 18 systems S(2,4,25) and
many more of order 37, and the unmet pairs may form another cubic graph.

Usage: pip install python-sat
       python3 bench/einzel_steiner.py 25
       python3 bench/einzel_steiner.py 37
       python3 bench/einzel_steiner.py 37 --random 9 1 20
       python3 bench/einzel_steiner.py 37 --all 18 1 200
"""

import collections
import itertools
import random
import sys
import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from einzel_lns_players import sat_model_within
import einzel_sat


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


def rotation(v, length, fixed):
    """The permutation fixing points 0 .. fixed-1 and turning the others in cycles of `length`."""
    image = list(range(v))
    for start in range(fixed, v, length):
        for i in range(length):
            image[start + i] = start + (i + 1) % length
    return image


def invariant_system_model(v, image):
    """Kramer-Mesner: one variable per orbit of blocks under the permutation `image`, each orbit
    of pairs covered exactly once. Returns the orbits and the clauses."""
    moved = lambda subset: tuple(sorted(image[x] for x in subset))
    block_orbits, orbit_of_block = [], {}
    for block in itertools.combinations(range(v), 4):
        if block in orbit_of_block:
            continue
        orbit, next_block = [block], moved(block)
        while next_block != block:
            orbit.append(next_block)
            next_block = moved(next_block)
        orbit_of_block.update((b, len(block_orbits)) for b in orbit)
        block_orbits.append(orbit)
    pair_orbit, representatives = {}, set()
    for pair in itertools.combinations(range(v), 2):
        if pair in pair_orbit:
            continue
        representatives.add(pair)
        next_pair = pair
        while next_pair not in pair_orbit:
            pair_orbit[next_pair] = pair
            next_pair = moved(next_pair)
    pool = IDPool(occupied=[[1, len(block_orbits)]])
    covering = collections.defaultdict(list)
    clauses = []
    for o, orbit in enumerate(block_orbits):
        # An orbit that covers a pair twice can never be used.
        hits = collections.Counter(pair_orbit[p] for b in orbit for p in itertools.combinations(b, 2) if p in representatives)
        if any(n > 1 for n in hits.values()):
            clauses.append([-(o + 1)])
            continue
        for pair in hits:
            covering[pair].append(o + 1)
    for pair in representatives:
        clauses.extend(CardEnc.equals(lits=covering[pair], bound=1, vpool=pool, encoding=EncType.seqcounter).clauses)
    return block_orbits, clauses


def system_from(v, block_orbits, model):
    blocks = sorted(b for o, orbit in enumerate(block_orbits) if o + 1 in model for b in orbit)
    met = collections.Counter(p for b in blocks for p in itertools.combinations(b, 2))
    assert len(met) == v * (v - 1) // 2 and max(met.values()) == 1, "not a Steiner system"
    return blocks


def random_system(v, image, seed, seconds):
    """An S(2,4,v) invariant under the permutation `image`, or None if none is found in time.
    The seed renames the orbit variables, which sends the solver down another path."""
    block_orbits, clauses = invariant_system_model(v, image)
    renamed = list(range(1, len(block_orbits) + 1))
    random.Random(seed).shuffle(renamed)
    rename = lambda literal: (renamed[abs(literal) - 1] if abs(literal) <= len(renamed) else abs(literal)) * (1 if literal > 0 else -1)
    true = sat_model_within([[rename(l) for l in c] for c in clauses], seconds)
    if true is None:
        return None
    model = {o + 1 for o in range(len(block_orbits)) if renamed[o] in true}
    return system_from(v, block_orbits, model)


def all_systems(v, image, count):
    """Up to `count` distinct S(2,4,v) invariant under `image`, each excluded once found."""
    block_orbits, clauses = invariant_system_model(v, image)
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        for _ in range(count):
            if not solver.solve():
                return
            model = {literal for literal in solver.get_model() if 0 < literal <= len(block_orbits)}
            solver.add_clause([-o for o in model])
            yield system_from(v, block_orbits, model)


def near_parallel_classes(blocks, v):
    """Every set of (v - 1) / 4 pairwise disjoint blocks, as tuples of block indices."""
    size = (v - 1) // 4
    sets = [frozenset(b) for b in blocks]
    later_disjoint = [frozenset(j for j in range(i + 1, len(blocks)) if not sets[i] & sets[j]) for i in range(len(blocks))]
    found = []

    def extend(chosen, candidates):
        if len(chosen) == size:
            found.append(tuple(chosen))
            return
        if len(candidates) < size - len(chosen):
            return
        for c in sorted(candidates):
            extend(chosen + [c], candidates & later_disjoint[c])

    for i in range(len(blocks)):
        extend([i], later_disjoint[i])
    return found


def split(blocks, v, classes):
    """R near-parallel classes and (v - 1) / 12 removed blocks that use every block once, each
    player left out of at most one class and of one only if he is in a removed block; or None."""
    passen = (v - 1) // 3
    if len(classes) < passen:
        return None
    everyone = set(range(v))
    left_out = [(everyone - {p for b in c for p in blocks[b]}).pop() for c in classes]
    pool, clauses = IDPool(), []
    take = lambda i: pool.id(("class", i))
    removed = lambda b: pool.id(("removed", b))

    def cardinality(literals, bound, encode):
        clauses.extend(encode(lits=literals, bound=bound, vpool=pool, encoding=EncType.seqcounter).clauses)

    classes_with = collections.defaultdict(list)
    for i, c in enumerate(classes):
        for b in c:
            classes_with[b].append(take(i))
    for b in range(len(blocks)):
        cardinality(classes_with[b] + [removed(b)], 1, CardEnc.equals)
    cardinality([take(i) for i in range(len(classes))], passen, CardEnc.equals)
    for p in range(v):
        cardinality([take(i) for i in range(len(classes)) if left_out[i] == p], 1, CardEnc.atmost)
        cardinality([removed(b) for b in range(len(blocks)) if p in blocks[b]], 1, CardEnc.atmost)
    # By counting, R classes and the removed blocks then leave out exactly the removed players.
    model = einzel_sat.true_literals(clauses, "cadical153")
    if model is None:
        return None
    return [[blocks[b] for b in c] for i, c in enumerate(classes) if take(i) in model]


def systems(v, arguments):
    if "--all" in arguments:
        at = arguments.index("--all")
        length, fixed, count = (int(a) for a in arguments[at + 1:at + 4])
        for i, blocks in enumerate(all_systems(v, rotation(v, length, fixed), count)):
            yield f"Z{length} fixing {fixed}, system {i + 1}", blocks
    elif "--random" in arguments:
        at = arguments.index("--random")
        length, fixed, count = (int(a) for a in arguments[at + 1:at + 4])
        seconds = float(arguments[at + 4]) if len(arguments) > at + 4 else 60
        for seed in range(1, count + 1):
            start = time.time()
            blocks = random_system(v, rotation(v, length, fixed), seed, seconds)
            label = f"Z{length} fixing {fixed}, seed {seed} ({time.time() - start:.0f} s)"
            if blocks is None:
                print(f"{v}: {label}: no system found", flush=True)
            else:
                yield label, blocks
    elif v == 25:
        yield from ((f"Z5 x Z5 system {i + 1}", blocks) for i, blocks in enumerate(z5_squared_systems()))
    elif v == 37:
        yield from ((f"cyclic system {i + 1}", cyclic_system(family, v)) for i, family in enumerate(CYCLIC_37))


def main():
    v = int(sys.argv[1])
    if v not in (25, 37):
        sys.exit("v is 25 or 37")
    for label, blocks in systems(v, sys.argv[2:]):
        start = time.time()
        classes = near_parallel_classes(blocks, v)
        passen = split(blocks, v, classes)
        print(f"{v}: {label}: {len(classes)} near-parallel classes, {'UNSAT' if passen is None else 'SAT'} ({time.time() - start:.1f} s)", flush=True)
        if passen is not None:
            for passe in passen:
                print(passe)
            return


if __name__ == "__main__":
    main()
