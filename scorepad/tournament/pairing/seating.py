"""Seating by score bands and improving by swaps: what the tables of three and of four share."""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any, Protocol, TypeVar

from scorepad.tournament.errors import PairingError
from scorepad.tournament.pairing.model import Contender, PairingInput


class _Ordered(Protocol):
    """A table's cost in a local search: anything ordered (a number, or a tuple compared level by level)."""

    def __lt__(self, other: Any, /) -> bool: ...


_C = TypeVar("_C", bound=_Ordered)


def improve_by_swaps(
    tables: list[list[int]], cost: Callable[[list[int]], _C], plus: Callable[[_C, _C], _C]
) -> list[list[int]]:
    """Swap two entrants of different tables whenever that lowers the two tables' cost, until no swap does.

    ``cost`` gives a table's cost (anything ordered: a number, or a tuple
    compared level by level) and ``plus`` adds two. Deterministic: the
    swaps are tried in table and seat order. A local optimum, not always the best.
    """
    costs = [cost(t) for t in tables]
    improved = True
    while improved:
        improved = False
        for ta, tb in combinations(range(len(tables)), 2):
            for i in range(len(tables[ta])):
                for j in range(len(tables[tb])):
                    a, b = tables[ta], tables[tb]
                    a2 = [*a[:i], b[j], *a[i + 1 :]]
                    b2 = [*b[:j], a[i], *b[j + 1 :]]
                    ca, cb = cost(a2), cost(b2)
                    if plus(ca, cb) < plus(costs[ta], costs[tb]):
                        tables[ta], tables[tb] = a2, b2
                        costs[ta], costs[tb] = ca, cb
                        improved = True
    return tables


def score_bands(
    inp: PairingInput, size: int, who: str
) -> tuple[list[Contender], random.Random, list[int], list[Contender]]:
    """The start of a seating at tables of ``size``: everyone by rank, the seed's draw, the byes, the rest.

    Byes go to the lowest-ranked ``who`` without one (never a second), as
    many as the field is over a multiple of ``size``; the rest are in
    standing order, equal scores in an order drawn from the seed (``rng``
    goes on drawing for the seats). Raises ``PairingError`` for a field
    smaller than a table or too few without a bye.
    """
    people = sorted(inp.contenders, key=lambda c: c.rank)
    if len(people) < size:
        raise PairingError(f"tables of {size} need at least {size} {who}")
    rng = random.Random(f"{inp.method}:{inp.seed}:{inp.round}")
    byes_needed = len(people) % size
    eligible = [c for c in people if c.byes == 0]
    if len(eligible) < byes_needed:
        raise PairingError(f"not enough {who} without a bye for this round's byes, and nobody may have two")
    byes = [c.id for c in eligible[len(eligible) - byes_needed :]] if byes_needed else []
    rest = [c for c in people if c.id not in byes]
    # Within equal scores, the order is a draw of lots from the seed.
    keys = {c.id: rng.random() for c in rest}
    rest.sort(key=lambda c: (-c.score, keys[c.id]))
    return people, rng, byes, rest
