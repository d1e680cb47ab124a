"""The Sniff rules engine: the referee every other part of scorepad asks.

Pure Python; it imports neither the UI nor the database.
"""

from scorepad.rules.errors import IllegalEventError, IllegalRecordError, RecordFormatError, SniffError
from scorepad.rules.events import Adjust, Draw, Event, Muggins, Pass, Play, Renege, Void, event_from_dict
from scorepad.rules.first_setter import FirstSetter, draw_for_the_set, first_setter, highest_double_leads
from scorepad.rules.hand import HandState
from scorepad.rules.layout import Layout, Placement
from scorepad.rules.match import GameResult, MatchState, NextSetter
from scorepad.rules.presets import PRESETS, Preset, find_preset
from scorepad.rules.records import Record, load_record, parse_record, replay, report, report_text
from scorepad.rules.rulesets import RuleSet, make_ruleset
from scorepad.rules.settle import Settlement, round5
from scorepad.rules.tiles import Tile, full_set, parse_tile, tile_name

__all__ = [
    "PRESETS",
    "Adjust",
    "Draw",
    "Event",
    "FirstSetter",
    "GameResult",
    "HandState",
    "IllegalEventError",
    "IllegalRecordError",
    "Layout",
    "MatchState",
    "Muggins",
    "NextSetter",
    "Pass",
    "Placement",
    "Play",
    "Preset",
    "Record",
    "RecordFormatError",
    "Renege",
    "RuleSet",
    "Settlement",
    "SniffError",
    "Tile",
    "Void",
    "draw_for_the_set",
    "event_from_dict",
    "find_preset",
    "first_setter",
    "full_set",
    "highest_double_leads",
    "load_record",
    "make_ruleset",
    "parse_record",
    "parse_tile",
    "replay",
    "report",
    "report_text",
    "round5",
    "tile_name",
]
