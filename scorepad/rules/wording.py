"""Every ruling in words, in the players' names, citing the book in play.

The referee command (``narrate``) and the table app both word their rulings
here: a flag and what it costs, a call's consequence, how a hand ended, a
settlement step by step, a renege, a game won. A citation always comes from
the preset of the match (``RuleSet.cite``), so a Jaques game never cites Smartt.
"""

from __future__ import annotations

from scorepad.rules.hand import HandEnd, HandState, LastPlay
from scorepad.rules.match import GameResult, MatchState
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import RuleSet, cited
from scorepad.rules.settle import RENEGE_DEDUCTION, RENEGE_ROLLBACK, Settlement

FLAG_WORDS = {
    "missed": "a score existed and was not called",
    "overcall": "called more than the count",
    "undercall": "called less than the count",
    "nonexistent": "called a score that did not exist",
    "corrected": "corrected before the next tile",
    "stood": "an illegal coupling that nobody caught before the next tile, so it stands",
}

HOW_WORDS = {
    HandEnd.OUT: "went out",
    HandEnd.BLOCKED: "blocked",
    HandEnd.RENEGE: "stopped by a renege",
    HandEnd.WON: "won the game",
    HandEnd.VOID: "thrown in",
    HandEnd.IN_PROGRESS: "in play",
}


def count_words(number: int, thing: str) -> str:
    """``1 tile``, ``2 tiles``: a count with its noun in the right number."""
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


# Verbs whose plural is not the singular less its final s.
_PLURALS = {"has": "have", "goes": "go", "is": "are", "was": "were", "does": "do"}


def side_does(match: MatchState, side: int, verb: str) -> str:
    """``Ann takes`` or ``Ann & Cat take``: a side's name with ``verb`` (given singular) agreeing with it."""
    return f"{match.side_name(side)} {agreeing(match, side, verb)}"


def agreeing(match: MatchState, side: int, verb: str) -> str:
    """``verb`` (given singular, ``takes``) as it agrees with ``side``: plural for a partnership."""
    if len(match.rules.seats_of(side)) == 1:
        return verb
    head, _, rest = verb.partition(" ")
    plural = _PLURALS.get(head, head[:-1] if head.endswith("s") else head)
    return f"{plural} {rest}" if rest else plural


def scores_words(match: MatchState, scores: list[int] | tuple[int, ...]) -> str:
    """Each side's score, named: ``Ann 15, Bob 0``."""
    return ", ".join(f"{match.side_name(side)} {score}" for side, score in enumerate(scores))


def named(match: MatchState, text: str) -> str:
    """Put the players' names on the engine's 'seat N' and 'side N' in a sentence (a refusal, say)."""
    if match.rules.partners:
        for side in range(match.rules.sides):
            text = text.replace(f"side {side}", match.side_name(side))
    else:
        text = text.replace("side ", "seat ")
    for seat, player in enumerate(match.players):
        text = text.replace(f"seat {seat}'s", f"{player}'s").replace(f"seat {seat}", player)
    return text


def call_consequence(rules: RuleSet, last: LastPlay, called: int, *, claim_open: bool) -> str:
    """What the rules do with the call just recorded on the last play."""
    flags = set(last.flags) - {"stood"}
    stood = " The illegal coupling stands" + cited(rules, Topic.STANDS) + "." if "stood" in last.flags else ""
    if "corrected" in flags:
        return f"Corrected before the next tile: {last.recorded} recorded{cited(rules, Topic.CALLS)}.{stood}"
    if not flags:
        if not rules.calls_required:
            # American 'Score a placement': nothing is called, so nothing is called right.
            words = f"The count scores by itself: {last.recorded}{cited(rules, Topic.COUNT)}." if last.recorded else ""
            return (words or "Nothing to score.") + stood
        words = f"Called right: {last.recorded} scored." if last.recorded else "Nothing to score."
        return words + stood
    if not rules.calls_required:
        return (
            f"The count scores by itself: {last.recorded} recorded; the call is only checked"
            f"{cited(rules, Topic.COUNT)}.{stood}"
        )
    if "missed" in flags:
        words = f"No call, no score: the {last.score} is lost{cited(rules, Topic.CALLS)}"
        if claim_open:
            words += f"; an opponent may claim it (muggins{_muggins_cite(rules)})"
        return words + "." + stood
    if "nonexistent" in flags:
        return f"No score existed; the call of {called} stands unless corrected before the next tile.{stood}"
    return (
        f"The call of {called} stands as called ({last.recorded} recorded, the count made {last.score})"
        f" unless corrected before the next tile{cited(rules, Topic.CALLS)}.{stood}"
    )


def _muggins_cite(rules: RuleSet) -> str:
    section = rules.cite(Topic.MUGGINS)
    return f", {section}" if section else ""


def end_words(match: MatchState, hand: HandState) -> str:
    """How ``hand`` ended, in one short sentence without its full stop."""
    rules = match.rules
    if hand.how == HandEnd.OUT:
        return f"{match.players[hand.went_out or 0]} went out"
    if hand.how == HandEnd.BLOCKED:
        return f"The hand is blocked{cited(rules, Topic.BLOCK)}"
    if hand.how == HandEnd.WON:
        side = hand.won_side or 0
        return f"{match.side_name(side)} reached {rules.target} and won the game at once{cited(rules, Topic.WIN)}"
    if hand.how == HandEnd.RENEGE:
        return f"Renege by {match.players[hand.renege_by or 0]}: the hand stopped{cited(rules, Topic.RENEGE)}"
    if hand.how == HandEnd.VOID:
        return f"The hand was thrown in{cited(rules, Topic.VOID)}"
    return "In play"


def short_end_words(match: MatchState, hand: HandState) -> str:
    """How ``hand`` stands in a few words, for a status line: ``Ann went out``, ``Ann won the game``."""
    if hand.how == HandEnd.OUT:
        return f"{match.players[hand.went_out or 0]} went out"
    if hand.how == HandEnd.WON:
        return f"{match.side_name(hand.won_side or 0)} won the game"
    if hand.how == HandEnd.RENEGE:
        return f"Renege by {match.players[hand.renege_by or 0]}"
    return sentence(HOW_WORDS[hand.how])


def sentence(text: str) -> str:
    """The text, trimmed, with its first letter capitalised."""
    text = text.strip()
    return text[:1].upper() + text[1:]


def renege_words(match: MatchState, hand: HandState, seat: int) -> str:
    """What a renege by ``seat`` does (``hand`` is the hand with the renege applied), and who pays.

    In a partnership the side pays for its player (Smartt, 'Four players': penalties fall on the partnership).
    """
    rules = match.rules
    side = rules.side_of(seat)
    who = match.side_name(side)
    cite = cited(rules, Topic.RENEGE) or " (the renege option)"
    payer = ""
    if len(rules.seats_of(side)) > 1:
        payer = f" {who} pay for {match.players[seat]}'s renege."
    if hand.how == HandEnd.RENEGE:
        after = hand.scores_after
        others = "; ".join(f"{side_does(match, s, 'keeps')} {after[s]}" for s in range(rules.sides) if s != side)
        return (
            f"The hand stops{cite}.{payer} {side_does(match, side, 'goes back')} to {hand.scores_before[side]}"
            f" (start of hand) less {RENEGE_ROLLBACK} = {after[side]}; {others}, with no go-out or block award."
        )
    return (
        f"Play goes on;{payer} {side_does(match, side, 'loses')} {RENEGE_DEDUCTION} when the hand ends,"
        f" and {agreeing(match, side, 'holds')} the target only with it off{cite}."
    )


def settlement_steps(match: MatchState, settlement: Settlement) -> list[str]:
    """The settlement step by step, named: whose pips, the rounding, who scores."""
    rules, pips = match.rules, settlement.pips
    rounding = cited(rules, Topic.SETTLEMENT)
    if settlement.debits is not None:
        return [
            f"{match.players[seat]}: {p} pips rounds to {d}, taken off {match.side_name(rules.side_of(seat))}{rounding}"
            for seat, (p, d) in enumerate(zip(pips, settlement.debits, strict=True))
            if p
        ]
    if settlement.how == HandEnd.OUT:
        side = rules.side_of(settlement.out_by or 0)
        paying = [seat for seat in range(rules.players) if rules.side_of(seat) != side]
        total = sum(pips[seat] for seat in paying)
        if len(paying) > 1:
            held = " + ".join(f"{match.players[s]} {pips[s]}" for s in paying) + f" = {total} pips left in hand"
        else:
            held = f"{match.players[paying[0]]} holds {total} pips"
        return [
            held,
            f"{total} rounds to {settlement.award}{rounding}",
            f"{side_does(match, side, 'scores')} {settlement.award}{cited(rules, Topic.OUT)}",
        ]
    side_pips = [sum(pips[s] for s in rules.seats_of(side)) for side in range(rules.sides)]
    steps = ["pips in hand: " + ", ".join(f"{match.side_name(s)} {p}" for s, p in enumerate(side_pips))]
    if settlement.to is None:
        return [*steps, f"a tie for the lowest total: nobody scores{cited(rules, Topic.BLOCK)}"]
    total = sum(p for side, p in enumerate(side_pips) if side != settlement.to)
    return [
        *steps,
        f"{side_does(match, settlement.to, 'has')} the lowest total and {agreeing(match, settlement.to, 'takes')}"
        f" the others' {total} pips"
        f"{cited(rules, Topic.BLOCK)}",
        f"{total} rounds to {settlement.award}{rounding}",
        f"{side_does(match, settlement.to, 'scores')} {settlement.award}",
    ]


def rollback_step(match: MatchState, hand: HandState) -> str:
    """A rollback25 renege as one step: the offender's start-of-hand score less 25 (Smartt §11.1)."""
    side = match.rules.side_of(hand.renege_by or 0)
    return (
        f"{match.side_name(side)}: {hand.scores_before[side]} at the start of the hand,"
        f" less {RENEGE_ROLLBACK} = {hand.scores_after[side]}"
    )


def deduction_lines(match: MatchState, hand: HandState) -> list[str]:
    """The deduct50 reneges taken off at the end of ``hand``, one line each."""
    rules = match.rules
    cite = cited(rules, Topic.RENEGE) or " (the renege option)"
    return [
        f"renege by {match.players[seat]}: {RENEGE_DEDUCTION} off {match.side_name(rules.side_of(seat))}{cite}"
        for seat in hand.deductions
    ]


def game_words(match: MatchState, result: GameResult) -> str:
    """A game won: who, the final scores, and the game points and Rube where the book has them."""
    rules = match.rules
    words = f"{match.side_name(result.winner)} won game {result.number}. Final scores: "
    words += scores_words(match, result.scores) + "."
    if result.game_points is not None:
        words += f" Game points: {result.game_points}{cited(rules, Topic.GAME_POINTS)}."
        rubed = [match.side_name(s) for s in result.rubed or ()]
        words += f" Rubed: {', '.join(rubed)}." if rubed else " No Rube."
    return words
