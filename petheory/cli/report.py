"""``petheory report``: the one-page report of a model's positional scheme (from its config.json) or a registry PE.

Per model: the per-band table, the position-only kernel against distance, certified spectrum
extremes at L, 2L, 4L, 8L of the original context L, stress against random tables, and the bound
notes, one section per distinct layer kind (:func:`petheory.analyses.report.report`); on the terminal, as JSON (``--json``) and as
Markdown (``--markdown``). Several ``--pe`` give several reports and, with ``--figure``, one figure
comparing their kernels and band wavelengths side by side.
"""

from __future__ import annotations

from pathlib import Path
from petheory.cli._model import add_as_family
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

    add_as_family(p)
    p.add_argument("--pe", action="append", required=True, metavar="SPEC",
                   help="hf:DIR or PATH/config.json (a model), or a registered encoding (rope_llama3:scale=8); repeat "
                        f"for several models. {GRAMMAR}")
    p.add_argument("--length", type=int, metavar="N", help="report length N >= 1 for the bands and the kernel (default: "
                   "the model's extended context, max(max_position_embeddings, L * factor)); sliding layers at min(N, W)")
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


def run(args) -> int:
    from petheory import __version__
    from petheory.analyses.report import check_covered, report
    from petheory.cli._progress import Lines
    from petheory.io import atomic_write_json, atomic_write_text
    from petheory.loaders import resolve_scheme

    if args.length is not None and args.length < 1:
        raise ValidationError(f"--length must be >= 1, got {args.length}")
    if args.null_draws < 0 or args.seed < 0:
        raise ValidationError("--null-draws and --seed must be >= 0")
    mults = _multiples(args.multiples)
    # --context and -d are a registry encoding's (a model's config fixes its own): defaults for plain specs only
    schemes = [resolve_scheme(text, default_d=args.d_model or 128, default_context=args.context, what="report", as_family=args.as_family)
               for text in args.pe]
    if (args.context is not None or args.d_model is not None) and all(s.source not in ("spec",) for s in schemes):
        raise ValidationError("--context/--d-model apply to registry encodings; a model's config fixes both (drop them)")
    for scheme in schemes:  # every refusal before any work: one line, nothing half done
        check_covered(scheme)
    lines = Lines("report", quiet=args.quiet)
    reports = []
    from petheory import _memory, io as pio

    if args.figure:  # the figure's data goes to FILE.json: never over another command's output
        fig = Path(args.figure)
        pio.refuse_replacing(fig.with_suffix(".json") if fig.suffix.lower() == ".png" else fig.with_name(fig.name + ".json"),
                             own_field="figure", by="a petheory figure")
    for text, scheme in zip(args.pe, schemes):  # the memory estimate of every report before any work
        _memory.require_model_report(scheme, length=args.length, multiples=mults, what=f"report of {text}")
    for text, scheme in zip(args.pe, schemes):
        def progress(done, total, what, _t=text):
            lines.step(done, total, f"{_t}: {what}")

        reports.append(report(scheme, length=args.length, multiples=mults, null_draws=args.null_draws, seed=args.seed,
                              source=str(text), progress=progress).as_dict())
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


def _kernel_points(sec: dict) -> list:
    return [(p["k"], p["a_over_a0"]) for p in sec["kernel"]["points"]]


def _layers(idx) -> str:
    from petheory.scheme import layer_ranges

    return layer_ranges(idx)


def summary_lines(r: dict) -> list[str]:
    """The report's header: what was resolved, L and N, the layer kinds (plain text)."""
    kinds = ", ".join(f"{len(sec['layers'])} x {_kind_name(sec)}" for sec in r["sections"])
    return [f"{r.get('source')}  ({r['model_type']})",
            f"context   original L = {r['context']:,}, max_position_embeddings {r['max_context']:,}; report at N = "
            f"{r['length']:,}; {r['num_layers']} layers: {kinds}; {r['num_heads']} heads x {r['head_dim']}"]


def _kind_name(sec: dict) -> str:
    span = sec["span"]
    where = "" if span["kind"] == "full" else f" {span['kind']} {span['size']:,}"
    enc = sec.get("encoding", {}).get("encoding") or sec["mechanism"]
    return f"{sec['type'] or 'attention'}{where} ({enc})"


def section_lines(sec: dict) -> list[str]:
    """A section's header lines: layers, encoding, dimension, factors."""
    out = [f"layers    {_layers(sec['layers'])}: {_kind_name(sec)}"]
    if "skipped" in sec:
        return out + [f"          {sec['skipped']}"]
    enc = sec["encoding"]
    out.append(f"encoding  {enc['encoding']}: {_params(enc)}")
    out.append(f"acts on   d = {enc['d']}" + (f", {enc['rotary_dim'] // 2} rotary bands; rotary logit factor "
                                             f"{_g(enc['rotary_logit_factor'], 6)}" if "rotary_dim" in enc else "")
               + f"; logit factor {_g(sec['logit_factor'], 6)} (on every logit, beyond 1/sqrt(d_head)); analysed at N = "
               f"{sec['analysed_length']:,}")
    return out


def markdown(r: dict) -> str:
    """The report as Markdown: header, then per layer kind: bands, kernel, spectra, stress, bounds, notes."""
    out = [f"## {r.get('source')}", ""] + [f"- {line}" for line in summary_lines(r)[1:]]
    for sec in r["sections"]:
        out += ["", f"### Layers {_layers(sec['layers'])}: {_kind_name(sec)}", ""]
        out += [f"- {line[10:].strip()}" for line in section_lines(sec)[1:]]
        if "skipped" in sec:
            continue
        if sec.get("heads"):
            out.append("- ALiBi slopes per head: " + ", ".join(_g(h["slope"]) for h in sec["heads"]))
        if sec["bands"]:
            out += ["", f"#### Bands (at N = {sec['analysed_length']:,})", "",
                    "| band | frequency (rad/pos) | original | wavelength (pos) | turns over L | interpolation | regime | phase seen at N |",
                    "|---:|---:|---:|---:|---:|---:|---|---|"]
            for b in sec["bands"]:
                out.append(f"| {b['band']} | {_g(b['frequency'], 6)} | {_g(b['original_frequency'], 6)} | "
                           f"{_g(b['wavelength'], 6)} | {_g(b['turns_over_L'])} | {_g(b['interpolation'])} | {b['regime']} | "
                           f"{'yes' if b['phase_seen'] else 'no'} |")
        if sec.get("buckets"):
            out += ["", "#### T5 buckets (offset j - i)", "", "| bucket | offsets | count |", "|---:|---|---:|"]
            out += [f"| {b['bucket']} | {b['offsets'][0]}..{b['offsets'][1]} | {b['count']} |" for b in sec["buckets"]]
        k = sec["kernel"]
        out += ["", "#### Kernel against distance", ""]
        if "skipped" in k:
            out.append(f"Not computed: {k['skipped']}.")
        else:
            out += [f"{k['formula']}; a_0 = {_g(k['a0'], 6)}.", "", "| k | a_k / a_0 |", "|---:|---:|"]
            out += [f"| {d:,} | {_g(x)} |" for d, x in _kernel_points(sec)]
            for key, what in (("max_abs_over_a0_within_L", "within [L/2, L)"), ("max_abs_over_a0_beyond_L", "beyond L, [L, N)")):
                if key in k:
                    out.append(f"\nmax |a_k|/a_0 {what}: {_g(k[key]['value'])}")
        out += ["", "#### Spectrum extremes of the N x N kernel", ""]
        if isinstance(sec["spectra"], dict):
            out.append(f"Not computed: {sec['spectra']['skipped']}.")
        else:
            out += ["| N | λ_min | λ_max | error bounds | certificate | seconds |", "|---:|---:|---:|---:|---|---:|"]
            for s in sec["spectra"]:
                out.append(f"| {s['multiple']}L = {s['n']:,} | {_g(s['lambda_min'], 6)} | {_g(s['lambda_max'], 6)} | "
                           f"{_g(s['error_bounds'][0], 2)}, {_g(s['error_bounds'][1], 2)} | {s['certificates'][1]} | "
                           f"{s['seconds']} |")
        out += ["", "#### Stress against random tables", "", stress_line(sec["stress"])]
        out += ["", "#### Bound notes", ""] + [f"- {x}" for x in bound_lines(sec["bounds"])]
        if "long_context" in sec:
            out += ["", "#### Long-context theory (Men, Liu, RoFormer, temperatures)", ""] + _long_context(sec)
        if sec["notes"]:
            out += ["", "#### Notes", ""] + [f"- {n}" for n in sec["notes"]]
    if r["notes"]:
        out += ["", "### Notes", ""] + [f"- {n}" for n in r["notes"]]
    return "\n".join(out)


def _long_context(sec: dict) -> list[str]:
    """The long-context lines of a rotary section (petheory.bounds.long_context), or none."""
    from petheory.bounds.long_context import long_context_lines

    lc = sec.get("long_context")
    if not lc:
        return []
    return [f"skipped: {lc['skipped']}"] if "skipped" in lc else long_context_lines(lc)


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
    """The report on the terminal (rich), each band table cut to 16 rows (the full ones are in --json/--markdown)."""
    from rich.markup import escape
    from rich.table import Table

    from petheory.cli._console import console

    con = console(quiet=quiet)
    head = summary_lines(r)
    con.print(f"[bold]{escape(head[0])}[/bold]")
    for line in head[1:]:
        con.print(escape(line))
    for sec in r["sections"]:
        con.print("")
        for line in section_lines(sec):
            con.print(escape(line))
        if "skipped" in sec:
            continue
        if sec["bands"]:
            t = Table(title=f"bands at N = {sec['analysed_length']:,} ({len(sec['bands'])}; 16 shown, all in "
                      "--json/--markdown)", title_justify="left")
            for col in ("band", "ω (rad/pos)", "wavelength", "turns over L", "interp.", "regime", "phase seen at N"):
                t.add_column(col, justify="right" if col not in ("regime",) else "left")
            for b in _band_rows(sec["bands"], 16):
                t.add_row(str(b["band"]), _g(b["frequency"]), _g(b["wavelength"]), _g(b["turns_over_L"]),
                          _g(b["interpolation"]), b["regime"], "yes" if b["phase_seen"] else "[yellow]no[/yellow]")
            con.print(t)
        k = sec["kernel"]
        if "skipped" in k:
            con.print(f"kernel    not computed: {escape(k['skipped'])}")
        else:
            pts = ", ".join(f"k={d:,}: {_g(x, 3)}" for d, x in _kernel_points(sec))
            con.print(f"kernel    a_k/a_0  {pts}")
            if "max_abs_over_a0_beyond_L" in k:
                con.print(f"          max |a_k|/a_0 beyond L: {_g(k['max_abs_over_a0_beyond_L']['value'], 3)}"
                          + (f" (within [L/2, L): {_g(k['max_abs_over_a0_within_L']['value'], 3)})"
                             if "max_abs_over_a0_within_L" in k else ""))
        if isinstance(sec["spectra"], list):
            for s in sec["spectra"]:
                con.print(f"spectrum  {s['multiple']}L = {s['n']:>9,}: λ in [{_g(s['lambda_min'], 6)}, "
                          f"{_g(s['lambda_max'], 6)}] (error <= {_g(s['error_bounds'][0], 2)}, {_g(s['error_bounds'][1], 2)}; "
                          f"{s['certificates'][1]}; {s['seconds']} s)")
        con.print(f"stress    {escape(stress_line(sec['stress']))}")
        for line in bound_lines(sec["bounds"]):
            con.print(f"bounds    {escape(line)}")
        for line in _long_context(sec):
            con.print(f"theory    {escape(line)}")
        for n in sec["notes"]:
            con.print(f"[dim]note      {escape(n)}[/dim]")
    for n in r["notes"]:
        con.print(f"[dim]note      {escape(n)}[/dim]")
    con.print(f"[dim]({r['seconds']} s)[/dim]")
