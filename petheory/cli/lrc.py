"""``petheory lrc``: Linear Representation Complexity of a target family under a PE (chen2025 reconstruction)."""

from __future__ import annotations

import json

NAME = "lrc"
HELP = "LRC(N) of a target family (copy, shift, reverse, ...) under a PE's position-only linear attention"


def add_arguments(p) -> None:
    p.add_argument("--pe", required=True, help="a registry encoding with positions (rope, relative, learned, fire, ...)")
    p.add_argument("--target", required=True, help="copy, shift, reverse, running_sum, running_mean, parity_cot, addition_cot")
    p.add_argument("--N", type=int, nargs="+", default=[2, 4, 8, 12], help="largest sizes to report (default 2 4 8 12)")
    p.add_argument("--hint", default="none", help="Scale Hint: none (default), shift or interp")
    p.add_argument("--unmasked", action="store_true", help="bidirectional POLA (default: causal mask)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")


def run(args) -> int:
    from petheory import lengthgen
    from petheory.io import atomic_write_json

    rows = [c.as_dict() for c in lengthgen.lrc_curve(args.pe, args.target, args.N, hint=args.hint,
                                                      masked=not args.unmasked)]
    if args.json == "-":
        print(json.dumps(rows, indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, rows)
    if not args.quiet:
        for r in rows:
            print(f"N={r['N']:3d}  LRC={r['lrc']:>5}  certified={r['certified']!s:5}  residual={r['residual']:.2e} "
                  f"(tol {r['residual_tol']:.1e})  rank={r['rank']}  gap={r['rank_gap']:.2e}")
    return 0
