"""Round robin by the FIDE Berger tables: one schedule for the whole event, drawn at round 1."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence

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
            gone = [i for i in ids if i is not None and i != seated[0]]
            if len(gone) == 1:
                notes.append(withdrawn_note(names[seated[0]], gone[0]))
    return Pairing(tuple(tables), tuple(byes), tuple(notes))


# The note of a bye whose scheduled opponent has withdrawn. The pairing knows the absent one only by
# their id (they are no contender), so the note keeps it and ``name_withdrawn`` puts the name in
# where the round is shown: the notes are explanation, kept out of the fingerprint.
_WITHDRAWN_NOTE = "{bye} has a bye: their opponent {gone} has withdrawn"
_WITHDRAWN = re.compile(r"(?P<bye>.*) has a bye: their opponent (?P<gone>\d+) has withdrawn")


def withdrawn_note(bye: str, gone: int) -> str:
    """The note of ``bye``'s bye: their scheduled opponent (entrant id ``gone``) has withdrawn."""
    return _WITHDRAWN_NOTE.format(bye=bye, gone=gone)


def name_withdrawn(note: str, names: Mapping[int, str]) -> str:
    """A note as shown: the withdrawn opponent by name ("their opponent Bob has withdrawn"), never an id."""
    found = _WITHDRAWN.fullmatch(note)
    if found is None:
        return note
    gone = int(found["gone"])
    return _WITHDRAWN_NOTE.format(bye=found["bye"], gone=names.get(gone, "in the schedule"))


def draw_roster(ids: Sequence[int], seed: str) -> tuple[int, ...]:
    """The pairing numbers of a round robin: a draw of lots over ``ids``, reproducible from ``seed``.

    ``ids`` come in entrant-number order (the standing before round 1):
    the draw then depends on the event's own numbers, not on the database's
    ids (in one database the two orders are the same: both count up).
    """
    order = list(ids)
    random.Random(f"roster:{seed}").shuffle(order)
    return tuple(order)


def cycle_length(field: int) -> int:
    """The rounds of one cycle of a round robin of ``field`` entrants (an odd field plays a dummy: one more)."""
    return field - 1 if field % 2 == 0 else field


def unsuited(field: int, rounds: int, forbidden: bool) -> str | None:
    """Why ``auto`` does not pair such a field by round robin, in words; None when it does.

    A round robin suits 2 to ``ROUND_ROBIN_MAX`` entrants whose rounds fit
    one cycle, with no pair kept apart (a round robin makes everyone meet).
    """
    if field < 2:
        return "a round robin needs at least two entrants"
    if field > ROUND_ROBIN_MAX:
        return f"{field} entrants are more than a round robin's {ROUND_ROBIN_MAX}"
    cycle = cycle_length(field)
    if rounds > cycle:
        return (
            f"{rounds} rounds are more than one round-robin cycle of {field} entrants"
            f" ({cycle} round{'' if cycle == 1 else 's'})"
        )
    if forbidden:
        return "two entrants are kept apart, and a round robin makes everyone meet"
    return None


def suits(field: int, rounds: int, forbidden: bool) -> bool:
    """Whether ``auto`` pairs a field by round robin: 2 to 10 entrants, the rounds in one cycle, no forbidden pair."""
    return unsuited(field, rounds, forbidden) is None


FORMAT = PairingFormat(ROUND_ROBIN, round_robin, schedule=True, suits=suits)
