"""Each play against the alternatives: other placements, automatics, and what the layout leaves.

Every count here is the engine's: a placement is counted by the layout's own
code without being laid (``Layout.count_if``, ``probe``). The tiles considered are the played tile and the tiles
the record proves the player held then (``knowledge``). After a draw, only
the drawn tile may be played (Smartt §8.1; American 'Draw, pass, and block'),
so the rest of the rack is not an alternative then.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from scorepad.analysis.naming import book_cited, named_tile
from scorepad.analysis.probe import count_after
from scorepad.analysis.values import Automatic, AutomaticKind, Placing, Safety, Use
from scorepad.rules import Layout, RuleSet
from scorepad.rules.hand import score_of
from scorepad.rules.presets import Topic
from scorepad.rules.tiles import key

# Smartt §7.3: the counter-scoring partner of each exposed ordinary double.
DOUBLE_PARTNERS: dict[int, tuple[tuple[int, int], ...]] = {
    0: ((0, 5),),
    1: ((1, 2),),
    2: ((2, 4),),
    3: ((3, 6), (1, 3)),
    4: ((3, 4),),
    5: ((0, 5),),
    6: ((2, 6),),
}


# What the layout would count with a tile laid at an open end, by ``(tile, at)``: see ``placings``.
Probes = dict[tuple[tuple[int, int], str], int]


def placings(
    layout: Layout,
    tiles: Collection[tuple[int, int]],
    *,
    skip: tuple[tuple[int, int], str] | None = None,
    probes: Probes | None = None,
) -> list[Placing]:
    """Every legal placement of ``tiles`` on ``layout`` with its count and score (the set: any tile).

    ``skip`` leaves out one ``(tile, at)``, the play actually made. ``probes`` holds counts
    already made on this same layout (``safety`` fills it): each placement is counted once.
    """
    out: list[Placing] = []
    if layout.set_tile is None:
        for tile in tiles:
            if skip != (tile, "set"):
                out.append(placing(_TILE_TEXTS[tile], "set", _set_count(layout, tile)))
        return out
    if probes is None:
        probes = {}
    ends = layout.open_ends().items()
    for tile in tiles:
        a, b = tile
        for at, value in ends:
            if value != a and value != b:
                continue  # the tile does not couple to this end (what ``Layout.fits`` answers, read once a play)
            if skip is not None and at == skip[1] and tile == skip[0]:
                continue
            count = probes.get((tile, at))
            if count is None:
                count = probes[tile, at] = count_after(layout, tile, at)
            text = _TILE_TEXTS[tile]
            out.append(_PLACINGS.get((text, at, count)) or placing(text, at, count))  # most are made already
    return out


def placing(tile: str, at: str, count: int) -> Placing:
    """The ``Placing`` of ``tile`` (as written) at ``at`` making ``count``, with its score.

    A placing is a frozen value, and a match makes the same one (tile, end, count) thousands
    of times: each is made once and shared, which spares making it and, for the JSON, writing it.
    """
    found = _PLACINGS.get((tile, at, count))
    if found is None:
        found = _PLACINGS[tile, at, count] = Placing(tile, at, count, score_of(count))
    return found


# Every placing made so far, by (tile, at, count): bounded by the tiles (as written) x the five
# positions x the counts a layout can make; a few thousand in practice.
_PLACINGS: dict[tuple[str, str, int], Placing] = {}


# ``3-5``: each tile (a pair as it comes, pips 0-9) as a placing names it.
_TILE_TEXTS: dict[tuple[int, int], str] = {(a, b): f"{a}-{b}" for a in range(10) for b in range(10)}


# The count of each set, by the layout's rules: a set is counted on an empty layout,
# so the count depends on the tile and those rules alone (a match sets thousands of times).
_SET_COUNTS: dict[tuple[bool, bool, tuple[int, int]], int] = {}


def _set_count(layout: Layout, tile: tuple[int, int]) -> int:
    """``count_after(layout, tile, None)`` on the empty ``layout``, worked out once a tile and rules."""
    known = (layout.sniff_rule, layout.long_sides_first, tile)
    count = _SET_COUNTS.get(known)
    if count is None:
        count = _SET_COUNTS[known] = count_after(layout, tile, None)
    return count


def classify(layout: Layout, tile: tuple[int, int], at: str) -> AutomaticKind:
    """Which automatic laying ``tile`` at ``at`` is, read from the layout before it (Smartt §7.3)."""
    low, high = min(tile), max(tile)
    arm = layout.arms.get(at, [])
    end_value = layout.open_ends().get(at)
    last = arm[-1] if arm else None
    sniff = layout.sniff_value
    if sniff is not None and low != high and sniff in tile and ({low, high} - {sniff}) <= {0, 5}:
        # The Sniff with one long side covered: a single n-0 or n-5 on the opposite long side.
        arms = layout.arms
        if layout.sniff_at == "set":
            opposite = at in ("left", "right") and not arms[at] and bool(arms["right" if at == "left" else "left"])
        else:
            opposite = at == layout.sniff_at and bool(arm) and arm[-1].sniff
        if opposite:
            return AutomaticKind.SNIFF
    if last is not None and last.double and not last.sniff and end_value is not None:
        # An exposed ordinary double: its partner from the §7.3 table, or the Fake Pet on the double-3.
        if (low, high) == (1, 3) and end_value == 3:
            return AutomaticKind.FAKE_PET
        if (low, high) in DOUBLE_PARTNERS.get(end_value, ()):
            return AutomaticKind.TABLE
        return AutomaticKind.OTHER
    set_double = layout.set_tile is not None and layout.set_tile[0] == layout.set_tile[1]
    on_double = last.double if last is not None else (at in ("up", "down") or set_double)
    if on_double:
        # On the Sniff (or a bare double set) the Pet and the 0-5 do not work as they do on a single.
        return AutomaticKind.OTHER
    if (low, high) == (1, 6):
        return AutomaticKind.PET  # on a single 1 or 6; never on an exposed double-1 or double-6
    if (low, high) == (0, 5):
        return AutomaticKind.ZERO_FIVE
    return AutomaticKind.OTHER


_KIND_WORDS = {
    AutomaticKind.TABLE: "the partner of the exposed double",
    AutomaticKind.PET: "the Pet",
    AutomaticKind.FAKE_PET: "the Fake Pet",
    AutomaticKind.ZERO_FIVE: "the 0-5",
    AutomaticKind.SNIFF: "the Sniff automatic",
    AutomaticKind.OTHER: "a counter-score",
}


def automatic(
    rules: RuleSet, layout: Layout, played: Placing, alternatives: list[Placing], prior_count: int
) -> Automatic | None:
    """The automatic at this play, used or missed, when the count before it had scored (Smartt §7.3).

    Automatics are Smartt's (§7.3); under a book without them every such play is
    a plain counter-score, named as one.
    """
    if layout.set_tile is None or score_of(prior_count) == 0:
        return None
    cite = book_cited(rules, Topic.AUTOMATIC)
    smartt = bool(cite)
    if played.score > 0:
        kind = _kind(layout, played, prior_count) if smartt else AutomaticKind.OTHER
        head = f"Automatic used: {named_tile(rules, played.tile)} {played.at}, {_KIND_WORDS[kind]},"
        if not smartt:
            head = f"Counter-score: {played.tile} {played.at}"
        words = f"{head} turned the count of {prior_count} into {played.board_count}{cite}"
        return Automatic(kind, Use.USED, played, words)
    scoring = [p for p in alternatives if p.score > 0]
    if not scoring:
        return None
    best = max(scoring, key=lambda p: p.score)
    kind = _kind(layout, best, prior_count) if smartt else AutomaticKind.OTHER
    head = f"Automatic missed: {named_tile(rules, best.tile)} {best.at}, {_KIND_WORDS[kind]},"
    if not smartt:
        head = f"Counter-score missed: {best.tile} {best.at}"
    words = f"{head} would have turned the count of {prior_count} into {best.board_count}{cite}"
    return Automatic(kind, Use.MISSED, best, words)


def _kind(layout: Layout, placing: Placing, prior_count: int) -> AutomaticKind:
    """The §7.3 kind of a counter-scoring placement; the Sniff automatic only where it keeps or adds 5."""
    kind = classify(layout, _pair(placing.tile), placing.at)
    if kind == AutomaticKind.SNIFF and placing.board_count not in (prior_count, prior_count + 5):
        # Smartt §7.3: the Sniff automatic preserves the score or increases it by five.
        return AutomaticKind.OTHER
    return kind


def safety(
    layout: Layout,
    unplayed: Collection[tuple[int, int]],
    own: Collection[tuple[int, int]],
    max_pip: int,
    probes: Probes | None = None,
) -> Safety:
    """What ``layout`` leaves: can an unplayed tile score on it, and is each such tile the own side's?

    Smartt §7.4: bulletproof when no tile the opponents may hold scores; §15:
    unscoreaponable when no unplayed tile at all scores. ``unplayed`` and
    ``own`` hold tiles as sorted pairs. Each count made is kept in ``probes`` (see ``placings``).
    """
    if probes is None:
        probes = {}
    ends = layout.open_ends().items()
    coupling = _couplings(max_pip)
    # The tiles an opponent may hold first: the first of them that scores makes the layout
    # open, and the own side's tiles need not be counted at all (most layouts are open).
    for at, value in ends:
        for tile in coupling[value]:
            if tile in unplayed and tile not in own:
                count = probes[tile, at] = layout.count_if(tile, at)
                if score_of(count):
                    return Safety.OPEN
    for at, value in ends:
        for tile in coupling[value]:
            if tile in own and tile in unplayed:
                count = probes[tile, at] = layout.count_if(tile, at)
                if score_of(count):
                    return Safety.BULLETPROOF
    return Safety.UNSCOREAPONABLE


@cache
def _couplings(max_pip: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per value, every tile (a sorted pair) that carries it: what may couple to an end showing it."""
    return tuple(tuple(key(value, other) for other in range(max_pip + 1)) for value in range(max_pip + 1))


def _pair(text: str) -> tuple[int, int]:
    a, b = int(text[0]), int(text[-1])
    return (a, b) if a <= b else (b, a)
