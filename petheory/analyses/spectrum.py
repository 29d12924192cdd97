r"""``spectrum``: symbol range, certified extreme eigenvalues and Szegő distance of each layer kind's Toeplitz matrix.

:func:`toeplitz_summary` is the step every source goes through (coefficients, a kernel, a layer's
position-only matrix from :func:`petheory.analyses.kernel.position_column`); :func:`spectrum` runs it
on every distinct layer kind of a :class:`~petheory.scheme.Scheme` (a sliding or chunked layer at
``min(n, span)``: its kernel beyond the span is never used). A rotary kernel's extreme eigenvalues
are exact from its low-rank Gram (:func:`~petheory.analyses.kernel.low_rank_extremes`), the same
numbers ``report`` prints.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from petheory.analyses import kernel as K
from petheory.scheme import Scheme

#: Szegő distance from dense eigenvalues up to this N by default (O(N^3): about 1-2 s at 1024 on 2 loaded cores).
EXACT_UP_TO = 1024
#: Size for a named PE or a kernel, which have no size of their own.
DEFAULT_N = 1024


def exact_seconds(n: int) -> float:
    """Rough wall time of the dense eigenvalues at N on this project's 2-core machines: 30 s at N = 4096, as N^3."""
    return 30.0 * (n / 4096) ** 3


def resolved(sd) -> bool:
    """Whether the Kolmogorov distance is larger than its own error estimate (always, for exact)."""
    return sd.method == "exact" or sd.kolmogorov > sd.error_estimate


def toeplitz_summary(c, r=None, *, what: str, rtol: float = K.RTOL, method: str = "auto", seed: int = 0, symbol=None,
                     eigenvalues=None, progress=None) -> dict:
    """Symbol range, extreme eigenvalues and Szegő distance of the Hermitian Toeplitz matrix with first column ``c``.

    ``eigenvalues``: precomputed ``(as_dict, warnings)`` (a rotary layer's exact low-rank extremes);
    ``progress(how)`` is called before a long Szegő computation.
    """
    from petheory import toeplitz as tp
    from petheory.toeplitz import szego

    n = c.shape[0]
    t0 = time.perf_counter()
    ex = tp.symbol_extrema(c, r)
    eig, caught = eigenvalues if eigenvalues is not None else K.certified_extremes(c, r, rtol=rtol)
    t_eig = time.perf_counter() - t0
    t0 = time.perf_counter()
    how = method
    if how == "auto":
        how = "exact" if n <= EXACT_UP_TO else "off"
    skip = None
    if method == "auto" and how == "off":
        skip = (f"not computed at N = {n} > {EXACT_UP_TO} by default: dense eigenvalues cost O(N^3) (about "
                f"{exact_seconds(n):.0f} s here on 2 cores); --method exact computes it, --method slq estimates it")
    elif how == "off":
        skip = "not computed (--method off)"
    sd = None if how == "off" else szego.spectral_distribution(c, symbol=symbol, method=how, seed=seed,
                                                               progress=progress)
    rec = {"source": what, "n": int(n), "real": not np.iscomplexobj(c),
           "symbol": {"min": ex.min, "max": ex.max, "argmin": ex.argmin, "argmax": ex.argmax, "error": ex.error,
                      "certified": ex.certified, "which": "closed form (N -> infinity)" if symbol else "finite section a_N"},
           "eigenvalues": {**eig, "seconds": round(t_eig, 4), "warnings": list(caught)},
           "szego": {"skipped": skip} if sd is None else {**sd.as_dict(), "seconds": round(time.perf_counter() - t0, 4),
                                                          "resolved": resolved(sd)}}
    if symbol is not None:
        if sd is not None:
            rec["symbol"]["closed_form_range"] = [float(sd.symbol_values[0]), float(sd.symbol_values[-1])]
        else:  # the same grid spectral_distribution samples the symbol on
            ms = 1 << int(np.ceil(np.log2(max(1 << 15, 4 * n))))
            vals = np.real(symbol(2 * np.pi * (np.arange(ms) + 0.5) / ms))
            rec["symbol"]["closed_form_range"] = [float(vals.min()), float(vals.max())]
    return rec


@dataclass(frozen=True)
class SpectrumRecord:
    """One section per distinct layer kind (``layers``: their indices; ``skipped``: why a kind has no kernel)."""

    scheme: dict
    n: int
    sections: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"scheme": self.scheme, "n": self.n, "sections": self.sections}


def spectrum(scheme: Scheme, *, n: int | None = None, rtol: float = K.RTOL, method: str = "auto", seed: int = 0,
             project: bool = True, hermitian_part: bool = False, progress=None) -> SpectrumRecord:
    """:func:`toeplitz_summary` of every distinct layer kind of ``scheme`` at ``n`` positions.

    ``n`` defaults to a table's rows, else :data:`DEFAULT_N`; a sliding/chunked layer is analysed at
    ``min(n, span)``. A kind without a kernel (NoPE, none, learned T5 buckets) is a section with
    ``skipped`` (never dropped).

    >>> from petheory.loaders import resolve_scheme
    >>> rec = spectrum(resolve_scheme("rope", d=8), n=16, method="off")
    >>> rec.sections[0]["eigenvalues"]["lambda_min"]["value"]  # rank <= 2 x 4 bands < 16
    0.0
    """
    if n is None:
        main = scheme.main.positions
        n = int(np.shape(main.table)[0]) if main.kind == "table" else DEFAULT_N
    sections = []
    for layer, idx in scheme.kinds():
        pos = layer.positions
        head = {"layers": list(idx), "type": layer.type, "span": str(layer.span)}
        m = layer.span.reach(n)
        if m < n:
            head["note"] = f"{layer.span}: analysed at N = {m} (the kernel beyond the span is never used)"
        why = K.why_no_kernel(pos, learned_t5=scheme.source not in ("spec", "table"))
        if why is not None:
            sections.append({**head, "skipped": why})
            continue
        col = K.position_column(pos, m, project=project, hermitian_part=hermitian_part)
        eig = K.extremes(pos, m, rtol=rtol, column=col)
        rec = toeplitz_summary(col.column, col.row, what=col.description, rtol=rtol, method=method, seed=seed,
                               eigenvalues=eig, progress=progress)
        sections.append({**head, **rec, **col.record_fields})
    return SpectrumRecord(scheme.as_dict(), int(n), sections)
