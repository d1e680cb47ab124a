"""The guard around every tap: an unexpected failure leaves the page usable and says one sentence."""

from __future__ import annotations

import logging
from typing import Any

from scorepad.app.table import RECOVERED

log = logging.getLogger(__name__)


def recover(pad: Any, error: BaseException) -> None:
    """After a tap on ``pad`` (a ``ScorePad``) raised ``error``: log it, reload what is shown, say so.

    The match at the table is reloaded from the store (``Table.recover``);
    elsewhere the sentence goes into the screen's own message. Never raises.
    """
    table = getattr(pad, "table", None)
    if table is not None:
        table.recover(error)
        return
    log.error("a tap failed", exc_info=error)
    pad.message = RECOVERED
