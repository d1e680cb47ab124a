"""``Layout.copy`` against a layout built again tile by tile, on random layouts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scorepad.analysis.probe import sniff_sides_covered
from scorepad.rules import Layout, full_set
from tests.analysis.truth import play_with_truth
from tests.rules.support import hyp


def _relaid(layout: Layout) -> Layout:
    """The same layout made by laying its tiles again in order (stood couplings laid the same way)."""
    copy = Layout(sniff_rule=layout.sniff_rule, long_sides_first=layout.long_sides_first)
    for placed in layout.placements:
        if placed.at == "set":
            assert layout.set_tile is not None
            copy.place(layout.set_tile)
            continue
        showing = copy.open_ends().get(placed.at)
        copy.place((placed.inner, placed.outer), placed.at, stands=showing not in (placed.inner, placed.outer))
    return copy


def _state(layout):
    return (layout.board_count, dict(layout.open_ends()), layout.breakdown(), layout.sniff_stage(), layout.placements)


@hyp(25)
@given(st.sampled_from([("smartt", 2, {}), ("jaques", 2, {}), ("jaques", 3, {"sniff": False})]), st.integers(0, 10**6))
def test_a_copy_matches_a_relaid_layout_after_every_placement(config, seed) -> None:
    name, players, options = config
    match, _ = play_with_truth(name, players, options, seed, hands=1, renege_rate=0)
    layout = match.hands[0].layout
    before = _state(layout)
    for tile in full_set(match.rules.max_pip):
        for at in layout.fits(tile):
            fast, slow = layout.copy(), _relaid(layout)
            assert _state(fast) == _state(slow)
            fast.place(tile, at)
            slow.place(tile, at)
            assert _state(fast) == _state(slow)
            assert sniff_sides_covered(fast) == sniff_sides_covered(slow)
    assert _state(layout) == before  # the original never changes
