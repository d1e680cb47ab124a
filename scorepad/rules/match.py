"""A match: hands into games, the setter rotation, scores, winners, game points and Rube."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.rules.errors import IllegalEventError
from scorepad.rules.events import Event
from scorepad.rules.hand import BLOCKED, RENEGE, VOID, WON, HandState
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import RuleSet, cited
from scorepad.rules.settle import Settlement, game_points_for, is_rubed


@dataclass(frozen=True)
class NextSetter:
    """Who sets the next hand: the seat the rules give (``default``), the seats allowed, and why."""

    default: int | None
    allowed: frozenset[int] | None
    reason: str


@dataclass(frozen=True)
class GameResult:
    """A finished game: the winning side, the final scores, and Smartt §14's figures."""

    number: int
    winner: int
    scores: tuple[int, ...]
    game_points: int | None
    rubed: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        """The referee's account of this game (records.md §6)."""
        out: dict[str, Any] = {"number": self.number, "winner": self.winner, "scores": list(self.scores)}
        if self.game_points is not None:
            out["game_points"] = self.game_points
            out["rubed"] = list(self.rubed or ())
        return out


@dataclass(frozen=True)
class SeriesLine:
    """One game of the day's series and each side's running totals once it was won (Smartt §14).

    ``wins`` counts the games each side has won so far; ``game_points`` adds up
    the game points each side has taken and ``rubed`` how many times each side
    has been Rubed, both None where the book keeps no game points.
    """

    game: GameResult
    wins: tuple[int, ...]
    game_points: tuple[int, ...] | None
    rubed: tuple[int, ...] | None

    def to_dict(self) -> dict[str, Any]:
        """The game as the referee reports it (records.md §6) with the running totals beside it."""
        out = {**self.game.to_dict(), "series_wins": list(self.wins)}
        if self.game_points is not None and self.rubed is not None:
            out["series_game_points"] = list(self.game_points)
            out["series_rubed"] = list(self.rubed)
        return out


@dataclass(frozen=True)
class Series:
    """Every game of a match, in order, with the running totals per side: the day's series (Smartt §14)."""

    sides: int
    lines: tuple[SeriesLine, ...]
    keeps_game_points: bool

    @property
    def wins(self) -> tuple[int, ...]:
        """Games won by each side so far."""
        return self.lines[-1].wins if self.lines else (0,) * self.sides

    @property
    def game_points(self) -> tuple[int, ...] | None:
        """Game points each side has taken so far (None where the book has none)."""
        if not self.keeps_game_points:
            return None
        return self.lines[-1].game_points if self.lines else (0,) * self.sides

    @property
    def rubed(self) -> tuple[int, ...] | None:
        """How many times each side has been Rubed so far (None where the book has no Rube)."""
        if not self.keeps_game_points:
            return None
        return self.lines[-1].rubed if self.lines else (0,) * self.sides

    def totals(self) -> dict[str, Any]:
        """The running totals as plain data: ``wins``, and ``game_points`` and ``rubed`` where kept."""
        out: dict[str, Any] = {"wins": list(self.wins)}
        if self.game_points is not None and self.rubed is not None:
            out["game_points"] = list(self.game_points)
            out["rubed"] = list(self.rubed)
        return out


class MatchState:
    """Every hand of a match, played or replayed through the rules.

    The app and the store drive it one step at a time (``start_hand``, ``apply``,
    ``settle``); ``scorepad.rules.records.replay`` drives it from a record.
    """

    def __init__(self, rules: RuleSet, players: list[str]) -> None:
        self.rules = rules
        self.players = list(players)
        self.hands: list[HandState] = []

    # -- reading ---------------------------------------------------------------

    @property
    def current(self) -> HandState | None:
        """The latest hand, finished or not."""
        return self.hands[-1] if self.hands else None

    @property
    def scores(self) -> list[int]:
        """Each side's score now (zeros once a game has just been won)."""
        return self._standing()[0]

    @property
    def game(self) -> int:
        """The number of the game being played (or about to start)."""
        return self._standing()[1]

    def _standing(self) -> tuple[list[int], int]:
        """Each side's score now and the number of the game under way, from one look at the latest hand.

        A new hand needs both, and whether the latest hand won the game decides
        both: asking once settles the figures once.
        """
        hand = self.current
        if hand is None:
            return [0] * self.rules.sides, 1
        won, after = hand.standing()
        if won is not None:
            return [0] * self.rules.sides, hand.game + 1
        return after, hand.game

    def games(self) -> list[GameResult]:
        """Every game won so far, in order."""
        out = []
        for hand in self.hands:
            side = hand.winner()
            if side is not None:
                out.append(self._game_result(hand.game, side, tuple(hand.scores_after)))
        return out

    def series(self) -> Series:
        """Every game won so far with each side's running totals: the day's series (Smartt §14).

        Nothing of an earlier game is lost when the next one starts: every game
        is derived again from its hands.
        """
        sides, keeps = self.rules.sides, self.rules.game_points
        wins, points, rubed = [0] * sides, [0] * sides, [0] * sides
        lines = []
        for game in self.games():
            wins[game.winner] += 1
            if game.game_points is not None:
                # Smartt §14: the game points go to the winner; each Rubed loser counts once.
                points[game.winner] += game.game_points
                for side in game.rubed or ():
                    rubed[side] += 1
            lines.append(
                SeriesLine(
                    game,
                    tuple(wins),
                    tuple(points) if keeps else None,
                    tuple(rubed) if keeps else None,
                )
            )
        return Series(sides, tuple(lines), keeps)

    def side_name(self, side: int) -> str:
        """The players of a side, e.g. ``Ann & Cy``."""
        return " & ".join(self.players[s] for s in self.rules.seats_of(side))

    def next_setter(self) -> NextSetter:
        """Who may set the next hand, by the rules of the preset (records.md §2)."""
        rules, prev = self.rules, self.current
        n = rules.players
        if prev is None:
            return NextSetter(None, None, "the players choose the first setter" + cited(rules, Topic.FIRST_SETTER))
        if prev.how == VOID:
            why = "a hand thrown in is set again by the same setter" + cited(rules, Topic.VOID, "R11")
            return NextSetter(prev.setter, frozenset({prev.setter}), why)
        if rules.setter_rule == "winner":
            return self._jaques_winner(prev)  # which cites the rotation itself
        rotation = cited(rules, Topic.ROTATION, "R11")
        if rules.setter_rule == "rotate":
            seat = (prev.setter + 1) % n
            why = ("the set alternates" if n == 2 else "the set rotates clockwise") + rotation
            return NextSetter(seat, frozenset({seat}), why)
        went_out = self._went_out(prev)
        if went_out is not None:
            return NextSetter(went_out, frozenset({went_out}), "whoever went out leads the next hand" + rotation)
        return NextSetter(None, None, "nobody went out, so the players choose the next leader" + rotation)

    def _went_out(self, prev: HandState) -> int | None:
        """The seat that went out, unless a renege proved against its own side stopped the hand."""
        seat = prev.went_out
        offender = prev.renege_by if prev.how == RENEGE else None
        if seat is not None and offender is not None and self.rules.side_of(offender) == self.rules.side_of(seat):
            return None
        return seat

    def _jaques_winner(self, prev: HandState) -> NextSetter:
        """Jaques 'Setting up' step 4: the winner of the hand leads the next one."""
        rules = self.rules
        why = "the winner of the hand leads the next" + cited(rules, Topic.ROTATION, "R11")
        if prev.how in (WON, RENEGE) and prev.winner() is not None and prev.win_seat is not None:
            # A game won mid-hand is won by whoever made the winning score, even if
            # another player had just gone out.
            return NextSetter(prev.win_seat, frozenset({prev.win_seat}), why)
        went_out = self._went_out(prev)
        if went_out is not None:
            return NextSetter(went_out, frozenset({went_out}), why)
        if prev.how == BLOCKED and prev.settlement is not None and prev.settlement.to is not None:
            seats = rules.seats_of(prev.settlement.to)
            if len(seats) == 1:
                return NextSetter(seats[0], frozenset(seats), why)
            return NextSetter(None, frozenset(seats), why + "; the winning partners choose which of them")
        return NextSetter(None, None, "the hand has no winner, so the players choose the next leader")

    def fork(self) -> MatchState:
        """A copy to try things on: it shares the finished hands (never changed again) and replays the current one.

        Cheap at any length of match: only the current hand's events are replayed.
        """
        copy = MatchState(self.rules, self.players)
        copy.hands = self.hands[:-1]
        if self.hands:
            copy.hands.append(self.hands[-1].replayed())
        return copy

    # -- playing ---------------------------------------------------------------

    def start_hand(self, setter: int | None = None) -> HandState:
        """Begin the next hand with ``setter`` (or the seat the rules give).

        Raises IllegalEventError when the previous hand is not finished, when
        the rules leave the choice open and no setter is named, or when the
        named setter is not the one the rules give.
        """
        prev = self.current
        if prev is not None and not prev.finished:
            if prev.needs_settlement:
                raise IllegalEventError(
                    f"hand {prev.number} ended ({prev.how}) and must be settled with the remaining tiles first"
                )
            raise IllegalEventError(f"hand {prev.number} has not ended yet")
        nxt = self.next_setter()
        if setter is None:
            if nxt.default is None:
                raise IllegalEventError(f"the setter must be named: {nxt.reason}")
            setter = nxt.default
        if not 0 <= setter < self.rules.players:
            raise IllegalEventError(f"there is no seat {setter}; seats are 0 to {self.rules.players - 1}")
        if nxt.allowed is not None and setter not in nxt.allowed:
            seats = " or ".join(f"seat {s}" for s in sorted(nxt.allowed))
            raise IllegalEventError(f"the setter should be {seats}, not seat {setter}: {nxt.reason}")
        scores, game = self._standing()
        hand = HandState(self.rules, setter=setter, scores_before=scores, number=len(self.hands) + 1, game=game)
        self.hands.append(hand)
        return hand

    def apply(self, event: Event) -> dict[str, Any]:
        """Offer one event to the current hand; see ``HandState.apply``.

        Raises IllegalEventError when there is no hand under way or the rules
        refuse the event; the match is then unchanged.
        """
        hand = self.current
        if hand is None:
            raise IllegalEventError("no hand has been started: name the setter first")
        return hand.apply(event)

    def settle(self, remaining: object) -> Settlement:
        """Settle the current hand with each seat's remaining tiles or pip total.

        Raises IllegalEventError when the hand did not end by going out or a
        block, or the remaining tiles are impossible.
        """
        hand = self.current
        if hand is None:
            raise IllegalEventError("no hand has been started")
        return hand.settle(remaining)

    def undo(self) -> str:
        """Take back the last step: a settlement, the last event, or an empty hand.

        Returns what was undone, in words. Raises IllegalEventError when there
        is nothing to undo.
        """
        hand = self.current
        if hand is None:
            raise IllegalEventError("there is nothing to undo")
        # A hand is never changed in place here: a fork may share it (see ``fork``).
        if not hand.events and hand.settlement is None:
            self.hands.pop()
            if self.hands:
                self.hands[-1] = self.hands[-1].replayed()
            return f"the start of hand {hand.number}"
        rebuilt = HandState(
            self.rules, setter=hand.setter, scores_before=hand.scores_before, number=hand.number, game=hand.game
        )
        events = hand.events
        undone = f"the settlement of hand {hand.number}" if hand.settlement is not None else None
        for event in events if undone else events[:-1]:
            rebuilt.apply(event)
        self.hands[-1] = rebuilt
        return undone or f"event {len(events)} of hand {hand.number}"

    # -- results ---------------------------------------------------------------

    def _game_result(self, number: int, winner: int, scores: tuple[int, ...]) -> GameResult:
        if not self.rules.game_points:
            return GameResult(number, winner, scores, None, None)
        losers = [side for side in range(self.rules.sides) if side != winner]
        # Smartt §14: points by the loser's final score; with three players both losers count.
        points = sum(game_points_for(scores[side]) for side in losers)
        rubed = tuple(side for side in losers if is_rubed(scores[side]))
        return GameResult(number, winner, scores, points, rubed)

    def to_record(self) -> dict[str, Any]:
        """This match as a sniff-record/1 object (records.md §1) that replays to the same state."""
        hands = []
        for hand in self.hands:
            entry: dict[str, Any] = {"setter": hand.setter, "events": [e.to_dict() for e in hand.events]}
            if hand.remaining is not None:
                entry["remaining"] = hand.remaining
            hands.append(entry)
        record: dict[str, Any] = {
            "format": "sniff-record/1",
            "rules": self.rules.name,
            "options": dict(self.rules.options),
            "players": list(self.players),
            "hands": hands,
        }
        return record
