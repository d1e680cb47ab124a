"""Benchmark: ``scorepad simulate`` against a minimal reference loop, in the same run.

The reference plays the same kind of random legal hands (deal, random legal
placement, draws within the rules, board count with the Sniff, settlement) and
does the rest of simulate's job in its barest form (it keeps each hand's events
as tuples, as a record needs, and counts the fingerprint), with the least
machinery possible and no validation. The ratio of the two times per
hand is the cost of playing every event through the validating engine
. Beside it runs the barest loop of all (``minimal_hands``: deal, lay the
first tile that fits, count), issue 20's yardstick: simulate's time per hand
over it is the second ratio (target: 3x or less). It also replays a 3,000-hand
record and reports events per second.

    uv run python benchmarks/simulate_bench.py [--hands 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from scorepad.rules import load_record, replay, report
from scorepad.simulate import simulate

CASES = [("smartt", 2), ("smartt", 4), ("american", 3), ("jaques", 2)]


def deal_figures(rules: str, players: int) -> tuple[list[tuple[int, int]], int, int]:
    """A double-six set, the tiles each player is dealt and the protected reserve (records.md §2)."""
    deck = [(a, b) for a in range(7) for b in range(a, 7)]
    each = {2: 7, 3: 6, 4: 5}[players] if rules != "jaques" else (7 if players == 2 else 5)
    protected = {2: 2, 3: 1, 4: 0}[players] if rules == "smartt" else 0
    return deck, each, protected


def deal(
    rng: random.Random, deck: list[tuple[int, int]], each: int, players: int
) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]], int]:
    """Shuffle and deal a hand: the racks, the boneyard and the seat that sets."""
    rng.shuffle(deck)
    held = [deck[s * each : (s + 1) * each] for s in range(players)]
    return held, deck[players * each :], rng.randrange(players)


def reference_hands(rules: str, players: int, hands: int, seed: int) -> int:
    """Play random legal hands with bare lists and arithmetic; return the events played."""
    played: list[list[tuple]] = []
    laid = drawn_total = scoring = 0
    rng = random.Random(seed)
    deck, each, protected = deal_figures(rules, players)
    limit = 2 if rules == "smartt" else 99
    any_order = rules == "jaques"
    scores = [0] * players
    events = 0
    for _ in range(hands):
        held, bone, turn = deal(rng, deck, each, players)
        # ends: value and whether the end tile is a double, per position; None when shut.
        a, b = held[turn].pop(rng.randrange(len(held[turn])))
        sniff = a if a == b else None
        ends: list[list[int] | None] = [[a, 0], [b, 0], None, None]
        covered = [False, False, False, False]  # Sniff sides covered: left, right, up, down
        sniff_arm = -1 if sniff is not None else None  # -1: the set is the Sniff
        passes = 0
        events += 1
        log: list[tuple] = [("play", a, b)]
        played.append(log)
        laid += 1
        while True:
            if sniff is not None and ends[2] is None and (any_order or (covered[0] and covered[1])):
                ends[2], ends[3] = [sniff, 0], [sniff, 0]
            mine = held[turn]
            moves = [(t, p) for t in mine for p in range(4) if ends[p] is not None and ends[p][0] in t]
            if not moves:
                drawn = 0
                while not moves and drawn < limit and len(bone) > protected:
                    t = bone.pop()
                    mine.append(t)
                    drawn += 1
                    moves = [(t, p) for p in range(4) if ends[p] is not None and ends[p][0] in t]
                if drawn:
                    events += 1
                    drawn_total += drawn
                    log.append(("draw", drawn))
                if not moves:
                    events += 1
                    log.append(("pass",))
                    passes += 1
                    turn = (turn + 1) % players
                    if passes >= players and len(bone) <= protected:
                        break
                    continue
            t, p = rng.choice(moves)
            mine.remove(t)
            passes = 0
            events += 1
            laid += 1
            log.append(("play", t, p))
            v = ends[p][0]
            outer = t[1] if t[0] == v else t[0]
            double = t[0] == t[1]
            if sniff is None and double and p < 2:
                sniff, sniff_arm = v, p
                covered = [True, False, False, False]
                ends[p] = [outer, 2]  # 2: the Sniff itself stands at this end
            else:
                if sniff_arm == -1 or (ends[p][1] == 2 and sniff_arm == p) or p >= 2:
                    covered[p if sniff_arm == -1 or p >= 2 else 1] = True
                ends[p] = [outer, 1 if double else 0]
            uncovered = covered.count(False)
            count = sum(
                (e[0] * 2 if e[1] == 1 else e[0])
                for i, e in enumerate(ends)
                if e is not None
                and e[1] != 2
                and not (sniff_arm == -1 and not covered[i])
                and not (i >= 2 and not covered[i])
            )
            if sniff is not None:
                count += sniff * min(2, uncovered)
            if count and count % 5 == 0:
                scores[turn % players] += count
                scoring += 1
            if not mine:
                left = sum(x + y for s in held for x, y in s)
                scores[turn] += (left + 2) // 5 * 5
                break
            turn = (turn + 1) % players
    return events


def minimal_hands(rules: str, players: int, hands: int, seed: int) -> int:
    """The barest hand loop (issue 20's yardstick): deal, lay the first tile that fits, count; return the events.

    No validation, no Sniff arms, no calls, no record: two open ends, a double
    at an end counts both halves, a count that is a multiple of 5 scores, draws
    one at a time until a tile fits, a pass when the boneyard is done.
    """
    rng = random.Random(seed)
    deck, each, protected = deal_figures(rules, players)
    scores = [0] * players
    events = 0
    for _ in range(hands):
        held, bone, turn = deal(rng, deck, each, players)
        a, b = held[turn].pop()
        ends = [[a, a == b], [b, a == b]]
        passes = 0
        events += 1
        while True:
            turn = (turn + 1) % players
            mine = held[turn]
            move = next(((t, e) for t in mine for e in ends if e[0] in t), None)
            while move is None and len(bone) > protected:
                mine.append(bone.pop())
                events += 1
                move = next(((mine[-1], e) for e in ends if e[0] in mine[-1]), None)
            if move is None:
                events += 1
                passes += 1
                if passes >= players:
                    break
                continue
            tile, end = move
            mine.remove(tile)
            passes = 0
            events += 1
            end[0], end[1] = tile[1] if tile[0] == end[0] else tile[0], tile[0] == tile[1]
            count = sum(v * 2 if double else v for v, double in ends)
            if count % 5 == 0:
                scores[turn] += count
            if not mine:
                break
    return events


def time_it(fn, repeat: int) -> float:
    """The best of ``repeat`` timings of ``fn()`` in CPU seconds of this process.

    CPU time, not wall time, so that other work on the machine inflates both
    sides of a ratio less; the best of several runs filters the rest.
    """
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def time_pair(first, second, repeat: int) -> tuple[float, float]:
    """Time two functions turn about (first, second, first, ...) and keep each one's best."""
    best_first = best_second = float("inf")
    for _ in range(repeat):
        best_first = min(best_first, time_it(first, 1))
        best_second = min(best_second, time_it(second, 1))
    return best_first, best_second


def main() -> None:
    """Run both loops for each case and print the ratios, then the replay speed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ratios, bare = [], []
    print(f"{'case':<14}{'engine us/hand':>16}{'reference us/hand':>19}{'ratio':>8}{'minimal us/hand':>17}{'ratio':>8}")
    for rules, players in CASES:
        engine, ref = time_pair(
            lambda rules=rules, players=players: simulate(rules, players, args.hands, seed=7),
            lambda rules=rules, players=players: reference_hands(rules, players, args.hands, seed=7),
            args.repeat,
        )
        least = time_it(lambda rules=rules, players=players: minimal_hands(rules, players, args.hands, 7), args.repeat)
        ratios.append(engine / ref)
        bare.append(engine / least)
        print(
            f"{rules + ' ' + str(players) + 'p':<14}{engine / args.hands * 1e6:>16.1f}"
            f"{ref / args.hands * 1e6:>19.1f}{engine / ref:>8.2f}x"
            f"{least / args.hands * 1e6:>17.1f}{engine / least:>8.2f}x"
        )
    print(f"against the reference: worst {max(ratios):.2f}x, median {statistics.median(ratios):.2f}x")
    print(
        f"against the minimal loop: worst {max(bare):.2f}x, median {statistics.median(bare):.2f}x (target: 3x or less)"
    )

    match, _ = simulate("smartt", 2, 3000, seed=11)
    text = json.dumps(match.to_record())
    events = sum(len(h.events) for h in match.hands)
    seconds = time_it(lambda: report(replay(load_record(text))), args.repeat)
    print(
        f"replay of a 3,000-hand record ({events} events, {len(text) // 1024} KiB): "
        f"{seconds:.3f} s, {events / seconds:,.0f} events/s"
    )


if __name__ == "__main__":
    main()
