"""Tiles: how they are written, both orientations, the two sets, and their Sniff names (Smartt §15.1)."""

from __future__ import annotations

import pytest

from scorepad.rules import SniffError, full_set, parse_tile, tile_name


class TestWritingATile:
    @pytest.mark.parametrize(("text", "pair"), [("5-3", (5, 3)), ("3-5", (3, 5)), ("0-0", (0, 0)), (" 6 - 1 ", (6, 1))])
    def test_keeps_the_order_written(self, text, pair):
        assert parse_tile(text) == pair

    @pytest.mark.parametrize("text", ["", "5", "53", "5-", "-5", "5--3", "5-3-1", "a-b", "5_3", "10-1", "5-3x", "-1-3"])
    def test_junk_is_refused(self, text):
        with pytest.raises(SniffError, match="like"):
            parse_tile(text)

    @pytest.mark.parametrize("value", [None, 53, 5.3, ["5", "3"], (5, 3), b"5-3", True])
    def test_a_tile_must_be_text(self, value):
        with pytest.raises(SniffError):
            parse_tile(value)

    def test_seven_is_not_in_a_double_six_set(self):
        with pytest.raises(SniffError, match="double-six"):
            parse_tile("7-2")

    def test_double_nine_takes_up_to_nine(self):
        assert parse_tile("9-7", 9) == (9, 7)
        with pytest.raises(SniffError):
            parse_tile("9-7")

    def test_errors_are_value_errors(self):
        with pytest.raises(ValueError):
            parse_tile("x")


class TestTheSets:
    def test_double_six_has_28_tiles_each_once(self):
        tiles = full_set(6)
        assert len(tiles) == 28 == len(set(tiles))
        assert all(a <= b <= 6 for a, b in tiles)

    def test_double_nine_has_55(self):
        tiles = full_set(9)
        assert len(tiles) == 55 == len(set(tiles))

    def test_each_clutch_has_seven_tiles(self):
        # Smartt §2.1: exactly seven tiles carry each value.
        for value in range(7):
            assert sum(1 for t in full_set(6) if value in t) == 7

    def test_double_six_holds_168_pips(self):
        assert sum(a + b for a, b in full_set(6)) == 168


class TestTraditionalNames:
    @pytest.mark.parametrize(
        ("tile", "name"),
        [
            ((0, 0), "Little Nothing"),
            ((1, 1), "Snake Eyes"),
            ((2, 2), "Ducks"),
            ((2, 3), "Little Gem"),
            ((3, 3), "Irish Curse"),
            ((4, 2), "Fortuitous"),
            ((4, 4), "House with Two Rooms"),
            ((1, 6), "Pet"),
            ((1, 3), "Fake Pet"),
            ((5, 5), "Gold Nuggets"),
            ((5, 6), "Catherwood"),
            ((4, 5), "Reverse Catherwood"),
            ((6, 6), "Boxcars"),
        ],
    )
    def test_named_either_way_round(self, tile, name):
        assert tile_name(tile) == name
        assert tile_name((tile[1], tile[0])) == name

    def test_unnamed_tiles(self):
        assert tile_name((0, 1)) is None
        assert tile_name((3, 6)) is None


class TestOnlyPlainDigits:
    @pytest.mark.parametrize("text", ["５-３", "٥-٣"])
    def test_non_ascii_digits_are_not_a_tile(self, text):
        with pytest.raises(SniffError):
            parse_tile(text)
