"""Where the data lives: URL selection and the SQLite connection settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from scorepad.store import open_store
from scorepad.store.settings import (
    PAGES_PER_ADDRESS,
    SettingsError,
    StoreSettings,
    load_server_settings,
    load_settings,
    normalize_url,
    resolve_url,
)


class TestUrlSelection:
    def test_explicit_url_wins_over_the_environment(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setenv("SCOREPAD_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
        assert resolve_url(f"sqlite:///{tmp_path / 'cli.db'}").database == str(tmp_path / "cli.db")

    def test_environment_wins_over_the_default(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setenv("SCOREPAD_DATABASE_URL", f"sqlite:///{tmp_path / 'env.db'}")
        assert resolve_url().database == str(tmp_path / "env.db")

    def test_default_is_a_file_in_the_user_data_dir(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.delenv("SCOREPAD_DATABASE_URL", raising=False)
        monkeypatch.delenv("FLET_APP_STORAGE_DATA", raising=False)
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
        assert resolve_url().database == str(tmp_path / "scorepad" / "scorepad.db")

    def test_packaged_flet_app_uses_its_storage_dir(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.delenv("SCOREPAD_DATABASE_URL", raising=False)
        monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path / "flet"))
        assert resolve_url().database == str(tmp_path / "flet" / "scorepad.db")

    def test_bare_path_is_an_sqlite_file(self, tmp_path: Path) -> None:
        url = normalize_url(str(tmp_path / "x.db"))
        assert (url.get_backend_name(), url.database) == ("sqlite", str(tmp_path / "x.db"))

    @pytest.mark.parametrize("scheme", ["postgres", "postgresql", "postgresql+psycopg"])
    def test_postgresql_uses_psycopg3(self, scheme: str) -> None:
        assert normalize_url(f"{scheme}://u@h/db").drivername == "postgresql+psycopg"

    def test_other_databases_are_refused(self) -> None:
        with pytest.raises(ValueError, match="unsupported database"):
            normalize_url("mysql://u@h/db")

    def test_bad_environment_url_is_refused(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("SCOREPAD_DATABASE_URL", "oracle://x")
        with pytest.raises(ValueError):
            StoreSettings()


def test_sqlite_runs_in_wal_with_foreign_keys_and_full_sync(sqlite_url: str) -> None:
    with open_store(sqlite_url) as store, store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL


class TestEverySettingIsChecked:
    """A ``SCOREPAD_*`` value that cannot be used stops with its name and what it allows (issue 17, item 9)."""

    @pytest.mark.parametrize("value", ["-5", "abc", "1.5", "1" + "0" * 5000, "3600001"])
    def test_a_busy_timeout_that_is_no_wait(self, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
        monkeypatch.setenv("SCOREPAD_BUSY_TIMEOUT_MS", value)
        with pytest.raises(SettingsError) as refused:
            load_settings()
        message = str(refused.value)
        assert message.startswith("SCOREPAD_BUSY_TIMEOUT_MS is ")
        assert message.endswith("allowed: a whole number from 0 to 3600000 (milliseconds)")
        assert len(message) < 200

    def test_a_busy_timeout_is_read(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("SCOREPAD_BUSY_TIMEOUT_MS", " 250 ")
        assert load_settings().busy_timeout_ms == 250

    @pytest.mark.parametrize(
        ("name", "value", "allowed"),
        [
            ("SCOREPAD_PAGES_PER_ADDRESS", "abc", "a whole number from 1 to 10000"),
            ("SCOREPAD_PAGES_PER_ADDRESS", "0", "a whole number from 1 to 10000"),
            ("SCOREPAD_LIVE_LOG", "yes", "'1' (on) or '0' (off)"),
        ],
    )
    def test_a_server_setting_that_cannot_be_used(
        self, monkeypatch: pytest.MonkeyPatch, name: str, value: str, allowed: str
    ) -> None:
        monkeypatch.setenv(name, value)
        with pytest.raises(SettingsError) as refused:
            load_server_settings()
        assert str(refused.value) == f"{name} is {value!r}; allowed: {allowed}"

    def test_server_settings_are_read(self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
        monkeypatch.setenv("SCOREPAD_PAGES_PER_ADDRESS", "7")
        monkeypatch.setenv("SCOREPAD_LIVE_LOG", "1")
        monkeypatch.setenv("SCOREPAD_TIMING", str(tmp_path / "t.log"))
        read = load_server_settings()
        assert (read.pages_per_address, read.live_log, read.timing) == (7, True, tmp_path / "t.log")
        for name in ("SCOREPAD_PAGES_PER_ADDRESS", "SCOREPAD_LIVE_LOG", "SCOREPAD_TIMING"):
            monkeypatch.delenv(name)
        read = load_server_settings()
        assert (read.pages_per_address, read.live_log, read.timing) == (PAGES_PER_ADDRESS, False, None)
