"""Random hands with the hidden truth kept: who really held what at every draw, pass and play.

The analysis sees only the record; these helpers keep the racks the record
never shows, so a test can check every proof and every alternative against
them. Players sometimes renege (go to the boneyard holding a tile that fits),
which the engine cannot see and accepts.
"""

from __future__ import annotations

import random
from typing import Any

from scorepad.rules import Draw, MatchState, Pass
from tests.rules.support import deal, legal_plays, new_match, random_play, remaining_of

Racks = dict[tuple[int, int], frozenset[tuple[int, int]]]


def play_with_truth(
    name: str, players: int, options: dict[str, Any], seed: int, *, hands: int = 3, renege_rate: float = 0.25
) -> tuple[MatchState, Racks]:
    """Play random hands; return the match and, per (hand, event index from 0), the mover's rack before it."""
    rng = random.Random(seed)
    match = new_match(name, players, **options)
    racks: Racks = {}
    for _ in range(hands):
        nxt = match.next_setter()
        setter = nxt.default if nxt.default is not None else rng.choice(sorted(nxt.allowed or range(players)))
        hand = match.start_hand(setter)
        table = deal(match, rng)
        guard = 0
        while hand.how == "in-progress":
            guard += 1
            assert guard < 2000, "a random hand did not end"
            seat = hand.turn
            racks[(hand.number, len(hand.events))] = frozenset(table.hands[seat])
            options_now = legal_plays(match, table)
            reneges = options_now and hand.started and hand.drawable > 0 and rng.random() < renege_rate
            if options_now and not reneges:
                random_play(match, table, rng, options_now)
            elif hand.started and hand.drawable > 0:
                table.hands[seat].append(table.boneyard.pop(rng.randrange(len(table.boneyard))))
                match.apply(Draw(1))
            else:
                match.apply(Pass())
        if hand.needs_settlement:
            match.settle(remaining_of(table, rng))
        if match.current is not None and match.current.winner() is not None:
            break
    return match, racks
