"""Joining from another phone: the LAN address, a QR code, and a join code at the door.

Served beyond 127.0.0.1 (``scorepad web --host 0.0.0.0``), anyone on the pub's
Wi-Fi could otherwise open and edit the matches. So the server makes a join
code at start, prints it with the machine's LAN addresses and a QR code whose
link carries it, and keeps only its argon2 hash. A browser that has not
joined gets a small form asking for the code (on every address: the page, the
runtime files and the WebSocket); the right code sets a random, HttpOnly
cookie good for a day. Wrong codes are rate-limited per client address, and
more tightly once many addresses guess, so the code cannot be guessed; the
right code from an address that has not guessed wrong always gets in. A
join form posted from another site's page is refused and not counted (that
page could otherwise use up a visitor's tries).

A page on 127.0.0.1 from this computer needs no code. A request whose ``Host``
is not the address it was served on, or one of this machine's own, is refused
(a DNS-rebinding page cannot pass as local).

The app asks ``join_link()`` for the address and code to show under "Join
from another phone", and ``qr_svg``/``qr_png`` for the picture.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import html
import ipaddress
import secrets
import socket
import time
import urllib.parse
from typing import Any, TextIO

import segno
from argon2 import PasswordHasher, Type
from argon2.exceptions import VerificationError
from argon2.low_level import hash_secret_raw

from scorepad.app.host.surface import cross_site, header, plain_response, refuse_socket
from scorepad.app.models.callers import LOCAL, device_mark, stamped
from scorepad.app.models.limits import MAX_WRONG_PER_CLIENT_WHEN_BUSY, SlidingLimit

Scope = dict[str, Any]

COOKIE = "scorepad_join"
CODE_DIGITS = 6
# A whole evening at the table, and then some.
COOKIE_SECONDS = 24 * 3600
# Seconds a join form's few bytes have to arrive.
BODY_SECONDS = 10.0
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
# OWASP's lower argon2id parameters: a verify takes tens of milliseconds and 19 MiB, not 64.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this computer only."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """Whether binding ``host`` listens on every interface (``0.0.0.0``, ``::``)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on the local network (not loopback), the default route's first.

    The default route's address is found by "connecting" a UDP socket (no
    packet is sent); the others from the host name. Empty when there is none.
    """
    found: list[str] = []
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
            except OSError:
                continue
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found += [str(info[4][0]) for info in infos]
    except OSError:
        pass
    usable = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if not (ip.is_loopback or ip.is_link_local or ip.is_unspecified) and address not in usable:
            usable.append(address)
    return usable


def url_host(address: str) -> str:
    """``address`` as the host part of a URL (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def print_qr(url: str, out: TextIO) -> None:
    """Draw a QR code of ``url`` in the terminal (half-height blocks)."""
    segno.make(url, error="m").terminal(out=out, compact=True)


class JoinCode:
    """This run's join code, kept only as its argon2 hash, and the cookies that prove it was given.

    A cookie is its issue time, a random nonce and their HMAC under a key
    derived from the code with argon2: every server process of one run
    (``--workers``) derives the same key from the same code, so a browser that
    joined through one process is let in by all of them, and nobody can make a
    cookie without the code. The server lets a cookie in for
    ``COOKIE_SECONDS`` from its issue time, whatever the browser keeps.
    """

    def __init__(self, code: str | None = None) -> None:
        plain = code or "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
        self._hash = _HASHER.hash(plain)
        self._key = hash_secret_raw(
            plain.encode(),
            salt=b"scorepad join cookie",
            time_cost=_HASHER.time_cost,
            memory_cost=_HASHER.memory_cost,
            parallelism=_HASHER.parallelism,
            hash_len=32,
            type=Type.ID,
        )
        self._attempts = SlidingLimit(busy_per_client=MAX_WRONG_PER_CLIENT_WHEN_BUSY)
        self.code_for_printing = plain

    def verify(self, code: str) -> bool:
        """Whether ``code`` is the join code (argon2 verify; slow by design, run it off the event loop)."""
        try:
            return _HASHER.verify(self._hash, code.strip())
        except VerificationError:
            return False

    def wait_seconds(self, client: str) -> float:
        """Seconds ``client`` must wait before its next try (0 when it may try)."""
        return self._attempts.wait_seconds(client, time.monotonic())

    def wrong(self, client: str) -> None:
        """Count a wrong code from ``client``."""
        self._attempts.count(client, time.monotonic())

    def forgive(self, client: str) -> None:
        """Take back the last try counted for ``client`` (it was the right code)."""
        self._attempts.forgive(client)

    def new_token(self, now: float | None = None) -> str:
        """A cookie value for a browser that gave the right code (issued ``now``, a Unix time; default: now)."""
        issued = f"{int(time.time() if now is None else now)}.{secrets.token_urlsafe(24)}"
        return f"{issued}.{self._mac(issued)}"

    def admits(self, token: str | None, now: float | None = None) -> bool:
        """Whether a cookie value was made by a server that knows this run's code, less than a day before ``now``."""
        issued, _, mac = (token or "").rpartition(".")
        stamp = issued.split(".", 1)[0]
        if not (mac and stamp.isascii() and stamp.isdigit() and len(stamp) <= 12):
            return False
        if not hmac.compare_digest(mac, self._mac(issued)):
            return False
        age = (time.time() if now is None else now) - int(stamp)
        # A minute's grace the other way: the workers' clocks are the one machine's, read a moment apart.
        return -60 <= age <= COOKIE_SECONDS

    def _mac(self, issued: str) -> str:
        return hmac.new(self._key, issued.encode(), hashlib.sha256).hexdigest()


def _marked(scope: Scope, mark: str) -> Scope:
    """``scope`` with the door's caller mark on its ``User-Agent`` (``scorepad.app.models.callers``)."""
    agent = header(scope, b"user-agent") or ""
    headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"user-agent"]
    headers.append((b"user-agent", stamped(agent, mark).encode("latin-1", "replace")))
    return {**scope, "headers": headers}


def _cookie(scope: Scope, name: str) -> str | None:
    raw = header(scope, b"cookie") or ""
    for part in raw.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


def _safe_next(target: str | None) -> str:
    """Where to go after joining: a path on this server only (never ``//elsewhere``)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


def join_page(*, next_path: str, message: str = "") -> bytes:
    """The small form a browser that has not joined is shown (no script; works on any phone)."""
    note = f'<p class="msg" role="alert">{html.escape(message)}</p>' if message else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Join the score-pad</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; background: #f4f1ea; color: #222; }}
main {{ max-width: 22rem; margin: auto; }}
h1 {{ font-size: 1.4rem; }}
input {{ font-size: 1.6rem; letter-spacing: .3rem; width: 100%; box-sizing: border-box; padding: .5rem; }}
button {{ font-size: 1.2rem; margin-top: 1rem; width: 100%; padding: .7rem; }}
.msg {{ color: #a00; }}
</style></head>
<body><main>
<h1>Join the score-pad</h1>
<p>Type the join code shown where the score-pad was started.</p>
{note}
<form method="post" action="/join">
<input type="hidden" name="next" value="{html.escape(next_path)}">
<label for="code">Join code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="12" required autofocus>
<button type="submit">Join</button>
</form>
</main></body></html>
""".encode()


async def _see_other(send: Any, next_path: str, cookie: str | None = None) -> None:
    """A 303 to ``next_path`` (a path on this server), setting ``cookie`` if given."""
    headers = [(b"location", urllib.parse.quote(next_path, safe="/?=&%").encode("ascii"))]
    if cookie is not None:
        headers.append((b"set-cookie", cookie.encode("latin-1")))
    headers += [(b"cache-control", b"no-store"), (b"content-length", b"0")]
    await send({"type": "http.response.start", "status": 303, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


async def _send_html(send: Any, status: int, body: bytes, headers: list[tuple[bytes, bytes]] | None = None) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Any, limit: int = 4096) -> bytes | None:
    """The request body, or None when it is longer than ``limit`` (a join form is a few bytes).

    None too when it has not all come within ``BODY_SECONDS``: a request that
    never finishes is not held open.
    """
    body = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            while True:
                message = await receive()
                body += message.get("body", b"")
                if len(body) > limit:
                    return None
                if not message.get("more_body"):
                    return body
    except TimeoutError:
        return None


class Door:
    """ASGI middleware: lets this computer in, and other browsers once they give the join code.

    ``beyond_loopback``: whether the server listens beyond 127.0.0.1 (else
    only this computer can connect, and a request claiming another host name
    is refused).
    """

    def __init__(self, app: Any, code: JoinCode, *, beyond_loopback: bool) -> None:
        self.app = app
        self.code = code
        self.beyond_loopback = beyond_loopback
        self._checking = asyncio.Semaphore(2)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Admit, ask for the code, or refuse."""
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("", 0))[0]
        host = header(scope, b"host") or ""
        try:
            hostname = urllib.parse.urlsplit(f"//{host}").hostname or ""
        except ValueError:  # a malformed Host ("[::1"): no name of this computer
            hostname = ""
        if is_loopback(client) and is_loopback(hostname):
            await self._enter(_marked(scope, LOCAL), receive, send)
            return
        if not self.beyond_loopback:
            # Served on this computer only, yet asked for under another name: a rebinding page.
            if kind == "websocket":
                await refuse_socket(receive, send)
            else:
                await plain_response(send, 403, "This score-pad is served on this computer only.")
            return
        cookie = _cookie(scope, COOKIE)
        if cookie is not None and self.code.admits(cookie):
            await self._enter(_marked(scope, device_mark(cookie)), receive, send)
            return
        if kind == "websocket":
            await refuse_socket(receive, send)
            return
        await self._ask(scope, receive, send, client)

    async def _enter(self, scope: Scope, receive: Any, send: Any) -> None:
        """Serve an admitted request; a join link (``page_link``) opened again goes straight on to its page."""
        if scope.get("type") == "http" and scope.get("path") == "/join":
            query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
            await _see_other(send, _safe_next(query.get("next", ["/"])[0]))
            return
        await self.app(scope, receive, send)

    async def _ask(self, scope: Scope, receive: Any, send: Any, client: str) -> None:
        path = scope.get("path", "/")
        method = scope.get("method", "GET")
        query = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if path == "/join" and method == "POST":
            if cross_site(scope):
                # Another site's page posting the form: refused, and no try of this address used up.
                await plain_response(send, 403, "Type the join code on the score-pad's own page.")
                return
            body = await _read_body(receive)
            if body is None:
                # Too long or never finished: no code was given, so no try is used up.
                await plain_response(send, 400, "The join form did not arrive whole: type the code again.")
                return
            form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
            await self._try(send, client, form.get("code", [""])[0], _safe_next(form.get("next", ["/"])[0]))
            return
        if path == "/join" and "code" in query:
            await self._try(send, client, query["code"][0], _safe_next(query.get("next", ["/"])[0]))
            return
        next_path = _safe_next(query.get("next", ["/"])[0] if path == "/join" else path)
        # Only a page address gets the form; a runtime file or picture gets a plain refusal.
        if method == "GET" and "." not in path.rsplit("/", 1)[-1]:
            await _send_html(send, 401, join_page(next_path=next_path))
        else:
            await plain_response(send, 401, "Join the score-pad first: open its address and type the join code.")

    async def _try(self, send: Any, client: str, code: str, next_path: str) -> None:
        wait = self.code.wait_seconds(client)
        if wait > 0:
            message = f"Too many wrong codes: wait {int(wait) + 1} seconds and try again."
            await _send_html(
                send, 429, join_page(next_path=next_path, message=message), [(b"retry-after", b"%d" % (int(wait) + 1))]
            )
            return
        # Counted before the (slow) check, so that many guesses sent at once are held up too;
        # and at most two checks run at a time (each takes tens of milliseconds and 19 MiB).
        self.code.wrong(client)
        async with self._checking:
            right = len(code) <= 12 and await asyncio.to_thread(self.code.verify, code)
        if not right:
            await _send_html(send, 403, join_page(next_path=next_path, message="That is not the join code."))
            return
        self.code.forgive(client)
        cookie = f"{COOKIE}={self.code.new_token()}; Path=/; Max-Age={COOKIE_SECONDS}; HttpOnly; SameSite=Lax"
        await _see_other(send, next_path, cookie)
