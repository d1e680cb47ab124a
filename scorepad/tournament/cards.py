"""Table cards: one A4 page per table of a round (big number, the players, the QR code that joins, the code).

A table's code is stored only as an argon2 hash (``access.py``), so nobody
can read one back: a card needs a code just issued. ``reissue_codes`` asks
the service for a new code for every table of the round in play (the old
codes stop working for a new join; a phone that has joined already keeps
its sign-in, which is opened per table, not per code), and ``table_cards``
prints them. The director's desk and ``scorepad tournament cards`` both use
these two; neither decides anything (the service checks the director).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from typing import Any

import segno
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scorepad.tournament.errors import TournamentError

# The page's margins and type sizes, in points: the number read from across a hall, the names from a chair.
MARGIN = 20 * mm
NUMBER_SIZE = 160
NAMES_SIZE = 30
CODE_SIZE = 34
SMALL_SIZE = 13
# The QR code's side on paper (a phone reads it from half a metre).
QR_SIDE = 90 * mm


def reissue_codes(service: Any, token: str | None, event_id: int) -> dict[int, str]:
    """A new code for every table (not the byes) of the round in play, by number.

    Raises ``TournamentError`` when the latest round is locked (no code of
    it joins), and what ``TournamentService.new_code`` raises (no round, not
    the director); the codes issued before a refusal stay issued (each is
    its own audited act).
    """
    view = service.round_view(token, event_id)
    if view.locked:
        raise TournamentError(
            f"round {view.number} is locked: no table code of it joins; pair the next round (or reopen this one) first"
        )
    return {t.number: service.new_code(token, event_id, t.number) for t in view.tables if not t.bye}


def table_cards(title: str, round_view: Any, codes: Mapping[int, str], link: Callable[[int, str], str | None]) -> bytes:
    """The cards as PDF bytes: a page per table holding a code in ``codes`` (byes and others are left out).

    ``link(number, code)`` is the address a phone opens to join that table
    (None: no QR code, only the code to type, as on a server this computer
    alone can open).
    """
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"{title}: table cards, round {round_view.number}")
    for table in round_view.tables:
        code = codes.get(table.number)
        if table.bye or code is None:
            continue
        _card(canvas, title, round_view.number, table, code, link(table.number, code))
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def _card(canvas: Canvas, title: str, round_number: int, table: Any, code: str, url: str | None) -> None:
    width, height = A4
    middle = width / 2
    canvas.setFont("Helvetica", SMALL_SIZE)
    canvas.drawCentredString(middle, height - MARGIN, f"{title} - round {round_number}")
    canvas.setFont("Helvetica-Bold", NUMBER_SIZE)
    canvas.drawCentredString(middle, height - MARGIN - NUMBER_SIZE, str(table.number))
    canvas.setFont("Helvetica", SMALL_SIZE)
    canvas.drawCentredString(middle, height - MARGIN - NUMBER_SIZE - 32, "table")
    y = height - MARGIN - NUMBER_SIZE - 90
    canvas.setFont("Helvetica-Bold", NAMES_SIZE)
    for line in _sides(table):
        canvas.drawCentredString(middle, y, line)
        y -= NAMES_SIZE + 8
    if url is not None:
        _qr(canvas, url, middle - QR_SIDE / 2, y - QR_SIDE - 10)
        y -= QR_SIDE + 30
        canvas.setFont("Helvetica", SMALL_SIZE)
        canvas.drawCentredString(middle, y, "Scan with the table's phone to join, or type the code:")
    else:
        y -= 20
        canvas.setFont("Helvetica", SMALL_SIZE)
        canvas.drawCentredString(middle, y, "On the table's phone, open the score-pad's Join page and type the code:")
    canvas.setFont("Courier-Bold", CODE_SIZE)
    canvas.drawCentredString(middle, y - CODE_SIZE - 6, code)


def _sides(table: Any) -> list[str]:
    """The sides, one a line: "Ann", "v", "Bob" (partners joined by '&')."""
    lines: list[str] = []
    for team in table.teams:
        if lines:
            lines.append("v")
        lines.append(" & ".join(team))
    return lines


def _qr(canvas: Canvas, url: str, x: float, y: float) -> None:
    """``url``'s QR code as black squares (vector: sharp at any printer's resolution), its quiet zone kept."""
    qr = segno.make(url, error="m")
    rows = [list(row) for row in qr.matrix_iter(border=4)]
    cell = QR_SIDE / len(rows)
    canvas.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(rows):
        for c, dark in enumerate(row):
            if dark:
                canvas.rect(x + c * cell, y + QR_SIDE - (r + 1) * cell, cell, cell, stroke=0, fill=1)
