"""Every refusal of the tournament service in words, in the players' and the director's names.

One plain sentence each, naming what is wrong and what is allowed (the house
rule for bad input). The service raises ``TournamentError`` (or
``AccessDenied``) with one of these; the command line and the pages show it
as it is. Fixed sentences are constants, the others functions of what they
name. The sign-in's sentences stay with it (``access.py``), the pairing's with
each format (``pairing/``), the rulings with the engine (``rules/wording.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorepad.rules.hand import HandEnd
from scorepad.rules.wording import HOW_WORDS, count_words

# -- events and entrants ---------------------------------------------------------------

EVENT_NAME = "an event needs a name of 1 to 80 characters"
EVENT_ROUNDS = "an event has 1 to 50 rounds"
BYE_POINTS = "a bye's game points are a whole number, 0 or more"
PARTNERS_DIFFER = "the two partners need different names"
EVENT_FULL = "every round of this event is paired; nobody can join now"
FORBID_WHY = "say why the two may not meet (family, same club...)"
FORBID_TWO = "a forbidden pair needs two different entrants"


def counted(count: int, one: str, many: str | None = None) -> str:
    """ "1 game", "2 games": a count with its noun in the right number (``many`` for an irregular plural)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def listed(items: Sequence[object]) -> str:
    """ "1", "1 and 2", "1, 2 and 3": items in words."""
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def entrant_words(name: str, number: int) -> str:
    """An entrant as a reply names them: "Ann (entrant 3)", by the event's own entrant number."""
    return f"{name} (entrant {number})"


def either_or(choices: Sequence[str]) -> str:
    """ "a, b or c": the choices in words."""
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


def not_a_kind(kinds: Sequence[str], kind: object) -> str:
    """An event's kind that is not one of ``kinds``."""
    return f"an event is {either_or(kinds)}, not {kind!r}"


def not_a_unit(unit: object) -> str:
    """A round counted in something other than games or hands."""
    return f"a round is a number of games or of hands, not {unit!r}"


def round_length(unit: str) -> str:
    """Too few or too many games or hands a round."""
    return f"a round has 1 to 50 {unit}"


def not_a_pairing(pairings: Sequence[str], pairing: object) -> str:
    """A pairing the director may not choose."""
    return f"the pairing is {either_or(pairings)}, not {pairing!r}"


def seated_by_bands(table_size: int) -> str:
    """A round robin asked of tables of three or four."""
    return f"tables of {table_size} are seated by score bands, not by a round robin"


def plays_in_partnerships(kind: str) -> str:
    """Partners turned off for a kind that plays in partnerships."""
    return f"a {kind} event plays in partnerships, with the option partners on"


def names_to_register(partnership: bool) -> str:
    """An entrant registered with the wrong number of names."""
    return "a partnership registers two names" if partnership else "a player registers one name"


def name_too_long(name: str, most: int) -> str:
    """A name over ``most`` characters."""
    return f"a name has at most {most} characters; {name[:20]}... has {len(name)}"


def already_registered(name: str) -> str:
    """A name already in the event."""
    return f"{name} is already registered in this event"


def schedule_fixed(names: Sequence[str]) -> str:
    """A late entry in a round robin (an event that takes late entries is paired by Swiss)."""
    return (
        f"{' & '.join(names)} cannot join: a round robin's schedule is fixed once round 1 is paired;"
        " an event paired by Swiss takes late entries"
    )


def already_withdrawn(name: str, from_round: int) -> str:
    """An entrant withdrawn twice."""
    return f"{name} has already withdrawn (from round {from_round})"


def already_kept_apart(first: str, second: str, why: str) -> str:
    """A forbidden pair forbidden again."""
    return f"{first} and {second} are already kept apart ({why})"


def no_event(event_id: int) -> str:
    """An event id that is not stored."""
    return f"there is no event {event_id}"


def nobody_called(text: str) -> str:
    """An entrant named or numbered who is not registered."""
    return f"nobody called or numbered {text!r} is registered in this event"


# -- how an event pairs (Auto's choice), said before pairing -----------------------------------------

# A format in a sentence; the others are named as they are ("threes", "fours").
FORMAT_WORDS = {"round-robin": "a round robin", "swiss": "Swiss"}


def late_entries(schedule: bool) -> str:
    """What a format does with late entries: none for a schedule drawn at round 1 (a round robin)."""
    if schedule:
        return (
            "Nobody can join after round 1 is paired: a round robin's schedule is fixed then"
            " (an event paired by Swiss takes late entries)."
        )
    return "Late entries join from the next round paired."


def seated_by_kind(table_size: int) -> str:
    """How tables of three or four are paired, whatever the director chose."""
    return f"Tables of {table_size} are seated by score bands. {late_entries(False)}"


def director_chose(method: str, schedule: bool) -> str:
    """A format the director chose."""
    words = FORMAT_WORDS.get(method, method)
    return f"{words[0].upper()}{words[1:]}, as the director chose. {late_entries(schedule)}"


def auto_undecided(most: int) -> str:
    """Auto before anyone can be paired: how it will choose."""
    return (
        f"Auto chooses when round 1 is paired: a round robin for 2 to {most} entrants whose rounds fit one"
        " cycle, with nobody kept apart; Swiss otherwise. Late entries join from the next round only under Swiss."
    )


def round_robin_fits(field: int, rounds: int) -> str:
    """Why Auto chose a round robin."""
    return f"{counted(field, 'entrant')} and {counted(rounds, 'round')} fit one round-robin cycle"


def kept_apart_so_swiss(first: str, second: str) -> str:
    """Why a forbidden pair switches Auto to Swiss."""
    return f"{first} and {second} are kept apart, and a round robin makes everyone meet"


def auto_chose(method: str, reason: str, *, fixed: bool, schedule: bool) -> str:
    """Auto's choice and why: "Auto chooses Swiss, as the field stands now: ..." (``fixed``: round 1 is paired)."""
    verb = "Auto chose" if fixed else "Auto chooses"
    when = "" if fixed else ", as the field stands now"
    return f"{verb} {FORMAT_WORDS.get(method, method)}{when}: {reason}. {late_entries(schedule)}"


# -- rounds and pairing ---------------------------------------------------------------------

NO_ROUND = "no round is paired yet"
ROUND_GONE = "that round no longer exists"
NOTHING_TO_REPAIR = "there is no round in play to re-pair"
REPAIR_WHY = "a manual re-pairing needs a reason for the audit"
NOTHING_TO_LOCK = "there is no round in play to lock"
REOPEN_WHY = "reopening a round needs a reason for the audit"
UNSAVED_ROW = "a tournament row was used before it was saved"


def all_paired(rounds: int) -> str:
    """Every round of the event is paired."""
    return "the one round of this event is paired" if rounds == 1 else f"all {rounds} rounds of this event are paired"


def listed_twice(name: str) -> str:
    """A re-pairing that seats one entrant at two tables."""
    return f"{name} is listed at two tables; seat each entrant once"


def not_playing(name: str, number: int) -> str:
    """A re-pairing that seats an entrant who does not play round ``number`` (withdrawn, or joining later)."""
    return f"{name} does not play round {number} (withdrawn, or joining later); seat only this round's entrants"


def lock_first(previous: int, number: int) -> str:
    """The next round asked for before the last is locked."""
    return f"round {previous} is not locked yet; lock it before pairing round {number}"


def started_playing(table: int) -> str:
    """A re-pairing after a table's first hand."""
    return f"table {table} has started playing; re-pair before the first hand"


def seats_per_table(size: int, listed: int) -> str:
    """A table listed with the wrong number of entrants."""
    return f"each table seats {size} entrants; one lists {listed}"


def may_not_meet(first: str, second: str, why: str) -> str:
    """A forbidden pair seated together by hand."""
    return f"{first} and {second} may not meet ({why})"


def tables_unfinished(waiting: Sequence[int]) -> str:
    """A lock while tables play or wait for confirmation."""
    tables = f"table {waiting[0]} has" if len(waiting) == 1 else f"tables {listed(waiting)} have"
    return f"{tables} not finished and confirmed their play; give a reason to lock the round anyway"


def locked_meanwhile(number: int) -> str:
    """Two devices locking at once."""
    return f"round {number} was locked meanwhile by another device"


def round_not_paired(number: int) -> str:
    """A round asked for that is not paired."""
    return f"round {number} is not paired"


def round_view_missing(number: int | None) -> str:
    """The latest round (None) or round ``number``, not paired."""
    return NO_ROUND if number is None else round_not_paired(number)


def reopen_too_late(number: int, paired: int) -> str:
    """A round whose results the next round was paired from."""
    return f"round {number} cannot be reopened: round {paired} is already paired from its results"


def still_in_play(number: int) -> str:
    """A reopening of a round that is not locked."""
    return f"round {number} is not locked: it is still in play"


def no_such_table(round_number: int, table: int) -> str:
    """A table number the round does not have."""
    return f"round {round_number} has no table {table}"


def reopened_meanwhile(previous: int) -> str:
    """The last round reopened while the next was being paired."""
    return f"round {previous} was reopened meanwhile; lock it before pairing"


def not_paired_to_repair(number: int) -> str:
    """A re-pairing of a round that is gone."""
    return f"round {number} is not paired, so it cannot be re-paired"


def paired_meanwhile(number: int) -> str:
    """Two devices pairing at once."""
    return f"round {number} was paired meanwhile by another device"


# -- at a table: scoring, corrections, forfeits, confirmations ------------------------------------

NO_TABLE_OF_ITS_OWN = "only a table has a table of its own; the director names the match"
NO_MATCH = "this table has no match"
ROUND_OVER = "this table code was for a round that is over"
NAME_THE_TABLE = "name the table to show"
CORRECT_WHY = "a correction needs a reason for the audit"
RESETTLE_WHY = "settling a hand again needs a reason for the audit"
FORFEIT_WHY = "a forfeit needs a reason for the audit (did not turn up, walked off...)"
UNFORFEIT_WHY = "taking back a forfeit needs a reason for the audit"
NAME_WHO_FORFEITS = "name who forfeits, by name or entrant number"
CONFIRMED_BY_NAME = "a hand is confirmed by a player of the opposing side, by name"
REMAINING_FORM = (
    "type each seat's remaining in seat order, separated by commas: a pip total or the tiles held,"
    ' such as "12, 0" or "6-6 5-4, 0"'
)


def own_match_only(table: int | None) -> str:
    """A table writing to another table's match."""
    return f"table {table} may only change its own match"


def own_table_only(table: int | None) -> str:
    """A table confirming another table."""
    return f"table {table} may only confirm its own table"


def not_of_this_event(match_id: int) -> str:
    """A match that no table of the event plays."""
    return f"match {match_id} is not a match of this event"


def forfeited_no_entries(table: int | None) -> str:
    """An entry at a forfeited table."""
    return f"table {table} was forfeited: its match takes no more entries"


def waits_for_confirmation(hand: int) -> str:
    """A new hand asked for while a finished one is not confirmed (Bridgemate's order)."""
    return f"hand {hand} waits for the opposing side's confirmation first"


def round_played(per_round: int, unit: str) -> str:
    """A hand started after the round's games or hands."""
    return f"this table has played its {counted(per_round, unit.rstrip('s'))} for the round"


def locked_for(number: int, what: str) -> str:
    """A change refused in a locked round; ``what`` says what to do instead."""
    return f"round {number} is locked: {what}"


def resettle_locked(number: int) -> str:
    """A settlement done again in a locked round."""
    return locked_for(number, "reopen it before settling a hand again there")


def forfeit_locked(number: int) -> str:
    """A forfeit in a locked round."""
    return locked_for(number, "a forfeit is given in the round in play, before its lock")


def unforfeit_locked(number: int) -> str:
    """A forfeit taken back in a locked round."""
    return locked_for(number, "reopen it before taking back a forfeit there")


def bye_to_resettle(table: int) -> str:
    """A settlement done again at a bye."""
    return f"table {table} is a bye: it has no hand to settle again"


def bye_to_forfeit(table: int) -> str:
    """A forfeit at a bye."""
    return f"table {table} is a bye: there is nobody to forfeit against"


def bye_to_confirm(table: int) -> str:
    """A confirmation at a bye."""
    return f"table {table} is a bye: there is nothing to confirm"


def forfeited_to_resettle(table: int) -> str:
    """A settlement done again at a forfeited table."""
    return f"table {table} was forfeited: its hands no longer count"


def forfeited_to_confirm(table: int) -> str:
    """A confirmation at a forfeited table."""
    return f"table {table} was forfeited: there is nothing to confirm"


def already_forfeited(table: int) -> str:
    """A second forfeit at one table."""
    return f"table {table} has already been forfeited"


def not_at_table(name: str, table: int) -> str:
    """A loser named who does not play at the table."""
    return f"{name} does not play at table {table} in this round"


def no_forfeit(table: int) -> str:
    """A forfeit taken back where none was given."""
    return f"table {table} has no forfeit to take back"


def same_figures(hand: int, table: int) -> str:
    """A settlement done again with the figures it has."""
    return f"hand {hand} at table {table} is already settled with those figures"


def keeps_settlement(hand: int, table: int, refusal: str) -> str:
    """New figures the engine refuses."""
    return f"hand {hand} at table {table} keeps its settlement: {refusal.rstrip('.')}"


def written_while_resettling(table: int, hand: int) -> str:
    """Another device wrote between taking back a settlement and entering the new one, and the old is gone."""
    return (
        f"another device wrote to table {table} while hand {hand} was being settled"
        " again: its settlement is taken back; settle it at the table or here"
    )


def written_meanwhile(table: int, hand: int) -> str:
    """Another device wrote before the new settlement, and the old one is back."""
    return f"another device wrote to table {table} meanwhile: hand {hand} keeps its settlement; try again"


def not_finished(hand: int, table: int) -> str:
    """A confirmation of a hand still in play."""
    return f"hand {hand} at table {table} is not finished, so not confirmed"


def already_confirmed(hand: int, table: int) -> str:
    """A confirmation of a hand confirmed as it stands."""
    return f"hand {hand} at table {table} is already confirmed as it stands"


def nothing_to_confirm(table: int) -> str:
    """A confirmation at a table that has finished no hand."""
    return f"table {table} has no finished hand to confirm"


def remaining_not_json(remaining: object) -> str:
    """Remaining figures that are not a list of seats."""
    return f"'remaining' gives each seat a list of tiles such as \"6-6\" or a pip total, not {remaining!r}"


# -- a hand to settle again -------------------------------------------------------------------


def no_hand_yet(table: int) -> str:
    """A table that has not played a hand."""
    return f"table {table} has not played a hand yet"


def no_such_hand(table: int, hand: int) -> str:
    """A hand number the table has not reached."""
    return f"table {table} has no hand {hand}"


def take_back_later(settled: int) -> str:
    """What to do when entries follow the settlement meant."""
    return f"take back the later entries first with Correct, then settle hand {settled} again"


def not_last_hand(hand: int, table: int) -> str:
    """An earlier hand than the last."""
    return f"hand {hand} at table {table} is not the last hand: {take_back_later(hand)}"


def entered_after(table: int, hand: int) -> str:
    """Something entered after the settlement meant."""
    return f"something was entered at table {table} after hand {hand}'s settlement: {take_back_later(hand)}"


def not_settled_yet(hand: int, table: int) -> str:
    """A hand waiting for its first settlement."""
    return f"hand {hand} at table {table} is not settled yet: settle it as any hand, at the table"


def started_since(hand: int, table: int) -> str:
    """The next hand begun since the settlement meant."""
    return f"hand {hand} has started at table {table} since hand {hand - 1}'s settlement: {take_back_later(hand - 1)}"


def still_playing(hand: int, table: int) -> str:
    """A hand in play, with no settlement."""
    return f"hand {hand} at table {table} is still in play: it has no settlement"


def ended_unsettled(hand: int, table: int, how: HandEnd) -> str:
    """A hand that ended without a settlement (thrown in, a renege...)."""
    return f"hand {hand} at table {table} ended without a settlement ({HOW_WORDS[how]}), so there is none to do again"


# -- the audit, readable by everyone (audit.py) ------------------------------------------
# A separate block: each audit line in words, in the players' names, with the reason and
# the figures before and after; and the phone's one line about the director's latest act.

# Plain ASCII: the pages draw offline, where no font holds an arrow (a box was drawn for an arrow).
ARROW = "->"
AUDIT_EMPTY = "Nothing has been recorded yet."


def actor_words(actor: str) -> str:
    """Who did it, as the audit stores the caller's label: "the director", "table 3", "this computer"."""
    if actor == "director":
        return "the director"
    if actor == "hall":
        return "the hall screen"
    if actor.startswith("table ") and " (round " in actor:
        return actor.split(" (round ", 1)[0]
    return actor


def call_words(call: int | None) -> str:
    """A play's call in the audit: "called 10", "no call"."""
    return "no call" if call is None else f"called {call}"


def _held(remaining: object, names: Sequence[str]) -> str:
    """What a settlement counted each seat holding, by name: "Bob nothing, Ann 1-6 2-2" or "Bob 0, Ann 14"."""
    if not isinstance(remaining, list):
        return str(remaining)
    seats = names if len(names) == len(remaining) else [f"seat {i + 1}" for i in range(len(remaining))]
    shown = []
    for name, held in zip(seats, remaining, strict=False):
        tiles = " ".join(map(str, held)) if isinstance(held, list) else str(held)
        shown.append(f"{name} {tiles or 'nothing'}")
    return ", ".join(shown)


def _hands(numbers: Sequence[object]) -> str:
    """ "hand 1", "hands 1, 2"."""
    return f"hand {numbers[0]}" if len(numbers) == 1 else f"hands {_numbers(numbers)}"


def _seated(names: Sequence[str]) -> str:
    """A table's names: "Ann v Bob", "Ann v Bob v Cy", partners at four "Ann & Cy v Bob & Dee"."""
    if len(names) == 4:
        return f"{names[0]} & {names[2]} v {names[1]} & {names[3]}"
    return " v ".join(names)


def _tables(tables: Sequence[Sequence[str]], byes: Sequence[str]) -> str:
    shown = [f"table {i} {_seated(t)}" for i, t in enumerate(tables, 1)]
    shown += [f"bye {name}" for name in byes]
    return "; ".join(shown) or "no tables"


def _numbers(values: Sequence[object]) -> str:
    return ", ".join(str(v) for v in values)


def audit_what(action: str, detail: dict[str, Any], who: str = "") -> str:
    """What an audit line's act did, in the players' names ("settled hand 1 at table 2 again").

    ``who`` is who did it (``actor_words``): a table's own act does not name its table twice.
    """
    d = detail
    table = f"table {d.get('table')}"
    if action == "create":
        return f"created the event {d.get('name')!r} ({d.get('kind')}, {d.get('rules')})"
    if action == "register":
        return f"registered {d.get('entrant')} as entrant {d.get('number')} (plays from round {d.get('from_round')})"
    if action == "withdraw":
        return f"withdrew {d.get('entrant')} from round {d.get('from_round')} on"
    if action == "forbid":
        return f"kept {' and '.join(map(str, d.get('pair') or []))} apart"
    if action == "pair":
        return (
            f"paired round {d.get('round')} ({d.get('method')}): {_tables(d.get('tables') or [], d.get('byes') or [])}"
        )
    if action == "repair":
        return f"re-paired round {d.get('round')} by hand"
    if action == "lock":
        waiting = d.get("waiting") or []
        tables = f"table {waiting[0]}" if len(waiting) == 1 else f"tables {_numbers(waiting)}"
        unfinished = f" with {tables} unfinished" if waiting else ""
        return f"locked round {d.get('round')}{unfinished}"
    if action == "reopen":
        return f"reopened round {d.get('round')} (locked at {str(d.get('locked_at', ''))[11:19]})"
    if action == "new code":
        return f"gave {table} of round {d.get('round')} a new code"
    if action == "confirm":
        where = "" if who == table else f" at {table}"
        return f"took {d.get('by')}'s confirmation of {_hands(d.get('hands') or ['?'])}{where}"
    if action == "correct":
        entry = d.get("entry") or {}
        kind = "took back" if entry.get("action") == "undo" else "corrected"
        return f"{kind} an entry of hand {entry.get('hand')} at {table}"
    if action == "resettle":
        return f"settled hand {d.get('hand')} at {table} again"
    if action == "forfeit":
        losers, winners = list(d.get("losers") or []), list(d.get("winners") or [])
        lose = "forfeits" if len(losers) == 1 else "forfeit"
        win = "wins" if len(winners) == 1 else "win"
        wins = f", {' & '.join(winners)} {win} by forfeit" if winners else " (a double forfeit)"
        played = count_words(int(d.get("hands_played") or 0), "hand")
        return f"gave a forfeit at {table}: {' & '.join(losers)} {lose}{wins}, after {played} played"
    if action == "unforfeit":
        had = " & ".join(map(str, (d.get("before") or {}).get("losers") or []))
        return f"took back the forfeit of {had} at {table}"
    where = f" at {table}" if "table" in d else ""
    return f"{action}{where}"


def audit_change(action: str, detail: dict[str, Any]) -> str | None:
    """The figures before and after an act, "Ann 45 -> 50; pips held 12, 0 -> 7, 0"; None for an act without."""
    before, after = detail.get("before"), detail.get("after")
    if action == "resettle" and isinstance(before, dict) and isinstance(after, dict):
        old, new = list(before.get("scores") or []), list(after.get("scores") or [])
        sides = list(detail.get("sides") or [f"side {i + 1}" for i in range(len(new))])
        moved = [f"{sides[i]} {o} {ARROW} {n}" for i, (o, n) in enumerate(zip(old, new, strict=False)) if o != n]
        held = f"held {_held(before.get('remaining'), sides)} {ARROW} {_held(after.get('remaining'), sides)}"
        return "; ".join([*moved, held])
    if action == "correct" and (before is not None or after is not None):
        return f"{before or 'an entry'} {ARROW} {after or 'taken back'}"
    if action == "repair" and isinstance(before, list):
        return f"{_tables(before, [])} {ARROW} {_tables(detail.get('tables') or [], detail.get('byes') or [])}"
    if action == "unforfeit" and isinstance(before, dict):
        return f"forfeit given by {actor_words(str(before.get('actor')))} ({before.get('reason')}) {ARROW} no forfeit"
    return None


def audit_sentence(when: str, who: str, what: str, reason: str | None, change: str | None) -> str:
    """One audit line whole: "16:42:07 the director settled hand 1 at table 2 again: Ann 45 -> 50 (reason: ...)"."""
    figures = f": {change}" if change else ""
    why = f" (reason: {reason})" if reason else ""
    return f"{when} {who} {what}{figures}{why}"


def director_said(who: str, what: str, reason: str | None, change: str | None) -> str:
    """The phone's one line: what the director changed at its table and why."""
    figures = f": {change}" if change else ""
    why = f" (reason: {reason})" if reason else ""
    return f"{who[:1].upper()}{who[1:]} {what}{figures}{why}."


def audit_title(event_name: str, table: int | None, round_number: int | None, newest_first: bool) -> str:
    """ "Club day: the audit, oldest first" or "Club day: table 2 of round 1, its audit, newest first"."""
    order = "newest first, times UTC" if newest_first else "oldest first, times UTC"
    if table is None:
        return f"{event_name}: the audit, {order}"
    if not round_number:
        return f"{event_name}: table {table}, its audit (no round paired yet)"
    return f"{event_name}: table {table} of round {round_number}, its audit, {order}"
