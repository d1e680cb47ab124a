"""Make the wall sheets' pictures for the docs: a club day exported to event.pdf, its pages as PNG.

    uv run --group dev python scripts/wall_sheets.py [--out docs/images]

Nine entrants on a throwaway SQLite database, four Swiss rounds: round 1
played, Hal withdraws, Gio enters late, round 2 played, round 3 paired; then
``export_event`` writes event.pdf and poppler's ``pdftoppm -r 60`` (Debian's
poppler-utils) turns pages 1, 3 and 4 (pairings by name, standings,
cross-table) into ``wall-sheets-*.png``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from scorepad.store import open_store
from scorepad.tournament import TournamentService
from scorepad.tournament.exports import export_event
from tests.tournament.helpers import club_day

ENTRANTS = ["Fay Okafor", "Émile Laurent", "Bob Hughes", "Ann Price", "Dee Walsh", "Cy Adams", "Eve Moss", "Hal Reid"]
PAGES = {1: "wall-sheets-by-name", 2: "wall-sheets-by-table", 3: "wall-sheets-standings", 4: "wall-sheets-cross-table"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/images"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        store = open_store(f"sqlite:///{folder / 'club.db'}")
        try:
            service = TournamentService(store)
            event, director = club_day(service, ENTRANTS, withdraws="Hal Reid", late="Gio Russo")
            export_event(service, director, event, folder, formats=["pdf"])
        finally:
            store.close()
        args.out.mkdir(parents=True, exist_ok=True)
        for page, name in PAGES.items():
            stem = folder / name
            subprocess.run(
                [
                    "pdftoppm",
                    "-r",
                    "60",
                    "-png",
                    "-singlefile",
                    "-f",
                    str(page),
                    "-l",
                    str(page),
                    str(folder / "event.pdf"),
                    str(stem),
                ],
                check=True,
            )
            shutil.copy(stem.with_suffix(".png"), args.out / f"{name}.png")
            print(args.out / f"{name}.png")


if __name__ == "__main__":
    main()
