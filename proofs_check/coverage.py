"""Which sentences of each paper the catalogue checks: the coverage section of docs/coverage.md, generated.

``python -m proofs_check.coverage``            print the section
``python -m proofs_check.coverage --write``    replace the block between the markers in docs/coverage.md
``python -m proofs_check.coverage --check``    exit 1 when docs/coverage.md's block is stale (what the test does)

:data:`STATEMENTS` (:mod:`proofs_check.sentences`) is the sentence list, data only: per paper, each result, definition used as a claim and
captioned result (as far as the text we have shows them: ``../shared/papers/``), with where it is, the
sentence (in double quotes when quoted, else a close paraphrase) and, when no claim checks it, why not.

Claims attach to sentences from their own metadata, so adding a claim touches its module only: a claim lands
on every row of its paper whose ``where`` its ``source`` names (see :func:`names`; where one matching ``where``
is part of another, the longer, more specific one wins), a ``__corrected`` variant lands with its original, and
a claim whose source names no listed row gets a row generated from its own source and statement. A row may
still list ``claims=`` by hand (a source shared by several claims of one module cannot say which sentence each
checks): the hand list then places those claims, each named claim's source must name the row, and the list
must equal the claims whose source names the row less those placed by hand elsewhere (:func:`problems`).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from proofs_check.sentences import PAPERS, STATEMENTS, Statement
from proofs_check.verdict_table import COVERAGE, update_readme

BEGIN = "<!-- coverage:begin (generated: python -m proofs_check.coverage --write) -->"
END = "<!-- coverage:end -->"



@dataclass(frozen=True)
class Row:
    """A sentence with the claims attached to it (``generated``: made from a claim whose source names no row).

    Attributes
    ----------
    statement : Statement
        The paper's sentence.
    claims : tuple of str
        Ids of the claims that check it (empty: not checked).
    generated : bool
        Made from a claim whose source names no listed sentence.
    """

    statement: Statement
    claims: tuple
    generated: bool = False




def names(where: str, source: str) -> bool:
    """Whether ``source`` names ``where``: it occurs there as a whole locator, not as part of a longer one.

    ``§6`` is not named by ``§6.1.4``, ``Fig. 2`` not by ``Figs. 2-3`` or ``Fig. 2-3``, ``Eq. 4`` not by ``Eq. 41``.

    Parameters
    ----------
    where : str
        A row's locator.
    source : str
        A claim's source.

    Returns
    -------
    bool
        Whether the source names the row.

    Examples
    --------
    >>> names("Eq. 4", "gu2025 §3.1, Eq. 4 (an equation)"), names("§6", "li2025 §6.1.4")
    (True, False)
    """
    return re.search(r"(?<![\w.])" + re.escape(where) + r"(?![\w]|[.\-]\d)", source) is not None


def _locator(claim) -> str:
    """The part of a claim's source that says where in its own paper: what follows the paper's id (a source
    that cites a classical result 'used in gu2025 §3.3' locates it at '§3.3'); empty when the id is absent."""
    paper = claim.id.split(".")[0]
    i = claim.source.find(paper)
    return "" if i < 0 else claim.source[i + len(paper):]


def _generated(claim) -> Statement:
    what = " ".join(claim.statement.split())
    return Statement(where=" ".join(claim.source.split()), what=what if len(what) <= 240 else what[:239] + "…")


def attach(statements: dict | None = None, claims=None) -> dict[str, list[Row]]:
    """Per paper of :data:`~proofs_check.sentences.PAPERS`, its rows with the claims attached (module docstring).

    Listed rows first, in their order, then one generated row per claim whose source names none; a ``__corrected``
    claim goes beside the claim it corrects.

    Parameters
    ----------
    statements : dict, optional
        Paper -> its :class:`~proofs_check.sentences.Statement` rows (default: the committed list).
    claims : list of Claim, optional
        The claims (default: the built-in catalogue).

    Returns
    -------
    dict
        Paper -> list of :class:`Row`.

    Examples
    --------
    >>> from proofs_check.engine import Claim
    >>> from proofs_check.sentences import Statement
    >>> claims = [Claim(id="gu2025.rope_relative", source="gu2025 §3.1, Eq. 4", statement="x", kind="exact")]
    >>> rows = attach({"gu2025": (Statement("Eq. 4", "RoPE is relative"),)}, claims)["gu2025"]
    >>> [(r.statement.where, r.claims) for r in rows]
    [('Eq. 4', ('gu2025.rope_relative',))]
    """
    statements = STATEMENTS if statements is None else statements
    claims = _catalogue() if claims is None else claims
    by_id = {c.id: c for c in claims}
    out: dict[str, list[Row]] = {}
    for paper in PAPERS:
        rows = statements.get(paper, ())
        own = [c for c in claims if c.id.split(".")[0] == paper]
        primary = [c for c in own if not _corrected_of(c, by_id)]
        by_hand: dict[str, list[int]] = {}
        for i, s in enumerate(rows):
            for cid in s.claims or ():
                by_hand.setdefault(cid, []).append(i)
        placed: dict[int, list[str]] = {i: [] for i in range(len(rows))}
        extra: list[Row] = []
        for c in primary:
            where = by_hand.get(c.id)
            if where is None:
                loc = _locator(c)
                hit = [i for i, s in enumerate(rows) if s.claims is None and names(s.where, loc)]
                where = [i for i in hit if not any(rows[i].where != rows[j].where and rows[i].where in rows[j].where
                                                   for j in hit)]
            for i in where:
                placed[i].append(c.id)
            if not where:
                extra.append(Row(_generated(c), (c.id,), generated=True))
        corrected = {}
        for c in own:
            if (orig := _corrected_of(c, by_id)) is not None:
                corrected.setdefault(orig, []).append(c.id)
        with_variants = lambda ids: tuple(x for cid in ids for x in (cid, *corrected.get(cid, ())))  # noqa: E731
        out[paper] = ([Row(s, with_variants(placed[i])) for i, s in enumerate(rows)]
                      + [Row(r.statement, with_variants(r.claims), True) for r in extra])
    return out


def _corrected_of(c, by_id) -> str | None:
    """The registered original of a ``__corrected`` variant (which is listed with it), else None."""
    orig = c.corrected_of or (c.id.split("__corrected")[0] if "__corrected" in c.id else None)
    return orig if orig in by_id else None


def _catalogue():
    from proofs_check.engine import all_claims
    from proofs_check.verdict_table import builtin_papers

    return [c for c in all_claims() if c.id.split(".")[0] in builtin_papers()]


def _cell(text: str) -> str:
    return text.replace("|", r"\|")


def render(records: dict | None = None) -> str:
    """The coverage section's Markdown: per paper, a count line and a table of its rows and the claims that check them.

    Parameters
    ----------
    records : dict, optional
        Claim id -> its check record, to show each claim's verdict beside it (the committed block names the claims
        only, so it does not change with a verdict).

    Returns
    -------
    str
        The Markdown block (formulas as ``$...$``).

    Examples
    --------
    >>> render().splitlines()[0].startswith("**gu2025** — Gu et al.")
    True
    """
    lines = []
    for paper, rows in attach().items():
        checked = sum(bool(r.claims) for r in rows)
        made = sum(r.generated for r in rows)
        lines += [f"**{paper}** — {PAPERS[paper]}: {checked} of {len(rows)} sentences checked"
                  + (f" ({made} row{'s' if made > 1 else ''} generated from a claim's own source and statement)" if made else "") + ".", "",
                  "| where | sentence | checked by |", "|---|---|---|"]
        for r in rows:
            if r.claims:
                cell = ", ".join(f"`{c}`" + (f" ({records[c]['verdict']})" if records and c in records else "")
                                 for c in r.claims)
            else:
                cell = f"not checked: {r.statement.why_not}"
            where = r.statement.where + (" (generated)" if r.generated else "")
            lines.append(f"| {_cell(where)} | {_cell(r.statement.what)} | {_cell(cell)} |")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def problems(statements: dict | None = None, claims=None) -> list[str]:
    """What makes the sentence list disagree with the catalogue.

    A claim of an unlisted paper, a row listed twice, a hand-placed claim that does not exist or whose source does not
    name the row, a row with neither claims nor a reason (or with both), a claim that lands in no row.

    Parameters
    ----------
    statements : dict, optional
        Paper -> its :class:`~proofs_check.sentences.Statement` rows (default: the committed list).
    claims : list of Claim, optional
        The claims (default: the built-in catalogue).

    Returns
    -------
    list of str
        One line per disagreement; [] when they agree.

    Examples
    --------
    >>> from proofs_check.engine import Claim
    >>> from proofs_check.sentences import Statement
    >>> claims = [Claim(id="gu2025.rope_relative", source="gu2025 §3.1, Eq. 4", statement="x", kind="exact")]
    >>> problems({"gu2025": (Statement("Eq. 4", "RoPE is relative"), Statement("§2", "related work"))}, claims)
    ['gu2025 §2: neither claims nor a reason']
    """
    statements = STATEMENTS if statements is None else statements
    claims = _catalogue() if claims is None else claims
    by_id = {c.id: c for c in claims}
    out = [f"claim {c.id}: its paper is not listed in proofs_check.sentences.PAPERS"
           for c in claims if c.id.split(".")[0] not in PAPERS]
    out += [f"proofs_check.sentences.STATEMENTS has rows for {p}, which PAPERS does not list"
            for p in statements if p not in PAPERS]
    for paper in PAPERS:
        rows = statements.get(paper, ())
        seen = set()
        for s in rows:
            if s.where in seen:
                out.append(f"{paper} {s.where}: listed twice (a where names one row)")
            seen.add(s.where)
        own = [c for c in claims if c.id.split(".")[0] == paper and not _corrected_of(c, by_id)]
        for s in rows:
            if s.claims is None:
                continue
            for cid in s.claims:
                if cid not in by_id:
                    out.append(f"coverage names {cid}, which is not a registered claim")
                elif cid.split(".")[0] != paper:
                    out.append(f"{paper} {s.where}: names {cid}, a claim of another paper")
                elif not names(s.where, _locator(by_id[cid])):
                    out.append(f"{paper} {s.where}: names {cid}, whose source {by_id[cid].source!r} does not name "
                               f"{s.where!r}")
            placed_elsewhere = {cid for t in rows if t is not s for cid in t.claims or ()} - set(s.claims)
            derived = {c.id for c in own if names(s.where, _locator(c)) and c.id not in placed_elsewhere}
            for cid in sorted(derived - set(s.claims)):
                out.append(f"{paper} {s.where}: claim {cid}'s source names this row but its claims= leaves it out")
    for paper, rows in attach(statements, claims).items():
        for r in rows:
            if not r.claims and not r.statement.why_not:
                out.append(f"{paper} {r.statement.where}: neither claims nor a reason")
            if r.claims and r.statement.why_not:
                out.append(f"{paper} {r.statement.where}: checked by {', '.join(r.claims)} but says why not "
                           f"({r.statement.why_not[:60]}...): name a more specific where, or drop the reason")
    landed = {cid for rows in attach(statements, claims).values() for r in rows for cid in r.claims}
    out += [f"claim {c.id} lands in no row" for c in claims if c.id.split(".")[0] in PAPERS and c.id not in landed]
    return out


def main(argv=None) -> int:
    """``python -m proofs_check.coverage``: print the coverage section, or rewrite it (``--write``) or check it (``--check``).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line).

    Returns
    -------
    int
        The exit code: 1 when the list disagrees with the catalogue or, with ``--check``, the page is stale.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = main(["--check"])
    >>> code, out.getvalue().strip().endswith("up to date")
    (0, True)
    """
    p = argparse.ArgumentParser(prog="python -m proofs_check.coverage", description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="rewrite the coverage block of docs/coverage.md")
    g.add_argument("--check", action="store_true", help="exit 1 when docs/coverage.md's block is stale")
    p.add_argument("--readme", default=str(COVERAGE), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    bad = problems()
    if bad:
        print("coverage list disagrees with the catalogue: " + "; ".join(bad))
        return 1
    return update_readme(Path(args.readme), render(), write=args.write, check=args.check, what="coverage section",
                         command="python -m proofs_check.coverage --write", begin=BEGIN, end=END)


if __name__ == "__main__":
    sys.exit(main())
