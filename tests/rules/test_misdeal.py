"""A misdeal each way (Smartt §11.4), then the hand played to its true end on a table of real tiles."""

from __future__ import annotations

import random

import pytest

from scorepad.rules import Adjust, MatchState, Play
from scorepad.rules.misdeal import MISDEAL_CHOICES, Misdeal, misdeal_events
from scorepad.rules.previews import preview_misdeal
from tests.rules.support import Table, deal, new_match, remaining_of, take_turn


def misdealt(kind: Misdeal, seat: int, seed: int, *, noticed_after: int) -> tuple[MatchState, Table]:
    """A Smartt 3-player hand whose ``seat`` was really dealt one tile too many or too few.

    The misdeal is entered after ``noticed_after`` events of play (0: before the set),
    and the real tiles move as the book says: an overdraw keeps its extra tile, an
    underdraw takes the missing one when it is noticed.
    """
    rng = random.Random(seed)
    match = new_match("smartt", 3)
    match.start_hand(0)
    table = deal(match, rng)
    if kind is Misdeal.TOO_MANY:
        table.hands[seat].append(table.boneyard.pop())
    else:
        table.boneyard.append(table.hands[seat].pop())
    hand = match.current
    assert hand is not None
    while len(hand.events) < noticed_after and hand.how == "in-progress":
        take_turn(match, table, rng, lambda m: None)
    if kind is Misdeal.TOO_FEW:
        table.hands[seat].append(table.boneyard.pop(rng.randrange(len(table.boneyard))))
    for event in misdeal_events(kind, seat):
        match.apply(event)
    return match, table


def play_out(match: MatchState, table: Table, seed: int) -> None:
    """Play the hand to its end by the real tiles, then settle it with them."""
    rng = random.Random(seed + 1)
    hand = match.current
    assert hand is not None
    while hand.how == "in-progress":
        # The engine's count of each hand is the real table's, play after play.
        assert hand.tiles_held == [len(h) for h in table.hands]
        assert hand.boneyard == len(table.boneyard)
        take_turn(match, table, rng, lambda m: None)
    if hand.how == "out":
        assert table.hands[hand.went_out or 0] == [], "the engine said out while the player still held a tile"
    assert [len(h) for h in table.hands] == hand.tiles_held
    if hand.needs_settlement:
        match.settle(remaining_of(table, rng))


class TestEvents:
    def test_one_too_many_keeps_it(self):
        # Smartt §11.4: an overdraw keeps every tile drawn; records.md §4: count 1.
        assert misdeal_events(Misdeal.TOO_MANY, 1) == (Adjust(1, 1),)

    def test_one_too_few_takes_one(self):
        # records.md §4: a seat dealt short is -1, and +1 when it takes the missing tile.
        assert misdeal_events(Misdeal.TOO_FEW, 2) == (Adjust(2, -1), Adjust(2, 1))

    def test_each_choice_has_its_label(self):
        labels = {c.kind: c.label for c in MISDEAL_CHOICES}
        assert labels == {Misdeal.TOO_FEW: "One tile too few: takes one", Misdeal.TOO_MANY: "One too many: keeps it"}
        assert all(c.explanation.endswith(".") for c in MISDEAL_CHOICES)


class TestPreview:
    def test_too_many_before_the_set(self):
        match = new_match("smartt", 3)
        match.players = ["Ann", "Ken", "Pat"]
        match.start_hand(0)
        preview = preview_misdeal(match, 2, Misdeal.TOO_MANY)
        assert preview.refusal is None
        assert preview.words == (
            "Misdeal: Pat was dealt one tile too many and keeps every tile drawn (Smartt §11.4)."
            " Pat holds 7 tiles; the boneyard holds 9 tiles. The turn does not change."
        )
        assert match.current is not None and match.current.tiles_held == [6, 6, 6]  # nothing applied

    def test_too_few_holds_what_the_deal_gives(self):
        match = new_match("smartt", 3)
        match.players = ["Ann", "Ken", "Pat"]
        match.start_hand(0)
        match.apply(misdeal_events(Misdeal.TOO_MANY, 0)[0])
        match.apply(Play("5-5"))
        preview = preview_misdeal(match, 1, Misdeal.TOO_FEW)
        assert preview.words == (
            "Misdeal: Ken was dealt one tile too few and takes the missing tile from the boneyard now"
            " (Smartt §11.4). Ken holds 6 tiles; the boneyard holds 9 tiles. The turn does not change."
        )

    def test_a_jaques_misdeal_cites_our_reading(self):
        match = new_match("jaques", 2)
        match.start_hand(0)
        assert "(our reading R13)" in preview_misdeal(match, 0, Misdeal.TOO_MANY).words

    def test_refused_once_the_hand_is_over(self):
        match = new_match("smartt", 2)
        match.start_hand(0)
        match.apply(Adjust(1, -6))
        match.apply(Play("5-5"))
        match.apply(Play("5-3", at="left"))
        preview = preview_misdeal(match, 0, Misdeal.TOO_MANY)
        assert preview.refusal == "the hand has ended (out); tiles can no longer be adjusted"


@pytest.mark.parametrize("kind", list(Misdeal))
@pytest.mark.parametrize("noticed_after", [0, 3])
@pytest.mark.parametrize("seed", range(6))
def test_a_misdeal_then_the_hand_to_its_true_end(kind, noticed_after, seed):
    match, table = misdealt(kind, seed % 3, seed, noticed_after=noticed_after)
    play_out(match, table, seed)
    hand = match.current
    assert hand is not None and hand.finished
