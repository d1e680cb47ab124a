"""Several server processes behind one address: ``scorepad web --workers N``.

uvicorn starts N worker processes on one listening socket (the kernel hands
each new connection to one of them) and imports the app in each through
``app()`` below, so every worker is a whole score-pad with its own store and
pages. A page lives in the worker that took its WebSocket; the pages of one
match in different workers follow each other through the database
(LISTEN/NOTIFY, ``scorepad.store.notify``), which is why several workers need
PostgreSQL: an SQLite file is served by one process.
"""

from __future__ import annotations

from scorepad.store.settings import resolve_url

# How the serving process tells its workers what to serve (they start afresh).
DB_ENV = "SCOREPAD_WORKER_DATABASE_URL"
BEYOND_ENV = "SCOREPAD_WORKER_BEYOND_LOOPBACK"
CODE_ENV = "SCOREPAD_WORKER_JOIN_CODE"
MAX_WORKERS = 64


def workers_refused(workers: int, db_url: str | None) -> str | None:
    """Why ``workers`` processes cannot serve ``db_url`` (one sentence), or None when they can."""
    if workers < 1 or workers > MAX_WORKERS:
        return f"--workers takes a number of processes from 1 to {MAX_WORKERS}, not {workers}"
    if workers == 1:
        return None
    if resolve_url(db_url).get_backend_name() != "postgresql":
        return "--workers needs a PostgreSQL database (--db postgresql://...): an SQLite file is served by one process"
    return None


def worker_environment(*, db_url: str | None, beyond_loopback: bool, code: str | None) -> dict[str, str]:
    """The environment the workers read in ``app()``: the database, and the door's join code."""
    env = {
        DB_ENV: resolve_url(db_url).render_as_string(hide_password=False),
        BEYOND_ENV: "1" if beyond_loopback else "",
    }
    if code:
        env[CODE_ENV] = code
    return env
