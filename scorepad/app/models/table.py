"""The view-model of one match at the table: taps in, engine state out.

Plain Python, no Flet. Every tap becomes an engine event that the store
validates and saves before anything changes; every number drawn is read from
the engine's ``MatchState``. Refusals are kept as ``message`` in the engine's
own words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from scorepad.access import Caller
from scorepad.analysis.table_words import table_words, training_hints
from scorepad.app.models.irregular import Irregularities
from scorepad.app.models.ports import MatchStore
from scorepad.app.models.readings import board_of, picture_of, sheet_of
from scorepad.app.models.views import (
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
from scorepad.app.models.words import hand_words
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
    parse_tile,
)
from scorepad.rules.choices import distinct_ends, end_choices, outcome
from scorepad.rules.hand import HandEnd, score_of
from scorepad.rules.layout import Layout
from scorepad.rules.previews import call_options, claimants, possible_calls, preview_event, preview_settlement
from scorepad.rules.tiles import pips
from scorepad.rules.wording import (
    call_consequence,
    correction_moment,
    deduction_lines,
    end_words,
    game_words,
    named,
    pending_words,
    rollback_step,
    sentence,
    settlement_steps,
    short_end_words,
)
from scorepad.store import StoreConflict, StoreError

PLAY, SETTLE, HAND_OVER, GAME_OVER, NO_HAND = "play", "settle", "hand-over", "game-over", "no-hand"
MAX_DIGITS = 4  # no hand holds 10 000 pips; a longer entry is a slip of the thumb
DRAW_STEPS = 9  # the largest count the draw stepper offers in one tap
STOOD_TAPS = 5  # the irregularities menu: open it, "tile stood", the end, the tile, Record it
log = logging.getLogger(__name__)


def plural(count: int, word: str) -> str:
    """``1 tile``, ``2 tiles``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def ends_to_ask(layout: Layout, tile: tuple[int, int]) -> list[str]:
    """The ends the page offers for ``tile``: one per different outcome; asked only when more than one."""
    return distinct_ends(layout, tile)


def draw_steps(hand: HandState) -> list[int]:
    """The counts of more than one tile that may be drawn now, as the stepper offers them (``draw-N``)."""
    if hand.how != "in-progress" or not hand.started:
        return []
    return list(range(2, min(hand.drawable, DRAW_STEPS) + 1))


def entry_taps(hand: HandState, event: Any) -> int:
    """How many taps the table screen needs to enter ``event`` into ``hand`` as it stands now.

    The same decisions as the taps below: a tile is one tap, plus one for the
    end when ``ends_to_ask`` offers more than one; a call entered exactly right
    needs no tap, any other call one (and ``fix`` one more) where calls count;
    one drawn tile is
    ``draw``, more are ``draw-more`` then ``draw-N`` (one more round per nine),
    or ``draw-2`` at once where two is all the stepper would offer;
    a tile that stood goes through the irregularities menu; a pass, a claim or a
    renege is one tap. For the benchmark (``benchmarks/app_bench.py``).
    """
    if isinstance(event, Play):
        if not hand.started:
            return 1
        if event.stands:
            return STOOD_TAPS
        tile = parse_tile(event.tile, hand.rules.max_pip)
        taps = 1 + (len(ends_to_ask(hand.layout, tile)) > 1)
        at = event.at or hand.layout.fits(tile)[0]
        # records.md §4: a call of exactly the score is the default, already shown as called. Where
        # calls are not required (American 'Score a placement') a miscall changes no number, so
        # entering it is optional and not counted.
        needed = hand.rules.calls_required or hand.rules.muggins
        if needed and event.call is not None and event.call != score_of(outcome(hand.layout, tile, at)[0]):
            taps += 1 + bool(event.fix)
        return taps
    if isinstance(event, Draw):
        if event.count == 1 or draw_steps(hand) == [2]:
            return 1  # ``draw``, or ``draw-2`` shown at once where two is the most (Smartt §8.1)
        return 1 + -(-event.count // DRAW_STEPS)
    return 1


class Table:
    """One match being scored: the engine's state, read through the store, plus what the scorer is doing.

    ``store`` answers ``MatchStore`` (the page's ``PageStore``, a table device's
    ``DeviceStore``, or the ``Store``); ``caller`` is who writes from this
    screen (the door checks it at every write; its ``view`` names the screen in
    the store); ``on_saved(match_id, device)`` is told of every entry saved, so
    other screens on the same match can show it; ``tournament`` marks a
    tournament table's match.
    """

    def __init__(
        self,
        store: MatchStore,
        match_id: int,
        *,
        caller: Caller,
        on_saved: Callable[[Any, str], None] | None = None,
        tournament: bool = False,
    ) -> None:
        self.store = store
        self.match_id = match_id
        self.caller = caller
        self.device = caller.view or "app"
        self.on_saved = on_saved
        self.state: MatchState = store.load(match_id, device=self.device)
        self.message: str | None = None
        # What another screen entered (``Entered on another screen: ...``): news, not a refusal, so it
        # is drawn in the plain style and goes with this screen's next tap.
        self.notice: str | None = None
        self.pending: tuple[int, int] | None = None
        self.call_hidden = False
        self.breakdown_open = False
        self.renege_open = False
        self.offender: int | None = None
        self.remaining_text: dict[int, str] = {}
        self.remaining_tiles: dict[int, list[str]] = {}
        self.settle_seat: int | None = None
        self.next_setter_choice: int | None = None
        self.draw_open = False
        # The screen's own memory of its last draw (``scorepad.app.screens.kept``), never read here:
        # it lives and goes with this page's view-model.
        self.kept: Any = None
        # Bumped with every change of what is shown: a tap drawn on an older screen is stale.
        self.revision = 0
        self.irregular = Irregularities(self)
        # The ruling of the muggins claim made on this screen, said while it is the last entry.
        self.claim_words: str | None = None
        # Strategy hints (issue 10): off until the scorer turns training on; never in a tournament
        # match (Smartt §12: nobody may suggest a play). A tournament's table device says ``tournament``.
        self.training = False
        self.tournament = tournament

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
        # Hands are numbered within their game ("game 2, hand 1"), not across the match.
        where = hand_words(self.state, hand) if hand else f"game {self.state.game}"
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
        return short_end_words(self.state, hand)

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

    def picker_rows(self) -> list[list[list[TileKey]]]:
        """The picker by suit, as players sort their own tiles: each row holds one or two suits.

        A tile sits in the suit of its higher value (6-6 ... 6-0, then 5-5 ... 5-0, ...),
        and short suits share a row (5s with the 0-0, 4s with the 1s, ...) so the
        double-six set fills four rows of seven.
        """
        keys = {(t.low, t.high): t for t in self.tiles()}
        top = self.rules.max_pip
        suits = {high: [keys[(low, high)] for low in range(high, -1, -1)] for high in range(top, -1, -1)}
        rows: list[list[list[TileKey]]] = [[suits[top]]]
        high, low = top - 1, 0
        while high > low:
            rows.append([suits[high], suits[low]])
            high, low = high - 1, low + 1
        if high == low:
            rows.append([suits[high]])
        return rows

    def picture(self) -> Picture:
        """The layout as pieces in rows: the line left to right, then the Sniff's short arms."""
        return picture_of(self._layout())

    def end_choices(self) -> list[str]:
        """The ends to choose from for the pending tile: one for each different outcome (else empty)."""
        if self.pending is None:
            return []
        return ends_to_ask(self._layout(), self.pending)

    def end_option_words(self, at: str) -> str:
        """What laying the pending tile at ``at`` makes, for its button: ``on the 3-3 · count 18``.

        The end is named by what lies there on the table, not by the picture's left or up.
        """
        if self.pending is None:
            return at
        named_ends = {choice.at: choice.words for choice in end_choices(self._layout(), self.pending)}
        return named_ends.get(at, at)

    # -- reading: calls, renege, the end ----------------------------------------

    def call_open(self) -> bool:
        """Whether the last play's call can still be changed or claimed.

        Until the next tile is entered (Smartt §7.2), which for the hand's last tile
        means until the settlement is entered or, after the winning tile, until the
        next game starts (records.md §4: a claim on the last tile comes before the
        settlement).
        """
        hand = self.hand
        if hand is None or not hand.events or not isinstance(hand.events[-1], Play):
            return False
        last = hand.last_play
        if last is None or last.is_set:
            return False
        return hand.how in ("in-progress", "won") or (hand.how == "out" and hand.settlement is None)

    def can_reopen_call(self) -> bool:
        """Whether the hidden call panel can be shown again (``call-reopen``)."""
        return self.call_hidden and self.call_open()

    def pending_end_words(self) -> str | None:
        """The hand's end while the call on its last tile can still change it, else None."""
        hand = self.hand
        if hand is None or hand.how not in ("out", "won") or not self.call_open():
            return None
        played = hand.events[-1]
        # call_open() saw a play last; a won hand names its side, a hand gone out its player.
        if not isinstance(played, Play):
            return None
        tile = played.tile
        if hand.how == "won" and hand.won_side is not None:
            # The side's own score, which may pass the target (as end_words says it).
            return (
                f"{self.state.side_name(hand.won_side)} reached {hand.scores_after[hand.won_side]} with {tile}."
                " Until the next"
                " game starts the call on it can still be changed, and the game's end follows from it."
            )
        if hand.went_out is None:
            return None
        claim = " or claimed" if self.rules.muggins else ""
        return (
            f"{self.player(hand.went_out)} went out with {tile}. The call on it can still be changed{claim}"
            " before the hand is settled."
        )

    def call_panel(self) -> CallPanel | None:
        """The call panel for the last play, while it can still be corrected and is not hidden."""
        hand = self.hand
        if hand is None or self.call_hidden or not self.call_open():
            return None
        last = hand.last_play
        assert last is not None
        played = hand.events[-1]
        if not isinstance(played, Play):  # call_open() saw a play last
            return None
        # records.md §4: a play without "call" was called exactly right.
        called = last.score if played.call is None else played.call
        rules = self.rules
        return CallPanel(
            seat=last.seat,
            player=self.player(last.seat),
            board_count=last.board_count,
            score=last.score,
            call=called,
            recorded=last.recorded,
            flags=last.flags,
            # The engine's words, citing the book in play (a Jaques game never cites Smartt).
            consequence=call_consequence(
                rules, last, called, claim_open=hand.claim_open, moment=correction_moment(hand)
            ),
            # A coupling that stood is no miscall: only a wrong call can be corrected (Smartt §7.2).
            can_fix=bool(set(last.flags) - {"stood"}) and "corrected" not in last.flags,
            calls=possible_calls(rules),
            claimants=claimants(self.state),
            options=tuple((option.call, option.label) for option in call_options(last)),
            moment=correction_moment(hand),
        )

    def renege_preview(self) -> RenegePreview | None:
        """What a renege by the chosen offender would do, worked out by the engine on a copy."""
        if self.offender is None or self.hand is None:
            return None
        preview = preview_event(self.state, Renege(self.offender))
        if preview.refusal is not None:
            return RenegePreview(self.offender, self.player(self.offender), (), (), preview.refusal)
        return RenegePreview(
            self.offender, self.player(self.offender), preview.scores_now, preview.scores_after, preview.words
        )

    def renege_pending_words(self) -> str | None:
        """While the hand goes on, a proved deduct50 renege still to come off (Smartt §11.1); None when nothing."""
        hand = self.hand
        return (pending_words(self.state, hand) or None) if hand is not None else None

    def end_words(self) -> str:
        """How the hand ended, in words."""
        hand = self.hand
        return "" if hand is None else end_words(self.state, hand)

    def settlement(self) -> SettlementView | None:
        """The end of the hand: how it ended and, once settled, the rounding and award step by step."""
        hand = self.hand
        if hand is None or hand.how == "in-progress":
            return None
        steps: tuple[str, ...] = ()
        if hand.settlement is not None:
            steps = tuple(settlement_steps(self.state, hand.settlement))
        elif hand.how == HandEnd.RENEGE:
            steps = (rollback_step(self.state, hand),)
        # Smartt §11.1: a proved deduct50 renege comes off after the settlement, one line each.
        steps = (*steps, *deduction_lines(self.state, hand))
        after = tuple(hand.scores_after)
        scores = ", ".join(f"{self.state.side_name(s)} {after[s]}" for s in range(self.rules.sides))
        words = ". ".join([self.end_words(), *(sentence(step) for step in steps), f"Scores: {scores}"]) + "."
        return SettlementView(how=hand.how, words=words, steps=steps, scores_after=after)

    def settle_preview(self) -> str | None:
        """The settlement the entered remainders would make, worked out by the engine on a copy."""
        remaining = self.remaining_entry()
        if remaining is None:
            return None
        preview = preview_settlement(self.state, remaining)
        return preview.refusal if preview.refusal is not None else preview.words

    def game_result(self) -> GameResult | None:
        """The game just won: winner, final scores, game points and Rube."""
        hand = self.hand
        if hand is None or hand.winner() is None:
            return None
        result = self.state.games()[-1]
        return GameResult(
            game=result.number,
            winner=result.winner,
            winner_names=self.state.side_name(result.winner),
            scores=result.scores,
            game_points=result.game_points,
            rubed=tuple(result.rubed or ()),
            words=game_words(self.state, result),
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

    def remaining_problem(self, seat: int) -> str | None:
        """Why what was typed for ``seat``'s remaining pips cannot be right, in one sentence (None: fine or empty).

        Only the ASCII digits 0-9 are read, at most four of them; the total must
        lie in the range the unplayed tiles allow (records.md §4).
        """
        hand = self.hand
        typed = self.remaining_text.get(seat, "").strip()
        if hand is None or not typed or self.remaining_tiles.get(seat):
            return None
        held = hand.tiles_held[seat]
        lightest, heaviest = hand.pip_range(seat)
        holds = f"{self.player(seat)} holds {plural(held, 'tile')}: {lightest} to {heaviest} pips"
        if not (typed.isascii() and typed.isdigit()):
            return f"{holds}; type a whole number with the digits 0 to 9 ('{typed}' is not one)."
        if len(typed) > MAX_DIGITS or not lightest <= int(typed) <= heaviest:
            return f"{holds}, not {typed}."
        return None

    def settle_problem(self) -> str | None:
        """What stops the settlement now: a remainder that cannot be right, or one still missing (None: ready)."""
        hand = self.hand
        if hand is None:
            return None
        for seat in range(self.rules.players):
            problem = self.remaining_problem(seat)
            if problem:
                return problem
        for seat in range(self.rules.players):
            if self._entry_of(seat) is None:
                tiles = self.remaining_tiles.get(seat)
                if tiles:
                    held = hand.tiles_held[seat]
                    return f"{self.player(seat)} holds {plural(held, 'tile')}; {len(tiles)} tapped so far."
                return f"Enter {self.player(seat)}'s remaining pips (or tap the tiles still held)."
        return None

    def tapping_words(self) -> str | None:
        """Whose remaining tiles are being tapped, the tiles so far and their pip sum."""
        hand, seat = self.hand, self.settle_seat
        if hand is None or seat is None:
            return None
        listed = self.remaining_tiles.get(seat, [])
        total = sum(pips(parse_tile(t, self.rules.max_pip)) for t in listed)
        held = hand.tiles_held[seat]
        shown = ", ".join(listed) if listed else "none yet"
        return (
            f"Tapping {self.player(seat)}'s tiles ({len(listed)} of {held}): {shown}"
            f" = {plural(total, 'pip')}. Tap a tile again to take it off."
        )

    def remaining_entry(self) -> list[list[str] | int] | None:
        """Each seat's remaining tiles (tapped) or pip total (typed), or None while one is missing or wrong."""
        if self.hand is None:
            return None
        entry = [self._entry_of(seat) for seat in range(self.rules.players)]
        if any(e is None for e in entry):
            return None
        return entry  # type: ignore[return-value]

    def _entry_of(self, seat: int) -> list[str] | int | None:
        hand = self.hand
        assert hand is not None
        tiles = self.remaining_tiles.get(seat)
        typed = self.remaining_text.get(seat, "").strip()
        if tiles:
            return list(tiles) if len(tiles) == hand.tiles_held[seat] else None
        if typed:
            return int(typed) if self.remaining_problem(seat) is None else None
        return 0 if hand.tiles_held[seat] == 0 else None

    def draw_choices(self) -> list[int]:
        """The counts the draw stepper offers (``draw-N``), two and up, as far as a draw is allowed now."""
        return draw_steps(self.hand) if self.hand is not None else []

    def sayings(self) -> str | None:
        """The table's own words as they happen (Smartt §15): Bell is ringing, Moonfaced, Episcopal..."""
        said = table_words(self.state)
        return " ".join(s.words for s in said) if said else None

    def hints(self) -> tuple[str, ...]:
        """Strategy hints from what everyone can see, only with training on and never in a tournament."""
        return training_hints(self.state, training=self.training, tournament=self.tournament)

    def toggle_training(self) -> None:
        """Turn this screen's strategy hints on or off (a tournament match never shows them)."""
        self.training = not self.training and not self.tournament

    def last_entry_words(self) -> str | None:
        """The draws on this visit, so a second draw is seen (and can be undone); after a muggins claim, its ruling."""
        hand = self.hand
        if hand is not None and hand.events and isinstance(hand.events[-1], Muggins):
            return self.claim_words
        if hand is None or not hand.events or not isinstance(hand.events[-1], Draw):
            return None
        drawn = hand.visit_draws
        return f"{self.player(hand.turn)} drew {plural(drawn, 'tile')} on this visit (Undo takes the last draw back)."

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
        last = hand.events[-1] if hand.events else None
        if isinstance(last, Play) and sorted(parse_tile(last.tile, self.rules.max_pip)) == [low, high]:
            return  # the second tap of a double tap on the tile just laid: it is down already
        if (low, high) in hand.played or hand.how != "in-progress":
            self._append(Play(f"{low}-{high}"))  # refused, with the engine's reason
            return
        # Ends that give the same count and the same open ends are one choice: the first
        # is written, so the record stays unambiguous (records.md §3) without a prompt.
        ends = ends_to_ask(hand.layout, (low, high))
        if len(ends) > 1:
            self.pending = (low, high)
            return
        self._append(Play(f"{low}-{high}", at=ends[0] if ends else None))

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

    def draw_many(self, count: int) -> None:
        """The player to move drew ``count`` tiles on this visit (the stepper: one tap)."""
        self._append(Draw(count))

    def toggle_draws(self) -> None:
        """Show or hide the draw stepper (``draw-2`` ... ``draw-N``)."""
        self.draw_open = not self.draw_open

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
        """Show the call panel again after hiding it (``call-reopen``)."""
        self.call_hidden = False

    def entry(self, revision: int, action: Callable[..., None], *args: Any) -> None:
        """Run a tap drawn on the screen of ``revision``; a tap from an older screen is ignored.

        A second tap that reached the server before the screen showed the first
        one's result (a double tap on Draw, say) is not a second entry.
        """
        if revision != self.revision:
            log.info("ignored a tap drawn on revision %s (now %s): %s", revision, self.revision, action.__name__)
            return
        self.notice = None
        action(*args)

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
        """Muggins: ``seat`` claims the score the last player did not call; the ruling is then said."""
        # The engine's words for the claim, asked before it is saved (the hand without it).
        words = preview_event(self.state, Muggins(seat)).words
        if self._append(Muggins(seat)):
            self.claim_words = words

    def start_renege(self) -> None:
        """Begin proving a renege: the scorer picks the offender next."""
        self.message = None
        self.renege_open = True
        self.offender = None

    def pick_offender(self, seat: int) -> None:
        """Choose who reneged (which answers "Pick who reneged first."); the preview shows the rollback."""
        self.message = None
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
        """The scorer typed seat ``seat``'s remaining pip total (checked as typed: ``remaining_problem``)."""
        self.remaining_text[seat] = text
        if text.strip():
            self.remaining_tiles.pop(seat, None)
        # A half-typed total ("2" on the way to "29") is no refusal: the settle panel says what is
        # wrong under the fields, and only Settle refuses. A banner here would move the field mid-word.
        self.message = None

    def pick_settle_seat(self, seat: int | None) -> None:
        """Tiles tapped from now on are listed as seat ``seat``'s remaining tiles (None: stop)."""
        self.settle_seat = seat

    def submit_remaining(self) -> None:
        """A pips field's Done key: settle the hand once every remainder is in; before that, nothing.

        On a phone the keyboard covers Settle; the last figure's Done settles in its place, and a
        Done on an earlier field (a figure still missing) leaves the form as it is.
        """
        if self.remaining_entry() is not None:
            self.settle()

    def settle(self) -> None:
        """Settle the hand with the remainders entered."""
        self.message = None
        remaining = self.remaining_entry()
        if remaining is None:
            self.message = self.settle_problem()
            return
        if self._step(lambda mid, caller: self.store.settle(mid, remaining, caller=caller)):
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
        if self._step(lambda mid, caller: self.store.start_hand(mid, setter=setter, caller=caller)):
            self.next_setter_choice = None

    # -- internals ---------------------------------------------------------------

    def _named(self, text: str) -> str:
        return named(self.state, text)

    def _layout(self) -> Layout:
        hand = self.hand
        if hand is None:
            return Layout(sniff_rule=self.rules.sniff, long_sides_first=self.rules.long_sides_first)
        return hand.layout

    def enter(self, *events: Any) -> bool:
        """Save the irregularities menu's engine events in order; False, with the reason in ``message``, if refused.

        A misdeal of a tile too few is two events (Smartt §11.4): if a later one
        is refused, those already saved are taken back, so nothing changes.
        """
        for done, event in enumerate(events):
            if not self._append(event):
                message = self.message
                for _ in range(done):
                    self._step(lambda mid, caller: self.store.undo(mid, caller=caller))
                self.message = message
                return False
        return True

    def _append(self, event: Any) -> bool:
        return self._step(lambda mid, caller: self.store.append(mid, event, caller=caller))

    def _step(self, action: Callable[..., MatchState]) -> bool:
        """Run one store action; on refusal keep the engine's sentence and change nothing."""
        self.message = None
        try:
            self.state = action(self.match_id, caller=self.caller)
        except SniffError as err:
            self.message = sentence(self._named(str(err)))
            return False
        except StoreConflict:
            self.state = self.store.load(self.match_id, device=self.device)
            self.revision += 1
            self.message = "The match changed on another screen and was reloaded: enter that again if still needed."
            return False
        except StoreError as err:
            self.message = sentence(str(err))
            return False
        self.pending = None
        self.call_hidden = False
        self.draw_open = False
        self.revision += 1
        if self.on_saved is not None:
            self.on_saved(self.match_id, self.device)
        return True

    def refresh(self) -> None:
        """Show the match as stored now (another screen has entered something)."""
        self.state = self.store.load(self.match_id, device=self.device)
        self.pending = None
        self.revision += 1

    def _replace_last_play(self, *, call: int | None, fix: bool) -> None:
        hand = self.hand
        old = hand.events[-1] if hand is not None and hand.events else None
        if hand is None or not self.call_open() or not isinstance(old, Play):
            self.message = "A call can only be changed before the next tile is entered."
            return
        new = Play(tile=old.tile, at=old.at, call=call, fix=fix, by=old.by, stands=old.stands)
        if new == old:
            return
        # One log entry replacing the play (the store replays the hand with it, so the engine
        # judges the amended call afresh: a winning play not called no longer wins, Smartt §7.2);
        # an undo afterwards takes back only the amendment.
        self._step(lambda mid, caller: self.store.amend(mid, new, caller=caller))

    def _toggle_remaining(self, low: int, high: int) -> None:
        seat = self.settle_seat
        assert seat is not None
        name = f"{low}-{high}"
        hand = self.hand
        assert hand is not None
        listed = self.remaining_tiles.setdefault(seat, [])
        if name in listed:
            listed.remove(name)
            return
        who = self.player(seat)
        if (low, high) in hand.played:
            self.message = f"{name} has been played in this hand, so it is not among {who}'s tiles."
            return
        held = hand.tiles_held[seat]
        if len(listed) >= held:
            self.message = (
                f"{who} holds {plural(held, 'tile')}, all tapped already: tap one of them again to take it off."
            )
            return
        for other in self.remaining_tiles.values():
            if name in other:
                other.remove(name)
        listed.append(name)
        self.remaining_text.pop(seat, None)
