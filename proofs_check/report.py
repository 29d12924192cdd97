"""Render check results: the JSON contract, a Markdown report, and the terminal table."""

from __future__ import annotations

import json
import platform

VERDICT_STYLE = {"holds": "green", "refuted": "red", "depends": "magenta", "vacuous": "cyan", "inconclusive": "yellow",
                 "not_reproduced": "bright_red", "skipped": "dim"}
#: Verdicts the tally names only when some claim has them.
RARE = ("depends", "vacuous", "not_reproduced")


def document(records: list[dict], *, profile: str, seed: int) -> dict:
    """The ``petheory check --json`` document (the contract in DESIGN.md; extra keys allowed).

    Parameters
    ----------
    records : list of dict
        The claims' check records.
    profile : str
        The profile they ran under.
    seed : int
        The seed.

    Returns
    -------
    dict
        ``petheory`` (the version), ``profile``, ``seed``, ``python``, ``counts`` (per verdict) and ``claims``.

    Examples
    --------
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> doc = document([rec], profile="quick", seed=0)
    >>> doc["counts"]["holds"], doc["claims"][0]["id"]
    (1, 'demo.x')
    """
    from petheory import __version__

    return {
        "petheory": __version__,
        "profile": profile,
        "seed": seed,
        "python": platform.python_version(),
        "counts": counts(records),
        "claims": records,
    }


def counts(records: list[dict]) -> dict:
    """How many records have each verdict.

    Parameters
    ----------
    records : list of dict
        Check records.

    Returns
    -------
    dict
        Verdict -> count, every verdict of ``VERDICTS`` present.

    Examples
    --------
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> c = counts([rec, {**rec, "verdict": "refuted"}])
    >>> c["holds"], c["refuted"], c["skipped"]
    (1, 1, 0)
    """
    from proofs_check.engine import VERDICTS

    out = dict.fromkeys(VERDICTS, 0)
    for r in records:
        out[r["verdict"]] += 1
    return out


def tally(records: list[dict]) -> str:
    """The counts in one line: ``'34 claims: 17 holds, 9 refuted, ...'``.

    Singular for one claim; depends, vacuous and not_reproduced only when present.

    Parameters
    ----------
    records : list of dict
        Check records.

    Returns
    -------
    str
        The line.

    Examples
    --------
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> tally([rec])
    '1 claim: 1 holds, 0 refuted, 0 inconclusive, 0 skipped'
    """
    c = counts(records)
    noun = "claim" if len(records) == 1 else "claims"
    parts = [f"{c[v]} {v}" for v in c if c[v] or v not in RARE]
    return f"{len(records)} {noun}: " + ", ".join(parts)


def _verdict_text(r: dict) -> str:
    if r.get("proved"):
        return "holds (proved symbolically)"
    if r.get("readings") and r["verdict"] in ("depends", "vacuous"):
        return f"{r['verdict']} (" + "; ".join(f"{x['name']}: {x['verdict']}" for x in r["readings"]) + ")"
    return r["verdict"] + exploratory_text(r)


def calibration_text(cal: dict | None, digits: int = 4) -> str:
    """A calibration in one line: ``'calibration (ours vs paper, tolerance 50% relative): sinusoidal 0.2855 vs 0.0423
    (out), ...'``, or ''.

    Parameters
    ----------
    cal : dict or None
        A record's calibration (:meth:`proofs_check.engine.Calibration.compare`).
    digits : int, optional
        Significant digits of the numbers.

    Returns
    -------
    str
        The line ('' without a calibration).

    Examples
    --------
    >>> from proofs_check.engine import Calibration
    >>> cal = Calibration({"wavelet": 0.0108}, 0.5, why="the paper's spread").compare({"wavelet": 0.07664})
    >>> calibration_text(cal)
    'calibration (ours vs paper, tolerance 50% relative): wavelet 0.07664 vs 0.0108 (out)'
    """
    if not cal:
        return ""
    tol = f"{cal['tolerance']:.0%} relative" if cal["relative"] else f"{cal['tolerance']:g} absolute"
    rows = ", ".join(f"{r['row']} {'missing' if r['ours'] is None else format(r['ours'], f'.{digits}g')} vs "
                     f"{r['paper']:.{digits}g} ({'within' if r['within'] else 'out'})" for r in cal["rows"])
    return f"calibration (ours vs paper, tolerance {tol}): {rows}"


def reproduction_lines(r: dict) -> list[str]:
    """The Markdown lines of an empirical record's reproduction fields: setup, pre-registration, calibration, rules.

    Parameters
    ----------
    r : dict
        A check record.

    Returns
    -------
    list of str
        The lines (a blank line after each paragraph); [] for a record without these fields.

    Examples
    --------
    >>> reproduction_lines({"setup": "reconstruction", "alpha": 0.05, "looks": 2})
    ['*Setup:* reconstruction', '', '*Pre-registered:* alpha 0.05 over 2 planned look(s) (each look at 0.025)', '']
    """
    out = []
    if r.get("setup"):
        out += [f"*Setup:* {r['setup']}" + (" (exploratory: written after seeing the records; confirm on "
                                            f"{r.get('confirm_on')})" if r.get("exploratory") else ""), ""]
    if r.get("alpha") is not None:
        out += [f"*Pre-registered:* alpha {r['alpha']:g} over {r.get('looks', 1)} planned look(s) "
                f"(each look at {r['alpha'] / r.get('looks', 1):.3g})"
                + (f"; seeds per configuration {r['seeds']}" if r.get("seeds") else ""), ""]
    if r.get("calibration"):
        cal = r["calibration"]
        out += [f"*Calibration* ({cal['why']}{'; ' + cal['source'] if cal.get('source') else ''}):", "",
                "| row | paper | ours | deviation | within |", "|---|---:|---:|---:|---|"]
        out += [f"| {x['row']} | {x['paper']:.4g} | {_fmt(x['ours'])} | {_fmt(x['deviation'])} | {x['within']} |"
                for x in cal["rows"]]
        out.append("")
    for rule in r.get("rules") or []:
        out += [f"*Rule applied:* {rule}", ""]
    return out


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return f"{x + 0.0:.3g}"  # + 0.0 turns -0.0 into 0.0
    return str(x)


def markdown(records: list[dict], *, profile: str, seed: int) -> str:
    """The Markdown report of a check run: the tally, a table of every claim, then a section per claim with its source,
    statement, readings, evidence and counterexample.

    Parameters
    ----------
    records : list of dict
        The claims' check records.
    profile : str
        The profile they ran under.
    seed : int
        The seed.

    Returns
    -------
    str
        The report.

    Examples
    --------
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> rec["reproduce"] = "petheory check --claims demo.x"
    >>> markdown([rec], profile="quick", seed=0).splitlines()[0]
    '# petheory check — profile `quick`, seed 0'
    """
    lines = [
        f"# petheory check — profile `{profile}`, seed {seed}",
        "",
        f"{tally(records)}.",
        "",
        "`margin` is the smallest slack seen over the cases, in the statement's units "
        "(negative: the counterexample's violation).",
        "",
        "`paper status` is what the paper calls the sentence (an assumption or interpretation is never reported "
        "as refuted); `evidence` is how strong the verdict is: proved, exhaustive, searched, statistical, or "
        "definitional (true by the library's construction).",
        "",
        "| claim | paper status | kind | verdict | evidence | cases | margin | seconds |",
        "|---|---|---|---|---|---:|---:|---:|",
    ]
    for r in records:
        lines.append(
            f"| `{r['id']}` | {r.get('paper_status') or 'unspecified'} | {r['kind']} | **{_verdict_text(r)}** | "
            f"{r.get('evidence') or ''} | {r['cases']} | {_fmt(r['margin'])} | {r['seconds']:.2f} |"
        )
    lines.append("")
    for r in records:
        lines += [f"## `{r['id']}` — {_verdict_text(r)}", "", f"*Source:* {r['source']}", "",
                  f"*Paper status:* {r.get('paper_status') or 'unspecified'}", "", f"*Statement:* {r['statement']}", ""]
        if r.get("reconstruction"):
            lines += [f"*Reconstruction:* {r['reconstruction']}", ""]
        if r.get("corrected_of"):
            lines += [f"*Corrected variant of* `{r['corrected_of']}`.", ""]
        lines += reproduction_lines(r)
        if r.get("evidence"):
            note = f" ({r['evidence_note']})" if r.get("evidence_note") else ""
            lines += [f"*Evidence:* {r['evidence']}{note}", ""]
        if r.get("summary"):
            lines += [f"*Summary:* {r['summary']}", ""]
        if r.get("premise"):
            p = r["premise"]
            lines += [f"*Premise as stated:* {p['statement']} — "
                      + ("satisfiable (witness below)" if p["satisfiable"] else f"no object satisfies it ({p['evidence']}): {p['argument']}"), ""]
        for x in r.get("readings") or []:
            note = f" ({x['evidence_note']})" if x.get("evidence_note") else ""
            lines += [f"*Reading `{x['name']}`* — **{x['verdict']}**, {x.get('evidence') or ''}{note}, {x['cases']} cases, "
                      f"margin {_fmt(x['margin'])}: {x['statement']}", "", f"  {x['summary']}", ""]
            if x.get("counterexample") is not None:
                lines += ["```json", json.dumps(x["counterexample"], indent=1)[:4000], "```", ""]
            if x.get("quantities"):
                lines += ["  *What the checker compared on it:*", "", "```json", json.dumps(x["quantities"], indent=1)[:4000], "```", ""]
            lines += [f"  *Reproduce:* `{x['reproduce']}`", ""]
        if r.get("counterexample") is not None:
            lines += ["*Counterexample (shrunk):*", "", "```json", json.dumps(r["counterexample"], indent=1)[:4000], "```", ""]
            if r.get("quantities"):
                lines += ["*What the checker compared on it:*", "", "```json", json.dumps(r["quantities"], indent=1)[:4000], "```", ""]
        if r.get("details"):
            lines += ["<details><summary>details</summary>", "", "```json", json.dumps(r["details"], indent=1)[:6000], "```", "", "</details>", ""]
        lines += [f"*Reproduce:* `{r['reproduce']}`", ""]
    return "\n".join(lines)


def print_table(records: list[dict], console) -> None:
    """Print the verdict table on ``console``: a rich table on a terminal, plain aligned lines otherwise; then the tally
    and, for each refuted claim, its counterexample and replay command.

    Parameters
    ----------
    records : list of dict
        The claims' check records.
    console : rich.console.Console
        Where to print.

    Examples
    --------
    >>> import io
    >>> from rich.console import Console
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> out = io.StringIO()
    >>> print_table([rec], Console(file=out, width=200))
    >>> print(out.getvalue().splitlines()[0])
    petheory check
    """
    from rich.markup import escape
    from rich.table import Table

    heads = ("claim", "kind", "verdict", "cases", "margin", "s", "evidence")
    rows = [[r["id"], r["kind"], _verdict_text(r), str(r["cases"]), _fmt(r["margin"]), f"{r['seconds']:.2f}",
             (f"{r['evidence']}: " if r.get("evidence") else "") + r.get("summary", "")] for r in records]
    if not console.is_terminal:  # a pipe or a file: one line per claim, every cell whole
        from petheory.texttable import plain_table

        console.print(plain_table("petheory check", heads, rows, right={3, 4, 5}), markup=False, highlight=False,
                      soft_wrap=True)
    else:
        t = Table(title="petheory check", show_lines=False)
        for col, kw in zip(heads, ({"no_wrap": True}, {}, {}, {"justify": "right"}, {"justify": "right"}, {"justify": "right"},
                                   {"overflow": "fold", "max_width": 60})):
            t.add_column(col, **kw)
        for r, row in zip(records, rows):
            style = VERDICT_STYLE.get(r["verdict"], "")
            t.add_row(*row[:2], f"[{style}]{escape(row[2])}[/{style}]", *row[3:6], escape(row[6]))
        console.print(t)
    console.print(tally(records))
    why = refuted_lines(records)
    if why:
        console.print()
        console.print("[bold]Why refuted[/bold]: each counterexample, what the checker compared on it, and the command that "
                      "replays it (empirical ones: their records and test are in the report, --markdown FILE)")
        for line in why:
            console.print(escape(line), soft_wrap=True)  # soft_wrap: a command is never broken inside a token


def refuted_lines(records: list[dict], limit: int = 400) -> list[str]:
    r"""For every refuted claim or reading: its counterexample, the named quantities and the replay command.

    Parameters
    ----------
    records : list of dict
        The claims' check records.
    limit : int, optional
        Characters of a counterexample or quantity list shown (the full ones are in the JSON and Markdown); the replay
        command is never shortened.

    Returns
    -------
    list of str
        The lines.

    Examples
    --------
    >>> rec = {"id": "demo.x", "kind": "exact", "verdict": "refuted", "counterexample": {"n": 3},
    ...        "reproduce": "petheory check --claims demo.x --case '{\"n\":3}'"}
    >>> print("\n".join(refuted_lines([rec])))
    - demo.x: counterexample {"n":3}
        replay: petheory check --claims demo.x --case '{"n":3}'
    """

    def short(x) -> str:
        text = json.dumps(x, separators=(",", ":"), allow_nan=True)
        return text if len(text) <= limit else text[: limit - 3] + "..."

    out = []
    for r in records:
        subs = [(f"{r['id']}#{x['name']}", x) for x in r.get("readings") or [] if x.get("verdict") == "refuted"]
        if r["verdict"] == "refuted" and not subs:
            subs = [(r["id"], r)]
        for name, x in subs:
            if x.get("counterexample") is None:
                continue
            if r["kind"] not in ("exact", "symbolic"):
                out.append(f"- {name}: {x.get('summary') or short(x['counterexample'])}")
                continue
            out.append(f"- {name}: counterexample {short(x['counterexample'])}")
            if x.get("quantities"):
                out.append(f"    compared: {short(x['quantities'])}")
            out.append(f"    replay: {x['reproduce']}")
    return out


def exploratory_text(r: dict) -> str:
    """``' (exploratory)'``, or ``' (exploratory, confirmed on fresh seeds)'`` when its evidence came only from them.

    Parameters
    ----------
    r : dict
        A check record.

    Returns
    -------
    str
        The note ('' for a claim that is not exploratory).

    Examples
    --------
    >>> exploratory_text({"exploratory": True}), exploratory_text({})
    (' (exploratory)', '')
    """
    if not r.get("exploratory"):
        return ""
    return " (exploratory, confirmed on fresh seeds)" if r.get("confirmatory") else " (exploratory)"
