"""What a round's pairing reads from the database: its format, and everything else it depends on.

``pairing_input`` gathers the active entrants, their standing before the
round (confirmed results only), who met and who partnered whom, the byes,
the forbidden pairs and the seed into a ``PairingInput``; the pairing itself
(``pairing/``) is a pure function of it. The round's pairing and
``verify-pairings`` both read it here, so both see the same inputs.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorepad.rules import make_ruleset
from scorepad.store import tournament_repo as repo
from scorepad.store.tournament_models import TournamentEvent
from scorepad.store.tournament_repo import Session
from scorepad.tournament import rows, wording
from scorepad.tournament.kinds import Kind
from scorepad.tournament.pairing import (
    AUTO_FALLBACK,
    PAIRING_VERSION,
    ROUND_ROBIN,
    ROUND_ROBIN_MAX,
    SEATED_BY_KIND,
    Contender,
    PairingInput,
    auto_format,
    draw_roster,
    scheduled,
    unsuited,
)
from scorepad.tournament.tally import Tally

# Smartt §14: the most game points one game can give (a loser below 30), per loser.
MOST_GAME_POINTS = 14


def method(session: Session, event: TournamentEvent, field: int | None = None, forbidden: bool = False) -> str:
    """How the event pairs: its kind's format, else fixed by round 1 (its stored inputs), else chosen now."""
    if event.pairing in SEATED_BY_KIND:
        return event.pairing
    first = repo.round_numbered(session=session, event_id=rows.pk(event), number=1)
    if first is not None:
        return PairingInput.from_dict(first.inputs).method
    if event.pairing != "auto":
        return event.pairing
    if field is None:
        return AUTO_FALLBACK
    # The first format that suits the field (Berger tables for a small one), else Swiss.
    return auto_format(field, event.rounds, forbidden)


def pairing_input(
    session: Session,
    event: TournamentEvent,
    number: int,
    tally: Tally,
    *,
    method_name: str | None = None,
    version: str = PAIRING_VERSION,
) -> PairingInput:
    """Everything round ``number``'s pairing depends on, from the database as it is now.

    ``version`` is the pairing version the round is (or was) paired by: it
    decides how the standing before the round is read (version 1 counted a
    table with no confirmed hand as a meeting).
    """
    entrants = repo.entrants(session=session, event_id=rows.pk(event))
    active = [
        e for e in entrants if e.joined_round <= number and (e.withdrawn_round is None or e.withdrawn_round > number)
    ]
    standing = (
        {s.entrant: s for s in tally.standings(session, event, number - 1, unplayed_meets=version == "1")}
        if number > 1
        else {}
    )
    rules = make_ruleset(event.rules, Kind(event.kind).table_size, event.options)
    met: dict[int, list[int]] = {rows.pk(e): [] for e in entrants}
    partnered: dict[int, list[int]] = {rows.pk(e): [] for e in entrants}
    byes: dict[int, int] = {rows.pk(e): 0 for e in entrants}
    fours = event.kind == Kind.FOURS
    for rnd in repo.rounds(session=session, event_id=rows.pk(event), before=number):
        tables = rows.tables(session, rnd)
        forfeits = repo.forfeits(session=session, table_ids=[rows.pk(t) for t in tables])
        for table in tables:
            if table.match_id is None:
                byes[table.entrants[0]] += 1
                continue
            forfeit = forfeits.get(rows.pk(table))
            if forfeit is not None:
                # FIDE C.04.1: a forfeit is no meeting, and a forfeit win rules out a later bye.
                for x in table.entrants:
                    byes[x] += x not in forfeit.losers
                continue
            for i, x in enumerate(table.entrants):
                met[x].extend(y for y in table.entrants if y != x)
                if fours:
                    partnered[x].append(table.entrants[(i + 2) % 4])
    ordered = sorted(active, key=lambda e: (standing[e.id].place if e.id in standing else len(entrants) + 1, e.number))
    per_game = MOST_GAME_POINTS * (2 if event.kind == Kind.THREES else 1)
    max_per_round = event.per_round * (per_game if rules.game_points else 1)
    contenders = tuple(
        Contender(
            id=rows.pk(e),
            name=e.name,
            score=(standing[e.id].game_points if rules.game_points else standing[e.id].games_won)
            if e.id in standing
            else 0,
            rank=rank,
            byes=byes[rows.pk(e)],
            met=tuple(sorted(met[rows.pk(e)])),
            partnered=tuple(sorted(partnered[rows.pk(e)])),
        )
        for rank, e in enumerate(ordered, 1)
    )
    ids = {c.id for c in contenders}
    # Each pair as (lower id, higher id): a stored pair is two different entrants.
    forbidden = tuple(sorted((min(p), max(p)) for p in rows.forbidden(session, rows.pk(event)) if p <= ids))
    chosen = method(session, event, len(contenders), bool(forbidden)) if method_name is None else method_name
    roster: tuple[int, ...] = ()
    if scheduled(chosen):
        first = repo.round_numbered(session=session, event_id=rows.pk(event), number=1)
        roster = (
            PairingInput.from_dict(first.inputs).roster
            if first is not None and number > 1
            # Round 1's standing is the entrant numbers' order: the draw never depends on the database's ids.
            else draw_roster([c.id for c in sorted(contenders, key=lambda c: c.rank)], event.seed)
        )
    return PairingInput(
        method=chosen,
        round=number,
        rounds=event.rounds,
        table_size=Kind(event.kind).entrants_per_table,
        seed=f"{event.seed}:{number}",
        contenders=contenders,
        forbidden=forbidden,
        max_per_round=max_per_round,
        roster=roster,
    )


@dataclass(frozen=True)
class PairingChoice:
    """How an event pairs, and why, in words the director page and the command line show before pairing.

    ``method`` is the format (``round-robin``, ``swiss``, ``threes``,
    ``fours``); ``auto`` whether Auto chose it; ``fixed`` whether it is
    settled (round 1 is paired, or the director or the kind chose it), else
    Auto chooses again from the entrants registered when round 1 is paired.
    ``late_entries``: whether anyone may join after round 1 is paired.
    ``why`` says all of it in one or two sentences.
    """

    method: str
    auto: bool
    fixed: bool
    late_entries: bool
    why: str


def pairing_choice(session: Session, event: TournamentEvent) -> PairingChoice:
    """How ``event`` pairs and why (see ``PairingChoice``): Auto's choice said before round 1 is paired.

    Before round 1, Auto's choice is read from the entrants registered now
    and the pairs kept apart among them, as ``pairing_input`` will read
    them; from round 1 on, from the field round 1 was paired with.
    """
    event_id = rows.pk(event)
    first = repo.round_numbered(session=session, event_id=event_id, number=1)
    if event.pairing in SEATED_BY_KIND:
        why = wording.seated_by_kind(Kind(event.kind).table_size)
        return PairingChoice(event.pairing, auto=False, fixed=True, late_entries=True, why=why)
    if event.pairing != "auto":
        schedule = scheduled(event.pairing)
        why = wording.director_chose(event.pairing, schedule)
        return PairingChoice(event.pairing, auto=False, fixed=True, late_entries=not schedule, why=why)
    names = rows.names(session, event_id)
    if first is not None:
        stored = PairingInput.from_dict(first.inputs)
        field = [c.id for c in stored.contenders]
        kept = [(names[a], names[b]) for a, b in stored.forbidden]
        chosen = stored.method
    else:
        field = [
            rows.pk(e)
            for e in repo.entrants(session=session, event_id=event_id)
            if e.joined_round <= 1 and (e.withdrawn_round is None or e.withdrawn_round > 1)
        ]
        ids = set(field)
        kept = sorted((names[min(p)], names[max(p)]) for p in rows.forbidden(session, event_id) if p <= ids)
        if len(field) < 2:
            why = wording.auto_undecided(ROUND_ROBIN_MAX)
            return PairingChoice(AUTO_FALLBACK, auto=True, fixed=False, late_entries=True, why=why)
        chosen = method(session, event, len(field), bool(kept))
    if chosen == ROUND_ROBIN:
        reason = wording.round_robin_fits(len(field), event.rounds)
    elif kept:
        reason = wording.kept_apart_so_swiss(*kept[0])
    else:
        reason = unsuited(len(field), event.rounds, False) or "it suits the field"
    schedule = scheduled(chosen)
    why = wording.auto_chose(chosen, reason, fixed=first is not None, schedule=schedule)
    return PairingChoice(chosen, auto=True, fixed=first is not None, late_entries=not schedule, why=why)
