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
    """A figure's experiment records are not on disk; its one argument, the message, names the command that makes
    them."""


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
    """Register ``fn(outdir, *, preset, seed) -> list[Path]`` as figure ``name`` (a decorator).

    For a figure whose command does more than ``draw(data(...))`` (skips, or draws a placeholder); :func:`register`
    registers the rest.

    Parameters
    ----------
    name : str
        The figure's name (``family.figure``).
    help : str
        One line on what it shows.
    illustrates : tuple of str, optional
        The claims (``proofs_check`` ids) the figure shows beside their data; the docs' gallery links each figure to
        them, and a test checks every id exists.
    draw : callable, optional
        ``draw(data)``: draws the figure from its saved JSON alone; a test redraws the committed PNG from the committed
        JSON, so what ``figures/`` shows is what the command draws.
    needs : str, optional
        The function of :mod:`petheory.experiments` whose records ``fn`` reads (``fn`` raises :class:`RecordsMissing`
        without them).

    Returns
    -------
    callable
        The decorator; it returns ``fn`` unchanged.

    Examples
    --------
    >>> @figure("demo.empty", "nothing", illustrates=("gu2025.szego",))
    ... def empty(outdir, *, preset="quick", seed=0):
    ...     return []
    >>> _FIGURES.pop("demo.empty").illustrates
    ('gu2025.szego',)
    """

    def deco(fn):
        _FIGURES[name] = Figure(name, help, fn, tuple(illustrates), draw, needs)
        return fn

    return deco


#: The docstring of a figure function :func:`register` makes (each is one figure of the registry).
_FIGURE_DOC = """Figure {name}: {help}

Draws ``draw(data(preset, seed))`` and saves it as ``{name}.png`` and ``{name}.json`` (:func:`petheory.plots.save`).

Parameters
----------
outdir : str or os.PathLike
    Where the PNG and the JSON go.
preset : {{'quick', 'full'}}, optional
    How much the figure computes.
seed : int, optional
    Seed of its random draws.

Returns
-------
list of pathlib.Path
    The PNG and the JSON written.

Examples
--------
>>> import tempfile
>>> from petheory.plots import registry
>>> with tempfile.TemporaryDirectory() as tmp:  # doctest: +SKIP
...     png, js = registry()["{name}"].fn(tmp)
"""


def register(name: str, help: str, *, data: Callable, draw: Callable, illustrates=(), needs=None) -> Callable:
    """Register figure ``name`` as ``draw(data(preset, seed))``, saved as PNG and JSON.

    The figure's record is then ``registry()[name].data(preset, seed)``, computed without drawing: what a
    notebook reads, and what the test of the committed figures compares (a drawing takes most of a figure's
    time). :func:`figure` registers a figure whose command does more than that (skips, or draws a placeholder).

    Parameters
    ----------
    name : str
        The figure's name (``family.figure``).
    help : str
        One line on what it shows.
    data : callable
        ``data(preset, seed) ->`` the figure's JSON record.
    draw : callable
        ``draw(data) ->`` a matplotlib Figure.
    illustrates : tuple of str, optional
        The claims it shows beside their data.
    needs : str, optional
        The experiment whose records ``data`` reads.

    Returns
    -------
    callable
        ``fn(outdir, *, preset, seed) -> list[Path]``, documented as the figure.

    Examples
    --------
    >>> fn = register("demo.line", "a line", data=lambda preset, seed: {"y": [0, 1]}, draw=lambda d: None)
    >>> fn.__name__, _FIGURES.pop("demo.line").data("quick", 0)
    ('demo_line', {'y': [0, 1]})
    """

    def fn(outdir, *, preset: str = "quick", seed: int = 0) -> list[Path]:
        record = data(preset, seed)
        return save(draw(record), record, outdir, name)

    fn.__name__ = fn.__qualname__ = name.replace(".", "_")
    fn.__module__ = draw.__module__  # the figure's module (bounds.*: petheory.plots.bounds), where draw is defined
    fn.__doc__ = _FIGURE_DOC.format(name=name, help=help)
    _FIGURES[name] = Figure(name, help, fn, tuple(illustrates), draw, needs, data)
    return fn


def registry() -> dict[str, Figure]:
    """Every registered figure, by name (the figure modules are imported first).

    Returns
    -------
    dict
        Name -> :class:`Figure`, sorted by name.

    Examples
    --------
    >>> "spectral.szego" in registry()
    True
    """
    for name in public_submodules(sys.modules[__name__]):
        importlib.import_module(name)
    return dict(sorted(_FIGURES.items()))


def select(patterns: str | None) -> list[Figure]:
    """The figures ``petheory figures --only`` names: comma-separated glob patterns (all figures when None).

    Parameters
    ----------
    patterns : str or None
        ``'spectral.*,bounds.pe_norms'``.

    Returns
    -------
    list of Figure
        The figures, in registry order per pattern.

    Raises
    ------
    petheory.errors.ValidationError
        A pattern that matches no figure.

    Examples
    --------
    >>> [f.name for f in select("spectral.sz*")]
    ['spectral.szego']
    """
    figs = registry()
    if not patterns:
        return list(figs.values())
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    return [figs[n] for n in glob_select(figs, pats, no_match="--only pattern {pattern!r} matches no figure; "
                                                                "`petheory figures --list` shows them")]


def refuse_foreign(outdir, name: str) -> None:
    """Refuse when ``outdir/name.json`` exists and is not a figure's record.

    That is another command's output (a JSON with a ``petheory...`` field: ``check --json``, ``plan --json``,
    ``rotate.json``), or a file that is not a figure's pair (no ``name.png`` beside it, no ``figure`` field).
    ``petheory figures`` asks for every figure before it draws.

    Parameters
    ----------
    outdir : str or os.PathLike
        The output folder.
    name : str
        The figure's name.

    Raises
    ------
    petheory.errors.ValidationError
        The file is not the figure's.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from petheory.io import atomic_write_json
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = atomic_write_json(pathlib.Path(tmp) / "spectral.szego.json", {"petheory": "0.1"})
    ...     refuse_foreign(tmp, "spectral.szego")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...spectral.szego.json exists and is not the record of figure spectral.szego ...
    """
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
    """Save ``fig`` as ``name.png`` and ``data`` as ``name.json`` in ``outdir``: one set, both or neither.

    Written by :func:`petheory.io.atomic_write_set`, never over another command's ``name.json``
    (:func:`refuse_foreign`); the figure is closed.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    data : dict
        What it was drawn from (NaN refused before either file is touched).
    outdir : str or os.PathLike
        The output folder.
    name : str
        The figure's name.

    Returns
    -------
    list of pathlib.Path
        The PNG and the JSON.

    Examples
    --------
    >>> import tempfile
    >>> import matplotlib.pyplot as plt
    >>> use_agg()
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print([p.name for p in save(plt.figure(), {"x": 1}, tmp, "demo.empty")])
    ['demo.empty.png', 'demo.empty.json']
    """
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
    """Draw with matplotlib's Agg backend (files only, no display): what ``petheory figures`` and the tests use.

    Examples
    --------
    >>> use_agg()
    >>> import matplotlib
    >>> matplotlib.get_backend().lower()
    'agg'
    """
    import matplotlib

    matplotlib.use("Agg", force=True)
