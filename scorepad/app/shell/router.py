"""The one router: every address the app serves, in one table, matched with Flet's ``TemplateRoute``.

Each address names its shell and its page: the score-pad's pages (home, a
new match, History, a match, its sheet, a dispute) are drawn by the
score-pad's shell (``shell/page.py``), the tournament's by theirs
(``shell/event_pages.py``, ``director.py``, ``audit_page.py``). A page
whose address changes while it is open (a route change: Back, a link) asks
the same table. What an address's numbers mean (an event or a match that
exists) is for the page's view-model to say; the router only sorts
addresses. An address in no template goes to the score-pad's home screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import flet as ft

from scorepad.app.models.state import ScorePad


class Shell(Enum):
    """Which shell draws a page."""

    PAD = "the score-pad"
    EVENT = "the tournament"


@dataclass(frozen=True)
class Route:
    """Where an address goes: its shell, its page, and its named parts (``:event`` -> ``("event", "12")``)."""

    shell: Shell
    page: str
    parts: tuple[tuple[str, str], ...] = ()

    def part(self, name: str) -> str | None:
        """The text of the address's part ``name`` (``event``, ``id``, ``table``), None if it has none."""
        return dict(self.parts).get(name)


# Every address, most specific first: (template, shell, page).
ROUTES: tuple[tuple[str, Shell, str], ...] = (
    ("/", Shell.PAD, "home"),
    ("/new", Shell.PAD, "new"),
    ("/history", Shell.PAD, "history"),
    ("/match/:id/sheet", Shell.PAD, "sheet"),
    ("/match/:id", Shell.PAD, "match"),
    ("/dispute/:id", Shell.PAD, "dispute"),
    ("/event/new", Shell.EVENT, "new-event"),
    ("/event/:event/director", Shell.EVENT, "director"),
    ("/event/:event/table", Shell.EVENT, "table"),
    ("/event/:event/hall", Shell.EVENT, "hall"),
    ("/event/:event/watch/:table", Shell.EVENT, "watch"),
    ("/event/:event/audit/:table", Shell.EVENT, "audit"),
    ("/event/:event/audit", Shell.EVENT, "audit"),
)
# The named parts a template may have (``id``, not ``match``: ``TemplateRoute.match`` is its method).
_NAMES = ("event", "id", "table")


def resolve(address: str | None) -> Route:
    """Where ``address`` (a page's route, its query string aside) goes; the score-pad's home if nowhere."""
    path = (address or "/").split("?", 1)[0].split("#", 1)[0] or "/"
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    matcher = ft.TemplateRoute(path)
    for template, shell, page in ROUTES:
        if matcher.match(template):
            found = ((name, getattr(matcher, name, None)) for name in _NAMES if f":{name}" in template)
            return Route(shell, page, tuple((name, str(value)) for name, value in found if value is not None))
    return Route(Shell.PAD, "home")


def is_event_route(address: str | None) -> bool:
    """Whether the tournament's shell draws ``address`` (``/event/new`` included)."""
    return resolve(address).shell is Shell.EVENT


def open_pad_route(pad: ScorePad, address: str | None) -> None:
    """Show on ``pad`` the score-pad's page at ``address`` (its home for an address of no page of its own)."""
    where = resolve(address)
    pad.show(where.page if where.shell is Shell.PAD else "home", where.part("id"))
