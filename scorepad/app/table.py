"""The view-model of one match at the table: taps in, engine state out.

Plain Python, no Flet. Every tap becomes an engine event that the store
validates and saves before anything changes; every number drawn is read from
the engine's ``MatchState``. Refusals are kept as ``message`` in the engine's
own words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorepad.app.readings import (
    board_of,
    consequence,
    highest_call,
    named,
    picture_of,
    sentence,
    sheet_of,
    trial,
)
from scorepad.app.views import (
    Board,
    CallPanel,
    GameResult,
    Picture,
    RenegePreview,
    SeatView,
    SettlementView,
    Sheet,
    SideView,
    TileKey,
)
from scorepad.rules import (
    Draw,
    HandState,
    MatchState,
    Muggins,
    Pass,
    Play,
    Renege,
    SniffError,
    full_set,
)
from scorepad.rules.layout import Layout
from scorepad.store import StoreConflict, StoreError

PLAY, SETTLE, HAND_OVER, GAME_OVER, NO_HAND = "play", "settle", "hand-over", "game-over", "no-hand"


class Table:
    """One match being scored: the engine's state, read through the store, plus what the scorer is doing.

    ``store`` is a ``scorepad.store.Store``; ``device`` names this screen in the
    store's audit log; ``on_saved(match_id, device)`` is told of every entry
    saved, so other screens on the same match can show it.
    """

    def __init__(
        self,
        store: Any,
        match_id: Any,
        *,
        device: str = "app",
        on_saved: Callable[[Any, str], None] | None = None,
    ) -> None:
        self.store = store
        self.match_id = match_id
        self.device = device
        self.on_saved = on_saved
        self.state: MatchState = store.load(match_id, device=device)
        self.message: str | None = None
        self.pending: tuple[int, int] | None = None
        self.call_hidden = False
        self.breakdown_open = False
        self.renege_open = False
        self.offender: int | None = None
        self.remaining_text: dict[int, str] = {}
        self.remaining_tiles: dict[int, list[str]] = {}
        self.settle_seat: int | None = None
        self.next_setter_choice: int | None = None

    # -- reading: the match -------------------------------------------------------

    @property
    def hand(self) -> HandState | None:
        """The latest hand, finished or not."""
        return self.state.current

    @property
    def rules(self) -> Any:
        """The match's RuleSet."""
        return self.state.rules

    @property
    def phase(self) -> str:
        """What the table is doing: ``play``, ``settle``, ``hand-over``, ``game-over`` or ``no-hand``."""
        hand = self.hand
        if hand is None:
            return NO_HAND
        if hand.how == "in-progress":
            return PLAY
        if hand.needs_settlement:
            return SETTLE
        return GAME_OVER if hand.winner() is not None else HAND_OVER

    def player(self, seat: int) -> str:
        """The name of the player in ``seat``."""
        return self.state.players[seat]

    def title(self) -> str:
        """A heading for the table: the rules, the game and the hand."""
        hand = self.hand
        where = f"game {hand.game}, hand {hand.number}" if hand else f"game {self.state.game}"
        return f"{self.rules.name.capitalize()} to {self.rules.target} · {where}"

    def board(self) -> Board:
        """The board count, its breakdown and the Sniff's stage."""
        return board_of(self._layout())

    def sides(self) -> list[SideView]:
        """Each side's score, start-of-hand score and the points it still needs."""
        hand, rules = self.hand, self.rules
        scores = hand.scores_after if hand else self.state.scores
        start = hand.scores_before if hand else tuple(self.state.scores)
        turn_side = rules.side_of(hand.turn) if hand and hand.how == "in-progress" else None
        return [
            SideView(
                side=side,
                names=self.state.side_name(side),
                score=scores[side],
                start=start[side],
                needed=max(0, rules.target - scores[side]),
                to_move=side == turn_side,
            )
            for side in range(rules.sides)
        ]

    def seats(self) -> list[SeatView]:
        """Each player: tiles held and whether it is their turn."""
        hand, rules = self.hand, self.rules
        return [
            SeatView(
                seat=seat,
                name=self.player(seat),
                side=rules.side_of(seat),
                tiles_held=hand.tiles_held[seat] if hand else rules.tiles_each,
                to_move=bool(hand and hand.how == "in-progress" and hand.turn == seat),
            )
            for seat in range(rules.players)
        ]

    def turn_words(self) -> str:
        """Whose turn it is, in words (or how the hand stands when nobody is to move)."""
        hand = self.hand
        if hand is None:
            return "no hand yet: choose who sets"
        if hand.how == "in-progress":
            verb = "to set" if not hand.started else "to play"
            return f"{self.player(hand.turn)} {verb}"
        return self.end_words()

    def boneyard_words(self) -> str:
        """The boneyard count, the protected tiles and what may be drawn now."""
        hand = self.hand
        if hand is None:
            return ""
        words = f"Boneyard {hand.boneyard}"
        if hand.protected:
            words += f" ({hand.protected} protected)"
        if hand.how == "in-progress" and hand.started:
            words += f" · may draw {hand.drawable}"
        return words

    def tiles(self) -> list[TileKey]:
        """Every tile of the set for the picker, the played ones marked."""
        hand = self.hand
        played = hand.played if hand else set()
        chosen = {t for seat_tiles in self.remaining_tiles.values() for t in seat_tiles}
        return [
            TileKey(low=a, high=b, played=(a, b) in played, chosen=f"{a}-{b}" in chosen)
            for a, b in full_set(self.rules.max_pip)
        ]

    def picture(self) -> Picture:
        """The layout as pieces in rows: the line left to right, then the Sniff's short arms."""
        return picture_of(self._layout())

    def end_choices(self) -> list[str]:
        """The ends the pending tile fits, when it fits more than one (otherwise empty)."""
        if self.pending is None:
            return []
        return self._layout().fits(self.pending)

    # -- reading: calls, renege, the end ----------------------------------------

    def call_panel(self) -> CallPanel | None:
        """The call panel for the last play, while it can still be corrected (before the next tile)."""
        hand = self.hand
        if hand is None or not hand.events or not isinstance(hand.events[-1], Play):
            return None
        last = hand.last_play
        if last is None or last.is_set:
            return None
        if self.call_hidden and not (last.flags or hand.claim_open):
            return None
        played = hand.events[-1]
        # records.md §4: a play without "call" was called exactly right.
        called = last.score if played.call is None else played.call
        rules = self.rules
        claimants: tuple[int, ...] = ()
        if hand.claim_open:
            own = rules.side_of(last.seat)
            claimants = tuple(s for s in range(rules.players) if rules.side_of(s) != own)
        return CallPanel(
            seat=last.seat,
            player=self.player(last.seat),
            board_count=last.board_count,
            score=last.score,
            call=called,
            recorded=last.recorded,
            flags=last.flags,
            consequence=consequence(last, called, calls_required=rules.calls_required, claim_open=hand.claim_open),
            can_fix=bool(last.flags) and "corrected" not in last.flags,
            calls=tuple(range(5, highest_call(rules.max_pip) + 5, 5)),
            claimants=claimants,
        )

    def renege_preview(self) -> RenegePreview | None:
        """What a renege by the chosen offender would do, worked out by the engine on a copy."""
        if self.offender is None or self.hand is None:
            return None
        copy = trial(self.state)
        try:
            copy.apply(Renege(self.offender))
        except SniffError as err:
            return RenegePreview(self.offender, self.player(self.offender), (), (), str(err))
        hand = copy.current
        assert hand is not None
        now = tuple(self.hand.scores_after)
        after = tuple(hand.scores_after)
        side = self.rules.side_of(self.offender)
        if hand.how == "renege":
            others = [s for s in range(self.rules.sides) if s != side]
            kept = "; ".join(f"{copy.side_name(s)} keeps {after[s]}" for s in others)
            words = (
                f"The hand stops. {copy.side_name(side)} goes back to {hand.scores_before[side]}"
                f" (start of hand) less 25 = {after[side]}; {kept}, with no go-out or block award."
            )
        else:
            words = f"Play goes on; {copy.side_name(side)} loses 50 when the hand ends."
        return RenegePreview(self.offender, self.player(self.offender), now, after, words)

    def end_words(self) -> str:
        """How the hand ended, in words."""
        hand = self.hand
        if hand is None:
            return ""
        if hand.how == "out":
            return f"{self.player(hand.went_out)} went out"
        if hand.how == "blocked":
            return "The hand is blocked"
        if hand.how == "renege":
            return f"Renege by {self.player(hand.renege_by)}: the hand stopped"
        if hand.how == "won":
            return f"{self.state.side_name(hand.won_side)} reached {self.rules.target}"
        if hand.how == "void":
            return "The hand was thrown in"
        return "In play"

    def settlement(self) -> SettlementView | None:
        """The end of the hand: how it ended and, once settled, the rounding and award step by step."""
        hand = self.hand
        if hand is None or hand.how == "in-progress":
            return None
        steps: tuple[str, ...] = ()
        if hand.settlement is not None:
            steps = tuple(self._named(step) for step in hand.settlement.steps)
        elif hand.how == "renege":
            preview_side = self.rules.side_of(hand.renege_by)
            steps = (
                f"{self.state.side_name(preview_side)}: {hand.scores_before[preview_side]} at the start"
                f" of the hand, less 25 = {hand.scores_after[preview_side]}",
            )
        after = tuple(hand.scores_after)
        scores = ", ".join(f"{self.state.side_name(s)} {after[s]}" for s in range(self.rules.sides))
        words = ". ".join([self.end_words(), *(sentence(step) for step in steps), f"Scores: {scores}"]) + "."
        return SettlementView(how=hand.how, words=words, steps=steps, scores_after=after)

    def settle_preview(self) -> str | None:
        """The settlement the entered remainders would make, worked out by the engine on a copy."""
        remaining = self.remaining_entry()
        if remaining is None:
            return None
        copy = trial(self.state)
        try:
            settled = copy.settle(remaining)
        except SniffError as err:
            return str(err)
        return "; ".join(self._named(step) for step in settled.steps)

    def game_result(self) -> GameResult | None:
        """The game just won: winner, final scores, game points and Rube."""
        hand = self.hand
        if hand is None or hand.winner() is None:
            return None
        result = self.state.games()[-1]
        names = self.state.side_name(result.winner)
        scores = ", ".join(f"{self.state.side_name(s)} {result.scores[s]}" for s in range(self.rules.sides))
        words = f"{names} won game {result.number}. Final scores: {scores}."
        if result.game_points is not None:
            words += f" Game points: {result.game_points}."
            rubed = [self.state.side_name(s) for s in result.rubed or ()]
            words += f" Rubed: {', '.join(rubed)}." if rubed else " No Rube."
        return GameResult(
            game=result.number,
            winner=result.winner,
            winner_names=names,
            scores=result.scores,
            game_points=result.game_points,
            rubed=tuple(result.rubed or ()),
            words=words,
        )

    def next_setter_words(self) -> str:
        """Who sets the next hand and why, as the rules give it."""
        nxt = self.state.next_setter()
        if nxt.default is not None:
            return f"{self.player(nxt.default)} sets next: {nxt.reason}"
        return f"Choose who sets next: {nxt.reason}"

    def setter_choices(self) -> list[int]:
        """The seats that may set the next hand when the rules leave the choice open (else empty)."""
        nxt = self.state.next_setter()
        if nxt.default is not None:
            return []
        return sorted(nxt.allowed) if nxt.allowed is not None else list(range(self.rules.players))

    def sheet(self) -> Sheet:
        """The score sheet: every hand with each side's start and end scores."""
        return sheet_of(self.state)

    def remaining_entry(self) -> list[list[str] | int] | None:
        """Each seat's remaining tiles (tapped) or pip total (typed), or None while one is missing."""
        hand = self.hand
        if hand is None:
            return None
        entry: list[list[str] | int] = []
        for seat in range(self.rules.players):
            tiles = self.remaining_tiles.get(seat)
            typed = self.remaining_text.get(seat, "").strip()
            if tiles:
                entry.append(list(tiles))
            elif typed:
                if not typed.isdigit():
                    return None
                entry.append(int(typed))
            elif hand.tiles_held[seat] == 0:
                entry.append(0)
            else:
                return None
        return entry

    # -- taps ------------------------------------------------------------------

    def tap_tile(self, low: int, high: int) -> None:
        """The scorer tapped tile ``low-high``: lay it, ask which end, or list it as remaining."""
        self.message = None
        hand = self.hand
        if hand is None:
            self.message = "Start a hand first: choose who sets."
            return
        if self.phase == SETTLE and self.settle_seat is not None:
            self._toggle_remaining(low, high)
            return
        if not hand.started:
            # The set lies as written, low value on the left (records.md §3).
            self._append(Play(f"{low}-{high}"))
            return
        ends = hand.layout.fits((low, high))
        if len(ends) > 1 and (low, high) not in hand.played and hand.how == "in-progress":
            self.pending = (low, high)
            return
        at = ends[0] if len(ends) == 1 else None
        self._append(Play(f"{low}-{high}", at=at))

    def choose_end(self, at: str) -> None:
        """Lay the pending tile at ``at`` (left, right, up or down)."""
        if self.pending is None:
            return
        low, high = self.pending
        self._append(Play(f"{low}-{high}", at=at))

    def cancel_pending(self) -> None:
        """Forget the tile waiting for an end."""
        self.pending = None

    def draw(self) -> None:
        """The player to move drew one tile."""
        self._append(Draw(1))

    def pass_turn(self) -> None:
        """The player to move passed."""
        self._append(Pass())

    def undo(self) -> None:
        """Take back the last entry (the store keeps the removal in its audit log)."""
        self._step(self.store.undo)

    def redo(self) -> None:
        """Put back the entry taken back last."""
        self._step(self.store.redo)

    def toggle_breakdown(self) -> None:
        """Show or hide where the board count comes from."""
        self.breakdown_open = not self.breakdown_open

    def open_call(self) -> None:
        """Show the call panel again after hiding it."""
        self.call_hidden = False

    def close_call(self) -> None:
        """Hide the call panel (the call stands as entered)."""
        self.call_hidden = True

    def call(self, called: int | None) -> None:
        """Record what the last player called: None = the right score, 0 = nothing, else the number."""
        hand = self.hand
        if hand is not None and hand.last_play is not None and called == hand.last_play.score:
            called = None  # records.md §4: a call of exactly the score is written without "call"
        self._replace_last_play(call=called, fix=False)

    def fix_call(self) -> None:
        """The miscall was corrected before the next tile: the right score is recorded."""
        hand = self.hand
        if hand is None or not hand.events or not isinstance(hand.events[-1], Play):
            return
        self._replace_last_play(call=hand.events[-1].call, fix=True)

    def claim_muggins(self, seat: int) -> None:
        """Muggins: ``seat`` claims the score the last player did not call."""
        self._append(Muggins(seat))

    def start_renege(self) -> None:
        """Begin proving a renege: the scorer picks the offender next."""
        self.message = None
        self.renege_open = True
        self.offender = None

    def pick_offender(self, seat: int) -> None:
        """Choose who reneged; the preview shows the rollback before it is applied."""
        self.offender = seat

    def confirm_renege(self) -> None:
        """Apply the renege previewed."""
        if self.offender is None:
            self.message = "Pick who reneged first."
            return
        if self._append(Renege(self.offender)):
            self.renege_open = False
            self.offender = None

    def cancel_renege(self) -> None:
        """Close the renege panel without applying anything."""
        self.renege_open = False
        self.offender = None

    def set_remaining_text(self, seat: int, text: str) -> None:
        """The scorer typed seat ``seat``'s remaining pip total."""
        self.remaining_text[seat] = text
        if text.strip():
            self.remaining_tiles.pop(seat, None)

    def pick_settle_seat(self, seat: int | None) -> None:
        """Tiles tapped from now on are listed as seat ``seat``'s remaining tiles (None: stop)."""
        self.settle_seat = seat

    def settle(self) -> None:
        """Settle the hand with the remainders entered."""
        self.message = None
        remaining = self.remaining_entry()
        if remaining is None:
            self.message = "Enter every seat's remaining pips (or tap its tiles) first."
            return
        if self._step(lambda mid, device: self.store.settle(mid, remaining, device=device)):
            self.remaining_text.clear()
            self.remaining_tiles.clear()
            self.settle_seat = None

    def choose_next_setter(self, seat: int) -> None:
        """Name the next setter where the rules leave the choice to the players."""
        self.next_setter_choice = seat

    def next_hand(self) -> None:
        """Start the next hand (or the next game) with the setter the rules give."""
        setter = self.state.next_setter().default
        if setter is None:
            setter = self.next_setter_choice
        if setter is None:
            self.message = self.next_setter_words()
            return
        if self._step(lambda mid, device: self.store.start_hand(mid, setter=setter, device=device)):
            self.next_setter_choice = None

    # -- internals ---------------------------------------------------------------

    def _named(self, text: str) -> str:
        return named(self.state, text)

    def _layout(self) -> Layout:
        hand = self.hand
        if hand is None:
            return Layout(sniff_rule=self.rules.sniff, long_sides_first=self.rules.long_sides_first)
        return hand.layout

    def _append(self, event: Any) -> bool:
        return self._step(lambda mid, device: self.store.append(mid, event, device=device))

    def _step(self, action: Callable[..., MatchState]) -> bool:
        """Run one store action; on refusal keep the engine's sentence and change nothing."""
        self.message = None
        try:
            self.state = action(self.match_id, device=self.device)
        except SniffError as err:
            self.message = sentence(self._named(str(err)))
            return False
        except StoreConflict:
            self.state = self.store.load(self.match_id, device=self.device)
            self.message = "The match changed on another screen and was reloaded: enter that again if still needed."
            return False
        except StoreError as err:
            self.message = sentence(str(err))
            return False
        self.pending = None
        self.call_hidden = False
        if self.on_saved is not None:
            self.on_saved(self.match_id, self.device)
        return True

    def refresh(self) -> None:
        """Show the match as stored now (another screen has entered something)."""
        self.state = self.store.load(self.match_id, device=self.device)
        self.pending = None

    def _replace_last_play(self, *, call: int | None, fix: bool) -> None:
        hand = self.hand
        if hand is None or not hand.events or not isinstance(hand.events[-1], Play):
            self.message = "A call can only be changed before the next tile is entered."
            return
        old = hand.events[-1]
        new = Play(tile=old.tile, at=old.at, call=call, fix=fix, by=old.by)
        if new == old:
            return
        if not self._step(self.store.undo):
            return
        if not self._append(new):
            refusal = self.message
            self._step(self.store.redo)
            self.message = refusal

    def _toggle_remaining(self, low: int, high: int) -> None:
        seat = self.settle_seat
        assert seat is not None
        name = f"{low}-{high}"
        listed = self.remaining_tiles.setdefault(seat, [])
        if name in listed:
            listed.remove(name)
            return
        for other in self.remaining_tiles.values():
            if name in other:
                other.remove(name)
        listed.append(name)
        self.remaining_text.pop(seat, None)
