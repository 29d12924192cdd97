"""The papers' experiments as trained: figures drawn from the records (``records/`` and ``runs/``).

Nothing here trains: each figure reads :func:`petheory.records.find` and draws what is there
(the shipped records were made on one GPU; see ``records/`` and ``tools/gpu/gpu_records.py``).

* ``empirical.table5`` — li2025 Table 5: running-sum MSE against test length per PE, mean over
  seeds with a band from the smallest to the largest seed, one panel per reconstruction reading,
  and the paper's two numbers at N = 200.
* ``empirical.gu2025_accuracy`` — gu2025 Tasks 1 and 2: test accuracy per PE (every seed a dot),
  chance level, and the paper's Table 1 where it has a number (paper scale; ours is the preset
  the records name).
* ``empirical.gu2025_ablation`` — gu2025 §5.1: accuracy drop when one head is zeroed, per layer
  and head, mean over seeds, Task 1 and Task 2, one heat map per PE.
"""

from __future__ import annotations

import numpy as np

from petheory.plots import register
from petheory.nn.provenance import LI2025_TABLE5_MSE200, reading_math

_PAPER_T1 = {"mla": (88.34, 97.41), "rope": (92.64, 69.43), "nope": (3.51, 77.69)}  # gu2025 Table 1, %
_GU_NAMES = {"rope+sinusoidal": "rope", "sinusoidal": "absolute", "alibi:slopes=gu2025": "alibi", "nope": "nope",
             "relative": "relative", "random:trainable=true": "random", "mla": "mla"}


def _records(task, check=None):
    """The usable records of ``task``; one that lacks what a figure reads (``check``) is skipped and named."""
    from petheory import records

    return records.find(task, check=check).records


def _metric_everywhere(name: str):
    """A record check: every ``final.test[L]`` holds metric ``name``."""
    def check(r):
        missing = [k for k, m in r["final"]["test"].items() if name not in m]
        return f"metric 'final.test.{missing[0]}.{name}' is missing" if missing else None
    return check


def _gu_check(r):
    """What the gu2025 figures read: accuracy at the training length, chance accuracy, an ablation's heads in range."""
    if "acc" not in r["final"]["test"].get(str(r["train_len"]), {}):
        return f"metric 'final.test.{r['train_len']}.acc' (accuracy at the training length) is missing"
    if not isinstance((r.get("chance") or {}).get("acc"), (int, float)):
        return "field 'chance.acc' (a number) is missing"
    ab = r.get("ablation")
    if ab:
        shape = (r.get("model", {}).get("n_layer"), r.get("model", {}).get("n_head"))
        heads = ab.get("heads")
        if None in shape or not isinstance(heads, list) or not all(
                isinstance(h, dict) and isinstance(h.get("drop"), (int, float)) and
                all(isinstance(h.get(k), int) and 0 <= h[k] < n for k, n in zip(("layer", "head"), shape))
                for h in heads):
            return (f"field 'ablation.heads' must list {{layer, head, drop}} within the model's n_layer x n_head "
                    f"{shape}")
    return None


def _common_lengths(group: list) -> list:
    """The records of one curve that share its most common test lengths; the others skipped and named."""
    from collections import Counter

    from petheory.io import warn_skipped

    lens = [tuple(sorted(int(L) for L in r["final"]["test"])) for r in group]
    common = max(Counter(lens).items(), key=lambda kv: (kv[1], len(kv[0])))[0]  # ties: the longer curve
    for r, ls in zip(group, lens):
        if ls != common:
            warn_skipped(r.get("_path", "?"), f"its test lengths {list(ls)} differ from the other seeds' {list(common)}")
    return [r for r, ls in zip(group, lens) if ls == common]


def _empty(ax, text):
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, fontsize=9)
    ax.set_axis_off()


_T5_MAIN = "causal encoder, y_t = S_t/sqrt(t+1), x ~ U"  # the reading drawn first


def table5_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``empirical.table5`` record: per reading and PE, the test MSE over lengths (mean, min, max over seeds)
    of the paper-preset running-sum records, beside the paper's MSE at N=200.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``paper_mse200``, ``readings``.

    Examples
    --------
    >>> record = table5_data()  # doctest: +SKIP
    """
    from petheory.nn.provenance import li2025_table5_paper_size, li2025_table5_reading

    recs = [r for r in _records("running_sum", _metric_everywhere("mse"))
            if r.get("train_len") == 50 and li2025_table5_paper_size(r)]
    groups: dict = {}
    for r in recs:
        groups.setdefault((li2025_table5_reading(r), r["pe"].split(":")[0]), []).append(r)
    readings: dict = {}
    for (reading, pe), group in groups.items():
        for r in _common_lengths(group):
            lens = sorted(int(L) for L in r["final"]["test"])
            e = readings.setdefault(reading, {}).setdefault(pe, {"lens": lens, "mse": []})
            e["mse"].append([r["final"]["test"][str(L)]["mse"] for L in lens])
    data = {"paper_mse200": LI2025_TABLE5_MSE200, "readings": {}}
    for name in sorted(readings, key=lambda k: (not k.startswith(_T5_MAIN), k)):
        data["readings"][name] = {}
        for pe, e in sorted(readings[name].items()):
            m = np.asarray(e["mse"])  # (seeds, lengths)
            data["readings"][name][pe] = {"lengths": e["lens"], "mean": m.mean(0).tolist(), "min": m.min(0).tolist(),
                                          "max": m.max(0).tolist(), "seeds": len(m)}
    return data


def draw_table5(data: dict):
    """The ``empirical.table5`` figure from its record (:func:`table5_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`table5_data`): what ``figures/empirical.table5.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "empirical.table5.json"
    >>> fig = draw_table5(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    readings = data["readings"]
    fig, axes = plt.subplots(1, max(1, len(readings)), figsize=(4.2 * max(1, len(readings)), 3.8), sharey=False, squeeze=False)
    colors = dict(zip(sorted({pe for g in readings.values() for pe in g}), plt.cm.tab10.colors))
    if not readings:
        _empty(axes[0, 0], "no paper-preset running-sum records\n(records/li2025_table5 ships them)")
    for ax, (name, per_pe) in zip(axes[0], readings.items()):
        for pe, e in per_pe.items():
            ax.plot(e["lengths"], e["mean"], "o-", color=colors[pe], label=pe, lw=1.5, ms=3)
            ax.fill_between(e["lengths"], e["min"], e["max"], color=colors[pe], alpha=0.15, lw=0)
        for pe, v in data["paper_mse200"].items():
            ax.plot([200], [v], marker="*", ms=12, color=colors.get(pe, "k"), mec="k", ls="none")
        ax.set_yscale("log")
        ax.set_xlabel("test length N (trained at 50)")
        seeds = sorted({e["seeds"] for e in per_pe.values()})
        ax.set_title(reading_math(name).replace(", ", "\n", 1) + f"\n{'-'.join(map(str, seeds))} seeds per PE", fontsize=8)
        ax.grid(alpha=0.3)
    axes[0, 0].set_ylabel("MSE (mean over seeds; band: min..max)")
    if readings:
        h, lab = axes[0, 0].get_legend_handles_labels()
        h.append(plt.Line2D([], [], marker="*", ms=10, color="0.5", mec="k", ls="none"))
        lab.append("li2025's Table 5 (N=200)")
        fig.legend(h, lab, loc="lower center", ncol=min(len(lab), 8), fontsize=8, frameon=False,
                   bbox_to_anchor=(0.5, -0.1))
    fig.suptitle("li2025 Table 5 reproduced (paper preset: 2 layers, d=64, 1 head; one panel per reading)", fontsize=10)
    fig.tight_layout()
    return fig


table5 = register(
    "empirical.table5", "li2025 Table 5: running-sum MSE vs test length per PE and reading, from records/",
    illustrates=("li2025.table5_running_sum",), draw=draw_table5, data=table5_data)


def _gu_table(task):
    """(preset, records) of ``task`` drawn: the largest preset with every gu2025 run
    (:func:`petheory.nn.provenance.preset_to_read`), else the largest present."""
    from petheory.nn.provenance import preset_of, preset_to_read

    recs = [r for r in _records(task, _gu_check) if r["pe"] in _GU_NAMES]
    size = preset_to_read(recs, need=set(_GU_NAMES))
    return size, [r for r in recs if preset_of(r) == size]


_GU_TASKS = ("gu2025_task1", "gu2025_task2")


def gu2025_accuracy_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``empirical.gu2025_accuracy`` record: per task (where records exist) the preset drawn, each PE's
    per-seed test accuracy (%) and chance, beside the paper's Table 1.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``gu2025_task1``, ``gu2025_task2``, ``paper_table1_percent``.

    Examples
    --------
    >>> sorted(gu2025_accuracy_data())
    ['gu2025_task1', 'gu2025_task2', 'paper_table1_percent']
    """
    data = {"paper_table1_percent": {k: list(v) for k, v in _PAPER_T1.items()}}
    for task in _GU_TASKS:
        size, recs = _gu_table(task)
        if not recs:
            continue
        acc = {}
        for r in recs:
            acc.setdefault(_GU_NAMES[r["pe"]], []).append(100 * r["final"]["test"][str(r["train_len"])]["acc"])
        data[task] = {"preset": size, "accuracy_percent": acc, "chance_percent": 100 * recs[0]["chance"]["acc"]}
    return data


def draw_gu2025_accuracy(data: dict):
    """The ``empirical.gu2025_accuracy`` figure from its record (:func:`gu2025_accuracy_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`gu2025_accuracy_data`): what ``figures/empirical.gu2025_accuracy.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "empirical.gu2025_accuracy.json"
    >>> fig = draw_gu2025_accuracy(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    paper = data["paper_table1_percent"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), squeeze=False)
    order = list(_GU_NAMES.values())
    for i, task in enumerate(_GU_TASKS):
        ax = axes[0, i]
        if task not in data:
            _empty(ax, f"no {task} records")
            continue
        acc = data[task]["accuracy_percent"]
        names = [n for n in order if n in acc]
        for x, n in enumerate(names):
            v = acc[n]
            ax.bar(x, np.mean(v), color="0.8", edgecolor="0.4")
            ax.plot(np.full(len(v), x) + np.linspace(-0.15, 0.15, len(v)), v, "o", color="C0", ms=3)
            if n in paper:
                ax.plot([x], [paper[n][i]], marker="*", color="C3", ms=12, mec="k")
        ax.axhline(data[task]["chance_percent"], color="k", ls=":", lw=1)
        ax.set_xticks(range(len(names)), names)
        ax.set_ylim(0, 105)
        ax.set_ylabel("test accuracy (%)")
        ax.set_title(f"{task} ({data[task]['preset']} preset, {sum(map(len, acc.values()))} runs)", fontsize=9)
    handles = [plt.Rectangle((0, 0), 1, 1, color="0.8", ec="0.4"), plt.Line2D([], [], marker="o", color="C0", ls="none"),
               plt.Line2D([], [], marker="*", color="C3", mec="k", ms=10, ls="none"), plt.Line2D([], [], color="k", ls=":")]
    fig.legend(handles, ["mean over seeds", "one seed", "gu2025 Table 1 (paper scale)", "chance"], loc="lower center",
               ncol=4, fontsize=8, frameon=False, bbox_to_anchor=(0.5, -0.06))
    fig.suptitle("gu2025 Tasks 1 and 2 per position mechanism", fontsize=10)
    fig.tight_layout()
    return fig


gu2025_accuracy = register(
    "empirical.gu2025_accuracy", "gu2025 Tasks 1/2: test accuracy per PE from records/, beside the paper's Table 1",
    illustrates=("gu2025.table1", "gu2025.rope_beats_additive_task1", "gu2025.task2_positional_bias_hurts"),
    draw=draw_gu2025_accuracy, data=gu2025_accuracy_data)


def gu2025_ablation_data(preset: str = "quick", seed: int = 0) -> dict:
    """The ``empirical.gu2025_ablation`` record: per task the preset drawn and, per PE, the mean accuracy drop
    (points) of zeroing each head (layer x head) over the seeds that have an ablation.

    Parameters
    ----------
    preset : {'quick', 'full'}, optional
        How much the figure computes.
    seed : int, optional
        Seed of its random draws.

    Returns
    -------
    dict
        The figure's JSON record: ``gu2025_task1``, ``gu2025_task2``.

    Examples
    --------
    >>> record = gu2025_ablation_data()  # doctest: +SKIP
    """
    data = {}
    for task in _GU_TASKS:
        size, recs = _gu_table(task)
        per: dict = {}
        for r in recs:
            ab = r.get("ablation")
            if not ab or ab.get("metric") != "acc":
                continue
            m = np.zeros((r["model"]["n_layer"], r["model"]["n_head"]))
            for h in ab["heads"]:
                m[h["layer"], h["head"]] = 100 * h["drop"]
            per.setdefault(_GU_NAMES[r["pe"]], []).append(m)
        data[task] = {"preset": size, "drop_percent_points": {k: np.mean(v, 0).tolist() for k, v in per.items()},
                      "seeds": {k: len(v) for k, v in per.items()}}
    return data


def draw_gu2025_ablation(data: dict):
    """The ``empirical.gu2025_ablation`` figure from its record (:func:`gu2025_ablation_data`) alone.

    Parameters
    ----------
    data : dict
        The figure's record (:func:`gu2025_ablation_data`): what ``figures/empirical.gu2025_ablation.json`` holds.

    Returns
    -------
    matplotlib.figure.Figure
        The figure (not saved: :func:`petheory.plots.save` writes it with its record).

    Examples
    --------
    >>> import json, pathlib, petheory
    >>> committed = pathlib.Path(petheory.__file__).parents[1] / "figures" / "empirical.gu2025_ablation.json"
    >>> fig = draw_gu2025_ablation(json.loads(committed.read_text()))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    mats_by_task = {task: {k: np.array(v) for k, v in t["drop_percent_points"].items()} for task, t in data.items()}
    names = [n for n in _GU_NAMES.values() if any(n in mats for mats in mats_by_task.values())]
    fig, axes = plt.subplots(2, max(1, len(names)), figsize=(1.9 * max(1, len(names)) + 1, 4.6), squeeze=False)
    vmax = max([float(np.abs(m).max()) for mats in mats_by_task.values() for m in mats.values()] + [1.0])
    im = None
    for i, (task, mats) in enumerate(mats_by_task.items()):
        size = data[task]["preset"]
        for j, n in enumerate(names):
            ax = axes[i, j]
            if n not in mats:
                _empty(ax, "no records")
                continue
            im = ax.imshow(mats[n], cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="auto")
            ax.set_title(f"{n}" if i == 0 else "", fontsize=9)
            if i == 1:
                ax.set_xlabel("head", fontsize=8)
            ax.set_xticks(range(mats[n].shape[1]))
            ax.set_yticks(range(mats[n].shape[0]))
            ax.tick_params(labelsize=7)
            if j == 0:
                ax.set_ylabel(f"{task.split('_')[1]} ({size})\nlayer", fontsize=8)
    if im is not None:
        fig.colorbar(im, ax=axes, shrink=0.8, label="accuracy drop (points) when the head is zeroed")
    fig.suptitle("gu2025 §5.1 head ablation: mean accuracy drop over seeds (red: the head mattered)", fontsize=10)
    return fig


gu2025_ablation = register(
    "empirical.gu2025_ablation", "gu2025 §5.1: single-head ablation accuracy drop per layer and head, per PE",
    illustrates=("gu2025.single_head_deposit", "gu2025.rope_abs_deposit", "gu2025.mla_headwise_ablation"),
    draw=draw_gu2025_ablation, data=gu2025_ablation_data)
