"""A large-neighbourhood search with the SAT solver, offline: improves an Einzelschieber
schedule in which no pair meets three times by freeing a few of its Passen and asking the
solver (einzel_twice.py's model) for those Passen again with fewer pairs never met. With every
pair at most twice, fewer unmet pairs are fewer repeated meetings, so this lowers a schedule
that the long tabu search (benches/einzel_offline.rs) left stuck above its target.

The schedule comes on stdin as the rows einzel_offline prints (per Passe the seats table by
table, then the spielfrei); only fields where nobody sits out twice. For each choice of FREE
Passen (in a seeded random order), the other Passen are kept and the players renamed so that
the spielfrei follow einzel_twice.py's rotation; the solver gets SECONDS per question. It
stops when at most TARGET_UNMET pairs are unmet, or when no choice of FREE Passen helps, and
prints the best schedule as rows for src/domain/einzel_draw/at_most_twice.rs.

Usage: pip install python-sat
       cargo bench --bench einzel_offline -- 17 6 12 2 8 | python3 bench/einzel_lns.py 17 6 4 3 60
"""

import itertools
import random
import sys
import time

from einzel_floor import UNKNOWN, answer_within
from einzel_twice import check, rotation, seat_partners, tables_of


def parse(lines, players):
    """The Passen in the rows: (tables, spielfrei) each."""
    seated = players - players % 4
    passen = []
    for line in lines:
        line = line.strip()
        if not line.startswith("&["):
            continue
        row = [int(x) for x in line[2:].rstrip("],").split(",")]
        tables = [row[i : i + 4] for i in range(0, seated, 4)]
        passen.append((tables, row[seated:]))
    return passen


def unmet(players, passen):
    met = {frozenset(pair) for tables, _ in passen for table in tables for pair in itertools.combinations(table, 2)}
    return players * (players - 1) // 2 - len(met)


def renamed(players, passen):
    """The Passen and players renamed so that the spielfrei of Passe r are rotation()[r]."""
    label = {}
    for (_, out), wanted in zip(passen, rotation(players, len(passen))):
        label.update(zip(out, wanted))
    rest = [p for p in range(players) if p not in label]
    free = [q for q in range(players) if q not in label.values()]
    label.update(zip(rest, free))
    return [([[label[p] for p in table] for table in tables], [label[p] for p in out]) for tables, out in passen]


def main():
    players, passen_count, target, free_count = (int(a) for a in sys.argv[1:5])
    seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 60
    rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    passen = parse(sys.stdin, players)
    assert len(passen) == passen_count, "a row per Passe"
    assert players % 4 * passen_count <= players, "only fields where nobody sits out twice"
    best = unmet(players, passen)
    start = time.time()
    print(f"start: {best} unmet", flush=True)
    while best > target:
        choices = list(itertools.combinations(range(passen_count), free_count))
        rng.shuffle(choices)
        for free in choices:
            order = [r for r in range(passen_count) if r not in free] + list(free)
            kept = renamed(players, [passen[r] for r in order])
            fixed = [tables for tables, _ in kept[: passen_count - free_count]]
            tables = answer_within(seconds, tables_of, players, passen_count, 2, best - 1, fixed)
            if tables not in (None, UNKNOWN):
                passen = list(zip(tables, rotation(players, passen_count)))
                best = unmet(players, passen)
                print(f"{time.time() - start:7.1f} s  Passen {free} anew: {best} unmet", flush=True)
                break
        else:
            print(f"no choice of {free_count} Passen helps: {best} unmet ({time.time() - start:.1f} s)")
            break
    seated = seat_partners([tables for tables, _ in passen])
    spielfrei = [out for _, out in passen]
    meetings = check(players, seated, spielfrei)
    repeats = sum(m - 1 for m in meetings.values())
    print(f"{players} x {passen_count}: {best} unmet, most meetings {max(meetings.values())}, repeats {repeats}")
    for tables, out in zip(seated, spielfrei):
        print("        &[" + ", ".join(str(p) for p in [p for t in tables for p in t] + out) + "],")


if __name__ == "__main__":
    main()
