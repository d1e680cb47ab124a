"""The values an analysis is made of: frozen dataclasses and enums, plain data for JSON.

Each dataclass is made with ``quick_init`` (``frozen``): the same parameters and the same
frozen value, made faster, for an analysis makes hundreds of thousands of them.

Events are numbered as the referee numbers them: hand and event from 1. A
``Saying`` at the end of a hand has ``event`` 0.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from enum import StrEnum
from typing import Any

from scorepad.analysis.frozen import quick_init
from scorepad.gc_pause import cyclic_gc_paused


class Verdict(StrEnum):
    """What the record shows about a draw or a pass (Smartt §11.1, §5.1)."""

    PROVED = "proved"  # the player certainly held a tile that fitted
    POSSIBLE = "possible"  # the record neither proves nor excludes it
    CLEARED = "cleared"  # the player certainly held nothing that fitted


class SeatVerdict(StrEnum):
    """One player's hand as the record shows it (Smartt §11.1): the one line a referee needs."""

    PROVED = "proved"  # no reading of the record leaves the player clean
    CLEAN = "clean"  # every visit to the boneyard and every pass is cleared
    CANT_TELL = "can't tell"  # the record leaves it open; the verdict says what is missing


class AutomaticKind(StrEnum):
    """Which automatic a counter-score is (Smartt §7.3)."""

    TABLE = "table"  # the partner of an exposed ordinary double, from the §7.3 table
    PET = "pet"  # the 1-6 on a single 1 or 6
    FAKE_PET = "fake-pet"  # the 1-3 on an exposed double-3
    ZERO_FIVE = "0-5"  # the 0-5 on a single blank or 5
    SNIFF = "sniff"  # n-0 or n-5 on the Sniff's opposite long side
    OTHER = "counter-score"  # any other tile that keeps the count a multiple of five


class Use(StrEnum):
    """Whether an automatic the player held was played."""

    USED = "used"
    MISSED = "missed"


class Safety(StrEnum):
    """What the layout leaves the next players (Smartt §7.4, §15)."""

    OPEN = "open"  # some tile an opponent may hold scores on it
    BULLETPROOF = "bulletproof"  # only tiles the player's own side holds can score on it
    UNSCOREAPONABLE = "unscoreaponable"  # no unplayed tile can score on it


class Word(StrEnum):
    """The table's own words (Smartt §15, §15.2)."""

    EPISCOPAL = "Episcopal"
    MOONFACED = "Moonfaced"
    BELL = "Bell is ringing"
    UNSCOREAPONABLE = "Unscoreaponable"
    BULLETPROOF = "Bulletproof"
    COME_OFF_ENCE = "Come-off-ence"
    TERMINATING = "Terminating the Sniff"
    SHEDAPOTOMUS = "Shedapotomus"
    SHUNK_SHUNK = "Shunk shunk"
    BAREASS = "Bareass"


@quick_init
@dataclass(frozen=True, slots=True)
class Placing:
    """One legal placement of a tile and what it would have made."""

    tile: str
    at: str
    board_count: int
    score: int


@quick_init
@dataclass(frozen=True, slots=True)
class Automatic:
    """An automatic available at a play: which, with which tile where, and whether it was played."""

    kind: AutomaticKind
    use: Use
    placing: Placing
    words: str


@quick_init
@dataclass(frozen=True, slots=True)
class RenegeEvidence:
    """What the record shows about one draw or pass: did the player hold a tile that would have played?"""

    hand: int
    event: int
    seat: int
    moment: str  # "draw" (a visit to the boneyard, from its first draw) or "pass" (a pass with no draw)
    verdict: Verdict
    fitting: tuple[str, ...]  # the tiles the player showed later that fitted then
    open_ends: tuple[tuple[str, int], ...]
    reasoning: str


@quick_init
@dataclass(frozen=True, slots=True)
class Shown:
    """A tile of a proof: where it was shown (``event`` from 1, or 0 when listed at the end) and when it fitted."""

    tile: str
    event: int
    fitted: int  # the event (from 1) of the visit whose ends it fitted; 0 when it is the count alone


@quick_init
@dataclass(frozen=True, slots=True)
class RenegeVerdict:
    """One player's renege verdict for one hand, with the tiles of a proof and the reasoning in words."""

    hand: int
    seat: int
    verdict: SeatVerdict
    events: tuple[int, ...]  # the visits it rests on (from 1): all for clean, the open ones for can't tell
    tiles: tuple[Shown, ...]  # for proved: each tile of the proof
    reasoning: str


@quick_init
@dataclass(frozen=True, slots=True)
class PlayReview:
    """One play against what else the player could have done, and what it left."""

    hand: int
    event: int
    seat: int
    tile: str
    at: str
    board_count: int
    score: int  # what the count made (the recorded score may differ after a miscall)
    recorded: int
    alternatives: tuple[Placing, ...]  # every other legal placement the record proves was available
    automatic: Automatic | None
    safety: Safety | None  # None after the play that ends the hand
    unseen: tuple[int, ...]  # per value 0.. max pip: tiles of its clutch not yet on the table (§2.1)

    @property
    def missed(self) -> tuple[Placing, ...]:
        """The alternatives that would have scored more than the play did."""
        return tuple(p for p in self.alternatives if p.score > self.score)


@quick_init
@dataclass(frozen=True, slots=True)
class Saying:
    """A word of the table at the moment it applies (``event`` 0: at the end of the hand)."""

    hand: int
    event: int
    word: Word
    seat: int | None
    words: str


@quick_init
@dataclass(frozen=True, slots=True)
class Comment:
    """The analysis on a ruling the record itself carries (a renege proved at the table, a play that stood)."""

    hand: int
    event: int
    seat: int
    words: str


@quick_init
@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """Everything the analysis found in one hand."""

    number: int
    game: int
    setter: int
    plays: tuple[PlayReview, ...]
    reneges: tuple[RenegeEvidence, ...]  # one per visit to the boneyard or pass, in event order
    sayings: tuple[Saying, ...]
    verdicts: tuple[RenegeVerdict, ...] = ()  # one per seat
    comments: tuple[Comment, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """The analysis of a whole match, hand by hand."""

    rules: str
    players: tuple[str, ...]
    hands: tuple[HandAnalysis, ...]

    def to_dict(self) -> dict[str, Any]:
        """The analysis as plain JSON data (``scorepad analyse --json``)."""
        with cyclic_gc_paused():  # a dict for each value, none in a cycle: see scorepad.gc_pause
            return self._to_dict()

    def _to_dict(self) -> dict[str, Any]:
        out = plain(self)
        assert isinstance(out, dict)
        for hand, data in zip(self.hands, out["hands"], strict=True):
            for play, entry in zip(hand.plays, data["plays"], strict=True):
                entry["missed"] = [plain(p) for p in play.missed]
        return out


def plain(value: object) -> object:
    """``value`` as plain data: each dataclass a dict of its fields, each tuple a list, the rest as it is.

    What ``dataclasses.asdict`` gives, without its deep copy of every leaf (the values are frozen).
    An analysis holds about thirty values for each event, most of them strings and
    numbers, so a leaf is passed through where it is met, without a call of its own.
    """
    if isinstance(value, tuple):
        return [v if type(v) in _LEAVES else plain(v) for v in value]
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        if not is_dataclass(value):
            _LEAVES.add(kind)  # an enum or another plain value: JSON takes it as it is
            return value
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    out = {}
    for name in names:
        field = getattr(value, name)
        out[name] = field if type(field) in _LEAVES else plain(field)
    return out


# The types ``plain`` passes through as they are (enums are added as they are met).
_LEAVES: set[type] = {str, int, float, bool, type(None)}
# Each dataclass's field names, read on first use.
_FIELDS: dict[type, tuple[str, ...]] = {}
