"""One worker of ``scorepad web --workers N``: uvicorn's factory, called once in each worker process.

The serving process puts the database and the join code in the environment
(``scorepad.app.host.workers``); each worker builds the same app from them.
"""

from __future__ import annotations

import os
from typing import Any

from scorepad.app.host.serve import served_app
from scorepad.app.host.tuning import cheap_message_text, tune_gc
from scorepad.app.host.workers import BEYOND_ENV, CODE_ENV, DB_ENV
from scorepad.store.settings import resolve_url


def app() -> Any:
    """The whole served app in one worker (uvicorn's factory, called once in each worker process)."""
    tune_gc()
    cheap_message_text()
    db_url = os.environ[DB_ENV]
    resolve_url(db_url)  # a worker started by hand without the environment fails here, plainly
    served, _code = served_app(
        db_url=db_url,
        beyond_loopback=bool(os.environ.get(BEYOND_ENV)),
        code=os.environ.get(CODE_ENV) or None,
    )
    return served
