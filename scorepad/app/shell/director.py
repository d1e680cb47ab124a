"""``/event/ID/director``: the director's page shell (lifecycle, live follower, tap guard) around the desk.

The drawing is ``screens.desk.DeskScreen`` over the flet-free ``Desk``
(``models.desk``); this shell reads the event, follows the round's matches
live (``BoardPage``), guards every tap (a refusal is one sentence on the
page, a bug kills the page through ``PageGuard``) and hands the table cards
to the browser as a download.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from scorepad.app.models.desk import Desk
from scorepad.app.screens.desk import DeskScreen
from scorepad.app.shell.board import BoardPage
from scorepad.app.shell.guard import PageGuard
from scorepad.app.shell.taps import Dispatch
from scorepad.store import Store


class DirectorPage(BoardPage):
    """The director's page: the password first, then the desk (the round's tables, the entrants, the round)."""

    def __init__(self, page: ft.Page, desk: Desk, store: Store) -> None:
        self.desk = desk
        self.board = desk
        super().__init__(page, store)
        self.guard = PageGuard.of(page)
        self.bump: Callable[[], None] | None = None
        self.guard.revokes(self._sign_out)
        self.act = Dispatch(self.guard, said=self._said, redraw=self._after, where="a director's tap")
        # A page that comes back after its connection dropped follows its round again.
        page.on_connect = lambda _e: self.follower.changed()

    def start(self) -> None:
        """Draw the desk (and follow the round once signed in)."""
        if self.desk.signed_in:
            self.follower.follow(self.desk.match_ids())
        self.page.render(DeskScreen, self.desk, self._listen, self._dead, self.tap, self.save_cards)

    def _sign_out(self) -> None:
        # A dead page's director signs out: every call it could still make carries no credential.
        self.desk.token = None

    def _listen(self, bump: Callable[[], None]) -> None:
        self.bump = bump

    def _dead(self) -> ft.Control | None:
        return self.guard.view() if self.guard.dead else None

    def tap(self, fn: Callable[[], Any]) -> Callable[[], None]:
        """A tap on the desk: ``fn`` (a desk act), then follow the round and redraw; a refusal is said."""
        return self.act(fn)

    def _said(self, words: str) -> None:
        self.desk.message = words

    def _after(self) -> None:
        self.follower.follow(self.desk.match_ids())
        self.draw()

    def save_cards(self) -> Callable[[], Awaitable[None]]:
        """The handler of *Table cards*: the round's cards as a PDF the browser saves (codes issued if needed)."""

        async def save() -> None:
            pdf: list[bytes | None] = [None]

            def make() -> None:
                pdf[0] = self.desk.cards()

            self.tap(make)()
            if pdf[0] is not None and not self.guard.dead:
                number = self.desk.round.number if self.desk.round is not None else 0
                name = f"event-{self.desk.event_id}-round-{number}-table-cards.pdf"
                await ft.FilePicker().save_file(file_name=name, src_bytes=pdf[0])

        return save

    def draw(self) -> None:
        """Redraw the desk as it stands (at the next turn of the page's event loop)."""
        if self.bump is not None:
            self.bump()
