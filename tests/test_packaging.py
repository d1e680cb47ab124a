"""The installed wheel serves a complete page: tile faces, icons and manifest are package data.

The wheel is built from this checkout, installed into a fresh virtual
environment with uv (from uv's cache where it can), and its own ``scorepad web``
is started outside the source tree; Chromium then loads the page and the
picker's tile faces must come back with HTTP 200.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import CHROMIUM, TablePage, free_port, launch_chromium, wait_for_page

ROOT = Path(__file__).resolve().parents[1]
UV = shutil.which("uv")


def _uv(*args: str, cwd: Path) -> None:
    """Run uv, from its cache first (this machine may be offline), then asking the index."""
    assert UV is not None
    for offline in (["--offline"], []):
        done = subprocess.run([UV, *args, *offline], cwd=cwd, capture_output=True, text=True, timeout=600)
        if done.returncode == 0:
            return
    raise AssertionError(f"uv {' '.join(args)} failed: {done.stderr.strip()[-2000:]}")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout."""
    if UV is None:
        pytest.skip("uv is not installed")
    out = tmp_path_factory.mktemp("dist")
    _uv("build", "--wheel", "-q", "-o", str(out), str(ROOT), cwd=ROOT)
    (built,) = out.glob("scorepad-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with only the wheel (and its dependencies) installed; its bin/."""
    where = tmp_path_factory.mktemp("venv")
    venv = where / "venv"
    _uv("venv", "-q", str(venv), cwd=where)
    _uv("pip", "install", "-q", "--python", str(venv / "bin" / "python"), str(wheel), cwd=where)
    return venv / "bin"


def test_the_wheel_holds_the_pictures_and_no_test_helper(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "scorepad/assets/tiles/h/5-3.svg" in names
    assert "scorepad/assets/manifest.json" in names
    assert "scorepad/assets/icons/icon-192.png" in names
    # The wall sheets' font, embedded in every event.pdf, and its licence.
    assert {"scorepad/assets/fonts/DejaVuSans.ttf", "scorepad/assets/fonts/DejaVu-LICENSE.txt"} <= names
    assert not [n for n in names if n.endswith("browser.py") or n.startswith("tests/")], "test helpers shipped"


def test_the_installed_wheel_finds_the_wall_sheets_font(installed: Path, tmp_path: Path) -> None:
    # Run outside the source tree: the font must come from the installed package, not this checkout.
    code = "from scorepad.tournament.sheets import fonts; fonts.register(); print(fonts.fonts_dir())"
    done = subprocess.run(
        [str(installed / "python"), "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True
    )
    found = Path(done.stdout.strip())
    assert found.is_relative_to(installed.parent) and (found / "DejaVuSans.ttf").is_file(), done.stdout


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[str]:
    """The installed ``scorepad web`` on a free port, run outside the source tree; its address."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "SCOREPAD_"))}
    # This venv's copies of the runtime are compressed afresh: keep them out of the user's cache.
    env["SCOREPAD_CACHE_DIR"] = str(tmp_path / "cache")
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(installed / "scorepad"), "web", "--port", str(port), "--db", str(tmp_path / "s.db")],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_page(url, process, timeout=60)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert "Traceback" not in log.read_text(errors="replace")


@pytest.mark.browser
def test_the_installed_wheel_serves_the_page_with_its_tile_faces(served: str) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    faces: dict[str, int] = {}
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = TablePage(browser, served)
            page.page.on("response", lambda r: faces.__setitem__(r.url, r.status) if "/tiles/" in r.url else None)
            page.open()
            page.tap("new-match")
            # The picker's pictures are fetched as the table is drawn.
            with page.page.expect_response(lambda r: "/tiles/" in r.url, timeout=30_000) as first:
                page.tap("start-match")
            page.wait_for("tile-5-5")
            assert first.value.status == 200, first.value.url
            page.close()
        finally:
            browser.close()
    assert faces, "the page asked for no tile face"
    assert set(faces.values()) == {200}, faces
