"""The director's desk as plain Python: the round's tables and the entrants, each with the acts valid for it.

No Flet here. The desk lists what the director taps: each table of the round
with its state, players, code and its menu (new code, QR code, correct,
settle again, forfeit, take back), and each entrant with theirs (withdraw,
keep apart from..., swap seats with...). An act that needs more than a tap
(a reason, who forfeits, the right figures) is a ``Pending`` form the screen
draws under the table or entrant; ``carry_out`` does it. Nobody types a
table number or a name (only a reason, figures, and names at registration).

Every act asks ``TournamentService`` with the director's token, which alone
decides: the menus here only leave out what cannot apply, and every refusal
comes back as the service's own sentence. Every act says what it did in the
players' names (``message``).

Table codes are stored only as argon2 hashes, so a code shown once cannot be
shown again after a reload: ``codes_back`` issues every table of the round a
new code in one tap (the old codes stop joining; phones that joined already
play on), and ``cards`` prints them (``scorepad.tournament.cards``).
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from scorepad.app.models.links import page_link
from scorepad.app.models.tournament import (
    Board,
    BoardData,
    Creation,
    parse_tables,
    standing_words,
    table_state_words,
    words_of,
)
from scorepad.rules import SniffError
from scorepad.store import StoreError
from scorepad.tournament import TournamentService
from scorepad.tournament.audit import audit_entries
from scorepad.tournament.cards import reissue_codes, table_cards
from scorepad.tournament.errors import TournamentError

# The acts of a table's menu and an entrant's, with the words of their menu items.
TABLE_ACTS = {
    "new-code": "New code",
    "qr": "QR code",
    "correct": "Correct the last entry",
    "resettle": "Settle the last hand again",
    "forfeit": "Forfeit",
    "unforfeit": "Take back the forfeit",
}
ENTRANT_ACTS = {"withdraw": "Withdraw", "forbid": "Keep apart from...", "repair": "Swap seats with..."}
# Acts that ask a reason before they are done.
NEEDS_REASON = frozenset({"correct", "resettle", "forfeit", "unforfeit", "forbid", "repair"})


@dataclass(frozen=True)
class DeskTable:
    """One table of the round on the desk: its state in a word or two, its players, its code, its acts."""

    number: int
    names: tuple[str, ...]
    versus: str
    bye: bool
    # "not started", "hand 2 in play", "hand 1 finished", "finished", "confirmed", "forfeit", "bye".
    state: str
    # The figures behind the state ("2 played, 1 finished, 1 confirmed; provisional (1 to confirm)").
    detail: str
    code: str | None
    acts: tuple[str, ...]

    @property
    def line(self) -> str:
        """The table in one line: "Table 1: Ann v Bob - 1 played, 1 finished, 0 confirmed"."""
        return f"Table {self.number}: {self.versus} - {self.detail}"


@dataclass(frozen=True)
class DeskEntrant:
    """One entrant on the desk: the event's own number, the name, where they sit, and their acts."""

    number: int
    name: str
    withdrawn: bool
    # Where they are this round: "table 2", "bye", "withdrawn", or "" before the first round.
    where: str
    apart_from: tuple[str, ...]
    acts: tuple[str, ...]


@dataclass
class Pending:
    """An act the director has chosen and not yet done: what it still needs (a reason, who, figures)."""

    act: str
    table: int | None = None
    entrant: int | None = None
    reason: str = ""
    # The figures of a hand settled again, by seat (what each seat still held).
    figures: dict[int, str] = field(default_factory=dict)
    # Who forfeits (names), or the other entrant's number (keep apart, swap) as text.
    chosen: set[str] = field(default_factory=set)


def table_state(view: Any, info: dict[str, Any]) -> str:
    """A table's state in a word or two, for the desk's chip (the figures are in ``table_state_words``)."""
    if view.bye:
        return "bye"
    if view.forfeit is not None:
        return "forfeit"
    result = view.result
    if result is None or result.hands_played == 0:
        return "not started"
    per_round = int(info.get("per_round") or 1)
    done = (result.games_finished if info.get("unit") == "games" else result.hands_finished) >= per_round
    if done:
        return "finished" if result.provisional else "confirmed"
    if result.hands_played > result.hands_finished:
        return f"hand {result.hands_played} in play"
    return f"hand {result.hands_finished} finished"


class Desk(Board):
    """The director's desk: sign in, then the round as tables and the entrants, each with a menu of acts."""

    def __init__(self, service: TournamentService, event_id: int, *, source: str = "web") -> None:
        super().__init__(service, event_id, None)
        self.source = source
        # The codes this page holds (issued here: at pairing, a new code, a reissue), by table number.
        self.codes: dict[int, str] = {}
        # The tables whose QR code is open, the menu open ("table-3", "entrant-5"), the act being filled in.
        self.qr_shown: set[int] = set()
        self.menu: str | None = None
        self.pending: Pending | None = None
        self.audit: list[Any] = []

    # -- reading --------------------------------------------------------------------

    @property
    def signed_in(self) -> bool:
        """The director has signed in on this page."""
        return self.token is not None

    def read(self) -> BoardData:
        """The board's reading and the event's audit (so a live reload brings both). Raises ``TournamentError``."""
        data = super().read()
        return replace(data, audit=self.service.audit(self.token, self.event_id))

    def show(self, data: BoardData) -> None:
        """Show what ``read`` read, the audit (and the entrants it names) included."""
        super().show(data)
        self.audit = data.audit

    def round_open(self) -> bool:
        """A round is paired and not locked (its tables play)."""
        return self.round is not None and not self.round.locked

    def desk_tables(self) -> list[DeskTable]:
        """The round's tables and byes, each with its state, code and the acts its menu offers."""
        if self.round is None:
            return []
        out = []
        for view in self.round.tables:
            detail, _provisional = table_state_words(view)
            out.append(
                DeskTable(
                    number=view.number,
                    names=tuple(view.names),
                    versus=view.versus,
                    bye=view.bye,
                    state=table_state(view, self.info),
                    detail=detail,
                    code=self.codes.get(view.number),
                    acts=self._table_acts(view),
                )
            )
        return out

    def _table_acts(self, view: Any) -> tuple[str, ...]:
        """What a table's menu offers: only what can apply now (the service decides all the same)."""
        if view.bye or not self.round_open():
            return ()
        acts = ["new-code"]
        if view.number in self.codes:
            acts.append("qr")
        if view.forfeit is not None:
            return (*acts, "unforfeit")
        played = view.result.hands_played if view.result is not None else 0
        finished = view.result.hands_finished if view.result is not None else 0
        if played:
            acts.append("correct")
        if finished:
            acts.append("resettle")
        acts.append("forfeit")
        return tuple(acts)

    def desk_entrants(self) -> list[DeskEntrant]:
        """Everyone registered, in the event's order, with where they sit and their acts."""
        withdrawn = {str(line.detail.get("entrant")) for line in self.audit if line.action == "withdraw"}
        apart: dict[str, list[str]] = {}
        for line in self.audit:
            if line.action == "forbid":
                first, second = (str(n) for n in line.detail.get("pair", ("", "")))
                apart.setdefault(first, []).append(second)
                apart.setdefault(second, []).append(first)
        seats: dict[str, str] = {}
        for view in self.round.tables if self.round is not None else ():
            for name in view.names:
                seats[name] = "bye" if view.bye else f"table {view.number}"
        out = []
        for line in sorted(self.standings, key=lambda s: s.number):
            name = str(line.name)
            gone = name in withdrawn
            acts = ["forbid"]
            if not gone:
                acts.insert(0, "withdraw")
                if self.round_open() and name in seats:
                    acts.append("repair")
            out.append(
                DeskEntrant(
                    number=int(line.number),
                    name=name,
                    withdrawn=gone,
                    where="withdrawn" if gone else seats.get(name, ""),
                    apart_from=tuple(apart.get(name, ())),
                    acts=tuple(acts),
                )
            )
        return out

    def entrant_named(self, number: int) -> DeskEntrant | None:
        """The entrant with this event number, if any."""
        return next((e for e in self.desk_entrants() if e.number == number), None)

    def table_numbered(self, number: int) -> DeskTable | None:
        """The table of the round with this number, if any."""
        return next((t for t in self.desk_tables() if t.number == number), None)

    def entrants(self) -> list[str]:
        """Who is registered, in order of registration (from the audit)."""
        return [str(line.detail.get("entrant", "")) for line in self.audit if line.action == "register"]

    def missing_codes(self) -> list[int]:
        """The tables of the round in play whose code this page does not hold (after a reload, a sign-in)."""
        if not self.round_open():
            return []
        return [t.number for t in self.round.tables if not t.bye and t.number not in self.codes]

    def working(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each standing's line with the lines of its working."""
        points = bool(self.info.get("game_points"))
        return [(standing_words(s, points), tuple(s.working)) for s in self.standings]

    def audit_lines(self) -> list[str]:
        """The event's audit, newest first, in the words of its audit page and ``scorepad tournament audit``."""
        return [entry.sentence for entry in audit_entries(self.audit, newest_first=True)]

    # -- the menus and the forms -------------------------------------------------------

    def toggle_menu(self, key: str) -> None:
        """Open the menu ``key`` ("table-3", "entrant-5", "round"), or close it if open; any form is dropped."""
        self.menu = None if self.menu == key else key
        self.pending = None

    def begin(self, act: str, *, table: int | None = None, entrant: int | None = None) -> None:
        """Start filling in ``act`` for a table or an entrant (the menu closes); a tap act is done at once."""
        self.menu = None
        self.message = None
        if act == "new-code" and table is not None:
            self.new_code(table)
            return
        if act == "qr" and table is not None:
            self.qr_shown ^= {table}
            return
        self.pending = Pending(act, table=table, entrant=entrant)

    def cancel(self) -> None:
        """Drop the form being filled in."""
        self.pending = None

    def set_reason(self, text: str) -> None:
        """The reason typed in the form."""
        if self.pending is not None:
            self.pending.reason = text

    def set_figure(self, seat: int, text: str) -> None:
        """What seat ``seat`` still held, typed in the form of a hand settled again."""
        if self.pending is not None:
            self.pending.figures[seat] = text

    def choose(self, value: str) -> None:
        """Tap a choice of the form: who forfeits (several), or the other entrant (one)."""
        pending = self.pending
        if pending is None:
            return
        self.message = None  # a refusal for want of a choice ("Tap who forfeits first.") is answered
        if pending.act == "forfeit":
            pending.chosen ^= {value}
        else:
            pending.chosen = set() if value in pending.chosen else {value}

    def carry_out(self) -> bool:
        """Do the act being filled in; True when done (the form closes), False with the sentence why not."""
        pending = self.pending
        if pending is None:
            return False
        done = self._carry_out(pending)
        if done:
            self.pending = None
        return done

    def _carry_out(self, p: Pending) -> bool:
        table = p.table or 0
        if p.act == "correct":
            return self.correct(table, p.reason)
        if p.act == "resettle":
            line = self.table_numbered(table)
            seats = len(line.names) if line is not None else 0
            figures = [p.figures.get(seat, "").strip() for seat in range(seats)]
            if not all(figures):
                self.message = "Type what each seat still held: pips, or tiles such as 6-6 5-4; 0 for who went out."
                return False
            return self.resettle(table, ", ".join(figures), p.reason)
        if p.act == "forfeit":
            line = self.table_numbered(table)
            losers = [n for n in (line.names if line is not None else ()) if n in p.chosen]
            if not losers:
                self.message = "Tap who forfeits first."
                return False
            return self.forfeit(table, ",".join(losers), p.reason)
        if p.act == "unforfeit":
            return self.unforfeit(table, p.reason)
        who = self.entrant_named(p.entrant or 0)
        if who is None:
            self.message = "That entrant is no longer on the list; tap another."
            return False
        if p.act == "withdraw":
            return self.withdraw(who.name)
        other = self.entrant_named(int(next(iter(p.chosen)))) if p.chosen else None
        if other is None:
            self.message = (
                f"Tap the player to {'keep apart from' if p.act == 'forbid' else 'swap seats with'} {who.name}."
            )
            return False
        if p.act == "forbid":
            return self.forbid(who.name, other.name, p.reason)
        return self.swap(who.name, other.name, p.reason)

    # -- the acts -------------------------------------------------------------------

    def sign_in(self, password: str) -> bool:
        """Sign in with the event's password; False with the reason in ``message`` (a wrong one, too many)."""
        self.message = None
        try:
            self.token = self.service.login_director(self.event_id, password, source=self.source)
        except TournamentError as err:
            self.message = words_of(err)
            return False
        self.load()
        if self.missing_codes():
            self.message = (
                "Signed in. A table code is kept only as a hash, so none can be shown again:"
                " tap Show every table's code again to give every table a new one."
            )
        return True

    def _do(self, fn: Callable[[], Any], done: str | Callable[[Any], str]) -> bool:
        """Call the service; say ``done`` (or ``done`` of what the call gave) or the refusal; reload."""
        self.message = None
        try:
            given = fn()
        except (TournamentError, StoreError, SniffError) as err:
            # A refusal (the engine's of a correction included) or a database fault: one sentence.
            # Anything else is a bug and kills the page (PageGuard), never said as if it were a refusal.
            self.message = words_of(err)
            return False
        self.message = done(given) if callable(done) else done
        self.load()
        return True

    def _versus(self, table: int, *, first: bool = False) -> str:
        """ "table 2 (Ann v Bob)" (with a capital ``first`` in a sentence), the table named by its players."""
        line = self.table_numbered(table)
        word = "Table" if first else "table"
        return f"{word} {table} ({line.versus})" if line is not None else f"{word} {table}"

    def register(self, text: str, club: str = "") -> bool:
        """Register one entrant (two names with '&' for a partnership)."""
        names = [n.strip() for n in (text or "").split("&") if n.strip()]
        if not names:
            self.message = "Type the player's name first."
            return False
        return self._do(
            lambda: self.service.register(self.token, self.event_id, names, club=club.strip() or None),
            # The event's own entrant number: the one the command line and the exports show.
            lambda entrant: f"{entrant.name} registered as entrant {entrant.number}.",
        )

    def pairing_words(self) -> str:
        """How the event pairs and why, to show before pairing: Auto's choice, and whether late entries can join.

        The service's ``pairing_choice`` in one or two sentences; a refusal's
        sentence when the event cannot be read.
        """
        try:
            return str(self.service.pairing_choice(self.token, self.event_id).why)
        except (TournamentError, StoreError) as err:
            return words_of(err)

    def pair(self) -> bool:
        """Pair the next round; its codes are kept here to show (they are shown once)."""

        def pair() -> None:
            view = self.service.pair_round(self.token, self.event_id)
            self.codes = dict(view.codes)
            self.qr_shown.clear()

        return self._do(pair, "Round paired: give each table its code, or print the table cards.")

    def codes_back(self) -> bool:
        """Give every table of the round in play a new code at once, and open every QR code.

        A code is kept only as its hash, so none can be shown again: this is
        one tap after a reload instead of New code table by table. The old
        codes stop joining; a phone that has joined already plays on.
        """

        def renew() -> int:
            self.codes = reissue_codes(self.service, self.token, self.event_id)
            self.qr_shown = set(self.codes)
            return len(self.codes)

        return self._do(
            renew,
            lambda count: (
                f"{count} {'table has' if count == 1 else 'tables have'} a new code, shown with its QR code: "
                "the codes given before no longer join (phones already at their tables play on); "
                "print the table cards again if you printed them."
            ),
        )

    def cards(self) -> bytes | None:
        """The round's table cards as PDF bytes (a page a table); codes this page lacks are issued first.

        None, with the sentence why, when there is no round in play (or the
        service refuses the new codes).
        """
        self.message = None
        if not self.round_open():
            self.message = "There is no round in play to print table cards for: pair the next round first."
            return None
        reissued = bool(self.missing_codes())
        if reissued and not self.codes_back():
            return None
        pdf = table_cards(str(self.info.get("name", "")), self.round, self.codes, self.table_link)
        count = len([t for t in self.round.tables if not t.bye])
        self.message = f"Table cards for round {self.round.number}: {count} pages." + (
            " Every table has a new code on its card (the codes given before no longer join)." if reissued else ""
        )
        return pdf

    def table_link(self, number: int, code: str) -> str | None:
        """The address a phone opens to join table ``number`` with ``code`` (through the server's door), if any."""
        del number  # the code starts with the table's number
        path = f"/event/{self.event_id}/table?" + urllib.parse.urlencode({"code": code})
        return page_link(path)

    def lock(self, reason: str = "") -> bool:
        """Lock the current round (a reason lets it lock with a table unfinished)."""
        return self._do(
            lambda: self.service.lock_round(self.token, self.event_id, reason=reason.strip() or None),
            "Round locked: its table codes no longer work.",
        )

    def new_code(self, table: int) -> bool:
        """A new code for a table (the old one stops working)."""

        def renew() -> None:
            self.codes[table] = self.service.new_code(self.token, self.event_id, table)

        return self._do(
            renew, lambda _none: f"{self._versus(table, first=True)} has a new code; the old one no longer joins."
        )

    def correct(self, table: int, reason: str) -> bool:
        """Take back a table's last settlement or entry, with the reason (audited)."""
        line = next((t for t in self.round.tables if t.number == table), None) if self.round is not None else None
        if line is None or line.match_id is None:
            self.message = f"There is no table {table} to correct in this round."
            return False
        match_id, versus = line.match_id, line.versus
        return self._do(
            lambda: self.service.correct(self.token, self.event_id, match_id, reason=reason, undo=True),
            f"Table {table} corrected ({versus}): its hand is provisional until confirmed again.",
        )

    def resettle(self, table: int, remaining: str, reason: str) -> bool:
        """Settle table ``table``'s last settled hand again: ``remaining`` as typed ("12, 0"), with the reason.

        The service reads the figures and the engine checks them before
        anything is written; the hand then waits for its confirmation again.
        """
        if not (remaining or "").strip():
            self.message = 'Type what each seat still held, in seat order: pips or tiles, such as "12, 0".'
            return False
        return self._do(
            lambda: self.service.resettle(self.token, self.event_id, table, remaining=remaining, reason=reason),
            lambda done: words_of(done.summary),
        )

    def forfeit(self, table: int, losers: str, reason: str) -> bool:
        """Give a forfeit at a table: ``losers`` names who forfeits (names or numbers, separated by commas)."""
        names = [n.strip() for n in (losers or "").split(",") if n.strip()]
        if not names:
            self.message = "Type who forfeits: a name or entrant number (several separated by commas)."
            return False
        return self._do(
            lambda: self.service.forfeit(self.token, self.event_id, table, names, reason=reason),
            lambda given: f"Table {table} forfeited by {', '.join(given.loser_names)}: the others score a forfeit win.",
        )

    def withdraw(self, entrant: str) -> bool:
        """Withdraw an entrant (name or number) from the next round to be paired on; their results stay."""
        text = (entrant or "").strip()
        if not text:
            self.message = "Type who withdraws: a name or an entrant number."
            return False
        who = self._name_of(text)
        return self._do(
            lambda: self.service.withdraw(self.token, self.event_id, text),
            lambda number: f"{who} withdrawn: not paired from round {number} on; their results stay.",
        )

    def forbid(self, first: str, second: str, reason: str) -> bool:
        """Keep two entrants (names or numbers) from ever sitting at one table, with the reason."""
        a, b = (first or "").strip(), (second or "").strip()
        if not a or not b:
            self.message = "Type the two entrants to keep apart: names or numbers."
            return False
        return self._do(
            lambda: self.service.forbid(self.token, self.event_id, a, b, reason),
            f"{self._name_of(a)} and {self._name_of(b)} will never be paired at one table.",
        )

    def swap(self, first: str, second: str, reason: str) -> bool:
        """Re-seat the round in play with ``first`` and ``second`` swapped (one may have the bye), with the reason.

        The service re-pairs by hand (before the round's first hand only) and
        issues every table a new code, which replaces those held here.
        """
        if self.round is None:
            self.message = "There is no round to re-seat: pair one first."
            return False
        swapped = {first: second, second: first}
        seated = [[swapped.get(n, n) for n in t.names] for t in self.round.tables if not t.bye]
        return self._repair(seated, reason, f"{first} and {second} swap seats")

    def repair(self, tables: str, reason: str) -> bool:
        """Re-seat the round in play by hand, before its first hand: "Ann,Bob; Cy,Dee" (seat order).

        Anyone active left out has a bye. The service issues every table a
        new code (the old ones stop working): they replace the codes shown.
        """
        seated = parse_tables(tables)
        if not seated:
            self.message = 'Type the tables in seat order, such as "Ann,Bob; Cy,Dee".'
            return False
        return self._repair(seated, reason, "")

    def _repair(self, seated: list[list[str]], reason: str, what: str) -> bool:
        def repair() -> Any:
            view = self.service.repair(self.token, self.event_id, seated, reason=reason)
            self.codes = dict(view.codes)
            # The QR codes shown were the old codes' (they no longer work): open the new ones.
            self.qr_shown = set(self.codes)
            return view

        def said(view: Any) -> str:
            byes = [t.names[0] for t in view.tables if t.bye]
            rest = f" ({', '.join(byes)} {'has' if len(byes) == 1 else 'have'} a bye)" if byes else ""
            how = f" ({what})" if what else ""
            return f"Round {view.number} re-paired by hand{how}: give each table its new code{rest}."

        return self._do(repair, said)

    def unforfeit(self, table: int, reason: str) -> bool:
        """Take back a forfeit given by mistake at a table of the round in play, with the reason."""
        versus = self._versus(table)
        return self._do(
            lambda: self.service.unforfeit(self.token, self.event_id, table, reason=reason),
            f"The forfeit at {versus} is taken back: the table plays on and its hands count.",
        )

    def reopen(self, reason: str) -> bool:
        """Reopen the latest round after its lock, before the next is paired, with the reason."""
        return self._do(
            lambda: self.service.reopen_round(self.token, self.event_id, reason=reason),
            lambda number: (
                f"Round {number} reopened: its table codes work again; lock it again before pairing the next round."
            ),
        )

    def _name_of(self, ref: str) -> str:
        """An entrant's name from a name or entrant number as typed (the text itself when nobody matches)."""
        try:
            return self.service.entrant(self.token, self.event_id, ref).name
        except (TournamentError, StoreError):
            return ref.strip()


def signed_in_desk(creation: Creation) -> Desk:
    """The new event's director's desk, already signed in (after ``Creation.create``).

    Raises ``TournamentError`` when no event has been created on the page.
    """
    if creation.event_id is None or creation.token is None:
        raise TournamentError("no event has been created on this page")
    desk = Desk(creation.service, creation.event_id, source=creation.source)
    desk.token = creation.token
    desk.load()
    desk.message = "Event created: register the players, then pair round 1."
    return desk
