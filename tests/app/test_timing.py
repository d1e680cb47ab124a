"""The server's timing log (``scorepad.app.models.timing``): off by default, one line a moment, arrivals inherited."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorepad.app.models import timing


@pytest.fixture
def log_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Timing on, into a fresh file (as ``SCOREPAD_TIMING`` would turn it on)."""
    path = tmp_path / "timing.log"
    monkeypatch.setattr(timing, "PATH", str(path))
    monkeypatch.setattr(timing, "ENABLED", True)
    monkeypatch.setattr(timing, "_fd", None)
    yield path
    if timing._fd is not None:
        os.close(timing._fd)


def test_off_unless_the_setting_names_a_file() -> None:
    code = "from scorepad.app.models import timing; print(timing.ENABLED, timing.PATH)"
    env = {k: v for k, v in os.environ.items() if k != timing.ENV}
    off = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert off.stdout.split() == ["False", "None"]
    on = subprocess.run(
        [sys.executable, "-c", code], env={**env, timing.ENV: "/tmp/x"}, capture_output=True, text=True, check=True
    )
    assert on.stdout.split() == ["True", "/tmp/x"]


def test_a_tap_handled_in_a_task_made_after_its_arrival_is_timed_from_it(log_file: Path) -> None:
    async def receive_then_handle() -> None:
        timing.arrived()  # PageEnds, as the message is received
        await asyncio.create_task(handler())  # Flet makes the handler's task next

    async def handler() -> None:
        timing.committed(7, 12)
        timing.confirmed(7, 2)

    asyncio.run(receive_then_handle())
    timing.committed(7, 13)  # a write outside any tap: no arrival
    timing.sent("page1", 7, 12)
    timing.hall("page2", 3, 100.5)
    lines = [line.split("\t") for line in log_file.read_text().splitlines()]
    pid = str(os.getpid())
    assert [(kind, p) for kind, p, *_ in lines] == [(k, pid) for k in ("commit", "confirm", "commit", "sent", "hall")]
    commit, confirm, bare, sent, hall = (fields[2:] for fields in lines)
    assert commit[:2] == ["7", "12"] and float(commit[2]) <= float(commit[3])
    assert confirm[:2] == ["7", "2"] and float(confirm[2]) <= float(confirm[3])
    assert bare[:2] == ["7", "13"] and bare[2] == "-"
    assert sent[:3] == ["page1", "7", "12"]
    assert hall[:3] == ["page2", "3", "100.500000"] and float(hall[3]) >= float(commit[3])


def test_a_file_that_cannot_be_written_turns_timing_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(timing, "PATH", str(tmp_path / "missing" / "timing.log"))
    monkeypatch.setattr(timing, "ENABLED", True)
    monkeypatch.setattr(timing, "_fd", None)
    timing.sent("page", 1, 1)
    assert timing.ENABLED is False
    assert "SCOREPAD_TIMING=" in caplog.text and "the timing log is off" in caplog.text
