"""Hypothesis profiles for the rules suite: quick by default, deeper with HYPOTHESIS_PROFILE=thorough."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "rules",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.register_profile(
    "thorough",
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "rules"))
