"""The referee's eye: what a record proves and what the table missed.

Pure Python over ``scorepad.rules`` (no Flet, no SQL): renege evidence at every
draw and pass, the other placements open at every play and what each would
have scored, automatics used or missed, bulletproof and unscoreaponable
layouts, the clutches still unseen, and the table's own words as they happen.
See docs/analysis.md.
"""

from scorepad.analysis.analyse import analyse_hand, analyse_match
from scorepad.analysis.sayings import bell_lead, is_episcopal, moonfaced_sides
from scorepad.analysis.values import (
    Automatic,
    AutomaticKind,
    Comment,
    HandAnalysis,
    MatchAnalysis,
    Placing,
    PlayReview,
    RenegeEvidence,
    RenegeVerdict,
    Safety,
    Saying,
    SeatVerdict,
    Shown,
    Use,
    Verdict,
    Word,
)

__all__ = [
    "Automatic",
    "AutomaticKind",
    "Comment",
    "HandAnalysis",
    "MatchAnalysis",
    "Placing",
    "PlayReview",
    "RenegeEvidence",
    "RenegeVerdict",
    "Safety",
    "Saying",
    "SeatVerdict",
    "Shown",
    "Use",
    "Verdict",
    "Word",
    "analyse_hand",
    "analyse_match",
    "bell_lead",
    "is_episcopal",
    "moonfaced_sides",
]
