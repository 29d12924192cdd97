"""Records -> matplotlib figures, and the registry behind ``petheory figures``.

Each figure is a function registered with :func:`figure`; it computes (or loads) its data,
draws it, and saves both with :func:`save`, so every PNG in ``figures/`` sits next to the JSON
it was drawn from. Modules of this package not starting with ``_`` are imported by
:func:`registry`, so a new topic only adds a file here.
"""

from __future__ import annotations

import fnmatch
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PRESETS = ("quick", "full")

#: ``progress(done, total, record)`` for training inside a figure (set by ``petheory figures``), or None.
PROGRESS = None


@dataclass(frozen=True)
class Figure:
    name: str
    help: str
    fn: Callable  # fn(outdir: Path, *, preset: str, seed: int) -> list[Path]


_FIGURES: dict[str, Figure] = {}


def figure(name: str, help: str):
    """Register ``fn(outdir, *, preset, seed) -> list[Path]`` as figure ``name``."""

    def deco(fn):
        _FIGURES[name] = Figure(name, help, fn)
        return fn

    return deco


def registry() -> dict[str, Figure]:
    for m in pkgutil.iter_modules(__path__):
        if not m.name.startswith("_"):
            importlib.import_module(f"{__name__}.{m.name}")
    return dict(sorted(_FIGURES.items()))


def select(patterns: str | None) -> list[Figure]:
    figs = registry()
    if not patterns:
        return list(figs.values())
    out = []
    for p in (p.strip() for p in patterns.split(",") if p.strip()):
        hit = [f for n, f in figs.items() if fnmatch.fnmatchcase(n, p)]
        if not hit:
            raise ValueError(f"--only pattern {p!r} matches no figure; `petheory figures --list` shows them")
        out.extend(h for h in hit if h not in out)
    return out


def save(fig, data: dict, outdir, name: str) -> list[Path]:
    """Save ``fig`` as ``name.png`` and ``data`` as ``name.json`` in ``outdir`` (atomically)."""
    import matplotlib.pyplot as plt

    from petheory.io import atomic_write, atomic_write_json

    outdir = Path(outdir)
    try:
        png = atomic_write(outdir / f"{name}.png", lambda fh: fig.savefig(fh, format="png", dpi=120, bbox_inches="tight"))
    finally:
        plt.close(fig)
    js = atomic_write_json(outdir / f"{name}.json", data)
    return [png, js]


def use_agg() -> None:
    import matplotlib

    matplotlib.use("Agg", force=True)
