"""``scorepad simulate``: random legal hands played through the validating engine.

Each hand is dealt from a shuffled set; every player picks a random legal
placement, draws as the rules allow, sometimes miscalls, and every step goes
through ``MatchState.apply`` exactly as a replayed record does.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from scorepad.gc_pause import cyclic_gc_paused
from scorepad.rules import Draw, IllegalEventError, MatchState, Muggins, Pass, Play, make_ruleset
from scorepad.rules.events import POSITIONS
from scorepad.rules.hand import BLOCKED, IN_PROGRESS, OUT, HandState
from scorepad.rules.tiles import full_set

MISCALL_RATE = 0.05  # how often a simulated player calls a wrong score
FIX_RATE = 0.4  # how often a miscall is corrected before the next tile
CLAIM_RATE = 0.5  # how often an opponent notices a missed score under muggins
CALLS = (0, 5, 10, 15, 20)
TILE_TEXT = {(a, b): f"{a}-{b}" for a in range(10) for b in range(10)}
# Plays without a call, one per tile and end, made once: an event is a frozen value, so the
# same play laid in two hands can be the same object (the record reader shares them alike),
# and building a frozen dataclass field by field is a good part of a play's cost.
PLAIN_PLAYS = {(tile, at): Play(text, at=at) for tile, text in TILE_TEXT.items() for at in POSITIONS}
SETS = {tile: Play(text) for tile, text in TILE_TEXT.items()}  # the set, either way round, alike
# Draws and the pass, made once for the same reason: every object a hand keeps is one more
# for the cyclic collector to walk once the run is over (see scorepad.gc_pause).
DRAWS = {count: Draw(count) for count in range(1, 64)}
PASS = Pass()
# Plays with a wrong call, by tile, end, call and fix: made the first time each is needed
# (a few thousand can be, a run needs some hundreds), then shared as the plain plays are.
CALLED_PLAYS: dict[tuple[tuple[int, int], str, int, bool], Play] = {}


@dataclass
class Workload:
    """What a simulation did: the fingerprint that makes timings comparable."""

    hands: int = 0
    games: int = 0
    events: int = 0
    tiles_laid: int = 0
    tiles_drawn: int = 0
    scoring_plays: int = 0
    points: int = 0
    seconds: float = 0.0
    ends: dict[str, int] = field(default_factory=dict)

    def per_hand(self, amount: int) -> float:
        """An amount averaged over the hands played."""
        return amount / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, object]:
        """The workload and its per-hand fingerprint as plain data."""
        return {
            "hands": self.hands,
            "games": self.games,
            "events": self.events,
            "seconds": round(self.seconds, 4),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "tiles_laid_per_hand": round(self.per_hand(self.tiles_laid), 3),
            "tiles_drawn_per_hand": round(self.per_hand(self.tiles_drawn), 3),
            "scoring_plays_per_hand": round(self.per_hand(self.scoring_plays), 3),
            "points_per_hand": round(self.per_hand(self.points), 3),
            "ends": dict(sorted(self.ends.items())),
        }


def simulate(
    rules: str, players: int, hands: int, seed: int, options: dict[str, object] | None = None
) -> tuple[MatchState, Workload]:
    """Play ``hands`` random legal hands and return the match with its workload.

    Raises RecordFormatError or IllegalRecordError for an unknown preset or
    options that cannot go together; never for the play itself, which the
    engine validates event by event.
    """
    rng = random.Random(seed)
    ruleset = make_ruleset(rules, players, options or {})
    match = MatchState(ruleset, [f"Player {seat + 1}" for seat in range(players)])
    deck = list(full_set(ruleset.max_pip))
    work = Workload()
    started = time.perf_counter()
    # Thousands of hands of acyclic objects, kept in the match: see scorepad.gc_pause.
    with cyclic_gc_paused(kept_as_old=True):
        _play_hands(rng, match, deck, hands, work)
    # Each game won starts the next game's number (MatchState.game): the games won are
    # counted once here, where asking every hand for its winner would settle its scores again.
    work.games += match.game - 1
    work.seconds = time.perf_counter() - started
    return match, work


def _play_hands(rng: random.Random, match: MatchState, deck: list[tuple[int, int]], hands: int, work: Workload) -> None:
    """Deal and play ``hands`` hands in a row, each through ``_play_hand``."""
    ruleset, players = match.rules, match.rules.players
    getrandbits = rng.getrandbits
    swaps = _swaps(len(deck))
    for _ in range(hands):
        try:
            # Most hands: the rules name the setter (the rotation, whoever went out), and
            # start_hand asks them itself; asking first as well would ask twice a hand.
            hand = match.start_hand()
        except IllegalEventError:
            # The rules leave the choice to the table (the first hand, a block): choose at random.
            nxt = match.next_setter()
            hand = match.start_hand(rng.choice(sorted(nxt.allowed) if nxt.allowed else range(players)))
        _shuffle(deck, swaps, getrandbits)
        each = ruleset.tiles_each
        held = [deck[seat * each : (seat + 1) * each] for seat in range(players)]
        boneyard = deck[players * each :]
        _play_hand(rng, hand, held, boneyard, work)
        work.hands += 1
        work.ends[hand.how] = work.ends.get(hand.how, 0) + 1


def _play_hand(
    rng: random.Random,
    hand: HandState,
    held: list[list[tuple[int, int]]],
    boneyard: list[tuple[int, int]],
    work: Workload,
) -> None:
    """Play one hand at random through ``hand.apply``; count in ``work`` what it drew and scored."""
    tiles_drawn = 0
    scores: list[int] = []  # what each play and claim scored, read from the referee's account
    rules = hand.rules
    getrandbits, chance = rng.getrandbits, rng.random  # looked up once: asked on every play
    seat = hand.turn
    apply = hand.apply  # every event goes through HandState.apply, checked as a record's are
    rack = held[seat]
    a, b = rack.pop(_below(getrandbits, len(rack)))  # rng.randrange(len(rack))
    scores.append(apply(SETS[(a, b) if chance() < 0.5 else (b, a)])["score"])
    # Each open end with its value, as a live view of the layout's own (read-only: a dict's
    # items): read as it is on every turn, where copying the ends after every play cost more.
    open_now = hand.layout.open_ends().items()
    while hand.how is IN_PROGRESS:  # a HandEnd member, so the same object
        seat = hand.turn
        hand_tiles = held[seat]
        # Every legal move, tile by tile and end by end. A loop, not a comprehension: this
        # Python (3.11) makes and calls a function for each comprehension, on every turn.
        moves: list[tuple[tuple[int, int], str]] = []
        for t in hand_tiles:
            for pos, v in open_now:
                if v in t:
                    moves.append((t, pos))
        if not moves:
            drawn, may_draw = 0, hand.drawable
            while not moves and drawn < may_draw:
                tile = boneyard.pop()
                hand_tiles.append(tile)
                drawn += 1
                for pos, v in open_now:  # moves is empty: the tile drawn's own, as above
                    if v in tile:
                        moves.append((tile, pos))
            if drawn:
                tiles_drawn += drawn
                apply(DRAWS[drawn])
            if not moves:
                apply(PASS)
                continue
        # rng.choice(moves), drawn as _below draws, written out: one call on every play
        # where rng.choice makes three.
        count = len(moves)
        bits = count.bit_length()
        pick = getrandbits(bits)
        while pick >= count:
            pick = getrandbits(bits)
        move = moves[pick]
        tile, pos = move
        hand_tiles.remove(tile)
        if chance() < MISCALL_RATE:
            called = (tile, pos, rng.choice(CALLS), chance() < FIX_RATE)
            play = CALLED_PLAYS.get(called) or _called_play(called)
        else:
            play = PLAIN_PLAYS[move]
        scores.append(apply(play)["score"])
        if hand.claim_open and chance() < CLAIM_RATE:
            opponents = [s for s in range(rules.players) if rules.side_of(s) != rules.side_of(seat)]
            scores.append(apply(Muggins(rng.choice(opponents)))["score"])
    if hand.how in (OUT, BLOCKED):
        hand.settle([[TILE_TEXT[t] for t in tiles] for tiles in held])
    scored = [score for score in scores if score > 0]
    work.tiles_drawn += tiles_drawn
    work.scoring_plays += len(scored)
    work.points += sum(scored)
    work.events += len(hand.outcomes)
    work.tiles_laid += len(hand.played)  # every play accepted lays a tile not laid before in the hand


def _called_play(called: tuple[tuple[int, int], str, int, bool]) -> Play:
    """The play of a tile at an end with a wrong call (and whether it was fixed), made once and kept."""
    tile, at, call, fix = called
    play = CALLED_PLAYS[called] = Play(TILE_TEXT[tile], at=at, call=call, fix=fix)
    return play


def _below(getrandbits: Callable[[int], int], count: int) -> int:
    """A number below ``count`` (at least 1), drawn exactly as ``Random._randbelow`` draws it.

    The fewest bits that can name every number below ``count``, drawn again while
    too large: ``rng.randrange(count)``, ``rng.choice`` and ``rng.shuffle`` all
    draw so, and a seed must play the same hands however the draw is written.
    """
    bits = count.bit_length()
    pick = getrandbits(bits)
    while pick >= count:
        pick = getrandbits(bits)
    return pick


def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """Shuffling ``size`` items step by step: each place from the last down, how many it may swap with, bits drawn."""
    return tuple((place, place + 1, (place + 1).bit_length()) for place in range(size - 1, 0, -1))


def _shuffle(
    deck: list[tuple[int, int]], swaps: tuple[tuple[int, int, int], ...], getrandbits: Callable[[int], int]
) -> None:
    """Shuffle ``deck`` in place exactly as ``rng.shuffle(deck)`` does, so a seed deals the same hands.

    ``Random.shuffle`` swaps each place, from the last down, with one drawn as
    ``_below`` draws; written out with ``swaps`` (``_swaps``) worked out once, it
    makes one call a place where ``Random.shuffle`` makes three.
    """
    for place, count, bits in swaps:
        other = getrandbits(bits)
        while other >= count:
            other = getrandbits(bits)
        deck[place], deck[other] = deck[other], deck[place]
