"""A hand's findings as data for a referee: what went wrong, where to look, and what the rules make of it.

Each finding is one of four kinds (a renege, a score missed, a miscall, an
automatic missed), with the event it jumps to (from 1, as the referee numbers
events), the player, the ruling it leads to in the book's words, the renege
penalty as the engine previews it (who pays and the scores it leaves), and
the tiles that are its evidence. Flet-free, for ``scorepad analyse
--findings`` and the Dispute screen alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scorepad.analysis.values import HandAnalysis, RenegeVerdict, SeatVerdict, Use
from scorepad.rules import MatchState, Play
from scorepad.rules.hand import LastPlay, score_of
from scorepad.rules.presets import Topic
from scorepad.rules.previews import preview_renege
from scorepad.rules.rulesets import cited
from scorepad.rules.wording import call_consequence, renege_words, scores_words


class FindingKind(StrEnum):
    """What a finding is about."""

    RENEGE = "renege"  # Smartt §11.1: proved by the record or at the table
    MISSED_SCORE = "missed score"  # Smartt §7.2: a score existed and nothing was called
    MISCALL = "miscall"  # Smartt §7.2: an overcall, an undercall or a score that did not exist, not corrected
    MISSED_AUTOMATIC = "missed automatic"  # Smartt §7.3: a counter-score the player held and did not play


@dataclass(frozen=True, slots=True)
class Penalty:
    """A renege penalty as the engine previews it (Smartt §11.1, or the renege option)."""

    side: int  # the side that pays
    payers: tuple[int, ...]  # its seats: in a partnership both partners pay for one's renege
    scores_now: tuple[int, ...]  # the hand's result as recorded
    scores_after: tuple[int, ...]  # with the penalty applied
    words: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing a referee should look at in a hand."""

    hand: int
    event: int  # the event to jump to, from 1
    kind: FindingKind
    seat: int
    title: str
    ruling: str
    penalty: Penalty | None
    tiles: tuple[str, ...]  # the evidence, as tiles


def hand_findings(match: MatchState, analysis: HandAnalysis) -> tuple[Finding, ...]:
    """The findings of one analysed hand, in event order (reneges first where two share an event)."""
    hand = match.hands[analysis.number - 1]
    found = [_renege(match, analysis, v) for v in analysis.verdicts if v.verdict == SeatVerdict.PROVED]
    for index, (event, outcome) in enumerate(zip(hand.events, hand.outcomes, strict=True)):
        if isinstance(event, Play) and outcome["at"] != "set":
            call = _call(match, analysis.number, index, event)
            if call is not None:
                found.append(call)
    for review in analysis.plays:
        if review.automatic is not None and review.automatic.use == Use.MISSED:
            seat, auto = review.seat, review.automatic
            what = "an automatic" if match.rules.cite(Topic.AUTOMATIC) else "a counter-score"
            title = f"{match.players[seat]} missed {what}"
            ruling = (
                f"{auto.words}. No rule is broken: a counter-score not played costs only the points it would"
                " have made, and what a player fails to play may show what he lacks."
            )
            found.append(
                Finding(
                    analysis.number,
                    review.event,
                    FindingKind.MISSED_AUTOMATIC,
                    seat,
                    title,
                    ruling,
                    None,
                    (review.tile, auto.placing.tile),
                )
            )
    order = list(FindingKind)
    return tuple(sorted(found, key=lambda f: (f.event, order.index(f.kind))))


def _renege(match: MatchState, analysis: HandAnalysis, verdict: RenegeVerdict) -> Finding:
    rules = match.rules
    hand = match.hands[analysis.number - 1]
    seat = verdict.seat
    side = rules.side_of(seat)
    title = f"Renege by {match.players[seat]}, proved"
    tiles = tuple(t.tile for t in verdict.tiles)
    jump = min((t.fitted for t in verdict.tiles if t.fitted), default=verdict.events[0] if verdict.events else 1)
    at_table = any(o["event"] == "renege" and o["player"] == seat for o in hand.outcomes)
    if at_table:
        # The table proved it: the record already carries the ruling, and the scores show it applied.
        jump = verdict.events[0]
        now = tuple(hand.scores_after)
        penalty = Penalty(side, rules.seats_of(side), now, now, renege_words(match, hand, seat))
        return Finding(analysis.number, jump, FindingKind.RENEGE, seat, title, verdict.reasoning, penalty, tiles)
    preview = preview_renege(match, analysis.number, seat)
    when = f"if proved before the next hand begins{cited(rules, Topic.RENEGE)}"
    if preview.refusal is not None:
        ruling = f"{verdict.reasoning} No penalty can be applied: {preview.refusal}."
        return Finding(analysis.number, jump, FindingKind.RENEGE, seat, title, ruling, None, tiles)
    words = (
        f"{preview.words} Scores: {scores_words(match, preview.scores_after)},"
        f" instead of {scores_words(match, preview.scores_now)}."
    )
    penalty = Penalty(side, rules.seats_of(side), preview.scores_now, preview.scores_after, words)
    ruling = f"{verdict.reasoning} The ruling, {when}: {words}"
    return Finding(analysis.number, jump, FindingKind.RENEGE, seat, title, ruling, penalty, tiles)


def _call(match: MatchState, number: int, index: int, event: Play) -> Finding | None:
    """A score missed or a miscall at the play at ``index``, where the book makes calls count."""
    rules = match.rules
    hand = match.hands[number - 1]
    outcome = hand.outcomes[index]
    flags = set(outcome["flags"]) - {"stood"}
    if not rules.calls_required or not flags or "corrected" in flags:
        return None
    seat, count = outcome["player"], outcome["board_count"]
    last = LastPlay(seat, count, score_of(count), outcome["score"], outcome["flags"], False)
    called = event.call if event.call is not None else score_of(count)
    claimed = index + 1 < len(hand.outcomes) and hand.outcomes[index + 1]["event"] == "muggins"
    ruling = call_consequence(rules, last, called, claim_open=rules.muggins and "missed" in flags and not claimed)
    who = match.players[seat]
    if "missed" in flags:
        kind, title = FindingKind.MISSED_SCORE, f"{who} did not call the {score_of(count)}"
        if claimed:
            taker = match.players[hand.outcomes[index + 1]["player"]]
            ruling += f" {taker} claimed it (muggins)."
    else:
        kind, title = FindingKind.MISCALL, f"{who} called {called} on a count of {count}"
        ruling += " Nobody corrected it before the next tile, so it stood."
    return Finding(number, index + 1, kind, seat, title, ruling, None, (outcome["tile"],))
