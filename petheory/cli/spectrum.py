"""``petheory spectrum``: symbol range, eigenvalue range and Szegő distance of a Hermitian Toeplitz matrix.

The matrix comes from coefficients (inline or a file), from a positional encoding (the
position-only Gram ``P P^T`` of an absolute PE, the bias ``B`` of a bias PE, the unit-content
kernel ``Re sum_t e^{ik theta_t}`` of RoPE) or from a relative-position kernel.
"""

from __future__ import annotations

import json

from petheory.cli._model import add_as_family
from petheory.errors import ValidationError, ValidationTypeError

NAME = "spectrum"
HELP = "symbol range, eigenvalue range at N and Szegő distance of a Toeplitz matrix (coefficients, a PE or a kernel)"
DESCRIPTION = (
    "Spectral summary of a Hermitian Toeplitz matrix T_N[i,j] = a_{i-j} (gu2025 §3.3): the range of its symbol "
    "a(theta) = sum_k a_k e^{ik theta}, the extreme eigenvalues (certified: FFT-based, any N), and the Kolmogorov and "
    "Wasserstein distances between the eigenvalue distribution and the symbol's value distribution (Szegő). "
    "Sources: --coeffs/--file (first column a_0..a_{N-1}; --row for the first row), --pe SPEC "
    "(absolute: P P^T; bias: B; rotary: the unit-content kernel), --kernel NAME (exponential, gaussian, power)."
)


def add_arguments(p) -> None:
    """Declare ``petheory spectrum``'s options on ``p``: the matrix's source (coefficients, a file, a PE or a kernel),
    its size and the spectral options (from the library's declarations).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--coeffs", "1,0.5", "--length", "64"]).length
    64
    """
    from petheory.analyses.kernel import RTOL
    from petheory.analyses.spectrum import spectrum
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.loaders import resolve_scheme

    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--coeffs", metavar="LIST", help="first column a_0,a_1,... inline, comma-separated (complex as 1+2j)")
    src.add_argument("--file", metavar="PATH", help="first column from a .npy or .txt file (1-D)")
    add_as_family(p)
    add_pe(src, "encoding", "model", "table")
    src.add_argument("--kernel", metavar="NAME", help="relative-position kernel: exponential, gaussian or power")
    p.add_argument("--row", metavar="LIST", help="first row a_0,a_{-1},... (default conj of the column: Hermitian)")
    add_param(p, spectrum, "length", metavar="N", help="matrix size (default: the number of coefficients; the rows of "
              "a table file or hf:DIR; 1024 for a named PE or kernel). "
              "Shorter coefficient lists are zero-padded (banded), longer ones cut to the N x N section")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D",
              help="model dimension of an absolute or rotary PE (default 64; a model's config.json fixes its own)")
    p.add_argument("--kernel-length", type=float, default=4.0, metavar="L", help="kernel length scale (default 4)")
    add_param(p, resolve_scheme, "key", metavar="TENSOR",
              help="tensor name in a table file with several tensors (same as SPEC#TENSOR)")
    add_param(p, spectrum, "project",
              help="refuse a source matrix that is not Toeplitz instead of analysing its Toeplitz projection")
    add_param(p, spectrum, "hermitian_part", help="use (T + T^H)/2 when the data is not Hermitian")
    add_param(p, spectrum, "rtol",
              help=f"relative accuracy of the extreme eigenvalues (default {RTOL:g}, as in report and compare)")
    add_param(p, spectrum, "method",
              help="Szegő distance: dense eigenvalues (exact: O(N^3), about 2 s at N=1024 and 30 s at N=4096 on 2 "
                   "cores), stochastic Lanczos quadrature (slq: ~10 s at N=4096, minutes at N=2^20), none (off); "
                   "auto (default): exact up to N=1024, off beyond (--method exact or slq computes it)")
    add_param(p, spectrum, "seed", help="seed of the SLQ probes")
    p.add_argument("--json", metavar="FILE", help="write the record as JSON to FILE ('-' for stdout)")


def _parse_list(name: str, text: str):
    import numpy as np

    items = [t.strip() for t in str(text).replace(";", ",").split(",")]
    if not any(items):
        raise ValidationError(f"{name} is empty; give comma-separated numbers such as 1,0.5,0.25")
    vals = []
    for t in items:
        if not t:
            raise ValidationError(f"{name} has an empty entry: {text!r}")
        try:
            vals.append(complex(t.replace(" ", "")) if "j" in t.lower() else float(t))
        except ValueError:
            raise ValidationError(f"{name} entry {t!r} is not a number") from None
    return np.asarray(vals)


def _read_file(path: str):
    from pathlib import Path

    import numpy as np

    from petheory.loaders.paths import regular_file

    p = regular_file(Path(path), what="file of Toeplitz coefficients (.npy or text, one a_k per line)")
    if p.suffix.lower() == ".npy":
        from petheory.loaders import load_npy

        arr = load_npy(p)
    else:
        text = p.read_text()
        if not text.strip():
            raise ValidationError(f"{p} is empty; give the coefficients a_0..a_{{N-1}}, one per line")
        try:
            arr = np.loadtxt(p, dtype=complex if "j" in text.lower() else float, ndmin=1)
        except ValueError as exc:
            raise ValidationError(f"could not read {p} as numbers: {exc}") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number)):
        raise ValidationTypeError(f"{p} must hold numbers, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValidationError(f"{p} must hold a 1-D array of coefficients a_0..a_{{N-1}}, got shape {arr.shape}")
    return arr


def _section(c, n):
    """First column of the N x N section: cut, or zero-pad a banded sequence."""
    import numpy as np

    if n is None or n == c.shape[0]:
        return c
    if n < c.shape[0]:
        return c[:n]
    from petheory import _memory

    _memory.require(_memory.array_bytes(n, itemsize=2 * c.dtype.itemsize), f"zero-padded coefficients (--length {n})",
                    alternative="use a smaller --length")
    out = np.zeros(n, dtype=c.dtype)
    out[: c.shape[0]] = c
    return out


#: --method auto: the Szegő distance from dense eigenvalues up to this N, none beyond (petheory.analyses.spectrum).
DEFAULT_N = 1024


def _scheme(args):
    """``--pe`` (with ``--key`` and ``-d``) resolved once into its Scheme."""
    from petheory.loaders import resolve_scheme

    return resolve_scheme(args.pe, d=args.d, key=args.key, what="spectrum", as_family=args.as_family)


def run(args) -> int:
    """Summarise the spectrum of the Toeplitz matrix the arguments name (:func:`petheory.analyses.spectrum.spectrum` or
    :func:`petheory.analyses.spectrum.toeplitz_summary`) and print it (or write it).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("spectrum").parse_args(["spectrum", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("spectrum").parse_args(["spectrum", "--coeffs", "2,1,0.5", "--method", "off"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'T_N: coefficients from --coeffs; N = 3, Hermitian real symmetric')
    """

    from petheory import toeplitz as tp
    from petheory.analyses.spectrum import EXACT_UP_TO, exact_seconds, spectrum, toeplitz_summary
    from petheory.cli._progress import Lines

    lines = Lines("spectrum", quiet=args.quiet)  # long work: say so on stderr (never with -q)

    def starting(how):  # called once the size is accepted, so a refusal stays a one-line error
        if n_now[0] > EXACT_UP_TO:
            how = f"dense eigenvalues, about {exact_seconds(n_now[0]):.0f} s" if how == "exact" else \
                "stochastic Lanczos quadrature"
            lines.line(f"Szegő distance at N = {n_now[0]} by {how}")

    n_now = [0]
    symbol_fn = None
    if args.pe is not None:
        # --row is the first row of coefficients the user gives (--coeffs, --file): which flags go together is the
        # command line's grammar (the library takes a column and a row, or a scheme)
        if args.row is not None:
            raise ValidationError("--row goes with --coeffs or --file, not --pe")
        scheme = _scheme(args)
        n_now[0] = args.length or DEFAULT_N
        try:
            full = spectrum(scheme, length=args.length, rtol=args.rtol, method=args.method, seed=args.seed,
                            project=args.project, hermitian_part=args.hermitian_part, progress=starting)
        except tp.NotToeplitzError as e:
            raise ValidationError(f"{e}; drop --no-project to analyse its Toeplitz projection") from None
        secs = full.computed
        if not secs:
            raise ValidationError(f"{args.pe}: no layer kind has a position-only kernel ("
                                  + "; ".join(s.skipped for s in full.sections) + ")")
        rec = full.command_json()
        text = full.lines(rtol=args.rtol)
    else:
        if args.coeffs is not None or args.file is not None:
            c = _parse_list("--coeffs", args.coeffs) if args.coeffs is not None else _read_file(args.file)
            c = _section(c, args.length)
            r = None if args.row is None else _section(_parse_list("--row", args.row), c.shape[0])
            what = f"coefficients from {'--coeffs' if args.coeffs is not None else args.file}"
        else:
            if args.row is not None:
                raise ValidationError("--row goes with --coeffs or --file, not --kernel")
            K = tp.kernel(args.kernel)
            n = args.length or DEFAULT_N
            c, r = K.column(n, args.kernel_length), None
            what = f"{K.name} kernel, length {args.kernel_length}: {K.formula}"
            if K.symbol is not None:
                symbol_fn = lambda t: K.symbol_values(t, args.kernel_length)  # noqa: E731
        c, r = tp.coefficients(c, r)
        if args.hermitian_part:  # (T + T^H)/2 is Toeplitz with first column (c + conj(r))/2
            c, r = tp.hermitian_part(c, r), None
            what += " (Hermitian part)"
        try:  # the spectral theory needs a Hermitian T: a clear one-line error otherwise
            c, r = tp.coefficients(c, r, hermitian=True)
        except ValueError as exc:
            raise ValidationError(f"{exc}; --hermitian-part analyses (T + T^H)/2 instead") from None
        n_now[0] = c.shape[0]
        summary = toeplitz_summary(c, None, what=what, rtol=args.rtol, method=args.method, seed=args.seed,
                                   symbol=symbol_fn, progress=starting)
        rec = summary.command_json()
        text = summary.lines(rtol=args.rtol)
    if args.json == "-":
        print(json.dumps(rec, indent=2, default=float))
        return 0
    if args.json:
        from petheory.io import atomic_write_json

        atomic_write_json(args.json, rec)
    print("\n".join(text))
    return 0
