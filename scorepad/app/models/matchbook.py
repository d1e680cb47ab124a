"""Matches that belong to someone, for one screen: this device's match, the history's filters,
labels, renames, and archive or delete with a confirmation.

Plain Python, no Flet: ``scorepad.app.models.state.ScorePad`` holds one ``MatchBook``.
The store does the work (``scorepad.store.matches``); this keeps what the
scorer is typing and asking, and turns a refusal into one sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from scorepad.access import Caller
from scorepad.app.models.ports import PageStore
from scorepad.rules.wording import sentence
from scorepad.store import StoreError, UnknownMatch
from scorepad.store.cli import series_text
from scorepad.store.matches import (
    MatchLine,
    TrashedMatch,
    archive_match,
    delete_match,
    label_match,
    match_label,
    match_lines,
    rename_player,
    restore_match,
    trashed_matches,
)
from scorepad.store.summary import FINISHED

ARCHIVE, DELETE = "archive", "delete"
STATUS_WORDS = {
    "new": "not started",
    "playing": "in play",
    "settling": "a hand to settle",
    "between-hands": "between hands",
    "finished": "finished",
}


@dataclass
class HistoryFilter:
    """What the history is filtered by: part of a label, part of a player's name, a day range (YYYY-MM-DD)."""

    label: str = ""
    player: str = ""
    since: str = ""
    until: str = ""
    archived: bool = False
    trash: bool = False


class MatchBook:
    """One screen's view of whose matches are whose.

    ``remembered`` is the match this device last had open (the page keeps it
    in the browser's storage and hands it over on load); Resume opens it and
    never another table's match. ``on_opened(match_id)`` is told of every
    match opened here, so the page can remember it.
    """

    def __init__(self, store: PageStore, *, caller: Caller) -> None:
        self.store = store
        self.caller = caller
        self.device = caller.view or "app"
        self.remembered: Any | None = None
        self.on_opened: Callable[[Any], None] | None = None
        self.filters = HistoryFilter()
        self.asking: tuple[str, int] | None = None
        self.message: str | None = None
        self.day_problem: str | None = None
        # What was saved ("Names saved."): news for the match it was said of, not a refusal.
        self.notice: str | None = None
        self.label_draft: str | None = None
        self.name_drafts: dict[int, str] = {}

    # -- this device's match -------------------------------------------------------

    def remember(self, match_id: Any) -> None:
        """The match this device last had open (from the browser's storage; a number or its text)."""
        if isinstance(match_id, str) and match_id.strip().isdigit():
            match_id = int(match_id)
        self.remembered = match_id if isinstance(match_id, int) and not isinstance(match_id, bool) else None

    def opened(self, match_id: Any) -> None:
        """A match was opened on this screen: it becomes this device's match."""
        self.remembered = match_id
        # What was said of the match open before is not said of this one (issue 19: "Names saved.").
        self.message = None
        self.notice = None
        self.label_draft = None
        self.name_drafts = {}
        if self.on_opened is not None:
            self.on_opened(match_id)

    def resumable(self) -> MatchLine | None:
        """This device's last match as the history lists it (None if none, or it was deleted)."""
        if self.remembered is None:
            return None
        for line in match_lines(self.store.shared, archived=None):
            if line.id == self.remembered:
                return line
        return None

    # -- the history ----------------------------------------------------------------

    def set_filter(self, name: str, text: str) -> None:
        """Type into one of the history's filters (``label``, ``player``, ``since``, ``until``)."""
        setattr(self.filters, name, text)

    def toggle_archived(self) -> None:
        """Show the archived matches instead of the others, or back."""
        self.filters.archived = not self.filters.archived
        self.filters.trash = False
        self.asking = None

    def toggle_trash(self) -> None:
        """Show the Trash (deleted matches, each with Restore) instead of the history, or back."""
        self.filters.trash = not self.filters.trash
        self.asking = None
        self.message = None

    def trashed(self) -> list[TrashedMatch]:
        """The matches in the Trash, the latest deleted first."""
        return trashed_matches(self.store.shared)

    def restore(self, match_id: int) -> None:
        """Take a match out of the Trash; the door's refusal (not the device that started it) is said in ``message``."""
        self.message = None
        try:
            restore_match(self.store.shared, match_id, caller=self.caller)
        except StoreError as err:
            self.message = sentence(str(err))
            return
        self.message = f"Match {match_id} is back in the history."

    def lines(self) -> list[MatchLine]:
        """The matches the filters let through, newest first; a day that cannot be read is said in ``day_problem``.

        Drawing the list leaves ``message`` alone: it holds what the last tap was told (a refused delete).
        """
        self.day_problem = None
        days: list[date | None] = []
        for which, text in (("from", self.filters.since), ("to", self.filters.until)):
            text = text.strip()
            if not text:
                days.append(None)
                continue
            try:
                days.append(date.fromisoformat(text))
            except ValueError:
                self.day_problem = f"The day {which} should be written like 2026-12-01, not {text!r}."
                days.append(None)
        return match_lines(
            self.store.shared,
            label=self.filters.label,
            player=self.filters.player,
            since=days[0],
            until=days[1],
            archived=self.filters.archived,
        )

    # -- archive and delete, each after a confirmation ------------------------------

    def ask(self, action: str, match_id: int) -> None:
        """Ask to archive, bring back, or delete a match; nothing happens before ``confirm``."""
        self.message = None
        self.asking = (action, match_id)

    def cancel(self) -> None:
        """Do not archive or delete after all."""
        self.asking = None

    def question(self) -> str | None:
        """The confirmation asked, naming the match, or None."""
        if self.asking is None:
            return None
        action, match_id = self.asking
        what = self._describe(match_id)
        if action == DELETE:
            return f"Delete {what}? It goes to the Trash for every device; Restore there brings it back."
        if self.filters.archived:
            return f"Bring {what} back into the history?"
        return f"Archive {what}? It leaves the history; tap Archived to see it again."

    def confirm(self) -> None:
        """Carry out the archive or delete asked for."""
        if self.asking is None:
            return
        action, match_id = self.asking
        self.asking = None
        try:
            if action == DELETE:
                delete_match(self.store.shared, match_id, caller=self.caller)
                if self.remembered == match_id:
                    self.remembered = None
            else:
                archive_match(self.store.shared, match_id, archived=not self.filters.archived, caller=self.caller)
        except UnknownMatch:
            self.message = "That match is no longer in this score-pad."
        except StoreError as err:
            self.message = sentence(str(err))

    # -- label and names of the match at the table -------------------------------------

    def label_of(self, match_id: int) -> str:
        """The label being edited, else the stored one ("" for none)."""
        if self.label_draft is not None:
            return self.label_draft
        try:
            return match_label(self.store.shared, match_id) or ""
        except UnknownMatch:
            return ""

    def save_label(self, table: Any) -> None:
        """Store the label typed for the match at the table."""
        self.message = self.notice = None
        if self.label_draft is None:
            return
        try:
            label_match(self.store.shared, table.match_id, self.label_draft, caller=self.caller)
        except StoreError as err:
            self.message = str(err)
            return
        self.label_draft = None
        self.notice = "Label saved."

    def name_of(self, table: Any, seat: int) -> str:
        """The name being typed for ``seat``, else the player's name."""
        return self.name_drafts.get(seat, table.player(seat))

    def save_names(self, table: Any) -> None:
        """Rename every player whose name was changed; a refused name is said and nothing more is renamed."""
        self.message = self.notice = None
        changed = {s: n for s, n in sorted(self.name_drafts.items()) if n.strip() != table.player(s)}
        if not changed:
            self.name_drafts = {}
            return
        # One seat at a time, each checked against the names stored (a swap needs a third name first).
        try:
            for seat, name in changed.items():
                rename_player(self.store.shared, table.match_id, seat, name, caller=self.caller)
        except StoreError as err:
            self.message = str(err)
            table.refresh()
            return
        self.name_drafts = {}
        table.refresh()
        if table.on_saved is not None:
            table.on_saved(table.match_id, self.device)
        self.notice = "Names saved."

    def _describe(self, match_id: int) -> str:
        for line in match_lines(self.store.shared, archived=None):
            if line.id == match_id:
                return describe(line)
        return f"match {match_id}"


def describe(line: MatchLine) -> str:
    """A match in a few words: its label, its players and how it stands."""
    summary = line.summary
    players = ", ".join(summary.players)
    head = f"{line.label}: {players}" if line.label else players
    return f"{head} ({STATUS_WORDS.get(summary.status, summary.status)})"


def line_words(line: MatchLine) -> str:
    """One history line: label, players, rules, day and time, status and scores."""
    summary = line.summary
    started = summary.started.strftime("%d %b %Y %H:%M")
    scores = "-".join(str(s) for s in summary.scores)
    status = STATUS_WORDS.get(summary.status, summary.status)
    game = f" · game {summary.game}" if summary.status != FINISHED and summary.game > 1 else ""
    head = f"{line.label} · " if line.label else ""
    # Smartt §14: the day's series so far, kept after Next game (the same cell as `scorepad matches`).
    won = any(summary.series.get("wins", ()))
    tail = f" · {series_text(summary.series)}" if won else ""
    words = f"{head}{', '.join(summary.players)} · {summary.rules.capitalize()} · {started} · {status}{game} · {scores}"
    return words + tail
