"""What the table screen draws: small read-only values made from the engine's state.

No Flet here and no rules: every number is read from ``MatchState``,
``HandState`` or ``Layout``; these classes only arrange it for drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Piece:
    """One tile in the layout picture, as it lies: ``first`` is left (or top), ``second`` right (or bottom)."""

    first: int
    second: int
    crosswise: bool
    sniff: bool = False
    label: str = ""


@dataclass(frozen=True)
class OpenEnd:
    """An open end of the layout: the position a tile may go and the value it must match."""

    at: str
    value: int


@dataclass(frozen=True)
class Picture:
    """The layout as rows of pieces: the line (left to right) and the Sniff's short arms."""

    line: tuple[Piece, ...]
    up: tuple[Piece, ...]
    down: tuple[Piece, ...]
    open_ends: tuple[OpenEnd, ...]
    sniff: str | None = None


@dataclass(frozen=True)
class Board:
    """The board count, where it comes from, and the Sniff's stage."""

    count: int
    breakdown: tuple[tuple[str, int], ...]
    explain: str
    sniff_stage: str
    open_ends: str


@dataclass(frozen=True)
class SideView:
    """One side's score line: its seats, the score, where it started this hand, what it still needs."""

    side: int
    names: str
    score: int
    start: int
    needed: int
    to_move: bool


@dataclass(frozen=True)
class SeatView:
    """One player at the table: how many tiles are held and whether it is their turn."""

    seat: int
    name: str
    side: int
    tiles_held: int
    to_move: bool


@dataclass(frozen=True)
class TileKey:
    """A tile of the set for the picker: ``low-high`` and whether it has been laid."""

    low: int
    high: int
    played: bool
    chosen: bool = False

    @property
    def name(self) -> str:
        """The tile as written in the picker and the identifiers, low value first."""
        return f"{self.low}-{self.high}"


@dataclass(frozen=True)
class CallPanel:
    """The call panel after a play: what the count scored, what was called, flags and consequence."""

    seat: int
    player: str
    board_count: int
    score: int
    call: int
    recorded: int
    flags: tuple[str, ...]
    consequence: str
    can_fix: bool
    calls: tuple[int, ...]
    claimants: tuple[int, ...] = ()
    # The quick answers (``previews.call_options``: record's ``call``, label) and until when a
    # miscall may be corrected (``wording.correction_moment``).
    options: tuple[tuple[int | None, str], ...] = ()
    moment: str = "before the next tile"


@dataclass(frozen=True)
class RenegePreview:
    """What a renege by ``seat`` would do, computed by the engine before it is applied."""

    seat: int
    player: str
    scores_now: tuple[int, ...]
    scores_after: tuple[int, ...]
    words: str


@dataclass(frozen=True)
class SettlementView:
    """The end of a hand: how it ended, and the settlement step by step once it is known."""

    how: str
    words: str
    steps: tuple[str, ...] = ()
    scores_after: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameResult:
    """A game won: the winner, the final scores, and game points and Rube where the rules have them."""

    game: int
    winner: int
    winner_names: str
    scores: tuple[int, ...]
    game_points: int | None
    rubed: tuple[int, ...]
    words: str


@dataclass(frozen=True)
class SheetRow:
    """One hand on the score sheet: the scores each side began with and ended with."""

    number: int
    game: int
    setter: str
    start: tuple[int, ...]
    end: tuple[int, ...]
    how: str


@dataclass(frozen=True)
class SeriesRow:
    """One side's running total in the day's series (Smartt §14); game points and Rubes where the book keeps them."""

    side: str
    wins: int
    game_points: int | None = None
    rubed: int | None = None


@dataclass(frozen=True)
class Sheet:
    """The score sheet: the hands in order, the race to the target and the day's series so far."""

    sides: tuple[str, ...]
    target: int
    rows: tuple[SheetRow, ...] = field(default_factory=tuple)
    # ``wording.series_words``: each game won, then the totals (empty before the first game is won).
    series_lines: tuple[str, ...] = ()
    series: tuple[SeriesRow, ...] = ()
