"""Running the app: a desktop window, or a web page served offline (no CDN)."""

from __future__ import annotations

import gc
import importlib.resources
import importlib.util
import os
import platform
import sys
from pathlib import Path
from typing import Any


def _assets_dir() -> Path:
    """The package data served at the page's root: tile faces, icons, the web manifest.

    Read through ``importlib.resources`` so that an installed wheel finds them
    as a source checkout does. Flet serves a directory, so the package must be
    installed as files (a wheel, a checkout), not zipped: that is checked here.
    """
    found = importlib.resources.files("scorepad.app").joinpath("assets")
    path = Path(str(found))
    if not path.is_dir():
        raise RuntimeError(f"the score-pad's pictures are missing from the installation ({path})")
    return path


ASSETS_DIR = _assets_dir()


def desktop_available() -> bool:
    """Whether a desktop window can open: a display and the Flet desktop client installed."""
    if importlib.util.find_spec("flet_desktop") is None:
        return False
    if platform.system() == "Linux":
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def serve_web(*, host: str, port: int, db_url: str | None = None) -> None:
    """Serve the app to browsers on ``host``:``port`` until interrupted; prints the address.

    Everything (CanvasKit, fonts, icons) is served from this machine: a table in
    a basement has no internet. Every response carries a Content-Security-Policy
    (``scorepad.app.offline``) so the page requests nothing from anywhere else
    either, not even the animation library the Flet client asks a CDN for.
    (With the CDN allowed, ``FLET_WEB_NO_CDN=0``, there is no policy.)
    """
    import uvicorn

    from scorepad.app.offline import LocalOnly

    _tune_gc()
    app = web_app(db_url=db_url)
    print(f"scorepad: serving the score-pad at http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    uvicorn.run(
        LocalOnly(app) if no_cdn() else app,
        host=host,
        port=port,
        ws="websockets-sansio",
        log_level="warning",
    )


def web_app(*, db_url: str | None = None) -> Any:
    """The Flet web app (a FastAPI ASGI app) for the score-pad, with the CDN off unless asked for.

    ``ft.run(..., export_asgi_app=True)`` builds the same app that ``ft.run``
    would serve itself; serving it here lets ``serve_web`` add the policy header.
    """
    import flet as ft

    from scorepad.app.main import make_main

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


def _tune_gc() -> None:
    """Fewer, cheaper garbage collections: each tap builds thousands of short-lived objects.

    The objects alive at start (modules, the store) are frozen out of the
    collector, and the youngest generation is collected less often, so a full
    collection does not land in the middle of a tap.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


def serve_desktop(*, db_url: str | None = None) -> None:
    """Open the app in a desktop window (needs a display and the Flet desktop client)."""
    import flet as ft

    from scorepad.app.main import make_main

    print("scorepad: opening the score-pad window", file=sys.stderr, flush=True)
    ft.run(make_main(db_url=db_url), view=ft.AppView.FLET_APP, assets_dir=str(ASSETS_DIR))
