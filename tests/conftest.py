"""Shared test settings: hypothesis profiles.

The default profile keeps the suite quick; `HYPOTHESIS_PROFILE=long pytest -m slow` (or
with the whole suite) runs the long fuzzing campaign documented in README.md.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Messages follow the locale unless --lang is given: the tests read English, whatever the
# locale of the machine running them (the host processes they start inherit this).
os.environ["LANGUAGE"] = "en"
