"""The README's reproduced-experiment tables, generated from the shipped records.

``python -m proofs_check.reproduced_table``          print the tables
``python -m proofs_check.reproduced_table --write``  replace the block between the markers in docs/guide/training.md
``python -m proofs_check.reproduced_table --check``  exit 1 when docs/guide/training.md's block is stale (a test does this)

Reads only ``records/`` of the source tree (not ``runs/``), so the tables are what a fresh clone
ships. The page changes only with ``--write``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BEGIN = "<!-- reproduced:begin (generated: python -m proofs_check.reproduced_table --write) -->"
END = "<!-- reproduced:end -->"
#: The page the tables live on (its "Records" section).
README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "training.md"


def _shipped(task: str) -> list[dict]:
    from petheory import records

    d = records.shipped_dir()
    return [] if d is None else records.find(task, where=[d]).records


def _ms(values) -> str:
    from proofs_check.claims._empirical import mean_se

    m, se = mean_se(values)
    return f"{m:.3g}" if se is None else f"{m:.3g} ± {se:.1g}"


def table5() -> list[str]:
    """The li2025 Table 5 part of the reproduced tables: the shipped running-sum records of the paper preset beside the
    paper's MSE at N=200, and the lowest MSE under each reconstruction reading.

    Returns
    -------
    list of str
        The Markdown lines (one line saying so when no record is shipped).

    Examples
    --------
    >>> table5()[0].startswith("**li2025 Table 5**") or table5() == ["(no shipped running-sum records)"]
    True
    """
    from petheory.nn.provenance import LI2025_TABLE5_DEFAULT as _T5_DEFAULT
    from petheory.nn.provenance import LI2025_TABLE5_MSE200 as _T5_PAPER
    from petheory.nn.provenance import li2025_table5_paper_size as _t5_paper_size
    from petheory.nn.provenance import li2025_table5_reading as _t5_reading
    from petheory.nn.provenance import reading_math  # the readings' formulas as math, for the docs' MathJax

    recs = [r for r in _shipped("running_sum") if _t5_paper_size(r)]
    if not recs:
        return ["(no shipped running-sum records)"]
    readings: dict = {}
    for r in recs:
        readings.setdefault(_t5_reading(r), {}).setdefault(r["pe"].split(":")[0], []).append(r)
    main = readings[_T5_DEFAULT]
    order = sorted(main, key=lambda pe: sum(x["final"]["test"]["200"]["mse"] for x in main[pe]) / len(main[pe]))
    seeds = sorted({len(v) for v in main.values()})
    device = recs[0]["timing"]["device"]
    out = [f"**li2025 Table 5** (running sum, paper preset: 2 layers, d=64, one head, train length 50; {reading_math(_T5_DEFAULT)}; "
           f"{'-'.join(map(str, seeds))} seeds per PE, mean ± standard error; trained on one {device}):", "",
           "| PE | MSE @ 50 | MSE @ 100 | MSE @ 200 | li2025 @ 200 |", "|---|---:|---:|---:|---:|"]
    for pe in order:
        rs = main[pe]
        cells = [_ms([r["final"]["test"][L]["mse"] for r in rs]) for L in ("50", "100", "200")]
        out.append(f"| {pe} | {' | '.join(cells)} | {_T5_PAPER.get(pe, '—')} |")
    out += ["", "Lowest MSE at N=200 under each reconstruction reading (5-15 seeds each):", ""]
    for name, groups in sorted(readings.items()):
        means = {pe: sum(x["final"]["test"]["200"]["mse"] for x in rs) / len(rs) for pe, rs in groups.items()}
        ranked = sorted(means, key=means.get)
        out.append(f"- {reading_math(name)}: {' < '.join(ranked)} (wavelet {ranked.index('wavelet') + 1} of {len(ranked)})")
    return out


_GU = {"rope+sinusoidal": "rope", "sinusoidal": "absolute", "alibi:slopes=gu2025": "alibi", "nope": "nope",
       "relative": "relative", "random:trainable=true": "random", "mla": "mla"}
_T1 = {"mla": (88.34, 97.41), "rope": (92.64, 69.43), "nope": (3.51, 77.69)}


def gu2025() -> list[str]:
    """The gu2025 part of the reproduced tables: Tasks 1 and 2 test accuracy of the shipped records beside gu2025's
    Table 1, at the largest preset with every run on both tasks.

    Returns
    -------
    list of str
        The Markdown lines (one line saying so when no record is shipped).

    Examples
    --------
    >>> gu2025()[0].startswith("**gu2025 Tasks 1 and 2**") or gu2025() == ["(no shipped gu2025 records)"]
    True
    """
    from proofs_check.claims._empirical import preset_of

    from petheory.nn.provenance import preset_to_read

    cols, recs = {}, []
    for i, task in enumerate(("gu2025_task1", "gu2025_task2")):
        for r in _shipped(task):
            if r["pe"] in _GU:
                recs.append(r)
                cols.setdefault((task, preset_of(r)), {}).setdefault(_GU[r["pe"]], []).append(
                    100 * r["final"]["test"][str(r["train_len"])]["acc"])
    if not cols:
        return ["(no shipped gu2025 records)"]
    # the largest preset with every run on both tasks (paper-preset runs arrive a few per GPU slice, issue 44)
    size = preset_to_read(recs, need={(t, n) for t in ("gu2025_task1", "gu2025_task2") for n in _GU.values()},
                          key=lambda r: (r["task"], _GU[r["pe"]]))
    t1, t2 = cols.get(("gu2025_task1", size), {}), cols.get(("gu2025_task2", size), {})
    n = sorted({len(v) for c in (t1, t2) for v in c.values()})
    model = _GU_MODEL.get(size, "")
    out = [f"**gu2025 Tasks 1 and 2** (test accuracy %, {size} preset{': ' + model if model else ''}; "
           f"{'-'.join(map(str, n))} seeds, mean ± standard error) beside gu2025's Table 1 (paper scale: 6 layers, d=256, "
           "16 heads, 70 / 101 classes, one run):", "",
           "| PE | Task 1 (ours) | Task 1 (gu2025) | Task 2 (ours) | Task 2 (gu2025) |", "|---|---:|---:|---:|---:|"]
    for name in _GU.values():
        p1, p2 = _T1.get(name, ("—", "—"))
        out.append(f"| {name} | {_pct(t1.get(name))} | {p1} | {_pct(t2.get(name))} | {p2} |")
    more = {t: c for (t, z), c in sorted(cols.items()) if z != size and z == "paper"}
    if more:
        out += ["", "Paper-preset runs so far (a few per GPU slice; the table above shows the " + size + " preset until "
                "every run is in): " + "; ".join(f"{t}: " + ", ".join(f"{k} {_pct(v)} ({len(v)} seed{'s' * (len(v) > 1)})"
                                                                   for k, v in c.items()) for t, c in more.items()) + "."]
    return out


#: the model of each preset the gu2025 table can show (petheory.nn.presets)
_GU_MODEL = {"small": "2 layers, d=64, 4 heads, 16 / 31 classes", "paper": "6 layers, d=256, 16 heads, gu2025's App. C"}


def _pct(values) -> str:
    if not values:
        return "—"
    from proofs_check.claims._empirical import mean_se

    m, se = mean_se(values)
    return f"{m:.1f}" if se is None else f"{m:.1f} ± {se:.1f}"


def retrieval() -> list[str]:
    """Passkey and MQAR accuracy by context length per method, from the shipped ``records/retrieval``.

    Returns
    -------
    list of str
        The Markdown lines (one line saying so when no record is shipped).

    Examples
    --------
    >>> retrieval()[0].startswith("**Retrieval beyond the training context**") or retrieval() == ["(no shipped retrieval records)"]
    True
    """
    from petheory.experiments.retrieval_runs import TASKS

    recs = sorted((r for t in TASKS for r in _shipped(t) if isinstance(r.get("retrieval"), dict)),
                  key=lambda r: (r["task"], r["pe"], r["seed"]))
    if not recs:
        return ["(no shipped retrieval records)"]
    from petheory.plots.retrieval import accuracy_table

    data = accuracy_table(recs)
    r0 = recs[0]["retrieval"]
    seeds = sorted({m["seeds"] for t in data.values() for m in t["methods"].values()})
    out = [f"**Retrieval beyond the training context** (`records/retrieval`, small preset: 2 layers, d=64, 2 heads, "
           f"trained at context 16-{r0['train_context']}; {'-'.join(map(str, seeds))} seeds, mean ± standard error; "
           f"trained on one core of a shared {r0['device']}). Swapped methods replace the trained RoPE angles at "
           f"evaluation with the factor matched to the length; `+ft`: fine-tuned {r0['finetune_setup']['steps']} steps "
           f"at context {r0['finetune_setup']['factor'] * r0['train_context']} (s = {r0['finetune_setup']['factor']}, fixed):", ""]
    for task in TASKS:
        if task not in data:
            continue
        t = data[task]
        what = "passkey fully right (seq_acc)" if t["metric"] == "seq_acc" else "queries answered (token_acc)"
        out += [f"{task}: {what}", "", "| method | " + " | ".join(f"{N} ({N // t['train_context']}x)" for N in t["lengths"])
                + " |", "|---|" + "---:|" * len(t["lengths"])]
        per = {}
        for r in recs:
            if r["task"] == task:
                for label, m in r["retrieval"]["methods"].items():
                    per.setdefault(label, []).append([m["by_length"][str(N)][t["metric"]] for N in t["lengths"]])
        for label in t["methods"]:
            cols = list(zip(*per[label]))
            out.append(f"| {label} | " + " | ".join(_ms(c) for c in cols) + " |")
        out.append("")
    return out[:-1]


def render() -> str:
    r"""The reproduced tables' block of ``docs/guide/training.md``: :func:`table5`, :func:`gu2025` and :func:`retrieval`.

    Returns
    -------
    str
        The Markdown block.

    Examples
    --------
    >>> render().count("\n\n") >= 2
    True
    """
    return "\n".join(table5() + [""] + gu2025() + [""] + retrieval())


def main(argv=None) -> int:
    """``python -m proofs_check.reproduced_table``: print the reproduced tables, or rewrite (``--write``) or check
    (``--check``) their block of ``docs/guide/training.md``.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line).

    Returns
    -------
    int
        The exit code: 1 when ``--check`` finds the block stale.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["--check"])
    >>> code, out.getvalue().strip().endswith("up to date")
    (0, True)
    """
    from proofs_check.verdict_table import update_readme

    p = argparse.ArgumentParser(prog="python -m proofs_check.reproduced_table", description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="rewrite the generated block of docs/guide/training.md")
    g.add_argument("--check", action="store_true", help="exit 1 when docs/guide/training.md's block is stale")
    p.add_argument("--readme", default=str(README), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    block, path = render(), Path(args.readme)
    return update_readme(path, block, write=args.write, check=args.check, what="reproduced tables",
                         command="python -m proofs_check.reproduced_table --write", begin=BEGIN, end=END)

if __name__ == "__main__":
    sys.exit(main())
