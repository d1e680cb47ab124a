"""The server's timing log of taps, for the tournament load test; off unless ``SCOREPAD_TIMING`` names a file.

``SCOREPAD_TIMING=/path/file scorepad web ...`` makes every server process
append one tab-separated line per timed moment to that file (each line is one
``os.write`` to a file opened with ``O_APPEND``, so the processes' lines never
interleave). Times are ``time.monotonic()`` seconds: Linux's CLOCK_MONOTONIC,
one clock for every process of the machine, so lines of different processes
(and the benchmark's client) compare directly.

=========  ============================================================  ====================================
line       fields after the kind and the process id                       written when
=========  ============================================================  ====================================
commit     match, revision, arrived, committed                            a page's write to a match is saved
sent       page, match, revision, sent                                    a table device page hands its redraw
                                                                          of ``revision`` to its connection
confirm    match, hand, arrived, committed                                a table device confirms a hand
hall       page, draw, read, sent                                         a hall page hands draw number
                                                                          ``draw`` (its data read from
                                                                          ``read`` on) to its connection
=========  ============================================================  ====================================

``arrived`` is when the tap's WebSocket message reached the process (``-``
when unknown): ``PageEnds`` stamps every message it receives (``arrived()``),
and Flet runs the tap's handler in a task made right after, which inherits
the stamp (a context variable). ``benchmarks/tournament_load.py`` reads the
file. Off, each call site costs one test of a module constant.
"""

from __future__ import annotations

import contextvars
import logging
import os
import threading
import time

log = logging.getLogger("scorepad.timing")

ENV = "SCOREPAD_TIMING"
# The file named by SCOREPAD_TIMING, read once per process; None: timing is off.
PATH: str | None = os.environ.get(ENV, "").strip() or None
ENABLED = PATH is not None

_arrived: contextvars.ContextVar[float | None] = contextvars.ContextVar("scorepad_tap_arrived", default=None)
_fd: int | None = None
_lock = threading.Lock()


def arrived() -> None:
    """A WebSocket message reached this process now: the tap it carries is timed from here."""
    _arrived.set(time.monotonic())


def committed(match_id: object, revision: int | None) -> None:
    """A page's write to ``match_id`` was saved as ``revision`` (called in the tap's own handler)."""
    _line("commit", match_id, revision, _stamp(_arrived.get()), _stamp(time.monotonic()))


def sent(page: str, match_id: object, revision: int | None) -> None:
    """A table device page has just handed its redraw showing ``revision`` of ``match_id`` to its connection."""
    _line("sent", page, match_id, revision, _stamp(time.monotonic()))


def confirmed(match_id: object, hand: int) -> None:
    """A table device confirmed ``hand`` of ``match_id`` (called in the tap's own handler)."""
    _line("confirm", match_id, hand, _stamp(_arrived.get()), _stamp(time.monotonic()))


def hall(page: str, draw: int, read: float) -> None:
    """A hall page has just handed its draw number ``draw``, made from data read from ``read`` on, to its connection."""
    _line("hall", page, draw, _stamp(read), _stamp(time.monotonic()))


def _stamp(moment: float | None) -> str:
    return "-" if moment is None else f"{moment:.6f}"


def _line(kind: str, *fields: object) -> None:
    global _fd, ENABLED
    text = "\t".join((kind, str(os.getpid()), *(str(f) for f in fields))) + "\n"
    try:
        with _lock:
            if _fd is None:
                assert PATH is not None
                _fd = os.open(PATH, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.write(_fd, text.encode())
    except OSError as err:
        # A benchmark's aid must never break a tap: say so once and stop timing.
        ENABLED = False
        log.warning("%s=%s cannot be written (%s): the timing log is off", ENV, PATH, err.strerror or err)
