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
    from petheory.cli._console import console, show_view

    table = enc.catalogue(args.kind)
    if console().is_terminal:
        show_view([table])
    else:  # a pipe or a file: one line per encoding, every cell whole
        print(table.plain())
    return 0
