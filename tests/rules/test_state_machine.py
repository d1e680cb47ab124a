"""A random-hand state machine: plays, draws, passes, undo, muggins and reneges, with the rules' invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorepad.rules import Draw, IllegalEventError, Muggins, Pass, Play, Renege, full_set

from .support import (
    CONFIGS,
    Table,
    choose_call,
    count_after,
    deal,
    hyp,
    legal_plays,
    new_match,
    referee,
    snapshot,
    tile_text,
)


class RandomHands(RuleBasedStateMachine):
    """One match; every step is one event offered to the engine, legal or (on purpose) not."""

    @initialize(config=st.sampled_from(CONFIGS), seed=st.integers(min_value=0, max_value=2**32 - 1))
    def start(self, config, seed):
        name, players, options = config
        self.rng = random.Random(seed)
        self.match = new_match(name, players, **options)
        self.hands_played = 0
        self.next_hand()

    # -- helpers ---------------------------------------------------------------------------------

    @property
    def hand(self):
        return self.match.current

    def in_play(self) -> bool:
        return self.hand.how == "in-progress"

    def next_hand(self) -> None:
        nxt = self.match.next_setter()
        if nxt.default is not None:
            setter = nxt.default
        else:
            setter = self.rng.choice(sorted(nxt.allowed or range(self.match.rules.players)))
        self.match.start_hand(setter)
        self.table: Table = deal(self.match, self.rng)
        self.before: list[dict] = []
        self.hands_played += 1

    def offer(self, event) -> dict:
        """Apply a legal event, remembering the state before it for undo."""
        self.before.append(snapshot(self.match))
        self.table.save()
        return self.match.apply(event)

    def options(self):
        return legal_plays(self.match, self.table) if self.in_play() else []

    # -- legal steps -------------------------------------------------------------------------------

    @precondition(lambda self: bool(self.options()))
    @rule(data=st.data())
    def play(self, data):
        tile, at = data.draw(st.sampled_from(self.options()))
        seat = self.hand.turn
        call, fix = None, False
        if self.hand.started:
            count = count_after(self.match, tile, at)
            call, fix = choose_call(self.rng, count if count > 0 and count % 5 == 0 else 0)
        out = self.offer(Play(tile_text(tile), at=at, call=call, fix=fix))
        self.table.hands[seat].remove(tile)
        assert out["player"] == seat

    @precondition(lambda self: self.in_play() and self.hand.started and not self.options() and self.hand.drawable > 0)
    @rule(data=st.data())
    def draw(self, data):
        seat = self.hand.turn
        index = data.draw(st.integers(min_value=0, max_value=len(self.table.boneyard) - 1))
        self.offer(Draw(1))
        self.table.hands[seat].append(self.table.boneyard.pop(index))

    @precondition(lambda self: self.in_play() and self.hand.started and not self.options() and self.hand.drawable == 0)
    @rule()
    def pass_(self):
        assert self.hand.can_pass
        self.offer(Pass())

    @precondition(lambda self: self.hand.claim_open and self.hand.last_play is not None)
    @rule(data=st.data())
    def claim_muggins(self, data):
        rules = self.match.rules
        mine = rules.side_of(self.hand.last_play.seat)
        seat = data.draw(st.sampled_from([s for s in range(rules.players) if rules.side_of(s) != mine]))
        score = self.hand.last_play.score
        side_score = self.hand.scores[rules.side_of(seat)]
        out = self.offer(Muggins(seat))
        assert out["score"] == score > 0
        assert self.hand.scores[rules.side_of(seat)] == side_score + score

    @precondition(
        lambda self: (
            self.match.rules.renege is not None
            and self.hand.started
            and self.hand.how not in ("renege", "void")
            and self.hand.settlement is None
        )
    )
    @rule(seat=st.integers(min_value=0, max_value=3), roll=st.integers(min_value=0, max_value=9))
    def renege(self, seat, roll):
        if roll or seat >= self.match.rules.players:
            return  # a renege is rare
        start = self.hand.scores_before[self.match.rules.side_of(seat)]
        self.offer(Renege(seat))
        if self.match.rules.renege == "rollback25":
            assert self.hand.how == "renege"
            assert self.hand.scores_after[self.match.rules.side_of(seat)] == start - 25

    @precondition(lambda self: self.hand.needs_settlement)
    @rule()
    def settle(self):
        remaining = [[tile_text(t) for t in held] for held in self.table.hands]
        self.match.settle(remaining)
        self.before = []  # undo past a settlement is covered by the properties

    @precondition(lambda self: self.hand.finished and self.hands_played < 6)
    @rule()
    def start_next_hand(self):
        self.next_hand()

    @precondition(lambda self: bool(self.before))
    @rule()
    def undo(self):
        self.match.undo()
        self.table.restore()
        assert snapshot(self.match) == self.before.pop()

    @precondition(lambda self: not self.hand.needs_settlement)
    @rule()
    def export_and_replay(self):
        assert referee(self.match.to_record()) == snapshot(self.match)

    # -- refused steps -----------------------------------------------------------------------------

    def refused(self, event) -> None:
        before = snapshot(self.match)
        turn, held, boneyard = self.hand.turn, list(self.hand.tiles_held), self.hand.boneyard
        with pytest.raises(IllegalEventError):
            self.match.apply(event)
        assert snapshot(self.match) == before
        assert (self.hand.turn, self.hand.tiles_held, self.hand.boneyard) == (turn, held, boneyard)

    @precondition(lambda self: self.in_play() and self.hand.started)
    @rule(data=st.data())
    def offer_an_illegal_event(self, data):
        hand, rules = self.hand, self.match.rules
        played = sorted(p.tile for p in hand.layout.placements)
        unplayed = [t for t in full_set(rules.max_pip) if t not in set(played)]
        nowhere = [t for t in unplayed if not hand.layout.fits(t)]
        choices: list = [Play(tile_text(data.draw(st.sampled_from(played))), at="left")]
        if nowhere:
            choices.append(Play(tile_text(data.draw(st.sampled_from(nowhere)))))
        choices.append(Draw(hand.drawable + 1) if rules.draw_limit or hand.boneyard < 99 else Draw(10**6))
        if hand.drawable > 0:
            choices.append(Pass())
        if not hand.claim_open:
            choices.append(Muggins((hand.turn + 1) % rules.players))
        choices.append(Play(tile_text(unplayed[0]), by=(hand.turn + 1) % rules.players))
        choices.append(Renege(rules.players))
        self.refused(data.draw(st.sampled_from(choices)))

    # -- invariants --------------------------------------------------------------------------------

    @invariant()
    def turn_is_a_seat(self):
        assert 0 <= self.hand.turn < self.match.rules.players

    @invariant()
    def the_reserve_is_never_drawn(self):
        if self.in_play():
            assert self.hand.boneyard >= self.match.rules.protected
            assert 0 <= self.hand.drawable <= self.hand.boneyard

    @invariant()
    def scores_are_multiples_of_5(self):
        assert all(s % 5 == 0 for s in self.hand.scores)
        assert all(s % 5 == 0 for s in self.hand.scores_after)

    @invariant()
    def tiles_match_the_table(self):
        hand = self.hand
        assert hand.tiles_held == [len(h) for h in self.table.hands]
        assert hand.boneyard == len(self.table.boneyard)
        assert sum(hand.tiles_held) + hand.boneyard + len(hand.layout.placements) == self.match.rules.set_size

    @invariant()
    def the_board_count_adds_up(self):
        layout = self.hand.layout
        assert layout.board_count == sum(points for _, points in layout.breakdown())


RandomHands.TestCase.settings = hyp(40, stateful_step_count=80)
TestRandomHands = RandomHands.TestCase
