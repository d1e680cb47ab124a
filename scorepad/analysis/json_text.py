"""The text of ``scorepad analyse --json``, written straight from the analysis values.

The same characters as ``json.dumps`` of ``MatchAnalysis.to_dict()`` with the
summary added (default separators, ``ensure_ascii``), made without first
building a dict for each of the hundreds of thousands of values and walking
them again: on a 3,000-hand record the dicts and their encoding took a third
of the command's time. Strings go through the encoder ``json`` itself uses, so
every character is escaped as ``json.dumps`` escapes it; each value's fields
are written in their declared order, which ``_FIELDS_WRITTEN`` checks against
the dataclasses when this module is imported, so a new field cannot be left
out silently. ``tests/analysis/test_json_text.py`` compares the text with
``json.dumps`` on every record of ``tests/data``.
"""

from __future__ import annotations

import json
from dataclasses import fields
from json.encoder import encode_basestring_ascii

from scorepad.analysis.values import (
    Automatic,
    Comment,
    HandAnalysis,
    MatchAnalysis,
    Placing,
    PlayReview,
    RenegeEvidence,
    RenegeVerdict,
    Saying,
    Shown,
)

# The C encoder json.dumps uses for every string when ensure_ascii is on (its default).
_str = encode_basestring_ascii


def analysis_json(analysis: MatchAnalysis, summary: dict[str, int]) -> str:
    """``json.dumps(out)`` where ``out`` is ``analysis.to_dict()`` with ``out["summary"] = summary``."""
    texts = _Texts()
    hands = ", ".join([_hand(h, texts) for h in analysis.hands])
    players = ", ".join([_str(p) for p in analysis.players])
    return (
        f'{{"rules": {_str(analysis.rules)}, "players": [{players}], "hands": [{hands}],'
        f' "summary": {json.dumps(summary)}}}'
    )


class _Texts:
    """The texts of values met again and again in one analysis, each written once.

    ``placings``: by id, the analysis sharing one ``Placing`` among the plays that make it
    (``plays.placing``); an id holds while the analysis, and so the placing, is alive.
    """

    __slots__ = ("placings",)

    def __init__(self) -> None:
        self.placings: dict[int, str] = {}


def _hand(hand: HandAnalysis, texts: _Texts) -> str:
    plays = ", ".join([_play(p, texts) for p in hand.plays])
    reneges = ", ".join([_evidence(e) for e in hand.reneges])
    sayings = ", ".join([_saying(s) for s in hand.sayings])
    verdicts = ", ".join([_verdict(v) for v in hand.verdicts])
    comments = ", ".join([_comment(c) for c in hand.comments])
    return (
        f'{{"number": {hand.number}, "game": {hand.game}, "setter": {hand.setter}, "plays": [{plays}],'
        f' "reneges": [{reneges}], "sayings": [{sayings}], "verdicts": [{verdicts}], "comments": [{comments}]}}'
    )


def _placing(p: Placing) -> str:
    return f'{{"tile": {_str(p.tile)}, "at": {_str(p.at)}, "board_count": {p.board_count}, "score": {p.score}}}'


def _play(p: PlayReview, texts: _Texts) -> str:
    score = p.score
    alternatives: list[str] = []
    missed: list[str] = []  # PlayReview.missed, from the texts already written: the alternatives that scored more
    written = texts.placings
    for a in p.alternatives:
        text = written.get(id(a))
        if text is None:
            text = written[id(a)] = _placing(a)
        alternatives.append(text)
        if a.score > score:
            missed.append(text)
    auto = "null" if p.automatic is None else _automatic(p.automatic)
    safety = "null" if p.safety is None else _str(p.safety)
    return (
        f'{{"hand": {p.hand}, "event": {p.event}, "seat": {p.seat}, "tile": {_str(p.tile)}, "at": {_str(p.at)},'
        f' "board_count": {p.board_count}, "score": {score}, "recorded": {p.recorded},'
        f' "alternatives": [{", ".join(alternatives)}], "automatic": {auto}, "safety": {safety},'
        f' "unseen": {_ints(p.unseen)}, "missed": [{", ".join(missed)}]}}'
    )


def _ints(numbers: tuple[int, ...]) -> str:
    """``[7, 6, 7]``: a list of whole numbers reads the same in Python's ``repr`` and in JSON."""
    return repr(list(numbers))


def _automatic(a: Automatic) -> str:
    return (
        f'{{"kind": {_str(a.kind)}, "use": {_str(a.use)}, "placing": {_placing(a.placing)}, "words": {_str(a.words)}}}'
    )


def _evidence(e: RenegeEvidence) -> str:
    fitting = ", ".join([_str(t) for t in e.fitting])
    ends = ", ".join([f"[{_str(at)}, {value}]" for at, value in e.open_ends])
    return (
        f'{{"hand": {e.hand}, "event": {e.event}, "seat": {e.seat}, "moment": {_str(e.moment)},'
        f' "verdict": {_str(e.verdict)}, "fitting": [{fitting}], "open_ends": [{ends}],'
        f' "reasoning": {_str(e.reasoning)}}}'
    )


def _saying(s: Saying) -> str:
    seat = "null" if s.seat is None else s.seat
    return f'{{"hand": {s.hand}, "event": {s.event}, "word": {_str(s.word)}, "seat": {seat}, "words": {_str(s.words)}}}'


def _verdict(v: RenegeVerdict) -> str:
    events = ", ".join([str(n) for n in v.events])
    tiles = ", ".join([_shown(t) for t in v.tiles])
    return (
        f'{{"hand": {v.hand}, "seat": {v.seat}, "verdict": {_str(v.verdict)}, "events": [{events}],'
        f' "tiles": [{tiles}], "reasoning": {_str(v.reasoning)}}}'
    )


def _shown(t: Shown) -> str:
    return f'{{"tile": {_str(t.tile)}, "event": {t.event}, "fitted": {t.fitted}}}'


def _comment(c: Comment) -> str:
    return f'{{"hand": {c.hand}, "event": {c.event}, "seat": {c.seat}, "words": {_str(c.words)}}}'


# The fields each writer above writes, in order: checked against the dataclasses below.
_FIELDS_WRITTEN: dict[type, tuple[str, ...]] = {
    MatchAnalysis: ("rules", "players", "hands"),
    HandAnalysis: ("number", "game", "setter", "plays", "reneges", "sayings", "verdicts", "comments"),
    Placing: ("tile", "at", "board_count", "score"),
    PlayReview: (
        "hand",
        "event",
        "seat",
        "tile",
        "at",
        "board_count",
        "score",
        "recorded",
        "alternatives",
        "automatic",
        "safety",
        "unseen",
    ),
    Automatic: ("kind", "use", "placing", "words"),
    RenegeEvidence: ("hand", "event", "seat", "moment", "verdict", "fitting", "open_ends", "reasoning"),
    Saying: ("hand", "event", "word", "seat", "words"),
    RenegeVerdict: ("hand", "seat", "verdict", "events", "tiles", "reasoning"),
    Shown: ("tile", "event", "fitted"),
    Comment: ("hand", "event", "seat", "words"),
}
for _kind, _names in _FIELDS_WRITTEN.items():
    if tuple(f.name for f in fields(_kind)) != _names:
        raise RuntimeError(f"scorepad.analysis.json_text writes {_kind.__name__} without its new fields")
