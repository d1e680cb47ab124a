"""``scorepad analyse RECORD.json [--hand N] [--findings] [--json]``: the analysis of a record, readable or as JSON.

Exit statuses as ``scorepad referee`` (records.md §6): 2 for a file that is
not a readable record, 1 for a record the rules refuse, with one plain line
on standard error and nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
import sys

from scorepad.analysis.analyse import analyse_hand, analyse_match
from scorepad.analysis.findings import hand_findings
from scorepad.analysis.json_text import analysis_json
from scorepad.analysis.narrate import hand_lines, summary
from scorepad.analysis.values import MatchAnalysis, plain
from scorepad.gc_pause import cyclic_gc_paused
from scorepad.printable import printable
from scorepad.referee import EXIT_UNREADABLE, RecordFileError, replay_file
from scorepad.rules import MatchState
from scorepad.rules.narrate import scores_line
from scorepad.rules.wording import count_words


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``analyse``."""
    analyse = subparsers.add_parser("analyse", help="renege evidence, missed chances and the table's words in a record")
    analyse.add_argument("record", help="the record file (JSON)")
    analyse.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    analyse.add_argument("--hand", type=int, metavar="N", help="only hand N (from 1)")
    analyse.add_argument(
        "--findings", action="store_true", help="only the findings: reneges, missed scores, miscalls, missed automatics"
    )
    analyse.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    # One pause for the whole command: each inner pause (replay, analysis, JSON data) resuming
    # the collector would make it walk every value made so far, all of them acyclic and still
    # in use; here it resumes once, after run_analyse has returned and its values are freed.
    with cyclic_gc_paused():
        return run_analyse(args.record, as_json=args.json, hand=args.hand, findings=args.findings)


def run_analyse(path: str, *, as_json: bool, hand: int | None = None, findings: bool = False) -> int:
    """Analyse the record at ``path`` and print it; return the exit status.

    ``hand`` keeps one hand (from 1); ``findings`` prints only each hand's findings.
    A hand the record does not have is status 2, with one line naming the hands it has.
    """
    try:
        match = replay_file(path)
    except RecordFileError as err:
        return _fail(err.message, err.status)
    if hand is not None and not 1 <= hand <= len(match.hands):
        have = f"hands 1 to {len(match.hands)}" if len(match.hands) > 1 else "only hand 1"
        if not match.hands:
            have = "no hands"
        return _fail(f"--hand {hand}: the record has {have}", EXIT_UNREADABLE)
    numbers = [hand] if hand is not None else [h.number for h in match.hands]
    analysis = (
        MatchAnalysis(
            match.rules.name, tuple(match.players), tuple(analyse_hand(match, match.hands[n - 1]) for n in numbers)
        )
        if hand is not None
        else analyse_match(match)
    )
    if findings:
        return _print_findings(match, analysis, as_json=as_json)
    if as_json:
        # json.dumps of analysis.to_dict() with the summary, written without the dicts (json_text);
        # ensure_ascii keeps every control character of a name escaped in the JSON text.
        sys.stdout.write(analysis_json(analysis, summary(analysis)) + "\n")
        return 0
    lines = [f"{match.rules.describe()}: " + ", ".join(match.players)]
    for found in analysis.hands:
        played = match.hands[found.number - 1]
        lines += ["", f"Hand {played.number} (game {played.game}), {match.players[played.setter]} sets"]
        lines.append(f"  before: {scores_line(match, played.scores_before)}")
        lines += [f"  {line}" for line in hand_lines(match, found)]
        lines.append(f"  after: {scores_line(match, played.scores_after)}")
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


def _print_findings(match: MatchState, analysis: MatchAnalysis, *, as_json: bool) -> int:
    """Each hand's findings: as JSON, or one block a finding (what, where, the ruling, the evidence)."""
    per_hand = [(found.number, hand_findings(match, found)) for found in analysis.hands]
    if as_json:
        out = {"hands": [{"number": n, "findings": plain(found)} for n, found in per_hand]}
        sys.stdout.write(json.dumps(out) + "\n")
        return 0
    lines: list[str] = []
    for number, found in per_hand:
        lines.append(f"Hand {number}: {count_words(len(found), 'finding')}")
        for finding in found:
            lines.append(f"  event {finding.event}, {finding.kind.value}: {finding.title}")
            lines.append(f"    {finding.ruling}")
            if finding.tiles:
                lines.append(f"    evidence: {', '.join(finding.tiles)}")
    sys.stdout.write("".join(printable(line) + "\n" for line in lines))
    return 0


def _fail(message: str, status: int) -> int:
    sys.stderr.write(printable(" ".join(message.splitlines())) + "\n")
    return status
