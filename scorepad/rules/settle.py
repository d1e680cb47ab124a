"""Settling a hand and a game: 5-rounding, awards, debits, game points and Rube."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from scorepad.rules.rulesets import RuleSet

RENEGE_ROLLBACK = 25  # Smartt §11.1
RENEGE_DEDUCTION = 50  # Smartt §11.1, the alternative by prior agreement
RUBE_LINE = 150  # Smartt §14: a loser at 150 or below is Rubed

# Smartt §14: game points to the winner by the loser's final score (lower bound of each band).
GAME_POINT_BANDS = ((230, 2), (180, 3), (155, 4), (130, 8), (80, 10), (30, 12))
LOWEST_BAND_POINTS = 14


def round5(pips: int) -> int:
    """Round a pip total to the nearest five: remainders 0-2 go down, 3-4 go up (Smartt §9.2)."""
    return (pips + 2) // 5 * 5


@dataclass(frozen=True)
class Settlement:
    """What a finished hand pays: an award to one side, or a debit per seat.

    ``steps`` explains it in words; they are written only when someone reads them.
    """

    how: str
    pips: tuple[int, ...]
    rules: RuleSet = field(repr=False, compare=False)
    out_by: int | None = None
    award: int | None = None
    to: int | None = None
    debits: tuple[int, ...] | None = None

    def deltas(self, rules: RuleSet) -> list[int]:
        """The change this settlement makes to each side's score."""
        out = [0] * rules.sides
        if self.award is not None and self.to is not None:
            out[self.to] += self.award
        if self.debits is not None:
            for seat, debit in enumerate(self.debits):
                out[rules.side_of(seat)] -= debit
        return out

    @cached_property
    def steps(self) -> list[str]:
        """The settlement step by step: whose pips, the rounding, who scores."""
        rules, pips = self.rules, self.pips
        if self.debits is not None:
            return [
                f"seat {seat}: {p} pips rounds to {d}, taken off side {rules.side_of(seat)}"
                for seat, (p, d) in enumerate(zip(pips, self.debits, strict=True))
                if p
            ]
        if self.how == "out":
            side = rules.side_of(self.out_by or 0)
            paying = [seat for seat in range(rules.players) if rules.side_of(seat) != side]
            total = sum(pips[seat] for seat in paying)
            terms = " + ".join(str(pips[s]) for s in paying)
            held = f"opponents hold {terms} = {total} pips" if len(paying) > 1 else f"opponent holds {total} pips"
            return [held, f"{total} rounds to {self.award}", f"side {side} scores {self.award}"]
        side_pips = _side_pips(rules, list(pips))
        steps = ["pips by side: " + ", ".join(f"side {s} {p}" for s, p in enumerate(side_pips))]
        if self.to is None:
            return [*steps, "a tie for the lowest total: nobody scores"]
        total = sum(p for side, p in enumerate(side_pips) if side != self.to)
        return [
            *steps,
            f"side {self.to} has the lowest total and takes the others' {total} pips",
            f"{total} rounds to {self.award}",
            f"side {self.to} scores {self.award}",
        ]


def settle_hand(rules: RuleSet, how: str, pips: list[int], out_by: int | None) -> Settlement:
    """Settle a hand that ended by going out (``out_by`` seat) or by a block.

    ``pips`` is each seat's remaining pip total. The award rules (smartt, jaques)
    pay the side that went out all its opponents' pips, or in a block the side
    with the single lowest total all the others' pips, rounded once; a tie for
    lowest pays nothing. The american rule rounds each seat's own pips and
    debits them from its side.
    """
    held = tuple(pips)
    if rules.settlement == "debit":
        # American 'End and settle a round': every hand is rounded on its own, partners too.
        return Settlement(how, held, rules, out_by, debits=tuple(round5(p) for p in pips))
    side_pips = _side_pips(rules, pips)
    if how == "out":
        assert out_by is not None
        side = rules.side_of(out_by)
        # Smartt §9.1 and the three/four-player rules: only the opponents' pips are paid.
        total = sum(side_pips) - side_pips[side]
        return Settlement(how, held, rules, out_by, award=round5(total), to=side)
    lowest = min(side_pips)
    low_sides = [side for side, p in enumerate(side_pips) if p == lowest]
    if len(low_sides) > 1:
        # Smartt §9.2: equal lowest totals score nothing.
        return Settlement(how, held, rules, out_by, award=0, to=None)
    winner = low_sides[0]
    # Smartt §9.2: the lowest takes the others' full total, not the difference.
    total = sum(p for side, p in enumerate(side_pips) if side != winner)
    return Settlement(how, held, rules, out_by, award=round5(total), to=winner)


def _side_pips(rules: RuleSet, pips: list[int]) -> list[int]:
    """Each side's remaining pips: one a seat, or partners added together (records.md §1: seats 0 and 2, 1 and 3).

    Read once for every hand settled: the partners' seats are every other seat from the side's number.
    """
    return [sum(pips[side::2]) for side in range(2)] if rules.partners else list(pips)


def game_points_for(loser_score: int) -> int:
    """Smartt §14: the game points a loser's final score gives the winner (below 0 counts as 0-25)."""
    for floor, points in GAME_POINT_BANDS:
        if loser_score >= floor:
            return points
    return LOWEST_BAND_POINTS


def is_rubed(loser_score: int) -> bool:
    """Smartt §14: a loser at 150 or below is Rubed."""
    return loser_score <= RUBE_LINE
