r"""``report``: the one-page report of a positional scheme at long lengths, one section per distinct layer kind.

What a long-context researcher looks at first, for each layer kind (:meth:`Scheme.kinds`: which
layers, their span):

* the per-band table: frequency now and at pre-training, wavelength, turns over the original
  context L, interpolated or extrapolated, and whether its phase at N stays within what
  pre-training saw;
* the position-only kernel :math:`a_k` (:func:`petheory.analyses.kernel.position_column`) against
  the distance k up to N, with its log-binned envelope :math:`\max|a_k|/a_0`;
* extreme eigenvalues of the N x N kernel at L, 2L, 4L, 8L (:func:`petheory.analyses.kernel.extremes`:
  exact low rank for rotary kernels, certified FFT Lanczos otherwise; never a dense N x N);
* the stress of its geometry on the built-in corpus against random tables
  (:func:`petheory.analyses.stress.layer_stress`);
* the bound notes (:func:`petheory.analyses.bounds.layer_bounds`).

A sliding or chunked layer is analysed at ``min(N, span)`` (its kernel beyond the span is never
used); a NoPE or position-free layer gets a section that says what it is; M-RoPE layers are
analysed on text-only positions (every axis carries the same index). Any N >= 1 works.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from petheory import _validate as v
from petheory import encodings as enc
from petheory.analyses import kernel as K
from petheory.errors import ValidationError
from petheory.scheme import Positions, Scheme, layer_ranges

MULTIPLES = (1, 2, 4, 8)
#: Points of the kernel stored in the report (log-spaced distances) and log bins of its envelope.
KERNEL_POINTS = 240
ENVELOPE_BINS = 48


def band_table(pos: Positions, *, context: int, length: int) -> list[dict]:
    """One row per rotary band: frequencies, wavelength, turns over L, interpolated or extrapolated.

    ``original_frequency`` is the pre-training ladder (the entry with ``scale=1``); ``interpolation`` is
    original / now (1: extrapolated, the band keeps its frequency; s: fully interpolated).
    ``phase_seen``: every angle the band takes up to N was seen in pre-training: it made a full turn
    within L (:math:`(L-1)\\omega^0_t \\ge 2\\pi`), or :math:`(N-1)\\omega_t \\le (L-1)\\omega^0_t`.
    """
    bands = K.rotary_bands(pos, length)
    if bands is None:
        return []
    w = bands[0]
    info = enc.info(pos.encoding)
    ref = dict(pos.params)
    if "scale" in info.params:
        ref["scale"] = 1.0
    if (pos.encoding == "mla_rope" and isinstance(ref.get("scaling_params"), dict)
            and "scale" in enc.info(ref.get("scaling", "rope")).params):  # plain rope (DeepSeek-V3 unscaled) takes none
        ref["scaling_params"] = {**ref["scaling_params"], "scale": 1.0}
    w0, _ = enc.band_frequencies(pos.encoding, pos.d, max(context, 2), **ref)
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


def t5_buckets(pos: Positions, length: int) -> list[dict]:
    """T5's buckets as offset ranges ``j - i`` (query i, key j) within ``length``: one row per bucket."""
    off = np.arange(-(length - 1), length, dtype=np.int64)
    b = enc.t5_bucket(off, bidirectional=bool(pos.params.get("bidirectional", True)),
                      num_buckets=int(pos.params.get("num_buckets", 32)), max_distance=int(pos.params.get("max_distance", 128)))
    rows = []
    for k in np.unique(b):
        o = off[b == k]
        rows.append({"bucket": int(k), "offsets": [int(o.min()), int(o.max())], "count": int(o.shape[0])})
    return rows


def kernel_summary(c: np.ndarray, context: int) -> dict:
    """The kernel at log-spaced distances, its log-binned envelope and its largest :math:`|a_k|/a_0` within [L/2, L) and
    beyond L (each only where the column reaches it: any length n >= 1)."""
    n = c.shape[0]
    a0 = float(c[0]) if c[0] != 0 else 1.0
    ks = np.unique(np.concatenate([[0], np.round(np.geomspace(1, max(n - 1, 1), KERNEL_POINTS)).astype(np.int64)]))
    ks = ks[ks < n]
    edges = np.unique(np.round(np.geomspace(1, max(n, 1), ENVELOPE_BINS + 1)).astype(np.int64))
    env = [(int(lo), int(hi), float(np.max(np.abs(c[lo:hi])) / abs(a0))) for lo, hi in zip(edges[:-1], edges[1:])
           if hi > lo and lo < n]
    at = sorted({k for k in (1, 10, 100, 1000, 10000, context // 2, context, 2 * context, 4 * context, n - 1) if 0 < k < n})
    out = {"distance": ks.tolist(), "a": c[ks].tolist(), "a0": float(c[0]),
           "points": [{"k": int(k), "a_over_a0": float(c[k] / a0)} for k in at],
           "envelope": [{"from": lo, "to": hi, "max_abs_over_a0": e} for lo, hi, e in env]}
    for name, lo, hi in (("within_L", max(1, context // 2), min(context, n)), ("beyond_L", context, n)):
        if hi > lo:
            out[f"max_abs_over_a0_{name}"] = {"from": lo, "to": hi, "value": float(np.max(np.abs(c[lo:hi])) / abs(a0))}
    return out


def spectrum_at(pos: Positions, n: int, *, rtol: float) -> dict:
    """Extreme eigenvalues of the layer's n x n kernel: the fields ``report`` prints (shared with ``spectrum``)."""
    t0 = time.perf_counter()
    eig, caught = K.extremes(pos, n, rtol=rtol)
    lo, hi = eig["lambda_min"], eig["lambda_max"]
    return {"n": int(n), "lambda_min": lo["value"], "lambda_max": hi["value"], "error_bounds": [lo["error_bound"],
            hi["error_bound"]], "certificates": [lo["certificate"], hi["certificate"]], "warnings": caught,
            "seconds": round(time.perf_counter() - t0, 3)}


def default_length(scheme: Scheme) -> int:
    """The extended context: ``max(max_position_embeddings, L * scale)``."""
    p = scheme.main.positions.params
    scale = float(p.get("scale", (p.get("scaling_params") or {}).get("scale", 1.0)))
    return max(scheme.max_context, int(round(scheme.context * scale)), 1)


@dataclass(frozen=True)
class ReportRecord:
    """The report: the scheme (its per-layer table), L, N, one section per distinct layer kind, notes."""

    source: str | None
    scheme: dict
    context: int
    max_context: int
    length: int
    sections: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        from petheory.models.describe import jsonable

        return jsonable({"source": self.source, "model_type": self.scheme["source"], "context": self.context,
                         "max_context": self.max_context, "length": self.length, "num_heads": self.scheme["num_heads"],
                         "head_dim": self.scheme["head_dim"], "num_layers": self.scheme["num_layers"],
                         "layer_kind": self.scheme["layer_kind"], "scheme": self.scheme, "sections": self.sections,
                         "notes": self.notes, "seconds": self.seconds})


#: What a report covers (biases: ALiBi's closed form and T5's buckets, at any N); other mechanisms (absolute PEs,
#: tables, biases built as dense N x N matrices) are refused by name (use spectrum/stress).
COVERED = ("rotary", "bias", "nope", "none")


def section(scheme: Scheme, layer, idx, *, length: int, multiples, null_draws: int, seed: int, rtol: float,
            stress_cache: list) -> dict:
    """The report of one layer kind (see the module docstring)."""
    from petheory.analyses.bounds import layer_bounds
    from petheory.analyses.stress import layer_stress
    from petheory.models.describe import describe_encoding

    pos, L = layer.positions, scheme.context
    learned = scheme.source not in ("spec", "table")
    out = {"layers": list(idx), "type": layer.type, "span": {"kind": layer.span.kind, "size": layer.span.size},
           "mechanism": pos.kind, "notes": []}
    if layer.temperature is not None:
        out["notes"].append(f"attention temperature {layer.temperature.kind} {layer.temperature.params}: a factor on "
                            "every logit that grows with the query's position (not in the kernel below)")
    if layer.sinks:
        out["notes"].append("learned attention sinks: a per-head logit outside the positions (not in the kernel)")
    why = K.why_no_kernel(pos, learned_t5=learned)
    if pos.kind in ("nope", "none"):
        out["skipped"] = why
        return out
    n = layer.span.reach(length)
    out["analysed_length"] = n
    if n < length:
        out["notes"].append(f"{layer.span} attention: analysed at N = {n:,} = min(N, {layer.span.size:,}); the kernel "
                            "beyond the span is never used")
    # M-RoPE: the scheme's own note (petheory.models) says text-only positions are analysed
    out["encoding"] = describe_encoding(pos.encoding, pos.params, pos.d, length=max(n, 2))
    out["logit_factor"] = pos.logit_factor
    if pos.heads:
        out["heads"] = list(pos.heads)
    out["bands"] = band_table(pos, context=L, length=n)
    if pos.encoding == "t5":
        out["buckets"] = t5_buckets(pos, n)
    if why is not None:
        out["kernel"] = out["spectra"] = {"skipped": why}
    else:
        col = K.position_column(pos, n)
        out["kernel"] = {"formula": col.description, **kernel_summary(col.column, L)}
        spectra, seen = [], set()
        for m in multiples:
            mn = layer.span.reach(m * L)
            if mn in seen:
                continue
            seen.add(mn)
            spectra.append({"multiple": m, **spectrum_at(pos, mn, rtol=rtol)})
        out["spectra"] = spectra
    for known, rec in stress_cache:  # the geometry of positions does not depend on the span: computed once
        if known == pos:
            out["stress"] = rec
            break
    else:
        try:
            rec = ({"skipped": why} if why is not None else
                   layer_stress(pos, _target(), null_draws=null_draws, seed=seed, name=pos.encoding))
        except ValueError as exc:
            rec = {"skipped": str(exc).splitlines()[0]}
        stress_cache.append((pos, rec))
        out["stress"] = rec
    try:
        b = layer_bounds(pos, n, n_max=L, learned_t5=learned)
        keep = ("skipped", "norm", "B0", "rademacher", "rademacher_formula", "angles", "eq9")
        out["bounds"] = {k: b[k] for k in keep if k in b}
    except ValueError as exc:
        out["bounds"] = {"skipped": str(exc).splitlines()[0]}
    if pos.kind == "rotary" and pos.encoding != "mla_rope":  # issue 31: Men, Liu, RoFormer, temperatures per rotary kind
        from petheory.bounds.long_context import long_context_section

        try:
            # a sliding or chunked layer's queries never see past its span: the theory is asked within it
            ctx_L = max(layer.span.reach(L), 2)
            # a scaling's factor names the context it is for (Qwen2.5's YaRN x4 over max_position_embeddings 32k)
            factor = float(pos.params.get("scale") or pos.params.get("factor") or 1.0)
            target = max(scheme.max_context, int(round(factor * L)))
            out["long_context"] = long_context_section(
                pos, context=ctx_L, extended_context=max(layer.span.reach(target), ctx_L),
                length=max(layer.span.reach(length), 2),
                extended_from=None if target == scheme.max_context else
                f"factor {factor:g} x L; max_position_embeddings is {scheme.max_context:,}")
            from petheory.analyses.plan import supported_context  # issue 41: the largest context each theory supports

            out["theory_range"] = supported_context(pos, context=ctx_L, extended=max(layer.span.reach(target), ctx_L)).lines()[0]
        except ValueError as exc:
            out["long_context"] = {"skipped": str(exc).splitlines()[0]}
    return out


def _target():
    from petheory import geometry

    return geometry.builtin_target()


def check_covered(scheme: Scheme) -> None:
    """ValidationError naming the first layer kind a report does not cover (absolute encodings, tables)."""
    bad = [(layer, idx) for layer, idx in scheme.kinds() if layer.positions.kind not in COVERED
           or (layer.positions.kind == "bias" and layer.positions.encoding not in ("alibi", "t5"))]
    if bad:
        layer, idx = bad[0]
        what = layer.positions.encoding or layer.positions.source or layer.positions.kind
        if layer.positions.kind == "table":
            if str(what).startswith("hf:"):  # a model folder whose config.json is missing or not resolvable: say so
                raise ValidationError(f"report reads a model's config.json; {what.split('[')[0]} has none that petheory "
                                      "resolves (its weights are a position table: use petheory spectrum/stress for it)")
            raise ValidationError(f"report takes a model's config.json (hf:DIR, PATH/config.json) or a registered "
                                  f"encoding, not the table {what}: use petheory spectrum/stress for tables")
        raise ValidationError(f"report covers rotary encodings, biases ALiBi and T5, and NoPE/position-free layers; "
                              f"{what} (layers {list(idx)[:8]}) is {layer.positions.kind}: use petheory spectrum/stress "
                              "for it")


def report(scheme: Scheme, *, length: int | None = None, multiples=MULTIPLES, null_draws: int = 100, seed: int = 0,
           rtol: float = K.RTOL, source: str | None = None, progress=None) -> ReportRecord:
    """The one-page report of ``scheme``: one section per distinct layer kind (see the module docstring).

    Parameters
    ----------
    scheme : Scheme
        From :func:`petheory.loaders.resolve_scheme`.
    length : int, optional
        Report length N >= 1 (default: the extended context, :func:`default_length`).
    multiples : tuple of int
        Spectra at these multiples of the original context L.
    null_draws, seed : int
        Random tables of the stress null reference (0: none).
    rtol : float
        Relative accuracy of the certified extreme eigenvalues (non-rotary kernels).
    progress : callable, optional
        ``progress(done, total, what)`` after each section.

    Notes
    -----
    Cost per kind: the kernel at N is :math:`O(N r)` cosines; a rotary spectrum is a 2b x 2b
    eigenproblem (b bands) at any N; a bias spectrum is a few dozen FFT matvecs of size 2N.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> r = report(resolve_scheme("rope", d=16, context=64), length=1, null_draws=0, multiples=(1,))
    >>> r.sections[0]["analysed_length"], r.sections[0]["spectra"][0]["n"]
    (1, 64)
    """
    if not isinstance(scheme, Scheme):
        raise ValidationError(f"report takes a petheory.scheme.Scheme (petheory.loaders.resolve_scheme), got "
                              f"{type(scheme).__name__}")
    t_start = time.perf_counter()
    N = default_length(scheme) if length is None else v.integer("length", length, minimum=1)
    mults = [v.integer("multiple", m, minimum=1) for m in multiples]
    null_draws = v.integer("null_draws", null_draws, minimum=0)
    check_covered(scheme)
    kinds = scheme.kinds()
    sections, cache = [], []
    for k, (layer, idx) in enumerate(kinds):
        sections.append(section(scheme, layer, idx, length=N, multiples=mults, null_draws=null_draws, seed=seed,
                                rtol=rtol, stress_cache=cache))
        if progress is not None:
            progress(k + 1, len(kinds), f"layer kind {k + 1} of {len(kinds)} (layers {layer_ranges(idx)})")
    return ReportRecord(source, scheme.as_dict(), scheme.context, scheme.max_context, N, sections, list(scheme.notes),
                        round(time.perf_counter() - t_start, 3))
