"""``petheory plan`` for the six models of issue 53, each under 3 s (the library call, from the resolved scheme).

Cases (their config.json in ``tests/data/hf_configs/``): Qwen2.5-7B -> 131,072, Llama 3 8B -> 131,072, Qwen3-8B ->
131,072, gpt-oss-20b -> 131,072, Gemma 3 27B -> 262,144, Mistral 7B v0.1 -> 32,768. Each plan: every candidate's
Men column at N (O(N r)), Men's base search (a grid first pass, then bracket and refine within a fixed budget of
cosines: ``petheory.analyses.plan.MEN_WORK``), the extreme eigenvalues, the runtime configs. Median of 3, one
process, the config read outside the timing. Target: <= 3 s each on a quiet machine (the 1-minute load is printed
beside each number: on the shared 2-core machine a plan takes longer under load).

Run: ``python benchmarks/run.py plan`` (or this file directly; ``--quick`` plans to 4x the original context instead).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Target, cli, render_targets  # noqa: E402

from petheory.analyses.plan import plan  # noqa: E402
from petheory.loaders import resolve_scheme  # noqa: E402

NAME = "plan"
TITLE = "petheory plan for the six models of issue 53 (library call), each under 3 s"
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "hf_configs"
MODELS = [("Qwen2.5-7B", "qwen2_5_7b_yarn", 131072), ("Llama 3 8B", "llama3_8b", 131072),
          ("Qwen3-8B", "qwen3_8b", 131072), ("gpt-oss-20b", "gpt_oss_20b", 131072),
          ("Gemma 3 27B", "gemma3_27b", 262144), ("Mistral 7B v0.1", "mistral_7b", 32768)]


def targets(quick: bool) -> str:
    out = []
    for label, name, n in MODELS:
        path = DATA / f"{name}.json"
        scheme = resolve_scheme(str(path))
        if quick:
            n = 4 * plan(scheme, length=n).context
        t = []
        for _ in range(3):
            t0 = time.perf_counter()
            rec = plan(scheme, length=n)
            t.append(time.perf_counter() - t0)
        out.append(Target(f"plan {label} -> {n:,}", sorted(t)[1], 3.0, "s",
                          beside=f"L = {rec.context:,}; {len(rec.configs)} candidates"))
    return __doc__.split("\n\n")[1] + "\n\n" + render_targets(out)


if __name__ == "__main__":
    sys.exit(cli(NAME, TITLE, lambda quick: [], notes=targets, repeats=1, warmup=0))
