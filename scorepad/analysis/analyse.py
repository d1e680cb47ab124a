"""The whole analysis of a match: every hand walked event by event on the engine's layout."""

from __future__ import annotations

from typing import Any

from scorepad.analysis.knowledge import Knowledge
from scorepad.analysis.naming import book_cited, named_tile, tile_of
from scorepad.analysis.plays import Probes, automatic, placing, placings, safety
from scorepad.analysis.probe import sniff_sides_covered
from scorepad.analysis.reneges import hand_reneges
from scorepad.analysis.sayings import bell_lead, bell_words, is_episcopal, moonfaced_sides, safety_saying, say
from scorepad.analysis.values import Comment, HandAnalysis, MatchAnalysis, PlayReview, Saying, Word
from scorepad.gc_pause import cyclic_gc_paused
from scorepad.rules import Draw, HandState, Layout, MatchState, Muggins, Pass, Play, full_set, parse_tile
from scorepad.rules.hand import IN_PROGRESS, OUT, WON, score_of
from scorepad.rules.presets import Topic
from scorepad.rules.tiles import key
from scorepad.rules.wording import side_does


def analyse_match(match: MatchState) -> MatchAnalysis:
    """Analyse every hand of ``match`` (as ``replay`` returns it): reneges, chances, automatics, words.

    Never changes the match. Raises nothing for a match the engine built.
    """
    with cyclic_gc_paused():  # tens of values for each event, none in a cycle: see scorepad.gc_pause
        return _analyse_match(match)


def _analyse_match(match: MatchState) -> MatchAnalysis:
    hands = []
    ringing = False
    mates = _mates(match)
    for hand in match.hands:
        analysis, ringing = _analyse_hand(match, hand, ringing, mates)
        hands.append(analysis)
    return MatchAnalysis(rules=match.rules.name, players=tuple(match.players), hands=tuple(hands))


def analyse_hand(match: MatchState, hand: HandState) -> HandAnalysis:
    """Analyse one hand of ``match`` on its own (the bell counts from the hand's starting scores)."""
    return _analyse_hand(match, hand, bell_lead(hand.scores_before) is not None, _mates(match))[0]


def _mates(match: MatchState) -> list[list[int]]:
    """Each seat's partners, the seat left out (none without partnerships)."""
    rules = match.rules
    return [[m for m in rules.seats_of(rules.side_of(s)) if m != s] for s in range(rules.players)]


def _analyse_hand(
    match: MatchState, hand: HandState, ringing: bool, mates: list[list[int]]
) -> tuple[HandAnalysis, bool]:
    """One hand's analysis and whether the bell rings after it; ``mates`` is ``_mates(match)``."""
    rules = match.rules
    max_pip = rules.max_pip
    number = hand.number
    know = Knowledge(hand)
    layout = Layout(sniff_rule=rules.sniff, long_sides_first=rules.long_sides_first)
    unplayed = set(full_set(max_pip))
    clutch = [max_pip + 1] * (max_pip + 1)  # Smartt §2.1: seven tiles of each value (ten in double-nine)
    plays: list[PlayReview] = []
    ends_at: dict[int, tuple[tuple[str, int], ...]] = {}
    stood: list[Comment] = []
    sayings: list[Saying] = []
    scores = list(hand.scores_before)
    # The bell is asked again only when a score changed (the answer is the same for the same
    # scores); the first event asks it of the scores the hand starts from.
    scored = True
    events, outcomes = hand.events, hand.outcomes
    # The hand's last play leaves nothing to play on when it ended the hand (out, or the game won).
    last_play = know.last_play if hand.how in (OUT, WON) else -1
    # How many of the Sniff's sides are covered: only a play changes it, so it is read once a play.
    covered = 0
    # Counts made on the layout as it stands (by ``(tile, at)``): the safety of one play's layout
    # probes the tiles the next player's placings probe again, on the same layout.
    probes: Probes = {}
    for index, (event, outcome) in enumerate(zip(events, outcomes, strict=True)):
        seat = outcome.get("player")
        if isinstance(event, Play) and seat is not None:
            # A tile that stood is laid as written in the event; any other as the referee wrote it.
            stands = event.stands
            if stands:
                written = parse_tile(event.tile, max_pip)
                tile = key(*written)
            else:
                written, tile = tile_of(outcome["tile"], max_pip), know.played[index]
            at = outcome["at"]
            prior = layout.board_count
            before = outcomes[index - 1] if index else None
            after_draw = before is not None and before["event"] == "draw" and before["player"] == seat
            covered_before = covered
            rack = know.held(seat, index)
            # The other placements of the tile played (none for one that stood: it fitted nowhere it
            # went), then every placement of the rest of the rack, unless the tile was just drawn.
            tried = [] if stands else [tile]
            if not after_draw:
                for other in rack:  # a loop: a comprehension would make ``tile`` a closure cell (Python 3.11)
                    if other != tile:
                        tried.append(other)
            others = placings(layout, tried, skip=(tile, at), probes=probes)
            # The layout as it stood, kept to name the automatic the play was or could have been.
            trial_before = layout.copy() if layout.set_tile is not None and score_of(prior) else None
            if stands:
                stood.append(_stood(match, number, index, seat, event.tile, at, layout.open_ends()[at], outcome))
            layout.lay(written, None if at == "set" else at, stands=stands)
            probes = {}  # the counts made on the layout as it stood are no longer its counts
            unplayed.discard(tile)
            low, high = tile
            clutch[low] -= 1
            if high != low:  # a double takes one tile from its clutch
                clutch[high] -= 1
            count = layout.board_count
            score = score_of(count)
            if covered < 4:  # a side once covered stays covered
                covered = sniff_sides_covered(layout)
            played = placing(outcome["tile"], at, count)
            auto = automatic(rules, trial_before, played, others, prior) if trial_before is not None else None
            ends_hand = index == last_play
            if not ends_hand:
                # What the side holds (the seat and its partners): their tiles never make the layout open.
                own = set(rack)
                for mate in mates[seat]:
                    own.update(know.held(mate, index))
                left = safety(layout, unplayed, own, max_pip, probes)
            else:
                left = None
            plays.append(
                PlayReview(
                    number,
                    index + 1,
                    seat,
                    outcome["tile"],
                    at,
                    count,
                    score,
                    outcome["score"],
                    tuple(others),
                    auto,
                    left,
                    tuple(clutch),
                )
            )
            _play_sayings(sayings, match, hand, index, seat, tile, at, layout, covered_before, covered, know)
            if not ends_hand:
                found = safety_saying(match, number, index + 1, seat, left)
                if found is not None:
                    sayings.append(found)
            if outcome["score"]:
                scores[rules.side_of(seat)] += outcome["score"]
                scored = True
        elif isinstance(event, (Draw, Pass)) and seat is not None:
            ends_at[index] = tuple(layout.open_ends().items())
        elif isinstance(event, Muggins) and seat is not None:
            scores[rules.side_of(seat)] += outcome["score"]
            scored = True
        if scored:
            ringing, rang = _bell(match, number, index + 1, scores, ringing)
            sayings.extend(rang)
            scored = False
    if hand.how != IN_PROGRESS and not hand.needs_settlement:
        ringing, rang = _bell(match, number, 0, hand.scores_after, ringing)
        sayings.extend(rang)
    sayings.extend(_end_sayings(match, hand))
    if hand.winner() is not None:
        ringing = False  # a new game starts from nothing
    reneges, verdicts, comments = hand_reneges(match, hand, ends_at, know)
    comments = tuple(sorted((*stood, *comments), key=lambda c: c.event))
    result = HandAnalysis(number, hand.game, hand.setter, tuple(plays), reneges, tuple(sayings), verdicts, comments)
    return result, ringing


def _stood(
    match: MatchState, number: int, index: int, seat: int, tile: str, at: str, end: int, outcome: dict[str, Any]
) -> Comment:
    """An illegal coupling that stood (records.md §4; Smartt §11.5, Jaques 'The fine points'), in words."""
    rules = match.rules
    scored = f"the {outcome['score']} it scored" if outcome["score"] else "the count"
    words = (
        f"{match.players[seat]} laid {tile} on the {at} end, which showed {end}: neither value matches it, an"
        f" illegal coupling. Nobody caught it before the next tile was coupled, so the layout and {scored} stand"
        f" as laid, with no compensation or replay{book_cited(rules, Topic.STANDS)}."
    )
    return Comment(number, index + 1, seat, words)


def _bell(match: MatchState, hand: int, event: int, scores: list[int], ringing: bool) -> tuple[bool, list[Saying]]:
    found = bell_lead(scores)
    if found is None:
        return False, []
    if ringing:
        return True, []
    return True, [say(match, hand, event, Word.BELL, None, bell_words(match, found))]


def _play_sayings(
    out: list[Saying],
    match: MatchState,
    hand: HandState,
    index: int,
    seat: int,
    tile: tuple[int, int],
    at: str,
    layout: Layout,
    covered_before: int,
    covered: int,
    know: Knowledge,
) -> None:
    """Add to ``out`` the words a play earns.

    ``covered_before`` and ``covered``: the Sniff's sides covered before and after it. Most
    plays earn none, so each name and number is read only for a word that applies.
    """
    double = tile[0] == tile[1]
    if at == "set" and double and know.rack_known(seat, index):
        value = tile[0]
        if not any(value in t for t in know.shown_after(seat, index)):
            words = f"{match.players[seat]} set {named_tile(match.rules, tile)} with no other {value} in the rack"
            out.append(say(match, hand.number, index + 1, Word.BAREASS, seat, f"{words} (a Lighthouse)"))
    if is_episcopal(layout):
        words = "a count of 10 with the ends 1, 2, 3 and 4"
        out.append(say(match, hand.number, index + 1, Word.EPISCOPAL, seat, words))
    if covered_before == 2 and covered == 3:
        by_setter = ", and by the setter" if seat == hand.setter else ""
        words = f"{match.players[seat]} plays on the third side of the Sniff{by_setter}"
        out.append(say(match, hand.number, index + 1, Word.COME_OFF_ENCE, seat, words))
    if covered_before == 3 and covered == 4:
        words = f"{match.players[seat]} covers the Sniff's fourth and last side"
        out.append(say(match, hand.number, index + 1, Word.TERMINATING, seat, words))
    if double and at != "set" and score_of(layout.board_count) == 0:
        words = f"{match.players[seat]} sheds {named_tile(match.rules, tile)}, a double that scores nothing"
        out.append(say(match, hand.number, index + 1, Word.SHEDAPOTOMUS, seat, words))


def _end_sayings(match: MatchState, hand: HandState) -> list[Saying]:
    out = []
    for side in moonfaced_sides(match, hand):
        out.append(
            say(match, hand.number, 0, Word.MOONFACED, None, f"{side_does(match, side, 'scored')} nothing in the hand")
        )
    winner = hand.winner()
    if winner is not None:
        out.append(
            say(
                match,
                hand.number,
                0,
                Word.SHUNK_SHUNK,
                None,
                f"the game is over: {match.side_name(winner)} won game {hand.game}",
            )
        )
    return out
