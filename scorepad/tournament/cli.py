"""``scorepad tournament ...``: the director's operations from the command line, for directors who script.

The director's password is read from ``$SCOREPAD_DIRECTOR_PASSWORD``, else
asked for (``getpass``), else read as one line from standard input; it is
never a command-line argument (those show in ``ps``). Errors are one plain
line on stderr: exit status 2 for input that cannot be read (an option that
is not ``NAME=VALUE``, an output that cannot be written), 1 for everything
the tournament refuses (a wrong password, a round that cannot be paired, an
unknown entrant) or a database that cannot be opened. Never a traceback.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorepad.printable import printable
from scorepad.referee import EXIT_ILLEGAL, EXIT_UNREADABLE
from scorepad.rules import SniffError
from scorepad.rules.numbers import NumberRefused, read_whole, record_int
from scorepad.store.errors import StoreError
from scorepad.store.faults import DATABASE_ERRORS
from scorepad.store.store import open_store
from scorepad.tournament import wording
from scorepad.tournament.audit import audit_heading
from scorepad.tournament.cards import reissue_codes, table_cards
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.events import PAIRINGS
from scorepad.tournament.exports import export_event
from scorepad.tournament.kinds import KINDS
from scorepad.tournament.service import TournamentService
from scorepad.tournament.standings import tiebreak_order
from scorepad.tournament.wording import counted

PASSWORD_ENV = "SCOREPAD_DIRECTOR_PASSWORD"
DB_HELP = "database URL or SQLite file (default: SCOREPAD_DATABASE_URL, else the app's own file)"
FORMATS = ("csv", "xlsx", "pdf", "records")


class _Failure(Exception):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def _whole(text: str) -> int:
    """A whole number given on the command line (an event, a table, a round ...), its size checked first."""
    try:
        return read_whole(text, what="the value")
    except NumberRefused as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def add_commands(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``tournament`` and its sub-commands on the main parser."""
    top = subparsers.add_parser("tournament", help="run a tournament: create, register, pair, standings, export")
    sub = top.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)

    def command(name: str, helptext: str, func: Callable[[Any, argparse.Namespace], int]) -> argparse.ArgumentParser:
        parser = sub.add_parser(name, help=helptext)
        parser.add_argument("--db", metavar="URL", help=DB_HELP)
        parser.set_defaults(func=lambda args: _run(args, func))
        return parser

    def with_event(name: str, helptext: str, func: Callable[[Any, argparse.Namespace], int]) -> argparse.ArgumentParser:
        parser = command(name, helptext, func)
        parser.add_argument("event", type=_whole, metavar="EVENT", help="the event's id (printed by create)")
        return parser

    create = command("create", "create an event (prints its id); the password becomes the director's", _create)
    create.add_argument("name", help="the event's name")
    create.add_argument("--rules", default="smartt", help="smartt, american or jaques")
    create.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rules option (repeatable)"
    )
    create.add_argument(
        "--kind", default="singles", choices=[str(k) for k in KINDS], help="; ".join(k.description for k in KINDS)
    )
    create.add_argument("--rounds", type=_whole, required=True)
    per = create.add_mutually_exclusive_group()
    per.add_argument("--games", type=_whole, help="games per round (default 1)")
    per.add_argument("--hands", type=_whole, help="hands per round instead of games")
    create.add_argument("--pairing", default="auto", choices=PAIRINGS)
    create.add_argument("--seed", help="the pairing seed (default: drawn now, kept with the event)")
    create.add_argument("--bye-points", type=_whole, help="game points a bye scores")

    register = with_event("register", "register a player (two names for a partnership)", _register)
    register.add_argument("names", nargs="+", metavar="NAME")
    register.add_argument("--club")

    withdraw = with_event("withdraw", "withdraw an entrant from the next round on", _withdraw)
    withdraw.add_argument("entrant", metavar="ENTRANT", help="number or name")

    forbid = with_event("forbid", "keep two entrants apart (family, same club)", _forbid)
    forbid.add_argument("first", metavar="ENTRANT")
    forbid.add_argument("second", metavar="ENTRANT")
    forbid.add_argument("--reason", required=True)

    with_event("pair", "pair the next round and print the tables with their codes", _pair)

    repair = with_event("repair", "re-pair the current round by hand, before its first hand (audited)", _repair)
    repair.add_argument(
        "--table", action="append", required=True, metavar="A,B", help="one table's entrants in seat order (repeatable)"
    )
    repair.add_argument("--reason", required=True)

    forfeit = with_event("forfeit", "give a forfeit at a table of the round in play (audited)", _forfeit)
    forfeit.add_argument("table", type=_whole, metavar="TABLE")
    forfeit.add_argument(
        "--loser", nargs="+", required=True, metavar="NAME", help="who forfeits: names or entrant numbers"
    )
    forfeit.add_argument("--reason", required=True, help="why (did not turn up, walked off...)")

    unforfeit = with_event(
        "unforfeit", "take back a forfeit given by mistake in the round in play (audited)", _unforfeit
    )
    unforfeit.add_argument("table", type=_whole, metavar="TABLE")
    unforfeit.add_argument("--reason", required=True, help="why the forfeit was a mistake")

    resettle = with_event(
        "resettle", "settle a table's last settled hand again with the right figures (audited)", _resettle
    )
    resettle.add_argument("table", type=_whole, metavar="TABLE")
    resettle.add_argument(
        "--remaining",
        required=True,
        metavar="SEATS",
        help='each seat\'s pip total or tiles, in seat order, separated by commas: "12,0" or "6-6 5-4,0"',
    )
    resettle.add_argument("--hand", type=_whole, help="the hand meant (default: the table's last hand)")
    resettle.add_argument("--reason", required=True, help="why (the pips were miscounted...)")

    lock = with_event("lock", "lock the current round (its table codes stop working)", _lock)
    lock.add_argument("--reason", help="lock although some tables have not finished or confirmed")

    reopen = with_event(
        "reopen", "reopen the latest round after its lock, before the next is paired (audited)", _reopen
    )
    reopen.add_argument("--round", type=_whole, help="the round meant (default: the latest)")
    reopen.add_argument("--reason", required=True, help="why (a result to correct, a forfeit to take back...)")

    pairings = with_event("pairings", "show a round's tables and confirmed results", _pairings)
    pairings.add_argument("--round", type=_whole)
    pairings.add_argument("--json", action="store_true")

    verify = with_event("verify-pairings", "re-run a round's pairing from its stored inputs and compare", _verify)
    verify.add_argument("--round", type=_whole, help="default: every round paired")

    standings = with_event("standings", "the standings from confirmed results, with the working", _standings)
    standings.add_argument("--round", type=_whole, help="through this round")
    standings.add_argument("--json", action="store_true")
    standings.add_argument("--working", action="store_true", help="print each line's working")

    audit = with_event(
        "audit", "the event's audit whole: when, who, what, why, before and after (readable by all)", _audit
    )
    audit.add_argument("--table", type=_whole, metavar="T", help="only table T (and its round's pairing, lock, reopen)")
    audit.add_argument("--round", type=_whole, help="with --table: the round meant (default: the latest)")
    audit.add_argument("--newest-first", action="store_true", help="the latest act first (default: oldest first)")
    audit.add_argument("--json", action="store_true")

    confirm = with_event("confirm", "confirm a table's finished hands as the director", _confirm)
    confirm.add_argument("table", type=_whole, metavar="TABLE")
    confirm.add_argument("--round", type=_whole, help="default: the current round")
    confirm.add_argument("--hand", type=_whole, help="default: every finished hand not yet confirmed")

    cards = with_event(
        "cards", "new codes for every table of the round in play, printed as table cards (PDF, a page a table)", _cards
    )
    cards.add_argument("--out", metavar="FILE", help="the PDF to write (default: event-EVENT-round-N-cards.pdf)")
    cards.add_argument(
        "--address", metavar="URL", help="the server's address the phones open (http://192.168.1.5:8550), for QR codes"
    )

    export = with_event("export", "write standings and results (CSV, XLSX), a PDF, and every match's record", _export)
    export.add_argument("--to", required=True, metavar="DIR", help="the folder to write into")
    export.add_argument("--format", action="append", choices=FORMATS, help="default: all (repeatable)")


# What opening a database can raise: a bad URL, a missing file, the store's and the database's own errors.
_UNOPENED: tuple[type[Exception], ...] = (ValueError, OSError, StoreError, *DATABASE_ERRORS)


def _run(args: argparse.Namespace, work: Callable[[Any, argparse.Namespace], int]) -> int:
    try:
        try:
            store = open_store(args.db)
        except _UNOPENED as err:
            raise _Failure(f"cannot open the database: {_first_line(err)}", EXIT_ILLEGAL) from err
        try:
            return work(TournamentService(store), args)
        except (TournamentError, StoreError, SniffError) as err:
            raise _Failure(str(err), EXIT_ILLEGAL) from err
        except DATABASE_ERRORS as err:
            raise _Failure(f"database error: {_first_line(err)}", EXIT_ILLEGAL) from err
        finally:
            store.close()
    except _Failure as failure:
        sys.stderr.write(printable(str(failure)) + "\n")
        return failure.status


def _first_line(err: BaseException) -> str:
    text = str(getattr(err, "orig", None) or err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _password(prompt: str = "director's password: ") -> str:
    given = os.environ.get(PASSWORD_ENV)
    if given:
        return given
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return sys.stdin.readline().rstrip("\n")


def _director(service: Any, event: int) -> str:
    return str(service.login_director(event, _password(), source="cli"))


def _out(line: str) -> None:
    sys.stdout.write(printable(line) + "\n")


def _create(service: Any, args: argparse.Namespace) -> int:
    options = {}
    for text in args.option:
        name, sep, raw = text.partition("=")
        if not sep:
            raise _Failure(f"an option is written NAME=VALUE, not {text!r}", EXIT_UNREADABLE)
        try:
            options[name.strip()] = json.loads(raw, parse_int=record_int)
        except NumberRefused as err:
            raise _Failure(f"the option {name.strip()}: {err}", EXIT_UNREADABLE) from None
        except json.JSONDecodeError:
            options[name.strip()] = raw
    event = service.create_event(
        name=args.name,
        password=_password("the new event's director password: "),
        rounds=args.rounds,
        rules=args.rules,
        options=options,
        kind=args.kind,
        unit="hands" if args.hands is not None else "games",
        per_round=args.hands if args.hands is not None else (args.games or 1),
        pairing=args.pairing,
        seed=args.seed,
        bye_points=args.bye_points,
    )
    _out(str(event))
    # How the event will pair, said at once (on stderr: stdout stays the event's id, for scripts).
    sys.stderr.write(printable(f"pairing: {service.pairing_choice(None, event).why}") + "\n")
    return 0


def _register(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    entrant = service.register(token, args.event, args.names, club=args.club)
    # The event's own entrant number: the one withdraw, forbid, forfeit and repair read.
    _out(f"registered {entrant.words}")
    return 0


def _withdraw(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    number = service.withdraw(token, args.event, args.entrant)
    who = service.entrant(token, args.event, args.entrant)
    _out(f"{who.words} withdrawn from round {number} on")
    return 0


def _forbid(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    service.forbid(token, args.event, args.first, args.second, args.reason)
    first, second = (service.entrant(token, args.event, ref) for ref in (args.first, args.second))
    _out(f"{first.words} and {second.words} will not be paired together")
    return 0


def _pair(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    view = service.pair_round(token, args.event)
    _print_round(view, service.pairing_choice(token, args.event).why)
    return 0


def _print_round(view: Any, why: str | None = None) -> None:
    """A round just paired: how it was paired and why, its tables, seats and codes (shown this once), byes, notes."""
    _out(f"round {view.number} ({view.method}), fingerprint {view.fingerprint[:12]}")
    if why:
        _out(f"  pairing: {why}")
    for table in view.tables:
        if table.bye:
            _out(f"  bye: {table.names[0]}")
        else:
            code = view.codes[table.number]
            _out(f"  table {table.number}: {table.versus}  code {code}  match {table.match_id}")
    for note in view.notes:
        _out(f"  note: {note}")


def _forfeit(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    given = service.forfeit(token, args.event, args.table, args.loser, reason=args.reason)
    _out(
        f"table {args.table}: forfeited by {', '.join(given.loser_names)} ({given.reason});"
        f" the others score a forfeit win of {counted(given.points, 'game point')}"
    )
    return 0


def _repair(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    tables = [[name.strip() for name in text.split(",")] for text in args.table]
    view = service.repair(token, args.event, tables, reason=args.reason)
    _print_round(view)
    return 0


def _lock(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    _out(f"round {service.lock_round(token, args.event, reason=args.reason)} locked")
    return 0


def _reopen(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    number = service.reopen_round(token, args.event, reason=args.reason, number=args.round)
    _out(f"round {number} reopened: its table codes work again; lock it again before pairing the next round")
    return 0


def _unforfeit(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    taken = service.unforfeit(token, args.event, args.table, reason=args.reason)
    _out(
        f"table {args.table}: the forfeit by {', '.join(taken.loser_names)} ({taken.reason}) is taken back;"
        " the table plays on and its hands count"
    )
    return 0


def _resettle(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    done = service.resettle(token, args.event, args.table, remaining=args.remaining, reason=args.reason, hand=args.hand)
    _out(done.summary)
    return 0


def _pairings(service: Any, args: argparse.Namespace) -> int:
    view = service.round_view(None, args.event, args.round)
    if args.json:
        _out(
            json.dumps(
                {
                    "round": view.number,
                    "method": view.method,
                    "locked": view.locked,
                    "tables": [
                        {
                            "table": t.number,
                            "bye": t.bye,
                            "names": list(t.names),
                            # The event's own entrant numbers, in seat order.
                            "entrants": list(t.numbers),
                            "sides": [list(team) for team in t.teams],
                            "match": t.match_id,
                            "forfeit": None
                            if t.forfeit is None
                            else {"losers": list(t.forfeit.loser_names), "reason": t.forfeit.reason},
                        }
                        for t in view.tables
                    ],
                }
            )
        )
        return 0
    _out(f"round {view.number} ({view.method}{', locked' if view.locked else ''})")
    for t in view.tables:
        if t.bye:
            _out(f"  bye: {t.names[0]}")
            continue
        if t.forfeit is not None:
            f = t.forfeit
            _out(
                f"  table {t.number}: {t.versus}: forfeited by {', '.join(f.loser_names)} ({f.reason});"
                f" the others score a forfeit win, {f.points} gp"
            )
            continue
        r = t.result
        assert r is not None
        state = "provisional" if r.hands_played > r.hands_confirmed else "confirmed"
        figures = [t.side_of(i) for i in range(len(t.names))]
        scores = ", ".join(f"{n} {s.game_points} gp {s.games_won} won" for n, s in zip(t.names, figures, strict=True))
        _out(f"  table {t.number}: {scores}  ({r.hands_confirmed}/{r.hands_played} hands {state})")
    return 0


def _verify(service: Any, args: argparse.Namespace) -> int:
    paired = service.event_info(None, args.event)["rounds_paired"]
    numbers = [args.round] if args.round else list(range(1, paired + 1))
    ok = True
    for number in numbers:
        report = service.verify_pairings(None, args.event, number)
        ok = ok and report.ok
        for line in report.lines:
            _out(line)
    if not ok:
        raise _Failure("the pairing does not re-run to the stored round", EXIT_ILLEGAL)
    return 0


def _standings(service: Any, args: argparse.Namespace) -> int:
    rows = service.standings(None, args.event, through=args.round)
    if args.json:
        # "entrant" is the event's own entrant number (as "number"), never a database id.
        _out(json.dumps([{**s.__dict__, "entrant": s.number, "working": list(s.working)} for s in rows]))
        return 0
    info = service.event_info(None, args.event)
    _out(f"{info['name']}: tiebreak order {', '.join(tiebreak_order(info['game_points']))}")
    for s in rows:
        place = f"={s.place}" if s.shared else str(s.place)
        mark = s.marks
        if info["game_points"]:
            rubes = counted(s.rubes, "Rube")
            figures = f"{s.game_points} gp, {s.games_won} won, {rubes}, spread {s.spread}, opp {s.opponents}"
        else:
            figures = f"{s.games_won} won, spread {s.spread}, opp {s.opponents}"
        _out(f"{place:>4} {s.name}: {figures}{mark}")
        if args.working:
            for line in s.working:
                _out(f"       {line}")
    return 0


def _audit(service: Any, args: argparse.Namespace) -> int:
    entries = service.audit_view(
        None, args.event, table=args.table, round_number=args.round, newest_first=args.newest_first
    )
    if args.json:
        _out(json.dumps([{**e.__dict__, "sentence": e.sentence} for e in entries]))
        return 0
    info = service.event_info(None, args.event)
    _out(audit_heading(info["name"], args.table, args.round or info["rounds_paired"], args.newest_first))
    for entry in entries:
        _out(entry.sentence)
    if not entries:
        _out(wording.AUDIT_EMPTY)
    return 0


def _confirm(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    hands = service.confirm(token, args.event, args.table, by="director", hand=args.hand, round_number=args.round)
    said = f"hand{'s' if len(hands) > 1 else ''} {', '.join(map(str, hands))}"
    _out(f"table {args.table}: {said} confirmed" if hands else "nothing new to confirm")
    return 0


def _cards(service: Any, args: argparse.Namespace) -> int:
    """Reissue every table's code (only their hashes are stored) and print them as cards; the old codes stop."""
    token = _director(service, args.event)
    codes = reissue_codes(service, token, args.event)
    view = service.round_view(token, args.event)
    title = str(service.event_info(token, args.event)["name"])
    address = (args.address or "").rstrip("/")

    def link(_number: int, code: str) -> str | None:
        return f"{address}/event/{args.event}/table?code={code}" if address else None

    path = Path(args.out or f"event-{args.event}-round-{view.number}-cards.pdf")
    try:
        path.write_bytes(table_cards(title, view, codes, link))
    except OSError as err:
        raise _Failure(f"cannot write {path}: {err.strerror or err}", EXIT_UNREADABLE) from err
    for number, code in sorted(codes.items()):
        table = next(t for t in view.tables if t.number == number)
        _out(f"  table {number}: {table.versus}  code {code}")
    _out(f"{path} ({len(codes)} table cards; the codes given before no longer join)")
    return 0


def _export(service: Any, args: argparse.Namespace) -> int:
    token = _director(service, args.event)
    skipped: list[str] = []
    try:
        written = export_event(
            service, token, args.event, Path(args.to), formats=args.format or FORMATS, skipped=skipped
        )
    except OSError as err:
        raise _Failure(f"cannot write into {args.to}: {err.strerror or err}", EXIT_UNREADABLE) from err
    for path in written:
        _out(str(path))
    for line in skipped:
        sys.stderr.write(printable(line) + "\n")
    return 0
