"""The home screen (new match, resume, history), the new-match form and the history list."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from scorepad.app.models.matchbook import ARCHIVE, DELETE, line_words
from scorepad.app.models.state import NewMatchForm, ScorePad
from scorepad.app.screens.common import TOUCH, button, card, heading, ident, note, tappable, tile_face, wrap_row
from scorepad.app.screens.dispute import dispute_button, record_file_button
from scorepad.app.screens.table_screen import message_bar
from scorepad.rules.first_setter import METHOD_WORDS
from scorepad.rules.presets import PRESETS, Topic, find_preset, renege_choices
from scorepad.rules.wording import sentence
from scorepad.store import DatabaseUnavailable

Act = Callable[..., Callable[[], None]]


def home_screen(
    pad: ScorePad, act: Act, header: ft.Control, *, new_event: Callable[[], None] | None = None
) -> ft.Control:
    """New match, resume this device's last match, and history; with ``new_event``, the New event button."""
    said = pad.message
    try:
        latest = pad.book.resumable()
        resume_words = f"Resume: {line_words(latest)}" if latest else "Nothing to resume on this device yet"
    except DatabaseUnavailable as err:
        # The home screen is where a page goes during an outage: it must draw without the database.
        latest, resume_words = None, "This device's last match can be resumed once the database is back"
        said = said or sentence(str(err))
    return ft.Column(
        [
            header,
            message_bar(said) or ft.Container(),
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
                note(resume_words, identifier="resume-words", size=13),
                button("history", "History", act(pad.show_history), icon=ft.Icons.HISTORY, kind="outlined"),
            ),
            _events_card(new_event) if new_event is not None else ft.Container(),
        ],
        spacing=12,
    )


def _events_card(new_event: Callable[[], None]) -> ft.Control:
    """A tournament: the button that turns this page into the one that creates an event (``/event/new``)."""
    return card(
        heading("A tournament", size=20),
        ft.Text("Run a day of Sniff: pairings, a phone at each table, a hall screen, standings.", size=14),
        button("new-event", "New event", new_event, icon=ft.Icons.EMOJI_EVENTS, kind="outlined"),
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
    method = METHOD_WORDS[find_preset(pad.form.rules).first_setter]
    rows: list[ft.Control] = [toggle, ft.Text(pad.draw_how(), size=13)]
    for seat, name in enumerate(pad.form.seated()):
        tapping = draw.picking == seat
        field = ident(
            f"drawn-{seat}",
            ft.TextField(
                # One line, cut if a name is long: a label that wrapped rose over the button above
                # (issue 19). Narrow enough that the field and its Tap the tile share a line at 360 px.
                label=ft.Text(f"{name}'s {method.field}", max_lines=1, overflow=ft.TextOverflow.ELLIPSIS),
                hint_text="e.g. 6-4",
                value=draw.tiles[seat],
                width=160,
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
    rules_row = preset_buttons(form.rules, act, pad.choose_rules)
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
                label=f"Player {seat + 1}",
                value=form.names[seat],
                width=170,
                max_length=40,
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
    options = option_controls(form, act, on_target)
    form_parts = ft.Column(
        [
            header,
            card(heading("Rules"), rules_row),
            card(heading("Players"), players_row, wrap_row(names)),
            card(
                heading("Table"),
                ident(
                    "match-label",
                    ft.TextField(
                        # A short label and the rest as help under the field: a long label wraps onto the border.
                        label="Table name or number",
                        helper="Optional",
                        value=form.label,
                        width=260,
                        max_length=40,
                        on_change=lambda e: act(setattr, form, "label", e.control.value or "")(),
                    ),
                ),
            ),
            card(
                heading("Who sets the first hand"),
                setters,
                ft.Text(_first_setter_words(form.rules), size=13),
                *draw_helper(pad, act),
            ),
            card(heading("Options"), wrap_row(options)),
        ],
        spacing=12,
        scroll=ft.ScrollMode.AUTO,
        expand=True,
    )
    # The form (its header too) scrolls above Start, which stays at the thumb: the defaults start
    # at once, without scrolling past every option first (two screens of them on a phone).
    return ft.Column(
        [
            form_parts,
            note(form.describe(), identifier="rules-summary", size=13),
            # Start's refusal (two players alike, say) right above Start, where the thumb is: at the
            # top of a long form it was off screen and the tap seemed to do nothing (issue 19).
            message_bar(pad.message) or ft.Container(),
            button("start-match", "Start", act(pad.start_match), icon=ft.Icons.PLAY_ARROW, kind="filled"),
        ],
        spacing=8,
        expand=True,
    )


def preset_buttons(chosen: str, act: Act, choose: Callable[[str], None]) -> ft.Row:
    """One button per rule preset of the engine's registry; ``chosen`` is filled."""
    return wrap_row(
        [
            button(f"rules-{name}", preset.short, act(choose, name), kind="filled" if chosen == name else "outlined")
            for name, preset in PRESETS.items()
        ]
    )


def option_controls(
    form: NewMatchForm, act: Act, on_target: Callable[[str], None], *, partners_switch: bool = True
) -> list[ft.Control]:
    """The preset's options as controls (target, the renege procedure, muggins, double-nine, partners for four).

    Shared by the New match screen and the page that creates an event
    (which leaves out the partners switch: there the event's kind decides).
    """
    options: list[ft.Control] = [
        ident(
            "target",
            ft.TextField(
                label="Target",
                helper=f"Blank: the book's, {form.book_target()}",
                value=form.target,
                width=230,
                keyboard_type=ft.KeyboardType.NUMBER,
                on_change=lambda e: on_target(e.control.value or ""),
            ),
        ),
        renege_control(form, act),
        ident(
            "muggins",
            ft.Switch(
                label="Muggins",
                height=TOUCH,
                value=form.muggins,
                on_change=lambda e: act(setattr, form, "muggins", bool(e.control.value))(),
            ),
        ),
        ident(
            "double-nine",
            ft.Switch(
                label="Double-nine set",
                height=TOUCH,
                value=form.double_nine,
                on_change=lambda e: act(setattr, form, "double_nine", bool(e.control.value))(),
            ),
        ),
    ]
    if partners_switch and form.players == 4:
        partners = form.partners if form.partners is not None else find_preset(form.rules).partners_default
        seated = form.seated()
        options.append(
            ident(
                "partners",
                ft.Switch(
                    label=f"Partners ({seated[0]} & {seated[2]} against {seated[1]} & {seated[3]})",
                    height=TOUCH,
                    value=partners,
                    on_change=lambda e: act(setattr, form, "partners", bool(e.control.value))(),
                ),
            )
        )
    return options


def renege_control(form: NewMatchForm, act: Act) -> ft.Control:
    """The renege procedures the book allows (``presets.renege_choices``, Smartt §11.1), each explained in a line.

    ``renege-procedure`` holds one button per choice (``renege-procedure-rollback25``,
    ``renege-procedure-deduct50``, ``renege-procedure-none``); the chosen one is filled.
    """
    choices = renege_choices(find_preset(form.rules))
    chosen = form.renege if form.renege is not None else choices[0].value
    rows: list[ft.Control] = [note("When a player reneges:", size=13)]
    for choice in choices:
        rows.append(
            button(
                f"renege-procedure-{choice.value or 'none'}",
                choice.label,
                act(setattr, form, "renege", choice.value),
                kind="filled" if choice.value == chosen else "outlined",
                expand=False,
            )
        )
        rows.append(note(choice.explanation, size=12))
    return ident("renege-procedure", ft.Column(rows, spacing=2, tight=True))


def _first_setter_words(rules: str) -> str:
    """How the first setter is found under these rules, citing their own book (none where it is silent)."""
    preset = find_preset(rules)
    cite = preset.cite(Topic.FIRST_SETTER)
    how = METHOD_WORDS[preset.first_setter].rule
    return f"{cite}: {how}" if cite else f"The book leaves it to a draw: {how}"


def history_screen(pad: ScorePad, act: Act, header: ft.Control) -> ft.Control:
    """The matches of this score-pad, newest first, filtered by label, player and day; open, archive or delete."""
    book = pad.book
    filters = book.filters

    def field(name: str, label: str, width: int, hint: str | None = None) -> ft.Control:
        return ident(
            f"filter-{name}",
            ft.TextField(
                label=label,
                hint_text=hint,
                value=getattr(filters, name),
                width=width,
                # Not dense: a dense field is 40 px high, under the 48 px a finger needs.
                on_change=lambda e: act(book.set_filter, name, e.control.value or "")(),
            ),
        )

    lines = book.lines()
    filter_row = wrap_row(
        [
            field("label", "Label", 150),
            field("player", "Player", 150),
            field("since", "From day", 150, "2026-12-01"),
            field("until", "To day", 150, "2026-12-31"),
            button(
                "show-archived",
                "Archived" if not filters.archived else "Back to the others",
                act(book.toggle_archived),
                kind="filled" if filters.archived else "outlined",
                icon=ft.Icons.ARCHIVE,
            ),
            button(
                "show-trash",
                "Trash" if not filters.trash else "Back to the history",
                act(book.toggle_trash),
                kind="filled" if filters.trash else "outlined",
                icon=ft.Icons.DELETE_OUTLINE,
            ),
        ]
    )
    if filters.trash:
        return trash_screen(pad, act, header, filter_row)
    rows: list[ft.Control] = [heading("Archived matches" if filters.archived else "History"), filter_row]
    rows.append(record_file_button(pad, act))
    question = book.question()
    if question is not None:
        action, _match_id = book.asking or ("", 0)
        rows.append(
            ft.Container(
                content=ft.Column(
                    [
                        note(question, identifier="match-action-question", size=14),
                        wrap_row(
                            [
                                button(
                                    "confirm-match-action",
                                    "Delete" if action == DELETE else ("Bring back" if filters.archived else "Archive"),
                                    act(book.confirm),
                                    kind="filled",
                                ),
                                button("cancel-match-action", "Cancel", act(book.cancel), kind="text"),
                            ]
                        ),
                    ],
                    tight=True,
                ),
                bgcolor=ft.Colors.ERROR_CONTAINER if action == DELETE else ft.Colors.SECONDARY_CONTAINER,
                border_radius=8,
                padding=10,
            )
        )
    for line in lines:
        rows.append(
            ft.Column(
                [
                    note(line_words(line), identifier=f"match-{line.id}", size=13),
                    wrap_row(
                        [
                            button(f"open-{line.id}", "Open", act(pad.open_match, line.id), kind="outlined"),
                            dispute_button(pad, act, line.id),
                            button(
                                f"archive-{line.id}",
                                "Bring back" if line.archived else "Archive",
                                act(book.ask, ARCHIVE, line.id),
                                kind="text",
                            ),
                            button(f"delete-{line.id}", "Delete", act(book.ask, DELETE, line.id), kind="text"),
                        ],
                        spacing=4,
                    ),
                ],
                spacing=2,
                tight=True,
            )
        )
    if not lines:
        rows.append(ft.Text("No matches match these filters." if _filtered(pad) else "No matches yet.", italic=True))
    said = book.message or book.day_problem
    return ft.Column([header, message_bar(said) or ft.Container(), card(*rows)], spacing=12)


def trash_screen(pad: ScorePad, act: Act, header: ft.Control, filter_row: ft.Control) -> ft.Control:
    """The Trash: deleted matches, the latest first, each with Restore (the door says who may)."""
    book = pad.book
    rows: list[ft.Control] = [heading("Trash"), filter_row]
    for match in book.trashed():
        players = ", ".join(match.players)
        label = f" · {match.label}" if match.label else ""
        when = match.deleted_at.astimezone().strftime("%Y-%m-%d %H:%M")
        rows.append(
            ft.Column(
                [
                    note(f"{match.id}. {players}{label} · deleted {when}", identifier=f"trashed-{match.id}", size=13),
                    button(f"restore-{match.id}", "Restore", act(book.restore, match.id), kind="outlined"),
                ],
                spacing=2,
                tight=True,
            )
        )
    if len(rows) == 2:
        rows.append(ft.Text("The Trash is empty.", italic=True))
    return ft.Column([header, message_bar(book.message) or ft.Container(), card(*rows)], spacing=12)


def _filtered(pad: ScorePad) -> bool:
    f = pad.book.filters
    return bool(f.label.strip() or f.player.strip() or f.since.strip() or f.until.strip() or f.archived)
