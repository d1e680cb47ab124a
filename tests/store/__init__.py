"""Tests of the persistent store (scorepad.store)."""
