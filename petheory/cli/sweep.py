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
    from petheory.experiments import sweep
    from petheory.cli._console import console as make_console
    from petheory.cli._describe import describe_spec
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
    console = make_console(stderr=args.json == "-", quiet=args.quiet)  # -q silences only a table moved to stderr
    axes = varying_axes([c.as_dict() for c in configs])
    if args.dry_run:
        for c in configs:
            state = "done" if sweep.is_done(args.out, c) else "todo"
            flat = _flatten(c.as_dict())
            extra = " ".join(f"{k}={flat.get(k)}" for k in axes)
            print(f"{state}\t{sweep.run_dir(args.out, c)}" + (f"\t{extra}" if extra else ""))
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
    from rich.table import Table

    rows = sweep.summary(records)
    axes = varying_axes([r["config"] for r in records])  # every grid axis gets a column
    for r, rec in zip(rows, records):
        flat = _flatten(rec["config"])
        r.update({k: flat.get(k) for k in axes})
    t = Table(title=f"sweep {args.out}: {len(records)} runs")
    tests = sorted({k for r in rows for k in r if k.startswith("test@")}, key=lambda k: int(k[5:]))
    cols = ["task", "pe", "seed", *axes, "metric", "train", *tests]
    for c in cols:
        t.add_column(c)
    for r in rows:
        t.add_row(*(f"{r[c]:.4g}" if isinstance(r.get(c), float) else str(r.get(c, "")) for c in cols))
    console.print(t)
    means = sweep.seed_means(rows, keys=("task", "pe", *axes))
    if any(len(m["seeds"]) > 1 for m in means):  # the per-configuration numbers a reader compares
        t = Table(title="mean ± standard error over seeds, per configuration")
        mcols = ["task", "pe", *axes, "seeds", "metric", "train", *tests]
        for c in mcols:
            t.add_column(c)
        for m in means:
            t.add_row(*(_mean_se(m.get(c)) if isinstance(m.get(c), tuple) else
                        ",".join(map(str, m[c])) if c == "seeds" else str(m.get(c, "")) for c in mcols))
        console.print(t)
    return 0


def _mean_se(pair) -> str:
    mean, se = pair
    return f"{mean:.4g}" if se is None else f"{mean:.4g} ± {se:.2g}"


_SHOWN = {"task", "task.name", "model.pe", "seed"}  # columns the table always has


def _flatten(cfg: dict) -> dict:
    """A run's config as ``key -> value`` with the keys ``--set`` and grid files use (``task.n_train``, ``model.d_model``)."""
    out = {}
    for k, v in cfg.items():
        if k == "task" and isinstance(v, dict):
            out["task.name"], out["task.seed"] = v.get("name"), v.get("seed")
            out.update({f"task.{p}": x for p, x in (v.get("params") or {}).items()})
        elif k == "model" and isinstance(v, dict):
            out.update({f"model.{p}": x for p, x in v.items()})
        else:
            out[k] = v
    return out


def varying_axes(configs: list[dict]) -> list[str]:
    """Config keys whose values differ between runs (besides task, PE and seed): the grid's other axes."""
    flats = [_flatten(c) for c in configs]
    keys = list(dict.fromkeys(k for f in flats for k in f))
    return [k for k in keys if k not in _SHOWN
            and len({json.dumps(f.get(k), sort_keys=True, default=str) for f in flats}) > 1]
