"""Snapshots: what the store hands out, a match's state at one revision that never changes.

A write never touches a state the store has handed out. It works on a fork:
a new ``MatchSnapshot`` that shares the finished hands of the state it came
from (a finished hand is never changed again: ``MatchState.start_hand`` only
reads the previous hand) and holds a fresh replay of the hands the write
touches. The fork becomes the store's state, and the caller's, only once the
commit succeeded; a failed write drops it, so nothing anyone holds has moved.
"""

from __future__ import annotations

from typing import Any

from scorepad.rules import Event, HandState, MatchState, RuleSet
from scorepad.store.errors import StoreError


class ReadOnlySnapshot(StoreError, TypeError):
    """A snapshot handed out by the store was asked to change; enter it through the store."""


class MatchSnapshot(MatchState):
    """A match's state as stored at ``revision``; read it, never change it.

    It is the engine's ``MatchState`` (every reading works as on it), plus
    ``match_id`` and ``revision``: the match's write counter when this state
    was stored, which a screen sends back as ``expected_revision`` so that a
    tap made on an out-of-date state is refused. ``start_hand``, ``apply``,
    ``settle`` and ``undo`` raise ``ReadOnlySnapshot`` once the store has
    handed it out; to try an event, replay a copy (``scorepad.app.models.readings.trial``).
    """

    def __init__(self, rules: RuleSet, players: list[str], *, match_id: int) -> None:
        super().__init__(rules, players)
        self.match_id = match_id
        self.revision = -1
        self._sealed = False

    def seal(self, revision: int) -> MatchSnapshot:
        """Fix this state as the match at ``revision``; from now on it only reads."""
        self.revision = revision
        self._sealed = True
        return self

    def _check_writable(self) -> None:
        if self._sealed:
            raise ReadOnlySnapshot(
                f"this is match {self.match_id} as stored at revision {self.revision}, which never changes:"
                " enter the event through the store instead"
            )

    def start_hand(self, setter: int | None = None) -> HandState:
        """As ``MatchState.start_hand`` while the store builds it; raises ``ReadOnlySnapshot`` after."""
        self._check_writable()
        return super().start_hand(setter)

    def apply(self, event: Event) -> dict[str, Any]:
        """As ``MatchState.apply`` while the store builds it; raises ``ReadOnlySnapshot`` after."""
        self._check_writable()
        return super().apply(event)

    def settle(self, remaining: object) -> Any:
        """As ``MatchState.settle`` while the store builds it; raises ``ReadOnlySnapshot`` after."""
        self._check_writable()
        return super().settle(remaining)

    def undo(self) -> str:
        """Refused once handed out (the store's undo is ``Store.undo``)."""
        self._check_writable()
        return super().undo()

    def __repr__(self) -> str:
        return f"<MatchSnapshot match {self.match_id} revision {self.revision}: {len(self.hands)} hands>"


def replay_hand(rules: RuleSet, hand: HandState) -> HandState:
    """A fresh copy of ``hand``, replayed through the engine from its events (and settlement)."""
    fresh = HandState(rules, setter=hand.setter, scores_before=hand.scores_before, number=hand.number, game=hand.game)
    for event in hand.events:
        fresh.apply(event)
    if hand.settlement is not None:
        fresh.settle(hand.remaining)
    return fresh


def fork(base: MatchState, *, match_id: int, keep: int | None = None) -> MatchSnapshot:
    """A writable state equal to ``base``, sharing its first ``keep`` hands and replaying the rest.

    ``keep`` defaults to every hand but the last (the one an entry changes);
    ``len(base.hands)`` shares them all (the start of a new hand changes none).
    """
    work = MatchSnapshot(base.rules, list(base.players), match_id=match_id)
    hands = base.hands
    shared = len(hands) - 1 if keep is None else keep
    work.hands.extend(hands[: max(shared, 0)])
    for hand in hands[max(shared, 0) :]:
        work.hands.append(replay_hand(base.rules, hand))
    return work
