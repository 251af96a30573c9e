"""22 x 8 at its fewest (9 repeats) and 22 x 7 without a repeat in the paired form, one cubic
graph at a time.

In 22 x R (two spielfrei per Passe: 2R players S sit out once, F = 22 - 2R never) the paired
form of `einzel_paired.py` seats the F players two by two at F / 2 tables per Passe, each
with two S players, and the other tables four S players each ("blocks"). An S player then
meets every F player exactly once (at F / 2 F tables, whose F pairs are a perfect matching
of the F players) and sits in R - 1 - F / 2 blocks; the S pairs are blocks' pairs, pairs at
an F table ("F edges") or never met. At the fields' fewest:

- 22 x 8 (S 16, F 6; fewest 9): every S pair meets exactly once; the blocks are a (16_4)
  configuration and the F edges the cubic graph it leaves. One question per cubic graph on
  16 vertices (4'207 up to renaming), the F edges fixed and the blocks an exact cover of the
  rest by 4-cliques (a graph whose complement has none is rejected at once). Each F pair
  meets once or twice (the nine repeats; no pair three times).
- 22 x 7 (S 14, F 8; fewest 0): every F pair meets exactly once (a 1-factorisation of the F
  players over the Passen), each S player misses three S players: the pairs never met are a
  cubic graph on 14 vertices (540 up to renaming). One question per graph, the blocks (two
  per S player, one per Passe) and the F edges (four per S player) the solver's.

In each question every S player, in every Passe, sits out, sits in a block of that Passe or
at an F edge of that Passe; two sit out per Passe, each once, the Passen ordered by their
smaller spielfrei player (any schedule, its Passen sorted so, has this); every F player sits
at one F edge per Passe. The graphs come from nauty (`nauty-geng -d3 -D3 16`, Debian package
nauty). This is the paired form at the fewest, a restriction: UNSAT for every graph says only
that no schedule of that form exists. A SAT answer is checked (tables of four, nobody out
twice, the fewest's repeats, no pair three times) and printed Passe by Passe (S players
0 .. 2R - 1, F players after them); the search stops there.

Usage: apt-get install nauty; pip install python-sat networkx
       nauty-geng -d3 -D3 16 > /tmp/cubic16.g6; nauty-geng -d3 -D3 14 > /tmp/cubic14.g6
       python3 bench/einzel_paired_leave.py 22 8 /tmp/cubic16.g6 [--seconds=S] [--part=i/n]
       python3 bench/einzel_paired_leave.py 22 7 /tmp/cubic14.g6 [--seconds=S] [--part=i/n]
"""

import itertools
import sys
import time
from collections import Counter

import networkx
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

import einzel_sat
from einzel_floor import answer_within
from einzel_rotational import check

# Per field: whose pairs the graph is ("F edges" or "unmet"), how often each F pair meets.
FIELDS = {(22, 8): ("F edges", 1, 2), (22, 7): ("unmet", 1, 1)}


class Question:
    """The SAT model of one graph's question."""

    def __init__(self, passen, graph):
        self.passen = passen
        self.s_players = 2 * passen
        self.f_players = 22 - self.s_players
        self.graph_is, self.f_pair_least, self.f_pair_most = FIELDS[(22, passen)]
        self.graph = graph
        self.pool, self.clauses = IDPool(), []
        self.f_pairs = list(itertools.combinations(range(self.f_players), 2))
        s_pairs = itertools.combinations(range(self.s_players), 2)
        # The S pairs that can meet: all but the unmet graph's; at an F table only the F
        # edges' where the graph is theirs.
        self.meeting = [p for p in s_pairs if self.graph_is == "F edges" or not graph.has_edge(*p)]
        self.edge_pairs = sorted(tuple(sorted(e)) for e in graph.edges()) if self.graph_is == "F edges" else self.meeting
        self.blocks = [q for q in itertools.combinations(range(self.s_players), 4) if all(self.can_be_in_block(p) for p in itertools.combinations(q, 2))]

    def var(self, *key):
        return self.pool.id(key)

    def cardinality(self, literals, bound, encode):
        self.clauses.extend(encode(lits=literals, bound=bound, vpool=self.pool, encoding=EncType.seqcounter).clauses)

    def can_be_in_block(self, pair):
        return not self.graph.has_edge(*pair)

    def is_f_edge(self, pair):
        """The literal (or True/False) for `pair` meeting at an F table."""
        if self.graph_is == "F edges":
            return self.graph.has_edge(*pair)
        return self.var("f edge", pair)

    def blocks_cover(self):
        """Each S pair that meets does so in exactly one block or at one F table."""
        for pair in self.meeting:
            in_blocks = [self.var("block", q) for q in self.blocks if set(pair) <= set(q)]
            f_edge = self.is_f_edge(pair)
            if f_edge is True:
                self.clauses.extend([-b] for b in in_blocks)
            elif f_edge is False:
                self.cardinality(in_blocks, 1, CardEnc.equals)
            else:
                self.cardinality(in_blocks + [f_edge], 1, CardEnc.equals)

    def the_rest(self):
        var, passen, f_half = self.var, range(self.passen), self.f_players // 2
        blocks_per_passe = 5 - f_half  # five tables in each Passe of 22
        for x in range(self.s_players):
            self.cardinality([var("block", q) for q in self.blocks if x in q], self.passen - 1 - f_half, CardEnc.equals)
        for q in self.blocks:
            self.cardinality([var("block", q, r) for r in passen] + [-var("block", q)], 1, CardEnc.equals)
        edges = [e for e in self.edge_pairs if self.is_f_edge(e) is not False]
        for e in edges:
            taken = self.is_f_edge(e)
            taken = [] if taken is True else [-taken]
            self.cardinality([var("edge", e, r) for r in passen] + taken, 1, CardEnc.equals)
            self.cardinality([var("pair", e, p) for p in self.f_pairs] + taken, 1, CardEnc.equals)
            for r, p in itertools.product(passen, self.f_pairs):
                both = var("at", e, r, p)
                self.clauses.extend([[-both, var("edge", e, r)], [-both, var("pair", e, p)], [both, -var("edge", e, r), -var("pair", e, p)]])
        for r in passen:
            self.cardinality([var("block", q, r) for q in self.blocks], blocks_per_passe, CardEnc.equals)
            self.cardinality([var("out", x, r) for x in range(self.s_players)], 2, CardEnc.equals)
            self.cardinality([var("edge", e, r) for e in edges], f_half, CardEnc.equals)
        for x in range(self.s_players):
            self.cardinality([var("out", x, r) for r in passen], 1, CardEnc.equals)
            for r in passen:
                here = [var("out", x, r)] + [var("block", q, r) for q in self.blocks if x in q] + [var("edge", e, r) for e in edges if x in e]
                self.cardinality(here, 1, CardEnc.equals)
        for r, y in itertools.product(range(self.passen - 1), range(self.s_players)):
            self.clauses.append([-var("out", y, r + 1)] + [var("out", x, r) for x in range(y)])
        for f in range(self.f_players):
            mine = [p for p in self.f_pairs if f in p]
            for x in range(self.s_players):
                self.cardinality([var("pair", e, p) for e in edges if x in e for p in mine], 1, CardEnc.equals)
            for r in passen:
                self.cardinality([var("at", e, r, p) for e in edges for p in mine], 1, CardEnc.equals)
        for p in self.f_pairs:
            at_f_tables = [var("pair", e, p) for e in edges]
            self.cardinality(at_f_tables, self.f_pair_least, CardEnc.atleast)
            self.cardinality(at_f_tables, self.f_pair_most, CardEnc.atmost)
        return edges

    def schedule(self, true, edges):
        passen = []
        for r in range(self.passen):
            tables = [list(q) for q in self.blocks if self.var("block", q, r) in true]
            tables += [list(e) + [self.s_players + f for f in p] for e in edges for p in self.f_pairs if self.var("at", e, r, p) in true]
            passen.append(sorted(tables))
        return passen


def ask(passen, graph6):
    """A checked schedule, None (UNSAT) or "no blocks" (the graph allows none)."""
    question = Question(passen, networkx.from_graph6_bytes(graph6))
    question.blocks_cover()
    if einzel_sat.solve(question.clauses) is None:
        return "no blocks"
    edges = question.the_rest()
    true = einzel_sat.true_literals(question.clauses)
    if true is None:
        return None
    schedule = question.schedule(true, edges)
    checked(schedule, passen)
    return schedule


def checked(schedule, passen):
    """Refuses a schedule that is not one of 22 players with the fewest repeats of 22 x R."""
    byes = [[p for p in range(22) if not any(p in table for table in passe)] for passe in schedule]
    repeats, most_met, most_out = check(22, list(zip(schedule, byes)))
    fewest = {8: 9, 7: 0}[passen]
    if any(len(b) != 2 for b in byes) or most_out > 1 or repeats != fewest or most_met > 2:
        raise AssertionError(f"repeats {repeats}, a pair met {most_met} times, spielfrei {byes}")


def main():
    option = lambda name: next((a.split("=")[1] for a in sys.argv if a.startswith(f"--{name}=")), None)  # noqa: E731
    seconds = float(option("seconds")) if option("seconds") else None
    part, parts = map(int, (option("part") or "0/1").split("/"))
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    players, passen = int(args[0]), int(args[1])
    if (players, passen) not in FIELDS:
        sys.exit(f"only {', '.join(f'{n} {r}' for n, r in FIELDS)}")
    with open(args[2], "rb") as listing:
        graphs = [line.strip() for line in listing if line.strip() and not line.startswith(b">")]
    counts = Counter()
    for i in range(part, len(graphs), parts):
        start = time.time()
        answer = answer_within(seconds, ask, passen, graphs[i])
        label = "UNSAT" if answer is None else answer if isinstance(answer, str) else "SAT"
        counts[label] += 1
        if label != "no blocks":
            print(f"graph {i} {graphs[i].decode()}: {label} ({time.time() - start:.1f} s)", flush=True)
        if label == "SAT":
            for r, tables in enumerate(answer, start=1):
                print(f"Passe {r}: {tables}")
            break
    print(f"{players} x {passen} paired, by cubic graph ({part}/{parts}): {dict(counts)}")


if __name__ == "__main__":
    main()
