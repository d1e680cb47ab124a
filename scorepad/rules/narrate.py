"""The referee's account in words: each play's count explained, each call judged, each end settled.

Used by ``scorepad referee`` (readable output); every ruling's words come from ``wording``.
"""

from __future__ import annotations

from typing import Any

from scorepad.rules.events import Adjust, Draw, Muggins, Pass, Play, Renege, Void
from scorepad.rules.hand import HandEnd, HandState, score_of
from scorepad.rules.layout import Layout
from scorepad.rules.match import MatchState
from scorepad.rules.tiles import parse_tile
from scorepad.rules.wording import FLAG_WORDS, deduction_lines, end_words, renege_words, settlement_steps


def hand_lines(match: MatchState, hand: HandState) -> list[str]:
    """One line per event of ``hand``, then its end, in plain words."""
    rules = match.rules
    layout = Layout(sniff_rule=rules.sniff, long_sides_first=rules.long_sides_first)
    lines = []
    for index, (event, outcome) in enumerate(zip(hand.events, hand.outcomes, strict=True), 1):
        who = match.players[outcome["player"]] if "player" in outcome else ""
        if isinstance(event, Play):
            # A tile that stood is laid as written (records.md §4), not as the account's sorted text.
            tile = parse_tile(event.tile, rules.max_pip) if event.stands else parse_tile(outcome["tile"], rules.max_pip)
            layout.place(tile, outcome["at"], stands=event.stands)
            lines.append(f"{index:>3}. {_play_words(match, event, outcome, who, layout)}")
        elif isinstance(event, Draw):
            lines.append(f"{index:>3}. {who} draws {event.count}")
        elif isinstance(event, Pass):
            lines.append(f"{index:>3}. {who} passes")
        elif isinstance(event, Muggins):
            lines.append(f"{index:>3}. {who} calls muggins and takes the missed {outcome['score']}")
        elif isinstance(event, Renege):
            lines.append(f"{index:>3}. a renege by {who} is proved")
        elif isinstance(event, Adjust):
            moved = f"takes {event.count} from" if event.count > 0 else f"returns {-event.count} to"
            lines.append(f"{index:>3}. {who} {moved} the boneyard (a dealing irregularity)")
        elif isinstance(event, Void):
            lines.append(f"{index:>3}. the hand is thrown in")
    return lines + end_lines(match, hand)


def event_line(match: MatchState, hand: HandState, index: int) -> str:
    """The account of ``hand``'s event ``index`` (0-based) as ``hand_lines`` gives it, without its number.

    "Bob plays 1-6 right: right 6 + ...". Raises ``IndexError`` for an event the hand does not have.
    """
    return hand_lines(match, hand)[index].strip().split(". ", 1)[-1]


def _play_words(match: MatchState, event: Play, outcome: dict[str, Any], who: str, layout: Layout) -> str:
    count = outcome["board_count"]
    if outcome["at"] == "set":
        head = f"{who} sets {outcome['tile']}: {layout.explain()}"
        return head + (f", scores {outcome['score']}" if outcome["score"] else ", no score")
    head = f"{who} plays {outcome['tile']} {outcome['at']}: {layout.explain()}"
    exists = score_of(count)
    flags = outcome["flags"]
    if "stood" in flags:
        head += f" ({FLAG_WORDS['stood']})"
        flags = tuple(f for f in flags if f != "stood")
    if not flags:
        return head + (f", scores {outcome['score']}" if outcome["score"] else ", no score")
    call = exists if event.call is None else event.call
    judged = "; ".join(FLAG_WORDS[f] for f in flags)
    if "corrected" in flags:
        result = f"recorded {outcome['score']}"
    elif match.rules.calls_required:
        result = "the call stands" if outcome["score"] == call else f"recorded {outcome['score']}"
        result += f": {outcome['score']}" if outcome["score"] == call else ""
    else:
        result = f"the count scores by itself: {outcome['score']}"
    return f"{head}, called {call} ({judged}); {result}"


def end_lines(match: MatchState, hand: HandState) -> list[str]:
    """How the hand ended, with the settlement's rounding shown step by step."""
    if hand.how == HandEnd.IN_PROGRESS:
        lines = [f"In progress: {match.players[hand.turn]} to play."]
    elif hand.how == HandEnd.RENEGE:
        lines = [renege_words(match, hand, hand.renege_by or 0)]
    else:
        lines = [end_words(match, hand) + "."]
    if hand.settlement is not None:
        lines.extend(f"  {step}" for step in settlement_steps(match, hand.settlement))
    elif hand.needs_settlement:
        lines.append("  awaiting the remaining tiles to settle")
    if hand.deductions and hand.finished:
        lines.extend(f"  {line}" for line in deduction_lines(match, hand))
    return lines


def scores_line(match: MatchState, scores: list[int] | tuple[int, ...]) -> str:
    """Each side's score, named."""
    return ", ".join(f"{match.side_name(side)} {score}" for side, score in enumerate(scores))
