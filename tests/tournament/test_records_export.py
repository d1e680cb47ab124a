"""The event's records export: each record written replays; a hand awaiting its settlement is left out and said."""

from __future__ import annotations

import json
from pathlib import Path

from scorepad.rules import parse_record, replay
from scorepad.tournament import TournamentService
from scorepad.tournament.exports import export_event

from .helpers import game_hands, new_event, play_hands


def test_a_table_awaiting_its_settlement_is_left_out_of_the_records_and_said(
    service: TournamentService, tmp_path: Path
) -> None:
    event, director = new_event(service, ["Ann", "Bob", "Cy", "Dee"], rounds=1)
    view = service.pair_round(director, event)
    first, second = (t for t in view.tables if not t.bye)
    hands = game_hands("smartt", 2, 7, (("target", 60),))
    settled = next(i for i, hand in enumerate(hands) if "remaining" in hand)
    # Table one has played up to a hand that went out or blocked, not yet settled; table two has settled it.
    unsettled = [*hands[:settled], {k: v for k, v in hands[settled].items() if k != "remaining"}]
    play_hands(service, service.join_table(event, view.codes[first.number]), event, first.match_id, unsettled)
    play_hands(
        service, service.join_table(event, view.codes[second.number]), event, second.match_id, hands[: settled + 1]
    )
    assert service.store.load(first.match_id).current.needs_settlement

    skipped: list[str] = []
    written = export_event(service, director, event, tmp_path, formats=["records"], skipped=skipped)

    assert [p.name for p in written] == [f"round-1-table-{second.number}.json"]
    [said] = skipped
    assert said.startswith(f"round 1 table {first.number} left out: match {first.match_id}'s hand {settled + 1} "), said
    assert said.endswith(
        "awaits its settlement (the tiles or pips left in each hand): settle it on the table screen, then export"
    )
    for path in written:
        replay(parse_record(json.loads(path.read_text())))  # the referee takes every record written
