"""Where the served pictures are: the top-level ``assets/`` folder (Flet's ``assets_dir``).

In a source checkout (and an editable install) they are the repository's
``assets/``; a wheel carries the same files as ``scorepad/assets``
(``[tool.hatch.build.targets.wheel.force-include]`` in ``pyproject.toml``), so
``pip install .`` then ``scorepad web`` serves a complete page.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

import scorepad


def assets_dir() -> Path:
    """The folder of tile faces, icons and the web manifest, served at the page's root.

    Flet serves a directory, so the package must be installed as files (a
    wheel, a checkout), not zipped. Raises ``RuntimeError`` when neither place
    holds the pictures (a broken installation).
    """
    packaged = Path(str(importlib.resources.files("scorepad").joinpath("assets")))
    if packaged.is_dir():
        return packaged
    checkout = Path(scorepad.__file__).resolve().parent.parent / "assets"
    if checkout.is_dir():
        return checkout
    raise RuntimeError(f"the score-pad's pictures are missing from the installation ({packaged})")


ASSETS_DIR = assets_dir()
