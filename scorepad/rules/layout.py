"""The layout: the line of play, the Sniff with its four sides, and the board count.

Positions are named as in records.md §3: ``left`` and ``right`` are the two
ends of the line (the Sniff's long sides when the set is the Sniff, or its far
long side when it is laid later on an arm); ``up`` and ``down`` are the Sniff's
short ends.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

from scorepad.rules.errors import IllegalEventError
from scorepad.rules.events import POSITIONS
from scorepad.rules.tiles import SORTED_PAIRS, text

LINE = ("left", "right")
SHORT = ("up", "down")


class Placement(NamedTuple):
    """One tile on the table: where it went and which of its values faces out."""

    tile: tuple[int, int]
    at: str
    inner: int
    outer: int
    double: bool
    sniff: bool


# A placement's fields as a plain tuple (see ``Layout.__init__``).
_Placed = tuple[tuple[int, int], str, int, int, bool, bool]

# Every placement a tile coupled to an open end can make, made once, by the end, whether it
# becomes the Sniff, and the values against the end and facing out (pips 0-9: a double-nine set
# at most): ``_COUPLED[at][sniff][inner][outer]``. A placement is a value, so the same one laid
# in two hands can be the same tuple; a match keeps one for every tile laid, and each new object
# would be one more for the cyclic collector to walk and more memory to fill.
_COUPLED: dict[str, tuple[tuple[tuple[_Placed, ...], ...], ...]] = {
    at: tuple(
        tuple(
            tuple((SORTED_PAIRS[inner][outer], at, inner, outer, inner == outer, sniff) for outer in range(10))
            for inner in range(10)
        )
        for sniff in (False, True)
    )
    for at in POSITIONS
}


class Layout:
    """The tiles on the table and what the open ends count.

    ``sniff_rule`` False plays All Fives (no spinner, Jaques 'Variations');
    ``long_sides_first`` True keeps the short ends shut until both long sides
    are covered (Smartt §6, American 'The Sniff'); Jaques allows any order.
    """

    __slots__ = (
        "_arms",
        "_ends",
        "_ends_points",
        "_ends_view",
        "_placed",
        "_points",
        "_sniff_sides",
        "board_count",
        "long_sides_first",
        "set_tile",
        "sniff_at",
        "sniff_rule",
        "sniff_value",
    )

    def __init__(self, *, sniff_rule: bool = True, long_sides_first: bool = True) -> None:
        self.sniff_rule = sniff_rule
        self.long_sides_first = long_sides_first
        self.set_tile: tuple[int, int] | None = None
        self.sniff_value: int | None = None
        self.sniff_at: str | None = None
        # The positions at which the Sniff is still uncovered: a tile laid there covers that side.
        # Its short ends are in it from the start, open to play or not (they count either way).
        self._sniff_sides: tuple[str, ...] = ()
        # Placements are kept as plain tuples (the fields of Placement): the garbage
        # collector stops tracking a plain tuple of plain values, but never a named tuple.
        self._arms: dict[str, list[_Placed]] = {"left": [], "right": [], "up": [], "down": []}  # POSITIONS
        self._placed: list[_Placed] = []
        # The board count (Smartt §7.1): the total of every scoring extremity, kept up to date
        # play by play. A plain attribute, as the set and the Sniff are: a hand reads it on every play.
        self.board_count = 0
        self._ends: dict[str, int] = {}
        self._ends_view: MappingProxyType[str, int] = MappingProxyType(self._ends)
        # What each end adds to the board count, the Sniff aside, and their sum; kept up to date play by play.
        self._points = {"left": 0, "right": 0, "up": 0, "down": 0}  # POSITIONS, written out: one a hand
        self._ends_points = 0

    # -- reading ---------------------------------------------------------------

    @property
    def placements(self) -> list[Placement]:
        """Every tile on the table, in the order laid."""
        return [Placement._make(t) for t in self._placed]

    @property
    def arms(self) -> dict[str, list[Placement]]:
        """The tiles of each arm (left, right, up, down), from the set or the Sniff outwards."""
        return {pos: [Placement._make(t) for t in arm] for pos, arm in self._arms.items()}

    def open_ends(self) -> MappingProxyType[str, int]:
        """Each position a tile may be played on now, with the value it must match (read-only)."""
        return self._ends_view

    def fits(self, tile: tuple[int, int]) -> list[str]:
        """The positions where ``tile`` couples to an open end (empty before the set: any tile sets)."""
        a, b = tile
        return [pos for pos, value in self._ends.items() if value in (a, b)]

    def breakdown(self) -> list[tuple[str, int]]:
        """Where the board count comes from: ``(label, points)`` for each scoring extremity."""
        return self._parts()

    def explain(self) -> str:
        """The board count as a sum in words, e.g. ``left 3 + right 5 + Sniff 5-5 (...: 5) = 13``."""
        parts = self._parts()
        if not parts:
            return "no tiles yet = 0"
        return " + ".join(label for label, _ in parts) + f" = {self.board_count}"

    def sniff_stage(self) -> str:
        """The Sniff's stage in words, for the table screen."""
        if self.sniff_value is None:
            return "no Sniff yet" if self.sniff_rule else "All Fives: no Sniff"
        n = self.sniff_value
        long_open, short_open = self._sniff_open_sides()
        state = _sides_words(long_open, short_open)
        if not self._short_ends_open() and self.long_sides_first:
            state += "; short ends open once both long sides are covered"
        return f"Sniff {n}-{n}: {state}, counts {self._sniff_points()}"

    def sniff_open_sides(self) -> tuple[int, int]:
        """How many of the Sniff's long sides and short ends are uncovered (``(0, 0)`` without a Sniff).

        A Sniff laid on an arm has only its far long side to count (its near one is covered, R2).
        """
        if self.sniff_value is None:
            return 0, 0
        return self._sniff_open_sides()

    def describe_open_ends(self) -> str:
        """The open ends in words, e.g. ``left 3, right 5``."""
        return ", ".join(f"{pos} {value}" for pos, value in self._ends.items()) or "none (no set yet)"

    def copy(self) -> Layout:
        """An independent copy of this layout: placing on it never changes the original.

        Placements are tuples of plain values, so copying the lists that hold them is enough.
        """
        twin: Layout = object.__new__(Layout)
        twin.sniff_rule = self.sniff_rule
        twin.long_sides_first = self.long_sides_first
        twin.set_tile = self.set_tile
        twin.sniff_value = self.sniff_value
        twin.sniff_at = self.sniff_at
        twin._sniff_sides = self._sniff_sides  # a tuple, replaced and never changed
        arms = self._arms
        twin._arms = {"left": arms["left"][:], "right": arms["right"][:], "up": arms["up"][:], "down": arms["down"][:]}
        twin._placed = self._placed[:]
        twin.board_count = self.board_count
        twin._ends = self._ends.copy()
        twin._ends_view = MappingProxyType(twin._ends)
        twin._points = self._points.copy()
        twin._ends_points = self._ends_points
        return twin

    # -- playing ---------------------------------------------------------------

    def place(self, tile: tuple[int, int], at: str | None = None, *, stands: bool = False) -> Placement:
        """Lay ``tile`` (as written) at ``at`` and return the placement (``lay``: only where it went).

        The first tile is the set; ``tile`` is then read left-right. With
        ``stands`` the tile was coupled to an open end it does not match and the
        coupling stood (records.md §4, Smartt §11.5): its first value lies
        against the end and its second becomes that arm's open end. Raises
        IllegalEventError when the tile fits nowhere, does not fit ``at``, or
        fits more than one end and ``at`` is missing, or (with ``stands``) when
        it is the set, ``at`` is not open, or the tile does fit ``at``; the
        layout is unchanged.
        """
        self.lay(tile, at, stands=stands)
        return Placement._make(self._placed[-1])  # every tile laid is appended there, the last one this one

    def lay(self, tile: tuple[int, int], at: str | None = None, *, stands: bool = False) -> str:
        """Lay ``tile`` as ``place`` does and return only where it went (``set``, ``left``, ...).

        The hand's own path: a replay lays every tile and needs only its position,
        so no ``Placement`` is built for it. Raises IllegalEventError as ``place`` does.
        """
        a, b = tile
        if self.set_tile is None:
            if stands:
                raise IllegalEventError(f"the set can never stand as an illegal coupling; {text(tile)} is the set")
            if at not in (None, "set"):
                raise IllegalEventError(f"the first tile is the set and takes no 'at' (got {at!r})")
            self._lay_set(tile)
            return "set"
        if at == "set":
            raise IllegalEventError(f"the set is already down; {text(tile)} must couple to an open end")
        ends = self._ends
        if stands:
            return self._lay_stood(tile, at)[1]
        if at is None:
            # A loop, not a comprehension: in Python 3.11 a comprehension reading ``a`` and ``b``
            # makes them closure cells for the whole of ``lay``, which every replayed tile passes.
            where = []
            for pos, value in ends.items():
                if value in (a, b):
                    where.append(pos)
            if not where:
                raise IllegalEventError(f"{text(tile)} fits no open end; open ends: {self.describe_open_ends()}")
            if len(where) > 1:
                choices = _ends_named(ends, where)
                raise IllegalEventError(f"{text(tile)} fits more than one end ({choices}); say which with 'at'")
            at = where[0]
        elif at not in ends:
            raise IllegalEventError(self._closed_reason(at, tile))
        value = ends[at]
        if value != a and value != b:
            fitting = self.fits(tile)
            also = f"; it fits {', '.join(fitting)}" if fitting else "; it fits no open end"
            raise IllegalEventError(
                f"{text(tile)} does not fit the {at} end, which shows {value}"
                f" (open ends: {self.describe_open_ends()}){also}"
            )
        self._couple(at, value, b if a == value else a)
        return at

    def _lay_stood(self, tile: tuple[int, int], at: str | None) -> _Placed:
        """An illegal coupling that stood (records.md §4): first value against the end, second outward."""
        a, b = tile
        ends = self._ends
        if at is None or at not in ends:
            named = "no end" if at is None else f"the {at} end, which is not open"
            raise IllegalEventError(
                f"a tile that stood must name an open end with 'at', not {named}"
                f" (open ends: {self.describe_open_ends()})"
            )
        value = ends[at]
        if value in (a, b):
            raise IllegalEventError(
                f"{text(tile)} fits the {at} end, which shows {value}: a legal play is not marked 'stands'"
            )
        return self._couple(at, a, b)

    def count_if(self, tile: tuple[int, int], at: str | None) -> int:
        """The board count laying ``tile`` at ``at`` would make, the layout unchanged (the analysis's probes).

        A legal coupling is counted by the same code that lays it
        (``_after``), without copying the layout; the set is tried on a copy.
        Raises IllegalEventError as ``place`` does.
        """
        a, b = tile
        value = None if at is None else self._ends.get(at)
        if at is None or value is None or self.set_tile is None or (value != a and value != b):
            trial = self.copy()
            trial.place(tile, at)
            return trial.board_count
        return self._after(at, b if a == value else a, a == b)[0]

    def _after(self, at: str, outer: int, double: bool) -> tuple[int, int, tuple[str, int] | None]:
        """What a tile laid at the open end ``at`` with ``outer`` facing out makes, the layout unchanged.

        Returns the board count then, the points the end ``at`` then adds, and
        the bare side of a double set that becomes an ordinary double end with
        the points it then adds (None when none). ``_couple`` lays a tile with these figures and ``count_if``
        reads the count, so a probe and a play always count alike.
        """
        points = self._points
        becomes_sniff = double and self.sniff_rule and self.sniff_value is None
        here = 0 if becomes_sniff else (2 * outer if double else outer)
        count = self._ends_points - points[at] + here
        bare = None
        if not self.sniff_rule and (at == "left" or at == "right"):
            # All Fives: a double set with one side covered is an ordinary double at the other end
            # (under the Sniff rule a double set is the Sniff, counted below).
            assert self.set_tile is not None  # only the set itself is laid before the set
            set_a, set_b = self.set_tile
            other = "right" if at == "left" else "left"
            if set_a == set_b and not self._arms[other]:
                bare = (other, 2 * set_a)
                count += 2 * set_a - points[other]
        if becomes_sniff:
            # Smartt §6: the first double is the Sniff wherever it falls; laid on an arm,
            # its near long side is covered, its far long side and both short ends are not.
            count += 2 * outer
        elif self.sniff_value is not None:
            # records.md §5: the Sniff counts its number once for each uncovered side, at most
            # twice; a tile laid at one of its uncovered sides covers that side.
            sides = self._sniff_sides
            uncovered = len(sides) - (at in sides)
            count += self.sniff_value * (2 if uncovered > 2 else uncovered)
        return count, here, bare

    def _couple(self, at: str, inner: int, outer: int) -> _Placed:
        """Lay ``tile`` at the open end ``at`` with ``inner`` against it and ``outer`` facing out."""
        ends = self._ends
        double = inner == outer
        count, here, bare = self._after(at, outer, double)
        becomes_sniff = double and self.sniff_rule and self.sniff_value is None
        placed = _COUPLED[at][becomes_sniff][inner][outer]
        sniff_changed = True  # the Sniff laid or one of its sides covered: its short ends may open
        if becomes_sniff:
            # Smartt §6: the first double is the Sniff wherever it falls; laid on an
            # arm, its near long side is covered and its far long side goes on that arm.
            self.sniff_value = outer
            self.sniff_at = at
            self._sniff_sides = (at, "up", "down")
        elif at in self._sniff_sides:
            sides = self._sniff_sides
            index = sides.index(at)
            self._sniff_sides = sides[:index] + sides[index + 1 :]  # that side covered now
        else:
            sniff_changed = False
        self._arms[at].append(placed)
        self._placed.append(placed)
        points = self._points
        self._ends_points += here - points[at]
        points[at] = here
        if bare is not None:
            side, value = bare
            self._ends_points += value - points[side]
            points[side] = value
        self.board_count = count
        ends[at] = outer
        sniff = self.sniff_value
        if sniff_changed and sniff is not None and "up" not in ends and self._short_ends_open():
            # The short ends open now (Smartt §6: once both long sides are covered).
            ends["up"] = ends["down"] = sniff
        return placed

    def _lay_set(self, tile: tuple[int, int]) -> _Placed:
        a, b = tile
        self.set_tile = (a, b)
        double = a == b
        if double and self.sniff_rule:
            self.sniff_value, self.sniff_at = a, "set"
            self._sniff_sides = POSITIONS  # the Sniff as the set: all four sides uncovered
        placed: _Placed = (SORTED_PAIRS[a][b], "set", a, b, double, double and self.sniff_rule)
        self._placed.append(placed)
        if self.sniff_at != "set":
            self._points["left"], self._points["right"] = a, b  # Smartt §7.1: the set alone counts both ends
            self._ends_points = a + b
        self.board_count = self._ends_points + self._sniff_points()
        self._ends["left"], self._ends["right"] = a, b
        if self._short_ends_open():
            # Jaques 'How to play' step 2: the four sides may be developed in any order.
            self._ends["up"] = self._ends["down"] = a
        return placed

    # -- internals ---------------------------------------------------------------

    def _short_ends_open(self) -> bool:
        """Whether the Sniff's short ends are open to play: at once (Jaques), or once both long sides are covered."""
        if self.sniff_value is None:
            return False
        # A Sniff laid on an arm has only its far long side to cover (its near one is covered, R2).
        sides = self._sniff_sides
        return not self.long_sides_first or ("left" not in sides and "right" not in sides)

    def _sniff_open_sides(self) -> tuple[int, int]:
        """How many of the Sniff's long sides and short ends are still uncovered."""
        sides = self._sniff_sides
        return ("left" in sides) + ("right" in sides), ("up" in sides) + ("down" in sides)

    def _sniff_points(self) -> int:
        # records.md §5: the Sniff counts its number once for each uncovered side, at most twice.
        if self.sniff_value is None:
            return 0
        long_open, short_open = self._sniff_open_sides()
        uncovered = long_open + short_open
        return self.sniff_value * (2 if uncovered > 2 else uncovered)

    def _parts(self) -> list[tuple[str, int]]:
        if self.set_tile is None:
            return []
        parts: list[tuple[str, int]] = []
        for pos in POSITIONS:
            arm = self._arms[pos]
            if arm:
                last = Placement._make(arm[-1])
                if last.sniff:
                    continue  # the Sniff at the end of its arm is counted below
                if last.double:
                    # Smartt §6.3: an exposed ordinary double counts both halves.
                    parts.append((f"{pos} double {last.outer}-{last.outer}", 2 * last.outer))
                else:
                    parts.append((f"{pos} {last.outer}", last.outer))
            elif pos in LINE and self.sniff_at != "set":
                parts.append(self._bare_set_side(pos))
        if self.sniff_value is not None:
            n = self.sniff_value
            long_open, short_open = self._sniff_open_sides()
            words = _sides_words(long_open, short_open)
            parts.append((f"Sniff {n}-{n} ({words}: {self._sniff_points()})", self._sniff_points()))
        return parts

    def _bare_set_side(self, pos: str) -> tuple[str, int]:
        """What an uncovered side of the set counts when the set is not the Sniff."""
        assert self.set_tile is not None
        a, b = self.set_tile
        value = a if pos == "left" else b
        other = "right" if pos == "left" else "left"
        if a == b and self._arms[other]:
            # All Fives: a double set with one side covered is an ordinary double at an end.
            return (f"{pos} double {value}-{value}", 2 * value)
        return (f"{pos} {value}", value)

    def _closed_reason(self, at: str, tile: tuple[int, int]) -> str:
        if at not in POSITIONS:
            return f"'at' must be left, right, up or down, not {at!r}"
        if self.sniff_value is None:
            why = "there is no Sniff yet" if self.sniff_rule else "All Fives has no Sniff"
            return (
                f"{text(tile)} cannot go {at}: {why}, so only left and right are open"
                f" (open ends: {self.describe_open_ends()})"
            )
        return (
            f"{text(tile)} cannot go {at}: the Sniff's short ends open only once both long sides"
            f" are covered (open ends: {self.describe_open_ends()})"
        )


def _sides_words(long_open: int, short_open: int) -> str:
    if long_open == 2 and short_open == 2:
        return "all four sides uncovered"
    if long_open == 0 and short_open == 0:
        return "dead"
    words = []
    if long_open:
        words.append("both long sides" if long_open == 2 else "one long side")
    if short_open:
        words.append("both short ends" if short_open == 2 else "one short end")
    return " and ".join(words) + " uncovered"


def _ends_named(ends: dict[str, int], positions: list[str]) -> str:
    """``left 3, right 3``: the open ends at ``positions`` with the value each shows (for a refusal)."""
    return ", ".join(f"{pos} {ends[pos]}" for pos in positions)
