"""The rules of one match: a preset, its options and the player count, resolved.

One frozen settings object per match; the engine's few policy choices read its
fields. Each preset's own numbers live in ``scorepad.rules.presets``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

from scorepad.rules.errors import RecordFormatError
from scorepad.rules.presets import (
    DOUBLE_NINE_TILES,
    PRESETS,
    RENEGE_SUMMARY,
    Preset,
    Topic,
    find_preset,
    read_options,
)

SETS = {"double-six": 6, "double-nine": 9}
RENEGE_RULES = ("rollback25", "deduct50")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule that varies between presets, options and player counts (built by ``make_ruleset``).

    A plain frozen dataclass: ``make_ruleset`` has already checked every value, so
    building one costs nothing at start-up or per match.
    """

    name: str
    players: int
    options: dict[str, object]
    target: int
    calls_required: bool
    muggins: bool
    sniff: bool
    max_pip: int
    partners: bool
    renege: Literal["rollback25", "deduct50"] | None
    tiles_each: int
    protected: int
    draw_limit: int | None
    long_sides_first: bool
    settlement: Literal["award", "debit"]
    setter_rule: Literal["rotate", "out", "winner"]
    game_points: bool

    @property
    def preset(self) -> Preset:
        """The rule book this match plays by."""
        return PRESETS[self.name]

    def cite(self, topic: Topic) -> str:
        """The section of the book in play behind ``topic`` for this seating ('' where that book is silent)."""
        return _cite(self.name, self.players, self.partners, topic)

    @property
    def sides(self) -> int:
        """How many sides keep a score: two partnerships, or one per seat."""
        return 2 if self.partners else self.players

    @property
    def set_size(self) -> int:
        """How many tiles the set holds (28 for double-six, 55 for double-nine)."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def boneyard_size(self) -> int:
        """Tiles left in the boneyard after the deal."""
        return self.set_size - self.players * self.tiles_each

    def side_of(self, seat: int) -> int:
        """The side a seat scores for (records.md §1: seats 0 and 2 are side 0 with partners)."""
        return seat % 2 if self.partners else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that make up a side."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def describe(self) -> str:
        """A one-line summary for headers and listings."""
        extras = [f"target {self.target}"]
        if self.partners:
            extras.append("partners")
        if not self.sniff:
            extras.append("no Sniff (All Fives)")
        if self.muggins:
            extras.append("muggins")
        if self.max_pip == 9:
            extras.append("double-nine")
        if self.renege:
            extras.append(RENEGE_SUMMARY[self.renege])
        return f"{self.name}, {self.players} players, " + ", ".join(extras)

    def summary(self) -> str:
        """These rules in words, for the New match form: ``Smartt, 3 players, to 250; a renege stops the hand, −25``.

        Each choice is said as the table would say it: the book, the players (and
        partners or each for himself with four), the target, the set, muggins,
        All Fives, and the renege procedure.
        """
        head = f"{self.preset.short}, {self.players} players"
        if self.players == 4:
            head += ", partners" if self.partners else ", each for himself"
        head += f", to {self.target}"
        extras = []
        if self.max_pip == 9:
            extras.append("double-nine")
        if self.muggins:
            extras.append("muggins: a score not called may be claimed")
        if not self.sniff:
            extras.append("All Fives, no Sniff")
        extras.append(RENEGE_SUMMARY[self.renege])
        return "; ".join([head, *extras])


@cache
def _cite(name: str, players: int, partners: bool, topic: Topic) -> str:
    """``RuleSet.cite``, worked out once for each book, seating and topic (a ruling cites one for every hand)."""
    seatings = (f"{players}-partners", str(players)) if partners else (str(players),)
    return PRESETS[name].cite(topic, seatings)


def cited(rules: RuleSet, topic: Topic, reading: str | None = None) -> str:
    """`` (Smartt §7.2)`` for the book in play; where that book is silent, `` (our reading R11)`` or ''.

    A ruling never cites another book than the one in play: ``reading`` names
    the reading in docs/rules.md that scorepad takes where the book says nothing.
    """
    section = rules.cite(topic)
    if section:
        return f" ({section})"
    return f" (our reading {reading})" if reading else ""


def make_ruleset(name: object, players: int, options: object = None) -> RuleSet:
    """Build the RuleSet for a preset, a player count and the record's options.

    Raises RecordFormatError for an unknown preset, option or option value
    (records.md §6: exit 2), partners without four players included.
    """
    preset = find_preset(name)
    opts = read_options(options)
    partners = opts.partners if opts.partners is not None else players == 4 and preset.partners_default
    if partners and players != 4:
        raise RecordFormatError(f"option 'partners' is for four players, and this record has {players}")
    max_pip = SETS[opts.set or "double-six"]
    muggins = bool(opts.muggins)
    default_target = preset.partners_target if partners else preset.targets[players]
    target = opts.target if opts.target is not None else default_target
    return RuleSet(
        name=preset.name,
        players=players,
        options=opts.given(),
        target=target,
        # Jaques 'Variations: Muggins': with muggins, a score must be called to count.
        calls_required=preset.calls_required or muggins,
        muggins=muggins,
        sniff=opts.sniff if opts.sniff is not None else True,
        max_pip=max_pip,
        partners=partners,
        renege=opts.renege or preset.renege_default,
        tiles_each=DOUBLE_NINE_TILES[players] if max_pip == 9 else preset.tiles_each[players],
        protected=preset.protected[players],
        draw_limit=preset.draw_limit,
        long_sides_first=preset.long_sides_first,
        settlement=preset.settlement.value,
        setter_rule=preset.setter_rule.value,
        game_points=preset.game_points,
    )
