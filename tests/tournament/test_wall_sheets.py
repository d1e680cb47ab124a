"""The wall sheets (event.pdf) and the workbook (event.xlsx), opened as a club member's software opens them.

The PDF is read with pypdf: every font it uses is embedded, each page
carries the event's date, the pages say which round they show ("after
round 2", "final"), the pairings by name are in alphabetical order, and a
withdrawn entrant is marked. The XLSX has column widths and each seat's
game scores, as the engine replays the match's confirmed hands.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from openpyxl import load_workbook
from pypdf import PdfReader

from scorepad.rules import parse_record, replay
from scorepad.tournament import TournamentService
from scorepad.tournament.exports import XLSX_RESULTS_HEADER, export_event
from scorepad.tournament.sheets.content import sort_key
from scorepad.tournament.sheets.pdf import date_words
from scorepad.tournament.sheets.roster import read_roster

from .helpers import club_day, new_event, play_round

NAMES = ["Fay", "émile", "Bob", "Ann", "Dee", "Cy", "Eve", "Hal"]


def _pages(path: Path) -> list[str]:
    """Each page's text, its cells joined by single spaces."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(path).pages]


def _fonts(path: Path) -> dict[str, Any]:
    """Every font the PDF's pages use, by its base name, with its descriptor."""
    found: dict[str, Any] = {}
    for page in PdfReader(path).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            found[str(font["/BaseFont"])] = font.get("/FontDescriptor")
    return found


def test_the_wall_sheets_of_a_round_to_play(service: TournamentService, tmp_path: Path) -> None:
    event, director = club_day(service, NAMES, withdraws="Hal", late="Gio")
    export_event(service, director, event, tmp_path, formats=["pdf"])
    pdf = tmp_path / "event.pdf"
    # Every font is embedded (a TrueType subset), none left to the viewer.
    fonts = _fonts(pdf)
    assert fonts and all(d is not None and "/FontFile2" in d for d in fonts.values()), fonts
    assert {name.split("+")[-1] for name in fonts} == {"DejaVuSans", "DejaVuSans-Bold"}
    pages = _pages(pdf)
    assert len(pages) == 4
    day = date_words(read_roster(service, director, event).date)
    assert all("Club night" in page and day in page for page in pages)
    by_name, by_table, standings, cross = pages
    # Pairings by name, alphabetical (accents and case ignored), withdrawn Hal listed and marked.
    assert "Round 3: where you sit" in by_name
    order = [word for word in by_name.split() if word in [*NAMES, "Gio"]][::2]  # each name, then its opponent
    assert order == sorted([*NAMES, "Gio"], key=sort_key) and order[4] == "émile"
    assert "Hal – withdrawn after round 1" in by_name
    view = service.round_view(director, event, 3)
    for table in view.tables:
        assert f"{table.number} {table.names[0]} v {table.names[1]}" in by_table
        assert f"{table.names[0]} {table.number} v {table.names[1]}" in by_name
    # Standings and the cross-table after the last round played, with its tiebreaks; the late entry and Hal marked.
    assert "Standings after round 2" in standings and "Cross-table after round 2" in cross
    assert "Tiebreaks, in this order: game points, games won, Rubes inflicted, spread" in standings
    assert "Hal withdrawn after round 1" in standings
    first = service.standings(director, event, through=2)[0]
    assert f"{'=' if first.shared else ''}{first.place} {first.number} {first.name} {first.game_points}" in standings
    # Hal's row: round 1 played, then withdrawn; Gio's: not yet entered in round 1.
    assert re.search(r"Hal withdrawn after round 1 T\d v \w+ [01]–[01] \d+ gp withdrawn", cross), cross
    assert re.search(r"Gio not yet entered T\d v \w+", cross), cross


def test_the_final_sheets_and_the_sheet_before_round_one(service: TournamentService, tmp_path: Path) -> None:
    event, director = new_event(service, ["Cy", "ann", "Bob", "Dee"], rounds=2, pairing="swiss")
    export_event(service, director, event, tmp_path, formats=["pdf"])
    (entrants,) = _pages(tmp_path / "event.pdf")
    assert "Entrants" in entrants and entrants.index("ann") < entrants.index("Bob") < entrants.index("Cy")
    play_round(service, event, service.pair_round(director, event))
    service.lock_round(director, event)
    # The last round is over when every table has played its game, confirmed: no lock needed.
    play_round(service, event, service.pair_round(director, event), seed=5)
    export_event(service, director, event, tmp_path, formats=["pdf"])
    pages = _pages(tmp_path / "event.pdf")
    # The event is over: no pairings left to post, the standings and cross-table are final.
    assert len(pages) == 2 and "Final standings" in pages[0] and "Final cross-table" in pages[1]
    assert not any("where you sit" in page or "after round" in page for page in pages)


def test_fours_pairings_name_partners_and_opponents(service: TournamentService, tmp_path: Path) -> None:
    event, director = new_event(service, ["Ray", "Ned", "Quin", "Pat"], rounds=2, kind="fours")
    view = service.pair_round(director, event)
    export_event(service, director, event, tmp_path, formats=["pdf"])
    by_name = _pages(tmp_path / "event.pdf")[0]
    (table,) = view.tables
    first, second = table.teams
    assert f"{first[0]} 1 with {first[1]} v {' & '.join(second)}" in by_name
    assert f"1 {table.versus}" in _pages(tmp_path / "event.pdf")[1]


def test_the_workbook_has_widths_and_game_scores(service: TournamentService, tmp_path: Path) -> None:
    event, director = club_day(service, NAMES, withdraws="Hal", late="Gio")
    export_event(service, director, event, tmp_path, formats=["xlsx"])
    book = load_workbook(tmp_path / "event.xlsx")
    assert book.sheetnames == ["Standings", "Results"]
    for sheet in book:
        for column in sheet.iter_cols():
            letter = column[0].column_letter
            width = sheet.column_dimensions[letter].width
            longest = max(len(str(c.value)) for c in column if c.value is not None)
            assert min(longest + 2, 60) <= width <= 60, (sheet.title, letter, width)
    results = book["Results"]
    header = [c.value for c in results[1]]
    assert tuple(header) == XLSX_RESULTS_HEADER
    rows = [dict(zip(header, r, strict=True)) for r in results.iter_rows(min_row=2, values_only=True)]
    checked = 0
    for row in rows:
        if row["seat order"] == "bye" or row["round"] == 3:  # a bye, or round 3 not begun: no game scores
            assert row["game scores"] is None and row["score in games"] in (None, "0–0")
            continue
        # The engine's own account of the match: each game's final scores, the seat's side first.
        games = replay(parse_record(service.store.export_record(row["match id"]))).games()
        mine = row["seat order"] - 1
        expected = ", ".join(f"{g.scores[mine]}–{g.scores[1 - mine]}" for g in games)
        assert row["game scores"] == expected and expected
        won = sum(g.winner == mine for g in games)
        assert row["score in games"] == f"{won}–{len(games) - won}" and won == row["games won"]
        checked += 1
    assert checked == 16


def test_a_forfeit_is_named_in_the_pairings(service: TournamentService, tmp_path: Path) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=2, pairing="swiss")
    one = service.pair_round(director, event).tables[0]
    service.forfeit(director, event, one.number, [one.names[1]], reason="did not turn up")
    export_event(service, director, event, tmp_path, formats=["pdf"])
    by_name, by_table, *_ = _pages(tmp_path / "event.pdf")
    words = f"(forfeited by {one.names[1]}: did not turn up)"
    assert f"{one.number} {one.versus} {words}" in by_table
    assert f"{one.names[0]} {one.number} v {one.names[1]} {words}" in by_name


def test_a_name_the_font_cannot_draw_is_printed_as_its_codes(service: TournamentService, tmp_path: Path) -> None:
    # DejaVu Sans draws Greek and Cyrillic, not Chinese: 李雷 would print as nothing, so its codes stand there.
    event, director = new_event(service, ["Ольга", "Σοφία", "Zoë", "李雷"], rounds=2)
    service.pair_round(director, event)
    export_event(service, director, event, tmp_path, formats=["pdf"])
    by_name, by_table = _pages(tmp_path / "event.pdf")
    assert "[U+674E][U+96F7]" in by_name and "[U+674E][U+96F7]" in by_table
    assert all(name in by_name for name in ("Ольга", "Σοφία", "Zoë"))
