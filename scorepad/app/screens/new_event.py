"""``/event/new``: the form that creates a tournament event, drawn from the flet-free ``Creation``.

Phone first: one column that scrolls, every field labelled, 48 px buttons.
A text field keeps what is typed in the view-model as it is typed, and the
component redraws only for a choice, Create, or the first key after a refusal
of Create (which drops the refusal); a redraw patches what changed,
so the field being typed in keeps its focus. The page shell
(``shell/event_pages.py``, ``CreatePage``) turns taps into guarded acts and
hands the page to the director's desk once the event exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.models.tournament import Creation, kind_words, pairing_words
from scorepad.app.screens.common import (
    PasswordField,
    button,
    framed,
    heading,
    ident,
    message_line,
    note,
    with_theme,
    wrap_row,
)
from scorepad.app.screens.home import Act, option_controls, preset_buttons


@ft.component
def NewEventScreen(
    creation: Creation,
    act: Act,
    create: Callable[[], None],
    listen: Callable[[Callable[[], None]], None],
    dead: Callable[[], ft.Control | None],
) -> ft.Control:
    """The form as ``creation`` stands; ``act(fn, *args)`` makes a tap, ``create`` is Create's act."""
    _draws, set_draws = ft.use_state(0)
    listen(lambda: set_draws(lambda n: n + 1))
    gone = dead()
    if gone is not None:
        return gone
    c, form = creation, creation.form
    unit = form.unit

    def target(text: str) -> None:
        form.match.target = text

    def typed(key: str) -> Callable[[str], None]:
        def changed(text: str) -> None:
            if c.enter(key, text):
                set_draws(lambda n: n + 1)  # the refusal the form is being mended for goes

        return changed

    return framed(
        [
            with_theme(heading("A new event", size=20)),
            _text(c, "name", "Event name", typed("name")),
            heading("Rules"),
            preset_buttons(form.match.rules, act, c.choose_rules),
            wrap_row(option_controls(form.match, act, target, partners_switch=False)),
            note(c.summary(), identifier="rules-summary", size=13),
            heading("Kind"),
            _choices(act, "kind", c.kinds(), form.kind, kind_words, c.choose_kind),
            heading("Rounds"),
            _text(c, "rounds", "Number of rounds", typed("rounds"), width=200, number=True),
            _choices(act, "unit", c.units(), unit, lambda u: f"Rounds of {u}", c.choose_unit),
            _text(c, "per_round", f"{unit.capitalize()} a round", typed("per_round"), width=200, number=True),
            heading("Pairing"),
            _choices(act, "pairing", c.pairings(), form.pairing, pairing_words, c.choose_pairing),
            note(c.pairing_help(), size=13),
            _text(c, "bye_points", "Bye points (blank: the usual)", typed("bye_points"), width=260, number=True),
            heading(c.password_words()),
            PasswordField("password", "Password", c.form.password, typed("password"), width=300),
            PasswordField("again", "The password again", c.form.again, typed("again"), width=300),
            # A refusal of Create stands just above it, where the thumb is; it goes (nothing above it
            # moving) once a field is typed in again.
            message_line(c.message, "create-message"),
            button("create-event", "Create the event", create, kind="filled", expand=False),
        ]
    )


def _text(
    creation: Creation, key: str, label: str, typed: Callable[[str], None], *, width: int = 300, number: bool = False
) -> ft.Control:
    """A labelled field of the form: what is typed goes to ``typed`` (the view-model) at once.

    The form is drawn again only when that drops a refusal of Create.
    """

    def changed(e: Any) -> None:
        typed(e.control.value or "")

    return ident(
        key.replace("_", "-"),
        ft.TextField(
            label=label,
            value=getattr(creation.form, key),
            width=width,
            keyboard_type=ft.KeyboardType.NUMBER if number else ft.KeyboardType.TEXT,
            on_change=changed,
        ),
    )


def _choices(
    act: Act, prefix: str, options: list[str], chosen: str, words: Callable[[str], str], pick: Callable[[str], Any]
) -> ft.Row:
    """One button an option, the chosen one filled."""
    return wrap_row(
        [
            button(
                f"{prefix}-{option}",
                words(option),
                act(pick, option),
                kind="filled" if option == chosen else "outlined",
                expand=False,
            )
            for option in options
        ]
    )
