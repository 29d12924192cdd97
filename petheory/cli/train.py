"""``petheory train``: train one small model on a paper's task with a chosen position mechanism."""

from __future__ import annotations

import json

from petheory.errors import ValidationError

NAME = "train"
HELP = "train one model (task, PE, size preset) with checkpoints; resumes when --out holds a checkpoint"
DESCRIPTION = (
    "Train a pluggable-position Transformer on TASK and write a JSON record (per-length evaluation, per-head "
    "ablation). A checkpoint is written to --out every epoch; rerunning the same command resumes from it, and a "
    "finished run is read back instead of retrained."
)


def _check_set_types(base: dict, over: dict) -> None:
    """``--set lr=abc``: say that lr is a number (the preset's value), not that 'abc' is not > 0."""
    for key, val in over.items():
        head, _, rest = key.partition(".")
        node = base.get(head) if rest else base
        if head == "task" and rest and rest != "seed":
            node = (node or {}).get("params", {})
        field = rest or head
        if not isinstance(node, dict) or field not in node:
            continue  # unknown keys are the preset's to report
        cur = node[field]
        # --set's text read as JSON against the preset's own value: the type the text spelled is the command line's to
        # check (the trainer takes the config object, whose fields are typed)
        if isinstance(cur, bool) and not isinstance(val, bool):
            raise ValidationError(f"--set {key}={val!r}: {key} is true or false (the preset has {str(cur).lower()})")
        if isinstance(cur, (int, float)) and not isinstance(cur, bool) and (isinstance(val, (str, bool)) or val is None):
            raise ValidationError(f"--set {key}={val!r}: {key} is a number (the preset has {cur!r}), got {type(val).__name__} {val!r}")


def add_arguments(p) -> None:
    """Declare ``petheory train``'s options on ``p``: the task, the PE, the preset and its overrides, the device and
    the outputs.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["copy", "--pe", "rope", "--preset", "smoke"]).pe
    'rope'
    """
    from petheory._threads import pick_threads
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.nn.presets import preset

    p.add_argument("task", help="running_sum, gu2025_task1, gu2025_task2, parity, copy, reverse, addition, passkey, mqar")
    add_pe(p, "mechanism", default="nope", note="default: nope; keys heads, slopes, trainable, latent, rope_dim, "
           "hint configure the mechanism, the others go to the encoding")
    p.add_argument("-d", "--d-model", type=int, metavar="D", help="model width (shorthand for --set model.d_model=D)")
    add_param(p, preset, "size", "--preset", help="size (default: smoke)")
    add_param(p, preset, "device", help="cpu, cuda, cuda:N, mps or auto (default: cpu)")
    add_param(p, preset, "seed", help="model/batch-order seed (default: 0)")
    p.add_argument("--epochs", type=int, help="override the preset's number of epochs")
    p.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="override a setting: a TrainConfig field, model.<field> or task.<param>; repeatable")
    p.add_argument("--out", metavar="DIR", help="run directory (default: RUNS/<task>__<pe>__s<seed>__<hash>, RUNS = "
                   "$PETHEORY_RUNS, else runs/)")
    p.add_argument("--resume", action="store_true", help="require a checkpoint in --out (error if there is none)")
    p.add_argument("--json", metavar="FILE", help="also write the record to FILE ('-' for stdout)")
    add_param(p, pick_threads, "threads",
              help="torch CPU threads (default: 1 for the smoke preset, whose tiny matmuls only lose to threading; "
                        "else the cores no other process is using at start, so a busy machine never runs more threads "
                        "than it has free cores; the record's timing.threads says how many). Losses can differ in the "
                        "last bits between thread counts: pass --threads to fix them")


def run(args) -> int:
    """Train one model (:func:`petheory.nn.training.train`) into ``args.out`` and print its record.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("train").parse_args(["train", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> import contextlib, io
    >>> args = build_parser("train").parse_args(["train", "copy", "--preset", "smoke", "--epochs", "1", "--out", tmp])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0].split(" · ")[:3]
    (0, ['copy', 'pe=nope', 'seed 0'])
    """
    import torch

    from petheory.experiments import sweep
    from petheory._threads import pick_threads
    from petheory.analyses.describe import describe_spec
    from petheory.cli._sets import parse_sets
    from petheory.io import atomic_write_json
    from petheory.nn import preset, train
    from petheory.nn.training import CHECKPOINT, RECORD, load_checkpoint
    from petheory.records import runs_dir
    from petheory.spec import parse_pe_spec

    from petheory.cli._console import console as make_console

    torch.set_num_threads(pick_threads(args.threads or (1 if args.size == "smoke" else None)))
    over = parse_sets(args.set)
    if args.epochs is not None:
        over["epochs"] = args.epochs
    if args.d_model is not None:
        over["model.d_model"] = args.d_model
    pe = parse_pe_spec(args.pe)  # parsed once, passed down as a PESpec
    _check_set_types(preset(args.task, args.size, pe=pe, seed=args.seed, device=args.device).as_dict(), over)
    cfg = preset(args.task, args.size, pe=pe, seed=args.seed, device=args.device, **over)
    from petheory.nn.training import resolve_device

    resolve_device(cfg.device)  # fail before any work when the device is absent
    from pathlib import Path

    out = Path(args.out) if args.out else sweep.run_dir(runs_dir(), cfg)
    err = make_console(stderr=True, quiet=args.quiet)
    ckpt = out / CHECKPOINT
    if args.resume and not ckpt.is_file():
        raise FileNotFoundError(f"--resume: no checkpoint at {ckpt}")
    if ckpt.is_file() and not (out / RECORD).is_file():
        st = load_checkpoint(ckpt)  # corrupt -> ValueError, one line
        err.print(f"resuming {out} from epoch {st['epoch']}/{cfg.epochs}")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from petheory.cli._progress import Lines, is_terminal, plain_lines_wanted

    lines = Lines("train", quiet=not plain_lines_wanted(args.quiet))  # not a terminal: one line per epoch
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("loss {task.fields[loss]}"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not is_terminal()) as bar:
        task = bar.add_task(f"{args.task} {cfg.model.pe}", total=None, loss="-")

        def progress(ev):
            if ev["event"] == "epoch":
                lines.step(ev["epoch"], ev["epochs"], f"epochs of {args.task} {cfg.model.pe}: train loss {ev['loss']:.4g}")
            if ev["event"] == "step":
                bar.update(task, total=ev["steps"] * ev["epochs"], completed=(ev["epoch"] - 1) * ev["steps"] + ev["step"],
                           description=f"{args.task} {cfg.model.pe} epoch {ev['epoch']}/{ev['epochs']}", loss=f"{ev['loss']:.4g}")

        rec = train(cfg, out, progress=None if args.quiet else progress)
    rec = {**rec, "resolved_encoding": describe_spec(cfg.model.pe, d=cfg.model.d_model // cfg.model.n_head)}
    if args.json == "-":
        print(json.dumps(rec, indent=2))
    elif args.json:
        atomic_write_json(args.json, rec)
    # results print even with -q; with --json - stdout is the JSON alone; the table goes to stderr
    from petheory.cli._console import show_view
    from petheory.nn.training import record_view

    show_view(record_view(rec), stderr=args.json == "-", quiet=args.quiet)  # -q silences only a table moved to stderr
    make_console(stderr=args.json == "-", quiet=args.quiet).print(f"record: {out / RECORD}", markup=False)
    return 0
