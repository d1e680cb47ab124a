"""The Core tables of the store's models, typed for the queries that bypass the ORM.

SQLAlchemy's declarative mapping gives every ``table=True`` model a
``__table__``, but SQLModel declares none to type checkers, so code that
builds Core statements (``update(...)``, ``insert(...)``, ``select(t.c.x)``)
takes the table from here instead of reading the attribute untyped.
"""

from __future__ import annotations

from sqlalchemy import Table
from sqlmodel import SQLModel


def core_table(model: type[SQLModel]) -> Table:
    """The ``Table`` that ``model`` is mapped to. Raises ``TypeError`` for a model that is no table."""
    table = getattr(model, "__table__", None)
    if not isinstance(table, Table):
        raise TypeError(f"{model.__name__} is not mapped to a table")
    return table
