"""Threads for the machine as it is: the cores free now, and one way to limit BLAS and torch threads.

On a shared machine a thread pool as wide as the machine is a trap: when another process holds a
core, every parallel BLAS call or torch operation waits at its barrier for the thread that is not
running (a 2-thread training step measured 3-17x slower than 1 thread on a busy 2-core machine;
a 256 x 256 ``eigvalsh`` took seconds). So petheory asks how many cores are free *now*
(:func:`free_cores`) and sizes its pools to that, unless the user said how many (``--threads``).

* :func:`usable_cores`: the cores this process may run on (affinity mask, cgroup CPU quota);
* :func:`free_cores`: of those, the ones no other process is running on now;
* :func:`blas_threads`: BLAS pools (numpy's and scipy's OpenBLAS/MKL) limited inside a block, through
  one threadpoolctl controller made once per process (its library discovery costs milliseconds);
* :func:`torch_threads`: torch's intra-op pool inside a block;
* :func:`pick_threads`: the user's count, else the free cores.

Internal helper: usable from every layer, imports neither torch (it uses torch only when the
caller already has) nor anything above it.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import time
from numbers import Integral

from petheory._validate import Interval, validate_params

__all__ = ["usable_cores", "free_cores", "pick_threads", "blas_threads", "torch_threads"]

#: :func:`free_cores` samples the run queue this many times, this far apart (seconds): one reading
#: of an instantaneous count is noisy; the median of a few over ~20 ms is not, and costs nothing
#: beside work that is worth threading.
_SAMPLES, _SPACING = 5, 0.004
#: A reading is reused for this long (seconds), so a loop of calls does not sample every time.
_TTL = 2.0
_cache: tuple[float, int] | None = None
_controller = None
_controller_modules = -1  # len(sys.modules) when the controller was made


def usable_cores() -> int:
    """Cores this process may use: its CPU affinity, capped by a cgroup v2 CPU quota (containers).

    Examples
    --------
    >>> usable_cores() >= 1
    True
    """
    n = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        with open("/sys/fs/cgroup/cpu.max", encoding="ascii") as fh:
            quota, period = fh.read().split()[:2]
        if quota != "max":
            n = min(n, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, n)


def _runnable_elsewhere() -> int | None:
    """Threads of other processes running or ready to run now (Linux: ``/proc/loadavg``'s R field, less ours)."""
    try:
        with open("/proc/loadavg", encoding="ascii") as fh:
            total = int(fh.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return None
    ours = 0
    try:
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/stat", encoding="ascii", errors="replace") as fh:
                    stat = fh.read()
            except OSError:  # the thread ended meanwhile
                continue
            ours += stat[stat.rfind(")") + 2 :][:1] == "R"
    except OSError:
        ours = 1  # at least the thread reading
    return max(0, total - max(ours, 1))


def free_cores(fresh: bool = False) -> int:
    """Usable cores that no other process is running on now, at least 1.

    The run queue is sampled a few times over about 20 ms (``/proc/loadavg``'s count of runnable
    threads, less this process's own) and the median taken; a reading is reused for 2 seconds
    unless ``fresh``.
    Where the run queue cannot be read (not Linux), the 1-minute load average stands in for it.

    Examples
    --------
    >>> 1 <= free_cores() <= usable_cores()
    True
    """
    global _cache
    now = time.monotonic()
    if not fresh and _cache is not None and now - _cache[0] < _TTL:
        return _cache[1]
    usable = usable_cores()
    readings = []
    for i in range(_SAMPLES):
        r = _runnable_elsewhere()
        if r is None:
            break
        readings.append(r)
        if i + 1 < _SAMPLES:
            time.sleep(_SPACING)
    if readings:
        busy = sorted(readings)[len(readings) // 2]
    elif hasattr(os, "getloadavg"):
        busy = int(os.getloadavg()[0])  # includes this process when it has been running: errs towards fewer threads
    else:  # pragma: no cover - no load information at all
        busy = 0
    free = max(1, min(usable, usable - busy))
    _cache = (now, free)
    return free


@validate_params({"threads": [Interval(Integral, 1, None), None]})
def pick_threads(threads: int | None = None) -> int:
    """``threads`` when given (the user's ``--threads``), else :func:`free_cores`.

    Examples
    --------
    >>> pick_threads(3)
    3
    """
    return free_cores() if threads is None else threads


def _blas_controller():
    """One threadpoolctl controller, made after numpy's and scipy's BLAS are loaded, and made again only when
    modules were imported since (a new extension module may have loaded another BLAS, which must be limited too).

    ``threadpoolctl.threadpool_limits`` finds the loaded libraries anew on every call (it walks every shared object
    of the process: about 1 ms, several with torch loaded); ``petheory check`` entered such a block 1,226 times in
    one quick run."""
    global _controller, _controller_modules
    if _controller is None or (_controller and _controller_modules != len(sys.modules)):
        import numpy  # noqa: F401  (load the BLAS libraries the controller must see)
        import scipy.linalg  # noqa: F401

        try:
            from threadpoolctl import ThreadpoolController
        except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn, a dependency
            _controller = False
            return None
        _controller = ThreadpoolController()
        _controller_modules = len(sys.modules)
    return _controller or None


@contextlib.contextmanager
def blas_threads(n: int | None = 1):
    """BLAS pools limited to ``n`` threads inside the block (``None``: :func:`free_cores`).

    Many small BLAS calls (iterative solvers, cache-sized blocks) want ``n=1``: threads only add
    a barrier per call, and on a busy machine each barrier waits for a descheduled thread. Large
    products (an n x n by n x b GEMM) want the free cores.

    Examples
    --------
    >>> import numpy as np
    >>> with blas_threads(1):
    ...     float(np.ones((3, 3)) @ np.ones(3) @ np.ones(3))
    9.0
    """
    n = pick_threads(n)
    ctl = _blas_controller()
    if ctl is None:  # pragma: no cover
        yield n
        return
    with ctl.limit(limits=n, user_api="blas"):
        yield n


@contextlib.contextmanager
def torch_threads(n: int | None = None):
    """torch's intra-op pool set to ``n`` threads inside the block, restored after (``None``: the
    free cores, but never more than torch's current setting, which the user may have lowered).

    Imports torch only if the caller has already imported it (otherwise there is nothing to limit).

    Examples
    --------
    >>> with torch_threads(1) as n:
    ...     n
    1
    """
    torch = sys.modules.get("torch")
    if torch is None:
        yield pick_threads(n)
        return
    before = torch.get_num_threads()
    k = min(free_cores(), before) if n is None else pick_threads(n)
    torch.set_num_threads(k)
    try:
        yield k
    finally:
        torch.set_num_threads(before)
