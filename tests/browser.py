"""Driving the web app in Debian's Chromium: for the end-to-end tests, screenshots and the benchmark.

Needs the ``playwright`` package (a dev dependency) and ``/usr/bin/chromium``;
never downloads a browser. Everything is found by the stable semantic
identifiers (``flt-semantics-identifier``) that the app puts on its controls.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    # Chromium's own autofill service (not the page) otherwise asks googleapis about text fields.
    "--disable-features=AutofillServerCommunication",
]
PHONE = {"width": 412, "height": 900}
# What stays at the bottom while the rest scrolls above it: the new match form's summary and Start.
FOOTER_IDS = frozenset({"rules-summary", "start-match"})
DESKTOP = {"width": 1280, "height": 800}
# The table screen's sticky header: what stays on top while the rest scrolls under it.
HEADER_IDS = frozenset(
    {"home", "show-sheet", "show-table", "theme", "board-count", "turn", "tiles-held", "count-breakdown"}
    # The director's desk keeps its title and last sentence on top.
    | {"desk-header", "event-title", "message"}
)


def free_port() -> int:
    """A TCP port nobody is listening on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_page(url: str, process: subprocess.Popen[bytes], *, timeout: float = 120.0) -> None:
    """Wait until ``url`` answers 200 (polling as the server starts). Raises RuntimeError if it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the app server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the app server did not answer at {url} within {timeout} s")


class AppServer:
    """``python -m scorepad.app web`` in a subprocess on 127.0.0.1, on its own database."""

    def __init__(self, db_url: str, *, port: int | None = None, renderer: str | None = None) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.renderer = renderer
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path: Path | None = None

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://127.0.0.1:{self.port}/"

    def start(self, *, timeout: float = 120.0, log_path: Path | None = None) -> AppServer:
        """Start serving and wait until the page answers. Raises RuntimeError if it never does."""
        env = dict(os.environ, FLET_WEB_NO_CDN="1", PYTHONUNBUFFERED="1")
        if self.renderer:
            env["FLET_WEB_RENDERER"] = self.renderer
        self.log_path = log_path
        out = open(log_path, "ab") if log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "scorepad.app",
                "web",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for_page(self.url, self.process, timeout=timeout)
        except RuntimeError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s)."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium, headless, through Playwright (no browser download)."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def _local_only(route: Any) -> None:
    url = route.request.url
    if url.startswith(("http://127.0.0.1", "blob:", "data:")):
        route.continue_()
    else:
        route.abort()


def sel(identifier: str) -> str:
    """The CSS selector of the control with a semantic identifier."""
    return f'[flt-semantics-identifier="{identifier}"]'


class TablePage:
    """One browser page on the app, with taps and reads by identifier."""

    def __init__(
        self,
        browser: Any,
        url: str,
        *,
        viewport: dict[str, int] | None = None,
        color_scheme: str = "light",
        local_only: bool = True,
        proxy: str | None = None,
    ) -> None:
        """A fresh browser context on ``url``.

        With ``local_only`` (the default) every request not to 127.0.0.1, blob:
        or data: is aborted; without it nothing is routed, so a test can see
        what the page asks for by itself. ``proxy`` (``http://host:port``) sends
        every request not to 127.0.0.1 through that proxy.
        """
        self.url = url
        options: dict[str, Any] = {"viewport": viewport or PHONE, "color_scheme": color_scheme}
        if proxy:
            options["proxy"] = {"server": proxy, "bypass": "127.0.0.1,localhost"}
        self.context = browser.new_context(**options)
        self.page = self.context.new_page()
        if local_only:
            self.page.route("**/*", _local_only)
        self.ready_seconds: float | None = None

    def open(self, path: str = "", *, ready: str = "new-match", timeout: float = 30.0) -> float:
        """Load the page and wait for ``ready`` to appear; returns the seconds it took."""
        started = time.monotonic()
        self.page.goto(self.url + path.lstrip("/"))
        self._wait_ready(ready, timeout)
        self.ready_seconds = time.monotonic() - started
        return self.ready_seconds

    def reload(self, *, ready: str = "board-count", timeout: float = 30.0) -> float:
        """Reload the page (a new session) and wait for ``ready``."""
        started = time.monotonic()
        self.page.reload()
        self._wait_ready(ready, timeout)
        return time.monotonic() - started

    def _wait_ready(self, ready: str, timeout: float) -> None:
        ms = timeout * 1000
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=ms)
        # Flutter builds its accessibility tree (with the identifiers) once asked to.
        self.page.locator("flt-semantics-placeholder").evaluate("e => e.click()")
        self.page.wait_for_selector(sel(ready), state="attached", timeout=ms)

    def exists(self, identifier: str) -> bool:
        """Whether a control with this identifier is on the page now."""
        return self.page.locator(sel(identifier)).count() > 0

    def wait_for(self, identifier: str, *, timeout: float = 20.0, gone: bool = False) -> None:
        """Wait until the control appears (or, with ``gone``, disappears)."""
        state = "detached" if gone else "attached"
        self.page.wait_for_selector(sel(identifier), state=state, timeout=timeout * 1000)

    def tap(self, identifier: str, *, timeout: float = 20.0) -> None:
        """Tap the control with this identifier, scrolling it into view first as a finger would.

        The page is a Flutter canvas: a DOM scroll would move the accessibility
        tree but not the picture, so the view is scrolled with the mouse wheel
        until the control is on screen, then the middle of it is clicked.
        """
        self.wait_for(identifier, timeout=timeout)
        box = self.scroll_into_view(identifier)
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def scroll_into_view(self, identifier: str, *, attempts: int = 30) -> dict[str, float]:
        """Wheel-scroll until the control is wholly on screen and clear of the sticky header; returns its box.

        The table screen keeps its header (count, scores, turn, tiles held and, when
        open, the count's sum) on top: a control scrolled under it is covered, and a
        tap there would land on the header instead.
        """
        view = self.page.viewport_size or PHONE
        locator = self.page.locator(sel(identifier)).first
        # Controls are redrawn as new ones after an entry: wait until this one has its place.
        locator.wait_for(state="visible", timeout=20_000)
        box = locator.bounding_box()
        for _ in range(attempts):
            if box is None:
                # Redrawn between the wait and the read (the page re-created it): wait again.
                locator.wait_for(state="visible", timeout=20_000)
                box = locator.bounding_box()
                continue
            limit = self._header_bottom(identifier)
            floor = self._footer_top(identifier, view["height"])
            top, bottom = box["y"], box["y"] + box["height"]
            # A control cut by the window's bottom edge has its box cut there too (the accessibility
            # tree clips to what is seen): one that ends on the edge is scrolled further in. One
            # under a part fixed at the bottom (the new match form's Start) is covered by it.
            if top >= limit and bottom < floor - 0.5:
                return box
            delta = (top - floor / 3) if top > limit else (top - limit - 24)
            self.page.mouse.move(view["width"] / 2, (limit + floor) / 2)
            self.page.mouse.wheel(0, delta)
            # Wait for the picture to move (progress), not for a fixed time; at the end of the
            # scroll range nothing moves, and the next round tries the other way.
            moved = True
            try:
                self.page.wait_for_function(
                    "([s, y]) => { const e = document.querySelector(s);"
                    " return e === null || e.getBoundingClientRect().y !== y; }",
                    arg=[sel(identifier), top],
                    timeout=3_000,
                )
            except PlaywrightTimeout:
                moved = False
            box = locator.bounding_box()
            if not moved and box is not None and top < limit and box["y"] >= 0:
                # Above the header's bottom and it does not scroll: it is part of the fixed top.
                return box
        raise RuntimeError(f"could not scroll {identifier} into view (box {box})")

    def _footer_top(self, identifier: str, height: float) -> float:
        """Where a part fixed at the bottom of the screen begins (``height`` if none, or for its own controls)."""
        if identifier in FOOTER_IDS or not self.page.locator(sel("start-match")).count():
            return height  # only the new match form has one (the new event form's summary scrolls)
        top = height
        for part in FOOTER_IDS:
            found = self.page.locator(sel(part))
            if found.count():
                box = found.first.bounding_box()
                if box is not None:
                    top = min(top, box["y"])
        return top

    def _header_bottom(self, identifier: str) -> float:
        """Where the table screen's sticky header ends (0 off the table screen, or for a control in it)."""
        if identifier in HEADER_IDS or identifier.startswith("score-"):
            return 0.0
        bottom = 0.0
        for part in ("tiles-held", "count-breakdown", "desk-header"):
            found = self.page.locator(sel(part))
            if found.count():
                box = found.first.bounding_box()
                if box is not None:
                    bottom = max(bottom, box["y"] + box["height"])
        return bottom

    def text(self, identifier: str, *, timeout: float = 20.0) -> str:
        """The text of the control with this identifier."""
        self.wait_for(identifier, timeout=timeout)
        return (self.page.locator(sel(identifier)).first.text_content() or "").strip()

    def number(self, identifier: str) -> int:
        """The text of the control read as a whole number (board count, scores)."""
        return int(self.text(identifier))

    def wait_text(self, identifier: str, expected: str, *, timeout: float = 20.0) -> None:
        """Wait until the control's text is exactly ``expected``."""
        self.wait_for(identifier, timeout=timeout)
        self.page.wait_for_function(
            "([s, want]) => { const e = document.querySelector(s);"
            " return e !== null && e.textContent.trim() === want; }",
            arg=[sel(identifier), expected],
            timeout=timeout * 1000,
        )

    def wait_contains(self, identifier: str, part: str, *, timeout: float = 20.0) -> None:
        """Wait until the control's text contains ``part``."""
        self.wait_for(identifier, timeout=timeout)
        self.page.wait_for_function(
            "([s, want]) => { const e = document.querySelector(s);"
            " return e !== null && e.textContent.includes(want); }",
            arg=[sel(identifier), part],
            timeout=timeout * 1000,
        )

    def take_field(self, identifier: str) -> None:
        """Tap the text field with this identifier and wait until Flutter has taken the keyboard for it.

        The tap focuses the page's input element at once, but Flutter attaches its text editing to
        it a frame or more later and then writes the field's own text into it: a key typed before
        that is wiped (seen on a loaded machine: "2" typed 12 ms after the tap, gone 17 ms later).
        Flutter marks the attachment by setting the input's ``autocorrect`` attribute from the
        field's settings ("off" while only the browser has focused it, "on" after; every field in
        the app keeps Flutter's default, autocorrect on), so that is the progress waited for.
        Only for a field typed in once: one typed in again keeps "on" from its last use, so the
        wait would end before Flutter has taken it again (``fill`` is for fields used over and over).
        """
        box = self.scroll_into_view(identifier)
        self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.page.wait_for_function(
            "s => { const e = document.activeElement;"
            " return e !== null && e.closest(s) !== null && e.getAttribute('autocorrect') === 'on'; }",
            arg=sel(identifier),
            timeout=20_000,
        )

    def fill(self, identifier: str, value: str, *, timeout: float = 20.0, attempts: int = 3) -> None:
        """Type ``value`` into the text field with this identifier.

        The field is scrolled into view and tapped first. Flutter may swap the
        page's input element when the field takes focus, so the element is
        looked up again after the tap, and the typing is retried until the
        field holds the value.
        """
        self.wait_for(identifier, timeout=timeout)
        inputs = f"{sel(identifier)} input, {sel(identifier)} textarea"
        for _ in range(attempts):
            box = self.scroll_into_view(identifier)
            self.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            self.page.wait_for_timeout(150)
            field = self.page.locator(inputs).first
            field.fill(value, timeout=timeout * 1000)
            self.page.wait_for_timeout(100)
            if self.page.locator(inputs).first.input_value() == value:
                return
        raise RuntimeError(f"{identifier} would not take {value!r}")

    def screenshot(self, path: Path) -> None:
        """Save a PNG of the page as it is now, once the canvas has painted what the tree shows.

        Flutter paints in the browser's animation frames: after two of them the frame of the
        last change is on the canvas (progress, not a fixed wait).
        """
        self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        self.page.screenshot(path=str(path))

    def close(self) -> None:
        """Close this page's browser context."""
        self.context.close()
