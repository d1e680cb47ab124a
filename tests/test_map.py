"""The map of the house (docs/map.md) names the same floors, in the same order, as the import-linter contracts CI
enforces (pyproject.toml), so the page a new maintainer reads first cannot drift from what is checked."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def _named(module: str) -> str:
    """How the map writes a module: ``scorepad.app.host`` as `app.host`."""
    return f"`{module.removeprefix('scorepad.')}`"


def test_every_layers_contract_is_a_row_of_the_map_in_its_order() -> None:
    rows = [line for line in (ROOT / "docs/map.md").read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    layered = [c for c in _contracts() if c["type"] == "layers"]
    assert len(layered) == 2, "the package layers and the app's floors"
    for contract in layered:
        floors = " > ".join(r" \| ".join(_named(m.strip()) for m in layer.split("|")) for layer in contract["layers"])
        assert any(floors in row for row in rows), f"docs/map.md has no row saying {floors}"


def test_every_package_the_map_forbids_flet_or_sql_is_in_its_contract() -> None:
    text = (ROOT / "docs/map.md").read_text(encoding="utf-8")
    for contract in _contracts():
        if contract["type"] != "forbidden":
            continue
        assert contract["name"] in text, f"docs/map.md does not name the contract {contract['name']!r}"
        if "Flet" in contract["name"] and contract["name"].startswith("only"):
            row = next(line for line in text.splitlines() if line.startswith(f"| {contract['name']} |"))
            for module in contract["source_modules"]:
                assert _named(module) in row, f"{module} is not named in the map's row for {contract['name']!r}"
