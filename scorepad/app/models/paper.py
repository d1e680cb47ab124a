"""Paper views of a score: the American stroke tally and the Jaques cribbage-board track.

Plain Python, no Flet: the same scores the score sheet shows, arranged as
they would be kept on paper. Our readings (docs/analysis.md, "Paper views"):

- American, 'Optional paper tally': a stroke is 5; a 50 is a large X in the
  middle with a small x in each of the four spaces around it. We read each
  x, large or small, as two strokes crossed (10), so a 50 is built up as the
  large X at 10, then one small x per 10 more, and a lone stroke stands for a
  5 not yet crossed.
- Jaques, 'Winning and scoring': scores are kept on a cribbage board running
  to 61 (121 in the partnership game): one hole a point, in groups of five,
  with the peg in the hole of the score.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tally:
    """A score as strokes: complete 50s, and the 50 being built (large X, small x's, a lone stroke)."""

    negative: bool
    fifties: int
    large_x: bool
    small_x: int
    stroke: bool
    odd: int  # points not a multiple of five (never under the American book; kept so nothing is hidden)

    @property
    def points(self) -> int:
        """The score the tally stands for."""
        value = 50 * self.fifties + 10 * (self.large_x + self.small_x) + 5 * self.stroke + self.odd
        return -value if self.negative else value


def stroke_tally(score: int) -> Tally:
    """The American paper tally of ``score`` (a score below zero is tallied after a minus sign)."""
    value = abs(score)
    fifties, rest = divmod(value, 50)
    tens, rest = divmod(rest, 10)
    fives, odd = divmod(rest, 5)
    return Tally(
        negative=score < 0,
        fifties=fifties,
        large_x=tens >= 1,
        small_x=max(0, tens - 1),
        stroke=bool(fives),
        odd=odd,
    )


@dataclass(frozen=True)
class Track:
    """A score on a cribbage-board track: ``holes`` in all, the peg in hole ``peg`` (0: not yet on the board)."""

    holes: int
    peg: int
    group: int = 5

    @property
    def groups(self) -> list[range]:
        """The holes in groups of five, numbered from 1."""
        return [range(start, min(start + self.group, self.holes + 1)) for start in range(1, self.holes + 1, self.group)]


def hole_track(score: int, target: int) -> Track:
    """The track of a game to ``target`` (61, or 121 with partners) with the peg at ``score``."""
    return Track(holes=target, peg=max(0, min(score, target)))
