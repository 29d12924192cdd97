r"""Bound-vs-empirical figures of li2025: PE norms, Rademacher bound vs generalisation gap, wavelet decay, ALiBi drift.

Every number comes from :mod:`petheory.bounds`. The two trained figures draw the records of experiments:
``bounds.rademacher_gap`` those of :func:`petheory.experiments.papers.li2025_rademacher_gap` and ``bounds.alibi_drift``
those of :func:`petheory.experiments.papers.li2025_alibi_drift`, read from where the experiments write them
(:func:`petheory.records.bounds_record_path`, under ``runs/bounds/``); this module trains nothing. When the
records are missing the figure raises :class:`petheory.plots.RecordsMissing` naming the command that makes them;
``petheory figures`` runs the experiment (the figure's ``needs``) and then draws. Presets (of the experiments):
``quick`` trains the ``smoke`` running-sum model (2 layers, d=16, 2 heads) for 6 PEs x 5 sample sizes x 3 seeds
on CPU (90 models); ``full`` trains the ``small`` preset (2 layers, d=64, one head) for 8 sample sizes x 3 seeds.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import bounds, records
from petheory import encodings as enc
from petheory.errors import ValidationError
from petheory.fits import fit_power_law
from petheory.io import read_json
from petheory.plots import RecordsMissing, register

#: li2025 §7's training length :math:`N_{max} = 50`, where the norm and wavelet figures mark the end of training (the same
#: number as petheory.experiments.papers.LI2025_N_MAX, which trains at it; a test holds them equal).
N_MAX = 50
COLORS = dict(zip(["sinusoidal", "learned", "alibi", "rope", "wavelet", "legendre", "random", "nope"],
                  ["C0", "C1", "C2", "C3", "C4", "C5", "C7", "k"]))


def wavelet_label(dilation: str, normalisation: str, d=None) -> str:
    """Words and mathtext for a wavelet construction (:func:`petheory.encodings.wavelet`'s ``dilation`` and
    ``normalisation``).

    Parameters
    ----------
    dilation : {'unit', 'position'}
        Positions scaled to :math:`[0, 1)` or raw.
    normalisation : {'l2', 'paper', 'none'}
        The atoms' amplitude.
    d : int or 'full', optional
        How many atoms.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> wavelet_label("position", "l2", 8)
    'raw positions; $2^{j/2}$ (standard $L^2$); d = 8'
    """
    where = {"unit": r"$t = \mathrm{pos}/N_{max}$", "position": "raw positions"}[dilation]
    amp = {"l2": r"$2^{j/2}$ (standard $L^2$)", "paper": r"$2^{-j/2}$ (li2025)", "none": "1 (unnormalised)"}[normalisation]
    return f"{where}; {amp}" + ("" if d is None else f"; {'all atoms' if d == 'full' else f'd = {d}'}")


#: li2025 Table 2's stated formulas (``NormBound.stated_formula``, plain text for the terminal) as mathtext.
STATED_MATH = {"sqrt(d_model)": r"$\sqrt{d_{model}}$", "B_p (table max row norm)": r"$B_p$ (the table's largest row norm)",
               "bounded: sqrt(sum_k c_k^2)": r"bounded: $\sqrt{\sum_k c_k^2}$", "0": r"$0$"}
NORM = r"$\Vert PE(\mathrm{pos})\Vert_2$"


def mark_n_max(a, n_max: int = N_MAX) -> None:
    """A grey line at ``n_max`` and its name as a tick on a top axis (never over the data or the title).

    Parameters
    ----------
    a : matplotlib.axes.Axes
        The axes.
    n_max : int, optional
        The training length.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> mark_n_max(ax, 50)
    >>> plt.close(fig)
    """
    a.axvline(n_max - 1, color="grey", lw=0.8)
    top = a.secondary_xaxis("top")
    top.set_xticks([n_max - 1], [rf"$N_{{max}} = {n_max}$"], fontsize=8, color="grey")
    top.tick_params(length=3, color="grey")


# =============================================================================== 1. norms vs position


_WAVELET_NORMS = [(("l2", "unit"), "-"), (("paper", "unit"), "--"), (("none", "unit"), "-."), (("l2", "position"), "-"),
                  (("paper", "position"), "--")]


def _pe_norm_curves(seed: int) -> list[tuple]:
    """The curves of ``bounds.pe_norms``: (panel, key, PE, params, colour, line style, draw the stated bound)."""
    std = enc.info("learned").params["std"]  # the registry's initialisation, as every other command uses it
    return [
        ("absolute", "sinusoidal", "sinusoidal", {}, COLORS["sinusoidal"], "-", True),
        ("absolute", "random (fixed, not in Table 2)", "random", {"seed": seed}, COLORS["random"], "-", False),
        ("absolute", rf"learned (init $\mathcal{{N}}(0, {std:g}^2)$, clamped past $N_{{max}}$)", "learned", {"seed": seed},
         COLORS["learned"], "-", True),
        ("absolute", "legendre (orthonormal=False)", "legendre", {}, COLORS["legendre"], "-", True),
        ("absolute", "nope", "nope", {}, COLORS["nope"], "-", True),
        *(("wavelet", wavelet_label(dil, nm), "wavelet", {"normalisation": nm, "dilation": dil}, "C4" if dil == "unit" else "C9",
           ls, False) for (nm, dil), ls in _WAVELET_NORMS),
        ("legendre", r"$x = \mathrm{pos}/(N_{max}-1)$, clipped at 1", "legendre", {}, "C5", "-", True),
        ("legendre", r"$x = 1 - e^{-\mathrm{pos}/N_{max}}$", "legendre", {"position_map": "exp"}, "C6", "--", False),
        ("inset", r"$x = \mathrm{pos}/(N_{max}-1)$, extrapolated past 1", "legendre", {"beyond": "extrapolate"}, "C3", "-.", False),
    ]


def pe_norms_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``bounds.pe_norms`` record: ||PE(pos)|| per curve of :func:`_pe_norm_curves` with li2025 Table 2's stated
    bound, the wavelet atoms' support ends, and ALiBi's largest bias magnitude per head over inference lengths.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``alibi``, ``curves``, ``d``, ``n_max``, ``positions``.

    Examples
    --------
    >>> sorted(pe_norms_data())
    ['alibi', 'curves', 'd', 'n_max', 'positions']
    """
    d, L = 64, 8 * N_MAX
    data = {"d": d, "n_max": N_MAX, "positions": list(range(L)), "curves": {}, "alibi": {}}
    for panel, key, name, params, color, ls, stated in _pe_norm_curves(seed):
        nb = bounds.norm_bound(name, L, d, n_max=N_MAX, **params)
        data["curves"][key] = {"pe": name, "params": nb.params, "norm": bounds.pe_norms(name, L, d, **nb.params).tolist(),
                               "stated": nb.stated, "stated_formula": nb.stated_formula, "explicit": nb.explicit}
        if name == "wavelet":
            data["curves"][key]["support_end"] = bounds.wavelet_support_end(d, N_MAX, dilation=params["dilation"])
    # a straight line on log-log axes: 256 log-spaced lengths draw it as well as all 4095 (and keep the JSON small)
    lengths = sorted({int(x) for x in np.rint(np.geomspace(2, 4096, 256))})
    for H in (8, 1):
        for h, slope in enumerate(enc.alibi_slopes(H)):
            data["alibi"][f"H{H}_h{h}"] = {"slope": float(slope), "lengths": lengths,
                                           "magnitude": [bounds.alibi_bias_magnitude(n, float(slope)) for n in lengths]}
    return data


def draw_pe_norms(data: dict):
    """The ``bounds.pe_norms`` figure from its record (:func:`pe_norms_data`) alone (the curve table gives the
    styles only: its keys and panels do not depend on the seed).

    Parameters
    ----------
    data : dict
        The figure's record (:func:`pe_norms_data`): what ``figures/bounds.pe_norms.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "bounds.pe_norms.json"
    >>> fig = draw_pe_norms(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    d, pos = data["d"], data["positions"]
    fig, ax = plt.subplots(2, 2, figsize=(13, 9.5))
    ins = ax[1, 0].inset_axes([0.55, 0.1, 0.42, 0.42])
    axis = {"absolute": ax[0, 0], "wavelet": ax[0, 1], "legendre": ax[1, 0], "inset": ins}
    curves = _pe_norm_curves(seed=0)
    for panel, key, name, _, color, ls, stated in curves:
        c, a = data["curves"][key], axis[panel]
        a.plot(pos, c["norm"], color=color, ls=ls, lw=0.8 if name == "random" else 1.6, alpha=0.6 if name == "random" else 1.0,
               label=key)
        if stated and c["stated"] is not None:
            a.axhline(c["stated"], color=color, ls=":", lw=1.2,
                      label=f"  Table 2: {STATED_MATH.get(c['stated_formula'], c['stated_formula'])}")
        if "support_end" in c:
            a.plot([c["support_end"]], [0], marker="|", ms=14, color=color)
    ax[0, 0].set_title("absolute PEs, d = 64 (dotted: li2025 Table 2's stated bounds)")
    ax[0, 0].set_ylim(-0.3, 9)
    a = ax[0, 1]
    a.set_yscale("symlog", linthresh=0.1)
    a.set_ylabel(NORM + "  (symlog: linear below 0.1, log above)")
    a.set_title("wavelet PE db2 (reconstruction): exactly 0 past the last atom's support (|)")
    a = ax[1, 0]
    a.set_ylim(0, 12.5)  # headroom above the bound 8 for the legend
    a.set_title(rf"Legendre PE, d = {d}: bounded while $x \leq 1$; $\sim x^{{{d - 1}}}$ past it (inset)")
    # the extrapolated map grows like x^(d-1): 10^80 at 8 N_max, so it gets its own log axis (inset), not a spike
    grow = max(data["curves"][next(row[1] for row in curves if row[0] == "inset")]["norm"])
    ins.set_yscale("log")
    ins.set_ylim(0.8, 10.0 ** math.ceil(math.log10(float(grow))))
    ins.set_title(r"$x = \mathrm{pos}/(N_{max}-1)$ extrapolated past 1", fontsize=7)
    ins.set_ylabel(NORM + " (log)", fontsize=7)
    ins.tick_params(labelsize=6)
    ins.axvline(data["n_max"] - 1, color="grey", lw=0.8)
    a = ax[1, 1]
    for key, e in data["alibi"].items():
        H, h = (int(x) for x in key[1:].split("_h"))
        col, lw, ls = ("C1", 1.0, "-") if H == 8 else ("k", 1.6, "--")
        lab = (r"8 heads: slopes $2^{-1}, 2^{-2}, \dots, 2^{-8}$" if H == 8 else
               r"1 head: slope $2^{-8}$ (the same line as the 8-head model's last)")
        a.plot(e["lengths"], e["magnitude"], color=col, lw=lw, ls=ls, alpha=0.9, zorder=3 if H == 1 else 2,
               label=lab if h == 0 else None)
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel(r"inference length $N'$")
    a.set_ylabel(r"$\max_{i,j}|b(i,j)| = \alpha\,(N'-1)$")
    a.set_title("ALiBi adds no vector; its logit-bias magnitude grows linearly (Press et al. slopes)")
    a.legend(fontsize=8)
    for a in (ax[0, 0], ax[0, 1], ax[1, 0]):
        mark_n_max(a, data["n_max"])
        a.set_xlabel("position")
        if a is not ax[0, 1]:
            a.set_ylabel(NORM)
    # two columns in the empty band between the sinusoidal line (5.7) and the random one (about 1)
    ax[0, 0].legend(fontsize=7, loc="center right", bbox_to_anchor=(1.0, 0.38), ncol=2)
    ax[1, 0].legend(fontsize=7, loc="upper right")
    ax[0, 1].legend(fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 0.08), title=r"atoms on ... ; amplitude of scale $j$",
                    title_fontsize=7)
    fig.suptitle(r"li2025 input-norm bounds: computed $\sup\,\Vert PE\Vert_2$ vs the stated $B_0$ terms")
    fig.tight_layout()
    return fig


pe_norms_figure = register(
    "bounds.pe_norms", "li2025 Table 2: ||PE(pos)|| vs position per PE past N_max, stated bounds; ALiBi bias magnitude",
    illustrates=("li2025.input_norm_bounds", "li2025.sinusoidal_norm_bound", "li2025.legendre_bounded", "li2025.learned_no_extrapolation"),
    draw=draw_pe_norms, data=pe_norms_data)


# =============================================================================== 2. gap vs Rademacher bound


def seed_summary(rows: list[dict], key) -> dict:
    """Per (pe, m): the mean of ``key(row)`` over seeds, its standard error (None for one seed), min, max and the seeds.

    Parameters
    ----------
    rows : list of dict
        The experiment's rows (``pe``, ``m``, ``seed``, ...).
    key : str or callable
        A row field name or a function of a row.

    Returns
    -------
    dict
        ``{(pe, m): {"mean", "se", "min", "max", "seeds"}}``.

    Examples
    --------
    >>> s = seed_summary([{"pe": "rope", "m": 8, "seed": 0, "gap": 0.1}, {"pe": "rope", "m": 8, "seed": 1, "gap": 0.3}], "gap")
    >>> round(s[("rope", 8)]["mean"], 6), s[("rope", 8)]["seeds"]
    (0.2, [0, 1])
    """
    get = (lambda r: r[key]) if isinstance(key, str) else key
    out = {}
    for pe, m in dict.fromkeys((r["pe"], r["m"]) for r in rows):
        vals = np.array([get(r) for r in rows if r["pe"] == pe and r["m"] == m], dtype=float)
        se = float(np.std(vals, ddof=1) / math.sqrt(len(vals))) if len(vals) > 1 else None
        out[(pe, m)] = {"mean": float(np.mean(vals)), "se": se, "min": float(vals.min()), "max": float(vals.max()),
                        "seeds": sorted(r.get("seed", 0) for r in rows if r["pe"] == pe and r["m"] == m)}
    return out


def read_experiment(experiment: str, figure_name: str, preset: str, seed: int) -> dict:
    """The record ``experiment`` (a function of :mod:`petheory.experiments`) wrote for ``preset`` and ``seed``.

    Read from :func:`petheory.records.bounds_record_path`.

    Parameters
    ----------
    experiment : str
        ``li2025_rademacher_gap`` or ``li2025_alibi_drift``.
    figure_name : str
        The figure that draws it (named in the message).
    preset : str
        The preset it ran.
    seed : int
        Its seed.

    Returns
    -------
    dict
        The record.

    Raises
    ------
    petheory.plots.RecordsMissing
        There is none; the message names the commands that make it.
    petheory.errors.ValidationError
        The file is not that experiment's record.

    Examples
    --------
    >>> import os, tempfile
    >>> saved = os.environ.get("PETHEORY_RUNS")
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     os.environ["PETHEORY_RUNS"] = tmp
    ...     try:
    ...         read_experiment("li2025_alibi_drift", "bounds.alibi_drift", "quick", 0)
    ...     except RecordsMissing as exc:
    ...         print(str(exc)[:68])
    figure bounds.alibi_drift draws the records of experiment li2025_ali
    >>> _ = os.environ.pop("PETHEORY_RUNS"); os.environ.update({} if saved is None else {"PETHEORY_RUNS": saved})
    """
    path = records.bounds_record_path(experiment, preset, seed)
    if not path.is_file():
        raise RecordsMissing(
            f"figure {figure_name} draws the records of experiment {experiment}, and {path} does not exist: "
            f"`petheory figures --only {figure_name}{'' if preset == 'quick' else f' --preset {preset}'}"
            f"{'' if seed == 0 else f' --seed {seed}'}` runs it first (it trains on the CPU, cached under {path.parent}), "
            f"or run petheory.experiments.{experiment}({{'preset': {preset!r}, 'seed': {seed}}})")
    rec = read_json(path)
    if not isinstance(rec, dict) or rec.get("experiment") != experiment:
        raise ValidationError(f"{path} is not a record of experiment {experiment} (its 'experiment' field is "
                              f"{rec.get('experiment') if isinstance(rec, dict) else None!r}); delete it and rerun")
    return rec


#: li2025 §4.2: the bound, the gap and the error bars as the figure record states them.
_GAP_TEXT = {
    "bound": "rademacher_lipschitz_bound(L_trans, B0, m) = L_trans B0 / sqrt(m), constant 1, logs dropped; "
             "L_trans = bounds.transformer_lipschitz (certified: LayerNorm at 1/sqrt(eps); on data: measured variance floors); "
             "B0 = bounds.transformer_input_norm on the training inputs",
    "error_bars": "gap: mean ± standard error over seeds; bound/gap: mean over seeds, bars min to max",
}
#: A gap <= 0 (test MSE below train MSE) cannot sit on a log axis; bound/gap divides by at least this.
GAP_FLOOR = 1e-5


def rademacher_gap_record(experiment: dict) -> dict:
    """The ``bounds.rademacher_gap`` figure record of :func:`petheory.experiments.papers.li2025_rademacher_gap`'s record.

    From its ``rows`` (one per trained model) and the ``settings`` it ran with: per (PE, m) the gap and bound/gap over
    seeds (:func:`seed_summary`), a power law of the gap in m per PE (every seed's positive gaps, where a PE has
    three distinct m), the median bound/gap per PE and the reference line :math:`m^{-1/2}`.

    Parameters
    ----------
    experiment : dict
        The experiment's record.

    Returns
    -------
    dict
        The figure's record (what ``figures/bounds.rademacher_gap.json`` holds).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = json.loads((pathlib.Path(petheory.__file__).parents[1] / "figures" / "bounds.rademacher_gap.json").read_text())
    >>> sorted(rademacher_gap_record(committed["experiment"])) == sorted(k for k in committed if k != "figure")
    True
    """
    rows, st = experiment["rows"], experiment["settings"]
    gaps = seed_summary(rows, "gap")
    ratio_of = {k: seed_summary(rows, lambda r, k=k: r[k] / max(r["gap"], GAP_FLOOR)) for k in ("bound_on_data", "bound_certified")}
    fits, ratios = {}, {}
    for pe in dict.fromkeys(row["pe"] for row in rows):
        rs = [row for row in rows if row["pe"] == pe]
        m = np.array([row["m"] for row in rs], dtype=float)
        gap = np.array([row["gap"] for row in rs])
        pos = gap > 0
        if pos.sum() >= 3 and len(np.unique(m[pos])) >= 3:  # the fit uses every seed's gap, not the means
            fits[pe] = fit_power_law(m[pos], gap[pos]).as_dict()
        ratios[pe] = float(np.median([row["bound_on_data"] / max(row["gap"], GAP_FLOOR) for row in rs]))
    ms_all = sorted({row["m"] for row in rows})
    first = [row["gap"] for row in rows if row["m"] == ms_all[0] and row["gap"] > 0]
    rate = ({"m": ms_all, "gap": (float(np.median(first)) * (np.array(ms_all) / ms_all[0]) ** -0.5).tolist()}
            if first else None)
    per_m = [{"pe": pe, "m": m, "gap": gaps[(pe, m)], **{f"{k}_over_gap": ratio_of[k][(pe, m)] for k in ratio_of}}
             for (pe, m) in gaps]
    return {"experiment": experiment, "per_m": per_m, "gap_fits": fits, "bound_over_gap_median": ratios,
            "rate_reference": rate, **_GAP_TEXT,
            "gap": f"test MSE at the train length on a fresh split of {st['n_test']} sequences - train MSE (whole training set)",
            "training": f"{st['steps']} optimiser steps per model whatever m (epochs = ceil(steps*batch/m))"}


def rademacher_gap_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``bounds.rademacher_gap`` record from the experiment's record on disk (:func:`read_experiment`).

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        The preset of the experiment record read (:func:`read_experiment`).
    seed : int, optional
        Its seed.

    Returns
    -------
    dict
        The figure's JSON record: ``bound``, ``bound_over_gap_median``, ``error_bars``, ``experiment``, ``gap``, ``gap_fits``, ``per_m``, ``rate_reference``, ``training``.

    Examples
    --------
    >>> record = rademacher_gap_data()  # doctest: +SKIP
    """
    return rademacher_gap_record(read_experiment("li2025_rademacher_gap", "bounds.rademacher_gap", preset, seed))


def draw_rademacher_gap(data: dict):
    """The ``bounds.rademacher_gap`` figure from its record (:func:`rademacher_gap_record`) alone: gap and
    bound/gap vs m per PE, mean ± standard error over the seeds where a (PE, m) has several.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`rademacher_gap_data`): what ``figures/bounds.rademacher_gap.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "bounds.rademacher_gap.json"
    >>> fig = draw_rademacher_gap(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    rows, st = data["experiment"]["rows"], data["experiment"]["settings"]
    per_m = {(p["pe"], p["m"]): p for p in data["per_m"]}
    fits, ratios = data["gap_fits"], data["bound_over_gap_median"]
    pes = list(dict.fromkeys(row["pe"] for row in rows))
    fig, (ag, ab) = plt.subplots(1, 2, figsize=(15, 7.4))
    ms_all = sorted({row["m"] for row in rows})
    n_seeds = max(len(p["gap"]["seeds"]) for p in data["per_m"])
    shift = {pe: 1.0 + 0.025 * (k - (len(pes) - 1) / 2) for k, pe in enumerate(pes)}  # PEs side by side at each m
    for k, pe in enumerate(pes):
        col = COLORS.get(pe, f"C{k}")
        ms = np.array(sorted({row["m"] for row in rows if row["pe"] == pe}), dtype=float)
        lab = pe
        if pe in fits:
            f = fits[pe]
            ag.plot(ms, np.exp(f["intercept"]) * ms ** f["slope"], color=col, lw=1, alpha=0.7)
            lab = rf"{pe}: gap $\propto m^{{{f['slope']:.2f}}}$ [{f['slope_ci'][0]:.2f}, {f['slope_ci'][1]:.2f}]"
        g = [per_m[(pe, int(mm))]["gap"] for mm in ms]
        mean = np.array([s["mean"] for s in g])
        se = np.array([s["se"] or 0.0 for s in g])
        ok = mean > 0
        ag.errorbar(ms[ok] * shift[pe], mean[ok], yerr=np.minimum(se[ok], 0.999 * mean[ok]) if n_seeds > 1 else None,
                    fmt="o", color=col, ms=5, capsize=3, zorder=3, label=lab)
        if (~ok).any():  # a mean gap <= 0 cannot sit on a log axis: an open triangle at the floor
            ag.scatter(ms[~ok] * shift[pe], np.full((~ok).sum(), GAP_FLOOR), marker="v", facecolors="none", edgecolors=col,
                       zorder=3)
        # one quantity on the right axis: how many times the bound exceeds the measured gap (gaps <= 0 at the floor)
        for key, ls, mk in (("bound_on_data", "--", "o"), ("bound_certified", ":", "s")):
            s = [per_m[(pe, int(mm))][f"{key}_over_gap"] for mm in ms]
            mu = np.array([x["mean"] for x in s])
            err = np.array([[x["mean"] - x["min"] for x in s], [x["max"] - x["mean"] for x in s]]) if n_seeds > 1 else None
            ab.errorbar(ms * shift[pe], mu, yerr=err, color=col, ls=ls, lw=1.3, marker=mk, ms=4, capsize=2)
    if data["rate_reference"]:
        ag.plot(data["rate_reference"]["m"], data["rate_reference"]["gap"], color="k", lw=2, alpha=0.3,
                label=r"$m^{-1/2}$ (the bound's rate)")
    over = f"mean ± s.e. over {n_seeds} seeds" if n_seeds > 1 else "one seed per point"
    ag.set_title(f"measured generalisation gap (test - train MSE at N = 50; {over})", fontsize=11)
    ag.set_ylabel("MSE gap")
    ab.set_title(r"li2025 §4.2 bound $L_{trans}B_0/\sqrt{m}$ on the trained weights / measured gap"
                 + (f"\n(mean over {n_seeds} seeds; bars: min to max)" if n_seeds > 1 else ""), fontsize=11)
    ab.set_ylabel("bound / measured gap  (1 = tight; above 1 = the bound holds)")
    ab.axhline(1.0, color="k", lw=0.8)
    ab.legend(handles=[Line2D([], [], color="grey", ls="--", marker="o", ms=4,
                              label=r"$L_{trans}$ measured on the data (not certified)"),
                       Line2D([], [], color="grey", ls=":", marker="s", ms=4,
                              label=r"$L_{trans}$ certified (LayerNorm at $1/\sqrt{\epsilon}$)")]
              + [Line2D([], [], color=COLORS.get(pe, "k"), ls="", marker="o", label=f"{pe}: median bound/gap {ratios[pe]:.0e}")
                 for pe in pes],
              fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    ag.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    for a_ in (ag, ab):
        a_.set_xscale("log")
        a_.set_yscale("log")
        a_.xaxis.set_major_locator(FixedLocator(ms_all))
        a_.xaxis.set_major_formatter(ScalarFormatter())
        a_.xaxis.set_minor_locator(NullLocator())
        a_.set_xlabel("training samples $m$")
        a_.grid(True, which="major", alpha=0.3)
    fig.suptitle(f"Running sum (li2025 §7; nn preset '{st['size']}', train length 50, {st['steps']} steps per model): "
                 f"the gap shrinks with $m$; the bound ($L_{{trans}}$ on the data) exceeds it {min(ratios.values(), default=0):.0e} to "
                 f"{max(ratios.values(), default=0):.0e} times", fontsize=10)
    fig.tight_layout()
    return fig


rademacher_gap_figure = register(
    "bounds.rademacher_gap", "generalisation gap of trained running-sum models vs li2025's Rademacher bound (§4.2), per PE",
    illustrates=("li2025.rademacher_bound",), draw=draw_rademacher_gap, needs="li2025_rademacher_gap", data=rademacher_gap_data)


# =============================================================================== 3. wavelet decay

WAVELET_FAMILIES = ("db2", "db4", "sym4")
#: Panel 2's constructions, (dilation, normalisation) and line style: the scale constants C_j of db2.
_SCALE_ROWS = ((("unit", "l2"), "-"), (("unit", "none"), "-."), (("unit", "paper"), "--"), (("position", "l2"), "-"),
               (("position", "paper"), "--"))
#: Panel 4's constructions, (dilation, normalisation, atoms used) and line style: sup-norm growth with N_max.
_GROWTH_ROWS = ((("unit", "l2", "full"), "-"), (("position", "paper", "full"), "--"), (("unit", "none", "full"), "-."),
                (("unit", "paper", "full"), ":"), (("position", "l2", 64), "-"))
#: |psi| and its envelope are kept at every 8th point of PyWavelets' 2^10-per-unit grid (2,177 points for 3
#: families): far finer than the drawn panel's pixels, a tenth of the JSON.
_PSI_STRIDE = 8


def wavelet_decay_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``bounds.wavelet_decay`` record: per mother wavelet its fitted envelope decay and ``|psi|`` with its
    envelope; db2's scale constants per construction; extrapolation past :math:`N_{max}`; sup-norm growth with :math:`N_{max}`.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``d``, ``decay``, ``extrapolation``, ``families``, ``growth``, ``growth_sizes``, ``n_max``, ``scale_constants``.

    Examples
    --------
    >>> record = wavelet_decay_data()  # doctest: +SKIP
    """
    S, d = 3, 64  # db2's support (filter length - 1) and the extrapolation panel's dimension
    data = {"families": list(WAVELET_FAMILIES), "n_max": N_MAX, "d": d, "decay": {}, "scale_constants": {},
            "extrapolation": {}, "growth": {}}
    for w in WAVELET_FAMILIES:
        x, psi, _ = enc.wavefun(w, 10)
        env = np.maximum.accumulate(np.abs(psi)[::-1])[::-1]  # largest value to the right, as wavelet_decay_fit
        data["decay"][w] = {**bounds.wavelet_decay_fit(w).as_dict(), "u": x[::_PSI_STRIDE].tolist(),
                            "abs_psi": np.abs(psi)[::_PSI_STRIDE].tolist(), "envelope": env[::_PSI_STRIDE].tolist()}
    d_unit = sum(2**j + S - 1 for j in range(7))
    for (dil, nm), _ in _SCALE_ROWS:
        if dil == "unit":
            r = bounds.wavelet_scale_ratios(d_unit, n_max=64, normalisation=nm, samples_per_unit=16)
        else:
            r = bounds.wavelet_scale_ratios(sum((-(-256 // 2 ** (-j)) + S - 1) for j in range(-8, 1)), n_max=256,
                                            normalisation=nm, dilation="position")
        data["scale_constants"][f"{dil}/{nm}"] = r
    pos = np.arange(N_MAX, 8 * N_MAX)
    for w in ("db2", "db4"):
        P = enc.wavelet(pos[-1] + 1, d, wavelet=w, n_max=N_MAX)
        data["extrapolation"][w] = {"positions": pos.tolist(), "diff": np.linalg.norm(P[pos] - P[N_MAX - 1], axis=1).tolist(),
                                    "norm": np.linalg.norm(P[pos], axis=1).tolist(), "beta": bounds.wavelet_decay_fit(w).beta,
                                    "support_end": bounds.wavelet_support_end(d, N_MAX, wavelet=w)}
    data["growth_sizes"] = [2**k for k in range(6, 14)]
    for (dil, nm, dp), _ in _GROWTH_ROWS:
        data["growth"][f"{dil}/{nm}/d={dp}"] = bounds.wavelet_norm_growth(data["growth_sizes"], normalisation=nm,
                                                                          dilation=dil, d=dp)
    return data


def draw_wavelet_decay(data: dict):
    """The ``bounds.wavelet_decay`` figure from its record (:func:`wavelet_decay_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`wavelet_decay_data`): what ``figures/bounds.wavelet_decay.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "bounds.wavelet_decay.json"
    >>> fig = draw_wavelet_decay(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(2, 2, figsize=(14, 13), layout="constrained")
    below = {"loc": "upper center", "bbox_to_anchor": (0.5, -0.12), "frameon": False, "fontsize": 8}  # legends off the data
    n_max = data["n_max"]

    a = ax[0, 0]
    fam_handles = []
    for i, w in enumerate(data["families"]):
        f = data["decay"][w]
        x = np.array(f["u"])
        a.plot(x, f["abs_psi"], color=f"C{i}", lw=0.6, alpha=0.4)
        a.plot(x, f["envelope"], color=f"C{i}", lw=1.2)
        u = np.linspace(*f["fit_range"], 50)
        a.plot(u, np.exp(f["log_amplitude"] - f["beta"] * u), color=f"C{i}", lw=3, alpha=0.5)
        a.plot(x, f["C"] * np.exp(-f["beta"] * x), color=f"C{i}", ls="--", lw=1.0)
        fam_handles.append(Line2D([], [], color=f"C{i}", lw=2,
                                  label=rf"{w}: $\beta$ = {f['beta']:.2f} [{f['beta_ci'][0]:.2f}, {f['beta_ci'][1]:.2f}], "
                                        f"C = {f['C']:.3g}"))
    styles = [Line2D([], [], color="grey", lw=0.6, alpha=0.6, label=r"$|\psi(u)|$"),
              Line2D([], [], color="grey", lw=1.2, label="its envelope (largest value to the right)"),
              Line2D([], [], color="grey", lw=3, alpha=0.5, label=r"fit of the envelope: $e^{a - \beta u}$"),
              Line2D([], [], color="grey", ls="--", label=r"$C e^{-\beta u}$ with the smallest valid C")]
    a.set_yscale("log")
    a.set_ylim(1e-6, 1e6)
    a.set_xlabel(r"$u = 2^j t - k$ (distance from the atom's left end, in atom widths)")
    a.set_ylabel(r"$|\psi(u)|$")
    a.set_title(r"mother wavelets: envelope fit ($\beta$) and the smallest C for it")
    a.legend(handles=fam_handles + styles, ncol=2, **below)

    a = ax[0, 1]
    C0 = data["decay"]["db2"]["C"]
    for (dil, nm), ls in _SCALE_ROWS:
        r = data["scale_constants"][f"{dil}/{nm}"]
        a.plot(r["scales"], np.array(r["C"]) / C0, marker="o", ls=ls, color="C4" if dil == "unit" else "C9",
               label=wavelet_label(dil, nm))
    a.set_yscale("log", base=2)
    a.set_xlabel("scale $j$")
    a.set_ylabel(r"$C_j / C_\psi$  (smallest $C_j$ for the stated $2^{-j/2}$ bound)")
    a.set_title(r"db2: one C for all scales? It grows as $2^j$ for standard $L^2$ atoms (refuted)")
    a.legend(title=r"atoms on ... ; amplitude of scale $j$", title_fontsize=8, ncol=2, **below)

    a = ax[1, 0]
    for i, (w, e) in enumerate(data["extrapolation"].items()):
        pos, diff, beta = np.array(e["positions"]), np.array(e["diff"]), e["beta"]
        a.plot(pos, diff, color=f"C{i}", label=rf"{w}: $\Vert PE(\mathrm{{pos}}) - PE(N_{{max}})\Vert$")
        a.plot(pos, np.maximum(e["norm"], 1e-12), color=f"C{i}", ls="--",
               label=rf"{w}: $\Vert PE(\mathrm{{pos}})\Vert$ (exactly 0 from position {e['support_end']})")
        # the claim with its most generous reading: beta per atom width (N_max positions at scale 0)
        claim = diff[0] * np.exp(-beta * (pos - n_max) / n_max)
        a.plot(pos, np.maximum(claim, 1e-12), color=f"C{i}", ls=":", lw=1.6,
               label=rf"{w}: claimed shape $e^{{-\beta(\mathrm{{pos}}-N_{{max}})/N_{{max}}}}$, $\beta$ = {beta:.2f}")
    a.set_yscale("log")
    a.set_ylim(1e-6, 50)
    a.set_xlabel(rf"position ($N_{{max}}$ = {n_max}; atoms on $t = \mathrm{{pos}}/N_{{max}}$, standard $L^2$ amplitudes)")
    a.set_ylabel("distance or norm")
    a.set_title(r"extrapolation: $\Vert PE(\mathrm{pos}) - PE(N_{max})\Vert$ plateaus at $\Vert PE(N_{max})\Vert$"
                "\n(refuted); PE itself goes to 0")
    a.legend(ncol=2, **below)

    a = ax[1, 1]
    sizes = data["growth_sizes"]
    for (dil, nm, dp), ls in _GROWTH_ROWS:
        g = data["growth"][f"{dil}/{nm}/d={dp}"]
        a.plot(sizes, g["sup_norm"], marker="o", ls=ls, ms=3,
               label=rf"{wavelet_label(dil, nm, dp)}: $\sim N^{{{g['fit']['slope']:.2f}}}$")
    N = np.array(sizes, dtype=float)
    a.plot(N, N * np.sqrt(np.log(N)) / 10, color="k", lw=2, alpha=0.4, label=r"$N\sqrt{\log N}\,/\,10$ (li2025's order)")
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel("$N_{max}$")
    a.set_ylabel(r"$\sup_{\mathrm{pos} < N_{max}} \Vert PE(\mathrm{pos})\Vert$")
    a.set_title(r"unnormalised norm growth: $O(N\sqrt{\log N})$ holds, never attained")
    a.legend(title="atoms on ... ; amplitude; atoms used", title_fontsize=8, ncol=1, **below)
    fig.suptitle("li2025 §6.1.4 wavelet PE (reconstruction; PyWavelets atoms)")
    return fig


wavelet_decay_figure = register(
    "bounds.wavelet_decay", "wavelet atoms: envelope decay with fitted beta, scale constants, extrapolation and norm growth",
    illustrates=("li2025.wavelet_atom_decay", "li2025.wavelet_extrapolation", "li2025.wavelet_unnormalised_norm"),
    draw=draw_wavelet_decay, data=wavelet_decay_data)


# =============================================================================== 4. ALiBi drift


def alibi_drift_record(experiment: dict) -> dict:
    """The ``bounds.alibi_drift`` figure record of :func:`petheory.experiments.papers.li2025_alibi_drift`'s record.

    Its measured drift and bounds per (layer, head, distance), unclipped, and per head the first distance beyond
    ``n_max`` from which Eq. 9 reaches 1 (from there on it allows more than any softmax weight can change).

    Parameters
    ----------
    experiment : dict
        The experiment's record.

    Returns
    -------
    dict
        ``experiment``, ``eq9_vacuous_from_excess`` (head -> excess distance), ``drawn`` and ``reading``.

    Examples
    --------
    >>> rec = {"records": [{"head": 0, "excess": 3, "eq9_rhs": 1.5}, {"head": 0, "excess": 1, "eq9_rhs": 0.5}]}
    >>> alibi_drift_record(rec)["eq9_vacuous_from_excess"]
    {'0': 3}
    """
    vacuous_from = {}
    for q in sorted(experiment["records"], key=lambda z: (z["head"], z["excess"])):
        if q["eq9_rhs"] >= 1:
            vacuous_from.setdefault(str(q["head"]), int(q["excess"]))
    return {"experiment": experiment, "eq9_vacuous_from_excess": vacuous_from,
            "drawn": "bounds clipped at 1 (a softmax weight lies in [0, 1]); records hold the unclipped values",
            "reading": "A(mu, b): softmax weight of a key with bias b, the rest of the row mu fixed (bounds.alibi_drift)"}


def alibi_drift_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``bounds.alibi_drift`` record from the experiment's record on disk (:func:`read_experiment`).

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        The preset of the experiment record read (:func:`read_experiment`).
    seed : int, optional
        Its seed.

    Returns
    -------
    dict
        The figure's JSON record: ``drawn``, ``eq9_vacuous_from_excess``, ``experiment``, ``reading``.

    Examples
    --------
    >>> record = alibi_drift_data()  # doctest: +SKIP
    """
    return alibi_drift_record(read_experiment("li2025_alibi_drift", "bounds.alibi_drift", preset, seed))


def draw_alibi_drift(data: dict):
    """The ``bounds.alibi_drift`` figure from its record (:func:`alibi_drift_record`) alone: measured drift vs the
    Eq. 9 bounds per head.

    A change of a softmax weight lies in [0, 1], so the bounds are drawn clipped at 1 (the line at 1 is the
    trivial bound; where Eq. 9 is above it, it says nothing); the JSON keeps their unclipped values.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`alibi_drift_data`): what ``figures/bounds.alibi_drift.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "bounds.alibi_drift.json"
    >>> fig = draw_alibi_drift(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    run = data["experiment"]
    recs_d = run["records"]
    heads = sorted({(q["layer"], q["head"]) for q in recs_d})
    n_layer = max(1, run["n_layer"])
    fig, axes = plt.subplots(1, n_layer, figsize=(6.5 * n_layer, 5.6), squeeze=False, sharey=True)
    slopes = {}
    for (layer, head) in heads:
        a = axes[0, layer]
        q = [z for z in recs_d if z["layer"] == layer and z["head"] == head]
        ex = np.array([z["excess"] for z in q])
        col = f"C{head}"
        slopes[head] = q[0]["slope"]
        a.plot(ex, [max(z["drift_max"], 1e-18) for z in q], color=col, lw=1.8)
        a.plot(ex, [max(z["drift_mean"], 1e-18) for z in q], color=col, lw=0.8, alpha=0.6)
        a.plot(ex, np.minimum([z["sharp_bound"] for z in q], 1.0), color=col, ls="--", lw=1)
        a.plot(ex, np.minimum([z["eq9_rhs"] for z in q], 1.0), color=col, ls=":", lw=1.6)
        if str(head) in data["eq9_vacuous_from_excess"]:
            a.plot([data["eq9_vacuous_from_excess"][str(head)]], [1.0], marker="v", color=col, ms=7, zorder=4)
    for li in range(axes.shape[1]):
        a = axes[0, li]
        a.set_yscale("log")
        a.axhline(1.0, color="k", lw=0.8)
        a.set_ylim(top=2.0)
        a.set_xlabel(r"$d - N_{max}$: how far the key lies beyond the training length")
        a.set_title(f"layer {li}")
    axes[0, 0].set_ylabel(r"$|A(-\alpha d) - A(-\alpha N_{max})|$")
    styles = [Line2D([], [], color="grey", lw=1.8, label="measured: largest over queries"),
              Line2D([], [], color="grey", lw=0.8, alpha=0.6, label="measured: mean over queries"),
              Line2D([], [], color="grey", ls="--", label=r"mean-value bound $\max A(1-A)\,\alpha\,(d - N_{max})$"),
              Line2D([], [], color="grey", ls=":", lw=1.6, label=r"li2025 Eq. 9: $\alpha\,(d - N_{max})/4$"),
              Line2D([], [], color="k", lw=0.8, label="1: the most a softmax weight can change (bounds clipped here)"),
              Line2D([], [], color="grey", ls="", marker="v", label="Eq. 9 reaches 1: vacuous from there on")]
    colours = [Line2D([], [], color=f"C{h}", lw=3, label=rf"head {h}: slope $\alpha$ = {a_:.4g}") for h, a_ in sorted(slopes.items())]
    fig.legend(handles=styles + colours, loc="lower center", bbox_to_anchor=(0.5, 0.04), ncol=3, fontsize=8, frameon=False)
    fig.text(0.5, 0.005, r"$A(b)$: softmax weight of a key whose ALiBi logit bias is $b$, the query's other logits fixed; "
             f"inputs of length {run['settings']['length']}", ha="center", fontsize=8, color="0.3")
    fig.suptitle(rf"Trained ALiBi running-sum model ($m$ = {run['n_train']}, nn preset '{run['settings']['size']}', "
                 rf"$N_{{max}}$ = {run['n_max']}): change of a key's softmax weight beyond the training length", fontsize=11)
    fig.tight_layout(rect=(0, 0.2, 1, 1))
    return fig


alibi_drift_figure = register(
    "bounds.alibi_drift", "measured attention drift of a trained ALiBi model beyond N_max vs li2025 Eq. 9",
    illustrates=("li2025.alibi_extrapolation", "li2025.alibi_monotone_bias"), draw=draw_alibi_drift,
    needs="li2025_alibi_drift", data=alibi_drift_data)
