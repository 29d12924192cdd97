"""A trained RoPE run evaluated at longer lengths with each context-extension method swapped in (``petheory extend``).

The method replaces the trained angles (:func:`petheory.experiments.context_extension.swap_rotary`), optionally after
a short fine-tune (:func:`petheory.experiments.context_extension.finetune`); :func:`extend_run` gives an
:class:`ExtensionRecord`, which prints its table.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

from petheory._validate import Each, Interval, validate_params
from petheory.analyses.record import Record, item
from petheory.errors import ParameterError, ValidationError
from petheory.experiments.context_extension import finetune, method_params, swap_rotary
from petheory.experiments.retrieval_runs import METRIC, evaluate_lengths


@dataclass(frozen=True)
class ExtensionRecord(Record):
    """A trained RoPE run evaluated at longer lengths with each method swapped in (:func:`extend_run`).

    Attributes
    ----------
    run : str
        The run folder.
    task, pe : str
        The run's task and trained encoding.
    train_seq_len : int
        The longest training sequence in tokens (each method's original context).
    metric : str
        The metric the table shows (``seq_acc`` for passkey, else ``token_acc``).
    lengths : list of int
        The context lengths evaluated.
    methods : dict
        Method spec -> ``{"finetune": info or None, "by_length": {N: metrics}, "grid": {N: {depth: seq_acc}}}``
        (:func:`petheory.experiments.retrieval_runs.evaluate_lengths`).
    finetune_steps : int
        Fine-tuning steps before each evaluation (0: none); not in the JSON (each method's ``finetune`` says it).
    finetune_length : int
        The fine-tuning context length; not in the JSON.
    depths : list of float or None
        Passkey depths of the length x depth grid; not in the JSON (the grid's keys say them).
    """

    run: str
    task: str
    pe: str
    train_seq_len: int
    metric: str
    lengths: list
    methods: dict
    finetune_steps: int = item(default=0, json=False)
    finetune_length: int = item(default=0, json=False)
    depths: list | None = item(default=None, json=False)

    def lines(self) -> list[str]:
        """The metric by method and length, the angle bands out of range at the longest length, the passkey grid.

        Returns
        -------
        list of str
        """
        out = [f"{self.task} run {self.run} (RoPE, longest training sequence {self.train_seq_len} tokens): {self.metric} "
               "by context length" + (f", after {self.finetune_steps} fine-tuning steps at {self.finetune_length}"
                                      if self.finetune_steps else "")]
        w = max(len(m) for m in self.methods)
        out.append(f"{'method':{w}s} " + " ".join(f"{N:>7d}" for N in self.lengths) + "   bands out of range at the longest")
        for m, r in self.methods.items():
            cells = " ".join(f"{r['by_length'][str(N)][self.metric]:7.3f}" for N in self.lengths)
            cov = r["by_length"][str(self.lengths[-1])].get("coverage") or {}
            out.append(f"{m:{w}s} {cells}   {cov.get('out_of_range', '-')}/{cov.get('bands', '-')}")
        for m, r in self.methods.items() if self.depths else ():
            out.append(f"{m}: passkey seq_acc by depth (rows: length)")
            out += [f"  {N:6d} " + " ".join(f"{r['grid'][str(N)][f'{d:g}']:5.2f}" for d in self.depths)
                    for N in self.lengths]
        return out


#: The methods :func:`extend_run` evaluates when given none: the trained angles and three scalings.
METHODS = ("rope", "rope_pi", "rope_ntk", "rope_yarn")


@validate_params({
    "methods": [list, tuple, None],
    "lengths": [Each(Interval(Integral, 1, None)), None],
    "depths": [Each(Interval(Real, 0, 1)), None],  # 0: the key right after BOS, 1: right before the query
    "finetune_steps": [Interval(Integral, 0, None)],
    "finetune_length": [Interval(Integral, 1, None), None],
    "device": [str],
})
def extend_run(run_dir, methods=None, *, lengths=None, depths=None, finetune_steps: int = 0,
               finetune_length: int | None = None, device: str = "cpu") -> ExtensionRecord:
    """Evaluate a run of ``petheory train`` (a causal LM task, trained with RoPE) at ``lengths`` with each method
    swapped in (:func:`swap_rotary`), after ``finetune_steps`` steps of :func:`finetune` where that is > 0.

    Parameters
    ----------
    run_dir : str or Path
        A run folder (``config.json`` and ``checkpoint.pt``).
    methods : sequence of str, optional
        Rotary PE specs (:func:`method_params`), every one checked before any work (default :data:`METHODS`).
    lengths : list of int, optional
        Context lengths (default: the task's test lengths).
    depths : list of float, optional
        Passkey only: depths in [0, 1] of the length x depth grid.
    finetune_steps : int
        Fine-tuning steps per method (0: swap only).
    finetune_length : int, optional
        Fine-tuning context length (default twice the task's training length).
    device : str
        cpu, cuda, cuda:N, mps or auto.

    Returns
    -------
    ExtensionRecord

    Raises
    ------
    petheory.errors.ParameterError
        A value its declaration refuses; ``depths`` for a run that is not passkey; a ``finetune_length`` not above the
        task's training length (with ``finetune_steps``).
    petheory.errors.ValidationError
        A task that is not a causal LM, a method that is not a rotary registry entry.
    FileNotFoundError
        ``run_dir`` is not a run folder.

    Examples
    --------
    A run of ``petheory train`` (``petheory extend RUN`` prints the table); a folder that is not one is refused before
    any work:

    >>> extend_run("no-such-run", ["rope_pi"])
    Traceback (most recent call last):
    ...
    FileNotFoundError: no-such-run is not a run directory (no config.json and checkpoint.pt); ...
    """
    import os
    from pathlib import Path

    from petheory.loaders.paths import regular_file
    from petheory.nn import tasks as _tasks
    from petheory.nn.training import CHECKPOINT, CONFIG, load_model, resolve_device

    methods = list(methods or METHODS)
    run_dir = Path(run_dir)
    if not all(os.path.lexists(run_dir / f) for f in (CONFIG, CHECKPOINT)):
        raise FileNotFoundError(f"{run_dir} is not a run directory (no {CONFIG} and {CHECKPOINT}); "
                                "petheory.nn.train (the `petheory train` command) writes both")
    for f in (CONFIG, CHECKPOINT):  # a FIFO or a link loop in a run folder: named, never waited on
        regular_file(run_dir / f, what="run file")
    resolve_device(device)
    model, cfg = load_model(run_dir, device=device)
    if model.cfg.head != "lm":
        kind = {"classifier": "classification", "regression": "regression"}.get(model.cfg.head, model.cfg.head)
        raise ValidationError(f"petheory extend evaluates causal LM tasks (passkey, mqar, copy, ...); {cfg.task.name} is a "
                              f"{kind} task")
    L_seq = int(model.cfg.train_len)
    for m in methods:  # every spec checked before any work: one line for a bad one
        method_params(model, m, train_len=L_seq)
    p = _tasks.resolve_params(cfg.task.name, cfg.task.params)
    lengths = list(lengths) if lengths else list(p["test_lens"])
    if depths and cfg.task.name != "passkey":
        raise ParameterError("depths", f"left out of a {cfg.task.name} run (the length x depth grid is a passkey run's)",
                             depths, owner=extend_run)
    if finetune_steps and finetune_length is not None and finetune_length <= p["train_len"]:
        raise ParameterError("finetune_length", f"> the training length {p['train_len']} (a longer context)",
                             finetune_length, owner=extend_run)
    ft_len = finetune_length or 2 * p.get("train_len", 0)
    metric = METRIC.get(cfg.task.name, "token_acc")
    out = {}
    for m in methods:
        ft = None
        if finetune_steps:
            tuned, ft = finetune(model, cfg.task, m, length=ft_len, steps=finetune_steps, train_len=L_seq, seed=cfg.seed,
                                 device=device)
        else:
            tuned = swap_rotary(model, m, train_len=L_seq)
        out[m] = {"finetune": ft, **evaluate_lengths(tuned, cfg.task, lengths, train_seq_len=L_seq, depths=depths)}
    return ExtensionRecord(str(run_dir), cfg.task.name, str(model.pe), L_seq, metric, lengths, out,
                           finetune_steps=finetune_steps, finetune_length=ft_len, depths=depths)
