"""Safe reading and atomic writing of results.

Writes go to a temporary file in the destination folder and are renamed into place, so an
interrupted run never leaves a half-written file behind.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tempfile
from pathlib import Path

from petheory.errors import ValidationError, ValidationTypeError


def atomic_write(path, write) -> Path:
    """Write ``path`` atomically: ``write(fh)`` fills a temporary binary file beside ``path``.

    The one atomic writer of petheory (JSON records, text reports, checkpoints, figures): the
    bytes go to a temporary file in the destination folder (so the rename never crosses a file
    system), are flushed and ``fsync``-ed, and the file is renamed over ``path`` with
    ``os.replace``. An interrupted write (any exception, ``KeyboardInterrupt`` included) leaves
    the old ``path`` untouched and removes the temporary file. Parents are created.

    ``write`` streams into the open file (``lambda fh: torch.save(state, fh)``,
    ``lambda fh: fig.savefig(fh, format="png")``), so nothing is held twice in memory.

    The file gets the mode a plain ``open(path, "w")`` would give: the old file's mode when it
    replaces one, else ``0o666`` less the user's umask (``mkstemp`` alone leaves ``0600``).

    Parameters
    ----------
    path : str or os.PathLike
        The destination.
    write : callable
        ``write(fh)``: fills the open binary file ``fh``.

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    OSError
        The write failed (a full disk: the message names ``path``); the old file is left whole.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = atomic_write(pathlib.Path(tmp) / "sub" / "a.bin", lambda fh: fh.write(b"abc"))
    ...     print(p.name, p.read_bytes())
    a.bin b'abc'
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        _write_into(fd, tmp, path, write)
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:  # a full disk, a quota: say which file was being written
            raise OSError(exc.errno, f"{exc.strerror or exc} while writing", str(path)) from None
        raise
    return path


def _write_into(fd: int, tmp: str, path: Path, write) -> None:
    try:
        _fill(fd, path, write)
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise


def _fill(fd: int, path: Path, write) -> None:
    """``write(fh)`` into the open temporary ``fd`` of ``path``, with ``path``'s mode, flushed and synced; closes it."""
    os.fchmod(fd, _mode_for(path))
    with os.fdopen(fd, "wb") as fh:
        write(fh)
        fh.flush()
        os.fsync(fh.fileno())


def _unlink(name) -> None:
    try:
        os.unlink(name)
    except FileNotFoundError:
        pass


def atomic_write_set(files: dict) -> list[Path]:
    """Write several files as one set: all of them, or none (the earlier set left whole).

    ``files`` is ``{path: write}`` (``write(fh)`` fills a binary file, as for :func:`atomic_write`). Every file is
    first written to a temporary file beside its destination and synced, so a full disk or an exception stops the
    command before any destination changes. Only then are the old files moved aside and the new ones renamed in;
    a rename that fails puts back every file already swapped. Two entries that name the same file are refused.

    Parameters
    ----------
    files : dict
        Destination path -> ``write(fh)``, which fills an open binary file (as for :func:`atomic_write`).

    Returns
    -------
    list of pathlib.Path
        The destinations, in the order given.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     a, b = pathlib.Path(tmp) / "a.txt", pathlib.Path(tmp) / "b.txt"
    ...     _ = atomic_write_set({a: lambda fh: fh.write(b"1"), b: lambda fh: fh.write(b"2")})
    ...     def fail(fh):
    ...         raise OSError(28, "No space left on device")
    ...     try:
    ...         atomic_write_set({a: lambda fh: fh.write(b"new"), b: fail})
    ...     except OSError as exc:
    ...         print(exc.strerror)
    ...     print(a.read_text(), b.read_text())
    No space left on device while writing
    1 2
    """
    paths = [Path(p) for p in files]
    distinct_outputs({str(p): p for p in paths})
    staged: list[tuple[str, Path]] = []
    made: list[Path] = []  # folders this call created, removed again on failure (nothing left behind)
    try:
        for path, write in zip(paths, files.values()):
            missing = [d for d in (path.parent, *path.parent.parents) if not d.exists()]
            path.parent.mkdir(parents=True, exist_ok=True)
            made.extend(reversed(missing))
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((tmp, path))
            try:
                _fill(fd, path, write)
            except OSError as exc:
                if exc.filename is None and exc.errno is not None:
                    raise OSError(exc.errno, f"{exc.strerror or exc} while writing", str(path)) from None
                raise
        _swap(staged)
    except BaseException:
        for tmp, _ in staged:
            _unlink(tmp)
        for d in reversed(made):
            try:
                d.rmdir()
            except OSError:
                pass
        raise
    return paths


def _swap(staged: list) -> None:
    """Rename each staged ``(tmp, path)`` over its path; the old files wait aside until all are in, then go."""
    moved: list[tuple[Path, str | None]] = []  # (path, where its old file waits, or None when there was none)
    try:
        for tmp, path in staged:
            old = None
            if os.path.lexists(path):
                old = tempfile.mktemp(prefix=f".{path.name}.", suffix=".old", dir=path.parent)
                os.replace(path, old)
            moved.append((path, old))
            os.replace(tmp, path)
    except BaseException:
        for path, old in reversed(moved):
            if old is not None:
                os.replace(old, path)
            else:
                _unlink(path)
        raise
    for _, old in moved:
        if old is not None:
            _unlink(old)


def _mode_for(path: Path) -> int:
    """Permission bits for a new file at ``path``: the existing file's, else 0o666 & ~umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mask = os.umask(0)  # reading the umask means setting it; put it straight back
        os.umask(mask)
        return 0o666 & ~mask


def atomic_write_bytes(path, data: bytes) -> Path:
    r"""Write ``data`` to ``path`` atomically (see :func:`atomic_write`).

    Parameters
    ----------
    path : str or os.PathLike
        The destination.
    data : bytes
        What to write.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(atomic_write_bytes(pathlib.Path(tmp) / "a.bin", b"\x00\x01").read_bytes())
    b'\x00\x01'
    """
    data = bytes(data)
    return atomic_write(path, lambda fh: fh.write(data))


def atomic_write_text(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically (see :func:`atomic_write`).

    Parameters
    ----------
    path : str or os.PathLike
        The destination.
    text : str
        What to write.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(atomic_write_text(pathlib.Path(tmp) / "a.txt", "Szegő").read_text(encoding="utf-8"))
    Szegő
    """
    return atomic_write_bytes(path, text.encode("utf-8"))


def json_text(obj, *, indent: int = 2) -> str:
    """``obj`` as JSON text; numpy scalars and arrays and paths are converted, NaN and inf refused (not JSON).

    Parameters
    ----------
    obj : object
        What to serialise.
    indent : int, optional
        Indentation of the JSON text.

    Returns
    -------
    str
        The JSON text.

    Raises
    ------
    ValueError
        ``obj`` holds NaN or inf.

    Examples
    --------
    >>> import numpy as np
    >>> json_text({"x": np.float64(0.5), "v": np.arange(2)}, indent=None)
    '{"x": 0.5, "v": [0, 1]}'
    """
    return json.dumps(obj, indent=indent, allow_nan=False, default=_default)


def atomic_write_json(path, obj, *, indent: int = 2) -> Path:
    """Serialise ``obj`` as JSON (:func:`json_text`: NaN and inf refused, they are not JSON) and write it atomically.

    Parameters
    ----------
    path : str or os.PathLike
        The destination.
    obj : object
        What to serialise.
    indent : int, optional
        Indentation of the JSON text.

    Returns
    -------
    pathlib.Path
        ``path``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(atomic_write_json(pathlib.Path(tmp) / "r.json", {"a": 1}, indent=None).read_text(), end="")
    {"a": 1}
    """
    return atomic_write_text(path, json_text(obj, indent=indent) + "\n")


def read_json(path):
    """Read a JSON file through petheory's one JSON reader, with a clear error when it is missing or corrupt.

    The reader is :func:`petheory.loaders.safe_json.read_json`: regular files only, depth, number range and duplicate
    keys checked.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    object
        The parsed JSON.

    Raises
    ------
    petheory.errors.ValidationError
        The file is missing, not a regular file, or not valid JSON within the limits.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(read_json(atomic_write_json(pathlib.Path(tmp) / "r.json", {"a": [1, 2]})))
    {'a': [1, 2]}
    """
    from petheory.loaders.safe_json import read_json as _read

    return _read(path)


def refuse_replacing(path, *, own_field: str, by: str) -> None:
    """Refuse to overwrite ``path`` unless it is missing or a JSON object with ``own_field`` (a file ``by`` wrote).

    ``petheory report --figure X.png`` writes ``X.json`` beside the figure: a ``check --json X.json``
    written earlier must not be replaced silently. The refusal names the file and the way out.

    Parameters
    ----------
    path : str or os.PathLike
        The file about to be written.
    own_field : str
        A field every file the writer writes has.
    by : str
        The writer, as the message names it.

    Raises
    ------
    petheory.errors.ValidationError
        ``path`` exists and is not the writer's.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = atomic_write_json(pathlib.Path(tmp) / "x.json", {"petheory": "0.1"})
    ...     refuse_replacing(p, own_field="figure", by="petheory report --figure")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ... exists and was not written by petheory report --figure (no 'figure' field): ...
    """
    path = Path(path)
    if not os.path.lexists(path):
        return
    try:
        doc = read_json(path)
    except (OSError, ValueError):
        doc = None
    if isinstance(doc, dict) and own_field in doc:
        return
    raise ValidationError(f"{path} exists and was not written by {by} (no {own_field!r} field): refusing to replace it; "
                          "move it away or choose another name")


def distinct_outputs(outputs: dict) -> None:
    """Refuse two outputs of one command that are the same file (``{flag: path}``; None and ``'-'`` left out).

    ``report --json F --markdown F`` would keep one of the two; a figure's ``X.json`` named again by
    ``--json X.json`` too. The refusal names both flags, before any work.

    Parameters
    ----------
    outputs : dict
        Flag -> the path it names (None or ``'-'``: no file).

    Raises
    ------
    petheory.errors.ValidationError
        Two flags name the same file.

    Examples
    --------
    >>> distinct_outputs({"--json": "r.json", "--markdown": "r.json"})
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: --json and --markdown both name r.json: one would replace the other; give each output its own file
    """
    seen: dict = {}
    for flag, path in outputs.items():
        if path is None or str(path) == "-":
            continue
        key = os.path.realpath(os.path.abspath(os.fspath(path)))
        if key in seen:
            raise ValidationError(f"{seen[key]} and {flag} both name {path}: one would replace the other; give each "
                                  "output its own file")
        seen[key] = flag


def figure_json(figure) -> Path:
    """The JSON a figure ``X.png`` (or ``X``) is saved beside: ``X.json`` (:func:`petheory.plots.save`).

    Parameters
    ----------
    figure : str or os.PathLike
        The figure's path.

    Returns
    -------
    pathlib.Path
        Its JSON's path.

    Examples
    --------
    >>> figure_json("figures/spectral.szego.png").as_posix(), figure_json("out/x").as_posix()
    ('figures/spectral.szego.json', 'out/x.json')
    """
    fig = Path(figure)
    return fig.with_suffix(".json") if fig.suffix.lower() == ".png" else fig.with_name(fig.name + ".json")


def _default(obj):
    import numpy as np

    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise ValidationTypeError(f"{type(obj).__name__} is not JSON serialisable")


# ---------------------------------------------------------------------------- training records read back

_NUMBER = (int, float)


_LENGTH = re.compile(r"[1-9][0-9]{0,17}")  # a test length as the trainer writes it: str(int)


def _is_number(x) -> bool:
    return isinstance(x, _NUMBER) and not isinstance(x, bool)


def record_problem(rec) -> str | None:
    """Why a training record (``record.json`` of :func:`petheory.nn.training.train`) cannot be used; None if it can.

    Checks the fields the claim checkers and figures read: ``task``, ``pe`` (text), ``seed``,
    ``train_len`` (integers), ``config`` (an object), ``final.train`` and every ``final.test[L]``
    (objects of numbers), ``history`` (a list of objects with a numeric ``train_loss``).

    Parameters
    ----------
    rec : object
        A parsed record.

    Returns
    -------
    str or None
        The first problem found, or None.

    Examples
    --------
    >>> rec = {"task": "parity", "pe": "rope", "seed": 0, "train_len": 20, "config": {},
    ...        "final": {"train": {"acc": 1.0}, "test": {"20": {"acc": 0.9}}}}
    >>> record_problem(rec) is None
    True
    >>> record_problem({**rec, "train_len": 0})
    "field 'train_len' must be >= 1, got 0"
    """
    if not isinstance(rec, dict):
        return f"not a JSON object (got {type(rec).__name__})"
    for key, typ, name in (("task", str, "text"), ("pe", str, "text"), ("seed", int, "an integer"),
                           ("train_len", int, "an integer"), ("config", dict, "an object"), ("final", dict, "an object")):
        if key not in rec:
            return f"field {key!r} is missing"
        if not isinstance(rec[key], typ) or isinstance(rec[key], bool):
            return f"field {key!r} must be {name}, got {type(rec[key]).__name__}"
    if rec["train_len"] < 1:
        return f"field 'train_len' must be >= 1, got {rec['train_len']}"
    final = rec["final"]
    test = final.get("test")
    if not isinstance(test, dict) or not test:
        return "field 'final.test' must be a non-empty object (length -> metrics)"
    odd = next((k for k in test if not _LENGTH.fullmatch(k)), None)
    if odd is not None:
        return f"field 'final.test' has the key {odd!r:.30}; its keys are test lengths, integers >= 1 such as '200'"
    model = rec.get("model", {})
    if not isinstance(model, dict):
        return f"field 'model' must be an object, got {type(model).__name__}"
    for key in ("n_layer", "n_head", "d_model"):
        if key in model and not (isinstance(model[key], int) and not isinstance(model[key], bool) and model[key] >= 1):
            return f"field 'model.{key}' must be an integer >= 1, got {model[key]!r:.30}"
    for key in ("chance", "ablation"):
        if key in rec and rec[key] is not None and not isinstance(rec[key], dict):
            return f"field {key!r} must be an object, got {type(rec[key]).__name__}"
    for split, metrics in [("train", final.get("train"))] + [(f"test.{k}", m) for k, m in test.items()]:
        if not isinstance(metrics, dict) or not metrics:
            return f"field 'final.{split}' must be an object of metrics"
        for k, x in metrics.items():
            if not _is_number(x):
                return f"metric 'final.{split}.{k}' must be a number, got {x!r}"
            if not math.isfinite(x):
                return f"metric 'final.{split}.{k}' is {x!r}; a record's metrics must be finite numbers (NaN/inf is not JSON)"
    hist = rec.get("history", [])
    if not isinstance(hist, list) or not all(isinstance(h, dict) and _is_number(h.get("train_loss")) for h in hist):
        return "field 'history' must be a list of objects with a numeric train_loss"
    return None


def field_problem(rec: dict, path: str, kind: str = "number") -> str | None:
    """Why ``rec[a][b]...`` (``path`` = ``'a.b'``) is not a ``kind``; None if it is.

    Parameters
    ----------
    rec : dict
        A parsed record.
    path : str
        Dotted field path.
    kind : {'number', 'int', 'bool', 'text', 'list', 'object'}
        What the field must be.

    Returns
    -------
    str or None
        The problem, or None.

    Examples
    --------
    >>> field_problem({"final": {"mse": 0.1}}, "final.mse"), field_problem({"final": {}}, "final.mse")
    (None, "field 'final.mse' is missing")
    """
    x = rec
    for key in path.split("."):
        if not isinstance(x, dict) or key not in x:
            return f"field {path!r} is missing"
        x = x[key]
    ok = {"number": _is_number(x), "int": isinstance(x, int) and not isinstance(x, bool), "bool": isinstance(x, bool),
          "text": isinstance(x, str), "list": isinstance(x, list), "object": isinstance(x, dict)}[kind]
    return None if ok else f"field {path!r} must be {'an' if kind[0] in 'aeio' else 'a'} {kind}, got {x!r:.40}"


def record_files(root, pattern: str = "record.json") -> list[Path]:
    """The record files below ``root`` (any depth), in path order.

    Files named ``pattern`` (``record.json`` in run directories, ``*.json`` in a records folder), without ``config.json``
    and hidden files (the temporary files of :func:`atomic_write`). The one discovery rule for run and record folders
    (:func:`read_records`, :func:`petheory.records.find`, ``petheory compare``).

    Parameters
    ----------
    root : str or os.PathLike
        The folder searched.
    pattern : str, optional
        The file name pattern (glob).

    Returns
    -------
    list of pathlib.Path
        The files, sorted; [] for a missing ``root``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("b/record.json", "a/record.json", "a/config.json"):
    ...         _ = atomic_write_text(pathlib.Path(tmp) / name, "{}")
    ...     print([p.parent.name for p in record_files(tmp)], record_files(pathlib.Path(tmp) / "none"))
    ['a', 'b'] []
    """
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob(pattern) if p.name != "config.json" and not p.name.startswith("."))


def read_records(root, *, limit: int | None = None, report: bool = True, check=None,
                 pattern: str = "record.json", with_path: bool = False,
                 task: str | None = None) -> tuple[list[dict], list[tuple[Path, str]]]:
    """Every usable record below ``root``, in path order, and the files skipped.

    A file that cannot be read, is not valid JSON or fails :func:`record_problem` is skipped,
    never raised: it goes into ``skipped`` as ``(path, reason)`` and, with ``report``, is
    reported on stderr as ``petheory: warning: skipping PATH: REASON`` (once per path and
    process). A missing ``root`` gives no records. Each file is parsed and validated once per process.

    Parameters
    ----------
    root : str or os.PathLike
        The folder searched (:func:`record_files`).
    limit : int, optional
        Read at most this many files.
    report : bool, optional
        Warn on stderr for each file skipped.
    check : callable, optional
        ``check(record) -> reason or None``: a reader's own requirements (the fields it reads), reported the same way.
    pattern : str, optional
        File name pattern: ``record.json`` in run directories, ``*.json`` in a records folder.
    with_path : bool, optional
        Give each record ``_path``, the file it came from.
    task : str, optional
        Leave out the usable records of other tasks before ``check`` (a reader of one task's records neither reads nor
        judges the others).

    Returns
    -------
    records : list of dict
        The usable records.
    skipped : list of (pathlib.Path, str)
        The files skipped and why.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = atomic_write_text(pathlib.Path(tmp) / "r1" / "record.json", '{"task": "parity"}')
    ...     recs, skipped = read_records(tmp, report=False)
    ...     print(len(recs), skipped[0][1])
    0 field 'pe' is missing
    """
    records, skipped = [], []
    files = record_files(root, pattern)
    for path in files if limit is None else files[:limit]:
        try:
            rec, reason = _read_record_file(path, task)
        except OSError as exc:
            reason = f"unreadable ({type(exc).__name__}: {exc})"
        else:
            if rec is None and reason is None:  # a usable record of another task
                continue
            if reason is None and check is not None:
                reason = check(rec)
            if reason is None:
                if with_path:
                    rec["_path"] = str(path)
                records.append(rec)
                continue
        skipped.append((path, reason))
        if report:
            warn_skipped(path, reason)
    return records, skipped


def warn_skipped(path, reason: str) -> None:
    """``petheory: warning: skipping PATH: REASON`` on stderr, once per (path, reason) and process.

    Parameters
    ----------
    path : str or os.PathLike
        The file skipped.
    reason : str
        Why.

    Examples
    --------
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     warn_skipped("runs/x/record.json", "not JSON")
    ...     warn_skipped("runs/x/record.json", "not JSON")
    >>> print(err.getvalue(), end="")
    petheory: warning: skipping runs/x/record.json: not JSON
    """
    import sys

    key = (str(Path(path).resolve()), reason)
    if key not in _REPORTED:
        _REPORTED.add(key)
        print(f"petheory: warning: skipping {path}: {reason}", file=sys.stderr)


_REPORTED: set[tuple[str, str]] = set()


def _read_safe(path):
    from petheory.loaders.safe_json import read_json as _read

    return _read(path, what="record")


#: Record files this process has parsed and validated: path -> (identity, task, marshalled document or None, reason).
#: The identity (device, inode, size, modification time in ns) is taken before the read, so a file written since
#: (an atomic replace gives a new inode, an edit a new time or size) is read again. The documents kept are at most
#: _READ_CACHE_BYTES in all (the oldest leave first): the 461 shipped records take 2.2 MB.
_READ_CACHE: dict[str, tuple] = {}
_READ_CACHE_BYTES = 256 * 2**20
_READ_CACHE_HELD = [0]  # bytes of the documents kept now


def _read_record_file(path, task: str | None = None) -> tuple[dict | None, str | None]:
    """``(record, None)`` for a usable record file, ``(None, reason)`` for one that is not (not JSON, NaN/Infinity,
    10**400, too deep, duplicate keys, a FIFO, :func:`record_problem`); ``OSError`` when it cannot be read.
    ``(None, None)`` for a usable record whose task is not ``task`` (when given): it is not copied.

    Parsed and validated once per process and file: ``petheory check`` reads the same shipped records for each
    empirical claim (issue 43: a quarter of its time). Each call returns a fresh copy (``marshal`` of the plain JSON
    values), so a reader that changes its record never changes another reader's.
    """
    import marshal

    key = str(path)
    try:
        st = os.stat(path)
    except OSError:
        st = None
    ident = None if st is None or not stat.S_ISREG(st.st_mode) else (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    hit = _READ_CACHE.get(key) if ident is not None else None
    if hit is not None and hit[0] == ident:
        _, rec_task, blob, reason = hit
        if blob is None or task is None or rec_task == task:
            return (None if blob is None else marshal.loads(blob)), reason
        return None, None
    try:
        doc = _read_safe(path)
    except ValidationError as exc:
        doc, reason = None, str(exc).replace(f"{path}: ", "").replace(f"{path} ", "")
    else:
        reason = record_problem(doc)
        if reason is not None:
            doc = None
    if ident is not None:
        blob = None if doc is None else marshal.dumps(doc)
        old = _READ_CACHE.pop(key, None)
        _READ_CACHE_HELD[0] += len(blob or b"") - (len(old[2] or b"") if old else 0)
        _READ_CACHE[key] = (ident, None if doc is None else doc["task"], blob, reason)
        while _READ_CACHE_HELD[0] > _READ_CACHE_BYTES and len(_READ_CACHE) > 1:
            _READ_CACHE_HELD[0] -= len(_READ_CACHE.pop(next(iter(_READ_CACHE)))[2] or b"")
    if doc is not None and task is not None and doc["task"] != task:
        return None, None
    return doc, reason
