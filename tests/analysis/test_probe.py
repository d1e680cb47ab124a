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


@hyp(25)
@given(
    st.sampled_from([("smartt", 2, {}), ("american", 3, {}), ("jaques", 2, {}), ("jaques", 3, {"sniff": False})]),
    st.integers(0, 10**6),
    st.integers(0, 40),
)
def test_count_if_counts_as_a_laid_tile_at_every_stage(config, seed, stop) -> None:
    """``Layout.count_if`` (no copy) gives the count a copy shows once the tile is laid, for every legal placement."""
    name, players, options = config
    match, _ = play_with_truth(name, players, options, seed, hands=1, renege_rate=0)
    final = match.hands[0].layout
    layout = Layout(sniff_rule=final.sniff_rule, long_sides_first=final.long_sides_first)
    # Lay the hand's tiles again up to ``stop``, probing every tile at every open end before each one.
    for placed in final.placements[: stop + 1]:
        before = _state(layout)
        for tile in full_set(match.rules.max_pip):
            spots = ["set"] if layout.set_tile is None else layout.fits(tile)
            for at in spots:
                trial = layout.copy()
                trial.place(tile, None if at == "set" else at)
                assert layout.count_if(tile, None if at == "set" else at) == trial.board_count, (tile, at)
        assert _state(layout) == before  # probing never changes the layout
        if placed.at == "set":
            assert final.set_tile is not None
            layout.place(final.set_tile)
        else:
            showing = layout.open_ends().get(placed.at)
            layout.place((placed.inner, placed.outer), placed.at, stands=showing not in (placed.inner, placed.outer))
