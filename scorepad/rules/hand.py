"""One hand as a replay of events: turns, draws, passes, calls, claims and the end.

A ``HandState`` is built for one hand and fed events one at a time with
``apply``. Every event is checked against the rules first; a refused event
raises ``IllegalEventError`` and leaves the hand exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple

from scorepad.rules.errors import IllegalEventError, SniffError
from scorepad.rules.events import Adjust, Draw, Event, Muggins, Pass, Play, Renege, Void
from scorepad.rules.layout import Layout
from scorepad.rules.numbers import count_words
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import RuleSet, cited
from scorepad.rules.settle import RENEGE_DEDUCTION, RENEGE_ROLLBACK, Settlement, settle_hand
from scorepad.rules.tiles import full_set, key, parse_tile, pips


class HandEnd(StrEnum):
    """How a hand ended (records.md §6 ``end.how``); a str, so it reads and writes as the record's word."""

    IN_PROGRESS = "in-progress"
    OUT = "out"
    BLOCKED = "blocked"
    RENEGE = "renege"
    WON = "won"
    VOID = "void"


IN_PROGRESS, OUT, BLOCKED, RENEGE, WON, VOID = (
    HandEnd.IN_PROGRESS,
    HandEnd.OUT,
    HandEnd.BLOCKED,
    HandEnd.RENEGE,
    HandEnd.WON,
    HandEnd.VOID,
)

# Every double-six tile as written either way round, with its sorted key and its text:
# one dictionary look-up on the hot path instead of parsing.
_FAST_TILES = {f"{a}-{b}": ((a, b), key(a, b), f"{a}-{b}") for a in range(7) for b in range(7)}


def score_of(board_count: int) -> int:
    """The score a board count makes: itself when a positive multiple of five (Smartt §7.1)."""
    return board_count if board_count > 0 and board_count % 5 == 0 else 0


def call_flags(score: int, call: int) -> tuple[str, ...]:
    """Compare a call with the score that existed (records.md §5 flags)."""
    if call == score:
        return ()
    if score == 0:
        return ("nonexistent",)
    if call == 0:
        return ("missed",)
    return ("overcall",) if call > score else ("undercall",)


class LastPlay(NamedTuple):
    """The latest play, for muggins claims and the call panel."""

    seat: int
    board_count: int
    score: int
    recorded: int
    flags: tuple[str, ...]
    is_set: bool


class HandState:
    """The state of one hand, derived by replaying its events.

    ``scores`` are absolute, per side, including the points scored so far in
    this hand; ``scores_after`` adds the settlement and penalties once the hand
    has ended.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        setter: int,
        scores_before: tuple[int, ...] | list[int],
        number: int = 1,
        game: int = 1,
    ) -> None:
        self.rules = rules
        self.setter = setter
        self.number = number
        self.game = game
        self.scores_before = tuple(scores_before)
        self.scores = list(scores_before)
        self.turn = setter
        self.tiles_held = [rules.tiles_each] * rules.players
        self.boneyard = rules.boneyard_size
        self.played: set[tuple[int, int]] = set()
        self.layout = Layout(sniff_rule=rules.sniff, long_sides_first=rules.long_sides_first)
        self._events: list[Event] = []
        # One account per event. A play's flags are a tuple, so that an account holds only
        # immutable values and the garbage collector need not keep scanning a long match.
        self.outcomes: list[dict[str, Any]] = []
        self.visit_draws = 0
        self.passes = 0
        self.how: HandEnd = IN_PROGRESS
        self.went_out: int | None = None
        self.renege_by: int | None = None
        self.won_side: int | None = None
        self.win_seat: int | None = None
        self.deductions: list[int] = []
        self.claim_open = False
        self.remaining: list[list[str] | int] | None = None
        self.settlement: Settlement | None = None

    # -- reading ---------------------------------------------------------------

    @property
    def events(self) -> list[Event]:
        """The events applied so far, in order (a new list; the events are frozen)."""
        return list(self._events)

    @property
    def started(self) -> bool:
        """Whether the set has been laid."""
        return self.layout.set_tile is not None

    @property
    def last_play(self) -> LastPlay | None:
        """The latest play of the hand with the score that existed, or None before the set."""
        for outcome in reversed(self.outcomes):
            if outcome["event"] == "play":
                count = outcome["board_count"]
                return LastPlay(
                    outcome["player"],
                    count,
                    score_of(count),
                    outcome["score"],
                    outcome["flags"],
                    outcome["at"] == "set",
                )
        return None

    @property
    def drawable(self) -> int:
        """How many more tiles the player to move may draw on this visit."""
        rules = self.rules
        available = self.boneyard - rules.protected
        if rules.draw_limit is not None and rules.draw_limit - self.visit_draws < available:
            available = rules.draw_limit - self.visit_draws
        # min and max written as comparisons: asked on every turn that draws or passes.
        return available if available > 0 else 0

    @property
    def can_pass(self) -> bool:
        """Whether the player to move may pass now (no legal draw remains)."""
        return self.how == IN_PROGRESS and self.started and self.drawable == 0

    @property
    def needs_settlement(self) -> bool:
        """The hand ended by going out or a block and awaits the remaining tiles."""
        return self.how in (OUT, BLOCKED) and self.settlement is None

    @property
    def finished(self) -> bool:
        """The hand is over and nothing more is needed before the next hand."""
        return self.how != IN_PROGRESS and not self.needs_settlement

    @property
    def protected(self) -> int:
        """Boneyard tiles that may never be drawn (Smartt §8.2)."""
        return min(self.rules.protected, self.boneyard)

    @property
    def scores_after(self) -> list[int]:
        """Each side's score once this hand's end is applied (settlement, renege, penalties)."""
        rules = self.rules
        if self.how == VOID:
            return list(self.scores_before)
        if self.how == RENEGE:
            out = list(self.scores)
            side = rules.side_of(self.renege_by or 0)
            # Smartt §11.1: the offender loses the hand's points and 25 more.
            out[side] = self.scores_before[side] - RENEGE_ROLLBACK
            return out
        out = list(self.scores)
        if self.settlement is not None and self.how in (OUT, BLOCKED):
            for side, delta in enumerate(self.settlement.deltas(rules)):
                out[side] += delta
        if self.how != IN_PROGRESS and not self.needs_settlement:
            # Smartt §11.1 alternative: 50 off at the end of the hand, after its settlement.
            for seat in self.deductions:
                out[rules.side_of(seat)] -= RENEGE_DEDUCTION
        return out

    def scoring_side(self) -> int:
        """The side the hand went to: the settlement's taker, else the game's winner, else the setter's side.

        Its opponents are the ones who check and confirm the hand's figures at a
        tournament table (a scorer's own side never confirms its own entry).
        """
        if self.settlement is not None and self.settlement.to is not None:
            return self.settlement.to
        if self.won_side is not None:
            return self.won_side
        return self.rules.side_of(self.setter)

    def winner(self) -> int | None:
        """The side that won the game in this hand, once the hand's end is known."""
        return self._winner(None)

    def standing(self) -> tuple[int | None, list[int]]:
        """The side that won the game in this hand (or None) and each side's score after it.

        A new hand needs both, and a settled hand's win is judged on its scores
        after the settlement: asking once settles the figures once.
        """
        after = self.scores_after
        return self._winner(after), after

    def _winner(self, after: list[int] | None) -> int | None:
        """``winner``, reading ``after`` as the hand's ``scores_after`` when the caller has them already."""
        if self.how == WON:
            return self.won_side
        if self.how == RENEGE and self.won_side is not None:
            # A renege proved after the winning play rolls the offender back; the
            # win stands only if the winner was not the offender's side.
            if self.won_side != self.rules.side_of(self.renege_by or 0):
                return self.won_side
            return None
        if self.how in (OUT, BLOCKED) and self.settlement is not None:
            side = self.settlement.to
            if side is not None and (self.scores_after if after is None else after)[side] >= self.rules.target:
                return side
        return None

    def end(self) -> dict[str, Any]:
        """The hand's end as the referee reports it (records.md §6)."""
        out: dict[str, Any] = {"how": self.how}
        if self.how == OUT:
            out["by"] = self.went_out
        if self.how == RENEGE:
            out["by"] = self.renege_by
        if self.how in (OUT, BLOCKED) and self.settlement is not None:
            if self.settlement.debits is not None:
                out["debits"] = list(self.settlement.debits)
            else:
                out["award"] = self.settlement.award
                out["to"] = self.settlement.to
        return out

    def pip_range(self, seat: int) -> tuple[int, int]:
        """The lightest and heaviest pip totals ``seat`` can hold now (records.md §4, R14).

        The sums of the lightest and of the heaviest ``tiles_held[seat]`` tiles not
        yet played: what a typed pip total in ``remaining`` must lie between.
        Raises IndexError for a seat that does not exist.
        """
        held = self.tiles_held[seat]
        if held == 0:
            return 0, 0
        weights = sorted(pips(t) for t in full_set(self.rules.max_pip) if t not in self.played)
        return sum(weights[:held]), sum(weights[len(weights) - held :])

    def replayed(self) -> HandState:
        """A new, independent copy of this hand, rebuilt from its events and settlement."""
        copy = HandState(
            self.rules, setter=self.setter, scores_before=self.scores_before, number=self.number, game=self.game
        )
        for event in self._events:
            copy.apply(event)
        if self.remaining is not None:
            copy.settle(self.remaining)
        return copy

    # -- events ----------------------------------------------------------------

    def apply(self, event: Event) -> dict[str, Any]:
        """Check ``event`` against the rules and, if it is allowed, apply it.

        Returns the referee's account of the event. Raises IllegalEventError
        with one plain sentence when the rules refuse it; the hand is unchanged.
        """
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise IllegalEventError(f"not an event: {event!r}")
        outcome = handler(self, event)
        self._events.append(event)
        self.outcomes.append(outcome)
        return outcome

    def _play(self, ev: Play) -> dict[str, Any]:
        if self.how is not IN_PROGRESS or (ev.by is not None and ev.by != self.turn):
            self._require_in_play(ev.by)
        rules = self.rules
        seat = self.turn
        written = ev.tile
        known = _FAST_TILES.get(written) if rules.max_pip == 6 and type(written) is str else None
        if known is None:
            try:
                tile = parse_tile(written, rules.max_pip)
            except SniffError as err:
                raise IllegalEventError(str(err)) from None
            known = (tile, key(*tile), f"{tile[0]}-{tile[1]}")
        tile, tile_key, written = known
        played = self.played
        if tile_key in played:
            raise IllegalEventError(f"{written} has already been played in this hand")
        held = self.tiles_held
        if held[seat] < 1:
            raise IllegalEventError(f"seat {seat} holds no tiles to play")
        layout = self.layout
        is_set = layout.set_tile is None
        at = layout.lay(tile, ev.at, stands=True) if ev.stands else layout.lay(tile, ev.at)
        # From here on nothing can fail: the play is accepted.
        played.add(tile_key)
        held[seat] -= 1
        self.visit_draws = 0
        self.passes = 0
        board_count = layout.board_count
        score = board_count if board_count > 0 and board_count % 5 == 0 else 0  # score_of, inlined on the hot path
        flags: tuple[str, ...] = ()
        if is_set or (ev.call is None or ev.call == score):
            # Called exactly right; Smartt §4.2: the set scores its count without a call, unflagged.
            call = recorded = score
        else:
            call = ev.call
            flags = call_flags(score, call)
            if ev.fix and flags:
                # Smartt §7.2: corrected before the next tile, so the right score is recorded.
                flags += ("corrected",)
                recorded = score
            elif rules.calls_required:
                # Smartt §7.2: an uncorrected call stands as called, even when wrong.
                recorded = call
            else:
                # American 'Score a placement': every placement scores itself.
                recorded = score
        if ev.stands:
            # records.md §4, Smartt §11.5: the illegal coupling stood; it is judged as any play.
            flags += ("stood",)
        # Jaques 'Variations: Muggins': only a score not called at all can be claimed.
        self.claim_open = rules.muggins and not is_set and call == 0 and score > 0 and not ev.fix
        if held[seat] == 0:
            self.how, self.went_out = OUT, seat
        else:
            # The next player is to move, also after a winning play (a deduct50 renege can undo the win).
            self.turn = (seat + 1) % rules.players
        if recorded:  # most plays score nothing
            side = seat % 2 if rules.partners else seat  # RuleSet.side_of, inlined on the hot path
            scores = self.scores
            scores[side] += recorded
            if recorded > 0 and scores[side] >= rules.target and (not self.deductions or self._clears_target(side)):
                self._win(side, seat)
        return {
            "event": "play",
            "player": seat,
            "tile": written,
            "at": at,
            "board_count": board_count,
            "score": recorded,
            "flags": flags,
        }

    def _draw(self, ev: Draw) -> dict[str, Any]:
        if self.how is not IN_PROGRESS or ev.by is not None or self.layout.set_tile is None:
            self._require_in_play(ev.by, needs_set=True)  # asked only where it may refuse: on every draw
        seat, count, rules = self.turn, ev.count, self.rules
        if rules.draw_limit is not None and self.visit_draws + count > rules.draw_limit:
            limit = (
                f"at most {rules.draw_limit} tiles may be drawn on one visit to the boneyard{cited(rules, Topic.DRAWS)}"
            )
            if not self.visit_draws:
                raise IllegalEventError(f"{limit}, not {count}")
            left = rules.draw_limit - self.visit_draws
            more = f"{left} more may be drawn" if left else "no more may be drawn; play the tile drawn or pass"
            raise IllegalEventError(
                f"seat {seat} has already drawn {self.visit_draws} on this visit, and {limit}: {more}"
            )
        available = self.boneyard - rules.protected
        if count > available:
            guard = f", {rules.protected} of them protected{cited(rules, Topic.PROTECTED)}" if rules.protected else ""
            raise IllegalEventError(
                f"seat {seat} cannot draw {count}: the boneyard holds {self.boneyard}{guard},"
                f" so {max(0, available)} may be drawn"
            )
        self.boneyard -= count
        self.tiles_held[seat] += count
        self.visit_draws += count
        self.claim_open = False
        return {"event": "draw", "player": seat, "count": count}

    def _pass(self, ev: Pass) -> dict[str, Any]:
        if self.how is not IN_PROGRESS or ev.by is not None or self.layout.set_tile is None:
            self._require_in_play(ev.by, needs_set=True)  # as in _draw
        seat = self.turn
        if self.drawable > 0:
            raise IllegalEventError(
                f"seat {seat} may not pass while a legal draw remains ({self.drawable} may still be"
                f" drawn from a boneyard of {self.boneyard}); draw first"
            )
        self.passes += 1
        self.visit_draws = 0
        self.claim_open = False
        self.turn = (seat + 1) % self.rules.players
        # A block: everyone has passed in turn since the last play and no legal draw remains.
        if self.passes >= self.rules.players and self.boneyard <= self.rules.protected:
            self.how = BLOCKED
        return {"event": "pass", "player": seat}

    def _muggins(self, ev: Muggins) -> dict[str, Any]:
        rules = self.rules
        self._require_seat(ev.seat)
        if not rules.muggins:
            raise IllegalEventError(
                f"muggins claims are not part of the {rules.name} rules unless the muggins option is on"
            )
        if self.how not in (IN_PROGRESS, OUT):
            raise IllegalEventError(f"the hand has ended ({self.how}); nothing can be claimed now")
        last = self.last_play
        if not self.claim_open or last is None:
            raise IllegalEventError(
                "nothing to claim: a claim must come straight after a play whose score was not called at all"
            )
        if rules.side_of(ev.seat) == rules.side_of(last.seat):
            raise IllegalEventError(f"seat {ev.seat} cannot claim a score missed by its own side")
        side = rules.side_of(ev.seat)
        self.scores[side] += last.score
        self.claim_open = False
        if self.scores[side] >= rules.target and self._clears_target(side):
            self._win(side, ev.seat)
        return {"event": "muggins", "player": ev.seat, "score": last.score}

    def _renege(self, ev: Renege) -> dict[str, Any]:
        rules = self.rules
        self._require_seat(ev.seat)
        if rules.renege is None:
            raise IllegalEventError(
                f"a renege has no penalty in the {rules.name} rules; set the renege option"
                " to 'rollback25' or 'deduct50' to record one"
            )
        if self.how in (RENEGE, VOID):
            raise IllegalEventError(f"the hand has already stopped ({self.how})")
        if not self.started:
            raise IllegalEventError("nothing has been played yet, so there can be no renege")
        if rules.renege == "rollback25":
            # Smartt §11.1: the hand stops at once, whatever stage it had reached.
            self.how, self.renege_by = RENEGE, ev.seat
            self.claim_open = False
        else:
            # Play goes on; proving a renege is not the next player acting, so a claim stays open.
            self.deductions.append(ev.seat)
            if self.how == WON and self.won_side is not None and not self._clears_target(self.won_side):
                # records.md §5: under deduct50 the target is checked only after the 50 comes off;
                # below it, the side has not won and the hand goes on where it was.
                self.how = OUT if self.went_out is not None else IN_PROGRESS
                self.won_side = self.win_seat = None
        return {"event": "renege", "player": ev.seat}

    def _adjust(self, ev: Adjust) -> dict[str, Any]:
        self._require_seat(ev.seat)
        if self.how != IN_PROGRESS:
            raise IllegalEventError(f"the hand has ended ({self.how}); tiles can no longer be adjusted")
        if ev.count > self.boneyard:
            raise IllegalEventError(
                f"the boneyard holds {count_words(self.boneyard, 'tile')}, so seat {ev.seat} cannot take {ev.count}"
            )
        if -ev.count > self.tiles_held[ev.seat]:
            raise IllegalEventError(
                f"seat {ev.seat} holds {count_words(self.tiles_held[ev.seat], 'tile')} and cannot return {-ev.count}"
            )
        # Smartt §11.4: dealing irregularities move tiles but do not change the turn.
        self.boneyard -= ev.count
        self.tiles_held[ev.seat] += ev.count
        return {"event": "adjust", "player": ev.seat, "count": ev.count}

    def _void(self, _ev: Void) -> dict[str, Any]:
        if self.how != IN_PROGRESS:
            raise IllegalEventError(f"the hand has ended ({self.how}) and can no longer be thrown in")
        if not self.started:
            raise IllegalEventError(
                "nothing has been played yet, so there is no hand to throw in: before the set only a misdeal"
                " may be entered"
            )
        self.how = VOID
        return {"event": "void"}

    def _clears_target(self, side: int) -> bool:
        """Whether ``side`` holds the target once the 50s of its proved deduct50 reneges are off (records.md §5)."""
        rules = self.rules
        owed = sum(RENEGE_DEDUCTION for seat in self.deductions if rules.side_of(seat) == side)
        return self.scores[side] - owed >= rules.target

    def _win(self, side: int, seat: int) -> None:
        # records.md §5: a side reaching the target wins at once; no settlement follows.
        self.how, self.won_side, self.win_seat = WON, side, seat

    def _require_in_play(self, by: int | None, *, needs_set: bool = False) -> None:
        if self.how != IN_PROGRESS:
            raise IllegalEventError(self._ended_reason())
        if by is not None and by != self.turn:
            raise IllegalEventError(f"it is seat {self.turn}'s turn, not seat {by}'s")
        if needs_set and not self.started:
            raise IllegalEventError(
                f"the hand has not started: seat {self.setter} sets first"
                " (before the set only a misdeal may be entered)"
            )

    def _require_seat(self, seat: int) -> None:
        if not 0 <= seat < self.rules.players:
            raise IllegalEventError(f"there is no seat {seat}; seats are 0 to {self.rules.players - 1}")

    def _ended_reason(self) -> str:
        if self.how == OUT:
            return f"the hand is over: seat {self.went_out} went out; only a renege or a muggins claim may follow"
        if self.how == BLOCKED:
            return "the hand is over: it is blocked; only a renege may follow"
        if self.how == WON:
            return f"the game is over: side {self.won_side} reached {self.rules.target}; only a renege may follow"
        if self.how == RENEGE:
            return f"the hand stopped when seat {self.renege_by}'s renege was proved"
        return "the hand was thrown in (void)"

    # -- settlement --------------------------------------------------------------

    def settle(self, remaining: object) -> Settlement:
        """Settle a hand that ended by going out or by a block.

        ``remaining`` has one entry a seat: the list of tiles still held or their
        pip total (records.md §4). Raises IllegalEventError when the hand has not
        ended that way or an entry is impossible; the hand is then unchanged.
        """
        if self.how not in (OUT, BLOCKED):
            raise IllegalEventError(
                f"only a hand that ended by going out or a block is settled; this one is {self.how}"
            )
        if self.settlement is not None:
            raise IllegalEventError(f"hand {self.number} is already settled; undo the settlement to change it")
        seat_pips = self._check_remaining(remaining)
        self.settlement = settle_hand(self.rules, self.how, seat_pips, self.went_out)
        assert isinstance(remaining, list)  # _check_remaining refused anything else
        self.remaining = list(remaining)
        return self.settlement

    def _check_remaining(self, remaining: object) -> list[int]:
        rules = self.rules
        if not isinstance(remaining, list) or len(remaining) != rules.players:
            raise IllegalEventError(
                f"'remaining' needs one entry a seat ({rules.players}), each a list of tiles or a pip total"
            )
        open_values = set(self.layout.open_ends().values())
        blocked = self.how is BLOCKED
        played = self.played
        listed: set[tuple[int, int]] = set()
        # Every tile left in every hand is read here: the fast table, asked once for the set in play.
        fast_tiles = _FAST_TILES if rules.max_pip == 6 else {}
        totals = []
        for seat, entry in enumerate(remaining):
            held = self.tiles_held[seat]
            if isinstance(entry, list):
                if len(entry) != held:
                    raise IllegalEventError(
                        f"seat {seat} holds {count_words(held, 'tile')},"
                        f" but {len(entry)} {'is' if len(entry) == 1 else 'are'} listed"
                    )
                total = 0
                for item in entry:
                    known = fast_tiles.get(item) if type(item) is str else None
                    if known is None:
                        try:
                            tile = parse_tile(item, rules.max_pip)
                        except SniffError as err:
                            raise IllegalEventError(f"seat {seat}: {err}") from None
                        known = (tile, key(*tile), f"{tile[0]}-{tile[1]}")
                    tile, tile_key, _ = known
                    if tile_key in played:
                        raise IllegalEventError(f"seat {seat} lists {item}, which has been played")
                    if tile_key in listed:
                        raise IllegalEventError(f"{item} is listed twice in 'remaining'")
                    if blocked and (tile[0] in open_values or tile[1] in open_values):
                        raise IllegalEventError(
                            f"seat {seat} lists {item}, which fits an open end"
                            f" ({self.layout.describe_open_ends()}), so the hand was not blocked"
                        )
                    listed.add(tile_key)
                    total += tile[0] + tile[1]  # pips(tile), inlined: once for every tile left in every hand
            elif isinstance(entry, int) and not isinstance(entry, bool):
                lightest, heaviest = self.pip_range(seat)
                if not lightest <= entry <= heaviest:
                    raise IllegalEventError(
                        f"seat {seat} holds {count_words(held, 'tile')},"
                        f" which can weigh {lightest} to {heaviest} pips, not {entry}"
                    )
                total = entry
            else:
                raise IllegalEventError(
                    f"seat {seat}'s remaining must be a list of tiles or a pip total, not {entry!r}"
                )
            totals.append(total)
        return totals


# Each kind of event with the method that judges it: one look-up by the event's exact type.
_HANDLERS: dict[type, Callable[[HandState, Any], dict[str, Any]]] = {
    Play: HandState._play,
    Draw: HandState._draw,
    Pass: HandState._pass,
    Muggins: HandState._muggins,
    Renege: HandState._renege,
    Adjust: HandState._adjust,
    Void: HandState._void,
}
