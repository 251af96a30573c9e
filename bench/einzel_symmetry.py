"""Can an Einzelschieber schedule without a repeat have a symmetry? Fields with one spielfrei
player per Passe (N = 4T + 1): 21 x 6, 25 x 8, 37 x 12 (and any other, as a check).

A symmetry is a renaming pi of the players that maps the schedule onto itself: every table
of Passe r onto a table of Passe sigma(r). The spielfrei player of Passe r (S, player
N - R + r) then goes to the one of Passe sigma(r), so pi on S is sigma; on the players who
never sit out (F) it is any permutation. If a schedule has a symmetry it has one of prime
order p (a power of it), so the script asks, for every prime p and every renaming of prime
order up to renaming the players, whether a schedule with that symmetry exists:

- sigma: each permutation of the Passen of order p or 1, up to conjugacy (its cycle type;
  with a prescribed leave, up to conjugacy in the leave's automorphism group, which sigma
  must belong to);
- on F: a cycles of length p and the rest fixed, a = 0 .. |F| / p (a >= 1 if sigma is the
  identity); F players are interchangeable, so the cycle type is all that matters.

The SAT model is einzel_leave.py's (pairs meet at most once; with `cubic K`, 25 x 8 with its
unmet pairs the cubic graph K on the spielfrei, everything else exactly once) plus, for every
pair and Passe, met(p, q, r) = met(pi p, pi q, sigma r); tables ordered by smallest player.
UNSAT for every case of a field means: no schedule of it without a repeat has any symmetry
at all. A case may be left unanswered within the time given (`--seconds`, default 120).

As a check that the model finds symmetric schedules where they exist: `25 7` (drawn without
a repeat) answers SAT in seconds for sigma of type 3,3 with six 3-cycles on F, and each
schedule found is checked (no repeat, mapped onto itself) before it is reported.

Usage: pip install python-sat networkx
       python3 bench/einzel_symmetry.py 25 8 cubic 4     (one leave; 393 cases over all six)
       python3 bench/einzel_symmetry.py 21 6 --seconds 300
       python3 bench/einzel_symmetry.py 25 7 --only 3,3 3x6
       python3 bench/einzel_symmetry.py 37 12 --from 131   (cases are numbered; skip the first 131)
"""

import itertools
import sys
import time

import networkx
from networkx.algorithms.isomorphism import GraphMatcher

from einzel_floor import UNKNOWN, answer_within
from einzel_leave import cubic_graphs, leave_cubic, schedule_model
from einzel_rotational import check

PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31)


def cycle_type(perm):
    seen, lengths = set(), []
    for start in range(len(perm)):
        length, point = 0, start
        while point not in seen:
            seen.add(point)
            point, length = perm[point], length + 1
        if length:
            lengths.append(length)
    return tuple(sorted((x for x in lengths if x > 1), reverse=True))


def permutation_of_type(lengths, size):
    """Cycles of the given lengths on 0, 1, ..., the rest fixed."""
    perm, start = list(range(size)), 0
    for length in lengths:
        for i in range(length):
            perm[start + i] = start + (i + 1) % length
        start += length
    return tuple(perm)


def sigmas(passen, prime, group):
    """The permutations of the Passen of order `prime` or 1, one per conjugacy class of
    `group` (None: all permutations, classes = cycle types)."""
    if group is None:
        return [permutation_of_type((prime,) * c, passen) for c in range(passen // prime + 1)]
    found, seen = [], set()
    for perm in group:
        if set(cycle_type(perm)) - {prime} or perm in seen:
            continue
        found.append(perm)
        for g in group:
            inverse = [0] * passen
            for i, x in enumerate(g):
                inverse[x] = i
            seen.add(tuple(g[perm[inverse[v]]] for v in range(passen)))
    return sorted(found, key=lambda perm: (len(cycle_type(perm)), perm))


def cases(players, passen, group):
    fixed = players - passen
    for prime in PRIMES:
        if prime > max(passen, fixed):
            break
        for sigma in sigmas(passen, prime, group):
            moved = bool(cycle_type(sigma))
            for cycles in range(0 if moved else 1, fixed // prime + 1):
                yield sigma, prime, cycles


def solve_case(players, passen, graph, sigma, prime, cycles):
    fixed = players - passen
    never, exactly = leave_cubic(players, passen, graph) if graph is not None else (set(), set())
    model = schedule_model(players, passen, never, exactly)
    pi = list(permutation_of_type((prime,) * cycles, fixed)) + [fixed + s for s in sigma]
    for p, q in itertools.combinations(range(players), 2):
        for r in range(passen):
            if model.playing(p, r) and model.playing(q, r):
                image = model.met(*sorted((pi[p], pi[q])), sigma[r])
                model.clauses.extend([[-model.met(p, q, r), image], [model.met(p, q, r), -image]])
    model.order_tables(range(passen))
    tables = model.solve("cadical195")
    if tables is not None:
        checked(tables, pi, sigma)
    return tables


def checked(tables, pi, sigma):
    """A schedule found: everybody seated once per Passe, no pair twice (einzel_rotational's
    check), and pi maps it onto itself."""
    fixed = len(pi) - len(sigma)
    repeats, _, _ = check(len(pi), [(passe, [fixed + r]) for r, passe in enumerate(tables)])
    assert repeats == 0, "a pair meets twice"
    blocks = {(r, frozenset(table)) for r, passe in enumerate(tables) for table in passe}
    assert all((sigma[r], frozenset(pi[p] for p in table)) in blocks for r, table in blocks)


def taken(arguments, name, count):
    """The `count` values after option `name`, taken out of `arguments` ([] if not given)."""
    if name not in arguments:
        return []
    at = arguments.index(name)
    values = arguments[at + 1 : at + 1 + count]
    del arguments[at : at + 1 + count]
    return values


def main():
    arguments = sys.argv[1:]
    seconds = float(next(iter(taken(arguments, "--seconds", 1)), 120))
    first = int(next(iter(taken(arguments, "--from", 1)), 0))
    only = taken(arguments, "--only", 2) or None
    players, passen = int(arguments[0]), int(arguments[1])
    if players % 4 != 1 or passen > players // 4 * 4 or passen < 2:
        sys.exit("fields with one spielfrei player per Passe: N = 4T + 1, 2 <= R <= N - 1")
    graph, group = None, None
    if arguments[2:3] == ["cubic"]:
        if (players, passen) != (25, 8):
            sys.exit("a cubic leave is asked for 25 x 8 only")
        graph = cubic_graphs(passen)[int(arguments[3])]
        group = [tuple(m[v] for v in range(passen)) for m in GraphMatcher(graph, graph).isomorphisms_iter()]
        print(f"leave {arguments[3]}: {'connected' if networkx.is_connected(graph) else 'two K4'}, "
              f"{len(group)} automorphisms")
    tally = {"UNSAT": 0, "SAT": 0, "no answer": 0}
    for index, (sigma, prime, cycles) in enumerate(cases(players, passen, group)):
        if index < first:
            continue
        passen_type, f_type = ",".join(map(str, cycle_type(sigma))) or "1", f"{prime}x{cycles}"
        if only and only != [passen_type, f_type]:
            continue
        shape = f"Passen {passen_type}   F {f_type}"
        start = time.time()
        tables = answer_within(seconds, solve_case, players, passen, graph, sigma, prime, cycles)
        kind = "no answer" if tables == UNKNOWN else "UNSAT" if tables is None else "SAT"
        tally[kind] += 1
        answer = kind if tables in (None, UNKNOWN) else f"SAT {tables}"
        shown = f"no answer in {seconds:.0f} s" if tables == UNKNOWN else f"{answer} ({time.time() - start:.1f} s)"
        print(f"{index}: {players} x {passen} sigma {sigma} ({shape}): {shown}", flush=True)
    print(f"{players} x {passen}: {tally['UNSAT']} UNSAT, {tally['SAT']} SAT, {tally['no answer']} no answer")


if __name__ == "__main__":
    main()
