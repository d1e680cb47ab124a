"""A quicker ``__init__`` for the frozen, slotted dataclasses an analysis makes by the hundred thousand."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any, TypeVar

_Value = TypeVar("_Value")


def quick_init(cls: type[_Value]) -> type[_Value]:
    """Give the frozen, slotted dataclass ``cls`` a quicker ``__init__`` with the same parameters.

    The one ``dataclass`` writes sets each field through ``object.__setattr__`` (the class is
    frozen), a generic lookup for every field; this one hands each value to its slot's own
    descriptor, then calls ``__post_init__`` if the class has one. An analysis makes one of
    these values for nearly every event, and for a ``PlayReview`` this halves the making.
    Apply it above ``@dataclass(frozen=True, slots=True)``. Raises TypeError for a field with
    a default factory (none of ours has one).
    """
    params, body = [], []
    scope: dict[str, Any] = {}
    for field in fields(cls):  # type: ignore[arg-type]
        if field.default_factory is not MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: quick_init takes no default factory")
        if not field.init:
            continue  # set by __post_init__
        name = field.name
        scope[f"_set_{name}"] = getattr(cls, name).__set__
        if field.default is MISSING:
            params.append(name)
        else:
            scope[f"_default_{name}"] = field.default
            params.append(f"{name}=_default_{name}")
        body.append(f"    _set_{name}(self, {name})\n")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "".join(body), scope)  # as dataclass writes its own
    init = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses assigning to a method)
    return cls
