"""``scorepad simulate``'s own draws and its garbage-collector pause.

The simulator writes out some of ``random.Random``'s draws to save calls on every
play; a seed must still deal and play the same hands, so each written-out draw
is checked here against the standard library's own.
"""

from __future__ import annotations

import gc
import random

import pytest

from scorepad.gc_pause import cyclic_gc_paused
from scorepad.simulate import _below, _shuffle, _swaps, simulate


class TestDrawsAsRandomDraws:
    @pytest.mark.parametrize("seed", range(5))
    def test_below_draws_as_randrange(self, seed: int):
        ours, theirs = random.Random(seed), random.Random(seed)
        for count in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 28, 55] * 20:
            assert _below(ours.getrandbits, count) == theirs.randrange(count)

    @pytest.mark.parametrize("size", [2, 28, 55])
    def test_shuffle_shuffles_as_random_shuffle(self, size: int):
        ours, theirs = random.Random(size), random.Random(size)
        deck, same = list(range(size)), list(range(size))
        swaps = _swaps(size)
        for _ in range(50):
            _shuffle(deck, swaps, ours.getrandbits)
            theirs.shuffle(same)
            assert deck == same


class TestSameSeedSameMatch:
    @pytest.mark.parametrize(("rules", "players"), [("smartt", 2), ("american", 3), ("jaques", 4)])
    def test_a_seed_plays_the_same_record(self, rules: str, players: int):
        first, _ = simulate(rules, players, 60, seed=3)
        second, _ = simulate(rules, players, 60, seed=3)
        assert first.to_record() == second.to_record()


class TestCollectorPause:
    def test_paused_inside_and_restored(self):
        assert gc.isenabled()
        with cyclic_gc_paused(kept_as_old=True):
            assert not gc.isenabled()
        assert gc.isenabled()

    @pytest.mark.parametrize("kept_as_old", [True, False])
    def test_survivors_kept_as_old_go_to_the_oldest_generation(self, kept_as_old: bool):
        kept: list[list[int]] = []
        with cyclic_gc_paused(kept_as_old=kept_as_old):
            kept.extend([index] for index in range(1000))
        oldest = {id(item) for item in gc.get_objects(generation=2)}
        # Without it, the first collection after the pause walks them all and moves them one generation up.
        assert all(id(item) in oldest for item in kept) is kept_as_old
        assert all(gc.is_tracked(item) for item in kept)  # still watched by the collector
        assert gc.get_freeze_count() == 0  # nothing left frozen

    def test_nothing_frozen_is_thawed(self):
        gc.freeze()
        try:
            frozen = gc.get_freeze_count()
            with cyclic_gc_paused(kept_as_old=True):
                pass
            assert gc.get_freeze_count() == frozen
        finally:
            gc.unfreeze()
