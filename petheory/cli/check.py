"""``petheory check``: search every claim for a counterexample and give verdicts."""

from __future__ import annotations

import gc
import json
import sys

from petheory.errors import NoMatchError, ValidationError

NAME = "check"
HELP = "check the papers' claims: holds / refuted (with a shrunk counterexample) / depends (on the reading) / vacuous / inconclusive / skipped"
DESCRIPTION = (
    "Search each claim for a counterexample within the profile's budget. A refuted claim is a finding, "
    "not a failure: the exit code is 0 unless a checker crashes (exit 1) or the input is bad (exit 2)."
)


def add_arguments(p) -> None:
    """Declare ``petheory check``'s options on ``p``: the claim selection, profile, seed, outputs, ``--case`` and
    ``--list``.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--claims", "gu2025.*", "--profile", "quick"]).claims
    'gu2025.*'
    """
    from petheory.cli._params import add_param
    from proofs_check.runner import check_claim

    p.add_argument("--claims", metavar="GLOBS", help="comma-separated glob patterns of claim ids, e.g. 'gu2025.*,li2025.sinusoidal_norm_bound'")
    add_param(p, check_claim, "profile", help="search budget (default: quick)")
    add_param(p, check_claim, "seed", help="run seed; each claim derives its own (default: 0)")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON (fields: id, source, statement, kind, verdict, cases, margin, counterexample, reproduce, ...); '-' prints it instead of the table")
    p.add_argument("--markdown", dest="report", metavar="FILE", help="write a Markdown report to FILE")
    p.add_argument("--case", metavar="JSON", help="evaluate one case (JSON) of a single exact/symbolic claim and print its violation")
    p.add_argument("--list", action="store_true",
                   help="list the selected claims with their statement and case fields, and exit (with --json: as JSON)")


def run(args) -> int:
    """Check the selected claims of the catalogue and print their verdicts (or list them, or replay one case).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("check").parse_args(["check", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("check").parse_args(["check", "--claims", "gu2025.lemma_b1*", "--list"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0].split()[0]
    (0, 'gu2025.lemma_b1_amplitude')
    """
    from petheory.io import atomic_write_json, atomic_write_text, distinct_outputs, json_text
    from proofs_check import report
    from proofs_check.engine import select
    from proofs_check.runner import check_claim, replay
    from proofs_check.runner import CheckerCrash

    distinct_outputs({"--json": args.json, "--markdown": args.report})
    claims = _select(select, args.claims)
    from petheory.cli._console import console as make_console

    console = make_console()  # results: -q hides progress only

    if args.list:
        return _list(claims, args.json)

    if args.case is not None:
        # --case's text is JSON for one claim that --claims picks (replay takes a claim and a case): the command line's
        # grammar, not a rule of a library parameter
        if len(claims) != 1:
            raise ValidationError(f"--case needs exactly one claim selected by --claims, got {len(claims)}")
        try:
            case = json.loads(args.case)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"--case is not valid JSON: {exc.msg}") from None
        print(json.dumps(replay(claims[0], case), indent=2))
        return 0

    records, crashes = [], []
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from petheory.cli._progress import Lines, is_terminal, plain_lines_wanted

    lines = Lines("check", quiet=not plain_lines_wanted(args.quiet))  # stderr is not a terminal: plain lines
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=make_console(stderr=True, quiet=args.quiet), transient=True,
                  disable=not is_terminal()) as bar:
        task = bar.add_task("checking", total=len(claims))
        modules = 0
        for i, c in enumerate(claims):
            if len(sys.modules) != modules:
                # What claims import (torch, sympy, scipy.stats: ~10^6 objects) lives as long as this process: out of
                # the collector's sight, full collections stop walking it (15 % of the quick profile's CPU). Garbage
                # waiting at that moment stays too: a few times a run, in a process that ends with the check.
                gc.freeze()
                modules = len(sys.modules)
            bar.update(task, description=f"checking {c.id}")
            lines.step(i + 1, len(claims), f"checking {c.id} ({args.profile})")
            try:
                records.append(check_claim(c, profile=args.profile, seed=args.seed, quiet=args.quiet))
            except CheckerCrash as crash:
                crashes.append(crash)
            bar.advance(task)
    lines.line(f"{len(claims)} claims checked")

    if args.json == "-":  # the JSON document alone on stdout, so it can be piped
        print(json_text(report.document(records, profile=args.profile, seed=args.seed)))
        console = make_console(stderr=True, quiet=args.quiet)  # the table beside the JSON: secondary, -q hides it
    else:
        report.print_table(records, console)
    if args.json and args.json != "-":
        atomic_write_json(args.json, report.document(records, profile=args.profile, seed=args.seed))
        console.print(f"wrote {args.json}")
    if args.report:
        atomic_write_text(args.report, report.markdown(records, profile=args.profile, seed=args.seed))
        console.print(f"wrote {args.report}")
    for crash in crashes:
        print(f"petheory: error: {crash}", file=sys.stderr)
    return 1 if crashes else 0


def _select(select, patterns):
    """``select(patterns)``, with "did you mean" for a pattern that matches no claim."""
    try:
        return select(patterns)
    except NoMatchError as exc:
        import difflib

        from proofs_check.engine import all_claims

        ids = [c.id for c in all_claims()]
        bad = [p.strip() for p in patterns.split(",") if p.strip() and not select_ok(select, p.strip())]
        hints = []
        for p in bad:
            close = difflib.get_close_matches(p, ids, n=3, cutoff=0.6)
            hints.append(f"--claims {p!r} matches no registered claim"
                         + (f"; did you mean {' or '.join(close)}?" if close else ""))
        raise ValidationError("; ".join(hints or [str(exc)]) + " (`petheory check --list` shows every claim id)") from None


def select_ok(select, pattern) -> bool:
    """Whether ``pattern`` selects at least one claim.

    Parameters
    ----------
    select : callable
        The catalogue's selection (``proofs_check.select``), which raises :class:`petheory.errors.NoMatchError` for a
        pattern that matches no claim id.
    pattern : str
        One glob pattern of claim ids.

    Returns
    -------
    bool

    Examples
    --------
    >>> from proofs_check import select
    >>> select_ok(select, "gu2025.*"), select_ok(select, "gu2025.no_such_claim")
    (True, False)
    """
    try:
        select(pattern)
        return True
    except NoMatchError:
        return False


def _list(claims, json_dest) -> int:
    """``--list``: id, kind, source, then the statement and the fields a ``--case`` needs."""
    from petheory.io import atomic_write_json, json_text
    from proofs_check.fields import listing, listing_lines

    if json_dest == "-":
        print(json_text({"claims": listing(claims)}))
        return 0
    if json_dest:
        atomic_write_json(json_dest, {"claims": listing(claims)})
    for line in listing_lines(claims):
        print(line)
    if json_dest:
        print(f"wrote {json_dest}", file=sys.stderr)
    return 0
