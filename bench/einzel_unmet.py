"""Beyond the limit: can a field have at most K repeats? One question per graph of unmet pairs.

A schedule's repeats are its meetings (fixed by the Passen played) less the pairs of players
plus the pairs that never meet, so "at most K repeats" is "at most U unmet pairs" for one U
(src/domain/einzel_draw/bound.rs counts the same way). Which pairs stay unmet is a graph on
the players, and a player with few table mates needs at least so many unmet pairs of his own:
with 3r seats for N - 1 others he misses N - 1 - 3r at least. This script lists every such
graph with at most U edges up to renaming (players who never sit out among themselves, the
Passen with their spielfrei players; `--list` prints them) and asks a SAT solver for each:
the graph's pairs never meet, every other pair meets at least once — and, since a player
with d unmet pairs has only 3r - (N - 1 - d) seats to spare, at most 1 + that many times.
Fixing the unmet pairs turns "at most U of them" into covering conditions, which the solver
propagates better than a count over all pairs (`einzel_twice.py 17 6 4`, the same question
as one count: no answer in 25 CPU-minutes; here 6 of its 9 graphs answer in 24 s to 17
minutes). UNSAT for every graph means no schedule of the field has K repeats or fewer, where
every player sits out at most once (the draw's rotation while the spielfrei places do not
outnumber the players).

Symmetry: tables are ordered by their smallest player; the players who never sit out and
miss nobody (numbered first) are interchangeable, so Passe 1 seats them in the order of its
tables and two of them at one table of Passe 1 sit in Passe 2 in the order of their numbers
(`Seating.order_passe_one_mates`); among the renamings of the graph onto itself, which move
spielfrei players with their Passen, the spielfrei players' meetings read as a word are the
largest (17 x 6, the graph of three disjoint pairs: 24 s instead of no answer in 10 minutes).

`--exact` splits a graph further where one question takes too long: a player with d unmet
pairs has exactly 3r - (N - 1 - d) seats beyond one per player he meets, so how often each
pair meets is a multigraph of extra meetings with those degrees; one question per such
multigraph up to renaming (`excess_graphs`), every pair's meetings then counted exactly.
Tables are ordered by their smallest player, and among the renamings of the whole picture
onto itself (the first few hundred) every pair's meetings, read as a word, are the largest.

Where each spielfrei player must miss exactly two others and nobody else may miss anyone
(18 x 6 at 3 repeats, 21 x 7 at 7, 33 x 11 at 11), the graphs are cycles and are listed
directly (`two_regular_unmet_graphs`, with nauty); `--grow` lists them as for any field.

Usage: pip install python-sat networkx pynauty; python3 bench/einzel_unmet.py 17 6 12 --list
       python3 bench/einzel_unmet.py 17 6 12 --seconds=600 --part=0/2
       python3 bench/einzel_unmet.py 17 6 12 --exact --graphs=3 --cases=10-20 --seconds=900
                    (--graphs: only these; --exact: each graph split further, one question
                     per way the players meet more than once, see `excess_graphs`)
"""

import itertools
import sys
import time

import networkx

from einzel_floor import UNKNOWN, Seating, answer_within, set_partitions
from pysat.card import CardEnc


# At most so many renamings are ordered against (each adds a lexicographic comparison).
MOST_RENAMINGS = 300


class Field:
    """N players over R Passen: who sits out when, and what counting says."""

    def __init__(self, players, passen):
        self.players, self.passen, self.out = players, passen, players % 4
        if self.out * passen > players:
            sys.exit("covered: fields where nobody sits out twice")
        # Player numbers: those who never sit out first, then Passe r's spielfrei players.
        self.full = players - self.out * passen
        self.spielfrei = [set(range(self.full + self.out * r, self.full + self.out * (r + 1))) for r in range(passen)]
        self.played = [passen] * self.full + [passen - 1] * (self.out * passen)
        meetings = sum(3 * r for r in self.played) // 2
        self.excess = meetings - players * (players - 1) // 2

    def needs(self, p):
        """How many pairs player p must leave unmet at least."""
        return max(0, self.players - 1 - 3 * self.played[p])

    def spare(self, p, unmet):
        """The seats player p has beyond one for each player he meets, with `unmet` pairs."""
        return 3 * self.played[p] - (self.players - 1 - unmet)


def graph_of(field, edges):
    """The graph of unmet pairs `edges` with the Passen as vertices of their own, joined to
    their spielfrei players, so that a renaming moves a Passe's spielfrei players together."""
    graph = networkx.Graph()
    for r, group in enumerate(field.spielfrei):
        graph.add_node(("P", r), kind="P")
        for s in group:
            graph.add_node(("S", s), kind="S")
            graph.add_edge(("P", r), ("S", s), kind="sits out")
    for a, b in edges:
        for v in (a, b):
            graph.add_node(v, kind=v[0])
        graph.add_edge(a, b, kind="unmet")
    return graph


def unmet_graphs(field, most):
    """Every graph of unmet pairs with at most `most` edges that gives each spielfrei player at
    least what he needs (beyond the limit the others need none), up to renaming; as lists of edges on abstract vertices: ("S", p) a
    spielfrei player p (numbered as in Field), ("N", k) the k-th player who never sits out
    and misses somebody. Fewest edges first."""
    s_players = list(range(field.full, field.players))

    def deficit(edges):
        degree = {("S", s): field.needs(s) for s in s_players}
        for a, b in edges:
            for v in (a, b):
                if v in degree:
                    degree[v] -= 1
        return sum(max(0, d) for d in degree.values())

    same = dict(node_match=lambda x, y: x["kind"] == y["kind"], edge_match=lambda x, y: x["kind"] == y["kind"])
    level = [[]]
    found = [[]] if most >= 0 and deficit([]) == 0 else []
    for size in range(1, most + 1):
        buckets = {}
        for edges in level:
            n_used = len({v for e in edges for v in e if v[0] == "N"})
            vertices = [("S", s) for s in s_players] + [("N", k) for k in range(n_used + 2)]
            for a, b in itertools.combinations(vertices, 2):
                # New N vertices in order: the first new one alone, or both new ones together.
                if b[0] == "N" and b[1] > n_used and not (a == ("N", n_used) and b[1] == n_used + 1):
                    continue
                edge = (a, b)
                if edge in edges or (b, a) in edges:
                    continue
                grown = edges + [edge]
                if deficit(grown) > 2 * (most - size):
                    continue
                graph = graph_of(field, grown)
                key = networkx.weisfeiler_lehman_graph_hash(graph, node_attr="kind", edge_attr="kind")
                bucket = buckets.setdefault(key, [])
                if not any(networkx.is_isomorphic(graph, other, **same) for other, _ in bucket):
                    bucket.append((graph, grown))
        level = [edges for bucket in buckets.values() for _, edges in bucket]
        found += [edges for edges in level if deficit(edges) == 0]
    return found


def cycle_partitions(total, smallest=3):
    """The ways to split `total` vertices into cycles (lengths at least 3), largest first."""
    if total == 0:
        return [[]]
    return [[first] + rest for first in range(total, smallest - 1, -1) for rest in cycle_partitions(total - first, smallest) if not rest or rest[0] <= first]


def spielfrei_certificate(field, edges):
    """nauty's canonical certificate of a graph of unmet pairs among spielfrei players, with
    the Passen as vertices of their own joined to their spielfrei players (so equal
    certificates = the same graph up to renaming players with their Passen). WL hashes do not
    separate these nearly regular graphs: for 18 x 6, checking isomorphism within their
    buckets had not finished after 18 CPU-minutes; with nauty the listing takes 11 s."""
    # Imported here: only this listing needs nauty, the script's other questions do not.
    import pynauty

    s_players = list(range(field.full, field.players))
    vertex = {s: i for i, s in enumerate(s_players)}
    passe_vertex = len(s_players)
    adjacency = {i: [] for i in range(len(s_players) + field.passen)}
    for r, group in enumerate(field.spielfrei):
        adjacency[passe_vertex + r] = [vertex[s] for s in group]
    for a, b in edges:
        adjacency[vertex[a[1]]].append(vertex[b[1]])
    colouring = [set(range(len(s_players))), set(range(passe_vertex, passe_vertex + field.passen))]
    graph = pynauty.Graph(len(adjacency), adjacency_dict=adjacency, vertex_coloring=colouring)
    return pynauty.certificate(graph)


def two_regular_unmet_graphs(field):
    """Where every spielfrei player needs exactly two unmet pairs and the graph may have no
    more edges than that, it is a 2-regular graph on them: cycles. Listed directly, up to
    renaming (the growth in `unmet_graphs` takes far longer; `pip install pynauty`): each
    split of the spielfrei players into cycles, and which places on the cycles sit out in
    the same Passe (the places split into the Passen's groups, numbered by first place).
    Checked against the growth (`--grow`) on 6 x 2, 21 x 7 and 33 x 11, and on ten players
    over four Passen with two unmet pairs asked of each spielfrei player: the same graphs."""
    s_players = list(range(field.full, field.players))
    # Which places on the cycles sit out in the same Passe: the splits into groups of field.out.
    places = list(range(len(s_players)))
    groupings = [g for g in set_partitions(places, field.out) if all(len(group) == field.out for group in g)]
    certificates, found = set(), []
    for lengths in cycle_partitions(len(s_players)):
        cycles, start = [], 0
        for length in lengths:
            cycles.append(list(range(start, start + length)))
            start += length
        place_edges = [(c[i], c[(i + 1) % len(c)]) for c in cycles for i in range(len(c))]
        for grouping in groupings:
            player = {}
            for r, group in enumerate(sorted(grouping)):
                for k, place in enumerate(group):
                    player[place] = field.full + field.out * r + k
            edges = [(("S", player[a]), ("S", player[b])) for a, b in place_edges]
            certificate = spielfrei_certificate(field, edges)
            if certificate not in certificates:
                certificates.add(certificate)
                found.append(edges)
    return found


def pair_model(field, unmet, meets):
    """The clauses of a schedule in which the pairs `unmet` never meet and every other pair
    meets as meets(model, p, q, literals) says (the literals: met(p, q, r) for each Passe r
    both play, true exactly where they share a table); tables ordered by their smallest
    player."""
    model = Seating(field.players, field.passen, field.spielfrei)
    for p, q in itertools.combinations(range(field.players), 2):
        both = model.meetings(p, q)
        if frozenset((p, q)) in unmet:
            model.clauses.extend([-model.met(p, q, r)] for r in both)
            continue
        model.met_only_at_a_shared_table(p, q, both)
        meets(model, p, q, [model.met(p, q, r) for r in both])
    model.order_tables(range(field.passen))
    return model


def model_of(field, edges):
    """The clauses of a schedule whose unmet pairs are exactly `edges`, symmetry broken as
    above."""
    unmet, free = players_of(field, edges)
    degree = {p: sum(1 for pair in unmet if p in pair) for p in range(field.players)}

    def covered(model, p, q, literals):
        model.clauses.append(literals)
        most = 1 + min(field.spare(p, degree[p]), field.spare(q, degree[q]))
        if most < len(literals):
            model.cardinality(literals, most, CardEnc.atmost)

    model = pair_model(field, unmet, covered)
    model.seat_in_table_order(free)
    model.order_passe_one_mates(range(free), may_meet_again=True)
    order_spielfrei_meetings(field, model, edges, unmet)
    return model


def order_spielfrei_meetings(field, model, edges, unmet):
    """The renamings of the graph onto itself move spielfrei players with their Passen: among
    them the schedule's meetings of spielfrei players (met(s, s', r) over pairs and Passen in
    a fixed order, read as a binary word) are the largest. The word does not change under the
    renamings of the other players and tables that the other orders use, so the orders
    combine (see einzel_floor.order_spielfrei_meetings)."""
    graph = graph_of(field, edges)
    same = lambda x, y: x["kind"] == y["kind"]  # noqa: E731
    matcher = networkx.algorithms.isomorphism.GraphMatcher(graph, graph, node_match=same, edge_match=same)
    # Any of the renamings gives a sound order (the largest word of all is at least each);
    # where there are many, the first few hundred keep the clauses few.
    moves = set()
    for mapping in matcher.isomorphisms_iter():
        moves.add(tuple(mapping[("S", s)][1] for s in range(field.full, field.players)))
        if len(moves) > MOST_RENAMINGS:
            break
    s_players = range(field.full, field.players)
    passe_of = {s: r for r, group in enumerate(field.spielfrei) for s in group}
    word = [
        (a, b, r)
        for a, b in itertools.combinations(s_players, 2)
        if frozenset((a, b)) not in unmet
        for r in range(field.passen)
        if model.playing(a, r) and model.playing(b, r)
    ]
    literal = {key: model.met(*key) for key in word}
    identity = tuple(s_players)
    for move in moves - {identity}:
        image_of = dict(zip(s_players, move))
        passe_image = {passe_of[s]: passe_of[image_of[s]] for s in s_players}
        image = [literal[tuple(sorted((image_of[a], image_of[b]))) + (passe_image[r],)] for a, b, r in word]
        model.at_least_lexicographically([literal[key] for key in word], image)


def players_of(field, edges):
    """The graph's pairs with the players numbered (the players who miss nobody first, then
    those who never sit out in the order of the graph's N vertices, then the spielfrei ones),
    and how many miss nobody."""
    n_touched = sorted({v[1] for e in edges for v in e if v[0] == "N"})
    free = field.full - len(n_touched)
    number = {("N", k): free + i for i, k in enumerate(n_touched)}
    number.update({("S", s): s for s in range(field.full, field.players)})
    return {frozenset((number[a], number[b])) for a, b in edges}, free


def exact_graph(field, unmet, extra):
    """The graph of a schedule's meeting counts: every player a vertex (the Passen too, joined
    to their spielfrei players), pairs never met and pairs met more than once as edges."""
    graph = networkx.Graph()
    for p in range(field.players):
        graph.add_node(p, kind="S" if p >= field.full else "N")
    for r, group in enumerate(field.spielfrei):
        graph.add_node(("P", r), kind="P")
        graph.add_edges_from([(("P", r), s) for s in group], kind="sits out")
    for pair in unmet:
        graph.add_edge(*pair, kind="unmet")
    for pair, times in extra.items():
        graph.add_edge(*pair, kind=f"met {times + 1} times")
    return graph


def excess_graphs(field, unmet):
    """Every way, up to renaming, that the players meet more than once given the unmet pairs:
    `extra[pair]` the meetings of a pair beyond the first; each player's extras add up to his
    spare seats exactly (every seat is taken, every pair but the unmet ones meets)."""
    degree = {p: sum(1 for pair in unmet if p in pair) for p in range(field.players)}
    spare = {p: field.spare(p, degree[p]) for p in range(field.players)}
    total = sum(spare.values())
    if total % 2 or min(spare.values()) < 0:
        return []
    same = dict(node_match=lambda x, y: x["kind"] == y["kind"], edge_match=lambda x, y: x["kind"] == y["kind"])
    pairs = [frozenset(pq) for pq in itertools.combinations(range(field.players), 2) if frozenset(pq) not in unmet]
    # A pair meets at most once in each Passe both play.
    shared = {pair: sum(1 for group in field.spielfrei if not pair & group) for pair in pairs}
    level = [{}]
    for _ in range(total // 2):
        buckets = {}
        for extra in level:
            used = {p: 0 for p in range(field.players)}
            for pair, times in extra.items():
                for p in pair:
                    used[p] += times
            for pair in pairs:
                if any(used[p] >= spare[p] for p in pair) or extra.get(pair, 0) + 2 > shared[pair]:
                    continue
                grown = dict(extra)
                grown[pair] = grown.get(pair, 0) + 1
                graph = exact_graph(field, unmet, grown)
                key = networkx.weisfeiler_lehman_graph_hash(graph, node_attr="kind", edge_attr="kind")
                bucket = buckets.setdefault(key, [])
                if not any(networkx.is_isomorphic(graph, other, **same) for other, _ in bucket):
                    bucket.append((graph, grown))
        level = [extra for bucket in buckets.values() for _, extra in bucket]
    return level


def exact_model_of(field, unmet, extra):
    """The clauses of a schedule in which every pair meets exactly as often as `unmet` and
    `extra` say. Tables are ordered by their smallest player; the renamings of the meeting
    graph onto itself (players with their Passen) are ordered against by every pair's
    meetings, read as a word: the schedule's is the largest."""
    word = []

    def exactly(model, p, q, literals):
        times = 1 + extra.get(frozenset((p, q)), 0)
        if times > len(literals):
            # They do not play that often together (spielfrei in different Passen).
            model.clauses.append([])
        else:
            model.cardinality(literals, times, CardEnc.equals)
        word.extend((p, q, r) for r in range(field.passen) if model.playing(p, r) and model.playing(q, r))

    model = pair_model(field, unmet, exactly)
    graph = exact_graph(field, unmet, extra)
    same = lambda x, y: x["kind"] == y["kind"]  # noqa: E731
    matcher = networkx.algorithms.isomorphism.GraphMatcher(graph, graph, node_match=same, edge_match=same)
    literal = {key: model.met(*key) for key in word}
    for count, mapping in enumerate(matcher.isomorphisms_iter()):
        if count > MOST_RENAMINGS:
            break
        moved = {p: mapping[p] for p in range(field.players)}
        if all(moved[p] == p for p in moved):
            continue
        passe = {r: mapping[("P", r)][1] for r in range(field.passen)}
        image = [literal[tuple(sorted((moved[p], moved[q]))) + (passe[r],)] for p, q, r in word]
        model.at_least_lexicographically([literal[key] for key in word], image)
    return model


def ask_exact(field, unmet, extra):
    return exact_model_of(field, unmet, extra).solve("cadical195")


def repeats_of(field, tables):
    """The repeats of a schedule (meetings beyond the pairs that met), counted from its tables."""
    met, meetings = set(), 0
    for passe in tables:
        for table in passe:
            for pair in itertools.combinations(table, 2):
                met.add(frozenset(pair))
                meetings += 1
    return meetings - len(met)


def ask(field, edges):
    return model_of(field, edges).solve("cadical195")


def found(label, key, unanswered, seconds, field, question, *args):
    """Asks question(field, *args) within `seconds` and prints the answer after `label`; True
    if there is a schedule (printed with its repeats, counted), `key` noted if no answer."""
    start = time.time()
    tables = answer_within(seconds, question, field, *args)
    if tables is None:
        answer = "UNSAT"
    elif tables == UNKNOWN:
        answer = UNKNOWN
        unanswered.append(key)
    else:
        answer = f"SAT with {repeats_of(field, tables)} repeats: {tables}"
    print(f"{label}: {answer} ({time.time() - start:.1f} s)", flush=True)
    return tables not in (None, UNKNOWN)


def ask_every_excess(field, name, repeats, chosen, seconds, part, parts, only_cases):
    """--exact: each graph split by how the players meet more than once (`excess_graphs`;
    `only_cases`: "FROM-TO", their numbers as printed)."""
    unanswered = []
    for i, edges in chosen:
        unmet, _ = players_of(field, edges)
        cases = excess_graphs(field, unmet)
        print(f"{name}, graph {i}: {len(cases)} ways to meet more than once", flush=True)
        first, last = map(int, (only_cases or f"0-{len(cases) - 1}").split("-"))
        for j, extra in list(enumerate(cases))[first:last + 1][part::parts]:
            shown = " ".join(f"{min(pq)}-{max(pq)}" + ("" if times == 1 else f"x{times}") for pq, times in sorted(extra.items(), key=lambda x: sorted(x[0])))
            label = f"{name}, graph {i}, case {j} (met again: {shown})"
            if found(label, f"{i}.{j}", unanswered, seconds, field, ask_exact, unmet, extra):
                return
    if unanswered:
        print(f"{name}: no answer for cases {unanswered}")
    else:
        print(f"{name}: no schedule with at most {repeats} repeats among the cases asked")


def main():
    option = lambda name: next((a.split("=")[1] for a in sys.argv if a.startswith(f"--{name}=")), None)  # noqa: E731
    seconds = float(option("seconds")) if option("seconds") else None
    part, parts = map(int, (option("part") or "0/1").split("/"))
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    field = Field(int(args[0]), int(args[1]))
    if 3 * field.passen < field.players - 1:
        # Within the limit the players who never sit out need unmet pairs too, which the
        # graphs (made for the spielfrei players' needs) do not count: einzel_floor.py.
        sys.exit("covered: fields beyond the limit (3R >= N - 1)")
    repeats = int(args[2])
    most = repeats - field.excess
    s_needs = {field.needs(s) for s in range(field.full, field.players)}
    if s_needs == {2} and most == field.players - field.full and "--grow" not in sys.argv:
        graphs = two_regular_unmet_graphs(field)
    else:
        graphs = unmet_graphs(field, most)
    name = f"{field.players} x {field.passen}"
    print(f"{name}: at most {repeats} repeats = at most {most} unmet pairs; {len(graphs)} graphs up to renaming", flush=True)
    if "--list" in sys.argv:
        for i, edges in enumerate(graphs):
            print(i, edges)
        return
    only = option("graphs")
    chosen = [(i, g) for i, g in enumerate(graphs) if only is None or str(i) in only.split(",")]
    if "--exact" in sys.argv:
        return ask_every_excess(field, name, repeats, chosen, seconds, part, parts, option("cases"))
    unanswered = []
    for i, edges in chosen[part::parts]:
        if found(f"{name}, graph {i} {edges}", i, unanswered, seconds, field, ask, edges):
            return
    if unanswered:
        print(f"{name}: no answer for graphs {unanswered}")
    else:
        asked = "" if parts == 1 and only is None else " among the graphs asked"
        print(f"{name}: no schedule with at most {repeats} repeats{asked}")


if __name__ == "__main__":
    main()
