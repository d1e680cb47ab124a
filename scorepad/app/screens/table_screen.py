"""The table screen: a compact sticky header, the tile picker by suit, the call row, then the rest.

Drawn entirely from the ``Table`` view-model; taps are forwarded to it.
On a phone (360x640 and up) the header (board count, scores, whose turn),
the whole picker, the call row and the entry buttons fit without scrolling;
the layout picture and the details are one swipe further down. Wide screens
put the picture and details beside the picker; a phone held sideways puts
the picker beside the call row.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

import flet as ft

from scorepad.app.models.table import GAME_OVER, HAND_OVER, NO_HAND, PLAY, SETTLE, Table, plural
from scorepad.app.models.views import TileKey
from scorepad.app.screens.common import (
    TOUCH,
    button,
    card,
    heading,
    ident,
    keyed,
    note,
    tappable,
    tile_face,
    wrap_row,
)
from scorepad.app.screens.irregular import irregular_panel
from scorepad.app.screens.kept import kept_parts
from scorepad.app.screens.picture import layout_picture

Act = Callable[..., Callable[[], None]]
WIDE = 900  # pixels: from here on the picture and details sit beside the picker
PAGE_PAD = 6  # the page's side padding on the table screen
GAP = 2  # between picker keys
SLOT_SHARE, STEPPER_SHARE = 4, 5  # the actions row's widths: each button's share, and the draw stepper's
log = logging.getLogger(__name__)


def _entry(table: Table, act: Act, action: Callable[..., None], *args: Any) -> Callable[[], None]:
    """A tap that enters something: ignored if it comes from a screen older than the one drawn now."""
    return act(table.entry, table.revision, action, *args)


# -- the sticky header ----------------------------------------------------------------


def status_strip(table: Table, act: Act) -> ft.Control:
    """The board count, each side's score, whose turn it is and the tiles held, in two short rows."""
    board = table.board()
    sides = table.sides()
    many = len(sides) > 2
    count = ft.Container(
        content=ft.Column(
            [
                ft.Text("Count", size=14, color=ft.Colors.PRIMARY),
                ident("board-count", ft.Text(str(board.count), size=30, weight=ft.FontWeight.BOLD)),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        # Tapping the count shows where it comes from; its own text stays the bare number.
        on_click=lambda _e: act(table.toggle_breakdown)(),
        width=52 if many else 64,  # three or four score cards need the room
        border_radius=8,
        tooltip="Where the count comes from",
    )
    chips = [_score_chip(side, many=many) for side in sides]
    held = " · ".join(f"{seat.name} {seat.tiles_held}" for seat in table.seats())
    hand = table.hand
    yard = f" · boneyard {hand.boneyard}" if hand is not None else ""
    # One line each, whatever the names and numbers: the header keeps its height from tap to tap,
    # so the picker under it never moves (issue 19). The details card says the boneyard in full.
    turn_words = ident("turn", _one_line(table.turn_words(), size=15, weight=ft.FontWeight.BOLD))
    tiles = ident("tiles-held", _one_line(f"tiles: {held}{yard}", size=14))
    turn: ft.Control = (
        ft.Column([turn_words, tiles], spacing=0, tight=True)
        if many or len(table.seats()) > 2
        else ft.Row([turn_words, ft.Container(content=tiles, expand=True)], spacing=8)
    )
    return ft.Column(
        [ft.Row([count, *chips], spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER), turn],
        spacing=2,
        tight=True,
    )


def _one_line(text: str, *, size: int, weight: ft.FontWeight | None = None) -> ft.Text:
    """Text kept to one line (cut with an ellipsis), so its height never changes with its words."""
    return ft.Text(text, size=size, weight=weight, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS)


def _score_chip(side: Any, *, many: bool) -> ft.Control:
    """One side's name, score and what it still needs.

    Two sides share the width in halves: name above, score and ``needs N`` beside it.
    Three or four sides get a quarter each at 360 px, too narrow for both on a line, so
    ``needs N`` has a line of its own and a long name two lines (issue 19: "needs 25(").
    """
    score = ident(f"score-{side.side}", ft.Text(str(side.score), size=22, weight=ft.FontWeight.BOLD))
    needs = ident(f"needs-{side.side}", ft.Text(f"needs {side.needed}", size=12 if many else 14, no_wrap=True))
    if many:
        name = ft.Text(side.names, size=13, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
        body = ft.Column([name, score, needs], spacing=0, tight=True)
    else:
        # The side to move in bold; one line always, so the change of weight moves nothing.
        name = _one_line(side.names, size=14, weight=ft.FontWeight.BOLD if side.to_move else None)
        row = ft.Row([score, needs], spacing=6, vertical_alignment=ft.CrossAxisAlignment.END)
        body = ft.Column([name, row], spacing=0, tight=True)
    return ft.Container(
        content=body,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if side.to_move else ft.Colors.SURFACE_CONTAINER_HIGH,
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=4 if many else 8, vertical=2),
        expand=True,
    )


# -- what the next tap needs --------------------------------------------------------------


def message_bar(text: str | None, *, notice: bool = False) -> ft.Control | None:
    """The engine's refusal in the error colours; with ``notice``, news (saved, entered elsewhere) in plain ones."""
    if not text:
        return None
    return ident(
        "message",
        ft.Container(
            content=ft.Text(
                text, color=ft.Colors.ON_SECONDARY_CONTAINER if notice else ft.Colors.ON_ERROR_CONTAINER, size=14
            ),
            bgcolor=ft.Colors.SECONDARY_CONTAINER if notice else ft.Colors.ERROR_CONTAINER,
            border_radius=8,
            padding=ft.Padding.symmetric(horizontal=10, vertical=6),
        ),
    )


def _key_size(table: Table, room: float) -> tuple[float, float, float]:
    """The width and height of a picker key and the width of the tile face on it, for ``room`` pixels."""
    per_row = table.rules.max_pip + 1  # rows hold the widest suit: 7 keys (double-six), 10 (double-nine)
    cell = (room - GAP * (per_row - 1)) / per_row
    if table.rules.max_pip <= 6:
        cell = max(TOUCH, min(cell, 72))
        face = min(32.0, cell / 2)
        return cell, max(TOUCH, 2 * face + 4), face
    # Double-nine: ten keys a row, each tile at least 32 px wide (issue 8).
    cell = max(33.0, min(cell, 72))
    face = max(32.0, min(cell - 2, 40))
    return cell, 2 * face + 2, face


def tile_picker(table: Table, act: Act, *, settling: bool, room: float, layout: str) -> ft.Control:
    """Every tile of the set by suit, played ones dimmed: tap the tile that was laid (or, settling, held).

    A key is the same control as last time while its tile, its size and the
    screen's ``layout`` are (``kept``): an entry draws one or two of the 28 afresh.
    """
    width, height, face_width = _key_size(table, room)
    size = (width, height, face_width)
    kept = kept_parts(table, act)
    rows: list[ft.Control] = []
    for row in table.picker_rows():
        keys: list[ft.Control] = []
        for shade, suit in enumerate(row):
            for tile in suit:
                build = functools.partial(_key, table, act, tile, shade, size)
                keys.append(kept.part(f"tile-{tile.name}", (tile, shade, size, layout), build))
        rows.append(ft.Row(keys, spacing=GAP, tight=True))
    picker = ident(
        "picker",
        ft.Column(rows, spacing=GAP, tight=True),
        label="Tap the tiles the seat still holds" if settling else "Tap the tile that was laid",
    )
    # Keyed, so Flet pairs it with the picker drawn last even when the parts above it come and go
    # (a kept key must be compared with itself, never with another control).
    picker.key = "picker"
    return picker


def _key(table: Table, act: Act, tile: TileKey, shade: int, size: tuple[float, float, float]) -> ft.Control:
    """One picker key. Kept across revisions, so its tap reads the revision when it is tapped."""
    width, height, face_width = size
    tint = ft.Colors.SURFACE_CONTAINER_HIGHEST if shade == 0 else ft.Colors.SECONDARY_CONTAINER
    state = "played" if tile.played else ("listed" if tile.chosen else "in hand or boneyard")
    return tappable(
        f"tile-{tile.name}",
        ft.Container(
            # Held the way players hold them: the suit's value on top.
            content=tile_face(tile.high, tile.low, flat=False, size=face_width, label=None),
            width=width,
            height=height,
            alignment=ft.Alignment.CENTER,
            opacity=0.25 if tile.played else 1.0,
            bgcolor=tint,
            border=ft.Border.all(3, ft.Colors.PRIMARY) if tile.chosen else None,
            border_radius=6,
            on_click=lambda _e, a=tile.low, b=tile.high: _entry(table, act, table.tap_tile, a, b)(),
            ink=True,
        ),
        # Not keyed by revision (28 new controls a tap would slow every tap down):
        # a second tap on the tile just laid is ignored by ``Table.tap_tile``.
        label=f"tile {tile.name}, {state}",
    )


def end_choice(table: Table, act: Act) -> ft.Control | None:
    """One button per end with a different outcome for the pending tile, right under the picker."""
    choices = table.end_choices()
    if not choices or table.pending is None:
        return None
    low, high = table.pending
    buttons = [
        button(
            f"at-{at}",
            table.end_option_words(at),
            _entry(table, act, table.choose_end, at),
            kind="filled",
            frame=table.revision,
        )
        for at in choices
    ]
    buttons.append(button("cancel-tile", "Cancel", act(table.cancel_pending), kind="text"))
    return ft.Column(
        [
            note(f"{low}-{high} fits ends that count differently: where was it laid?", size=14),
            wrap_row(buttons, spacing=6),
        ],
        spacing=4,
        tight=True,
    )


def call_row(table: Table, act: Act) -> ft.Control | None:
    """The call on the last play: called right, not called, or another number; flags, fixes and claims.

    Hidden, it leaves a ``call-reopen`` button until the next tile is entered.
    """
    if table.can_reopen_call():
        return button("call-reopen", "Call on the last tile…", act(table.open_call), kind="outlined")
    panel = table.call_panel()
    if panel is None:
        return None
    made = f"{panel.player}'s play made {panel.board_count}" + (
        f": scores {panel.score}." if panel.score else ": no score."
    )
    called = "nothing" if panel.call == 0 else str(panel.call)
    # The engine's quick answers (previews.call_options): one "No score" on a play that scored nothing.
    quick = {None: ("call-ok", not panel.flags), 0: ("call-none", panel.call == 0 and bool(panel.score))}
    top = ft.Row(
        [
            *(
                button(
                    quick[call][0],
                    label,
                    _entry(table, act, table.call, call),
                    kind="filled" if quick[call][1] else "outlined",
                    snug=True,
                    expand=False,
                    frame=table.revision,
                )
                for call, label in panel.options
            ),
            ft.Container(expand=True),
            button("call-close", "Hide", act(table.close_call), kind="text", compact=True, expand=False),
        ],
        spacing=4,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )
    numbers = ft.Row(
        [
            button(
                f"call-{n}",
                str(n),
                _entry(table, act, table.call, n),
                kind="filled" if n == panel.call and n != panel.score else "outlined",
                width=TOUCH,
                compact=True,
                expand=False,
                frame=table.revision,
            )
            for n in panel.calls
        ],
        spacing=GAP,
        wrap=True,
        run_spacing=GAP,
    )
    caption = ft.Column(
        [note(made, size=14), note(f"Called {called}. {panel.consequence}", identifier="call-result", size=14)],
        spacing=0,
        tight=True,
    )
    # The taps first, the seven numbers (a call other than right or nothing) after them: a claim
    # or a correction is never pushed below the fold by the numbers (issue 19: muggins at y 647).
    rows: list[ft.Control] = [caption]
    if panel.flags:
        rows.append(note("Flags: " + ", ".join(panel.flags), identifier="call-flags", size=14, color=ft.Colors.ERROR))
    rows.append(top)
    if panel.claimants:
        rows.append(
            wrap_row(
                [
                    button(
                        f"muggins-{seat}",
                        f"Muggins: {table.player(seat)} claims {panel.score}",
                        _entry(table, act, table.claim_muggins, seat),
                        kind="filled",
                        frame=table.revision,
                    )
                    for seat in panel.claimants
                ],
                spacing=6,
            )
        )
    if panel.can_fix:
        rows.append(
            button(
                "call-fix",
                f"Corrected {panel.moment}: record {panel.score}",
                _entry(table, act, table.fix_call),
                kind="tonal",
                frame=table.revision,
            )
        )
    rows.append(numbers)
    return ident("call-row", ft.Column(rows, spacing=4, tight=True))


def actions_row(table: Table, act: Act) -> ft.Control:
    """Draw, the draw stepper, pass, undo and redo, in one row that never wraps (the picker stays put)."""
    hand = table.hand
    # Nobody draws or passes before the set or once the hand has ended: there the two are greyed
    # out (issue 19), not merely outlined. While the hand goes on, one the rules refuse stays
    # tappable and is answered with the engine's reason.
    playing = table.phase == PLAY and hand is not None and hand.started
    drawable = hand.drawable if hand and playing else 0
    steps = table.draw_choices()
    controls = [
        button(
            "draw",
            "Draw",
            _entry(table, act, table.draw),
            kind="filled" if playing and drawable > 0 else "outlined",
            disabled=not playing,
            compact=True,
            frame=table.revision,
        ),
        # Where two is the most that may be drawn (Smartt §8.1) "Drew 2" is one tap; else a stepper.
        button(
            "draw-2",
            "Drew 2",
            _entry(table, act, table.draw_many, 2),
            kind="outlined",
            compact=True,
            frame=table.revision,
        )
        if steps == [2]
        else button(
            "draw-more",
            "Drew 2+",
            act(table.toggle_draws),
            kind="tonal" if table.draw_open else "outlined",
            disabled=not steps,
            compact=True,
        ),
        button(
            "pass",
            "Pass",
            _entry(table, act, table.pass_turn),
            kind="tonal" if playing and hand is not None and hand.can_pass else "outlined",
            disabled=not playing,
            compact=True,
            frame=table.revision,
        ),
        button("undo", "Undo", _entry(table, act, table.undo), kind="outlined", compact=True, frame=table.revision),
        button("redo", "Redo", _entry(table, act, table.redo), kind="outlined", compact=True, frame=table.revision),
    ]
    # The button in each slot is a new control on every revision (``frame``); the slots are not.
    # The draw stepper's slot is a quarter wider than the others: "Drew 2+" then stays on one line
    # on a phone held sideways (the row is about 270 px wide there), and the other four keep 48 px.
    return ft.Row(
        [
            ft.Container(content=c, expand=STEPPER_SHARE if i == 1 else SLOT_SHARE, key=f"slot-{i}")
            for i, c in enumerate(controls)
        ],
        spacing=GAP,
    )


def draw_stepper(table: Table, act: Act) -> ft.Control | None:
    """``drew N`` in one tap, when the stepper is open."""
    steps = table.draw_choices()
    if not table.draw_open or len(steps) < 2:
        return None
    who = table.player(table.hand.turn) if table.hand else ""
    buttons = [
        button(
            f"draw-{n}",
            str(n),
            _entry(table, act, table.draw_many, n),
            kind="outlined",
            width=TOUCH,
            compact=True,
            expand=False,
            frame=table.revision,
        )
        for n in steps
    ]
    return ft.Column([note(f"{who} drew how many on this visit?", size=14), wrap_row(buttons, spacing=GAP)], spacing=4)


# -- panels ------------------------------------------------------------------------------


def renege_panel(table: Table, act: Act, shown: ft.Control | None = None) -> ft.Control | None:
    """Pick the offender; the rollback and penalty are shown before they are applied.

    ``shown``: the refusal of this panel's last tap, drawn just above its buttons.
    """
    if not table.renege_open:
        return None
    offenders = [
        button(
            f"offender-{seat.seat}",
            seat.name,
            act(table.pick_offender, seat.seat),
            kind="filled" if table.offender == seat.seat else "outlined",
        )
        for seat in table.seats()
    ]
    rows: list[ft.Control] = [heading("Renege: who reneged?"), wrap_row(offenders)]
    preview = table.renege_preview()
    if preview is not None:
        rows.append(note(preview.words, identifier="renege-preview"))
    if shown is not None:
        rows.append(shown)
    rows.append(
        wrap_row(
            [
                button(
                    "confirm-renege",
                    "Apply the renege",
                    _entry(table, act, table.confirm_renege),
                    kind="filled",
                    frame=table.revision,
                ),
                button("cancel-renege", "Cancel", act(table.cancel_renege), kind="text"),
            ]
        )
    )
    return card(*rows)


def settle_panel(table: Table, act: Act, shown: ft.Control | None = None) -> ft.Control | None:
    """Enter each seat's remaining pips (or tap its tiles), see the rounding, then settle.

    A field is never moved or redrawn while it is typed in (issue 19: "29" typed fast lost its 9):
    what is wrong is said in one line under the fields, not in a banner above them, and a field
    that cannot be right is marked by its border alone, which takes no room. ``shown``: the
    refusal of Settle, drawn just above it.
    """
    if table.phase != SETTLE:
        return None
    rows: list[ft.Control] = [heading(f"{table.end_words()}: what is left in each hand?")]
    for seat in table.seats():
        listed = table.remaining_tiles.get(seat.seat, [])
        problem = table.remaining_problem(seat.seat)
        field = ident(
            f"remaining-{seat.seat}",
            ft.TextField(
                label=f"{seat.name}'s pips ({plural(seat.tiles_held, 'tile')})",
                value=table.remaining_text.get(seat.seat, "" if seat.tiles_held else "0"),
                keyboard_type=ft.KeyboardType.NUMBER,
                text_size=16,
                border=ft.OutlineInputBorder(side=ft.BorderSide(2, ft.Colors.ERROR)) if problem else None,
                on_change=lambda e, s=seat.seat: act(table.set_remaining_text, s, e.control.value or "")(),
                on_submit=lambda _e: _entry(table, act, table.submit_remaining)(),
                disabled=bool(listed),
            ),
        )
        tapping = table.settle_seat == seat.seat
        tap_button = button(
            f"remaining-tiles-{seat.seat}",
            "Done" if tapping else "Tap tiles",
            act(table.pick_settle_seat, None if tapping else seat.seat),
            kind="filled" if tapping else "outlined",
            disabled=seat.tiles_held == 0,
        )
        # The field takes the row's width beside its button: one line in the narrowest column (the
        # one beside the picker on a phone held sideways, where a fixed 170 px field wrapped).
        rows.append(ft.Row([ft.Container(content=field, expand=True), tap_button], spacing=8))
        if listed:
            rows.append(ft.Text(", ".join(listed), size=14))
    problem = table.settle_problem()
    preview = table.settle_preview() if problem is None else None
    if preview:
        rows.append(note(preview, identifier="settle-preview", size=14))
    elif (
        problem
        and problem != table.message
        and any(table.remaining_text.get(s.seat, "").strip() for s in table.seats())
    ):
        rows.append(note(problem, identifier="settle-problem", size=14, color=ft.Colors.ERROR))
    if shown is not None:
        rows.append(shown)
    rows.append(
        button("settle", "Settle the hand", _entry(table, act, table.settle), kind="filled", frame=table.revision)
    )
    return card(*rows)


def hand_over_panel(table: Table, act: Act, shown: ft.Control | None = None) -> ft.Control | None:
    """How the hand ended with the rounding and award, then the next hand or game.

    With no hand at all (the first one undone), it offers to start one. ``shown``: the
    refusal of the last tap, drawn just above the button.
    """
    if table.phase not in (HAND_OVER, GAME_OVER, NO_HAND):
        return None
    settled = table.settlement()
    title = f"Hand {table.hand.number} is over" if table.hand else "No hand under way"
    rows: list[ft.Control] = [heading(title)]
    if settled is not None:
        rows.append(note(settled.words, identifier="hand-result"))
    result = table.game_result()
    if result is not None:
        rows.append(note(result.words, identifier="game-result", size=16, color=ft.Colors.PRIMARY))
    rows.append(note(table.next_setter_words(), size=14))
    choices = table.setter_choices()
    if choices:
        rows.append(
            wrap_row(
                [
                    button(
                        f"setter-{seat}",
                        table.player(seat),
                        act(table.choose_next_setter, seat),
                        kind="filled" if table.next_setter_choice == seat else "outlined",
                    )
                    for seat in choices
                ]
            )
        )
    if shown is not None:
        rows.append(shown)
    if result is not None:
        rows.append(
            button(
                "next-game",
                "Next game",
                _entry(table, act, table.next_hand),
                kind="filled",
                icon=ft.Icons.REPLAY,
                frame=table.revision,
            )
        )
    else:
        rows.append(
            button(
                "next-hand",
                # No hand yet (or the first one undone): this button starts the first.
                "Next hand" if table.hand is not None else "Start hand 1",
                _entry(table, act, table.next_hand),
                kind="filled",
                icon=ft.Icons.ARROW_FORWARD,
                frame=table.revision,
            )
        )
    return card(*rows)


def details(table: Table, act: Act, *, layout: str = "phone") -> ft.Control:
    """What is a swipe away: the count's breakdown, the Sniff's stage, the boneyard and the rules.

    Its buttons are the same control as last time while the switches they show
    and the screen's ``layout`` are (``kept``).
    """
    board = table.board()
    switches = (table.breakdown_open, table.training, table.tournament, layout)
    rows: list[ft.Control] = [
        heading(table.title()),
        note(board.sniff_stage, identifier="sniff-stage", size=14),
        # Before the first hand there is no boneyard to tell of: the open ends alone, no separator first.
        note(
            " · ".join(w for w in (table.boneyard_words(), f"open ends: {board.open_ends}") if w),
            identifier="boneyard",
            size=14,
        ),
        kept_parts(table, act).part("details-buttons", switches, lambda: _details_buttons(table, act)),
        *(note(hint, identifier=f"hint-{i}", size=14) for i, hint in enumerate(table.hints())),
    ]
    panel = card(*rows)
    panel.key = "details"  # paired with the card drawn last, whatever comes and goes above it (see the picker)
    return panel


def _details_buttons(table: Table, act: Act) -> ft.Control:
    """The count's sum, Renege… and the training switch (kept while the switches stand: none takes a revision)."""
    return wrap_row(
        [
            button(
                "breakdown",
                "Hide the count's sum" if table.breakdown_open else "Count's sum on top",
                act(table.toggle_breakdown),
                kind="text",
            ),
            button("renege", "Renege…", act(table.start_renege), kind="outlined"),
            *(
                []
                if table.tournament
                else [
                    button(
                        "training",
                        "Training hints off" if table.training else "Training hints on",
                        act(table.toggle_training),
                        kind="text",
                    )
                ]
            ),
        ],
        spacing=6,
    )


def _sayings(table: Table) -> ft.Control | None:
    """The table's words of the moment (Bell is ringing, Moonfaced ...), when there are any."""
    said = table.sayings()
    return note(said, identifier="table-words", size=14, color=ft.Colors.TERTIARY) if said else None


def _message_place(table: Table) -> str:
    """Which part of the screen the refusal of the moment answers: an open panel, the settlement,
    the hand's end, or else the play (picker, Draw to Undo, the call)."""
    if table.renege_open:
        return "renege"
    phase = table.phase
    if phase == PLAY and table.irregular.open:
        return "irregular"
    if phase == SETTLE and table.settle_seat is None:
        return SETTLE
    if phase in (HAND_OVER, GAME_OVER, NO_HAND):
        return HAND_OVER
    return PLAY


def _safe(build: Callable[[], ft.Control | None], table: Table) -> ft.Control | None:
    """Draw one part; should it fail, the rest of the screen is still drawn and the failure said once."""
    try:
        return build()
    except Exception:
        log.exception("drawing part of the table for match %s failed", table.match_id)
        return note("Part of the table could not be drawn: Undo, or reload the page.", size=14, color=ft.Colors.ERROR)


def table_screen(table: Table, act: Act, header: ft.Control, *, width: float = 0, height: float = 0) -> ft.Control:
    """The whole table screen; the header (title bar, count, scores, turn) stays on top.

    ``width`` and ``height`` are the page's size in pixels (0: unknown, drawn as a phone).
    """
    phase = table.phase
    wide = width >= WIDE
    sideways = not wide and height and width > height
    room = (width or 360) - 2 * PAGE_PAD
    if wide:
        room = room * 6 / 11 - 12
    elif sideways:
        room = 0  # the picker at its smallest, the rest of the width for the call row and panels
    room = max(room, 7 * TOUCH + 6 * GAP)
    picking = phase == PLAY or (phase == SETTLE and table.settle_seat is not None)
    pending = table.pending_end_words()
    tapping = table.tapping_words()
    owed = table.renege_pending_words()
    # A refusal is drawn in the panel whose tap it answers, above that panel's buttons, so it is
    # in view where the thumb is; news from another screen is drawn there too, in plain colours.
    place = _message_place(table)
    shown = keyed(_safe(lambda: message_bar(table.message or table.notice, notice=not table.message), table), "message")

    def here(part: str) -> ft.Control | None:
        return shown if place == part else None

    # Every part of the scrolled column is keyed (``keyed``): a note that comes or goes moves the
    # parts under it, and Flet would pair each with whatever now stands at its old place, rebuilding
    # whole panels (the layout picture's 34 controls) that did not change.
    last_entry = table.last_entry_words()
    notes: list[ft.Control | None] = [
        here(PLAY),
        keyed(note(pending, identifier="end-pending", size=14, color=ft.Colors.TERTIARY), "end-pending")
        if pending
        else None,
        keyed(note(tapping, identifier="tapping", size=14), "tapping") if tapping else None,
        keyed(note(owed, identifier="renege-pending", size=14), "renege-pending") if owed else None,
        keyed(note(last_entry, identifier="last-entry", size=14), "last-entry") if last_entry else None,
        keyed(_safe(lambda: _sayings(table), table), "table-words"),
    ]
    layout = "wide" if wide else "sideways" if sideways else "phone"
    picker = (
        _safe(lambda: tile_picker(table, act, settling=phase == SETTLE, room=room, layout=layout), table)
        if picking
        else None
    )
    choice = keyed(_safe(lambda: end_choice(table, act), table), "end-choice")
    calls = None if choice is not None else _safe(lambda: call_row(table, act), table)
    actions = keyed(actions_row(table, act), "actions")
    panels = [
        keyed(_safe(lambda: draw_stepper(table, act), table), "draw-stepper"),
        keyed(_safe(lambda: renege_panel(table, act, here("renege")), table), "renege"),
        keyed(_safe(lambda: irregular_panel(table, act, here("irregular")), table), "irregular")
        if phase == PLAY
        else None,
        keyed(_safe(lambda: settle_panel(table, act, here(SETTLE)), table), SETTLE),
    ]
    over = keyed(_safe(lambda: hand_over_panel(table, act, here(HAND_OVER)), table), HAND_OVER)
    # Nothing above the picker but the fixed header: it never moves between taps (issue 19).
    # What the next tap needs comes first under it: where the tile went, then Draw to Undo
    # (never pushed down by a long call panel), then the notes and the call.
    call = keyed(calls, "call")
    if phase == PLAY:
        after_picker, later = [choice, actions], [call, *panels]
    elif picker is not None:
        # A seat's tiles are tapped in the picker: its Done (in the settlement) comes first, in view.
        after_picker, later = [choice], [*panels, call, actions]
    elif phase == SETTLE:
        # Claims on the last tile come before the settlement.
        after_picker, later = [choice], [call, actions, *panels]
    else:
        # The hand is over: Next hand (or Next game) before the call that may still be changed.
        after_picker, later = [], [over, call, actions, *panels]
    taps = {at: _entry(table, act, table.choose_end, at) for at in table.end_choices()}
    # Only once the picker is up is there a set to tap (before the hand starts, its setter is chosen).
    empty = "No tiles yet: tap the set in the picker." if picking else "No tiles yet."
    picture = keyed(
        _safe(
            lambda: layout_picture(
                table.picture(), taps, room=int(room if not wide else width * 5 / 11 - 24), empty=empty
            ),
            table,
        ),
        "picture",
    )
    more = [picture, _safe(lambda: details(table, act, layout=layout), table)]
    top = ft.Column([header, status_strip(table, act)], spacing=2, tight=True)
    if table.breakdown_open:
        board = table.board()
        parts = [f"{label}: {points}" for label, points in board.breakdown] or ["nothing on the table"]
        top.controls.append(note(" + ".join(parts) + f" = {board.count}", identifier="count-breakdown", size=14))

    def scrolled(controls: list[ft.Control | None], **kw: Any) -> ft.Column:
        return ft.Column([c for c in controls if c is not None], spacing=6, scroll=ft.ScrollMode.AUTO, **kw)

    if wide:
        body: ft.Control = ft.Row(
            [scrolled(more, expand=5), scrolled([picker, *after_picker, *notes, *later], expand=6)],
            vertical_alignment=ft.CrossAxisAlignment.START,
            spacing=12,
            expand=True,
        )
    elif sideways:
        left: list[ft.Control | None] = [picker, *notes]
        right = [*after_picker, *later, *more]
        if picker is None and phase != PLAY:
            # Once the hand is out or blocked the settlement (or Next hand) is the next tap: under the
            # call row and the actions in the narrow right column it would start below the fold (at
            # 640x360, y=570). It takes the picker's place on the left, beside the call on the last tile.
            # Undo comes before the call there: under a call row with its numbers it fell below the fold.
            now = [over] if phase != SETTLE else panels
            moved = {id(c) for c in [*now, actions]}
            left = [*notes, *now]
            right = [*after_picker, actions, *[c for c in later if id(c) not in moved], *more]
        body = ft.Row(
            [scrolled(left, width=room), scrolled(right, expand=1)],
            vertical_alignment=ft.CrossAxisAlignment.START,
            spacing=12,
            expand=True,
        )
    else:
        body = scrolled([picker, *after_picker, *notes, *later, *more], expand=True)
    return ft.Column([top, body], spacing=4, expand=True)
