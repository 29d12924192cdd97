"""``petheory bounds``: per PE and length, the norm bound (stated and computed) and the Rademacher bound."""

from __future__ import annotations

import json

from petheory.cli._model import add_as_family
from petheory.errors import ValidationError

NAME = "bounds"
HELP = "norm bound (li2025 Table 2 vs computed) and Rademacher bound per PE and inference length"
DESCRIPTION = (
    "For each PE and inference length N': the paper's norm bound next to the computed sup ||PE(pos)|| "
    "(absolute), the logit-bias magnitude (bias: ALiBi alpha(N'-1)) or the norm change under R_p (rotary, 0); "
    "B0 = B_x + that (absolute) or B_x; and li2025 §4.2's Rademacher expression B * L_trans * B0 / sqrt(m). "
    "ALiBi rows add the Eq. 9 drift bound alpha(d - N_max)/4 for a key at distance d > N_max."
)


def add_arguments(p) -> None:
    """Declare ``petheory bounds``'s options on ``p``: the PEs, the inference lengths N' and the bounds' parameters
    (from :func:`petheory.analyses.bounds.bounds`' declaration).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "alibi", "--lengths", "100,5000"]).lengths
    (100, 5000)
    """
    from petheory.analyses.bounds import bounds
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.loaders import resolve_scheme

    add_as_family(p)
    add_pe(p, "encoding", "model", "table", several=True, note="default: every registered PE")
    add_param(p, bounds, "lengths", default=(200,), metavar="N'[,N'...]", help="inference length(s) N' (default: 200)")
    add_param(p, bounds, "context", metavar="L", help="training context L (li2025's N_max) (default: each N'); sets the "
              "learned table size, the wavelet/Legendre position maps and YaRN's original context (rope_yarn: default "
              "2048, its registry value, when neither --context nor rope_yarn:n_max=N is given). A spec's own "
              "n_max (learned:n_max=50) is the same length: give one, or the same value")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D",
              help="model dimension (default 64; a model's config.json fixes its own)")
    add_param(p, bounds, "m", help="sample size m (default: 1000)")
    add_param(p, bounds, "weight_norm", metavar="B", help="readout weight norm bound B (default: 1)")
    add_param(p, bounds, "lipschitz", default=None, metavar="L",
              help="Lipschitz constant L_trans (default: 1, the linear class)")
    p.add_argument("--checkpoint", metavar="RUN_DIR", help="take L_trans from a trained petheory.nn run (its weights; "
                   "certified product of per-layer factors)")
    add_param(p, bounds, "token_norm", metavar="B_x", help="token embedding norm bound B_x (default: 1)")
    add_param(p, bounds, "distance", metavar="D", help="ALiBi key distance for Eq. 9 (must exceed N_max)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")


def resolve_all(values, d: int | None, as_family: str | None = None) -> list:
    """``--pe`` values -> [Scheme] (:func:`petheory.loaders.resolve_scheme`; default: every registered encoding).

    The old ``--pe a,b`` list of names is read as ``--pe a --pe b`` (:func:`petheory.spec.parse_pe_specs`).

    Parameters
    ----------
    values : list of str or None
        The ``--pe`` values (None or empty: every registered encoding).
    d : int or None
        ``-d``: the head dimension of a registered encoding (a model's config fixes its own).
    as_family : str, optional
        ``--as-family``: read a model's config.json as this verified model type.

    Returns
    -------
    list of petheory.scheme.Scheme
        One per PE named.

    Examples
    --------
    >>> [s.main.positions.encoding for s in resolve_all(["alibi,rope"], None)]
    ['alibi', 'rope']
    """
    from petheory import encodings as enc
    from petheory.loaders import resolve_scheme
    from petheory.spec import parse_pe_specs

    specs = parse_pe_specs(values) if values else enc.available()
    return [resolve_scheme(s, d=d, what="bounds", as_family=as_family) for s in specs]


def run(args) -> int:
    """Compute the norm and Rademacher bounds of ``args.pe`` at ``args.lengths``
    (:func:`petheory.analyses.bounds.bounds`) and print their record (or write it).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("bounds").parse_args(["bounds", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("bounds").parse_args(["bounds", "--pe", "alibi:slope=0.5", "--lengths", "100", "--context", "50"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'petheory bounds (li2025 Table 2, §4.2, Eq. 9)')
    """
    from petheory.analyses.bounds import bounds
    from petheory.cli._console import show
    from petheory.io import atomic_write_json

    if args.lipschitz is not None and args.checkpoint:
        # two spellings of bounds' one lipschitz (a number, or a checkpoint the command reads into a LipschitzReport):
        # a rule of the command line's grammar, not of a library parameter
        raise ValidationError("give --lipschitz or --checkpoint, not both")
    schemes = resolve_all(args.pe, args.d, args.as_family)
    lip = args.lipschitz
    if args.checkpoint:
        from petheory.nn import lipschitz, load_model

        model, _cfg = load_model(args.checkpoint)
        lip = lipschitz.transformer_lipschitz(model)
    rec = bounds(schemes, args.lengths, context=args.context, m=args.m, weight_norm=args.weight_norm, lipschitz=lip,
                 token_norm=args.token_norm, distance=args.distance)
    if args.json == "-":
        print(json.dumps(rec.as_dict(), indent=2, allow_nan=False))
        return 0
    if args.json:
        atomic_write_json(args.json, rec.as_dict())
    show(rec)
    return 0
