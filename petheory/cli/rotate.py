"""``petheory rotate``: the expected rotated queries and keys of a model's layer kind, as ``.npy``, to diff an engine with."""

from __future__ import annotations

from petheory.errors import ValidationError

NAME = "rotate"
HELP = "write random q, k of a model's layer kind and their rotation as the model does it (.npy + rotate.json)"
DESCRIPTION = (
    "The apply-level reference: for one rotary layer kind of --pe (a spec, config.json, hf:DIR or gguf:FILE), "
    "random float64 queries and keys (seeded), the positions, and q and k rotated exactly as the model rotates them "
    "(petheory.encodings.rotate: pairing, partial rotary slice, proportional RoPE, M-RoPE sections, the factor on cos "
    "and sin, MLA's rope part) go to DIR as q.npy, k.npy, positions.npy, q_rotated.npy, k_rotated.npy, with "
    "rotate.json saying the pairing, the rotated coordinates, the frequencies and where they come from. Feed q, k and "
    "positions to your implementation and compare with the rotated files (an adjacent-pair vs half-split mix-up shows "
    "as an error of order |q|, not of rounding)."
)

#: The most positions ``--positions`` may list (in all, over every item): a count the grammar refuses before a range
#: is expanded (the positions' own range is :func:`petheory.analyses.rotation.rotation_reference`'s).
MAX_POSITIONS = 1 << 16
FILES = ("q.npy", "k.npy", "positions.npy", "q_rotated.npy", "k_rotated.npy", "rotate.json")
DEFAULT_OUT = "results/rotate"


def add_arguments(p) -> None:
    """Declare ``petheory rotate``'s options on ``p``: the model, the layer kind, the positions, the heads and seed
    (from the library's declarations) and the output folder.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "rope", "--positions", "0:16"]).positions
    '0:16'
    """
    from petheory.analyses.rotation import rotation_reference
    from petheory.cli._params import add_param, feeds
    from petheory.cli._pe import add_pe
    from petheory.loaders import resolve_scheme

    add_pe(p, "model", "encoding", required=True)
    which = p.add_mutually_exclusive_group()
    feeds(p, which.add_argument("--layer", type=int, metavar="I", help="the layer kind of layer I (0-based; default: "
                                "the model's first full-attention rotary layer)"), rotation_reference, "index")
    which.add_argument("--layer-kind", metavar="TYPE", help="the layer kind of this layer type (full_attention, "
                       "sliding_attention, ...; it must name one rotary kind)")
    feeds(p, p.add_argument("--positions", metavar="LIST", help="comma-separated positions, A:B for a range (default: "
                            "0..3 and powers of 16 minus 1 up to the model's context, the last position of the context "
                            "included)"), rotation_reference, "positions")
    add_param(p, rotation_reference, "heads", metavar="H", help="heads of random vectors (default 1): q, k are (H, T, d)")
    add_param(p, resolve_scheme, "d", "-d", "--d-model", metavar="D", help="head size of a plain spec (default 64; a "
              "model's config fixes its own)")
    add_param(p, rotation_reference, "seed", help="seed of the random q and k (default 0)")
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"output folder (default {DEFAULT_OUT})")
    p.add_argument("--force", action="store_true", help="replace the files of an earlier run in DIR")


def parse_positions(text: str, context: int):
    """``--positions`` text (or None: the default spread up to ``context``) -> the list of positions.

    The text's grammar (integers and ranges ``A:B``) and its size are the command line's: a count is refused before a
    range is expanded, so ``0:10**12`` costs nothing. Each position's range (>= 0, <= :math:`2^{53}`) is
    :func:`~petheory.analyses.rotation.rotation_reference`'s to check (said as ``--positions``).

    Parameters
    ----------
    text : str or None
        Comma-separated positions and ranges ``A:B`` (B excluded); None: 0..3, then 15, 255, 4095, ... below
        ``context``, and ``context - 1``.
    context : int
        The model's context (the default spread's end).

    Returns
    -------
    list of int
        The positions, as written (their range is checked by ``rotation_reference``).

    Raises
    ------
    petheory.errors.ValidationError
        Text that is not integers or ranges, more than ``MAX_POSITIONS`` in all, none at all; a default spread past
        :math:`2^{53}` (a context float64 does not hold).

    Examples
    --------
    >>> parse_positions("0,5:8", 4096), parse_positions(None, 4096)
    ([0, 5, 6, 7], [0, 1, 2, 3, 15, 255, 4095])
    """
    from petheory.analyses.rotation import POSITION_MAX

    if text is None:
        if context - 1 > POSITION_MAX:
            raise ValidationError(f"the model's context {context} is past 2^53 positions (float64 holds positions "
                                  "exactly up to there); give --positions")
        pos = {0, 1, 2, 3, context - 1}
        p = 16
        while p - 1 < context:
            pos.add(p - 1)
            p *= 16
        return sorted(x for x in pos if 0 <= x < context)
    shown = repr(text if len(text) <= 80 else text[:77] + "...")  # a 1 MB argument is not echoed whole
    out: list = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        a, colon, b = item.partition(":")
        try:
            lo, hi = (int(a), int(b)) if colon else (int(a), int(a) + 1)
        except ValueError:
            raise ValidationError(f"--positions {shown}: {item[:40]!r} is not an integer or a range A:B") from None
        if len(out) + max(hi - lo, 0) > MAX_POSITIONS:  # before the range is expanded: a count, not a list
            raise ValidationError(f"--positions {shown}: at most {MAX_POSITIONS} positions in all")
        out.extend(range(lo, hi))
    if not out:
        raise ValidationError(f"--positions {shown} names no position; e.g. 0,1,2,4095 or 0:16")
    return out


def pick_layer(scheme, layer: int | None, kind: str | None) -> int:
    """The index of the layer whose kind is written: ``--layer``, else the first rotary layer of type ``--layer-kind``,
    else the model's main layer.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        The model's scheme.
    layer : int or None
        ``--layer`` (returned as given: :func:`~petheory.analyses.rotation.rotation_reference` checks it).
    kind : str or None
        ``--layer-kind`` (a layer type such as ``sliding_attention``).

    Returns
    -------
    int

    Raises
    ------
    petheory.errors.ValidationError
        A type with no rotary layer, or one that names several layer kinds.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> pick_layer(resolve_scheme("rope", d=8), None, None)
    0
    """
    if layer is not None:  # its range is rotation_reference's to check (said as --layer)
        return layer
    if kind is not None:
        idx = [i for i, x in enumerate(scheme.layers) if x.type == kind and x.positions.kind == "rotary"]
        kinds = [x for x, ids in scheme.kinds() if set(ids) & set(idx)]
        types = sorted({x.type for x in scheme.layers if x.positions.kind == "rotary"})
        if not idx:
            raise ValidationError(f"--layer-kind {kind!r}: no rotary layer of that type; rotary layer types: "
                                  f"{', '.join(types) or 'none'}")
        if len(kinds) > 1:
            raise ValidationError(f"--layer-kind {kind!r} names {len(kinds)} layer kinds (e.g. different head sizes); "
                                  "give --layer I")
        return idx[0]
    main = scheme.main
    return next(i for i, x in enumerate(scheme.layers) if x == main)


def run(args) -> int:
    """Write random q, k of the chosen layer kind and their rotation as the model does it
    (:func:`petheory.analyses.rotation.rotation_reference`) into ``args.out``, and print what was written.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("rotate").parse_args(["rotate", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import tempfile
    >>> tmp = tempfile.mkdtemp()
    >>> import contextlib, io
    >>> args = build_parser("rotate").parse_args(["rotate", "--pe", "rope", "-d", "8", "--positions", "0:4", "--out", tmp])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'spec layer 0 (attention; layers 0): rope, interleaved pairing, 8 of 8 dimensions rotate, cos/sin factor 1')
    """
    import os
    from pathlib import Path

    import numpy as np

    from petheory.analyses.rotation import rotation_reference
    from petheory.io import atomic_write_set, json_text
    from petheory.loaders import resolve_scheme

    scheme = resolve_scheme(args.pe, d=args.d, what="rotate")
    positions = parse_positions(args.positions, scheme.max_context)
    index = pick_layer(scheme, args.layer, args.layer_kind)
    rec = rotation_reference(scheme, index, positions, heads=args.heads, seed=args.seed)
    out = Path(args.out)
    # where the command writes its six files is the command's (the library returns the arrays)
    if out.exists() and not out.is_dir():
        raise ValidationError(f"--out {out} is a file; give a folder")
    taken = [f for f in FILES if os.path.lexists(out / f)]
    if taken and not args.force:
        raise ValidationError(f"{out / taken[0]} exists: refusing to overwrite an earlier output; pass --force or "
                              "choose another --out")
    def npy(arr):
        return lambda fh: np.save(fh, arr, allow_pickle=False)

    # one set: a failure (a full disk) before the swap leaves an earlier run's six files as they were
    atomic_write_set({**{out / f"{name}.npy": npy(arr) for name, arr in rec.arrays.items()},
                      out / "rotate.json": lambda fh: fh.write((json_text(rec.as_dict()) + "\n").encode())})
    print(rec)
    print(f"wrote {', '.join(str(out / f) for f in FILES)}")
    return 0
