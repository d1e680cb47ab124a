"""Round robin by the FIDE Berger tables: one schedule for the whole event, drawn at round 1."""

from __future__ import annotations

import random
from collections.abc import Sequence

from scorepad.tournament.errors import PairingError
from scorepad.tournament.pairing.model import Pairing, PairingFormat, PairingInput

ROUND_ROBIN = "round-robin"
# A round robin is chosen automatically up to this many entrants (Berger tables up to 10).
ROUND_ROBIN_MAX = 10


def berger_round(players: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` of the Berger table for ``players`` (even), as (first, second) pairing numbers.

    The FIDE construction (Handbook C.05, Annex 1): round 1 is 1-n, 2-(n-1),
    ...; each later round adds n/2 to every number but n (modulo n-1, in
    1..n-1), and n changes sides every round (second in odd rounds, first
    in even ones). Table 1 is always n's. Raises ``PairingError`` for an odd
    count or a round outside 1..n-1.
    """
    n = players
    if n < 2 or n % 2:
        raise PairingError(f"a Berger table needs an even number of players, not {n}")
    if not 1 <= round_number <= n - 1:
        raise PairingError(f"a round robin of {n} has rounds 1 to {n - 1}, not {round_number}")
    shift = (n // 2) * (round_number - 1)

    def moved(x: int) -> int:
        return x if x == n else (x - 1 + shift) % (n - 1) + 1

    out = []
    for table in range(1, n // 2 + 1):
        a, b = moved(table), moved(n + 1 - table)
        if table == 1 and round_number % 2 == 0:
            # b is n here: n takes the first seat in even rounds.
            a, b = b, a
        out.append((a, b))
    return out


def round_robin(inp: PairingInput) -> Pairing:
    """The round from the Berger table of ``inp.roster``; anyone absent hands their opponent a bye.

    An odd roster plays with a dummy highest number, whose opponent has the
    bye (FIDE C.05 Annex 1). Beyond one cycle the schedule repeats with the
    seats swapped. A forbidden pair cannot be kept apart in a round robin,
    so one is refused.
    """
    roster = list(inp.roster)
    if len(roster) < 2:
        raise PairingError("a round robin needs at least two entrants")
    present = {c.id for c in inp.contenders}
    names = {c.id: c.name for c in inp.contenders}
    for a, b in inp.forbidden:
        if a in roster and b in roster:
            raise PairingError(
                f"{names.get(a, a)} and {names.get(b, b)} may not meet, and a round robin makes everyone meet;"
                " pair this event by Swiss instead"
            )
    n = len(roster) + len(roster) % 2
    cycle = n - 1
    number = (inp.round - 1) % cycle + 1
    swapped = ((inp.round - 1) // cycle) % 2 == 1
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    notes: list[str] = []
    for first, second in berger_round(n, number):
        ids = [roster[x - 1] if x <= len(roster) else None for x in (first, second)]
        if swapped:
            ids.reverse()
        seated = [i for i in ids if i is not None and i in present]
        if len(seated) == 2:
            tables.append(tuple(seated))
        elif len(seated) == 1:
            byes.append(seated[0])
            if None not in ids:
                gone = next(i for i in ids if i != seated[0])
                notes.append(f"{names[seated[0]]} has a bye: their opponent {gone} has withdrawn")
    return Pairing(tuple(tables), tuple(byes), tuple(notes))


def draw_roster(ids: Sequence[int], seed: str) -> tuple[int, ...]:
    """The pairing numbers of a round robin: a draw of lots, reproducible from ``seed``."""
    order = sorted(ids)
    random.Random(f"roster:{seed}").shuffle(order)
    return tuple(order)


def suits(field: int, rounds: int, forbidden: bool) -> bool:
    """Whether ``auto`` pairs a field by round robin: 2 to 10 entrants, the rounds in one cycle, no forbidden pair."""
    cycle = field - 1 if field % 2 == 0 else field
    return 2 <= field <= ROUND_ROBIN_MAX and rounds <= cycle and not forbidden


FORMAT = PairingFormat(ROUND_ROBIN, round_robin, schedule=True, suits=suits)
