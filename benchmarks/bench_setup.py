"""Set-up and test times from a fresh clone: the README's two commands as a new user runs them (issue 43.5).

1. ``git clone`` of this checkout's HEAD into a temporary folder (what is committed, nothing else);
2. the README's test command there, split where its pytest starts: the install (``python3 -m venv .venv && pip
   install ...``) and the test run (``HYPOTHESIS_PROFILE=ci .venv/bin/python -m pytest -n 2 -q``, with
   ``--durations=20`` added so the slowest 20 are named);
3. the README's first command's ``petheory check --json ... --markdown ...`` in the same venv (the install is the same
   but for the test extras);
4. ``git status --porcelain`` in the clone afterwards: the commands change no tracked file.

Wall time of each step, CPU time (user + system of the step's processes), load average before and after. Target:
the test run at most 200 s on a quiet 2-core machine (issue 43.5). ``--quick``: no clone and no install; the test
command only collects, in this checkout (a smoke test of this script).

Run: ``python benchmarks/run.py setup`` (or this file directly; about 7 minutes on 2 cores).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Target, add_output_arguments, destination, emit, machine_info, render_targets  # noqa: E402

NAME = "setup"
TITLE = "set-up and test times from a fresh clone (the README's two commands)"
ROOT = Path(__file__).resolve().parents[1]
#: Issue 43.5: the test run on a quiet 2-core machine, seconds.
TEST_LIMIT_S = 200.0


def readme_commands(readme: str) -> tuple[str, str]:
    """The README's two set-up commands: (the one that runs ``petheory check``, the one that runs the tests)."""
    cmds = [ln.strip() for ln in readme.splitlines() if ln.strip().startswith("python3 -m venv .venv && ")]
    main = [c for c in cmds if "petheory check" in c]
    tests = [c for c in cmds if "pytest" in c]
    if len(main) != 1 or len(tests) != 1:
        raise ValueError(f"README.md: expected one set-up command with `petheory check` and one with pytest, found {cmds}")
    return main[0], tests[0]


def split_tests_command(cmd: str) -> tuple[str, str]:
    """The test command as (install, test run): split at the ``&&`` before its pytest."""
    parts = [p.strip() for p in cmd.split("&&")]
    i = next(i for i, p in enumerate(parts) if "pytest" in p)
    return " && ".join(parts[:i]), " && ".join(parts[i:])


def check_part(cmd: str) -> str:
    """The first command's ``petheory check ...`` (its install is the test command's, less the test extras)."""
    m = re.search(r"(\.venv/bin/petheory check .*)$", cmd)
    if not m:
        raise ValueError(f"README.md: no `.venv/bin/petheory check` in {cmd!r}")
    return m.group(1)


def timed(cmd: str, cwd: Path, log: Path) -> dict:
    """Run ``cmd`` with bash in ``cwd`` (output to ``log``): wall and CPU seconds, exit status, load average."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load0 = os.getloadavg()[0]
    t = time.perf_counter()
    with open(log, "w") as fh:
        rc = subprocess.run(["bash", "-c", cmd], cwd=cwd, stdout=fh, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cmd": cmd, "rc": rc, "wall": wall, "cpu": cpu, "load0": load0, "load1": os.getloadavg()[0]}


def pytest_summary(text: str) -> tuple[str, list[str]]:
    """The test run's last summary line ("4229 passed, 6 skipped ...") and its ``--durations`` lines."""
    lines = text.splitlines()
    summary = next((ln.strip("= ") for ln in reversed(lines) if re.search(r"\d+ (passed|failed|error)|tests? collected", ln)), "?")
    slow = [ln.strip() for ln in lines if re.match(r"\s*\d+\.\d+s (call|setup|teardown)\s", ln)]
    return summary, slow


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=f"benchmark {NAME}: {TITLE}")
    p.add_argument("--quick", action="store_true", help="no clone, no install: the test command only collects here")
    p.add_argument("--repeats", type=int, default=1, help="ignored: one run (run.py passes it to every section)")
    p.add_argument("--warmup", type=int, default=0, help="ignored, as --repeats")
    add_output_arguments(p)
    args = p.parse_args(argv)
    destination(args)
    machine = machine_info()
    print(f"{NAME}: {TITLE}", flush=True)
    main_cmd, tests_cmd = readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    install, run_tests = split_tests_command(tests_cmd)
    run_tests += " --durations=20"
    check = check_part(main_cmd)
    tmp = Path(tempfile.mkdtemp(prefix="petheory-setup-"))
    try:
        if args.quick:
            clone = ROOT
            steps = {"tests": timed(run_tests.replace(".venv/bin/python", sys.executable) + " --collect-only",
                                    clone, tmp / "tests.log")}
        else:
            clone = tmp / "clone"
            subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
            steps = {}
            for name, cmd in (("install", install), ("tests", run_tests), ("check", check)):
                steps[name] = timed(cmd, clone, tmp / f"{name}.log")
                print(f"  {name}: {steps[name]['wall']:.0f} s (exit {steps[name]['rc']})", flush=True)
                if name == "install" and steps[name]["rc"] != 0:
                    print((tmp / "install.log").read_text(errors="replace")[-3000:], file=sys.stderr)
                    raise SystemExit(f"the README's install failed in a fresh clone (exit {steps[name]['rc']})")
        summary, slow = pytest_summary((tmp / "tests.log").read_text(encoding="utf-8", errors="replace"))
        changed = "" if args.quick else subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=clone,
                                                      capture_output=True, text=True).stdout.strip()
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True,
                                text=True).stdout.strip()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    t = steps["tests"]
    rows = [f"| {name} | `{s['cmd']}` | {s['wall']:.0f} | {s['cpu']:.0f} | {s['rc']} | {s['load0']:.2f}-{s['load1']:.2f} |"
            for name, s in steps.items()]
    what = "the README's test run (pytest -n 2), quiet 2-core machine" + (" — quick: collection only" if args.quick else "")
    targets = [Target(what, t["wall"], TEST_LIMIT_S, "s",
                      beside=f"{summary}; CPU {t['cpu']:.0f} s on {machine['usable_cores']} cores", load=round(t["load1"], 2))]
    if t["rc"] != 0:
        targets[0] = Target(targets[0].what + " — FAILED", float("nan"), TEST_LIMIT_S, "s", beside=summary)
    body = "\n".join([
        f"## {NAME}: {TITLE}",
        "",
        f"`python benchmarks/run.py {NAME}{' --quick' if args.quick else ''}` — "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        + (f"this checkout at `{commit}`, collection only (quick)." if args.quick else f"a fresh `git clone` of `{commit}`."),
        "",
        f"Machine: {machine['cpu']}, {machine['logical_cores']} logical cores ({machine['usable_cores']} usable), "
        f"{machine['os']}; Python {machine['python']}; pip's cache as this machine has it (nothing is downloaded "
        "when it is warm).",
        "",
        "| step | command | wall (s) | CPU (s) | exit | load average |",
        "|---|---|---:|---:|---:|---|",
        *rows,
        "",
        f"Test run: {summary}. "
        + ("Tracked files changed by the commands: none." if not changed and not args.quick
           else f"Tracked files changed by the commands: {changed}." if changed else ""),
        "",
        "The slowest 20 (pytest's `--durations=20`; a worker's wall time, so a test that waits on a subprocess or "
        "shares the cores with the other worker reads longer than its CPU time):",
        "",
        *[f"- `{ln}`" for ln in slow[:20]],
        "",
        render_targets(targets),
    ])
    return emit(NAME, body, args)


if __name__ == "__main__":
    sys.exit(main())
