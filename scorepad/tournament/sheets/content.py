"""What the wall sheets say, page by page, as plain rows: the layout (``pdf``) only sets them in type.

The sheets describe one moment of the event, its ``Stage``: the latest
round's pairings while it is to be played, with the standings and the
cross-table after the last round finished ("after round 2"), or "final"
once the last round is over. A round is over when every table has played
its games or hands, confirmed, or was forfeited, or when the director
locked it. Withdrawn entrants are marked wherever they appear. Raises
``TournamentError`` (``AccessDenied``) for a caller who is not the director.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from scorepad.tournament.service import RoundView, TableView, TournamentService
from scorepad.tournament.sheets.roster import Entrant, read_roster
from scorepad.tournament.standings import Standing, tiebreak_order

# A dash for scores ("2–1") and for "nothing here" in a cell.
DASH = "–"
# Up to this many rounds the cross-table's cells name the opponents; past it they give their line numbers.
NAMED_ROUNDS = 4


@dataclass(frozen=True)
class Stage:
    """How far the event is: ``paired`` rounds paired of ``rounds``, the latest one over or not."""

    paired: int
    rounds: int
    latest_over: bool

    @property
    def through(self) -> int:
        """The last round whose results the standings and the cross-table show (0: none yet)."""
        return self.paired if self.latest_over else max(self.paired - 1, 0)

    @property
    def final(self) -> bool:
        """Every round has been played."""
        return self.latest_over and self.paired >= self.rounds

    @property
    def words(self) -> str:
        """The stage as the sheets head it: "final", "after round 2", "before round 1"."""
        if self.final:
            return "final"
        if self.through == 0:
            return "before round 1"
        return f"after round {self.through}"


@dataclass(frozen=True)
class NameLine:
    """One entrant in the pairings by name: where they sit and against whom (or why not)."""

    name: str
    table: str  # a table number, "bye", or a dash for a withdrawn entrant
    against: str
    withdrawn: bool = False


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings as printed: the figures in the tiebreak order, and a withdrawn mark."""

    standing: Standing
    figures: tuple[int, ...]
    mark: str  # "withdrawn after round 1", or ""


@dataclass(frozen=True)
class CrossLine:
    """One entrant's row of the cross-table: a cell per round (two short lines each)."""

    line: int
    standing: Standing
    mark: str
    cells: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Sheets:
    """Everything the wall sheets print, in order."""

    event: str
    date: dt.date
    stage: Stage
    pairings: RoundView | None  # the round to be played (None once the event is final, or before round 1)
    by_name: tuple[NameLine, ...]
    by_table: tuple[tuple[str, str], ...]
    figures: tuple[str, ...]  # the standings' column heads after place, number and name
    order: tuple[str, ...]
    standings: tuple[StandingLine, ...]
    cross: tuple[CrossLine, ...]
    entrants: tuple[str, ...]  # every entrant's name, by number


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical order as a club reads it: case and accents ignored (Émile with the Es), then as written."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return (plain.casefold(), name)


def withdrawn_words(entrant: Entrant | None) -> str:
    """The mark of a withdrawn entrant ("withdrawn after round 1"), or "" for one who plays on."""
    if entrant is None or entrant.withdrawn_round is None:
        return ""
    last = entrant.withdrawn_round - 1
    return f"withdrawn after round {last}" if last else "withdrawn before round 1"


def side_count(table: TableView) -> int:
    """How many sides play at the table (one a player, or two partnerships)."""
    return table.sides or len(table.names)


def against_words(table: TableView, seat: int) -> str:
    """Who sits with and against the player in ``seat``: "v Bob", "with Cy v Bob & Dee", "v Bob, Cy"."""
    sides = side_count(table)
    mine = seat % sides
    partners = [n for i, n in enumerate(table.names) if i % sides == mine and i != seat]
    others = [" & ".join(team) for side, team in enumerate(table.teams) if side != mine]
    joiner = " v " if any(len(team) > 1 for team in table.teams) else ", "
    words = "v " + joiner.join(others)
    return f"with {' & '.join(partners)} {words}" if partners else words


def round_over(view: RoundView, unit: str, per_round: int) -> bool:
    """Every table of the round is done (played, confirmed, or forfeited), or the director locked it."""
    if view.locked:
        return True
    for table in view.tables:
        if table.bye or table.forfeit is not None:
            continue
        result = table.result
        if result is None or result.provisional:
            return False
        done = result.games_finished if unit == "games" else result.hands_finished
        if done < per_round or result.hands_confirmed < result.hands_finished:
            return False
    return True


def name_lines(view: RoundView, entrants: Sequence[Entrant]) -> tuple[NameLine, ...]:
    """The round's pairings by name, alphabetical; entrants withdrawn by then are listed, marked."""
    lines: list[NameLine] = []
    for table in view.tables:
        for seat, name in enumerate(table.names):
            if table.bye:
                lines.append(NameLine(name, "bye", "a bye this round"))
            else:
                lines.append(NameLine(name, str(table.number), against_words(table, seat) + forfeit_words(table)))
    for entrant in entrants:
        if entrant.withdrawn_round is not None and entrant.withdrawn_round <= view.number:
            lines.append(NameLine(entrant.name, DASH, withdrawn_words(entrant), withdrawn=True))
    return tuple(sorted(lines, key=lambda line: sort_key(line.name)))


def forfeit_words(table: TableView) -> str:
    """A forfeit at the table, as the pairings name it: " (forfeited by Dee: did not turn up)", or ""."""
    if table.forfeit is None:
        return ""
    return f" (forfeited by {', '.join(table.forfeit.loser_names)}: {table.forfeit.reason})"


def table_lines(view: RoundView) -> tuple[tuple[str, str], ...]:
    """The round's pairings by table: (table number or "bye", the sides and a forfeit)."""
    return tuple(
        ("bye", f"{t.names[0]}: a bye") if t.bye else (str(t.number), t.versus + forfeit_words(t)) for t in view.tables
    )


def figures_of(standing: Standing, game_points: bool) -> tuple[int, ...]:
    """A standing's figures in the published tiebreak order, then the rounds counted."""
    if game_points:
        head: tuple[int, ...] = (
            standing.game_points,
            standing.games_won,
            standing.rubes,
            standing.spread,
        )
    else:
        head = (standing.games_won, standing.spread)
    return (*head, standing.opponents, standing.head_to_head, standing.rounds)


def figure_heads(game_points: bool) -> tuple[str, ...]:
    """The column heads of ``figures_of``: short words a club member knows."""
    if game_points:
        return ("game points", "games won", "Rubes", "spread", "opponents' points", "head to head", "rounds")
    return ("games won", "spread", "opponents' games", "head to head", "rounds")


def score_words(table: TableView, seat: int) -> str:
    """Games won at the table, the player's side first: "2–1", or "1–0–1" with three sides; "" with none yet."""
    if table.result is None:
        return ""
    sides = side_count(table)
    mine = seat % sides
    order = [mine, *[s for s in range(sides) if s != mine]]
    return DASH.join(str(table.result.sides[s].games_won) for s in order)


def cross_cell(table: TableView, seat: int, lines: dict[int, int] | None, game_points: bool) -> tuple[str, str]:
    """One round of one entrant in the cross-table: (table and opponents, the score).

    The opponents are named, or given by their line in the cross-table when
    ``lines`` is given (many rounds leave no room for names).
    """
    if table.bye:
        return ("bye", "")
    sides = side_count(table)
    mine = seat % sides
    # Opponents (and partners), by name or by their line in the cross-table, so a reader can follow them.
    ref = [
        " & ".join(
            table.names[i] if lines is None else str(lines.get(table.entrants[i], "?"))
            for i in range(len(table.names))
            if i % sides == side
        )
        for side in range(sides)
        if side != mine
    ]
    where = f"T{table.number} v {', '.join(ref)}"
    if table.forfeit is not None:
        lost = table.entrants[seat] in table.forfeit.losers
        return (where, "forfeited" if lost else "forfeit win")
    side = table.side_of(seat)
    score = score_words(table, seat)
    if side is not None and game_points:
        score += f"  {side.game_points} gp"
    return (where, score.strip())


def _absent(entrant: Entrant | None, number: int) -> str:
    """Why an entrant has no table in round ``number``: not yet entered, withdrawn, or not paired."""
    if entrant is not None and number < entrant.joined_round:
        return "not yet entered"
    if entrant is not None and entrant.withdrawn_round is not None and entrant.withdrawn_round <= number:
        return "withdrawn"
    return "not paired"


def cross_lines(
    rounds: Sequence[RoundView], standings: Sequence[Standing], entrants: dict[int, Entrant], game_points: bool
) -> tuple[CrossLine, ...]:
    """The cross-table: a row per entrant in standings order, a cell per round.

    Up to ``NAMED_ROUNDS`` rounds the opponents are named; past it, given by their line.
    """
    lines = None if len(rounds) <= NAMED_ROUNDS else {s.entrant: i for i, s in enumerate(standings, 1)}
    cells: dict[int, list[tuple[str, str]]] = {s.entrant: [] for s in standings}
    for view in rounds:
        seen: set[int] = set()
        for table in view.tables:
            for seat, entrant in enumerate(table.entrants):
                if entrant in cells:
                    cells[entrant].append(cross_cell(table, seat, lines, game_points))
                    seen.add(entrant)
        for entrant, row in cells.items():
            if entrant not in seen:
                row.append((_absent(entrants.get(entrant), view.number), ""))
    return tuple(
        CrossLine(i, s, withdrawn_words(entrants.get(s.entrant)), tuple(cells[s.entrant]))
        for i, s in enumerate(standings, 1)
    )


def gather(service: TournamentService, token: str | None, event_id: int) -> Sheets:
    """Everything the wall sheets print, read through the service. Director only.

    Raises ``TournamentError`` (``AccessDenied``) for another caller.
    """
    roster = read_roster(service, token, event_id)
    info = service.event_info(token, event_id)
    paired = info["rounds_paired"]
    views = [service.round_view(token, event_id, n) for n in range(1, paired + 1)]
    over = bool(views) and round_over(views[-1], info["unit"], info["per_round"])
    stage = Stage(paired, info["rounds"], over)
    game_points = bool(info["game_points"])
    entrants = roster.by_id()
    standings = service.standings(token, event_id, through=stage.through) if stage.through else []
    pairings = None if stage.final or not views or over else views[-1]
    return Sheets(
        event=info["name"],
        date=roster.date,
        stage=stage,
        pairings=pairings,
        by_name=name_lines(pairings, roster.entrants) if pairings else (),
        by_table=table_lines(pairings) if pairings else (),
        figures=figure_heads(game_points),
        order=tiebreak_order(game_points),
        standings=tuple(
            StandingLine(s, figures_of(s, game_points), withdrawn_words(entrants.get(s.entrant))) for s in standings
        ),
        cross=cross_lines(views[: stage.through], standings, entrants, game_points),
        entrants=tuple(e.name for e in roster.entrants),
    )
