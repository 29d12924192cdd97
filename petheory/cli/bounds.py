"""``petheory bounds``: per PE and length, the norm bound (stated and computed) and the Rademacher bound."""

from __future__ import annotations

import json

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
    from petheory.spec import GRAMMAR

    p.add_argument("--pe", action="append", metavar="SPEC",
                   help="encoding: a registered name with parameters (alibi:slope=0.5), rope+sinusoidal, or a table of "
                        "absolute position vectors (file.npy, file.safetensors[#KEY], pytorch_model.bin, hf:DIR); repeat "
                        f"--pe for several (default: every registered PE). {GRAMMAR}")
    p.add_argument("--length", default="200", metavar="N'[,N'...]", help="inference length(s) N' (default: 200)")
    p.add_argument("--n-max", type=int, metavar="N", help="training length N_max (default: each N'); sets the learned "
                   "table size, the wavelet/Legendre position maps and YaRN's original context (rope_yarn: default "
                   "2048, its registry value, when neither --n-max nor rope_yarn:n_max=N is given). A spec's own "
                   "n_max (learned:n_max=50) is the same length: give one, or the same value")
    p.add_argument("-d", "--d-model", type=int, default=64, metavar="D", help="model dimension (default: 64)")
    p.add_argument("--m", type=int, default=1000, help="sample size m (default: 1000)")
    p.add_argument("--weight-norm", type=float, default=1.0, metavar="B", help="readout weight norm bound B (default: 1)")
    p.add_argument("--lipschitz", type=float, metavar="L", help="Lipschitz constant L_trans (default: 1, the linear class)")
    p.add_argument("--checkpoint", metavar="RUN_DIR", help="take L_trans from a trained petheory.nn run (its weights; "
                   "certified product of per-layer factors)")
    p.add_argument("--token-norm", type=float, default=1.0, metavar="B_x", help="token embedding norm bound B_x (default: 1)")
    p.add_argument("--distance", type=int, metavar="D", help="ALiBi key distance for Eq. 9 (must exceed N_max)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")


def parse_specs(values) -> list:
    """``--pe`` values -> [PESpec], each a registered encoding (parameters checked) or a table.

    Default (no ``--pe``): every registered encoding. A combination becomes the registry's named
    combination (``rope+sinusoidal`` -> ``rope_sinusoidal``). The old ``--pe a,b`` list of names is
    read as ``--pe a --pe b`` (:func:`petheory.spec.parse_pe_specs`).
    """
    from petheory import encodings as enc
    from petheory.spec import PESpec, parse_pe_specs

    if not values:
        return [parse_pe_specs([n])[0] for n in enc.available()]
    out = []
    for spec in parse_pe_specs(values):
        if spec.is_table and len(spec.terms) == 1:
            out.append(spec)
            continue
        term = spec.registered("bounds")
        term.check_params(enc.info(term.name).params)  # unknown name -> ValueError listing the registry
        out.append(PESpec((term,)))
    return out


def table_report(spec: str, length: int, *, m: int, weight_norm: float, lipschitz: float, token_norm: float,
                 key: str | None = None) -> dict:
    """:func:`petheory.bounds.bound_report`'s row for a user's (N, d) table of absolute position vectors.

    li2025 Table 2 treats a learned table as bounded by its own largest row norm B_p; positions
    past the table reuse its last row (``beyond='clamp'``, as for the registry's ``learned``).
    """
    import numpy as np

    from petheory import bounds, loaders

    loaded = loaders.load_position_embeddings(spec, key=key)
    T = loaded.table
    rows = T.shape[0]
    norms = np.linalg.norm(T, axis=1)
    used = norms[: min(length, rows)]
    computed = float(used.max())  # clamped positions >= rows repeat the last row, already in `used` when length > rows
    if length > rows:
        computed = max(computed, float(norms[-1]))
    B0 = token_norm + computed
    return {"pe": spec, "kind": "absolute", "length": length, "d": int(T.shape[1]), "n_max": rows, "params": {},
            "norm": {"stated_formula": "B_p = the table's largest row norm", "stated": float(norms.max()),
                     "computed": computed, "explicit": None,
                     "note": f"{loaded.dtype} table {T.shape}" + (f"; positions >= {rows} reuse the last row"
                                                                     if length > rows else "")},
            "token_norm": token_norm, "B0": B0, "m": m, "weight_norm": weight_norm, "lipschitz": lipschitz,
            "rademacher": bounds.rademacher_lipschitz_bound(lipschitz, B0, m, output_norm=weight_norm),
            "rademacher_formula": "weight_norm * lipschitz * B0 / sqrt(m) (li2025 §4.2, constant 1, logs dropped)"}


def run(args) -> int:
    from petheory import bounds
    from petheory.cli._describe import describe
    from petheory.bounds.norms import training_length
    from petheory.io import atomic_write_json

    try:
        lengths = [int(x) for x in str(args.length).split(",") if x.strip()]
    except ValueError:
        raise ValidationError(f"--length must be integers separated by commas, got {args.length!r}") from None
    if not lengths:
        raise ValidationError("--length is empty")
    if args.lipschitz is not None and args.checkpoint:
        raise ValidationError("give --lipschitz or --checkpoint, not both")
    lip, lip_report = (1.0 if args.lipschitz is None else args.lipschitz), None
    specs = parse_specs(args.pe)
    if args.checkpoint:
        from petheory.nn import lipschitz, load_model

        model, _cfg = load_model(args.checkpoint)
        lip_report = lipschitz.transformer_lipschitz(model)
        lip = lip_report.total
    if args.distance is not None and not any(s.name == "alibi" for s in specs):
        raise ValidationError("--distance (Eq. 9) applies to alibi; add --pe alibi")
    rows = []
    for s in specs:
        if s.is_table:
            rows += [table_report(s.head.path, N, m=args.m, weight_norm=args.weight_norm, lipschitz=lip,
                                  token_norm=args.token_norm, key=s.head.key) for N in lengths]
            continue
        n_max, params = training_length(s.name, s.params, args.n_max)  # learned:n_max=50 is --n-max 50
        rows += [bounds.bound_report(s.name, N, s.head.d or args.d_model, n_max=n_max, m=args.m, weight_norm=args.weight_norm,
                                     lipschitz=lip, token_norm=args.token_norm,
                                     distance=args.distance if s.name == "alibi" else None, **params) for N in lengths]
    payload = {"rows": rows, "resolved_encodings": [describe(s, d=args.d_model, length=max(lengths)) for s in specs],
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
    from rich.markup import escape
    from rich.table import Table

    from petheory.cli._console import console
    from petheory.texttable import plain_table

    con = console()
    heads = ("PE", "kind", "N'", "N_max", "stated (paper)", "computed", "B0", "R_m bound", "note")
    cells = []
    for r in rows:
        nb = r["norm"]
        stated = nb["stated_formula"] + (f" = {_fmt(nb['stated'])}" if nb["stated"] is not None and not nb["stated_formula"].startswith("0") else "")
        note = []
        if nb.get("explicit") is not None:
            note.append(f"explicit bound {_fmt(nb['explicit'])}")
        if nb.get("note"):
            note.append(nb["note"])
        if "eq9" in r:
            e = r["eq9"]
            note.append(f"Eq. 9 drift <= {_fmt(e['bound'])} at d={e['distance']}")
        if "angles" in r and r["angles"]["onset"] is not None:
            a = r["angles"]
            note.append(f"angles: {a['out_of_range']}/{a['bands']} bands past the range seen on 0..{a['n_max'] - 1} "
                        f"(first at N'={a['onset']})")
        params = ",".join(f"{k}={v}" for k, v in r["params"].items() if k != "n_max")
        cells.append([r["pe"] + (f":{params}" if params else ""), r["kind"], str(r["length"]),
                      _fmt(r.get("n_max") or r["params"].get("n_max")), stated, _fmt(nb["computed"]), _fmt(r["B0"]),
                      _fmt(r["rademacher"]), "; ".join(note)])
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
    r0 = rows[0]
    con.print("computed: sup_pos ||PE(pos)|| (absolute), max |b(i,j)| logit bias (bias), max relative change of ||x|| "
              "under R_p (rotary); B0 = B_x + computed (absolute) or B_x.")
    con.print(f"R_m bound = B L_trans B0 / sqrt(m): B={_fmt(r0['weight_norm'])}, L_trans={_fmt(lip)} ({src}), m={r0['m']}, "
              f"B_x={_fmt(r0['token_norm'])}; constant 1, logs dropped (li2025 §4.2).")
    same = {r["kind"] for r in rows if r["kind"] in ("bias", "rotary") and r["B0"] == r0["token_norm"]}
    if same:
        con.print(f"{' and '.join(sorted(same))} rows add no vector to the input (B0 = B_x = {_fmt(r0['token_norm'])}), so "
                  "their R_m bound is one number: the bound sees a PE only through B0, and L_trans is the same for all rows.")
