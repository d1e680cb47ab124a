"""Small building blocks: labelled controls with stable identifiers, tile faces, cards.

Every control a player or a test needs is wrapped in ``ft.Semantics`` with a
stable ``identifier`` (``flt-semantics-identifier`` in the page) and carries a
readable label; touch targets are at least 48 px.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, overload

import flet as ft

from scorepad.app.models.faces import face_src

TOUCH = 48
COMPACT_PAD = 4  # a compact button's side padding: "Drew 2+" wrapped with 6 on a phone held sideways
SNUG_PAD = 12  # a snug button's: its words clear of its outline, three to a row in the narrowest column
Handler = Callable[[], None]
C = TypeVar("C", bound=ft.Control)


def ident(identifier: str, control: ft.Control, *, label: str | None = None) -> ft.Semantics:
    """Give ``control`` a stable identifier (and optionally a label) for tests and screen readers."""
    return ft.Semantics(identifier=identifier, label=label, content=control)


@overload
def keyed(control: C, key: str) -> C: ...
@overload
def keyed(control: None, key: str) -> None: ...
@overload
def keyed(control: C | None, key: str) -> C | None: ...
def keyed(control: C | None, key: str) -> C | None:
    """``control`` (if any) keyed, so Flet pairs it with the one drawn last however the items
    before it in its list come and go: it is updated in place, never rebuilt (a field in it
    keeps its focus, and nothing it holds is sent again)."""
    if control is not None:
        control.key = key
    return control


def tappable(identifier: str, control: ft.Control, *, label: str | None = None, frame: int | None = None) -> ft.Control:
    """Identify a control that does something, so the identifier sits on its own button node.

    Without the merge, the identifier would sit on a wrapper around the button
    and a click sent to the identified element (as a screen reader does) would
    not press it. With ``frame`` (the revision of what the screen shows)
    ``control``, which holds the tap's handler, is a new one on every revision:
    a tap the page sent before it had drawn the new revision (the second tap
    of a double tap) then finds no control and is dropped. Only ``control`` is
    new: Flet (1.0.5) replaces a single child whose ``key`` changed, so the
    wrappers around it, keyed by ``identifier`` alone, are the same controls
    from one revision to the next and cost Flet little to compare, where a
    new control costs it every one of its fields (set up, sent, drawn).
    """
    if frame is not None:
        control.key = f"{identifier}@{frame}"
    return ft.MergeSemantics(
        key=identifier if frame is not None else None,
        content=ft.Semantics(identifier=identifier, label=label, button=True, content=control),
    )


def button(
    identifier: str,
    text: str,
    on_tap: Handler,
    *,
    icon: Any = None,
    kind: str = "tonal",
    disabled: bool = False,
    tooltip: str | None = None,
    width: float | None = None,
    compact: bool = False,
    snug: bool = False,
    expand: bool | None = None,
    frame: int | None = None,
) -> ft.Control:
    """A labelled button at least 48 px high, identified by ``identifier``.

    ``compact`` trims the side padding so a row of five fits a phone; a compact
    button fills its share of the row unless ``expand`` is False. ``snug`` trims
    it less (a row of three). ``frame``: see ``tappable``.
    """
    make = {
        "filled": ft.FilledButton,
        "tonal": ft.FilledTonalButton,
        "outlined": ft.OutlinedButton,
        "text": ft.TextButton,
    }[kind]
    control = make(
        content=text,
        icon=icon,
        on_click=lambda _e: on_tap(),
        disabled=disabled,
        height=TOUCH,
        width=width,
        tooltip=tooltip,
        style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=COMPACT_PAD if compact else SNUG_PAD))
        if compact or snug
        else None,
        expand=compact if expand is None else expand,
    )
    return tappable(identifier, control, frame=frame)


def icon_button(identifier: str, icon: Any, label: str, on_tap: Handler) -> ft.Control:
    """A 48 px icon button named by ``label`` (its tooltip, which a screen reader reads too).

    A label of its own beside the tooltip would be read out twice ("Dark theme Dark theme").
    """
    return tappable(
        identifier,
        ft.IconButton(icon=icon, tooltip=label, on_click=lambda _e: on_tap(), width=TOUCH, height=TOUCH),
    )


@ft.component
def ThemeButton() -> ft.Control:
    """The light/dark switch of a page's header: it starts from the page's theme (the phone's own, until switched)."""
    page = ft.context.page
    mode = page.theme_mode
    starts_dark = mode == ft.ThemeMode.DARK or (
        mode in (None, ft.ThemeMode.SYSTEM) and page.platform_brightness == ft.Brightness.DARK
    )
    dark, set_dark = ft.use_state(starts_dark)

    def toggle() -> None:
        page.theme_mode = ft.ThemeMode.LIGHT if dark else ft.ThemeMode.DARK
        set_dark(not dark)
        page.update()

    label = "Light theme" if dark else "Dark theme"
    return icon_button("theme", ft.Icons.LIGHT_MODE if dark else ft.Icons.DARK_MODE, label, toggle)


def with_theme(first_line: ft.Control) -> ft.Control:
    """A page's first line (its title) with the theme switch at its end."""
    return ft.Row(
        [ft.Container(content=first_line, expand=True), ThemeButton()],
        spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


@ft.component
def PasswordField(
    identifier: str, label: str, value: str, changed: Callable[[str], None], *, width: float | None = None
) -> ft.Control:
    """A password field with its own Show/Hide button, named and 48 px (Flet's own eye is 40 px and unnamed).

    What is typed is kept here as well as handed to ``changed``: showing it redraws the
    field, which would otherwise be sent back to the ``value`` it was first drawn with.
    """
    shown, set_shown = ft.use_state(False)
    typed: ft.MutableRef[str | None] = ft.use_ref(None)

    def on_change(e: Any) -> None:
        typed.current = e.control.value or ""
        changed(typed.current)

    reveal = icon_button(
        f"{identifier}-show",
        ft.Icons.VISIBILITY_OFF if shown else ft.Icons.VISIBILITY,
        "Hide the password" if shown else "Show the password",
        lambda: set_shown(not shown),
    )
    return ident(
        identifier,
        ft.TextField(
            label=label,
            value=typed.current if typed.current is not None else value,
            width=width,
            password=not shown,
            suffix_icon=reveal,
            on_change=on_change,
        ),
    )


def tile_face(a: int, b: int, *, flat: bool, size: float, label: str | None = "") -> ft.Image:
    """The picture of tile ``a-b``; ``size`` is its short side in pixels.

    ``label`` is what a screen reader says (``""``: "tile a-b"; None: nothing,
    when the control around the picture already says it).
    """
    width, height = (2 * size, size) if flat else (size, 2 * size)
    return ft.Image(
        src=face_src(a, b, flat=flat),
        width=width,
        height=height,
        semantics_label=(label or f"tile {a}-{b}") if label is not None else None,
    )


def card(*controls: ft.Control, padding: int = 12, spacing: int = 8) -> ft.Container:
    """A rounded panel holding ``controls`` in a column."""
    return ft.Container(
        content=ft.Column(list(controls), spacing=spacing, tight=True),
        padding=padding,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
    )


def heading(text: str, *, size: int = 14) -> ft.Text:
    """A small bold heading."""
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)


def note(text: str, *, identifier: str | None = None, size: int = 14, color: Any = None) -> ft.Control:
    """A line of text, optionally identified (its text is then what a test reads)."""
    control = ft.Text(text, size=size, color=color, selectable=False)
    return ident(identifier, control) if identifier else control


def wrap_row(controls: Sequence[ft.Control], *, spacing: int = 8) -> ft.Row:
    """A row that wraps onto more lines instead of overflowing."""
    return ft.Row(list(controls), wrap=True, spacing=spacing, run_spacing=spacing)


def framed(controls: list[ft.Control | None]) -> ft.Control:
    """A page's controls in one padded column that scrolls (``None`` left out): the tournament's phone pages."""
    return ft.SafeArea(
        content=ft.Column(
            [ft.Container(content=ft.Column([c for c in controls if c is not None], spacing=10), padding=16)],
            scroll=ft.ScrollMode.AUTO,
            expand=True,
        ),
        expand=True,
    )


def message_line(text: str | None, identifier: str = "message") -> ft.Control | None:
    """A page's last sentence (a refusal, what a tap did), in the primary colour; None when there is none."""
    return note(text, identifier=identifier, size=15, color=ft.Colors.PRIMARY) if text else None
