"""``scorepad import``, ``export``, ``matches``, ``backup`` and ``restore-backup``: the store from the command line.

Errors are one plain line on stderr: exit status 2 when a file cannot be read
(or is not a readable sniff-record/1) or written, or the database cannot be
used (checked before anything else: ``scorepad.store.health``); 1 for
everything else (a record the rules refuse, an unknown match id, a stored log
that no longer reads). Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from scorepad.access import Caller
from scorepad.printable import printable
from scorepad.referee import EXIT_ILLEGAL, EXIT_UNREADABLE, read_record_file
from scorepad.rules import IllegalRecordError, RecordFormatError
from scorepad.store.backup import BackupRefused, back_up, restore, sqlite_file
from scorepad.store.errors import StoreError
from scorepad.store.health import DatabaseUnusable, open_checked
from scorepad.store.ids import parse_match_id
from scorepad.store.matches import delete_match, match_marks, restore_match, trashed_matches
from scorepad.store.settings import load_settings, resolve_url
from scorepad.store.store import Store

DB_HELP = "database URL or SQLite file (default: SCOREPAD_DATABASE_URL, else the app's own file)"


class _Failure(Exception):
    """A reason to stop with one line on stderr and an exit status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``import``, ``export``, ``matches``, ``backup`` and ``restore-backup`` on the main parser."""
    imp = subparsers.add_parser("import", help="store a sniff-record/1 file as a new match")
    imp.add_argument("record", metavar="RECORD.json", help="the record file")
    imp.add_argument("--db", metavar="URL", help=DB_HELP)
    imp.set_defaults(func=run_import)

    exp = subparsers.add_parser("export", help="write a stored match as sniff-record/1")
    exp.add_argument("match_id", metavar="MATCH_ID", help="the match's id (see `matches`)")
    exp.add_argument("--db", metavar="URL", help=DB_HELP)
    exp.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    exp.set_defaults(func=run_export)

    lst = subparsers.add_parser("matches", help="list the stored matches")
    lst.add_argument("--db", metavar="URL", help=DB_HELP)
    lst.add_argument("--json", action="store_true", help="print a JSON list")
    lst.add_argument("--deleted", action="store_true", help="list the matches in the Trash instead")
    lst.set_defaults(func=run_matches)

    delete = subparsers.add_parser("delete", help="put a stored match in the Trash (restore brings it back)")
    delete.add_argument("match_id", metavar="MATCH_ID", help="the match's id (see `matches`)")
    delete.add_argument("--db", metavar="URL", help=DB_HELP)
    delete.set_defaults(func=run_delete)

    restore = subparsers.add_parser("restore", help="take a match out of the Trash (see `matches --deleted`)")
    restore.add_argument("match_id", metavar="MATCH_ID", help="the match's id (see `matches --deleted`)")
    restore.add_argument("--db", metavar="URL", help=DB_HELP)
    restore.set_defaults(func=run_restore)

    bak = subparsers.add_parser("backup", help="copy the database into FILE, safely while the server runs (SQLite)")
    bak.add_argument("file", metavar="FILE", help="the new backup file")
    bak.add_argument("--db", metavar="URL", help=DB_HELP)
    bak.set_defaults(func=run_backup)

    res = subparsers.add_parser(
        "restore-backup", help="put a backup back as the database (SQLite; the server must be stopped)"
    )
    res.add_argument("file", metavar="FILE", help="the backup file (made by `scorepad backup`)")
    res.add_argument("--db", metavar="URL", help=DB_HELP)
    res.set_defaults(func=run_restore_backup)


def _device() -> str:
    # The audit trail says where an entry came from.
    return f"cli@{socket.gethostname()}"


def _with_store(args: argparse.Namespace, work: Callable[[Store], int]) -> int:
    """Open and check the store named by ``--db``, run ``work``, and turn failures into one line."""
    try:
        try:
            store = open_checked(args.db)
        except (DatabaseUnusable, ValueError) as err:
            raise _Failure(
                str(err) if isinstance(err, DatabaseUnusable) else f"cannot open the database: {err}", EXIT_UNREADABLE
            ) from err
        try:
            return work(store)
        except StoreError as err:
            raise _Failure(str(err), EXIT_ILLEGAL) from err
        except SQLAlchemyError as err:
            raise _Failure(f"database error: {_first_line(err)}", EXIT_ILLEGAL) from err
        except (ValueError, KeyError, TypeError) as err:
            # A stored row that no longer decodes (a log payload that is not JSON, say).
            raise _Failure(
                f"the database holds an entry that cannot be read ({_first_line(err)})", EXIT_ILLEGAL
            ) from err
        finally:
            store.close()
    except _Failure as failure:
        sys.stderr.write(printable(str(failure)) + "\n")
        return failure.status


def _first_line(err: BaseException) -> str:
    text = str(getattr(err, "orig", None) or err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def run_import(args: argparse.Namespace) -> int:
    """``scorepad import RECORD.json``: validate the whole record, store it, print the new id."""
    path = args.record
    try:
        text = read_record_file(path)
    except OSError as err:
        sys.stderr.write(printable(f"cannot read {path}: {err.strerror or err}") + "\n")
        return EXIT_UNREADABLE
    except RecordFormatError as err:
        sys.stderr.write(printable(f"{path}: {err}") + "\n")
        return EXIT_UNREADABLE

    def work(store: Store) -> int:
        try:
            match_id = store.import_record(text, caller=Caller.local(_device()))
        except RecordFormatError as err:
            raise _Failure(f"{path}: {err}", EXIT_UNREADABLE) from err
        except IllegalRecordError as err:
            raise _Failure(f"{path}: {err}", EXIT_ILLEGAL) from err
        sys.stdout.write(f"{match_id}\n")
        return 0

    return _with_store(args, work)


def run_export(args: argparse.Namespace) -> int:
    """``scorepad export MATCH_ID [-o FILE]``: the stored match as a sniff-record/1."""

    def work(store: Store) -> int:
        match_id = parse_match_id(args.match_id)
        text = json.dumps(store.export_record(match_id, complete=True), indent=1) + "\n"
        if args.output is None:
            sys.stdout.write(text)
            return 0
        target = Path(args.output)
        partial = target.with_name(target.name + ".partial")
        try:
            # Written beside and renamed, so a failure never leaves half a record.
            partial.write_text(text)
            os.replace(partial, target)
        except OSError as err:
            partial.unlink(missing_ok=True)
            raise _Failure(f"cannot write {args.output}: {err.strerror or err}", EXIT_UNREADABLE) from err
        return 0

    return _with_store(args, work)


def series_text(series: dict[str, Any]) -> str:
    """The day's series in a listing cell: ``games 1 : 0; game points 12 : 0; Rubed 0 : 1`` ('' for none)."""
    parts = []
    for key, words in (("wins", "games"), ("game_points", "game points"), ("rubed", "Rubed")):
        if key in series:
            parts.append(f"{words} " + " : ".join(str(n) for n in series[key]))
    return "; ".join(parts)


def run_delete(args: argparse.Namespace) -> int:
    """``scorepad delete MATCH_ID``: the match goes to the Trash (from this computer, through the door)."""

    def work(store: Store) -> int:
        match_id = parse_match_id(args.match_id)
        delete_match(store, match_id, caller=Caller.local(_device()))
        sys.stdout.write(f"match {match_id} is in the Trash: `scorepad restore {match_id}` brings it back\n")
        return 0

    return _with_store(args, work)


def run_restore(args: argparse.Namespace) -> int:
    """``scorepad restore MATCH_ID``: take the match out of the Trash (from this computer, through the door)."""

    def work(store: Store) -> int:
        match_id = parse_match_id(args.match_id)
        restore_match(store, match_id, caller=Caller.local(_device()))
        sys.stdout.write(f"match {match_id} is restored\n")
        return 0

    return _with_store(args, work)


def _run_trash(args: argparse.Namespace, store: Store) -> int:
    """``scorepad matches --deleted``: the Trash, the latest deleted first."""
    trashed = trashed_matches(store)
    if args.json:
        listed = [
            {
                "id": m.id,
                "deleted": m.deleted_at.isoformat(),
                "deleted_by": m.deleted_by,
                "players": m.players,
                "label": m.label,
                "status": m.status,
            }
            for m in trashed
        ]
        sys.stdout.write(json.dumps(listed) + "\n")
        return 0
    table = Table(title=f"{len(trashed)} matches in the Trash" if trashed else "the Trash is empty")
    for column in ("id", "players", "deleted", "by", "status", "label"):
        table.add_column(column, justify="right" if column == "id" else "left", no_wrap=True)
    for m in trashed:
        table.add_row(
            str(m.id),
            escape(printable(", ".join(m.players))),
            m.deleted_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            escape(printable(m.deleted_by or "")),
            escape(printable(m.status)),
            escape(printable(m.label or "")),
        )
    width = None if sys.stdout.isatty() else 10_000
    Console(highlight=False, soft_wrap=True, width=width).print(table)
    return 0


def run_matches(args: argparse.Namespace) -> int:
    """``scorepad matches [--json] [--deleted]``: each match with its scores, its series and its table label.

    The series (Smartt §14) is the games each side has won and, where the book
    keeps them, its game points and Rubes; ``--json`` adds every game's result.
    """

    def work(store: Store) -> int:
        if args.deleted:
            return _run_trash(args, store)
        matches = store.list_matches()
        marks = match_marks(store)
        if args.json:
            listed = [{**m.to_dict(), "label": marks.get(m.id, (None, False))[0]} for m in matches]
            sys.stdout.write(json.dumps(listed) + "\n")
            return 0
        table = Table(title=f"{len(matches)} stored matches" if matches else "no stored matches")
        for column in ("id", "players", "rules", "started", "status", "scores", "series", "label"):
            table.add_column(column, justify="right" if column == "id" else "left", no_wrap=True)
        for m in matches:
            table.add_row(
                str(m.id),
                escape(printable(", ".join(m.players))),
                escape(printable(m.rules)),
                m.started.astimezone().strftime("%Y-%m-%d %H:%M"),  # the scorer's own clock, not UTC
                escape(printable(m.status)),
                " : ".join(str(score) for score in m.scores),
                series_text(m.series),
                escape(printable(marks.get(m.id, (None, False))[0] or "")),
            )
        # Into a pipe or a file the table is not cut to 80 columns (ids and names would be lost).
        width = None if sys.stdout.isatty() else 10_000
        Console(highlight=False, soft_wrap=True, width=width).print(table)
        return 0

    return _with_store(args, work)


def run_backup(args: argparse.Namespace) -> int:
    """``scorepad backup FILE``: the SQLite database copied into FILE by SQLite's online backup."""
    try:
        database = sqlite_file(_url(args), doing="back up")
        done = back_up(database, Path(args.file))
    except (BackupRefused, ValueError) as err:
        return _refused(str(err), EXIT_UNREADABLE)
    except (OSError, sqlite3.Error) as err:
        return _refused(f"cannot write {args.file}: {getattr(err, 'strerror', None) or err}", EXIT_UNREADABLE)
    sys.stdout.write(printable(f"backed up {database} to {done.path} ({_matches(done.matches)})") + "\n")
    return 0


def run_restore_backup(args: argparse.Namespace) -> int:
    """``scorepad restore-backup FILE``: the backup put back as the database, the old one kept aside."""
    try:
        database = sqlite_file(_url(args), doing="restore")
        done = restore(Path(args.file), database)
    except (BackupRefused, ValueError) as err:
        return _refused(str(err), EXIT_UNREADABLE)
    except (OSError, sqlite3.Error) as err:
        return _refused(f"cannot restore into {args.db or 'the database'}: {err}", EXIT_UNREADABLE)
    aside = f"; the database as it was is kept in {done.kept_aside}" if done.kept_aside else ""
    sys.stdout.write(printable(f"restored {args.file} into {database} ({_matches(done.matches)}){aside}") + "\n")
    return 0


def _url(args: argparse.Namespace) -> URL:
    """The database the command names (``--db``, else the settings); raises ``ValueError`` naming what is wrong."""
    return resolve_url(args.db, load_settings())


def _matches(count: int) -> str:
    return f"{count} match" if count == 1 else f"{count} matches"


def _refused(message: str, status: int) -> int:
    sys.stderr.write(printable(message) + "\n")
    return status
