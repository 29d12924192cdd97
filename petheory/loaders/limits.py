"""The limits of every file reader, stated in one place (the README's Reliability table is generated from :data:`LIMITS`).

A file petheory reads (a ``config.json``, a safetensors header and its shards' index, a ``.npy``,
a checkpoint, a run folder, a record, a corpus, a plugin path) is checked against these before its
contents are trusted; a file beyond a limit is refused with one line that names the file, the
field and what is expected (:class:`petheory.errors.ValidationError`, exit 2).

>>> JSON_MAX_DEPTH, SAFETENSORS_HEADER_MAX_BYTES == 100 * 2**20
(64, True)
"""

from __future__ import annotations

import sys

__all__ = ["JSON_MAX_DEPTH", "JSON_MAX_BYTES", "CONFIG_MAX_BYTES", "SAFETENSORS_HEADER_MAX_BYTES", "JSON_INT_MAX",
           "JSON_INT_MAX_DIGITS", "FLOAT_MAX", "GGUF_HEADER_MAX_BYTES", "GGUF_MAX_KV", "GGUF_MAX_TENSORS",
           "GGUF_MAX_KEY_BYTES", "GGUF_MAX_STRING_BYTES", "GGUF_MAX_ARRAY", "GGUF_MAX_DIMS", "TOML_MAX_DEPTH",
           "TOML_MAX_BYTES", "NULL_DRAWS_MAX", "NULL_DRAW_SECONDS", "table_abs_max", "null_draws", "LIMITS", "limits_table"]

#: Nesting depth of any JSON document (configs nest 3 levels, records 5); checked before ``json.loads``
#: recurses, so a document nested :math:`10^5` deep is refused instead of ending in a RecursionError.
JSON_MAX_DEPTH = 64

#: A JSON file (record, index, run config) larger than this is refused before it is read.
JSON_MAX_BYTES = 64 << 20

#: A ``config.json`` larger than this is refused before it is read (real ones are a few kB).
CONFIG_MAX_BYTES = 16 << 20

#: The safetensors format's own limit on its JSON header (the reference implementation refuses more).
SAFETENSORS_HEADER_MAX_BYTES = 100 << 20

#: A GGUF file's header (metadata and tensor infos; real ones hold a vocabulary of a few MiB) is read up to this.
GGUF_HEADER_MAX_BYTES = 256 << 20
#: Metadata entries of a GGUF header (real files: 20-60) and tensors (real files: up to a few thousand).
GGUF_MAX_KV = 1 << 16
GGUF_MAX_TENSORS = 1 << 20
#: A metadata key or tensor name (the GGUF specification's own limit), a string value (a chat template, a tokenizer
#: JSON) and an array's elements (a vocabulary of 256k tokens, its merges).
GGUF_MAX_KEY_BYTES = 65535
GGUF_MAX_STRING_BYTES = 64 << 20
GGUF_MAX_ARRAY = 1 << 24
#: ggml's GGML_MAX_DIMS: a tensor has 1 to 4 dimensions.
GGUF_MAX_DIMS = 4

#: Integers in JSON files must satisfy ``|n| <= JSON_INT_MAX`` (int64): every size, seed, offset and count
#: petheory reads fits; ``10**400`` would end in OverflowError in float arithmetic.
JSON_INT_MAX = 2**63 - 1

#: Digits of :data:`JSON_INT_MAX`: a longer literal is refused before ``int()`` parses it.
JSON_INT_MAX_DIGITS = len(str(JSON_INT_MAX))

#: Nesting depth and size of a TOML file (sweep grids nest 2 levels); the depth is counted before ``tomllib``
#: recurses (:mod:`petheory.loaders.safe_toml`).
TOML_MAX_DEPTH = JSON_MAX_DEPTH
TOML_MAX_BYTES = JSON_MAX_BYTES

#: Random tables of a stress null reference (``--null-draws`` of report, stress, compare): each is one
#: stress fit; beyond this the z-score's own error (about :math:`1/\sqrt{K}`) is far below anything it decides.
NULL_DRAWS_MAX = 100_000

#: Seconds per null draw on the built-in corpus (49 x 49 targets; measured about 2-3 ms on one core of
#: the 2-core CI machine under load, 2026-11): the time estimate of a refused ``--null-draws``.
NULL_DRAW_SECONDS = 3e-3

#: Largest finite float64; a JSON number beyond it (``1e400``) would parse to inf and is refused,
#: as are the non-JSON literals ``NaN``, ``Infinity`` and ``-Infinity``.
FLOAT_MAX = sys.float_info.max


def table_abs_max(d: int) -> float:
    """Largest entry magnitude of an ``(N, d)`` position table whose Gram ``P P^T`` stays finite in float64.

    An inner product of two rows is at most ``d * max|P|^2``; it must not exceed :data:`FLOAT_MAX`,
    so ``max|P| <= sqrt(FLOAT_MAX / d)`` (about :math:`1.3 \\cdot 10^{154} / \\sqrt{d}`).

    Parameters
    ----------
    d : int
        Columns of the table (its dimension); values below 1 count as 1.

    Returns
    -------
    float
        ``sqrt(FLOAT_MAX / max(d, 1))``.

    Examples
    --------
    >>> f"{table_abs_max(1):.3g}", f"{table_abs_max(100):.3g}"  # a hundred columns: ten times smaller
    ('1.34e+154', '1.34e+153')
    """
    return (FLOAT_MAX / max(int(d), 1)) ** 0.5


def null_draws(minimum: int = 0):
    """The declared constraint of a number of null draws: an integer in ``[minimum, NULL_DRAWS_MAX]``, whose
    refusal above the cap says how long that many random tables would take.

    Parameters
    ----------
    minimum : int, optional
        The fewest draws the caller's statistic needs (0: none is allowed).

    Returns
    -------
    petheory._validate.Interval

    Examples
    --------
    >>> from petheory._validate import check
    >>> check("null_draws", 10**12, [null_draws()])
    Traceback (most recent call last):
    ...
    petheory.errors.ParameterError: null_draws must be <= 100000 (1000000000000 random tables take about 95 years at 3 ms per draw; the z-score's error is about 1/sqrt(K): 1000 draws give 3 %), got 1000000000000
    """
    from numbers import Integral

    from petheory._validate import Interval

    class _NullDraws(Interval):
        def failure(self, value):
            why = super().failure(value)
            if why == f"<= {NULL_DRAWS_MAX}":
                why += (f" ({value} random tables take about {_duration(value * NULL_DRAW_SECONDS)} at "
                        f"{NULL_DRAW_SECONDS * 1e3:.0f} ms per draw; the z-score's error is about 1/sqrt(K): 1000 "
                        "draws give 3 %)")
            return why

    return _NullDraws(Integral, minimum, NULL_DRAWS_MAX)


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


#: (what, limit, why) rows: the README's Reliability table.
LIMITS = [
    ("file types", "regular files only",
     "a FIFO, device, socket or directory named like a file is refused before it is opened (no command waits on a FIFO)"),
    ("symbolic links", "followed, loops refused",
     "a link loop is named as such, not as a missing file"),
    ("model folder (`hf:DIR`)", "every file stays inside it",
     "weights, shards named by `model.safetensors.index.json` and `config.json` are resolved (symlinks included) "
     "and must lie in the folder (in the Hugging Face cache: in the model's `models--*` folder); `..` and absolute "
     "shard names are refused"),
    ("JSON nesting depth", str(JSON_MAX_DEPTH), "checked before parsing: no RecursionError"),
    ("JSON integers", r"$\lvert n\rvert \le 2^{63} - 1$", f"longer than {JSON_INT_MAX_DIGITS} digits refused before `int()`"),
    ("JSON floats", "finite, abs(x) <= 1.8e308", "`1e400`, `NaN`, `Infinity`, `-Infinity` refused with the field named"),
    ("JSON keys", "unique per object", "a duplicated key is refused (readers disagree on which value wins)"),
    ("JSON text", "UTF-8, no lone surrogates", "a leading byte order mark is ignored in config and record files"),
    ("`config.json` size", f"{CONFIG_MAX_BYTES >> 20} MiB", "real ones are a few kB"),
    ("other JSON files", f"{JSON_MAX_BYTES >> 20} MiB", "records, run configs, shard indexes"),
    ("safetensors header", f"{SAFETENSORS_HEADER_MAX_BYTES >> 20} MiB",
     "and inside the file; every tensor's `dtype`, `shape` and `data_offsets` present and consistent "
     "(offsets non-negative, contiguous, no overlap or gap, shape x itemsize = bytes)"),
    ("GGUF header (`gguf:FILE`)", f"{GGUF_HEADER_MAX_BYTES >> 20} MiB",
     f"walked once: at most {GGUF_MAX_KV} metadata entries and {GGUF_MAX_TENSORS} tensors, "
     f"keys and names {GGUF_MAX_KEY_BYTES} bytes, strings {GGUF_MAX_STRING_BYTES >> 20} MiB, arrays {GGUF_MAX_ARRAY} "
     f"elements (not nested), 1 to {GGUF_MAX_DIMS} dimensions, every length inside the file; arrays over 4096 elements "
     "(vocabularies, merges) skipped by their declared sizes, never materialised; tensor data never read; "
     "`block_count` <= 512 and `context_length` $< 2^{32}$, as llama.cpp loads them"),
    ("`.npy` header", "shape x itemsize <= file size",
     "numbers only (bool, int, float, complex: Toeplitz coefficients may be; no object, string, structured, "
     "datetime); a position table must be real; never unpickled"),
    ("position table", r"$\ge 2$ rows, $\max_{ij}\lvert P_{ij}\rvert \le \sqrt{1.8\cdot 10^{308}/d}$",
     r"so that the Gram $PP^\top$ stays finite in float64"),
    ("checkpoints", "`torch.load(weights_only=True)`", "never unpickles arbitrary objects; a petheory run's checkpoint "
     "must hold its model config and weights"),
    ("TOML files (sweep grids)", f"{TOML_MAX_BYTES >> 20} MiB, nesting {TOML_MAX_DEPTH}",
     "depth counted before parsing (no RecursionError); `nan`/`inf`, integers beyond int64 and dates refused with the "
     "field named; `set` and `grid` must be tables"),
    ("training records (`runs/`, `records/`)", "checked fields", "`task`, `pe`, `seed`, `train_len`, `config` and `model` "
     "objects, `final.test` keyed by integer lengths with numeric metrics; a record that fails is skipped and named "
     "(`petheory: warning: skipping PATH: REASON`), never a crash"),
    ("shard and weight file names", "no control characters", "a NUL byte, newline or other control character in a "
     "name an index gives is refused; a folder is read as transformers reads it: `model.safetensors.index.json`, "
     "else `model.safetensors` (a stray `a.safetensors` beside it is not read)"),
    ("weights (`bands`)", "finite; the tensors the model loads",
     "NaN/inf refused with the tensor named; norms of finite weights up to 1.8e308 computed without overflow; only "
     "the declared layers' exact projection names of the model type are read (no other tower, no look-alike names)"),
    ("checkpoint size (`extend`)", "estimated from its header", "the model a checkpoint describes is sized from its "
     "stored config before it is built; beyond `--max-memory` it is refused"),
    ("stress null draws", f"<= {NULL_DRAWS_MAX}", f"`--null-draws` of report, stress and compare: about "
     f"{NULL_DRAW_SECONDS * 1e3:.0f} ms per draw; a larger K is refused with its time estimate"),
    ("environment variables", "checked at start", "`PETHEORY_MAX_VOCAB`, `PETHEORY_MIN_COUNT` (integers >= 1), "
     "`PETHEORY_MAX_MEMORY` (a size), `PETHEORY_CORPUS` (a regular file), `PETHEORY_COMMIT` (a commit id): "
     "a bad value is one error line naming the "
     "variable"),
    ("memory", "estimated before allocating", "`--max-memory` / `PETHEORY_MAX_MEMORY`, else the memory available"),
]


def limits_table() -> str:
    """:data:`LIMITS` as a Markdown table (the README's Reliability section; a test keeps them in sync).

    Returns
    -------
    str
        A header row, a separator row and one row per entry of :data:`LIMITS`, joined by newlines
        (no trailing newline).

    Examples
    --------
    >>> lines = limits_table().splitlines()
    >>> lines[0]
    '| what | limit | notes |'
    >>> len(lines) == 2 + len(LIMITS)
    True
    >>> lines[5]
    '| JSON nesting depth | 64 | checked before parsing: no RecursionError |'
    """
    rows = ["| what | limit | notes |", "|---|---|---|"]
    rows += [f"| {what} | {limit} | {why} |" for what, limit, why in LIMITS]
    return "\n".join(rows)


BEGIN = "<!-- limits:begin (generated: python -m petheory.loaders.limits --write) -->"
END = "<!-- limits:end -->"


def main(argv=None) -> int:
    """``python -m petheory.loaders.limits [--write]``: print the limits table of docs/guide/reliability.md, or rewrite its block.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments (default ``sys.argv[1:]``): none prints :func:`limits_table`;
        ``--write`` replaces the text between :data:`BEGIN` and :data:`END` in
        docs/guide/reliability.md (through a temporary file and a rename).

    Returns
    -------
    int
        The exit status, 0.

    Examples
    --------
    >>> main([])
    | what | limit | notes |
    |---|---|---|
    | file types | regular files only | ...
    0
    """
    import argparse
    from pathlib import Path

    import os

    p = argparse.ArgumentParser(prog="python -m petheory.loaders.limits", description=main.__doc__.split("\n\n", 1)[0])
    p.add_argument("--write", action="store_true", help="replace the block between the markers in docs/guide/reliability.md")
    args = p.parse_args(argv)
    if not args.write:
        print(limits_table())
        return 0
    readme = Path(__file__).resolve().parents[2] / "docs" / "guide" / "reliability.md"
    text = readme.read_text(encoding="utf-8")
    a, b = text.index(BEGIN) + len(BEGIN), text.index(END)
    tmp = readme.with_name(f".{readme.name}.limits.tmp")  # temp file + rename: never a half-written README
    tmp.write_text(text[:a] + "\n" + limits_table() + "\n" + text[b:], encoding="utf-8")
    os.replace(tmp, readme)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
