"""A large-neighbourhood search over players, offline: where einzel_lns.py frees whole Passen
of a schedule, this frees a few players in every Passe. The other players keep their tables
(and everybody keeps the Passen he sits out in); the SAT solver seats the freed players in the
holes again so that no pair meets three times and fewer pairs never meet. With every pair at
most twice, fewer unmet pairs are fewer repeated meetings. The neighbourhood cuts across the
Passen, so a schedule that no choice of freed Passen lowers may still move here.

The schedule comes from a stored field of src/domain/einzel_draw/at_most_twice.rs (FIELD, e.g.
29_10) or, with FIELD "-", on stdin as the rows einzel_offline prints (PLAYERS then given
last). For FREE players at a time, chosen at random but always with one of a pair never met
(seeded), the solver gets SECONDS per question; the search stops at TARGET_UNMET unmet pairs or
after ROUNDS questions, and prints the best schedule as rows for at_most_twice.rs, its partners
chosen again (nobody partners anybody twice).

Usage: pip install python-sat
       python3 bench/einzel_lns_players.py 29_10 8 6 [SEED] [SECONDS] [ROUNDS]
       cargo bench --bench einzel_offline -- 17 6 12 1 1 |
           python3 bench/einzel_lns_players.py - 6 4 1 10 200 17
"""

import itertools
import pathlib
import random
import sys
import threading
import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from einzel_lns import parse, unmet
from einzel_twice import check, print_rows, seat_partners

STORED = pathlib.Path(__file__).resolve().parent.parent / "src/domain/einzel_draw/at_most_twice.rs"


def stored(field):
    """The players and the rows of a stored field."""
    text = STORED.read_text()
    start = text.index(f"const FIELD_{field}: Field")
    block = text[start : text.index("};", start)]
    players = int(block.split("players:")[1].split(",")[0])
    return players, block.splitlines()


def meetings(passen):
    met = {}
    for tables, _ in passen:
        for table in tables:
            for pair in itertools.combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return met


def sat_model_within(clauses, seconds):
    """The true variables of a model found within `seconds`, or None (unsatisfiable or no answer
    in time). Glucose: CaDiCaL (as pysat has it) does not stop when interrupted."""
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        timer = threading.Timer(seconds, solver.interrupt)
        timer.start()
        found = solver.solve_limited(expect_interrupt=True)
        timer.cancel()
        if not found:
            return None
        return {literal for literal in solver.get_model() if literal > 0}


def reseat(players, passen, freed, max_unmet, seconds):
    """The Passen with the freed players seated anew in their holes, at most `max_unmet`
    pairs never met and no pair three times; None where the solver finds none in time."""
    freed_set = set(freed)
    pool, clauses = IDPool(), []
    seat = lambda p, r, t: pool.id(("seat", p, r, t))
    kept_tables = []  # per Passe: the kept players of each table
    holes = []  # per Passe: the tables with holes
    for r, (tables, out) in enumerate(passen):
        kept = [[q for q in table if q not in freed_set] for table in tables]
        kept_tables.append(kept)
        holes.append([t for t, k in enumerate(kept) if len(k) < 4])
        seated = [p for p in freed if p not in out]
        for p in seated:
            clauses += CardEnc.equals([seat(p, r, t) for t in holes[r]], 1, vpool=pool, encoding=EncType.seqcounter).clauses
        for t in holes[r]:
            clauses += CardEnc.equals([seat(p, r, t) for p in seated], 4 - len(kept[t]), vpool=pool, encoding=EncType.seqcounter).clauses
    # The pairs with a freed player: a literal per Passe in which they may meet.
    together = {}
    for r, (tables, out) in enumerate(passen):
        seated = [p for p in freed if p not in out]
        table_of = {q: t for t, k in enumerate(kept_tables[r]) for q in k}
        for p in seated:
            for q, t in table_of.items():
                if t in holes[r]:
                    together.setdefault(tuple(sorted((p, q))), []).append(seat(p, r, t))
        for p, q in itertools.combinations(seated, 2):
            for t in holes[r]:
                both = pool.id(("both", p, q, r, t))
                clauses += [[-both, seat(p, r, t)], [-both, seat(q, r, t)], [both, -seat(p, r, t), -seat(q, r, t)]]
                together.setdefault(tuple(sorted((p, q))), []).append(both)
    kept_met = meetings([(kept, out) for kept, (_, out) in zip(kept_tables, passen)])
    never = []
    for pair in itertools.combinations(range(players), 2):
        if pair[0] in freed_set or pair[1] in freed_set:
            literals = together.get(pair, [])
            if len(literals) > 2:
                clauses += CardEnc.atmost(literals, 2, vpool=pool, encoding=EncType.seqcounter).clauses
            unmet_pair = pool.id(("unmet", pair))
            clauses.append([unmet_pair] + literals)
            never.append(unmet_pair)
        elif pair not in kept_met:
            max_unmet -= 1
    if max_unmet < 0:
        return None
    clauses += CardEnc.atmost(never, max_unmet, vpool=pool, encoding=EncType.seqcounter).clauses
    model = sat_model_within(clauses, seconds)
    if model is None:
        return None
    result = []
    for r, (tables, out) in enumerate(passen):
        new = [list(k) for k in kept_tables[r]]
        for p in freed:
            if p in out:
                continue
            t = next(t for t in holes[r] if seat(p, r, t) in model)
            new[t].append(p)
        result.append((new, list(out)))
    return result


def main():
    field, free, target = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 20
    rounds = int(sys.argv[6]) if len(sys.argv) > 6 else 200
    if field == "-":
        players = int(sys.argv[7])
        lines = sys.stdin.readlines()
    else:
        players, lines = stored(field)
    passen = parse(lines, players)
    rng = random.Random(seed)
    best = unmet(players, passen)
    start = time.time()
    print(f"start: {best} unmet, most meetings {max(meetings(passen).values())}", flush=True)
    for question in range(rounds):
        if best <= target:
            break
        met = meetings(passen)
        lonely = [pair for pair in itertools.combinations(range(players), 2) if pair not in met]
        first = rng.choice(rng.choice(lonely)) if lonely else rng.randrange(players)
        others = rng.sample([p for p in range(players) if p != first], free - 1)
        answer = reseat(players, passen, [first] + others, best - 1, seconds)
        verdict = "found" if answer is not None else "none"
        print(f"  question {question + 1}: {verdict} ({time.time() - start:.0f} s)", file=sys.stderr, flush=True)
        if answer is not None:
            passen = answer
            best = unmet(players, passen)
            print(f"  {best} unmet after {time.time() - start:.0f} s (question {question + 1})", flush=True)
    seated = seat_partners([tables for tables, _ in passen])
    spielfrei = [out for _, out in passen]
    counts = check(players, seated, spielfrei)
    print(
        f"{players} x {len(passen)}: {sum(m - 1 for m in counts.values())} repeats, never met {best}, "
        f"most meetings {max(counts.values())} ({time.time() - start:.0f} s)"
    )
    print_rows(seated, spielfrei)


if __name__ == "__main__":
    main()
