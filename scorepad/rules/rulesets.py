"""The three presets (smartt, american, jaques) and their options.

One frozen settings object per match; the engine's few policy choices read its
fields. The table of records.md §2 is the authority for every number here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from scorepad.rules.errors import RecordFormatError

PRESETS = ("smartt", "american", "jaques")
OPTION_TYPES: dict[str, type] = {
    "target": int,
    "muggins": bool,
    "sniff": bool,
    "set": str,
    "partners": bool,
    "renege": str,
}
SETS = {"double-six": 6, "double-nine": 9}
RENEGE_RULES = ("rollback25", "deduct50")


class RuleSet(BaseModel):
    """Every rule that varies between presets, options and player counts."""

    model_config = ConfigDict(frozen=True)

    name: Literal["smartt", "american", "jaques"]
    players: int
    options: dict[str, object]
    target: int
    calls_required: bool
    muggins: bool
    sniff: bool
    max_pip: int
    partners: bool
    renege: Literal["rollback25", "deduct50"] | None
    tiles_each: int
    protected: int
    draw_limit: int | None
    long_sides_first: bool
    settlement: Literal["award", "debit"]
    setter_rule: Literal["rotate", "out", "winner"]
    game_points: bool

    @property
    def sides(self) -> int:
        """How many sides keep a score: two partnerships, or one per seat."""
        return 2 if self.partners else self.players

    @property
    def set_size(self) -> int:
        """How many tiles the set holds (28 for double-six, 55 for double-nine)."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    @property
    def boneyard_size(self) -> int:
        """Tiles left in the boneyard after the deal."""
        return self.set_size - self.players * self.tiles_each

    def side_of(self, seat: int) -> int:
        """The side a seat scores for (records.md §1: seats 0 and 2 are side 0 with partners)."""
        return seat % 2 if self.partners else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that make up a side."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def describe(self) -> str:
        """A one-line summary for headers and listings."""
        extras = [f"target {self.target}"]
        if self.partners:
            extras.append("partners")
        if not self.sniff:
            extras.append("no Sniff (All Fives)")
        if self.muggins:
            extras.append("muggins")
        if self.max_pip == 9:
            extras.append("double-nine")
        if self.renege:
            extras.append(f"renege {self.renege}")
        return f"{self.name}, {self.players} players, " + ", ".join(extras)


def make_ruleset(name: object, players: int, options: object = None) -> RuleSet:
    """Build the RuleSet for a preset, a player count and the record's options.

    Raises RecordFormatError for an unknown preset, option or option value
    (records.md §6: exit 2), partners without four players included.
    """
    if name not in PRESETS:
        raise RecordFormatError(f"unknown rules {name!r}; the rules are " + ", ".join(repr(p) for p in PRESETS))
    opts = _read_options(options)
    partners_default = players == 4 and name in ("smartt", "american")
    partners = bool(opts.get("partners", partners_default))
    if partners and players != 4:
        raise RecordFormatError(f"option 'partners' is for four players, and this record has {players}")
    max_pip = SETS[str(opts.get("set", "double-six"))]
    calls_required = name == "smartt" or bool(opts.get("muggins", False))
    renege = opts.get("renege", "rollback25" if name == "smartt" else None)
    return RuleSet(
        name=name,
        players=players,
        options=opts,
        target=int(opts.get("target", _default_target(name, players, partners))),
        calls_required=calls_required,
        muggins=bool(opts.get("muggins", False)),
        sniff=bool(opts.get("sniff", True)),
        max_pip=max_pip,
        partners=partners,
        renege=renege,  # type: ignore[arg-type]
        tiles_each=_tiles_each(name, players, max_pip),
        # Smartt, 'Two, three and four players': 2 / 1 / 0 tiles never drawn.
        protected={2: 2, 3: 1, 4: 0}[players] if name == "smartt" else 0,
        # Smartt §8.1: at most two tiles a visit; American and Jaques draw until a tile plays.
        draw_limit=2 if name == "smartt" else None,
        # Smartt §6 and American 'The Sniff': long sides first; Jaques step 2: any order.
        long_sides_first=name != "jaques",
        settlement="debit" if name == "american" else "award",
        setter_rule={"smartt": "rotate", "american": "out", "jaques": "winner"}[name],  # type: ignore[arg-type]
        game_points=name == "smartt",
    )


def _read_options(options: object) -> dict[str, object]:
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise RecordFormatError("'options' must be an object such as {\"target\": 100}")
    for key, value in options.items():
        if key not in OPTION_TYPES:
            raise RecordFormatError(f"unknown option {key!r}; the options are " + ", ".join(OPTION_TYPES))
        want = OPTION_TYPES[key]
        if want is int:
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise RecordFormatError(f"option 'target' must be a positive whole number, not {value!r}")
        elif not isinstance(value, want):
            raise RecordFormatError(f"option {key!r} must be {_type_word(want)}, not {value!r}")
        if key == "set" and value not in SETS:
            raise RecordFormatError(f"option 'set' must be 'double-six' or 'double-nine', not {value!r}")
        if key == "renege" and value not in RENEGE_RULES:
            raise RecordFormatError(f"option 'renege' must be 'rollback25' or 'deduct50', not {value!r}")
    return dict(options)


def _type_word(kind: type) -> str:
    return {bool: "true or false", str: "a string"}.get(kind, kind.__name__)


def _default_target(name: str, players: int, partners: bool) -> int:
    if name == "smartt":
        return 250  # Smartt §1 and §9.3
    if name == "american":
        return 250 if players == 2 else 200  # American 'Equipment and objective'
    return 121 if partners else 61  # Jaques 'Winning and scoring', 'Partnership Sniff'


def _tiles_each(name: str, players: int, max_pip: int) -> int:
    if max_pip == 9:
        return 9 if players == 2 else 7  # Jaques 'Double-Nine Sniff'
    if name == "jaques":
        return 7 if players == 2 else 5  # Jaques 'Setting up' step 2
    return {2: 7, 3: 6, 4: 5}[players]  # Smartt player table; American 'Deal and lead'
