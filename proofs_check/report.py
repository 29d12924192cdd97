"""Render check results: the JSON contract, a Markdown report, and the terminal table."""

from __future__ import annotations

import json
import platform

VERDICT_STYLE = {"holds": "green", "refuted": "red", "inconclusive": "yellow", "skipped": "dim"}


def document(records: list[dict], *, profile: str, seed: int) -> dict:
    """The ``petheory check --json`` document (contract in DESIGN.md, extra keys allowed)."""
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
    out = {"holds": 0, "refuted": 0, "inconclusive": 0, "skipped": 0}
    for r in records:
        out[r["verdict"]] += 1
    return out


def tally(records: list[dict]) -> str:
    """'34 claims: 17 holds, 9 refuted, 2 inconclusive, 6 skipped' (singular for one claim)."""
    c = counts(records)
    noun = "claim" if len(records) == 1 else "claims"
    return f"{len(records)} {noun}: {c['holds']} holds, {c['refuted']} refuted, {c['inconclusive']} inconclusive, {c['skipped']} skipped"


def _verdict_text(r: dict) -> str:
    return "holds (proved symbolically)" if r.get("proved") else r["verdict"]


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, float):
        return f"{x + 0.0:.3g}"  # + 0.0 turns -0.0 into 0.0
    return str(x)


def markdown(records: list[dict], *, profile: str, seed: int) -> str:
    lines = [
        f"# petheory check — profile `{profile}`, seed {seed}",
        "",
        f"{tally(records)}.",
        "",
        "`margin` is the smallest slack seen over the cases, in the statement's units "
        "(negative: the counterexample's violation).",
        "",
        "| claim | kind | verdict | cases | margin | seconds |",
        "|---|---|---|---:|---:|---:|",
    ]
    for r in records:
        lines.append(
            f"| `{r['id']}` | {r['kind']} | **{_verdict_text(r)}** | {r['cases']} | {_fmt(r['margin'])} | {r['seconds']:.2f} |"
        )
    lines.append("")
    for r in records:
        lines += [f"## `{r['id']}` — {_verdict_text(r)}", "", f"*Source:* {r['source']}", "", f"*Statement:* {r['statement']}", ""]
        if r.get("reconstruction"):
            lines += [f"*Reconstruction:* {r['reconstruction']}", ""]
        if r.get("corrected_of"):
            lines += [f"*Corrected variant of* `{r['corrected_of']}`.", ""]
        if r.get("summary"):
            lines += [f"*Evidence:* {r['summary']}", ""]
        if r.get("counterexample") is not None:
            lines += ["*Counterexample (shrunk):*", "", "```json", json.dumps(r["counterexample"], indent=1)[:4000], "```", ""]
        if r.get("details"):
            lines += ["<details><summary>details</summary>", "", "```json", json.dumps(r["details"], indent=1)[:6000], "```", "", "</details>", ""]
        lines += [f"*Reproduce:* `{r['reproduce']}`", ""]
    return "\n".join(lines)


def print_table(records: list[dict], console) -> None:
    from rich.markup import escape
    from rich.table import Table

    t = Table(title="petheory check", show_lines=False)
    for col, kw in (("claim", {"no_wrap": True}), ("kind", {}), ("verdict", {}), ("cases", {"justify": "right"}), ("margin", {"justify": "right"}), ("s", {"justify": "right"}), ("evidence", {"overflow": "fold", "max_width": 60})):
        t.add_column(col, **kw)
    for r in records:
        style = VERDICT_STYLE.get(r["verdict"], "")
        t.add_row(r["id"], r["kind"], f"[{style}]{_verdict_text(r)}[/{style}]", str(r["cases"]), _fmt(r["margin"]), f"{r['seconds']:.2f}", escape(r.get("summary", "")))
    console.print(t)
    console.print(tally(records))
