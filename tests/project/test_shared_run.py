"""The generated-text checks share one catalogue run per test run (tests/_helpers.once_per_test_run), also
across pytest-xdist workers: the first worker computes, the others read what it wrote."""

from __future__ import annotations

import pytest

from _helpers import once_per_test_run


class _Factory:
    """What once_per_test_run uses of pytest's tmp_path_factory: one worker's base temp folder."""

    def __init__(self, base):
        self.base = base

    def getbasetemp(self):
        return self.base


def _workers(tmp_path, n=2):
    return [_Factory(tmp_path / f"popen-gw{i}") for i in range(n)]


def test_a_value_is_computed_once_and_read_by_the_other_workers(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "run1")
    calls = []

    def compute():
        calls.append(1)
        return {"claims": [{"id": "a.b", "margin": 0.5}]}

    got = [once_per_test_run(w, "records", compute) for w in _workers(tmp_path)]
    assert calls == [1] and got[0] == got[1] == {"claims": [{"id": "a.b", "margin": 0.5}]}


def test_another_test_run_computes_again(tmp_path, monkeypatch):
    calls = []
    for run in ("run1", "run2"):
        monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", run)
        once_per_test_run(_workers(tmp_path)[0], "records", lambda: calls.append(1) or [1])
    assert len(calls) == 2  # a stale file of an earlier run is never read


def test_a_failure_in_the_computing_worker_reaches_the_waiting_one(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_TESTRUNUID", "run1")
    first, second = _workers(tmp_path)

    def boom():
        raise ValueError("a checker crashed")

    with pytest.raises(ValueError):
        once_per_test_run(first, "records", boom)
    with pytest.raises(RuntimeError, match="failed in another worker: ValueError: a checker crashed"):
        once_per_test_run(second, "records", lambda: pytest.fail("must not compute again"))


def test_a_nan_is_refused_rather_than_shared(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_TESTRUNUID", raising=False)
    with pytest.raises(ValueError, match="Out of range float"):
        once_per_test_run(_workers(tmp_path)[0], "records", lambda: [float("nan")])
