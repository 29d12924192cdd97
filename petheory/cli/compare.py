"""``petheory compare``: every registered encoding side by side (spectrum, stress, norm growth, length generalisation)."""

from __future__ import annotations

import json

from petheory.cli._model import add_as_family
from petheory.errors import ValidationError

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
    from petheory.analyses.compare import compare
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe

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
    p.add_argument("--run", action="append", metavar="RUN", dest="runs",
                   help="an explicit run set: a run folder (with its record.json) or a record.json file; repeatable; "
                        "only these runs (and --records folders, if given) count")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="write the table as GitHub Markdown to FILE ('-' for stdout)")


def _with_pe_params(rec: dict) -> dict:
    """The record with its PE's first term parsed (``_pe_params``), so compare can match ``--pe NAME:key=value``."""
    from petheory.spec import parse_pe_spec

    try:
        params = parse_pe_spec(str(rec["pe"])).head.params
    except ValueError:  # a PE this installation does not know (a plugin's): matched by its exact text only
        return rec
    return {**rec, "_pe_params": params}


def read_records(dirs, *, given: bool = False) -> tuple[list[dict], list[str]]:
    """Every training record under ``dirs``: ``record.json`` files of run folders (``runs/``), else every ``*.json``
    of a records folder (``records/li2025_table5``: one file per run); (records, folders searched).

    A file that is not a usable record is skipped and named on stderr; a folder the user gave (``given``) that
    does not exist, or holds no usable record, is said so on stderr: never a silent "0 training records".
    """
    import sys
    from pathlib import Path

    from petheory.io import record_files, warn_skipped
    from petheory.records import load_or_skip

    recs, searched = [], []
    for d in dirs:
        root = Path(d)
        if not root.is_dir():
            if given:
                print(f"petheory: warning: --records {d}: no such folder; no training records read from it",
                      file=sys.stderr)
            continue
        searched.append(str(root))
        files = record_files(root, "record.json") or record_files(root, "*.json")
        found = 0
        for f in files:
            if (rec := load_or_skip(f)) is None:  # named on stderr: NaN/Infinity, 10**400, too deep, not JSON
                continue
            if isinstance(rec, dict) and rec.get("task") and rec.get("pe") and (rec.get("final") or {}).get("test"):
                recs.append(_with_pe_params({**rec, "_source": str(f)}))
                found += 1
            else:
                warn_skipped(f, "not a finished training record (needs task, pe and final.test)")
        if given and not found:
            why = (f"its {len(files)} JSON files are not usable training records (named above)" if files else
                   "it holds no JSON files (record.json of a run folder, or *.json records)")
            print(f"petheory: warning: --records {d}: no training records read: {why}", file=sys.stderr)
    return recs, searched


def read_runs(paths) -> list[dict]:
    """The records of an explicit run set: each path a run folder with a record.json, or a record.json itself."""
    from pathlib import Path

    from petheory.io import read_json

    recs = []
    for p in paths:
        f = Path(p) / "record.json" if Path(p).is_dir() else Path(p)
        if not f.is_file():
            raise ValidationError(f"--run {p}: no record.json there; give a run folder (runs/...) or a record.json file")
        try:
            rec = read_json(f)  # petheory's one JSON reader: NaN/Infinity, 10**400, depth refused
        except ValueError as exc:
            raise ValidationError(f"--run {p}: {exc}") from None
        if not (isinstance(rec, dict) and rec.get("task") and rec.get("pe") and (rec.get("final") or {}).get("test")):
            raise ValidationError(f"--run {p}: {f} is not a finished training record (needs task, pe and final.test)")
        recs.append(_with_pe_params({**rec, "_source": str(f)}))
    return recs


def run(args) -> int:
    from petheory import encodings as enc
    from petheory.analyses.compare import compare
    from petheory.cli._describe import describe
    from petheory.io import atomic_write_json
    from petheory.loaders import resolve_scheme
    from petheory.records import runs_dir
    from petheory.spec import parse_pe_specs

    from petheory.io import distinct_outputs

    distinct_outputs({"--json": args.json, "--markdown": args.markdown})
    n_max = 64 if args.context is None else args.context
    schemes = []
    for spec in parse_pe_specs(args.pe) if args.pe else parse_pe_specs(enc.available()):  # '--pe a,b' is --pe a --pe b
        if not spec.is_table:
            term = spec.registered("compare")
            own = term.params.get("n_max")
            if own is not None and args.context is not None and own != args.context:
                raise ValidationError(f"n_max is given twice with different values: {term}: n_max={own} and --context "
                                      f"{args.context}; both are the training length; give one")
            if args.context is not None and "n_max" in enc.info(term.name).params and own is None and len(spec.terms) == 1:
                spec = spec.with_params({"n_max": args.context})  # the entry's own training length is --context
        scheme = resolve_scheme(spec, d=args.d, default_context=n_max, what="compare", as_family=args.as_family)
        if scheme.main.positions.kind == "table":
            raise ValidationError(f"compare takes registered encodings (with parameters) and model configs, got the "
                                  f"table {spec}; petheory stress/spectrum/bounds take tables")
        schemes.append(scheme)
    explicit = read_runs(args.runs or [])
    recs, searched = read_records(args.records or ([] if args.runs else ["records", str(runs_dir())]),
                                  given=bool(args.records))
    recs += explicit
    rec = compare(schemes, records=recs, length=args.length, d=args.d, lengths=args.lengths, context=n_max,
                  null_draws=args.null_draws, seed=args.seed)
    rows = rec.as_dict()["rows"]
    payload = {"rows": rows, "resolved_encodings": [describe(s, length=args.length) for s in schemes],
               "records": {"searched": searched, "runs": [r["_source"] for r in explicit], "count": len(recs)},
               "settings": {**rec.settings, "target": "builtin corpus"}}
    if args.json == "-":
        print(json.dumps(payload, indent=2, default=float))
        return 0
    if args.json:
        atomic_write_json(args.json, payload)
    if args.markdown:
        _markdown(payload, args.markdown)
    if args.markdown != "-":
        _table(payload)
    return 0


SHORT = {"seq_acc": "seq", "token_acc": "tok"}


def _g(x, nd=3) -> str:
    if x is None:
        return "-"
    if abs(x) < 1e-12:
        return "0"
    return f"{x:.{nd}g}"


HEADERS = ("PE", "kind", "symbol range", "λmax-λmin", "CPD", "stress", "null μ±σ (z)", "norm @{lengths}", "angles out",
           "length generalisation (train→longest)")


def _cells(r: dict, lengths) -> list[str]:
    sp, s, nm = r["spectrum"], r["stress"], r["norms"]
    sym = f"[{_g(sp['symbol_min'], 2)}, {_g(sp['symbol_max'], 2)}]" if "error" not in sp else sp["error"][:40]
    spread = (_g(sp["spread"], 2) + ("" if sp["eig_converged"] else f"±{_g(sp['eig_error'], 1)}")) if "error" not in sp else "-"
    cp = sp.get("cpd") if "error" not in sp else None
    cpd = "" if not cp else f"{'yes' if cp['cpd'] else 'no'} ({cp['negative_eigenvalues']})"
    if "error" in s:
        stress, null = s["error"][:40], ""
    else:
        stress, null = f"{s['stress']:.3f}", f"{s['null_mean']:.3f}±{s['null_sd']:.3f} ({_g(s['z'], 2)})"
    norms = "/".join(_g(nm["values"][str(L)], 2) for L in lengths) if "error" not in nm else nm["error"][:40]
    a = nm.get("angles") if "error" not in nm else None
    ang = f"{a['out_of_range']}/{a['bands']} ≥{a['onset']}" if a and a["onset"] is not None else ("0" if a else "")
    lg = "; ".join(_group_cell(task, g) for task, groups in r["lengthgen"].items() for g in groups) or "no records"
    return [r["pe"], r["kind"], sym, spread, cpd, stress, null, norms, ang, lg]


def run_name(source: str) -> str:
    """A run's short name: its folder (``runs/.../parity__nope__s0/record.json`` -> ``parity__nope__s0``)."""
    from pathlib import PurePath

    p = PurePath(source)
    return p.parent.name if p.name == "record.json" and p.parent.name else str(source)


def _group_cell(task: str, g: dict) -> str:
    """One configuration's numbers and the runs they average: ``copy [pe=xpos:base=500, task.params.n_train=64]:
    seq 0.9→0.1 @8 (2 runs: copy__xpos__s0, copy__xpos__s1)``."""
    conf = ", ".join(f"{k.removeprefix('model.')}={v}" for k, v in g["config"].items())
    nums = ", ".join(f"{SHORT.get(m, m)} {_g(x['at_train'], 2)}→{_g(x['at_longest'], 2)}" for m, x in g["metrics"].items())
    runs = ", ".join(run_name(s) for s in g["records"])
    return f"{task}{f' [{conf}]' if conf else ''}: {nums} @{g['longest']} ({g['runs']} run{'s' if g['runs'] > 1 else ''}: {runs})"


def _notes(payload) -> list[str]:
    st, rc = payload["settings"], payload["records"]
    lengths = st["lengths"]
    where = ", ".join(rc["searched"]) if rc["searched"] else ("no folder searched" if rc.get("runs") else
                                                              "none of records/, runs/ exists here")
    return [
        f"angles out: rotary bands whose angles at N={lengths[-1]} leave the range seen in training, on 0..n_max-1 "
        f"(n_max = {st['n_max']} for registered encodings, a model's own original context L; a sliding or chunked layer "
        "within its span) (≥ the first length where one does).",
        f"length generalisation: {rc['count']} training records ({where}"
        + (f"; {len(rc['runs'])} given with --run" if rc.get("runs") else "") + "); running_sum mse (lower is better); "
        "chen2025 tasks seq = exact match, tok = per-token accuracy; at the training length → the longest test length (@), "
        "averaged over the runs of one configuration only (its seeds; runs are named by folder): a [bracket] names what "
        "differs between configurations (another sample size, model or PE parameter); --run RUN picks the runs explicitly.",
        "CPD (negative eigenvalues): a bias B is conditionally positive definite when x^T B x >= 0 for sum x = 0; then it has "
        "exactly one negative eigenvalue and its Fejér symbol is >= 0 at every non-zero Fourier frequency "
        "(petheory.toeplitz.conditional_definiteness).",
        "matrix: bias B; rotary unit-content kernel (YaRN/xPos scales included); absolute Gram P P^T (Toeplitz projection "
        "where not Toeplitz); Hermitian part where not Hermitian. stress: Kruskal stress-1 against the built-in corpus "
        f"(n=15); null: {st['null_draws']} seeded N(0,1) tables of the same shape; z = (stress - μ)/σ "
        "(negative: closer to the corpus geometry than chance).",
    ]


def _title(st) -> str:
    return (f"petheory compare (d={st['d']} for registered encodings, a model's own head dimension and context; "
            f"spectrum at N={st['n']}; norms past n_max={st['n_max']}, a model's past its own L)")


def _markdown(payload, dest: str) -> None:
    """The table as GitHub Markdown, written to ``dest`` ('-': stdout), like ``report --markdown``."""
    from petheory.io import atomic_write_text

    st = payload["settings"]
    heads = [h.format(lengths="/".join(map(str, st["lengths"]))) for h in HEADERS]
    lines = [f"**{_title(st)}**", "", "| " + " | ".join(heads) + " |", "|" + "|".join("---" for _ in heads) + "|"]
    for r in payload["rows"]:
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in _cells(r, st["lengths"])) + " |")
    lines.append("")
    for line in _notes(payload):
        lines += [line, ""]
    text = "\n".join(lines)
    if dest == "-":
        print(text)
    else:
        atomic_write_text(dest, text)
        print(f"wrote {dest}")


def _table(payload) -> None:
    from rich.markup import escape
    from rich.table import Table

    from petheory.cli._console import console

    from petheory.texttable import plain_table

    st = payload["settings"]
    heads = [h.format(lengths="/".join(map(str, st["lengths"]))) for h in HEADERS]
    rows = [_cells(r, st["lengths"]) for r in payload["rows"]]
    con = console()
    if not con.is_terminal:  # a pipe or a file: one line per encoding, every cell whole
        con.print(plain_table(_title(st), heads, rows, right=set(range(2, 9))), markup=False, highlight=False, soft_wrap=True)
    else:
        t = Table(title=_title(st))
        for k, h in enumerate(heads):
            t.add_column(h, style="bold" if k == 0 else None, justify="left" if k in (0, 1, 9) else "right", overflow="fold")
        for row in rows:
            t.add_row(*(escape(c) for c in row))
        con.print(t)
    for line in _notes(payload):
        con.print(escape(line))
