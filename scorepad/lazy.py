"""Loading a command's module only when that command runs, so a referee call never loads Flet or SQL.

Every import in the package stands at the top of its module (ruff's PLC0415).
The command line is the one place that chooses a module at run time: it names
the module of each command as a string and loads it here when the command is
run, as an installed program's entry points are named.
"""

from __future__ import annotations

import importlib
from typing import Any


def load(target: str) -> Any:
    """The object that ``target`` names (``"package.module:name"``), its module loaded on first use.

    Raises ``ImportError`` or ``AttributeError`` when ``target`` names nothing: a
    programming error, never a user's.
    """
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)
