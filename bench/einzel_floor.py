"""Is there an Einzelschieber schedule with at most K repeated meetings? An exhaustive answer.

N players over R Passen at tables of four; N % 4 players are spielfrei in each Passe and
nobody twice (the draw's rotation, while N % 4 * R <= N). A SAT solver is asked for a
schedule with at most K repeats (default 0: no two players at one table twice); "UNSAT" for
every case means there is none, and the fewest repeats a schedule of this field can have is
at least K + 1 (the draw's bound, src/domain/einzel_draw/bound.rs, lists such fields).

A pair that meets k + 1 times costs k repeats: one cost literal for each, set by any k + 1
Passen in which the pair meets, at most K of them true (so with all of them false the model
is "every pair at most once", which the solver propagates well; with K = 0 it says just that).
Fields where K repeats are too few by counting alone are refused (the meetings are fixed by
the Passen played: a repeat is a meeting beyond the pairs that met).

Symmetry, so that the search is finite in practice: players are renamed so that the
spielfrei of Passe r are fixed players (S, the last ones), the others (F) are renamed in
the order they sit in Passe 1, and tables within a Passe are ordered by their smallest
player. With one spielfrei per Passe, the S players of Passe 1 sit together as one of the
integer partitions of R - 1 into at most N // 4 parts of at most 4 (renaming the later
Passen with their spielfrei players gives every other arrangement): one case each, and
since that renaming can make any Passe the first, the one whose pattern comes first in the
order of `partitions` (4,1 before 3,2 before 3,1,1 ...): no later Passe has a pattern before
Passe 1's (so the last case, all apart, asks far less than "all apart in Passe 1"); with two
or three, Passe 1 seats the S players wherever the solver likes (one case). Two F players
at one table of Passe 1 are interchangeable: the smaller number sits at the smaller (with
K > 0: not the larger) table in Passe 2; so are whole tables of Passe 1 without S players:
their first players sit in Passe 2 in their order. Without spielfrei and with K = 0, the
later Passen are ordered instead (by player 0's mates). With one spielfrei per Passe, the
renamings of the Passen that keep Passe 1 (S players of one table of Passe 1 among
themselves, tables with equally many onto each other) are broken by the meetings of the S
players with each other, read as a word: the schedule's is the largest. Each of these
orders picks, among the schedules that renaming makes of one, the largest in one reading
order (S players' meetings, Passe 1, Passe 2, ...), so together they lose no schedule; the
per-case answers agreed with the script's before them on 16x4 to 29x6 (35 cases), and with
the largest pattern first the fields' answers agree again (9x2 to 29x6, 12 fields; a case
can now be UNSAT where its schedules all have a larger pattern in a later Passe).

Usage: pip install python-sat; python3 bench/einzel_floor.py 17 5      (UNSAT: seconds)
       python3 bench/einzel_floor.py 17 6 12   (at most 12 repeats)
       python3 bench/einzel_floor.py 12 4 17 --twice   (and no pair three times, as the draw
                                     keeps it where 3R <= 2(N - 1): UNSAT, so 18 is the
                                     fewest; without --twice 13 repeats are possible)
       python3 bench/einzel_floor.py 21 6 0 3,2 1,1,1,1,1   (only these first Passen)
       python3 bench/einzel_floor.py 21 6 0 2,1,1,1 --split   (one question per count of
                                     S pairs meeting in each later Passe: many easier ones;
                                     --seconds=60: give each question up after a minute)
       python3 bench/einzel_floor.py 21 6 0 2,1,1,1 --structures --counts=1,1,1,1,1 --part=0/2
                                    (one question per way the S players meet, up to renaming:
                                     which pairs in which Passe, fixed; --counts: only with
                                     these pairs per later Passe; --pairs=5: only with five
                                     pairs in all, also without --structures; --part=i/n:
                                     every n-th question from the i-th, for n processes;
                                     printed per Passe as pairs of S players numbered from
                                     0, S player r sitting out in Passe r + 1)
       python3 bench/einzel_floor.py 21 6 0 2,2,1 --structures --pairs=6 --incremental --conflicts=200000
                                    (the same questions of one CaDiCaL, which keeps what it
                                     learnt: only the assumptions fixing the structure change;
                                     --conflicts: give a question up after so many conflicts,
                                     in place of --seconds)
       python3 bench/einzel_floor.py 21 6 0 2,2,1 --structures --pairs=6 --incremental --from=727
                                    (continue a run that was stopped: skip the first 727 of
                                     the questions this process would ask of each case, in
                                     their order; with --incremental, --renew=100: a fresh
                                     solver after every 100 questions, since one grows slow)
"""

import itertools
import math
import multiprocessing
import sys
import time

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

import einzel_sat

# A question the solver did not answer in the time given.
UNKNOWN = "no answer"


def partitions(total, parts, largest):
    """The integer partitions of total into at most `parts` parts of at most `largest`."""
    if total == 0:
        yield []
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, parts - 1, first):
            yield [first] + rest


class Seating:
    """The SAT model of a schedule that this script and einzel_twice.py share: the literal
    seat(p, r, t) for player p at table t in Passe r and met(p, q, r) for p and q at one table
    in Passe r (implied by their seats, see `meetings`); clauses seat every player who is not
    spielfrei at one table per Passe and four players at each table."""

    def __init__(self, players, passen, spielfrei):
        self.players, self.passen, self.tables = players, passen, players // 4
        self.spielfrei = spielfrei
        self.pool, self.clauses = IDPool(), []
        for p, r in itertools.product(range(players), range(passen)):
            if self.playing(p, r):
                self.cardinality([self.seat(p, r, t) for t in range(self.tables)], 1, CardEnc.equals)
            else:
                self.clauses.extend([-self.seat(p, r, t)] for t in range(self.tables))
        for r, t in itertools.product(range(passen), range(self.tables)):
            playing = [self.seat(p, r, t) for p in range(players) if self.playing(p, r)]
            self.cardinality(playing, 4, CardEnc.equals)

    def playing(self, p, r):
        return p not in self.spielfrei[r]

    def seat(self, p, r, t):
        return self.pool.id(("seat", p, r, t))

    def met(self, p, q, r):
        return self.pool.id(("met", p, q, r))

    def cardinality(self, literals, bound, encode):
        encoded = encode(lits=literals, bound=bound, vpool=self.pool, encoding=EncType.seqcounter)
        self.clauses.extend(encoded.clauses)

    def meetings(self, p, q):
        """The Passen that p and q both play, with met(p, q, r) implied by a shared table."""
        both = [r for r in range(self.passen) if self.playing(p, r) and self.playing(q, r)]
        for r, t in itertools.product(both, range(self.tables)):
            self.clauses.append([-self.seat(p, r, t), -self.seat(q, r, t), self.met(p, q, r)])
        return both

    def met_only_at_a_shared_table(self, p, q, both):
        """met(p, q, r) for r in `both` only where p and q share a table, so that "met" (and
        so "never met") is counted exactly, not just bounded from below."""
        for r in both:
            together = [self.pool.id(("both", p, q, r, t)) for t in range(self.tables)]
            for t, shared in enumerate(together):
                self.clauses.extend([[-shared, self.seat(p, r, t)], [-shared, self.seat(q, r, t)]])
            self.clauses.append([-self.met(p, q, r)] + together)

    def order_tables(self, passen):
        """Clauses: in each of `passen`, a table's smallest player is smaller than the next
        table's (tables are interchangeable within a Passe)."""
        for r, t, p in itertools.product(passen, range(1, self.tables), range(self.players)):
            if self.playing(p, r):
                self.clauses.append([-self.seat(p, r, t)] + [self.seat(q, r, t - 1) for q in range(p) if self.playing(q, r)])

    def seat_in_table_order(self, count):
        """Clauses: players 0 .. count - 1 (interchangeable) sit in Passe 1 in the order of its
        tables (each at a table no smaller than the one before him)."""
        for f, t in itertools.product(range(count - 1), range(1, self.tables)):
            self.clauses.append([-self.seat(f, 0, t)] + [self.seat(f + 1, 0, u) for u in range(t, self.tables)])

    def order_passe_one_mates(self, interchangeable, may_meet_again=False):
        """Two interchangeable players (here: players who never sit out, seated in Passe 1 in
        the order of their numbers) with consecutive numbers at one table of Passe 1 can be
        swapped without changing Passe 1, so the smaller sits at the smaller table in Passe 2
        (or, if they `may_meet_again`, not at the larger). With tables ordered by their
        smallest player this is part of the lexicographic leader of those swaps and of the
        table orders: no schedule is lost, up to renaming."""
        players = list(interchangeable)
        for f, g in zip(players, players[1:]):
            for t in range(self.tables):
                self.not_at_a_larger_table(f, g, 1, strict=not may_meet_again, unless=[self.seat(f, 0, t), self.seat(g, 0, t)])

    def not_at_a_larger_table(self, f, g, r, strict, unless=()):
        """Clauses: in Passe r, f sits at a table no larger than g's (`strict`: smaller),
        wherever all the literals `unless` are true."""
        for a in range(self.tables):
            for b in range(a + 1 if strict else a):
                self.clauses.append([-x for x in unless] + [-self.seat(f, r, a), -self.seat(g, r, b)])

    def at_least_lexicographically(self, word, other):
        """Clauses for: `word` >= `other` as binary words, first letter most significant."""
        equal_so_far = None
        for mine, theirs in zip(word, other):
            before = [] if equal_so_far is None else [-equal_so_far]
            self.clauses.append(before + [mine, -theirs])
            still = self.pool.id(("lex", len(self.clauses)))
            self.clauses.append(before + [-mine, -theirs, still])
            self.clauses.append(before + [mine, theirs, still])
            equal_so_far = still

    def solve(self, solver_name):
        """Each Passe's tables in a model of the clauses, or None if there is none."""
        model = einzel_sat.true_literals(self.clauses, solver_name)
        return None if model is None else self.tables_of(model)

    def tables_of(self, true):
        """Each Passe's tables in a model given by its true literals."""
        return [
            [[p for p in range(self.players) if self.seat(p, r, t) in true] for t in range(self.tables)]
            for r in range(self.passen)
        ]


def renamings(groups):
    """The renamings of the Passen 1, 2, ... (each with its spielfrei player) that keep Passe
    1 as it is: players of one group (one table of Passe 1) among themselves, groups of equal
    size onto each other. All of them where they are few, else generators of them (adjacent
    swaps within a group, swaps of consecutive groups of equal size)."""
    def mapping(images):
        return {a: b for group, image in zip(groups, images) for a, b in zip(group, image)}

    count = 1
    for size in {len(g) for g in groups}:
        equal = sum(1 for g in groups if len(g) == size)
        count *= math.factorial(equal) * math.factorial(size) ** equal
    if count <= 1000:
        found = []
        for order in itertools.permutations(range(len(groups))):
            if any(len(groups[i]) != len(groups[j]) for i, j in enumerate(order)):
                continue
            inside = [itertools.permutations(groups[j]) for j in order]
            found += [mapping(images) for images in itertools.product(*inside)]
        return [m for m in found if any(a != b for a, b in m.items())]
    swaps = []
    for g, group in enumerate(groups):
        for i in range(len(group) - 1):
            images = [list(x) for x in groups]
            images[g][i], images[g][i + 1] = group[i + 1], group[i]
            swaps.append(mapping(images))
        if g + 1 < len(groups) and len(groups[g + 1]) == len(group):
            images = [list(x) for x in groups]
            images[g], images[g + 1] = groups[g + 1], group
            swaps.append(mapping(images))
    return swaps


def order_spielfrei_meetings(model, full, groups):
    """Among the renamings of `groups` (see `renamings`), the one whose meetings of spielfrei
    players (met(s, s', r) over pairs and Passen in a fixed order, read as a binary word) are
    largest: so each renaming's word is at most the schedule's. The renamings move the
    spielfrei players, their Passen and Passe 1's tables with their other players; they do
    not change these meetings' word under the swaps of other players and tables that the
    other orderings use, so the orderings combine (the leader of the renamings first, the
    others then among schedules with that word)."""
    literal = spielfrei_meetings(model, full)
    word = list(literal)
    for renaming in renamings(groups):
        moved = lambda x: renaming.get(x, x)  # noqa: E731  Passe 0 stays
        image = [literal[tuple(sorted((moved(a), moved(b)))) + (moved(r),)] for a, b, r in word]
        model.at_least_lexicographically([literal[key] for key in word], image)


def spielfrei_meetings(model, full):
    """The exact literal met(s, s', r) of every pair of S players (numbered from 0, the
    spielfrei one of Passe r being r) and every Passe both play, keyed (a, b, r), a < b."""
    literal = {}
    for a, b in itertools.combinations(range(model.passen), 2):
        # Spielfrei players a and b (of Passen a and b) both play every other Passe.
        both = [r for r in range(model.passen) if r not in (a, b)]
        model.met_only_at_a_shared_table(full + a, full + b, both)
        literal.update({(a, b, r): model.met(full + a, full + b, r) for r in both})
    return literal


def fix_spielfrei_meetings(model, full, structure):
    """Clauses: in each Passe r the S players meet exactly the pairs structure[r]."""
    model.clauses.extend([literal] for literal in structure_literals(spielfrei_meetings(model, full), structure))


def structure_literals(spielfrei_literals, structure):
    """The literals, of those `spielfrei_meetings` gives, that say the S players meet exactly
    as `structure` has it."""
    return [met if (a, b) in structure[r] else -met for (a, b, r), met in spielfrei_literals.items()]


def disjoint_blocks(players, sizes, after=-1):
    """Every way to pick disjoint sets of `sizes` (descending) from `players`, blocks of equal
    size in the order of their smallest player (each choice once; `after`: the smallest player
    of the block before, if it has the first block's size)."""
    if not sizes:
        yield []
        return
    for block in itertools.combinations([p for p in players if p > after], sizes[0]):
        rest = [p for p in players if p not in block]
        same = len(sizes) > 1 and sizes[1] == sizes[0]
        for others in disjoint_blocks(rest, sizes[1:], block[0] if same else -1):
            yield [block] + others


def no_passe_above(model, full, sizes):
    """Clauses: no later Passe seats its spielfrei players (the S players who play in it) in a
    pattern above Passe 1's `sizes` (patterns as partitions in the order of `partitions`:
    descending, 4,1 before 3,2 before 3,1,1 ...). Renaming the Passen with their spielfrei
    players makes a Passe with the largest pattern Passe 1, so with one case per pattern this
    loses no schedule; the renamings the other orders use keep Passe 1 and change no
    pattern, so they combine. A pattern is forbidden by its blocks of two or more at distinct
    tables; that also forbids the patterns that merge more into those blocks, which are
    larger still (merging parts makes a partition larger in this order)."""
    passen, tables = model.passen, model.tables
    above = []
    for pattern in partitions(passen - 1, tables, 4):
        if pattern == sizes:
            break
        above.append([size for size in pattern if size > 1])
    for r in range(1, passen):
        s_playing = [s for s in range(full, model.players) if model.playing(s, r)]
        for blocks in (b for pattern in above for b in disjoint_blocks(s_playing, pattern)):
            for at in itertools.permutations(range(tables), len(blocks)):
                model.clauses.append([-model.seat(p, r, t) for block, t in zip(blocks, at) for p in block])


def unmet_allowed(players, passen, repeats):
    """How many pairs may never meet in a schedule with at most `repeats` repeats (negative:
    there is no such schedule)."""
    out = players % 4
    played = [passen] * (players - out * passen) + [passen - 1] * (out * passen)
    meetings = sum(3 * r for r in played) // 2
    return repeats - meetings + players * (players - 1) // 2


def solve(players, passen, sizes, repeats=0, split=None, structure=None, pairs=None, twice=False):
    """A schedule with at most `repeats` repeats whose first Passe seats the S players as
    `sizes` (None: anywhere), or None. `split` (one spielfrei per Passe): how many pairs of S
    players meet in each of Passen 2, 3, ..., exactly; `structure` (see
    `spielfrei_structures`): which pairs of them meet in each Passe, in place of the orders
    of the renamings of the Passen (the structures are taken one per renaming already);
    `pairs`: how many pairs of them meet in all (over all Passen, so any renaming keeps it);
    `twice`: no pair meets more than twice (the draw's rule where twice suffices)."""
    return schedule_model(players, passen, sizes, repeats, split, structure, pairs, twice).solve("cadical195")


# `schedule_model`'s structure when the S players' meetings are left to assumptions
# (`structure_literals`), so that one incremental solver answers many structures.
ASSUMED = "assumed"


def schedule_model(players, passen, sizes, repeats=0, split=None, structure=None, pairs=None, twice=False):
    """The model `solve` asks (see there); with structure ASSUMED the S players' meetings are
    left open for `structure_literals`."""
    tables, out = players // 4, players % 4
    full = players - out * passen
    spielfrei = [set(range(full + out * r, full + out * (r + 1))) for r in range(passen)]
    model = Seating(players, passen, spielfrei)
    seat, clauses, playing = model.seat, model.clauses, model.playing
    # Without spielfrei and repeats the later Passen are ordered among themselves (below);
    # otherwise Passe 2 is where the orders of interchangeable players of Passe 1 are read.
    later_passen_ordered = out == 0 and repeats == 0
    costs, unmet = [], []
    for p, q in itertools.combinations(range(players), 2):
        both = model.meetings(p, q)
        if repeats == 0:
            if len(both) > 1:
                model.cardinality([model.met(p, q, r) for r in both], 1, CardEnc.atmost)
            continue
        if twice and len(both) > 2:
            model.cardinality([model.met(p, q, r) for r in both], 2, CardEnc.atmost)
        # Unmet pairs, counted too: the same limit seen from the other side, which the solver
        # uses where many pairs meet twice.
        model.met_only_at_a_shared_table(p, q, both)
        unmet.append(model.pool.id(("unmet", p, q)))
        clauses.append([unmet[-1]] + [model.met(p, q, r) for r in both])
        # The k-th repeat of a pair (meeting k + 1 times) sets a cost literal of its own; at
        # most `repeats` of them. Where they are all false this is "every pair at most once".
        for k in range(1, len(both)):
            costs.append(model.pool.id(("repeat", p, q, k)))
            clauses.extend(
                [-model.met(p, q, r) for r in together] + [costs[-1]]
                for together in itertools.combinations(both, k + 1)
            )
    if repeats:
        model.cardinality(costs, repeats, CardEnc.atmost)
        model.cardinality(unmet, unmet_allowed(players, passen, repeats), CardEnc.atmost)
    if sizes is None:
        # Passe 1 like the later ones (below), the F players in the order of their tables.
        model.seat_in_table_order(full)
    else:
        # The first Passe: the S players in groups of `sizes`, then the F players in order.
        s_players = iter(sorted(p for p in range(full, players) if playing(p, 0)))
        first = [[next(s_players) for _ in range(size)] for size in sizes]
        first += [[] for _ in range(tables - len(first))]
        f_players = iter(range(full))
        if out == 1 and structure is ASSUMED:
            model.spielfrei_literals = spielfrei_meetings(model, full)
        elif out == 1 and structure is not None:
            fix_spielfrei_meetings(model, full, structure)
        elif out == 1:
            order_spielfrei_meetings(model, full, [[s - full for s in group] for group in first if group])
            no_passe_above(model, full, sizes)
            if pairs is not None:
                model.cardinality(list(spielfrei_meetings(model, full).values()), pairs, CardEnc.equals)
            for r, count in enumerate(split or [], start=1):
                s_playing = [s for s in range(full, players) if playing(s, r)]
                meetings = [model.met(a, b, r) for a, b in itertools.combinations(s_playing, 2)]
                model.cardinality(meetings, count, CardEnc.equals)
        for table, group in enumerate(first):
            group += [next(f_players) for _ in range(4 - len(group))]
            clauses.extend([seat(p, 0, table)] for p in group)
        # Tables of Passe 1 without S players are interchangeable with their players: the
        # first player of one sits in Passe 2 at a table no larger than the next one's first
        # (the first rows where the two differ, in the order the mates below use).
        only_f = [group[0] for group in first if group[0] < full]
        if not later_passen_ordered:
            for a, b in zip(only_f, only_f[1:]):
                model.not_at_a_larger_table(a, b, 1, strict=False)
    # Later Passen (and Passe 1 if not fixed): a table's smallest player is smaller than the
    # next table's.
    model.order_tables(range(0 if sizes is None else 1, passen))
    if later_passen_ordered:
        # Without spielfrei the later Passen are interchangeable: ordered by player 0's
        # smallest table mate (player 0 sits at table 0 in each; no mate twice, so these
        # differ). The orders read in Passe 2 are not proven to combine with this.
        for r, p in itertools.product(range(2, passen), range(1, players)):
            clauses.append([-seat(p, r, 0)] + [seat(q, r - 1, 0) for q in range(1, p)])
    else:
        model.order_passe_one_mates(range(full), may_meet_again=repeats > 0)
    return model


def answer_structures_incrementally(players, passen, sizes, structures, conflicts=None, renew=None):
    """The answer for each of `structures` of one case, in their order, asked of one CaDiCaL
    that keeps what it learnt from one question to the next (the model is the same; only the
    assumptions, what `fix_spielfrei_meetings` would add as clauses, differ). `conflicts`:
    give a question up after this many conflicts. `renew`: a fresh solver after so many
    questions, since one that has answered hundreds grows slow (21x6 `3,1,1`, 6 pairs: 17 s a
    question after 300, 12 s for the next ones asked of a fresh solver)."""
    model = schedule_model(players, passen, sizes, 0, None, ASSUMED)
    renew = renew or len(structures) or 1
    for start in range(0, len(structures), renew):
        yield from answer_with_one_solver(model, structures[start:start + renew], conflicts)


def answer_with_one_solver(model, structures, conflicts):
    """`answer_structures_incrementally` for the structures one solver is asked."""
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        for structure in structures:
            assumptions = structure_literals(model.spielfrei_literals, structure)
            if conflicts is None:
                found = solver.solve(assumptions=assumptions)
            else:
                solver.conf_budget(conflicts)
                found = solver.solve_limited(assumptions=assumptions)
            if found is None:
                yield UNKNOWN
            elif not found:
                yield None
            else:
                true = {literal for literal in solver.get_model() if literal > 0}
                yield model.tables_of(true)


def answer_within(seconds, function, *args):
    """function(*args) in a process of its own (the solver cannot be interrupted), or UNKNOWN
    if it has not returned within `seconds` (None: wait)."""
    if seconds is None:
        return function(*args)
    receive, send = multiprocessing.Pipe(duplex=False)
    worker = multiprocessing.Process(target=lambda: send.send(function(*args)))
    worker.start()
    # Without a writing end here, a worker that fails ends the wait at once (EOF) instead of
    # being taken for a question without an answer.
    send.close()
    if receive.poll(seconds):
        try:
            answer = receive.recv()
        except EOFError:
            worker.join()
            raise RuntimeError(f"the question failed in its process (exit code {worker.exitcode})") from None
        worker.join()
        return answer
    worker.terminate()
    worker.join()
    return UNKNOWN


def meetings_per_passe(sizes, passen):
    """The splits of a case: every vector of the S players' meetings in Passen 2, 3, ... that
    a pattern no larger than Passe 1's allows (each at most Passe 1's), fewest meetings first
    (those are answered fastest)."""
    most = sum(size * (size - 1) // 2 for size in sizes)
    return sorted(itertools.product(range(most + 1), repeat=passen - 1), key=lambda c: (sum(c), c))


def set_partitions(items, largest):
    """Every partition of `items` into blocks of at most `largest`, each block in the order of
    `items`, blocks in the order of their first item."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k in range(min(largest, len(items))):
        for mates in itertools.combinations(rest, k):
            remaining = [x for x in rest if x not in mates]
            for others in set_partitions(remaining, largest):
                yield [(first,) + mates] + others


def spielfrei_structures(passen, tables, sizes, counts=None, total=None):
    """The finest split of a case (one spielfrei per Passe, no repeat): which S players meet
    in each Passe, as a tuple over the Passen of sets of pairs of S players (S player r sits
    out in Passe r), one for each way up to renaming. Passe 1 seats S players 1, 2, ... in
    blocks of `sizes`; every later Passe in a pattern no larger (see `no_passe_above`); no pair
    meets twice; `counts`: only with these numbers of pairs meeting in Passen 2, 3, ...;
    `total`: only with this many pairs meeting in all (renaming keeps the total, so those
    are enumerated alone, which is far quicker than all of a case).
    Renaming the S players with their Passen (any renaming, also one that makes another
    Passe the first) maps a structure onto one with the same answer; of the structures that
    renamings map onto each other only the first is returned, so no schedule is lost.
    Fewest meetings first (the order of `meetings_per_passe`)."""
    order = {tuple(p): i for i, p in enumerate(partitions(passen - 1, tables, 4))}
    case = order[tuple(sizes)]
    labels = iter(range(1, passen))
    first = frozenset(pair for size in sizes for pair in itertools.combinations([next(labels) for _ in range(size)], 2))
    choices = []
    for r in range(1, passen):
        choices.append([])
        for blocks in set_partitions([s for s in range(passen) if s != r], 4):
            pattern = tuple(sorted((len(b) for b in blocks), reverse=True))
            pairs = frozenset(pair for b in blocks for pair in itertools.combinations(b, 2))
            if len(blocks) <= tables and order[pattern] >= case and (counts is None or len(pairs) == counts[r - 1]):
                choices[-1].append(pairs)
    labelled = set()

    def extend(structure, used):
        if len(structure) == passen:
            if total in (None, len(used)):
                labelled.add(tuple(structure))
            return
        for pairs in choices[len(structure) - 1]:
            if not pairs & used and (total is None or len(used) + len(pairs) <= total):
                extend(structure + [pairs], used | pairs)

    extend([first], first)
    found, seen = [], set()
    for structure in sorted(labelled, key=lambda s: (sum(map(len, s)), [sorted(p) for p in s])):
        if structure in seen:
            continue
        found.append(structure)
        for renaming in itertools.permutations(range(passen)):
            image = [None] * passen
            for r, pairs in enumerate(structure):
                image[renaming[r]] = frozenset(tuple(sorted((renaming[a], renaming[b]))) for a, b in pairs)
            seen.add(tuple(image))
    return found


def main():
    split = "--split" in sys.argv
    structures = "--structures" in sys.argv
    option = lambda name: next((a.split("=")[1] for a in sys.argv if a.startswith(f"--{name}=")), None)  # noqa: E731
    seconds = float(option("seconds")) if option("seconds") else None
    only_counts = tuple(map(int, option("counts").split(","))) if option("counts") else None
    only_pairs = int(option("pairs")) if option("pairs") else None
    part, parts = map(int, (option("part") or "0/1").split("/"))
    skipped = int(option("from") or 0)
    incremental = "--incremental" in sys.argv
    conflicts = int(option("conflicts")) if option("conflicts") else None
    renew = int(option("renew")) if option("renew") else None
    twice = "--twice" in sys.argv
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    players, passen = int(args[0]), int(args[1])
    repeats = int(args[2]) if len(args) > 2 else 0
    out = players % 4
    if out * passen > players:
        sys.exit("covered: fields where nobody sits out twice")
    if unmet_allowed(players, passen, repeats) < 0:
        sys.exit(f"{players} x {passen}: fewer than {repeats + 1} repeats are impossible by counting alone")
    if out == 1:
        cases = list(partitions(passen - 1, players // 4, 4))
        if len(args) > 3:  # only the cases named, e.g. "3,2 1,1,1,1,1"
            cases = [sizes for sizes in cases if ",".join(map(str, sizes)) in args[3:]]
    else:
        cases, split, structures = ([[]] if out == 0 else [None]), False, False
    if structures and repeats:
        sys.exit("--structures: only without repeats (K = 0)")
    if incremental and not structures:
        sys.exit("--incremental: only with --structures")
    if renew and not incremental:
        sys.exit("--renew: only with --incremental")
    if seconds and incremental:
        sys.exit("--seconds: not with --incremental (its solver cannot be interrupted: --conflicts)")
    unanswered = []
    for sizes in cases:
        seated = "anywhere" if sizes is None else f"seated {sizes}"
        if structures:
            questions = [(None, s) for s in spielfrei_structures(passen, players // 4, sizes, only_counts, only_pairs)]
        elif split:
            questions = [(c, None) for c in meetings_per_passe(sizes, passen) if only_counts in (None, c)]
        else:
            questions = [(None, None)]
        asked = questions[part::parts][skipped:]
        if incremental:
            answers = answer_structures_incrementally(players, passen, sizes, [s for _, s in asked], conflicts, renew)
        for counts, structure in asked:
            start = time.time()
            pairs = None if structures else only_pairs
            if incremental:
                schedule = next(answers)
            else:
                schedule = answer_within(seconds, solve, players, passen, sizes, repeats, counts, structure, pairs, twice)
            part_asked = "" if counts is None else f", S pairs meeting in Passen 2.. {counts}"
            if pairs is not None:
                part_asked += f", {pairs} S pairs meeting in all"
            if structure is not None:
                part_asked = ", S pairs meeting in Passe 1.. " + " ".join(",".join(f"{a}{b}" for a, b in sorted(p)) or "-" for p in structure)
            answer = "UNSAT" if schedule is None else UNKNOWN if schedule == UNKNOWN else f"SAT {schedule}"
            print(f"{players} x {passen}, at most {repeats} repeats, spielfrei of Passe 1 {seated}{part_asked}: {answer} ({time.time() - start:.1f} s)", flush=True)
            if schedule == UNKNOWN:
                unanswered.append(f"{seated}{part_asked}")
            elif schedule is not None:
                return
    if unanswered:
        print(f"{players} x {passen}: no answer for {len(unanswered)} questions: " + "; ".join(unanswered))
    elif parts > 1 or skipped or only_counts or only_pairs is not None:
        print(f"{players} x {passen}: no schedule with at most {repeats} repeated meetings among those asked")
    else:
        print(f"{players} x {passen}: no schedule with at most {repeats} repeated meetings")


if __name__ == "__main__":
    main()
