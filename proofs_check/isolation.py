"""Hypothesis run the same everywhere: what the runner turns off around a search, beyond hypothesis's settings.

A claim's search (``proofs_check.runner._search``) must be a function of its seed and budget alone (DESIGN.md).
Hypothesis's settings turn off its deadline, health checks and example database; two more inputs are not
settings, and these context managers remove them for the duration of a search: the literals hypothesis harvests
from the source of local modules (which depend on what was imported before), and its wall-clock limit on
shrinking (which depends on the machine's speed and load).
"""

from __future__ import annotations

import contextlib
import math


@contextlib.contextmanager
def no_local_constants():
    """Run hypothesis without the literals it harvests from local modules' source code.

    Hypothesis (>= 6.131) mixes into generation constants found in every imported module that is
    not installed (this repository's), and the pool grows as modules are imported: the cases of a
    claim then depend on which claims (and modules) ran before it. Private API, so a hypothesis
    without it is left alone.

    Yields
    ------
    None
        Inside the block, generation draws no local constants; they are back after it.

    Examples
    --------
    >>> from hypothesis import find, strategies as st
    >>> with no_local_constants():
    ...     find(st.integers(), lambda n: n > 10)
    11
    """
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.constants_ast import Constants
    except ImportError:  # pragma: no cover
        yield
        return
    saved = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if saved is None or cache is None:  # pragma: no cover
        yield
        return
    empty = Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()  # cached choices may hold local constants
    try:
        yield
    finally:
        providers._get_local_constants = saved
        cache.cache.clear()


@contextlib.contextmanager
def no_wall_clock_limit():
    """Run hypothesis without its one wall-clock budget: shrinking stops after ``MAX_SHRINKING_SECONDS`` (300 s).

    On a busy machine a long shrink (the thorough profile's 2,000 steps of a slow checker) would stop there, at
    another counterexample than on a quiet one; :data:`proofs_check.runner.SHRINK_STEPS` is the budget instead, a count.
    Private API, so a hypothesis without it is left alone (its deadline and health checks are settings, which the
    runner turns off).

    Yields
    ------
    None
        Inside the block, shrinking has no time limit; the limit is back after it.

    Examples
    --------
    >>> from hypothesis import find, strategies as st
    >>> with no_wall_clock_limit():
    ...     find(st.lists(st.integers()), lambda xs: sum(xs) > 100)
    [101]
    """
    try:
        from hypothesis.internal.conjecture import engine as conjecture_engine
    except ImportError:  # pragma: no cover
        yield
        return
    saved = getattr(conjecture_engine, "MAX_SHRINKING_SECONDS", None)
    if saved is None:  # pragma: no cover
        yield
        return
    conjecture_engine.MAX_SHRINKING_SECONDS = math.inf
    try:
        yield
    finally:
        conjecture_engine.MAX_SHRINKING_SECONDS = saved
