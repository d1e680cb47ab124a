"""Where another phone joins this server: the address with its join code, page links through the door, QR codes.

The server (``scorepad.app.host``) records the link at start; the screens ask
``join_link()`` for the address and code to show under "Join from another
phone", ``page_link`` for a page's address through the door (a table's QR
code), and ``qr_png``/``qr_svg`` for the picture.
"""

from __future__ import annotations

import functools
import io
import json
import os
import urllib.parse
from dataclasses import dataclass

import segno


@dataclass(frozen=True)
class JoinLink:
    """Where another phone joins: the address with its code, the code, and the address alone."""

    url: str
    code: str
    address: str


def qr_svg(url: str) -> bytes:
    """A QR code of ``url`` as SVG bytes (dark on white, with its quiet zone)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=4, xmldecl=False)
    return out.getvalue()


@functools.lru_cache(maxsize=64)
def qr_png(url: str, *, scale: int = 8) -> bytes:
    """A QR code of ``url`` as PNG bytes (the last 64 kept: a director's page draws the same ones again)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


_current: JoinLink | None = None


# Set by the serving process, read by its workers (``--workers``), which start afresh.
LINK_ENV = "SCOREPAD_JOIN_LINK"


def set_join_link(link: JoinLink | None) -> None:
    """Record where this server is joined from (``serve_web`` calls it at start)."""
    global _current
    _current = link
    if link is None:
        os.environ.pop(LINK_ENV, None)
    else:
        os.environ[LINK_ENV] = json.dumps({"url": link.url, "code": link.code, "address": link.address})


def join_link() -> JoinLink | None:
    """The address (with code) another phone opens to join, or None when served on this computer only."""
    if _current is None and os.environ.get(LINK_ENV):
        try:
            return JoinLink(**json.loads(os.environ[LINK_ENV]))
        except (ValueError, TypeError):
            return None
    return _current


def page_link(path: str, link: JoinLink | None = None) -> str | None:
    """The address another phone opens to reach ``path`` on this server, passing the door; None on 127.0.0.1 only.

    The link carries the join code and goes on to ``path`` (``/join?code=…&next=…``);
    a phone that has joined already is sent straight on (``Door``).
    """
    link = link if link is not None else join_link()
    if link is None:
        return None
    query = urllib.parse.urlencode({"code": link.code, "next": path})
    return f"{link.address.rstrip('/')}/join?{query}"
