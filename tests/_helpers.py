"""Helpers shared by the test files (import them: ``from _helpers import check_claim``; pytest puts tests/ on sys.path)."""

from __future__ import annotations

import dataclasses
import json
import os
import time


def check_claim(claim_id: str, budget: int | None = None) -> dict:
    """The runner's record of one claim on the quick profile, seed 0.

    ``budget`` replaces the quick profile's number of generated cases of an ``exact`` or
    ``symbolic`` claim (the claim tests use 15-20 to stay fast); None keeps the claim's own.
    """
    from proofs_check import engine, runner

    c = engine.get(claim_id)
    if budget is not None and c.kind in ("exact", "symbolic"):
        c = dataclasses.replace(c, examples={"quick": budget})
    return runner.check_claim(c, profile="quick", seed=0)


#: How long a test worker waits for a value another worker computes (the catalogue run: 1-3 min on 2 loaded cores)
SHARED_WAIT_S = 1800


def once_per_test_run(tmp_path_factory, name: str, compute):
    """``compute()`` (a JSON value) once per test run, even under pytest-xdist: the first worker that asks
    computes it and writes it next to the workers' temp folders (atomically); the others wait for that file
    and read it. Every worker gets the value through the same JSON round trip, so all see the same data."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # one id per test run, shared by its workers
    if run_id is None:  # no xdist: one process, a session fixture already runs once
        return json.loads(json.dumps(compute(), allow_nan=False))
    shared = tmp_path_factory.getbasetemp().parent
    done, failed, claim = (shared / f"{name}-{run_id}{ext}" for ext in (".json", ".failed", ".claim"))
    try:
        os.close(os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:  # another worker computes it
        deadline = time.monotonic() + SHARED_WAIT_S
        while not done.exists():
            if failed.exists():
                raise RuntimeError(f"the shared {name} failed in another worker: {failed.read_text()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"waited {SHARED_WAIT_S} s for another worker's {name}")
            time.sleep(0.2)
        return json.loads(done.read_text(encoding="utf-8"))
    try:
        text = json.dumps(compute(), allow_nan=False)
    except BaseException as e:
        failed.write_text(f"{type(e).__name__}: {e}")
        raise
    tmp = done.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, done)
    return json.loads(text)
