"""Bring your own encodings and claims without editing petheory.

Two ways in, both importing a module whose top level calls
``petheory.encodings.register`` and/or ``proofs_check.claim`` (the one way to declare a claim:
a decorator on its checker, or a plain call for a claim decided by its readings or skipped):

* ``--plugin mypkg.mypes`` (a dotted module name on ``sys.path``) or ``--plugin ./my_pes.py``
  (a file) on any ``petheory`` command;
* entry points of your installed package, in the groups ``petheory.encodings`` and
  ``petheory.claims``; an entry point may name a module, or a callable that is called once.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from importlib import metadata
from pathlib import Path

from petheory.errors import NoMatchError, ValidationError

_LOADED_GROUPS: set[str] = set()


class PluginError(RuntimeError):
    """A plugin (``--plugin`` module or entry point) failed while importing or registering.

    The message names the plugin and the original error; the original exception is chained
    (``__cause__``) for its traceback. The CLI prints it as one line and exits 2."""


def load_module(spec: str):
    """Import a plugin given as a dotted module name or a path to a ``.py`` file.

    A file is imported once per process (a second load would register its names again).

    Parameters
    ----------
    spec : str
        ``mypkg.mypes`` or ``path/to/mypes.py``.

    Returns
    -------
    types.ModuleType
        The module.

    Raises
    ------
    petheory.errors.ValidationError
        ``spec`` is empty, or no such module is installed.
    FileNotFoundError
        No such file.
    PluginError
        The plugin failed to import (its own error named).

    Examples
    --------
    >>> load_module("json").__name__
    'json'
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValidationError(f"plugin={spec!r} is neither a module name (mypkg.mypes) nor a .py file path")
    path = Path(spec)
    if spec.endswith(".py") or path.is_file():
        if not os.path.lexists(path):
            raise FileNotFoundError(f"plugin file not found: {spec}")
        from petheory.loaders.paths import regular_file

        regular_file(path, what="plugin .py file")  # a FIFO, a directory or a link loop: named, never waited on
        name = f"petheory_plugin_{path.stem}"
        loaded = sys.modules.get(name)
        if loaded is not None and Path(getattr(loaded, "__file__", "")).resolve() == path.resolve():
            return loaded  # imported once, as `import` does: a second load would re-register its names
        mod_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[name] = module
        try:
            mod_spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:
            del sys.modules[name]
            raise PluginError(f"plugin {spec} failed to import: {_describe(exc)}") from exc
        return module
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as exc:
        if exc.name and (spec == exc.name or spec.startswith(exc.name + ".")):
            raise ValidationError(f"plugin module {spec!r} not found (is it installed or on PYTHONPATH?)") from None
        raise PluginError(f"plugin {spec} failed to import: {_describe(exc)}") from exc
    except (Exception, SystemExit) as exc:
        raise PluginError(f"plugin {spec} failed to import: {_describe(exc)}") from exc


def load_entry_points(group: str) -> list[str]:
    """Load every entry point of ``group`` once (calling a loaded callable that is not a module).

    Parameters
    ----------
    group : str
        The entry-point group (``petheory.encodings``, ``petheory.claims``).

    Returns
    -------
    list of str
        The names of the entry points loaded now ([] when the group was loaded before).

    Raises
    ------
    PluginError
        An entry point failed to load or to run; the group is then loaded again next time.

    Examples
    --------
    >>> load_entry_points("petheory.no_such_group")
    []
    """
    if group in _LOADED_GROUPS:
        return []
    _LOADED_GROUPS.add(group)
    names = []
    for ep in metadata.entry_points(group=group):
        try:
            obj = ep.load()
            if callable(obj) and not isinstance(obj, type(sys)):
                obj()
        except (Exception, SystemExit) as exc:
            _LOADED_GROUPS.discard(group)  # report it again next time rather than silently skip it
            raise PluginError(f"entry point {ep.name!r} ({ep.value}) of group {group!r} failed: {_describe(exc)}") from exc
        names.append(ep.name)
    return names


def public_submodules(package) -> list[str]:
    """Dotted names of ``package``'s modules not starting with ``_``, sorted.

    The auto-discovery behind the figure registry, the CLI's commands and the claim modules (a new topic only adds a
    file).

    Parameters
    ----------
    package : types.ModuleType
        A package.

    Returns
    -------
    list of str
        Its public submodules' dotted names.

    Examples
    --------
    >>> import petheory.evidence
    >>> public_submodules(petheory.evidence)
    ['petheory.evidence.expectation', 'petheory.evidence.predictors', 'petheory.evidence.table']
    """
    import pkgutil

    return [f"{package.__name__}.{m.name}" for m in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name)
            if not m.name.startswith("_")]


def glob_select(names, patterns, *, no_match: str) -> list[str]:
    """The ``names`` matching any of the glob ``patterns`` (``fnmatch``, case-sensitive), each once.

    A pattern that matches nothing raises ``NoMatchError(no_match.format(pattern=p))``, so a typo
    never silently selects nothing. The one glob selector of ``petheory figures --only`` and
    ``petheory check --claims``.

    Parameters
    ----------
    names : iterable of str
        What may be selected.
    patterns : iterable of str
        Glob patterns.
    no_match : str
        The message of a pattern that matches nothing, with ``{pattern}`` in it.

    Returns
    -------
    list of str
        The names selected.

    Raises
    ------
    petheory.errors.NoMatchError
        A pattern matches no name.

    Examples
    --------
    >>> glob_select(["gu2025.a", "gu2025.b", "li2025.c"], ["li*", "gu2025.*"], no_match="no claim matches {pattern}")
    ['li2025.c', 'gu2025.a', 'gu2025.b']
    >>> glob_select(["a"], ["b*"], no_match="no claim matches {pattern}")
    Traceback (most recent call last):
    ...
    petheory.errors.NoMatchError: no claim matches b*
    """
    import fnmatch

    names = list(names)
    out: list[str] = []
    for p in patterns:
        hit = [n for n in names if fnmatch.fnmatchcase(n, p)]
        if not hit:
            raise NoMatchError(no_match.format(pattern=p))
        out.extend(h for h in hit if h not in out)
    return out


def exit_in_command(exc: SystemExit, command: str) -> PluginError:
    """The error for a ``sys.exit`` called while ``petheory COMMAND`` ran.

    A registered encoding or claim of a plugin (never petheory's own code) ended the command: it did not finish, so its
    exit code must not say it did.

    Parameters
    ----------
    exc : SystemExit
        What the plugin raised.
    command : str
        The command that was running.

    Returns
    -------
    PluginError
        The error to raise, naming the command, the exit code and where ``sys.exit`` was called.

    Examples
    --------
    >>> str(exit_in_command(SystemExit(0), "check"))[:64]
    'petheory check did not finish: sys.exit(0) was called (plugin co'
    """
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" in {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return PluginError(f"petheory {command} did not finish: sys.exit({exc.code!r:.40}) was called{where} (plugin "
                       "code); a registered encoding or claim returns or raises, it does not end the command")


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):  # a plugin that exits would end petheory with its own code and text
        return (f"it called sys.exit({exc.code!r:.40}); a plugin registers encodings or claims and returns, it does not "
                "end the command")
    msg = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {msg[0]}" if msg else type(exc).__name__
