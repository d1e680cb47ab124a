"""Benchmark: whole ``scorepad referee --json`` and ``scorepad analyse --json`` processes on a 3,000-hand record.

Each run is a fresh process, start-up included, as a user runs it. Three are
timed turn about on the same record (made by ``scorepad simulate --record``):
the referee of this checkout, the referee of a baseline commit (``--baseline``,
by default the commit before issue 20's work; its tree is extracted with
``git archive`` into a temporary folder and run on the same interpreter), and
the analysis of this checkout. With ``--analyse-baseline REV`` the analysis of
that commit runs too, in the same turns (the same record, the same
interpreter), so a change to the analysis is measured before and after in one
run. Printed: the best wall time and the best CPU time (user and system, of the
process alone) of each, the baseline's time over this referee's (target: 1.5x
or more) and the analysis's over the referee's (target: 2x or less), by wall
time and by CPU time. On a loaded machine the wall time of a process includes
the time it waited for a core; its CPU time does not, so the CPU ratios are the
steadier ones.

    uv run python benchmarks/referee_bench.py [--hands 3000] [--repeat 5] [--baseline bb641aa]
        [--analyse-baseline REV]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN = "import sys; from scorepad.cli import main; sys.exit(main())"


def command(*args: str) -> list[str]:
    """A ``scorepad`` process; ``wall`` runs it from a given package folder."""
    return [sys.executable, "-c", RUN, *args]


def wall(cmd: list[str], source: Path) -> tuple[float, float]:
    """Seconds one process takes, start to exit, and the CPU seconds it used (its output thrown away).

    Exits on a failure.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, cwd=source, env={"PYTHONPATH": str(source)}, capture_output=True)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[3:])} failed: {done.stderr.decode()[:300]}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def extract(revision: str, folder: Path) -> Path:
    """The ``scorepad`` package of ``revision``, unpacked under ``folder``."""
    archive = subprocess.run(["git", "archive", revision, "scorepad"], cwd=ROOT, capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def main() -> None:
    """Make the record, time the three processes turn about, print the figures and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", default="bb641aa")
    parser.add_argument("--rules", default="smartt")
    parser.add_argument("--players", default="2")
    parser.add_argument("--analyse-baseline", metavar="REV", help="also time the analysis of this commit")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "record.json"
        make = ["simulate", "--rules", args.rules, "--players", args.players, "--hands", str(args.hands)]
        wall(command(*make, "--seed", "7", "--record", str(record)), ROOT)
        baseline = extract(args.baseline, Path(tmp) / "baseline")
        runs = {
            "referee (this checkout)": (command("referee", "--json", str(record)), ROOT),
            f"referee ({args.baseline})": (command("referee", "--json", str(record)), baseline),
            "analyse (this checkout)": (command("analyse", "--json", str(record)), ROOT),
            "start-up only (python -c pass)": ([sys.executable, "-c", "pass"], ROOT),
        }
        analysed = ["analyse (this checkout)"]
        if args.analyse_baseline:
            earlier = extract(args.analyse_baseline, Path(tmp) / "analyse-baseline")
            name = f"analyse ({args.analyse_baseline})"
            runs[name] = (command("analyse", "--json", str(record)), earlier)
            analysed.append(name)
        best = dict.fromkeys(runs, float("inf"))
        cpu = dict.fromkeys(runs, float("inf"))
        for _ in range(args.repeat):
            for name, (cmd, source) in runs.items():
                seconds, used = wall(cmd, source)
                best[name], cpu[name] = min(best[name], seconds), min(cpu[name], used)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.rules} {args.players}p, {args.hands} hands, best of {args.repeat} whole processes (load {load}):")
    print(f"  {'':<34}{'wall':>8}{'CPU':>10}")
    for name, seconds in best.items():
        print(f"  {name:<34}{seconds:>8.3f}{cpu[name]:>8.3f} s")
    for label, figures in (("wall", best), ("CPU", cpu)):
        referee, before = figures["referee (this checkout)"], figures[f"referee ({args.baseline})"]
        analyses = ", ".join(f"{name} {figures[name] / referee:.2f}x" for name in analysed)
        print(
            f"by {label} time: referee {before / referee:.2f}x faster than {args.baseline} (target 1.5x or more),"
            f" over the referee: {analyses} (target 2x or less)"
        )


if __name__ == "__main__":
    main()
