r"""Geometry figures of cirrincione2026: MDS of positions, stress per PE, the spectrum of B.

Every number comes from :mod:`petheory.geometry`. The target is the built-in corpus
(:func:`petheory.geometry.builtin_target`), or ``$PETHEORY_CORPUS`` (whitespace, lowercased,
``$PETHEORY_MAX_VOCAB`` default 48, ``$PETHEORY_MIN_COUNT`` default 100) so the same figures can
be drawn for SST-2/IMDB text. Presets only change which encodings are drawn (``full`` adds
every registered encoding and MiniLM when installed); the whole set takes seconds.
"""

from __future__ import annotations

import os

import numpy as np

from petheory import geometry as geo
from petheory.plots import register

D_MODEL = 64  # dimension of the named absolute/rotary encodings drawn
CORE = {
    "sinusoidal": {"d": D_MODEL},
    "rope": {"d": D_MODEL},
    "alibi": {},
    "t5": {},
    "relative": {},
    "learned (init)": {"d": D_MODEL},
    "legendre": {"d": D_MODEL},
    "wavelet": {"d": D_MODEL},
}
FAMILY = {"sinusoidal": "C0", "rope": "C3", "alibi": "C2", "t5": "C4", "relative": "C5", "learned (init)": "C1",
          "legendre": "C8", "wavelet": "C9", "random": "C7", "nope": "k", "MiniLM (learned)": "C6"}


def target() -> tuple[geo.PositionalDistributions, str]:
    """The target distributions of the geometry figures and a description of them.

    The built-in corpus, or the file ``$PETHEORY_CORPUS`` names (with ``$PETHEORY_MAX_VOCAB`` and
    ``$PETHEORY_MIN_COUNT``).

    Returns
    -------
    distributions : petheory.geometry.PositionalDistributions
        Token counts per position.
    description : str
        Where they come from.

    Examples
    --------
    >>> import os
    >>> P, desc = target()
    >>> desc if "PETHEORY_CORPUS" not in os.environ else "built-in corpus (305 reviews, top-48 words + <other>)"
    'built-in corpus (305 reviews, top-48 words + <other>)'
    """
    from petheory.loaders.environment import env_int

    path = os.environ.get("PETHEORY_CORPUS")
    if not path:
        return geo.builtin_target(), "built-in corpus (305 reviews, top-48 words + <other>)"
    P = geo.positional_distributions(
        path, lowercase=True, max_vocab=env_int("PETHEORY_MAX_VOCAB"), min_count=env_int("PETHEORY_MIN_COUNT"),
    )
    return P, f"{path} (top-{P.V - 1} words + <other>)"


def _minilm_table():
    try:
        from petheory.loaders import load_position_embeddings

        return load_position_embeddings("hf:minilm").table
    except (FileNotFoundError, ValueError):
        return None


def _encoding_distances(label: str, n: int):
    if label == "learned (init)":
        return geo.induced_distances("learned", n, D_MODEL)[0]
    if label == "MiniLM (learned)":
        return geo.induced_distances(_minilm_table(), n)[0]
    return geo.induced_distances(label, n, CORE.get(label, {}).get("d", D_MODEL))[0]


def _labels(preset: str) -> list[str]:
    labels = list(CORE)
    if preset == "full":
        labels += ["random", "nope"]
    if _minilm_table() is not None:
        labels.append("MiniLM (learned)")
    return labels


def _procrustes(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """X rotated/reflected and scaled onto Y (both centred), for side-by-side comparison."""
    Xc, Yc = X - X.mean(0), Y - Y.mean(0)
    U, s, Vt = np.linalg.svd(Xc.T @ Yc)
    R = U @ Vt
    scale = s.sum() / max(np.sum(Xc**2), 1e-300)
    return scale * Xc @ R


_DIM = {"sinusoidal": f" (d={D_MODEL})", "alibi": ": the line |i-j|", "t5": " (Hellinger of softmax rows)"}


def mds_positions_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``geometry.mds_positions`` record: per panel (the target and each PE) its 2-D MDS coordinates rotated
    and scaled onto the target's (Procrustes), its stress-1 against the target and the share of its top two axes.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``n``, ``panels``, ``target``.

    Examples
    --------
    >>> sorted(mds_positions_data())
    ['n', 'panels', 'target']
    """
    P, desc = target()
    n = P.n
    Dt = geo.hellinger_distances(P)
    Yt = geo.classical_mds(Dt).embedding[:, :2]
    panels = [("target: Hellinger", Dt)] + [(lab, _encoding_distances(lab, n)) for lab in ("sinusoidal", "alibi", "t5")]
    if _minilm_table() is not None:
        panels.append(("MiniLM (learned)", _encoding_distances("MiniLM (learned)", n)))
    data = {"target": desc, "n": n, "panels": {}}
    for lab, D in panels:
        m = geo.classical_mds(D)
        X = m.embedding[:, :2] if m.rank >= 2 else np.c_[m.embedding[:, :1], np.zeros(n)]
        X = Yt if lab.startswith("target") else _procrustes(X, Yt)
        share = float(np.sum(m.eigenvalues[: min(2, m.rank)]) / np.sum(m.eigenvalues[m.eigenvalues > 0]))
        s1 = 0.0 if lab.startswith("target") else geo.stress_between(D, Dt)
        data["panels"][lab] = {"coords": X.tolist(), "stress1_vs_target": s1, "top2_share": share}
    return data


def draw_mds_positions(data: dict):
    """The ``geometry.mds_positions`` figure from its record (:func:`mds_positions_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`mds_positions_data`): what ``figures/geometry.mds_positions.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "geometry.mds_positions.json"
    >>> fig = draw_mds_positions(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    n, panels = data["n"], data["panels"]
    fig, axes = plt.subplots(1, len(panels), figsize=(3.7 * len(panels), 4.4), squeeze=False, constrained_layout=True)
    # one scale for every panel: the Procrustes fit scales each PE onto the target, so the panels must share
    # their axes for the sizes to be compared (a PE that fits badly comes out small)
    allX = np.vstack([np.array(p["coords"]) for p in panels.values()])
    lo, hi = allX.min(axis=0), allX.max(axis=0)
    pad = 0.08 * float(np.max(hi - lo))
    for ax, (lab, p) in zip(axes[0], panels.items()):
        X = np.array(p["coords"])
        ax.plot(X[:, 0], X[:, 1], "-", color="0.75", lw=1, zorder=1)
        sc = ax.scatter(X[:, 0], X[:, 1], c=np.arange(n), cmap="viridis", s=40, zorder=2, edgecolor="k", lw=0.4)
        for i in (0, 1, n // 2, n - 1):
            ax.annotate(str(i), X[i], textcoords="offset points", xytext=(4, 4), fontsize=8)
        title = (f"{lab}\n(corpus positional distributions)" if lab.startswith("target")
                 else f"{lab}{_DIM.get(lab, '')}\nstress-1 vs target = {p['stress1_vs_target']:.3f}")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(f"MDS 1  (2 axes = {p['top2_share']:.0%} of its spectrum)", fontsize=8)
        ax.set_xlim(lo[0] - pad, hi[0] + pad)
        ax.set_ylim(lo[1] - pad, hi[1] + pad)
        ax.set_aspect("equal", adjustable="box")
        ax.tick_params(labelsize=7)
        ax.locator_params(nbins=5)
    fig.colorbar(sc, ax=axes[0].tolist(), shrink=0.8, label="position")
    fig.suptitle(f"Positions 0..{n - 1} in 2-D classical MDS, each PE rotated and scaled onto the target (Procrustes); "
                 "all panels on the same axes\n"
                 f"target: {data['target']}", fontsize=10)
    return fig


mds_positions = register(
    "geometry.mds_positions", "cirrincione2026 Alg. 1: 2-D classical MDS of positions, corpus target vs PEs",
    illustrates=("cirrincione2026.hellinger_mds_optimal", "cirrincione2026.minimal_parametrisation"),
    draw=draw_mds_positions, data=mds_positions_data)


def stress_per_pe_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``geometry.stress_per_pe`` record: stress-1 of each PE, of MDS and SMACOF at low ranks and of the
    random-table null (mean, sd, 5-95%) against the corpus's Hellinger geometry, in ascending order.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``d``, ``formula``, ``n``, ``null``, ``stress1``, ``target``.

    Examples
    --------
    >>> sorted(stress_per_pe_data())
    ['d', 'formula', 'n', 'null', 'stress1', 'target']
    """
    from petheory import stress_reference

    P, desc = target()
    n = P.n
    Dt = geo.hellinger_distances(P)
    rows = [(lab, geo.stress_between(_encoding_distances(lab, n), Dt)) for lab in _labels(preset)]
    m = geo.classical_mds(Dt)
    for r in (1, 2, 4):
        rows.append((f"MDS rank {r} (optimal by strain)", geo.stress(m.embedding[:, :r], Dt)))
    for r in (1, 2):  # classical MDS is not stress-optimal: SMACOF from it does better at the same rank
        rows.append((f"SMACOF rank {r} (from MDS)", geo.stress(geo.smacof(Dt, m.embedding[:, :r]), Dt)))
    null = stress_reference.random_table_null(Dt, D_MODEL, draws=stress_reference.DRAWS, seed=seed)
    rows.append((_null_label(null.draws), null.mean))
    rows = _ascending(rows)
    return {"target": desc, "n": n, "formula": geo.STRESS_FORMULAS["stress1"], "stress1": dict(rows), "d": D_MODEL,
            "null": null.as_dict()}


def _ascending(rows: list) -> list:
    """``(label, value)`` rows by value, ties by label: RoPE's distances are sqrt(2) x sinusoidal's, so their stresses
    are equal and differ in the last bit by processor (0.3672386566659432 and ...433 here, the other way round on
    SSE kernels); values within :data:`petheory.rounding.RTOL` of each other are one value, in label order."""
    from petheory.rounding import RTOL

    rows = sorted(rows, key=lambda t: t[1])
    out, group = [], rows[:1]
    for row in rows[1:]:
        if abs(row[1] - group[0][1]) <= RTOL * max(abs(row[1]), abs(group[0][1])):
            group.append(row)
        else:
            out += sorted(group)
            group = [row]
    return out + sorted(group)


def _null_label(draws: int) -> str:
    return f"random N(0,1) table, d={D_MODEL} (mean of {draws})"


def draw_stress_per_pe(data: dict):
    """The ``geometry.stress_per_pe`` figure from its record (:func:`stress_per_pe_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`stress_per_pe_data`): what ``figures/geometry.stress_per_pe.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "geometry.stress_per_pe.json"
    >>> fig = draw_stress_per_pe(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    rows, null, n = list(data["stress1"].items()), data["null"], data["n"]
    null_label = _null_label(null["draws"])
    fig, ax = plt.subplots(figsize=(8.5, 0.42 * len(rows) + 1.4))
    y = np.arange(len(rows))
    colors = [FAMILY.get(lab, "0.8" if lab.startswith("SMACOF") else "0.55") for lab, _ in rows]
    ax.barh(y, [v for _, v in rows], color=colors, edgecolor="k", lw=0.4)
    k_null = [lab for lab, _ in rows].index(null_label)
    ax.errorbar(null["mean"], k_null, xerr=null["sd"], color="k", lw=1, capsize=3)  # mean +- sd of the random tables
    ax.axvspan(null["p5"], null["p95"], color="0.85", zorder=0,
               label=f"5-95% of {null['draws']} random N(0,1) tables (d={data['d']}): a PE inside it does no better than chance")
    ax.legend(fontsize=7, loc="lower right")
    for k, (_lab, val) in enumerate(rows):
        ax.text(val + 0.005 + (null["sd"] if k == k_null else 0), k,
                f"{val:.3f}" + (f" ± {null['sd']:.3f} (sd)" if k == k_null else ""), va="center", fontsize=8)
    ax.set_yticks(y, [lab for lab, _ in rows], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, max(v for _, v in rows) * 1.15)
    ax.set_xlabel("Kruskal stress-1 with optimal scale (0 = the target's geometry up to scale)")
    ax.set_title(f"Stress of each PE's geometry on positions 0..{n - 1}\ntarget: Hellinger distances, {data['target']}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    note = (r"RoPE = $\Vert R_i - R_j\Vert_F$ ($\sqrt{2}\,\times$ sinusoidal with the same frequencies: equal stress); "
            r"ALiBi = the line $|i-j|$; T5/relative: Hellinger between softmax rows; $d = 64$")
    fig.text(0.01, -0.02, note, fontsize=7, color="0.3")
    return fig


stress_per_pe = register(
    "geometry.stress_per_pe", "cirrincione2026: Kruskal stress-1 of each PE against the corpus's Hellinger geometry",
    illustrates=("cirrincione2026.alibi_lowest_stress", "cirrincione2026.alibi_rank1"), draw=draw_stress_per_pe, data=stress_per_pe_data)


def _shuffled_null(P: geo.PositionalDistributions, seed: int) -> np.ndarray:
    """Eigenvalues of B for the built-in corpus with the words of each line shuffled: same lengths and counts,
    no positional signal, so what remains is the sampling noise of the distributions. Empty for other targets."""
    if not P.source.startswith("builtin:"):
        return np.empty(0)
    from petheory.data import corpus

    rng = np.random.default_rng(seed)
    lines = [" ".join(rng.permutation(s.split())) for s in corpus.SENTENCES]
    Q = geo.positional_distributions(lines, lowercase=True, max_vocab=geo.BUILTIN_MAX_VOCAB, n=P.n,
                                     min_count=1)
    return geo.classical_mds(geo.hellinger_distances(Q)).eigenvalues


def eigenvalues_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``geometry.eigenvalues`` record: the eigenvalues of B for the target and for its shuffled null, the
    numerical and effective ranks and the number of axes holding 90% of tr B.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``effective_rank_at_cut``, ``effective_rank_cut``, ``eigenvalues``, ``n``, ``negative``, ``null_eigenvalues``, ``numerical_rank``, ``rank_90pct``, ``target``, ``tol``.

    Examples
    --------
    >>> sorted(eigenvalues_data())
    ['effective_rank_at_cut', 'effective_rank_cut', 'eigenvalues', 'n', 'negative', 'null_eigenvalues', 'numerical_rank', 'rank_90pct', 'target', 'tol']
    """
    P, desc = target()
    m = geo.classical_mds(geo.hellinger_distances(P))
    lam = m.eigenvalues
    cut = 5e-2
    energy = np.cumsum(np.clip(lam, 0, None)) / np.sum(np.clip(lam, 0, None))
    return {"target": desc, "n": int(lam.size), "eigenvalues": lam.tolist(), "numerical_rank": geo.effective_rank(lam),
            "tol": m.tol, "effective_rank_cut": cut, "effective_rank_at_cut": geo.effective_rank(lam, tol=cut),
            "null_eigenvalues": _shuffled_null(P, seed).tolist(), "rank_90pct": int(np.searchsorted(energy, 0.9) + 1),
            "negative": m.negative.tolist()}


def draw_eigenvalues(data: dict):
    """The ``geometry.eigenvalues`` figure from its record (:func:`eigenvalues_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`eigenvalues_data`): what ``figures/geometry.eigenvalues.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "geometry.eigenvalues.json"
    >>> fig = draw_eigenvalues(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    lam, null, n = np.array(data["eigenvalues"]), np.array(data["null_eigenvalues"]), data["n"]
    r_num, r_cut, cut, r90 = data["numerical_rank"], data["effective_rank_at_cut"], data["effective_rank_cut"], data["rank_90pct"]
    energy = np.cumsum(np.clip(lam, 0, None)) / np.sum(np.clip(lam, 0, None))
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4))
    k = np.arange(1, n + 1)
    pos = lam > 0
    a1.semilogy(k[pos], lam[pos], "o-", color="C0", label=r"eigenvalue $\lambda_k$ of $B$")
    floor = data["tol"] * abs(lam).max()
    a1.semilogy(k[: null.size][null > 0], null[null > 0], "x--", color="0.55", lw=1,
                label="null: words shuffled within each line (sampling noise)")
    a1.axhline(floor, color="0.5", ls=":", label=rf"zero threshold $\gamma\,\lambda_{{max}}$ = {floor:.1e}")
    a1.axvline(r_num + 0.5, color="C3", ls="--", label=rf"numerical rank $r = \mathrm{{rank}}(B)$ = {r_num}  ($n-1$ = {n - 1})")
    a1.axvline(r_cut + 0.5, color="C2", ls="-.", label=rf"effective rank at $\lambda > {cut:g}\,\lambda_{{max}}$: {r_cut}")
    a1.set_xlabel("k")
    a1.set_ylabel(r"$\lambda_k$ (log)")
    a1.set_title("Spectrum of the double-centred Hellinger matrix", fontsize=10)
    a1.legend(fontsize=8)
    a2.plot(k, energy, "s-", color="C1")
    a2.axhline(0.9, color="0.5", ls=":")
    a2.axvline(r90, color="C1", ls="--", label=rf"90% of $\mathrm{{tr}}\,B$ in the top {r90}")
    a2.set_ylim(0, 1.02)
    a2.set_xlabel("k")
    a2.set_ylabel(r"$(\lambda_1+\dots+\lambda_k)\,/\,\mathrm{tr}\,B$")
    a2.set_title(r"Cumulative share; $B \succeq 0$ (no negative eigenvalue: Hellinger is Euclidean)", fontsize=10)
    a2.legend(fontsize=8)
    fig.suptitle(f"Target: {data['target']}, n = {n} positions", fontsize=10)
    return fig


eigenvalues = register(
    "geometry.eigenvalues", "cirrincione2026: eigenvalues of B = -1/2 J H^2 J with the effective rank marked",
    illustrates=("cirrincione2026.rank_bound", "cirrincione2026.exact_reproduction_impossible"), draw=draw_eigenvalues, data=eigenvalues_data)
