"""The store's own errors; the engine's errors (IllegalEventError, ...) pass through."""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's errors; ``str(err)`` is one plain sentence."""


class StoreConflict(StoreError):
    """Another writer got there first (a sequence number or the match was taken).

    Nothing was written. Retrying is safe: reload the match (``Store.load``) and
    apply the entry again if it still makes sense.
    """

    def __init__(self, message: str = "another device wrote to this match first; reload it and try again") -> None:
        super().__init__(message)


class UnknownMatch(StoreError, LookupError):
    """No match with that id is stored."""

    def __init__(self, match_id: object) -> None:
        super().__init__(f"no match with id {match_id} is stored")
        self.match_id = match_id


class NothingToUndo(StoreError):
    """Undo or redo was asked for where there is nothing to undo or redo."""


class MatchFinished(StoreError):
    """The match was closed with ``Store.finish`` and takes no more entries."""


class BrokenLog(StoreError):
    """A stored log no longer replays through the rules (a rules change, or tampering)."""


class SchemaTooNew(StoreError):
    """The database was migrated by a newer scorepad than this one."""
