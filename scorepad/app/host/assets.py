"""Where the served pictures are: the top-level ``assets/`` folder (Flet's ``assets_dir``).

In a source checkout (and an editable install) they are the repository's
``assets/``; a wheel carries the same files as ``scorepad/assets``
(``[tool.hatch.build.targets.wheel.force-include]`` in ``pyproject.toml``), so
``pip install .`` then ``scorepad web`` serves a complete page. The folder is
found by ``scorepad.resources`` (flet-free: the wall sheets read their fonts there).
"""

from __future__ import annotations

from scorepad.resources import assets_dir

__all__ = ["ASSETS_DIR", "assets_dir"]

ASSETS_DIR = assets_dir()
