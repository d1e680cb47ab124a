"""Running the app: a desktop window, or a web page served offline (no CDN)."""

from __future__ import annotations

import gc
import importlib.util
import os
import platform
import sys
from pathlib import Path

ASSETS_DIR = Path(__file__).resolve().parents[2] / "assets"


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
    a basement has no internet.
    """
    import flet as ft

    from scorepad.app.main import make_main

    _tune_gc()
    os.environ.setdefault("FLET_WEB_NO_CDN", "1")
    # Without this Flet opens a browser on desktops and binds every interface on servers.
    os.environ["FLET_FORCE_WEB_SERVER"] = "1"
    no_cdn = os.environ["FLET_WEB_NO_CDN"] not in ("0", "false", "False", "")
    print(f"scorepad: serving the score-pad at http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    ft.run(
        make_main(db_url=db_url),
        name="",
        view=ft.AppView.WEB_BROWSER,
        host=host,
        port=port,
        assets_dir=str(ASSETS_DIR),
        no_cdn=no_cdn,
    )


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
