"""``petheory stress``: how well an encoding's geometry on positions matches a target geometry.

The target is the Hellinger geometry of positional distributions from ``--corpus FILE``, or a
distance matrix ``--target D.npy``; with neither it is the built-in corpus
(:func:`petheory.geometry.builtin_target`: 305 short reviews shipped with petheory, 15
positions), so the command always works offline.
"""

from __future__ import annotations

import json

from petheory.cli._model import add_as_family
from petheory.errors import ValidationError

NAME = "stress"
HELP = "stress of an encoding (named, .npy, .safetensors, hf:DIR) against a corpus's Hellinger geometry"
DESCRIPTION = (
    "Compute the stress between the geometry an encoding induces on positions and a target geometry: "
    "the Hellinger distances between positional distributions of --corpus (default: the built-in corpus) "
    "or a distance matrix --target D.npy. Kruskal stress-1 with the optimal scale by default."
)


def add_arguments(p) -> None:
    """Declare ``petheory stress``'s options on ``p``: the encoding, the target (the built-in corpus, a corpus, a
    distance matrix or distributions) and the stress options (from the library's declarations).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "sinusoidal", "--null-draws", "10"]).null_draws
    10
    """
    from petheory.analyses.stress import skip_rows, stress
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe
    from petheory.geometry import positional_distributions
    from petheory.loaders import resolve_scheme

    add_as_family(p)
    add_pe(p, "encoding", "model", "table")
    add_param(p, resolve_scheme, "key", metavar="TENSOR", help="tensor name when the file/directory holds several "
              "position tables (same as SPEC#TENSOR)")
    add_param(p, stress, "length", metavar="N", help="positions compared (default: all the target supports)")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D",
              help="model dimension for named encodings (default 64; read from tables)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--corpus", metavar="FILE", help="UTF-8 text, one sequence per line")
    src.add_argument("--target", metavar="D.npy", help="(n, n) target distance matrix")
    src.add_argument("--distributions", metavar="P.npy",
                     help="(n, V) positional distributions (rows non-negative, summing to 1); target = their Hellinger distances")
    p.add_argument("--tokenizer", default=None, metavar="whitespace|hf:DIR",
                   help="tokenizer of --corpus (default whitespace; hf:minilm = MiniLM's WordPiece)")
    add_param(p, positional_distributions, "lowercase", help="lowercase before whitespace tokenisation")
    add_param(p, positional_distributions, "max_vocab", metavar="K", help="keep the K most frequent types, pool the rest")
    add_param(p, positional_distributions, "min_count", metavar="C",
              help="with --corpus: positions need at least C observations (default 1); the rest are reported. "
                   "The built-in corpus (no --corpus/--target) is fixed at C = 100 (BUILTIN_MIN_COUNT), so it "
                   "keeps the positions with >= 100 observations")
    p.add_argument("--keep-sparse", action="store_true",
                   help="with --length: keep positions below --min-count (listed in the output) instead of failing")
    add_param(p, positional_distributions, "smoothing", metavar="ALPHA", help="additive pseudo-count (default 0)")
    add_param(p, stress, "rank", metavar="R", help="rank of the optimal (MDS) encoding (default: numerical rank)")
    add_param(p, stress, "kind", help="stress formula (default stress1)")
    add_param(p, stress, "bias_map", help="how a bias encoding induces distances")
    add_param(p, skip_rows, "offset", "--table-offset", metavar="K", help="compare the loaded table's rows K.. with "
              "the target's positions 0.. (e.g. 1 to skip a [CLS] row)")
    add_param(p, stress, "null_draws", metavar="K",
              help="random N(0,1) tables of the same shape scored against the same target, as a null reference "
                   "(default 100; 0: none)")
    add_param(p, stress, "seed", help="seed of the first random table of the null reference (default 0)")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON to FILE ('-' for stdout)")


def _scheme(args):
    """``--pe`` (with ``--key``, ``-d`` and ``--table-offset``) resolved once: (Scheme, label, table rows or None)."""
    from petheory.analyses.stress import skip_rows
    from petheory.loaders import resolve_scheme

    if args.pe is None:
        raise ValidationError("give the encoding: --pe SPEC (a registered name, file.npy, file.safetensors or hf:DIR)")
    scheme = resolve_scheme(args.pe, d=args.d, key=args.key, what="stress", as_family=args.as_family)
    pos = scheme.main.positions
    if pos.kind != "table":
        skip_rows(scheme, args.offset)  # refuses an offset: no table
        label = pos.encoding + (f" ({scheme.spec})" if scheme.source not in ("spec", "table") else "")
        return scheme, label, None
    label = f"{pos.source} {tuple(pos.table.shape)} {pos.table.dtype}"
    offset = _table_offset(args, str(args.pe))
    scheme = skip_rows(scheme, offset)
    if offset:
        label += f" rows {offset}.."
    return scheme, label, scheme.main.positions.table.shape[0]


def _table_offset(args, spec) -> int:
    """Rows of a loaded table to skip so that its position 0 is the target's position 0.

    A Hugging Face encoder puts a special token ([CLS], <s>) at position 0; a target built with
    another tokenizer (whitespace, the built-in corpus) has the first word there. Comparing them
    row for row would shift every position by one, so that mismatch is refused unless the user
    says how to align (``--table-offset``, or the model's own tokenizer).
    """
    if args.offset is not None:
        return args.offset
    if not spec.startswith("hf:") or (args.tokenizer or "").startswith("hf:") or args.target or args.distributions:
        return 0
    lead = _leading_special_tokens(spec[3:])
    if lead:
        target = "the whitespace-tokenised corpus" if args.corpus else "the built-in (whitespace-tokenised) corpus"
        raise ValidationError(
            f"{spec} puts {lead} special token(s) at position 0 but {target} has its first word there: pass "
            f"--corpus FILE --tokenizer {spec} (the model's tokenizer, same positions), or --table-offset {lead} "
            "to compare the rows after the special token(s) with the words (approximate: the model splits words)"
        )
    return 0


def _leading_special_tokens(directory) -> int:
    """How many special tokens the directory's tokenizer puts before the text (0 if it has none)."""
    from petheory import loaders

    try:
        tok, _ = loaders.load_hf_tokenizer(directory)
    except (ValueError, FileNotFoundError):
        return 0  # no tokenizer here (or no `tokenizers` package): nothing to align against
    with_special = tok.encode("a", add_special_tokens=True).ids
    plain = tok.encode("a", add_special_tokens=False).ids
    for k in range(len(with_special) - len(plain) + 1):
        if with_special[k:k + len(plain)] == plain:
            return k
    return 0


def _target(args, rows):
    from petheory import geometry

    # the corpus flags feed positional_distributions, which the command calls only for --corpus: without one, the
    # built-in target is fixed and they would be dropped, so they are refused (the command line's grammar)
    if args.tokenizer is not None and args.corpus is None:
        raise ValidationError("--tokenizer needs --corpus (the built-in target is whitespace-tokenised)")
    if args.target is not None or args.distributions is not None:
        from pathlib import Path

        from petheory.loaders import load_npy

        path = Path(args.target or args.distributions)
        A = load_npy(path)  # 'no such file: PATH' when missing
        if args.target is not None:
            return A, str(path)  # geometry.target_distances checks it (a distance matrix)
        return geometry.hellinger_distances(A), f"hellinger:{path}"
    if args.corpus is None:
        if args.max_vocab is not None or args.lowercase or args.smoothing or args.min_count != 1 or args.keep_sparse:
            raise ValidationError(
                "--lowercase/--max-vocab/--min-count/--smoothing/--keep-sparse need --corpus (the built-in target is fixed)"
            )

        def build(n):
            return geometry.builtin_target(n=n)
    else:

        def build(n):
            return geometry.positional_distributions(
                args.corpus,
                tokenizer=args.tokenizer or "whitespace",
                n=n,
                smoothing=args.smoothing,
                min_count=args.min_count,
                on_sparse="keep" if args.keep_sparse else "error",
                max_vocab=args.max_vocab,
                lowercase=args.lowercase,
            )

    P = build(args.length)
    if rows is not None and args.length is None and P.n > rows:
        P = build(rows)  # the corpus supports more positions than the table has: compare the table's
        args.capped_by_table = True
    return P, P.source


def run(args) -> int:
    """Compute the stress of the geometry ``args.pe`` induces on the target (:func:`petheory.analyses.stress.stress`)
    and print it (or write it).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("stress").parse_args(["stress", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("stress").parse_args(["stress", "--pe", "alibi:slope=0.5", "--null-draws", "0"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'encoding  alibi  (bias alibi: logit gap (B_ii+B_jj-B_ij-B_ji)/2)')
    """
    from petheory import geometry
    from petheory.analyses.stress import stress
    from petheory.io import atomic_write_json

    scheme, label, rows = _scheme(args)
    target, target_name = _target(args, rows)
    from petheory.cli._progress import Lines

    n_target = target.n if isinstance(target, geometry.PositionalDistributions) else len(target)
    lines = Lines("stress", quiet=args.quiet or (args.length or n_target) < LONG_N)  # long work only: a line now and then
    every = max(1, args.null_draws // 10)

    def progress(done, total):
        if done % every == 0 or done == total:
            lines.step(done, total, "random tables of the null reference")

    def started(value, n):  # after the sizes were accepted (a refusal stays one line): the null reference is long
        lines.line(f"stress of {label} against {target_name}: {value:.4g} ({n} positions)"
                   + (f"; null reference of {args.null_draws} random tables next" if args.null_draws else ""))

    details_extra = {"capped_by_table": True} if getattr(args, "capped_by_table", False) else None
    rec = stress(scheme, target, null_draws=args.null_draws, seed=args.seed, length=args.length, kind=args.kind,
                 rank=args.rank, bias_map=args.bias_map, target_name=target_name, name=label,
                 details_extra=details_extra, length_implicit=args.length is None and args.corpus is not None,
                 progress=progress, started=started)
    secs = rec.computed
    if not secs:
        raise ValidationError(f"{args.pe}: no layer kind has a position geometry ("
                              + "; ".join(s.skipped for s in rec.sections) + ")")
    out = rec.command_json()
    if args.json:
        text = json.dumps(out, indent=2, allow_nan=False)
        if args.json == "-":
            print(text)
        else:
            atomic_write_json(args.json, out)
    if args.json != "-":
        _print(rec.lines())
    return 0


#: From this many positions on, stress prints progress lines on stderr (each null draw is an :math:`O(n^2 d)` distance matrix).
LONG_N = 512


#: How the terminal styles a line of the record by its first word (a pipe gets the plain text).
STYLE = {"stress": "bold", "warning": "yellow", "note": "yellow"}


def _print(lines: list[str]) -> None:
    from rich.markup import escape

    from petheory.cli._console import console

    con = console()
    for line in lines:
        style = STYLE.get(line.split(" ", 1)[0])
        con.print(f"[{style}]{escape(line)}[/{style}]" if style else escape(line))
