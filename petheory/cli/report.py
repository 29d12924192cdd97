"""``petheory report``: the one-page report of a model's positional scheme (from its config.json) or a registry PE.

Per model: the per-band table, the position-only kernel against distance, certified spectrum
extremes at L, 2L, 4L, 8L of the original context L, stress against random tables, and the bound
notes (:func:`petheory.models.report.model_report`); on the terminal, as JSON (``--json``) and as
Markdown (``--markdown``). Several ``--pe`` give several reports and, with ``--figure``, one figure
comparing their kernels and band wavelengths side by side.
"""

from __future__ import annotations

from pathlib import Path
from petheory.errors import ValidationError


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
    from petheory.spec import GRAMMAR

    p.add_argument("--pe", action="append", required=True, metavar="SPEC",
                   help="hf:DIR or PATH/config.json (a model), or a registered encoding (rope_llama3:scale=8); repeat "
                        f"for several models. {GRAMMAR}")
    p.add_argument("--length", type=int, metavar="N", help="report length N for the bands and the kernel (default: the "
                   "model's extended context, max(max_position_embeddings, L * factor))")
    p.add_argument("--context", type=int, metavar="L", help="original context L of a registry encoding (default: its "
                   "n_max, else 4096); a model's comes from its config")
    p.add_argument("-d", "--d-model", type=int, metavar="D", help="head dimension of a registry encoding (default 128)")
    p.add_argument("--multiples", default="1,2,4,8", metavar="LIST", help="spectra at these multiples of L (default 1,2,4,8)")
    p.add_argument("--null-draws", type=int, default=100, metavar="K", help="random tables of the stress null (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first random table (default 0)")
    p.add_argument("--json", metavar="FILE", help="write the report(s) as JSON to FILE ('-' for stdout)")
    p.add_argument("--markdown", metavar="FILE", help="write the report(s) as Markdown to FILE ('-' for stdout)")
    p.add_argument("--figure", metavar="FILE.png", help="draw the models' kernels and band wavelengths side by side "
                   "(FILE.png and FILE.json)")


def _multiples(text: str) -> tuple:
    try:
        vals = tuple(int(t) for t in str(text).split(",") if t.strip())
    except ValueError:
        raise ValidationError(f"--multiples must be comma-separated integers such as 1,2,4,8, got {text!r}") from None
    if not vals or any(m < 1 for m in vals):
        raise ValidationError(f"--multiples must be integers >= 1, got {text!r}")
    return vals


def resolve(text: str, args):
    """``--pe`` text -> (ModelScheme, label)."""
    from petheory import encodings as enc
    from petheory.loaders.model_config import load_model_scheme
    from petheory.models.report import scheme_of
    from petheory.spec import parse_pe_spec

    term = parse_pe_spec(text).registered("report")
    if term.model is not None:
        return load_model_scheme(term.model), term.model
    if term.is_table:
        from petheory.loaders.model_config import not_a_model

        raise ValidationError(f"report takes a model's config.json (hf:DIR, PATH/config.json) or a registered encoding: "
                              f"{not_a_model(term)}")
    info = enc.info(term.name)
    term.check_params(info.params)
    if info.kind == "absolute" or (info.kind == "bias" and term.name != "alibi"):
        raise ValidationError(f"report covers rotary encodings and ALiBi; {term.name} is {info.kind} (use petheory spectrum)")
    d = args.d_model or 128
    return scheme_of(term.name, term.params, d, context=args.context or 4096), str(term)


def run(args) -> int:
    from petheory import __version__
    from petheory.io import atomic_write_json, atomic_write_text
    from petheory.models.report import model_report

    if args.length is not None and args.length < 2:
        raise ValidationError(f"--length must be >= 2, got {args.length}")
    if args.null_draws < 0 or args.seed < 0:
        raise ValidationError("--null-draws and --seed must be >= 0")
    mults = _multiples(args.multiples)
    resolved = [resolve(text, args) for text in args.pe]
    if (args.context is not None or args.d_model is not None) and all(m.model_type != "registry" for m, _ in resolved):
        raise ValidationError("--context/--d-model apply to registry encodings; a model's config fixes both (drop them)")
    reports = []
    from petheory import _memory, io as pio

    if args.figure:  # the figure's data goes to FILE.json: never over another command's output
        fig = Path(args.figure)
        pio.refuse_replacing(fig.with_suffix(".json") if fig.suffix.lower() == ".png" else fig.with_name(fig.name + ".json"),
                             own_field="figure", by="a petheory figure")
    for model, label in resolved:
        _memory.require_model_report(model, length=args.length, multiples=mults, what=f"report of {label}")
        reports.append(model_report(model, length=args.length, multiples=mults, null_draws=args.null_draws,
                                    seed=args.seed, source=label))
    doc = {"petheory": __version__, "reports": reports}
    if args.json == "-":
        import json

        print(json.dumps(doc, indent=2))
    elif args.json:
        atomic_write_json(args.json, doc)
    if args.markdown:
        text = "\n\n".join(markdown(r) for r in reports) + "\n"
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
        for r in reports:
            show(r, quiet=args.quiet)
    return 0


# ------------------------------------------------------------------------------------ rendering


def _g(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


def _params(enc: dict) -> str:
    items = []
    for k, v in enc["params"].items():
        if isinstance(v, list):
            v = f"[{len(v)} numbers]"
        elif isinstance(v, dict):
            v = "{" + ", ".join(f"{a}={_g(b) if not isinstance(b, list) else f'[{len(b)}]'}" for a, b in v.items()) + "}"
        else:
            v = _g(v, 6) if isinstance(v, float) else v
        items.append(f"{k}={v}")
    return ", ".join(items) or "defaults"


def _band_rows(bands: list, limit: int | None) -> list:
    if limit is None or len(bands) <= limit:
        return bands
    idx = sorted(set(round(i * (len(bands) - 1) / (limit - 1)) for i in range(limit)))
    return [bands[i] for i in idx]


def _kernel_points(r: dict) -> list:
    return [(p["k"], p["a_over_a0"]) for p in r["kernel"]["points"]]


def summary_lines(r: dict) -> list[str]:
    """The report's header: what was resolved, L and N, layers and notes (plain text)."""
    enc = r["encoding"]
    lines = [f"{r.get('source') or enc['encoding']}  ({r['model_type']})",
             f"encoding  {enc['encoding']}: {_params(enc)}",
             f"acts on   d = {enc['d']}" + (f", {enc['rotary_dim'] // 2} rotary bands; rotary logit factor "
                                            f"{_g(enc['rotary_logit_factor'], 6)}" if "rotary_dim" in enc else "")
             + f"; logit factor {_g(r['logit_factor'], 6)} (on every logit, beyond 1/sqrt(d_head))",
             f"context   original L = {r['context']:,}, max_position_embeddings {r['max_context']:,}; report at N = "
             f"{r['length']:,}; layers {', '.join(f'{k} {v}' for k, v in r['layers'].items())}; {r['num_heads']} heads x "
             f"{r['head_dim']}"]
    return lines


def markdown(r: dict) -> str:
    """The report as Markdown: header, per-band table, kernel, spectra, stress, bounds, notes."""
    out = [f"## {r.get('source') or r['encoding']['encoding']}", ""]
    out += [f"- {line}" for line in summary_lines(r)[1:]]
    if r.get("heads"):
        out.append("- ALiBi slopes per head: " + ", ".join(_g(h["slope"]) for h in r["heads"]))
    if r["bands"]:
        out += ["", f"### Bands (at N = {r['length']:,})", "",
                "| band | frequency (rad/pos) | original | wavelength (pos) | turns over L | interpolation | regime | phase seen at N |",
                "|---:|---:|---:|---:|---:|---:|---|---|"]
        for b in r["bands"]:
            out.append(f"| {b['band']} | {_g(b['frequency'], 6)} | {_g(b['original_frequency'], 6)} | {_g(b['wavelength'], 6)} "
                       f"| {_g(b['turns_over_L'])} | {_g(b['interpolation'])} | {b['regime']} | {'yes' if b['phase_seen'] else 'no'} |")
    if r.get("buckets"):
        out += ["", "### T5 buckets (offset j - i)", "", "| bucket | offsets | count |", "|---:|---|---:|"]
        out += [f"| {b['bucket']} | {b['offsets'][0]}..{b['offsets'][1]} | {b['count']} |" for b in r["buckets"]]
    k = r["kernel"]
    out += ["", "### Kernel against distance", ""]
    if "skipped" in k:
        out.append(f"Not computed: {k['skipped']}.")
    else:
        out += [f"{k['formula']}; a_0 = {_g(k['a0'], 6)}.", "", "| k | a_k / a_0 |", "|---:|---:|"]
        out += [f"| {d:,} | {_g(x)} |" for d, x in _kernel_points(r)]
        for key, what in (("max_abs_over_a0_within_L", "within [L/2, L)"), ("max_abs_over_a0_beyond_L", "beyond L, [L, N)")):
            if key in k:
                out.append(f"\nmax |a_k|/a_0 {what}: {_g(k[key]['value'])}")
    out += ["", "### Certified spectrum extremes of the N x N kernel", ""]
    if isinstance(r["spectra"], dict):
        out.append(f"Not computed: {r['spectra']['skipped']}.")
    else:
        out += ["| N | λ_min | λ_max | error bounds | symbol range | seconds |", "|---:|---:|---:|---:|---|---:|"]
        for s in r["spectra"]:
            out.append(f"| {s['multiple']}L = {s['n']:,} | {_g(s['lambda_min'], 6)} | {_g(s['lambda_max'], 6)} | "
                       f"{_g(s['error_bounds'][0], 2)}, {_g(s['error_bounds'][1], 2)} | [{_g(s['symbol_min'])}, "
                       f"{_g(s['symbol_max'])}] | {s['seconds']} |")
    out += ["", "### Stress against random tables", "", stress_line(r["stress"])]
    out += ["", "### Bound notes", ""] + [f"- {x}" for x in bound_lines(r["bounds"])]
    if r["notes"]:
        out += ["", "### Notes", ""] + [f"- {n}" for n in r["notes"]]
    return "\n".join(out)


def stress_line(st: dict) -> str:
    if "skipped" in st:
        return f"not computed: {st['skipped']}"
    line = f"stress {st['stress']:.4f} (Kruskal stress-1, n = {st['n']} positions of the built-in corpus, d = {st['d']})"
    null = st.get("null")
    if null:
        line += (f"; {null['draws']} random N(0,1) tables: {null['mean']:.4f} ± {null['sd']:.4f}, this scheme at "
                 f"percentile {null['percentile']:.0f} (lower is better)")
    return line


def bound_lines(b: dict) -> list[str]:
    if "skipped" in b:
        return [f"not computed: {b['skipped']}"]
    lines = [f"norm (li2025 Table 2): stated {b['norm']['stated_formula']}; {b['norm']['meaning']}",
             f"Rademacher (li2025 §4.2): {_g(b['rademacher'])} = {b['rademacher_formula']}"]
    a = b.get("angles")
    if a:
        lines.append(f"angles: {a['full_turn']} of {a['bands']} bands made a full turn within L = {a['n_max']:,}; at N = "
                     f"{a['length']:,} {a['out_of_range']} bands leave the angle range pre-training saw"
                     + (f" (from N = {a['onset']:,})" if a["out_of_range"] else ""))
    if b.get("eq9"):
        e = b["eq9"]
        lines.append(f"ALiBi Eq. 9 (li2025): key at distance {e['distance']:,} > N_max = {e['n_max']:,}: drift bound "
                     f"{_g(e['bound'])} (slope {_g(e['slope'])}, L_A = {e['L_A']})")
    return lines


def show(r: dict, *, quiet: bool) -> None:
    """The report on the terminal (rich), the band table cut to 16 rows (the full one is in --json/--markdown)."""
    from rich.markup import escape
    from rich.table import Table

    from petheory.cli._console import console

    con = console(quiet=quiet)
    head = summary_lines(r)
    con.print(f"[bold]{escape(head[0])}[/bold]")
    for line in head[1:]:
        con.print(escape(line))
    if r["bands"]:
        t = Table(title=f"bands at N = {r['length']:,} ({len(r['bands'])}; 16 shown, all in --json/--markdown)",
                  title_justify="left")
        for col in ("band", "ω (rad/pos)", "wavelength", "turns over L", "interp.", "regime", "phase seen at N"):
            t.add_column(col, justify="right" if col not in ("regime",) else "left")
        for b in _band_rows(r["bands"], 16):
            t.add_row(str(b["band"]), _g(b["frequency"]), _g(b["wavelength"]), _g(b["turns_over_L"]),
                      _g(b["interpolation"]), b["regime"], "yes" if b["phase_seen"] else "[yellow]no[/yellow]")
        con.print(t)
    k = r["kernel"]
    if "skipped" in k:
        con.print(f"kernel    not computed: {escape(k['skipped'])}")
    else:
        pts = ", ".join(f"k={d:,}: {_g(x, 3)}" for d, x in _kernel_points(r))
        con.print(f"kernel    a_k/a_0  {pts}")
        if "max_abs_over_a0_beyond_L" in k:
            con.print(f"          max |a_k|/a_0 beyond L: {_g(k['max_abs_over_a0_beyond_L']['value'], 3)}"
                      + (f" (within [L/2, L): {_g(k['max_abs_over_a0_within_L']['value'], 3)})"
                         if "max_abs_over_a0_within_L" in k else ""))
    if isinstance(r["spectra"], list):
        for s in r["spectra"]:
            con.print(f"spectrum  {s['multiple']}L = {s['n']:>9,}: λ in [{_g(s['lambda_min'], 6)}, {_g(s['lambda_max'], 6)}] "
                      f"(error <= {_g(s['error_bounds'][0], 2)}, {_g(s['error_bounds'][1], 2)}; {s['seconds']} s)")
    con.print(f"stress    {escape(stress_line(r['stress']))}")
    for line in bound_lines(r["bounds"]):
        con.print(f"bounds    {escape(line)}")
    for n in r["notes"]:
        con.print(f"[dim]note      {escape(n)}[/dim]")
    con.print(f"[dim]({r['seconds']} s)[/dim]")
