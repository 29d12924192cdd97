"""Run the benchmarks: every ``benchmarks/bench_*.py``, or the ones named.

    python benchmarks/run.py                 # all, full sizes; prints each section ('all' names them all too)
    python benchmarks/run.py --write         # all, full sizes; updates the committed benchmarks/RESULTS.md
    python benchmarks/run.py encodings       # only bench_encodings.py
    python benchmarks/run.py --quick         # tiny sizes: a smoke test of every benchmark (never writes RESULTS.md)
    python benchmarks/run.py --list

Each script runs in its own process (so one benchmark's memory and threads never colour the
next) and, with ``--write``, writes only its own section of RESULTS.md. Other options (--repeats,
--warmup, --results PATH, --write) are passed through to the scripts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def available() -> dict[str, Path]:
    return {p.stem.removeprefix("bench_"): p for p in sorted(HERE.glob("bench_*.py"))}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="run petheory's benchmarks (see benchmarks/README.md)")
    p.add_argument("names", nargs="*", help="benchmarks to run (default: all); 'encodings' runs bench_encodings.py")
    p.add_argument("--list", action="store_true", help="list the benchmarks and exit")
    args, passthrough = p.parse_known_args(argv)
    if "--quick" in passthrough and "--write" in passthrough:
        print("run.py: error: --quick numbers (tiny sizes) never go into benchmarks/RESULTS.md; drop --quick or --write",
              file=sys.stderr)
        return 2
    benches = available()
    if args.names == ["all"]:
        args.names = []
    if args.list:
        for name, path in benches.items():
            print(f"{name}\t{path.relative_to(HERE.parent)}")
        return 0
    unknown = [n for n in args.names if n not in benches]
    if unknown:
        print(f"run.py: error: unknown benchmark(s) {', '.join(unknown)}; available: {', '.join(benches)}", file=sys.stderr)
        return 2
    failed = []
    for name in args.names or list(benches):
        rc = subprocess.run([sys.executable, str(benches[name]), *passthrough]).returncode
        if rc:
            failed.append(name)
    if failed:
        print(f"run.py: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
