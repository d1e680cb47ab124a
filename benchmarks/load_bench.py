"""Browser benchmark of the first load (not a test): bytes transferred on a cold load and a warm reload.

    uv run python benchmarks/load_bench.py [--loads 3] [--viewport phone|desktop]

Serves the app on a throwaway database with no CDN, drives Debian's chromium
(/usr/bin/chromium) through Playwright, and counts the bytes that cross the
network for the page to become ready (the home screen's ``new-match`` control
in the page), from Chromium's own network log (``Network.loadingFinished``'s
``encodedDataLength``: headers and body as transferred, compressed; 0 for a
response taken from the browser's cache):

- cold: a fresh browser context (empty cache); target under 6 MB;
- warm: a reload of the same page in the same context; target under 300 KB.

It also lists the largest transfers of the cold load and how many requests
the warm reload made.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from typing import Any

from tests.browser import DESKTOP, PHONE, AppServer, TablePage, launch_chromium

COLD_TARGET_BYTES = 6_000_000
WARM_TARGET_BYTES = 300_000


class Transfers:
    """Bytes transferred per request, read from Chromium's network log through a CDP session."""

    def __init__(self, page: Any) -> None:
        self.session = page.context.new_cdp_session(page)
        self.session.send("Network.enable")
        self.urls: dict[str, str] = {}
        self.sizes: dict[str, int] = {}
        self.session.on("Network.requestWillBeSent", self._sent)
        self.session.on("Network.loadingFinished", self._finished)

    def _sent(self, event: dict[str, Any]) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]

    def _finished(self, event: dict[str, Any]) -> None:
        self.sizes[event["requestId"]] = int(event.get("encodedDataLength", 0))

    def reset(self) -> None:
        """Forget what was counted so far."""
        self.urls.clear()
        self.sizes.clear()

    def total(self) -> int:
        """Bytes transferred since the last reset."""
        return sum(self.sizes.values())

    def requests(self) -> int:
        """Requests that went to the network (a response from the cache counts 0 bytes and is left out)."""
        return sum(1 for size in self.sizes.values() if size > 0)

    def largest(self, n: int = 6) -> list[tuple[str, int]]:
        """The ``n`` largest transfers: (path, bytes)."""
        ranked = sorted(self.sizes.items(), key=lambda item: -item[1])[:n]
        return [(self.urls.get(rid, "?").split("/", 3)[-1], size) for rid, size in ranked]


def wait_compressed(url: str, *, timeout: float = 300.0) -> None:
    """Wait until the big runtime files are served compressed (a first start compresses them in the background)."""
    import time
    import urllib.request

    deadline = time.monotonic() + timeout
    for path in ("main.dart.wasm", "canvaskit/skwasm.wasm", "assets/fonts/MaterialIcons-Regular.otf"):
        while True:
            request = urllib.request.Request(url + path, method="HEAD", headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request, timeout=10) as reply:
                if reply.headers.get("Content-Encoding") == "gzip":
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{path} was not served compressed within {timeout} s")
            time.sleep(0.5)


def measure(browser: Any, url: str, viewport: dict[str, int]) -> dict[str, Any]:
    """One cold load in a fresh context, then one warm reload: the bytes and requests of each."""
    # No request routing: Playwright turns the HTTP cache off for a page whose requests it routes.
    page = TablePage(browser, url, viewport=viewport, local_only=False)
    try:
        transfers = Transfers(page.page)
        cold_ready = page.open()
        cold = transfers.total()
        largest = transfers.largest()
        transfers.reset()
        warm_ready = page.reload(ready="new-match")
        return {
            "cold_bytes": cold,
            "cold_ready_s": cold_ready,
            "largest": largest,
            "warm_bytes": transfers.total(),
            "warm_requests": transfers.requests(),
            "warm_ready_s": warm_ready,
        }
    finally:
        page.close()


def main() -> int:
    """Serve, load, reload, print the figures; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--viewport", choices=("phone", "desktop"), default="phone")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    viewport = PHONE if args.viewport == "phone" else DESKTOP
    with tempfile.TemporaryDirectory() as tmp:
        server = AppServer(f"sqlite:///{Path(tmp) / 'bench.db'}").start(timeout=120)
        try:
            wait_compressed(server.url)
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                try:
                    runs = [measure(browser, server.url, viewport) for _ in range(args.loads)]
                finally:
                    browser.close()
        finally:
            server.stop()
    cold = statistics.median(r["cold_bytes"] for r in runs)
    warm = statistics.median(r["warm_bytes"] for r in runs)
    print(f"viewport {args.viewport} {viewport['width']}x{viewport['height']}, {args.loads} loads")
    print(
        f"cold load:   {cold / 1e6:.2f} MB transferred (target < {COLD_TARGET_BYTES / 1e6:.0f} MB),"
        f" ready in {statistics.median(r['cold_ready_s'] for r in runs):.2f} s"
    )
    print(
        f"warm reload: {warm / 1e3:.1f} KB transferred in {runs[0]['warm_requests']} requests"
        f" (target < {WARM_TARGET_BYTES / 1e3:.0f} KB), ready in"
        f" {statistics.median(r['warm_ready_s'] for r in runs):.2f} s"
    )
    print("largest cold transfers: " + ", ".join(f"{path} {size / 1e3:.0f} KB" for path, size in runs[0]["largest"]))
    return 0 if cold < COLD_TARGET_BYTES and warm < WARM_TARGET_BYTES else 1


if __name__ == "__main__":
    raise SystemExit(main())
