"""The tournament's web screens as plain Python: the director's desk, a table device, the hall, a spectator.

No Flet here. Every action goes through ``scorepad.tournament.TournamentService``
with the caller's own credential (the director's token from the password, a
table's token from its code, ``None`` for the hall and spectators, who only
read), so the server refuses what a role may not do whatever the page shows.
A table device writes through its page's store as ``DeviceStore``: the
store's door checks its table credential at every write, and the service
the round's flow before a new hand (``TournamentService.check_next_hand``).
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from scorepad.access import Caller
from scorepad.app.models.limits import SlidingLimit
from scorepad.app.models.ports import MatchStore
from scorepad.app.models.state import NewMatchForm
from scorepad.rules import PRESETS, Event, RecordFormatError, SniffError, make_ruleset, narrate
from scorepad.rules.wording import sentence
from scorepad.store import MatchSnapshot, Store, StoreError
from scorepad.store.log import Entry as LogEntry
from scorepad.store.log import fold
from scorepad.store.replay import rebuild
from scorepad.store.repository import MatchHeader
from scorepad.tournament import TournamentService
from scorepad.tournament.access import PASSWORD_MIN
from scorepad.tournament.errors import TournamentError
from scorepad.tournament.events import PAIRINGS, UNITS
from scorepad.tournament.kinds import KINDS, Kind
from scorepad.tournament.pairing import ROUND_ROBIN_MAX

# The store's writes a table device makes (Table calls them); each is checked first.
# A table code is the table's number, a dash and six letters ("3-K7QM2X"): a longer one is no code.
TABLE_DIGITS = 6
TABLE_CODE_MAX = TABLE_DIGITS + 1 + 6
TABLE_CODE_SHAPE = "A table code is the table's number, a dash and six letters, such as 3-K7QM2X."
# The hall's pages, in the order they rotate.
HALL_PAGES = ("tables", "names", "standings", "results")
# Seconds each hall page is shown before the next.
HALL_SECONDS = 12.0
# A spectator's default delay, in seconds, and the most allowed.
WATCH_DELAY = 0.0
WATCH_DELAY_MAX = 600.0

# Keyed by the store itself (weakly): a store closed and another opened never share a service.
_services: weakref.WeakKeyDictionary[Store, TournamentService] = weakref.WeakKeyDictionary()
_services_lock = threading.Lock()


def service_for(store: Store) -> TournamentService:
    """The one ``TournamentService`` of ``store`` in this process (its result cache is shared by pages)."""
    with _services_lock:
        service = _services.get(store)
        if service is None:
            service = _services[store] = TournamentService(store)
        return service


# The most digits an event number can have (2**62, the largest, has 19). Checked before int(): Python
# refuses to convert a number of more than 4,300 digits (a ValueError), and a page must never die of it.
# The store's bounded integer parser (issue 17) is to take the place of this check once it lands.
EVENT_ID_DIGITS = 19
# What a page whose address names an event number no event can have says.
NO_SUCH_EVENT = "There is no event with that number: check the page's address."
NO_SUCH_TABLE = "There is no table with that number: check the page's address."
# The most digits a table number has in an address.
TABLE_ADDRESS_DIGITS = 5


def event_number(text: str | None) -> int | None:
    """An event number as an address writes it (``/event/12/hall``: ``"12"``), or None if no event can have it.

    ASCII digits only (``'²'.isdigit()`` is true), and checked by length
    before ``int()``: a number of thousands of digits never reaches it.
    """
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > EVENT_ID_DIGITS:
        return None
    number = int(text)
    return number if 0 < number <= 2**62 else None


def table_number(text: str | None) -> int | None:
    """A table number as an address writes it (``/event/12/watch/3``: ``"3"``, at most 5 digits), or None."""
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > TABLE_ADDRESS_DIGITS:
        return None
    return int(text)


def query_value(route: str, name: str) -> str | None:
    """The value of ``name`` in the route's query string, or None."""
    if "?" not in (route or ""):
        return None
    for part in route.split("?", 1)[1].split("&"):
        key, _, value = part.partition("=")
        if key == name:
            return value
    return None


def words_of(said: BaseException | str) -> str:
    """One plain sentence of a refusal, or of the service's own words (a summary in lower case, unstopped)."""
    text = sentence(str(said)) or "That was refused."
    return text if text.endswith((".", "!", "?")) else text + "."


class DeviceStore:
    """A table device's store (``MatchStore``): the round's flow checked before a new hand, the rest passed on.

    Who may write to the match is the store's door's to say, at each write
    (the page's caller is this table's credential); what the round allows
    next (this table has played its games for the round) is the service's,
    asked before a new hand as on every other route. A refusal comes out as
    a ``StoreError`` so the table screen says it in one sentence, as it does
    any refused write.
    """

    def __init__(self, store: MatchStore, device: TableDevice) -> None:
        self._store = store
        self._device = device

    def load(self, match_id: int, *, device: str | None = None) -> MatchSnapshot:
        """The match now (``MatchStore.load``)."""
        return self._store.load(match_id, device=device)

    def start_hand(
        self, match_id: int, setter: int | None = None, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """A new hand, if the round allows this table one. Raises ``StoreError`` (the round's refusal included)."""
        try:
            self._device.check_next_hand(match_id)
        except TournamentError as err:
            raise StoreError(words_of(err)) from err
        return self._store.start_hand(match_id, setter, caller=caller, expected_revision=expected_revision)

    def append(
        self, match_id: int, event: Event | dict[str, Any], *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """An entry of the hand (``MatchStore.append``)."""
        return self._store.append(match_id, event, caller=caller, expected_revision=expected_revision)

    def settle(
        self, match_id: int, remaining: Any, *, caller: Caller, expected_revision: int | None = None
    ) -> MatchSnapshot:
        """The hand's settlement (``MatchStore.settle``)."""
        return self._store.settle(match_id, remaining, caller=caller, expected_revision=expected_revision)

    def amend(
        self,
        match_id: int,
        event: Event | dict[str, Any] | None,
        *,
        caller: Caller,
        expected_revision: int | None = None,
    ) -> MatchSnapshot:
        """The last entry replaced (``MatchStore.amend``)."""
        return self._store.amend(match_id, event, caller=caller, expected_revision=expected_revision)

    def undo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot:
        """The last entry taken back (``MatchStore.undo``)."""
        return self._store.undo(match_id, caller=caller, expected_revision=expected_revision)

    def redo(self, match_id: int, *, caller: Caller, expected_revision: int | None = None) -> MatchSnapshot:
        """The entry taken back put again (``MatchStore.redo``)."""
        return self._store.redo(match_id, caller=caller, expected_revision=expected_revision)


@dataclass(frozen=True)
class TableLine:
    """One table of the round as a screen shows it."""

    number: int
    names: tuple[str, ...]
    bye: bool
    match_id: int | None
    state: str
    provisional: bool
    code: str | None = None
    # The sides in words ("Ann & Cy v Bob & Dee" for partners at a four-player table).
    versus: str = ""


def table_state_words(view: Any) -> tuple[str, bool]:
    """How far a table is ("2 hands finished, 1 confirmed; provisional") and whether it is provisional."""
    if view.bye:
        return "bye", False
    if view.forfeit is not None:
        return f"forfeited by {', '.join(view.forfeit.loser_names)} ({view.forfeit.reason})", False
    result = view.result
    if result is None or result.hands_played == 0:
        return "not started", False
    words = f"{result.hands_played} played, {result.hands_finished} finished, {result.hands_confirmed} confirmed"
    if result.provisional:
        waiting = result.hands_finished - result.hands_confirmed
        words += f"; provisional ({waiting} to confirm)"
    return words, result.provisional


def table_lines(round_view: Any, codes: dict[int, str] | None = None) -> list[TableLine]:
    """The round's tables and byes as lines, with the codes the director holds."""
    out = []
    for view in round_view.tables:
        words, provisional = table_state_words(view)
        out.append(
            TableLine(
                number=view.number,
                names=tuple(view.names),
                bye=view.bye,
                match_id=view.match_id,
                state=words,
                provisional=provisional,
                code=(codes or {}).get(view.number),
                versus=view.versus,
            )
        )
    return out


def parse_tables(text: str) -> list[list[str]]:
    """Tables as typed for a re-pairing, "Ann,Bob; Cy,Dee" (a line break also ends a table): names in seat order."""
    out = []
    for part in (text or "").replace("\n", ";").split(";"):
        names = [name.strip() for name in part.split(",") if name.strip()]
        if names:
            out.append(names)
    return out


NO_FIGURES = "nothing confirmed yet"


def has_figures(view: Any) -> bool:
    """Whether a table has played a hand to its end (before that, zero figures would read as a result of nil-all)."""
    return view.result is not None and view.result.hands_finished > 0


def result_words(view: Any) -> str:
    """A table's figures: "Ann 4 gp, 1 game, spread +31 - Bob 0 gp ..." (confirmed hands only)."""
    result = view.result
    if view.bye:
        return f"{view.names[0]}: bye"
    if view.forfeit is not None:
        forfeit = view.forfeit
        return (
            f"{view.versus}: forfeited by {', '.join(forfeit.loser_names)} ({forfeit.reason});"
            f" the others score a forfeit win"
        )
    if not has_figures(view):
        return f"{view.versus}: {NO_FIGURES}"
    parts = []
    for index, name in enumerate(view.names):
        side = view.side_of(index)
        figure = f"{side.game_points} gp, " if result.game_points else ""
        parts.append(f"{name} {figure}{side.games_won} won, spread {side.spread:+d}")
    text = " - ".join(parts)
    if result.provisional:
        text += " (provisional: a hand waits for its confirmation)"
    return text


def standing_words(line: Any, game_points: bool) -> str:
    """One line of the standings as the screens show it."""
    place = f"={line.place}" if line.shared else f"{line.place}"
    figures = f"{line.game_points} gp, " if game_points else ""
    # " (withdrawn from round 3)", " (provisional)": the service's marks, the same on every list of standings.
    mark = line.marks
    return f"{place}. {line.name}: {figures}{line.games_won} won, spread {line.spread:+d}{mark}"


@dataclass(frozen=True)
class BoardData:
    """One reading of an event for a board: its settings, latest round, standings, and when the reads began."""

    info: dict[str, Any]
    round: Any
    standings: list[Any]
    loaded_at: float
    # The round's matches as they stand now, by match id (the hall's live scores; empty for the others).
    live: dict[int, Any] = field(default_factory=dict)
    # The event's audit, oldest first (the director's desk; empty for the others).
    audit: list[Any] = field(default_factory=list)


class Board:
    """What everyone may read of an event: its round, tables, standings, audit (hall, spectators, director)."""

    def __init__(self, service: TournamentService, event_id: int, token: str | None = None) -> None:
        self.service = service
        self.event_id = event_id
        self.token = token
        self.info: dict[str, Any] = {}
        self.round: Any = None
        self.standings: list[Any] = []
        self.message: str | None = None
        self.loaded_at = 0.0
        self.live: dict[int, Any] = {}

    def load(self) -> None:
        """Read the event, its latest round and the standings again. Raises ``TournamentError`` for no event."""
        self.show(self.read())

    def read(self) -> BoardData:
        """Read what ``load`` reads, without changing the board (a page may read in a worker thread).

        Raises ``TournamentError`` for no event.
        """
        started = time.monotonic()
        info = self.service.event_info(self.token, self.event_id)
        try:
            round_ = self.service.round_view(self.token, self.event_id)
        except TournamentError:
            round_ = None
        standings = self.service.standings(self.token, self.event_id)
        # When the reads began: whatever was committed before is in what the board shows now.
        return BoardData(info, round_, standings, started)

    def show(self, data: BoardData) -> None:
        """Show what ``read`` read."""
        self.info, self.round, self.standings, self.loaded_at = data.info, data.round, data.standings, data.loaded_at
        self.live = data.live

    def match_ids(self) -> list[int]:
        """The matches of the round shown (the screens follow them live)."""
        if self.round is None:
            return []
        return [t.match_id for t in self.round.tables if t.match_id is not None]

    def title(self) -> str:
        """The event's name and round."""
        name = self.info.get("name", f"event {self.event_id}")
        if self.round is None:
            return f"{name}: no round paired yet"
        locked = ", locked" if self.round.locked else ""
        return f"{name}: round {self.round.number} of {self.info.get('rounds')}{locked}"

    def tables(self) -> list[TableLine]:
        """The round's tables."""
        return table_lines(self.round) if self.round is not None else []

    def by_name(self) -> list[str]:
        """Everyone of the round in alphabetical order with their table: "Ann: table 2 (v Bob)"."""
        if self.round is None:
            return []
        out = []
        for view in self.round.tables:
            for name in view.names:
                mine = next(team for team in view.teams if name in team)
                partners = [n for n in mine if n != name]
                others = [n for team in view.teams if team != mine for n in team]
                with_ = f"with {' & '.join(partners)} " if partners else ""
                where = "bye" if view.bye else f"table {view.number} ({with_}v {', '.join(others)})"
                out.append((name.casefold(), f"{name}: {where}"))
        return [line for _key, line in sorted(out)]

    def standing_lines(self) -> list[str]:
        """The standings, one line each."""
        points = bool(self.info.get("game_points"))
        return [standing_words(s, points) for s in self.standings]

    def results(self) -> list[str]:
        """Each table's confirmed figures this round."""
        if self.round is None:
            return []
        return [f"Table {v.number}: {result_words(v)}" for v in self.round.tables]

    def last_round(self) -> bool:
        """The round shown is the event's last."""
        return self.round is not None and self.round.number >= int(self.info.get("rounds") or 0)


@dataclass(frozen=True)
class HallTable:
    """One table of the round as the hall shows it: the sides, and while it plays its score and hand."""

    number: int
    # One a side: "Ann", or "Ray & Ned" for partners at a four-player table.
    sides: tuple[str, ...]
    # The running score of the game in play, a side each (empty before the first hand and for a bye).
    scores: tuple[int, ...]
    # How far the table is: "hand 2 in play", "hand 2 to settle", "not started", "bye", "forfeit".
    hand: str
    # Games won so far in the round, a side each (empty until one is won).
    games: tuple[int, ...]
    bye: bool
    provisional: bool

    @property
    def line(self) -> str:
        """The table in one line: "Table 1: Ann v Bob", "Table 5: Ivy, bye"."""
        if self.bye:
            return f"Table {self.number}: {' & '.join(self.sides)}, bye"
        return f"Table {self.number}: {' v '.join(self.sides)}"


def hand_words(view: Any, state: Any) -> str:
    """How far a table has come, for the hall: "hand 2 in play", "hand 2 to settle", "hand 2 played"."""
    if view.bye:
        return "bye"
    if view.forfeit is not None:
        return "forfeit"
    hand = state.current if state is not None else None
    if hand is None:
        return "not started"
    if hand.needs_settlement:
        return f"hand {hand.number} to settle"
    if not hand.finished:
        return f"hand {hand.number} in play"
    result = view.result
    waiting = 0 if result is None else result.hands_finished - result.hands_confirmed
    return f"hand {hand.number} played" + (f", {waiting} to confirm" if waiting else "")


def game_scores(state: Any) -> str:
    """The finished games' final scores: "games 121-86, 61-70" (empty before a game ends)."""
    games = state.games() if state is not None else []
    if not games:
        return ""
    return "games " + ", ".join("-".join(str(score) for score in game.scores) for game in games)


class Hall(Board):
    """The hall screen: the board in rotating pages; standings can be hidden in the last round.

    Besides the board, the hall reads each table's match as it stands
    (``live``), so a table in play shows its score and hand at once: all of
    them in one read of the store (``Store.load_many``).
    """

    def __init__(self, service: TournamentService, event_id: int, *, hide_last: bool = False) -> None:
        super().__init__(service, event_id, None)
        self.hide_last = hide_last
        self.index = 0
        self.picked = False  # a page picked by a tap stays through the next turn of the rotation

    def read(self) -> BoardData:
        """The board's reading and every table's match as it stands. Raises ``TournamentError``, ``StoreError``."""
        data = super().read()
        if data.round is None:
            return data
        # One transaction for the round's matches, not one a table (issue 16: most of the hall's read
        # of 100 tables went to a transaction a match).
        playing = [view.match_id for view in data.round.tables if view.match_id is not None]
        return replace(data, live=self.service.store.load_many(playing))

    def pages(self) -> list[str]:
        """The pages shown in turn (standings left out in the last round when asked)."""
        if self.hide_last and self.last_round():
            return [p for p in HALL_PAGES if p != "standings"]
        return list(HALL_PAGES)

    def page(self) -> str:
        """The page shown now."""
        pages = self.pages()
        return pages[self.index % len(pages)]

    def rotate(self) -> None:
        """Show the next page (a page just picked by a tap is kept through this turn)."""
        if self.picked:
            self.picked = False
            return
        self.index = (self.index + 1) % len(self.pages())

    def pick_page(self, page: str) -> None:
        """Show ``page`` now, as a tap on its name asks; the rotation goes on from it. One not shown is ignored."""
        pages = self.pages()
        if page in pages:
            self.index = pages.index(page)
            self.picked = True

    def hall_tables(self) -> list[HallTable]:
        """The round's tables and byes with their live scores and hands."""
        if self.round is None:
            return []
        out = []
        for view in self.round.tables:
            state = self.live.get(view.match_id) if view.match_id is not None else None
            won = [game.winner for game in state.games()] if state is not None else []
            sides = len(view.teams)
            out.append(
                HallTable(
                    number=view.number,
                    sides=tuple(" & ".join(team) for team in view.teams),
                    scores=tuple(state.scores) if state is not None and state.hands else (),
                    hand=hand_words(view, state),
                    games=tuple(won.count(side) for side in range(sides)) if won else (),
                    bye=view.bye,
                    provisional=view.result is not None and view.result.provisional,
                )
            )
        return out

    def name_rows(self) -> list[tuple[str, str]]:
        """Everyone of the round in alphabetical order with where they play: ("Ann", "table 2"), ("Ivy", "bye")."""
        if self.round is None:
            return []
        rows = [
            (name, "bye" if view.bye else f"table {view.number}") for view in self.round.tables for name in view.names
        ]
        return sorted(rows, key=lambda row: (row[0].casefold(), row[0]))

    def standing_columns(self) -> tuple[str, ...]:
        """The standings table's column heads (game points only where the event counts them)."""
        points = ("GP",) if self.info.get("game_points") else ()
        return ("#", "Name", *points, "Won", "Spread", "Opp", "Rounds")

    def standing_rows(self) -> list[tuple[str, ...]]:
        """The standings, a row each, in the columns of ``standing_columns``; a provisional figure is starred."""
        points = bool(self.info.get("game_points"))
        rows = []
        for line in self.standings:
            place = f"={line.place}" if line.shared else str(line.place)
            withdrawn = " (withdrawn)" if line.withdrawn else ""
            name = line.name + withdrawn + (" *" if line.provisional else "")
            figures = (str(line.game_points),) if points else ()
            rows.append(
                (place, name, *figures, str(line.games_won), f"{line.spread:+d}", str(line.opponents), str(line.rounds))
            )
        return rows

    def working(self, index: int) -> tuple[str, tuple[str, ...]]:
        """The name and the working of the ``index``-th standing (how its figures were reached)."""
        line = self.standings[index]
        return line.name, tuple(line.working)

    def result_rows(self) -> list[tuple[str, str]]:
        """The round's results, a table each: ("Table 1: Ann v Bob", "Ann 4 gp, 1 won ... - games 121-86")."""
        rows = []
        for table in self.hall_tables():
            view = next(v for v in self.round.tables if v.number == table.number)
            if table.bye:
                rows.append((table.line, "no game this round"))
                continue
            if view.forfeit is None and not has_figures(view):
                rows.append((table.line, NO_FIGURES))  # the line names the sides already
                continue
            figures = result_words(view)
            scores = game_scores(self.live.get(view.match_id)) if view.forfeit is None else ""
            rows.append((table.line, f"{figures}; {scores}" if scores else figures))
        return rows


class TableDevice:
    """A phone at a table: it joins by its code, scores its own match, and has the opposing side confirm."""

    def __init__(self, service: TournamentService, event_id: int, *, source: str = "web") -> None:
        self.service = service
        self.event_id = event_id
        self.source = source
        self.token: str | None = None
        self.table_number: int | None = None
        self.match_id: int | None = None
        self.message: str | None = None
        # The hands the table has confirmed, as last read, by the finished hands they were read for.
        self._confirmed: tuple[tuple[Any, ...], int] | None = None

    def join(self, code: str) -> bool:
        """Join with a table code; False with the reason in ``message`` (wrong, expired, too many tries)."""
        self.message = None
        code = (code or "").strip().upper()
        if not code:
            self.message = "Type your table's code first."
            return False
        if len(code) > TABLE_CODE_MAX:
            # Checked before the service reads the number in it (see EVENT_ID_DIGITS).
            self.message = TABLE_CODE_SHAPE
            return False
        try:
            token = self.service.join_table(self.event_id, code, source=self.source)
            match_id, _state = self.service.table_match(token, self.event_id)
        except TournamentError as err:
            self.message = words_of(err)
            return False
        self.token, self.match_id = token, match_id
        head = code.split("-", 1)[0]
        self.table_number = int(head) if head.isascii() and head.isdigit() and len(head) <= TABLE_DIGITS else None
        return True

    def check_next_hand(self, match_id: int) -> None:
        """Whether the round allows this table a new hand (``DeviceStore``). Raises ``TournamentError``.

        The service checks the token (a table's own match, in the current
        round, not locked) and that the hand is within the round's games or
        hands; that reads this table alone, never the whole round.
        """
        self.service.check_next_hand(self.token, self.event_id, match_id)

    def caller(self, *, view: str) -> Caller:
        """This device's table credential as the door's caller, its page named ``view``. Raises ``TournamentError``."""
        if self.match_id is None:
            raise TournamentError("this table has no match to score: it is a bye")
        return replace(self.service.authorize_match(self.token, self.event_id, self.match_id), device=view)

    def guarded(self, store: MatchStore) -> DeviceStore:
        """``store`` with the round's check before a new hand (``DeviceStore``)."""
        return DeviceStore(store, self)

    def waiting(self, state: Any, *, kept: bool = False) -> list[int]:
        """The finished hands of ``state`` not yet confirmed as they stand (reads this table only).

        ``kept=True`` (the phone's confirmation bar, drawn at every entry):
        what was read last, while the finished hands are the very hands it
        was read for (the engine's snapshots share a finished hand from one
        entry to the next; a correction or a reload makes new ones) and
        ``forget`` has not been called; the page calls it when a hand was
        confirmed elsewhere. Checks before a write read afresh. Raises
        ``TournamentError`` (the code expired).
        """
        if self.token is None or self.table_number is None:
            return []
        finished = tuple(h for h in state.hands if h.finished)
        if not finished:
            return []  # nothing to confirm, whatever the table's result says
        numbers = [h.number for h in finished]
        if kept and self._confirmed is not None and _same(self._confirmed[0], finished):
            return numbers[self._confirmed[1] :]
        line = self.service.table_view(self.token, self.event_id)
        # No result yet: nothing of the table's waits for a confirmation.
        confirmed = len(finished) if line.result is None else line.result.hands_confirmed
        self._confirmed = (finished, confirmed)
        return numbers[confirmed:]

    def forget(self) -> None:
        """Read the table's confirmations afresh at the next ``waiting(kept=True)``."""
        self._confirmed = None

    def confirmers(self, state: Any, hand_number: int) -> list[str]:
        """The players who confirm a hand: the side(s) opposing the side that scored it."""
        scored = state.hands[hand_number - 1].scoring_side()
        return [name for seat, name in enumerate(state.players) if state.rules.side_of(seat) != scored]

    def confirm(self, state: Any, hand_number: int, *, view: str | None = None) -> bool:
        """The opposing side confirms ``hand_number`` on this device (its page ``view``, which redraws
        itself); False with the reason in ``message``."""
        self.message = None
        self.forget()
        names = self.confirmers(state, hand_number)
        try:
            self.service.confirm(
                self.token,
                self.event_id,
                self.table_number or 0,
                by=names[0] if names else "",
                hand=hand_number,
                device=view,
            )
        except TournamentError as err:
            self.message = words_of(err)
            return False
        self.message = f"Hand {hand_number} confirmed by {' & '.join(names)}."
        return True


def _same(these: tuple[Any, ...], those: tuple[Any, ...]) -> bool:
    """Whether two tuples hold the very same objects, in order."""
    return len(these) == len(those) and all(a is b for a, b in zip(these, those, strict=True))


class Watch:
    """A spectator following one table, ``delay`` seconds behind, with nothing hidden shown.

    The score-pad records only what is on the table (tiles played, draws
    counted, the settlement), so there is no hidden hand to leak; the delay
    keeps a spectator's page from helping a player during the play. The
    delay holds from the first drawing: a page opened during a hand starts
    at the table as it stood ``delay`` seconds ago, rebuilt from the match's
    log and the times its audit gives each entry (``history``), and shows
    each later entry once it is ``delay`` old.

    ``clock`` gives the time in seconds since the epoch (``time.time``): the
    audit's times are wall-clock times, and the delay is measured on the same clock.
    """

    def __init__(
        self,
        service: TournamentService,
        event_id: int,
        table: int,
        *,
        delay: float = WATCH_DELAY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.event_id = event_id
        self.table = table
        self.delay = max(0.0, min(WATCH_DELAY_MAX, delay))
        self.clock = clock
        self.match_id: int | None = None
        self.names: tuple[str, ...] = ()
        self.seen: list[tuple[float, Any]] = []

    def find(self) -> bool:
        """Find the table's match in the latest round; False if there is no such table or it is a bye.

        What the page shows first is the table as it stood ``delay`` seconds
        ago (``history``). Raises ``TournamentError`` (no event) and ``StoreError``.
        """
        view = self.service.round_view(None, self.event_id)
        line = next((t for t in view.tables if t.number == self.table), None)
        if line is None or line.match_id is None:
            return False
        self.match_id, self.names = line.match_id, tuple(line.names)
        self.seen = self.history()
        return True

    def history(self) -> list[tuple[float, Any]]:
        """The match's states of the last ``delay`` seconds, each with the moment it was entered.

        The first is the match as it stood ``delay`` seconds ago (dated then),
        the others follow each entry made since, the last being the match now.
        The store keeps no state but the latest, so the earlier ones are
        replayed from the log's entries as the audit lists them, one audit
        line an entry, in the order of their revisions. A match whose audit
        does not list every entry of its log (an imported one) starts at the
        match as it is now. Raises ``StoreError``.
        """
        now = self.clock()
        if self.match_id is None:
            return []
        store = self.service.store
        record, latest = store.record_and_state(self.match_id)
        if self.delay <= 0:
            return [(now, latest)]
        # Read after the state: the audit holds at least the entries behind it.
        audit = store.audit(self.match_id)
        lines = [a for a in audit if a.hand is not None and a.seq is not None and "kind" in a.detail]
        if len(lines) < latest.revision:
            return [(now, latest)]
        entries = [
            LogEntry(hand=a.hand, seq=a.seq, revision=k, kind=a.detail["kind"], payload=a.detail["payload"])
            for k, a in enumerate(lines[: latest.revision], 1)
            if a.hand is not None and a.seq is not None
        ]
        moments = [a.at.timestamp() for a in lines[: latest.revision]]
        cut = now - self.delay
        before = sum(1 for at in moments if at <= cut)
        header = MatchHeader(
            id=self.match_id,
            rules=record["rules"],
            options=dict(record["options"]),
            players=list(record["players"]),
            created_at=audit[0].at,
            finished_at=None,
            revision=before,
        )
        state = rebuild(header, fold(entries[:before])).seal(before)
        out: list[tuple[float, Any]] = [(cut, state)]
        for k in range(before, len(entries)):
            entry = entries[k]
            # As the store reloads: the hands before the one the entry changes are taken as they are.
            state = rebuild(
                replace(header, revision=k + 1),
                fold(entries[: k + 1]),
                base=state,
                from_hand=min(entry.hand, max(1, len(state.hands))),
            ).seal(k + 1)
            out.append((moments[k], state))
        return out

    def saw(self, now: float | None = None) -> None:
        """Read the match now and keep it to show once its delay has passed."""
        if self.match_id is None:
            return
        state = self.service.store.load(self.match_id)
        self.seen.append((self.clock() if now is None else now, state))
        # Keep the one that is shown and what comes after it.
        cut = self.shown_index(now)
        if cut > 0:
            del self.seen[:cut]

    def shown_index(self, now: float | None = None) -> int:
        """Index in ``seen`` of the newest state at least ``delay`` old (0 when none is yet)."""
        moment = (self.clock() if now is None else now) - self.delay
        index = 0
        for i, (at, _state) in enumerate(self.seen):
            if at <= moment:
                index = i
        return index

    def shown(self, now: float | None = None) -> Any:
        """The state to show now (the oldest kept, until the delay has passed for a newer one)."""
        if not self.seen:
            return None
        return self.seen[self.shown_index(now)][1]

    def next_due(self, now: float | None = None) -> float | None:
        """Seconds until a newer state is due to be shown, or None."""
        now = self.clock() if now is None else now
        index = self.shown_index(now)
        if index + 1 >= len(self.seen):
            return None
        return max(0.0, self.seen[index + 1][0] + self.delay - now)

    def title(self) -> str:
        """The page's title: the table, who plays there and how far behind ("Table 2: Ann v Bob (60 s behind)")."""
        delay = f" ({self.delay:g} s behind)" if self.delay else ""
        return f"Table {self.table}: {' v '.join(self.names)}{delay}"

    def lines(self, now: float | None = None) -> list[str]:
        """The shown state's hands, tile by tile, in the engine's own words."""
        state = self.shown(now)
        if state is None or not state.hands:
            return ["Nothing played yet."]
        out = []
        for hand in state.hands:
            out.append(f"Hand {hand.number}")
            out.extend(line.strip() for line in narrate.hand_lines(state, hand))
        scores = ", ".join(f"{state.side_name(side)} {score}" for side, score in enumerate(state.scores))
        out.append(f"Scores: {scores}")
        return out


# -- creating an event from the web (``/event/new``) -------------------------------------

# Events one client address may create within CREATE_WINDOW seconds, and all addresses
# together, in one server process: each costs rows and an argon2 hash.
CREATE_PER_ADDRESS = 5
CREATE_IN_ALL = 50
CREATE_WINDOW = 600.0
_creations = SlidingLimit(per_client=CREATE_PER_ADDRESS, in_all_max=CREATE_IN_ALL, window=CREATE_WINDOW)
# The text fields of the form (what the page may set by name).
EVENT_TEXT_FIELDS = frozenset({"name", "rounds", "per_round", "bye_points", "password", "again"})


def kind_words(kind: str) -> str:
    """A kind of event as its button says it, from the kind's table size: "Singles (2 a table)"."""
    return f"{kind.capitalize()} ({Kind(kind).table_size} a table)"


def pairing_words(pairing: str) -> str:
    """A pairing method as its button says it: "Round robin"."""
    return pairing.replace("-", " ").capitalize()


def whole_number(text: str, what: str) -> int:
    """``text`` as a whole number; raises ``TournamentError`` naming ``what`` when it is not one."""
    text = (text or "").strip()
    # ASCII digits only ('²'.isdigit() is true), and short: the service checks the range.
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise TournamentError(f"type {what} as a whole number, such as 3")
    return int(text)


@dataclass
class EventForm:
    """What a director types and chooses for a new event (text as typed; read when Create is tapped).

    ``match`` holds the rule preset and its options, as the New match screen
    does; its ``players`` follows the kind's table size.
    """

    name: str = ""
    match: NewMatchForm = field(default_factory=NewMatchForm)
    kind: str = "singles"
    rounds: str = "3"
    unit: str = "games"
    per_round: str = "1"
    pairing: str = "auto"
    bye_points: str = ""
    password: str = ""
    again: str = ""


class Creation:
    """The page that creates an event: the form, and on success the event's id and the director's token.

    Anyone who can open the score-pad may create an event (this computer, or
    a phone that has given the join code at the door); an event's powers are
    behind its own director password, so a new event gives none over
    another. ``limit`` holds one address to ``CREATE_PER_ADDRESS`` creations
    in ``CREATE_WINDOW`` seconds (per server process).
    """

    def __init__(
        self,
        service: TournamentService,
        *,
        source: str = "web",
        limit: SlidingLimit | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.source = source
        self.limit = limit if limit is not None else _creations
        self.clock = clock
        self.form = EventForm()
        self.message: str | None = None
        self.event_id: int | None = None
        self.token: str | None = None
        self.choose_kind(self.form.kind)

    # -- the choices, from the engine and the tournament service -------------------

    def presets(self) -> list[str]:
        """The rule presets, from the engine's registry."""
        return list(PRESETS)

    def kinds(self) -> list[str]:
        """The kinds of event the tournament service runs."""
        return [str(kind) for kind in KINDS]

    def units(self) -> list[str]:
        """What a round is counted in."""
        return list(UNITS)

    def pairings(self) -> list[str]:
        """The pairing methods the tournament service offers."""
        return list(PAIRINGS)

    def choose_rules(self, name: str) -> None:
        """Pick the rule preset."""
        if name in PRESETS:
            self.form.match.rules = name

    def choose_kind(self, kind: str) -> None:
        """Pick the kind; the rules are then checked for its table size (a partnership event plays partners)."""
        if kind in KINDS:
            self.form.kind = kind
            self.form.match.players = Kind(kind).table_size
            self.form.match.partners = True if Kind(kind).partnerships else None

    def choose_unit(self, unit: str) -> None:
        """Count a round in games or in hands."""
        if unit in UNITS:
            self.form.unit = unit

    def choose_pairing(self, pairing: str) -> None:
        """Pick the pairing method."""
        if pairing in PAIRINGS:
            self.form.pairing = pairing

    def enter(self, name: str, text: str) -> bool:
        """Keep what was typed in the text field ``name`` (one of ``EVENT_TEXT_FIELDS``).

        A refusal shown from the last Create is dropped, as the form is being mended: True when
        there was one (the form is then drawn again without it).
        """
        if name in EVENT_TEXT_FIELDS:
            setattr(self.form, name, text or "")
        said, self.message = self.message is not None, None
        return said

    # -- words -----------------------------------------------------------------------

    def summary(self) -> str:
        """The rules these choices give at one table, in the engine's words (or why they cannot go together)."""
        match = self.form.match
        try:
            return make_ruleset(match.rules, match.players, match.options()).describe()
        except SniffError as err:
            return str(err)

    def pairing_help(self) -> str:
        """What the pairing choices mean, in one line."""
        return (
            f"Auto: a round robin for 2 to {ROUND_ROBIN_MAX} entrants when the rounds fit one cycle and nobody"
            " is kept apart (nobody joins after round 1), Swiss otherwise (late entries join from the next round);"
            " tables of three and four are seated by score bands."
        )

    def password_words(self) -> str:
        """The password's heading, with the service's rule."""
        return f"The director's password ({PASSWORD_MIN} characters or more)"

    # -- creating ----------------------------------------------------------------------

    def create(self) -> bool:
        """Create the event and sign its director in; False with one sentence in ``message``, nothing created.

        The service checks everything it stores (name, kind, rounds, rules and
        options by the engine, the password's rule) and keeps the password
        only as its argon2 hash.
        """
        self.message = None
        form = self.form
        try:
            wait = self.limit.wait_seconds(self.source, self.clock())
            if wait > 0:
                raise TournamentError(f"too many events created from here; try again in {int(wait) + 1} s")
            rounds = whole_number(form.rounds, "the number of rounds")
            per_round = whole_number(form.per_round, f"the {form.unit} a round")
            bye = whole_number(form.bye_points, "a bye's points") if form.bye_points.strip() else None
            if form.password != form.again:
                raise TournamentError("the two passwords differ: type the same one twice")
            event_id = self.service.create_event(
                name=form.name,
                password=form.password,
                rounds=rounds,
                rules=form.match.rules,
                options=form.match.options(),
                kind=form.kind,
                unit=form.unit,
                per_round=per_round,
                pairing=form.pairing,
                bye_points=bye,
            )
            self.limit.count(self.source, self.clock())
            self.token = self.service.login_director(event_id, form.password, source=self.source)
        except (TournamentError, RecordFormatError) as err:
            # A typed target the engine refuses (presets.typed_target) is said like any other refusal.
            self.message = words_of(err)
            return False
        self.event_id = event_id
        form.password = form.again = ""
        return True
