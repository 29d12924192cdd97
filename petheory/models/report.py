r"""The one-page report of a model's (or a registry encoding's) positional scheme at long lengths.

:func:`model_report` answers "what does this positional scheme do at length N?" with what a
long-context researcher looks at first:

* the per-band table: frequency now and at pre-training, wavelength, turns over the original
  context L, whether the band is interpolated (frequency divided) or extrapolated (kept), and
  whether its phase at N stays within what pre-training saw;
* the position-only kernel :math:`a_k` (unit content in every rotated band, gu2025 §3.3;
  :func:`petheory.encodings.kernels.rotary_kernel`'s formula) against the distance k up to N, with
  its log-binned envelope :math:`\max|a_k|/a_0` (the long-range decay);
* certified extreme eigenvalues of the N x N Toeplitz kernel at L, 2L, 4L, 8L
  (:func:`petheory.toeplitz.extreme_eigenvalues`: FFT matvecs, never a dense N x N);
* the stress of the geometry the encoding induces on the built-in corpus's positions, against
  random tables (:func:`petheory.stress_reference.random_table_null`);
* the bound notes of :func:`petheory.bounds.bound_report` (li2025 Table 2 / §4.2, the rotary
  angle coverage, ALiBi's Eq. 9).

Pure: numbers in, a JSON-able dict out (rendering is :mod:`petheory.cli.report`, the figure
:mod:`petheory.plots.models`).
"""

from __future__ import annotations

import math
import time
import warnings

import numpy as np

from petheory import _validate as v
from petheory import encodings as enc
from petheory.scheme import Positions, Scheme
from petheory.models.describe import describe_encoding, jsonable
from petheory.errors import ValidationTypeError

MULTIPLES = (1, 2, 4, 8)
#: Points of the kernel stored in the report (log-spaced distances) and log bins of its envelope.
KERNEL_POINTS = 240
ENVELOPE_BINS = 48


def rotary_column(freqs, n: int, factor: float = 1.0, *, chunk: int = 1 << 16) -> np.ndarray:
    r"""First column :math:`a_k = f\sum_t\cos(k\omega_t)`, k = 0..n-1, shape (n,), in O(n) memory per band.

    The unit-content kernel of a rotary table (``rotary_kernel``) without forming the (n, r/2)
    angle table: the same sum, accumulated band by band in chunks of positions.

    >>> rotary_column([0.0, math.pi], 3).tolist()
    [2.0, 0.0, 2.0]
    """
    freqs = v.array("freqs", freqs, ndim=1)
    n = v.integer("n", n, minimum=1)
    out = np.zeros(n)
    for lo in range(0, n, chunk):
        k = np.arange(lo, min(n, lo + chunk), dtype=np.float64)
        for om in freqs:
            out[lo:lo + k.shape[0]] += np.cos(k * om)
    return factor * out


def table_logit_factor(s: Scheme) -> float:
    """The part of ``s.logit_factor`` its rotary table does not already carry (MLA folds its softmax factor in)."""
    return 1.0 if s.encoding == "mla_rope" else s.logit_factor


def _scheme_column(s: Scheme, n: int) -> tuple[np.ndarray | None, str]:
    """(first column of the n x n position-only kernel, its formula) or (None, why not)."""
    info = enc.info(s.encoding)
    if info.kind == "rotary":
        w, f = enc.band_frequencies(s.encoding, s.d, n, **s.params)
        return rotary_column(w, n, f * table_logit_factor(s)), "a_k = F sum_t cos(k w_t) (unit content in every " \
            "rotated band; F = rotary logit factor x logit factor)"
    if s.encoding == "alibi":
        slope = float(s.params.get("slope", 1.0))
        return -slope * np.arange(n, dtype=np.float64), "a_k = -m |k| (head 1, the steepest slope; symmetric form)"
    return None, f"{s.encoding}: the bias values are learned weights, not in the configuration"


def band_table(s: Scheme, *, context: int, length: int) -> list[dict]:
    """One row per rotary band: frequencies, wavelength, turns over L, interpolated or extrapolated.

    ``original_frequency`` is the pre-training ladder (the entry with ``scale=1``: RoPE for PI,
    NTK, YaRN, Llama 3; LongRoPE's short factors; dynamic NTK at L); ``interpolation`` is
    original / now (1: extrapolated, the band keeps its frequency; s: fully interpolated).
    ``phase_seen`` says whether every angle the band takes up to N was seen in pre-training: the
    band made a full turn within L (:math:`(L-1)\\omega^0_t \\ge 2\\pi`), or
    :math:`(N-1)\\omega_t \\le (L-1)\\omega^0_t` (as :func:`petheory.bounds.rotary_angle_coverage`).
    """
    info = enc.info(s.encoding)
    if info.kind != "rotary":
        return []
    w, _ = enc.band_frequencies(s.encoding, s.d, length, **s.params)
    ref = dict(s.params)
    if "scale" in info.params:
        ref["scale"] = 1.0
    if s.encoding == "mla_rope" and isinstance(ref.get("scaling_params"), dict):
        ref["scaling_params"] = {**ref["scaling_params"], "scale": 1.0}
    w0, _ = enc.band_frequencies(s.encoding, s.d, context, **ref)
    rows = []
    for t, (om, om0) in enumerate(zip(w, w0)):
        ratio = om0 / om
        regime = "extrapolated" if abs(ratio - 1) <= 1e-9 else ("interpolated" if ratio > 1 else "sped up")
        seen = (context - 1) * om0
        rows.append({"band": t, "frequency": float(om), "original_frequency": float(om0),
                     "wavelength": float(2 * math.pi / om), "turns_over_L": float(context * om0 / (2 * math.pi)),
                     "interpolation": float(ratio), "regime": regime,
                     "phase_seen": bool(seen >= 2 * math.pi or (length - 1) * om <= seen * (1 + 8 * np.finfo(float).eps))})
    return rows


def t5_buckets(s: Scheme, length: int) -> list[dict]:
    """T5's buckets as offset ranges ``j - i`` (query i, key j) within ``length``: one row per bucket."""
    off = np.arange(-(length - 1), length, dtype=np.int64)
    b = enc.t5_bucket(off, bidirectional=bool(s.params.get("bidirectional", True)),
                      num_buckets=int(s.params.get("num_buckets", 32)), max_distance=int(s.params.get("max_distance", 128)))
    rows = []
    for k in np.unique(b):
        o = off[b == k]
        rows.append({"bucket": int(k), "offsets": [int(o.min()), int(o.max())], "count": int(o.shape[0])})
    return rows


def _kernel_summary(c: np.ndarray, context: int) -> dict:
    n = c.shape[0]
    a0 = float(c[0]) if c[0] != 0 else 1.0
    ks = np.unique(np.concatenate([[0], np.round(np.geomspace(1, max(n - 1, 1), KERNEL_POINTS)).astype(np.int64)]))
    edges = np.unique(np.round(np.geomspace(1, n, ENVELOPE_BINS + 1)).astype(np.int64))
    env = [(int(lo), int(hi), float(np.max(np.abs(c[lo:hi])) / abs(a0))) for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo]
    at = sorted({k for k in (1, 10, 100, 1000, 10000, context // 2, context, 2 * context, 4 * context, n - 1) if 0 < k < n})
    out = {"distance": ks.tolist(), "a": c[ks].tolist(), "a0": float(c[0]),
           "points": [{"k": int(k), "a_over_a0": float(c[k] / a0)} for k in at],
           "envelope": [{"from": lo, "to": hi, "max_abs_over_a0": e} for lo, hi, e in env]}
    for name, lo, hi in (("within_L", max(1, context // 2), context), ("beyond_L", context, n)):
        if hi > lo:
            out[f"max_abs_over_a0_{name}"] = {"from": lo, "to": hi, "value": float(np.max(np.abs(c[lo:hi])) / abs(a0))}
    return out


def _spectrum(c: np.ndarray, rtol: float) -> dict:
    from petheory import toeplitz as tp

    t0 = time.perf_counter()
    ex = tp.symbol_extrema(c)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        # as `petheory spectrum`: eigenvalues below 1e-4 ||T|| (the zeros of a rank-deficient Gram) to an absolute accuracy
        eig = tp.extreme_eigenvalues(c, rtol=rtol, atol=rtol * 1e-4 * max(abs(ex.min), abs(ex.max)))
    return {"n": int(c.shape[0]), "lambda_min": eig.min.value, "lambda_max": eig.max.value,
            "error_bounds": [eig.min.error_bound, eig.max.error_bound],
            "certificates": [eig.min.certificate, eig.max.certificate], "symbol_min": ex.min, "symbol_max": ex.max,
            "warnings": [str(w.message) for w in caught], "seconds": round(time.perf_counter() - t0, 3)}


def _stress(s: Scheme, draws: int, seed: int) -> dict:
    from petheory import geometry, stress_reference

    if s.encoding == "t5":
        return {"skipped": "T5's bias values are learned weights, not in the configuration"}
    target = geometry.builtin_target()
    n = target.n
    if enc.info(s.encoding).kind == "rotary":
        table = enc.get(s.encoding)(n, s.d, **s.params)
        rep = geometry.encoding_stress(table, target, name=s.encoding)
    else:  # ALiBi: the symmetric form -m|i-j| (the geometry of distances; the causal form is not symmetric)
        params = {k: val for k, val in s.params.items() if k != "form"}
        rep = geometry.encoding_stress(s.encoding, target, d=s.d, name=s.encoding, **params)
    D, _desc, _details = geometry.target_distances(target, rep.n)
    out = {"stress": rep.stress, "kind": rep.kind, "n": rep.n, "d": rep.d, "geometry": rep.as_dict().get("geometry"),
           "target": "the built-in corpus (Hellinger geometry of its positional distributions)",
           "mds_stress": rep.as_dict().get("mds_stress")}
    if draws:
        null = stress_reference.random_table_null(D, rep.d, kind=rep.kind, draws=draws, seed=seed)
        out["null"] = null.as_dict(rep.stress)
    return out


def _bounds(s: Scheme, *, context: int, length: int) -> dict:
    from petheory import bounds

    info = enc.info(s.encoding)
    if info.kind == "bias" and s.encoding != "alibi":
        return {"skipped": f"{s.encoding}: no norm bound without its learned values"}
    name, d, drop = s.encoding, s.d, ("form",) if s.encoding == "alibi" else ("n_max",)  # bound_report takes n_max
    params = {k: val for k, val in s.params.items() if k not in drop}
    if name == "mla_rope":  # the rope part is its scaling's entry on rope_dim coordinates (angles are all that matter)
        name, d = params.get("scaling", "rope"), int(params.get("rope_dim", d))
        params = {"base": params.get("base", 10000.0), **{k: val for k, val in (params.get("scaling_params") or {}).items()
                                                           if k != "n_max"}}
    try:
        rep = bounds.bound_report(name, length, d, n_max=context, **params)
    except ValueError as exc:
        return {"skipped": str(exc)}
    keep = ("norm", "B0", "rademacher", "rademacher_formula", "angles", "eq9")
    return {k: rep[k] for k in keep if k in rep}


def model_report(model, *, length: int | None = None, multiples=MULTIPLES, null_draws: int = 100, seed: int = 0,
                 rtol: float = 1e-6, source: str | None = None) -> dict:
    """The one-page report of a ``petheory.scheme.Scheme`` (its main layer kind; another rotary kind as bands).

    Parameters
    ----------
    model : Scheme
        From :func:`petheory.models.resolve_config` (or :func:`scheme_of` for a registry entry).
    length : int, optional
        Requested length N for the band table and the kernel (default: the extended context,
        ``max(max_context, L * scale)``).
    multiples : tuple of int
        Spectra at these multiples of the original context L.
    null_draws, seed : int
        Random tables of the stress null reference (0: none).
    rtol : float
        Relative accuracy of the certified extreme eigenvalues.

    Returns
    -------
    dict
        JSON-able: ``encoding``, ``context``, ``length``, ``bands``, ``kernel``, ``spectra``,
        ``stress``, ``bounds``, ``notes`` (see the module docstring), ``seconds``.

    Notes
    -----
    Cost: the kernel at N and at each multiple is :math:`O(N r)` cosines; each spectrum is a
    few dozen FFT matvecs of size 2N (:func:`petheory.toeplitz.extreme_eigenvalues`). The dense
    N x N matrix is never formed.
    """
    if not isinstance(model, Scheme):
        raise ValidationTypeError(f"model_report takes a Scheme (petheory.models.resolve_config), got {type(model).__name__}")
    t_start = time.perf_counter()
    s, L = model.main.positions, model.context
    scale = float(s.params.get("scale", (s.params.get("scaling_params") or {}).get("scale", 1.0)))
    N = max(model.max_context, int(round(L * scale)), 2) if length is None else v.integer("length", length, minimum=2)
    mults = [v.integer("multiple", m, minimum=1) for m in multiples]
    null_draws = v.integer("null_draws", null_draws, minimum=0)
    out: dict = {"model_type": model.source, "source": source, "context": L, "max_context": model.max_context,
                 "length": N, "num_heads": model.num_heads, "head_dim": model.head_dim, "layers": _layer_counts(model),
                 "encoding": describe_encoding(s.encoding, s.params, s.d, length=N), "logit_factor": s.logit_factor,
                 "notes": list(model.notes)}
    if s.heads:
        out["heads"] = jsonable(list(s.heads))
    out["bands"] = band_table(s, context=L, length=N)
    loc = next((k.positions for k, _ in model.kinds() if k.positions.is_rotary and k.positions != s), None)
    if loc is not None:
        out["local"] = {"encoding": describe_encoding(loc.encoding, loc.params, loc.d, length=N),
                        "bands": band_table(loc, context=L, length=N)}
    if s.encoding == "t5":
        out["buckets"] = t5_buckets(s, N)
    c, formula = _scheme_column(s, N)
    out["kernel"] = {"skipped": formula} if c is None else {"formula": formula, **_kernel_summary(c, L)}
    spectra = []
    for m in mults:
        col, _ = _scheme_column(s, m * L)
        if col is None:
            break
        spectra.append({"multiple": m, **_spectrum(col, rtol)})
    out["spectra"] = spectra if c is not None else {"skipped": formula}
    out["stress"] = _stress(s, null_draws, seed)
    out["bounds"] = _bounds(s, context=L, length=N)
    out["seconds"] = round(time.perf_counter() - t_start, 3)
    return jsonable(out)


def scheme_of(name: str, params: dict | None = None, d: int = 128, *, context: int = 4096) -> Scheme:
    """A registry encoding as a one-layer ``petheory.scheme.Scheme`` (for ``petheory report --pe NAME``).

    >>> scheme_of("rope_pi", {"scale": 4.0}, 64, context=2048).main.positions.encoding
    'rope_pi'
    """
    params = dict(params or {})
    context = int(params.get("n_max", context))
    info = enc.info(name)
    d = v.even("d", d) if info.kind == "rotary" else v.integer("d", d, minimum=1)
    return Scheme.single(Positions(info.kind, name, params, d), context=context, source="registry")


def _layer_counts(model: Scheme) -> dict:
    """How many layers of each kind: ``{"full_attention (rotary, full)": 24, ...}``."""
    return {f"{layer.type or 'layers'} ({layer.positions.kind}, {layer.span})": len(idx) for layer, idx in model.kinds()}
