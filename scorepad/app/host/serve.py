"""Running the app: a desktop window, or a web page served offline (no CDN)."""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
from pathlib import Path
from typing import Any

import flet as ft
import uvicorn
from flet_web import get_package_web_dir

from scorepad.app.host.assets import ASSETS_DIR
from scorepad.app.host.connections import SPARE_PER_ADDRESS, HeadTimed, PerAddress
from scorepad.app.host.fastload import FastLoad, precompress
from scorepad.app.host.join import (
    Door,
    JoinCode,
    is_loopback,
    is_wildcard,
    lan_addresses,
    print_qr,
    url_host,
)
from scorepad.app.host.logs import quiet_unreadable_frames, uvicorn_log_config
from scorepad.app.host.offline import LocalOnly
from scorepad.app.host.pages import PageEnds
from scorepad.app.host.startup import cache_refused, listening_refused, port_refused
from scorepad.app.host.surface import HIDDEN_PATHS, Surface
from scorepad.app.host.tuning import cheap_message_text, tune_gc
from scorepad.app.host.workers import worker_environment, workers_refused
from scorepad.app.models.links import JoinLink, set_join_link
from scorepad.app.shell.page import make_main
from scorepad.app.shell.pages import pages_per_address
from scorepad.referee import MAX_RECORD_BYTES
from scorepad.store.health import DatabaseUnusable, check_database

SHUTDOWN_SECONDS = 2  # seconds open pages get to close after SIGTERM or Ctrl+C
WORKER_HEALTH_SECONDS = 60
# The largest WebSocket message a page may send: a record file picked in Dispute (at most
# MAX_RECORD_BYTES) and its wrapping. A larger one closes that page's connection (code 1009).
WS_MAX_BYTES = MAX_RECORD_BYTES + 256 * 1024


def desktop_available() -> bool:
    """Whether a desktop window can open: a display and the Flet desktop client installed."""
    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if platform.system() == "Linux":
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def serve_web(*, host: str, port: int, db_url: str | None = None, workers: int = 1) -> int:
    """Serve the app to browsers on ``host``:``port`` until interrupted; prints where to open it.

    The database is checked first (``scorepad.store.health``), then the port,
    the address, the cache directory and the settings
    (``scorepad.app.host.startup``): any of them unusable stops here with one
    line on stderr and status 2, before anything is served or printed.
    Everything (CanvasKit, fonts, icons) is served from this machine: a table in
    a basement has no internet. Every response carries a Content-Security-Policy
    (``scorepad.app.host.offline``) so the page requests nothing from anywhere else
    either, not even the animation library the Flet client asks a CDN for.
    (With the CDN allowed, ``FLET_WEB_NO_CDN=0``, there is no such policy.) The
    framework's own pages are hidden and the headers scrubbed
    (``scorepad.app.host.surface``); the runtime is served compressed and cached
    (``scorepad.app.host.fastload``); beyond 127.0.0.1 a join code guards the door
    (``scorepad.app.host.join``). With ``workers`` above 1, that many processes
    serve the one address (``scorepad.app.host.workers``; PostgreSQL only).
    Returns the exit status.
    """
    try:
        refused = port_refused(port)
        if refused is None:
            check_database(db_url)
            pages_per_address()
            refused = workers_refused(workers, db_url) or cache_refused() or listening_refused(host, port)
    except (DatabaseUnusable, ValueError) as err:
        sys.stderr.write(f"scorepad: {err}\n")
        return 2
    if refused:
        sys.stderr.write(f"scorepad: {refused}\n")
        return 2
    tune_gc()
    cheap_message_text()
    beyond_loopback = not is_loopback(host)
    app, code = served_app(db_url=db_url, beyond_loopback=beyond_loopback)
    announce(host, port, code if beyond_loopback else None, sys.stdout)
    if workers > 1:
        # Each worker builds the same app afresh, with this run's join code.
        os.environ.update(
            worker_environment(db_url=db_url, beyond_loopback=beyond_loopback, code=code.code_for_printing)
        )
    uvicorn.run(
        "scorepad.app.host.worker_app:app" if workers > 1 else app,
        factory=workers > 1,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=WS_MAX_BYTES,
        # A request head has a few seconds, a peer a few dozen connections (``connections``).
        http=HeadTimed,
        # Seconds a worker may take to answer the supervisor's health check: building the app
        # takes several seconds on a busy machine, and uvicorn's 5 would kill and replace it forever.
        timeout_worker_healthcheck=WORKER_HEALTH_SECONDS,
        # WARNING, and a worker the supervisor replaced (``logs``).
        log_config=uvicorn_log_config(),
        log_level=None,
        server_header=False,
        # A WebSocket that never registers keeps Flet's handler waiting for good:
        # shutdown gives the pages SHUTDOWN_SECONDS, then closes what is left.
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    return 0


def served_app(*, db_url: str | None, beyond_loopback: bool, code: str | None = None) -> tuple[Any, JoinCode]:
    """The whole ASGI app as served and its join code.

    Outermost first: the connections per address, the policy, the sockets'
    lifecycle, the surface, the door, fast load, Flet.
    """
    quiet_unreadable_frames()
    pages = pages_per_address()
    flet_app = web_app(db_url=db_url)
    _drop_framework_routes(flet_app)
    join_code = JoinCode(code)
    app: Any = FastLoad(flet_app, precompress([ASSETS_DIR, flet_web_dir()]))
    app = Surface(Door(app, join_code, beyond_loopback=beyond_loopback))
    app = PageEnds(app, unregistered_cap=pages)
    app = LocalOnly(app) if no_cdn() else app
    return PerAddress(app, cap=pages + SPARE_PER_ADDRESS), join_code


def announce(host: str, port: int, code: JoinCode | None, out: Any) -> None:
    """Print where to open the page: 127.0.0.1, or the LAN addresses with the join code and a QR code.

    ``0.0.0.0`` is where the server listens, not an address a phone can open:
    the machine's own addresses are printed instead. The first one is also
    recorded for the app's "Join from another phone" panel (``join_link``).
    """
    if code is None:
        out.write(f"scorepad: serving the score-pad at http://{url_host(host)}:{port}/ (Ctrl+C to stop)\n")
        out.flush()
        set_join_link(None)
        return
    addresses = lan_addresses() if is_wildcard(host) else [host]
    if not addresses:
        addresses = ["127.0.0.1"]
    links = [
        JoinLink(
            url=f"http://{url_host(a)}:{port}/join?code={code.code_for_printing}",
            code=code.code_for_printing,
            address=f"http://{url_host(a)}:{port}/",
        )
        for a in addresses
    ]
    set_join_link(links[0])
    out.write(f"scorepad: serving the score-pad at {', '.join(link.address for link in links)} (Ctrl+C to stop)\n")
    out.write(f"scorepad: join code {code.code_for_printing} (phones scanning the QR code need not type it)\n")
    if is_wildcard(host):
        out.write(f"scorepad: on this computer, http://127.0.0.1:{port}/ needs no code\n")
    print_qr(links[0].url, out)
    out.flush()


def flet_web_dir() -> Path:
    """The Flet web client's files (flet-web's package data)."""
    return Path(get_package_web_dir())


def _drop_framework_routes(app: Any) -> None:
    """Remove FastAPI's documentation routes and Flet's unused OAuth callback (``Surface`` 404s them too)."""
    app.router.routes = [r for r in app.router.routes if getattr(r, "path", None) not in HIDDEN_PATHS]


def web_app(*, db_url: str | None = None) -> Any:
    """The Flet web app (a FastAPI ASGI app) for the score-pad, with the CDN off unless asked for.

    ``ft.run(..., export_asgi_app=True)`` builds the same app that ``ft.run``
    would serve itself; serving it here lets ``serve_web`` add the policy header.
    """
    return ft.run(
        make_main(db_url=db_url),
        name="",
        view=ft.AppView.WEB_BROWSER,
        assets_dir=str(ASSETS_DIR),
        no_cdn=no_cdn(),
        export_asgi_app=True,
    )


def no_cdn() -> bool:
    """Whether the page is served without any CDN: yes unless ``FLET_WEB_NO_CDN`` says 0 or false."""
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    return os.environ["FLET_WEB_NO_CDN"] not in ("0", "false", "False", "")


def serve_desktop(*, db_url: str | None = None) -> None:
    """Open the app in a desktop window (needs a display and the Flet desktop client)."""
    print("scorepad: opening the score-pad window", file=sys.stderr, flush=True)
    ft.run(make_main(db_url=db_url), view=ft.AppView.FLET_APP, assets_dir=str(ASSETS_DIR))
