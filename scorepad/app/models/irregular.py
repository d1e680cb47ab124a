"""The irregularities menu of the table: throw in the hand, a misdeal, a tile that stood.

Plain Python, no Flet. Each choice becomes one engine event (records.md §4):
``{"void": true}`` (Smartt §11.3), the ``adjust`` events of a misdeal
(§11.4, ``scorepad.rules.misdeal``: one for a tile too many, two for a tile
too few) or a play with ``"stands": true`` (§11.5). What it will do is worked out by
the engine on a private copy of the match before anything is saved, and said
in the players' names; the engine's refusal is shown instead when it will not
take it. Once saved, Undo takes it back like any other entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorepad.app.models.words import hand_words
from scorepad.rules import Play, Void, full_set
from scorepad.rules.misdeal import Misdeal, misdeal_events
from scorepad.rules.presets import Topic
from scorepad.rules.previews import preview_event, preview_misdeal
from scorepad.rules.rulesets import cited
from scorepad.rules.wording import end_names, sentence

if TYPE_CHECKING:
    from scorepad.app.models.table import Table

VOID, MISDEAL, STANDS = "void", "misdeal", "stands"
KIND_WORDS = {VOID: "Throw in the hand", MISDEAL: "Misdeal", STANDS: "Tile stood"}


@dataclass(frozen=True)
class IrregularPreview:
    """What the chosen irregularity will do (``allowed``), or the engine's reason it cannot be entered."""

    words: str
    allowed: bool


class Irregularities:
    """The menu's state for one table: which irregularity is chosen and its details.

    ``kind`` is ``void``, ``misdeal`` or ``stands`` (None: the menu shows the
    three choices). A misdeal needs ``seat`` and ``misdeal`` (a tile too few:
    the seat takes the missing one; a tile too many: it keeps it); a tile that stood needs
    the open end ``at`` it was laid against and the tile as ``against``-``outward``.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.open = False
        self.kind: str | None = None
        self.seat: int | None = None
        self.misdeal = Misdeal.TOO_FEW
        self.at: str | None = None
        self.tile: tuple[int, int] | None = None

    # -- taps ------------------------------------------------------------------

    def toggle(self) -> None:
        """Open the menu, or close it forgetting what was chosen."""
        opened = not self.open
        self._reset()
        self.open = opened

    def choose(self, kind: str) -> None:
        """Pick the irregularity to enter (``void``, ``misdeal`` or ``stands``)."""
        if kind in KIND_WORDS:
            self._reset()
            self.open, self.kind = True, kind

    def pick_seat(self, seat: int) -> None:
        """The misdealt seat."""
        self.seat = seat

    def pick_misdeal(self, kind: Misdeal) -> None:
        """What was wrong with the seat's deal: one tile too few or one too many (Smartt §11.4)."""
        self.misdeal = Misdeal(kind)

    def pick_end(self, at: str) -> None:
        """The open end the tile that stood was laid against; a tile picked before that fits it is dropped."""
        self.at = at
        if self.tile is not None and self.tile not in self._misfits_oriented():
            self.tile = None

    def pick_tile(self, low: int, high: int) -> None:
        """The tile that stood, ``low`` against the end and ``high`` facing out (``flip`` turns it)."""
        self.tile = (low, high)

    def flip(self) -> None:
        """Turn the tile that stood round: the other value lies against the end."""
        if self.tile is not None:
            self.tile = (self.tile[1], self.tile[0])

    def confirm(self) -> bool:
        """Save the irregularity previewed; returns whether it was saved (else the table says why)."""
        events = self.events()
        if not events:
            self.table.message = self._missing()
            return False
        if self.table.enter(*events):
            self._reset()
            return True
        return False

    # -- reading ---------------------------------------------------------------

    def available(self) -> bool:
        """Whether the menu has anything to offer: a hand under way."""
        hand = self.table.hand
        return hand is not None and hand.how == "in-progress"

    def open_ends(self) -> list[tuple[str, int]]:
        """The open ends a tile that stood may have been laid against, with their values."""
        hand = self.table.hand
        if hand is None:
            return []
        return list(hand.layout.open_ends().items())

    def end_names(self) -> dict[str, str]:
        """Each open end named by what lies there on the table (``on the 3 of 5-3``), never the picture's left."""
        hand = self.table.hand
        if hand is None:
            return {}
        return end_names(hand.layout, list(hand.layout.open_ends()))

    def misfits(self) -> list[tuple[int, int]]:
        """The tiles not yet played that do not match the chosen end (a tile that fits it needs no mark)."""
        hand = self.table.hand
        if hand is None or self.at is None:
            return []
        layout = hand.layout
        return [t for t in full_set(self.table.rules.max_pip) if t not in hand.played and self.at not in layout.fits(t)]

    def events(self) -> tuple[Any, ...]:
        """The engine events the choices make, in order; empty while a choice is missing."""
        hand = self.table.hand
        if hand is None:
            return ()
        if self.kind == VOID:
            return (Void(),)
        if self.kind == MISDEAL and self.seat is not None:
            # Smartt §11.4: a tile too few is two entries (the short deal, the tile taken).
            return misdeal_events(self.misdeal, self.seat)
        if self.kind == STANDS and self.at is not None and self.tile is not None:
            against, outward = self.tile
            return (Play(f"{against}-{outward}", at=self.at, by=hand.turn, stands=True),)
        return ()

    def preview(self) -> IrregularPreview | None:
        """What saving would do, asked of the engine (None while a choice is missing).

        The engine tries the event on a fork of the match (``preview_event``):
        its refusal is shown as is; otherwise its ruling, or the counts of the
        forked hand, are put in words.
        """
        events = self.events()
        if not events:
            return None
        table = self.table
        before = table.hand
        assert before is not None
        if self.kind == MISDEAL:
            assert self.seat is not None
            asked = preview_misdeal(table.state, self.seat, self.misdeal)
            if asked.refusal is not None:
                return IrregularPreview(sentence(asked.refusal) + ".", allowed=False)
            return IrregularPreview(asked.words, allowed=True)
        [event] = events
        asked = preview_event(table.state, event)
        if asked.refusal is not None:
            return IrregularPreview(sentence(asked.refusal) + ".", allowed=False)
        if self.kind == VOID:
            scores = ", ".join(f"{table.state.side_name(s)} {v}" for s, v in enumerate(asked.scores_after))
            ruling = asked.words[:1].lower() + asked.words[1:]
            words = f"Throw in {hand_words(table.state, before)}: {ruling} Scores: {scores}."
            return IrregularPreview(words, allowed=True)
        return IrregularPreview(self._stood_words(before, self._tried(event)), allowed=True)

    def _tried(self, event: Any) -> Any:
        """The current hand as it would be after ``event`` (the engine took it in ``preview_event``)."""
        fork = self.table.state.fork()
        fork.apply(event)
        assert fork.current is not None
        return fork.current

    def _stood_words(self, before: Any, after: Any) -> str:
        table = self.table
        assert self.tile is not None and self.at is not None
        against, outward = self.tile
        where = self.end_names()[self.at]
        last = after.last_play
        assert last is not None
        who = table.player(last.seat)
        score = f"scores {last.score}" if last.score else "no score"
        return (
            f"Tile stood: {who}'s {against}-{outward} stays {where} although it does not match;"
            f" {outward} becomes that end. The board count is then"
            f" {after.layout.board_count}: {score}. The layout and every score stand, and the play is flagged"
            f" 'stood'{cited(table.rules, Topic.STANDS)}."
        )

    # -- internals ---------------------------------------------------------------

    def _misfits_oriented(self) -> set[tuple[int, int]]:
        return {t for low, high in self.misfits() for t in ((low, high), (high, low))}

    def _missing(self) -> str:
        if self.kind == MISDEAL:
            return "Pick the player who holds a tile too many or too few."
        if self.kind == STANDS:
            return "Pick the open end, then the tile that stood there."
        return "Pick what happened first."

    def _reset(self) -> None:
        self.open = False
        self.kind = None
        self.seat = None
        self.misdeal = Misdeal.TOO_FEW
        self.at = None
        self.tile = None
