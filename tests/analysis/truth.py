"""Random hands with the hidden truth kept: who really held what at every event and every visit.

The analysis sees only the record; these helpers keep the racks the record
never shows, so a test can check every proof and every alternative against
them. A player who reneges goes to the boneyard while holding a tile that
fits (the engine cannot see it and accepts it); on that visit he draws one
tile at a time and plays the first drawn tile that fits, as the books require
of a drawn tile, or passes once no draw is left, so the fitting tile he kept
stays in his rack. (One who then laid the tile he had kept instead of the one
drawn would leave a record no referee can tell from a clean one: a play
straight after a draw is read as the tile drawn, docs/analysis.md.)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from scorepad.rules import Draw, MatchState, Pass
from tests.rules.support import deal, legal_plays, new_match, random_play, remaining_of

Racks = dict[tuple[int, int], frozenset[tuple[int, int]]]


@dataclass
class Truth:
    """What really happened: racks before each event, each visit's rack as it ended, who reneged."""

    racks: Racks = field(default_factory=dict)  # (hand, event index from 0) -> the mover's rack before it
    # (hand, index of the visit's first draw or its pass) -> the rack as the visit ended, less the tile then laid
    visits: Racks = field(default_factory=dict)
    ends: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)  # the values the visit faced
    reneged: set[tuple[int, int]] = field(default_factory=set)  # (hand, seat)
    tables: dict[int, Any] = field(default_factory=dict)  # hand -> the real racks at its end


def play_with_truth(
    name: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    hands: int = 3,
    renege_rate: float = 0.25,
    settle: bool = True,
) -> tuple[MatchState, Truth]:
    """Play random hands; return the match and the truth behind it.

    With ``renege_rate`` 0 every hand is legal. Draws on one visit are written as
    one event or one event a tile, at random. ``settle`` off leaves a hand that
    went out or blocked unsettled (for a test that writes its ``remaining``).
    """
    rng = random.Random(seed)
    match = new_match(name, players, **options)
    truth = Truth()
    for _ in range(hands):
        nxt = match.next_setter()
        setter = nxt.default if nxt.default is not None else rng.choice(sorted(nxt.allowed or range(players)))
        hand = match.start_hand(setter)
        table = deal(match, rng)
        truth.tables[hand.number] = table
        guard = 0
        while hand.how == "in-progress":
            guard += 1
            assert guard < 2000, "a random hand did not end"
            seat = hand.turn
            truth.racks[(hand.number, len(hand.events))] = frozenset(table.hands[seat])
            options_now = legal_plays(match, table)
            reneges = bool(options_now) and hand.started and hand.drawable > 0 and rng.random() < renege_rate
            if options_now and not reneges:
                random_play(match, table, rng, options_now)
                continue
            _visit(match, table, rng, truth)
        if hand.needs_settlement and settle:
            match.settle(remaining(match, table, remaining_of(table, rng)))
        if not settle or (match.current is not None and match.current.winner() is not None):
            break
    return match, truth


def remaining(match: MatchState, table: Any, written: list[Any]) -> list[Any]:
    """``written`` with a pip total for each seat that kept a tile fitting the ends of a blocked hand.

    A reneger may pass holding such a tile; the record cannot list it (records.md §4) but may give the weight.
    """
    hand = match.current
    assert hand is not None
    if hand.how != "blocked":
        return written
    ends = set(hand.layout.open_ends().values())
    return [
        sum(a + b for a, b in held) if any(a in ends or b in ends for a, b in held) else entry
        for held, entry in zip(table.hands, written, strict=True)
    ]


def _visit(match: MatchState, table: Any, rng: random.Random, truth: Truth) -> None:
    """One visit to the boneyard (or a pass): draw one at a time until a drawn tile fits or no draw is left."""
    hand = match.current
    assert hand is not None
    seat = hand.turn
    start = len(hand.events)
    ends = frozenset(hand.layout.open_ends().values())
    merge = rng.random() < 0.5
    pending = 0
    drawn_fit: list[tuple[tuple[int, int], str]] = []
    while not drawn_fit and hand.drawable - pending > 0:
        tile = table.boneyard.pop(rng.randrange(len(table.boneyard)))
        table.hands[seat].append(tile)
        drawn_fit = [(tile, at) for at in hand.layout.fits(tile)]
        if merge:
            pending += 1
        else:
            truth.racks[(hand.number, len(hand.events))] = frozenset(table.hands[seat])
            match.apply(Draw(1))
    if pending:
        truth.racks[(hand.number, len(hand.events))] = frozenset(table.hands[seat])
        match.apply(Draw(pending))
    truth.racks[(hand.number, len(hand.events))] = frozenset(table.hands[seat])
    if drawn_fit:
        random_play(match, table, rng, drawn_fit)
    else:
        match.apply(Pass())
    rack = frozenset(table.hands[seat])
    truth.visits[(hand.number, start)] = rack
    truth.ends[(hand.number, start)] = ends
    if any(a in ends or b in ends for a, b in rack):
        truth.reneged.add((hand.number, seat))
