r"""Retrieval figures: accuracy against context length per method, passkey's length x depth heatmap, and the
effective length of each of ``plan``'s extension candidates beside its checks (``retrieval.extension_lengths``).

Both draw the retrieval records (:func:`petheory.experiments.retrieval_runs.load_records`: ``runs/`` first,
then the committed ``records/retrieval``); they never train. A method is a trained PE (``nope``,
``alibi``, ``sinusoidal``, ``rope``), a rotary scaling swapped into the RoPE runs at evaluation
(``rope_pi``, ``rope_ntk``, ``rope_yarn``: factor matched to each length) or one fine-tuned at twice
the training context (``+ft``: factor 2, fixed).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from petheory.plots import figure, register, save

#: drawing order and style: (colour, line style); fine-tuned methods dashed in their method's colour
STYLE = {"nope": ("k", ":"), "alibi": ("C5", ":"), "sinusoidal": ("C7", ":"), "rope": ("C0", "-"),
         "rope_pi": ("C1", "-"), "rope_ntk": ("C2", "-"), "rope_yarn": ("C3", "-")}
HEATMAP_METHODS = ("rope", "rope_yarn")
_DESCRIBE = {"rope": "trained angles", "rope_pi": "PI at evaluation", "rope_ntk": "NTK at evaluation",
             "rope_yarn": "YaRN at evaluation, s matched"}
_NONE = "no retrieval records: run `python -m petheory.experiments.retrieval_runs` (about 25 min on one CPU core)"


def accuracy_table(recs) -> dict:
    """Accuracy by context length per task and method, over the seeds of the retrieval records.

    Parameters
    ----------
    recs : list of dict
        Records with a ``retrieval`` block (:func:`petheory.experiments.retrieval_runs.load_records`).

    Returns
    -------
    dict
        ``{task: {"metric", "train_context", "ft_context", "lengths", "chance", "methods": {label: {"mean", "se",
        "min", "max", "seeds"}}}}``.

    Examples
    --------
    >>> from petheory.experiments.retrieval_runs import load_records
    >>> sorted(accuracy_table(load_records()[0]))  # doctest: +SKIP
    ['mqar', 'passkey']
    """
    out: dict = {}
    for r in recs:
        ret = r["retrieval"]
        t = out.setdefault(r["task"], {"metric": ret["metric"], "train_context": ret["train_context"],
                                       "ft_context": ret["finetune_setup"]["factor"] * ret["train_context"],
                                       "lengths": ret["lengths"], "methods": {}, "chance": _chance(r)})
        for label, m in ret["methods"].items():
            t["methods"].setdefault(label, []).append([m["by_length"][str(N)][ret["metric"]] for N in ret["lengths"]])
    for t in out.values():
        t["methods"] = {k: {"mean": np.mean(v, 0).tolist(), "se": _se(v), "min": np.min(v, 0).tolist(),
                            "max": np.max(v, 0).tolist(), "seeds": len(v)} for k, v in sorted(t["methods"].items(), key=lambda kv: _order(kv[0]))}
    return out


def _chance(r: dict) -> float | None:
    """A random guesser's score on the record's metric: per answer token, or for a whole passkey its power."""
    tok = (r.get("chance") or {}).get("token_acc")
    if tok is None:
        return None
    if r["retrieval"]["metric"] == "seq_acc":
        return tok ** int(((r.get("config") or {}).get("task") or {}).get("params", {}).get("key_len", 3))
    return tok


def _se(v) -> list:
    """Standard error of the mean over seeds (rows), per length; 0 with one seed."""
    a = np.asarray(v, dtype=float)
    return (a.std(0, ddof=1) / np.sqrt(len(a))).tolist() if len(a) > 1 else [0.0] * a.shape[1]


def _order(label: str) -> tuple:
    base = label.removesuffix("+ft")
    return (label.endswith("+ft"), list(STYLE).index(base) if base in STYLE else len(STYLE), label)


def _message(data: dict):
    """The drawing of an empty record (``{"records": 0, "message": ...}``): the message, no axes."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 2))
    ax.text(0.5, 0.5, data["message"], ha="center", va="center", fontsize=9, wrap=True)
    ax.axis("off")
    return fig


def _records():
    from petheory.experiments.retrieval_runs import load_records

    return load_records(Path("."))[0]


def draw_accuracy(data: dict):
    """The ``retrieval.accuracy`` figure from its record (:func:`accuracy_table`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/retrieval.accuracy.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "retrieval.accuracy.json"
    >>> fig = draw_accuracy(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    if data.get("records") == 0:
        return _message(data)
    fig, axes = plt.subplots(1, len(data), figsize=(5.6 * len(data), 4.2), squeeze=False)
    for ax, (task, t) in zip(axes[0], sorted(data.items(), key=lambda kv: kv[0] != "passkey")):
        x = t["lengths"]
        for label, m in t["methods"].items():
            base = label.removesuffix("+ft")
            c, ls = STYLE.get(base, ("C9", "-"))
            ls = "--" if label.endswith("+ft") else ls
            ax.errorbar(x, m["mean"], yerr=m["se"], fmt=ls, color=c, marker="o" if not label.endswith("+ft") else "s",
                        ms=3.5, lw=1.5, capsize=2, elinewidth=0.8, label=f"{label} ({m['seeds']})")
        ax.axvline(t["train_context"], color="0.6", lw=0.8)
        ax.axvline(t["ft_context"], color="0.6", lw=0.8, ls="--")
        ax.set_xscale("log", base=2)
        ax.set_xticks(x, [f"{n}\n({n // t['train_context']}x)" for n in x])
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("context length (x training context)")
        what = "passkey fully right" if t["metric"] == "seq_acc" else "queries answered"
        ax.set_ylabel(f"{t['metric']} ({what})")
        ax.set_title(task + (f" (chance {t['chance']:.3g})" if t.get("chance") else ""), fontsize=9)
        ax.grid(alpha=0.3)
    axes[0, -1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="method (seeds)", title_fontsize=7)
    fig.suptitle("Retrieval beyond the training context. Dotted: trained PEs; solid: RoPE with a scaling swapped in at "
                 "evaluation (s matched to the length);\ndashed: fine-tuned at the dashed grey context with s = 2 fixed. "
                 "Mean ± standard error over seeds; grey line: training context.", fontsize=9)
    fig.tight_layout()
    return fig


@figure("retrieval.accuracy", "passkey and MQAR accuracy vs context length: trained PEs, RoPE + PI/NTK/YaRN at evaluation "
        "time and after a short fine-tune (mean and range over seeds)",
        illustrates=("chen2023.in_range_keeps_retrieval", "peng2023.yarn_extends_further"), draw=draw_accuracy)
def fig_accuracy(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    """Figure retrieval.accuracy: passkey and MQAR accuracy vs context length: trained PEs, RoPE with PI, NTK and YaRN at evaluation time and after a short fine-tune.

    Parameters
    ----------
    outdir : str or os.PathLike
        Where ``retrieval.accuracy.png`` and ``retrieval.accuracy.json`` go.
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
    data = accuracy_table(_records()) or {"records": 0, "message": _NONE}
    return save(draw_accuracy(data), data, outdir, "retrieval.accuracy")


def heatmap_table(recs, methods=HEATMAP_METHODS) -> dict:
    """Passkey accuracy over context length and key depth per method, averaged over seeds.

    Parameters
    ----------
    recs : list of dict
        Records with a ``retrieval`` block.
    methods : iterable of str, optional
        The methods drawn.

    Returns
    -------
    dict
        ``{method: {"lengths", "depths", "seq_acc": [[mean over seeds] per length], "seeds"}}``.

    Examples
    --------
    >>> from petheory.experiments.retrieval_runs import load_records
    >>> sorted(heatmap_table(load_records()[0]))  # doctest: +SKIP
    ['rope', 'rope_yarn']
    """
    out = {}
    for label in methods:
        cells, lengths, depths = [], None, None
        for r in recs:
            ret = r["retrieval"]
            g = ret["methods"].get(label, {}).get("grid")
            if r["task"] != "passkey" or not g:
                continue
            lengths, depths = ret["lengths"], ret["depths"]
            cells.append([[g[str(N)][f"{d:g}"] for d in depths] for N in lengths])
        if cells:
            out[label] = {"lengths": lengths, "depths": depths, "seq_acc": np.mean(cells, 0).tolist(), "seeds": len(cells)}
    return out


def draw_depth(data: dict):
    """The ``retrieval.depth`` figure from its record (:func:`heatmap_table`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/retrieval.depth.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "retrieval.depth.json"
    >>> fig = draw_depth(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    if data.get("records") == 0:
        return _message(data)
    fig, axes = plt.subplots(1, len(data), figsize=(4.4 * len(data) + 0.8, 3.8), squeeze=False)
    im = None
    for ax, (label, d) in zip(axes[0], data.items()):
        a = np.array(d["seq_acc"]).T  # (depth, length): depth down the side, as needle-in-a-haystack plots
        im = ax.imshow(a, vmin=0, vmax=1, cmap="RdYlGn", aspect="auto", origin="upper")
        ax.set_xticks(range(len(d["lengths"])), [str(n) for n in d["lengths"]])
        ax.set_yticks(range(len(d["depths"])), [f"{x:.0%}" for x in d["depths"]])
        for i in range(a.shape[0]):
            for j in range(a.shape[1]):
                ax.text(j, i, f"{a[i, j]:.2f}", ha="center", va="center", fontsize=7)
        ax.set_xlabel("context length")
        ax.set_title(f"{label}: {_DESCRIBE.get(label, '')} ({d['seeds']} seeds)", fontsize=9)
    axes[0, 0].set_ylabel("key depth (0% = right after BOS)")
    fig.colorbar(im, ax=axes[0].tolist(), label="passkey fully right (mean over seeds)")
    fig.suptitle("Passkey retrieval by length and depth", fontsize=10)
    return fig


@figure("retrieval.depth", "passkey: accuracy over context length x key depth (needle-in-a-haystack) for two methods",
        illustrates=("peng2023.yarn_extends_further",), draw=draw_depth)
def fig_depth(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    """Figure retrieval.depth: passkey accuracy over context length and key depth (needle in a haystack) for two methods.

    Parameters
    ----------
    outdir : str or os.PathLike
        Where ``retrieval.depth.png`` and ``retrieval.depth.json`` go.
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
    ...     png, js = fig_depth(tmp)
    """
    data = heatmap_table(_records()) or {"records": 0, "message": _NONE}
    return save(draw_depth(data), data, outdir, "retrieval.depth")


_NO_EXTENSION = ("no extension records: run `python -m petheory.experiments.extension_lengths` (about 20 min on the "
                 "shared CPU)")


def extension_table(preset: str = "quick", seed: int = 0) -> dict:
    """The ``retrieval.extension_lengths`` record, from the pre-registered sweep's records.

    ``preset`` and ``seed`` are the figure command's; the records are those of
    :mod:`petheory.experiments.extension_lengths` (its seeds), so neither changes the table.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        The figure command's preset.
    seed : int, optional
        Its seed.

    Returns
    -------
    dict
        ``targets``, ``candidates``, ``checks`` (``{target: {candidate: {check: passed}}}``), ``e`` (``{regime: {target:
        {candidate: [effective length / target per seed]}}}``), ``seeds`` and ``threshold_fraction``; or ``records`` 0
        and a message when there are none.

    Examples
    --------
    >>> sorted(extension_table())
    ['candidates', 'checks', 'e', 'seeds', 'targets', 'threshold_fraction']
    """
    from petheory.experiments.extension_lengths import REGIMES, THRESHOLD_FRACTION, load_records, of_setup

    recs = sorted(of_setup(load_records(Path("."))[0])[0], key=lambda r: r["seed"])
    if not recs:
        return {"records": 0, "message": _NO_EXTENSION}
    targets = list(recs[0]["extension"]["targets"])
    cands = list(recs[0]["extension"]["targets"][targets[0]]["candidates"])
    checks = {t: {c: recs[0]["extension"]["targets"][t]["candidates"][c]["checks"] for c in cands} for t in targets}
    e = {g: {t: {c: [r["extension"]["targets"][t]["candidates"][c][g]["effective_length"] / int(t) for r in recs]
                 for c in cands} for t in targets} for g in REGIMES}
    return {"targets": targets, "candidates": cands, "checks": checks, "e": e, "seeds": [r["seed"] for r in recs],
            "threshold_fraction": THRESHOLD_FRACTION}


def draw_extension(data: dict):
    """The ``retrieval.extension_lengths`` figure from its record (:func:`extension_table`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (the figure's saved JSON): what ``figures/retrieval.extension_lengths.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "retrieval.extension_lengths.json"
    >>> fig = draw_extension(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    if data.get("records") == 0:
        return _message(data)
    cands, targets = data["candidates"], data["targets"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), sharey=True)
    width = 0.8 / len(targets)
    x = np.arange(len(cands))
    for ax, (regime, by) in zip(axes, data["e"].items()):
        for k, t in enumerate(targets):
            pos = x - 0.4 + width * (k + 0.5)
            vals = [by[t][c] for c in cands]
            ax.bar(pos, [np.mean(v) for v in vals], width * 0.9, color=f"C{k}", alpha=0.55, label=f"target {t}")
            for p, v in zip(pos, vals):
                ax.plot([p] * len(v), v, "k.", ms=4)
        labels = []
        for c in cands:
            marks = "/".join("".join(ch[0].upper() if data["checks"][t][c][ch] else "-" for ch in ("men", "liu", "phase"))
                             for t in targets)
            labels.append(f"{c}\n{marks}")
        ax.set_xticks(x, labels, fontsize=7)
        ax.set_title({"training_free": "training-free", "finetuned": "fine-tuned at the target"}.get(regime, regime), fontsize=9)
        ax.set_ylim(-0.02, 1.05)
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel(r"effective length / target, $L_{\mathrm{eff}}/N$")
    axes[1].legend(fontsize=7, loc="upper right")
    fig.suptitle("Passkey, RoPE base 500 trained at 32, extended by plan's candidates (bars: mean, dots: seeds "
                 f"{', '.join(map(str, data['seeds']))}). Under each candidate: the checks it passes at each target "
                 "(M: men, L: liu, P: phase; - fails).\n"
                 rf"$L_{{\mathrm{{eff}}}}$: longest context with accuracy $\geq {data['threshold_fraction']:g}\times$ the "
                 "pre-trained accuracy at 32 at every context up to it", fontsize=9)
    fig.tight_layout()
    return fig


fig_extension = register("retrieval.extension_lengths", "effective length of a small passkey model extended to 4x and 8x "
                         "by each of plan's candidates, training-free and fine-tuned, beside the checks plan gives them",
                         data=extension_table, draw=draw_extension,
                         illustrates=("men2024.plan_check_predicts_small_extension",
                                      "liu2023.plan_check_predicts_small_extension",
                                      "chen2023.plan_check_predicts_small_extension"))
