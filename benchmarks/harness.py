"""Side-by-side timing of a petheory function and its reference, and the RESULTS.md writer.

A benchmark script (``benchmarks/bench_<name>.py``) builds a list of :class:`Case` objects, each a
petheory call and a reference call computing the same thing, and hands them to :func:`run_cases`:

* agreement first, outside any timing: both are called once, and ``agree(ours, ref)`` returns the
  largest discrepancy and the tolerance it must stay within (derived from size and unit roundoff,
  as in the tests); a disagreement aborts the benchmark;
* then ``warmup`` untimed calls of each, then ``repeats`` timed calls, petheory and reference
  alternating so that drift in machine load hits both alike; the median is reported, and
  ``ratio = reference median / petheory median`` (> 1: petheory is faster).

:func:`write_section` puts the script's table (with ``--write``; by default it is printed) into
``benchmarks/RESULTS.md`` between
``<!-- bench:NAME -->`` and ``<!-- /bench:NAME -->``, replacing only that section (idempotent),
under a lock and with an atomic rename, so several scripts can write to one file.

No timing is ever asserted: machines differ, and this one is shared.
"""

from __future__ import annotations

import datetime as _dt
import gc
import os
import platform
import re
import statistics
import subprocess
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

_T0 = time.perf_counter()  # the script's start: each section says how long it took
HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
HEADER = (
    "# Benchmark results\n\n"
    "Each section below is written by one script in `benchmarks/` (`python benchmarks/run.py all --write`; see "
    "`benchmarks/README.md`). Times are medians of repeated calls in one process, petheory and the "
    "reference alternating; `ratio` = reference / petheory (> 1: petheory is faster). Outputs are "
    "checked to agree within a derived tolerance before anything is timed.\n"
)


@dataclass
class Case:
    """One comparison: ``ours()`` and ``reference()`` compute the same array(s)."""

    label: str
    ours: Callable[[], object]
    reference: Callable[[], object]
    agree: Callable[[object, object], tuple[float, float]]  # -> (max discrepancy, tolerance)
    params: dict = field(default_factory=dict)
    threaded_reference: bool = False  # also time the reference on one thread (see the module docstring)


@dataclass
class Result:
    label: str
    ours_s: list[float]
    reference_s: list[float]
    discrepancy: float
    tolerance: float
    params: dict = field(default_factory=dict)
    reference_1t_s: list[float] | None = None  # the reference on one thread, when it is a threaded one
    load: tuple[float | None, float | None] = (None, None)  # 1-minute load average before and after the timing

    @property
    def ratio_1t(self) -> float | None:
        return None if not self.reference_1t_s else statistics.median(self.reference_1t_s) / self.ours_median

    @property
    def ours_median(self) -> float:
        return statistics.median(self.ours_s)

    @property
    def reference_median(self) -> float:
        return statistics.median(self.reference_s)

    @property
    def ratio(self) -> float:
        return self.reference_median / self.ours_median


def time_once(fn: Callable[[], object]) -> float:
    """Wall time of one call; the result is dropped and garbage collected outside the timing."""
    gc.collect()
    t0 = time.perf_counter()
    out = fn()
    t = time.perf_counter() - t0
    del out
    return t


def compare(case: Case, *, warmup: int = 1, repeats: int = 5) -> Result:
    """Check agreement, then time ``case.ours`` and ``case.reference`` side by side."""
    if repeats < 1 or warmup < 0:
        raise ValueError(f"need repeats >= 1 and warmup >= 0, got repeats={repeats}, warmup={warmup}")
    ours, ref = case.ours(), case.reference()
    load0 = _load_now()
    discrepancy, tol = case.agree(ours, ref)
    del ours, ref
    if not discrepancy <= tol:  # also catches NaN
        raise AssertionError(f"{case.label}: petheory and reference disagree by {discrepancy:.3g} > tolerance {tol:.3g}")
    for _ in range(warmup):
        time_once(case.ours), time_once(case.reference)
    t_ours, t_ref = [], []
    for _ in range(repeats):
        t_ours.append(time_once(case.ours))
        t_ref.append(time_once(case.reference))
    t_ref1 = None
    if case.threaded_reference:  # one call: it is the slow side, and only read beside the main ratio
        with one_thread():
            t_ref1 = [time_once(case.reference)]
    return Result(case.label, t_ours, t_ref, float(discrepancy), float(tol), dict(case.params), t_ref1,
                  (load0, _load_now()))


@contextmanager
def one_thread():
    """BLAS pools and torch's intra-op pool (when the script uses torch) limited to one thread inside the block."""
    from petheory._threads import blas_threads, torch_threads

    with blas_threads(1), torch_threads(1):
        yield


@dataclass
class Target:
    """A measured number against its limit: ``measured <= limit`` (``at_most=True``) or ``>= limit``."""

    what: str
    measured: float
    limit: float
    unit: str = ""
    at_most: bool = True
    beside: str = ""  # the reference it is read beside, with its own number
    load: float | None = field(default_factory=lambda: _load_now())  # 1-minute load average when it was measured

    @property
    def met(self) -> bool:
        m = self.measured
        return m == m and (m <= self.limit if self.at_most else m >= self.limit)  # NaN (not measured): missed


def render_targets(targets: list[Target]) -> str:
    """The targets as a Markdown table with a PASS/MISS column computed from each measurement."""
    lines = ["| target | measured | limit | beside | load | PASS/MISS |", "|---|---:|---:|---|---:|---|"]
    for t in targets:
        measured = "not measured" if t.measured != t.measured else f"{t.measured:.3g}{(' ' + t.unit) if t.unit else ''}"
        limit = f"{'<=' if t.at_most else '>='} {t.limit:g}{(' ' + t.unit) if t.unit else ''}"
        lines.append(f"| {t.what} | {measured} | {limit} | {t.beside} | {_fmt_load(t.load)} | "
                     f"{'PASS' if t.met else '**MISS**'} |")
    return "\n".join(lines)


def peak_rss_mib() -> float:
    """This process's peak resident memory so far (MiB).

    Linux: ``VmHWM`` of /proc/self/status, the peak of this address space alone. Not ``ru_maxrss``,
    which Linux carries across ``exec``: a child started by a big parent would report the parent's
    size at the fork."""
    import resource
    import sys

    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 2**10  # kB
    except (OSError, ValueError, IndexError):
        pass
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / 2**20 if sys.platform == "darwin" else rss / 2**10


def run_cases(cases: list[Case], *, warmup: int = 1, repeats: int = 5, progress: bool = True) -> list[Result]:
    results = []
    for c in cases:
        try:
            r = compare(c, warmup=warmup, repeats=repeats)
        except AssertionError as exc:  # report the disagreement in the table; keep the other cases
            print(f"  {exc}", flush=True)
            results.append(Result(c.label + " — DISAGREES, not timed", [float("nan")], [float("nan")], float("nan"),
                                  float("nan"), dict(c.params)))
            continue
        if progress:
            print(f"  {c.label}: petheory {_ms(r.ours_median)} ms, reference {_ms(r.reference_median)} ms, "
                  f"ratio {r.ratio:.2f}", flush=True)
        results.append(r)
    return results


# ----------------------------------------------------------------------------- machine


def machine_info() -> dict:
    """What the numbers depend on: CPU, cores, library versions, BLAS threads, load."""
    info = {
        "cpu": _cpu_model(),
        "logical_cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
    }
    for pkg in ("numpy", "scipy", "torch", "petheory"):
        try:
            info[pkg] = metadata.version(pkg)  # torch's version without importing torch
        except metadata.PackageNotFoundError:
            info[pkg] = None
    info["blas"] = _blas()
    info["load_average"] = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
    info["git"] = _git_commit()
    return info


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _blas() -> str:
    import numpy  # noqa: F401  (load numpy's BLAS so threadpoolctl can see it)

    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown (threadpoolctl not installed)"
    libs = [f"{i.get('internal_api')} {i.get('version') or ''} ({i.get('num_threads')} threads)".replace("  ", " ")
            for i in threadpool_info() if i.get("user_api") == "blas"]
    return ", ".join(libs) or "none found"


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


# ----------------------------------------------------------------------------- RESULTS.md


def _ms(seconds: float) -> str:
    ms = 1e3 * seconds
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def render_section(name: str, title: str, results: list[Result], machine: dict, *, notes: str = "",
                   warmup: int, repeats: int, command: str) -> str:
    """The Markdown body of one benchmark's section (without the markers)."""
    when = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    m = machine
    lines = [
        f"## {name}: {title}",
        "",
        f"`{command}` — {when}, git `{m.get('git')}`, {warmup} warm-up + {repeats} timed calls each.",
        "",
        f"Machine: {m['cpu']}, {m['logical_cores']} logical cores ({m['usable_cores']} usable), {m['os']}; "
        f"Python {m['python']}, numpy {m['numpy']}, scipy {m['scipy']}, torch {m['torch']}; BLAS: {m['blas']}; "
        f"load average {m['load_average']} at start, {_load_now()} at end.",
        "",
    ]
    one = any(r.reference_1t_s for r in results)
    if results:
        lines += (["| case | petheory median (ms) | reference median (ms) | ratio | reference, 1 thread (ms) | "
                   "ratio vs 1 thread | max discrepancy | tolerance | load |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
                  if one else ["| case | petheory median (ms) | reference median (ms) | ratio | max discrepancy | tolerance "
                               "| load |", "|---|---:|---:|---:|---:|---:|---:|"])
    for r in results:
        extra = ""
        if one:
            extra = (f"{_ms(statistics.median(r.reference_1t_s))} | {r.ratio_1t:.2f} | " if r.reference_1t_s
                     else "— | — | ")
        lines.append(f"| {r.label} | {_ms(r.ours_median)} | {_ms(r.reference_median)} | {r.ratio:.2f} | {extra}"
                     f"{r.discrepancy:.2g} | {r.tolerance:.2g} | {_fmt_load(*r.load)} |")
    if notes:
        lines += ["", notes.strip()]
    lines += ["", f"This section took {time.perf_counter() - _T0:.0f} s (the script from its start, imports included)."]
    return "\n".join(lines)


def _load_now():
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def _fmt_load(before, after=None) -> str:
    """The 1-minute load average beside a figure: one value, or before-after of its timing."""
    if before is None:
        return "?"
    return f"{before:.1f}" if after is None or abs(after - before) < 0.05 else f"{before:.1f}-{after:.1f}"


def _markers(name: str) -> tuple[str, str]:
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"section name must be letters, digits, '_', '.', '-'; got {name!r}")
    return f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"


def replace_section(text: str, name: str, body: str) -> str:
    """``text`` with the section ``name`` set to ``body``: replaced in place, or appended at the end."""
    start, end = _markers(name)
    block = f"{start}\n{body.strip()}\n{end}"
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if len(pattern.findall(text)) > 1:
        raise ValueError(f"{name!r} section appears more than once; fix RESULTS.md by hand")
    if pattern.search(text):
        return pattern.sub(lambda _m: block, text)
    if start in text or end in text:
        raise ValueError(f"unbalanced markers for section {name!r}; fix RESULTS.md by hand")
    return text.rstrip("\n") + "\n\n" + block + "\n"


def write_section(name: str, body: str, path: Path | str = RESULTS) -> Path:
    """Replace (or add) section ``name`` of ``path``, atomically and under a lock."""
    from petheory.io import atomic_write_text

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path.parent):
        text = path.read_text(encoding="utf-8") if path.exists() else HEADER
        return atomic_write_text(path, replace_section(text, name, body))


@contextmanager
def _locked(folder: Path):
    """An exclusive lock on ``folder`` (flock on its descriptor) for read-modify-write of RESULTS.md."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, still atomic
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def cli(name: str, title: str, make_cases: Callable[[bool], list[Case]], *, notes: str | Callable[[], str] = "",
        argv=None, repeats: int = 5, warmup: int = 1) -> int:
    """The ``main`` of a benchmark script: ``--quick`` (tiny sizes, for a smoke test), ``--write``,
    ``--results PATH``, ``--repeats``, ``--warmup``, ``--no-write``."""
    import argparse

    p = argparse.ArgumentParser(description=f"benchmark {name}: {title}")
    p.add_argument("--quick", action="store_true", help="tiny sizes: checks the benchmark runs, numbers mean little")
    p.add_argument("--repeats", type=int, default=repeats)
    p.add_argument("--warmup", type=int, default=warmup)
    add_output_arguments(p)
    args = p.parse_args(argv)
    destination(args)  # refuse a bad combination before minutes of timing
    machine = machine_info()
    print(f"{name}: {title}", flush=True)
    results = run_cases(make_cases(args.quick), warmup=args.warmup, repeats=args.repeats)
    if callable(notes):  # measured after the cases (targets, growth): called with the parsed --quick
        notes = notes(args.quick)
    return publish(name, title, results, machine, args, notes=notes)


def publish(name: str, title: str, results: list[Result], machine: dict, args, *, notes: str = "") -> int:
    """Render a benchmark's section and write it into RESULTS.md (or print it with ``--no-write``).

    ``args`` carries ``quick``, ``warmup``, ``repeats``, ``results`` and ``no_write`` as parsed by :func:`cli`
    or by a script with its own argument parser."""
    command = f"python benchmarks/run.py {name}" + (" --quick" if args.quick else "")
    body = render_section(name, title, results, machine, notes=notes, warmup=args.warmup, repeats=args.repeats,
                          command=command)
    return emit(name, body, args)


# ----------------------------------------------------------------------------- where a section goes
# The committed RESULTS.md changes only behind an explicit flag (`--write`); by default a section is
# printed. `--quick` numbers (tiny sizes) never go into the committed file.


def add_output_arguments(p) -> None:
    """``--write`` (update the committed RESULTS.md), ``--results PATH`` (write to another file), ``--no-write``."""
    p.add_argument("--write", action="store_true",
                   help="update this benchmark's section of the committed benchmarks/RESULTS.md (default: print it)")
    p.add_argument("--results", default=None, metavar="PATH",
                   help="write the section into the Markdown file PATH instead of printing it")
    p.add_argument("--no-write", action="store_true", help="print the section (the default; kept for old scripts)")


def destination(args) -> Path | None:
    """The file a section goes to, or None to print it. Raises SystemExit(2) on a refused combination."""
    import sys

    results = getattr(args, "results", None)
    if getattr(args, "no_write", False):
        return None
    if results is not None:
        path = Path(results).resolve()
        if args.quick and path == RESULTS.resolve():
            print("error: --quick numbers (tiny sizes) never go into benchmarks/RESULTS.md; "
                  "drop --quick, or pass --results OTHER.md", file=sys.stderr)
            raise SystemExit(2)
        return path
    if getattr(args, "write", False):
        if args.quick:
            print("error: --quick numbers (tiny sizes) never go into benchmarks/RESULTS.md; "
                  "drop --quick, or pass --results OTHER.md", file=sys.stderr)
            raise SystemExit(2)
        return RESULTS
    return None


def emit(name: str, body: str, args) -> int:
    """Print ``body`` or write it as section ``name`` of :func:`destination`'s file."""
    path = destination(args)
    if path is None:
        print(body)
        print(f"(not written: pass --write to update section {name!r} of benchmarks/RESULTS.md)", flush=True)
    else:
        print(f"wrote section {name!r} of {write_section(name, body, path)}")
    return 0
