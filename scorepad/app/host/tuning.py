"""Making a server process cheaper per tap: fewer garbage collections, and no text made of messages nobody logs."""

from __future__ import annotations

import gc
import logging

from flet.messaging.protocol import Message


def tune_gc() -> None:
    """Fewer, cheaper garbage collections: each tap builds thousands of short-lived objects.

    The objects alive at start (modules, the store) are frozen out of the
    collector, and the youngest generation is collected less often, so a full
    collection does not land in the middle of a tap.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def cheap_message_text() -> None:
    """Keep Flet from writing out every message it sends, for a debug line nobody reads.

    Flet 1.0.5 formats each outgoing message into its debug log line before
    the logger decides to drop it (``send_message`` in
    ``flet_web/fastapi/flet_app.py``: ``debug(f"send_message: {message}")``),
    and a message's dataclass text walks every control of the patch: about a
    tenth of a worker's CPU with 100 tournament tables (py-spy). Unless that
    logger is on, a message's text is only its action.
    """
    if logging.getLogger("flet_transport").isEnabledFor(logging.DEBUG):
        return

    def text(message: Message) -> str:
        return f"Message({message.action!r})"

    Message.__repr__ = text  # type: ignore[method-assign,assignment]
