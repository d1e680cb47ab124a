"""One record per rule book: what each preset plays by, and where its book says so.

The table of records.md §2 is the authority for every number here. Adding a
house-rule preset is one more ``Preset`` in ``PRESETS``; nothing else in the
engine, the app or the referee switches on a preset's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Literal, TypeVar

from scorepad.rules.errors import RecordFormatError


class SetterRule(StrEnum):
    """Who sets the next hand (records.md §2, 'next setter')."""

    ROTATE = "rotate"  # two players alternate, three and four rotate clockwise
    OUT = "out"  # whoever went out; after a block the record names the setter
    WINNER = "winner"  # the hand's winner; where there is none the record names the setter


class SettlementRule(StrEnum):
    """How a hand that went out or blocked is paid (records.md §5)."""

    AWARD = "award"  # one side takes the others' pips, rounded once
    DEBIT = "debit"  # each seat's own pips, rounded, taken off its side


class FirstSetterRule(StrEnum):
    """How the first setter of a match is found."""

    DRAW = "draw"  # Smartt §3.1: each draws a tile, the larger total sets
    HIGHEST_DOUBLE = "highest-double"  # Jaques 'Setting up': the highest double dealt leads


class Paper(StrEnum):
    """How the book keeps the score on paper, beside the plain figures."""

    FIGURES = "figures"  # a column of running totals (Smartt §1)
    STROKES = "strokes"  # American 'Keeping score': a stroke is 5, a large X with four small x is 50
    HOLES = "holes"  # Jaques 'Winning and scoring': a cribbage board of 61 (or 121) holes


class Topic(StrEnum):
    """A rule a ruling may cite; each preset maps it to the section of its own book."""

    SET = "set"
    COUNT = "count"
    SNIFF = "sniff"
    CALLS = "calls"
    CALL_STANDS = "call-stands"  # an uncorrected call stands as called
    MUGGINS = "muggins"
    DRAWS = "draws"
    PROTECTED = "protected"
    OUT = "out"
    BLOCK = "block"
    SETTLEMENT = "settlement"
    WIN = "win"
    ROTATION = "rotation"
    RENEGE = "renege"
    VOID = "void"
    MISDEAL = "misdeal"
    STANDS = "stands"
    GAME_POINTS = "game-points"
    FIRST_SETTER = "first-setter"
    # What the referee's analysis reports (docs/analysis.md):
    MANDATORY_PLAY = "mandatory-play"
    CLUTCH = "clutch"
    AUTOMATIC = "automatic"
    BULLETPROOF = "bulletproof"
    WORDS = "words"
    TABLE_TALK = "table-talk"
    TILE_NAMES = "tile-names"


K = TypeVar("K")
V = TypeVar("V")


def _frozen(mapping: dict[K, V]) -> MappingProxyType[K, V]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Preset:
    """Every rule of one book that the options and the player count do not change."""

    name: str
    title: str  # the book, as the app names it
    short: str  # how a citation names the book
    targets: MappingProxyType[int, int]  # by player count
    partners_target: int  # the target when four play in partnership
    tiles_each: MappingProxyType[int, int]  # by player count, double-six
    protected: MappingProxyType[int, int]  # boneyard tiles never drawn, by player count
    draw_limit: int | None  # tiles at most on one visit to the boneyard; None: until one plays
    long_sides_first: bool
    calls_required: bool  # scores must be called (else the count scores itself; muggins turns calls on)
    settlement: SettlementRule
    setter_rule: SetterRule
    renege_default: Literal["rollback25", "deduct50"] | None
    first_setter: FirstSetterRule
    game_points: bool
    partners_default: bool  # four players play partners unless the options say otherwise
    paper: Paper  # the score sheet's paper view
    citations: MappingProxyType[Topic, str] = field(repr=False)
    # Where the book words a rule again for a seating: "3" (three players), "4" (four players),
    # "4-partners" (four in partnership); looked up before ``citations``.
    seating_citations: MappingProxyType[str, MappingProxyType[Topic, str]] = field(
        default_factory=lambda: _frozen({}), repr=False
    )

    def cite(self, topic: Topic, seatings: tuple[str, ...] = ()) -> str:
        """The section of this preset's book behind ``topic``, e.g. ``Smartt §7.2``; '' where it is silent.

        ``seatings`` (most particular first, e.g. ``("4-partners", "4")``) picks
        the section that words the rule for that many players, where there is one.
        """
        for seating in seatings:
            table = self.seating_citations.get(seating)
            section = table.get(topic) if table is not None else None
            if section:
                return section
        return self.citations.get(topic, "")


# Double-nine deals 9 / 7 / 7 under every preset (records.md §2; Jaques 'Double-Nine Sniff').
DOUBLE_NINE_TILES = _frozen({2: 9, 3: 7, 4: 7})

SMARTT = Preset(
    name="smartt",
    title="Smartt's Rules of Sniff",
    short="Smartt",
    targets=_frozen({2: 250, 3: 250, 4: 250}),  # §1, §9.3
    partners_target=250,
    tiles_each=_frozen({2: 7, 3: 6, 4: 5}),  # the player table
    protected=_frozen({2: 2, 3: 1, 4: 0}),  # 'Two, three and four players'
    draw_limit=2,  # §8.1
    long_sides_first=True,  # §6
    calls_required=True,  # §7.2
    settlement=SettlementRule.AWARD,  # §9.1, §9.2
    setter_rule=SetterRule.ROTATE,  # §10 and the three/four-player sections
    renege_default="rollback25",  # §11.1, the preferred penalty
    first_setter=FirstSetterRule.DRAW,  # §3.1
    game_points=True,  # §14
    partners_default=True,
    paper=Paper.FIGURES,
    citations=_frozen(
        {
            Topic.SET: "Smartt §4.2",
            Topic.COUNT: "Smartt §7.1",
            Topic.SNIFF: "Smartt §6",
            Topic.CALLS: "Smartt §7.2",
            Topic.CALL_STANDS: "Smartt §7.2",
            Topic.DRAWS: "Smartt §8.1",
            Topic.PROTECTED: "Smartt §8.2",
            Topic.OUT: "Smartt §9.1",
            Topic.BLOCK: "Smartt §9.2",
            Topic.SETTLEMENT: "Smartt §9.2",
            Topic.WIN: "Smartt §9.3",
            Topic.ROTATION: "Smartt §10",
            Topic.RENEGE: "Smartt §11.1",
            Topic.VOID: "Smartt §11.3",
            Topic.MISDEAL: "Smartt §11.4",
            Topic.STANDS: "Smartt §11.5",
            Topic.GAME_POINTS: "Smartt §14",
            Topic.FIRST_SETTER: "Smartt §3.1",
            Topic.MANDATORY_PLAY: "Smartt §5.1",
            Topic.CLUTCH: "Smartt §2.1",
            Topic.AUTOMATIC: "Smartt §7.3",
            Topic.BULLETPROOF: "Smartt §7.4",
            Topic.WORDS: "Smartt §15",
            Topic.TABLE_TALK: "Smartt §15.2",
            Topic.TILE_NAMES: "Smartt §15.1",
        }
    ),
    # §10 is the two-player alternation; the three- and four-player games word the
    # rotation, the go-out award, the block and the reserve again in their own sections.
    seating_citations=_frozen(
        {
            "3": _frozen(
                {
                    Topic.ROTATION: "Smartt, 'Three players'",
                    Topic.OUT: "Smartt, 'Three players'",
                    Topic.BLOCK: "Smartt, 'Three players'",
                    Topic.PROTECTED: "Smartt, 'Three players'",
                }
            ),
            "4": _frozen({Topic.ROTATION: "Smartt, 'Four players'"}),
            "4-partners": _frozen({Topic.OUT: "Smartt, 'Four players'", Topic.BLOCK: "Smartt, 'Four players'"}),
        }
    ),
)

AMERICAN = Preset(
    name="american",
    title="American Sniff",
    short="American",
    targets=_frozen({2: 250, 3: 200, 4: 200}),  # 'Equipment and objective'
    partners_target=200,
    tiles_each=_frozen({2: 7, 3: 6, 4: 5}),  # 'Deal and lead'
    protected=_frozen({2: 0, 3: 0, 4: 0}),
    draw_limit=None,  # draw until a tile plays
    long_sides_first=True,  # 'The Sniff'
    calls_required=False,  # 'Score a placement': every placement scores itself
    settlement=SettlementRule.DEBIT,  # 'End and settle a round'
    setter_rule=SetterRule.OUT,  # 'Deal and lead'
    renege_default=None,
    first_setter=FirstSetterRule.DRAW,  # the book is silent: the draw for the set (R19)
    game_points=False,
    partners_default=True,
    paper=Paper.STROKES,
    citations=_frozen(
        {
            Topic.COUNT: "American, 'Score a placement'",
            Topic.SNIFF: "American, 'The Sniff'",
            Topic.CALLS: "American, 'Score a placement'",
            Topic.DRAWS: "American, 'Deal and lead'",
            Topic.OUT: "American, 'End and settle a round'",
            Topic.BLOCK: "American, 'End and settle a round'",
            Topic.SETTLEMENT: "American, 'End and settle a round'",
            Topic.WIN: "American, 'Win the match'",
            Topic.ROTATION: "American, 'Deal and lead'",
            Topic.MANDATORY_PLAY: "American, 'Draw, pass, and block'",
        }
    ),
)

JAQUES = Preset(
    name="jaques",
    title="Jaques of London, How to Play Sniff",
    short="Jaques",
    targets=_frozen({2: 61, 3: 61, 4: 61}),  # 'Winning and scoring'
    partners_target=121,  # 'Partnership Sniff'
    tiles_each=_frozen({2: 7, 3: 5, 4: 5}),  # 'Setting up' step 2
    protected=_frozen({2: 0, 3: 0, 4: 0}),
    draw_limit=None,  # 'The fine points': draw until a tile plays
    long_sides_first=False,  # 'How to play' step 2: any order
    calls_required=False,  # the count scores itself; the muggins variation makes calls count
    settlement=SettlementRule.AWARD,  # 'Winning and scoring'
    setter_rule=SetterRule.WINNER,  # 'Setting up' step 4
    renege_default=None,
    first_setter=FirstSetterRule.HIGHEST_DOUBLE,  # 'Setting up'
    game_points=False,
    partners_default=False,  # 'Partnership Sniff' is a variation
    paper=Paper.HOLES,
    citations=_frozen(
        {
            Topic.COUNT: "Jaques, 'Winning and scoring'",
            Topic.SNIFF: "Jaques, 'The fine points'",
            Topic.CALLS: "Jaques, 'Variations: Muggins'",
            Topic.MUGGINS: "Jaques, 'Variations: Muggins'",
            Topic.DRAWS: "Jaques, 'The fine points'",
            Topic.OUT: "Jaques, 'Winning and scoring'",
            Topic.BLOCK: "Jaques, 'Winning and scoring'",
            Topic.SETTLEMENT: "Jaques, 'Winning and scoring'",
            Topic.WIN: "Jaques, 'Winning and scoring'",
            Topic.ROTATION: "Jaques, 'Setting up' step 4",
            Topic.STANDS: "Jaques, 'The fine points'",
            Topic.FIRST_SETTER: "Jaques, 'Setting up'",
            Topic.MANDATORY_PLAY: "Jaques, 'How to play' step 7",
        }
    ),
)

PRESETS: MappingProxyType[str, Preset] = _frozen({p.name: p for p in (SMARTT, AMERICAN, JAQUES)})


def find_preset(name: object) -> Preset:
    """The preset called ``name``.

    Raises RecordFormatError (records.md §6: exit 2) for a name no preset has.
    """
    preset = PRESETS.get(name) if isinstance(name, str) else None
    if preset is None:
        raise RecordFormatError(f"unknown rules {name!r}; the rules are " + ", ".join(repr(p) for p in PRESETS))
    return preset


RenegeRule = Literal["rollback25", "deduct50"]

# The highest target the New match form takes: four digits, as every number typed on the pad.
# A record may name any positive target (records.md §1); this bounds only what is typed.
MAX_TYPED_TARGET = 9999


@dataclass(frozen=True)
class OptionChoice:
    """One choice a New match form offers for an option: its record value, its label and one line of explanation.

    ``value`` None is the book's own rule (the option left out of the record).
    """

    value: str | None
    label: str
    explanation: str


# Each renege procedure in a few words, for a summary of the rules (never the record's word on screen).
RENEGE_SUMMARY: MappingProxyType[str | None, str] = _frozen(
    {"rollback25": "a renege stops the hand, −25", "deduct50": "a renege is played out, −50", None: "no renege penalty"}
)


def renege_choices(preset: Preset) -> tuple[OptionChoice, ...]:
    """The renege procedures a match under ``preset`` may be played with, the book's own first.

    Smartt §11.1 prefers the 25-point procedure and allows playing the hand out
    for 50 by prior agreement; American and Jaques have no renege rule, so
    either procedure is a house rule borrowed from Smartt (docs/rules.md R9).
    """
    section = preset.cite(Topic.RENEGE)
    where = f"{section}" if section else "a house rule from Smartt §11.1"
    stop = OptionChoice(
        "rollback25",
        "A renege stops the hand, −25",
        f"The hand stops; the offender goes back to his score at the start of the hand less 25, and the"
        f" others keep what they scored but get no award ({where}{', preferred' if section else ''}).",
    )
    play_out = OptionChoice(
        "deduct50",
        "Play it out, −50",
        f"The hand is played to its end and settled, then 50 comes off the offender"
        f" ({where}{', by prior agreement' if section else ''}).",
    )
    if preset.renege_default is None:
        words = f"The {preset.short} rules have no renege rule: a renege is not entered."
        none = OptionChoice(None, "No renege penalty", words)
        return (none, stop, play_out)
    return (stop, play_out) if preset.renege_default == "rollback25" else (play_out, stop)


@dataclass(frozen=True, slots=True)
class Options:
    """A record's ``options`` (records.md §1), read strictly by ``read_options``: every field may be absent (None)."""

    target: int | None = None
    muggins: bool | None = None
    sniff: bool | None = None
    set: Literal["double-six", "double-nine"] | None = None
    partners: bool | None = None
    renege: RenegeRule | None = None

    def given(self) -> dict[str, object]:
        """The options the record gave, as a record writes them."""
        return {name: getattr(self, name) for name in _OPTION_WORDS if getattr(self, name) is not None}


# What each option accepts, in the words of a refusal.
_OPTION_WORDS = {
    "target": "a whole number of 1 or more",
    "muggins": "true or false",
    "sniff": "true or false",
    "set": "'double-six' or 'double-nine'",
    "partners": "true or false",
    "renege": "'rollback25' or 'deduct50'",
}
_WORDS = {"set": ("double-six", "double-nine"), "renege": ("rollback25", "deduct50")}


def _accepts(key: str, value: object) -> bool:
    """Whether option ``key`` takes ``value``, strictly: no 1 for true, no true for 1, no "100" for 100."""
    if key == "target":
        return type(value) is int and value > 0
    if key in _WORDS:
        return isinstance(value, str) and value in _WORDS[key]
    return type(value) is bool


def read_options(options: object) -> Options:
    """Validate a record's ``options`` object.

    Raises RecordFormatError with one plain sentence for an unknown option or
    a value the option does not take (records.md §6: exit 2).
    """
    if options is None:
        return Options()
    if not isinstance(options, dict):
        raise RecordFormatError("'options' must be an object such as {\"target\": 100}")
    for key, value in options.items():
        if key not in _OPTION_WORDS:
            raise RecordFormatError(f"unknown option {key!r}; the options are " + ", ".join(_OPTION_WORDS))
        if not _accepts(key, value):
            raise RecordFormatError(f"option {key!r} must be {_OPTION_WORDS[key]}, not {value!r}")
    return Options(**options)


def typed_target(text: str) -> int | None:
    """The target typed on a New match form: None when blank (the preset's own), else a whole number.

    Raises RecordFormatError with one sentence saying what is allowed: ASCII
    digits only, from 1 to ``MAX_TYPED_TARGET`` (a longer number is a slip of
    the thumb; no book plays past a few hundred).
    """
    text = text.strip()
    if not text:
        return None
    if text.isascii() and text.isdigit() and len(text) <= len(str(MAX_TYPED_TARGET)) and int(text) >= 1:
        return int(text)
    raise RecordFormatError(
        f"the target must be a whole number from 1 to {MAX_TYPED_TARGET}, or blank for the book's own; not {text!r}"
    )
