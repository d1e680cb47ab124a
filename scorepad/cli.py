"""The ``scorepad`` command: the table app, the referee, the simulator, the analysis and the store.

Each subcommand lives in its own module with an ``add_commands`` of its own,
found by name in ``COMMANDS``. Only the modules a command needs are loaded:
``scorepad referee`` loads the engine alone, never the analysis, the store
(SQLAlchemy) or the app (Flet), so a whole referee run starts in a fraction of
a second. A bare ``scorepad`` or ``--help`` loads them all.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from scorepad.app.host import cli as app_cli
from scorepad.printable import printable
from scorepad.referee import EXIT_ILLEGAL, EXIT_UNREADABLE

# The module behind each command that needs only the rules engine (and the analysis).
COMMANDS = {
    "referee": "scorepad.referee",
    "analyse": "scorepad.analysis.cli",
    "simulate": "scorepad.simulate_cli",
}
# The modules of every other command (the store's and the tournament's).
STORE_COMMANDS = ("scorepad.store.cli", "scorepad.tournament.cli")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: with ``command`` one of ``COMMANDS``, that command only (and the app's); else every one."""
    parser = argparse.ArgumentParser(prog="scorepad", description="Score-pad and referee for the domino game Sniff.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [COMMANDS[command]] if command in COMMANDS else [*COMMANDS.values(), *STORE_COMMANDS]
    for name in modules:
        importlib.import_module(name).add_commands(commands)
    app_cli.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (never raises for a user's mistake)."""
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words else None)
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
