"""``petheory extend``: evaluate a trained RoPE run at longer lengths with a context-extension method swapped in."""

from __future__ import annotations

import json

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
    """Declare ``petheory extend``'s options on ``p``: the run folder and what each method is evaluated at (from
    :func:`petheory.experiments.extend.extend_run`' declaration).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["runs/passkey-rope", "--lengths", "16,32"]).lengths
    (16, 32)
    """
    from petheory.cli._params import add_param
    from petheory.experiments.extend import extend_run
    from petheory.spec import GRAMMAR

    p.add_argument("run", metavar="RUN_DIR", help="a run directory of `petheory train` (config.json + checkpoint.pt)")
    p.add_argument("--method", action="append", dest="methods", metavar="SPEC",
                   help="a rotary registry entry: rope (the trained angles), rope_pi, rope_ntk, rope_yarn, 'rope_pi:scale=4', "
                        f"... ; repeatable (default: rope, rope_pi, rope_ntk, rope_yarn). {GRAMMAR}")
    add_param(p, extend_run, "lengths", metavar="N,N,...", help="context lengths (default: the task's test lengths)")
    add_param(p, extend_run, "depths", metavar="D,D,...", help="passkey only: depths in [0, 1] for the length x depth "
              "grid (0: the key right after BOS, 1: right before the query)")
    add_param(p, extend_run, "finetune_steps", metavar="K", help="fine-tune each method K steps first (default 0)")
    add_param(p, extend_run, "finetune_length", metavar="N", help="fine-tuning context length (default 2x the training "
              "one)")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON to FILE ('-' for stdout)")
    add_param(p, extend_run, "device", help="cpu, cuda, cuda:N, mps or auto (default: cpu)")


def run(args) -> int:
    """Evaluate the trained run ``args.run`` with each method swapped in
    (:func:`petheory.experiments.extend.extend_run`) and print its table (or write it).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("extend").parse_args(["extend", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> run(build_parser("extend").parse_args(["extend", "no-such-run"]))
    Traceback (most recent call last):
    ...
    FileNotFoundError: no-such-run is not a run directory (no config.json and checkpoint.pt); ...
    """
    from petheory.experiments.extend import extend_run
    from petheory.io import atomic_write_json

    rec = extend_run(args.run, args.methods, lengths=args.lengths, depths=args.depths,
                     finetune_steps=args.finetune_steps, finetune_length=args.finetune_length, device=args.device)
    if args.json == "-":
        print(json.dumps(rec.as_dict(), indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, rec.as_dict())
    if not args.quiet:
        print(str(rec))
    return 0
