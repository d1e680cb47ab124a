"""Standings by a published tiebreak order, with each entrant's working.

The order (docs/tournament.md) where the rules have game points (Smartt §14):

1. total game points;
2. games won;
3. Rubes inflicted;
4. cumulative point spread;
5. opponents' game points, the worst one dropped;
6. head-to-head: game points won against the others still tied.

Where the rules have no game points (American, Jaques): games won, spread,
opponents' games won with the worst dropped, head-to-head (games won
against the others still tied). Entrants equal on every criterion share a
place. Only confirmed results count; an entrant with a result still waiting
for its confirmation is marked provisional.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

GAME_POINTS_ORDER = (
    "game points",
    "games won",
    "Rubes inflicted",
    "spread",
    "opponents' game points, worst dropped",
    "head-to-head",
)
GAMES_WON_ORDER = ("games won", "spread", "opponents' games won, worst dropped", "head-to-head")


@dataclass(frozen=True)
class Outcome:
    """One entrant's confirmed result in one round: at a table, or a bye (``table`` None)."""

    entrant: int
    round: int
    table: int | None
    opponents: tuple[int, ...]
    game_points: int
    games_won: int
    rubes: int
    spread: int
    against: Mapping[int, int] = field(default_factory=dict)
    provisional: bool = False
    # A forfeit at the table: "win" (scored as a bye) or "lost" (nothing); None when it was played.
    forfeit: str | None = None
    # A table with no confirmed hand yet: no meeting, nothing scored.
    unplayed: bool = False


@dataclass(frozen=True)
class Entry:
    """An entrant as the standings name them: id, registration number, name, and the round they withdrew from."""

    id: int
    number: int
    name: str
    withdrawn_round: int | None = None


@dataclass(frozen=True)
class Standing:
    """One line of the standings: place, the figures of the tiebreak order, and the working."""

    place: int
    shared: bool
    entrant: int
    number: int
    name: str
    game_points: int
    games_won: int
    rubes: int
    spread: int
    opponents: int
    head_to_head: int
    rounds: int
    provisional: bool
    working: tuple[str, ...]
    # Withdrawn (from round ``withdrawn_from`` on): their results stay, and every list of standings marks them.
    withdrawn: bool = False
    withdrawn_from: int | None = None

    @property
    def marks(self) -> str:
        """What follows the figures of the line in words: " (withdrawn from round 3)", " (provisional)", or ""."""
        out = ""
        if self.withdrawn_from is not None:
            out += f" (withdrawn from round {self.withdrawn_from})"
        if self.provisional:
            out += " (provisional)"
        return out


def _how(outcome: Outcome) -> str:
    """What the working says of a round not played at a table: a bye, a forfeit win, a forfeit."""
    if outcome.table is None:
        return " (bye)"
    if outcome.unplayed:
        return " (not played yet)"
    return {"win": " (forfeit win)", "lost": " (forfeited)"}.get(outcome.forfeit or "", "")


def tiebreak_order(game_points: bool) -> tuple[str, ...]:
    """The published order of the criteria for rules with (or without) game points."""
    return GAME_POINTS_ORDER if game_points else GAMES_WON_ORDER


def compute_standings(entries: Sequence[Entry], outcomes: Sequence[Outcome], *, game_points: bool) -> list[Standing]:
    """The standings of ``entries`` from ``outcomes``, best first (see the module's order)."""
    names = {e.id: e.name for e in entries}
    withdrawn = {e.id: e.withdrawn_round for e in entries}
    mine: dict[int, list[Outcome]] = {e.id: [] for e in entries}
    for outcome in outcomes:
        mine.setdefault(outcome.entrant, []).append(outcome)

    def total(entrant: int, what: str) -> int:
        return sum(getattr(o, what) for o in mine.get(entrant, ()))

    primary = "game_points" if game_points else "games_won"
    base: dict[int, tuple[int, ...]] = {}
    working: dict[int, list[str]] = {}
    opp_figure: dict[int, int] = {}
    for e in entries:
        results = sorted(mine[e.id], key=lambda o: o.round)
        faced = [(opp, total(opp, primary)) for o in results for opp in o.opponents]
        kept = sorted(faced, key=lambda pair: (pair[1], names.get(pair[0], "")))
        dropped, counted = (kept[0], kept[1:]) if kept else (None, [])
        opp_figure[e.id] = sum(points for _, points in counted)
        lines = []
        for what, label in (
            ("game_points", "game points"),
            ("games_won", "games won"),
            ("rubes", "Rubes"),
            ("spread", "spread"),
        ):
            if what in ("game_points", "rubes") and not game_points:
                continue
            parts = " + ".join(f"R{o.round} {getattr(o, what)}{_how(o)}" for o in results)
            lines.append(f"{label} {total(e.id, what)}" + (f" = {parts}" if parts else ""))
        opp_words = " + ".join(f"{names.get(opp, opp)} {points}" for opp, points in counted) or "0"
        if dropped is not None:
            opp_words += f" ({names.get(dropped[0], dropped[0])} {dropped[1]} dropped)"
        lines.append(f"opponents {opp_figure[e.id]} = {opp_words}")
        working[e.id] = lines
        if game_points:
            base[e.id] = (
                total(e.id, "game_points"),
                total(e.id, "games_won"),
                total(e.id, "rubes"),
                total(e.id, "spread"),
                opp_figure[e.id],
            )
        else:
            base[e.id] = (total(e.id, "games_won"), total(e.id, "spread"), opp_figure[e.id])
    number = {e.id: e.number for e in entries}
    ordered = sorted(entries, key=lambda e: (tuple(-x for x in base[e.id]), e.number))
    out: list[Standing] = []
    place = 1
    i = 0
    while i < len(ordered):
        group = [e for e in ordered[i:] if base[e.id] == base[ordered[i].id]]
        ids = {e.id for e in group}
        h2h = {
            e.id: sum(o.against.get(other, 0) for o in mine[e.id] for other in o.opponents if other in ids)
            for e in group
        }
        if len(group) > 1:
            for e in group:
                met = ", ".join(names[x] for x in sorted(ids - {e.id}, key=lambda x: number[x]))
                working[e.id].append(f"head-to-head {h2h[e.id]} against {met} (tied on everything above)")
        group.sort(key=lambda e: (-h2h[e.id], e.number))
        j = 0
        while j < len(group):
            same = [e for e in group[j:] if h2h[e.id] == h2h[group[j].id]]
            for e in same:
                figures = base[e.id]
                out.append(
                    Standing(
                        place=place,
                        shared=len(same) > 1,
                        entrant=e.id,
                        number=e.number,
                        name=e.name,
                        game_points=total(e.id, "game_points"),
                        games_won=total(e.id, "games_won"),
                        rubes=total(e.id, "rubes"),
                        spread=total(e.id, "spread"),
                        opponents=figures[-1],
                        head_to_head=h2h[e.id],
                        rounds=len(mine[e.id]),
                        provisional=any(o.provisional for o in mine[e.id]),
                        working=tuple(working[e.id]),
                        withdrawn=withdrawn[e.id] is not None,
                        withdrawn_from=withdrawn[e.id],
                    )
                )
            place += len(same)
            j += len(same)
        i += len(group)
    return out
