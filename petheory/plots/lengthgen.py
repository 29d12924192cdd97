r"""chen2025 reconstruction figures: LRC vs N, accuracy vs length with and without Scale Hint, SRC.

``lengthgen.lrc`` is pure theory (:mod:`petheory.lengthgen`, seconds). The two others draw the
chen2025 training records (:func:`petheory.nn.chen2025_runs.load_records`: committed
``records/chen2025`` plus any under ``runs/``); they never train.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from petheory.plots import figure, save

LRC_PES = ("learned", "relative", "t5", "fire", "rope", "alibi")
LRC_N = {"quick": list(range(1, 11)), "full": list(range(1, 17))}
COLORS = dict(zip(("learned", "relative", "t5", "fire", "rope", "alibi", "nope", "sinusoidal"),
                  ("C1", "C2", "C4", "C3", "C0", "C5", "k", "C7")))


def lrc_table(preset: str = "quick") -> dict:
    """{target: {pe: {hint: [LRC(N) or None for inf]}}} over :data:`LRC_N` (causal POLAs), and the
    same layout under ``'uncertified'`` listing the N whose decision is not certified (LRC.certified)."""
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


@figure("lengthgen.lrc", "chen2025 (reconstruction): LRC vs N per PE and target, without and with the shift Scale Hint",
        illustrates=("chen2025.lrc_characterises_lg", "chen2025.pe_no_new_capability"))
def fig_lrc(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    import matplotlib.pyplot as plt

    data = lrc_table(preset)
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
    return save(fig, data, outdir, "lengthgen.lrc")


def _records():
    from petheory.nn.chen2025_runs import load_records

    return sorted(load_records(Path(".")), key=lambda r: (r["task"], r["chen2025"]["pe"], r["seed"]))


def _accuracy_data(recs) -> dict:
    out = {}
    for r in recs:
        sizes = sorted(r["final"]["test"], key=int)
        out.setdefault(r["task"], {})[f"{r['chen2025']['pe']} s{r['seed']} ({r['chen2025']['preset']})"] = {
            "sizes": [int(s) for s in sizes], "token_acc": [r["final"]["test"][s]["token_acc"] for s in sizes],
            "src": [r["chen2025"]["src"].get(s) for s in sizes], "train_len": r["train_len"], "pe": r["chen2025"]["pe"]}
    return out


def _style(pe: str):
    base, _, hint = pe.partition(":hint=")
    return COLORS.get(base.split(":")[0], "C9"), ("-" if not hint else "--" if hint == "shift" else ":")


def _empty(outdir, name, msg):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 2))
    ax.text(0.5, 0.5, msg, ha="center", va="center", fontsize=9, wrap=True)
    ax.axis("off")
    return save(fig, {"records": 0, "message": msg}, outdir, name)


_NONE = "no chen2025 records: run `python -m petheory.nn.chen2025_runs small`"


@figure("lengthgen.accuracy", "chen2025: token accuracy vs problem size per PE, with (dashed/dotted) and without Scale Hint",
        illustrates=("chen2025.scale_hint", "chen2025.learned_relation_pe"))
def fig_accuracy(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    import matplotlib.pyplot as plt

    data = _accuracy_data(_records())
    if not data:
        return _empty(outdir, "lengthgen.accuracy", _NONE)
    fig, axes = plt.subplots(1, len(data), figsize=(4.6 * len(data), 3.6), squeeze=False)
    for ax, (task, runs) in zip(axes[0], data.items()):
        for label, d in runs.items():
            c, ls = _style(d["pe"])
            ax.plot(d["sizes"], d["token_acc"], ls, marker="o", ms=4, color=c, label=label)
            ax.axvline(d["train_len"], color="0.7", lw=0.8)
        ax.set_title(f"{task} (grey: largest training size)", fontsize=9)
        ax.set_xlabel("problem size n")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=7)
    axes[0, 0].set_ylabel("answer token accuracy")
    fig.tight_layout()
    return save(fig, data, outdir, "lengthgen.accuracy")


@figure("lengthgen.src", "chen2025 (reconstruction): SRC at train vs test sizes beside accuracy",
        illustrates=("chen2025.src_invariance",))
def fig_src(outdir: Path, *, preset: str = "quick", seed: int = 0) -> list[Path]:
    import matplotlib.pyplot as plt

    data = _accuracy_data(_records())
    if not data:
        return _empty(outdir, "lengthgen.src", _NONE)
    fig, axes = plt.subplots(len(data), 2, figsize=(9.5, 3.3 * len(data)), squeeze=False)
    for row, (task, runs) in zip(axes, data.items()):
        for label, d in runs.items():
            c, ls = _style(d["pe"])
            i0 = d["sizes"].index(d["train_len"]) if d["train_len"] in d["sizes"] else 0
            rel = [s / d["src"][i0] if s is not None and d["src"][i0] else np.nan for s in d["src"]]
            row[0].plot(d["sizes"], rel, ls, marker="o", ms=4, color=c, label=label)
            row[1].plot(d["sizes"], d["token_acc"], ls, marker="o", ms=4, color=c, label=label)
        row[0].axhspan(0.75, 1.25, color="0.9", zorder=0)
        row[0].set_title(f"{task}: SRC(n) / SRC(train size) (band: 'invariant', |change| <= 25%)", fontsize=9)
        row[1].set_title(f"{task}: answer token accuracy", fontsize=9)
        row[1].set_ylim(0, 1.02)
        for ax in row:
            ax.set_xlabel("problem size n")
        row[1].legend(fontsize=7)
    fig.tight_layout()
    return save(fig, data, outdir, "lengthgen.src")
