"""The fast layout copy against the engine's own copy (``choices.clone``), on random layouts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorepad.analysis.probe import fork_layout, sniff_sides_covered
from scorepad.rules import full_set
from scorepad.rules.choices import clone
from tests.analysis.truth import play_with_truth
from tests.rules.support import hyp


def _state(layout):
    return (layout.board_count, dict(layout.open_ends()), layout.breakdown(), layout.sniff_stage(), layout.placements)


@hyp(25)
@given(st.sampled_from([("smartt", 2, {}), ("jaques", 2, {}), ("jaques", 3, {"sniff": False})]), st.integers(0, 10**6))
def test_fork_matches_clone_after_every_placement(config, seed) -> None:
    name, players, options = config
    match, _ = play_with_truth(name, players, options, seed, hands=1, renege_rate=0)
    layout = match.hands[0].layout
    before = _state(layout)
    for tile in full_set(match.rules.max_pip):
        for at in layout.fits(tile):
            fast, slow = fork_layout(layout), clone(layout)
            assert _state(fast) == _state(slow)
            fast.place(tile, at)
            slow.place(tile, at)
            assert _state(fast) == _state(slow)
            assert sniff_sides_covered(fast) == sniff_sides_covered(slow)
    assert _state(layout) == before  # the original never changes
