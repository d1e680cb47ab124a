"""Every ruling in words, in the players' names, citing the book in play.

The referee command (``narrate``) and the table app both word their rulings
here: a flag and what it costs, a call's consequence, how a hand ended, a
settlement step by step, a renege, a game won. A citation always comes from
the preset of the match (``RuleSet.cite``), so a Jaques game never cites Smartt
as its own book: where Jaques is silent the ruling names our reading, and the
Smartt section that reading follows (docs/rules.md).
"""

from __future__ import annotations

from scorepad.rules.hand import HandEnd, HandState, LastPlay
from scorepad.rules.layout import SHORT, Layout
from scorepad.rules.match import GameResult, MatchState, Series
from scorepad.rules.misdeal import Misdeal
from scorepad.rules.numbers import count_words as count_words  # re-exported: the words of every count
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


def others_pips(match: MatchState, total: int) -> str:
    """``the other's 28 pips`` with two players, ``the other side's`` with partners, ``the others'`` with three."""
    rules = match.rules
    if rules.sides > 2:
        return f"the others' {total} pips"
    return f"the other side's {total} pips" if rules.partners else f"the other's {total} pips"


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


def correction_moment(hand: HandState) -> str:
    """Until when the call on the last play may still be corrected, in words (Smartt §7.2).

    ``before the next tile`` during play; on the hand's last tile there is no
    next tile, so ``before the settlement`` once a player went out and
    ``before the next game`` after the winning tile (docs/rules.md R4).
    """
    if hand.how == HandEnd.WON:
        return "before the next game"
    if hand.how in (HandEnd.OUT, HandEnd.BLOCKED):
        return "before the settlement"
    return "before the next tile"


def call_consequence(
    rules: RuleSet, last: LastPlay, called: int, *, claim_open: bool, moment: str = "before the next tile"
) -> str:
    """What the rules do with the call just recorded on the last play.

    ``moment`` is until when it may be corrected (``correction_moment`` of the hand).
    """
    flags = set(last.flags) - {"stood"}
    stood = " The illegal coupling stands" + cited(rules, Topic.STANDS) + "." if "stood" in last.flags else ""
    if "corrected" in flags:
        return f"Corrected {moment}: {last.recorded} recorded{cited(rules, Topic.CALLS)}.{stood}"
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
    stands = cited(rules, Topic.CALL_STANDS, "R4, after Smartt §7.2")
    if "missed" in flags:
        lost = rules.cite(Topic.CALLS)
        claim = rules.cite(Topic.MUGGINS)
        if claim_open and claim == lost:
            # One book section for both halves of the line: cite it once, at the end.
            return f"No call, no score: the {last.score} is lost; an opponent may claim it (muggins: {claim}).{stood}"
        words = f"No call, no score: the {last.score} is lost{cited(rules, Topic.CALLS)}"
        if claim_open:
            words += "; an opponent may claim it (muggins" + (f": {claim})" if claim else ")")
        return words + "." + stood
    if "nonexistent" in flags:
        return f"No score existed; the call of {called} stands unless corrected {moment}{stands}.{stood}"
    return (
        f"The call of {called} stands as called ({last.recorded} recorded, the count made {last.score})"
        f" unless corrected {moment}{stands}.{stood}"
    )


def muggins_words(match: MatchState, hand: HandState, seat: int, score: int) -> str:
    """What a muggins claim by ``seat`` for ``score`` did (``hand`` has the claim applied), in one line."""
    rules = match.rules
    side = rules.side_of(seat)
    last = hand.last_play
    missed_by = match.players[last.seat] if last is not None else "the last player"
    words = (
        f"Muggins: {match.players[seat]} claims the {score} {missed_by} did not call;"
        f" {match.side_name(side)} {agreeing(match, side, 'has')} {hand.scores[side]}"
        f"{cited(rules, Topic.MUGGINS)}."
    )
    if hand.how == HandEnd.WON:
        words += f" {end_words(match, hand)}."
    return words


def end_words(match: MatchState, hand: HandState) -> str:
    """How ``hand`` ended, in one short sentence without its full stop."""
    rules = match.rules
    if hand.how == HandEnd.OUT:
        return f"{match.players[hand.went_out or 0]} went out"
    if hand.how == HandEnd.BLOCKED:
        return f"The hand is blocked{cited(rules, Topic.BLOCK)}"
    if hand.how == HandEnd.WON:
        side = hand.won_side or 0
        score = hand.scores_after[side]
        reached = (
            f"reached {score}" if score == rules.target else f"reached {score}, past the target of {rules.target},"
        )
        return f"{match.side_name(side)} {reached} and won the game at once{cited(rules, Topic.WIN)}"
    if hand.how == HandEnd.RENEGE:
        return f"Renege by {match.players[hand.renege_by or 0]}: the hand stopped{cited(rules, Topic.RENEGE)}"
    if hand.how == HandEnd.VOID:
        return f"The hand was thrown in{cited(rules, Topic.VOID)}"
    return "In play"


def short_end_words(match: MatchState, hand: HandState) -> str:
    """How ``hand`` stands in a few words, for a status line or a score sheet's row.

    ``Ann went out``, ``Ann won the game``, ``Blocked; Bob won the game``: a
    hand that won a game names the side that won it (never its setter).
    """
    winner = hand.winner()
    won = f"{match.side_name(winner)} won the game" if winner is not None else ""
    if hand.how == HandEnd.WON:
        return won
    if hand.how == HandEnd.OUT:
        words = f"{match.players[hand.went_out or 0]} went out"
    elif hand.how == HandEnd.RENEGE:
        words = f"Renege by {match.players[hand.renege_by or 0]}"
    else:
        words = sentence(HOW_WORDS[hand.how])
    return f"{words}; {won}" if won else words


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
    to = settlement.to
    return [
        *steps,
        f"{side_does(match, to, 'has')} the lowest total and"
        f" {agreeing(match, to, 'takes')} {others_pips(match, total)}{cited(rules, Topic.BLOCK)}",
        f"{total} rounds to {settlement.award}{rounding}",
        f"{side_does(match, to, 'scores')} {settlement.award}",
    ]


def rollback_step(match: MatchState, hand: HandState) -> str:
    """A rollback25 renege as one step: the offender's start-of-hand score less 25 (Smartt §11.1)."""
    side = match.rules.side_of(hand.renege_by or 0)
    return (
        f"{match.side_name(side)}: {hand.scores_before[side]} at the start of the hand,"
        f" less {RENEGE_ROLLBACK} = {hand.scores_after[side]}"
    )


def deduction_lines(match: MatchState, hand: HandState) -> list[str]:
    """The deduct50 reneges taken off at the end of ``hand``, one line each, with the side's score before and after.

    The 50 comes off after the hand's settlement (Smartt §11.1, records.md §5).
    """
    rules = match.rules
    cite = cited(rules, Topic.RENEGE) or " (the renege option)"
    scores = list(hand.scores)
    if hand.settlement is not None and hand.how in (HandEnd.OUT, HandEnd.BLOCKED):
        scores = [score + delta for score, delta in zip(scores, hand.settlement.deltas(rules), strict=True)]
    lines = []
    for seat in hand.deductions:
        side = rules.side_of(seat)
        before, scores[side] = scores[side], scores[side] - RENEGE_DEDUCTION
        lines.append(
            f"renege by {match.players[seat]}: {RENEGE_DEDUCTION} off {match.side_name(side)},"
            f" {before} − {RENEGE_DEDUCTION} = {scores[side]}{cite}"
        )
    return lines


def pending_words(match: MatchState, hand: HandState) -> str:
    """What is still to come off at the end of ``hand``: a proved deduct50 renege (Smartt §11.1); '' when nothing.

    For the table while the hand goes on, so that the 50 is never a surprise
    at the settlement.
    """
    if not hand.deductions or hand.finished:
        return ""
    rules = match.rules
    cite = cited(rules, Topic.RENEGE) or " (the renege option)"
    owed = [0] * rules.sides
    for seat in hand.deductions:
        owed[rules.side_of(seat)] += RENEGE_DEDUCTION
    sides = [f"{owed[side]} off {match.side_name(side)}" for side in range(rules.sides) if owed[side]]
    return f"Renege proved: {' and '.join(sides)} when the hand ends, after its settlement{cite}."


def game_words(match: MatchState, result: GameResult) -> str:
    """A game won: who, the final scores, and the game points and Rube where the book has them."""
    rules = match.rules
    words = f"{match.side_name(result.winner)} won game {result.number}. Final scores: "
    words += scores_words(match, result.scores) + "."
    if result.game_points is not None:
        winner = match.side_name(result.winner)
        words += f" Game points: {result.game_points} to {winner}{cited(rules, Topic.GAME_POINTS)}."
        rubed = [match.side_name(s) for s in result.rubed or ()]
        words += f" Rubed: {', '.join(rubed)}." if rubed else " No Rube."
    return words


def misdeal_words(match: MatchState, before: HandState, after: HandState, seat: int, kind: Misdeal) -> str:
    """What a misdeal of ``seat`` does (Smartt §11.4): ``before`` and ``after`` are the hand without and with it."""
    rules = match.rules
    name = match.players[seat]
    when = "before the set" if not before.started else "now"
    if kind is Misdeal.TOO_MANY:
        what = f"{name} was dealt one tile too many and keeps every tile drawn"
    else:
        what = f"{name} was dealt one tile too few and takes the missing tile from the boneyard {when}"
    return (
        f"Misdeal: {what}{cited(rules, Topic.MISDEAL, 'R13')}. {name} holds"
        f" {count_words(after.tiles_held[seat], 'tile')}; the boneyard holds"
        f" {count_words(after.boneyard, 'tile')}. The turn does not change."
    )


def series_words(match: MatchState, series: Series) -> list[str]:
    """The day's series in lines: each game won, then the running totals per side (Smartt §14).

    Where the book keeps game points, each game says how many went to whom and
    who was Rubed, and the totals add them up; elsewhere the totals count games won.
    Empty before the first game is won.
    """
    if not series.lines:
        return []
    lines = []
    for line in series.lines:
        game = line.game
        words = f"Game {game.number}: {match.side_name(game.winner)} won, {scores_words(match, game.scores)}"
        if game.game_points is not None:
            words += f"; {game.game_points} game points to {match.side_name(game.winner)}"
            rubed = [match.side_name(s) for s in game.rubed or ()]
            words += f"; Rubed: {', '.join(rubed)}" if rubed else "; no Rube"
        lines.append(words + ".")
    lines.append(f"Series after {count_words(len(series.lines), 'game')}: " + series_totals_words(match, series) + ".")
    return lines


def series_totals_words(match: MatchState, series: Series) -> str:
    """Each side's running series total in words: ``Ann 2 games, 28 game points, Rubed 1 time; Bob ...``."""
    points, rubed = series.game_points, series.rubed
    parts = []
    for side in range(match.rules.sides):
        words = f"{match.side_name(side)} {count_words(series.wins[side], 'game')} won"
        if points is not None and rubed is not None:
            words += f", {count_words(points[side], 'game point')}, Rubed {count_words(rubed[side], 'time')}"
        parts.append(words)
    return "; ".join(parts) + cited(match.rules, Topic.GAME_POINTS)


def end_name(layout: Layout, at: str) -> str:
    """The open end ``at`` named by the tile that lies there, as the table sees it.

    ``on the 3-3`` when a double lies there (the Sniff or an ordinary double),
    ``on the 3 of 5-3`` when a single does (its open value, then the tile with
    that value last). Names no picture's left or right, which the table need
    not share. Raises KeyError for an end that is not open.
    """
    value = layout.open_ends()[at]
    arm = layout.arms[at]
    if arm:
        last = arm[-1]
        if last.double:
            return f"on the {value}-{value}"
        return f"on the {value} of {last.inner}-{value}"
    if at in SHORT or layout.set_tile is None:
        # An empty short arm: the Sniff's short end.
        return f"on the {value}-{value}"
    a, b = layout.set_tile
    if a == b:
        return f"on the {value}-{value}"
    other = b if at == "left" else a
    return f"on the {value} of {other}-{value}"


def end_names(layout: Layout, ends: list[str]) -> dict[str, str]:
    """``end_name`` for each of ``ends``; two ends on the same tile are told apart by the Sniff's side or the arm."""
    names = {at: end_name(layout, at) for at in ends}
    shared = {name for name in names.values() if list(names.values()).count(name) > 1}
    for at, name in names.items():
        if name in shared:
            side = "short end" if at in SHORT else "long side"
            names[at] = f"{name} ({side}, {at})" if layout.sniff_value is not None else f"{name} ({at})"
    return names
