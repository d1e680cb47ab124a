"""Exports of an event: standings and results as CSV and XLSX, a printable PDF, every match as a record.

All of them are made from what the service gives the director (confirmed
results, the standings with their working), so no club is ever locked in:
the CSV and XLSX open anywhere, and each match is a ``sniff-record/1`` that
``scorepad referee`` replays. Raises ``OSError`` when a file cannot be
written and ``TournamentError`` (``AccessDenied``) for a caller who is not
the director.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from scorepad.printable import printable
from scorepad.store import AwaitsSettlement
from scorepad.tournament.service import TournamentService
from scorepad.tournament.sheets.content import gather
from scorepad.tournament.sheets.pdf import write_sheets
from scorepad.tournament.sheets.scores import SCORE_HEADER, game_scores
from scorepad.tournament.standings import Standing

# A spreadsheet reads a cell that starts with one of these as a formula: =HYPERLINK(...) sends the sheet's
# data away, @SUM(...)*cmd|"/c calc"!A1 starts a program (OWASP, "CSV injection"); tab and CR hide the start.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# Cells that start so and are safe as they are: a number ("-5" is minus five, no formula), and the
# standings' shared place ("=3", a constant: it calls nothing).
_SAFE_AS_IS = re.compile(r"[+-]?\d+|=\d+")

STANDINGS_HEADER = (
    "place",
    "number",
    "name",
    "game points",
    "games won",
    "Rubes inflicted",
    "spread",
    "opponents (worst dropped)",
    "head-to-head",
    "rounds",
    "provisional",
    "working",
    "withdrawn",
)
RESULTS_HEADER = (
    "round",
    "table",
    "seat order",
    "entrant",
    "game points",
    "games won",
    "Rubes inflicted",
    "spread",
    "hands played",
    "hands confirmed",
    "provisional",
    "match id",
    "forfeit",
)
# The workbook's results add each seat's game scores after the CSV's columns (the CSV keeps its format).
XLSX_RESULTS_HEADER = (*RESULTS_HEADER, *SCORE_HEADER)
# Column widths in characters: wide enough for the longest cell, never so wide a sheet loses its shape.
WIDTH_MIN, WIDTH_MAX = 6, 60


def standings_rows(standings: Sequence[Standing]) -> list[list[Any]]:
    """The standings as rows under ``STANDINGS_HEADER`` (a shared place is written ``=3``)."""
    return [
        [
            f"={s.place}" if s.shared else s.place,
            s.number,
            s.name,
            s.game_points,
            s.games_won,
            s.rubes,
            s.spread,
            s.opponents,
            s.head_to_head,
            s.rounds,
            "yes" if s.provisional else "",
            "; ".join(s.working),
            f"from round {s.withdrawn_from}" if s.withdrawn_from is not None else "",
        ]
        for s in standings
    ]


def results_rows(service: TournamentService, token: str | None, event_id: int) -> list[list[Any]]:
    """Every table of every round, one row per entrant, under ``RESULTS_HEADER`` (confirmed figures)."""
    rows: list[list[Any]] = []
    paired = service.event_info(token, event_id)["rounds_paired"]
    for number in range(1, paired + 1):
        view = service.round_view(token, event_id, number)
        for table in view.tables:
            if table.result is None:
                rows.append([number, table.number, "bye", table.names[0], "", "", "", "", "", "", "", "", ""])
                continue
            result = table.result
            forfeit = table.forfeit
            for seat, name in enumerate(table.names):
                if forfeit is not None:
                    # The forfeit replaces the table's result: the losers nothing, the others a forfeit win.
                    lost = table.entrants[seat] in forfeit.losers
                    rows.append(
                        [
                            number,
                            table.number,
                            seat + 1,
                            name,
                            0 if lost else forfeit.points,
                            0 if lost else forfeit.games,
                            0,
                            0,
                            result.hands_played,
                            0,
                            "",
                            table.match_id,
                            f"{'forfeited' if lost else 'forfeit win'}: {forfeit.reason}",
                        ]
                    )
                    continue
                side = table.side_of(seat)
                assert side is not None
                rows.append(
                    [
                        number,
                        table.number,
                        seat + 1,
                        name,
                        side.game_points,
                        side.games_won,
                        side.rubes,
                        side.spread,
                        result.hands_played,
                        result.hands_confirmed,
                        "yes" if result.provisional or result.hands_played > result.hands_confirmed else "",
                        table.match_id,
                        "",
                    ]
                )
    return rows


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet may open it: text that would start a formula is given a leading apostrophe.

    Numbers stay numbers (a negative spread is written as the number it is);
    every character a terminal or a workbook cannot hold (a control
    character, a lone surrogate) is written as a visible escape
    (``scorepad.printable``), so an XLSX is always written.
    """
    if not isinstance(value, str):
        return value
    text = printable(value)
    if text.startswith(FORMULA_START) and not _SAFE_AS_IS.fullmatch(text):
        return "'" + text
    return text


def _atomic(path: Path, write: Any) -> None:
    """Write through a file beside ``path`` and rename it into place (never half a file)."""
    partial = path.with_name(path.name + ".partial")
    try:
        write(partial)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """One CSV file (UTF-8, a header line first)."""

    def write(target: Path) -> None:
        with target.open("w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow([safe_cell(value) for value in header])
            writer.writerows([safe_cell(value) for value in row] for row in rows)

    _atomic(path, write)


def write_xlsx(path: Path, sheets: Sequence[tuple[str, Sequence[str], Sequence[Sequence[Any]]]]) -> None:
    """One XLSX workbook (openpyxl), a sheet per (title, header, rows); every text a string cell, never a formula."""
    book = Workbook()
    book.remove(book.active)  # type: ignore[arg-type]
    for title, header, rows in sheets:
        sheet = book.create_sheet(title)
        sheet.append([safe_cell(value) for value in header])
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in rows:
            sheet.append([safe_cell(value) for value in row])
        for line in sheet.iter_rows():
            for cell in line:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # openpyxl takes text starting "=" for a formula
        sheet.freeze_panes = "A2"
        fit_columns(sheet)
    _atomic(path, lambda target: book.save(str(target)))


def fit_columns(sheet: Any) -> None:
    """Set each column's width to its longest cell (between ``WIDTH_MIN`` and ``WIDTH_MAX`` characters).

    A cell longer than the widest column (the standings' working) wraps in it.
    """
    for index, column in enumerate(sheet.iter_cols(), 1):
        longest = max((len(str(c.value)) for c in column if c.value is not None), default=0)
        sheet.column_dimensions[get_column_letter(index)].width = min(max(longest + 2, WIDTH_MIN), WIDTH_MAX)
        if longest + 2 > WIDTH_MAX:
            for cell in column[1:]:
                cell.alignment = Alignment(wrap_text=True, vertical="top")


def results_with_scores(
    rows: Sequence[Sequence[Any]], scores: dict[tuple[int, int, int], tuple[str, str]]
) -> list[list[Any]]:
    """The results rows with each seat's game scores after them (under ``XLSX_RESULTS_HEADER``)."""
    out: list[list[Any]] = []
    for row in rows:
        number, table, seat = row[0], row[1], row[2]
        extra = scores.get((number, table, seat), ("", "")) if isinstance(seat, int) else ("", "")
        out.append([*row, *extra])
    return out


def export_event(
    service: TournamentService,
    token: str | None,
    event_id: int,
    folder: Path,
    *,
    formats: Sequence[str],
    skipped: list[str] | None = None,
) -> list[Path]:
    """Write the event's exports into ``folder``; returns the files written.

    ``formats``: any of ``csv`` (standings.csv, results.csv), ``xlsx``
    (event.xlsx), ``pdf`` (event.pdf) and ``records`` (one
    ``round-R-table-T.json`` per match). A match whose last hand awaits its
    settlement has no legal record yet (``AwaitsSettlement``): it is left
    out, and a sentence saying so is added to ``skipped``. Director only.
    """
    matches = service.match_ids(token, event_id)  # the director's check comes first
    standings = service.standings(token, event_id)
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    s_rows = standings_rows(standings)
    r_rows = results_rows(service, token, event_id)
    if "csv" in formats:
        for name, header, rows in (
            ("standings.csv", STANDINGS_HEADER, s_rows),
            ("results.csv", RESULTS_HEADER, r_rows),
        ):
            write_csv(folder / name, header, rows)
            written.append(folder / name)
    if "xlsx" in formats:
        x_rows = results_with_scores(r_rows, game_scores(service, token, event_id))
        write_xlsx(
            folder / "event.xlsx",
            [("Standings", STANDINGS_HEADER, s_rows), ("Results", XLSX_RESULTS_HEADER, x_rows)],
        )
        written.append(folder / "event.xlsx")
    if "pdf" in formats:
        sheets = gather(service, token, event_id)
        _atomic(folder / "event.pdf", lambda target: write_sheets(target, sheets))
        written.append(folder / "event.pdf")
    if "records" in formats:
        for number, table, match_id in matches:
            path = folder / f"round-{number}-table-{table}.json"
            try:
                text = json.dumps(service.store.export_record(match_id, complete=True), indent=1) + "\n"
            except AwaitsSettlement as err:
                if skipped is not None:
                    skipped.append(f"round {number} table {table} left out: {err}")
                continue
            _atomic(path, lambda target, text=text: target.write_text(text, encoding="utf-8"))
            written.append(path)
    return written
