"""Four-player tables with rotating partners: properties against a brute force, golden rotations, reproducibility."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.tournament.errors import PairingError
from scorepad.tournament.pairing import Contender, Pairing, PairingInput, pair


class History:
    """A field's past as the service keeps it: scores, tablemates, partners (seats 0 and 2, 1 and 3), byes."""

    def __init__(self, n: int, rounds: int, seed: str, forbidden: tuple[tuple[int, int], ...] = ()) -> None:
        self.ids = list(range(1, n + 1))
        self.rounds = rounds
        self.seed = seed
        self.forbidden = forbidden
        self.score = dict.fromkeys(self.ids, 0)
        self.met: dict[int, list[int]] = {i: [] for i in self.ids}
        self.partnered: dict[int, list[int]] = {i: [] for i in self.ids}
        self.byes = dict.fromkeys(self.ids, 0)
        self.played: list[Pairing] = []

    def inputs(self) -> PairingInput:
        order = sorted(self.ids, key=lambda i: (-self.score[i], i))
        contenders = tuple(
            Contender(
                i,
                f"P{i}",
                self.score[i],
                rank,
                self.byes[i],
                tuple(sorted(self.met[i])),
                tuple(sorted(self.partnered[i])),
            )
            for rank, i in enumerate(order, 1)
        )
        number = len(self.played) + 1
        return PairingInput(
            "fours", number, max(self.rounds, number), 4, self.seed, contenders, self.forbidden, max_per_round=14
        )

    def record(self, result: Pairing, winners: list[int], points: list[int]) -> None:
        """Keep a round: ``winners[k]`` (0 or 1) is the side that won table k, for ``points[k]`` game points."""
        self.played.append(result)
        for table, side, gained in zip(result.tables, winners, points, strict=True):
            for i, x in enumerate(table):
                self.met[x].extend(y for y in table if y != x)
                self.partnered[x].append(table[(i + 2) % 4])
                if i % 2 == side:
                    self.score[x] += gained
        for b in result.byes:
            self.byes[b] += 1
            self.score[b] += 2


@st.composite
def fields(draw: st.DrawFn, *, low: int, high: int, forbid: bool = True) -> tuple[PairingInput, History]:
    """A field after some rounds seated by ``fours`` itself, with random results and forbidden pairs."""
    n = draw(st.integers(low, high))
    pool = list(combinations(range(1, n + 1), 2))
    forbidden = tuple(sorted(draw(st.sets(st.sampled_from(pool), max_size=max(1, n // 3))))) if forbid else ()
    seed = draw(st.text(alphabet="abcdef0123456789", min_size=1, max_size=6))
    played = draw(st.integers(0, 3))
    history = History(n, draw(st.integers(played + 1, 6)), seed, forbidden)
    for _ in range(played):
        try:
            result = pair(history.inputs())
        except PairingError:
            break
        tables = len(result.tables)
        history.record(
            result,
            draw(st.lists(st.integers(0, 1), min_size=tables, max_size=tables)),
            draw(st.lists(st.sampled_from([2, 3, 4, 8, 14]), min_size=tables, max_size=tables)),
        )
    return history.inputs(), history


def _partitions(people: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to cut ``people`` into groups of four (written independently of the code under test)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for others in combinations(rest, 3):
        left = [p for p in rest if p not in others]
        for tail in _partitions(left):
            yield [(first, *others), *tail]


def _levels(a: int, b: int, c: int, d: int, inp: PairingInput) -> tuple[int, int, int]:
    """(forbidden pairs, repeated partners, repeated meetings) of a table seated a, b, c, d (a & c v b & d)."""
    forbidden = {frozenset(p) for p in inp.forbidden}
    partners = {x.id: Counter(x.partnered) for x in inp.contenders}
    met = {x.id: Counter(x.met) for x in inp.contenders}
    return (
        sum(frozenset(p) in forbidden for p in combinations((a, b, c, d), 2)),
        partners[a][c] + partners[b][d],
        sum(met[x][y] for x in (a, c) for y in (b, d)),
    )


def _best_levels(people: list[int], inp: PairingInput) -> tuple[int, int, int]:
    """The least (forbidden, repeated partners, repeated meetings) over every seating of ``people``."""
    best = None
    for groups in _partitions(people):
        total = (0, 0, 0)
        for a, b, c, d in groups:
            table = min(_levels(*seats, inp) for seats in ((a, b, c, d), (a, c, b, d), (a, b, d, c)))
            total = (total[0] + table[0], total[1] + table[1], total[2] + table[2])
        if best is None or total < best:
            best = total
    assert best is not None
    return best


def _check_round(inp: PairingInput, result: Pairing) -> None:
    """Everyone seated once or given a bye; tables of four; byes only to players without one, the lowest."""
    seated = [x for t in result.tables for x in t] + list(result.byes)
    assert sorted(seated) == sorted(c.id for c in inp.contenders)
    assert all(len(t) == 4 for t in result.tables)
    assert len(result.byes) == len(inp.contenders) % 4
    eligible = sorted((c for c in inp.contenders if c.byes == 0), key=lambda c: c.rank)
    assert sorted(result.byes) == sorted(c.id for c in eligible[len(eligible) - len(result.byes) :])
    forbidden = {frozenset(p) for p in inp.forbidden}
    assert not any(frozenset(p) in forbidden for t in result.tables for p in combinations(t, 2))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(low=4, high=13))
def test_small_fields_repeat_no_partner_and_no_meeting_the_brute_force_could_avoid(case) -> None:
    inp, _history = case
    byes_needed = len(inp.contenders) % 4
    eligible = sorted((c for c in inp.contenders if c.byes == 0), key=lambda c: c.rank)
    try:
        result = pair(inp)
    except PairingError as err:
        # Refused only when nobody may take a bye, or every seating puts a forbidden pair together.
        if len(eligible) < byes_needed:
            assert "bye" in str(err)
        else:
            byes = {c.id for c in eligible[len(eligible) - byes_needed :]} if byes_needed else set()
            rest = sorted(c.id for c in inp.contenders if c.id not in byes)
            assert _best_levels(rest, inp)[0] > 0, str(err)
        return
    _check_round(inp, result)
    rest = sorted(x for t in result.tables for x in t)
    got = (0, 0, 0)
    for table in result.tables:
        levels = _levels(*table, inp)
        got = (got[0] + levels[0], got[1] + levels[1], got[2] + levels[2])
    # With the byes given, no repeated partner while some seating avoids it, then the fewest meetings.
    assert got == _best_levels(rest, inp)
    assert pair(PairingInput.from_dict(inp.to_dict())) == result


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(low=14, high=40))
def test_larger_fields_seat_everyone_once_reproducibly(case) -> None:
    inp, history = case
    try:
        result = pair(inp)
    except PairingError as err:
        assert "bye" in str(err) or "may not meet" in str(err)
        return
    _check_round(inp, result)
    again = pair(PairingInput.from_dict(inp.to_dict()))
    assert again == result and again.fingerprint() == result.fingerprint()
    # The local search (above twelve players seated) left no repeated partner in up to four rounds of 16 or more.
    if len(inp.contenders) >= 16 and len(history.played) <= 3:
        assert sum(_levels(*t, inp)[1] for t in result.tables) == 0


def _rotation(n: int, rounds: int) -> History:
    """``rounds`` rounds of ``n`` players, the side in seats 0 and 2 always winning 4 game points."""
    history = History(n, rounds, "golden")
    for _ in range(rounds):
        result = pair(history.inputs())
        history.record(result, [0] * len(result.tables), [4] * len(result.tables))
    return history


def test_eight_players_over_three_rounds_never_partner_anyone_twice() -> None:
    history = _rotation(8, 3)
    for player, partners in history.partnered.items():
        assert len(partners) == 3 and len(set(partners)) == 3, (player, partners)
    assert all(len(r.tables) == 2 and not r.byes for r in history.played)


def test_eight_players_over_seven_rounds_partner_each_other_player_exactly_once() -> None:
    history = _rotation(8, 7)
    for player, partners in history.partnered.items():
        assert sorted(partners) == [x for x in range(1, 9) if x != player]


def test_nine_players_give_each_round_one_bye_never_twice() -> None:
    history = _rotation(9, 5)
    byes = [b for r in history.played for b in r.byes]
    assert len(byes) == 5 and len(set(byes)) == 5
    for partners in history.partnered.values():
        assert len(partners) == len(set(partners))


def test_a_forbidden_pair_never_shares_a_table_and_an_impossible_one_is_refused() -> None:
    history = History(8, 3, "f", forbidden=((1, 2), (3, 4)))
    for _ in range(3):
        result = pair(history.inputs())
        for table in result.tables:
            assert not {1, 2} <= set(table) and not {3, 4} <= set(table)
        history.record(result, [1] * len(result.tables), [2] * len(result.tables))
    # Four players with two of them kept apart: there is only one table.
    with pytest.raises(PairingError, match="may not meet"):
        pair(History(4, 1, "f", forbidden=((1, 2),)).inputs())
