"""Who a page is: the door's mark on its connection, read into the caller its writes name.

The join door (``scorepad.app.host.join.Door``) is the only way into a served
page. On every request it lets in, it strips any mark the browser sent and
appends its own to the ``User-Agent`` header, which Flet hands the page
(``page.client_user_agent``): ``scorepad-caller/local`` for this computer,
``scorepad-caller/device-<id>`` for a browser that joined with the code,
``<id>`` a digest of its join cookie. A page with no mark was not served
through the door: the desktop window on this computer.
"""

from __future__ import annotations

import hashlib

from scorepad.access import Caller

MARK = "scorepad-caller/"
LOCAL = "local"
DEVICE = "device-"


def stamped(user_agent: str, mark: str) -> str:
    """``user_agent`` without any caller mark of its own, with the door's ``mark`` appended."""
    kept = " ".join(word for word in user_agent.split() if not word.startswith(MARK))
    return f"{kept} {MARK}{mark}".strip()


def device_mark(cookie: str) -> str:
    """The mark of a joined browser: a digest of its join cookie (the cookie itself never leaves the door)."""
    return DEVICE + hashlib.sha256(cookie.encode()).hexdigest()[:16]


def page_caller(user_agent: str | None, view: str) -> Caller:
    """The caller of a page whose connection carried ``user_agent``; ``view`` names the page in the store."""
    marks = [word[len(MARK) :] for word in (user_agent or "").split() if word.startswith(MARK)]
    mark = marks[-1] if marks else LOCAL
    if mark.startswith(DEVICE):
        return Caller.joined(mark[len(DEVICE) :], device=view)
    return Caller.local(view)
