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
    """Heatmaps of the band norms, one row of panels per rotary layer kind (query left, key right).

    Rows are layer x head (ticks at each layer's first head, integers), columns are bands (highest frequency left), each
    head's row divided by its largest band; a dashed line where the wavelength passes the kind's reach.

    Parameters
    ----------
    record : dict
        A ``petheory bands`` record (its ``kinds``, each with ``query`` and ``key`` norms and
        ``wavelength_over_reach``).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> fig = draw_band_usage(record)  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    kinds = [k for k in record["kinds"] if "query" in k]
    fig, axes = plt.subplots(len(kinds), 2, figsize=(12, 1.2 + 4.3 * len(kinds)), squeeze=False)
    im = None
    for row, kind in zip(axes, kinds):
        lam = np.asarray(kind["wavelength_over_reach"])
        for ax, part in zip(row, ("query", "key")):
            n = np.asarray(kind[part]["norms"], dtype=float)  # (layers, heads, bands)
            rows = n.reshape(-1, n.shape[-1])
            rows = rows / np.maximum(rows.max(1, keepdims=True), 1e-300)
            im = ax.imshow(rows, aspect="auto", cmap="viridis", vmin=0, vmax=1, interpolation="nearest")
            ax.set_xlabel("band t (frequency decreases to the right)")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            heads = n.shape[1]
            step = max(1, int(np.ceil(n.shape[0] / 12)))  # at most about 12 layer labels
            ticks = list(range(0, n.shape[0], step))
            ax.set_yticks([t * heads for t in ticks], [str(kind["layers"][t]) for t in ticks])
            ax.set_ylabel(f"layer (each: {heads} {part} head{'s' if heads > 1 else ''})")
            ax.set_title(f"{kind['name']}: {part} band norm / head's largest", fontsize=9)
            for k in range(1, n.shape[0]):
                ax.axhline(k * heads - 0.5, color="white", lw=0.4)
            cross = np.flatnonzero(lam >= 1.0)
            if cross.size:
                ax.axvline(cross[0] - 0.5, color="red", ls="--", lw=1,
                           label=f"right of it: wavelength > reach {kind['reach']}")
                ax.legend(loc="lower right", fontsize=7, framealpha=0.9)
    if im is not None:
        fig.colorbar(im, ax=axes, shrink=0.8)
    skipped = [f"{k['name']} (layers {k['layers'][0]}..{k['layers'][-1]}): {k['skipped']}" for k in record["kinds"]
               if "skipped" in k]
    fig.suptitle(f"{record.get('model', '?')}: band usage from W_q, W_k (context {record['context']})"
                 + ("\n" + "; ".join(skipped) if skipped else ""), fontsize=10)
    return fig


def save_band_usage(record: dict, path) -> list[Path]:
    """Draw :func:`draw_band_usage`; save ``PATH.png`` and the record as ``PATH.json`` (marked ``figure: bands``).

    Parameters
    ----------
    record : dict
        A ``petheory bands`` record.
    path : str or os.PathLike
        ``FILE.png`` (or a stem).

    Returns
    -------
    list of pathlib.Path
        The PNG and the JSON.

    Examples
    --------
    >>> png, js = save_band_usage(record, "bands.png")  # doctest: +SKIP
    """
    path = Path(path)
    return save(draw_band_usage(record), {"figure": "bands", **record}, path.parent,
                path.stem if path.suffix.lower() == ".png" else path.name)


def draw_bases_vs_men(sections: list, labels: list[str], curve: dict | None = None):
    r"""Each model's base at its context and extended context, against Men et al.'s smallest passing base.

    The fitted :math:`0.0424\,L^{1.628}` is drawn too.

    Parameters
    ----------
    sections : list of LongContextSection
        One per model (:func:`petheory.analyses.long_context.long_context_section`).
    labels : list of str
        Their labels.
    curve : dict, optional
        ``{'contexts': [...], 'smallest_base': [...], 'rotary_dim': r}``, computed by the caller with
        :func:`petheory.bounds.men_base.men_smallest_base`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.

    Examples
    --------
    >>> from petheory.analyses.long_context import long_context_section
    >>> from petheory.scheme import Positions
    >>> s = long_context_section(Positions("rotary", "rope", {"base": 5e4, "pairing": "half"}, 64), context=1024,
    ...                          extended_context=1024, length=1024)
    >>> fig = draw_bases_vs_men([s], ["rope 5e4"])  # doctest: +SKIP
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
    """Draw :func:`draw_bases_vs_men`; save ``PATH.png`` and what it drew as ``PATH.json``.

    Parameters
    ----------
    sections : list of LongContextSection
        One per model.
    labels : list of str
        Their labels.
    path : str or os.PathLike
        ``FILE.png`` (or a stem).
    curve : dict, optional
        Men et al.'s smallest passing base over contexts.

    Returns
    -------
    list of pathlib.Path
        The PNG and the JSON.

    Examples
    --------
    >>> png, js = save_bases_vs_men(sections, labels, "bases.png")  # doctest: +SKIP
    """
    path = Path(path)
    data = {"figure": "long_context.bases_vs_men", "curve": curve,
            "models": [{"label": lab, "base": s.base, "context": s.context, "extended_context": s.extended_context,
                        "rotary_dim": s.rotary_dim, "men": {k: getattr(s.men, k) for k in (
                            "smallest_base_at_context", "smallest_base_at_extended", "passes_at_context",
                            "passes_at_extended", "passes_scaled_at_extended")}}
                       for s, lab in zip(sections, labels)]}
    return save(draw_bases_vs_men(sections, labels, curve), data, path.parent,
                path.stem if path.suffix.lower() == ".png" else path.name)
