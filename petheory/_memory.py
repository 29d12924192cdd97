"""Memory estimates taken before allocating: a size that cannot fit is refused, not attempted.

Every public entry point that allocates from a size the user gives (``n``, ``N``, ``d``, a
vocabulary, a number of seeds, Lanczos steps, a grid) calls :func:`require` with its estimate
first. When the estimate exceeds what the machine has, :class:`MemoryLimitError` (a
``ValueError``, so the CLI prints one line and exits 2) names the size, the estimate, what is
available and, where there is one, the option that takes a memory-light path.

What is available is, in this order: the limit set by ``petheory --max-memory SIZE`` (see
:func:`limit`), the ``PETHEORY_MAX_MEMORY`` environment variable, and otherwise the memory the
operating system reports as available (``MemAvailable`` in ``/proc/meminfo``, capped by a
cgroup ``memory.max``; ``os.sysconf`` elsewhere). A limit may be given above the machine's
memory on purpose (swap); it is the user's word.

Row blocks are the same budget from the other side: the geometry's :math:`O(n^2)` loops (distances, Gram
blocks, stress sums) run over blocks of :func:`block_rows` rows, so that their temporaries stay near
:data:`BLOCK_BYTES` (or :data:`CACHE_BYTES`, cache-resident) whatever n and V (the (n, n) outputs themselves
are the caller's, and :func:`require` is theirs).
"""

from __future__ import annotations

import math
import os
import re
from contextlib import contextmanager

from petheory.errors import ValidationError, ValidationTypeError

ENV = "PETHEORY_MAX_MEMORY"

#: floating-point throughput assumed for the time estimates in messages (a laptop core, BLAS-3)
FLOPS = 1e10

#: estimates below this are not compared with the machine's free memory (only with an explicit limit)
_SMALL = 64 * 1024**2

_limit: int | None = None  # set by ``petheory --max-memory`` for the duration of one command


#: Bytes of temporaries per row block in the blocked loops (about 64 MiB).
BLOCK_BYTES = 64 * 2**20
#: Bytes per temporary in the blocked stress of dense/coordinate sources (L2-resident).
CACHE_BYTES = 2**19


class MemoryLimitError(ValidationError):
    """A computation's memory estimate exceeds what is available (raised before allocating)."""


_UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1000, "kib": 1024, "m": 1024**2, "mb": 1000**2, "mib": 1024**2,
          "g": 1024**3, "gb": 1000**3, "gib": 1024**3, "t": 1024**4, "tb": 1000**4, "tib": 1024**4}


def parse_size(text) -> int:
    """Bytes from ``'8G'``, ``'512MiB'``, ``'2.5GB'``, ``'1e9'`` (K/M/G/T alone are binary)."""
    if isinstance(text, bool):
        raise ValidationTypeError(f"memory size must be a number of bytes or text like '8G', got {text!r}")
    if isinstance(text, (int, float)):
        value, unit = float(text), ""
    else:
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*", str(text))
        if not m or m.group(2).lower() not in _UNITS:
            raise ValidationError(f"memory size must look like 8G, 512MiB, 2.5GB or a number of bytes; got {text!r}")
        value, unit = float(m.group(1)), m.group(2).lower()
    nbytes = value * _UNITS[unit]
    if not math.isfinite(nbytes) or nbytes <= 0:
        raise ValidationError(f"memory size must be positive and finite, got {text!r}")
    return int(nbytes)


def format_bytes(nbytes: float) -> str:
    """``7.28 TiB`` style (binary units, 3 significant digits)."""
    n = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} EiB"  # pragma: no cover


def format_seconds(seconds: float) -> str:
    s = float(seconds)
    if s < 120:
        return f"{s:.3g} s"
    if s < 7200:
        return f"{s / 60:.3g} min"
    if s < 2 * 86400:
        return f"{s / 3600:.3g} h"
    if s < 2 * 365 * 86400:
        return f"{s / 86400:.3g} days"
    return f"{s / (365 * 86400):.3g} years"


def _meminfo() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup() -> int | None:
    """Room left under a cgroup v2 ``memory.max`` (a container's limit), when there is one."""
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            text = fh.read().strip()
        if text == "max":
            return None
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
            used = int(fh.read().strip())
        return max(int(text) - used, 0)
    except (OSError, ValueError):
        return None


def _sysconf() -> int | None:
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, OSError, ValueError):
        return None


def available() -> tuple[int | None, str]:
    """(bytes available to a computation, where that number comes from); (None, ...) when unknown."""
    if _limit is not None:
        return _limit, "the --max-memory limit"
    env = os.environ.get(ENV, "").strip()
    if env:
        try:
            return parse_size(env), f"the {ENV} limit"
        except (TypeError, ValueError) as exc:
            raise ValidationError(f"environment variable {ENV}: {exc}") from None
    free = _meminfo()
    where = "available memory (MemAvailable, /proc/meminfo)"
    if free is None:
        free, where = _sysconf(), "available memory (os.sysconf)"
    cg = _cgroup()
    if cg is not None and (free is None or cg < free):
        free, where = cg, "memory left under the cgroup limit (/sys/fs/cgroup/memory.max)"
    return free, where


@contextmanager
def limit(nbytes):
    """Within the block, ``nbytes`` (an int or text like ``'8G'``) is the memory available; None: unchanged."""
    global _limit
    saved, saved_env = _limit, os.environ.get(ENV)
    if nbytes is not None:
        _limit = parse_size(nbytes)
        os.environ[ENV] = str(_limit)  # worker processes (sweep --engine process/slurm) inherit the limit
    try:
        yield
    finally:
        _limit = saved
        if nbytes is not None:
            if saved_env is None:
                os.environ.pop(ENV, None)
            else:
                os.environ[ENV] = saved_env


def array_bytes(*shape, itemsize: int = 8) -> int:
    """Bytes of an array of this shape, in Python integers (no overflow at absurd sizes)."""
    total = int(itemsize)
    for s in shape:
        total *= max(int(s), 0)
    return total


def block_rows(n: int, width: int, copies: int = 4) -> int:
    """Rows per block when each row holds ``copies`` float64 temporaries of ``width`` entries, in [1, n].

    Parameters
    ----------
    n : int
        Rows in all (the block never exceeds them).
    width : int
        Entries per row of one temporary (n for an (n, n) loop, ``max(n, V)`` when a row also holds
        its V square roots).
    copies : int, optional
        float64 temporaries of that width alive at once per row.

    Returns
    -------
    int
        ``BLOCK_BYTES // (8 * width * copies)`` clipped to [1, n]: the temporaries of one block stay
        within :data:`BLOCK_BYTES` (64 MiB) unless a single row is larger.

    Examples
    --------
    >>> block_rows(100, 100)  # small: one block holds every row
    100
    >>> block_rows(32768, 32768, copies=3)  # 85 rows x 3 copies x 32768 x 8 bytes <= 64 MiB
    85
    >>> block_rows(10**6, 10**8)  # a row alone is over budget: still one row per block
    1
    """
    return int(max(1, min(n, BLOCK_BYTES // max(1, 8 * width * copies))))


def require(nbytes, what: str, *, alternative: str | None = None, flops: float | None = None,
            memory: tuple[int, str] | None = None) -> None:
    """Refuse (:class:`MemoryLimitError`) when ``nbytes`` exceed what is available.

    ``what`` names the computation and its size (``"dense n x n matrix (n = 100000)"``);
    ``alternative`` says which option takes a memory-light path, in the library's parameter names (a command's
    flag is the same word: its dest is the keyword); ``flops``
    (when the work is predictable) adds a time estimate at :data:`FLOPS` to the message. ``memory``: (bytes, where)
    of another memory than the host's (a GPU's free memory), unless a limit (``--max-memory``, the environment
    variable) is set, which still applies.
    """
    nbytes = int(nbytes)
    if nbytes < _SMALL and _limit is None and not os.environ.get(ENV, "").strip():
        return  # hot paths (claim searches build thousands of small tables): no /proc read for what always fits
    limited = _limit is not None or os.environ.get(ENV, "").strip()
    avail, where = memory if memory is not None and not limited else available()
    if avail is None or nbytes <= avail:
        return
    msg = f"{what} needs about {format_bytes(nbytes)}"
    if flops is not None:
        msg += f" and about {format_seconds(flops / FLOPS)} of compute"
    msg += f", more than the {format_bytes(avail)} of {where}" if not where.startswith("the ") else f", more than {where} of {format_bytes(avail)}"
    msg += f"; {alternative}" if alternative else "; use a smaller size"
    raise MemoryLimitError(msg)



#: Bytes per position of ``petheory report``'s kernel column and spectra: the column (8), the FFT of its
#: 2N circulant embedding (2 x 16) and the Lanczos/work vectors of the certified extreme eigenvalues (~8 x 8).
REPORT_BYTES_PER_POSITION = 8 + 2 * 16 + 8 * 8


def require_model_report(model, *, length=None, multiples=(1, 2, 4, 8), what: str = "report") -> None:
    """Refuse ``petheory report`` on ``model`` (a :class:`petheory.scheme.Scheme`) before it allocates.

    The report builds the kernel column up to N (``length``, default: the model's extended context,
    as :func:`petheory.analyses.report.default_length` chooses it) and the spectra at ``m * L`` for
    each multiple ``m``: O(positions) memory (:data:`REPORT_BYTES_PER_POSITION`) and O(positions x d/2)
    cosines.
    """
    s, L = model.main.positions, int(model.context)
    if length is None:  # the report's default N: max(max_context, L * scale)
        scale = float(s.params.get("scale", (s.params.get("scaling_params") or {}).get("scale", 1.0)))
        length = max(int(model.max_context), int(round(L * scale)), 2)
    n = max(int(length), max((int(m) for m in multiples), default=1) * L)
    require(array_bytes(n, itemsize=REPORT_BYTES_PER_POSITION), f"{what}: kernel and spectra up to N = {n:,} positions",
            alternative="use a smaller length (or multiples)",
            flops=float(n) * max(int(s.d), 2) * 10)
