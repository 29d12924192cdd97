"""``petheory bounds``: per PE and length, the norm bound (stated and computed) and the Rademacher bound."""

from __future__ import annotations

import json

from petheory.cli._model import add_as_family
from petheory.errors import ValidationError

NAME = "bounds"
HELP = "norm bound (li2025 Table 2 vs computed) and Rademacher bound per PE and inference length"
DESCRIPTION = (
    "For each PE and inference length N': the paper's norm bound next to the computed sup ||PE(pos)|| "
    "(absolute), the logit-bias magnitude (bias: ALiBi alpha(N'-1)) or the norm change under R_p (rotary, 0); "
    "B0 = B_x + that (absolute) or B_x; and li2025 §4.2's Rademacher expression B * L_trans * B0 / sqrt(m). "
    "ALiBi rows add the Eq. 9 drift bound alpha(d - N_max)/4 for a key at distance d > N_max."
)


def add_arguments(p) -> None:
    from petheory.analyses.bounds import bounds
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.loaders import resolve_scheme

    add_as_family(p)
    add_pe(p, "encoding", "model", "table", several=True, note="default: every registered PE")
    add_param(p, bounds, "lengths", default=(200,), metavar="N'[,N'...]", help="inference length(s) N' (default: 200)")
    add_param(p, bounds, "context", metavar="L", help="training context L (li2025's N_max) (default: each N'); sets the "
              "learned table size, the wavelet/Legendre position maps and YaRN's original context (rope_yarn: default "
              "2048, its registry value, when neither --context nor rope_yarn:n_max=N is given). A spec's own "
              "n_max (learned:n_max=50) is the same length: give one, or the same value")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D",
              help="model dimension (default 64; a model's config.json fixes its own)")
    add_param(p, bounds, "m", help="sample size m (default: 1000)")
    add_param(p, bounds, "weight_norm", metavar="B", help="readout weight norm bound B (default: 1)")
    add_param(p, bounds, "lipschitz", default=None, metavar="L",
              help="Lipschitz constant L_trans (default: 1, the linear class)")
    p.add_argument("--checkpoint", metavar="RUN_DIR", help="take L_trans from a trained petheory.nn run (its weights; "
                   "certified product of per-layer factors)")
    add_param(p, bounds, "token_norm", metavar="B_x", help="token embedding norm bound B_x (default: 1)")
    add_param(p, bounds, "distance", metavar="D", help="ALiBi key distance for Eq. 9 (must exceed N_max)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")


def resolve_all(values, d: int | None, as_family: str | None = None) -> list:
    """``--pe`` values -> [Scheme] (:func:`petheory.loaders.resolve_scheme`; default: every registered encoding).

    The old ``--pe a,b`` list of names is read as ``--pe a --pe b`` (:func:`petheory.spec.parse_pe_specs`).
    """
    from petheory import encodings as enc
    from petheory.loaders import resolve_scheme
    from petheory.spec import parse_pe_specs

    specs = parse_pe_specs(values) if values else enc.available()
    return [resolve_scheme(s, d=d, what="bounds", as_family=as_family) for s in specs]


def run(args) -> int:
    from petheory.analyses.bounds import bounds
    from petheory.cli._describe import describe
    from petheory.io import atomic_write_json

    if args.lipschitz is not None and args.checkpoint:
        raise ValidationError("give --lipschitz or --checkpoint, not both")
    lip, lip_report = (1.0 if args.lipschitz is None else args.lipschitz), None
    schemes = resolve_all(args.pe, args.d, args.as_family)
    if args.checkpoint:
        from petheory.nn import lipschitz, load_model

        model, _cfg = load_model(args.checkpoint)
        lip_report = lipschitz.transformer_lipschitz(model)
        lip = lip_report.total
    names = [s.main.positions.encoding for s in schemes]
    if args.distance is not None and "alibi" not in names:
        raise ValidationError("--distance (Eq. 9) applies to alibi; add --pe alibi")
    rows = []
    for s in schemes:
        rows += bounds(s, args.lengths, context=args.context, m=args.m, weight_norm=args.weight_norm, lipschitz=lip,
                       token_norm=args.token_norm, distance=args.distance if s.main.positions.encoding == "alibi"
                       else None).rows
    payload = {"rows": [r.as_dict() for r in rows], "resolved_encodings": [describe(s, length=max(args.lengths)) for s in schemes],
               "lipschitz": lip_report.as_dict() if lip_report else {"total": lip, "source": "--lipschitz"
                                                                                  if args.lipschitz is not None else "default 1 (linear class)"}}
    if args.json == "-":
        print(json.dumps(payload, indent=2, allow_nan=False))
        return 0
    if args.json:
        atomic_write_json(args.json, payload)
    _table(rows, lip, lip_report)
    return 0


def _fmt(x, nd=4) -> str:
    if x is None:
        return "-"
    return f"{x:.{nd}g}" if isinstance(x, float) else str(x)


def _table(rows, lip, lip_report) -> None:
    from petheory.analyses.bounds import SkippedRow
    from rich.markup import escape
    from rich.table import Table

    from petheory.cli._console import console
    from petheory.texttable import plain_table

    con = console()
    heads = ("PE", "kind", "N'", "N_max", "stated (paper)", "computed", "B0", "R_m bound", "note")
    cells = []
    for r in rows:
        if isinstance(r, SkippedRow):
            cells.append([str(r.pe), r.kind, str(r.length), "-", "-", "-", "-", "-", r.skipped])
            continue
        nb = r.norm
        stated = nb["stated_formula"] + (f" = {_fmt(nb['stated'])}" if nb["stated"] is not None and not nb["stated_formula"].startswith("0") else "")
        note = []
        if r.analysed_length is not None:  # sliding/chunked layers: their queries see no farther than their span
            note.append(f"its {len(r.layers)} layers (in --json) attend within {r.analysed_length} positions: "
                        f"bounded at N' = {r.analysed_length}")
        if nb.get("explicit") is not None:
            note.append(f"explicit bound {_fmt(nb['explicit'])}")
        if nb.get("note"):
            note.append(nb["note"])
        if r.eq9 is not None:
            e = r.eq9
            note.append(f"Eq. 9 drift <= {_fmt(e['bound'])} at d={e['distance']}")
        if r.angles is not None and r.angles["onset"] is not None:
            a = r.angles
            note.append(f"angles: {a['out_of_range']}/{a['bands']} bands past the range seen on 0..{a['n_max'] - 1} "
                        f"(first at N'={a['onset']})")
        params = ",".join(f"{k}={v}" for k, v in r.params.items() if k != "n_max")
        cells.append([r.pe + (f":{params}" if params else ""), r.kind, str(r.length),
                      _fmt(r.n_max or r.params.get("n_max")), stated, _fmt(nb["computed"]), _fmt(r.B0),
                      _fmt(r.rademacher), "; ".join(note)])
    title = "petheory bounds (li2025 Table 2, §4.2, Eq. 9)"
    if not con.is_terminal:  # a pipe or a file: one line per row, every cell whole
        con.print(plain_table(title, heads, cells, right={2, 3, 5, 6, 7}), markup=False, highlight=False, soft_wrap=True)
    else:
        t = Table(title=title)
        for col, kw in zip(heads, ({"style": "bold", "overflow": "fold"}, {}, {"justify": "right"}, {"justify": "right"}, {},
                                   {"justify": "right"}, {"justify": "right"}, {"justify": "right"},
                                   {"overflow": "fold", "max_width": 34})):
            t.add_column(col, **kw)
        for row in cells:
            t.add_row(*(escape(c) for c in row))
        con.print(t)
    src = "from the checkpoint's weights" if lip_report else ("given" if lip != 1.0 else "linear class")
    r0 = next((r for r in rows if not isinstance(r, SkippedRow)), None)
    if r0 is None:
        return
    con.print("computed: sup_pos ||PE(pos)|| (absolute), max |b(i,j)| logit bias (bias), max relative change of ||x|| "
              "under R_p (rotary); B0 = B_x + computed (absolute) or B_x.")
    con.print(f"R_m bound = B L_trans B0 / sqrt(m): B={_fmt(r0.weight_norm)}, L_trans={_fmt(lip)} ({src}), m={r0.m}, "
              f"B_x={_fmt(r0.token_norm)}; constant 1, logs dropped (li2025 §4.2).")
    same = {r.kind for r in rows if r.kind in ("bias", "rotary") and getattr(r, "B0", None) == r0.token_norm}
    if same:
        con.print(f"{' and '.join(sorted(same))} rows add no vector to the input (B0 = B_x = {_fmt(r0.token_norm)}), so "
                  "their R_m bound is one number: the bound sees a PE only through B0, and L_trans is the same for all rows.")
