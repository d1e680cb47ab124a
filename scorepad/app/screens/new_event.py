"""``/event/new``: the form that creates a tournament event, drawn from the flet-free ``Creation``.

Phone first: one column that scrolls, every field labelled, 48 px buttons.
A text field keeps what is typed in the view-model as it is typed, and the
component redraws only for a choice or Create; a redraw patches what changed,
so the field being typed in keeps its focus. The page shell
(``shell/event_pages.py``, ``CreatePage``) turns taps into guarded acts and
hands the page to the director's desk once the event exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.models.tournament import Creation, kind_words, pairing_words
from scorepad.app.screens.common import PasswordField, button, framed, heading, ident, message_line, note, wrap_row
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

    return framed(
        [
            heading("A new event", size=20),
            message_line(c.message),
            _text(c, "name", "Event name"),
            heading("Rules"),
            preset_buttons(form.match.rules, act, c.choose_rules),
            wrap_row(option_controls(form.match, act, target, partners_switch=False)),
            note(c.summary(), identifier="rules-summary", size=13),
            heading("Kind"),
            _choices(act, "kind", c.kinds(), form.kind, kind_words, c.choose_kind),
            heading("Rounds"),
            _text(c, "rounds", "Number of rounds", width=200, number=True),
            _choices(act, "unit", c.units(), unit, lambda u: f"Rounds of {u}", c.choose_unit),
            _text(c, "per_round", f"{unit.capitalize()} a round", width=200, number=True),
            heading("Pairing"),
            _choices(act, "pairing", c.pairings(), form.pairing, pairing_words, c.choose_pairing),
            note(c.pairing_help(), size=13),
            _text(c, "bye_points", "Bye points (blank: the usual)", width=260, number=True),
            heading(c.password_words()),
            PasswordField("password", "Password", c.form.password, lambda v: c.enter("password", v), width=300),
            PasswordField("again", "The password again", c.form.again, lambda v: c.enter("again", v), width=300),
            button("create-event", "Create the event", create, kind="filled", expand=False),
            message_line(c.message, "create-message"),
        ]
    )


def _text(creation: Creation, key: str, label: str, *, width: int = 300, number: bool = False) -> ft.Control:
    """A labelled field of the form: what is typed goes to the view-model at once, with no redraw."""

    def changed(e: Any) -> None:
        creation.enter(key, e.control.value or "")

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
