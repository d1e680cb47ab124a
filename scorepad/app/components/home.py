"""The home screen (new match, resume, history), the new-match form and the history list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.components.common import button, card, heading, ident, note, wrap_row
from scorepad.app.components.table_screen import message_bar
from scorepad.app.state import ScorePad

Act = Callable[..., Callable[[], None]]
RULES_WORDS = {"smartt": "Smartt", "american": "American", "jaques": "Jaques"}


def _summary_words(summary: Any) -> str:
    players = ", ".join(getattr(summary, "players", []) or [])
    rules = getattr(summary, "rules", "")
    started = getattr(summary, "started", "")
    started = started.strftime("%d %b %Y %H:%M") if hasattr(started, "strftime") else str(started)
    scores = getattr(summary, "scores", None)
    scores_words = f" · scores {'-'.join(str(s) for s in scores)}" if scores else ""
    status = getattr(summary, "status", "")
    return f"{players} · {rules} · {started} · {status}{scores_words}"


def home_screen(pad: ScorePad, act: Act, header: ft.Control) -> ft.Control:
    """New match, resume the latest unfinished match, and history."""
    latest = pad.latest_unfinished()
    resume_words = f"Resume: {_summary_words(latest)}" if latest else "Nothing to resume yet"
    return ft.Column(
        [
            header,
            message_bar(pad.message) or ft.Container(),
            card(
                heading("Sniff at the table", size=20),
                ft.Text(
                    "Enter each tile as it is laid: the score-pad keeps the count, the Sniff, "
                    "the calls, the draws and the settlement.",
                    size=14,
                ),
                button("new-match", "New match", act(pad.new_match), icon=ft.Icons.ADD, kind="filled"),
                button(
                    "resume-latest",
                    "Resume latest",
                    act(pad.resume_latest),
                    icon=ft.Icons.PLAY_ARROW,
                    disabled=latest is None,
                ),
                ft.Text(resume_words, size=13),
                button("history", "History", act(pad.show_history), icon=ft.Icons.HISTORY, kind="outlined"),
            ),
        ],
        spacing=12,
    )


def new_match_screen(
    pad: ScorePad, act: Act, on_name: Callable[[int, str], None], on_target: Callable[[str], None], header: ft.Control
) -> ft.Control:
    """Rules, players and names, who sets first, options; Start works at once with the defaults."""
    form = pad.form
    rules_row = wrap_row(
        [
            button(
                f"rules-{name}", words, act(pad.choose_rules, name), kind="filled" if form.rules == name else "outlined"
            )
            for name, words in RULES_WORDS.items()
        ]
    )
    players_row = wrap_row(
        [
            button(
                f"players-{n}",
                f"{n} players",
                act(pad.choose_players, n),
                kind="filled" if form.players == n else "outlined",
            )
            for n in (2, 3, 4)
        ]
    )
    names = [
        ident(
            f"name-{seat}",
            ft.TextField(
                label=f"Seat {seat}",
                value=form.names[seat],
                width=170,
                on_change=lambda e, s=seat: on_name(s, e.control.value or ""),
            ),
        )
        for seat in range(form.players)
    ]
    setters = wrap_row(
        [
            button(
                f"first-setter-{seat}",
                form.seated()[seat],
                act(pad.choose_setter, seat),
                kind="filled" if form.setter == seat else "outlined",
            )
            for seat in range(form.players)
        ]
    )
    options: list[ft.Control] = [
        ident(
            "target",
            ft.TextField(
                label="Target (blank: the preset's)",
                value=form.target,
                width=230,
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=lambda e: on_target(e.control.value or ""),
            ),
        ),
        ident(
            "muggins",
            ft.Switch(
                label="Muggins",
                value=form.muggins,
                on_change=lambda e: act(setattr, form, "muggins", bool(e.control.value))(),
            ),
        ),
        ident(
            "double-nine",
            ft.Switch(
                label="Double-nine set",
                value=form.double_nine,
                on_change=lambda e: act(setattr, form, "double_nine", bool(e.control.value))(),
            ),
        ),
    ]
    if form.players == 4:
        partners = form.partners if form.partners is not None else form.rules != "jaques"
        options.append(
            ident(
                "partners",
                ft.Switch(
                    label="Partners (seats 0 & 2 against 1 & 3)",
                    value=partners,
                    on_change=lambda e: act(setattr, form, "partners", bool(e.control.value))(),
                ),
            )
        )
    return ft.Column(
        [
            header,
            message_bar(pad.message) or ft.Container(),
            card(heading("Rules"), rules_row),
            card(heading("Players"), players_row, wrap_row(names)),
            card(
                heading("Who sets the first hand"),
                setters,
                ft.Text(
                    "Smartt §3.1: each player draws a tile; the higher total sets "
                    "(a tie goes to the higher single value, else draw again).",
                    size=12,
                ),
            ),
            card(heading("Options"), wrap_row(options)),
            note(form.describe(), identifier="rules-summary", size=13),
            button("start-match", "Start", act(pad.start_match), icon=ft.Icons.PLAY_ARROW, kind="filled"),
        ],
        spacing=12,
    )


def history_screen(pad: ScorePad, act: Act, header: ft.Control) -> ft.Control:
    """Every match in the store, newest first; tap one to open it."""
    rows: list[ft.Control] = []
    for summary in pad.matches():
        rows.append(
            ft.Row(
                [
                    ft.Text(_summary_words(summary), size=13, expand=True),
                    button(f"open-{summary.id}", "Open", act(pad.open_match, summary.id), kind="outlined"),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if not rows:
        rows.append(ft.Text("No matches yet.", italic=True))
    return ft.Column([header, card(heading("History"), *rows)], spacing=12)
