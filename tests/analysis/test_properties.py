"""Properties over random records: every alternative is legal and scores what the analysis says,
every proof holds against the hidden racks, and nothing but the record is used."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from scorepad.analysis import SeatVerdict, Verdict, analyse_hand, analyse_match
from scorepad.rules import HandState, Play, parse_record, replay
from scorepad.rules.hand import score_of
from scorepad.rules.tiles import key, parse_tile
from tests.analysis.truth import play_with_truth
from tests.analysis.truth import remaining as truth_remaining
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
    match, truth = play_with_truth(name, players, options, seed)
    analysis = analyse_match(match)
    for hand in analysis.hands:
        for review in hand.plays:
            rack = truth.racks[(hand.number, review.event - 1)]
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
    match, truth = play_with_truth(name, players, options, seed, renege_rate=0.3)
    # The analysis gets the record only, read back from its JSON text: nothing hidden can reach it.
    text = json.dumps(match.to_record())
    analysis = analyse_match(replay(parse_record(json.loads(text))))
    assert analysis == analyse_match(match)
    for hand in analysis.hands:
        for evidence in hand.reneges:
            rack = truth.visits[(hand.number, evidence.event - 1)]
            values = {v for _, v in evidence.open_ends}
            held_a_fit = any(a in values or b in values for a, b in rack)
            if evidence.verdict == Verdict.PROVED:
                assert held_a_fit, evidence
            elif evidence.verdict == Verdict.CLEARED:
                assert not held_a_fit, evidence
        for verdict in hand.verdicts:
            reneged = (hand.number, verdict.seat) in truth.reneged
            if verdict.verdict == SeatVerdict.PROVED:
                assert reneged, verdict
            elif verdict.verdict == SeatVerdict.CLEAN:
                assert not reneged, verdict


@hyp(40)
@given(configs, seeds)
def test_a_legal_hand_is_never_proved(config, seed) -> None:
    name, players, options = config
    match, _ = play_with_truth(name, players, options, seed, renege_rate=0)
    for hand in analyse_match(match).hands:
        assert all(e.verdict != Verdict.PROVED for e in hand.reneges), hand.reneges
        assert all(v.verdict != SeatVerdict.PROVED for v in hand.verdicts), hand.verdicts


@hyp(40)
@given(configs, seeds)
def test_a_renege_inserted_is_never_clean(config, seed) -> None:
    name, players, options = config
    match, truth = play_with_truth(name, players, options, seed, renege_rate=0.5)
    for hand in analyse_match(match).hands:
        for verdict in hand.verdicts:
            if (hand.number, verdict.seat) in truth.reneged:
                assert verdict.verdict != SeatVerdict.CLEAN, verdict


@hyp(40)
@given(configs, seeds, st.randoms(use_true_random=False))
def test_the_verdict_never_changes_with_the_notation_of_remaining(config, seed, rng) -> None:
    # records.md §4: an empty rack is 0 or [], a listed tile is written either way round, in any order.
    name, players, options = config
    match, truth = play_with_truth(name, players, options, seed, renege_rate=0.3, hands=1, settle=False)
    hand = match.current
    if hand is None or not hand.needs_settlement:
        return
    table = truth.tables[hand.number]
    record = match.to_record()
    found = []
    for _ in range(3):
        remaining = []
        for held in table.hands:
            tiles = [f"{a}-{b}" if rng.random() < 0.5 else f"{b}-{a}" for a, b in held]
            rng.shuffle(tiles)
            remaining.append(tiles if tiles or rng.random() < 0.5 else 0)
        record["hands"][-1]["remaining"] = truth_remaining(match, table, remaining)
        (analysed,) = analyse_match(replay(parse_record(json.loads(json.dumps(record))))).hands
        found.append((analysed.reneges, analysed.verdicts, analysed.sayings))
    assert found[0] == found[1] == found[2]


def test_reneges_are_proved_often_enough_to_matter() -> None:
    # The properties above would pass vacuously if nothing were ever proved, cleared or left open.
    verdicts, seats = set(), set()
    for seed in range(30):
        match, _ = play_with_truth("smartt", 2, {}, seed, renege_rate=0.3)
        for hand in analyse_match(match).hands:
            verdicts |= {e.verdict for e in hand.reneges}
            seats |= {v.verdict for v in hand.verdicts}
    assert verdicts == {Verdict.PROVED, Verdict.POSSIBLE, Verdict.CLEARED}
    assert seats == {SeatVerdict.PROVED, SeatVerdict.CLEAN, SeatVerdict.CANT_TELL}


@hyp(15)
@given(configs, seeds)
def test_one_hand_alone_is_analysed_as_in_the_whole_match(config, seed) -> None:
    # The Dispute screen analyses each hand when it is first shown; it must say what the match analysis says.
    name, players, options = config
    match, _ = play_with_truth(name, players, options, seed, hands=4)
    whole = analyse_match(match)
    assert [analyse_hand(match, hand) for hand in match.hands] == list(whole.hands)
