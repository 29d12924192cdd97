r"""The floating-point rounding model shared by the library and the claim catalogue.

Higham, *Accuracy and Stability of Numerical Algorithms* (2002): :math:`u` is the unit roundoff
and :math:`\gamma_n = nu/(1-nu)` bounds the relative error of an n-step sum or inner product
(Lemma 3.1); :func:`tolerance` turns them into an absolute tolerance for a computed quantity.
``proofs_check.tolerance`` builds the claim catalogue's tolerances on these, and the tests use
them next to each identity they protect.
"""

from __future__ import annotations

import math
import re

import numpy as np

from petheory.errors import ValidationError


#: How petheory's JSON writes the floats JSON has no literal for (:func:`petheory.analyses.record.to_json`).
JSON_NONFINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


def json_number(x):
    """A number as petheory's JSON wrote it: ``"inf"``, ``"-inf"`` and ``"nan"`` back to floats, anything else as is.

    Parameters
    ----------
    x : object
        A value read from a record's JSON.

    Returns
    -------
    object
        The float for one of :data:`JSON_NONFINITE`'s strings, else ``x``.

    Examples
    --------
    >>> json_number("inf"), json_number(0.5), json_number("rope")
    (inf, 0.5, 'rope')
    """
    return JSON_NONFINITE[x] if isinstance(x, str) and x in JSON_NONFINITE else x


def unit_roundoff(dtype=np.float64) -> float:
    r"""The unit roundoff :math:`u = \epsilon/2` of ``dtype`` (1.1e-16 for float64).

    Parameters
    ----------
    dtype : numpy dtype, optional
        A floating-point type.

    Returns
    -------
    float
        :math:`u`.

    Examples
    --------
    >>> import numpy as np
    >>> unit_roundoff() == 2.0 ** -53, unit_roundoff(np.float32) == 2.0 ** -24
    (True, True)
    """
    return float(np.finfo(dtype).eps) / 2.0


def gamma(n_ops: int, dtype=np.float64) -> float:
    r"""Higham's :math:`\gamma_n = n u / (1 - n u)`: the relative error bound of an n-step recursive sum or inner product.

    Parameters
    ----------
    n_ops : int
        Roundings in the chain (values below 1 count as 1).
    dtype : numpy dtype, optional
        The floating-point type.

    Returns
    -------
    float
        :math:`\gamma_n`.

    Raises
    ------
    petheory.errors.ValidationError
        :math:`n u \ge 1`: no meaningful bound.

    References
    ----------
    Higham 2002, Lemma 3.1.

    Examples
    --------
    >>> g = gamma(10)
    >>> 10 * unit_roundoff() < g < 10.001 * unit_roundoff()
    True
    """
    u = unit_roundoff(dtype)
    n_ops = max(int(n_ops), 1)
    if n_ops * u >= 1:
        raise ValidationError(f"n_ops={n_ops} is too large for a meaningful rounding bound in {np.dtype(dtype).name}")
    return n_ops * u / (1.0 - n_ops * u)


def eig_rank_tol(n: int, dtype=np.float64) -> float:
    r"""Relative threshold :math:`\gamma_{17n}` under which an eigenvalue of an n x n double-centred matrix is zero,
    relative to the largest eigenvalue modulus.

    Forming :math:`B=-\frac12 J D^{\circ2} J` from *exact* distances costs O(1) roundings per
    entry, each of size at most :math:`4\max D^2 \le 16\lVert B\rVert_2`, so
    :math:`\lVert\delta B\rVert_2 \le n\max|\delta B_{ij}| \lesssim \gamma_{16n}\lVert B\rVert_2`;
    a backward-stable eigensolver adds :math:`\gamma_n\lVert B\rVert_2` (Higham 2002, Weyl).
    Distances that carry their own absolute error (Hellinger distances computed from
    distributions: :math:`\gamma_V` on each squared distance) add an absolute term; callers that
    know it pass the larger threshold to :func:`numerical_rank`.

    Parameters
    ----------
    n : int
        Size of the matrix.
    dtype : numpy dtype, optional
        The floating-point type.

    Returns
    -------
    float
        :math:`\gamma_{17n}`.

    Examples
    --------
    >>> eig_rank_tol(4) == gamma(68)
    True
    """
    return gamma(17 * max(int(n), 1), dtype)


def numerical_rank(values, threshold: float, *, positive: bool = False) -> int:
    """The library's one numerical-rank rule: how many ``values`` are distinguishable from zero.

    ``|v| > threshold`` (``v > threshold`` with ``positive=True``: the rank an embedding can realise). Every rank in
    petheory (classical MDS, effective rank, minimal parametrisation, the claim catalogue) is counted with this
    function, so two of them given the same threshold agree.

    Parameters
    ----------
    values : array_like
        Eigenvalues or singular values.
    threshold : float
        Absolute: the rounding bound of the values (e.g. ``eig_rank_tol(n) * max|lambda|`` plus any input error).
    positive : bool, optional
        Count only values above ``threshold`` (not below ``-threshold``).

    Returns
    -------
    int
        The numerical rank.

    Raises
    ------
    petheory.errors.ValidationError
        ``threshold`` is negative or not finite.

    Examples
    --------
    >>> numerical_rank([3.0, 1e-17, -2.0], 1e-12), numerical_rank([3.0, 1e-17, -2.0], 1e-12, positive=True)
    (2, 1)
    """
    vals = np.asarray(values, dtype=np.float64).ravel()
    threshold = float(threshold)
    if not np.isfinite(threshold) or threshold < 0:
        raise ValidationError(f"threshold must be finite and >= 0, got {threshold}")
    return int(np.count_nonzero((vals if positive else np.abs(vals)) > threshold))


def tolerance(*, n_ops: int, scale: float, cond: float = 1.0, dtype=np.float64) -> float:
    r"""Absolute tolerance :math:`\kappa\,(\gamma_{n}\,s + n\,\eta)` for a computed quantity.

    :math:`\eta` is the smallest subnormal number: with gradual underflow each operation is
    :math:`fl(x \circ y) = (x \circ y)(1 + \delta) + \eta_i`, :math:`|\eta_i| \le \eta`
    (Higham 2002, eq. 2.8), so when the operands are tiny (``scale`` near the underflow
    threshold) the relative model alone would give a tolerance below what rounding can achieve.

    Parameters
    ----------
    n_ops : int
        Length of the longest chain of roundings feeding the quantity (``d`` for a
        d-term inner product, ``n`` for an n x n matrix-vector product, ``n`` for a
        backward-stable eigensolver on an n x n matrix, whose eigenvalue error is about
        ``n u ||A||_2``).
    scale : float
        Size of the operands in the quantity's units: the sum of absolute values of the
        terms, or a norm of the matrix.
    cond : float
        Condition number that amplifies backward into forward error (1 for sums,
        eigenvalues of Hermitian matrices, and norms).
    dtype : numpy dtype, optional
        The floating-point type.

    Returns
    -------
    float
        The tolerance, in the quantity's units.

    Raises
    ------
    petheory.errors.ValidationError
        ``scale`` or ``cond`` not finite, or ``cond < 0``.

    Examples
    --------
    >>> t = tolerance(n_ops=10, scale=2.0)
    >>> abs(t - 2 * gamma(10)) < 1e-300
    True
    """
    scale = float(abs(scale))
    if not np.isfinite(scale) or not np.isfinite(cond) or cond < 0:
        raise ValidationError(f"scale and cond must be finite and cond >= 0, got scale={scale}, cond={cond}")
    eta = float(np.finfo(dtype).smallest_subnormal)
    return float(cond) * (gamma(n_ops, dtype) * scale + max(int(n_ops), 1) * eta)


# --- Comparing two runs of one computation ---------------------------------------------------------------------------
#
# Golden command outputs, committed figure records and the claim catalogue's records are compared with what today's
# code computes, on any processor (BLAS kernels, numpy's SIMD level) and at any load (the thread count follows it):
# :func:`record_differences` is the one rule, keyed by what each field means.

#: A float whose record states no error beside it: a float64 result of sums, products, FFTs and backward-stable
#: eigensolvers on inputs of norm at most ~10 and size at most 4096 (the golden cases, the figures, the catalogue).
#: Another reduction order (thread count, SIMD width, BLAS kernel) moves it by its rounding error: absolute
#: gamma_4096 * 10 = 9.1e-12 for a quantity that is zero in exact arithmetic (ATOL, 10x that: an n of 4096 is not the
#: longest chain, an FFT matvec's log2 n stages add), and relative gamma_n times its condition number for the rest
#: (RTOL = 1e-9 allows a condition number 1e3 over gamma_4096; measured under four emulated processors, the largest
#: relative move of such a number was 1.7e-12). A refactor that changes a formula moves far more.
RTOL, ATOL = 1e-9, 1e-10

#: Errors a record states beside the numbers they bound: ``{error field: {number field: multiple}}``, a multiple
#: ``(i, m)`` for a list of errors (the i-th error bounds that number), or a field name whose range (max - min) is the
#: multiple. Both runs are within their errors of the true value, so the numbers agree within
#: ``multiple * (error_a + error_b)``; a number two errors bound is held to the tighter. An eigenvalue of a matrix
#: singular to rounding (2.1e-14 on one processor, 3.6e-14 on another, error 3.7e-10) compares by its bound.
#:
#: * ``error_bound`` / ``residual`` (:class:`petheory.toeplitz.eigen.EigenEstimate`): some eigenvalue lies within
#:   each of ``value`` (Weyl / Bauer-Fike); the bracket's Rayleigh-quotient end is ``value``.
#: * ``error_bounds`` (a report's spectra): ``[error of lambda_min, error of lambda_max]``.
#: * ``eig_error`` (compare): the larger error of lambda_min and lambda_max; ``spread`` = their difference errs by
#:   up to twice it.
#: * ``resolution`` (Szegő, dense): eigenvalues closer than this are not distinguished (``(n + 2) u max|a|``).
#: * ``error`` (a symbol's extremes): the certified or estimated error of ``min`` and ``max``.
#: * ``error_estimate`` (Szegő by SLQ): the Kolmogorov distance's error (probe noise and quadrature); the
#:   Wasserstein-1 distance of two distributions on an interval of width w is at most w times their Kolmogorov
#:   distance, so its error is at most w times that (w: the symbol's range).
STATED_ERRORS: dict[str, dict[str, object]] = {
    "error_bound": {"value": 1.0, "bracket": 1.0},
    "residual": {"value": 1.0, "bracket": 1.0},
    "error_bounds": {"lambda_min": (0, 1.0), "lambda_max": (1, 1.0)},
    "eig_error": {"lambda_min": 1.0, "lambda_max": 1.0, "spread": 2.0},
    "resolution": {"eigenvalue_range": 1.0},
    "error": {"min": 1.0, "max": 1.0},
    "error_estimate": {"kolmogorov": 1.0, "wasserstein": "symbol_range"},
}

#: How an error figure itself compares. An iterative solver's error bound (a residual norm) is at rounding level once
#: the solver met its target: its digits are noise (3.7e-10 on one processor, 1.3e-10 on another, both under the
#: 1.6e-9 asked for), so it compares by its bound: the record's flag that the solver met its target (compared exactly
#: as a boolean, or no warning), in both runs. ``{error field: flag}``; a flag ``"warnings"`` means an empty list.
SETTLED_BY = {"error_bound": "converged", "residual": "converged", "error_bounds": "warnings",
              "eig_error": "eig_converged"}
#: An error bound that is not settled (a solver stopped at its budget) or an estimate is an order of magnitude: a
#: solver stopped after the same steps along another rounding states another bound of the same size (0.0631 against
#: 0.0621; SLQ's estimate moved 3e-6 relative). Two agree within this factor. The error fields not named here or in
#: SETTLED_BY (``resolution``, ``error``) are formulas of the record's scale (``(n + 2) u max|a|``): within RTOL
#: relative, no ATOL (an error of 1e-10 is not the same as one of 2e-10).
ORDER_OF_MAGNITUDE = {"error_bound", "residual", "error_bounds", "eig_error", "error_estimate"}
ERROR_FACTOR = 2.0

#: Counts of an iteration's steps (how the answer was reached, like its seconds): a stopping rule whose error is at its
#: target to rounding stops one step earlier on another processor (2 Davidson iterations and 6 products instead of 3
#: and 8). Compared as non-negative integers; the answer they led to is compared, and whether it converged exactly.
COSTS = frozenset({"iterations", "matvecs"})

#: The location of an extreme (``argmin``, ``argmax``) that is zero to within its stated ``error``: a symbol that
#: vanishes on an interval to rounding (a Gaussian kernel's) attains it anywhere there, a set the record does not
#: state; the extreme's value is compared by its error. Elsewhere the location compares by RTOL/ATOL.
LOCATIONS = {"argmin": "min", "argmax": "max"}

_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d*)?(?:[eE][-+]?\d+)?")


def _is_num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _err(rec: dict, field: str, spec) -> float | None:
    """The error that ``rec[field]`` states for the number ``spec`` names (None where it states none)."""
    e = rec.get(field)
    if isinstance(spec, tuple):
        i, m = spec
        if isinstance(e, list) and len(e) > i and _is_num(e[i]):
            return m * abs(float(e[i]))
        return None
    if not _is_num(e):
        return None
    if isinstance(spec, str):
        r = rec.get(spec)
        if not (isinstance(r, list) and len(r) == 2 and all(_is_num(x) for x in r)):
            return None
        spec = abs(float(r[1]) - float(r[0]))
    return float(spec) * abs(float(e))


def _settled(a: dict, b: dict, field: str) -> bool:
    flag = SETTLED_BY.get(field)
    if flag == "warnings":
        return a.get(flag) == [] and b.get(flag) == []
    return flag is not None and a.get(flag) is True and b.get(flag) is True


def _sound(e) -> bool:
    vals = e if isinstance(e, list) else [e]
    return all(_is_num(x) and math.isfinite(x) and x >= 0 for x in vals)


def _close(a, b, tol: float) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return abs(a - b) <= tol


def _floats(a, b, tol: float | None, where: str, moved: list) -> list[str]:
    """Two numbers (or lists of them) within ``tol`` (None: RTOL/ATOL); a float pair that differs but agrees is kept
    in ``moved`` (it explains a text that prints it)."""
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _floats(x, y, tol, f"{where}[{i}]", moved)]
    if not (_is_num(a) and _is_num(b)) or type(a) is not type(b):
        return [f"{where}: {a!r} != {b!r}"]
    if isinstance(a, int):
        return [] if a == b else [f"{where}: {a!r} != {b!r}"]
    t = RTOL * max(abs(a), abs(b)) + ATOL if tol is None else tol + RTOL * max(abs(a), abs(b)) + ATOL
    if _close(a, b, t):
        if a != b:
            moved.append((a, b))
        return []
    return [f"{where}: {a!r} != {b!r}" + ("" if tol is None else f" (beyond the stated error {tol:.3g})")]


def _dict(a: dict, b: dict, where: str, moved: list) -> list[str]:
    out = []
    if list(a) != list(b):
        out.append(f"{where or '/'}: keys {list(a)} != {list(b)}")
    stated: dict[str, float] = {}
    for field, numbers in STATED_ERRORS.items():
        if field not in a or field not in b:
            continue
        for key, spec in numbers.items():
            ea, eb = _err(a, field, spec), _err(b, field, spec)
            if key in a and ea is not None and eb is not None:
                stated[key] = min(stated.get(key, math.inf), ea + eb)
    for k in a:
        if k not in b:
            continue
        x, y, at = a[k], b[k], f"{where}/{k}"
        if k in STATED_ERRORS and _sound(x) and _sound(y) and (isinstance(x, list) == isinstance(y, list)):
            if _settled(a, b, k):  # both under the target the solver checked: the digits are rounding
                if (len(x) if isinstance(x, list) else 1) != (len(y) if isinstance(y, list) else 1):
                    out.append(f"{at}: {x!r} != {y!r}")
                elif x != y:
                    moved.extend(zip(x, y) if isinstance(x, list) else [(x, y)])
            elif k in ORDER_OF_MAGNITUDE:
                for i, (p, q) in enumerate(zip(x, y) if isinstance(x, list) else [(x, y)]):
                    if not max(p, q) <= ERROR_FACTOR * min(p, q):
                        out.append(f"{at}{f'[{i}]' if isinstance(x, list) else ''}: {p!r} != {q!r} "
                                   f"(error bounds more than {ERROR_FACTOR}x apart)")
                    elif p != q:
                        moved.append((p, q))
                if isinstance(x, list) and len(x) != len(y):
                    out.append(f"{at}: {len(x)} items != {len(y)}")
            else:  # a formula of its record's scale (u n max|a|): relative rounding, an error of 0 exactly 0
                for i, (p, q) in enumerate(zip(x, y) if isinstance(x, list) else [(x, y)]):
                    if abs(p - q) > RTOL * max(p, q):
                        out.append(f"{at}{f'[{i}]' if isinstance(x, list) else ''}: {p!r} != {q!r}")
                    elif p != q:
                        moved.append((p, q))
                if isinstance(x, list) and len(x) != len(y):
                    out.append(f"{at}: {len(x)} items != {len(y)}")
        elif k in COSTS and isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool):
            if min(x, y) < 0 or isinstance(y, bool):
                out.append(f"{at}: {x!r} != {y!r}")
        elif k in LOCATIONS and _is_num(x) and _is_num(y) and all(
                _is_num(r.get(LOCATIONS[k])) and _is_num(r.get("error"))
                and abs(r[LOCATIONS[k]]) <= abs(r["error"]) for r in (a, b)):
            pass  # the extreme is zero within its error: attained on a set the record does not state
        elif k in stated:
            out += _floats(x, y, stated[k], at, moved)
        else:
            out += _differences(x, y, at, moved)
    return out


def _differences(a, b, where: str, moved: list) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        return _dict(a, b, where, moved)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items != {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{where}[{i}]", moved)]
    if isinstance(a, float) and isinstance(b, float):
        return _floats(a, b, None, where, moved)
    if isinstance(a, str) and isinstance(b, str) and a != b:
        return text_differences(a, b, moved, where)
    if type(a) is not type(b) or a != b:
        return [f"{where}: {a!r} != {b!r}"]
    return []


def _renders(token: str, x: float) -> bool:
    """Whether the printed number ``token`` is ``x`` rounded to the digits it shows."""
    t = token.replace(",", "")
    mant, _, exp = t.lower().partition("e")
    digits = len(mant.split(".")[1]) if "." in mant else 0
    half = 0.5 * 10.0 ** (int(exp or 0) - digits)
    return abs(float(t) - x) <= half * (1 + 1e-9)


def text_differences(want: str, got: str, moved=(), where: str = "") -> list[str]:
    r"""Where two texts differ: line by line, words exactly; a printed number may differ only where it prints a moved float.

    ``moved`` holds the float pairs :func:`record_differences` found within their error in the record the text renders.

    Parameters
    ----------
    want, got : str
        The expected and the new text.
    moved : iterable of (float, float), optional
        Floats that moved within their stated error.
    where : str, optional
        A prefix naming the text in the message.

    Returns
    -------
    list of str
        The first differing line, or a line count that differs; [] when the texts agree.

    Examples
    --------
    >>> text_differences("a 1.0\nb", "a 1.5\nb", where="out")
    ['out line 1:\n  - a 1.0\n  + a 1.5']
    >>> text_differences("a 1.0\nb", "a 1.5\nb", moved=[(1.0, 1.5)])
    []
    """
    w, g = want.splitlines(), got.splitlines()
    for i, (x, y) in enumerate(zip(w, g)):
        if x == y:
            continue
        nx, ny = _NUMBER.findall(x), _NUMBER.findall(y)
        same_words = _NUMBER.split(x) == _NUMBER.split(y) and len(nx) == len(ny)
        if not same_words or not all(p == q or any(_renders(p, a) and _renders(q, b) for a, b in moved)
                                     for p, q in zip(nx, ny)):
            return [f"{where} line {i + 1}:\n  - {x}\n  + {y}"]
    return [] if len(w) == len(g) else [f"{where}: {len(w)} lines != {len(g)}"]


def record_differences(want, got) -> list[str]:
    """Where ``got`` differs from ``want``, two runs of one computation (JSON-like: dicts, lists, str, int, float,
    bool, None): keys in order, lengths, strings, integers and booleans exactly; a float within the error its record
    states beside it (:data:`STATED_ERRORS`), an error figure by its bound (:data:`SETTLED_BY`,
    :data:`ORDER_OF_MAGNITUDE`), any other float within RTOL/ATOL; a text's numbers where they print a float that
    moved within its error earlier in the same document (a command's ``json`` before its ``text``).

    Parameters
    ----------
    want, got : object
        Two runs' JSON-like documents.

    Returns
    -------
    list of str
        One line per difference beyond its error (``/path: want != got (why)``); [] when they agree.

    Examples
    --------
    >>> lo = {"value": 2.1e-14, "error_bound": 3.7e-10, "converged": True}  # singular to rounding
    >>> record_differences(lo, {**lo, "value": 3.6e-14, "error_bound": 1.3e-10})
    []
    >>> record_differences(lo, {**lo, "value": 1e-6})
    ['/value: 2.1e-14 != 1e-06 (beyond the stated error 7.4e-10)']
    """
    return _differences(want, got, "", [])
