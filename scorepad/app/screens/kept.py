"""Parts of a screen kept from one draw to the next while what they show has not changed.

Every tap redraws the whole screen, and Flet then compares the new controls
with the old ones, control by control, to find what to send. Most of the
table screen does not change with an entry (27 of the picker's 28 keys, say),
yet building it afresh and comparing it cost most of a tap's time on the
server. A part drawn again from the same inputs is therefore the very same
control object: Flet's comparison skips an identical object without looking
inside (``object_patch``: a frozen control compared with itself), so the part
costs nothing to draw or to compare.

A kept control is handed out again only while it is on the page (Flet's
index of mounted controls has it): after the screen left the table (the
score sheet, say) it is drawn afresh. The inputs must name everything the
part shows, and the layout that places it; the handlers inside it must read
what changes (the revision of a tap) when they run, not when they were made.
Flet pairs new controls with old ones by position (or by ``key`` in a list)
and hands the old one's identity to the new one: a kept control must sit
where it is paired with itself, so every list on its way up whose other
items come and go gives its ancestor there a ``key`` (the picker, the
details card).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import flet as ft

C = TypeVar("C", bound=ft.Control)


class KeptParts:
    """The parts a page drew last (its header; its table's keys and buttons), by name, with their inputs."""

    def __init__(self) -> None:
        self._parts: dict[Hashable, tuple[Hashable, ft.Control]] = {}

    def part(self, name: Hashable, inputs: Hashable, build: Callable[[], C]) -> C:
        """The control ``build()`` makes, or the one it made last time if ``inputs`` are equal and it is still shown."""
        kept = self._parts.get(name)
        if kept is not None and kept[0] == inputs and _shown(kept[1]):
            return kept[1]  # type: ignore[return-value]
        control = build()
        self._parts[name] = (inputs, control)
        return control


def _shown(control: ft.Control) -> bool:
    """Whether ``control`` is on the page being drawn now (mounted, in the page's index of controls)."""
    try:
        return ft.context.page.get_control(control._i) is control
    except RuntimeError:  # no page being drawn: nothing is shown
        return False


def kept_parts(table: Any, act: Any) -> KeptParts:
    """The kept parts of ``table``'s screen, drawn with the handlers of ``act``.

    They live on the page's ``Table`` (``Table.kept``), so they go when the
    page goes; a different ``act`` (the handlers inside the parts) starts afresh.
    """
    found = table.kept
    if not isinstance(found, tuple) or found[0] is not act:
        found = table.kept = (act, KeptParts())
    return found[1]
