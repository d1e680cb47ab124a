"""Pairings and seating: round robin by Berger tables, Swiss by weighted matching, tables of three and four.

Everything here is a pure function of a ``PairingInput``: the same input
(entrants, their standing before the round, who met whom, byes, forbidden
pairs, the seed) and the same ``PAIRING_VERSION`` give the same round, which
is what ``scorepad tournament verify-pairings`` checks. Nothing here reads
the database or the clock.

Raises ``PairingError`` (one plain sentence) when no round can be made: a
forbidden pair that every pairing would seat together, nobody left who may
take a bye, too few entrants.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from operator import add
from typing import Any, Protocol, TypeVar

import networkx as nx

from scorepad.tournament.errors import PairingError

# Bump whenever a change here could pair the same input differently.
PAIRING_VERSION = "1"

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
THREES = "threes"
FOURS = "fours"
METHODS = (ROUND_ROBIN, SWISS, THREES, FOURS)


class _Ordered(Protocol):
    """A table's cost in a local search: anything ordered (a number, or a tuple compared level by level)."""

    def __lt__(self, other: Any, /) -> bool: ...


_C = TypeVar("_C", bound=_Ordered)

# The matching's stand-in for "no opponent" in an odd field.
_BYE = -1


@dataclass(frozen=True)
class Contender:
    """One entrant as the pairing sees them before the round.

    ``score`` is the first standing figure (total game points, or games won
    where the rules have no game points); ``rank`` the place in the standings
    (1 is the top; distinct). ``met`` lists every entrant met before, once
    per meeting; ``byes`` how many byes they have had. ``partnered`` (four-player
    tables with rotating partners) lists every partner so far, once per round.
    """

    id: int
    name: str
    score: int
    rank: int
    byes: int = 0
    met: tuple[int, ...] = ()
    partnered: tuple[int, ...] = ()


@dataclass(frozen=True)
class PairingInput:
    """Everything a round's pairing depends on (kept with the round, as JSON)."""

    method: str
    round: int
    rounds: int
    table_size: int
    seed: str
    contenders: tuple[Contender, ...]
    forbidden: tuple[tuple[int, int], ...] = ()
    # The most that ``score`` can rise in one round (who can still catch the leader).
    max_per_round: int = 0
    # Round robin: every entrant of the schedule, by pairing number (1 first).
    roster: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form that ``from_dict`` reads back to an equal input."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PairingInput:
        """The input stored with a round. Raises ``PairingError`` if it is not one."""
        try:
            return cls(
                method=str(data["method"]),
                round=int(data["round"]),
                rounds=int(data["rounds"]),
                table_size=int(data["table_size"]),
                seed=str(data["seed"]),
                contenders=tuple(
                    Contender(
                        id=int(c["id"]),
                        name=str(c["name"]),
                        score=int(c["score"]),
                        rank=int(c["rank"]),
                        byes=int(c["byes"]),
                        met=tuple(int(m) for m in c["met"]),
                        # Inputs stored before four-player tables existed have no partners.
                        partnered=tuple(int(m) for m in c.get("partnered", ())),
                    )
                    for c in data["contenders"]
                ),
                forbidden=tuple((int(a), int(b)) for a, b in data["forbidden"]),
                max_per_round=int(data["max_per_round"]),
                roster=tuple(int(x) for x in data["roster"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise PairingError(f"the stored pairing input is unreadable ({err})") from None


@dataclass(frozen=True)
class Pairing:
    """A round: the tables (entrant ids in seat order, table 1 first), the byes, and notes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"tables": [list(t) for t in self.tables], "byes": list(self.byes), "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pairing:
        """A pairing stored as ``to_dict`` wrote it."""
        return cls(
            tables=tuple(tuple(int(x) for x in t) for t in data["tables"]),
            byes=tuple(int(x) for x in data["byes"]),
            notes=tuple(str(n) for n in data.get("notes", ())),
        )

    def fingerprint(self) -> str:
        """SHA-256 of the tables and byes (the notes are explanation, not pairing)."""
        body = json.dumps({"tables": [list(t) for t in self.tables], "byes": list(self.byes)}, separators=(",", ":"))
        return hashlib.sha256(body.encode()).hexdigest()


def pair(inp: PairingInput) -> Pairing:
    """The round ``inp`` describes, by its method. Raises ``PairingError``."""
    if inp.method == ROUND_ROBIN:
        return round_robin(inp)
    if inp.method == SWISS:
        return swiss(inp)
    if inp.method == THREES:
        return threes(inp)
    if inp.method == FOURS:
        # Imported here: the four-player seating builds on this module's classes.
        from scorepad.tournament.fours import fours

        return fours(inp)
    raise PairingError(f"unknown pairing method {inp.method!r}; the methods are " + ", ".join(METHODS))


# -- round robin -----------------------------------------------------------------


def berger_round(players: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` of the Berger table for ``players`` (even), as (first, second) pairing numbers.

    The FIDE construction (Handbook C.05, Annex 1): round 1 is 1-n, 2-(n-1),
    ...; each later round adds n/2 to every number but n (modulo n-1, in
    1..n-1), and n changes sides every round (second in odd rounds, first
    in even ones). Table 1 is always n's. Raises ``PairingError`` for an odd
    count or a round outside 1..n-1.
    """
    n = players
    if n < 2 or n % 2:
        raise PairingError(f"a Berger table needs an even number of players, not {n}")
    if not 1 <= round_number <= n - 1:
        raise PairingError(f"a round robin of {n} has rounds 1 to {n - 1}, not {round_number}")
    shift = (n // 2) * (round_number - 1)

    def moved(x: int) -> int:
        return x if x == n else (x - 1 + shift) % (n - 1) + 1

    out = []
    for table in range(1, n // 2 + 1):
        a, b = moved(table), moved(n + 1 - table)
        if table == 1 and round_number % 2 == 0:
            # b is n here: n takes the first seat in even rounds.
            a, b = b, a
        out.append((a, b))
    return out


def round_robin(inp: PairingInput) -> Pairing:
    """The round from the Berger table of ``inp.roster``; anyone absent hands their opponent a bye.

    An odd roster plays with a dummy highest number, whose opponent has the
    bye (FIDE C.05 Annex 1). Beyond one cycle the schedule repeats with the
    seats swapped. A forbidden pair cannot be kept apart in a round robin,
    so one is refused.
    """
    roster = list(inp.roster)
    if len(roster) < 2:
        raise PairingError("a round robin needs at least two entrants")
    present = {c.id for c in inp.contenders}
    names = {c.id: c.name for c in inp.contenders}
    for a, b in inp.forbidden:
        if a in roster and b in roster:
            raise PairingError(
                f"{names.get(a, a)} and {names.get(b, b)} may not meet, and a round robin makes everyone meet;"
                " pair this event by Swiss instead"
            )
    n = len(roster) + len(roster) % 2
    cycle = n - 1
    number = (inp.round - 1) % cycle + 1
    swapped = ((inp.round - 1) // cycle) % 2 == 1
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    notes: list[str] = []
    for first, second in berger_round(n, number):
        ids = [roster[x - 1] if x <= len(roster) else None for x in (first, second)]
        if swapped:
            ids.reverse()
        seated = [i for i in ids if i is not None and i in present]
        if len(seated) == 2:
            tables.append(tuple(seated))
        elif len(seated) == 1:
            byes.append(seated[0])
            if None not in ids:
                gone = next(i for i in ids if i != seated[0])
                notes.append(f"{names[seated[0]]} has a bye: their opponent {gone} has withdrawn")
    return Pairing(tuple(tables), tuple(byes), tuple(notes))


def draw_roster(ids: Sequence[int], seed: str) -> tuple[int, ...]:
    """The pairing numbers of a round robin: a draw of lots, reproducible from ``seed``."""
    order = sorted(ids)
    random.Random(f"roster:{seed}").shuffle(order)
    return tuple(order)


# -- Swiss -----------------------------------------------------------------------


def swiss(inp: PairingInput) -> Pairing:
    """A Swiss round on ``score`` by maximum-weight matching (networkx), everyone seated.

    The weight of a pairing is ordered, most important first (each level
    outweighs everything below it, summed over the whole round):

    1. no rematch: as few pairs who met before as can be;
    2. the bye (odd field) to the lowest-ranked entrant who has not had one;
       a second bye is never given;
    3. the leaders against rivals who can still catch them (score plus what
       the remaining rounds can bring reaches the leader's);
    4. close scores: the squared difference of the two scores, smallest;
    5. a draw of lots from the seed, so that equal choices are reproducible.

    A forbidden pair is never an edge. Raises ``PairingError`` when nobody
    can take the bye or the forbidden pairs leave someone without a table.
    """
    people = sorted(inp.contenders, key=lambda c: c.rank)
    if len(people) < 2:
        raise PairingError("a round needs at least two entrants")
    by_id = {c.id: c for c in people}
    forbidden = {frozenset(p) for p in inp.forbidden}
    odd = len(people) % 2 == 1
    if odd and all(c.byes for c in people):
        raise PairingError("everyone has had a bye already, and nobody may have two")
    rng = random.Random(f"swiss:{inp.seed}:{inp.round}")
    top = max(c.score for c in people)
    low = min(c.score for c in people)
    left = inp.rounds - inp.round + 1  # this round included
    leaders = {c.id for c in people if c.score == top}

    def can_catch(c: Contender) -> bool:
        return c.score + left * inp.max_per_round >= top

    n = len(people)
    edges_in_round = n // 2 + 1
    jitter_span = 1000
    close_span = (top - low) ** 2 + 1
    # Each level's base exceeds the largest sum all lower levels can reach in one round.
    b_close = edges_in_round * jitter_span
    b_leader = edges_in_round * close_span * b_close
    b_bye = edges_in_round * 2 * b_leader
    b_rematch = edges_in_round * (n + 1) * b_bye

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(c.id for c in people)
    for a, b in combinations(people, 2):
        if frozenset((a.id, b.id)) in forbidden:
            continue
        fresh = 0 if b.id in a.met else 1
        leader_ok = 0 if (a.id in leaders and not can_catch(b)) or (b.id in leaders and not can_catch(a)) else 1
        close = close_span - 1 - (a.score - b.score) ** 2
        weight = fresh * b_rematch + leader_ok * b_leader + close * b_close + rng.randrange(jitter_span)
        graph.add_edge(a.id, b.id, weight=weight)
    if odd:
        graph.add_node(_BYE)
        for c in people:
            if c.byes == 0:
                # The lowest rank (largest number) gets the largest bonus; the other levels are even.
                graph.add_edge(_BYE, c.id, weight=b_rematch + c.rank * b_bye + b_leader + (close_span - 1) * b_close)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    seated = {x for pair_ in matching for x in pair_}
    missing = [by_id[c].name for c in by_id if c not in seated]
    if missing:
        raise PairingError(
            "the forbidden pairs leave " + ", ".join(missing) + " with nobody they may play; lift one of them"
        )
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    notes: list[str] = []
    for a, b in matching:
        if _BYE in (a, b):
            byes.append(b if a == _BYE else a)
            continue
        first, second = sorted((by_id[a], by_id[b]), key=lambda c: c.rank)
        if second.id in first.met:
            notes.append(f"{first.name} and {second.name} meet again: no round without a rematch was possible")
        # Seats by a draw of lots from the seed (Smartt §3.1: the first setter is drawn anyway).
        tables.append((first.id, second.id) if rng.random() < 0.5 else (second.id, first.id))
    tables.sort(key=lambda t: min(by_id[x].rank for x in t))
    return Pairing(tuple(tables), tuple(byes), tuple(sorted(notes)))


# -- tables of three -------------------------------------------------------------

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


def meetings(tables: Iterable[Sequence[int]]) -> set[frozenset[int]]:
    """Every pair of entrants who sit at one table."""
    return {frozenset(p) for table in tables for p in combinations(table, 2)}
