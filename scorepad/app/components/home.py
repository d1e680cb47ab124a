"""The home screen (new match, resume, history), the new-match form and the history list."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.components.common import TOUCH, button, card, heading, ident, note, tappable, tile_face, wrap_row
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


def draw_helper(pad: ScorePad, act: Act) -> list[ft.Control]:
    """The optional helper that asks the engine who sets first: its button, and when open its fields."""
    draw = pad.form.draw
    toggle = button(
        "draw-for-set",
        pad.draw_title(),
        act(pad.toggle_draw),
        icon=ft.Icons.CASINO,
        kind="filled" if draw.open else "outlined",
    )
    if not draw.open:
        return [toggle]
    jaques = pad.form.rules == "jaques"
    rows: list[ft.Control] = [toggle, ft.Text(pad.draw_how(), size=13)]
    for seat, name in enumerate(pad.form.seated()):
        tapping = draw.picking == seat
        field = ident(
            f"drawn-{seat}",
            ft.TextField(
                label=f"{name}'s {'double or heaviest tile' if jaques else 'tile'} (e.g. 6-4)",
                value=draw.tiles[seat],
                width=230,
                on_change=lambda e, s=seat: act(pad.enter_drawn, s, e.control.value or "")(),
            ),
        )
        tap = button(
            f"drawn-tiles-{seat}",
            "Done" if tapping else "Tap the tile",
            act(pad.pick_drawn_seat, None if tapping else seat),
            kind="filled" if tapping else "outlined",
        )
        rows.append(wrap_row([field, tap]))
    if draw.picking is not None:
        rows.append(_drawn_picker(pad, act))
    rows.append(button("draw-decide", "Who sets first?", act(pad.decide_first_setter), kind="tonal"))
    if draw.error:
        rows.append(note(draw.error, identifier="draw-error", size=13, color=ft.Colors.ERROR))
    if draw.result:
        rows.append(note(draw.result, identifier="draw-result", size=13))
    return rows


def _drawn_picker(pad: ScorePad, act: Act) -> ft.Control:
    """Every tile of the set: tap the one the picking seat drew."""
    draw = pad.form.draw
    assert draw.picking is not None
    entered = {t.strip() for t in draw.tiles[: pad.form.players]}
    size = 18 if pad.form.max_pip == 6 else 15
    keys: list[ft.Control] = []
    for low, high in pad.drawn_tiles():
        name = f"{low}-{high}"
        chosen = name in entered or f"{high}-{low}" in entered
        keys.append(
            tappable(
                f"drawn-tile-{name}",
                ft.Container(
                    content=tile_face(low, high, flat=False, size=size, label=None),
                    width=TOUCH,
                    height=max(TOUCH, 2 * size + 8),
                    alignment=ft.Alignment.CENTER,
                    border=ft.Border.all(3, ft.Colors.PRIMARY) if chosen else None,
                    border_radius=8,
                    on_click=lambda _e, a=low, b=high: act(pad.tap_drawn_tile, a, b)(),
                    ink=True,
                ),
                label=f"tile {name}{', entered' if chosen else ''}",
            )
        )
    who = pad.form.seated()[draw.picking]
    return ft.Column([ft.Text(f"Tap the tile {who} drew", size=13), wrap_row(keys, spacing=4)], tight=True)


def new_match_screen(
    pad: ScorePad,
    act: Act,
    on_name: Callable[[int, str], None],
    on_target: Callable[[str], None],
    header: ft.Control,
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
                    "Jaques: the highest double in the hands dealt leads (else the heaviest tile)."
                    if form.rules == "jaques"
                    else "Smartt §3.1: each player draws a tile; the higher total sets "
                    "(a tie goes to the higher single value, else draw again).",
                    size=12,
                ),
                *draw_helper(pad, act),
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
