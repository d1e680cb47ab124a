"""Swiss pairing by maximum-weight matching (networkx): everyone seated, no rematch where one can be avoided."""

from __future__ import annotations

import random
from itertools import combinations

import networkx as nx

from scorepad.tournament.errors import PairingError
from scorepad.tournament.pairing.model import Contender, Pairing, PairingFormat, PairingInput

SWISS = "swiss"

# The matching's stand-in for "no opponent" in an odd field.
_BYE = -1


def swiss(inp: PairingInput, *, seats_by_rank: bool = True) -> Pairing:
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

    A forbidden pair is never an edge. Each table's seats are then drawn
    from the seed, table by table in the order of the better rank at each,
    so the seats depend only on the input. ``seats_by_rank`` False is
    pairing version 1's order (the matching's own, which follows the
    database's ids), kept so that rounds paired by it still verify. Raises
    ``PairingError`` when nobody can take the bye or the forbidden pairs
    leave someone without a table.
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
    found = list(matching)
    if seats_by_rank:
        # The matching is a set of pairs of ids: its order follows the ids' hashes, not the input.
        found.sort(key=lambda pair_: min(by_id[x].rank if x != _BYE else n + 1 for x in pair_))
    for a, b in found:
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


FORMAT = PairingFormat(SWISS, swiss)
