"""The director's desk (``/event/ID/director``): the round as tables you tap, the entrants as a list you tap.

Drawn from the flet-free ``Desk`` (``models.desk``). Each table is a card
with its number, players, state, code (and QR code), and one *Actions* menu
holding what is valid for it; each entrant a line with theirs. An act that
needs more (a reason, who forfeits, the right figures) opens its form inside
that card. Nothing asks for a table number or a name, except registering.
One column on a phone (360 px), cards side by side on a laptop; 48 px
targets; colours from the theme (light and dark). The page shell
(``shell.director.DirectorPage``) guards the taps and asks for the redraws.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from scorepad.app.models.audit import audit_route
from scorepad.app.models.desk import ENTRANT_ACTS, NEEDS_REASON, TABLE_ACTS, Desk, DeskEntrant, DeskTable, Pending
from scorepad.app.models.links import qr_png
from scorepad.app.screens.audit import audit_link
from scorepad.app.screens.common import (
    TOUCH,
    PasswordField,
    button,
    heading,
    ident,
    note,
    tappable,
    with_theme,
    wrap_row,
)
from scorepad.app.screens.join_panel import QR_SIZE

Tap = Callable[[Callable[[], Any]], Callable[[], None]]
# Below this width the desk is one column (a phone); above, the cards sit side by side.
PHONE_WIDTH = 600
# The state chip's colours, by the state's first word (theme roles: right in light and dark).
CHIP = {
    "not": (ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.ON_SURFACE),
    "hand": (ft.Colors.TERTIARY_CONTAINER, ft.Colors.ON_TERTIARY_CONTAINER),
    "finished": (ft.Colors.SECONDARY_CONTAINER, ft.Colors.ON_SECONDARY_CONTAINER),
    "confirmed": (ft.Colors.PRIMARY_CONTAINER, ft.Colors.ON_PRIMARY_CONTAINER),
    "forfeit": (ft.Colors.ERROR_CONTAINER, ft.Colors.ON_ERROR_CONTAINER),
    "bye": (ft.Colors.SURFACE_CONTAINER_HIGHEST, ft.Colors.ON_SURFACE),
}
# What the confirming button of each form says.
DO_WORDS = {
    "correct": "Correct",
    "resettle": "Settle again",
    "forfeit": "Give the forfeit",
    "unforfeit": "Take back the forfeit",
    "withdraw": "Withdraw",
    "forbid": "Keep them apart",
    "repair": "Swap their seats",
}


@ft.component
def DeskScreen(
    desk: Desk,
    listen: Callable[[Callable[[], None]], None],
    dead: Callable[[], ft.Control | None],
    tap: Tap,
    save_cards: Callable[[], Callable[[], Awaitable[None]]],
) -> ft.Control:
    """The desk as ``desk`` stands; ``listen`` receives the redraw; ``tap`` guards a tap; ``save_cards`` the PDF."""
    _draws, set_draws = ft.use_state(0)
    listen(lambda: set_draws(lambda n: n + 1))
    # What is typed in the fields that are not the model's (the password, a name, a lock's reason).
    kept: ft.MutableRef[dict[str, str]] = ft.use_ref(_empty)
    typed = kept.current if kept.current is not None else {}
    gone = dead()
    if gone is not None:
        return gone
    narrow = (ft.context.page.width or 1280) < PHONE_WIDTH
    if not desk.signed_in:
        body = _sign_in(desk, tap, typed)
        return _page([heading(f"Event {desk.event_id}: the director signs in", size=20)], desk, body)
    top = [note(desk.title(), identifier="event-title", size=18 if narrow else 20)]
    body = [
        *_round(desk, tap, typed, save_cards),
        heading("Tables", size=16),
        _grid([_table(desk, t, tap, narrow) for t in desk.desk_tables()], narrow)
        if desk.round is not None
        else note("No round paired yet: register the players, then pair round 1.", size=14),
        heading(_players_heading(desk), size=16),
        note(
            ", ".join(desk.entrants()) or "nobody yet",
            identifier="entrants",
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
        ),
        _register(desk, tap, typed),
        _grid([_entrant(desk, e, tap) for e in desk.desk_entrants()], narrow, wide=3),
        heading("Standings, with the working", size=16),
        _standings(desk),
        heading("Audit (newest first, times UTC)", size=16),
        note("\n".join(desk.audit_lines()[:30]), identifier="audit", size=12),
    ]
    return _page(top, desk, body)


def _standings(desk: Desk) -> ft.Control:
    """Each standing, its working indented under it (a wrapped line of the working keeps the indent)."""
    rows: list[ft.Control] = []
    for line, working in desk.working():
        rows.append(ft.Text(line, size=13))
        rows += [ft.Container(content=ft.Text(w, size=13), padding=ft.Padding.only(left=24)) for w in working]
    return ident("standings", ft.Column(rows or [ft.Text("no results yet", size=13)], spacing=2, tight=True))


def _empty() -> dict[str, str]:
    return {}


def _page(top: list[ft.Control], desk: Desk, body: list[ft.Control]) -> ft.Control:
    """The title and the last sentence stay on top (seen after any tap); the rest scrolls."""
    message = note(desk.message, identifier="message", size=15, color=ft.Colors.PRIMARY) if desk.message else None
    header = ft.Container(
        content=ft.Column([with_theme(top[0]), *top[1:], *([message] if message else [])], spacing=4, tight=True),
        padding=ft.Padding.only(left=12, right=12, top=8, bottom=8),
        bgcolor=ft.Colors.SURFACE_CONTAINER_LOW,
    )
    return ft.SafeArea(
        content=ft.Column(
            [
                ident("desk-header", header),
                ft.Column(
                    [ft.Container(content=ft.Column(body, spacing=12), padding=12)],
                    scroll=ft.ScrollMode.AUTO,
                    expand=True,
                ),
            ],
            spacing=0,
            expand=True,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        ),
        expand=True,
    )


def _grid(cards: list[ft.Control], narrow: bool, *, wide: int = 3) -> ft.Control:
    """Cards one under another on a phone, ``wide`` a row on a laptop."""
    if narrow:
        return ft.Column(cards, spacing=10)
    return ft.ResponsiveRow(
        [ft.Container(content=c, col={"xs": 12, "md": 6, "xl": 12 // wide}) for c in cards],
        spacing=10,
        run_spacing=10,
    )


def _field(key: str, label: str, value: str, changed: Callable[[str], None]) -> ft.Control:
    """A labelled text field that keeps what is typed without a redraw (a redraw would take the focus)."""
    return ident(
        key,
        ft.TextField(
            label=label,
            value=value,
            dense=False,
            on_change=lambda e: changed(e.control.value or ""),
        ),
    )


def _sign_in(desk: Desk, tap: Tap, typed: dict[str, str]) -> list[ft.Control]:
    def sign_in() -> None:
        if desk.sign_in(typed.get("password", "")):
            typed["password"] = ""

    return [
        PasswordField("password", "Director's password", "", lambda v: typed.__setitem__("password", v)),
        button("sign-in", "Sign in", tap(sign_in), kind="filled", expand=False),
    ]


def _round(
    desk: Desk, tap: Tap, typed: dict[str, str], save_cards: Callable[[], Callable[[], Awaitable[None]]]
) -> list[ft.Control]:
    """The round's own acts: pair, codes back, table cards, lock, reopen."""
    acts: list[ft.Control] = []
    if desk.round is None or desk.round.locked:
        number = (desk.round.number if desk.round is not None else 0) + 1
        acts.append(button("pair", f"Pair round {number}", tap(desk.pair), kind="filled", expand=False))
    if desk.missing_codes():
        acts.append(
            button(
                "codes-back",
                "Show every table's code again",
                tap(desk.codes_back),
                icon=ft.Icons.QR_CODE_2,
                kind="filled",
                expand=False,
            )
        )
    if desk.round_open():
        save = save_cards()

        async def cards(_e: Any) -> None:
            await save()

        acts.append(
            tappable(
                "cards",
                ft.FilledTonalButton(content="Table cards (PDF)", icon=ft.Icons.PRINT, on_click=cards, height=TOUCH),
            )
        )
    # The event's whole audit, readable by anyone, in a new tab (the desk keeps its place).
    acts.append(audit_link("desk-audit", "The audit", audit_route(desk.event_id)))
    rows: list[ft.Control] = [wrap_row(acts)]
    if desk.round is None or desk.round.locked:
        # Before pairing: which method Auto (or the director) chose, and whether late entries can join.
        rows.append(note(desk.pairing_words(), identifier="pairing-choice", size=13))
    if desk.round_open():
        rows.append(
            _inline(
                _field(
                    "lock-reason",
                    "Reason to lock with a table unfinished",
                    typed.get("lock-reason", ""),
                    lambda v: typed.__setitem__("lock-reason", v),
                ),
                button("lock", "Lock the round", tap(lambda: desk.lock(typed.get("lock-reason", ""))), expand=False),
            )
        )
    elif desk.round is not None:

        def reopen() -> None:
            if desk.reopen(typed.get("reopen-reason", "")):
                typed["reopen-reason"] = ""

        rows.append(
            _inline(
                _field(
                    "reopen-reason",
                    "Reason to reopen the locked round",
                    typed.get("reopen-reason", ""),
                    lambda v: typed.__setitem__("reopen-reason", v),
                ),
                button("reopen", "Reopen the round", tap(reopen), expand=False),
            )
        )
    return rows


def _inline(field: ft.Control, act: ft.Control) -> ft.Control:
    """A field and its button: side by side when there is room, the button under it on a phone."""
    return ft.ResponsiveRow(
        [
            ft.Container(content=field, col={"xs": 12, "sm": 8, "xl": 6}),
            ft.Container(content=act, col={"xs": 12, "sm": 4, "xl": 3}),
        ],
        spacing=8,
        run_spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def _chip(state: str, identifier: str) -> ft.Control:
    back, fore = CHIP.get(state.split()[0], CHIP["not"])
    return ft.Row(
        [
            ft.Container(
                content=ident(identifier, ft.Text(state, size=14, weight=ft.FontWeight.BOLD, color=fore)),
                bgcolor=back,
                border_radius=8,
                padding=ft.Padding.symmetric(horizontal=10, vertical=4),
            )
        ]
    )


def _card(controls: list[ft.Control], *, selected: bool = False) -> ft.Control:
    return ft.Container(
        content=ft.Column(controls, spacing=6, tight=True),
        padding=12,
        border_radius=12,
        bgcolor=ft.Colors.SURFACE_CONTAINER,
        border=ft.Border.all(2, ft.Colors.PRIMARY) if selected else None,
    )


def _menu_button(identifier: str, what: str, tap: Tap, toggle: Callable[[], None], opened: bool) -> ft.Control:
    """A card's menu: "Actions" on screen; a screen reader hears whose ("Actions for table 2")."""
    control = ft.OutlinedButton(
        content="Close" if opened else "Actions",
        icon=ft.Icons.CLOSE if opened else ft.Icons.MORE_VERT,
        on_click=lambda _e: tap(toggle)(),
        height=TOUCH,
    )
    return tappable(identifier, control, label=f"{'Close the actions' if opened else 'Actions'} for {what}")


def _table(desk: Desk, table: DeskTable, tap: Tap, narrow: bool) -> ft.Control:
    """A table's card: number, players, state, code; its menu; its form when one of its acts is chosen."""
    n = table.number
    key = f"table-{n}"
    opened = desk.menu == key
    pending = desk.pending if desk.pending is not None and desk.pending.table == n else None
    title = ft.Text("Bye" if table.bye else f"Table {n}", size=22, weight=ft.FontWeight.BOLD)
    head: list[ft.Control] = [ft.Container(content=title, expand=True)]
    if table.acts:
        head.append(
            _menu_button(f"table-menu-{n}", f"table {n}", tap, functools.partial(desk.toggle_menu, key), opened)
        )
    controls: list[ft.Control] = [
        ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ft.Text(" v ".join(" & ".join(team) for team in _teams(table)), size=20 if not narrow else 18),
        _chip(table.state, f"table-state-{n}"),
        note(table.line, identifier=key, size=12, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    if table.code is not None:
        controls.append(
            ident(
                f"table-code-{n}",
                ft.Text(f"code {table.code}", size=20, weight=ft.FontWeight.BOLD, font_family="monospace"),
            )
        )
        if n in desk.qr_shown:
            controls.append(_qr(desk, n, table.code))
    if opened:
        qr = n in desk.qr_shown
        controls.append(
            _acts_menu(
                [
                    (f"{act}-{n}", _act_words(act, qr), tap(functools.partial(desk.begin, act, table=n)))
                    for act in table.acts
                ]
            )
        )
    if pending is not None:
        controls.append(_table_form(desk, table, pending, tap))
    return _card(controls, selected=opened or pending is not None)


def _acts_menu(items: list[tuple[str, str, Callable[[], None]]]) -> ft.Control:
    """An opened Actions menu: one button an act (identifier, words, tap), as wide as the widest."""
    return ft.Column(
        [button(identifier, words, fn, kind="tonal", expand=False) for identifier, words, fn in items],
        spacing=6,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )


def _teams(table: DeskTable) -> list[list[str]]:
    # The card's players line is the versus words split back into sides (partners joined by '&').
    return [side.split(" & ") for side in table.versus.split(" v ")]


def _act_words(act: str, qr_open: bool) -> str:
    if act == "qr":
        return "Hide the QR code" if qr_open else "Show the QR code"
    return TABLE_ACTS.get(act) or ENTRANT_ACTS.get(act, act)


def _qr(desk: Desk, number: int, code: str) -> ft.Control:
    """Table ``number``'s QR code: a phone that scans it passes the door and joins that table with ``code``."""
    url = desk.table_link(number, code)
    if url is None:
        words = (
            f"Only this computer can open the score-pad now, so no phone can scan table {number}'s code. "
            "Start it with: scorepad web --host 0.0.0.0"
        )
        return note(words, identifier=f"table-qr-{number}", size=13)
    return ft.Semantics(
        identifier=f"table-qr-{number}",
        label=f"QR code that joins table {number}",
        content=ft.Container(
            content=ft.Image(src=qr_png(url), width=QR_SIZE, height=QR_SIZE),
            bgcolor=ft.Colors.WHITE,  # a QR code is read dark on light, in a dark theme too
            border_radius=8,
            alignment=ft.Alignment.CENTER,
        ),
    )


def _form_buttons(act: str, tap: Tap, desk: Desk, words: str) -> ft.Control:
    return wrap_row(
        [
            button(act, words, tap(desk.carry_out), kind="filled", expand=False),
            button("cancel", "Cancel", tap(desk.cancel), kind="text", expand=False),
        ]
    )


def _reason(act: str, pending: Pending, desk: Desk) -> ft.Control:
    return _field(f"{act}-reason", "Reason (kept in the audit)", pending.reason, desk.set_reason)


def _table_form(desk: Desk, table: DeskTable, pending: Pending, tap: Tap) -> ft.Control:
    act, n = pending.act, table.number
    parts: list[ft.Control] = []
    if act == "correct":
        parts.append(note(f"Take back the last entry or settlement at table {n} ({table.versus}).", size=14))
    elif act == "resettle":
        parts.append(note(f"Settle table {n}'s last hand again: what each seat still held.", size=14))
        for seat, name in enumerate(table.names):
            parts.append(
                _field(
                    f"resettle-seat-{seat}",
                    f"{name}: pips, or tiles such as 6-6 5-4 (0 if out)",
                    pending.figures.get(seat, ""),
                    functools.partial(desk.set_figure, seat),
                )
            )
    elif act == "forfeit":
        parts.append(note("Who forfeits? Tap each one.", size=14))
        parts.append(
            wrap_row(
                [
                    button(
                        f"forfeit-loser-{seat}",
                        name,
                        tap(functools.partial(desk.choose, name)),
                        icon=ft.Icons.CHECK if name in pending.chosen else None,
                        kind="filled" if name in pending.chosen else "outlined",
                        expand=False,
                    )
                    for seat, name in enumerate(table.names)
                ]
            )
        )
    elif act == "unforfeit":
        parts.append(note(f"Take back the forfeit at table {n} ({table.versus}): the table plays on.", size=14))
    if act in NEEDS_REASON:
        parts.append(_reason(act, pending, desk))
    parts.append(_form_buttons(act, tap, desk, DO_WORDS[act]))
    return ident(f"form-{act}", ft.Column(parts, spacing=8, tight=True))


def _players_heading(desk: Desk) -> str:
    everyone = desk.desk_entrants()
    out = sum(e.withdrawn for e in everyone)
    return f"Players: {len(everyone) - out} playing" + (f", {out} withdrawn" if out else "")


def _register(desk: Desk, tap: Tap, typed: dict[str, str]) -> ft.Control:
    def register() -> None:
        if desk.register(typed.get("player", "")):
            typed["player"] = ""

    return _inline(
        _field(
            "player",
            "Player's name (A & B for a pair)",
            typed.get("player", ""),
            lambda v: typed.__setitem__("player", v),
        ),
        button("register", "Register", tap(register), kind="filled", expand=False),
    )


def _entrant(desk: Desk, entrant: DeskEntrant, tap: Tap) -> ft.Control:
    """An entrant's line: number, name, where they sit, who they are kept apart from; their menu and form."""
    k = entrant.number
    key = f"entrant-{k}"
    opened = desk.menu == key
    pending = desk.pending if desk.pending is not None and desk.pending.entrant == k else None
    where = entrant.where or "not paired yet"
    apart = f"; kept apart from {', '.join(entrant.apart_from)}" if entrant.apart_from else ""
    name = ft.Column(
        [
            ident(key, ft.Text(f"{k}. {entrant.name}", size=17, weight=ft.FontWeight.BOLD)),
            note(f"{where}{apart}", identifier=f"entrant-where-{k}", size=13, color=ft.Colors.ON_SURFACE_VARIANT),
        ],
        spacing=2,
        tight=True,
        expand=True,
    )
    head: list[ft.Control] = [name]
    if entrant.acts:
        head.append(
            _menu_button(f"entrant-menu-{k}", entrant.name, tap, functools.partial(desk.toggle_menu, key), opened)
        )
    controls: list[ft.Control] = [ft.Row(head, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if opened:
        controls.append(
            _acts_menu(
                [
                    (f"{act}-{k}", ENTRANT_ACTS[act], tap(functools.partial(desk.begin, act, entrant=k)))
                    for act in entrant.acts
                ]
            )
        )
    if pending is not None:
        controls.append(_entrant_form(desk, entrant, pending, tap))
    return _card(controls, selected=opened or pending is not None)


def _entrant_form(desk: Desk, entrant: DeskEntrant, pending: Pending, tap: Tap) -> ft.Control:
    act = pending.act
    parts: list[ft.Control] = []
    if act == "withdraw":
        parts.append(note(f"Withdraw {entrant.name} from the next round on? Their results stay.", size=14))
    else:
        others = [e for e in desk.desk_entrants() if e.number != entrant.number]
        if act == "repair":
            others = [e for e in others if e.where and not e.withdrawn]
            question = f"Swap {entrant.name}'s seat with whom? (before the round's first hand; new codes for all)"
        else:
            question = f"Keep {entrant.name} apart from whom?"
        parts.append(note(question, size=14))
        parts.append(
            wrap_row(
                [
                    button(
                        f"{act}-with-{e.number}",
                        e.name,
                        tap(functools.partial(desk.choose, str(e.number))),
                        icon=ft.Icons.CHECK if str(e.number) in pending.chosen else None,
                        kind="filled" if str(e.number) in pending.chosen else "outlined",
                        expand=False,
                    )
                    for e in others
                ]
            )
        )
    if act in NEEDS_REASON:
        parts.append(_reason(act, pending, desk))
    parts.append(_form_buttons(act, tap, desk, DO_WORDS[act]))
    return ident(f"form-{act}", ft.Column(parts, spacing=8, tight=True))
