"""Long-context figures: band usage of a model's weights (a heatmap) and models' RoPE bases against Men et al.'s curve.

Records in, figures out: :func:`draw_band_usage` reads :func:`petheory.loaders.band_usage.band_usage`'s
record; :func:`draw_bases_vs_men` reads :func:`petheory.analyses.long_context.long_context_section` records
(one per model and rotary layer kind) and, for the curve, the smallest bases the caller computed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from petheory.plots import save

__all__ = ["draw_band_usage", "save_band_usage", "draw_bases_vs_men", "save_bases_vs_men"]


def draw_band_usage(record: dict):
    """Heatmaps of the band norms (rows: layer x head; columns: bands, highest frequency left), queries and keys,
    each head's row divided by its largest band; the top axis gives the band's wavelength / context."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 5.5), sharex=True)
    lam = np.asarray(record["bands"]["global"]["wavelength_over_context"])
    for ax, part in zip(axes, ("query", "key")):
        n = np.asarray(record[part]["norms"], dtype=float)  # (layers, heads, bands)
        rows = n.reshape(-1, n.shape[-1])
        rows = rows / np.maximum(rows.max(1, keepdims=True), 1e-300)
        im = ax.imshow(rows, aspect="auto", cmap="viridis", vmin=0, vmax=1, interpolation="nearest")
        ax.set_xlabel("band t (frequency decreases to the right)")
        ax.set_ylabel(f"layer x head ({n.shape[0]} layers, {n.shape[1]} heads)")
        ax.set_title(f"{part} projection: band norm / head's largest")
        for k in range(1, n.shape[0]):
            ax.axhline(k * n.shape[1] - 0.5, color="white", lw=0.4)
        cross = np.flatnonzero(lam >= 1.0)
        if cross.size:
            ax.axvline(cross[0] - 0.5, color="red", ls="--", lw=1, label="right of it: wavelength > context")
            ax.legend(loc="lower right", fontsize=7, framealpha=0.9)
    fig.colorbar(im, ax=axes, shrink=0.8)
    fig.suptitle(f"{record.get('model', '?')}: band usage from W_q, W_k ({record['pairing']} pairing, "
                 f"context {record['context']})")
    return fig


def save_band_usage(record: dict, path) -> list[Path]:
    """Draw :func:`draw_band_usage`; save ``PATH.png`` and the record as ``PATH.json``."""
    path = Path(path)
    return save(draw_band_usage(record), record, path.parent, path.stem if path.suffix.lower() == ".png" else path.name)


def draw_bases_vs_men(sections: list, labels: list[str], curve: dict | None = None):
    """Each model's base at its context and extended context, against Men et al.'s smallest passing base.

    ``curve``: ``{'contexts': [...], 'smallest_base': [...], 'rotary_dim': r}`` (computed by the caller with
    :func:`petheory.bounds.men_base.men_smallest_base`); the fitted 0.0424 L^1.628 is drawn too.
    """
    import matplotlib.pyplot as plt

    from petheory.bounds.men_base import MEN_FIT

    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    xs = [s.context for s in sections] + [s.extended_context for s in sections]
    grid = np.geomspace(min(xs) / 2, max(xs) * 2, 50)
    ax.plot(grid, MEN_FIT[0] * grid ** MEN_FIT[1], color="gray", ls=":", label="Men et al. fit 0.0424 L^1.628")
    if curve:
        ax.plot(curve["contexts"], curve["smallest_base"], "k-", marker=".",
                label=f"smallest base with B_m >= 0 (r = {curve['rotary_dim']})")
    colors = plt.get_cmap("tab10").colors
    for i, (s, lab) in enumerate(zip(sections, labels)):
        c = colors[i % len(colors)]
        ok = s.men.passes_at_context  # hollow: this base fails B_m >= 0 up to L (passing bases are not an interval)
        ax.scatter([s.context], [s.base], edgecolors=c, facecolors=c if ok else "none", marker="o", zorder=3,
                   label=f"{lab}: base at context L ({'passes' if ok else 'fails'})")
        if s.extended_context != s.context:
            ax.scatter([s.extended_context], [s.base], color=c, marker="x", zorder=3,
                       label=f"{lab}: same base at extended context")
        ax.scatter([s.context, s.extended_context], [s.men.smallest_base_at_context, s.men.smallest_base_at_extended],
                   color=c, marker="_", s=200, zorder=3)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("context length")
    ax.set_ylabel("RoPE base")
    ax.set_title("Model bases against Men et al.'s smallest passing base\n(dashes: at each model's r; hollow: the "
                 "base fails B_m >= 0 up to L)", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    return fig


def save_bases_vs_men(sections: list, labels: list[str], path, curve: dict | None = None) -> list[Path]:
    """Draw :func:`draw_bases_vs_men`; save ``PATH.png`` and what it drew as ``PATH.json``."""
    path = Path(path)
    data = {"figure": "long_context.bases_vs_men", "curve": curve,
            "models": [{"label": lab, "base": s.base, "context": s.context, "extended_context": s.extended_context,
                        "rotary_dim": s.rotary_dim, "men": {k: getattr(s.men, k) for k in (
                            "smallest_base_at_context", "smallest_base_at_extended", "passes_at_context",
                            "passes_at_extended", "passes_scaled_at_extended")}}
                       for s, lab in zip(sections, labels)]}
    return save(draw_bases_vs_men(sections, labels, curve), data, path.parent,
                path.stem if path.suffix.lower() == ".png" else path.name)
