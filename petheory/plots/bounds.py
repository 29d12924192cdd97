r"""Bound-vs-empirical figures of li2025: PE norms, Rademacher bound vs generalisation gap, wavelet decay, ALiBi drift.

Every number comes from :mod:`petheory.bounds`; the trained figures draw the rows of
:func:`petheory.experiments.li2025_rademacher_gap` and :func:`petheory.experiments.li2025_alibi_drift`
(``draw_rademacher_gap``, ``draw_alibi_drift``); the registered figure functions call those first
(the models are cached under ``runs/bounds/``, so a rerun only draws). Presets: ``quick`` trains the ``smoke`` running-sum model (2 layers,
d=16, 2 heads) for 6 PEs x 5 sample sizes on CPU in about a minute; ``full`` trains the ``small``
preset (2 layers, d=64, one head) for 8 sample sizes x 3 seeds.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import bounds
from petheory import encodings as enc
from petheory import experiments as ex
from petheory.fits import fit_power_law
from petheory.plots import figure, save

# What the trained figures draw: the li2025 experiments' settings (the same objects as in
# petheory.experiments; the figures read these names when called and pass them on).
N_MAX = ex.LI2025_N_MAX
RUN_PES = ex.LI2025_GAP_PES
M_GRID = ex.LI2025_GAP_M
SEEDS = ex.LI2025_GAP_SEEDS
SIZE = ex.LI2025_GAP_SIZE
TRAIN_SET = ex.LI2025_GAP_SET
N_TEST = ex.LI2025_GAP_N_TEST
STEPS = ex.LI2025_GAP_STEPS
COLORS = dict(zip(["sinusoidal", "learned", "alibi", "rope", "wavelet", "legendre", "random", "nope"],
                  ["C0", "C1", "C2", "C3", "C4", "C5", "C7", "k"]))


def _train(preset: str, seed: int) -> dict:
    """The experiment config of ``preset``: the settings as this module holds them now."""
    from petheory import plots

    return {"preset": preset, "seed": seed, "progress": plots.PROGRESS, "pes": RUN_PES, "m_grid": M_GRID[preset], "seeds": SEEDS[preset],
            "size": SIZE[preset], "steps": STEPS[preset], "train_set": TRAIN_SET}


def wavelet_label(dilation: str, normalisation: str, d=None) -> str:
    """Plain words for a wavelet construction (encodings.wavelet's ``dilation``/``normalisation``)."""
    where = {"unit": "t = pos/N_max", "position": "raw positions"}[dilation]
    amp = {"l2": "2^(j/2) (standard L2)", "paper": "2^(-j/2) (li2025)", "none": "1 (unnormalised)"}[normalisation]
    return f"{where}; {amp}" + ("" if d is None else f"; {'all atoms' if d == 'full' else f'd = {d}'}")


# =============================================================================== 1. norms vs position


@figure("bounds.pe_norms", "li2025 Table 2: ||PE(pos)|| vs position per PE past N_max, stated bounds; ALiBi bias magnitude")
def pe_norms_figure(outdir, *, preset="quick", seed=0):
    import matplotlib.pyplot as plt

    d, L = 64, 8 * N_MAX
    pos = np.arange(L)
    data = {"d": d, "n_max": N_MAX, "positions": pos.tolist(), "curves": {}, "alibi": {}}
    fig, ax = plt.subplots(2, 2, figsize=(13, 9))

    def curve(a, key, name, params, color, ls="-", stated=True):
        nb = bounds.norm_bound(name, L, d, n_max=N_MAX, **params)
        y = bounds.pe_norms(name, L, d, **nb.params)
        a.plot(pos, y, color=color, ls=ls, lw=0.8 if name == "random" else 1.6, alpha=0.6 if name == "random" else 1.0, label=key)
        if stated and nb.stated is not None:
            a.axhline(nb.stated, color=color, ls=":", lw=1.2, label=f"  stated bound (Table 2): {nb.stated_formula}")
        data["curves"][key] = {"pe": name, "params": nb.params, "norm": y.tolist(), "stated": nb.stated,
                               "stated_formula": nb.stated_formula, "explicit": nb.explicit}
        return y

    a = ax[0, 0]
    curve(a, "sinusoidal", "sinusoidal", {}, COLORS["sinusoidal"])
    curve(a, "random (fixed, not in Table 2)", "random", {"seed": seed}, COLORS["random"], stated=False)
    std = enc.info("learned").params["std"]  # the registry's initialisation, as every other command uses it
    curve(a, f"learned (init N(0, {std:g}^2), clamped past N_max)", "learned", {"seed": seed}, COLORS["learned"])
    curve(a, "legendre (orthonormal=False)", "legendre", {}, COLORS["legendre"])
    curve(a, "nope", "nope", {}, COLORS["nope"])
    a.set_title("absolute PEs, d=64 (dotted: li2025 Table 2's stated bounds)")
    a.set_ylim(-0.3, 9)

    a = ax[0, 1]
    for (nm, dil), ls in zip([("l2", "unit"), ("paper", "unit"), ("none", "unit"), ("l2", "position"), ("paper", "position")],
                             ["-", "--", "-.", "-", "--"]):
        col = "C4" if dil == "unit" else "C9"
        curve(a, wavelet_label(dil, nm), "wavelet", {"normalisation": nm, "dilation": dil}, col, ls, stated=False)
        end = bounds.wavelet_support_end(d, N_MAX, dilation=dil)
        data["curves"][wavelet_label(dil, nm)]["support_end"] = end
        a.plot([end], [0], marker="|", ms=14, color=col)
    a.set_yscale("symlog", linthresh=0.1)
    a.set_title("wavelet PE db2 (reconstruction): exactly 0 past the last atom's support (|)")

    a = ax[1, 0]
    curve(a, "x = pos/(N_max-1), clipped at 1", "legendre", {}, "C5")
    curve(a, "x = 1 - exp(-pos/N_max)", "legendre", {"position_map": "exp"}, "C6", "--", stated=False)
    a.set_ylim(0, 12.5)  # headroom above the bound 8 for the legend
    a.set_title(f"Legendre PE, d={d}: bounded while x <= 1; ~x^{d - 1} past it (inset)")
    # the extrapolated map grows like x^(d-1): 10^80 at 8 N_max, so it gets its own log axis (inset), not a spike
    ins = a.inset_axes([0.55, 0.1, 0.42, 0.42])
    grow = curve(ins, "x = pos/(N_max-1), extrapolated past 1", "legendre", {"beyond": "extrapolate"}, "C3", "-.", stated=False)
    ins.set_yscale("log")
    ins.set_ylim(0.8, 10.0 ** math.ceil(math.log10(float(np.max(grow)))))
    ins.set_title("x = pos/(N_max-1) extrapolated past 1", fontsize=7)
    ins.set_ylabel("||PE(pos)|| (log)", fontsize=7)
    ins.tick_params(labelsize=6)
    ins.axvline(N_MAX - 1, color="grey", lw=0.8)

    a = ax[1, 1]
    Ls = np.arange(2, 4097)
    for H, col, lw, ls in ((8, "C1", 1.0, "-"), (1, "k", 1.6, "--")):
        for h, s in enumerate(enc.alibi_slopes(H)):
            mag = [bounds.alibi_bias_magnitude(int(n), float(s)) for n in Ls]
            lab = (f"8 heads: slopes 2^-1, 2^-2, ..., 2^-8" if H == 8 else
                   f"1 head: slope 2^-8 (the same line as the 8-head model's last)")
            a.plot(Ls, mag, color=col, lw=lw, ls=ls, alpha=0.9, zorder=3 if H == 1 else 2, label=lab if h == 0 else None)
            data["alibi"][f"H{H}_h{h}"] = {"slope": float(s), "lengths": Ls[::64].tolist(), "magnitude": mag[::64]}
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel("inference length N'")
    a.set_ylabel("max |b(i,j)| = alpha (N'-1)")
    a.set_title("ALiBi: no vector; the logit-bias magnitude grows linearly (Press et al. slopes)")
    a.legend(fontsize=8)
    for a in (ax[0, 0], ax[0, 1], ax[1, 0]):
        a.axvline(N_MAX - 1, color="grey", lw=0.8)
        a.text(N_MAX, a.get_ylim()[1], f" N_max = {N_MAX}", va="top", fontsize=8, color="grey")
        a.set_xlabel("position")
        a.set_ylabel("||PE(pos)||_2")
    ax[0, 0].legend(fontsize=7, loc="upper right", bbox_to_anchor=(1.0, 0.6))
    ax[1, 0].legend(fontsize=7, loc="upper right")
    ax[0, 1].legend(fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 0.08), title="atoms on ... ; amplitude of scale j",
                    title_fontsize=7)
    fig.suptitle("li2025 input-norm bounds: computed sup ||PE|| vs the stated B_0 terms (N_max = 50)")
    fig.tight_layout()
    return save(fig, data, outdir, "bounds.pe_norms")


# =============================================================================== 2. gap vs Rademacher bound


@figure("bounds.rademacher_gap", "generalisation gap of trained running-sum models vs the Rademacher bound L_trans B0/sqrt(m), per PE")
def rademacher_gap_figure(outdir, *, preset="quick", seed=0):
    """Train or read back the models (:func:`petheory.experiments.li2025_rademacher_gap`), then draw."""
    rows = ex.li2025_rademacher_gap({**_train(preset, seed), "n_test": N_TEST})
    return draw_rademacher_gap(outdir, rows, preset)


def draw_rademacher_gap(outdir, rows: list[dict], preset: str = "quick"):
    """Draw the rows of :func:`petheory.experiments.li2025_rademacher_gap` (gap and bound/gap vs m per PE)."""
    import matplotlib.pyplot as plt

    pes = list(dict.fromkeys(row["pe"] for row in rows))
    fig, (ag, ab) = plt.subplots(1, 2, figsize=(15, 7.4))
    fits, ratios = {}, {}
    floor = 1e-5
    ms_all = sorted({row["m"] for row in rows})
    for k, pe in enumerate(pes):
        rs = [row for row in rows if row["pe"] == pe]
        m = np.array([row["m"] for row in rs], dtype=float)
        gap = np.array([row["gap"] for row in rs])
        col = COLORS.get(pe, f"C{k}")
        pos = gap > 0
        lab = pe
        if pos.sum() >= 3 and len(np.unique(m[pos])) >= 3:
            f = fit_power_law(m[pos], gap[pos])
            fits[pe] = f.as_dict()
            ms = np.unique(m)
            ag.plot(ms, np.exp(f.intercept) * ms**f.slope, color=col, lw=1, alpha=0.7)
            lab = f"{pe}: gap ~ m^{f.slope:.2f} [{f.slope_ci[0]:.2f}, {f.slope_ci[1]:.2f}]"
        ag.scatter(m[pos], gap[pos], color=col, s=22, zorder=3, label=lab)
        if (~pos).any():
            ag.scatter(m[~pos], np.full((~pos).sum(), floor), marker="v", facecolors="none", edgecolors=col, zorder=3)
        ms = np.unique(m)
        # one quantity on the right axis: how many times the bound exceeds the measured gap (gaps <= 0 at the floor)
        for key, ls, mk in (("bound_on_data", "--", "o"), ("bound_certified", ":", "s")):
            ab.plot(ms, [np.median([row[key] / max(row["gap"], floor) for row in rs if row["m"] == mm]) for mm in ms],
                    color=col, ls=ls, lw=1.3, marker=mk, ms=4)
        ratios[pe] = float(np.median([row["bound_on_data"] / max(row["gap"], floor) for row in rs]))
    first = [row["gap"] for row in rows if row["m"] == ms_all[0] and row["gap"] > 0]
    if first:
        ref = float(np.median(first)) * (np.array(ms_all) / ms_all[0]) ** -0.5
        ag.plot(ms_all, ref, color="k", lw=2, alpha=0.3, label="m^(-1/2) (the bound's rate)")
    ag.set_title("measured generalisation gap (test - train MSE at N=50)")
    ag.set_ylabel("MSE gap")
    ab.set_title("li2025 §4.2 bound L_trans B0 / sqrt(m) on the trained weights, divided by the measured gap")
    ab.set_ylabel("bound / measured gap  (1 = tight; above 1 = the bound holds)")
    ab.axhline(1.0, color="k", lw=0.8)
    from matplotlib.lines import Line2D

    ab.legend(handles=[Line2D([], [], color="grey", ls="--", marker="o", ms=4, label="L_trans measured on the data (not certified)"),
                       Line2D([], [], color="grey", ls=":", marker="s", ms=4, label="L_trans certified (LayerNorm at 1/sqrt(eps))")]
              + [Line2D([], [], color=COLORS.get(pe, "k"), ls="", marker="o", label=f"{pe}: median bound/gap {ratios[pe]:.0e}")
                 for pe in pes],
              fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    ag.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

    for a_ in (ag, ab):
        a_.set_xscale("log")
        a_.set_yscale("log")
        a_.xaxis.set_major_locator(FixedLocator(ms_all))
        a_.xaxis.set_major_formatter(ScalarFormatter())
        a_.xaxis.set_minor_locator(NullLocator())
        a_.set_xlabel("training samples m")
        a_.grid(True, which="major", alpha=0.3)
    fig.suptitle(f"Running sum (li2025 §7; nn preset '{SIZE[preset]}', train length 50, {STEPS[preset]} steps per model): "
                 f"the gap shrinks with m; the bound (L on data) exceeds it {min(ratios.values(), default=0):.0e} to "
                 f"{max(ratios.values(), default=0):.0e} times", fontsize=10)
    fig.tight_layout()
    data = {"preset": preset, "nn_preset": SIZE[preset], "rows": rows, "gap_fits": fits, "bound_over_gap_median": ratios,
            "bound": "rademacher_lipschitz_bound(L_trans, B0, m) = L_trans B0 / sqrt(m), constant 1, logs dropped; "
            "L_trans = bounds.transformer_lipschitz (certified: LayerNorm at 1/sqrt(eps); on data: measured variance floors); "
            "B0 = bounds.transformer_input_norm on the training inputs",
            "gap": f"test MSE at the train length on a fresh split of {N_TEST} sequences - train MSE (whole training set)",
            "training": f"{STEPS[preset]} optimiser steps per model whatever m (epochs = ceil(steps*batch/m))"}
    return save(fig, data, outdir, "bounds.rademacher_gap")


# =============================================================================== 3. wavelet decay


@figure("bounds.wavelet_decay", "wavelet atoms: envelope decay with fitted beta, scale constants, extrapolation and norm growth")
def wavelet_decay_figure(outdir, *, preset="quick", seed=0):
    import matplotlib.pyplot as plt

    fams = ["db2", "db4", "sym4"]
    fig, ax = plt.subplots(2, 2, figsize=(13, 9))
    data = {"families": fams, "decay": {}, "scale_constants": {}, "extrapolation": {}, "growth": {}}

    a = ax[0, 0]
    for i, w in enumerate(fams):
        x, psi, taps = enc.wavefun(w, 10)
        f = bounds.wavelet_decay_fit(w)
        env = np.maximum.accumulate(np.abs(psi)[::-1])[::-1]
        a.plot(x, np.abs(psi), color=f"C{i}", lw=0.6, alpha=0.5)
        a.plot(x, env, color=f"C{i}", lw=1.2, label=f"{w}: |psi| and its envelope")
        u = np.linspace(*f.fit_range, 50)
        a.plot(u, np.exp(f.log_amplitude - f.beta * u), color=f"C{i}", lw=3, alpha=0.5,
               label=f"  fit: beta={f.beta:.2f} [{f.beta_ci[0]:.2f}, {f.beta_ci[1]:.2f}]")
        a.plot(x, f.C * np.exp(-f.beta * x), color=f"C{i}", ls="--", lw=1.0, label=f"  C e^(-beta u), C={f.C:.3g} (smallest valid)")
        data["decay"][w] = {**f.as_dict(), "u": x[::8].tolist(), "abs_psi": np.abs(psi)[::8].tolist()}
    a.set_yscale("log")
    a.set_ylim(1e-6, 1e6)
    a.set_xlabel("u = 2^j t - k (distance from the atom's left end, in atom widths)")
    a.set_ylabel("|psi(u)|")
    a.set_title("mother wavelets: envelope fit (beta) and the smallest C for it")
    a.legend(fontsize=7)

    a = ax[0, 1]
    S = 3
    d_unit = sum(2**j + S - 1 for j in range(7))
    for (dil, nm), ls in zip([("unit", "l2"), ("unit", "none"), ("unit", "paper"), ("position", "l2"), ("position", "paper")],
                             ["-", "-.", "--", "-", "--"]):
        if dil == "unit":
            r = bounds.wavelet_scale_ratios(d_unit, n_max=64, normalisation=nm, samples_per_unit=16)
        else:
            r = bounds.wavelet_scale_ratios(sum((-(-256 // 2 ** (-j)) + S - 1) for j in range(-8, 1)), n_max=256,
                                            normalisation=nm, dilation="position")
        C0 = bounds.wavelet_decay_fit("db2").C
        a.plot(r["scales"], np.array(r["C"]) / C0, marker="o", ls=ls, color="C4" if dil == "unit" else "C9", label=wavelet_label(dil, nm))
        data["scale_constants"][f"{dil}/{nm}"] = r
    a.set_yscale("log", base=2)
    a.set_xlabel("scale j")
    a.set_ylabel("C_j / C_psi  (smallest C for the stated 2^(-j/2) bound)")
    a.set_title("db2: one C for all scales? grows as 2^j for standard L2 atoms (refuted)")
    a.legend(fontsize=7, title="atoms on ... ; amplitude of scale j", title_fontsize=7)

    a = ax[1, 0]
    d = 64
    pos = np.arange(N_MAX, 8 * N_MAX)
    for i, w in enumerate(["db2", "db4"]):
        P = enc.wavelet(pos[-1] + 1, d, wavelet=w, n_max=N_MAX)
        anchor = P[N_MAX - 1]
        diff = np.linalg.norm(P[pos] - anchor, axis=1)
        norm = np.linalg.norm(P[pos], axis=1)
        beta = bounds.wavelet_decay_fit(w).beta
        a.plot(pos, diff, color=f"C{i}", label=f"{w}: ||PE(pos) - PE(N_max)||")
        a.plot(pos, np.maximum(norm, 1e-12), color=f"C{i}", ls="--",
               label=f"{w}: ||PE(pos)|| (exactly 0 from position {bounds.wavelet_support_end(d, N_MAX, wavelet=w)})")
        # the claim with its most generous reading: beta per atom width (N_max positions at scale 0)
        claim = diff[0] * np.exp(-beta * (pos - N_MAX) / N_MAX)
        a.plot(pos, np.maximum(claim, 1e-12), color=f"C{i}", ls=":", lw=1.6,
               label=f"claimed shape e^(-beta (pos-N_max)/N_max), beta={beta:.2f}")
        data["extrapolation"][w] = {"positions": pos.tolist(), "diff": diff.tolist(), "norm": norm.tolist(), "beta": beta}
    a.set_yscale("log")
    a.set_ylim(1e-6, 50)
    a.set_xlabel(f"position (N_max = {N_MAX}; atoms on t = pos/N_max, standard L2 amplitudes)")
    a.set_title("extrapolation: ||PE(pos) - PE(N_max)|| plateaus at ||PE(N_max)|| (refuted); PE -> 0")
    a.legend(fontsize=7)

    a = ax[1, 1]
    sizes = [2**k for k in range(6, 14)]
    for (dil, nm, dp), ls in zip([("unit", "l2", "full"), ("position", "paper", "full"), ("unit", "none", "full"),
                                  ("unit", "paper", "full"), ("position", "l2", 64)], ["-", "--", "-.", ":", "-"]):
        g = bounds.wavelet_norm_growth(sizes, normalisation=nm, dilation=dil, d=dp)
        a.plot(sizes, g["sup_norm"], marker="o", ls=ls, ms=3,
               label=f"{wavelet_label(dil, nm, dp)}: ~N^{g['fit']['slope']:.2f}")
        data["growth"][f"{dil}/{nm}/d={dp}"] = g
    N = np.array(sizes, dtype=float)
    a.plot(N, N * np.sqrt(np.log(N)) / 10, color="k", lw=2, alpha=0.4, label="N sqrt(log N) / 10 (li2025 order)")
    a.set_xscale("log")
    a.set_yscale("log")
    a.set_xlabel("N_max")
    a.set_ylabel("sup_{pos<N_max} ||PE(pos)||")
    a.set_title("unnormalised norm growth: O(N sqrt(log N)) holds, never attained")
    a.legend(fontsize=7, title="atoms on ... ; amplitude; atoms used", title_fontsize=7)
    fig.suptitle("li2025 §6.1.4 wavelet PE (reconstruction; PyWavelets atoms)")
    fig.tight_layout()
    return save(fig, data, outdir, "bounds.wavelet_decay")


# =============================================================================== 4. ALiBi drift


@figure("bounds.alibi_drift", "measured attention drift of a trained ALiBi model beyond N_max vs li2025 Eq. 9")
def alibi_drift_figure(outdir, *, preset="quick", seed=0):
    """Train or read back the model (:func:`petheory.experiments.li2025_alibi_drift`), then draw."""
    run = ex.li2025_alibi_drift(_train(preset, seed))
    return draw_alibi_drift(outdir, run, preset)


def draw_alibi_drift(outdir, run: dict, preset: str = "quick"):
    """Draw :func:`petheory.experiments.li2025_alibi_drift`'s records: measured drift vs the Eq. 9 bounds per head."""
    import matplotlib.pyplot as plt

    recs_d = run["records"]
    heads = sorted({(q["layer"], q["head"]) for q in recs_d})
    n_layer = max(1, run["n_layer"])
    fig, axes = plt.subplots(1, n_layer, figsize=(6.5 * n_layer, 5.8), squeeze=False, sharey=True)
    slopes = {}
    for (layer, head) in heads:
        a = axes[0, layer]
        q = [z for z in recs_d if z["layer"] == layer and z["head"] == head]
        ex = np.array([z["excess"] for z in q])
        col = f"C{head}"
        slopes[head] = q[0]["slope"]
        a.plot(ex, [max(z["drift_max"], 1e-18) for z in q], color=col, lw=1.8)
        a.plot(ex, [max(z["drift_mean"], 1e-18) for z in q], color=col, lw=0.8, alpha=0.6)
        a.plot(ex, [z["sharp_bound"] for z in q], color=col, ls="--", lw=1)
        a.plot(ex, [z["eq9_rhs"] for z in q], color=col, ls=":", lw=1.6)
    for li in range(axes.shape[1]):
        a = axes[0, li]
        a.set_yscale("log")
        a.set_xlabel(f"d - N_max: how far the key lies beyond the training length N_max = {N_MAX}")
        a.set_title(f"layer {li}")
    axes[0, 0].set_ylabel("|A(-alpha d) - A(-alpha N_max)|: change of the key's softmax weight")
    from matplotlib.lines import Line2D

    styles = [Line2D([], [], color="grey", lw=1.8, label="measured: largest over queries"),
              Line2D([], [], color="grey", lw=0.8, alpha=0.6, label="measured: mean over queries"),
              Line2D([], [], color="grey", ls="--", label="mean-value bound max A(1-A) alpha (d - N_max)"),
              Line2D([], [], color="grey", ls=":", lw=1.6, label="li2025 Eq. 9: alpha (d - N_max) / 4")]
    colours = [Line2D([], [], color=f"C{h}", lw=3, label=f"head {h}: slope alpha = {a_:.4g}") for h, a_ in sorted(slopes.items())]
    fig.legend(handles=styles + colours, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle(f"Trained ALiBi running-sum model (m={run['n_train']}, nn preset '{SIZE[preset]}', N_max = {N_MAX}), "
                 "inputs of length 200.\nA(b) = softmax weight of a key whose ALiBi logit bias is b, the query's other logits "
                 "fixed: the key at distance d vs the same key with its bias held at -alpha N_max", fontsize=10)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    data = {"run": run["run"], "spec": run["spec"], "n_max": run["n_max"], "records": recs_d,
            "reading": "A(mu, b): softmax weight of a key with bias b, the rest of the row mu fixed (bounds.alibi_drift)"}
    return save(fig, data, outdir, "bounds.alibi_drift")
