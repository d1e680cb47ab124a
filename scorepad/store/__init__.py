"""The persistent store: matches, their event logs and audit trail, on SQLite or PostgreSQL.

The event log is the truth; every state is rebuilt by replaying it through
the rules engine. See docs/store.md.
"""

from scorepad.store.errors import (
    AccessRefused,
    AwaitsSettlement,
    BrokenLog,
    CompanionLost,
    ConnectionLost,
    DatabaseGone,
    DatabaseLocked,
    DatabaseUnavailable,
    DiskFull,
    MatchFinished,
    NothingToAmend,
    NothingToUndo,
    NotInTrash,
    ReadOnlyDatabase,
    SaveUncertain,
    SchemaTooNew,
    StoreConflict,
    StoreError,
    UnknownMatch,
)
from scorepad.store.snapshot import MatchSnapshot, ReadOnlySnapshot
from scorepad.store.store import AuditItem, Store, open_store
from scorepad.store.summary import MatchSummary

__all__ = [
    "AccessRefused",
    "AuditItem",
    "AwaitsSettlement",
    "BrokenLog",
    "CompanionLost",
    "ConnectionLost",
    "DatabaseGone",
    "DatabaseLocked",
    "DatabaseUnavailable",
    "DiskFull",
    "MatchFinished",
    "MatchSnapshot",
    "MatchSummary",
    "NotInTrash",
    "NothingToAmend",
    "NothingToUndo",
    "ReadOnlyDatabase",
    "ReadOnlySnapshot",
    "SaveUncertain",
    "SchemaTooNew",
    "Store",
    "StoreConflict",
    "StoreError",
    "UnknownMatch",
    "open_store",
]
