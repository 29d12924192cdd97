r"""Effective length after context extension, measured on small retrieval models, beside what ``plan``'s checks predict.

A RoPE model is pre-trained on a retrieval task (passkey by default) at context ``L``, then extended to
each target ``f L`` (``f`` in :attr:`ExtensionSetup.factors`, 4 and 8) by every candidate of
:func:`petheory.analyses.plan.candidates` -- no change (``as_configured``), Men's and Liu's base,
PI, NTK-aware, dynamic NTK, YaRN, llama3 -- with the parameters ``plan`` gives for that model (its
base and head dimension, original context = the longest training sequence, target = the sequence at
``f L``), in two regimes:

* ``training_free``: the candidate's angles swapped into the trained weights
  (:func:`petheory.experiments.context_extension.swap_rotary`);
* ``finetuned``: a short fine-tune at the target context with the candidate in place
  (:func:`~petheory.experiments.context_extension.finetune`), the same token budget for every
  candidate: ``steps = ft_tokens // (ft_batch * f L)`` sequences of up to ``f L`` tokens.

Each model is evaluated at every context of :attr:`ExtensionSetup.grid` (multiples of ``L``) up to the
target, and its **effective length** is read off (:func:`effective_length`): the longest evaluated
context ``c <= target`` such that the accuracy at every evaluated context up to ``c`` stays at or
above the threshold; 0 when the first one already misses. The threshold is fixed here, before any
record was trained: :data:`THRESHOLD_FRACTION` (0.9) times the pre-trained model's own accuracy at ``L``
(per seed; RULER's effective length with the threshold set by the model's short-context score, as
the model is not a chat model with a fixed 85.6 reference). Beside each candidate the record keeps
the three checks of ``plan`` (``men``, ``liu``, ``phase``: :func:`petheory.analyses.plan.analyse`)
for that candidate at that target: what the theory predicts; the claims of
:mod:`proofs_check.claims.plan_checks_measured` compare the two.

The base of the pre-trained RoPE is 500, not 10,000: with a 32-dimensional head, 10,000 and targets of at
most 259 positions every candidate passes Men's check, so no measurement could tell a failing one from a
passing one. At 500 each check passes for some candidates and fails for others at both targets
(computed from ``plan`` alone, before training: :func:`predictions`).

Records: one per seed, a training record (:func:`petheory.nn.training.train`) with an ``extension`` block
(:func:`extension_problem` lists its fields), written atomically to ``records_dir``; every
(target, candidate, regime) entry is saved as it finishes under ``runs_dir`` so that a killed sweep
resumes where it stopped. ``python -m petheory.experiments.extension_lengths`` runs the sweep on a CPU
(``--size small``, the shipped ``records/extension_lengths``), or larger (``--size paper --device cuda``).

JSON readers (:func:`read_record`, :func:`load_records`, :func:`predictions`) import no torch.
"""

from __future__ import annotations

import dataclasses
import math
import time
from dataclasses import dataclass
from pathlib import Path

from petheory.errors import ValidationError

#: Pre-registered: the effective length's threshold is this fraction of the pre-trained model's accuracy at L.
THRESHOLD_FRACTION = 0.9
#: Pre-registered: the training seeds of the shipped records.
SEEDS = (0, 1, 2)
CHECKS = ("men", "liu", "phase")
REGIMES = ("training_free", "finetuned")
#: the metric per task (a passkey counts when all its digits are right; MQAR counts answered queries)
METRIC = {"passkey": "seq_acc", "mqar": "token_acc"}


@dataclass(frozen=True)
class ExtensionSetup:
    """One sweep: the task and size of the pre-trained model, the targets, candidates and fine-tuning budget.

    Attributes
    ----------
    task, size : str
        Retrieval task (``passkey``, ``mqar``) and preset size (:func:`petheory.nn.presets.preset`).
    base : float
        RoPE base of the pre-trained model.
    seeds : tuple of int
        Training seeds (the fine-tuning seed is the same).
    factors : tuple of int
        Targets as multiples of the training context ``L``.
    candidates : tuple of str
        Names of :data:`petheory.analyses.plan.CANDIDATES` to extend with.
    grid : tuple of float
        Evaluated contexts as multiples of ``L`` (those up to each target are used).
    ft_tokens, ft_batch : int
        Fine-tuning budget in sequence slots (steps x batch x target context) and batch size.
    ft_lr : float
        Fine-tuning learning rate (AdamW, constant).
    overrides : tuple of (str, value)
        Preset overrides (``preset(..., **dict(overrides))``), e.g. ``(("epochs", 1),)``.
    """

    task: str = "passkey"
    size: str = "small"
    base: float = 500.0
    seeds: tuple = SEEDS
    factors: tuple = (4, 8)
    candidates: tuple = ("as_configured", "base_men", "base_liu", "pi", "ntk", "dynamic", "yarn", "llama3")
    grid: tuple = (1, 1.5, 2, 3, 4, 6, 8)
    ft_tokens: int = 65536
    ft_batch: int = 16
    ft_lr: float = 1e-3
    overrides: tuple = ()

    def validate(self) -> "ExtensionSetup":
        from petheory.analyses.plan import CANDIDATES

        if self.task not in METRIC:
            raise ValidationError(f"task must be one of {', '.join(METRIC)}, got {self.task!r}")
        bad = [c for c in self.candidates if c not in CANDIDATES]
        if bad or not self.candidates:
            raise ValidationError(f"candidates must be names of plan's candidates ({', '.join(CANDIDATES)}), got {bad or '[]'}")
        if not self.factors or any(not isinstance(f, int) or f < 2 for f in self.factors):
            raise ValidationError(f"factors must be integers >= 2 (targets as multiples of L), got {self.factors!r}")
        if not self.grid or any(not (g >= 1) for g in self.grid):
            raise ValidationError(f"grid must be multiples of L >= 1, got {self.grid!r}")
        if not self.seeds:
            raise ValidationError("seeds must name at least one seed")
        for name in ("ft_tokens", "ft_batch"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValidationError(f"{name} must be a positive integer, got {getattr(self, name)!r}")
        if not (self.base > 1 and math.isfinite(self.base)):
            raise ValidationError(f"base must be a finite number > 1, got {self.base!r}")
        return self

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["overrides"] = {k: v for k, v in self.overrides}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


def effective_length(acc_by_context: dict, threshold: float, target: int) -> int:
    """The longest evaluated context ``c <= target`` with accuracy >= ``threshold`` at every evaluated context up to ``c``.

    Parameters
    ----------
    acc_by_context : dict
        Context length (int or its text) -> accuracy.
    threshold : float
        The accuracy a context must reach.
    target : int
        Contexts above it are not read.

    Returns
    -------
    int
        The effective length; 0 when the shortest evaluated context misses the threshold.

    Examples
    --------
    >>> effective_length({32: 0.95, 64: 0.9, 128: 0.5, 256: 0.92}, 0.9, 256)
    64
    >>> effective_length({32: 0.5}, 0.9, 32)
    0
    """
    out = 0
    for c in sorted(int(k) for k in acc_by_context):
        if c > target:
            break
        if not acc_by_context.get(c, acc_by_context.get(str(c))) >= threshold:
            break
        out = c
    return out


def contexts(setup: ExtensionSetup, train_context: int, target: int) -> list[int]:
    """The evaluated contexts up to ``target``: ``round(g L)`` for ``g`` in the grid, and the target itself.

    Parameters
    ----------
    setup : ExtensionSetup
        The sweep (its ``grid``).
    train_context : int
        L, the training context.
    target : int
        The target context.

    Returns
    -------
    list of int
        The contexts, ascending.

    Examples
    --------
    >>> contexts(ExtensionSetup(), 32, 128)
    [32, 48, 64, 96, 128]
    """
    return sorted({int(round(g * train_context)) for g in setup.grid if g * train_context <= target} | {int(target)})


def plan_candidates(base: float, head_dim: int, train_seq_len: int, target_seq_len: int, names) -> list[dict]:
    """``plan``'s candidates for a RoPE model (``base``, ``head_dim``) trained on sequences up to ``train_seq_len``
    tokens, extended to ``target_seq_len``: per candidate its name, model PE spec and the three checks.

    The checks are :func:`petheory.analyses.plan.analyse`'s, on the same numbers ``plan`` would be given.

    Parameters
    ----------
    base : float
        The model's RoPE base.
    head_dim : int
        Its head dimension.
    train_seq_len : int
        The longest training sequence, in tokens.
    target_seq_len : int
        The target, in tokens.
    names : iterable of str
        Candidates of :data:`petheory.analyses.plan.CANDIDATES`.

    Returns
    -------
    list of dict
        Per candidate: ``name``, ``spec`` (the model's PE spec) and ``checks`` (Men's, Liu's, phase: passed).

    Examples
    --------
    >>> c = plan_candidates(500.0, 32, 35, 131, ["as_configured", "pi"])
    >>> [(x["name"], x["spec"], x["checks"]) for x in c]  # doctest: +NORMALIZE_WHITESPACE
    [('as_configured', 'rope:base=500.0', {'men': False, 'liu': False, 'phase': False}),
     ('pi', 'rope_pi:base=500.0,scale=3.742857142857143', {'men': True, 'liu': True, 'phase': True})]
    """
    from petheory.analyses.plan import analyse, candidates
    from petheory.scheme import Positions

    pos = Positions("rotary", "rope", {"base": float(base)}, int(head_dim))
    out = []
    for cand in candidates(pos, context=int(train_seq_len), length=int(target_seq_len)):
        if cand[0] not in names:
            continue
        a = analyse(pos, cand, context=int(train_seq_len), length=int(target_seq_len))
        spec = cand[2] + ":" + ",".join(f"{k}={v!r}" if not isinstance(v, str) else f"{k}={v}" for k, v in cand[3].items())
        out.append({"name": cand[0], "spec": spec, "params": dict(cand[3]),
                    "checks": {x.name: bool(x.passed) for x in a.checks},
                    "check_details": {x.name: x.detail for x in a.checks}})
    return out


def predictions(rec: dict) -> dict:
    """``{target: {candidate: {check: passed}}}`` recomputed by the library's ``plan`` for the model of record ``rec``.

    Parameters
    ----------
    rec : dict
        An extension record.

    Returns
    -------
    dict
        The checks per target and candidate.

    Examples
    --------
    >>> rec = {"extension": {"base": 500.0, "head_dim": 32, "train_seq_len": 35,
    ...                      "targets": {"4": {"seq_len": 131, "candidates": {"pi": {}}}}}}
    >>> predictions(rec)
    {'4': {'pi': {'men': True, 'liu': True, 'phase': True}}}
    """
    ext = rec["extension"]
    out = {}
    for t, entry in ext["targets"].items():
        names = list(entry["candidates"])
        cands = plan_candidates(ext["base"], ext["head_dim"], ext["train_seq_len"], entry["seq_len"], names)
        out[t] = {c["name"]: c["checks"] for c in cands}
    return out


# ---------------------------------------------------------------------------- the record and its reader


def extension_problem(rec: dict) -> str | None:
    """Why ``rec`` is not a usable extension record (the field named); None if it is.

    Parameters
    ----------
    rec : dict
        A record.

    Returns
    -------
    str or None
        The problem, or None.

    Examples
    --------
    >>> extension_problem({}), extension_problem({"extension": []})
    ("field 'extension' is missing", "field 'extension' must be an object")
    """
    from petheory.io import field_problem

    if not isinstance(rec.get("extension"), dict):
        return "field 'extension' is missing" if "extension" not in rec else "field 'extension' must be an object"
    for path, kind in (("extension.base", "number"), ("extension.head_dim", "int"), ("extension.train_context", "int"),
                       ("extension.train_seq_len", "int"), ("extension.reference_acc", "number"),
                       ("extension.threshold", "number"), ("extension.targets", "object")):
        if field_problem(rec, path, kind):
            return field_problem(rec, path, kind)
    ext = rec["extension"]
    if not ext["targets"]:
        return "field 'extension.targets' must name at least one target"
    for t, entry in ext["targets"].items():
        at = f"extension.targets.{t}"
        if not t.isdigit():
            return f"field 'extension.targets' has the key {t!r:.30}; its keys are target contexts such as '128'"
        for path, kind in ((f"{at}.seq_len", "int"), (f"{at}.candidates", "object")):
            if field_problem(rec, path, kind):
                return field_problem(rec, path, kind)
        for name, cand in entry["candidates"].items():
            cat = f"{at}.candidates.{name}"
            for path, kind in ((f"{cat}.spec", None), (f"{cat}.checks", "object"),
                               *((f"{cat}.{g}.effective_length", "int") for g in REGIMES),
                               *((f"{cat}.{g}.by_length", "object") for g in REGIMES)):
                if kind is None:
                    if not isinstance(cand.get("spec"), str):
                        return f"field {path!r} must be text"
                elif field_problem(rec, path, kind):
                    return field_problem(rec, path, kind)
            for c in CHECKS:
                if field_problem(rec, f"{cat}.checks.{c}", "bool"):
                    return field_problem(rec, f"{cat}.checks.{c}", "bool")
            for g in REGIMES:
                e = cand[g]["effective_length"]
                if not 0 <= e <= int(t):
                    return f"field '{cat}.{g}.effective_length' must lie in [0, {t}], got {e}"
    return None


def read_record(path) -> dict:
    """One extension record file, checked.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    dict
        The record.

    Raises
    ------
    petheory.errors.ValidationError
        ``'<path>: <what is wrong, field named>'`` when it is not a usable training or extension record.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from petheory.io import atomic_write_json
    >>> rec = {"task": "passkey", "pe": "rope", "seed": 0, "train_len": 32, "config": {},
    ...        "final": {"train": {"loss": 0.1}, "test": {"32": {"loss": 0.1}}}}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     read_record(atomic_write_json(pathlib.Path(tmp) / "r.json", rec))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...r.json: not a usable extension record (field 'extension' is missing)
    """
    from petheory import records

    rec = records.read(path)
    problem = extension_problem(rec)
    if problem:
        raise ValidationError(f"{path}: not a usable extension record ({problem})")
    return rec


def load_records(root=".", *, task: str = "passkey") -> tuple[list[dict], list]:
    """Every extension record of ``task``: this machine's first, then the shipped ones; one per seed, the first found wins.

    This machine's are ``<runs>/extension-lengths-records``; the shipped ones ``records/extension_lengths`` of
    :func:`petheory.records.roots`.

    Parameters
    ----------
    root : str or os.PathLike, optional
        The working directory.
    task : str, optional
        The retrieval task.

    Returns
    -------
    records : list of dict
        The records.
    skipped : list of (str, str)
        Files that are not usable records, and why.

    Examples
    --------
    >>> import os, tempfile
    >>> saved = os.environ.get("PETHEORY_RECORDS"); os.environ["PETHEORY_RECORDS"] = ""  # runs/ alone: no shipped records
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(load_records(tmp))
    ([], [])
    >>> _ = os.environ.pop("PETHEORY_RECORDS"); os.environ.update({} if saved is None else {"PETHEORY_RECORDS": saved})
    """
    from petheory import records

    runs = records.runs_dir(root)
    where = [runs / "extension-lengths-records"] + [r / "extension_lengths" for r in records.roots(root) if r != runs]
    found = records.find(task, root, where=[w for w in where if w.is_dir()], check=extension_problem)
    out: dict = {}
    for r in found.records:
        out.setdefault((setup_key(r), r["seed"]), r)
    return list(out.values()), list(found.skipped)


def of_setup(recs: list[dict], setup: ExtensionSetup | None = None) -> tuple[list[dict], list[str]]:
    """The records of ``setup`` (default: the pre-registered :class:`ExtensionSetup`; seeds aside) and the paths of the
    others (a smoke run left in ``runs/``), which the claims and the figure do not read.

    Parameters
    ----------
    recs : list of dict
        Extension records.
    setup : ExtensionSetup, optional
        The sweep.

    Returns
    -------
    records : list of dict
        Those of ``setup``.
    others : list of str
        Where the others came from.

    Examples
    --------
    >>> of_setup([{"extension": {"setup": {"base": 1.0}}, "seed": 0}])
    ([], ['seed 0'])
    """
    want = setup_key({"extension": {"setup": (setup or ExtensionSetup()).as_dict()}})
    return ([r for r in recs if setup_key(r) == want],
            [r.get("_path", f"seed {r['seed']}") for r in recs if setup_key(r) != want])


def setup_key(rec: dict) -> str:
    """The record's setup without its seeds, as text: records of one sweep share it (a smoke run does not).

    Parameters
    ----------
    rec : dict
        An extension record.

    Returns
    -------
    str
        The key.

    Examples
    --------
    >>> setup_key({"extension": {"setup": {"seeds": [0, 1], "base": 500}}})
    '{"base": 500}'
    """
    import json

    setup = rec["extension"].get("setup") or {}
    return json.dumps({k: v for k, v in setup.items() if k != "seeds"}, sort_keys=True)


# ---------------------------------------------------------------------------- training (torch from here on)


def run_name(setup: ExtensionSetup, seed: int) -> str:
    """The run folder's name of seed ``seed`` of a sweep.

    Parameters
    ----------
    setup : ExtensionSetup
        The sweep.
    seed : int
        The seed.

    Returns
    -------
    str
        ``<task>__rope-base=<base>__s<seed>``.

    Examples
    --------
    >>> run_name(ExtensionSetup(), 0)
    'passkey__rope-base=500__s0'
    """
    return f"{setup.task}__rope-base={setup.base:g}__s{seed}"


def make_record(setup: ExtensionSetup, seed: int, *, device: str = "cpu", runs_dir=None, records_dir=None,
                log=None) -> dict:
    """Pre-train (or resume) seed ``seed``, extend it by every candidate and regime (resuming per entry), write its record.

    Parameters
    ----------
    setup : ExtensionSetup
        The sweep.
    seed : int
        The seed.
    device : str, optional
        Where to train.
    runs_dir : path, optional
        Training runs (default ``<runs>/extension-lengths``).
    records_dir : path, optional
        Records (default ``<runs>/extension-lengths-records``).
    log : callable, optional
        Called with a line per step done.

    Returns
    -------
    dict
        The record.

    Examples
    --------
    >>> rec = make_record(ExtensionSetup(size="smoke"), 0)  # doctest: +SKIP
    """
    from petheory.experiments.context_extension import finetune, swap_rotary
    from petheory.experiments.retrieval_runs import evaluate_lengths
    from petheory.io import atomic_write_json, read_json
    from petheory.nn.presets import preset
    from petheory.nn.training import load_model, train
    from petheory.records import runs_dir as default_runs_dir

    setup.validate()
    runs_dir = default_runs_dir() / "extension-lengths" if runs_dir is None else Path(runs_dir)
    records_dir = default_runs_dir() / "extension-lengths-records" if records_dir is None else Path(records_dir)
    name = run_name(setup, seed)
    cfg = preset(setup.task, setup.size, pe=f"rope:base={setup.base!r}", seed=seed, device=device, **dict(setup.overrides))
    run = runs_dir / name
    t0 = time.perf_counter()
    rec = train(cfg, out_dir=run)
    model, _ = load_model(run, device=device)
    L_seq = int(model.cfg.train_len)  # the longest training sequence in tokens: plan's original context
    L = int(rec["train_len"])  # the task's training context (tokens before the query)
    extra = L_seq - L  # tokens a sequence has beyond its context (the query and answer the model reads)
    metric = METRIC[setup.task]
    head_dim = model.cfg.d_model // model.cfg.n_head
    ref = evaluate_lengths(model, cfg.task, [L], train_seq_len=L_seq)["by_length"][str(L)][metric]
    threshold = THRESHOLD_FRACTION * ref
    targets = {}
    for f in setup.factors:
        target = f * L
        lens = contexts(setup, L, target)
        steps = max(1, setup.ft_tokens // (setup.ft_batch * target))
        ft_setup = {"steps": steps, "batch_size": setup.ft_batch, "lr": setup.ft_lr, "slots": steps * setup.ft_batch * target}
        cands = {}
        for c in plan_candidates(setup.base, head_dim, L_seq, target + extra, setup.candidates):
            entry = {"spec": c["spec"], "params": c["params"], "checks": c["checks"], "check_details": c["check_details"]}
            for regime in REGIMES:
                path = run / "entries" / f"{target}__{c['name']}__{regime}__{steps}.json"
                if path.is_file():
                    entry[regime] = read_json(path)
                    continue
                t1 = time.perf_counter()
                if regime == "training_free":
                    m, info = swap_rotary(model, c["spec"], train_len=L_seq, matched=False), None
                else:
                    m, info = finetune(model, cfg.task, c["spec"], length=target, steps=steps, train_len=L_seq,
                                       lr=setup.ft_lr, batch_size=setup.ft_batch, seed=seed, device=device)
                by = evaluate_lengths(m, cfg.task, lens, train_seq_len=L_seq)["by_length"]
                res = {"by_length": by, "finetune": info,
                       "effective_length": effective_length({k: v[metric] for k, v in by.items()}, threshold, target),
                       "seconds": round(time.perf_counter() - t1, 2)}
                atomic_write_json(path, res)
                entry[regime] = res
                if log:
                    log(f"  {name} x{f} {c['name']:13s} {regime:13s} eff {res['effective_length']:4d} "
                        + " ".join(f"{k}:{v[metric]:.2f}" for k, v in by.items()))
            cands[c["name"]] = entry
        targets[str(target)] = {"factor": f, "seq_len": target + extra, "contexts": lens, "finetune": ft_setup,
                                "candidates": cands}
    rec["extension"] = {"setup": setup.as_dict(), "base": float(setup.base), "head_dim": int(head_dim),
                        "train_context": L, "train_seq_len": L_seq, "metric": metric, "reference_acc": float(ref),
                        "threshold_fraction": THRESHOLD_FRACTION, "threshold": float(threshold), "targets": targets,
                        "wall_seconds": round(time.perf_counter() - t0, 2), "device": rec["timing"]["device"],
                        "commit": rec.get("commit")}
    atomic_write_json(records_dir / f"{name}.json", rec)
    return rec


def main(argv=None) -> int:
    """``python -m petheory.experiments.extension_lengths [--records DIR] [--size small] [--seeds 0,1,2] [--device cpu]
    [--quiet]``: pre-train RoPE retrieval models, extend them by plan's candidates and write the records.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line).

    Returns
    -------
    int
        The exit code.

    Examples
    --------
    >>> main(["--size", "smoke", "--seeds", "0"])  # doctest: +SKIP
    """
    import argparse

    import torch

    p = argparse.ArgumentParser(prog="python -m petheory.experiments.extension_lengths",
                                description="pre-train RoPE retrieval models, extend them by plan's candidates and write "
                                "the effective-length records (default: runs/extension-lengths-records; the committed "
                                "ones only with --records records/extension_lengths)")
    p.add_argument("--records", default=None)
    p.add_argument("--device", default="cpu")
    p.add_argument("--size", default="small", choices=("smoke", "small", "paper"))
    p.add_argument("--task", default="passkey", choices=tuple(METRIC))
    p.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    args = p.parse_args(argv)
    try:
        seeds = tuple(int(s) for s in args.seeds.split(",") if s)
    except ValueError:
        p.error(f"--seeds takes integers separated by commas, got {args.seeds!r}")
    torch.set_num_threads(1 if args.device == "cpu" else torch.get_num_threads())
    setup = ExtensionSetup(task=args.task, size=args.size, seeds=seeds)
    try:
        setup.validate()
    except ValidationError as exc:
        p.error(str(exc))
    t0 = time.perf_counter()
    for seed in seeds:
        make_record(setup, seed, device=args.device, records_dir=args.records,
                    log=None if args.quiet else lambda s: print(s, flush=True))
    if not args.quiet:
        print(f"total {time.perf_counter() - t0:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
