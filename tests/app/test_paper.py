"""The paper views: the American stroke tally and the Jaques hole track, as values and as controls."""

from __future__ import annotations

import flet as ft
import pytest

from scorepad.app.models.paper import Tally, hole_track, stroke_tally
from scorepad.app.screens.paper import paper_view
from scorepad.rules.presets import Paper


@pytest.mark.parametrize(
    ("score", "tally"),
    [
        (0, Tally(False, 0, False, 0, False, 0)),
        (5, Tally(False, 0, False, 0, True, 0)),  # one stroke is 5 (American, 'Optional paper tally')
        (10, Tally(False, 0, True, 0, False, 0)),  # the large X, two strokes crossed
        (35, Tally(False, 0, True, 2, True, 0)),  # X (10) + two small x (20) + a stroke (5)
        (50, Tally(False, 1, False, 0, False, 0)),  # the X with a small x in each of its four spaces
        (125, Tally(False, 2, True, 1, True, 0)),
        (-15, Tally(True, 0, True, 0, True, 0)),  # a debit below zero: the tally after a minus sign
    ],
)
def test_stroke_tally(score: int, tally: Tally) -> None:
    assert stroke_tally(score) == tally
    assert tally.points == score


def test_every_score_round_trips() -> None:
    assert all(stroke_tally(s).points == s for s in range(-300, 301))


def test_hole_track() -> None:
    track = hole_track(47, 61)
    assert (track.holes, track.peg) == (61, 47)
    assert len(track.groups) == 13 and list(track.groups[-1]) == [61]
    assert hole_track(70, 61).peg == 61 and hole_track(-5, 121).peg == 0


def _identifiers(control: ft.Control) -> list[str]:
    found = []
    stack = [control]
    while stack:
        item = stack.pop()
        if isinstance(item, ft.Semantics) and item.identifier:
            found.append(item.identifier)
        for name in ("content", "controls"):
            child = getattr(item, name, None)
            if isinstance(child, list):
                stack.extend(child)
            elif isinstance(child, ft.Control):
                stack.append(child)
    return sorted(found)


def test_paper_view_for_the_book_in_play() -> None:
    american = paper_view(Paper.STROKES, 250, ["Ann", "Bob"], [135, -10])
    assert american is not None and _identifiers(american) == ["paper-tally-0", "paper-tally-1"]
    jaques = paper_view(Paper.HOLES, 61, ["Ann", "Bob"], [12, 40])
    assert jaques is not None and _identifiers(jaques) == ["paper-track-0", "paper-track-1"]
    assert paper_view(Paper.FIGURES, 250, ["Ann", "Bob"], [0, 0]) is None
