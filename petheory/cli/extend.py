"""``petheory extend``: evaluate a trained RoPE run at longer lengths with a context-extension method swapped in."""

from __future__ import annotations

import json
from petheory.errors import ValidationError

NAME = "extend"
HELP = "evaluate a trained RoPE run at longer lengths with PI/NTK/YaRN/... swapped in, optionally after a short fine-tune"
DESCRIPTION = (
    "Load a run trained with `petheory train TASK --pe rope --out DIR` and evaluate it at each --lengths with each "
    "--method (any rotary registry entry, in the PE grammar) in place of its trained angles; the weights are the "
    "trained ones. Without scale=, a method's factor is matched to each length, s = (T-1)/(L-1). With "
    "--finetune-steps, each method is first fine-tuned that many steps at --finetune-length with s = "
    "finetune-length / train length. Passkey runs also get the length x depth grid with --depths."
)


def add_arguments(p) -> None:
    from petheory.spec import GRAMMAR

    p.add_argument("run", metavar="RUN_DIR", help="a run directory of `petheory train` (config.json + checkpoint.pt)")
    p.add_argument("--method", action="append", metavar="SPEC",
                   help="a rotary registry entry: rope (the trained angles), rope_pi, rope_ntk, rope_yarn, 'rope_pi:scale=4', "
                        f"... ; repeatable (default: rope, rope_pi, rope_ntk, rope_yarn). {GRAMMAR}")
    p.add_argument("--lengths", metavar="N,N,...", help="context lengths (default: the task's test lengths)")
    p.add_argument("--depths", metavar="D,D,...", help="passkey only: depths in [0, 1] for the length x depth grid")
    p.add_argument("--finetune-steps", type=int, default=0, metavar="K", help="fine-tune each method K steps first (default 0)")
    p.add_argument("--finetune-length", type=int, metavar="N", help="fine-tuning context length (default 2x the training one)")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON to FILE ('-' for stdout)")
    p.add_argument("--device", default="cpu", help="cpu, cuda, cuda:N, mps or auto (default: cpu)")


def _ints(text: str, what: str) -> list[int]:
    try:
        vals = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValidationError(f"--{what} must be comma-separated integers such as 32,64,128, got {text!r}") from None
    if not vals or min(vals) < 1:
        raise ValidationError(f"--{what} must be positive integers such as 32,64,128, got {text!r}")
    return vals


def _floats(text: str) -> list[float]:
    try:
        vals = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValidationError(f"--depths must be comma-separated numbers in [0, 1] such as 0,0.5,1, got {text!r}") from None
    if not vals or any(not 0.0 <= d <= 1.0 for d in vals):
        raise ValidationError(f"--depths must be numbers in [0, 1] (0: key right after BOS, 1: right before the query), got {text!r}")
    return vals


def run(args) -> int:
    import os
    from pathlib import Path

    from petheory.loaders.paths import regular_file

    from petheory.io import atomic_write_json
    from petheory.experiments.context_extension import finetune, method_params, swap_rotary
    from petheory.experiments.retrieval_runs import METRIC, evaluate_lengths
    from petheory.nn.training import CHECKPOINT, CONFIG, load_model, resolve_device

    run_dir = Path(args.run)
    if not all(os.path.lexists(run_dir / f) for f in (CONFIG, CHECKPOINT)):
        raise FileNotFoundError(f"{run_dir} is not a run directory (no {CONFIG} and {CHECKPOINT}); "
                                "train one with `petheory train passkey --pe rope --out DIR`")
    for f in (CONFIG, CHECKPOINT):  # a FIFO or a link loop in a run folder: named, never waited on
        regular_file(run_dir / f, what="run file")
    if args.finetune_steps < 0:
        raise ValidationError(f"--finetune-steps must be >= 0, got {args.finetune_steps}")
    resolve_device(args.device)
    model, cfg = load_model(run_dir, device=args.device)
    if model.cfg.head != "lm":
        kind = {"classifier": "classification", "regression": "regression"}.get(model.cfg.head, model.cfg.head)
        raise ValidationError(f"petheory extend evaluates causal LM tasks (passkey, mqar, copy, ...); {cfg.task.name} is a "
                         f"{kind} task")
    methods = args.method or ["rope", "rope_pi", "rope_ntk", "rope_yarn"]
    L_seq = int(model.cfg.train_len)
    for m in methods:  # every spec checked before any work: one line for a bad one
        method_params(model, m, train_len=L_seq)
    from petheory.nn import tasks as _tasks

    p = _tasks.resolve_params(cfg.task.name, cfg.task.params)
    lengths = _ints(args.lengths, "lengths") if args.lengths else list(p["test_lens"])
    depths = _floats(args.depths) if args.depths else None
    if depths and cfg.task.name != "passkey":
        raise ValidationError(f"--depths applies to passkey runs; this run's task is {cfg.task.name}")
    ft_len = args.finetune_length or 2 * p.get("train_len", 0)
    metric = METRIC.get(cfg.task.name, "token_acc")
    out = {"run": str(run_dir), "task": cfg.task.name, "pe": str(model.pe), "train_seq_len": L_seq, "metric": metric,
           "lengths": lengths, "methods": {}}
    for m in methods:
        ft = None
        if args.finetune_steps:
            tuned, ft = finetune(model, cfg.task, m, length=ft_len, steps=args.finetune_steps, train_len=L_seq,
                                 seed=cfg.seed, device=args.device)
        else:
            tuned = swap_rotary(model, m, train_len=L_seq)
        out["methods"][m] = {"finetune": ft, **evaluate_lengths(tuned, cfg.task, lengths, train_seq_len=L_seq, depths=depths)}
    if args.json == "-":
        print(json.dumps(out, indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, out)
    if not args.quiet:
        print(f"{cfg.task.name} run {run_dir} (RoPE, longest training sequence {L_seq} tokens): {metric} by context length"
              + (f", after {args.finetune_steps} fine-tuning steps at {ft_len}" if args.finetune_steps else ""))
        w = max(len(m) for m in methods)
        print(f"{'method':{w}s} " + " ".join(f"{N:>7d}" for N in lengths) + "   bands out of range at the longest")
        for m, r in out["methods"].items():
            cells = " ".join(f"{r['by_length'][str(N)][metric]:7.3f}" for N in lengths)
            cov = r["by_length"][str(lengths[-1])].get("coverage") or {}
            print(f"{m:{w}s} {cells}   {cov.get('out_of_range', '-')}/{cov.get('bands', '-')}")
        if depths:
            for m, r in out["methods"].items():
                print(f"{m}: passkey seq_acc by depth (rows: length)")
                for N in lengths:
                    print(f"  {N:6d} " + " ".join(f"{r['grid'][str(N)][f'{d:g}']:5.2f}" for d in depths))
    return 0
