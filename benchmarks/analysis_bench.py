"""Benchmark: the whole analysis of a 3,000-hand record against the referee's replay of it, in one run.

The record is made by ``scorepad simulate ... --record``. The referee's time
is what ``scorepad referee --json`` does with the file's text: read the record,
replay it, build the report. The analysis's time is what ``scorepad analyse
--json`` does: read the record, replay it, analyse every hand (renege evidence
at each draw and pass, every alternative placement probed, automatics,
bulletproof layouts, clutches, the table's words) and write its JSON text.
The two run turn about, and the median CPU time of each is compared (target:
10x or less; issue 20's 2x is for whole processes, ``referee_bench.py``). CPU
time, not wall time: on a loaded machine a process waits for a core, and the
wait is no part of either side's work.

    uv run python benchmarks/analysis_bench.py [--hands 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import tempfile
import time
from pathlib import Path

from scorepad.analysis import analyse_match
from scorepad.analysis.json_text import analysis_json
from scorepad.analysis.narrate import summary
from scorepad.cli import main as scorepad
from scorepad.rules import load_record, replay, report

CASES = [("smartt", 2), ("smartt", 4), ("american", 3), ("jaques", 2)]


def make_record(rules: str, players: int, hands: int, folder: Path) -> str:
    """The text of a record written by ``scorepad simulate --record``."""
    path = folder / f"{rules}-{players}.json"
    args = ["simulate", "--rules", rules, "--players", str(players), "--hands", str(hands), "--seed", "7"]
    with contextlib.redirect_stdout(io.StringIO()):
        status = scorepad([*args, "--record", str(path)])
    if status != 0:
        raise SystemExit(f"scorepad simulate failed with status {status}")
    return path.read_text()


def referee(text: str) -> object:
    return report(replay(load_record(text)))


def analyse(text: str) -> object:
    # What ``scorepad analyse --json`` writes: the JSON text, made straight from the values (json_text).
    analysis = analyse_match(replay(load_record(text)))
    return analysis_json(analysis, summary(analysis))


def main() -> None:
    """Time the referee and the analysis turn about for each case and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for rules, players in CASES:
            text = make_record(rules, players, args.hands, Path(folder))
            match = replay(load_record(text))
            events = sum(len(h.events) for h in match.hands)
            ref_times, ana_times = [], []
            for _ in range(args.repeat):
                started = time.process_time()
                referee(text)
                ref_times.append(time.process_time() - started)
                started = time.process_time()
                analyse(text)
                ana_times.append(time.process_time() - started)
            ref, ana = statistics.median(ref_times), statistics.median(ana_times)
            print(
                f"{rules} {players}p, {len(match.hands)} hands ({events} events):"
                f" referee {ref:.3f} s, analysis {ana:.3f} s, ratio {ana / ref:.1f}x (target 10x or less)"
            )


if __name__ == "__main__":
    main()
