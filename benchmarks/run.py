"""Run the benchmarks: every section of ``benchmarks/RESULTS.md`` that this machine can measure, or the ones named.

    python benchmarks/run.py all --write     # the one run behind RESULTS.md (about 20 minutes on 2 cores)
    python benchmarks/run.py                 # the same, printing the sections instead of writing them
    python benchmarks/run.py encodings       # only bench_encodings.py
    python benchmarks/run.py --quick         # tiny sizes: a smoke test of every benchmark (never writes RESULTS.md)
    python benchmarks/run.py --list

Each script runs in its own process (so one benchmark's memory and threads never colour the
next) and, with ``--write``, writes only its own section of RESULTS.md as soon as it is done: a
section that fails or runs past ``--timeout`` loses nothing of the others, and rerunning only the
failed names fills the gap. With ``--write`` the run ends with a ``run`` section: each section's
wall time, its exit status, and the load average before and after. Other options (--repeats,
--warmup, --results PATH, --write) are passed through to the scripts.

``all`` is every ``bench_*.py`` except those in :data:`NOT_IN_ALL` (a GPU, or tens of minutes:
they have their own commands and sections, listed in the ``run`` section).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: bench scripts that ``all`` leaves out, and why (each writes its own section when run by name).
NOT_IN_ALL = {
    "grid": "mixed-family grids vs the per-run loop: 10-30 minutes on 2 cores (`python benchmarks/bench_grid.py --write`)",
}
#: Sections that take longer than ``--timeout``'s default, and the seconds they get (the larger of the two is used).
LONG_S = {"setup": 1200.0}  # a fresh clone's install + the README's test run + check: about 7 minutes on 2 cores
#: RESULTS.md sections that no bench script on a CPU writes, and where they come from.
ELSEWHERE = {
    "nn-cuda": "one GPU: `python benchmarks/bench_nn.py --device cuda --write`",
    "gpu-efficiency": "one GPU: `python tools/gpu/gpu_efficiency.py --device cuda --write` (issue 44's first minutes)",
    "gpu-slices": "one GPU, a slice at a time: `python tools/gpu/gpu_records.py --slices --write` from the slices' logs",
    "retrieval": "hand-written from `/usr/bin/time -v` of `python -m petheory.experiments.retrieval_runs` (about 28 minutes)",
}


def available() -> dict[str, Path]:
    return {p.stem.removeprefix("bench_"): p for p in sorted(HERE.glob("bench_*.py"))}


def _load() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes: what a section costs whatever the load."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def summary(rows: list[tuple[str, float, float, str]], total: float, load0, load1, passthrough: list[str]) -> str:
    from harness import machine_info

    m = machine_info()
    lines = [
        "## run: the one run behind this file, section by section",
        "",
        f"`python benchmarks/run.py all {' '.join(passthrough)}`".replace("  ", " ").replace(" `", "`")
        + f" — git `{m.get('git')}`; {m['cpu']}, {m['logical_cores']} logical cores ({m['usable_cores']} usable); "
        f"load average {load0} before, {load1} after.",
        "",
        "| section | wall time (s) | CPU time (s) | status |",
        "|---|---:|---:|---|",
    ]
    lines += [f"| {name} | {sec:.0f} | {cpu:.0f} | {status} |" for name, sec, cpu, status in rows]
    lines += [f"| **total** | **{total:.0f}** | **{sum(r[2] for r in rows):.0f}** | |", "",
              "CPU time is that of the section's process and its children (user + system, every thread): on a shared "
              "machine it stays near what the section costs when wall time does not."]
    lines.append("Not in this run (each has its own command and section): "
                 + "; ".join(f"`{k}`: {v}" for k, v in {**NOT_IN_ALL, **ELSEWHERE}.items()) + ".")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="run petheory's benchmarks (see benchmarks/README.md)")
    p.add_argument("names", nargs="*", help="benchmarks to run (default: all); 'encodings' runs bench_encodings.py")
    p.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds one section may run (default 300)")
    args, passthrough = p.parse_known_args(argv)
    if "--quick" in passthrough and "--write" in passthrough:
        print("run.py: error: --quick numbers (tiny sizes) never go into benchmarks/RESULTS.md; drop --quick or --write",
              file=sys.stderr)
        return 2
    benches = available()
    if args.list:
        for name, path in benches.items():
            print(f"{name}\t{path.relative_to(HERE.parent)}" + (f"\t(not in 'all': {NOT_IN_ALL[name]})"
                                                                  if name in NOT_IN_ALL else ""))
        return 0
    whole = args.names in ([], ["all"])
    names = [n for n in benches if n not in NOT_IN_ALL] if whole else args.names
    unknown = [n for n in names if n not in benches]
    if unknown:
        print(f"run.py: error: unknown benchmark(s) {', '.join(unknown)}; available: {', '.join(benches)}", file=sys.stderr)
        return 2
    rows, failed = [], []
    load0, t_all = _load(), time.perf_counter()
    for name in names:
        print(f"=== {name} (load average {_load()})", flush=True)
        t0, cpu0 = time.perf_counter(), _children_cpu()
        try:
            limit = max(args.timeout, LONG_S.get(name, 0.0))
            rc = subprocess.run([sys.executable, str(benches[name]), *passthrough], timeout=limit).returncode
            status = "written" if rc == 0 else f"**failed** (exit {rc}): its old section is kept"
        except subprocess.TimeoutExpired:
            rc, status = -1, f"**stopped** after {limit:.0f} s: its old section is kept"
        sec, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
        print(f"=== {name}: {sec:.0f} s wall, {cpu:.0f} s CPU, {'ok' if rc == 0 else status}", flush=True)
        rows.append((name, sec, cpu, status if "--write" in passthrough or "--results" in passthrough or rc else "printed"))
        if rc:
            failed.append(name)
    total = time.perf_counter() - t_all
    print(f"run.py: {len(names)} sections in {total:.0f} s" + "".join(f"\n  {n}: {s:.0f} s" for n, s, *_ in rows),
          flush=True)
    out = passthrough[passthrough.index("--results") + 1] if "--results" in passthrough[:-1] else None
    if whole and ("--write" in passthrough or out) and "--quick" not in passthrough:
        from harness import RESULTS, write_section

        write_section("run", summary(rows, total, load0, _load(), passthrough), out or RESULTS)
    if failed:
        print(f"run.py: failed: {', '.join(failed)} (rerun them by name)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
