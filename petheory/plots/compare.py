"""``compare.encodings``: every registered PE side by side (the figure of ``petheory compare``).

:func:`compare_data` computes the ``compare`` record with :mod:`petheory.analyses` (as the CLI does);
:func:`draw_compare` only draws it (``Figure.draw``: the committed PNG is its committed JSON drawn again).
"""

from __future__ import annotations

import numpy as np

from petheory.plots import register

KIND_COLOR = {"absolute": "tab:blue", "bias": "tab:orange", "rotary": "tab:green"}
#: What ``norm_summary`` measures per kind: three different quantities, so three panels.
KIND_QUANTITY = {"absolute": r"$\sup_{\mathrm{pos}<N'} \Vert PE(\mathrm{pos})\Vert_2$",
                 "bias": r"$\max_{i,j<N'} |b(i,j)|$",
                 "rotary": r"$\max |\mathrm{band\ factor} - 1|$"}
#: ``|z|`` beyond which an encoding's stress is called separated from its null (two null standard deviations).
Z_SEPARATED = 2.0


def spread_labels(y, min_gap: float) -> np.ndarray:
    """Label heights near ``y`` with consecutive labels at least ``min_gap`` apart (same order as ``y``).

    Sorts, pushes each label up to clear the one below, then shifts the stack down by the mean push, so labels stay
    near their points; used in log10 units for the end labels of the norm panels.

    Parameters
    ----------
    y : array_like, shape (k,)
        The points' heights.
    min_gap : float
        Least distance between two labels.

    Returns
    -------
    numpy.ndarray, shape (k,)
        The labels' heights.

    Examples
    --------
    >>> spread_labels([0.0, 0.05, 1.0], 0.2).round(3).tolist()
    [-0.05, 0.15, 0.95]
    """
    y = np.asarray(y, dtype=float)
    order = np.argsort(y)
    placed = y[order].copy()
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + min_gap)
    placed -= np.mean(placed - y[order])
    for i in range(1, len(placed)):  # the shift may not undo the spacing
        placed[i] = max(placed[i], placed[i - 1] + min_gap)
    out = np.empty_like(placed)
    out[order] = placed
    return out


def separated(rows) -> list[str]:
    """Encodings whose stress lies more than :data:`Z_SEPARATED` null standard deviations from the null mean.

    Parameters
    ----------
    rows : iterable of CompareRow
        :class:`petheory.analyses.compare_record.CompareRow` whose stress was computed.

    Returns
    -------
    list of str
        Their ``pe`` labels.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> separated([NS(pe="a", stress=NS(z=5.0)), NS(pe="b", stress=NS(z=0.1)), NS(pe="c", stress=NS(z=None))])
    ['a']
    """
    return [r.pe for r in rows if r.stress.z is not None and abs(r.stress.z) > Z_SEPARATED]


def compare_data(preset: str = "quick", seed: int = 0) -> dict:
    """The figure's data: the ``compare`` record (:func:`petheory.analyses.compare.compare`) of every registered PE
    at d = 64, N = 256, trained on 64 positions, against the built-in corpus; rows with an error are left out.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``rows``, ``settings``, ``stress_separated``.

    Examples
    --------
    >>> record = compare_data()  # doctest: +SKIP
    """
    from petheory import geometry
    from petheory.analyses.compare import compare
    from petheory.analyses.record import to_json

    lengths = (64, 256, 1024) if preset == "quick" else (64, 256, 1024, 4096)
    # the training length as `petheory compare` leaves it (64, each registered encoding at its own n_max default): a
    # context given would also set every n_max entry's table size, as --context does
    rec = compare(target=geometry.builtin_target(), length=256, d=64, lengths=lengths, null_draws=20, seed=seed)
    rows = [r for r in rec.rows if r.complete]
    sep = separated(rows)
    lower = [r.pe for r in rows if r.pe in sep and r.stress.z < 0]
    verdict = (f"{len(sep)} of {len(rows)} separate from their null; closer to the corpus than random: "
               + (", ".join(lower) if lower else "none")) if sep else f"none of {len(rows)} separates from its null"
    n_pos = rows[0].stress.n if rows else 0
    settings = {k: rec.settings[k] for k in ("n", "d", "lengths", "n_max", "null_draws", "seed")}
    # the figure is drawn from this JSON (the committed PNG is its committed JSON drawn again)
    return {"settings": {**settings, "target": f"built-in corpus, {n_pos} positions"},
            "stress_separated": {"threshold_sd": Z_SEPARATED, "separated": sep, "verdict": verdict},
            "rows": to_json(rows)}


def draw_compare(data: dict):
    """The figure from a :func:`compare_data` record alone (nothing recomputed).

    Parameters
    ----------
    data : dict
        The figure's record (:func:`compare_data`): what ``figures/compare.encodings.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "compare.encodings.json"
    >>> fig = draw_compare(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    rows, lengths, n_max = data["rows"], tuple(data["settings"]["lengths"]), data["settings"]["n_max"]
    names = [r["pe"] for r in rows]
    colors = [KIND_COLOR.get(r["kind"], "0.5") for r in rows]
    y = np.arange(len(rows))
    fig = plt.figure(figsize=(16, 0.3 * len(rows) + 8.5), layout="constrained")
    top, bottom = fig.subfigures(2, 1, height_ratios=[0.3 * len(rows) + 1.5, 6])
    ax_z, ax_s = top.subplots(1, 2)
    n_pos = rows[0]["stress"]["n"] if rows else 0

    # geometry: where each stress sits in its null, as a z-score; the panel says plainly what separates
    z = np.array([r["stress"]["z"] if r["stress"]["z"] is not None else np.nan for r in rows])
    verdict = data["stress_separated"]["verdict"]
    ax_z.axvspan(-Z_SEPARATED, Z_SEPARATED, color="0.9", zorder=0, label=rf"within $\pm{Z_SEPARATED:g}$ sd of the null")
    ax_z.barh(y, np.clip(z, -12, 12), color=colors, edgecolor="k", lw=0.4)
    for k in np.flatnonzero(np.abs(z) > 12):  # the axis is clipped at ±12 sd: the value is written
        ax_z.text(np.sign(z[k]) * 12, k, f" z = {z[k]:.0f} ", fontsize=7, va="center", ha="right" if z[k] > 0 else "left")
    ax_z.axvline(0, color="k", lw=0.8)
    ax_z.set_xlim(-13, 13)
    ax_z.set_yticks(y, names, fontsize=8)
    ax_z.invert_yaxis()
    ax_z.set_xlabel(r"$z = (\mathrm{stress} - \mathrm{null\ mean})\,/\,\mathrm{null\ sd}$   (left: closer to the corpus "
                    "than random encodings of the kind)")
    ax_z.legend(fontsize=7, loc="lower right")
    ax_z.set_title(f"geometry: Kruskal stress-1 vs the built-in corpus ({n_pos} positions), as a z-score in a null of "
                   f"{rows[0]['stress']['null_draws'] if rows else 0} random encodings of each kind\n{verdict}", fontsize=9)

    spread = np.array([max(r["spectrum"]["spread"], 1e-3) for r in rows])  # nope's 0 drawn at the axis floor
    ax_s.barh(y, spread, color=colors, edgecolor="k", lw=0.4, log=True)
    ax_s.set_xlim(1e-3, spread.max() * 30)
    for k, r in enumerate(rows):
        cp = r["spectrum"].get("cpd")
        if cp:
            ax_s.text(spread[k] * 1.3, k, "CPD" if cp["cpd"] else "not CPD", fontsize=6, va="center")
    ax_s.set_yticks(y, names, fontsize=8)
    ax_s.invert_yaxis()
    ax_s.set_xlabel(r"$\lambda_{max} - \lambda_{min}$ of the position-only Toeplitz matrix, "
                    + f"$N = {data['settings']['n']}$")
    ax_s.set_title("spectrum (bias B, rotary kernel, absolute Gram)", fontsize=9)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in KIND_COLOR.values()]
    top.legend(handles, list(KIND_COLOR), loc="outside upper center", ncol=3, fontsize=8, frameon=False)

    # norm growth: one panel per kind, since the three kinds measure three different quantities
    axes = bottom.subplots(1, 3)
    omitted = {}
    for ax, kind in zip(axes, KIND_COLOR):
        ends, labels = [], []
        for r in rows:
            if r["kind"] != kind:
                continue
            vals = [r["norms"]["values"][str(L)] for L in lengths]
            if not all(v is not None and v > 1e-12 for v in vals):  # rotations change norms by rounding only
                omitted.setdefault(kind, []).append(r["pe"])
                continue
            ax.loglog(lengths, vals, "o-", color=KIND_COLOR[kind], lw=1, ms=3)
            ends.append(vals[-1])
            labels.append(r["pe"])
        if ends:
            lo, hi = np.log10(min(ends)), np.log10(max(ends))
            ax.set_ylim(10 ** (lo - 0.3), 10 ** (hi + 0.3))
            gap = 0.045 * (hi - lo + 0.6)  # a label's height in log10 units of this axis (about 12 labels fit)
            for yl, yv, lab in zip(spread_labels(np.log10(ends), gap), ends, labels):
                ax.annotate(lab, (lengths[-1], yv), xytext=(lengths[-1] * 1.6, 10**yl), fontsize=7, va="center",
                            color=KIND_COLOR[kind], arrowprops={"arrowstyle": "-", "color": "0.7", "lw": 0.5},
                            annotation_clip=False)
        ax.set_xlim(lengths[0] / 1.3, lengths[-1] * 6)
        ax.axvline(n_max, color="0.5", ls=":", lw=0.8)
        ax.set_xlabel(r"length $N'$ (training length $n_{max}$ = " + f"{n_max}, dotted)")
        ax.set_ylabel(KIND_QUANTITY[kind])
        note = f"\n(0 up to rounding, omitted: {', '.join(omitted[kind])})" if omitted.get(kind) else ""
        ax.set_title(f"{kind}: growth with length{note}", fontsize=9)
    bottom.suptitle("norm growth past the training length, per kind (three different quantities)", fontsize=10)
    return fig


compare_encodings = register(
    "compare.encodings", "every registered PE: stress vs the corpus with its null, norm growth past n_max, spectral spread",
    illustrates=("cirrincione2026.alibi_lowest_stress",), draw=draw_compare, data=compare_data)
