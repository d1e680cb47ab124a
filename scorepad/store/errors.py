"""The store's own errors; the engine's errors (IllegalEventError, ...) pass through."""

from __future__ import annotations


class StoreError(Exception):
    """Base of the store's errors; ``str(err)`` is one plain sentence."""


class StoreConflict(StoreError):
    """Another writer got there first (a sequence number or the match was taken).

    Nothing was written. Retrying is safe: reload the match (``Store.load``) and
    apply the entry again if it still makes sense.
    """

    def __init__(
        self,
        message: str = "another device wrote to this match first; reload it and try again",
        *,
        revision: int | None = None,
        device: str | None = None,
    ) -> None:
        super().__init__(message)
        # The match's revision now, and the device that made its latest entry, where known.
        self.revision = revision
        self.device = device


class UnknownMatch(StoreError, LookupError):
    """No match with that id is stored."""

    def __init__(self, match_id: object) -> None:
        super().__init__(f"no match with id {match_id} is stored")
        self.match_id = match_id


class NotInTrash(StoreError, LookupError):
    """No match with that id is in the Trash (never deleted, or restored already)."""

    def __init__(self, match_id: object) -> None:
        super().__init__(f"match {match_id} is not in the Trash")
        self.match_id = match_id


class NothingToUndo(StoreError):
    """Undo or redo was asked for where there is nothing to undo or redo."""


class NothingToAmend(StoreError):
    """An amendment was asked for where the last entry is not an event (or was already withdrawn)."""


class MatchFinished(StoreError):
    """The match was closed with ``Store.finish`` and takes no more entries."""


class BrokenLog(StoreError):
    """A stored log no longer replays through the rules (a rules change, or tampering)."""


class AwaitsSettlement(StoreError):
    """A record was asked for while a hand awaits its settlement.

    The contract needs ``remaining`` for a hand that ended by going out or
    by a block (records.md §3), and only the settlement gives it, so such a
    record would be refused by the referee.
    """


class SchemaTooNew(StoreError):
    """The database was migrated by a newer scorepad than this one."""


class DatabaseUnavailable(StoreError):
    """The database could not be used just now; nothing of the write was stored.

    ``reason`` says what is wrong in a few words ("the disk is full");
    ``str(err)`` is the whole sentence for the screen. The subclasses name
    the usual causes, so a caller may act on one (a read-only file will not
    heal by retrying, a lock will).
    """

    reason = "the database could not be used"

    def __init__(self, reason: str | None = None, *, saving: bool = True) -> None:
        self.reason = reason or type(self).reason
        self.saving = saving
        if saving:
            message = f"The score-pad can't save right now: {self.reason}. Nothing was lost; try again."
        else:
            message = f"The score-pad can't read the database right now: {self.reason}; try again."
        super().__init__(message)


class DiskFull(DatabaseUnavailable):
    """The disk (or the database's quota) is full."""

    reason = "the disk is full"


class DatabaseLocked(DatabaseUnavailable):
    """Another program holds the database's write lock past the busy timeout."""

    reason = "another program is holding the database (locked)"


class ConnectionLost(DatabaseUnavailable):
    """The connection to the database server was lost or refused."""

    reason = "the connection to the database was lost"


class ReadOnlyDatabase(DatabaseUnavailable):
    """The database file (or server) does not accept writes."""

    reason = "the database file is read-only"


class DatabaseGone(DatabaseUnavailable):
    """The SQLite file was removed or replaced while the store had it open."""

    reason = "the database file has disappeared"


class CompanionLost(DatabaseUnavailable):
    """A file SQLite keeps beside the database (its ``-wal`` or ``-shm``) vanished, was replaced or cut short.

    Such a file is SQLite's own and in use: the ``-wal`` holds the latest
    entries until SQLite copies them into the database file, the ``-shm``
    indexes it. The store copies what the lost file held into the database
    through a connection that still has it open, then opens fresh files, so
    the next try works. ``kept`` is False when that copy failed: then the
    entries saved since the last copy may be gone, and the sentence says so.
    """

    reason = "a file beside the database disappeared"

    def __init__(self, reason: str | None = None, *, saving: bool = True, kept: bool = True) -> None:
        super().__init__(reason, saving=saving)
        self.kept = kept
        if not kept:
            self.args = (
                f"The score-pad stopped: {self.reason}, and the latest entries it held could not be copied"
                " into the database; check the match before going on.",
            )


class SaveUncertain(DatabaseUnavailable):
    """The connection dropped while the database was committing: the entry may or may not be stored.

    The store forgets its view of the match, so the next read shows what the
    database kept.
    """

    reason = "the connection to the database was lost while saving"

    def __init__(self, reason: str | None = None, *, saving: bool = True) -> None:
        super().__init__(reason, saving=saving)
        self.args = (
            f"The score-pad lost the database while saving: {self.reason}; reload the match to see"
            " whether the last entry was kept.",
        )


class AccessRefused(StoreError, PermissionError):
    """The door refused the write (``scorepad.access``): the message says why and who may; nothing was written."""
