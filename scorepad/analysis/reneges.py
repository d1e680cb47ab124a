"""Renege evidence: at each draw and pass, did the player hold a tile that would have played?

Smartt §11.1 (and §5.1: a player holding a playable tile must play it). The
proof uses the record alone (``knowledge``): every tile the player showed
after the moment was either in the rack then or came from the boneyard
afterwards. If more of the tiles that fitted were shown than tiles were taken
in before they were shown, at least one of them was in the rack: proved. If
none of the tiles that fitted can have been in the rack: cleared. Otherwise
the record cannot tell: possible.
"""

from __future__ import annotations

from collections.abc import Collection

from scorepad.analysis.knowledge import END, Knowledge, Reveal
from scorepad.analysis.naming import ends_words, named_tile, tiles_count, tiles_words
from scorepad.analysis.values import RenegeEvidence, Verdict
from scorepad.rules import Draw, Layout, MatchState, RuleSet
from scorepad.rules.presets import Topic


def _cite(rules: RuleSet) -> str:
    parts = [p for p in (rules.cite(Topic.RENEGE), rules.cite(Topic.MANDATORY_PLAY)) if p]
    return f" ({'; '.join(parts)})" if parts else ""


def _when(match: MatchState, reveal: Reveal) -> str:
    if reveal.event == END:
        return "still held it when the hand ended"
    return f"played it at event {reveal.event + 1}"


def renege_evidence(
    match: MatchState,
    know: Knowledge,
    *,
    hand_number: int,
    index: int,
    event: object,
    seat: int,
    layout: Layout,
    unplayed: Collection[tuple[int, int]],
) -> RenegeEvidence:
    """The evidence for the draw or pass at event ``index`` (0-based) of a hand.

    ``layout`` is the layout as it stood and ``unplayed`` the tiles not on it (sorted pairs).
    """
    rules = match.rules
    who = match.players[seat]
    moment = "draw" if isinstance(event, Draw) else "pass"
    did = "drew" if moment == "draw" else "passed"
    ends = tuple(layout.open_ends().items())
    values = {v for _, v in ends}
    fitting = {t for t in unplayed if t[0] in values or t[1] in values}
    shown = [r for r in know.shown_after(seat, index) if r.tile in fitting]
    shown.sort(key=lambda r: r.event)
    # What the draw itself brings may be what was played next: its tiles count as taken in.
    start = index if moment == "draw" else index + 1
    cite = _cite(rules)

    def evidence(verdict: Verdict, reasoning: str) -> RenegeEvidence:
        return RenegeEvidence(
            hand=hand_number,
            event=index + 1,
            seat=seat,
            moment=moment,
            verdict=verdict,
            fitting=tuple(f"{a}-{b}" for a, b in (r.tile for r in shown)),
            open_ends=ends,
            reasoning=reasoning,
        )

    for k, reveal in enumerate(shown, 1):
        taken = know.intake_between(seat, start, reveal.event)
        if k > taken:
            witnesses = shown[:k]
            if k == 1:
                tile = reveal.tile
                where = ", ".join(pos for pos, v in ends if v in tile)
                reason = (
                    f"{who} {did} holding {named_tile(rules, tile)}, which fitted the open {where} end"
                    f" ({ends_words(ends)}): {who} {_when(match, reveal)} and took no tile from the boneyard"
                    f" in between{cite}."
                )
            else:
                reason = (
                    f"{who} {did} while {tiles_count(k)} that fitted"
                    f" ({tiles_words(rules, [w.tile for w in witnesses])})"
                    f" were shown later, but only {tiles_count(taken)} came from the boneyard before they were shown,"
                    f" so at least {k - taken} of them {'was' if k - taken == 1 else 'were'} already in the rack"
                    f" (open ends: {ends_words(ends)}){cite}."
                )
            return evidence(Verdict.PROVED, reason)
    if shown:
        taken = know.intake_between(seat, start, END + 1)
        return evidence(
            Verdict.POSSIBLE,
            f"{who} later showed {tiles_words(rules, [r.tile for r in shown])}, which would have fitted"
            f" ({ends_words(ends)}), but took {tiles_count(taken)} from the boneyard from then on,"
            f" so {'it' if len(shown) == 1 else 'they'} may have been drawn afterwards.",
        )
    # No tile the player showed later fitted: could a tile never seen have been in the rack?
    unseen = sorted(t for t in fitting if t not in know.elsewhere_by)
    if not fitting or not unseen:
        why = (
            "no unplayed tile fitted any open end"
            if not fitting
            else f"every tile that fitted ({tiles_words(rules, sorted(fitting))}) was shown by someone else"
        )
        return evidence(Verdict.CLEARED, f"{who} {did} holding nothing that fitted ({ends_words(ends)}): {why}.")
    if know.rack_known(seat, index):
        return evidence(
            Verdict.CLEARED,
            f"Every tile {who} held then is known (played later or listed at the end),"
            f" and none fitted {ends_words(ends)}.",
        )
    return evidence(
        Verdict.POSSIBLE,
        f"{who}'s rack at that moment is not fully known, and {tiles_count(len(unseen))} that would have fitted"
        f" ({ends_words(ends)}) {'was' if len(unseen) == 1 else 'were'} never seen: {tiles_words(rules, unseen)}.",
    )
