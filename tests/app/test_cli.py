"""The app's commands: ``web`` serves on the address given and says where."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from scorepad.app.host.cli import DEFAULT_WEB_HOST, DEFAULT_WEB_PORT, add_commands
from scorepad.app.host.offline import content_security_policy
from tests.browser import free_port


def test_the_commands_parse_with_their_defaults() -> None:
    parser = argparse.ArgumentParser()
    add_commands(parser.add_subparsers(dest="command"))
    web = parser.parse_args(["web"])
    assert (web.host, web.port, web.db) == (DEFAULT_WEB_HOST, DEFAULT_WEB_PORT, None)
    web = parser.parse_args(["web", "--host", "0.0.0.0", "--port", "9000", "--db", "sqlite:///x.db"])
    assert (web.host, web.port, web.db) == ("0.0.0.0", 9000, "sqlite:///x.db")
    assert parser.parse_args(["app"]).func.__name__ == "run_default"


def test_web_serves_the_page_offline_and_prints_the_address(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "FLET_WEB_NO_CDN")}
    process = subprocess.Popen(
        [sys.executable, "-m", "scorepad.app", "web", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'c.db'}"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in first
        deadline = time.monotonic() + 30
        page = policy = ""
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as reply:
                    page = reply.read().decode()
                    policy = reply.headers.get("Content-Security-Policy", "")
                    break
            except OSError:
                time.sleep(0.2)
        # The page is told to load CanvasKit and fonts from this server, not a CDN.
        assert "flet.noCdn=true" in page.replace(" ", ""), "the page would load CanvasKit from a CDN"
        # And the browser is told to load nothing from anywhere else (rive_native.js from jsdelivr).
        assert policy == content_security_policy()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/tiles/h/5-3.svg", timeout=5) as reply:
            assert reply.read().startswith(b"<svg")
    finally:
        process.terminate()
        process.wait(timeout=10)
