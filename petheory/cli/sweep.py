"""``petheory sweep``: a grid of training runs, skipped when done, on a local or SLURM engine."""

from __future__ import annotations

import json

NAME = "sweep"
HELP = "train a grid of configs (grid file or flags) in-process, in a process pool, or as a SLURM array"
DESCRIPTION = (
    "Expand a grid (a JSON/TOML file, see petheory.sweep, or --task/--pe/--seeds flags) and train every run into "
    "OUT/<task>__<pe>__s<seed>__<hash>/. Finished runs are skipped by config hash; interrupted ones resume."
)


def add_arguments(p) -> None:
    p.add_argument("grid", nargs="?", metavar="GRID", help="grid file (.json or .toml); flags below add to / override it")
    p.add_argument("--task", action="append", help="task (repeatable)")
    p.add_argument("--pe", action="append", metavar="SPEC", help="position mechanism (repeatable)")
    p.add_argument("--preset", choices=("smoke", "small", "paper"), help="size preset (default: the grid's, else smoke)")
    p.add_argument("--seeds", type=int, nargs="+", metavar="S", help="seeds")
    p.add_argument("--device", help="cpu, cuda, cuda:N, mps or auto")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="override for every run; repeatable")
    p.add_argument("--out", required=True, metavar="DIR", help="sweep directory")
    p.add_argument("--engine", default="local", choices=("local", "process", "slurm"), help="default: local (in-process)")
    p.add_argument("--workers", type=int, help="process engine: number of worker processes")
    p.add_argument("--ensemble", action="store_true", help="train runs that differ only in seed at once (torch.func)")
    p.add_argument("--slurm", action="append", metavar="KEY=VALUE",
                   help="submitit/SLURM option, e.g. partition=gpu, timeout_min=60, gpus_per_node=1; repeatable")
    p.add_argument("--dry-run", action="store_true", help="list the runs and whether they are done, train nothing")
    p.add_argument("--json", metavar="FILE", help="write all records as a JSON list ('-' for stdout)")
    p.add_argument("--threads", type=int, help="torch CPU threads in this process (default: 1 when every run is a "
                                               "smoke preset, else torch's default)")


def run(args) -> int:
    from petheory import sweep
    from petheory.cli._console import console as make_console
    from petheory.cli.train import parse_sets
    from petheory.io import atomic_write_json

    spec = sweep.load_grid(args.grid) if args.grid else {}
    for key, val in (("task", args.task), ("pe", args.pe), ("seed", args.seeds), ("preset", args.preset), ("device", args.device)):
        if val:
            spec[key] = val
    spec.setdefault("set", {}).update(parse_sets(args.set))
    if args.workers is not None and args.workers < 1:
        raise ValueError(f"--workers must be >= 1, got {args.workers}")
    configs = sweep.expand(spec)
    if args.threads is not None and args.threads < 1:
        raise ValueError(f"--threads must be >= 1, got {args.threads}")
    presets = spec.get("preset", "smoke")
    if args.threads or set(presets if isinstance(presets, list) else [presets]) == {"smoke"}:
        import torch

        torch.set_num_threads(args.threads or 1)
    if args.device:
        from petheory.nn.train import resolve_device

        resolve_device(args.device)
    console = make_console(quiet=args.quiet, stderr=args.json == "-")
    if args.dry_run:
        for c in configs:
            state = "done" if sweep.is_done(args.out, c) else "todo"
            print(f"{state}\t{sweep.run_dir(args.out, c)}")
        return 0
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=make_console(stderr=True, quiet=args.quiet), transient=True) as bar:
        task = bar.add_task("sweep", total=len(configs))

        def progress(done, total, rec):
            bar.update(task, completed=done, description=f"sweep: last {rec['task']} {rec['pe']} s{rec['seed']}")

        records = sweep.run(configs, args.out, engine=args.engine, workers=args.workers, ensemble=args.ensemble,
                            slurm=parse_sets(args.slurm), progress=progress)
    if args.json == "-":
        print(json.dumps(records, indent=2))
    elif args.json:
        atomic_write_json(args.json, records)
    if not args.quiet:
        from rich.table import Table

        rows = sweep.summary(records)
        t = Table(title=f"sweep {args.out}: {len(records)} runs")
        tests = sorted({k for r in rows for k in r if k.startswith("test@")}, key=lambda k: int(k[5:]))
        cols = ["task", "pe", "seed", "metric", "train", *tests]
        for c in cols:
            t.add_column(c)
        for r in rows:
            t.add_row(*(f"{r[c]:.4g}" if isinstance(r.get(c), float) else str(r.get(c, "")) for c in cols))
        console.print(t)
    return 0
