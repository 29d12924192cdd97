r"""Figures of gu2025's spectral argument: Szegő's theorem, Lemma B.1's ``f`` and ``g``, Prop. B.3.

Every number comes from :mod:`petheory.toeplitz` (and :func:`petheory.coupling.spectral_summary`);
the additive-vs-Hadamard spectra of a fixed Toeplitz triple are ``coupling.additive_vs_hadamard``.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import coupling
from petheory import encodings as enc
from petheory import toeplitz as tp
from petheory.plots import register

SZEGO_SIZES = {"quick": [16, 64, 256, 1024], "full": [16, 64, 256, 1024, 4096]}
SZEGO_TRACE = {"quick": [8, 16, 32, 64, 128, 256, 512, 1024], "full": [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]}
# a real symbol with interior critical points, so its value density has inner singularities too:
# a(theta) = 1 + 2 (0.9 cos(theta) + 0.6 cos(2 theta) - 0.3 cos(3 theta))
SZEGO_COEFFS = np.array([1.0, 0.9, 0.6, -0.3])


def _szego_symbol(theta):
    return tp.symbol(SZEGO_COEFFS, theta=theta)[1]  # the N -> infinity symbol: these four a_k are all there is


def _column(n: int) -> np.ndarray:
    c = np.zeros(n)
    m = min(n, SZEGO_COEFFS.shape[0])
    c[:m] = SZEGO_COEFFS[:m]
    return c


def szego_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``spectral.szego`` record: eigenvalues of :math:`T_N(a)` per size, the symbol's value density, and the
    Kolmogorov / Wasserstein distances over growing N with their fitted exponents.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``bins``, ``coefficients``, ``per_n``, ``symbol_density``, ``symbol_range``, ``trace``.

    Examples
    --------
    >>> record = szego_data()  # doctest: +SKIP
    """
    sizes, trace = SZEGO_SIZES[preset], SZEGO_TRACE[preset]
    dists = {n: tp.spectral_distribution(_column(n), symbol=_szego_symbol, method="exact") for n in sorted(set(sizes) | set(trace))}
    sym = dists[sizes[0]].symbol_values
    lo, hi = float(sym[0]), float(sym[-1])
    bins = np.linspace(lo, hi, 41)
    sym_density, _ = np.histogram(sym, bins=bins, density=True)
    ns = np.array(trace, dtype=float)
    ks = np.array([dists[n].kolmogorov for n in trace])
    ws = np.array([dists[n].wasserstein for n in trace])
    return {
        "coefficients": SZEGO_COEFFS.tolist(),
        "symbol_range": [lo, hi],
        "bins": bins.tolist(),
        "symbol_density": sym_density.tolist(),
        "per_n": {str(n): {"eigenvalues": dists[n].support.tolist(), **dists[n].as_dict()} for n in sizes},
        "trace": {"n": trace, "kolmogorov": ks.tolist(), "wasserstein": ws.tolist(),
                  "fitted_exponent_kolmogorov": float(np.polyfit(np.log(ns), np.log(ks), 1)[0]),
                  "fitted_exponent_wasserstein": float(np.polyfit(np.log(ns), np.log(ws), 1)[0])},
    }


def draw_szego(data: dict):
    """The ``spectral.szego`` figure from its record (:func:`szego_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`szego_data`): what ``figures/spectral.szego.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "spectral.szego.json"
    >>> fig = draw_szego(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    lo, hi = data["symbol_range"]
    bins = np.array(data["bins"])
    per_n = data["per_n"]
    fig, axes = plt.subplots(1, len(per_n) + 1, figsize=(3.3 * (len(per_n) + 1), 3.6))
    for ax, (n, sd) in zip(axes, per_n.items()):
        ax.hist(sd["eigenvalues"], bins=bins, density=True, color="C0", alpha=0.55, label="eigenvalues of $T_N$")
        ax.stairs(data["symbol_density"], bins, color="k", lw=1.3, label="values of the symbol $a$")
        ax.set(title=f"$N$ = {n}:  $d_K$ = {sd['kolmogorov']:.3f}", xlabel="value",
               xlim=(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo)))
    axes[0].set_ylabel("density")
    axes[0].legend(fontsize=7, loc="upper right")
    ax = axes[-1]
    t = data["trace"]
    ax.loglog(t["n"], t["kolmogorov"], "o-", label=f"Kolmogorov $d_K$ ~ $N^{{{t['fitted_exponent_kolmogorov']:.2f}}}$")
    ax.loglog(t["n"], t["wasserstein"], "s-", label=f"Wasserstein $W_1$ ~ $N^{{{t['fitted_exponent_wasserstein']:.2f}}}$")
    ax.set(xlabel="N", ylabel="distance ($d_K$ unitless; $W_1$ in value units)", title="eigenvalues vs symbol values")
    ax.legend(fontsize=7)
    coef = ", ".join(f"{x:g}" for x in data["coefficients"])
    fig.suptitle(f"Szegő: eigenvalues of the Hermitian $T_N(a)$ are distributed like the values of $a$; "
                 f"$a_k$ = ({coef}) for $k = 0, \\dots, 3$, $a_{{-k}} = a_k$", fontsize=10)
    fig.tight_layout()
    return fig


szego_figure = register(
    "spectral.szego", "gu2025 Thm 3.1 (Szegő): eigenvalue histograms of the Toeplitz matrices of a symbol against the "
    "symbol's value density, growing N",
    illustrates=("gu2025.szego", "gu2025.classical_toeplitz_eigs_in_symbol_range"), draw=draw_szego, data=szego_data)


# the three situations of Lemma B.1 worth seeing: (weights, phases, reading, title)
LEMMA_EXAMPLES = [
    ([0.5, 1.0, 0.7, 0.4], [0.0, 0.9, -2.0, 2.6], "statement",
     "amplitude bound holds: " + r"$\max|f| < \max|g| = 2\sum w$" + "\n(and here, too, " + r"$\mathrm{ptp}\,f > \mathrm{ptp}\,g$)"),
    ([0.0, 1.0, 1.0], [0.0, 0.0, math.pi / 2], "proof",
     "range claim fails:\n" + r"$\mathrm{ptp}\,f > \mathrm{ptp}\,g$"),
    ([1.0, 1.0, 1.0], [0.0, math.pi / 2, math.pi], "proof",
     "equality without equal phases:\n" + r"$\theta_i = i\pi/2$ (a shift of $\theta$)"),
]


def lemma_b1_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``spectral.lemma_b1`` record: f and g over theta for each of :data:`LEMMA_EXAMPLES`, with the lemma's numbers.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``examples``, ``theta``.

    Examples
    --------
    >>> sorted(lemma_b1_data())
    ['examples', 'theta']
    """
    theta = np.linspace(-math.pi, math.pi, 2001)
    data = {"theta": theta.tolist(), "examples": []}
    for w, ph, reading, title in LEMMA_EXAMPLES:
        r = tp.lemma_b1(w, ph, reading=reading)
        f = tp.symbol(tp.phase_modulated_column(w, ph, reading=reading), theta=theta)[1]
        g = tp.symbol(tp.phase_modulated_column(w, None), theta=theta)[1]
        data["examples"].append({"weights": w, "phases": ph, "reading": reading, "title": title, "f": f.tolist(),
                                 "g": g.tolist(), "max_abs_f": r.max_abs_f, "max_abs_g": r.max_abs_g, "ptp_f": r.ptp_f,
                                 "ptp_g": r.ptp_g, "bound": r.bound})
    return data


def draw_lemma_b1(data: dict):
    """The ``spectral.lemma_b1`` figure from its record (:func:`lemma_b1_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`lemma_b1_data`): what ``figures/spectral.lemma_b1.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "spectral.lemma_b1.json"
    >>> fig = draw_lemma_b1(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    theta = data["theta"]
    fig, axes = plt.subplots(1, len(data["examples"]), figsize=(5.2 * len(data["examples"]), 4.0), sharey=False)
    for ax, r in zip(axes, data["examples"]):
        ax.plot(theta, r["g"], color="k", lw=1.6, label=rf"$g$: $\max|g|$ = {r['max_abs_g']:.2f}, ptp = {r['ptp_g']:.2f}")
        ax.plot(theta, r["f"], color="C3", lw=1.6, label=rf"$f$: $\max|f|$ = {r['max_abs_f']:.2f}, ptp = {r['ptp_f']:.2f}")
        ax.axhline(r["bound"], color="grey", ls="--", lw=0.9)
        ax.axhline(-r["bound"], color="grey", ls="--", lw=0.9, label=rf"$\pm 2\sum w$ = ±{r['bound']:.2f}")
        phase_word = r"$\theta_i$" if r["reading"] == "proof" else r"$i\theta_i$"
        ax.set(xlabel=r"$\theta$ (radians)", title=f"{r['title']}\n$w$ = {r['weights']}, phase of term $i$ = {phase_word}",
               xlim=(-math.pi, math.pi))
        ax.set_title(ax.get_title(), fontsize=9)
        ax.set_ylim(-1.25 * r["bound"], 1.6 * r["bound"])
        ax.legend(fontsize=7, loc="upper right", ncol=1, framealpha=0.9)
    axes[0].set_ylabel("value")
    fig.suptitle(r"Lemma B.1: $f(\theta) = \sum_i 2 w_i \cos(\psi_i + i\theta)$, $g(\theta) = \sum_i 2 w_i \cos(i\theta)$   "
                 r"($\psi_i = \theta_i$ in the proof's reading, $i\theta_i$ in the statement's)", fontsize=10)
    fig.tight_layout()
    return fig


lemma_b1_figure = register(
    "spectral.lemma_b1", "gu2025 Lemma B.1: f and g over theta for three cases (bound holds; range claim fails; equality with unequal phases)",
    illustrates=("gu2025.lemma_b1_amplitude", "gu2025.lemma_b1_range", "gu2025.lemma_b1_equality"), draw=draw_lemma_b1, data=lemma_b1_data)


CONTRACTION_N = {"quick": 48, "full": 128}


#: The four matrices of the contraction figure: (record key, colour, legend in mathtext, range-bar tick).
CONTRACTION_ROWS = (
    ("W", "k", "$W$", "$W$"),
    ("W∘E, E = sign pattern of W (unit modulus)", "C3", r"$W \circ E$, $E$ = sign pattern of $W$ (unit modulus)",
     r"$W \circ E$, $E = \mathrm{sign}(W)$"),
    ("W∘E, E unit-modulus (random phases)", "C1", r"$W \circ E$, $E$ unit-modulus (random phases)", r"$W \circ E$, random phases"),
    ("W∘E, E = RoPE band average (PSD)", "C0", r"$W \circ E$, $E$ = RoPE band average (PSD)", r"$W \circ E$, band average"),
)


def contraction_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``spectral.hadamard_contraction`` record: W's column, E's phases and the spectrum summary of each
    matrix of :data:`CONTRACTION_ROWS` (eigenvalues ascending).

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``n``, ``random_phases``, ``rope_thetas``, ``summaries``, ``w_column``.

    Examples
    --------
    >>> sorted(contraction_data())
    ['n', 'random_phases', 'rope_thetas', 'summaries', 'w_column']
    """
    n = CONTRACTION_N[preset]
    rng = np.random.default_rng(seed)
    k = np.arange(n)
    # W: positive definite Toeplitz with sign changes, a_k = 0.85^k cos(0.9 k), a_0 lifted to min(symbol) = 0.2
    c = 0.85**k * np.cos(0.9 * k)
    c[0] = 0.0
    c[0] = 0.2 - tp.symbol_extrema(c).min
    W = tp.dense(c)
    # Prop. B.3's hypotheses minus the impossible E > 0: Hermitian Toeplitz, |e_k| = 1, e_0 = 1.
    # E0 = the sign pattern of W (W∘E0 = |W|, the Wielandt extreme); E1 = random phases.
    e0 = np.where(c >= 0, 1.0, -1.0)
    e1 = np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    e1[0] = 1.0
    # E2: RoPE's band average (1/B) sum_t exp(i(i-j) theta_t): positive semidefinite, unit diagonal
    thetas = enc.rope_frequencies(16)  # 8 bands, theta_t = 10000^(-2t/16)
    e2 = coupling.rope_band_average(k, thetas)
    mats = dict(zip((row[0] for row in CONTRACTION_ROWS),
                    (W, *(coupling.compose(W, tp.dense(e), "hadamard") for e in (e0, e1, e2)))))
    summ = {name: coupling.spectral_summary(M) for name, M in mats.items()}
    return {"n": n, "w_column": c.tolist(), "rope_thetas": thetas.tolist(), "random_phases": np.angle(e1).tolist(),
            "summaries": {name: {kk: vv for kk, vv in s.items() if kk != "eigenvalues"}
                          | {"eigenvalues": np.sort(np.real(s["eigenvalues"])).tolist()} for name, s in summ.items()}}


def draw_contraction(data: dict):
    """The ``spectral.hadamard_contraction`` figure from its record (:func:`contraction_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`contraction_data`): what ``figures/spectral.hadamard_contraction.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "spectral.hadamard_contraction.json"
    >>> fig = draw_contraction(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    n, summ = data["n"], data["summaries"]
    fig, (ax, axr) = plt.subplots(1, 2, figsize=(13, 4.6), gridspec_kw={"width_ratios": [1.3, 1]})
    for name, color, tex, _ in CONTRACTION_ROWS:
        ax.plot(np.arange(1, n + 1), summ[name]["eigenvalues"], ".-", ms=3, color=color, label=tex)
    sw = summ["W"]
    ax.axhspan(sw["min"], sw["max"], color="k", alpha=0.06, label=r"$[\lambda_{min}(W), \lambda_{max}(W)]$")
    ax.set(xlabel="eigenvalue index (ascending)", ylabel="eigenvalue", title=f"spectra, N = {n}")
    ax.legend(fontsize=8)
    for y, (name, color, _, _) in enumerate(CONTRACTION_ROWS):
        s = summ[name]
        axr.plot([s["min"], s["max"]], [y, y], lw=9, color=color, solid_capstyle="butt")
        axr.text(s["max"], y + 0.2, f"range {s['range']:.3g}", fontsize=8, ha="right", va="bottom")
    axr.axvline(sw["min"], color="k", lw=0.6, ls=":")
    axr.axvline(sw["max"], color="k", lw=0.6, ls=":")
    axr.set(yticks=range(len(CONTRACTION_ROWS)), yticklabels=[row[3] for row in CONTRACTION_ROWS],
            ylim=(-0.6, len(CONTRACTION_ROWS) - 0.2), xlabel="eigenvalue",
            title=r"ranges: unit-modulus $E$ can widen it or leave $[\lambda_{min}(W), \lambda_{max}(W)]$ (Prop. B.3 refuted);"
                  "\n" + r"a PSD $E$ with unit diagonal keeps it inside (Schur product theorem)")
    axr.title.set_fontsize(9)
    fig.suptitle(r"Prop. B.3 '$W \circ E$ is more compact than $W$': $W = T(0.85^k \cos 0.9k)$ lifted to be positive definite",
                 fontsize=10)
    fig.tight_layout()
    return fig


contraction_figure = register(
    "spectral.hadamard_contraction", "gu2025 Prop. B.3: spectrum of W∘E vs W for unit-modulus E (refuted) and band-averaged RoPE E (corrected)",
    illustrates=("gu2025.spectral_contraction", "gu2025.spectral_contraction__corrected", "gu2025.schur_modulus"),
    draw=draw_contraction, data=contraction_data)
