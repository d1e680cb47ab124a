"""The Dispute screen's view-model: step through a match event by event and see why each ruling stands.

Plain Python, no Flet. A stored match (from History) or a record file (a
``sniff-record/1``) is replayed by the engine and analysed by
``scorepad.analysis``; this model keeps which hand and event is shown and
arranges what the screen draws. Every number and sentence comes from the
engine (``scorepad.rules``) or the analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorepad.analysis import HandAnalysis, analyse_hand
from scorepad.analysis.findings import Finding, hand_findings
from scorepad.analysis.narrate import clutch_words, event_words, placing_words, renege_line
from scorepad.app.models.ports import MatchStore
from scorepad.app.models.readings import picture_of
from scorepad.app.models.views import Picture
from scorepad.rules import HandState, MatchState, Play, RuleSet, SniffError, load_record, parse_tile, replay
from scorepad.rules.presets import Topic
from scorepad.rules.rulesets import cited
from scorepad.rules.wording import (
    call_consequence,
    end_words,
    renege_words,
    scores_words,
    settlement_steps,
    side_does,
)


@dataclass(frozen=True)
class CountPart:
    """One part of the board count: where it comes from, its points, and the rule behind it."""

    label: str
    points: int
    section: str


@dataclass(frozen=True)
class FindingLine:
    """One finding of the hand as the screen lists it: what, where, the ruling it leads to and its evidence."""

    index: int  # its place in the hand's findings, from 0: the screen's ``finding-N``
    event: int  # the event it jumps to, from 1
    kind: str  # "renege", "missed score", "miscall", "missed automatic"
    title: str
    ruling: str  # the analysis's ruling, the engine's §11.1 preview included for a renege
    pays: str | None  # who pays the penalty ("Bob pays", "Ann & Cat pay"), in the engine's words
    tiles: tuple[tuple[int, int], ...]  # the evidence, as tiles
    shown: bool  # whether the event shown is the finding's event


@dataclass(frozen=True)
class DisputeView:
    """Everything the Dispute screen draws for the event shown."""

    title: str
    where: str  # "Hand 2 (game 1) · event 3 of 14"
    event: str  # the event in words, or the start of the hand
    picture: Picture
    count: int
    parts: tuple[CountPart, ...]
    count_words: str  # "left 3 (Smartt §7.1) + ... = 13"
    scores: str
    call: str | None  # the call judged, for a play
    notes: tuple[str, ...]  # the analysis at this event: choices, automatics, renege evidence, words
    settlement: tuple[str, ...]  # the settlement step by step, once the hand's end is shown
    ruling: str  # the hand's final ruling in one sentence
    findings: tuple[FindingLine, ...]  # the hand's findings, in event order
    hands: int
    hand: int
    can_back: bool
    can_next: bool


class Dispute:
    """A match opened for a dispute: which hand and how many of its events are shown.

    ``step`` 0 shows the hand before its first event; ``step`` n shows it after
    its n-th event, and the last step also shows how the hand ended.
    """

    def __init__(self, match: MatchState, *, title: str, match_id: Any = None) -> None:
        if not match.hands:
            raise SniffError("this match has no hands yet, so there is nothing to look at")
        self.match = match
        self.title = title
        self.match_id = match_id
        # Each hand is analysed when first shown: opening a long match costs one hand, not all.
        self._found: dict[int, HandAnalysis] = {}
        self._findings: dict[int, tuple[Finding, ...]] = {}
        self.hand = 1
        self.step = min(1, len(match.hands[0].events))

    @classmethod
    def from_store(cls, store: MatchStore, match_id: int, *, device: str = "app") -> Dispute:
        """Open a stored match (raises the store's UnknownMatch, or SniffError for a match with no hands)."""
        match = store.load(match_id, device=device)
        return cls(match, title=f"Match {match_id}", match_id=match_id)

    @classmethod
    def from_record(cls, text: str | bytes, *, name: str = "record") -> Dispute:
        """Open a record file's text; raises SniffError (one sentence) when it is unreadable or illegal."""
        return cls(replay(load_record(text)), title=name)

    # -- moving ----------------------------------------------------------------------

    @property
    def route(self) -> str:
        """The page address of a stored match's dispute (a record file has none of its own)."""
        return f"/dispute/{self.match_id}" if self.match_id is not None else "/dispute"

    def _events(self, number: int) -> int:
        return len(self.match.hands[number - 1].events)

    def next(self) -> None:
        """One event on; past the end of a hand, the start of the next."""
        if self.step < self._events(self.hand):
            self.step += 1
        elif self.hand < len(self.match.hands):
            self.hand, self.step = self.hand + 1, 0

    def back(self) -> None:
        """One event back; before the start of a hand, the end of the one before."""
        if self.step > 0:
            self.step -= 1
        elif self.hand > 1:
            self.hand -= 1
            self.step = self._events(self.hand)

    def jump(self, number: int) -> None:
        """Show hand ``number`` (from 1) after its first event."""
        if 1 <= number <= len(self.match.hands):
            self.hand = number
            self.step = min(1, self._events(number))

    def go_to(self, number: int, step: int) -> None:
        """Show hand ``number`` after ``step`` events (clamped to the hand)."""
        self.jump(number)
        self.step = max(0, min(step, self._events(self.hand)))

    def open_finding(self, index: int) -> None:
        """Show the event of finding ``index`` (from 0) of the hand shown; an unknown index changes nothing."""
        found = self.findings_of(self.hand)
        if 0 <= index < len(found):
            self.go_to(self.hand, found[index].event)

    # -- reading ---------------------------------------------------------------------

    def analysis_of(self, number: int) -> HandAnalysis:
        """The analysis of hand ``number`` (from 1), worked out once."""
        if number not in self._found:
            self._found[number] = analyse_hand(self.match, self.match.hands[number - 1])
        return self._found[number]

    def findings_of(self, number: int) -> tuple[Finding, ...]:
        """The findings of hand ``number`` (from 1), as the analysis gives them, worked out once."""
        if number not in self._findings:
            self._findings[number] = hand_findings(self.match, self.analysis_of(number))
        return self._findings[number]

    def view(self) -> DisputeView:
        """What to draw for the hand and step shown."""
        match, rules = self.match, self.match.rules
        hand = match.hands[self.hand - 1]
        found = self.analysis_of(self.hand)
        shown = _replayed(match, hand, self.step)
        layout = shown.layout
        parts = tuple(CountPart(label, points, _section(rules, label)) for label, points in layout.breakdown())
        # The section in square brackets: a Sniff's part already ends in its own parentheses.
        words = " + ".join(f"{p.label}{f' [{p.section}]' if p.section else ''}" for p in parts)
        count_words = f"{words} = {layout.board_count}" if parts else "no tiles yet = 0"
        total = len(hand.events)
        notes: list[str] = []
        call = None
        if self.step:
            index = self.step - 1
            event = hand.events[index]
            what = event_words(match, self.hand, index)
            notes += _notes(match, found, self.step)
            if isinstance(event, Play) and index and shown.last_play is not None and not shown.last_play.is_set:
                last = shown.last_play
                called = last.score if event.call is None else event.call
                call = call_consequence(rules, last, called, claim_open=shown.claim_open)
            elif isinstance(event, Play):
                call = f"The set scores its count without a call{cited(rules, Topic.SET)}."
        else:
            what = f"Start of hand {self.hand}: {match.players[hand.setter]} sets"
        at_end = self.step == total
        settlement: tuple[str, ...] = ()
        if at_end and hand.settlement is not None:
            settlement = tuple(settlement_steps(match, hand.settlement))
        if at_end and found.plays:
            notes.append(clutch_words(match, found.plays[-1].unseen))
        notes += [s.words for s in found.sayings if s.event == 0 and at_end]
        last_hand = len(match.hands)
        return DisputeView(
            title=self.title,
            where=f"Hand {self.hand} of {last_hand} (game {hand.game}) · event {self.step} of {total}",
            event=what,
            picture=picture_of(layout),
            count=layout.board_count,
            parts=parts,
            count_words=count_words,
            scores=scores_words(match, shown.scores if not at_end else hand.scores_after),
            call=call,
            notes=tuple(notes),
            settlement=settlement,
            ruling=ruling(match, hand),
            findings=tuple(_line(match, i, f, self.step) for i, f in enumerate(self.findings_of(self.hand))),
            hands=last_hand,
            hand=self.hand,
            can_back=self.hand > 1 or self.step > 0,
            can_next=self.hand < last_hand or self.step < total,
        )


def ruling(match: MatchState, hand: HandState) -> str:
    """The hand's final ruling in one sentence: how it ended and the scores it leaves."""
    after = scores_words(match, hand.scores_after)
    if hand.how == "in-progress":
        return f"Hand {hand.number} is still in play, {match.players[hand.turn]} to move: {after}."
    if hand.how == "renege":
        return f"Hand {hand.number}: " + renege_words(match, hand, hand.renege_by or 0).split(". ")[0] + f": {after}."
    words = end_words(match, hand)
    if hand.settlement is not None and hand.settlement.award is not None and hand.settlement.to is not None:
        words += f", and {match.side_name(hand.settlement.to)} takes {hand.settlement.award}"
    elif hand.settlement is not None and hand.settlement.debits is not None:
        words += ", and each player's pips are taken off"
    return f"Hand {hand.number}: {words}; {after}."


def _line(match: MatchState, index: int, finding: Finding, step: int) -> FindingLine:
    """One finding as the screen lists it; the payers are the engine's preview of the penalty."""
    pays = side_does(match, finding.penalty.side, "pays") if finding.penalty is not None else None
    return FindingLine(
        index=index,
        event=finding.event,
        kind=str(finding.kind),
        title=finding.title,
        ruling=finding.ruling,
        pays=pays,
        tiles=tuple(parse_tile(tile, match.rules.max_pip) for tile in finding.tiles),
        shown=finding.event == step,
    )


def _replayed(match: MatchState, hand: HandState, step: int) -> HandState:
    """The hand after its first ``step`` events, rebuilt by the engine."""
    trial = HandState(
        match.rules, setter=hand.setter, scores_before=hand.scores_before, number=hand.number, game=hand.game
    )
    for event in hand.events[:step]:
        trial.apply(event)
    return trial


def _section(rules: RuleSet, label: str) -> str:
    """The rule behind one part of the count: the Sniff's stage table, or the count of open ends."""
    return rules.cite(Topic.SNIFF) if label.startswith("Sniff") else rules.cite(Topic.COUNT)


def _notes(match: MatchState, found: HandAnalysis, step: int) -> list[str]:
    """What the analysis says at event ``step`` of the hand."""
    out: list[str] = []
    for review in found.plays:
        if review.event == step:
            if review.alternatives:
                out.append("Other choices: " + "; ".join(placing_words(match, p) for p in review.alternatives))
            if review.missed:
                best = max(review.missed, key=lambda p: p.score)
                out.append(f"Missed chance: {placing_words(match, best)}")
            if review.automatic is not None:
                out.append(review.automatic.words)
    for evidence in found.reneges:
        if evidence.event == step:
            line = renege_line(match, evidence)
            out.append(line[0].upper() + line[1:])
    out += [s.words for s in found.sayings if s.event == step]
    return out
