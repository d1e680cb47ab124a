"""Where the package's files are: the top-level ``assets/`` folder, found without Flet.

In a source checkout (and an editable install) it is the repository's
``assets/``; a wheel carries the same files as ``scorepad/assets``
(``[tool.hatch.build.targets.wheel.force-include]`` in ``pyproject.toml``).
The app serves it (``scorepad.app.host.assets``); the tournament's wall
sheets read their fonts from it (``assets/fonts``), so both find it here,
below every floor of the house.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import scorepad


def assets_dir() -> Path:
    """The folder of tile faces, icons, fonts and the web manifest.

    Flet serves a directory, so the package must be installed as files (a
    wheel, a checkout), not zipped. Raises ``RuntimeError`` when neither place
    holds the folder (a broken installation).
    """
    packaged = Path(str(importlib.resources.files("scorepad").joinpath("assets")))
    if packaged.is_dir():
        return packaged
    checkout = Path(scorepad.__file__).resolve().parent.parent / "assets"
    if checkout.is_dir():
        return checkout
    raise RuntimeError(f"the score-pad's pictures are missing from the installation ({packaged})")
