"""The policy of the one door: which caller may make which write to which match, in one sentence when not.

- A tournament table's match is written only with that table's credential
  (its round the event's current one, not locked, the table not forfeited)
  or by that event's director. It is never deleted once played (the director
  voids or forfeits it through the tournament; a re-pairing before its first
  entry drops it); anywhere else it is read-only.
- A casual match is scored by this computer and by any joined device (the
  table's second phone); it is deleted, and restored from the Trash, only
  from this computer or by the device that created it.
- The hall screen and spectators only read.
- A hand is confirmed by the side opposing the side that scored it, or by
  the director (``authorize_confirmation``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scorepad.access.callers import Caller, Who


class Refused(ValueError):
    """A write the door refuses; the message is one sentence saying why and who may."""


class Write(StrEnum):
    """The kinds of write, as a refusal names them."""

    CREATE = "start a match"
    IMPORT = "import a match"
    SCORE = "score"  # set, play, draw, pass, settle, amend, undo, redo, finish
    RENAME = "rename the players"
    LABEL = "label the match"
    ARCHIVE = "archive the match"
    DELETE = "delete the match"
    RESTORE = "restore the match"
    CONFIRM = "confirm a hand"


# What a table's phone may do to its own match, and the director to any of the event's.
_TABLE_WRITES = frozenset({Write.SCORE, Write.CONFIRM})
_DIRECTOR_WRITES = frozenset({Write.SCORE, Write.CONFIRM, Write.LABEL})
_TRASH = frozenset({Write.DELETE, Write.RESTORE})


@dataclass(frozen=True)
class TableFacts:
    """A tournament table that a match belongs to, as stored at the moment of the write."""

    event_id: int
    table_id: int
    table_number: int
    round_number: int
    current: bool  # the round is the event's latest (the one tables play now)
    locked: bool
    forfeited: bool


@dataclass(frozen=True)
class MatchFacts:
    """What the door needs to know of a match: who created it, and its tournament table if it has one."""

    match_id: int
    creator: str | None = None  # who created it (``Caller.creator``)
    revision: int = 0  # 0: nothing entered yet
    table: TableFacts | None = None


def authorize(caller: Caller, write: Write, facts: MatchFacts | None = None) -> None:
    """Whether ``caller`` may make ``write`` to the match ``facts`` describes (None: a new match).

    Returns nothing when the door lets it through; raises ``Refused`` with one
    sentence otherwise. The store calls it inside the write's transaction.
    """
    if caller.who in (Who.HALL, Who.SPECTATOR):
        raise Refused(f"{caller.who.value.capitalize()} only reads: it may not {write.value}.")
    if facts is None:
        # A new match: a table's is made by the director at pairing, before it has a table.
        if caller.who in (Who.LOCAL, Who.DEVICE, Who.DIRECTOR):
            return
        raise Refused(f"{caller.who.value.capitalize()} may not {write.value}: it scores only its own table's match.")
    if facts.table is not None:
        _tournament_match(caller, write, facts, facts.table)
        return
    _casual_match(caller, write, facts)


def authorize_confirmation(caller: Caller, facts: MatchFacts, *, by_side: int | None, scoring_side: int) -> None:
    """Whether ``caller`` may confirm a hand that ``scoring_side`` scored, for the side ``by_side``.

    The director confirms any table's hands; a table confirms its own, and
    only for a side other than the one that scored the hand (``by_side``
    None: the confirming name sits at no side of the table). Raises
    ``Refused`` with one sentence.
    """
    authorize(caller, Write.CONFIRM, facts)
    if caller.who == Who.DIRECTOR:
        return
    if by_side is None:
        raise Refused("A hand is confirmed by a player of the opposing side, by name.")
    if by_side == scoring_side:
        raise Refused("A hand is confirmed by the opposing side, not by the side that scored it.")


def _tournament_match(caller: Caller, write: Write, facts: MatchFacts, table: TableFacts) -> None:
    where = f"match {facts.match_id} is table {table.table_number}'s in round {table.round_number} of a tournament"
    director = caller.who == Who.DIRECTOR and caller.event_id == table.event_id
    if write in _TRASH and not (director and write == Write.DELETE and facts.revision == 0):
        raise Refused(f"{where.capitalize()}: it is never deleted; the director voids or forfeits it instead.")
    if write in (Write.RENAME, Write.ARCHIVE):
        raise Refused(f"{where.capitalize()}: its players are the tournament's entrants, named there.")
    if director:
        return
    if caller.who == Who.TABLE and caller.event_id == table.event_id and caller.table_id == table.table_id:
        if write not in _TABLE_WRITES:
            raise Refused(f"{where.capitalize()}: a table's phone may only score it and confirm its hands.")
        if table.forfeited:
            raise Refused(f"Table {table.table_number} was forfeited: only the director may change its match.")
        if table.locked:
            raise Refused(f"Round {table.round_number} is locked: only the director may change it now.")
        if not table.current:
            raise Refused(f"Round {table.round_number} is over: only the director may change its matches.")
        return
    raise Refused(
        f"{where.capitalize()}: only that table's phone or the director may {write.value}; here it is read-only."
    )


def _casual_match(caller: Caller, write: Write, facts: MatchFacts) -> None:
    if caller.who == Who.DIRECTOR and facts.creator == caller.creator and write in _DIRECTOR_WRITES | _TRASH:
        return  # a table's match made at pairing, before the round's tables are stored
    if caller.who not in (Who.LOCAL, Who.DEVICE):
        raise Refused(f"Match {facts.match_id} is not a tournament's: {caller.who.value} may not {write.value} there.")
    if write in _TRASH and caller.who == Who.DEVICE and (facts.creator is None or caller.owner != facts.creator):
        raise Refused(
            f"Only the device that started match {facts.match_id}, or the computer serving the score-pad, "
            f"may {write.value}."
        )
