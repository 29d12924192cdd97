r"""Figures of gu2025's content-position coupling: additive vs Hadamard spectra, MiniLM's Eq. 8 terms.

Every number comes from :mod:`petheory.coupling` (and :mod:`petheory.toeplitz` for the factors).
"""

from __future__ import annotations

import sys

import numpy as np

from petheory import coupling
from petheory import encodings as enc
from petheory import loaders, softmax
from petheory.loaders.bert_terms import minilm_terms
from petheory import toeplitz as tp
from petheory.plots import figure, register, save

N_SPEC = {"quick": 64, "full": 256}
N_MINILM = {"quick": 64, "full": 128}
KERNEL_LENGTH = 4.0  # W = [exp(-|i-j|/ℓ)]: positive definite (symbol (1-r^2)/|1-re^{iθ}|^2 > 0)
ALIBI_SLOPE = 0.25
ROPE_THETA = 0.5  # one RoPE band: E = [exp(i(i-j)θ)]


def factors(n: int) -> dict[str, np.ndarray]:
    """The Toeplitz factors of the figure: ``W`` (a positive definite kernel), ALiBi ``B``, a RoPE band ``E``.

    Parameters
    ----------
    n : int
        Size.

    Returns
    -------
    dict
        ``W``, ``B``, ``E``, each a numpy.ndarray of shape (n, n).

    Examples
    --------
    >>> {k: v.shape for k, v in factors(4).items()}
    {'W': (4, 4), 'B': (4, 4), 'E': (4, 4)}
    """
    W = tp.dense(tp.kernel("exponential").column(n, KERNEL_LENGTH))
    B = enc.alibi(n, slope=ALIBI_SLOPE)
    E = tp.dense(coupling.rope_band_average(np.arange(n), [ROPE_THETA]))  # one band: e_k = exp(ik theta)
    return {"W": W, "B": B, "E": E}


#: The four matrices of the additive-vs-Hadamard figure: (record key, colour, legend in mathtext, short name).
COUPLING_ROWS = (
    ("W (PD Toeplitz)", "k", r"$W$ (PD Toeplitz)", r"$W$"),
    ("W + B (additive, ALiBi)", "C1", r"$W + B$ (additive, ALiBi)", r"$W + B$"),
    ("W ∘ E (Hadamard, RoPE band)", "C0", r"$W \circ E$ (Hadamard, RoPE band)", r"$W \circ E$"),
    ("Re(W ∘ E) = W ∘ cos", "C2", r"$\mathrm{Re}(W \circ E) = W \circ \cos$", r"$\mathrm{Re}(W \circ E)$"),
)


def additive_vs_hadamard_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``coupling.additive_vs_hadamard`` record: the spectrum summary of each matrix of :data:`COUPLING_ROWS`
    (eigenvalues ascending) and the row softmax of its real part at the middle query.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``alibi_slope``, ``kernel_length``, ``middle_row_softmax``, ``n``, ``rope_theta``, ``summaries``.

    Examples
    --------
    >>> sorted(additive_vs_hadamard_data())
    ['alibi_slope', 'kernel_length', 'middle_row_softmax', 'n', 'rope_theta', 'summaries']
    """
    n = N_SPEC[preset]
    f = factors(n)
    mats = dict(zip((row[0] for row in COUPLING_ROWS), (
        f["W"], coupling.compose(f["W"], f["B"], "additive"), coupling.compose(f["W"], f["E"], "hadamard"),
        np.real(coupling.compose(f["W"], f["E"], "hadamard")))))
    summ = {k: coupling.spectral_summary(M) for k, M in mats.items()}
    return {"n": n, "kernel_length": KERNEL_LENGTH, "alibi_slope": ALIBI_SLOPE, "rope_theta": ROPE_THETA,
            "summaries": {k: {kk: vv for kk, vv in s.items() if kk != "eigenvalues"}
                          | {"eigenvalues": np.sort(np.real(s["eigenvalues"])).tolist()} for k, s in summ.items()},
            "middle_row_softmax": {k: softmax.row_softmax(np.real(M))[n // 2].tolist() for k, M in mats.items()}}


def draw_additive_vs_hadamard(data: dict):
    """The ``coupling.additive_vs_hadamard`` figure from its record (:func:`additive_vs_hadamard_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`additive_vs_hadamard_data`): what ``figures/coupling.additive_vs_hadamard.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "coupling.additive_vs_hadamard.json"
    >>> fig = draw_additive_vs_hadamard(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    n, summ = data["n"], data["summaries"]
    fig, (ax, axr, axs) = plt.subplots(1, 3, figsize=(16, 4.8), gridspec_kw={"width_ratios": [1.3, 1, 1]})
    for k, color, tex, _ in COUPLING_ROWS:
        s = summ[k]
        ax.plot(np.arange(1, n + 1), s["eigenvalues"], marker=".", ms=3, lw=1.6 if "∘ E (" in k else 1, color=color, label=tex,
                ls="--" if "∘ E (" in k else "-")
        ax.axhspan(s["min"], s["max"], color=color, alpha=0.07)
    ax.set_yscale("symlog", linthresh=1.0)
    ax.set(xlabel="eigenvalue index (ascending)", ylabel="eigenvalue (symlog)",
           title=f"spectra, $N = {n}$ (shaded: range)\n" + r"$W \circ E = D W D^*$, $D = \mathrm{diag}(e^{ip\theta})$: same spectrum as $W$")
    ax.axhline(0, color="grey", lw=0.5)
    ax.legend(fontsize=8)
    for y, (k, color, _, _) in enumerate(COUPLING_ROWS):
        s = summ[k]
        axr.plot([s["min"], s["max"]], [y, y], lw=8, color=color, solid_capstyle="butt")
        axr.text(s["max"], y + 0.22, f" range {s['range']:.3g}\n $\\rho$ = {s['spectral_radius']:.3g}, $\\kappa$ = {s['condition']:.3g}",
                 fontsize=8, va="bottom", ha="right")
    axr.set_xscale("symlog", linthresh=1.0)
    axr.set(yticks=range(len(COUPLING_ROWS)), yticklabels=[row[3] for row in COUPLING_ROWS], ylim=(-0.6, len(COUPLING_ROWS) - 0.1),
            xlabel="eigenvalue (symlog)", title=r"eigenvalue ranges $[\lambda_{min}, \lambda_{max}]$")
    axr.axvline(0, color="grey", lw=0.5)
    mid = n // 2
    for k, color, _, short in COUPLING_ROWS:
        axs.plot(np.arange(n) - mid, data["middle_row_softmax"][k], color=color,
                 label=f"{short}: softmax Toeplitz defect {summ[k]['softmax_toeplitz_defect']:.2g}")
    axs.set(xlabel=r"$j - i$ (row $i = N/2$)", ylabel=r"row softmax of $\mathrm{Re}\,M$", title="attention of the middle query")
    axs.legend(fontsize=7)
    fig.suptitle(rf"Additive vs Hadamard coupling: $W = [e^{{-|i-j|/{data['kernel_length']:g}}}]$, "
                 rf"$B = -{data['alibi_slope']:g}\,|i-j|$, $E = [e^{{i(i-j)\cdot {data['rope_theta']:g}}}]$", fontsize=10)
    fig.tight_layout()
    return fig


additive_vs_hadamard_figure = register(
    "coupling.additive_vs_hadamard", "gu2025 App. B: spectra of W+B (ALiBi) vs W∘E (one RoPE band) for a PD Toeplitz W, ranges marked",
    illustrates=("gu2025.classical_weyl_additive", "gu2025.spectral_contraction"), draw=draw_additive_vs_hadamard, data=additive_vs_hadamard_data)


#: The LayerNorm rules of the two rows (:func:`petheory.coupling.bert_inputs`) and the terms of the five columns.
MINILM_RULES = {"split": "post-LayerNorm split (what MiniLM computes)", "none": "pre-LayerNorm sum (no LN)"}
MINILM_SHOWN = ("cc", "cp", "pc", "pp", "total")


def minilm_terms_data(preset: str = "quick", seed: int = 0, *, layer=None) -> dict:
    """The ``coupling.minilm_terms`` record: per LayerNorm rule of :data:`MINILM_RULES`, head 0's Eq. 8 terms.

    The matrices drawn (``n x n`` each) with their Toeplitz defect and share, and every head's defects.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How large the matrices are.
    seed : int, optional
        Seed of the content draws.
    layer : petheory.loaders.hf.BertFirstLayer, optional
        all-MiniLM-L6-v2's first layer, already loaded (default: loaded here).

    Returns
    -------
    dict
        ``n``, ``seed``, ``head_shown``, ``source``, ``terms``, ``report`` and ``defects``.

    Raises
    ------
    FileNotFoundError
        The optional model package (the ``minilm`` extra) is not installed.

    Examples
    --------
    >>> record = minilm_terms_data()  # doctest: +SKIP
    """
    # the record names the model by its spec, not by where it was installed (a committed figure is machine-free)
    source = "hf:minilm (all-MiniLM-L6-v2, the minilm extra)" if layer is None else layer.source
    layer = loaders.load_bert_first_layer("hf:minilm") if layer is None else layer
    n, head = N_MINILM[preset], 0
    data = {"n": n, "seed": seed, "head_shown": head, "source": source, "terms": {}, "report": {}, "defects": {}}
    for rule in MINILM_RULES:
        terms = minilm_terms(n, layer=layer, head=head, layernorm=rule, seed=seed)
        mats = {**terms.as_dict(), "total": terms.total}
        data["terms"][rule] = {k: np.asarray(mats[k]).tolist() for k in MINILM_SHOWN}
        data["report"][rule] = {k: {"defect": v["defect"], "share": v["share"]}
                                for k, v in coupling.toeplitz_report(terms).items() if k in MINILM_SHOWN}
        # every head, for the JSON: the figure shows head 0
        data["defects"][rule] = {
            h: {k: v["defect"] for k, v in coupling.toeplitz_report(
                minilm_terms(n, layer=layer, head=h, layernorm=rule, seed=seed)).items()}
            for h in range(layer.num_heads)
        }
    return data


def draw_minilm_terms(data: dict):
    """The ``coupling.minilm_terms`` figure from its record (:func:`minilm_terms_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/coupling.minilm_terms.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "coupling.minilm_terms.json"
    >>> fig = draw_minilm_terms(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    n, head = data["n"], data["head_shown"]
    fig, axes = plt.subplots(len(MINILM_RULES), len(MINILM_SHOWN), figsize=(17, 7.2))
    for r, (rule, label) in enumerate(MINILM_RULES.items()):
        for c, k in enumerate(MINILM_SHOWN):
            ax = axes[r, c]
            A = np.asarray(data["terms"][rule][k])
            rep = data["report"][rule][k]
            lim = float(np.abs(A).max()) or 1.0
            im = ax.imshow(A, cmap="RdBu_r", vmin=-lim, vmax=lim)
            name = "L (B = 0)" if k == "total" else coupling.TERM_LABELS[k]
            ax.set_title(f"${name}$\nToeplitz defect {rep['defect']:.2f}, share {rep['share']:.2f}", fontsize=9)
            ax.set_xticks([]), ax.set_yticks([])
            fig.colorbar(im, ax=ax, fraction=0.046, pad=0.03)
        axes[r, 0].set_ylabel(label, fontsize=9)
    fig.suptitle(f"all-MiniLM-L6-v2, layer 0, head {head}: Eq. 8 terms on {n} random word tokens at positions 0..{n - 1} "
                 r"(defect = $\Vert A - \mathrm{diagavg}(A)\Vert_F\,/\,\Vert A\Vert_F$; 0 = Toeplitz)", fontsize=10)
    fig.tight_layout()
    return fig


@figure("coupling.minilm_terms", "gu2025 Eq. 8 on all-MiniLM-L6-v2 layer 0: the five logit terms as heat maps with their Toeplitz defects",
        illustrates=("gu2025.logit_decomposition", "gu2025.gpp_toeplitz"), draw=draw_minilm_terms)
def minilm_terms_figure(outdir, *, preset="quick", seed=0):
    """Figure coupling.minilm_terms: gu2025 Eq. 8 on all-MiniLM-L6-v2 layer 0, the five logit terms as heat maps with their Toeplitz defects.

    Parameters
    ----------
    outdir : str or os.PathLike
        Where ``coupling.minilm_terms.png`` and ``coupling.minilm_terms.json`` go.
    preset : {'quick', 'full'}, optional
        The figure command's preset.
    seed : int, optional
        Its seed.

    Returns
    -------
    list of pathlib.Path
        The PNG and the JSON written (a placeholder figure when there are no records; nothing when the model is not installed).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:  # doctest: +SKIP
    ...     png, js = minilm_terms_figure(tmp)
    """
    try:
        data = minilm_terms_data(preset, seed)
    except FileNotFoundError as exc:
        print(f"coupling.minilm_terms skipped: {exc}", file=sys.stderr)
        return []
    return save(draw_minilm_terms(data), data, outdir, "coupling.minilm_terms")
