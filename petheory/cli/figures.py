"""``petheory figures``: render the bound-vs-empirical and spectral/geometric figures."""

from __future__ import annotations

NAME = "figures"
HELP = "render figures (PNG + the JSON they were drawn from) into a folder"


def add_arguments(p) -> None:
    p.add_argument("--out", default="figures", metavar="DIR", help="output folder (default: figures/)")
    p.add_argument("--only", metavar="GLOBS", help="comma-separated glob patterns of figure names")
    p.add_argument("--preset", default="quick", choices=("quick", "full"), help="quick: CPU-sized (default); full: paper-sized")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--list", action="store_true", help="list the figures and exit")


def run(args) -> int:
    from petheory import plots
    from petheory.cli._console import console

    plots.use_agg()
    figs = plots.select(args.only)
    if args.list:
        for f in figs:
            print(f"{f.name}\t{f.help}")
        return 0
    con = console(quiet=args.quiet)
    for f in figs:
        con.print(f"[bold]{f.name}[/bold]: {f.help}")
        for path in f.fn(args.out, preset=args.preset, seed=args.seed):
            con.print(f"  wrote {path}")
    return 0
