"""The wall sheets set in type: an A4 PDF to pin up, readable from a metre away.

Pairings by name (alphabetical) and by table on portrait pages, names at
20 pt and table numbers at 28 pt; the standings and the cross-table on
landscape pages. Every page is headed with the event, its date and the
stage the page shows ("round 3 pairings", "standings after round 2",
"final standings"), and every font is embedded (``fonts``). Raises
``OSError`` when the file cannot be written and ``RuntimeError`` when the
shipped font is missing.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from scorepad.printable import printable
from scorepad.tournament.sheets import fonts
from scorepad.tournament.sheets.content import DASH, NAMED_ROUNDS, Sheets, sort_key

MARGIN = 14 * mm
HEAD = 16 * mm  # the band at the top of every page: event, date, page
STRIPE = colors.Color(0.92, 0.92, 0.92)
RULE = colors.Color(0.55, 0.55, 0.55)
MUTED = colors.Color(0.35, 0.35, 0.35)


def _text(value: object) -> str:
    """A value as paragraph markup: printable (no control characters), drawable in the font, &, < and > escaped."""
    return fonts.drawable(printable(str(value))).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _style(name: str, size: float, *, bold: bool = False, align: Any = 0, color: Any = colors.black) -> ParagraphStyle:
    regular, heavy = fonts.register()
    return ParagraphStyle(
        name,
        fontName=heavy if bold else regular,
        fontSize=size,
        leading=size * 1.2,
        alignment=align,
        textColor=color,
    )


def date_words(day: dt.date) -> str:
    """A date as a club writes it: "4 December 2026"."""
    return f"{day.day} {day:%B %Y}"


def _grid(rows: int, *, stripes: bool = True, pad: float = 5) -> TableStyle:
    """Lines under the head and between rows, and a light stripe on every other row to guide the eye across."""
    commands: list[Any] = [
        ("FONTNAME", (0, 0), (-1, -1), fonts.register()[0]),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, 0), 1.5, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.4, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), pad),
        ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
        ("LEFTPADDING", (0, 0), (-1, -1), 6),
        ("RIGHTPADDING", (0, 0), (-1, -1), 6),
    ]
    if stripes:
        commands += [("BACKGROUND", (0, r), (-1, r), STRIPE) for r in range(2, rows, 2)]
    return TableStyle(commands)


class _Title(Paragraph):
    """A page's title; the pages after it (a long list) repeat its words in their heading."""

    def __init__(self, words: str) -> None:
        super().__init__(_text(words), _style("title", 26, bold=True))
        self.section = words


class _SheetDoc(BaseDocTemplate):
    """The document, remembering the last title set, for the heading of the pages that continue it."""

    section = ""

    def afterFlowable(self, flowable: Flowable) -> None:
        """reportlab's hook after each flowable is drawn: a title starts a new heading."""
        if isinstance(flowable, _Title):
            self.section = flowable.section


def _title(words: str) -> list[Flowable]:
    return [_Title(words), Spacer(1, 5 * mm)]


def by_name(sheets: Sheets) -> list[Flowable]:
    """The pairings by name: name, table, against whom; withdrawn entrants greyed and marked."""
    assert sheets.pairings is not None
    name, table, against = _style("n", 20, bold=True), _style("t", 28, bold=True, align=TA_CENTER), _style("a", 15)
    faint = _style("w", 13, color=MUTED)
    head = _style("h", 12, bold=True)
    rows: list[list[Any]] = [
        [
            Paragraph("Name", head),
            Paragraph("Table", _style("hc", 12, bold=True, align=TA_CENTER)),
            Paragraph("Playing", head),
        ]
    ]
    for line in sheets.by_name:
        if line.withdrawn:
            rows.append(
                [
                    Paragraph(_text(line.name), _style("nw", 20, bold=True, color=MUTED)),
                    Paragraph(DASH, _style("tw", 20, align=TA_CENTER, color=MUTED)),
                    Paragraph(_text(line.against), faint),
                ]
            )
        else:
            rows.append(
                [
                    Paragraph(_text(line.name), name),
                    Paragraph(line.table, table),
                    Paragraph(_text(line.against), against),
                ]
            )
    width = A4[0] - 2 * MARGIN
    return [
        *_title(f"Round {sheets.pairings.number}: where you sit"),
        Paragraph("Find your name; go to that table.", _style("sub", 14, color=MUTED)),
        Spacer(1, 3 * mm),
        Table(rows, colWidths=[width * 0.50, width * 0.14, width * 0.36], style=_grid(len(rows)), repeatRows=1),
    ]


def by_table(sheets: Sheets) -> list[Flowable]:
    """The pairings by table: the table number, the sides (partners joined by "&")."""
    assert sheets.pairings is not None
    table, seats = _style("t", 28, bold=True, align=TA_CENTER), _style("s", 20)
    head = _style("h", 12, bold=True)
    rows: list[list[Any]] = [
        [Paragraph("Table", _style("hc", 12, bold=True, align=TA_CENTER)), Paragraph("Players", head)]
    ]
    rows += [[Paragraph(_text(number), table), Paragraph(_text(words), seats)] for number, words in sheets.by_table]
    width = A4[0] - 2 * MARGIN
    return [
        *_title(f"Round {sheets.pairings.number}: tables"),
        Table(rows, colWidths=[width * 0.16, width * 0.84], style=_grid(len(rows)), repeatRows=1),
    ]


def _stage_title(sheets: Sheets, what: str) -> str:
    stage = sheets.stage
    return f"Final {what.lower()}" if stage.final else f"{what} {stage.words}"


def _name_cell(name: str, mark: str, size: float) -> list[Paragraph]:
    """A name in bold, and under it, smaller, the withdrawn mark when there is one."""
    cell = [Paragraph(_text(name), _style("nm", size, bold=True, color=MUTED if mark else colors.black))]
    if mark:
        cell.append(Paragraph(_text(mark), _style("mk", size * 0.7, color=MUTED)))
    return cell


def _head_width(words: str, size: float) -> float:
    """A figure's column: as wide as the longest word of its head in bold (the head wraps between words)."""
    bold = fonts.register()[1]
    return max(56.0, max(stringWidth(w, bold, size) for w in words.split()) + 14)


def standings(sheets: Sheets) -> list[Flowable]:
    """The standings: place, number, name (withdrawn marked), the figures in the tiebreak order."""
    size = 16
    head = _style("h", 12, bold=True, align=TA_CENTER)
    figure = _style("f", size, align=TA_CENTER)
    first = _style("f1", size, bold=True, align=TA_CENTER)
    rows: list[list[Any]] = [
        [Paragraph("place", head), Paragraph("no.", head), Paragraph("name", _style("hl", 12, bold=True))]
        + [Paragraph(_text(h), head) for h in sheets.figures]
    ]
    provisional = False
    for line in sheets.standings:
        s = line.standing
        place = f"={s.place}" if s.shared else str(s.place)
        if s.provisional:
            place += "*"
            provisional = True
        rows.append(
            [Paragraph(place, first), Paragraph(str(s.number), figure), _name_cell(s.name, line.mark, size)]
            + [Paragraph(str(f), first if i == 0 else figure) for i, f in enumerate(line.figures)]
        )
    widths = [_head_width(h, 12) for h in sheets.figures]
    name = landscape(A4)[0] - 2 * MARGIN - 60 - 44 - sum(widths)
    notes = [f"Tiebreaks, in this order: {', '.join(sheets.order)}. Equal on all of them: a shared place (=)."]
    if provisional:
        notes.append("* a result still waits for its confirmation.")
    return [
        *_title(_stage_title(sheets, "Standings")),
        Table(rows, colWidths=[60, 44, name, *widths], style=_grid(len(rows)), repeatRows=1),
        Spacer(1, 4 * mm),
        *[Paragraph(_text(n), _style("note", 12, color=MUTED)) for n in notes],
    ]


def cross_table(sheets: Sheets) -> list[Flowable]:
    """The cross-table: a row per entrant (standings order), a cell per round: table, opponents' lines, score."""
    rounds = len(sheets.cross[0].cells) if sheets.cross else 0
    size = 13.0 if rounds <= NAMED_ROUNDS else 11.0 if rounds <= 7 else 9.0
    head = _style("h", 12, bold=True, align=TA_CENTER)
    top = _style("c1", size, align=TA_CENTER)
    low = _style("c2", size, bold=True, align=TA_CENTER)
    total_head = sheets.figures[0]
    rows: list[list[Any]] = [
        [Paragraph("#", head), Paragraph("name", _style("hl", 12, bold=True))]
        + [Paragraph(f"round {n}", head) for n in range(1, rounds + 1)]
        + [Paragraph(_text(total_head), head)]
    ]
    for line in sheets.cross:
        rows.append(
            [
                Paragraph(str(line.line), _style("ln", size + 2, bold=True, align=TA_CENTER)),
                _name_cell(line.standing.name, line.mark, size + 2),
            ]
            + [[Paragraph(_text(a), top), Paragraph(_text(b), low)] for a, b in line.cells]
            + [
                Paragraph(
                    str(sheets.standings[line.line - 1].figures[0]), _style("tot", size + 4, bold=True, align=TA_CENTER)
                )
            ]
        )
    width = landscape(A4)[0] - 2 * MARGIN
    name = 170.0
    cell = (width - 34 - name - 70) / max(rounds, 1)
    who = "the opponents" if rounds <= NAMED_ROUNDS else "the opponents by their number (#) in this list"
    key = f"Each round: the table (T3) and {who}, partners joined by &; under it the games won, yours first" + (
        ", and the game points you took." if sheets.figures[0] == "game points" else "."
    )
    return [
        *_title(_stage_title(sheets, "Cross-table")),
        Table(rows, colWidths=[34, name] + [cell] * rounds + [70], style=_grid(len(rows), pad=3), repeatRows=1),
        Spacer(1, 4 * mm),
        Paragraph(_text(key), _style("note", 12, color=MUTED)),
    ]


def entrants_page(sheets: Sheets) -> list[Flowable]:
    """Before round 1 is paired: who has entered, alphabetical."""
    style = _style("e", 20, bold=True)
    rows = [[Paragraph(_text(n), style)] for n in sorted(sheets.entrants, key=sort_key)]
    return [*_title("Entrants"), Table(rows or [[""]], style=_grid(len(rows) + 1, stripes=False))]


def write_sheets(path: Path, sheets: Sheets) -> None:
    """Write the wall sheets to ``path`` (A4; the pairings portrait, the standings and cross-table landscape).

    Before any round is paired they are the entrants, alphabetical. Raises
    ``OSError`` and ``RuntimeError`` (the font missing).
    """
    regular, bold = fonts.register()
    printed = dt.datetime.now(dt.UTC)

    def decorate(canvas: Canvas, doc: BaseDocTemplate) -> None:
        # Every page carries the event, its date and its page number, so a sheet pinned alone says what it is.
        # Drawn at the page's end, when its title (or the title it continues) is known.
        width, height = doc.pageTemplate.pagesize or doc.pagesize
        section = getattr(doc, "section", "")
        right = f"{section}  ·  {date_words(sheets.date)}" if section else date_words(sheets.date)
        event = fonts.drawable(printable(sheets.event))
        room = width - 2 * MARGIN - stringWidth(right, regular, 15) - 24
        canvas.saveState()
        # A long event name is set smaller rather than run into the date.
        canvas.setFont(bold, max(8.0, min(15.0, 15 * room / max(stringWidth(event, bold, 15), 1))))
        canvas.drawString(MARGIN, height - MARGIN, event)
        canvas.setFont(regular, 15)
        canvas.drawRightString(width - MARGIN, height - MARGIN, right)
        canvas.setStrokeColor(RULE)
        canvas.line(MARGIN, height - MARGIN - 5, width - MARGIN, height - MARGIN - 5)
        canvas.setFont(regular, 9)
        canvas.setFillColor(MUTED)
        canvas.drawString(MARGIN, MARGIN / 2, f"printed {printed:%d %b %Y %H:%M} UTC by scorepad")
        canvas.drawRightString(width - MARGIN, MARGIN / 2, f"page {doc.page}")
        canvas.restoreState()

    def template(name: str, size: tuple[float, float]) -> PageTemplate:
        frame = Frame(MARGIN, MARGIN, size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - HEAD, id=name)
        return PageTemplate(id=name, frames=[frame], pagesize=size, onPageEnd=decorate)

    story: list[Flowable] = []
    if sheets.pairings is not None:
        story += [*by_name(sheets), PageBreak(), *by_table(sheets)]
    if sheets.standings:
        if story:
            story += [NextPageTemplate("landscape"), PageBreak()]
        story += [*standings(sheets), PageBreak(), *cross_table(sheets)]
    if not story:
        story = entrants_page(sheets)
    first = "landscape" if sheets.pairings is None and sheets.standings else "portrait"
    templates = [template("portrait", A4), template("landscape", landscape(A4))]
    if first == "landscape":
        templates.reverse()
    title = f"{sheets.event}: {sheets.stage.words}"

    doc = _SheetDoc(
        str(path),
        pagesize=templates[0].pagesize,
        title=printable(title),
        author="scorepad",
        initialFontName=regular,
    )
    doc.addPageTemplates(templates)
    doc.build(story)
