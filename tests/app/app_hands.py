"""Hands used by the app's tests at every layer (view-model, wiring, browser)."""

# A two-player smartt hand that goes out with no draws (every tile fits; checked by the engine):
# Ann sets the 5-5 (the Sniff), Bob answers 0-5 (either long side: the same count and open ends,
# so the app asks nothing and writes the left), and so on until Ann lays her
# seventh tile, the 1-5, on the right. (tile, end or None when it fits only one end).
GO_OUT_HAND: list[tuple[str, str | None]] = [
    ("5-5", None),
    ("0-5", None),
    ("0-0", None),
    ("0-1", None),
    ("1-1", None),
    ("1-2", None),
    ("0-2", None),
    ("0-3", None),
    ("1-3", None),
    ("1-4", None),
    ("0-4", None),
    ("0-6", None),
    ("1-5", None),
]
# The board count after each play of GO_OUT_HAND, counted by hand from Smartt §6-7.
GO_OUT_COUNTS = [10, 10, 10, 11, 12, 12, 10, 13, 11, 14, 10, 16, 17]

# A two-player Jaques hand (with muggins) that Ann ends by going out with a scoring tile, the
# 0-1 (count 5); found by a seeded search and played through the engine. No tile of it fits
# two ends that count differently, so the app asks no end. Bob is left with the 1-5.
JAQUES_SCORING_GO_OUT = [
    "2-6", "2-4", "0-6", "0-5", "5-6", "3-4", "3-5", "2-5", "3-6", "2-2", "0-3", "0-0", "0-1",
]  # fmt: skip
