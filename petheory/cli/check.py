"""``petheory check``: search every claim for a counterexample and give verdicts."""

from __future__ import annotations

import json
import sys

NAME = "check"
HELP = "check the papers' claims: holds / refuted (with a shrunk counterexample) / inconclusive / skipped"
DESCRIPTION = (
    "Search each claim for a counterexample within the profile's budget. A refuted claim is a finding, "
    "not a failure: the exit code is 0 unless a checker crashes (exit 1) or the input is bad (exit 2)."
)


def add_arguments(p) -> None:
    p.add_argument("--claims", metavar="GLOBS", help="comma-separated glob patterns of claim ids, e.g. 'gu2025.*,li2025.sinusoidal_norm_bound'")
    p.add_argument("--profile", default="quick", choices=("quick", "thorough"), help="search budget (default: quick)")
    p.add_argument("--seed", type=int, default=0, help="run seed; each claim derives its own (default: 0)")
    p.add_argument("--json", metavar="FILE", help="write the results as JSON (DESIGN.md contract); '-' prints it instead of the table")
    p.add_argument("--report", metavar="FILE.md", help="write a Markdown report")
    p.add_argument("--case", metavar="JSON", help="evaluate one case (JSON) of a single exact/symbolic claim and print its violation")
    p.add_argument("--list", action="store_true", help="list the selected claims and exit")


def run(args) -> int:
    from petheory.io import atomic_write_json, atomic_write_text, json_text
    from proofs_check import report
    from proofs_check.engine import select
    from proofs_check.runner import check_claim, replay
    from proofs_check.runner import CheckerCrash

    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    claims = select(args.claims)
    from petheory.cli._console import console as make_console

    console = make_console(quiet=args.quiet)

    if args.list:
        for c in claims:
            print(f"{c.id}\t{c.kind}\t{c.source}")
        return 0

    if args.case is not None:
        if len(claims) != 1:
            raise ValueError(f"--case needs exactly one claim selected by --claims, got {len(claims)}")
        try:
            case = json.loads(args.case)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--case is not valid JSON: {exc.msg}") from None
        print(json.dumps(replay(claims[0], case), indent=2))
        return 0

    records, crashes = [], []
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=make_console(stderr=True, quiet=args.quiet), transient=True) as bar:
        task = bar.add_task("checking", total=len(claims))
        for c in claims:
            bar.update(task, description=f"checking {c.id}")
            try:
                records.append(check_claim(c, profile=args.profile, seed=args.seed, quiet=args.quiet))
            except CheckerCrash as crash:
                crashes.append(crash)
            bar.advance(task)

    if args.json == "-":  # the JSON document alone on stdout, so it can be piped
        print(json_text(report.document(records, profile=args.profile, seed=args.seed)))
        console = make_console(stderr=True, quiet=args.quiet)
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
