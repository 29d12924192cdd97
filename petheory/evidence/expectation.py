r"""What the table says a candidate can expect at N: one line, stated in advance, with its error.

The model (:data:`MODEL`): for a candidate's method family (:data:`petheory.evidence.table.METHODS`), a regime
(training-free or fine-tuned) and the extension ratio s = N / L, the rows of the table with that family and regime,
the RULER score as metric, and an extension ratio within a factor :data:`WINDOW` of s; a fine-tuned row counts only
at the length it was trained at (the answer to "train with it at N"; a model evaluated below its training length, or
past it, answers another question); the expectation is their median, with their range. Its error is the leave-one-source-out error: every matched row predicted by the median of
the matched rows of the *other* sources (a source is the paper or report, :func:`paper`), the mean absolute
difference; with one source there is nothing to hold out and the error is not known (said so). No matched row:
"no evidence" (never an extrapolation).
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass

from petheory.evidence import table as T

__all__ = ["MODEL", "WINDOW", "METRIC", "Expectation", "expect", "matched", "paper"]

#: Rows count when their extension ratio is within this factor of the candidate's.
WINDOW = 2.0
#: The metric the expectation is in (the one most rows share).
METRIC = "ruler"
#: The model of the table in one line (printed by ``plan``).
MODEL = (f"median and range of the RULER score at the target over the table's rows of the same regime and method "
         f"family whose extension ratio target/L is within x{WINDOW:g} of N/L (fine-tuned rows: at their training "
         "length); error: leave-one-source-out mean absolute error")


def paper(row: T.Row) -> str:
    """The source a row comes from (its paper or report: the ``source`` field up to the first comma).

    Parameters
    ----------
    row : Row
        A row of the table.

    Returns
    -------
    str

    Examples
    --------
    >>> paper(T.rows()[0])
    'Lu et al. 2024'
    """
    return row.source.split(",")[0].strip()


@dataclass(frozen=True)
class Expectation:
    """The expected RULER score of a method family in a regime at extension ratio ``s`` (see the module docstring).

    ``rows`` are the matched row ids; ``median``/``low``/``high`` None when none matched; ``loso_error`` None with
    fewer than two sources; ``methods`` the matched rows' methods with their counts; ``short_context`` the short-context costs (metric, change, source) the
    table reports for the family and regime within the window (any metric: a cost is the trained model's).

    Attributes
    ----------
    family : str
        The method family (``'pi'``, ``'ntk'``, ``'yarn'``, ...).
    regime : str
        ``'training_free'`` or ``'fine_tuned'``.
    s : float
        The extension ratio asked about.
    rows : tuple of str
        Ids of the matched evidence rows.
    sources : tuple of str
        Their distinct sources.
    median, low, high : float or None
        Median and range of the matched rows' scores (None when none matched).
    loso_error : float or None
        Leave-one-source-out error of the median (None with fewer than two sources).
    methods : tuple of (str, int)
        The matched rows' methods with their counts.
    short_context : tuple
        Short-context costs the table reports for the family and regime within the window: (metric, change, source).
    train_tokens : tuple
        The fine-tuning token counts of the matched rows (fine-tuned regime).
    """

    family: str
    regime: str
    s: float
    rows: tuple
    sources: tuple
    median: float | None
    low: float | None
    high: float | None
    loso_error: float | None
    methods: tuple
    short_context: tuple
    train_tokens: tuple

    @property
    def evidence(self) -> bool:
        return bool(self.rows)

    def line(self) -> str:
        """The expectation in one line (the median, range, rows, sources, error), or "no evidence: ..."."""
        if not self.rows:
            return (f"no evidence: no {self.regime.replace('_', '-')} {self.family} row with a RULER score at an "
                    f"extension within x{WINDOW:g} of {self.s:g}")
        meth = ", ".join(f"{m} x{n}" if n > 1 else m for m, n in self.methods)
        err = (f"leave-one-source-out error {self.loso_error:.1f}" if self.loso_error is not None
               else "leave-one-source-out error unknown (one source)")
        toks = ""
        if self.train_tokens:
            lo, hi = min(self.train_tokens), max(self.train_tokens)
            toks = f"; trained on {lo:.2g}" + (f"-{hi:.2g}" if hi != lo else "") + " tokens"
        out = (f"RULER {self.median:.1f} [{self.low:.1f}, {self.high:.1f}] (median [range] of {len(self.rows)} row"
               f"{'s' if len(self.rows) > 1 else ''}: {meth}; {len(self.sources)} source{'s' if len(self.sources) > 1 else ''}"
               f"{toks}; {err})")
        if self.short_context:
            by = {}
            for metric, change, src in self.short_context:
                by.setdefault(src.split(",")[0] + ", " + src.split(", ")[-1].split(" (")[0], []).append(f"{metric} {change:+g}")
            out += "; short-context cost where reported: " + "; ".join(f"{', '.join(v)} ({k})" for k, v in by.items())
        return out


def matched(family: str, regime: str, s: float, rows=None) -> list:
    """The rows :func:`expect` reads for ``family`` in ``regime`` at ``s`` (module docstring), in the table's order.

    Parameters
    ----------
    family : str
        A method family (:data:`petheory.evidence.table.FAMILIES`).
    regime : str
        ``training_free`` or ``fine_tuned``.
    s : float
        N / L.
    rows : sequence of Row, optional
        Default: the committed table.

    Returns
    -------
    list of Row

    Examples
    --------
    >>> [r.id for r in matched("llama3", "fine_tuned", 16.0)][:1]
    ['ruler_llama31_8b_128k']
    """
    rows = T.rows() if rows is None else rows
    return [r for r in rows if r.family == family and r.regime == regime and r.metric == METRIC
            and s / WINDOW <= r.extension <= s * WINDOW
            and (r.regime == "training_free" or r.train_length is None or r.train_length == r.target)]


def expect(family: str, regime: str, s: float, rows=None) -> Expectation:
    """The expectation of ``family`` in ``regime`` at extension ratio ``s`` (module docstring).

    Parameters
    ----------
    family : str
        A method family (:data:`petheory.evidence.table.FAMILIES`).
    regime : str
        ``training_free`` or ``fine_tuned``.
    s : float
        N / L.
    rows : sequence of Row, optional
        Default: the committed table.

    Returns
    -------
    Expectation

    Examples
    --------
    >>> e = expect("yarn", "training_free", 4.0)
    >>> e.evidence, e.median > 50
    (True, True)
    >>> expect("pi", "training_free", 4.0).line().startswith("no evidence")
    True
    """
    if family not in T.FAMILIES:
        from petheory.errors import ValidationError

        raise ValidationError(f"family must be one of {', '.join(T.FAMILIES)}, got {family!r}")
    rows = T.rows() if rows is None else rows
    m = matched(family, regime, float(s), rows)
    if not m:
        return Expectation(family, regime, float(s), (), (), None, None, None, None, (), (), ())
    vals = [r.value for r in m]
    sources = tuple(sorted({paper(r) for r in m}))
    loso = None
    if len(sources) > 1:
        errs = [abs(r.value - statistics.median([o.value for o in m if paper(o) != paper(r)])) for r in m]
        loso = sum(errs) / len(errs)
    # short-context costs: any metric, the same family, regime and window (a cost is the trained model's, at any target)
    sc = tuple((r.short_context["metric"], r.short_context["change"], r.short_context["source"]) for r in rows
               if r.short_context and r.family == family and r.regime == regime
               and float(s) / WINDOW <= r.extension <= float(s) * WINDOW)
    return Expectation(family, regime, float(s), tuple(r.id for r in m), sources, statistics.median(vals), min(vals),
                       max(vals), loso, tuple(Counter(r.method for r in m).most_common()), sc,
                       tuple(r.train_tokens for r in m if r.train_tokens is not None))
