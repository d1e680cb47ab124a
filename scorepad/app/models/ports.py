"""What a page may ask of the store, typed: the table's port (``MatchStore``) and one page's store (``PageStore``).

No Flet here. A page never holds the shared ``Store`` for its writes: it
holds a ``PageStore``, which adds the revision the page shows to every
write (so a tap made on a stale screen is refused, not built upon), tells
the page's live screen what it wrote, and refuses everything once the page
has died (``revoke``). A tournament's table device puts its round's check
in front of the same port (``scorepad.app.models.tournament.DeviceStore``).
Who may write is never decided here: the store's door checks each write's
caller (``scorepad.access``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from scorepad.access import Caller
from scorepad.app.models import timing
from scorepad.app.models.notices import revision_of
from scorepad.rules import Event
from scorepad.store import MatchSnapshot, Store, StoreConflict
from scorepad.store.summary import MatchSummary


class MatchStore(Protocol):
    """What the table screen asks of the store: its match's state, and the writes of a hand.

    ``Store`` itself answers it, as do ``PageStore`` and a table device's
    ``DeviceStore``. Each write raises what ``Store``'s does (a
    ``StoreError``: refused by the door or the engine, stale, unavailable).
    """

    def load(self, match_id: int, *, device: str | None = None) -> MatchSnapshot: ...

    def start_hand(
        self, match_id: int, setter: int | None = None, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot: ...

    def append(
        self, match_id: int, event: Event | dict[str, Any], *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot: ...

    def settle(
        self, match_id: int, remaining: Any, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot: ...

    def amend(
        self,
        match_id: int,
        event: Event | dict[str, Any] | None,
        *,
        caller: Caller,
        expected_revision: int | None = None,
    ) -> MatchSnapshot: ...

    def undo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot: ...

    def redo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot: ...


class Revisions(Protocol):
    """What a page's live screen tells its store about the state it shows (``scorepad.app.shell.live``)."""

    def expected_revision(self, match_id: int) -> int | None:
        """The revision a write to ``match_id`` is made on (None: the page shows no state of it)."""
        ...

    def wrote(self, match_id: int, state: MatchSnapshot) -> None:
        """The page's own write was saved: the page goes on from ``state``."""
        ...

    def refused(self) -> None:
        """The page's write was refused as made on a stale state."""
        ...


class PageRevoked(Exception):
    """A dead page used its store: the access was revoked when the page failed (``PageGuard``)."""


class PageStore:
    """The store as one page uses it: every write carries the revision of the state the page shows.

    Until ``follow`` is called (a page without live updates, a test) writes
    carry no revision. A write the store refuses as stale (``StoreConflict``)
    is noted on the page's live screen so the page can say which entry was
    first. Once ``revoke`` is called (the page died) every use raises
    ``PageRevoked``, the match book's included (``shared``).
    """

    def __init__(self, store: Store, revisions: Revisions | None = None) -> None:
        self._store = store
        self._revisions = revisions
        self._revoked = False

    def follow(self, revisions: Revisions) -> None:
        """Carry ``revisions``' revision in every write from now on."""
        self._revisions = revisions

    def revoke(self) -> None:
        """Refuse every use of the store from now on (the page failed)."""
        self._revoked = True

    @property
    def shared(self) -> Store:
        """The shared store, for the match book (``scorepad.store.matches``). Raises ``PageRevoked``."""
        self._check("the store")
        return self._store

    def _check(self, name: str) -> None:
        if self._revoked:
            raise PageRevoked(f"{name}: this page's access to the store was revoked when it failed")

    # -- reads ---------------------------------------------------------------------

    def load(self, match_id: int, *, device: str | None = None) -> MatchSnapshot:
        """The match now (``Store.load``). Raises ``PageRevoked`` or what ``Store.load`` raises."""
        self._check("load")
        return self._store.load(match_id, device=device)

    def list_matches(self) -> list[MatchSummary]:
        """Every stored match, newest first (``Store.list_matches``). Raises ``PageRevoked``, a ``StoreError``."""
        self._check("list_matches")
        return self._store.list_matches()

    # -- writes ----------------------------------------------------------------------

    def create_match(
        self,
        rules: str = "smartt",
        options: dict[str, Any] | None = None,
        players: Sequence[str] | None = None,
        *,
        caller: Caller,
    ) -> int:
        """A new match (``Store.create_match``). Raises ``PageRevoked`` or what ``Store.create_match`` raises."""
        self._check("create_match")
        return self._store.create_match(rules, options, players, caller=caller)

    def start_hand(
        self, match_id: int, setter: int | None = None, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """A new hand (``Store.start_hand``) on the state the page shows."""
        self._check("start_hand")
        revision = self._expected(match_id, expected_revision)
        return self._saved(
            match_id, lambda: self._store.start_hand(match_id, setter, caller=caller, expected_revision=revision)
        )

    def append(
        self, match_id: int, event: Event | dict[str, Any], *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """An entry of the hand (``Store.append``) on the state the page shows."""
        self._check("append")
        revision = self._expected(match_id, expected_revision)
        return self._saved(
            match_id, lambda: self._store.append(match_id, event, caller=caller, expected_revision=revision)
        )

    def settle(
        self, match_id: int, remaining: Any, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """The hand's settlement (``Store.settle``) on the state the page shows."""
        self._check("settle")
        revision = self._expected(match_id, expected_revision)
        return self._saved(
            match_id, lambda: self._store.settle(match_id, remaining, caller=caller, expected_revision=revision)
        )

    def amend(
        self,
        match_id: int,
        event: Event | dict[str, Any] | None,
        *,
        caller: Caller,
        expected_revision: int | None = None,
    ) -> MatchSnapshot:
        """The last entry replaced (``Store.amend``) on the state the page shows."""
        self._check("amend")
        revision = self._expected(match_id, expected_revision)
        return self._saved(
            match_id, lambda: self._store.amend(match_id, event, caller=caller, expected_revision=revision)
        )

    def undo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot:
        """The last entry taken back (``Store.undo``) on the state the page shows."""
        self._check("undo")
        revision = self._expected(match_id, expected_revision)
        return self._saved(match_id, lambda: self._store.undo(match_id, caller=caller, expected_revision=revision))

    def redo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot:
        """The entry taken back put again (``Store.redo``) on the state the page shows."""
        self._check("redo")
        revision = self._expected(match_id, expected_revision)
        return self._saved(match_id, lambda: self._store.redo(match_id, caller=caller, expected_revision=revision))

    def _expected(self, match_id: int, given: int | None) -> int | None:
        if given is not None or self._revisions is None:
            return given
        return self._revisions.expected_revision(match_id)

    def _saved(self, match_id: int, write: Callable[[], MatchSnapshot]) -> MatchSnapshot:
        """Run ``write``; tell the live screen what came of it (stale, or the state it made)."""
        try:
            state = write()
        except StoreConflict:
            if self._revisions is not None:
                self._revisions.refused()
            raise
        if self._revisions is not None:
            self._revisions.wrote(match_id, state)
        if timing.ENABLED:
            timing.committed(match_id, revision_of(state))
        return state
