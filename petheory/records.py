r"""Training records on disk: where they live, reading them back defensively, shipping them.

Two places hold records (JSON objects written by :func:`petheory.nn.training.train` and
:func:`petheory.experiments.grid.train_grid`):

``runs/``
    what this machine trained: one directory per run with ``record.json`` (and a checkpoint).
    ``$PETHEORY_RUNS`` moves it.
``records/``
    the records that ship with petheory: paper-preset runs made on a GPU, JSON only, one file per
    run under ``records/<experiment>/``. They let a clone on a CPU decide the empirical claims
    without training. The committed folder changes only through :func:`export` (or
    ``petheory records export``), never as a side effect of another command.

``find(task=None, workdir=".")`` reads both (the working directory's ``records/`` and
``runs/``, and the ``records/`` folder of the petheory source tree when it is a checkout), skips
duplicates (same ``config_hash``, first found wins: ``runs/`` before ``records/``) and files that
are not records: a truncated or hand-edited file is skipped and named in
``Found.skipped`` as ``(path, reason)``, never a crash.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from petheory._validate import Each, ExistingPath, validate_params
from petheory.io import atomic_write_json
from petheory.errors import ParameterError, ValidationError

_MAX_FILES = 20000


@dataclass
class Found:
    """What :func:`find` read: ``records`` (dicts, each with ``_path``) and ``skipped`` (path, reason).

    Attributes
    ----------
    records : list of dict
        The records read, each with ``_path``.
    skipped : list of (str, str)
        Files skipped, with the reason.
    """

    records: list = field(default_factory=list)
    skipped: list = field(default_factory=list)

    def by_task(self, task: str) -> list[dict]:
        return [r for r in self.records if r.get("task") == task]


def source_hash(root=None) -> str:
    """SHA-256 of the petheory package source (every ``*.py`` under ``root``, path and bytes, sorted).

    Parameters
    ----------
    root : path-like, optional
        The package directory; default: the installed ``petheory`` package.

    Returns
    -------
    str
        ``"sha256:<64 hex digits>"``. Written by the trainer into every record (``source``), so that
        runs compared by a claim can be checked to come from the same code even where the tree was
        copied without its ``.git`` or the commit was relabelled by hand.

    Examples
    --------
    >>> source_hash().startswith("sha256:")
    True
    """
    root = Path(__file__).resolve().parent if root is None else Path(root)
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py"), key=lambda q: q.relative_to(root).as_posix()):
        if "__pycache__" in f.parts:
            continue
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(f.read_bytes() + b"\0")
    return "sha256:" + h.hexdigest()


def runs_dir(workdir=".") -> Path:
    """The runs directory: ``$PETHEORY_RUNS`` if set, else ``<workdir>/runs``.

    Parameters
    ----------
    workdir : str or os.PathLike, optional
        The working directory.

    Returns
    -------
    pathlib.Path
        The runs directory (it need not exist).

    Examples
    --------
    >>> import os
    >>> saved = os.environ.pop("PETHEORY_RUNS", None)
    >>> runs_dir("/tmp/w").as_posix()
    '/tmp/w/runs'
    >>> os.environ.update({} if saved is None else {"PETHEORY_RUNS": saved})
    """
    env = os.environ.get("PETHEORY_RUNS")
    return Path(env) if env else Path(workdir) / "runs"


def bounds_runs_dir(workdir=".") -> Path:
    """Where the li2025 bound experiments cache their training runs and write their records: ``runs_dir() / 'bounds'``.

    Parameters
    ----------
    workdir : str or os.PathLike, optional
        The working directory.

    Returns
    -------
    pathlib.Path
        The folder.

    Examples
    --------
    >>> import os
    >>> saved = os.environ.pop("PETHEORY_RUNS", None)
    >>> bounds_runs_dir("/tmp/w").as_posix()
    '/tmp/w/runs/bounds'
    >>> os.environ.update({} if saved is None else {"PETHEORY_RUNS": saved})
    """
    return runs_dir(workdir) / "bounds"


def bounds_record_path(experiment: str, preset: str, seed: int, workdir=".") -> Path:
    """The record a li2025 bound experiment writes for ``preset`` and ``seed``, and the figure that draws it reads.

    ``bounds_runs_dir() / '<experiment>_<preset>_s<seed>.json'``: not a training record (:func:`find` reads only
    ``record.json`` under runs/).

    Parameters
    ----------
    experiment : str
        ``petheory.experiments.papers``' ``li2025_rademacher_gap`` or ``li2025_alibi_drift``.
    preset : str
        The preset it ran.
    seed : int
        The seed.
    workdir : str or os.PathLike, optional
        The working directory.

    Returns
    -------
    pathlib.Path
        The record's path.

    Examples
    --------
    >>> import os
    >>> saved = os.environ.pop("PETHEORY_RUNS", None)
    >>> bounds_record_path("li2025_alibi_drift", "quick", 0, "/tmp/w").as_posix()
    '/tmp/w/runs/bounds/li2025_alibi_drift_quick_s0.json'
    >>> os.environ.update({} if saved is None else {"PETHEORY_RUNS": saved})
    """
    return bounds_runs_dir(workdir) / f"{experiment}_{preset}_s{seed}.json"


def shipped_dir() -> Path | None:
    """``records/`` of the petheory source tree (a clone or an editable install), if there is one.

    Returns
    -------
    pathlib.Path or None
        The folder, or None in an installed wheel.

    Examples
    --------
    >>> d = shipped_dir()
    >>> d is None or d.name == "records"
    True
    """
    d = Path(__file__).resolve().parents[1] / "records"
    return d if d.is_dir() else None


def roots(workdir=".") -> list[Path]:
    """Where :func:`find` looks, in order: runs, then the working directory's and the source tree's records.

    ``$PETHEORY_RECORDS`` (folders separated by ``os.pathsep``) replaces the two records folders; set it empty to read
    ``runs/`` alone (tests do, to see a clone without shipped records). A folder named twice is kept once.

    Parameters
    ----------
    workdir : str or os.PathLike, optional
        The working directory.

    Returns
    -------
    list of pathlib.Path
        The folders, in the order they are read.

    Examples
    --------
    >>> import os
    >>> saved = {k: os.environ.pop(k) for k in ("PETHEORY_RUNS", "PETHEORY_RECORDS") if k in os.environ}
    >>> os.environ["PETHEORY_RECORDS"] = ""  # runs/ alone
    >>> [p.as_posix() for p in roots("/tmp/w")]
    ['/tmp/w/runs']
    >>> del os.environ["PETHEORY_RECORDS"]; os.environ.update(saved)
    """
    out = [runs_dir(workdir)]
    env = os.environ.get("PETHEORY_RECORDS")
    if env is not None:
        out += [Path(p) for p in env.split(os.pathsep) if p]
    else:
        out.append(Path(workdir) / "records")
        s = shipped_dir()
        if s is not None:
            out.append(s)
    seen, uniq = set(), []
    for r in out:
        key = r.resolve() if r.exists() else r
        if key not in seen:
            seen.add(key)
            uniq.append(r)
    return uniq


def read(path) -> dict:
    """One record file, checked: a usable training record, with ``_path`` set.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    dict
        The record.

    Raises
    ------
    FileNotFoundError
        No such file.
    petheory.errors.ValidationError
        It cannot be read, is not valid JSON, or is not a usable record (:func:`petheory.io.record_problem`); the
        message names the path and what is wrong.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from petheory.io import atomic_write_json
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     read(atomic_write_json(pathlib.Path(tmp) / "r.json", {"task": "parity"}))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...r.json: not a usable training record (field 'pe' is missing)
    """
    from petheory.io import record_problem

    from petheory.loaders.safe_json import read_json

    path = Path(path)
    try:
        rec = read_json(path, what="record")  # NaN/Infinity, 10**400, depth, duplicates refused with the field named
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise ValidationError(f"{path}: cannot be read ({exc})") from None
    problem = record_problem(rec)
    if problem:
        raise ValidationError(f"{path}: not a usable training record ({problem})")
    rec["_path"] = str(path)
    return rec


def load_or_skip(path):
    """The JSON document of record file ``path``, or None after a warning when it cannot be used as JSON.

    For readers with their own notion of a usable record (:func:`read_training_records`); :func:`read` and
    :func:`find` check :func:`petheory.io.record_problem` as well.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    object or None
        The parsed JSON, or None.

    Examples
    --------
    >>> import contextlib, io, tempfile, pathlib
    >>> from petheory.io import atomic_write_text
    >>> with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stderr(io.StringIO()) as err:
    ...     print(load_or_skip(atomic_write_text(pathlib.Path(tmp) / "r.json", '{"a": NaN}')))
    None
    """
    from petheory.io import warn_skipped
    from petheory.loaders.safe_json import read_json

    path = Path(path)
    try:
        return read_json(path, what="record")
    except (ValueError, OSError) as exc:
        warn_skipped(path, str(exc).replace(f"{path}: ", "").replace(f"{path} ", ""))
    return None


@dataclass(frozen=True)
class TrainingRecords:
    """Finished training records read for a comparison (:func:`read_training_records`).

    Attributes
    ----------
    records : tuple of dict
        Each record as its file holds it, with ``_source`` (the file) and, where this installation parses its PE,
        ``_pe_params`` (the parameters of its first term: ``--pe NAME:key=value`` matches on them).
    searched : tuple of str
        The folders searched (those that exist).
    runs : tuple of str
        The files of the explicit run set.
    """

    records: tuple = ()
    searched: tuple = ()
    runs: tuple = ()


#: What a finished training record has, for a comparison to read it.
FINISHED = "needs task, pe and final.test"


def _finished(rec) -> bool:
    return isinstance(rec, dict) and bool(rec.get("task") and rec.get("pe") and (rec.get("final") or {}).get("test"))


def _with_pe_params(rec: dict, source) -> dict:
    """The record with its source file (``_source``) and its PE's first term parsed (``_pe_params``)."""
    from petheory.spec import parse_pe_spec

    rec = {**rec, "_source": str(source)}
    try:
        return {**rec, "_pe_params": parse_pe_spec(str(rec["pe"])).head.params}
    except ValueError:  # a PE this installation does not know (a plugin's): matched by its exact text only
        return rec


@validate_params({"runs": [Each(ExistingPath()), None]})
def read_training_records(folders=(), runs=None, *, given: bool = False) -> TrainingRecords:
    """Every finished training record under ``folders``, then those of the explicit run set ``runs``.

    A folder holds ``record.json`` files of run folders (``runs/``), else ``*.json`` records (``records/li2025_table5``:
    one file per run). A file that is not a usable record is skipped and named on stderr; a folder the user named
    (``given``) that does not exist or holds no usable record is said so on stderr, never a silent "0 training
    records". A run that is not a finished record is an error: the user picked it.

    Parameters
    ----------
    folders : iterable of path-like
        Folders searched (any depth).
    runs : list of path-like, optional
        Run folders (with their ``record.json``) or record files (None: none).
    given : bool
        The folders were named by the user (warn about a missing or empty one).

    Returns
    -------
    TrainingRecords

    Raises
    ------
    petheory.errors.ParameterError
        A run that is missing, has no ``record.json``, is not JSON petheory reads, or is not a finished training
        record (said of ``runs``; the command says ``--run``).

    Examples
    --------
    >>> read_training_records(["no-such-folder"]).records
    ()
    """
    import sys

    from petheory.io import read_json, record_files, warn_skipped

    explicit = []
    for p in runs or ():  # every refusal before any folder is read
        f = Path(p) / "record.json" if Path(p).is_dir() else Path(p)
        if not f.is_file():
            raise ParameterError("runs", "run folders with their record.json, or record.json files", str(p),
                                 owner=read_training_records)
        try:
            rec = read_json(f)  # petheory's one JSON reader: NaN/Infinity, 10**400, depth refused
        except ValueError as exc:
            raise ParameterError("runs", f"JSON petheory reads ({exc})", str(p), owner=read_training_records) from None
        if not _finished(rec):
            raise ParameterError("runs", f"finished training records ({FINISHED})", str(f), owner=read_training_records)
        explicit.append(_with_pe_params(rec, f))
    recs, searched = [], []
    for d in folders:
        root = Path(d)
        if not root.is_dir():
            if given:
                print(f"petheory: warning: records folder {d}: no such folder; no training records read from it",
                      file=sys.stderr)
            continue
        searched.append(str(root))
        files = record_files(root, "record.json") or record_files(root, "*.json")
        found = 0
        for f in files:
            if (rec := load_or_skip(f)) is None:  # named on stderr: NaN/Infinity, 10**400, too deep, not JSON
                continue
            if _finished(rec):
                recs.append(_with_pe_params(rec, f))
                found += 1
            else:
                warn_skipped(f, f"not a finished training record ({FINISHED})")
        if given and not found:
            why = (f"its {len(files)} JSON files are not usable training records (named above)" if files else
                   "it holds no JSON files (record.json of a run folder, or *.json records)")
            print(f"petheory: warning: records folder {d}: no training records read: {why}", file=sys.stderr)
    return TrainingRecords(tuple(recs + explicit), tuple(searched), tuple(str(r["_source"]) for r in explicit))


def find(task: str | None = None, workdir=".", *, where=None, check=None, report: bool = True) -> Found:
    """Every record of ``task`` (or all) under :func:`roots` (or the folders ``where``).

    Files are read by :func:`petheory.io.read_records` (each parsed once per process): one that is truncated,
    hand-edited or (a record of ``task``) fails ``check`` is skipped, listed in ``Found.skipped`` and, with ``report``,
    named on stderr (``petheory: warning: skipping PATH: REASON``). Duplicates (same ``config_hash``) are read once:
    ``runs/`` before ``records/``.

    Parameters
    ----------
    task : str, optional
        Only this task's records.
    workdir : str or os.PathLike, optional
        The working directory :func:`roots` starts from.
    where : iterable of path, optional
        Read these folders (``*.json`` files) instead of :func:`roots`.
    check : callable, optional
        ``check(record) -> reason or None``: the fields a reader needs.
    report : bool, optional
        Warn on stderr for each file skipped.

    Returns
    -------
    Found
        The records and the files skipped.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = find("parity", where=[tmp])
    >>> f.records, f.skipped
    ([], [])
    """
    from petheory.io import read_records

    found, hashes = Found(), set()
    runs = runs_dir(workdir)
    for root in (roots(workdir) if where is None else [Path(w) for w in where]):
        pattern = "record.json" if where is None and root == runs else "*.json"
        recs, skipped = read_records(root, limit=_MAX_FILES, report=report, check=check, pattern=pattern,
                                       with_path=True, task=task)
        found.skipped += [(str(p), why) for p, why in skipped]
        for rec in recs:
            if task is not None and rec["task"] != task:
                continue
            key = rec.get("config_hash") or rec["_path"]
            if key not in hashes:
                hashes.add(key)
                found.records.append(rec)
    return found


def export(records, dest, *, experiment: str) -> list[Path]:
    """Write ``records`` (dicts) as ``dest/<experiment>/<task>__<pe>__s<seed>__<hash>.json`` (atomic).

    Fields starting with ``_`` (``_path``) are left out.

    Parameters
    ----------
    records : iterable of dict
        Training records (with ``task``, ``pe``, ``seed`` and ``config_hash``).
    dest : str or os.PathLike
        The records folder.
    experiment : str
        The subfolder: letters, digits, ``_``, ``.``, ``-``.

    Returns
    -------
    list of pathlib.Path
        The files written.

    Raises
    ------
    petheory.errors.ValidationError
        ``experiment`` is not a plain name.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> rec = {"task": "parity", "pe": "rope:base=500", "seed": 1, "config_hash": "ab12", "_path": "x"}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print([p.relative_to(tmp).as_posix() for p in export([rec], tmp, experiment="demo")])
    ['demo/parity__rope-base=500__s1__ab12.json']
    """
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", experiment):
        raise ValidationError(f"experiment name must be letters, digits, '_', '.', '-', got {experiment!r}")
    out = []
    for r in records:
        r = {k: v for k, v in r.items() if not k.startswith("_")}
        pe = re.sub(r"[^A-Za-z0-9_.=-]+", "-", r["pe"])
        out.append(atomic_write_json(Path(dest) / experiment / f"{r['task']}__{pe}__s{r['seed']}__{r['config_hash']}.json", r))
    return out


def skipped_note(found: Found) -> str:
    """One line naming the skipped files of ``found`` (for a claim's details), or ''.

    Parameters
    ----------
    found : Found
        What :func:`find` read.

    Returns
    -------
    str
        The first file skipped and why, and how many more; '' when none was.

    Examples
    --------
    >>> skipped_note(Found(skipped=[("a.json", "not JSON"), ("b.json", "empty")]))
    'skipped a.json (not JSON) and 1 more'
    """
    if not found.skipped:
        return ""
    first = found.skipped[0]
    more = f" and {len(found.skipped) - 1} more" if len(found.skipped) > 1 else ""
    return f"skipped {first[0]} ({first[1]}){more}"
