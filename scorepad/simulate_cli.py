"""``scorepad simulate``: play random legal hands through the engine and print the figures."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scorepad.printable import printable
from scorepad.referee import EXIT_ILLEGAL, EXIT_UNREADABLE
from scorepad.rules import IllegalRecordError, RecordFormatError
from scorepad.rules.numbers import NumberRefused, record_int
from scorepad.simulate import simulate


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``simulate``."""
    command = subparsers.add_parser("simulate", help="play random legal hands through the engine")
    command.add_argument("--rules", default="smartt", help="smartt, american or jaques")
    command.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    command.add_argument("--hands", type=int, default=100)
    command.add_argument("--seed", type=int, default=0)
    command.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a record option, e.g. muggins=true or target=100 (repeatable)",
    )
    command.add_argument("--record", metavar="OUT.json", help="write what was played as a record")
    command.add_argument("--json", action="store_true", help="print the figures as JSON")
    command.set_defaults(func=run_simulate)


def run_simulate(args: argparse.Namespace) -> int:
    """Simulate as ``args`` say and print the figures; return the exit status (2 or 1 with one line on stderr)."""
    try:
        options = dict(_parse_option(text) for text in args.option)
        if args.hands < 1:
            raise ValueError("--hands must be at least 1")
        match, work = simulate(args.rules, args.players, args.hands, args.seed, options)
    except RecordFormatError as err:
        sys.stderr.write(printable(str(err)) + "\n")
        return EXIT_UNREADABLE
    except (IllegalRecordError, ValueError) as err:
        sys.stderr.write(printable(str(err)) + "\n")
        return EXIT_ILLEGAL
    if args.record:
        try:
            Path(args.record).write_text(json.dumps(match.to_record(), indent=1) + "\n")
        except OSError as err:
            sys.stderr.write(printable(f"cannot write {args.record}: {err.strerror or err}") + "\n")
            return EXIT_UNREADABLE
    figures = work.as_dict()
    if args.json:
        sys.stdout.write(json.dumps(figures) + "\n")
        return 0
    lines = [
        f"{match.rules.describe()}, seed {args.seed}",
        f"{work.hands} hands ({work.games} games, {work.events} events) in {work.seconds:.3f} s:"
        f" {figures['hands_per_second']} hands/s",
        f"per hand: {figures['tiles_laid_per_hand']} tiles laid, {figures['tiles_drawn_per_hand']} drawn,"
        f" {figures['scoring_plays_per_hand']} scoring plays, {figures['points_per_hand']} points",
        "ends: " + ", ".join(f"{how} {n}" for how, n in sorted(work.ends.items())),
    ]
    if args.record:
        lines.append(f"record written to {args.record}")
    sys.stdout.write("".join(printable(line) + "\n" for line in lines))
    return 0


def _parse_option(text: str) -> tuple[str, object]:
    name, sep, raw = text.partition("=")
    if not sep:
        raise ValueError(f"an option is written NAME=VALUE, not {text!r}")
    try:
        value: object = json.loads(raw, parse_int=record_int)
    except NumberRefused as err:
        raise ValueError(f"the option {name.strip()}: {err}") from None
    except json.JSONDecodeError:
        value = raw
    return name.strip(), value
