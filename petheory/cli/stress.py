"""``petheory stress``: how well an encoding's geometry on positions matches a target geometry.

The target is the Hellinger geometry of positional distributions from ``--corpus FILE``, or a
distance matrix ``--target D.npy``; with neither it is the built-in corpus
(:func:`petheory.geometry.builtin_target`: 305 short reviews shipped with petheory, 15
positions), so the command always works offline.
"""

from __future__ import annotations

import json

NAME = "stress"
HELP = "stress of an encoding (named, .npy, .safetensors, hf:DIR) against a corpus's Hellinger geometry"
DESCRIPTION = (
    "Compute the stress between the geometry an encoding induces on positions and a target geometry: "
    "the Hellinger distances between positional distributions of --corpus (default: the built-in corpus) "
    "or a distance matrix --target D.npy. Kruskal stress-1 with the optimal scale by default."
)


def add_arguments(p) -> None:
    p.add_argument("--encoding", required=True, metavar="SPEC",
                   help="registered name (see `petheory encodings`), file.npy, file.safetensors, pytorch_model.bin, "
                        "or hf:DIR (hf:minilm = the bundled all-MiniLM-L6-v2)")
    p.add_argument("--key", metavar="TENSOR", help="tensor name when the file/directory holds several position tables")
    p.add_argument("--param", action="append", default=[], metavar="K=V",
                   help="parameter of a named encoding, e.g. base=500 or slope=0.5 (value parsed as JSON); repeatable")
    p.add_argument("--n", type=int, metavar="N", help="positions compared (default: all the target supports)")
    p.add_argument("--d", type=int, metavar="D", help="model dimension for named encodings (default 64; read from tables)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--corpus", metavar="FILE", help="UTF-8 text, one sequence per line")
    src.add_argument("--target", metavar="D.npy", help="(n, n) target distance matrix")
    src.add_argument("--distributions", metavar="P.npy",
                     help="(n, V) positional distributions (rows non-negative, summing to 1); target = their Hellinger distances")
    p.add_argument("--tokenizer", default=None, metavar="whitespace|hf:DIR",
                   help="tokenizer of --corpus (default whitespace; hf:minilm = MiniLM's WordPiece)")
    p.add_argument("--lowercase", action="store_true", help="lowercase before whitespace tokenisation")
    p.add_argument("--max-vocab", type=int, metavar="K", help="keep the K most frequent types, pool the rest")
    p.add_argument("--min-count", type=int, default=1, metavar="C",
                   help="positions need at least C observations (default 1); the rest are reported")
    p.add_argument("--keep-sparse", action="store_true",
                   help="with --n: keep positions below --min-count (listed in the output) instead of failing")
    p.add_argument("--smoothing", type=float, default=0.0, metavar="ALPHA", help="additive pseudo-count (default 0)")
    p.add_argument("--rank", type=int, metavar="R", help="rank of the optimal (MDS) encoding (default: numerical rank)")
    p.add_argument("--kind", default="stress1", choices=("stress1", "raw", "strain"), help="stress formula (default stress1)")
    p.add_argument("--bias-map", choices=("gap", "hellinger"), help="how a bias encoding induces distances")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON to FILE ('-' for stdout)")


def _params(items) -> dict:
    out = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"--param must look like KEY=VALUE, got {item!r}")
        k, val = item.split("=", 1)
        try:
            out[k.strip()] = json.loads(val)
        except json.JSONDecodeError:
            out[k.strip()] = val
    return out


def _encoding(args):
    """--encoding -> (encoding for geometry.encoding_stress, label, rows or None)."""
    from pathlib import Path

    from petheory import encodings, loaders

    spec = args.encoding
    looks_like_file = spec.startswith("hf:") or Path(spec).suffix.lower() in (".npy", ".safetensors", ".bin", ".pt", ".pth")
    if looks_like_file or Path(spec).exists():
        if args.param:
            raise ValueError("--param applies to named encodings only, not to a loaded table")
        loaded = loaders.load_position_embeddings(spec, key=args.key)
        if args.d is not None and args.d != loaded.table.shape[1]:
            raise ValueError(f"--d {args.d} does not match the loaded table's d={loaded.table.shape[1]} ({loaded.describe()})")
        label = f"{spec}" + (f"[{loaded.key}]" if loaded.key and not spec.endswith(".safetensors") else "")
        return loaded.table, f"{label} {loaded.table.shape} {loaded.dtype}", loaded.table.shape[0]
    encodings.info(spec)  # unknown names fail here, listing the registered ones
    if args.key:
        raise ValueError("--key applies to loaded files only")
    return spec, spec, None


def _target(args, rows):
    from petheory import geometry

    if args.tokenizer is not None and args.corpus is None:
        raise ValueError("--tokenizer needs --corpus (the built-in target is whitespace-tokenised)")
    if args.target is not None or args.distributions is not None:
        from pathlib import Path

        path = Path(args.target or args.distributions)
        if not path.is_file():
            raise FileNotFoundError(f"no such file: {path}")
        from petheory.loaders import load_npy

        A = load_npy(path)
        if args.target is not None:
            return geometry.check_distance_matrix(A, "target"), str(path)
        return geometry.hellinger_distances(A), f"hellinger:{path}"
    if args.corpus is None:
        if args.max_vocab is not None or args.lowercase or args.smoothing or args.min_count != 1 or args.keep_sparse:
            raise ValueError(
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

    P = build(args.n)
    if rows is not None and args.n is None and P.n > rows:
        P = build(rows)  # the corpus supports more positions than the table has: compare the table's
    return P, P.source


def run(args) -> int:
    from petheory import __version__, geometry
    from petheory.io import atomic_write_json

    if args.n is not None and args.n < 2:
        raise ValueError(f"--n must be >= 2, got {args.n}")
    if args.d is not None and args.d < 1:
        raise ValueError(f"--d must be >= 1, got {args.d}")
    if args.rank is not None and args.rank < 1:
        raise ValueError(f"--rank must be >= 1, got {args.rank}")
    encoding, label, rows = _encoding(args)
    target, target_name = _target(args, rows)
    d = args.d
    if isinstance(encoding, str) and d is None:
        d = 64
    report = geometry.encoding_stress(
        encoding, target, n=args.n, d=d, kind=args.kind, rank=args.rank, bias_map=args.bias_map, name=label,
        target_name=None if isinstance(target, geometry.PositionalDistributions) else target_name,
        **_params(args.param),
    )
    out = {"petheory": __version__, **report.as_dict()}
    if args.json:
        text = json.dumps(out, indent=2, allow_nan=False)
        if args.json == "-":
            print(text)
        else:
            atomic_write_json(args.json, out)
    if args.json != "-":
        _print(out, quiet=args.quiet)
    return 0


SHORT = {
    "stress1": "Kruskal stress-1 with optimal scale, sqrt(sum (D - s*E)^2 / sum D^2)",
    "raw": "raw stress, sum_{i<j} (D - E)^2",
    "strain": "strain, ||B_D - B_E||_F",
}


def _print(out: dict, *, quiet: bool) -> None:
    from petheory.cli._console import console

    from rich.markup import escape

    con = console(quiet=quiet)
    td = out["target_details"]
    con.print(f"encoding  {escape(out['encoding'])}  [dim]({escape(out['geometry'])})[/dim]")
    tgt = escape(out["target"])
    if td:
        tgt += f"  (n={td['n']}, V={td['V']}, tokenizer {escape(td['tokenizer'])}, >= {td['min_observations']} observations/position)"
    con.print(f"target    {tgt}")
    if td and td.get("excluded_from") is not None:
        ex = td["excluded_observations"]
        con.print(
            f"[yellow]note[/yellow]      positions {td['excluded_from']}..{td['excluded_from'] + len(ex) - 1} left out: "
            f"fewer than {td['min_count']} observations ({', '.join(map(str, ex[:8]))}{', ...' if len(ex) > 8 else ''})"
        )
    if td and td.get("sparse_positions"):
        con.print(f"[yellow]note[/yellow]      sparse positions kept: {td['sparse_positions']}")
    con.print(f"[bold]stress    {out['stress']:.4f}[/bold]  [dim]{escape(SHORT[out['kind']])}; n={out['n']}, d={out['d']}[/dim]")
    con.print(
        f"optimal   rank-{out['rank']} MDS encoding: stress {out['mds_stress']:.4f}; "
        f"params {out['params_full']} (n*d) -> {out['params_min']} (r(n+d))"
    )
