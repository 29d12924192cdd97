"""``petheory encodings``: list every registered encoding with its kind, parameters and conventions."""

from __future__ import annotations

import json

NAME = "encodings"
HELP = "list registered positional encodings (kind, parameters, conventions)"


def add_arguments(p) -> None:
    p.add_argument("--json", metavar="FILE", help="write the list as JSON to FILE ('-' for stdout)")
    p.add_argument("--kind", choices=("absolute", "bias", "rotary"), help="only this kind")


def run(args) -> int:
    from petheory import encodings as enc
    from petheory.io import atomic_write_json

    items = [enc.info(n).as_dict() for n in enc.available(args.kind)]
    if args.json == "-":
        print(json.dumps(items, indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, items)
    from rich.markup import escape
    from rich.table import Table

    from petheory.cli._console import console
    from petheory.texttable import plain_table

    heads = ("name", "kind", "parameters (defaults)", "conventions")
    rows = [[it["name"], it["kind"], ", ".join(f"{k}={v!r}" if v != "<required>" else k for k, v in it["params"].items()) or "-",
             it["conventions"]] for it in items]
    con = console()
    if not con.is_terminal:  # a pipe or a file: one line per encoding, every cell whole
        con.print(plain_table("petheory encodings", heads, rows), markup=False, highlight=False, soft_wrap=True)
        return 0
    t = Table(title="petheory encodings")
    t.add_column("name", style="bold")
    t.add_column("kind")
    t.add_column("parameters (defaults)", overflow="fold")
    t.add_column("conventions", overflow="fold", max_width=80)
    for row in rows:
        t.add_row(*(escape(c) for c in row))
    con.print(t)
    return 0
