"""The ``scorepad`` command: the table app, the referee, the simulator and the store."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from rich.console import Console

from scorepad.app import cli as app_cli
from scorepad.printable import printable
from scorepad.referee import EXIT_ILLEGAL, EXIT_UNREADABLE, run_referee
from scorepad.rules import IllegalRecordError, RecordFormatError
from scorepad.rules.numbers import NumberRefused, record_int

# Commands that need only the rules engine: for these the store (SQLAlchemy, slow to
# import) is not loaded, so a referee call answers in a fraction of a second.
ENGINE_COMMANDS = ("referee", "simulate", "analyse")


def build_parser(*, with_store: bool = True) -> argparse.ArgumentParser:
    """The argument parser: every subcommand, or without the store's when ``with_store`` is off."""
    parser = argparse.ArgumentParser(prog="scorepad", description="Score-pad and referee for the domino game Sniff.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    referee = commands.add_parser("referee", help="replay a sniff-record/1 file and give the ruling")
    referee.add_argument("record", help="the record file (JSON)")
    referee.add_argument("--json", action="store_true", help="print the ruling as one JSON object")
    referee.set_defaults(func=lambda args: run_referee(args.record, as_json=args.json))

    analyse = commands.add_parser("analyse", help="renege evidence, missed chances and the table's words in a record")
    analyse.add_argument("record", help="the record file (JSON)")
    analyse.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    analyse.set_defaults(func=_run_analyse)

    simulate = commands.add_parser("simulate", help="play random legal hands through the engine")
    simulate.add_argument("--rules", default="smartt", help="smartt, american or jaques")
    simulate.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    simulate.add_argument("--hands", type=int, default=100)
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a record option, e.g. muggins=true or target=100 (repeatable)",
    )
    simulate.add_argument("--record", metavar="OUT.json", help="write what was played as a record")
    simulate.add_argument("--json", action="store_true", help="print the figures as JSON")
    simulate.set_defaults(func=_run_simulate)

    if with_store:
        from scorepad.store import cli as store_cli

        store_cli.add_commands(commands)
        from scorepad.tournament import cli as tournament_cli

        tournament_cli.add_commands(commands)
    app_cli.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (never raises for a user's mistake)."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(with_store=not (words and words[0] in ENGINE_COMMANDS))
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            # A bare `scorepad` opens the score-pad itself.
            return app_cli.run_default(args)
        status = args.func(args)
        # Written out here, inside the guard, so that a full disk is told like any other failure.
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:
        return 130
    except OSError as err:
        # Reading errors are answered where the file is opened; what reaches here is the output.
        return _output_failed(err)
    except Exception as err:  # a last guard: the user gets one line, never a traceback
        sys.stderr.write(printable(f"scorepad: internal error ({type(err).__name__}): {err}; please report it") + "\n")
        return EXIT_ILLEGAL


def _output_failed(err: OSError) -> int:
    """Say that the output could not be written (``> /dev/full``, a closed pipe) and return status 2.

    Standard output is pointed at the null device afterwards, so that Python's
    own flush at exit does not fail a second time with a traceback.
    """
    sys.stderr.write(f"scorepad: cannot write the output: {err.strerror or err}\n")
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
    return EXIT_UNREADABLE


def _run_analyse(args: argparse.Namespace) -> int:
    from scorepad.analysis.cli import run_analyse

    return run_analyse(args.record, as_json=args.json)


def _run_simulate(args: argparse.Namespace) -> int:
    from scorepad.simulate import simulate

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
    console = Console(highlight=False, soft_wrap=True)
    console.print(f"[bold]{printable(match.rules.describe())}[/], seed {args.seed}")
    console.print(
        f"{work.hands} hands ({work.games} games, {work.events} events) in {work.seconds:.3f} s:"
        f" [bold]{figures['hands_per_second']} hands/s[/]"
    )
    console.print(
        f"per hand: {figures['tiles_laid_per_hand']} tiles laid, {figures['tiles_drawn_per_hand']} drawn,"
        f" {figures['scoring_plays_per_hand']} scoring plays, {figures['points_per_hand']} points"
    )
    console.print("ends: " + ", ".join(f"{how} {n}" for how, n in sorted(work.ends.items())))
    if args.record:
        console.print(printable(f"record written to {args.record}"), markup=False)
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
