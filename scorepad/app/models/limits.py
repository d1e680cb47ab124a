"""Counting attempts in a sliding window: wrong join codes at the door, events created from one address."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

# Wrong codes: a few per client address, and not many more in all, in a sliding window.
WINDOW_SECONDS = 300.0


MAX_WRONG_PER_CLIENT = 5


MAX_WRONG_IN_ALL = 50


# Wrong codes an address may have in the window once the total is reached: a fresh address still tries.
MAX_WRONG_PER_CLIENT_WHEN_BUSY = 1


@dataclass
class SlidingLimit:
    """Events (wrong codes, creations) in a sliding window: at most ``per_client`` per address, ``in_all`` in all.

    ``busy_per_client`` says what the total does. None: once ``in_all_max``
    is reached, every address waits (creations). A number: the total never
    holds up an address by itself; it tightens each address's allowance to
    that many instead (the door: many guessers from many addresses get one
    try each, and a phone that has not guessed wrong still gets in with the
    right code).

    Kept in this process's memory: with ``--workers N`` each process keeps its own.
    """

    per_client: int = MAX_WRONG_PER_CLIENT
    in_all_max: int = MAX_WRONG_IN_ALL
    window: float = WINDOW_SECONDS
    busy_per_client: int | None = None
    by_client: dict[str, deque[float]] = field(default_factory=dict)
    in_all: deque[float] = field(default_factory=deque)

    def wait_seconds(self, client: str, now: float) -> float:
        """How long ``client`` must wait before the next one (0: it may go now)."""
        self._forget(now)
        mine = self.by_client.get(client, deque())
        busy = len(self.in_all) >= self.in_all_max
        waits = []
        allowed = self.per_client
        if busy and self.busy_per_client is not None:
            allowed = min(allowed, self.busy_per_client)
        elif busy:
            waits.append(self.in_all[0] + self.window - now)
        if mine and len(mine) >= allowed:
            # Until enough of this address's own fall out of the window to bring it under its allowance.
            waits.append(mine[len(mine) - allowed] + self.window - now)
        return max([0.0, *waits])

    def count(self, client: str, now: float) -> None:
        """Count one from ``client`` at ``now``."""
        self.by_client.setdefault(client, deque()).append(now)
        self.in_all.append(now)

    def forgive(self, client: str) -> None:
        """Take back the last one counted for ``client``."""
        mine = self.by_client.get(client)
        if mine:
            mine.pop()
            if self.in_all:
                self.in_all.pop()

    def _forget(self, now: float) -> None:
        cutoff = now - self.window
        while self.in_all and self.in_all[0] < cutoff:
            self.in_all.popleft()
        for client in list(self.by_client):
            times = self.by_client[client]
            while times and times[0] < cutoff:
                times.popleft()
            if not times:
                del self.by_client[client]
