"""What the server writes to its log: one line per unreadable frame, and a replaced worker at WARNING.

uvicorn logs at WARNING (``serve_web``), so its INFO lines never show, and a
worker process that died and was replaced by uvicorn's supervisor was told
only at INFO: silently. Flet logs a WebSocket frame it cannot read with the
whole traceback, once per frame, so a page sending garbage filled the log.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG

# Flet's web server logs the frames it cannot read here ("Receive loop error: ...").
FLET_WEB_LOGGER = "flet_web.fastapi"
RECEIVE_ERROR = "Receive loop error"
# uvicorn's words for a worker it replaces: "Child process [PID] died".
DIED_HEAD, DIED_TAIL = "Child process [", "] died"


class OneLineFrameErrors(logging.Filter):
    """Flet's "Receive loop error" without its traceback: one line naming the error."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, without the traceback when it is an unreadable frame's."""
        if isinstance(record.msg, str) and record.msg.startswith(RECEIVE_ERROR) and record.exc_info:
            error = record.exc_info[1]
            record.msg = "a page's WebSocket sent a frame that could not be read (%s); its connection ended"
            record.args = (type(error).__name__ if error is not None else "?",)
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_unreadable_frames() -> None:
    """Log each unreadable WebSocket frame in one line (in this process; once is enough)."""
    logger = logging.getLogger(FLET_WEB_LOGGER)
    if not any(isinstance(f, OneLineFrameErrors) for f in logger.filters):
        logger.addFilter(OneLineFrameErrors())


class WarningsAndReplacedWorkers(logging.Filter):
    """uvicorn's own log at WARNING, but a worker replaced by the supervisor told at WARNING too."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Drop what is below WARNING, except a replaced worker, which is raised to WARNING."""
        if record.levelno >= logging.WARNING:
            return True
        # uvicorn's supervisor (``uvicorn/supervisors/multiprocess.py``) on a worker it replaces.
        message = record.getMessage()
        if message.startswith(DIED_HEAD) and message.endswith(DIED_TAIL):
            pid = message[len(DIED_HEAD) : -len(DIED_TAIL)]
            record.msg, record.args = "worker process %s died: a new one was started in its place", (pid,)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            return True
        return False


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's logging setup for ``uvicorn.run(log_config=..., log_level=None)``: WARNING, and replaced workers.

    uvicorn's own ``log_level`` would set its error logger to WARNING, where
    the supervisor's INFO line about a replaced worker is never made; so that
    logger stays at INFO and ``WarningsAndReplacedWorkers`` keeps only
    warnings and that line.
    """
    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"warnings_and_replaced": {"()": WarningsAndReplacedWorkers}}
    config["loggers"]["uvicorn.error"] = {"level": "INFO", "filters": ["warnings_and_replaced"]}
    config["loggers"]["uvicorn.access"]["level"] = "WARNING"
    config["loggers"]["uvicorn.asgi"] = {"level": "WARNING"}
    return config
