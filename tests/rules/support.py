"""Helpers shared by the rules tests: building matches, replaying records, and a random legal player."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings

from scorepad.rules import (
    Draw,
    Event,
    Layout,
    MatchState,
    Muggins,
    Pass,
    Play,
    event_from_dict,
    full_set,
    make_ruleset,
    parse_record,
    replay,
    report,
)

# HYPOTHESIS_PROFILE=thorough runs every hypothesis test here ten times as long, with fresh random examples;
# by default the examples are derandomized so that a run on a shared machine is quick and repeatable.
THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def hyp(n: int, **more: Any) -> settings:
    """Hypothesis settings for one test of this suite: ``n`` examples (ten times more when thorough).

    Applied per test rather than as a loaded profile, so the other suites' hypothesis tests are left alone.
    """
    return settings(
        max_examples=n * (10 if THOROUGH else 1),
        deadline=None,
        derandomize=not THOROUGH,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        **more,
    )


# Every preset with the player counts and options the contract allows.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    (name, players, options)
    for name in ("smartt", "american", "jaques")
    for players in (2, 3, 4)
    for options in (
        {},
        {"muggins": True},
        {"sniff": False},
        {"set": "double-nine"},
        {"muggins": True, "sniff": False, "set": "double-nine"},
    )
] + [
    ("smartt", 4, {"partners": False}),
    ("american", 4, {"partners": False}),
    ("jaques", 4, {"partners": True}),
    ("jaques", 4, {"partners": True, "muggins": True}),
    ("american", 3, {"renege": "deduct50"}),
    ("jaques", 2, {"renege": "rollback25"}),
    ("smartt", 2, {"renege": "deduct50"}),
]


def new_match(name: str = "smartt", players: int = 2, **options: Any) -> MatchState:
    """A match of ``players`` seats named P0, P1, ... under a preset and options."""
    rules = make_ruleset(name, players, options)
    return MatchState(rules, [f"P{i}" for i in range(players)])


def new_hand(name: str = "smartt", players: int = 2, setter: int = 0, **options: Any) -> MatchState:
    """A match with its first hand started by ``setter``."""
    match = new_match(name, players, **options)
    match.start_hand(setter)
    return match


def as_event(event: Event | dict[str, Any] | str) -> Event:
    """An event from an Event, a record dict, or a bare tile string (a play)."""
    if isinstance(event, str):
        return Play(event)
    if isinstance(event, dict):
        return event_from_dict(event)
    return event


def plain(value: Any) -> Any:
    """A value as the referee's JSON shows it (tuples become lists), for comparing with hand-written data."""
    return json.loads(json.dumps(value))


def run(match: MatchState, *events: Event | dict[str, Any] | str) -> list[dict[str, Any]]:
    """Apply events in order and return the referee's account of each, as JSON shows it."""
    return [plain(match.apply(as_event(e))) for e in events]


def record(
    hands: list[dict[str, Any]], *, rules: str = "smartt", players: int = 2, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A sniff-record/1 object."""
    out: dict[str, Any] = {
        "format": "sniff-record/1",
        "rules": rules,
        "players": [f"P{i}" for i in range(players)],
        "hands": hands,
    }
    if options is not None:
        out["options"] = options
    return out


def referee(obj: dict[str, Any]) -> dict[str, Any]:
    """The referee's --json object for a record object, read through JSON text as a file would be."""
    return plain(report(replay(parse_record(plain(obj)))))


def snapshot(match: MatchState) -> dict[str, Any]:
    """The referee's report as plain data, detached from the match (report() shares the hands' outcome lists)."""
    return json.loads(json.dumps(report(match)))


def pips_of(tiles: Iterable[tuple[int, int]]) -> int:
    """Total dots on some tiles."""
    return sum(a + b for a, b in tiles)


def tile_text(tile: tuple[int, int]) -> str:
    return f"{tile[0]}-{tile[1]}"


# -- a random legal player ---------------------------------------------------------------------------


@dataclass
class Table:
    """The real tiles behind a hand the engine only counts: who holds what, and the boneyard."""

    hands: list[list[tuple[int, int]]]
    boneyard: list[tuple[int, int]]
    history: list[tuple[list[list[tuple[int, int]]], list[tuple[int, int]]]] = field(default_factory=list)

    def save(self) -> None:
        self.history.append(([list(h) for h in self.hands], list(self.boneyard)))

    def restore(self) -> None:
        self.hands, self.boneyard = self.history.pop()


def deal(match: MatchState, rng: random.Random) -> Table:
    """Shuffle the match's set and deal each seat its tiles; the rest is the boneyard."""
    rules = match.rules
    tiles = list(full_set(rules.max_pip))
    rng.shuffle(tiles)
    n = rules.tiles_each
    hands = [tiles[i * n : (i + 1) * n] for i in range(rules.players)]
    return Table(hands=hands, boneyard=tiles[rules.players * n :])


def choose_call(rng: random.Random, score: int) -> tuple[int | None, bool]:
    """A call a player might make: exactly right (absent), nothing, or wrong (sometimes fixed)."""
    roll = rng.random()
    if roll < 0.6:
        return None, False
    if roll < 0.75:
        return 0, rng.random() < 0.3
    wrong = max(0, score + rng.choice((-10, -5, 5, 10)))
    return wrong, rng.random() < 0.5


def legal_plays(match: MatchState, table: Table) -> list[tuple[tuple[int, int], str | None]]:
    """Every (tile, at) the player to move may lay now."""
    hand = match.current
    assert hand is not None
    held = table.hands[hand.turn]
    if not hand.started:
        return [(t, None) for t in held]
    return [(t, at) for t in held for at in hand.layout.fits(t)]


def random_play(match: MatchState, table: Table, rng: random.Random, options: list[tuple[tuple[int, int], str | None]]):
    """Lay one of ``options`` with a random call; returns the event and the outcome."""
    hand = match.current
    assert hand is not None
    tile, at = rng.choice(options)
    seat = hand.turn
    written = tile if rng.random() < 0.5 else (tile[1], tile[0])
    call, fix = None, False
    if hand.started:
        # The count the tile will make decides what a right or a wrong call is.
        count = count_after(match, written, at)
        call, fix = choose_call(rng, count if count > 0 and count % 5 == 0 else 0)
    event = Play(tile_text(written), at=at, call=call, fix=fix)
    table.save()
    outcome = match.apply(event)
    table.hands[seat].remove(tile)
    return event, outcome


def count_after(match: MatchState, tile: tuple[int, int], at: str | None) -> int:
    """The board count the layout would show with ``tile`` laid at ``at`` (on a copy built from its placements)."""
    hand = match.current
    assert hand is not None
    probe = Layout(sniff_rule=match.rules.sniff, long_sides_first=match.rules.long_sides_first)
    for placed in hand.layout.placements:
        probe.place((placed.inner, placed.outer), None if placed.at == "set" else placed.at)
    probe.place(tile, at)
    return probe.board_count


def take_turn(match: MatchState, table: Table, rng: random.Random, on_event: Callable[[MatchState], None]) -> None:
    """The player to move plays a legal tile, or visits the boneyard and then plays or passes.

    A visit is written either as one draw event for all its tiles or as one event a tile.
    """
    hand = match.current
    assert hand is not None
    options = legal_plays(match, table)
    if options:
        random_play(match, table, rng, options)
        on_event(match)
        return
    seat = hand.turn
    merge = rng.random() < 0.5
    pending = 0
    while not options and hand.drawable - pending > 0:
        if not merge or pending == 0:
            table.save()
        tile = table.boneyard.pop(rng.randrange(len(table.boneyard)))
        table.hands[seat].append(tile)
        options = [(tile, at) for at in hand.layout.fits(tile)]
        if merge:
            pending += 1
        else:
            match.apply(Draw(1))
            on_event(match)
    if pending:
        match.apply(Draw(pending))
        on_event(match)
    if options:
        random_play(match, table, rng, options)
    else:
        table.save()
        match.apply(Pass())
    on_event(match)


def remaining_of(table: Table, rng: random.Random) -> list[Any]:
    """The record's ``remaining``: each seat's tiles, or sometimes its pip total."""
    out: list[Any] = []
    for held in table.hands:
        if rng.random() < 0.3:
            out.append(pips_of(held))
        else:
            out.append([tile_text(t) for t in held])
    return out


def maybe_muggins(match: MatchState, rng: random.Random, on_event: Callable[[MatchState], None]) -> None:
    """Under muggins, an opponent sometimes claims a score left uncalled."""
    hand = match.current
    assert hand is not None
    if not hand.claim_open or hand.last_play is None or rng.random() < 0.3:
        return
    rules = match.rules
    mine = rules.side_of(hand.last_play.seat)
    claimants = [s for s in range(rules.players) if rules.side_of(s) != mine]
    match.apply(Muggins(rng.choice(claimants)))
    on_event(match)


def play_match(
    name: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    hands: int = 2,
    on_event: Callable[[MatchState], None] = lambda m: None,
    on_table: Callable[[MatchState, Table], None] = lambda m, t: None,
) -> MatchState:
    """Play ``hands`` random legal hands from a seed, settling each with the real remaining tiles."""
    rng = random.Random(seed)
    match = new_match(name, players, **options)
    for _ in range(hands):
        nxt = match.next_setter()
        if nxt.default is not None:
            setter = nxt.default
        elif nxt.allowed:
            setter = rng.choice(sorted(nxt.allowed))
        else:
            setter = rng.randrange(players)
        match.start_hand(setter)
        table = deal(match, rng)
        hand = match.current
        assert hand is not None
        guard = 0
        while hand.how == "in-progress":
            guard += 1
            assert guard < 1000, "a random hand did not end"
            take_turn(match, table, rng, on_event)
            on_table(match, table)
            maybe_muggins(match, rng, on_event)
        if hand.how == "out" and hand.claim_open:
            maybe_muggins(match, rng, on_event)
        if hand.needs_settlement:
            match.settle(remaining_of(table, rng))
            on_event(match)
    return match
