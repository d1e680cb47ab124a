"""Renege evidence: at each visit to the boneyard and each pass, and for each player's whole hand.

Smartt §11.1 (and §5.1: a player holding a playable tile must play it);
American 'Draw, pass, and block' and Jaques 'How to play' step 7 oblige the
same. The proofs use the record alone (``flow``): per visit, whether some way
of pairing the tiles the player showed with the tiles the player took in
leaves a tile that fitted in the rack as the visit ended (then the visit is
not cleared), and whether every way does (then it is proved). Per player and
hand, one verdict: proved when no way is clean at every visit, clean when
every visit is cleared, and otherwise the record cannot tell.
"""

from __future__ import annotations

from scorepad.analysis.flow import DEAL, Item, SeatFlow, Shortfall, Visit
from scorepad.analysis.knowledge import END, Knowledge
from scorepad.analysis.naming import book_section, ends_words, named_tile, tiles_count, tiles_words
from scorepad.analysis.values import Comment, RenegeEvidence, RenegeVerdict, SeatVerdict, Shown, Verdict
from scorepad.rules import HandState, MatchState, RuleSet
from scorepad.rules.presets import Topic
from scorepad.rules.wording import renege_words

SHOWN_AT_MOST = 6  # tiles named in one "may include" before the rest are counted


def hand_reneges(
    match: MatchState, hand: HandState, ends_at: dict[int, tuple[tuple[str, int], ...]], know: Knowledge | None = None
) -> tuple[tuple[RenegeEvidence, ...], tuple[RenegeVerdict, ...], tuple[Comment, ...]]:
    """The evidence at every visit of ``hand`` (in event order), one verdict per seat, and comments.

    A renege the table proved (a ``renege`` event) makes that seat's verdict proved, with a
    comment at the event saying what the ruling does and what the record alone shows.

    ``ends_at`` holds the open ends at each draw and pass, by event index (0-based);
    ``know`` is ``Knowledge(hand)`` when the caller has already read it.
    """
    if know is None:
        know = Knowledge(hand)
    evidence: list[RenegeEvidence] = []
    verdicts: list[RenegeVerdict] = []
    comments: list[Comment] = []
    at_table = know.renege_at
    cite = _cite(match.rules)
    for seat in range(match.rules.players):
        if seat in know.visitors:
            flow = SeatFlow(hand, seat, know, ends_at)
            found = [_visit_evidence(match, hand.number, flow, visit, cite) for visit in flow.visits]
            evidence += found
            verdict = _seat_verdict(match, hand.number, flow, found)
        else:
            verdict = _never_visited(match, hand.number, seat)  # no visit: no tile to match
        if seat in at_table:
            verdict = _proved_at_table(match, hand, at_table[seat], verdict)
            comments.append(Comment(hand.number, at_table[seat] + 1, seat, verdict.reasoning))
        verdicts.append(verdict)
    evidence.sort(key=lambda e: e.event)
    return tuple(evidence), tuple(verdicts), tuple(comments)


def _proved_at_table(match: MatchState, hand: HandState, index: int, alone: RenegeVerdict) -> RenegeVerdict:
    """The verdict for a seat whose renege the table proved (a ``renege`` event), with what the record alone shows."""
    who = match.players[alone.seat]
    ruling = renege_words(match, hand, alone.seat)
    if alone.verdict == SeatVerdict.PROVED:
        record = f"The record shows it too. {alone.reasoning}"
    elif not alone.events and alone.verdict == SeatVerdict.CLEAN:
        record = (
            f"The record alone cannot show it: {who} never went to the boneyard or passed in this hand, the only"
            f" moments a renege can happen{_cite(match.rules)}; the ruling rests on what the table saw."
        )
    else:
        record = (
            f"The record alone cannot show it ({alone.reasoning[:1].lower()}{alone.reasoning[1:].rstrip('.')});"
            " the ruling rests on what the table saw."
        )
    words = f"Renege proved at the table (event {index + 1}) against {who}. {ruling} {record}"
    return RenegeVerdict(alone.hand, alone.seat, SeatVerdict.PROVED, (index + 1,), alone.tiles, words)


def _cite(rules: RuleSet) -> str:
    parts = [p for p in (book_section(rules, Topic.RENEGE), book_section(rules, Topic.MANDATORY_PLAY)) if p]
    return f" ({'; '.join(parts)})" if parts else ""


def _did(visit: Visit) -> str:
    """``drew 2 at event 4 and played``, ``passed at event 7``."""
    if not visit.drew:
        return f"passed at event {visit.start + 1}"
    closed_by = visit.closed_by
    if closed_by == "play":
        then = " and played it" if visit.drew == 1 else " and played the last drawn"
    else:
        then = " and passed" if closed_by == "pass" else ""  # "stop": the hand stopped during the visit
    return f"drew {visit.drew} at event {visit.start + 1}{then}"


def _where(item: Item) -> str:
    if item.returned:
        return f"sent back to the boneyard at event {item.leave + 1}"
    return "still held at the end" if item.leave == END else f"played at event {item.leave + 1}"


def _missing(match: MatchState, flow: SeatFlow, item: Item, visit: Visit) -> str:
    """What the record does not say about an unnamed tile that may have fitted ``visit``."""
    who = match.players[flow.seat]
    fits = flow.passers_by(item, visit)
    may_be = tiles_words(match.rules, fits)
    if len(fits) > SHOWN_AT_MOST:
        named = ", ".join(named_tile(match.rules, t) for t in fits[:SHOWN_AT_MOST])
        may_be = f"{named} or {len(fits) - SHOWN_AT_MOST} more"
    if item.returned:
        return f"{who} sent a tile back to the boneyard at event {item.leave + 1}, and it may have been {may_be}"
    if flow.pip_total is not None:
        return f"{who}'s tiles at the end are given only as {flow.pip_total} pips, and may include {may_be}"
    if flow.in_play:
        return f"{who}'s tiles are not shown while the hand is in play, and may include {may_be}"
    return f"the hand ended before {who}'s last tiles were shown, and they may include {may_be}"


def _visit_evidence(match: MatchState, number: int, flow: SeatFlow, visit: Visit, cite: str) -> RenegeEvidence:
    """What the record shows at ``visit``; ``cite`` is ``_cite(match.rules)``."""
    rules = match.rules
    who = match.players[flow.seat]
    ends = ends_words(visit.ends)
    # The named tiles still in the rack as the visit ended (flow.in_rack) that fitted it.
    end, values = visit.end, visit.values
    later = [it for it in flow.named if it.leave > end and not values.isdisjoint(it.tile or ())]
    fitting = tuple([f"{a}-{b}" for a, b in (it.tile for it in later if it.tile is not None)]) if later else ()
    if not later and not (flow.unnamed and any(it.leave > end for it in flow.unnamed)):
        # Nothing the player held then can have fitted: no matching to try.
        why = _cleared_why(match, flow, visit, later)
        return _evidence(
            number,
            flow,
            visit,
            Verdict.CLEARED,
            fitting,
            f"{who} {_did(visit)} holding nothing that fitted ({ends}): {why}.",
        )
    short = flow.shortfall([visit])
    if short is not None:
        proof = _short_words(match, flow, short)
        words = f"{who} {_did(visit)} ({ends}) while holding a tile that fitted{cite}: {proof}."
        return _evidence(number, flow, visit, Verdict.PROVED, fitting, words)
    holders = flow.could_hold(visit)
    if holders:
        named = [it for it in holders if it.tile is not None]
        reasons = []
        if named:
            came = sum(1 for s in flow.slots if visit.cut <= s < max(it.leave for it in named))
            reasons.append(
                f"{tiles_words(rules, [it.tile for it in named if it.tile])} fitted and {who} showed"
                f" {'it' if len(named) == 1 else 'them'} later"
                f" ({'; '.join(_where(it) for it in named)}), but {tiles_count(came)} came into the rack in between"
            )
        unnamed = next((it for it in holders if it.tile is None), None)
        if unnamed is not None:
            reasons.append(_missing(match, flow, unnamed, visit))
        words = f"{who} {_did(visit)} ({ends}); the record cannot tell: {'; '.join(reasons)}."
        return _evidence(number, flow, visit, Verdict.POSSIBLE, fitting, words)
    why = _cleared_why(match, flow, visit, later)
    return _evidence(
        number,
        flow,
        visit,
        Verdict.CLEARED,
        fitting,
        f"{who} {_did(visit)} holding nothing that fitted ({ends}): {why}.",
    )


def _evidence(
    number: int, flow: SeatFlow, visit: Visit, verdict: Verdict, fitting: tuple[str, ...], reasoning: str
) -> RenegeEvidence:
    """The evidence at ``visit`` of hand ``number``: a draw, or a pass with no draw."""
    moment = "draw" if visit.drew else "pass"
    return RenegeEvidence(number, visit.start + 1, flow.seat, moment, verdict, fitting, visit.ends, reasoning)


def _cleared_why(match: MatchState, flow: SeatFlow, visit: Visit, later: list[Item]) -> str:
    rules = match.rules
    who = match.players[flow.seat]
    parts = []
    if later:
        parts.append(
            f"{tiles_words(rules, [it.tile for it in later if it.tile])} fitted but can only have come in afterwards"
            " (the tiles taken in leave no other way)"
        )
    hidden = [it for it in flow.unnamed if flow.in_rack(it, visit)]
    if hidden:
        parts.append(f"no tile {who} may have kept unseen fitted: every tile that fitted was shown")
    elif not later:
        parts.append(f"every tile {who} held then is known (played later or listed at the end) and none fitted")
    return "; ".join(parts)


def _short_words(match: MatchState, flow: SeatFlow, short: Shortfall) -> str:
    """Each tile of a proof, where it was shown and when it fitted, and the count that proves it."""
    rules = match.rules
    who = match.players[flow.seat]
    parts = []
    for item in short.items:
        when = _fitted(flow, short, item)
        at = f", fitting the ends of event {when.start + 1}" if when is not None else ""
        named = "a tile never named" if item.tile is None else named_tile(rules, item.tile)
        parts.append(f"{named} ({_where(item)}{at})")
    since = "the deal" if short.low == DEAL else f"event {short.low + 1}"
    until = "the end of the hand" if short.high == END else f"event {short.high + 1}"
    came = "no tile" if short.room == 0 else f"only {tiles_count(short.room)}"
    extra = len(short.items) - short.room
    if len(short.items) == 1:
        held = "so it was in the rack while it fitted"
    else:
        held = f"so at least {extra} of them {'was' if extra == 1 else 'were'} in the rack while it fitted"
    return (
        f"{'; '.join(parts)}. A tile that fitted cannot still be in the rack when the visit ends (of the tiles"
        f" drawn on one visit only the last may fit, and it is played at once), so each came in later; but {came}"
        f" came into {who}'s rack between {since} and {until}, {held}"
    )


def _fitted(flow: SeatFlow, short: Shortfall, item: Item) -> Visit | None:
    """The latest visit of the proof's span whose ends ``item`` fitted while it could be held."""
    found = [
        v for v in flow.visits if v.end < item.leave and v.cut >= short.low and (item.tile is None or v.fits(item.tile))
    ]
    return found[-1] if found else None


def _never_visited(match: MatchState, number: int, seat: int) -> RenegeVerdict:
    """The verdict for a seat that never went to the boneyard or passed: clean, on no visit."""
    words = f"Clean: {match.players[seat]} never went to the boneyard or passed."
    return RenegeVerdict(number, seat, SeatVerdict.CLEAN, (), (), words)


def _seat_verdict(match: MatchState, number: int, flow: SeatFlow, found: list[RenegeEvidence]) -> RenegeVerdict:
    rules = match.rules
    who = match.players[flow.seat]
    at = tuple(e.event for e in found)
    open_ = [e for e in found if e.verdict != Verdict.CLEARED]
    # Every visit cleared means no world holds a fitting tile at any of them: no shortfall to look for.
    short = flow.shortfall(flow.visits) if open_ else None
    if short is not None:
        tiles = tuple(
            Shown(
                f"{it.tile[0]}-{it.tile[1]}",
                0 if it.leave == END else it.leave + 1,
                visit.start + 1 if (visit := _fitted(flow, short, it)) is not None else 0,
            )
            for it in short.items
            if it.tile is not None
        )
        proof = _short_words(match, flow, short)
        words = f"Renege proved: {who} held a tile that could be played and did not play it{_cite(rules)}: {proof}."
        return RenegeVerdict(number, flow.seat, SeatVerdict.PROVED, at, tiles, words)
    if not open_:
        if not found:
            return _never_visited(match, number, flow.seat)
        why = "; ".join(dict.fromkeys(e.reasoning.split(": ", 1)[1].rstrip(".") for e in found))
        events = ", ".join(str(e.event) for e in found)
        words = f"Clean: {who} held nothing that fitted at any visit to the boneyard or pass (event {events}): {why}."
        return RenegeVerdict(number, flow.seat, SeatVerdict.CLEAN, at, (), words)
    why = " ".join(e.reasoning for e in open_)
    return RenegeVerdict(
        number, flow.seat, SeatVerdict.CANT_TELL, tuple(e.event for e in open_), (), f"Can't tell: {why}"
    )
