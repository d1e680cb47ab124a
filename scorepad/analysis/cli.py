"""``scorepad analyse RECORD.json [--json]``: the analysis of a record, readable or as JSON.

Exit statuses as ``scorepad referee`` (records.md §6): 2 for a file that is
not a readable record, 1 for a record the rules refuse, with one plain line
on standard error and nothing on standard output.
"""

from __future__ import annotations

import json
import sys

from scorepad.analysis.analyse import analyse_match
from scorepad.analysis.narrate import hand_lines, summary
from scorepad.printable import printable
from scorepad.referee import RecordFileError, replay_file
from scorepad.rules.narrate import scores_line


def run_analyse(path: str, *, as_json: bool) -> int:
    """Analyse the record at ``path`` and print it; return the exit status."""
    try:
        match = replay_file(path)
    except RecordFileError as err:
        return _fail(err.message, err.status)
    analysis = analyse_match(match)
    if as_json:
        out = analysis.to_dict()
        out["summary"] = summary(analysis)
        # ensure_ascii keeps every control character of a name escaped in the JSON text.
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    lines = [f"{match.rules.describe()}: " + ", ".join(match.players)]
    for hand, found in zip(match.hands, analysis.hands, strict=True):
        lines += ["", f"Hand {hand.number} (game {hand.game}), {match.players[hand.setter]} sets"]
        lines.append(f"  before: {scores_line(match, hand.scores_before)}")
        lines += [f"  {line}" for line in hand_lines(match, found)]
        lines.append(f"  after: {scores_line(match, hand.scores_after)}")
    counts = summary(analysis)
    lines += [
        "",
        "Players' hands: {players_proved} renege proved, {players_clean} clean, {players_cant_tell} can't tell;"
        " visits to the boneyard and passes: {reneges_proved} proved, {reneges_possible} possible,"
        " {reneges_cleared} cleared;"
        " plays with a better choice: {missed_chances}; automatics or counter-scores used {automatics_used},"
        " missed {automatics_missed}".format(**counts),
    ]
    sys.stdout.write("".join(printable(line) + "\n" for line in lines))
    return 0


def _fail(message: str, status: int) -> int:
    sys.stderr.write(printable(" ".join(message.splitlines())) + "\n")
    return status
