"""A spectator's page (``/event/ID/watch/T``): one table, tile by tile, as it stood ``delay`` seconds ago.

Drawn from the flet-free ``Watch`` view-model; the page shell (``WatchPage``)
follows the table's match and asks for a redraw through ``listen`` when an
entry is due to be shown.
"""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorepad.app.models.tournament import Watch
from scorepad.app.screens.common import framed, note, with_theme


@ft.component
def WatchScreen(
    watch: Watch,
    listen: Callable[[Callable[[], None]], None],
    dead: Callable[[], ft.Control | None],
) -> ft.Control:
    """The table as ``watch`` shows it now; ``listen`` receives the redraw, ``dead`` gives a dead page's view."""
    _draws, set_draws = ft.use_state(0)
    listen(lambda: set_draws(lambda n: n + 1))
    gone = dead()
    if gone is not None:
        return gone
    return framed(
        [
            with_theme(note(watch.title(), identifier="watch-title", size=20)),
            note("\n".join(watch.lines()), identifier="watch-lines", size=15),
        ]
    )
