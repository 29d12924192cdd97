"""petheory._threads: the free cores, and the BLAS and torch pools limited and restored."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from petheory import _threads
from petheory.errors import ValidationError


@pytest.fixture
def fresh():
    """No cached reading of the run queue before or after the test."""
    _threads._cache = None
    yield
    _threads._cache = None


def test_free_cores_lie_between_one_and_the_usable_cores(fresh):
    assert 1 <= _threads.free_cores() <= _threads.usable_cores()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/loadavg")
def test_a_busy_machine_gets_no_more_threads_than_it_has_free_cores(fresh):
    # One busy loop per usable core: whatever else runs, no core is free, so the answer is 1.
    n = _threads.usable_cores()
    if n > 8:
        pytest.skip("keeps a busy loop per core; too many cores here")
    loops = [subprocess.Popen([sys.executable, "-c", "import time\nt = time.time() + 20\nwhile time.time() < t: pass"])
             for _ in range(n)]
    try:
        time.sleep(0.3)  # the loops are running (interpreter start-up is ~30 ms)
        assert _threads.free_cores(fresh=True) == 1
        assert _threads.pick_threads(None) == 1 and _threads.pick_threads(3) == 3
    finally:
        for p in loops:
            p.kill()
            p.wait()


def test_the_run_queue_excludes_this_process(fresh):
    # The reading thread itself is runnable: counted by /proc/loadavg, then subtracted.
    r = _threads._runnable_elsewhere()
    if r is None:
        pytest.skip("no /proc/loadavg")
    assert r >= 0


def test_blas_threads_limit_inside_and_restore_after():
    from threadpoolctl import threadpool_info

    before = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
    with _threads.blas_threads(1) as n:
        assert n == 1
        assert {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"} == {1}
    assert [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"] == before


def test_torch_threads_set_inside_and_restore_after():
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    with _threads.torch_threads(1) as n:
        assert n == 1 and torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with _threads.torch_threads(None) as n:  # the free cores, never above the current setting
        assert 1 <= n <= before and torch.get_num_threads() == n
    assert torch.get_num_threads() == before


@pytest.mark.parametrize("bad", [0, -2, 1.5, True, "2"])
def test_a_thread_count_below_one_or_not_an_integer_is_refused(bad):
    with pytest.raises(ValidationError, match=r"threads must be (an integer )?>= 1"):
        _threads.pick_threads(bad)
