"""Hypothesis settings profiles, chosen by the environment variable HYPOTHESIS_PROFILE.

dev (default): fast feedback; ci: what .ci/run uses, more examples and derandomized so CI
is reproducible; thorough: the nightly-style run.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=25, deadline=None)
settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture
def scratch():
    """Register throwaway claims inside the test; the claim registry is restored afterwards."""
    from proofs_check import engine

    engine.all_claims()  # load the built-ins first, so the snapshot holds them
    before = dict(engine._CLAIMS)
    yield
    engine._CLAIMS.clear()
    engine._CLAIMS.update(before)
