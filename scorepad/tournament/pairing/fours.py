"""Individual four-player tables with rotating partners: who sits with whom, and who partners whom.

An entrant is one player; each table seats four in two partnerships,
crosswise (seats 0 and 2 against 1 and 3, records.md §1). A round is chosen
by its cost, compared most important first (a tuple, so no level can ever
outweigh the one above it):

1. a forbidden pair at one table (never allowed: a round that cannot avoid
   one is refused);
2. each pair of partners who have partnered before (once per earlier time);
3. each pair of opponents who have sat at one table before (once per
   earlier time): meetings spread over the field;
4. the spread of scores at each table (score bands, as a Swiss).

Byes first, when the field is not a multiple of four: to the lowest-ranked
players who have not had one (never a second). The others are put in
standing order (equal scores in an order drawn from the seed). With at most
``EXACT_MAX`` of them the round of least cost is found exactly (every way to
cut them into tables, each table with the best of its three partnerings);
above, a local search from the score bands swaps two players of different
tables whenever that lowers the cost, until no swap does (a local optimum).
Everything is a pure function of the ``PairingInput``: the same input gives
the same round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from scorepad.tournament.errors import PairingError
from scorepad.tournament.kinds import Kind
from scorepad.tournament.pairing.model import Contender, Pairing, PairingFormat, PairingInput
from scorepad.tournament.pairing.seating import improve_by_swaps, score_bands

FOURS = "fours"
# The exact search cuts at most this many players into tables (5,775 ways for 12, in milliseconds).
EXACT_MAX = 12

# (forbidden pairs, repeated partners, repeated meetings, score spread)
Cost = tuple[int, int, int, int]
_ZERO: Cost = (0, 0, 0, 0)
# The three ways to split four players (by position in a group) into two partnerships.
_SPLITS = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class _Costs:
    """The cost of a table from the history in a ``PairingInput``."""

    def __init__(self, people: Sequence[Contender], forbidden: Sequence[tuple[int, int]]) -> None:
        self.forbidden = {frozenset(p) for p in forbidden}
        self.partners = {c.id: Counter(c.partnered) for c in people}
        self.met = {c.id: Counter(c.met) for c in people}
        self.score = {c.id: c.score for c in people}

    def seating(self, group: Sequence[int]) -> tuple[Cost, tuple[tuple[int, int], tuple[int, int]]]:
        """The best partnering of four players (the first of equal ones) and its cost."""
        forbidden = sum(1 for a, b in combinations(group, 2) if frozenset((a, b)) in self.forbidden)
        scores = [self.score[x] for x in group]
        best: tuple[Cost, tuple[tuple[int, int], tuple[int, int]]] | None = None
        for (i, j), (k, m) in _SPLITS:
            one, two = (group[i], group[j]), (group[k], group[m])
            partners = self.partners[one[0]][one[1]] + self.partners[two[0]][two[1]]
            meetings = sum(self.met[a][b] for a in one for b in two)
            cost: Cost = (forbidden, partners, meetings, max(scores) - min(scores))
            if best is None or cost < best[0]:
                best = (cost, (one, two))
        assert best is not None
        return best


def fours(inp: PairingInput) -> Pairing:
    """Tables of four in two partnerships, partners rotating, by the module's cost.

    Raises ``PairingError`` for fewer than four players, too few without a
    bye for this round's byes, or a forbidden pair no seating keeps apart.
    """
    people, rng, byes, rest = score_bands(inp, 4, "players")
    costs = _Costs(people, inp.forbidden)
    order = [c.id for c in rest]
    groups = _exact(order, costs) if len(order) <= EXACT_MAX else _local_search(order, costs)
    names = {c.id: c.name for c in people}
    rank = {c.id: c.rank for c in people}
    tables: list[tuple[int, ...]] = []
    notes: list[str] = []
    for group in groups:
        _cost, (one, two) = costs.seating(group)
        for a, b in combinations(group, 2):
            if frozenset((a, b)) in costs.forbidden:
                raise PairingError(f"{names[a]} and {names[b]} may not meet, and no seating keeps them apart")
        for a, b in (one, two):
            if costs.partners[a][b]:
                notes.append(f"{names[a]} and {names[b]} partner again: no round without it was found")
        for a in one:
            for b in two:
                if costs.met[a][b]:
                    notes.append(f"{names[a]} and {names[b]} meet again")
        # Which partnership takes seats 0 and 2, and who sits first: a draw of lots from the seed.
        first, second = (one, two) if rng.random() < 0.5 else (two, one)
        first = first if rng.random() < 0.5 else (first[1], first[0])
        second = second if rng.random() < 0.5 else (second[1], second[0])
        tables.append((first[0], second[0], first[1], second[1]))
    tables.sort(key=lambda t: min(rank[x] for x in t))
    return Pairing(tuple(tables), tuple(byes), tuple(sorted(notes)))


def _exact(order: Sequence[int], costs: _Costs) -> list[tuple[int, ...]]:
    """The tables of least total cost over every way to cut ``order`` into fours (the first of equal ones)."""
    n = len(order)
    group_cost = {group: costs.seating([order[i] for i in group])[0] for group in combinations(range(n), 4)}

    @cache
    def best(left: frozenset[int]) -> tuple[Cost, tuple[tuple[int, ...], ...]]:
        if not left:
            return _ZERO, ()
        first = min(left)
        found: tuple[Cost, tuple[tuple[int, ...], ...]] | None = None
        for others in combinations(sorted(left - {first}), 3):
            group = (first, *others)
            below_cost, below = best(left - set(group))
            total = _add(group_cost[group], below_cost)
            if found is None or total < found[0]:
                found = (total, (group, *below))
        assert found is not None
        return found

    _cost, groups = best(frozenset(range(n)))
    return [tuple(order[i] for i in group) for group in groups]


def _local_search(order: Sequence[int], costs: _Costs) -> list[tuple[int, ...]]:
    """Score bands of four, then swaps of two players of different tables while a swap lowers the cost."""
    bands = [list(order[i : i + 4]) for i in range(0, len(order), 4)]
    return [tuple(t) for t in improve_by_swaps(bands, lambda t: costs.seating(t)[0], _add)]


FORMAT = PairingFormat(FOURS, fours, kind=Kind.FOURS)
