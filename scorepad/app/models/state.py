"""The app's view-model: which screen is shown, the new-match form, and the match at the table.

Plain Python, no Flet: tests drive it directly. The rules come from
``scorepad.rules`` and every match lives in the store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorepad.access import Caller
from scorepad.app.models.dispute import Dispute
from scorepad.app.models.matchbook import MatchBook
from scorepad.app.models.ports import PageStore
from scorepad.app.models.table import Table
from scorepad.rules import (
    PRESETS,
    SniffError,
    find_preset,
    first_setter,
    full_set,
    make_ruleset,
    parse_tile,
)
from scorepad.rules.first_setter import METHOD_WORDS
from scorepad.rules.presets import typed_target
from scorepad.store import Store, StoreError, UnknownMatch
from scorepad.store.ids import parse_match_id
from scorepad.store.matches import checked_names, label_match

HOME, NEW, TABLE, SHEET, HISTORY = "home", "new", "table", "sheet", "history"
DISPUTE = "dispute"  # the Dispute screen (scorepad.app.models.dispute)
DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Di")


@dataclass
class FirstSetterDraw:
    """The optional helper that finds who sets first from the tiles drawn (or the highest doubles).

    ``tiles`` holds what was entered for each seat; ``picking`` is the seat whose
    tile is being tapped in the helper's picker; ``result`` is the engine's answer
    and ``error`` its reason for refusing the entries.
    """

    open: bool = False
    tiles: list[str] = field(default_factory=lambda: [""] * len(DEFAULT_NAMES))
    picking: int | None = None
    result: str | None = None
    error: str | None = None


@dataclass
class NewMatchForm:
    """The choices for a new match; the defaults (smartt, two players, seat 0 sets) start at once."""

    rules: str = "smartt"
    players: int = 2
    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    setter: int = 0
    target: str = ""
    muggins: bool = False
    partners: bool | None = None
    double_nine: bool = False
    label: str = ""
    # The renege procedure (``presets.renege_choices``): None is the book's own.
    renege: str | None = None
    draw: FirstSetterDraw = field(default_factory=FirstSetterDraw)

    @property
    def max_pip(self) -> int:
        """The highest pip of the set these choices play with (6, or 9 with double-nine)."""
        return 9 if self.double_nine else 6

    def options(self) -> dict[str, Any]:
        """The record options (records.md §1) these choices make; preset defaults are left out."""
        opts = self._book_options()
        # The engine reads what was typed (ASCII digits only, within its limit) and says why not:
        # raises RecordFormatError.
        target = typed_target(self.target)
        if target is not None:
            opts["target"] = target
        return opts

    def book_target(self) -> int:
        """The target the book gives these choices when none is typed (for the form's label).

        Choices that cannot go together (``describe`` says why) fall back to the book's plain target.
        """
        try:
            return make_ruleset(self.rules, self.players, self._book_options()).target
        except SniffError:
            return make_ruleset(self.rules, self.players, {}).target

    def _book_options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {}
        if self.renege is not None:
            opts["renege"] = self.renege
        if self.muggins:
            opts["muggins"] = True
        if self.players == 4 and self.partners is not None:
            opts["partners"] = self.partners
        if self.double_nine:
            opts["set"] = "double-nine"
        return opts

    def seated(self) -> list[str]:
        """The names of the players taking part, in seat order (blank names become Player N)."""
        return [(self.names[i].strip() or f"Player {i + 1}") for i in range(self.players)]

    def describe(self) -> str:
        """The rules these choices give, in one line (or why they cannot go together)."""
        try:
            rules = make_ruleset(self.rules, self.players, self.options())
        except SniffError as err:
            return str(err)
        words = rules.summary()
        if rules.partners:
            names = self.seated()
            words += f" · {names[0]} & {names[2]} against {names[1]} & {names[3]}"
        return words


class ScorePad:
    """The whole app for one screen: home, new match, the table, the score sheet, history.

    ``store`` is the shared ``scorepad.store.Store``, which the page uses
    through its own ``PageStore``; ``caller`` is who writes from this screen
    (``scorepad.access``: the door checks it at every write), its ``view``
    naming the screen in the store.
    """

    def __init__(self, store: Store, *, caller: Caller) -> None:
        # The page's own store: the shell makes it follow the page's live screen, and revokes it if the page dies.
        self.store = PageStore(store)
        self.caller = caller
        self.device = caller.view or "app"
        self.screen = HOME
        self.form = NewMatchForm()
        self.table: Table | None = None
        self.message: str | None = None
        self.on_saved: Callable[[Any, str], None] | None = None
        self.book = MatchBook(self.store, caller=caller)
        self.dispute: Dispute | None = None

    # -- reading ---------------------------------------------------------------

    @property
    def route(self) -> str:
        """The page address for what is shown, so a reload comes back to it."""
        if self.table is not None and self.screen in (TABLE, SHEET):
            suffix = "/sheet" if self.screen == SHEET else ""
            return f"/match/{self.table.match_id}{suffix}"
        if self.dispute is not None and self.screen == DISPUTE:
            return self.dispute.route
        return {NEW: "/new", HISTORY: "/history"}.get(self.screen, "/")

    def matches(self) -> list[Any]:
        """Every match in the store, newest first (the store's MatchSummary values)."""
        return list(self.store.list_matches())

    def latest_unfinished(self) -> Any | None:
        """The most recent match still being played, if any."""
        for summary in self.matches():
            if _unfinished(summary):
                return summary
        return None

    # -- navigation --------------------------------------------------------------

    def go_home(self) -> None:
        """Back to the home screen."""
        self.message = None
        self.screen = HOME

    def new_match(self) -> None:
        """Open the new-match form afresh: the rules, the player count and the names stay as last
        chosen (the same table often plays on); every option, the target, who sets, the label and
        the draw for the set start from their defaults (issue 19: they carried over)."""
        self.message = None
        last = self.form
        self.form = NewMatchForm(rules=last.rules, players=last.players, names=list(last.names))
        self.screen = NEW

    def show_history(self) -> None:
        """List every match in the store."""
        self.message = None
        self.screen = HISTORY

    def show_sheet(self) -> None:
        """Show the score sheet of the match at the table."""
        if self.table is not None:
            self.screen = SHEET

    def show_table(self) -> None:
        """Back to the table from the score sheet."""
        if self.table is not None:
            self.screen = TABLE

    def show(self, page: str, match: str | None = None) -> None:
        """Show the page the router found at an address (``scorepad.app.shell.router``), as on a reload.

        ``page`` is ``home``, ``new``, ``history``, ``match``, ``sheet`` or
        ``dispute``; ``match`` is the match's id as the address writes it (an
        id no match can have is said in a sentence, on the home screen).
        """
        if page in ("match", "sheet") and match is not None:
            self.open_match(_match_id(match))
            if self.table is not None and page == "sheet":
                self.screen = SHEET
        elif page == "dispute" and match is not None:
            self.open_dispute(_match_id(match))
        elif page == "new":
            self.new_match()
        elif page == "history":
            self.show_history()
        else:
            self.go_home()

    # -- form --------------------------------------------------------------------

    def choose_rules(self, name: str) -> None:
        """Pick the preset: smartt, american or jaques."""
        if name in PRESETS:
            if name != self.form.rules:
                self.form.draw.result = self.form.draw.error = None
                self.form.renege = None  # each book offers its own procedures, its own first
            self.form.rules = name

    def choose_players(self, count: int) -> None:
        """Pick two, three or four players; the setter stays a seat that exists."""
        if count in (2, 3, 4):
            if count != self.form.players:
                self.form.draw.result = self.form.draw.error = None
                self.form.draw.picking = None
            self.form.players = count
            self.form.setter = min(self.form.setter, count - 1)

    def name_player(self, seat: int, name: str) -> None:
        """Name the player in ``seat``."""
        self.form.names[seat] = name

    def choose_setter(self, seat: int) -> None:
        """Pick who sets the first hand."""
        if 0 <= seat < self.form.players:
            self.form.setter = seat

    # -- who sets first: the draw for the set (Smartt §3.1) or the highest double (Jaques) --

    def draw_title(self) -> str:
        """The helper's name under the chosen rules."""
        return METHOD_WORDS[find_preset(self.form.rules).first_setter].title

    def draw_how(self) -> str:
        """What the scorer enters in the helper, in one sentence."""
        return METHOD_WORDS[find_preset(self.form.rules).first_setter].how

    def toggle_draw(self) -> None:
        """Open or close the helper (closing keeps what was entered)."""
        self.form.draw.open = not self.form.draw.open
        self.form.draw.picking = None

    def enter_drawn(self, seat: int, text: str) -> None:
        """Type the tile ``seat`` drew; an earlier answer no longer applies."""
        draw = self.form.draw
        draw.tiles[seat] = text
        draw.result = draw.error = None

    def pick_drawn_seat(self, seat: int | None) -> None:
        """Tap tiles for ``seat`` in the helper's picker (None: stop tapping)."""
        self.form.draw.picking = seat if seat is None or 0 <= seat < self.form.players else None

    def drawn_tiles(self) -> list[tuple[int, int]]:
        """Every tile of the set, for the helper's picker."""
        return list(full_set(self.form.max_pip))

    def tap_drawn_tile(self, low: int, high: int) -> None:
        """The tapped tile is the one the picking seat drew; move on to the next seat without one."""
        draw = self.form.draw
        if draw.picking is None:
            return
        self.enter_drawn(draw.picking, f"{high}-{low}")
        empty = [s for s in range(self.form.players) if not draw.tiles[s].strip()]
        later = [s for s in empty if s > draw.picking]
        # The next seat after this one still without a tile, else the first; none left: nobody picks.
        waiting = later or empty
        draw.picking = waiting[0] if waiting else None

    def decide_first_setter(self) -> None:
        """Ask the engine who sets first from the tiles entered; its answer selects that seat.

        The scorer may still pick another setter. Refused entries show the
        engine's reason and change nothing.
        """
        form, draw = self.form, self.form.draw
        entered = [draw.tiles[s].strip() for s in range(form.players)]
        try:
            answer = first_setter(make_ruleset(form.rules, form.players, form.options()), entered)
        except SniffError as err:
            draw.result, draw.error = None, self._whose(entered, str(err))
            return
        draw.picking = None
        if answer.seat is None:
            draw.result, draw.error = None, answer.reason
            return
        form.setter = answer.seat
        # The engine's reason may open with who sets ("seat 1 sets: ..."): said once, by name.
        name = form.seated()[answer.seat]
        reason = answer.reason.removeprefix(f"seat {answer.seat} sets: ").replace(f"seat {answer.seat}", name)
        draw.result = f"{name} sets first: {reason}"
        draw.error = None

    def _whose(self, entered: list[str], sentence: str) -> str:
        """The engine's sentence, naming the first player whose entry it cannot read."""
        for seat, text in enumerate(entered):
            try:
                parse_tile(text, self.form.max_pip)
            except SniffError:
                return f"{self.form.seated()[seat]}: {sentence}"
        return sentence

    # -- matches -----------------------------------------------------------------

    def start_match(self) -> None:
        """Create the match in the store, start its first hand, and go to the table."""
        self.message = None
        form = self.form
        try:
            make_ruleset(form.rules, form.players, form.options())
            # Names trimmed, at most 40 characters, no two alike (case aside); one sentence if not.
            players = checked_names(form.seated())
            match_id = self.store.create_match(
                rules=form.rules, options=form.options(), players=players, caller=self.caller
            )
            if form.label.strip():
                label_match(self.store.shared, match_id, form.label, caller=self.caller)
            self.store.start_hand(match_id, setter=form.setter, caller=self.caller)
        except (SniffError, StoreError) as err:
            self.message = str(err)
            return
        self.open_match(match_id)

    def resume_latest(self) -> None:
        """Go back to this device's last match (never another table's, however recent)."""
        mine = self.book.resumable()
        if mine is None:
            self.message = "This device has no match to resume: start a new one, or open one from History."
            return
        self.open_match(mine.id)

    def match_saved_elsewhere(self, match_id: Any, device: str) -> bool:
        """Another screen saved an entry in ``match_id``; returns whether this screen must redraw."""
        if self.table is None or self.table.match_id != match_id or device == self.device:
            return False
        self.table.refresh()
        return self.screen in (TABLE, SHEET)

    def open_match(self, match_id: Any) -> None:
        """Load a match from the store and show its table."""
        try:
            if not isinstance(match_id, int):
                raise UnknownMatch(match_id)
            self.table = Table(self.store, match_id, caller=self.caller, on_saved=self.on_saved)
        except UnknownMatch:
            self.message = f"There is no match {match_id} in this score-pad."
            self.table = None
            self.screen = HOME
            return
        self.message = None
        self.screen = TABLE
        self.book.opened(match_id)

    def open_dispute(self, match_id: Any) -> None:
        """Open a stored match on the Dispute screen, at its first event."""
        try:
            self.dispute = Dispute.from_store(self.store, match_id, device=self.device)
        except UnknownMatch:
            self.message = f"There is no match {match_id} in this score-pad."
            self.screen = HOME
            return
        except SniffError as err:
            self.message = str(err)
            return
        self.message = None
        self.screen = DISPUTE

    def open_record(self, text: str | bytes, name: str) -> None:
        """Open a record file (sniff-record/1) on the Dispute screen; one sentence if it cannot be read."""
        try:
            self.dispute = Dispute.from_record(text, name=name)
        except SniffError as err:
            self.message = f"{name}: {err}"
            return
        self.message = None
        self.screen = DISPUTE


def _unfinished(summary: Any) -> bool:
    return summary.status != "finished"


def _match_id(text: str) -> Any:
    # Only an id the database can hold reaches the store (issue 11 §2: /match/99999999999999999999).
    try:
        return parse_match_id(text)
    except UnknownMatch:
        return text
