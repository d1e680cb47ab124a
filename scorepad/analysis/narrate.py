"""The analysis in words, hand by hand and event by event (``scorepad analyse`` and the Dispute screen)."""

from __future__ import annotations

from scorepad.analysis.naming import book_cited, named_tile
from scorepad.analysis.values import (
    HandAnalysis,
    MatchAnalysis,
    Placing,
    PlayReview,
    RenegeEvidence,
    Safety,
    SeatVerdict,
    Verdict,
)
from scorepad.rules import MatchState
from scorepad.rules.hand import score_of
from scorepad.rules.presets import Topic
from scorepad.rules.wording import count_words

SAFETY_WORDS = {
    Safety.OPEN: "open: a tile an opponent may hold can score on it",
    Safety.BULLETPROOF: "bulletproof: only the own side's tiles can score on it",
    Safety.UNSCOREAPONABLE: "unscoreaponable: no unplayed tile can score on it",
}


def placing_words(match: MatchState, placing: Placing) -> str:
    """``1-6 (Pet) left: count 15, scores 15``."""
    where = "as the set" if placing.at == "set" else placing.at
    scored = f"scores {placing.score}" if placing.score else "no score"
    return f"{named_tile(match.rules, placing.tile)} {where}: count {placing.board_count}, {scored}"


def play_lines(match: MatchState, review: PlayReview) -> list[str]:
    """What the analysis says about one play, below the play itself."""
    lines = []
    if review.alternatives:
        shown = "; ".join(placing_words(match, p) for p in review.alternatives)
        lines.append(f"other choices: {shown}")
    if review.missed:
        best = max(review.missed, key=lambda p: p.score)
        lines.append(f"missed chance: {placing_words(match, best)} (the play made {review.score})")
    if review.automatic is not None:
        lines.append(review.automatic.words)
    return lines


def renege_line(match: MatchState, evidence: RenegeEvidence) -> str:
    """``renege proved: ...``."""
    return f"renege {evidence.verdict.value}: {evidence.reasoning}"


def clutch_words(match: MatchState, unseen: tuple[int, ...]) -> str:
    """``0: 3, 1: 2, ...``: the tiles of each value not yet on the table (Smartt §2.1)."""
    counts = ", ".join(f"{value}s {n}" for value, n in enumerate(unseen))
    gone = [str(value) for value, n in enumerate(unseen) if n == 0]
    tail = f"; no hidden tile holds a {' or a '.join(gone)}" if gone else ""
    return f"clutches unseen: {counts}{tail}{book_cited(match.rules, Topic.CLUTCH)}"


def event_words(match: MatchState, hand_number: int, index: int) -> str:
    """One event of a hand in a few words, tiles named (``Ann plays 1-6 (Pet) left: count 15, scores 15``)."""
    hand = match.hands[hand_number - 1]
    outcome = hand.outcomes[index]
    who = match.players[outcome["player"]] if "player" in outcome else ""
    kind = outcome["event"]
    if kind == "play":
        tile = named_tile(match.rules, outcome["tile"])
        what = f"sets {tile}" if outcome["at"] == "set" else f"plays {tile} {outcome['at']}"
        count = outcome["board_count"]
        if outcome["score"] != score_of(count):
            scored = f"{outcome['score']} recorded (the call stood)"
        else:
            scored = f"scores {outcome['score']}" if outcome["score"] else "no score"
        return f"{who} {what}: count {count}, {scored}"
    if kind == "draw":
        return f"{who} draws {outcome['count']}"
    if kind == "pass":
        return f"{who} passes"
    if kind == "muggins":
        return f"{who} calls muggins and takes {outcome['score']}"
    if kind == "renege":
        return f"a renege by {who} is proved at the table"
    if kind == "adjust":
        return f"{who} {'takes' if outcome['count'] > 0 else 'returns'} {count_words(abs(outcome['count']), 'tile')}"
    return "the hand is thrown in"


def hand_lines(match: MatchState, analysis: HandAnalysis) -> list[str]:
    """The hand event by event with what the analysis found at each, then its end."""
    hand = match.hands[analysis.number - 1]
    plays = {p.event: p for p in analysis.plays}
    reneges = {r.event: r for r in analysis.reneges}
    comments: dict[int, list[str]] = {}
    for comment in analysis.comments:
        comments.setdefault(comment.event, []).append(comment.words)
    sayings: dict[int, list[str]] = {}
    for saying in analysis.sayings:
        sayings.setdefault(saying.event, []).append(saying.words)
    lines = []
    for index in range(len(hand.events)):
        number = index + 1
        lines.append(f"{number:>3}. {event_words(match, analysis.number, index)}")
        extra: list[str] = []
        if number in plays:
            extra += play_lines(match, plays[number])
        if number in reneges and reneges[number].verdict != Verdict.CLEARED:
            # A cleared visit is said once, in the player's verdict below, not at every draw.
            extra.append(renege_line(match, reneges[number]))
        extra += comments.get(number, [])
        extra += sayings.get(number, [])
        lines += [f"       {line}" for line in extra]
    lines += sayings.get(0, [])
    table = {c.seat for c in analysis.comments if c.words.startswith("Renege proved at the table")}
    # A renege proved at the table is said at its event; the other players' verdicts close the hand.
    lines += [verdict.reasoning for verdict in analysis.verdicts if verdict.seat not in table]
    if analysis.plays:
        lines.append(clutch_words(match, analysis.plays[-1].unseen))
    return lines


def summary(analysis: MatchAnalysis) -> dict[str, int]:
    """Counts over the match: reneges by verdict (per visit, and per player and hand), better choices, automatics."""
    out = {f"reneges_{v.value}": 0 for v in Verdict}
    out.update({f"players_{v.name.lower()}": 0 for v in SeatVerdict})
    out.update(missed_chances=0, automatics_used=0, automatics_missed=0)
    # Each value's key, named once rather than once a value (a match has hundreds of thousands).
    renege_keys = {v: f"reneges_{v.value}" for v in Verdict}
    player_keys = {v: f"players_{v.name.lower()}" for v in SeatVerdict}
    for hand in analysis.hands:
        for evidence in hand.reneges:
            out[renege_keys[evidence.verdict]] += 1
        for verdict in hand.verdicts:
            out[player_keys[verdict.verdict]] += 1
        for play in hand.plays:
            score = play.score  # PlayReview.missed, without making the tuple
            for other in play.alternatives:
                if other.score > score:
                    out["missed_chances"] += 1
                    break
            if play.automatic is not None:
                out[f"automatics_{play.automatic.use.value}"] += 1
    return out
