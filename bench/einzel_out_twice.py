"""23 x 8 and 35 x 12 without a repeat: one player sits out twice. A SAT question per leave.

In these two fields (N = 11 mod 12 players, R = (N + 1) / 3 Passen, three spielfrei per
Passe) the spielfrei places outnumber the players by one, so the rotation sends one player X
out twice and every other player once (einzel_floor.py and einzel_unmet.py refuse such
fields). Without a repeat each other player has 3 (R - 1) = N - 2 table mates for N - 1
others and misses exactly one, and X, with N - 8, misses exactly four: the pairs that never
meet are a star of four at X and a perfect matching of the rest. The schedule's tables are
then a maximum packing of the pairs by tables of four (Schönheim's bound; reached for 23 and
35 by Brouwer's 1979 result as remembered, not looked up) whose tables split into R Passen. The smallest field of the family, 11 x 4,
has no such packing (six tables at most, eight needed): `python3 bench/einzel_out_twice.py
11 4 --free=2,2,0,0` answers UNSAT at once, as a check.

Players are numbered by the Passe they sit out in: group 0 (two players) and X in Passe 1,
group 1 (two) and X in Passe 2, group r (three) in Passe r + 1; X is the last player. Players
of one group are interchangeable, so a leave is, up to renaming, how many of X's four unmet
partners each group holds and a multigraph of the matching's pairs between groups.

    --free=X0,X1,...    X's unmet partners by group (so many of each group's first
                        players); every other player misses exactly one other, anyone
    --leave=X0,...:A-B,C-D,...
                        the whole leave: X's partners by group, and one matching pair per
                        A-B (a group with itself: a pair within it); every other pair then
                        meets exactly once
    --seconds=S         give the question up after S seconds

Any schedule found is checked (everybody seated once or spielfrei, tables of four, no pair
twice: einzel_rotational's check) and printed Passe by Passe.

Usage: pip install python-sat; python3 bench/einzel_out_twice.py 23 8 --free=2,2,0,0,0,0,0,0
       python3 bench/einzel_out_twice.py 23 8 \\
           --leave=2,2,0,0,0,0,0,0:2-2,3-3,4-4,5-5,6-6,7-7,2-3,4-5,6-7 --seconds=1800
"""

import itertools
import sys
import time

from einzel_floor import UNKNOWN, Seating, answer_within
from einzel_rotational import check
from pysat.card import CardEnc


def groups(players, passen):
    """The players sitting out in each Passe besides X, by number; X is players - 1."""
    out = players % 4
    if players % 12 != 11 or out * passen != players + 1:
        sys.exit("for fields where exactly one player sits out twice: 11 x 4, 23 x 8, 35 x 12, ...")
    sizes = [out - 1, out - 1] + [out] * (passen - 2)
    starts = list(itertools.accumulate([0] + sizes))
    return [list(range(starts[g], starts[g + 1])) for g in range(passen)]


def x_partners(members, counts):
    """X's unmet partners: the first `counts[g]` players of each group g."""
    if len(counts) != len(members) or sum(counts) != 4 or any(c > len(m) for c, m in zip(counts, members)):
        sys.exit("X misses exactly four players: one count per group, four in all")
    return {p for m, c in zip(members, counts) for p in m[:c]}


def matching_pairs(members, partners, group_pairs):
    """The matching's pairs: for each (a, b), the next players of groups a and b not yet
    used; every player but X and his partners exactly once."""
    free = [[p for p in m if p not in partners] for m in members]
    pairs = set()
    for a, b in group_pairs:
        if len(free[a]) < (2 if a == b else 1) or not free[b]:
            sys.exit(f"group pair {a}-{b}: not enough players left in the groups")
        p = free[a].pop(0)
        q = free[b].pop(0)
        pairs.add((min(p, q), max(p, q)))
    if any(free):
        sys.exit("the matching must pair every player but X and his four partners")
    return pairs


def spielfrei_of(players, passen):
    """Each Passe's spielfrei players: its group, and X in the first two."""
    x = players - 1
    return [set(m) | ({x} if r < 2 else set()) for r, m in enumerate(groups(players, passen))]


def solve(players, passen, partners, matching):
    """A schedule without a repeat where X misses `partners` and, with `matching` given,
    exactly those pairs stay unmet (else: each other player misses exactly one); or None."""
    x = players - 1
    model = Seating(players, passen, spielfrei_of(players, passen))
    unmet = {}
    for p, q in itertools.combinations(range(players), 2):
        both = model.meetings(p, q)
        never = p in partners if q == x else (matching is not None and (p, q) in matching)
        if never:
            model.clauses.extend([-model.met(p, q, r)] for r in both)
            continue
        if len(both) > 1:
            model.cardinality([model.met(p, q, r) for r in both], 1, CardEnc.atmost)
        # Met exactly, so that "meets once" and "misses" are counted, not just bounded.
        model.met_only_at_a_shared_table(p, q, both)
        if q == x or matching is not None:
            model.clauses.append([model.met(p, q, r) for r in both])
            continue
        unmet[p, q] = model.pool.id(("unmet", p, q))
        model.clauses.append([unmet[p, q]] + [model.met(p, q, r) for r in both])
        model.clauses.extend([-unmet[p, q], -model.met(p, q, r)] for r in both)
    if matching is None:
        for p in range(x):
            misses = [unmet[min(p, q), max(p, q)] for q in range(x) if q != p]
            model.cardinality(misses, 0 if p in partners else 1, CardEnc.equals)
    model.order_tables(range(passen))
    return model.solve("cadical195")


def main():
    numbers = [a for a in sys.argv[1:] if not a.startswith("--")]
    options = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--"))
    players, passen = int(numbers[0]), int(numbers[1])
    members = groups(players, passen)
    seconds = float(options["seconds"]) if "seconds" in options else None
    if "leave" in options:
        counts, pairs = options["leave"].split(":")
        partners = x_partners(members, [int(c) for c in counts.split(",")])
        group_pairs = [tuple(int(g) for g in pair.split("-")) for pair in pairs.split(",")]
        matching = matching_pairs(members, partners, group_pairs)
    elif "free" in options:
        partners = x_partners(members, [int(c) for c in options["free"].split(",")])
        matching = None
    else:
        sys.exit(__doc__)
    start = time.time()
    answer = answer_within(seconds, solve, players, passen, partners, matching)
    print_answer(players, spielfrei_of(players, passen), answer, time.time() - start)


def print_answer(players, spielfrei, answer, seconds, repeats=0):
    """A question's answer: a schedule (each Passe's tables) is checked first (everybody
    seated or spielfrei, at most `repeats` repeats, nobody out more than twice) and printed
    Passe by Passe with its spielfrei players."""
    elapsed = f"{seconds:.1f} s"
    if answer is UNKNOWN:
        print(f"no answer in {elapsed}")
    elif answer is None:
        print(f"UNSAT in {elapsed}")
    else:
        found, _, most_out = check(players, [(tables, sorted(spielfrei[r])) for r, tables in enumerate(answer)])
        if found > repeats or most_out > 2:
            raise AssertionError(f"the solver's schedule has {found} repeats, someone spielfrei {most_out} times")
        print(f"SAT in {elapsed}: {found} repeats")
        for number, tables in enumerate(answer, start=1):
            print(f"Passe {number}: {tables}  spielfrei {sorted(spielfrei[number - 1])}")


if __name__ == "__main__":
    main()
