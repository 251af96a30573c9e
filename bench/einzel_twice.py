"""An Einzelschieber schedule in which no two players meet more than twice, for small fields
over many Passen (3R > N - 1, but 3R <= 2(N - 1)): found once, offline, and stored in
src/domain/einzel_draw/at_most_twice.rs.

N players over R Passen at tables of four; N % 4 players are spielfrei in each Passe, in the
rotation 0, 1 | 2, 3 | ... (nobody twice before everybody once). A SAT solver is asked for a
schedule in which every pair sits at one table at most twice and at most MAX_UNMET pairs never
meet. With every pair at most twice, a schedule's repeated meetings are its meetings less the
pairs that met, so MAX_UNMET is how far above the counting bound it may be (the draw's target
allows a tenth of the bound).

The first Passe is fixed (players in order); the first PREFIX Passen (default 1) are then
fixed as a schedule without any repeat, found by the same solver: for 20 players the five
Passen of the social golfer solution 5-4-5 make the rest quicker to find. Later Passen order
their tables by the smallest player. Then each table's pairing (A1 A2 against B1 B2) is chosen
by a second, small SAT question so that nobody has the same partner twice. The result is
checked and printed as the Rust rows of at_most_twice.rs: per Passe the seats A1, A2, B1, B2
table by table, then the spielfrei. The solver is CaDiCaL 1.5.3: on 20 x 11 (at most 14
unmet) version 1.9.5 gave no answer in 13 minutes where 1.5.3 answered in two. MAX_UNMET "-"
sets no limit, "once" asks for no pair twice; PREFIX "zG" asks for the symmetry Z_G instead
(see tables_of; "zG/K" puts only K Passen in its orbits). With the symmetry, spielfrei players
sit out row by row (see rotation): the stored schedules only need nobody twice, and the draw
renames the players anyway.

Usage: pip install python-sat; python3 bench/einzel_twice.py 20 11 1 5  (12 s: 141 repeats)
       python3 bench/einzel_twice.py 18 11 1     (2.5 minutes: 112 repeats)
       python3 bench/einzel_twice.py 20 12 - z5  (5 s: 170 repeats, Z_5 on rows of five)
       python3 bench/einzel_twice.py 24 8 1 z3   (about a minute: 12 repeats, Z_3 on rows of three)
"""

import itertools
import sys
import time

from pysat.card import CardEnc
from pysat.formula import IDPool

from einzel_floor import Seating
import einzel_sat

PAIRINGS = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]


def rotation(players, passen, cyclic=None):
    """Who is spielfrei in each Passe: players 0, 1 | 2, 3 | ... or, with the symmetry Z_g,
    whole rows orbit by orbit (Passe g·k + j: element j of rows out·k, out·k + 1, ...), so
    that the symmetry maps the spielfrei of a Passe onto those of the next."""
    out = players % 4
    if cyclic is None:
        return [[(out * r + i) % players for i in range(out)] for r in range(passen)]
    return [[cyclic * (out * (r // cyclic) + i) + r % cyclic for i in range(out)] for r in range(passen)]


def tables_of(players, passen, most, max_unmet, fixed, cyclic=None, in_orbits=None):
    """Tables of `passen` Passen, every pair at most `most` times, at most `max_unmet` pairs
    never met (None: any), the Passen `fixed` as given; None if there is no such schedule.
    With `cyclic` = g, the players are rows of Z_g (player g·row + j; players beyond the last
    whole row are fixed points), and the schedule is invariant under j -> j + 1: Passen in
    orbits of g (each the next one moved; the first `in_orbits` Passen, by default as many as
    whole orbits hold), the others each mapped onto itself.
    `most` = 1 asks for no repeat at all (max_unmet is then None)."""
    spielfrei = rotation(players, passen, cyclic)
    model = Seating(players, passen, spielfrei)
    seat, clauses = model.seat, model.clauses
    for r, passe in enumerate(fixed):
        for t, table in enumerate(passe):
            clauses.extend([seat(p, r, t) if p in table else -seat(p, r, t)] for p in range(players))
    # A table's smallest player is at least its number: tables ordered by smallest player.
    for r, p, t in itertools.product(range(len(fixed), passen), range(players), range(model.tables)):
        if t > p and model.playing(p, r):
            clauses.append([-seat(p, r, t)])
    never = []
    for p, q in itertools.combinations(range(players), 2):
        both = model.meetings(p, q)
        met = [model.met(p, q, r) for r in both]
        model.cardinality(met, most, CardEnc.atmost)
        if max_unmet is None and cyclic is None:
            continue
        # "Never met" is counted right, and the symmetry below moves the meetings themselves.
        model.met_only_at_a_shared_table(p, q, both)
        if max_unmet is not None:
            never.append(model.pool.id(("never", p, q)))
            clauses.append([never[-1]] + met)
    if max_unmet is not None:
        model.cardinality(never, max_unmet, CardEnc.atmost)
    if cyclic is not None:
        rows = players // cyclic
        move = lambda p: p // cyclic * cyclic + (p % cyclic + 1) % cyclic if p < rows * cyclic else p
        orbits = passen // cyclic * cyclic if in_orbits is None else in_orbits
        image = lambda r: r // cyclic * cyclic + (r + 1) % cyclic if r < orbits else r
        met = lambda p, q, r: model.met(min(p, q), max(p, q), r)
        for p, q, r in itertools.product(range(players), range(players), range(passen)):
            if p < q:
                clauses += [[-met(p, q, r), met(move(p), move(q), image(r))]]
    return model.solve("cadical153")


def seat_partners(schedule):
    """Each table as A1, A2, B1, B2 so that no pair partners twice."""
    pool, clauses, partnered = IDPool(), [], {}
    for r, passe in enumerate(schedule):
        for t, table in enumerate(passe):
            choice = [pool.id((r, t, k)) for k in range(3)]
            clauses += CardEnc.equals(lits=choice, bound=1, vpool=pool).clauses
            for k, pairing in enumerate(PAIRINGS):
                for a, b in pairing:
                    partnered.setdefault(frozenset((table[a], table[b])), []).append(choice[k])
    for literals in partnered.values():
        if len(literals) > 1:
            clauses += CardEnc.atmost(lits=literals, bound=1, vpool=pool).clauses
    model = einzel_sat.true_literals(clauses, "cadical153")
    if model is None:
        return None
    seated = []
    for r, passe in enumerate(schedule):
        row = []
        for t, table in enumerate(passe):
            k = next(k for k in range(3) if pool.id((r, t, k)) in model)
            (a, b), (c, d) = PAIRINGS[k]
            row.append([table[a], table[b], table[c], table[d]])
        seated.append(row)
    return seated


def check(players, seated, spielfrei):
    """Meetings per pair, after checking seats, the spielfrei and partners."""
    meetings, partners = {}, set()
    for passe, out in zip(seated, spielfrei):
        seats = sorted(p for table in passe for p in table)
        assert seats == sorted(set(range(players)) - set(out)), "everybody seated once"
        for table in passe:
            for a, b in itertools.combinations(table, 2):
                meetings[frozenset((a, b))] = meetings.get(frozenset((a, b)), 0) + 1
            for a, b in ((table[0], table[1]), (table[2], table[3])):
                assert frozenset((a, b)) not in partners, "a partner twice"
                partners.add(frozenset((a, b)))
    return meetings


def print_rows(seated, spielfrei):
    """The schedule as the Rust rows of at_most_twice.rs: per Passe the seats table by table,
    then the spielfrei."""
    for passe, out in zip(seated, spielfrei):
        print("    &[" + ", ".join(str(p) for p in [p for t in passe for p in t] + out) + "],")


def main():
    players, passen = int(sys.argv[1]), int(sys.argv[2])
    most = 1 if sys.argv[3] == "once" else 2
    max_unmet = None if sys.argv[3] in ("-", "once") else int(sys.argv[3])
    prefix = sys.argv[4] if len(sys.argv) > 4 else "1"
    start = time.time()
    playing = [p for p in range(players) if p not in rotation(players, 1)[0]]
    fixed = [[playing[4 * t : 4 * t + 4] for t in range(players // 4)]]
    # "zG" or "zG/K": the symmetry Z_G, with K Passen in its orbits (see tables_of).
    cyclic = in_orbits = None
    if prefix.startswith("z"):
        group, _, orbit_passen = prefix[1:].partition("/")
        cyclic, in_orbits = int(group), int(orbit_passen) if orbit_passen else None
    prefix = 0 if cyclic else int(prefix)
    if cyclic:
        fixed = []  # Passe 1 fixed as it is would break the symmetry.
        out, rows = players % 4, players // cyclic
        if out and (passen % cyclic or out * passen // cyclic > rows):
            sys.exit("with spielfrei, Z_g needs whole orbits of Passen and a spielfrei row each")
    elif prefix > 1:
        fixed = tables_of(players, prefix, 1, None, fixed)
        print(f"{prefix} Passen without a repeat: {time.time() - start:.1f} s", flush=True)
    schedule = tables_of(players, passen, most, max_unmet, fixed, cyclic, in_orbits)
    if schedule is None:
        print(f"{players} x {passen}: UNSAT ({time.time() - start:.1f} s)")
        return
    seated = seat_partners(schedule)
    spielfrei = rotation(players, passen, cyclic)
    meetings = check(players, seated, spielfrei)
    unmet = players * (players - 1) // 2 - len(meetings)
    repeats = sum(m - 1 for m in meetings.values())
    print(
        f"{players} x {passen}: SAT ({time.time() - start:.1f} s), most meetings "
        f"{max(meetings.values())}, never met {unmet}, repeated meetings {repeats}"
    )
    print_rows(seated, spielfrei)


if __name__ == "__main__":
    main()
