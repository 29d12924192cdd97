"""``petheory sweep``: a grid of training runs, skipped when done, on a local or SLURM engine."""

from __future__ import annotations

import json

NAME = "sweep"
HELP = "train a grid of configs (grid file or flags) in-process, in a process pool, or as a SLURM array"
DESCRIPTION = (
    "Expand a grid (a JSON/TOML file, see petheory.experiments.sweep, or --task/--pe/--seeds flags) and train every run into "
    "OUT/<task>__<pe>__s<seed>__<hash>/. Finished runs are skipped by config hash; interrupted ones resume."
)


def add_arguments(p) -> None:
    """Declare ``petheory sweep``'s options on ``p``: the grid (tasks, PEs, seeds, preset, overrides), the engine and
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
    >>> p.parse_args(["--task", "copy", "--pe", "rope", "--seeds", "0", "1", "--out", "runs/sweep"]).seeds
    [0, 1]
    """
    from petheory._threads import pick_threads
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.experiments import sweep

    p.add_argument("grid", nargs="?", metavar="GRID", help="grid file (.json or .toml); flags below add to / override it")
    p.add_argument("--task", action="append", help="task (repeatable)")
    add_pe(p, "mechanism", several=True, note="as `petheory train --pe`")
    p.add_argument("-d", "--d-model", type=int, metavar="D", help="model width of every run (--set model.d_model=D)")
    p.add_argument("--preset", choices=("smoke", "small", "paper"), help="size preset (default: the grid's, else smoke)")
    p.add_argument("--seeds", type=int, nargs="+", metavar="S", help="seeds")
    p.add_argument("--device", help="cpu, cuda, cuda:N, mps or auto")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="override for every run; repeatable")
    p.add_argument("--out", required=True, metavar="DIR", help="sweep directory")
    add_param(p, sweep.run, "engine", help="default: local (in-process)")
    add_param(p, sweep.run, "workers", help="process engine: number of worker processes")
    p.add_argument("--ensemble", action="store_true", help="train runs that share task, schedule and optimiser as one grid (petheory.experiments.grid); each group is one unit of work of --engine (one SLURM array task, one pool job)")
    p.add_argument("--slurm", action="append", metavar="KEY=VALUE",
                   help="submitit/SLURM option, e.g. partition=gpu, timeout_min=60, gpus_per_node=1; repeatable")
    p.add_argument("--dry-run", action="store_true", help="list the runs and whether they are done, train nothing")
    p.add_argument("--json", metavar="FILE", help="write all records as a JSON list ('-' for stdout)")
    add_param(p, pick_threads, "threads", help="torch CPU threads in this process (default: 1 when every run is a "
                                              "smoke preset, else the cores no other process is using at start)")


def run(args) -> int:
    """Train the grid's runs on the chosen engine, skipping those already done (or list them with ``--dry-run``), and
    print the summary.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("sweep").parse_args(["sweep", ...])``).

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
    >>> args = build_parser("sweep").parse_args(["sweep", "--task", "copy", "--pe", "rope", "--seeds", "0", "--out", tmp, "--dry-run"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0].split()[0]
    (0, 'todo')
    """
    from petheory.experiments import sweep
    from petheory.cli._console import console as make_console
    from petheory.analyses.describe import describe_spec
    from petheory.cli._sets import parse_sets
    from petheory.io import atomic_write_json
    from petheory.spec import parse_pe_spec

    spec = sweep.load_grid(args.grid) if args.grid else {}
    pes = [parse_pe_spec(v) for v in args.pe or ()]  # parsed once, passed down as PESpec objects
    for key, val in (("task", args.task), ("pe", pes), ("seed", args.seeds), ("preset", args.preset), ("device", args.device)):
        if val:
            spec[key] = val
    spec.setdefault("set", {}).update(parse_sets(args.set))
    if args.d_model is not None:
        spec["set"]["model.d_model"] = args.d_model
    configs = sweep.expand(spec)
    presets = spec.get("preset", "smoke")
    smoke = set(presets if isinstance(presets, list) else [presets]) == {"smoke"}
    if args.threads or smoke or args.engine == "local":
        import torch

        from petheory._threads import pick_threads

        torch.set_num_threads(pick_threads(args.threads or (1 if smoke else None)))
    if args.device:
        from petheory.nn.training import resolve_device

        resolve_device(args.device)
    if args.dry_run:
        for line in sweep.plan_lines(configs, args.out):
            print(line)
        return 0
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from petheory.cli._progress import Lines, is_terminal, plain_lines_wanted

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=make_console(stderr=True, quiet=args.quiet), transient=True,
                  disable=not is_terminal()) as bar:
        task = bar.add_task("sweep", total=len(configs))

        lines = Lines("sweep", quiet=not plain_lines_wanted(args.quiet))

        def progress(done, total, rec):
            bar.update(task, completed=done, description=f"sweep: last {rec['task']} {rec['pe']} s{rec['seed']}")
            lines.step(done, total, f"finished {rec['task']} {rec['pe']} s{rec['seed']}")

        records = sweep.run(configs, args.out, engine=args.engine, workers=args.workers, ensemble=args.ensemble,
                            slurm=parse_sets(args.slurm), progress=progress)
    records = [{**r, "resolved_encoding": describe_spec(r["pe"], d=r["model"]["d_model"] // r["model"]["n_head"])}
               for r in records]
    if args.json == "-":
        print(json.dumps(records, indent=2))
    elif args.json:
        atomic_write_json(args.json, records)
    from petheory.cli._console import show_view

    show_view(sweep.summary_tables(records, args.out), stderr=args.json == "-", quiet=args.quiet)  # -q: only on stderr
    return 0
