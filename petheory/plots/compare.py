"""``compare.encodings``: every registered PE side by side (the figure of ``petheory compare``)."""

from __future__ import annotations

import numpy as np

from petheory.plots import figure, save

KIND_COLOR = {"absolute": "tab:blue", "bias": "tab:orange", "rotary": "tab:green"}


@figure("compare.encodings", "every registered PE: stress vs the corpus with its null, norm growth past n_max, spectral spread")
def compare_encodings(outdir, *, preset="quick", seed=0):
    import matplotlib.pyplot as plt

    from petheory import comparison

    lengths = (64, 256, 1024) if preset == "quick" else (64, 256, 1024, 4096)
    rows = comparison.compare(n=256, d=64, lengths=lengths, n_max=64, null_draws=20, seed=seed)
    rows = [r for r in rows if all("error" not in r[k] for k in ("spectrum", "stress", "norms"))]
    names = [r["pe"] for r in rows]
    colors = [KIND_COLOR.get(r["kind"], "0.5") for r in rows]
    y = np.arange(len(rows))
    fig, axes = plt.subplots(1, 3, figsize=(15, 0.32 * len(rows) + 2.2), gridspec_kw={"width_ratios": [1.2, 1, 1]})

    ax = axes[0]  # stress and its null band
    st = [r["stress"] for r in rows]
    ax.barh(y, [s["stress"] for s in st], color=colors, edgecolor="k", lw=0.4)
    ax.errorbar([s["null_mean"] for s in st], y, xerr=[2 * s["null_sd"] for s in st], fmt="|", color="k", ms=10,
                capsize=2, lw=0.8, label="null mean ± 2 sd")
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("Kruskal stress-1 vs built-in corpus (n=15)")
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("geometry: stress (bar) and random-encoding null", fontsize=9)

    ax = axes[1]  # norm growth
    for r, c in zip(rows, colors):
        vals = [r["norms"]["values"][str(L)] for L in lengths]
        if all(v is not None and v > 1e-12 for v in vals):  # rotations change norms by rounding only: omitted
            ax.loglog(lengths, vals, "o-", color=c, lw=1, ms=3)
            ax.text(lengths[-1] * 1.08, vals[-1], r["pe"], fontsize=6, va="center", color=c)
    ax.axvline(64, color="0.5", ls=":", lw=0.8)
    ax.set_xlabel("length N' (training length n_max = 64, dotted)")
    ax.set_ylabel("sup ||PE|| / max |bias| / max |band factor - 1|")
    ax.set_title("norm growth with length (PEs with 0 up to rounding omitted)", fontsize=9)

    ax = axes[2]  # spectral spread
    spread = np.array([max(r["spectrum"]["spread"], 1e-3) for r in rows])  # nope's 0 drawn at the axis floor
    ax.barh(y, spread, color=colors, edgecolor="k", lw=0.4, log=True)
    ax.set_xlim(1e-3, spread.max() * 30)
    for k, r in enumerate(rows):
        cp = r["spectrum"].get("cpd")
        if cp:
            ax.text(spread[k] * 1.3, k, "CPD" if cp["cpd"] else "not CPD", fontsize=6, va="center")
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("λmax - λmin of the position-only Toeplitz matrix, N=256")
    ax.set_title("spectrum (bias B, rotary kernel, absolute Gram)", fontsize=9)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in KIND_COLOR.values()]
    fig.legend(handles, list(KIND_COLOR), loc="upper center", ncol=3, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.96))
    data = {"settings": {"n": 256, "d": 64, "lengths": list(lengths), "n_max": 64, "null_draws": 20, "seed": seed},
            "rows": rows}
    return save(fig, data, outdir, "compare.encodings")
