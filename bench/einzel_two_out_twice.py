"""19 x 7 and 31 x 11 at their fewest: two players sit out twice. A SAT question per case.

In these fields (N = 7 mod 12 players, R = (N + 2) / 3 Passen, three spielfrei per Passe) the
spielfrei places outnumber the players by two, so the rotation (nobody twice before everybody
once) sends two players, X and Y, out a second time, both in the last Passe. Every other
player has 3 (R - 1) = N - 1 table mates for N - 1 others, so he misses exactly as many as he
meets once too often; X and Y, with N - 4, miss three more than that. So a schedule's repeats
are its unmet pairs less three, and the fewest is 2 (src/domain/einzel_draw/bound.rs): X and
Y miss each other and two more each, who make up their spare seat with one repeat each. No
solver had been asked for these two fields (stored 5 and 14; target 2).

Players are numbered by the Passe they sit out in first: X is 0, Y is 1; X and Y sit out
first in Passe 1 together (`--together`) or in Passen 1 and 2; everybody else once, three to a
Passe, and the last Passe seats all but X, Y and one more. Players who sit out in the same
Passe are interchangeable, and so are Passen 2 to R - 1 apart from X and Y.

    K                   at most K repeats (a pair meeting three times counts two)
    --together          X and Y sit out together twice (else in Passen 1 and 2 first)
    --split[=CASES]     at two repeats: one question per case (A, B, C: which players X and Y
                        miss and who meets twice, see `CASES`) and placement of those players
                        up to renaming, every pair's meetings then fixed
    --where=L:P,...     only the placements where label L is player P (e.g. a:18: the one
                        X and Y both miss sits out with them in the last Passe)
    --seconds=S         give each question up after S seconds

Any schedule found is checked (everybody seated or spielfrei, tables of four, repeats
counted: einzel_out_twice's print_answer) and printed Passe by Passe.

Usage: pip install python-sat; python3 bench/einzel_two_out_twice.py 19 7 2 --seconds=600
"""

import itertools
import sys
import time

from einzel_floor import Seating, answer_within
from einzel_out_twice import print_answer
from pysat.card import CardEnc


def spielfrei_of(players, passen, together):
    """Each Passe's spielfrei players: X (0) and Y (1) first in Passe 1 (together) or Passen
    1 and 2, again in the last; everybody else once, in the order of their numbers."""
    if players % 12 != 7 or 3 * passen != players + 2:
        sys.exit("for fields where exactly two players sit out twice: 7 x 3, 19 x 7, 31 x 11, ...")
    sizes = [3] * passen
    sizes[0] -= 2 if together else 1
    if not together:
        sizes[1] -= 1
    sizes[-1] -= 2
    out, others = [], iter(range(2, players))
    for r, size in enumerate(sizes):
        group = {next(others) for _ in range(size)}
        if r == 0:
            group |= {0, 1} if together else {0}
        if r == 1 and not together:
            group |= {1}
        if r == passen - 1:
            group |= {0, 1}
        out.append(group)
    return out


# At two repeats, counting fixes most of the picture. Each player p but X and Y misses as
# many others as he meets once too often (unmet(p) = rep(p)), X and Y three more; the unmet
# pairs are the repeats plus three, so five. X and Y miss three each: if they met, that would
# be six pairs already, and a repeat of X's would make him miss four and the pairs seven. So
# X and Y never meet and meet nobody twice, each misses two others, those four (or three, or
# two, where X and Y miss the same) are all the unmet pairs, and every other pair meets; the
# two repeats are among the players X and Y miss (their spare seats).
FEWEST = 2


# The cases at two repeats: X's unmet partners a, b, Y's c, d (a player missed by both
# named once), the two repeats, and the renamings of the labels that keep the case (True:
# the renaming swaps X and Y too). A pair meeting three times (X and Y missing the same two, who
# then meet three times) breaks the quality rule "nobody more than twice where the bound
# allows", so it is not asked.
CASES = {
    "A": (["a", "b", "c", "d"], [("X", "a"), ("X", "b"), ("Y", "c"), ("Y", "d")], [("a", "b"), ("c", "d")],
          [({"a": "b", "b": "a"}, False), ({"c": "d", "d": "c"}, False), ({"a": "c", "b": "d", "c": "a", "d": "b"}, True)]),
    "B": (["a", "b", "c", "d"], [("X", "a"), ("X", "b"), ("Y", "c"), ("Y", "d")], [("a", "c"), ("b", "d")],
          [({"a": "b", "b": "a", "c": "d", "d": "c"}, False), ({"a": "c", "b": "d", "c": "a", "d": "b"}, True)]),
    "C": (["a", "b", "d"], [("X", "a"), ("X", "b"), ("Y", "a"), ("Y", "d")], [("a", "b"), ("a", "d")],
          [({"b": "d", "d": "b"}, True)]),
}


def placements(players, passen, together, case):
    """Each way, up to renaming, of naming the case's players: which Passe each sits out in
    (players sitting out in one Passe are interchangeable, and so are the Passen where only
    three such players sit out); as {label: player}."""
    labels, _, _, symmetries = CASES[case]
    groups = [sorted(g - {0, 1}) for g in spielfrei_of(players, passen, together)]
    plain = list(range(1 if together else 2, passen - 1))
    # Swapping X and Y keeps the Passen when they sit out together, else swaps Passen 1 and 2.
    xy_passe = {} if together else {0: 1, 1: 0}

    def canonical(where):
        images = []
        group = [({}, False)]
        # The group the listed renamings generate: every element of these (of order 8, 4
        # and 2) is a product of at most three of them.
        for _ in range(3):
            group = group + [(compose(m, n), x != y) for m, x in group for n, y in symmetries]
        for mapping, swap in group:
            moved = {mapping.get(l, l): (xy_passe.get(r, r) if swap else r) for l, r in where.items()}
            rename, seen = {}, iter(plain)
            for l in labels:
                if moved[l] in plain and moved[l] not in rename:
                    rename[moved[l]] = next(seen)
            images.append(tuple(rename.get(moved[l], moved[l]) for l in labels))
        return min(images)

    found = set()
    for choice in itertools.product(range(passen), repeat=len(labels)):
        if all(choice.count(r) <= len(groups[r]) for r in set(choice)):
            found.add(canonical(dict(zip(labels, choice))))
    result = []
    for key in sorted(found):
        taken, naming = {}, {}
        for label, r in zip(labels, key):
            naming[label] = groups[r][taken.get(r, 0)]
            taken[r] = taken.get(r, 0) + 1
        result.append(naming)
    return result


def compose(first, then):
    """The renaming `first` followed by `then`, on labels."""
    keys = set(first) | set(then) | set(first.values())
    return {k: then.get(first.get(k, k), first.get(k, k)) for k in keys}


def pairs_of(case, naming):
    """The case's unmet pairs and repeated pairs as player numbers (X = 0, Y = 1)."""
    _, unmet, twice, _ = CASES[case]
    number = {"X": 0, "Y": 1, **naming}
    as_pairs = lambda pairs: {tuple(sorted((number[p], number[q]))) for p, q in pairs}
    return as_pairs(unmet) | {(0, 1)}, as_pairs(twice)


def solve(players, passen, repeats, together, unmet, twice=frozenset()):
    """A schedule with at most `repeats` repeats (and, with `unmet` given, exactly those
    pairs never meeting, those in `twice` meeting exactly twice and every other pair exactly
    once); or None."""
    spielfrei = spielfrei_of(players, passen, together)
    model = Seating(players, passen, spielfrei)
    excess = []
    for p, q in itertools.combinations(range(players), 2):
        both = model.meetings(p, q)
        met = [model.met(p, q, r) for r in both]
        model.met_only_at_a_shared_table(p, q, both)
        if unmet is not None:
            if (p, q) in unmet:
                model.clauses.extend([-m] for m in met)
            elif len(met) < (2 if (p, q) in twice else 1):
                model.clauses.append([])  # they do not play often enough together
            else:
                model.cardinality(met, 2 if (p, q) in twice else 1, CardEnc.equals)
            continue
        if repeats == FEWEST:
            # At the fewest (see `FEWEST`): X and Y never meet and meet nobody twice, every
            # other pair meets.
            if (p, q) == (0, 1):
                model.clauses.extend([-m] for m in met)
                continue
            if p < 2:
                model.cardinality(met, 1, CardEnc.atmost)
                continue
            model.clauses.append(met)
        # Meetings beyond the first, one literal each: sum(met) <= 1 + sum(more).
        more = [model.pool.id(("more", p, q, k)) for k in range(min(repeats, max(len(met) - 1, 0)))]
        model.clauses.extend([-b, a] for a, b in zip(more, more[1:]))
        model.cardinality(met + [-m for m in more], len(more) + 1, CardEnc.atmost)
        excess += more
    model.cardinality(excess, repeats, CardEnc.atmost)
    model.order_tables(range(passen))
    return model.solve("cadical195")


def main():
    numbers = [a for a in sys.argv[1:] if not a.startswith("--")]
    options = dict((a[2:].split("=", 1) + [""])[:2] for a in sys.argv[1:] if a.startswith("--"))
    players, passen, repeats = map(int, numbers[:3])
    together = "together" in options
    seconds = float(options["seconds"]) if "seconds" in options else None
    where = [pair.split(":") for pair in options["where"].split(",")] if "where" in options else []
    if "split" in options:
        if repeats != FEWEST:
            sys.exit("--split asks the cases at two repeats")
        for case in options["split"] or "ABC":
            for naming in placements(players, passen, together, case):
                if any(str(naming.get(label)) != player for label, player in where):
                    continue
                unmet, twice = pairs_of(case, naming)
                print(f"case {case} {naming}: ", end="", flush=True)
                ask(players, passen, repeats, together, unmet, twice, seconds)
        return
    ask(players, passen, repeats, together, None, frozenset(), seconds)


def ask(players, passen, repeats, together, unmet, twice, seconds):
    """One question, its answer printed (a schedule checked first)."""
    start = time.time()
    answer = answer_within(seconds, solve, players, passen, repeats, together, unmet, twice)
    print_answer(players, spielfrei_of(players, passen, together), answer, time.time() - start, repeats)


if __name__ == "__main__":
    main()
