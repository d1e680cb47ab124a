"""The match list when a listing cache row is corrupt: one bad row must not hide every match.

``Store.list_matches`` decodes every match's cached summary in one go (fast:
the listing target is 100 ms for 10,000 matches). If one row's cache is not
JSON, is missing a field, or is NULL, that one decode fails for all of them,
and ``scorepad matches`` and the web home page would fail for every match
(issue 11 §8). ``list_row_by_row`` is the slow path taken then: it reads the
caches one by one, rebuilds a bad one's summary from the match's log (the
truth; the cache is only a copy of it), and lists a match whose log does not
replay either as ``unreadable`` rather than not at all.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Text, cast, select
from sqlmodel import Session

from scorepad.rules import MatchState
from scorepad.store.errors import StoreError
from scorepad.store.models import Match
from scorepad.store.summary import MatchSummary, summarize, summary_from_cache
from scorepad.store.tables import core_table

log = logging.getLogger(__name__)
UNREADABLE = "unreadable"


def list_row_by_row(
    transact: Callable[[Callable[[Session], Any]], Any], load: Callable[[int], MatchState]
) -> list[MatchSummary]:
    """Every stored match, newest first, each from its own cache or, if that is bad, from its log.

    ``transact(body)`` runs ``body(session)`` in a read transaction (the
    store's own); ``load(match_id)`` replays a match (``Store.load``).
    """
    table = core_table(Match)

    def read(session: Session) -> list[tuple[int, str | None, datetime | None, str]]:
        query = (
            select(table.c.id, cast(table.c.summary, Text), table.c.created_at, table.c.rules)
            .where(table.c.deleted_at.is_(None))
            .order_by(table.c.id.desc())
        )
        return [tuple(row) for row in session.execute(query).all()]

    listing = []
    for match_id, text, created, rules in transact(read):
        try:
            listing.append(summary_from_cache(match_id, json.loads(text or "null")))
            continue
        except (ValueError, KeyError, TypeError) as err:
            log.warning("match %s: its listing cache cannot be read (%s); rebuilt from its log", match_id, err)
        listing.append(_rebuilt(match_id, created, rules, load))
    return listing


def _rebuilt(match_id: int, created: datetime | None, rules: str, load: Callable[[int], MatchState]) -> MatchSummary:
    started = created or datetime.fromtimestamp(0, UTC)
    try:
        return summary_from_cache(match_id, summarize(load(match_id), started=started))
    except (StoreError, ValueError, KeyError, TypeError) as err:
        log.warning("match %s: its log cannot be replayed either (%s)", match_id, err)
        return MatchSummary(match_id, [], rules, started, UNREADABLE, [], None, 0, 0, [], [], {})
