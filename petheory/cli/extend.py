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
    from petheory.experiments.extend import METHODS, extend_run
    from petheory.io import atomic_write_json

    rec = extend_run(args.run, args.method or METHODS, lengths=_ints(args.lengths, "lengths") if args.lengths else None,
                     depths=_floats(args.depths) if args.depths else None, finetune_steps=args.finetune_steps,
                     finetune_length=args.finetune_length, device=args.device)
    if args.json == "-":
        print(json.dumps(rec.as_dict(), indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, rec.as_dict())
    if not args.quiet:
        print(str(rec))
    return 0
