"""``petheory compare``: every registered encoding side by side (spectrum, stress, norm growth, length generalisation)."""

from __future__ import annotations

import json

from petheory.cli._model import add_as_family

NAME = "compare"
HELP = "every registered PE side by side: symbol range and spectral spread, stress vs the corpus (with a null), norm growth, length generalisation"
DESCRIPTION = (
    "For each registered encoding (or --pe): the symbol range and certified eigenvalue spread of its position-only "
    "Toeplitz matrix at --length positions, the stress of its geometry on the built-in corpus next to the mean +- sd of "
    "seeded random encodings of the same kind and shape, its norm (absolute), logit-bias magnitude (bias) or band "
    "scale change (rotary) at each --lengths past the training context --context, the rotary bands whose angles leave "
    "the trained range, and length-generalisation results of running_sum and chen2025 tasks from training records "
    "(record.json files under --records, default records/ and runs/). A model's config.json (or hf:DIR) gives its own "
    "head dimension and original context, one row per distinct layer kind. See petheory.analyses.compare."
)


def add_arguments(p) -> None:
    """Declare ``petheory compare``'s options on ``p``: the PEs and the sizes of each column (from
    :func:`petheory.analyses.compare.compare`' declaration), the training records and the outputs.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "alibi", "--pe", "rope", "--context", "32"]).context
    32
    """
    from petheory.analyses.compare import compare
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.records import read_training_records

    add_as_family(p)
    add_pe(p, "encoding", "model", several=True, note="default: every registered one with its defaults; training "
           "records count for an encoding when their PE has these parameters")
    add_param(p, compare, "length", metavar="N", help="positions of the spectral analysis (default 256)")
    add_param(p, compare, "d", "-d", "--d-model", default=None, metavar="D",
              help="model dimension (default 64; a model's config.json fixes its own)")
    add_param(p, compare, "lengths", metavar="N',N',...", help="inference lengths N' of the norm columns (default "
              "64,256,1024)")
    add_param(p, compare, "context", default=None, metavar="L",
              help="training length for norms and angle coverage (default 64, or a spec's own n_max: learned:n_max=50)")
    add_param(p, compare, "null_draws", metavar="K", help="random encodings in the stress null (default 20)")
    add_param(p, compare, "seed", help="seed of the null draws")
    p.add_argument("--records", action="append", metavar="DIR",
                   help="folder searched for record.json (repeatable; default records/ and the runs folder: $PETHEORY_RUNS, "
                        "else runs/, unless --run names the runs)")
    add_param(p, read_training_records, "runs", "--run", metavar="RUN",
              help="an explicit run set: a run folder (with its record.json) or a record.json file; repeatable; "
                   "only these runs (and --records folders, if given) count")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="write the table as GitHub Markdown to FILE ('-' for stdout)")


def run(args) -> int:
    """Compare ``args.pe`` (default every registered encoding) side by side (:func:`petheory.analyses.compare.compare`)
    with the training records found, and print the table (or write it).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("compare").parse_args(["compare", ...])``).

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
    >>> args = build_parser("compare").parse_args(["compare", "--pe", "alibi:slope=0.5", "--length", "16", "--lengths", "8,16", "--context", "8", "--null-draws", "2", "--records", tmp])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0][:16]
    (0, 'petheory compare')
    """
    from petheory.analyses.compare import compare, resolve
    from petheory.cli._console import show
    from petheory.io import atomic_write_json, atomic_write_text, distinct_outputs
    from petheory.records import read_training_records, runs_dir
    from petheory.spec import parse_pe_specs

    distinct_outputs({"--json": args.json, "--markdown": args.markdown})
    # '--pe a,b' is --pe a --pe b; each resolved before the records are read, so a bad spec is the only line printed
    schemes = None if not args.pe else [resolve(s, d=args.d, context=args.context, as_family=args.as_family)
                                        for s in parse_pe_specs(args.pe)]
    recs = read_training_records(args.records or ([] if args.runs else ["records", str(runs_dir())]), args.runs,
                                 given=bool(args.records))
    rec = compare(schemes, records=recs, length=args.length, d=args.d, lengths=args.lengths, context=args.context, null_draws=args.null_draws, seed=args.seed,
                  as_family=args.as_family)
    if args.json == "-":
        print(json.dumps(rec.as_dict(), indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, rec.as_dict())
    if args.markdown == "-":
        print(rec.markdown())
        return 0
    if args.markdown:
        atomic_write_text(args.markdown, rec.markdown())
        print(f"wrote {args.markdown}")
    show(rec)
    return 0
