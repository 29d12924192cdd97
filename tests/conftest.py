"""Hypothesis settings profiles, chosen by the environment variable HYPOTHESIS_PROFILE.

dev (default): fast feedback; ci: what .ci/run uses, more examples and derandomized so CI
is reproducible; thorough: the nightly-style run.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

# No profile has a deadline or the too_slow health check: both are wall-clock limits, and a busy machine would fail
# tests that pass on a quiet one (issue 46). Every other health check counts examples, not seconds.
settings.register_profile("dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


@pytest.fixture(scope="session")
def catalogue_records(tmp_path_factory):
    """The records of one quick check of every built-in claim, as a fresh clone computes them
    (:func:`proofs_check.verdict_table.fresh_records`): computed once per test run, on first use, and shared
    by every generated-text check (the verdict table, the README's counts, the contract fields of every
    claim), so the whole run checks the catalogue once, not once per module or per xdist worker."""
    from _helpers import once_per_test_run
    from proofs_check.verdict_table import fresh_records

    return once_per_test_run(tmp_path_factory, "catalogue-records", fresh_records)
