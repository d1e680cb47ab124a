"""Hands used by the app's tests at every layer (view-model, wiring, browser)."""

# A two-player smartt hand that goes out with no draws (every tile fits; checked by the engine):
# Ann sets the 5-5 (the Sniff), Bob answers 0-5 on the left, and so on until Ann lays her
# seventh tile, the 1-5, on the right. (tile, end or None when it fits only one end).
GO_OUT_HAND: list[tuple[str, str | None]] = [
    ("5-5", None), ("0-5", "left"), ("0-0", None), ("0-1", None), ("1-1", None), ("1-2", None),
    ("0-2", None), ("0-3", None), ("1-3", None), ("1-4", None), ("0-4", None), ("0-6", None),
    ("1-5", None),
]
# The board count after each play of GO_OUT_HAND, counted by hand from Smartt §6-7.
GO_OUT_COUNTS = [10, 10, 10, 11, 12, 12, 10, 13, 11, 14, 10, 16, 17]
