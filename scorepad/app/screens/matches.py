"""The match's own details on the score sheet: its table label, and the players renamed after Start."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import flet as ft

from scorepad.app.models.state import ScorePad
from scorepad.app.screens.common import button, card, heading, ident, wrap_row
from scorepad.app.screens.table_screen import message_bar

Act = Callable[..., Callable[[], None]]
log = logging.getLogger("scorepad.app")
STORAGE_TIMEOUT = 10  # seconds for the browser to answer a storage request


def match_details(pad: ScorePad, act: Act) -> ft.Control | None:
    """The label field (``match-label``) and a name field per seat (``rename-S``), each saved on Enter or Save."""
    table, book = pad.table, pad.book
    if table is None:
        return None

    def set_label(text: str) -> None:
        book.label_draft = text

    def set_name(seat: int, text: str) -> None:
        book.name_drafts[seat] = text

    label = ident(
        "match-label",
        ft.TextField(
            label="Table name or number",
            value=book.label_of(table.match_id),
            width=240,
            max_length=40,
            on_change=lambda e: act(set_label, e.control.value or "")(),
            on_submit=lambda _e: act(book.save_label, table)(),
        ),
    )
    names = [
        ident(
            f"rename-{seat}",
            ft.TextField(
                label=f"Player {seat + 1}",
                value=book.name_of(table, seat),
                width=170,
                max_length=40,
                on_change=lambda e, s=seat: act(set_name, s, e.control.value or "")(),
                on_submit=lambda _e: act(book.save_names, table)(),
            ),
        )
        for seat in range(table.rules.players)
    ]
    return card(
        heading("This match"),
        message_bar(book.message or book.notice, notice=not book.message) or ft.Container(),
        wrap_row([label, button("save-label", "Save label", act(book.save_label, table), kind="tonal")]),
        ft.Text("A name mistyped at the start can be put right here; the hands played stay as they are.", size=13),
        wrap_row(names),
        button("save-names", "Save names", act(book.save_names, table), kind="tonal"),
    )


DEVICE_MATCH_KEY = "scorepad.device-match"  # the browser's storage: this device's last match


def remember_device_match(page: ft.Page, pad: ScorePad, redraw: Callable[[], None]) -> None:
    """Keep this device's last match in the browser's storage (Flet's ``SharedPreferences``).

    On load the stored id is handed to ``pad.book`` (Resume opens it, never
    another table's match); every match opened on this page is stored. A
    browser that does not answer leaves Resume with nothing to offer.
    """
    prefs = ft.SharedPreferences()

    async def load() -> None:
        try:
            value = await asyncio.wait_for(prefs.get(DEVICE_MATCH_KEY), timeout=STORAGE_TIMEOUT)
        except Exception as err:  # a browser without storage: nothing to resume
            log.info("no device match from the browser's storage: %r", err)
            return
        if pad.book.remembered is None:  # a match opened meanwhile is the newer answer
            pad.book.remember(value)
            redraw()

    def save(match_id: object) -> None:
        async def write() -> None:
            try:
                await asyncio.wait_for(prefs.set(DEVICE_MATCH_KEY, str(match_id)), timeout=STORAGE_TIMEOUT)
            except Exception as err:  # the page went away, or storage is refused
                log.info("the browser did not keep the device match: %r", err)

        page.run_task(write)

    # The closure keeps the service referenced (Flet drops services nothing refers to).
    pad.book.on_opened = save
    page.run_task(load)
