"""``petheory report``: the one-page report of a model's positional scheme (from its config.json) or a registry PE.

Per model: the per-band table, the position-only kernel against distance, certified spectrum
extremes at L, 2L, 4L, 8L of the original context L, stress against random tables, and the bound
notes, one section per distinct layer kind (:func:`petheory.analyses.report.report`); on the terminal, as JSON (``--json``) and as
Markdown (``--markdown``). Several ``--pe`` give several reports and, with ``--figure``, one figure
comparing their kernels and band wavelengths side by side.
"""

from __future__ import annotations

from petheory.cli._model import add_as_family


NAME = "report"
HELP = "one-page report of a model's positional scheme (hf:DIR or config.json) or a registry PE at long lengths"
DESCRIPTION = (
    "What does this positional scheme do at length N? For each --pe (a model's config.json, hf:DIR, or a registered "
    "rotary/ALiBi encoding): the per-band table (frequency, wavelength, turns over the original context L, "
    "interpolated or extrapolated, phase within the pre-training range at N), the position-only kernel a_k against "
    "the distance k up to N, certified extreme eigenvalues of the N x N kernel at L, 2L, 4L, 8L (FFT, no dense "
    "matrix), the stress of its geometry on the built-in corpus against random tables, and the bound notes."
)


def add_arguments(p) -> None:
    """Declare ``petheory report``'s options on ``p``: the models, the lengths, the null reference's draws and seed
    (from the library's declarations), and the outputs.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "rope", "--length", "2048"]).length
    2048
    """
    from petheory.analyses.report import report
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.loaders import resolve_scheme

    add_as_family(p)
    add_pe(p, "model", "encoding", several=True, required=True)
    add_param(p, report, "length", metavar="N", help="report length N for the bands and the kernel (default: the "
              "model's extended context, max(max_position_embeddings, L * factor)); sliding layers at min(N, W)")
    add_param(p, resolve_scheme, "context", "--context", metavar="L", help="original context L of a registry "
              "encoding (default: its n_max, else 4096); a model's config fixes its own (another is refused)")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D", help="head dimension of a registry encoding "
              f"(default {DEFAULT_D}); a model's config fixes its own (another is refused)")
    add_param(p, report, "multiples", default=(1, 2, 4, 8), metavar="LIST",
              help="spectra at these multiples of L (default 1,2,4,8)")
    add_param(p, report, "null_draws", metavar="K", help="random tables of the stress null (default 100)")
    add_param(p, report, "seed", help="seed of the first random table (default 0)")
    p.add_argument("--json", metavar="FILE", help="write the report(s) as JSON to FILE ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="write the report(s) as Markdown to FILE ('-' for stdout)")
    p.add_argument("--figure", metavar="FILE.png", help="draw the models' kernels and band wavelengths side by side "
                   "(FILE.png and FILE.json)")


#: Head dimension of a registry encoding in a report (a model's config fixes its own).
DEFAULT_D = 128


def run(args) -> int:
    """Report what each model's positions do at ``args.length`` (:func:`petheory.analyses.report.report`) and print the
    reports (or write them, and draw the figure).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("report").parse_args(["report", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("report").parse_args(["report", "--pe", "rope", "-d", "16", "--context", "32", "--length", "64", "--multiples", "1", "--null-draws", "0"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'rope  (spec)')
    """
    from petheory import __version__
    from petheory.analyses.report import check_covered, report
    from petheory.cli._progress import Lines
    from petheory.io import atomic_write_json, atomic_write_text
    from petheory.io import distinct_outputs, figure_json
    from petheory.loaders import resolve_scheme

    distinct_outputs({"--json": args.json, "--markdown": args.markdown, "--figure": args.figure,
                      "--figure (its .json)": figure_json(args.figure) if args.figure else None})
    # -d and --context: a registry encoding's; a model's config fixes its own (resolve_scheme refuses another)
    schemes = [resolve_scheme(text, d=args.d, context=args.context, default_d=DEFAULT_D, what="report",
                              as_family=args.as_family) for text in args.pe]
    for scheme in schemes:  # every refusal before any work: one line, nothing half done
        check_covered(scheme)
    lines = Lines("report", quiet=args.quiet)
    reports = []
    from petheory import _memory, io as pio

    if args.figure:  # the figure's data goes to FILE.json: never over another command's output
        pio.refuse_replacing(figure_json(args.figure), own_field="figure", by="a petheory figure")
    for text, scheme in zip(args.pe, schemes):  # the memory estimate of every report before any work
        _memory.require_model_report(scheme, length=args.length, multiples=args.multiples, what=f"report of {text}")
    for text, scheme in zip(args.pe, schemes):
        def progress(done, total, what, _t=text):
            lines.step(done, total, f"{_t}: {what}")

        reports.append(report(scheme, length=args.length, multiples=args.multiples, null_draws=args.null_draws,
                              seed=args.seed, source=str(text), progress=progress))
    doc = {"petheory": __version__, "reports": [r.as_dict() for r in reports]}
    if args.json == "-":
        import json

        print(json.dumps(doc, indent=2))
    elif args.json:
        atomic_write_json(args.json, doc)
    if args.markdown:
        text = "\n\n".join(r.markdown() for r in reports) + "\n"
        if args.markdown == "-":
            print(text, end="")
        else:
            atomic_write_text(args.markdown, text)
    if args.figure:
        from petheory.plots import use_agg
        from petheory.plots.models import save_model_comparison

        use_agg()
        paths = save_model_comparison(reports, args.figure)
        if not args.quiet and "-" not in (args.json, args.markdown):
            print(f"figure: {', '.join(map(str, paths))}")
    if "-" not in (args.json, args.markdown):
        from petheory.cli._console import show_view

        for r in reports:
            show_view(r.terminal())
    return 0
