"""``scorepad referee``: replay a record and give the ruling, readable or as JSON (records.md §6)."""

from __future__ import annotations

import argparse
import sys

from scorepad.printable import printable
from scorepad.rules import IllegalRecordError, RecordFormatError, load_record, replay, report_text
from scorepad.rules.match import MatchState
from scorepad.rules.narrate import hand_lines, scores_line
from scorepad.rules.records import MAX_RECORD_BYTES, too_large

EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2


class RecordFileError(Exception):
    """A record file that cannot be replayed: ``message`` is its one line, ``status`` the exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def replay_file(path: str) -> MatchState:
    """Read and replay the record at ``path`` (for ``referee`` and ``analyse``).

    Raises RecordFileError with the contract's status: 2 for a file that is
    unreadable or not a sniff-record/1, 1 for a record the rules refuse.
    """
    try:
        text = read_record_file(path)
    except OSError as err:
        raise RecordFileError(f"cannot read {path}: {err.strerror or err}", EXIT_UNREADABLE) from None
    except RecordFormatError as err:
        raise RecordFileError(f"{path}: {err}", EXIT_UNREADABLE) from None
    try:
        return replay(load_record(text))
    except RecordFormatError as err:
        raise RecordFileError(f"{path}: {err}", EXIT_UNREADABLE) from None
    except IllegalRecordError as err:
        raise RecordFileError(str(err), EXIT_ILLEGAL) from None


_CHUNK = 64 * 1024


def read_record_file(path: str) -> bytes:
    """The bytes of the record file at ``path``, read in bounded chunks.

    Raises ``RecordFormatError`` when the file holds more than ``MAX_RECORD_BYTES``
    (``/dev/zero`` is stopped there, not read until memory runs out) and
    ``OSError`` when it cannot be read.
    """
    parts: list[bytes] = []
    size = 0
    with open(path, "rb") as stream:
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
            if size > MAX_RECORD_BYTES:
                raise too_large()
            parts.append(chunk)
    return b"".join(parts)


def run_referee(path: str, *, as_json: bool) -> int:
    """Replay the record at ``path`` and print the ruling; return the exit status.

    Status 2 when the file is not a readable sniff-record/1, 1 when the rules
    refuse it; the one-line reason goes to stderr and nothing to stdout.
    """
    try:
        match = replay_file(path)
    except RecordFileError as err:
        return _fail(err.message, err.status)
    if as_json:
        sys.stdout.write(report_text(match) + "\n")
    else:
        sys.stdout.write("".join(printable(line) + "\n" for line in account_lines(match)))
    return 0


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``referee`` (records.md §6)."""
    referee = subparsers.add_parser("referee", help="replay a sniff-record/1 file and give the ruling")
    referee.add_argument("record", help="the record file (JSON)")
    referee.add_argument("--json", action="store_true", help="print the ruling as one JSON object")
    referee.set_defaults(func=lambda args: run_referee(args.record, as_json=args.json))


def account_lines(match: MatchState) -> list[str]:
    """The match hand by hand: plays with their counts explained, ends, games (plain lines, unescaped).

    The caller passes every line through ``printable``, so a name cannot forge a line or move the cursor.
    """
    rules = match.rules
    lines = [f"{rules.describe()}: " + ", ".join(match.players)]
    games = {g.number: g for g in match.games()}
    for hand in match.hands:
        lines += ["", f"Hand {hand.number} (game {hand.game}), {match.players[hand.setter]} sets"]
        lines.append(f"  before: {scores_line(match, hand.scores_before)}")
        lines += [line if line[:1] == " " else "  " + line for line in hand_lines(match, hand)]
        lines.append(f"  after: {scores_line(match, hand.scores_after)}")
        game = games.get(hand.game) if hand.winner() is not None else None
        if game is not None:
            summary = f"Game {game.number} won by {match.side_name(game.winner)} ({scores_line(match, game.scores)})"
            if game.game_points is not None:
                rubed = ", ".join(match.side_name(s) for s in game.rubed or ()) or "nobody"
                summary += f"; game points {game.game_points}; Rubed: {rubed}"
            lines.append(summary)
    return lines


def _fail(message: str, status: int) -> int:
    sys.stderr.write(printable(" ".join(message.splitlines())) + "\n")
    return status
