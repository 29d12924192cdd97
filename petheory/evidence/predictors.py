r"""``plan``'s checks as predictors: each evaluated on the table's rows, and the pre-registered test.

A row is *evaluable* when it extends (target > pretrain_length), has a baseline (:attr:`Row.met` is not None), a
rotary dimension, and frequencies the registry can give from what it states (:func:`positions`): plain RoPE as
trained (``none``), PI, NTK-aware and YaRN with a stated factor, Llama 3 with a stated factor, a base change with a
stated new base, transformers' dynamic NTK with a stated factor where the row's target is at or past its training
length (below it, Lu et al.'s dynamic scaling counts from the training length, not the target). Dynamic NTK without
its factor, YaRN + dual chunk attention (DCA remaps the distances the frequencies see), LongRoPE's searched factors
and the other methods are not: their rows inform the expectations only.

Each evaluable row is checked by ``plan``'s own :func:`~petheory.analyses.plan.analyse`, passed in by the caller (this
module sits below ``plan``), at the row's target with L its pre-training length; the checks are ``men``, ``liu``
and ``phase``. Evaluating every row takes about 2 s (Men's column to each target), more than ``plan`` may spend, so
the outcomes are committed beside the table (``petheory/data/extension_checks.json``, written by ``python
tools/evidence_checks.py --write``; :func:`committed` reads them, and a test recomputes them and fails when stale).

The test, named before any row was evaluated (:func:`fisher`): per check and regime, the 2 x 2 table
[[fails & below baseline, fails & meets it], [passes & below, passes & meets]] and Fisher's exact test, one-sided
(H1: a failing check goes with a result below the baseline), and the opposite one-sided test beside it. A table whose
margins cannot give a p-value below alpha, whatever the cells (a margin of 0 or 1: every row passes, or fails, or
meets its baseline), cannot reject: :attr:`Test.can_reject` is False and the test decides nothing.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

from petheory import encodings as enc
from petheory.errors import ValidationError
from petheory.loaders.safe_json import read_json
from petheory.evidence import table as T
from petheory.scheme import Positions

__all__ = ["CHECKS", "OUTCOMES", "positions", "evaluable", "outcomes", "committed", "Test", "fisher", "fisher_greater", "tests"]

#: The checks of ``plan`` this module evaluates (its CHECKS, in order).
CHECKS = ("men", "liu", "phase")
#: The committed outcomes (:func:`committed`).
OUTCOMES = T.PATH.with_name("extension_checks.json")


def positions(row: T.Row) -> tuple[Positions, tuple] | None:
    """The row's pre-training positions and its method as a ``plan`` candidate tuple, or None (module docstring).

    Parameters
    ----------
    row : Row
        A row of the table.

    Returns
    -------
    tuple or None
        ``(Positions, (name, label, encoding, params, note))``; None when the row's frequencies are not known.

    Examples
    --------
    >>> p, c = positions(next(r for r in T.rows() if r.id == "lu2024_pi_ft32k_32k"))
    >>> c[2], c[3]["scale"]
    ('rope_pi', 8.0)
    """
    if row.rotary_dim is None:
        return None
    b, r, f, L = row.base, row.rotary_dim, row.factor, row.pretrain_length
    pos = Positions("rotary", "rope", {"base": b, "pairing": "half", "rotary_dim": r}, r)
    keep = {"pairing": "half", "rotary_dim": r}
    m = row.method
    if m == "none":
        cand = ("as_configured", "rope", "rope", {"base": b, **keep}, "")
    elif m == "abf" and row.new_base is not None:
        cand = ("base", f"rope_theta {row.new_base:g}", "rope", {"base": row.new_base, **keep}, "")
    elif f is None:
        return None
    elif m == "pi":
        cand = ("pi", f"linear x{f:g}", "rope_pi", {"base": b, "scale": f, **keep}, "")
    elif m == "dynamic_ntk":  # transformers' dynamic NTK: base b (f n/L - f + 1)^(r/(r-2)) at length n
        if row.train_length is not None and row.target < row.train_length:
            return None
        cand = ("dynamic", f"dynamic NTK, factor {f:g}", "rope_dynamic", {"base": b, "scale": f, "n_max": L, **keep}, "")
    elif m == "ntk":
        cand = ("ntk", f"NTK-aware x{f:g}", "rope", {"base": enc.ntk_base(b, f, r), **keep}, "")
    elif m == "yarn":  # plan's yarn candidate: beta_fast 32, beta_slow 1, transformers' ramp
        cand = ("yarn", f"YaRN x{f:g}", "rope_yarn",
                {"base": b, "scale": f, "n_max": L, "alpha": 1.0, "beta": 32.0, "ramp": "code", **keep}, "")
    elif m == "llama3":
        cand = ("llama3", f"llama3 x{f:g}", "rope_llama3",
                {"base": b, "scale": f, "n_max": L, "low_freq_factor": 1.0, "high_freq_factor": 4.0, **keep}, "")
    else:
        return None
    return pos, cand


def evaluable(rows=None) -> list:
    """The rows the checks are evaluated on (module docstring).

    Parameters
    ----------
    rows : sequence of Row, optional
        Default: the committed table.

    Returns
    -------
    list of Row

    Examples
    --------
    >>> all(r.target > r.pretrain_length and r.met is not None for r in evaluable())
    True
    """
    rows = T.rows() if rows is None else rows
    return [r for r in rows if r.target > r.pretrain_length and r.met is not None and positions(r) is not None]


def outcomes(analyse, rows=None) -> list[dict]:
    """Per evaluable row: its id, regime, whether it met its baseline, and each check's pass/fail by ``analyse``.

    Parameters
    ----------
    analyse : callable
        :func:`petheory.analyses.plan.analyse` (``analyse(pos, cand, context=L, length=N) -> CandidatePlan``).
    rows : sequence of Row, optional
        Default: the committed table.

    Returns
    -------
    list of dict
        ``{"id", "regime", "met", "men", "liu", "phase", "detail"}`` (True: the check passes).

    Examples
    --------
    >>> from petheory.analyses.plan import analyse
    >>> o = outcomes(analyse, [r for r in T.rows() if r.id == "lu2024_pi_ft32k_32k"])
    >>> o[0]["met"], o[0]["men"]
    (False, False)
    """
    out = []
    for r in evaluable(rows):
        pos, cand = positions(r)
        c = analyse(pos, cand, context=r.pretrain_length, length=r.target)
        passed = {x.name: bool(x.passed) for x in c.checks}
        out.append({"id": r.id, "regime": r.regime, "met": r.met, **{k: passed[k] for k in CHECKS},
                    "detail": {x.name: x.detail for x in c.checks}})
    return out


def committed(path=None) -> list[dict]:
    """The outcomes committed in ``path`` (default :data:`OUTCOMES`), each row's id checked against the table.

    Parameters
    ----------
    path : path-like, optional
        A file in the committed format.

    Returns
    -------
    list of dict
        As :func:`outcomes` gives them.

    Raises
    ------
    ValidationError
        Not the committed format, or a row the table does not hold (the message names it).

    Examples
    --------
    >>> len(committed()) == len(evaluable())
    True
    """
    return list(_committed(str(OUTCOMES if path is None else Path(path))))


@functools.lru_cache(maxsize=2)
def _committed(path: str) -> tuple:
    doc = read_json(Path(path), what="evidence check outcomes")
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise ValidationError(f"{path}: expected an object with a 'rows' list (python tools/evidence_checks.py --write)")
    ids = {r.id: r for r in T.rows()}
    out = []
    for i, r in enumerate(doc["rows"]):
        if not isinstance(r, dict) or r.get("id") not in ids:
            raise ValidationError(f"{path}: row {i}: field 'id' names no row of the evidence table; rerun "
                                  "python tools/evidence_checks.py --write")
        bad = [k for k in ("met", *CHECKS) if not isinstance(r.get(k), bool)]
        if bad or r.get("regime") not in T.REGIMES:
            raise ValidationError(f"{path}: row {i} ({r['id']}): field '{(bad or ['regime'])[0]}' is "
                                  f"{r.get((bad or ['regime'])[0])!r}; expected true/false (regime: one of {T.REGIMES})")
        out.append(r)
    return tuple(out)


@dataclass(frozen=True)
class Test:
    """One pre-registered test: a check as a predictor of the rows of one regime (module docstring).

    ``table`` is [[fails & below, fails & meets], [passes & below, passes & meets]]; ``p`` the one-sided p-value
    (H1: failing goes with below), ``p_opposite`` the other side's; ``min_p`` the smallest p any table with these
    margins could give; ``accuracy`` the share of rows the check classifies right (fail -> below, pass -> meets).

    Attributes
    ----------
    check : str
        The check tested as a predictor (``'men'``, ``'liu'`` or ``'phase'``, the module's ``CHECKS``).
    regime : str
        The regime whose rows it is tested on.
    table : tuple of tuple of int
        2x2 counts [[fails & below, fails & meets], [passes & below, passes & meets]].
    p : float or None
        One-sided Fisher p-value (H1: failing goes with below).
    p_opposite : float or None
        The other side's p-value.
    min_p : float or None
        Smallest p any table with these margins could give.
    accuracy : float or None
        Share of rows the check classifies right (fail -> below, pass -> meets).
    alpha : float
        The pre-registered level the test is judged at.
    """

    check: str
    regime: str
    table: tuple
    p: float | None
    p_opposite: float | None
    min_p: float | None
    accuracy: float | None
    alpha: float

    @property
    def n(self) -> int:
        """The rows tested."""
        return sum(sum(r) for r in self.table)

    @property
    def can_reject(self) -> bool:
        """Whether some table with these margins gives p < alpha (else the test decides nothing)."""
        return self.min_p is not None and self.min_p < self.alpha

    def line(self) -> str:
        """The test in one line: rows classified right, the table, p, and whether it can decide."""
        (a, b), (c, d) = self.table
        if self.n == 0:
            return f"{self.check} ({self.regime.replace('_', '-')}): no evaluable row"
        acc = f"right on {a + d}/{self.n}"
        why = "" if self.can_reject else " (margins cannot reach alpha: decides nothing)"
        return (f"{self.check} ({self.regime.replace('_', '-')}): {acc}; fails {a + b} (below baseline {a}), passes "
                f"{c + d} (below {c}); Fisher one-sided p {self.p:.3g}{why}")


def fisher_greater(table) -> float:
    """Fisher's exact one-sided p-value P(X >= a) for [[a, b], [c, d]] (hypergeometric, margins fixed); exact in
    integers (:func:`math.comb`), so ``plan`` needs no scipy (the tests compare it with ``scipy.stats.fisher_exact``).

    Parameters
    ----------
    table : sequence of two pairs of int
        [[a, b], [c, d]].

    Returns
    -------
    float

    Examples
    --------
    >>> round(fisher_greater([[5, 0], [0, 5]]), 6)
    0.003968
    """
    (a, b), (c, d) = table
    r1, c1, n = a + b, a + c, a + b + c + d
    hi = min(r1, c1)
    num = sum(math.comb(c1, k) * math.comb(n - c1, r1 - k) for k in range(a, hi + 1))
    return min(1.0, num / math.comb(n, r1))


def _min_p(table) -> float:
    """The smallest one-sided p-value of Fisher's test over the tables with ``table``'s margins."""
    (a, b), (c, d) = table
    r1, c1, n = a + b, a + c, a + b + c + d
    hi = min(r1, c1)  # the most extreme table puts every failing row below the baseline
    return fisher_greater([[hi, r1 - hi], [c1 - hi, n - r1 - c1 + hi]])


def fisher(check: str, regime: str, rows: list[dict], alpha: float = 0.05) -> Test:
    """The test of ``check`` on the outcome dicts of ``regime`` (module docstring).

    Parameters
    ----------
    check : str
        ``men``, ``liu`` or ``phase``.
    regime : str
        ``training_free`` or ``fine_tuned``.
    rows : list of dict
        From :func:`outcomes` or :func:`committed`.
    alpha : float, optional
        The level a test must be able to reach to decide anything.

    Returns
    -------
    Test

    Examples
    --------
    >>> t = fisher("men", "fine_tuned", committed())
    >>> t.n > 0, 0 <= t.accuracy <= 1
    (True, True)
    """
    sel = [r for r in rows if r["regime"] == regime]
    table = ((sum(not r[check] and not r["met"] for r in sel), sum(not r[check] and r["met"] for r in sel)),
             (sum(r[check] and not r["met"] for r in sel), sum(r[check] and r["met"] for r in sel)))
    if not sel:
        return Test(check, regime, table, None, None, None, None, alpha)
    (a, b), (c, d) = table
    p = fisher_greater(table)
    q = fisher_greater(((b, a), (d, c)))  # the other side: failing goes with meeting the baseline
    acc = (table[0][0] + table[1][1]) / len(sel)
    return Test(check, regime, table, p, q, _min_p(table), acc, alpha)


def tests(rows: list[dict], alpha: float = 0.05) -> dict:
    """Every pre-registered test: ``{(check, regime): Test}``.

    Parameters
    ----------
    rows : list of dict
        From :func:`outcomes` or :func:`committed`.
    alpha : float, optional
        As :func:`fisher`.

    Returns
    -------
    dict

    Examples
    --------
    >>> sorted(tests(committed()))[:2]
    [('liu', 'fine_tuned'), ('liu', 'training_free')]
    """
    return {(c, g): fisher(c, g, rows, alpha) for c in CHECKS for g in T.REGIMES}
