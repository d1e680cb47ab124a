"""Reading the engine's state for the table screen: pure functions, no Flet, no store.

Each function takes engine values (``Layout``, ``MatchState``, ``LastPlay``)
and arranges them as the small view values of ``views``; none decides a rule.
"""

from __future__ import annotations

from scorepad.app.models.views import Board, OpenEnd, Picture, Piece, SeriesRow, Sheet, SheetRow
from scorepad.rules import MatchState
from scorepad.rules.layout import Layout, Placement
from scorepad.rules.wording import series_words, short_end_words


def board_of(layout: Layout) -> Board:
    """The board count, its breakdown, the Sniff's stage and the open ends."""
    return Board(
        count=layout.board_count,
        breakdown=tuple(layout.breakdown()),
        explain=layout.explain(),
        sniff_stage=layout.sniff_stage(),
        open_ends=layout.describe_open_ends(),
    )


def picture_of(layout: Layout) -> Picture:
    """The layout as pieces in rows: the line left to right, then the Sniff's short arms."""
    if layout.set_tile is None:
        return Picture(line=(), up=(), down=(), open_ends=())
    a, b = layout.set_tile
    set_piece = Piece(a, b, crosswise=a == b, sniff=layout.sniff_at == "set", label=f"set {a}-{b}")
    line = (
        *(_piece(p, outward_left=True) for p in reversed(layout.arms["left"])),
        set_piece,
        *(_piece(p, outward_left=False) for p in layout.arms["right"]),
    )
    sniff = f"{layout.sniff_value}-{layout.sniff_value}" if layout.sniff_value is not None else None
    return Picture(
        line=line,
        up=tuple(_piece(p, outward_left=False) for p in layout.arms["up"]),
        down=tuple(_piece(p, outward_left=False) for p in layout.arms["down"]),
        open_ends=tuple(OpenEnd(at, value) for at, value in layout.open_ends().items()),
        sniff=sniff,
    )


def sheet_of(state: MatchState) -> Sheet:
    """The score sheet: every hand with each side's start and end scores, and the day's series (Smartt §14)."""
    rows = tuple(
        SheetRow(
            number=hand.number,
            game=hand.game,
            setter=state.players[hand.setter],
            start=tuple(hand.scores_before),
            end=tuple(hand.scores_after),
            # The row names who went out or won, never its setter as the winner (issue 19, item 6).
            how=short_end_words(state, hand),
        )
        for hand in state.hands
    )
    sides = tuple(state.side_name(s) for s in range(state.rules.sides))
    # Every game of the match, derived again from its hands: nothing is lost after Next game.
    series = state.series()
    points, rubed = series.game_points, series.rubed
    totals = tuple(
        SeriesRow(
            name,
            series.wins[s],
            points[s] if points is not None else None,
            rubed[s] if rubed is not None else None,
        )
        for s, name in enumerate(sides)
    )
    return Sheet(
        sides=sides,
        target=state.rules.target,
        rows=rows,
        series_lines=tuple(series_words(state, series)),
        series=totals if series.lines else (),
    )


def _piece(p: Placement, *, outward_left: bool) -> Piece:
    """A placed tile as drawn: on the left arm its outer value is on the left; doubles lie crosswise."""
    first, second = (p.outer, p.inner) if outward_left else (p.inner, p.outer)
    label = ("Sniff " if p.sniff else "") + f"{p.inner}-{p.outer} at {p.at}"
    return Piece(first, second, crosswise=p.double, sniff=p.sniff, label=label)
