"""Several models' positional schemes side by side: kernel decay and band wavelengths (``petheory report --figure``).

Drawn from the reports of :func:`petheory.analyses.report.report` (its first full-attention section with a kernel;
nothing is recomputed):
left, the envelope of the position-only kernel :math:`\\max|a_k|/a_0` over log-spaced bins of the
distance k, each model up to its report length, with its original context L marked; right, the
wavelength :math:`2\\pi/\\omega_t` of every rotary band against its position in the ladder, with
interpolated bands filled and extrapolated ones hollow, divided by each model's L (the dashed line at 1:
bands above it never completed a turn in pre-training).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from petheory.plots import save
from petheory.scheme import layer_ranges

NAME = "models.report"


def main_section(rep):
    """The section a one-line comparison draws: the first full-attention kind with a kernel, else the first with one.

    Parameters
    ----------
    rep : petheory.analyses.report_record.ReportRecord

    Returns
    -------
    petheory.analyses.report_record.ReportSection

    Examples
    --------
    >>> from petheory.analyses.report import report
    >>> from petheory.loaders import resolve_scheme
    >>> main_section(report(resolve_scheme("rope"), length=64, null_draws=2)).span.kind
    'full'
    """
    secs = [s for s in rep.sections if s.kernel is not None]
    full = [s for s in secs if s.span.kind == "full"]
    return (full or secs or list(rep.sections))[0]


def _encoding(sec) -> str | None:
    return (sec.encoding or {}).get("encoding")


def _label(rep, label: str | None) -> str:
    if label:
        return label
    src = rep.source or _encoding(main_section(rep)) or "?"
    return Path(str(src).removeprefix("hf:")).stem if src else rep.model_type


def _envelope(sec) -> list[dict] | None:
    k = sec.kernel
    return None if k is None or not hasattr(k, "envelope") else [e.as_dict() for e in k.envelope]


def draw_model_comparison(reports: list, labels=None):
    """A matplotlib figure comparing the kernels and band wavelengths of ``reports`` (one per model).

    Parameters
    ----------
    reports : list of petheory.analyses.report_record.ReportRecord
    labels : list of str, optional
        Default: each report's source file name.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> fig = draw_model_comparison([report_a, report_b], ["Llama 3.1 8B", "Qwen2 7B"])  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    labels = list(labels) if labels else [None] * len(reports)
    fig, (ax_k, ax_w) = plt.subplots(1, 2, figsize=(13, 5.2))
    colors = plt.get_cmap("tab10").colors
    handles = []
    for i, (rep, lab) in enumerate(zip(reports, labels)):
        c, name = colors[i % len(colors)], _label(rep, lab)
        L, sec = rep.context, main_section(rep)
        n_bands = len(sec.bands or [])
        kind = f"layers {layer_ranges(sec.layers)}: {sec.kind_name}"  # which layer kind this curve is
        handles.append(plt.Line2D([], [], color=c, lw=2, label=f"{name} ({kind}): L = {L:,}, N = {rep.length:,}"
                                  + (f", {n_bands} bands" if n_bands else "")))
        env = _envelope(sec)
        if env:
            x = [np.sqrt(max(e["from"], 1) * e["to"]) for e in env]  # geometric bin centres
            y = [e["max_abs_over_a0"] for e in env]
            ax_k.semilogx(x, y, "-", color=c, lw=1.6)
            if L <= x[-1]:
                ax_k.plot([L], [np.interp(np.log(L), np.log(x), y)], "o", color=c, ms=6, mec="k", mew=0.6)
        bands = sec.bands or []
        if bands:
            frac = (np.arange(len(bands)) + 0.5) / len(bands)
            lam = np.array([b.wavelength for b in bands]) / L
            interp = np.array([b.regime == "interpolated" for b in bands])
            ax_w.semilogy(frac, lam, "-", color=c, lw=1)
            ax_w.semilogy(frac[interp], lam[interp], "o", color=c, ms=3.5)
            ax_w.semilogy(frac[~interp], lam[~interp], "o", mfc="none", mec=c, ms=3.5)
    ax_k.set_xlabel("distance k (positions)")
    ax_k.set_ylabel("max |a_k| / a_0 over a log bin of k")
    ax_k.set_title("position-only kernel a_k = F Σ_t cos(k ω_t), unit content, F the logit factor:\n"
                   "long-range envelope (dot: the original context L)", fontsize=10)
    ax_k.set_ylim(0, 1.05)
    ax_k.grid(True, which="major", alpha=0.3)

    ax_w.set_xlabel("band position t / (r/2)  (0: fastest, 1: slowest)")
    ax_w.axhline(1.0, color="k", ls="--", lw=0.8, label="wavelength = L: bands above never turn once in pre-training")
    ax_w.set_ylabel("wavelength 2π/ω_t  /  original context L")
    ax_w.set_title("band wavelengths at the report length, relative to each model's L\n"
                   "(filled: interpolated, hollow: kept as pre-trained)", fontsize=10)
    ax_w.grid(True, which="major", alpha=0.3)
    ax_w.legend(fontsize=8, loc="upper left")
    ncol = min(len(handles), 3)
    fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=8.5, frameon=False)
    fig.tight_layout(rect=(0, 0.05 + 0.035 * math.ceil(len(handles) / ncol), 1, 1))
    return fig


def save_model_comparison(reports: list, path, labels=None) -> list[Path]:
    """Draw :func:`draw_model_comparison` and save ``PATH.png`` with what it drew as ``PATH.json`` beside it.

    Parameters
    ----------
    reports : list of petheory.analyses.report_record.ReportRecord
    path : str or pathlib.Path
        ``FILE.png`` (or a stem).
    labels : list of str, optional

    Returns
    -------
    list of pathlib.Path
        The files written.

    Examples
    --------
    >>> png, js = save_model_comparison([report_a, report_b], "models.png")  # doctest: +SKIP
    """
    path = Path(path)
    fig = draw_model_comparison(reports, labels)
    labels = labels or [None] * len(reports)
    data = {"figure": NAME, "models": [  # what is drawn, per model (the full reports: petheory report --json)
        {"label": _label(r, lab), "source": r.source, "encoding": _encoding(main_section(r)),
         "layers": main_section(r).layers, "layer_kind": main_section(r).kind_name, "context": r.context, "length": r.length,
         "envelope": _envelope(main_section(r)),
         "bands": [{"wavelength": b.wavelength, "regime": b.regime} for b in main_section(r).bands or []]}
        for r, lab in zip(reports, labels)]}
    return save(fig, data, path.parent, path.stem if path.suffix.lower() == ".png" else path.name)
