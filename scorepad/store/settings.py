"""Where the data lives: choosing the database URL.

Order of precedence: an explicit URL (``--db``), then ``SCOREPAD_DATABASE_URL``,
then an SQLite file in the app's data directory.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from platformdirs import user_data_dir
from pydantic import ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from scorepad.rules.numbers import NumberRefused, read_whole

APP_NAME = "scorepad"
DB_FILE_NAME = "scorepad.db"
# A writer waits at most an hour for another's lock: a larger wait is a typing slip.
MAX_BUSY_TIMEOUT_MS = 3_600_000
PAGES_PER_ADDRESS = 20
MAX_PAGES_PER_ADDRESS = 10_000


class StoreSettings(BaseSettings):
    """Settings read from the environment (prefix ``SCOREPAD_``)."""

    model_config = SettingsConfigDict(env_prefix="SCOREPAD_", extra="ignore")

    database_url: str | None = None
    # FULL fsyncs the WAL on every commit, so an entry survives a power cut
    # (a phone whose battery dies), not only a crashed process.
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "FULL"
    # How long a writer waits for another device's transaction before it
    # reports a conflict.
    busy_timeout_ms: int = 5000

    @field_validator("busy_timeout_ms", mode="before")
    @classmethod
    def _check_busy_timeout(cls, value: object) -> object:
        return _whole(value, lowest=0, highest=MAX_BUSY_TIMEOUT_MS, unit=" (milliseconds)")

    @field_validator("database_url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        normalize_url(value)
        return value.strip()


class ServerSettings(BaseSettings):
    """The web server's settings from the environment (prefix ``SCOREPAD_``), each checked here.

    The app reads them through ``load_server_settings``, so a value it cannot
    use stops the server with a sentence naming the setting, instead of being
    ignored.
    """

    model_config = SettingsConfigDict(env_prefix="SCOREPAD_", extra="ignore")

    # Pages one client address may have connected at once.
    pages_per_address: int = PAGES_PER_ADDRESS
    # "1": every page's live subscriptions are logged to stderr (tests read them).
    live_log: bool = False
    # A file the server appends its tap timings to (the tournament load test); None: timing is off.
    timing: Path | None = None

    @field_validator("pages_per_address", mode="before")
    @classmethod
    def _check_pages(cls, value: object) -> object:
        return _whole(value, lowest=1, highest=MAX_PAGES_PER_ADDRESS)

    @field_validator("live_log", mode="before")
    @classmethod
    def _check_live_log(cls, value: object) -> object:
        if isinstance(value, str) and value.strip() not in ("", "0", "1"):
            raise ValueError("'1' (on) or '0' (off)")
        return (isinstance(value, str) and value.strip() == "1") or value is True

    @field_validator("timing", mode="before")
    @classmethod
    def _check_timing(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value


def _whole(value: object, *, lowest: int, highest: int, unit: str = "") -> object:
    """A setting's whole number, read by ``read_whole`` (its digits counted first); the error says what is allowed."""
    if not isinstance(value, str):
        return value
    try:
        return read_whole(value, lowest=lowest, highest=highest)
    except NumberRefused:
        raise ValueError(f"a whole number from {lowest} to {highest}{unit}") from None


class SettingsError(ValueError):
    """A ``SCOREPAD_*`` setting holds a value the store cannot use; ``str(err)`` names it and what is allowed."""


def load_settings() -> StoreSettings:
    """The settings from the environment; raises ``SettingsError`` naming each bad setting and its allowed values."""
    try:
        return StoreSettings()
    except ValidationError as err:
        raise SettingsError(_describe(err)) from None


def load_server_settings() -> ServerSettings:
    """The web server's settings from the environment; raises ``SettingsError`` naming each bad setting."""
    try:
        return ServerSettings()
    except ValidationError as err:
        raise SettingsError(_describe(err)) from None


def _describe(err: ValidationError) -> str:
    """One plain line for pydantic's errors: "SCOREPAD_SQLITE_SYNCHRONOUS is 'fast'; allowed: 'FULL' or 'NORMAL'"."""
    parts = []
    for problem in err.errors():
        field = str(problem["loc"][0]) if problem.get("loc") else "?"
        name = f"SCOREPAD_{field.upper()}"
        given = problem.get("input")
        expected = (problem.get("ctx") or {}).get("expected")
        if expected:
            allowed = str(expected)
        elif problem.get("type", "").startswith("int"):
            allowed = "a whole number"
        else:
            allowed = str(problem.get("msg", "")).removeprefix("Value error, ")
        shown = repr(given) if len(str(given)) <= 40 else f"{str(given)[:20]!r}... ({len(str(given))} characters)"
        parts.append(f"{name} is {shown}; allowed: {allowed}")
    return "; ".join(parts)


def data_dir() -> Path:
    """The directory for the default database file.

    A packaged Flet app gets its own storage directory through
    ``FLET_APP_STORAGE_DATA``; elsewhere platformdirs' user data directory.
    """
    flet_dir = os.environ.get("FLET_APP_STORAGE_DATA")
    if flet_dir:
        return Path(flet_dir)
    return Path(user_data_dir(APP_NAME, appauthor=False))


def default_url() -> str:
    """The SQLite URL of the default database file (the directory is created)."""
    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / DB_FILE_NAME}"


def normalize_url(url: str) -> URL:
    """Turn what a user typed into a SQLAlchemy URL.

    A bare path is an SQLite file; ``postgres://`` and ``postgresql://`` use
    psycopg 3, the only PostgreSQL driver installed. Raises ``ValueError`` for
    a URL that is neither SQLite nor PostgreSQL or cannot be parsed.
    """
    text = url.strip()
    if "://" not in text:
        return make_url(f"sqlite:///{Path(text).expanduser()}")
    try:
        parsed = make_url(text)
    except (ArgumentError, ValueError) as err:  # ValueError: a port that is not a number
        raise ValueError(f"cannot read the database URL {text!r}") from err
    backend = parsed.get_backend_name()
    if backend in ("postgres", "postgresql"):
        return parsed.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        return parsed
    raise ValueError(f"unsupported database {backend!r}: use an SQLite path or a PostgreSQL URL")


def resolve_url(url: str | None = None, settings: StoreSettings | None = None) -> URL:
    """The database to open: ``url``, else ``SCOREPAD_DATABASE_URL``, else the default file."""
    chosen = url or (settings or StoreSettings()).database_url or default_url()
    return normalize_url(chosen)
