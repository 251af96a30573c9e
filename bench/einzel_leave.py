"""Schedules without a repeated meeting whose unmet pairs are prescribed: 21 x 6 and 25 x 8.

In a schedule without a repeat each pair meets once or never, so the pairs that never meet
(its leave) decide much of its shape; fixed in advance they turn "at most once" into
"exactly once" for every other pair, which a SAT solver propagates far better. One player
is spielfrei per Passe (S, the last R players: player N - R + r in Passe r); the others (F)
play every Passe.

- `21 6 apart`: the spielfrei never meet each other. Each of them misses 20 - 15 = 5
  players, so then exactly the other five S players, and meets every F player once; an F
  player misses two other F players. (A 4-GDD of type 3^5 6^1 set out this way is a special
  case.) UNSAT means: in every 21 x 6 schedule without a repeat two spielfrei players meet.
- `25 8 cubic K`: an F player meets all 24 others once (8 x 3 = 24), a spielfrei player
  misses three of them, all spielfrei too: the leave is a cubic graph on the 8 S players, one
  of the six such graphs up to isomorphism (K = 0 to 5, listed by `25 8 list`; the
  disconnected one, two tables' worth, is the Steiner-system case of einzel_steiner.py).
  UNSAT for all six would prove that 25 x 8 cannot be drawn without a repeat.

Symmetry: tables are ordered by their smallest player, and F players, interchangeable, sit
in Passe 1 in the order of their tables; with `apart`, tables are ordered by their one
spielfrei player and Passe 1 seats the F players in order. Two F players at one table of
Passe 1 then sit at tables in Passe 2 in the order of their numbers (`Seating.
order_passe_one_mates`; 21 6 apart: 0.6 s instead of 41 s).

Usage: pip install python-sat networkx; python3 bench/einzel_leave.py 21 6 apart   (UNSAT, 1 s)
       timeout 900 python3 bench/einzel_leave.py 25 8 cubic 4
"""

import itertools
import sys
import time

import networkx

from einzel_floor import Seating
from pysat.card import CardEnc


def cubic_graphs(n, draws=3000):
    """The cubic graphs on n vertices up to isomorphism, as found among `draws` random ones
    (for n = 8 all six turn up within the first 35), in a fixed order."""
    found = []
    for seed in range(draws):
        graph = networkx.random_regular_graph(3, n, seed=seed)
        if not any(networkx.is_isomorphic(graph, known) for known in found):
            found.append(graph)
    return found


def leave_apart(players, passen):
    """Pairs never met: every two spielfrei. Pairs met exactly once: spielfrei with the rest."""
    fixed = players - passen
    never = {frozenset(pair) for pair in itertools.combinations(range(fixed, players), 2)}
    exactly = {frozenset((f, s)) for f in range(fixed) for s in range(fixed, players)}
    return never, exactly


def leave_cubic(players, passen, graph):
    """Pairs never met: the graph's edges on the spielfrei. Every other pair exactly once."""
    fixed = players - passen
    never = {frozenset((fixed + a, fixed + b)) for a, b in graph.edges()}
    exactly = {frozenset(pair) for pair in itertools.combinations(range(players), 2)} - never
    return never, exactly


def schedule_model(players, passen, never, exactly):
    """The clauses of a schedule without a repeat, player N - R + r spielfrei in Passe r, in
    which the pairs in `never` never meet and those in `exactly` meet once; met(p, q, r) is
    true exactly where p and q share a table."""
    fixed = players - passen
    model = Seating(players, passen, [{fixed + r} for r in range(passen)])
    for p, q in itertools.combinations(range(players), 2):
        both = model.meetings(p, q)
        if frozenset((p, q)) in never:
            model.clauses.extend([-model.met(p, q, r)] for r in both)
            continue
        model.met_only_at_a_shared_table(p, q, both)
        once = CardEnc.equals if frozenset((p, q)) in exactly else CardEnc.atmost
        model.cardinality([model.met(p, q, r) for r in both], 1, once)
    return model


def model_of(players, passen, never, exactly, apart):
    """The clauses of a schedule without a repeat that meets `never` and `exactly`, with the
    symmetry broken as set out above."""
    fixed = players - passen
    model = schedule_model(players, passen, never, exactly)
    seat, clauses, playing = model.seat, model.clauses, model.playing
    if apart:
        # One spielfrei player at each table (five of them at five tables, never together):
        # tables ordered by theirs, and in Passe 1 the F players three by three in order.
        for r in range(passen):
            others = [s for s in range(fixed, players) if playing(s, r)]
            clauses.extend([seat(s, r, t)] for t, s in enumerate(others))
        clauses.extend([seat(f, 0, f // 3)] for f in range(fixed))
        model.order_passe_one_mates(range(fixed))
        return model
    model.order_tables(range(passen))
    model.seat_in_table_order(fixed)
    model.order_passe_one_mates(range(fixed))
    return model



def main():
    players, passen, kind = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if (players, passen, kind) not in ((21, 6, "apart"), (25, 8, "cubic"), (25, 8, "list")):
        sys.exit("covered: 21 6 apart, 25 8 cubic K, 25 8 list")
    if kind == "list":
        for k, graph in enumerate(cubic_graphs(passen)):
            print(k, "connected" if networkx.is_connected(graph) else "two K4", sorted(graph.edges()))
        return
    if kind == "apart":
        never, exactly = leave_apart(players, passen)
    else:
        never, exactly = leave_cubic(players, passen, cubic_graphs(passen)[int(sys.argv[4])])
    start = time.time()
    tables = model_of(players, passen, never, exactly, kind == "apart").solve("cadical195")
    answer = "UNSAT" if tables is None else f"SAT {tables}"
    print(f"{players} x {passen} {' '.join(sys.argv[3:])}: {answer} ({time.time() - start:.1f} s)")


if __name__ == "__main__":
    main()
