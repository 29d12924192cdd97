"""Start-up: what ``petheory --help`` and ``petheory report`` import, and how long that takes (issue 43).

Each command runs in a fresh interpreter under ``python -X importtime`` (``repeats`` times, median), and
its import time is the sum of the top-level imports' cumulative times in that log (the import floor:
what the command pays before it computes anything). Beside it, in the same run and alternating: the
bare interpreter, and ``import numpy, scipy.linalg, scipy.sparse`` (the floor any numpy/scipy tool
pays). Also the whole command's wall and CPU time, and whether torch, matplotlib or scikit-learn was
imported (they must not be: neither command uses them). Target: ``report``'s import floor under 0.5 s
on a quiet machine, with bytecode cached as numpy's and scipy's is (the first run without it is a row of its own).

Run: ``python benchmarks/run.py startup`` (or this file directly).
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Target, add_output_arguments, destination, emit, machine_info, render_targets  # noqa: E402

NAME = "startup"
TITLE = "start-up: the import floor of petheory --help and petheory report (python -X importtime)"
ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "matplotlib", "sklearn")
REPORT = ["report", "--pe", "tests/data/hf_configs/gemma3_4b.json", "--length", "32768", "--null-draws", "20"]
PROBE = ("import runpy, sys\nsys.argv = ['petheory', *sys.argv[1:]]\ntry:\n    runpy.run_module('petheory', run_name='__main__')\n"
         "except SystemExit:\n    pass\nprint('HEAVY', sorted(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)\n")
COMMANDS = {
    "python (bare interpreter)": ["-c", "pass"],
    "import numpy, scipy.linalg, scipy.sparse": ["-c", "import numpy, scipy.linalg, scipy.sparse"],
    "petheory --help": ["-c", PROBE.format(heavy=HEAVY), "--help"],
    "petheory report (" + " ".join(REPORT[1:]) + ")": ["-c", PROBE.format(heavy=HEAVY), *REPORT],
    "petheory report, no bytecode cache": ["-c", PROBE.format(heavy=HEAVY), *REPORT],
}
#: Commands run as a first run without bytecode is (PYTHONDONTWRITEBYTECODE=1, no cache prefix): numpy and scipy read
#: the .pyc files pip wrote at install, petheory's modules compile from source on every start. Every other command runs
#: with all bytecode cached in a prefix of this run's own (as on any machine after a first run, or after a
#: non-editable pip install, which compiles like numpy's), so the floor compares like with like.
UNCACHED = ("petheory report, no bytecode cache",)
PREFIX: dict = {}  # {"dir": the bytecode cache prefix of this run}, set by main()


def child_env(name: str | None = None) -> dict:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    if name in UNCACHED:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    elif PREFIX:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = PREFIX["dir"]
    return env
_LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( +)(\S+)")


def import_log(stderr: str) -> tuple[float, list[tuple[float, str]]]:
    """(seconds of imports, [(seconds, module)] of the top-level imports) from a -X importtime log."""
    top = [(int(m.group(2)) / 1e6, m.group(4)) for m in map(_LINE.match, stderr.splitlines()) if m and len(m.group(3)) == 1]
    return sum(t for t, _ in top), top


def run_once(args: list[str], name: str | None = None) -> dict:
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, env=child_env(name))
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode not in (0, 2):  # --help exits 0; a usage line exits 2
        raise RuntimeError(f"{args[:3]} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    imports, top = import_log(res.stderr)
    heavy = re.search(r"^HEAVY (\[.*\])$", res.stderr, re.M)
    return {"imports": imports, "top": top, "wall": wall, "cpu": r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime,
            "heavy": heavy.group(1) if heavy else "n/a"}


def import_cpu(modules: list[str], name: str | None = None) -> float:
    """CPU seconds (user + system) a fresh interpreter spends importing ``modules`` in order: the import floor
    in a measure that load does not stretch the way it stretches wall time."""
    code = ("import importlib, resource, sys\nr = resource.getrusage(resource.RUSAGE_SELF)\n"
            "for m in sys.argv[1:]:\n    importlib.import_module(m)\ns = resource.getrusage(resource.RUSAGE_SELF)\n"
            "print(s.ru_utime + s.ru_stime - r.ru_utime - r.ru_stime)")
    res = subprocess.run([sys.executable, "-c", code, *modules], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env=child_env(name))
    if res.returncode:
        raise RuntimeError(f"importing {modules[:5]}... failed:\n{res.stderr[-2000:]}")
    return float(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=f"benchmark {NAME}: {TITLE}")
    p.add_argument("--quick", action="store_true", help="2 repeats instead of 7 (numbers mean little)")
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--warmup", type=int, default=1, help="untimed runs of each command first (file cache)")
    add_output_arguments(p)
    args = p.parse_args(argv)
    destination(args)
    repeats = 2 if args.quick else args.repeats
    machine = machine_info()
    print(f"{NAME}: {TITLE}", flush=True)
    import shutil
    import tempfile

    PREFIX["dir"] = tempfile.mkdtemp(prefix="petheory-startup-pyc-")
    try:
        for _ in range(max(args.warmup, 1)):  # the first run of each writes the bytecode cache
            for k, a in COMMANDS.items():
                run_once(a, k)
        runs = {k: [] for k in COMMANDS}
        load0 = os.getloadavg()[0]
        for _ in range(repeats):  # alternating: load drift hits every command alike
            for k, a in COMMANDS.items():
                runs[k].append(run_once(a, k))
        load1 = os.getloadavg()[0]
        med = {k: {f: statistics.median(r[f] for r in v) for f in ("imports", "wall", "cpu")} for k, v in runs.items()}
        for k, v in runs.items():  # the same top-level imports, replayed alone for their CPU time (median of 3)
            mods = [m for _, m in v[-1]["top"] if not m.startswith(("encodings", "site", "_"))] or ["sys"]
            med[k]["import_cpu"] = statistics.median(import_cpu(mods, k) for _ in range(3))
    finally:
        shutil.rmtree(PREFIX.pop("dir"), ignore_errors=True)
    rows = []
    for k, m in med.items():
        heavy = runs[k][-1]["heavy"]
        rows.append(f"| `{k}` | {m['imports']:.3f} | {m['import_cpu']:.3f} | {m['wall']:.3f} | {m['cpu']:.3f} | {heavy} |")
        print(f"  {k}: imports {m['imports']:.3f} s, wall {m['wall']:.3f} s, cpu {m['cpu']:.3f} s, heavy {heavy}", flush=True)
    rep = next(k for k in COMMANDS if k.startswith("petheory report ("))
    floor = med["import numpy, scipy.linalg, scipy.sparse"]["imports"]
    top = sorted(runs[rep][-1]["top"], reverse=True)[:8]
    targets = [
        Target("`petheory report`: import floor (python -X importtime)", med[rep]["imports"], 0.5, "s",
               beside=f"numpy + scipy alone {floor:.3f} s; `petheory --help` {med['petheory --help']['imports']:.3f} s; "
                      f"without a bytecode cache {med[UNCACHED[0]]['imports']:.3f} s; "
                      f"CPU time of the same imports {med[rep]['import_cpu']:.3f} s (numpy + scipy "
                      f"{med['import numpy, scipy.linalg, scipy.sparse']['import_cpu']:.3f} s)", load=round(load1, 2)),
        Target("`petheory report`: modules of torch, matplotlib, scikit-learn imported", float(runs[rep][-1]["heavy"] != "[]"),
               0, "", beside=f"`--help`: {runs['petheory --help'][-1]['heavy']}", load=round(load1, 2)),
    ]
    body = "\n".join([
        f"## {NAME}: {TITLE}",
        "",
        f"`python benchmarks/run.py {NAME}{' --quick' if args.quick else ''}` — "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, git `{machine.get('git')}`, {args.warmup} warm-up + "
        f"{repeats} runs of each command, alternating (median).",
        "",
        f"Machine: {machine['cpu']}, {machine['logical_cores']} logical cores ({machine['usable_cores']} usable), "
        f"{machine['os']}; Python {machine['python']}, numpy {machine['numpy']}, scipy {machine['scipy']}; "
        f"load average {load0:.2f} at start, {load1:.2f} at end.",
        "",
        "| command (fresh interpreter) | imports (s) | imports, CPU (s) | wall (s) | CPU (s) | torch / matplotlib / "
        "scikit-learn imported |",
        "|---|---:|---:|---:|---:|---|",
        *rows,
        "",
        "Imports: the sum of the top-level imports' cumulative times in the `-X importtime` log (wall time, the "
        "log's own overhead included); imports, CPU: the CPU time of importing the same top-level modules in a fresh "
        "interpreter (what load stretches least); wall and CPU: the whole process. Bytecode: cached for every module "
        "(a cache prefix of this run's own, written by the warm-up), except in the row 'no bytecode cache' "
        "(PYTHONDONTWRITEBYTECODE=1, as on this machine kind: numpy and scipy read the .pyc that pip wrote, petheory "
        "compiles its modules on every start). The report's largest top-level "
        "imports: "
        + ", ".join(f"`{m}` {t:.3f} s" for t, m in top) + ".",
        "",
        render_targets(targets),
    ])
    return emit(NAME, body, args)


if __name__ == "__main__":
    sys.exit(main())
