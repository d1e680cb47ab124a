"""Tables of three by score bands, repeated meetings avoided by swaps (a heuristic)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from operator import add

from scorepad.tournament.errors import PairingError
from scorepad.tournament.kinds import Kind
from scorepad.tournament.pairing.model import Pairing, PairingFormat, PairingInput
from scorepad.tournament.pairing.seating import improve_by_swaps, score_bands

THREES = "threes"

# Cost of a table of three, most important first: a forbidden pair, a repeated meeting, the score spread.
_FORBIDDEN_COST = 10**9
_REMATCH_COST = 10**6


def threes(inp: PairingInput) -> Pairing:
    """Tables of three by score bands, avoiding repeated meetings where possible (a heuristic).

    1. Byes when the field is not a multiple of three: to the lowest-ranked
       entrants who have not had one (never a second).
    2. Score bands: the rest in standing order (equal scores in an order
       drawn from the seed), cut into consecutive threes.
    3. Local search: swap two entrants of different tables whenever that
       lowers the round's cost (a forbidden pair costs most, then each pair
       who met before, then the spread of scores at a table), until no swap
       helps. It finds a local optimum, not always the best round: a repeat
       it cannot remove is named in the notes.

    Raises ``PairingError`` for fewer than three entrants, nobody left for a
    bye, or a forbidden pair it cannot separate.
    """
    people, rng, byes, rest = score_bands(inp, 3, "entrants")
    forbidden = {frozenset(p) for p in inp.forbidden}
    met = {c.id: set(c.met) for c in people}
    score = {c.id: c.score for c in people}

    def pair_cost(a: int, b: int) -> int:
        if frozenset((a, b)) in forbidden:
            return _FORBIDDEN_COST
        return _REMATCH_COST if b in met[a] else 0

    def cost(table: Sequence[int]) -> int:
        scores = [score[x] for x in table]
        return sum(pair_cost(a, b) for a, b in combinations(table, 2)) + max(scores) - min(scores)

    tables = improve_by_swaps([[c.id for c in rest[i : i + 3]] for i in range(0, len(rest), 3)], cost, add)
    names = {c.id: c.name for c in people}
    notes = []
    for table in tables:
        for x, y in combinations(table, 2):
            if frozenset((x, y)) in forbidden:
                raise PairingError(f"{names[x]} and {names[y]} may not meet, and no seating keeps them apart")
            if y in met[x]:
                notes.append(f"{names[x]} and {names[y]} meet again: the search found no seating without it")
    seated = []
    for table in tables:
        order = list(table)
        rng.shuffle(order)
        seated.append(tuple(order))
    rank = {c.id: c.rank for c in people}
    seated.sort(key=lambda t: min(rank[x] for x in t))
    return Pairing(tuple(seated), tuple(byes), tuple(sorted(notes)))


FORMAT = PairingFormat(THREES, threes, kind=Kind.THREES)
