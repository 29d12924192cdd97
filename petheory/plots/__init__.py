"""Records -> matplotlib figures, and the registry behind ``petheory figures``.

Each figure is a function registered with :func:`figure`; it computes (or reads) its record,
draws it, and saves both with :func:`save`, so every PNG in ``figures/`` sits next to the JSON
it was drawn from. Modules of this package not starting with ``_`` are imported by
:func:`registry`, so a new topic only adds a file here.

Plots draw records and train nothing (they import neither :mod:`petheory.nn` nor
:mod:`petheory.experiments`): a figure that needs trained models reads the records of an
experiment, names it in ``needs``, and raises :class:`RecordsMissing` when they are not there;
``petheory figures`` then runs that experiment and draws again.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from petheory.errors import ValidationError
from petheory.plugins import glob_select, public_submodules

PRESETS = ("quick", "full")


class RecordsMissing(ValidationError):
    """A figure's experiment records are not on disk; the message names the command that makes them.

    Parameters
    ----------
    *args : str
        The message.
    params : dict, optional
        The parameters it names, as for :class:`petheory.errors.ValidationError`.
    """


@dataclass(frozen=True)
class Figure:
    """One registered figure: how it is drawn, from what, and what it illustrates (:func:`register`).

    Attributes
    ----------
    name : str
        The figure's name (``family.figure``), the file stem it is saved under.
    help : str
        One line on what it shows.
    fn : callable
        ``fn(outdir, *, preset, seed) -> list of Path``: draws and saves it (PNG and JSON).
    illustrates : tuple of str
        The claim ids or bounds it puts next to data.
    draw : callable or None
        ``draw(data) ->`` a matplotlib Figure from the saved JSON alone, where drawing is split from computing.
    needs : str or None
        The :mod:`petheory.experiments` function whose records ``fn`` reads (it trains), if any.
    data : callable or None
        ``data(preset, seed) ->`` the JSON ``fn`` saves, computed without drawing.
    """

    name: str
    help: str
    fn: Callable  # fn(outdir: Path, *, preset: str, seed: int) -> list[Path]
    illustrates: tuple = ()  # the claim ids (proofs_check) or bounds the figure puts next to data
    draw: Callable | None = None  # draw(data) -> matplotlib Figure from the saved JSON alone, where split
    needs: str | None = None  # the petheory.experiments function whose records fn reads (it trains), if any
    data: Callable | None = None  # data(preset, seed) -> the JSON fn saves, computed without drawing (register)


_FIGURES: dict[str, Figure] = {}


def figure(name: str, help: str, *, illustrates=(), draw=None, needs=None):
    """Register ``fn(outdir, *, preset, seed) -> list[Path]`` as figure ``name``.

    ``illustrates`` names the claims (``proofs_check`` ids) the figure shows beside their data; the
    docs' gallery links each figure to them, and a test checks every id exists. ``draw(data)``, where
    given, draws the figure from its saved JSON alone: a test redraws the committed PNG from the
    committed JSON, so what ``figures/`` shows is what the command draws. ``needs`` names the function of
    :mod:`petheory.experiments` whose records ``fn`` reads (``fn`` raises :class:`RecordsMissing` without them).
    """

    def deco(fn):
        _FIGURES[name] = Figure(name, help, fn, tuple(illustrates), draw, needs)
        return fn

    return deco


def register(name: str, help: str, *, data: Callable, draw: Callable, illustrates=(), needs=None) -> Callable:
    """Register figure ``name`` as ``draw(data(preset, seed))``, saved as PNG and JSON; returns its
    ``fn(outdir, *, preset, seed) -> list[Path]``.

    The figure's record is then ``registry()[name].data(preset, seed)``, computed without drawing: what a
    notebook reads, and what the test of the committed figures compares (a drawing takes most of a figure's
    time). :func:`figure` registers a figure whose command does more than that (skips, or draws a placeholder).
    """

    def fn(outdir, *, preset: str = "quick", seed: int = 0) -> list[Path]:
        record = data(preset, seed)
        return save(draw(record), record, outdir, name)

    fn.__name__ = fn.__qualname__ = name.replace(".", "_")
    fn.__module__ = draw.__module__  # the figure's module (bounds.*: petheory.plots.bounds), where draw is defined
    fn.__doc__ = f"Figure {name}: {help}"
    _FIGURES[name] = Figure(name, help, fn, tuple(illustrates), draw, needs, data)
    return fn


def registry() -> dict[str, Figure]:
    for name in public_submodules(sys.modules[__name__]):
        importlib.import_module(name)
    return dict(sorted(_FIGURES.items()))


def select(patterns: str | None) -> list[Figure]:
    figs = registry()
    if not patterns:
        return list(figs.values())
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    return [figs[n] for n in glob_select(figs, pats, no_match="--only pattern {pattern!r} matches no figure; "
                                                                "`petheory figures --list` shows them")]


def refuse_foreign(outdir, name: str) -> None:
    """Refuse when ``outdir/name.json`` exists and is not a figure's record: another command's output (a JSON with a
    ``petheory...`` field: ``check --json``, ``plan --json``, ``rotate.json``), or a file that is not a figure's pair
    (no ``name.png`` beside it, no ``figure`` field). ``petheory figures`` asks for every figure before it draws."""
    import os

    from petheory.errors import ValidationError
    from petheory.io import read_json

    js = Path(outdir) / f"{name}.json"
    if not os.path.lexists(js):
        return
    try:
        doc = read_json(js)
    except (OSError, ValueError):
        doc = None
    if isinstance(doc, dict) and not any(str(k).startswith("petheory") for k in doc) and (
            "figure" in doc or os.path.lexists(js.with_suffix(".png"))):
        return
    raise ValidationError(f"{js} exists and is not the record of figure {name} (another command's output or your "
                          "file): refusing to replace it; move it away or choose another --out")


def save(fig, data: dict, outdir, name: str) -> list[Path]:
    """Save ``fig`` as ``name.png`` and ``data`` as ``name.json`` in ``outdir``: one set, both or neither
    (:func:`petheory.io.atomic_write_set`), never over another command's ``name.json`` (:func:`refuse_foreign`)."""
    import matplotlib.pyplot as plt

    from petheory.io import atomic_write_set, json_text

    outdir = Path(outdir)
    try:
        refuse_foreign(outdir, name)
        text = (json_text(data) + "\n").encode("utf-8")  # NaN refused before either file is touched
        png, js = atomic_write_set({outdir / f"{name}.png": lambda fh: fig.savefig(fh, format="png", dpi=120,
                                                                                   bbox_inches="tight"),
                                    outdir / f"{name}.json": lambda fh: fh.write(text)})
    finally:
        plt.close(fig)
    return [png, js]


def use_agg() -> None:
    import matplotlib

    matplotlib.use("Agg", force=True)
