"""Properties over random records: every alternative is legal and scores what the analysis says,
every proof holds against the hidden racks, and nothing but the record is used."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from scorepad.analysis import Verdict, analyse_hand, analyse_match
from scorepad.rules import HandState, Play, parse_record, replay
from scorepad.rules.hand import score_of
from scorepad.rules.tiles import key, parse_tile
from tests.analysis.truth import play_with_truth
from tests.rules.support import hyp

CONFIGS = [
    ("smartt", 2, {}),
    ("smartt", 3, {}),
    ("smartt", 4, {}),
    ("american", 2, {}),
    ("jaques", 2, {}),
    ("jaques", 3, {"sniff": False}),
    ("smartt", 2, {"set": "double-nine"}),
]

configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32 - 1)


def _prefix(match, number: int, event: int) -> HandState:
    """A fresh replay of hand ``number`` up to (not including) event ``event`` (from 1)."""
    hand = match.hands[number - 1]
    trial = HandState(
        match.rules, setter=hand.setter, scores_before=hand.scores_before, number=hand.number, game=hand.game
    )
    for earlier in hand.events[: event - 1]:
        trial.apply(earlier)
    return trial


@hyp(40)
@given(configs, seeds)
def test_every_alternative_is_legal_and_scores_as_claimed(config, seed) -> None:
    name, players, options = config
    match, racks = play_with_truth(name, players, options, seed)
    analysis = analyse_match(match)
    for hand in analysis.hands:
        for review in hand.plays:
            rack = racks[(hand.number, review.event - 1)]
            for alt in review.alternatives:
                tile = parse_tile(alt.tile, match.rules.max_pip)
                # Provably held: the player really had the tile then.
                assert key(*tile) in rack, (hand.number, review.event, alt)
                trial = _prefix(match, hand.number, review.event)
                outcome = trial.apply(Play(alt.tile, at=None if alt.at == "set" else alt.at))
                assert outcome["board_count"] == alt.board_count
                assert score_of(outcome["board_count"]) == alt.score


@hyp(40)
@given(configs, seeds)
def test_proofs_hold_against_the_hidden_racks(config, seed) -> None:
    name, players, options = config
    match, racks = play_with_truth(name, players, options, seed, renege_rate=0.3)
    # The analysis gets the record only, read back from its JSON text: nothing hidden can reach it.
    text = json.dumps(match.to_record())
    analysis = analyse_match(replay(parse_record(json.loads(text))))
    assert analysis == analyse_match(match)
    for hand in analysis.hands:
        for evidence in hand.reneges:
            rack = racks[(hand.number, evidence.event - 1)]
            values = {v for _, v in evidence.open_ends}
            held_a_fit = any(a in values or b in values for a, b in rack)
            if evidence.verdict == Verdict.PROVED:
                assert held_a_fit, evidence
            elif evidence.verdict == Verdict.CLEARED:
                assert not held_a_fit, evidence


def test_reneges_are_proved_often_enough_to_matter() -> None:
    # The property above would pass vacuously if nothing were ever proved or cleared.
    verdicts = set()
    for seed in range(30):
        match, _ = play_with_truth("smartt", 2, {}, seed, renege_rate=0.3)
        verdicts |= {e.verdict for h in analyse_match(match).hands for e in h.reneges}
    assert verdicts == {Verdict.PROVED, Verdict.POSSIBLE, Verdict.CLEARED}


@hyp(15)
@given(configs, seeds)
def test_one_hand_alone_is_analysed_as_in_the_whole_match(config, seed) -> None:
    # The Dispute screen analyses each hand when it is first shown; it must say what the match analysis says.
    name, players, options = config
    match, _ = play_with_truth(name, players, options, seed, hands=4)
    whole = analyse_match(match)
    assert [analyse_hand(match, hand) for hand in match.hands] == list(whole.hands)
