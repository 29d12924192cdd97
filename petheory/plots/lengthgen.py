r"""chen2025 reconstruction figures: LRC vs N, accuracy vs length with and without Scale Hint, SRC.

``lengthgen.lrc`` is pure theory (:mod:`petheory.lengthgen`, seconds). The two others draw the
chen2025 training records (:func:`petheory.experiments.chen2025_runs.load_records`: committed
``records/chen2025`` plus any under ``runs/``); they never train.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from petheory.plots import figure, register, save

LRC_PES = ("learned", "relative", "t5", "fire", "rope", "alibi")
LRC_N = {"quick": list(range(1, 11)), "full": list(range(1, 17))}
COLORS = dict(zip(("learned", "relative", "t5", "fire", "rope", "alibi", "nope", "sinusoidal"),
                  ("C1", "C2", "C4", "C3", "C0", "C5", "k", "C7")))


def lrc_table(preset: str = "quick") -> dict:
    """The LRC of each causal POLA, target and hint over :data:`LRC_N`, and which decisions are not certified.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        Which sizes (:data:`LRC_N`).

    Returns
    -------
    dict
        ``N``, ``targets`` (``{target: {pe: {hint: [LRC(N), None for inf]}}}``) and ``uncertified`` (the same layout,
        listing the N whose decision is not certified).

    Examples
    --------
    >>> table = lrc_table()  # doctest: +SKIP
    """
    from petheory import lengthgen

    Ns = LRC_N[preset]
    out = {"N": Ns, "targets": {}, "uncertified": {}}
    for t in lengthgen.TARGETS:
        row = out["targets"][t] = {}
        unc = out["uncertified"][t] = {}
        for pe in LRC_PES:
            row[pe], unc[pe] = {}, {}
            for hint in ("none", "shift"):
                curve = lengthgen.lrc_curve(pe, t, Ns, hint=hint)
                row[pe][hint] = [None if math.isinf(c.value) else c.value for c in curve]
                unc[pe][hint] = [c.N for c in curve if not c.certified()]
    return out


def draw_lrc(data: dict):
    """The ``lengthgen.lrc`` figure from its record (:func:`lrc_table`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/lengthgen.lrc.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "lengthgen.lrc.json"
    >>> fig = draw_lrc(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    Ns = data["N"]
    targets = list(data["targets"])
    fig, axes = plt.subplots(2, math.ceil(len(targets) / 2), figsize=(3.2 * math.ceil(len(targets) / 2), 6.2))
    top = max(max((v for vals in pe.values() for v in vals if v is not None), default=1)
              for t in data["targets"].values() for pe in t.values())
    inf_y = top * 1.6
    for ax, t in zip(axes.flat, targets):
        for pe, hints in data["targets"][t].items():
            for hint, ls, lw, alpha in (("none", "-", 3.0, 0.45), ("shift", "--", 1.2, 1.0)):
                y = [inf_y if v is None else v for v in hints[hint]]
                ax.plot(Ns, y, ls, lw=lw, alpha=alpha, marker="o" if hint == "none" else "s", ms=3, color=COLORS[pe],
                        label=f"{pe}{' +hint' if hint == 'shift' else ''}")
                bad = [Ns.index(n) for n in data["uncertified"][t][pe][hint]]
                ax.plot([Ns[i] for i in bad], [y[i] for i in bad], "x", color="k", ms=7)
        ax.axhline(inf_y, color="0.8", lw=0.8)
        ax.set_yscale("log")
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("N (largest size)")
    for ax in axes.flat[len(targets):]:
        ax.axis("off")
    axes.flat[0].set_ylabel("LRC (top line: not realisable; x: uncertified)")
    h, lab = axes.flat[0].get_legend_handles_labels()
    fig.legend(h, lab, loc="lower right", fontsize=7, ncol=2, bbox_to_anchor=(0.98, 0.05))
    fig.suptitle("LRC of causal POLAs (chen2025 reconstruction): bounded = one length-independent parametrisation",
                 fontsize=10)
    fig.tight_layout()
    return fig


fig_lrc = register(
    "lengthgen.lrc", "chen2025 (reconstruction): LRC vs N per PE and target, without and with the shift Scale Hint",
    illustrates=("chen2025.lrc_characterises_lg", "chen2025.pe_no_new_capability"), draw=draw_lrc, data=lambda preset, seed: lrc_table(preset))


def _records():
    from petheory.experiments.chen2025_runs import load_records

    return sorted(load_records(Path(".")), key=lambda r: (r["task"], r["chen2025"]["pe"], r["seed"]))


def _accuracy_data(recs) -> dict:
    """{task: {config label: per-size mean and standard error over seeds}} of the chen2025 records.

    A configuration is (PE spec, preset); its runs differ only in the seed. Each curve is the mean over
    its seeds with the standard error (sample sd / sqrt(seeds); 0 for one seed), so the figure has one
    line per configuration however many seeds were trained.
    """
    groups: dict = {}
    for r in recs:
        c = r["chen2025"]
        key = (r["task"], f"{c['pe']} ({c['preset']})")
        groups.setdefault(key, []).append(r)
    out: dict = {}
    for (task, label), runs in sorted(groups.items()):
        sizes = sorted({int(s) for r in runs for s in r["final"]["test"]})
        acc = np.array([[r["final"]["test"].get(str(n), {}).get("token_acc", np.nan) for n in sizes] for r in runs])
        src = np.array([[np.nan if r["chen2025"]["src"].get(str(n)) is None else r["chen2025"]["src"][str(n)]
                         for n in sizes] for r in runs], dtype=float)
        k = acc.shape[0]
        out.setdefault(task, {})[label] = {
            "pe": runs[0]["chen2025"]["pe"], "seeds": sorted(int(r["seed"]) for r in runs), "sizes": sizes,
            "train_len": runs[0]["train_len"],
            "token_acc": _nan_list(np.nanmean(acc, axis=0)), "token_acc_se": _nan_list(_se(acc)),
            "src": _nan_list(np.nanmean(src, axis=0) if k else src), "src_se": _nan_list(_se(src))}
    return out


def _se(x: np.ndarray) -> np.ndarray:
    """Standard error of the mean over axis 0 (rows: seeds), ignoring NaN; 0 where one value."""
    n = np.sum(~np.isnan(x), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.nanstd(x, axis=0, ddof=1) if x.shape[0] > 1 else np.zeros(x.shape[1])
    return np.where(n > 1, sd / np.sqrt(np.maximum(n, 1)), 0.0)


def _nan_list(x) -> list:
    """JSON has no NaN: a missing value is null."""
    return [None if not np.isfinite(v) else float(v) for v in np.asarray(x, dtype=float)]


def _arr(vals) -> np.ndarray:
    return np.array([np.nan if v is None else v for v in vals], dtype=float)


def _style(pe: str):
    base, _, hint = pe.partition(":hint=")
    return COLORS.get(base.split(":")[0], "C9"), ("-" if not hint else "--" if hint == "shift" else ":")


def _empty(outdir, name, msg):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 2))
    ax.text(0.5, 0.5, msg, ha="center", va="center", fontsize=9, wrap=True)
    ax.axis("off")
    return save(fig, {"records": 0, "message": msg}, outdir, name)


_NONE = "no chen2025 records: run `python -m petheory.experiments.chen2025_runs small`"


def draw_accuracy(data: dict):
    """The ``lengthgen.accuracy`` figure from its JSON (:func:`_accuracy_data`): one line per configuration,
    mean ± standard error over its seeds, the legend beside the axes (never over the curves).

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/lengthgen.accuracy.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "lengthgen.accuracy.json"
    >>> fig = draw_accuracy(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(data), figsize=(4.6 * len(data) + 2.4, 3.6), squeeze=False)
    for ax, (task, runs) in zip(axes[0], data.items()):
        for label, d in runs.items():
            c, ls = _style(d["pe"])
            y, se = _arr(d["token_acc"]), _arr(d["token_acc_se"])
            ax.errorbar(d["sizes"], y, yerr=se, fmt=ls, marker="o", ms=4, capsize=2, color=c,
                        label=f"{label}, {len(d['seeds'])} seeds")
        ax.axvline(next(iter(runs.values()))["train_len"], color="0.7", lw=0.8)
        ax.set_title(f"{task} (grey: largest training size)", fontsize=9)
        ax.set_xlabel("problem size n")
        ax.set_ylim(0, 1.02)
    axes[0, 0].set_ylabel("answer token accuracy (mean ± s.e. over seeds)")
    h, lab = axes[0, 0].get_legend_handles_labels()
    fig.legend(h, lab, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7, frameon=False)
    fig.tight_layout()
    return fig


@figure("lengthgen.accuracy", "chen2025: token accuracy vs problem size per PE, with (dashed/dotted) and without Scale Hint, "
        "mean ± s.e. over seeds", illustrates=("chen2025.scale_hint", "chen2025.learned_relation_pe"), draw=draw_accuracy)
def fig_accuracy(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    """Figure lengthgen.accuracy: chen2025, token accuracy vs problem size per PE, with and without Scale Hint, mean and standard error over seeds.

    Parameters
    ----------
    outdir : str or os.PathLike
        Where ``lengthgen.accuracy.png`` and ``lengthgen.accuracy.json`` go.
    preset : {'quick', 'full'}, optional
        The figure command's preset.
    seed : int, optional
        Its seed.

    Returns
    -------
    list of pathlib.Path
        The PNG and the JSON written (a placeholder figure when there are no records).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:  # doctest: +SKIP
    ...     png, js = fig_accuracy(tmp)
    """
    data = _accuracy_data(_records())
    if not data:
        return _empty(outdir, "lengthgen.accuracy", _NONE)
    return save(draw_accuracy(data), data, outdir, "lengthgen.accuracy")


def draw_src(data: dict):
    """The ``lengthgen.src`` figure from its JSON: SRC(n) / SRC(train size) beside accuracy, mean ± s.e.

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/lengthgen.src.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "lengthgen.src.json"
    >>> fig = draw_src(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(data), 2, figsize=(11.5, 3.3 * len(data)), squeeze=False)
    for row, (task, runs) in zip(axes, data.items()):
        for label, d in runs.items():
            c, ls = _style(d["pe"])
            i0 = d["sizes"].index(d["train_len"]) if d["train_len"] in d["sizes"] else 0
            src, src_se = _arr(d["src"]), _arr(d["src_se"])
            ref = src[i0] if np.isfinite(src[i0]) and src[i0] else np.nan
            row[0].errorbar(d["sizes"], src / ref, yerr=src_se / ref, fmt=ls, marker="o", ms=4, capsize=2, color=c,
                            label=f"{label}, {len(d['seeds'])} seeds")
            row[1].errorbar(d["sizes"], _arr(d["token_acc"]), yerr=_arr(d["token_acc_se"]), fmt=ls, marker="o", ms=4,
                            capsize=2, color=c, label=f"{label}, {len(d['seeds'])} seeds")
        row[0].axhspan(0.75, 1.25, color="0.9", zorder=0)
        row[0].set_title(f"{task}: mean SRC(n) / mean SRC(train size) (band: |change| <= 25%)", fontsize=9)
        row[1].set_title(f"{task}: answer token accuracy (mean ± s.e.)", fontsize=9)
        row[1].set_ylim(0, 1.02)
        for ax in row:
            ax.set_xlabel("problem size n")
    h, lab = axes[0, 1].get_legend_handles_labels()
    fig.legend(h, lab, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7, frameon=False)
    fig.tight_layout()
    return fig


@figure("lengthgen.src", "chen2025 (reconstruction): SRC at train vs test sizes beside accuracy, mean ± s.e. over seeds",
        illustrates=("chen2025.src_invariance",), draw=draw_src)
def fig_src(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    """Figure lengthgen.src: chen2025 (reconstruction), SRC at train vs test sizes beside accuracy, mean and standard error over seeds.

    Parameters
    ----------
    outdir : str or os.PathLike
        Where ``lengthgen.src.png`` and ``lengthgen.src.json`` go.
    preset : {'quick', 'full'}, optional
        The figure command's preset.
    seed : int, optional
        Its seed.

    Returns
    -------
    list of pathlib.Path
        The PNG and the JSON written (a placeholder figure when there are no records).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:  # doctest: +SKIP
    ...     png, js = fig_src(tmp)
    """
    data = _accuracy_data(_records())
    if not data:
        return _empty(outdir, "lengthgen.src", _NONE)
    return save(draw_src(data), data, outdir, "lengthgen.src")

