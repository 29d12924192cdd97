#!/usr/bin/env python
"""Mutation testing of petheory's core formulas: plant one realistic bug at a time, run the tests
that should catch it, and report which bugs survive.

    python tools/mutate.py                 # every mutant (about 10 minutes on 2 cores)
    python tools/mutate.py --list          # the mutants, one line each
    python tools/mutate.py -k toeplitz     # only mutants whose name contains 'toeplitz'
    python tools/mutate.py --json out.json # also write the results

Each mutant is a (file, exact source snippet, replacement) triple below. The tool copies the
tracked files of the repository into a temporary directory once, applies one mutant there (never
in your checkout), runs ``pytest -x -q -m 'not slow'`` on the test files of that module with the
copy first on ``PYTHONPATH``, and restores the file. A mutant is *killed* when pytest fails (exit
1), *survives* when it passes, and is an *error* when the snippet is missing (the source changed:
update the list) or pytest cannot run (exit 2+, a timeout). Exit code: 0 when every mutant was
killed or is listed as equivalent, 1 otherwise.

An *equivalent* mutant changes the code but not what any caller can observe (e.g. a
preconditioner detail that only changes the iteration count); it is listed with the argument.
Not part of CI: it runs the targeted suites once per mutant.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

TESTS = {
    "encodings": ["tests/theory/test_encodings.py", "tests/theory/test_core_references.py", "tests/nn/test_attention_reference.py"],
    "toeplitz": ["tests/theory/test_toeplitz.py", "tests/theory/test_toeplitz_promises.py", "tests/theory/test_core_references.py"],
    "coupling": ["tests/theory/test_coupling.py", "tests/theory/test_core_references.py"],
    "bounds": ["tests/theory/test_bounds.py", "tests/theory/test_bounds_encodings.py", "tests/theory/test_core_references.py"],
    "geometry": ["tests/theory/test_geometry.py", "tests/theory/test_tolerance_edges.py", "tests/theory/test_core_references.py"],
    "rounding": ["tests/theory/test_tolerance_edges.py", "tests/theory/test_geometry.py"],
    "nn": ["tests/nn/test_transformer.py", "tests/nn/test_attention_reference.py"],
    "rules": ["tests/claims/test_verdict_contract.py"],
    "chen2025": ["tests/claims/test_claims_chen2025.py"],
}


@dataclass(frozen=True)
class Mutant:
    name: str
    module: str  # key of TESTS
    path: str
    old: str
    new: str
    equivalent: str = ""  # the argument, when the mutant cannot be observed


E, T, C, G, N = ("petheory/encodings/", "petheory/toeplitz/", "petheory/coupling.py", "petheory/geometry/",
                 "petheory/nn/transformer.py")
R = "proofs_check/runner.py"

MUTANTS = [
    # ---------------------------------------------------------------- encodings
    Mutant("encodings.sinusoidal_exponent", "encodings", E + "absolute.py",
           "freqs = rope_frequencies(d, base=base)  # (d/2,), the one ladder",
           "freqs = rope_frequencies(d, base=base) ** 0.5  # (d/2,), the one ladder"),  # base^(-t/d): exponent t, not 2t
    Mutant("encodings.sinusoidal_sin_cos_swapped", "encodings", E + "absolute.py",
           "(slice(0, d, 2), slice(1, d, 2)) if layout == \"interleaved\" else (slice(0, d // 2), slice(d // 2, d))",
           "(slice(1, d, 2), slice(0, d, 2)) if layout == \"interleaved\" else (slice(0, d // 2), slice(d // 2, d))"),
    Mutant("encodings.rope_partial_dim_uses_d", "encodings", E + "rotary.py",
           "return base ** (-np.arange(2 * first, 2 * first + r, 2, dtype=np.float64) / r)",
           "return base ** (-np.arange(2 * first, 2 * first + r, 2, dtype=np.float64) / d)"),
    Mutant("encodings.rope_rotation_sign", "encodings", E + "rotary.py", "        oa -= xb * sin\n", "        oa += xb * sin\n"),
    Mutant("encodings.rope_half_pairing_ignored", "encodings", E + "rotary.py",
           "        return np.arange(h), np.arange(h, 2 * h)\n",
           "        return np.arange(0, 2 * h, 2), np.arange(1, 2 * h, 2)\n"),
    Mutant("encodings.alibi_slope_start", "encodings", E + "bias.py",
           "start = 2.0 ** (-8.0 / m)", "start = 2.0 ** (-8.0 / (m + 1))"),
    Mutant("encodings.alibi_non_pow2_interleave", "encodings", E + "bias.py",
           "pow2(2 * closest)[0::2][: H - closest]", "pow2(2 * closest)[1::2][: H - closest]"),
    Mutant("encodings.alibi_causal_sign", "encodings", E + "bias.py",
           "        return -slope * (i - j)\n", "        return -slope * (j - i)\n"),
    Mutant("encodings.t5_positive_offsets_bucket", "encodings", E + "bias.py",
           "buckets += (rel > 0).astype(np.int64) * nb", "buckets += (rel >= 0).astype(np.int64) * nb"),
    Mutant("encodings.t5_causal_direction", "encodings", E + "bias.py",
           "        rel = -np.minimum(rel, 0)\n", "        rel = np.maximum(rel, 0)\n"),
    Mutant("encodings.relative_offset_direction", "encodings", E + "bias.py",
           "return values[np.clip(idx[None, :] - idx[:, None], -K, K) + K]",
           "return values[np.clip(idx[:, None] - idx[None, :], -K, K) + K]"),
    # ---------------------------------------------------------------- toeplitz
    Mutant("toeplitz.certificate_loosened_1000x", "toeplitz", T + "eigen.py",
           "    rtol = v.real(\"rtol\", rtol, positive=True)\n",
           "    rtol = v.real(\"rtol\", rtol, positive=True) * 1000\n"),
    Mutant("toeplitz.symbol_at_row_conjugate", "toeplitz", T + "symbols.py",
           "out[s : s + step] = pos + np.conj(e) @ r - c[0]", "out[s : s + step] = pos + e @ r - c[0]"),
    Mutant("toeplitz.symbol_grid_hermitian_diagonal_twice", "toeplitz", T + "symbols.py",
           "        return 2.0 * pos.real - float(np.real(c[0]))\n", "        return 2.0 * pos.real\n"),
    Mutant("toeplitz.alibi_symbol_closed_form_sign", "toeplitz", T + "closed_forms.py",
           "(n * np.cos((n - 1) * tb) - (n - 1) * np.cos(n * tb) - 1.0)",
           "(n * np.cos((n - 1) * tb) - (n - 1) * np.cos(n * tb) + 1.0)"),
    Mutant("toeplitz.alibi_symbol_small_theta_factor", "toeplitz", T + "closed_forms.py",
           "out[small] = -2.0 * m * (np.cos(np.outer(t[small], k)) @ k)",
           "out[small] = -m * (np.cos(np.outer(t[small], k)) @ k)"),
    Mutant("toeplitz.sinusoidal_gram_frequencies", "toeplitz", T + "closed_forms.py",
           "    w = rope_frequencies(d, base=base)  # the same frequencies base^(-2t/d)\n",
           "    w = rope_frequencies(d, base=base) / 2  # the same frequencies base^(-2t/d)\n"),
    Mutant("toeplitz.bracket_of_minimum", "toeplitz", T + "eigen.py",
           "bracket = (rho, U) if sign > 0 else (-U, -rho)", "bracket = (rho, U) if sign > 0 else (-rho, -U)"),
    Mutant("toeplitz.strang_wraps_one_short", "toeplitz", T + "eigen.py",
           "    s[: h + 1] = c[: h + 1]\n", "    s[: h] = c[: h]\n",
           equivalent="Strang's circulant is only the Davidson preconditioner: a slightly different circulant "
           "changes the iteration count, never the certified result (bracket and residual are computed from T). "
           "Observable only as speed."),
    Mutant("toeplitz.wasserstein_signed_area", "toeplitz", T + "szego.py",
           "return float(np.sum(np.abs(np.cumsum(d)[:-1]) * np.diff(x)))",
           "return float(abs(np.sum(np.cumsum(d)[:-1] * np.diff(x))))"),
    Mutant("toeplitz.kolmogorov_left_continuous_cdf", "toeplitz", T + "szego.py",
           "i = np.searchsorted(xs, pts, side=\"right\")", "i = np.searchsorted(xs, pts, side=\"left\")"),
    Mutant("toeplitz.diagonal_means_divisor", "toeplitz", T + "operators.py",
           "out[k + n - 1] = np.trace(A, offset=-k) / (n - abs(k))", "out[k + n - 1] = np.trace(A, offset=-k) / n"),
    Mutant("toeplitz.projection_transposed", "toeplitz", T + "operators.py",
           "return sla.toeplitz(means[n - 1 :], means[n - 1 :: -1])", "return sla.toeplitz(means[n - 1 :: -1], means[n - 1 :])"),
    # ---------------------------------------------------------------- coupling
    Mutant("coupling.cross_terms_swapped", "coupling", C,
           "s * (qc @ kp.T), s * (qp @ kc.T)", "s * (qp @ kc.T), s * (qc @ kp.T)"),
    Mutant("coupling.softmax_wrong_axis", "coupling", "petheory/softmax.py",
           "return E / E.sum(axis=1, keepdims=True)", "return E / E.sum(axis=0, keepdims=True)"),
    Mutant("coupling.complex_pairs_conjugated", "coupling", C,
           "return x[:, a] + 1j * x[:, b]", "return x[:, a] - 1j * x[:, b]"),
    Mutant("coupling.compose_matrix_product", "coupling", C,
           "return W + X if mode == \"additive\" else W * X", "return W + X if mode == \"additive\" else W @ X"),
    # ---------------------------------------------------------------- bounds
    Mutant("bounds.attention_weight_no_self", "bounds", "petheory/bounds/alibi.py",
           "return np.exp(b - np.logaddexp(b, lse))", "return np.exp(b - lse)"),
    Mutant("bounds.lipschitz_half", "bounds", "petheory/bounds/alibi.py", "        return 0.25\n", "        return 0.5\n"),
    Mutant("bounds.rademacher_linear_sqrt_m", "bounds", "petheory/bounds/rademacher.py",
           "return B * np.linalg.norm(s @ X, axis=-1) / X.shape[0]",
           "return B * np.linalg.norm(s @ X, axis=-1) / np.sqrt(X.shape[0])"),
    Mutant("bounds.rademacher_kernel_no_sqrt", "bounds", "petheory/bounds/rademacher.py",
           "return B * np.sqrt(np.maximum(quad, 0.0)) / K.shape[0]", "return B * np.maximum(quad, 0.0) / K.shape[0]"),
    Mutant("bounds.linear_bound_m", "bounds", "petheory/bounds/rademacher.py", "    return B * B0 / math.sqrt(m)\n", "    return B * B0 / m\n"),
    Mutant("bounds.sinusoidal_stated_norm", "bounds", "petheory/bounds/norms.py",
           "return StatedBound(math.sqrt(d), \"sqrt(d_model)\")", "return StatedBound(math.sqrt(d / 2), \"sqrt(d_model)\")"),
    Mutant("bounds.layernorm_no_sqrt", "bounds", "petheory/bounds/lipschitz.py",
           "return float(np.max(np.abs(g)) / math.sqrt(vf + eps))", "return float(np.max(np.abs(g)) / (vf + eps))"),
    Mutant("bounds.attention_output_weights_swapped", "bounds", "petheory/bounds/alibi.py",
           "out = pb[:, None] * vb[None, :] + (1 - pb)[:, None] * (w @ vals)[None, :]",
           "out = (1 - pb)[:, None] * vb[None, :] + pb[:, None] * (w @ vals)[None, :]"),
    # ---------------------------------------------------------------- geometry
    Mutant("geometry.hellinger_no_half", "geometry", G + "hellinger.py",
           "D2 = 0.5 * (g[i0:i1, None] + g[None, :]) - root.gram_rows(i0, i1)",
           "D2 = (g[i0:i1, None] + g[None, :]) - root.gram_rows(i0, i1)"),
    Mutant("geometry.gram_not_double_centred", "geometry", G + "mds.py",
           "    B -= r[None, :]\n    B += r.mean()\n", "    B -= r[None, :]\n"),
    Mutant("geometry.mds_eigenvalues_not_rooted", "geometry", G + "mds.py",
           "X = _fix_signs(U[:, :r]) * np.sqrt(w[:r])\n    return MDSResult(X, w, r, rank, \"eigh\"",
           "X = _fix_signs(U[:, :r]) * w[:r]\n    return MDSResult(X, w, r, rank, \"eigh\""),
    Mutant("geometry.stress1_cos_not_squared", "geometry", G + "stress_measures.py",
           "    s2 = 1.0 - te * te / (tt * ee)\n", "    s2 = 1.0 - te / math.sqrt(tt * ee)\n"),
    Mutant("geometry.raw_stress_double_counted", "geometry", G + "stress_measures.py",
           "return 0.5 * sum(float(np.sum((T.rows(i0, i1) - E.rows(i0, i1)) ** 2))",
           "return sum(float(np.sum((T.rows(i0, i1) - E.rows(i0, i1)) ** 2))"),
    Mutant("geometry.rotary_distance_full_angle", "geometry", G + "induced.py",
           "np.sum(enc.chord_sq(diff), axis=2)", "np.sum(enc.chord_sq(2.0 * diff), axis=2)"),
    Mutant("geometry.effective_rank_absolute_tol", "geometry", G + "rank.py",
           "return numerical_rank(lam, tol * top, positive=positive)", "return numerical_rank(lam, tol, positive=positive)"),
    Mutant("rounding.numerical_rank_non_strict", "rounding", "petheory/rounding.py",
           "(vals if positive else np.abs(vals)) > threshold", "(vals if positive else np.abs(vals)) >= threshold"),
    Mutant("rounding.eig_rank_tol_not_scaled_by_n", "rounding", "petheory/rounding.py",
           "return gamma(17 * max(int(n), 1), dtype)", "return gamma(17, dtype)"),
    # ---------------------------------------------------------------- nn attention
    Mutant("nn.rope_on_values", "nn", N,
           "            q, k = self.rotary(q, k)\n        return q, k, v, None",
           "            q, k = self.rotary(q, k)\n            v, _ = self.rotary(v, v)\n        return q, k, v, None"),
    Mutant("nn.explicit_path_scale", "nn", N,
           "s = (q @ k.transpose(-2, -1)) * (scale or q.shape[-1] ** -0.5)",
           "s = (q @ k.transpose(-2, -1)) * (scale or q.shape[-1] ** -1.0)"),
    Mutant("nn.mla_scale_without_rope_dim", "nn", N,
           "torch.cat([kc, kr], -1), v, attention_scale(self.hd, self.dr)",
           "torch.cat([kc, kr], -1), v, attention_scale(self.hd)"),
    Mutant("nn.causal_mask_masks_the_past", "nn", N,
           "            future = torch.ones(T, T, dtype=torch.bool, device=device).triu(1)\n",
           "            future = torch.ones(T, T, dtype=torch.bool, device=device).tril(-1)\n"),
    Mutant("nn.mla_rope_key_from_query_weights", "nn", N,
           "kr = self.rope.rotate(self.w_kr(x))", "kr = self.rope.rotate(self.w_qr(x))"),
    # the reproduction rules of the claim catalogue (DESIGN.md), enforced in proofs_check.runner
    Mutant("rules.substitute_may_decide", "rules", R,
           'if setup == "substitute" and v in', 'if setup == "paper" and v in'),
    Mutant("rules.looks_do_not_split_alpha", "rules", R, "level = c.alpha / c.looks", "level = c.alpha"),
    Mutant("rules.two_seeds_are_enough", "rules", R, "if int(n) < MIN_SEEDS}", "if int(n) < MIN_SEEDS - 1}"),
    Mutant("rules.exploratory_decides_unconfirmed", "rules", R,
           "if c.exploratory and not ev.confirmatory and v in", "if c.exploratory and ev.confirmatory and v in"),
    Mutant("rules.calibration_twice_as_loose", "rules", "proofs_check/engine.py",
           '"within": dev is not None and dev <= self.tolerance', '"within": dev is not None and dev <= 2 * self.tolerance'),
    Mutant("chen2025.runs_from_any_source_compared", "chen2025", "proofs_check/claims/chen2025.py",
           'hashed = {k: v for k, v in by.items() if k != "none"}', "hashed = dict(by)"),
]


def _copy_tree(dst: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    for f in files:
        src = ROOT / f
        if src.is_file():
            (dst / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / f)


def run_mutant(m: Mutant, tree: Path, timeout: float) -> dict:
    target = tree / m.path
    original = target.read_text()
    n = original.count(m.old)
    if n != 1:
        return {"name": m.name, "status": "error", "detail": f"snippet found {n} times in {m.path}: update the list"}
    tests = [t for t in TESTS[m.module] if (tree / t).exists()]
    env = dict(os.environ, PYTHONPATH=str(tree), OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    t0 = time.perf_counter()
    try:
        target.write_text(original.replace(m.old, m.new))
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                               "-m", "not slow", *tests], cwd=tree, env=env, capture_output=True, text=True, timeout=timeout)
        code = proc.returncode
        tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout else []
        failed = [ln.split(" ")[1] for ln in proc.stdout.splitlines() if ln.startswith("FAILED ")][:1]
    except subprocess.TimeoutExpired:
        code, tail, failed = -1, [f"timeout after {timeout:.0f} s"], []
    finally:
        target.write_text(original)
    status = {0: "survived", 1: "killed"}.get(code, "error")
    if status == "survived" and m.equivalent:
        status = "equivalent"
    return {"name": m.name, "status": status, "seconds": round(time.perf_counter() - t0, 1),
            "killed_by": failed[0] if failed else None, "detail": (tail[0] if tail else ""),
            "equivalent": m.equivalent or None}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="pattern", default="", help="only mutants whose name contains this")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per mutant (default 600)")
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    args = ap.parse_args(argv)
    chosen = [m for m in MUTANTS if args.pattern in m.name]
    if args.list:
        for m in chosen:
            print(f"{m.name:45s} {m.path}  ->  {', '.join(TESTS[m.module])}")
        return 0
    results = []
    with tempfile.TemporaryDirectory(prefix="petheory-mutate-") as tmp:
        tree = Path(tmp)
        _copy_tree(tree)
        for i, m in enumerate(chosen, 1):
            r = run_mutant(m, tree, args.timeout)
            results.append(r)
            print(f"[{i}/{len(chosen)}] {r['status']:10s} {m.name:45s} {r.get('seconds', 0):6.1f}s  "
                  f"{r.get('killed_by') or r.get('detail') or ''}", flush=True)
    killed = sum(r["status"] == "killed" for r in results)
    equiv = [r for r in results if r["status"] == "equivalent"]
    bad = [r for r in results if r["status"] in ("survived", "error")]
    scored = len(results) - len(equiv)
    print(f"\nkilled {killed}/{scored} non-equivalent mutants ({100 * killed / max(scored, 1):.0f}%); "
          f"{len(equiv)} equivalent; {len(bad)} survived or errored")
    for r in equiv:
        print(f"  equivalent: {r['name']}: {r['equivalent']}")
    for r in bad:
        print(f"  {r['status'].upper()}: {r['name']}: {r['detail']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"results": results, "killed": killed, "scored": scored}, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
