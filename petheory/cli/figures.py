"""``petheory figures``: render the bound-vs-empirical and spectral/geometric figures."""

from __future__ import annotations

from petheory.errors import ValidationError

NAME = "figures"
HELP = "render figures (PNG + the JSON they were drawn from) into a folder"
DEFAULT_OUT = "results/figures"
COMMITTED = "figures"


def add_arguments(p) -> None:
    """Declare ``petheory figures``'s options on ``p``: the output folder, the figures selected, the preset and seed,
    and ``--list``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--only", "bounds.*", "--list"]).only
    'bounds.*'
    """
    p.add_argument("--out", default=None, metavar="DIR",
                   help=f"output folder (default: {DEFAULT_OUT}/)")
    p.add_argument("--update-committed", action="store_true",
                   help=f"regenerate the clone's committed {COMMITTED}/ folder (the figures the README shows)")
    p.add_argument("--only", metavar="GLOBS", help="comma-separated glob patterns of figure names")
    p.add_argument("--preset", default="quick", choices=("quick", "full"), help="quick: CPU-sized (default); full: paper-sized")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--list", action="store_true", help="list the figures and exit")


def committed_folder():
    """The clone's committed ``figures/`` (next to ``pyproject.toml``), or None outside a clone.

    Returns
    -------
    pathlib.Path or None
        The folder ``--update-committed`` writes to.

    Examples
    --------
    >>> folder = committed_folder()
    >>> folder is None or folder.name == "figures"
    True
    """
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    return root / COMMITTED if (root / "pyproject.toml").is_file() and (root / COMMITTED).is_dir() else None


def output_folder(args):
    """Where the figures go: ``--out``, else ``results/figures``; the committed folder only when asked.

    ``--update-committed`` and ``--out`` name the same thing (the folder written), so the two together are refused: a
    rule of the command line's grammar, not of a library parameter.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``out``, ``update_committed``).

    Returns
    -------
    str or pathlib.Path
        The output folder.

    Raises
    ------
    petheory.errors.ValidationError
        ``--update-committed`` with ``--out``, or outside a clone of petheory.

    Examples
    --------
    >>> import argparse
    >>> output_folder(argparse.Namespace(out=None, update_committed=False))
    'results/figures'
    """
    if args.update_committed:
        if args.out is not None:
            raise ValidationError(f"--update-committed writes to the clone's {COMMITTED}/; do not combine it with --out")
        folder = committed_folder()
        if folder is None:
            raise ValidationError(f"--update-committed needs a clone of petheory (no {COMMITTED}/ next to pyproject.toml)")
        return folder
    return args.out or DEFAULT_OUT


def run(args) -> int:
    """Draw the selected figures into the output folder (or list them).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("figures").parse_args(["figures", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("figures").parse_args(["figures", "--only", "bounds.pe_norms", "--list"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0].split()[0]
    (0, 'bounds.pe_norms')
    """
    from petheory import plots
    from petheory.cli._console import console

    plots.use_agg()
    figs = plots.select(args.only)
    if args.list:
        for f in figs:
            print(f"{f.name}\t{f.help}")
        return 0
    from petheory.cli._progress import Lines

    out = output_folder(args)
    for f in figs:  # before any drawing: a figure's X.json must not replace another command's output
        plots.refuse_foreign(out, f.name)
    con = console()  # what was written is a result: printed even with -q
    lines = Lines("figures", quiet=args.quiet)

    # an experiment a figure needs reports each finished training run on stderr
    def trained(done, total, rec):
        m = ((rec.get("config") or {}).get("task") or {}).get("params", {}).get("n_train")
        lines.step(done, total, f"trained {rec.get('task')} {rec.get('pe')} s{rec.get('seed')}" + (f" (m={m})" if m else ""))

    for i, f in enumerate(figs):
        lines.step(i + 1, len(figs), f"drawing {f.name}")
        con.print(f"[bold]{f.name}[/bold]: {f.help}")
        for path in draw(f, out, args, progress=None if args.quiet else trained, say=lines.line):
            con.print(f"  wrote {path}")
    return 0


def draw(f, out, args, *, progress=None, say=lambda text: None) -> list:
    """Draw figure ``f``; where it reads an experiment's records (``f.needs``) and they are missing, run the
    experiment first (it trains, and caches under ``runs/``), then draw.

    Parameters
    ----------
    f : petheory.plots.Figure
        A registered figure (:func:`petheory.plots.registry`).
    out : str or pathlib.Path
        The output folder.
    args : argparse.Namespace
        The parsed command line (``preset``, ``seed``).
    progress : callable, optional
        The experiment's progress callback, where one runs.
    say : callable, optional
        Where a line about a missing experiment goes (default: nowhere).

    Returns
    -------
    list
        The files written, as the figure's function returns them.

    Examples
    --------
    >>> import argparse, tempfile
    >>> from pathlib import Path
    >>> from petheory import plots
    >>> files = draw(plots.registry()["bounds.pe_norms"], tempfile.mkdtemp(), argparse.Namespace(preset="quick", seed=0))
    >>> sorted({Path(p).suffix for p in files})
    ['.json', '.png']
    """
    from petheory import plots

    try:
        return f.fn(out, preset=args.preset, seed=args.seed)
    except plots.RecordsMissing:
        if f.needs is None:
            raise
    from petheory.experiments import papers

    say(f"{f.name}: no records yet; running experiment {f.needs} (preset {args.preset}, seed {args.seed})")
    config = {"preset": args.preset, "seed": args.seed}
    if progress is not None:
        config["progress"] = progress
    getattr(papers, f.needs)(config)
    return f.fn(out, preset=args.preset, seed=args.seed)
