"""The verdict table (``docs/verdicts.md``) and the README's verdict counts, generated from a check run.

``python -m proofs_check.verdict_table``            print the table (quick profile, seed 0, built-in claims)
``python -m proofs_check.verdict_table --write``    replace the generated blocks of docs/verdicts.md and README.md
``python -m proofs_check.verdict_table --check``    exit 1 when either block is stale (what the test does)
``--from CHECK.json``                              render a ``petheory check --json`` document instead of running

The run is the one a fresh clone gives: built-in claims only (no plugins), an empty working
directory (no ``runs/`` records), no ``PETHEORY_*`` corpus variables, single-threaded BLAS.
The files change only with ``--write``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from petheory.errors import ValidationError

BEGIN = "<!-- verdict-table:begin (generated: python -m proofs_check.verdict_table --write) -->"
END = "<!-- verdict-table:end -->"
ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The docs pages the generated tables live on (the README keeps the counts and links here).
VERDICTS, COVERAGE = ROOT / "docs" / "verdicts.md", ROOT / "docs" / "coverage.md"
COUNTS_BEGIN = "<!-- verdict-counts:begin (generated: python -m proofs_check.verdict_table --write) -->"
COUNTS_END = "<!-- verdict-counts:end -->"
PROFILE, SEED = "quick", 0


def builtin_papers() -> set[str]:
    """Id prefixes of the built-in claim modules (``gu2025_coupling`` -> ``gu2025``).

    Returns
    -------
    set of str
        The papers.

    Examples
    --------
    >>> {"gu2025", "li2025", "men2024"} <= builtin_papers()
    True
    """
    import proofs_check.claims as pkg
    from petheory.plugins import public_submodules

    return {name.rsplit(".", 1)[1].split("_")[0] for name in public_submodules(pkg)}


@contextlib.contextmanager
def _fresh_clone_env():
    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("PETHEORY_")}
    try:
        yield
    finally:
        os.environ.update(saved)



def fresh_records() -> list[dict]:
    """Records of the quick check of every built-in claim, as a fresh clone computes them.

    Run in a temporary working directory (no ``runs/``), with the BLAS on one thread, profile ``quick`` and seed 0.

    Returns
    -------
    list of dict
        The check records.

    Raises
    ------
    RuntimeError
        A checker crashed.

    Examples
    --------
    >>> records = fresh_records()  # doctest: +SKIP
    >>> render(records).splitlines()[0]  # doctest: +SKIP
    '`petheory check` (profile quick, seed 0, fresh clone): 138 claims: 79 holds, ...'
    """
    from proofs_check.engine import all_claims
    from proofs_check.runner import run

    papers = builtin_papers()
    claims = [c for c in all_claims() if c.id.split(".")[0] in papers]
    with tempfile.TemporaryDirectory() as tmp, _fresh_clone_env():  # BLAS: one thread, as every check (runner)
        records, crashes = run(claims, profile=PROFILE, seed=SEED, quiet=True, workdir=tmp)
    if crashes:
        raise RuntimeError("; ".join(str(c) for c in crashes))
    return records


# Committed text must be the same on every machine of a kind: libm and SIMD paths differ in the last bits
# (3.801440241004919 on one machine, 3.8014402410049195 on another), so every number the table prints is
# rounded to SIG significant digits. A last-bit difference (relative 1e-16) changes a 6-digit rendering only
# when the value sits within 1e-16 of a rounding boundary.
SIG = 6
_LONG_NUMBER = re.compile(r"(?<![\w.])-?\d+\.\d+(?:[eE][-+]?\d+)?(?![\w.])")


def stable_number(x: float, sig: int = SIG) -> float:
    """``x`` rounded to ``sig`` significant digits (what the README prints of a float).

    Parameters
    ----------
    x : float
        The number.
    sig : int, optional
        Significant digits.

    Returns
    -------
    float
        The rounded number.

    Examples
    --------
    >>> stable_number(0.123456789, 4)
    0.1235
    """
    return float(f"{x:.{sig}g}")


def _stable(obj):
    """``obj`` (a JSON value) with every float rounded by :func:`stable_number`."""
    if isinstance(obj, float):
        return stable_number(obj)
    if isinstance(obj, dict):
        return {k: _stable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_stable(v) for v in obj]
    return obj


def stable_text(text: str, sig: int = SIG) -> str:
    """``text`` with every decimal number of more than ``sig`` significant digits rounded to ``sig``.

    Parameters
    ----------
    text : str
        The text.
    sig : int, optional
        Significant digits kept.

    Returns
    -------
    str
        The text with the long numbers rounded (short ones and versions left as they are).

    Examples
    --------
    >>> stable_text("margin 0.12345678901 at 1024, version 5.24.0", 4)
    'margin 0.1235 at 1024, version 5.24.0'
    """
    def short(m):
        digits = len(m.group(0).split("e")[0].split("E")[0].lstrip("-").replace(".", "").lstrip("0"))
        return m.group(0) if digits <= sig else f"{float(m.group(0)):.{sig}g}"
    return _LONG_NUMBER.sub(short, text)


def _cell(text: str, limit: int = 170) -> str:
    """``text`` as one table cell: on one line, long numbers rounded, ``|`` escaped, cut at ``limit`` characters;
    a cut never falls inside a ``$...$`` formula or a code span (it would leave a ``$`` or a backtick open and the
    rest of the row as math or code)."""
    text = stable_text(" ".join(str(text).split())).replace("|", "\\|")
    if len(text) <= limit:
        return text
    cut = text[: limit - 2]
    for mark in ("`", "$"):
        if len(re.findall(rf"(?<!\\){re.escape(mark)}", cut)) % 2:
            cut = cut[: cut.rindex(mark)]
    return cut.rstrip() + " …"


def _counterexample(case, limit: int = 160) -> str:
    text = json.dumps(_stable(case), separators=(",", ":"), allow_nan=False)
    return f"counterexample `{text if len(text) <= limit else text[: limit - 2] + ' …'}`"


def _verdict(r: dict) -> str:
    if r.get("proved"):
        return "**holds** (proved symbolically)"
    if r.get("readings"):
        return f"**{r['verdict']}** — " + "; ".join(f"{x['name']}: {x['verdict']}" for x in r["readings"])
    from proofs_check.report import exploratory_text

    return f"**{r['verdict']}**" + exploratory_text(r)


def _evidence_text(r: dict) -> str:
    if r.get("readings"):
        parts = []
        for x in r["readings"]:
            what = _counterexample(x["counterexample"], 110) if x["verdict"] == "refuted" and x.get("counterexample") is not None else _cell(x["summary"], 90)
            if x["verdict"] == "refuted" and (part := (x.get("quantities") or {}).get("failed_part")):
                what = _cell(part, 140) + ", " + what  # which part of a conjunction failed comes first
            parts.append(f"{x['name']}: {what}")
        head = "premise unsatisfiable; " if r["verdict"] == "vacuous" else ""
        return head + "; ".join(parts)
    if r["verdict"] == "refuted" and r.get("counterexample") is not None and r["kind"] in ("exact", "symbolic"):
        return _counterexample(r["counterexample"])
    if r.get("calibration") or r.get("rules"):  # what limits the verdict first: it must not be cut off
        from proofs_check.report import calibration_text

        head = "; ".join([calibration_text(r.get("calibration"))] * bool(r.get("calibration"))
                         + [x.split(": ", 1)[-1] for x in r.get("rules") or []
                            if not (r.get("calibration") and "calibration out of tolerance" in x)])
        return _cell(head, 300) + " — " + _cell(r.get("summary", "").split(". ", 1)[-1] if r.get("rules") else
                                               r.get("summary", ""), 120)
    return _cell(r.get("summary", ""))


def render(records: list[dict]) -> str:
    """The verdict table's Markdown: a one-line tally and a row per claim (no margins or timings: they vary by machine).

    Parameters
    ----------
    records : list of dict
        The claims' check records.

    Returns
    -------
    str
        The block (summaries' formulas as ``$...$``; a cut cell never leaves one open).

    Examples
    --------
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> print(render([rec]).splitlines()[-1])
    | `demo.x` | lemma | exact |  | **holds** | searched | no counterexample in 60 cases |
    """
    from proofs_check.report import tally

    lines = [
        f"`petheory check` (profile {PROFILE}, seed {SEED}, fresh clone): {tally(records)}.",
        "",
        "| claim | paper status | kind | setup | verdict | evidence | counterexample or summary |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in sorted(records, key=lambda r: r["id"]):
        ev = r.get("evidence") or ""
        lines.append(f"| `{r['id']}` | {r.get('paper_status') or 'unspecified'} | {r['kind']} | {r.get('setup') or ''} | "
                     f"{_verdict(r)} | {ev} | {_evidence_text(r)} |")
    return "\n".join(lines)


def readme_block(text: str, begin: str = BEGIN, end: str = END) -> str:
    r"""The generated block of a page (between the markers, without them).

    Parameters
    ----------
    text : str
        The page.
    begin, end : str, optional
        The markers.

    Returns
    -------
    str
        The block, without surrounding newlines.

    Raises
    ------
    petheory.errors.ValidationError
        The markers are missing.

    Examples
    --------
    >>> readme_block("a\n<!-- b -->\nthe table\n<!-- e -->\n", "<!-- b -->", "<!-- e -->")
    'the table'
    """
    try:
        a = text.index(begin) + len(begin)
        b = text.index(end, a)
    except ValueError:
        raise ValidationError(f"README.md has no generated block: add the markers {begin!r} and {end!r}") from None
    return text[a:b].strip("\n")


def replace_block(text: str, block: str, begin: str = BEGIN, end: str = END) -> str:
    r"""``text`` with the block between ``begin`` and ``end`` replaced by ``block``.

    Parameters
    ----------
    text : str
        The page.
    block : str
        The new block.
    begin, end : str, optional
        The markers.

    Returns
    -------
    str
        The new page.

    Raises
    ------
    petheory.errors.ValidationError
        The markers are missing.

    Examples
    --------
    >>> replace_block("a\n<!-- b -->\nold\n<!-- e -->\n", "new", "<!-- b -->", "<!-- e -->")
    'a\n<!-- b -->\nnew\n<!-- e -->\n'
    """
    readme_block(text, begin, end)  # the markers must be there
    a = text.index(begin) + len(begin)
    b = text.index(end, a)
    return text[:a] + "\n" + block + "\n" + text[b:]


def counts_line(block: str) -> str:
    r"""The README's part of the table: its first line (the verdict counts) and where the table is.

    Parameters
    ----------
    block : str
        The table's block (:func:`render`).

    Returns
    -------
    str
        The line.

    Examples
    --------
    >>> counts_line("`petheory check` (...): 1 claim: 1 holds.\n\n| claim |")
    '`petheory check` (...): 1 claim: 1 holds. The table with every claim: [docs/verdicts.md](docs/verdicts.md).'
    """
    return block.splitlines()[0] + " The table with every claim: [docs/verdicts.md](docs/verdicts.md)."


def main(argv=None) -> int:
    """``python -m proofs_check.verdict_table``: print the verdict table, or rewrite (``--write``) or check (``--check``)
    it and the README's counts; ``--from CHECK.json`` renders a saved run instead of a fresh one.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line).

    Returns
    -------
    int
        The exit code: 1 when ``--check`` finds a block stale.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> rec = {"id": "demo.x", "source": "demo", "statement": "x", "kind": "exact", "verdict": "holds",
    ...        "paper_status": "lemma", "evidence": "searched", "cases": 60, "margin": 0.5, "seconds": 0.1,
    ...        "summary": "no counterexample in 60 cases"}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     saved = pathlib.Path(tmp) / "check.json"
    ...     _ = saved.write_text(json.dumps({"claims": [rec]}))
    ...     code = main(["--from", str(saved)])
    `petheory check` (profile quick, seed 0, fresh clone): 1 claim: 1 holds, 0 refuted, 0 inconclusive, 0 skipped.
    <BLANKLINE>
    | claim | paper status | kind | setup | verdict | evidence | counterexample or summary |
    |---|---|---|---|---|---|---|
    | `demo.x` | lemma | exact |  | **holds** | searched | no counterexample in 60 cases |
    """
    p = argparse.ArgumentParser(prog="python -m proofs_check.verdict_table", description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="rewrite the generated blocks of docs/verdicts.md and README.md")
    g.add_argument("--check", action="store_true", help="exit 1 when either block is stale")
    p.add_argument("--from", dest="source", metavar="CHECK.json", help="render this `petheory check --json` document")
    p.add_argument("--page", default=str(VERDICTS), help=argparse.SUPPRESS)
    p.add_argument("--readme", default=str(README), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    records = json.loads(Path(args.source).read_text())["claims"] if args.source else fresh_records()
    block = render(records)
    rc = update_readme(Path(args.page), block, write=args.write, check=args.check, what="verdict table",
                       command="python -m proofs_check.verdict_table --write")
    if not (args.write or args.check):
        return rc
    return max(rc, update_readme(Path(args.readme), counts_line(block), write=args.write, check=args.check,
                                 what="verdict counts", command="python -m proofs_check.verdict_table --write",
                                 begin=COUNTS_BEGIN, end=COUNTS_END))


def update_readme(path, block: str, *, write: bool, check: bool, what: str, command: str,
                  begin: str = BEGIN, end: str = END) -> int:
    r"""The tail every generated page shares: write the block, check it, or print it.

    ``write`` replaces the block between ``begin`` and ``end`` (atomically); ``check`` says whether it differs from
    ``block`` (naming the ``command`` that fixes it); with neither, ``block`` is printed.

    Parameters
    ----------
    path : str or os.PathLike
        The page.
    block : str
        The block it should hold.
    write, check : bool
        What to do.
    what : str
        The block's name, in the message.
    command : str
        The command that rewrites it.
    begin, end : str, optional
        The markers.

    Returns
    -------
    int
        The exit code: 1 when ``check`` finds it stale, else 0.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     page = pathlib.Path(tmp) / "p.md"
    ...     _ = page.write_text("<!-- b -->\nold\n<!-- e -->\n")
    ...     code = update_readme(page, "new", write=False, check=True, what="table", command="make it",
    ...                          begin="<!-- b -->", end="<!-- e -->")
    /.../p.md: table: stale, run make it
    >>> code
    1
    """
    path = Path(path)
    if write:
        from petheory.io import atomic_write_text

        atomic_write_text(path, replace_block(path.read_text(encoding="utf-8"), block, begin, end))
        print(f"wrote the {what} of {path}")
        return 0
    if check:
        stale = readme_block(path.read_text(encoding="utf-8"), begin, end) != block.strip("\n")
        print(f"{path}: {what}: {'stale, run ' + command if stale else 'up to date'}")
        return 1 if stale else 0
    print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())

