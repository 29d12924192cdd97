"""Safe reading and atomic writing of results.

Writes go to a temporary file in the destination folder and are renamed into place, so an
interrupted run never leaves a half-written file behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def atomic_write_text(path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically (temp file + ``os.replace``). Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    return path


def json_text(obj, *, indent: int = 2) -> str:
    """``obj`` as JSON text; numpy scalars/arrays and paths are converted, NaN/inf refused (not JSON)."""
    return json.dumps(obj, indent=indent, allow_nan=False, default=_default)


def atomic_write_json(path, obj, *, indent: int = 2) -> Path:
    """Serialise ``obj`` as JSON (NaN/inf refused: they are not JSON) and write it atomically."""
    return atomic_write_text(path, json_text(obj, indent=indent) + "\n")


def read_json(path):
    """Read a JSON file, with a clear error when it is missing or corrupt."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno})") from None


def _default(obj):
    import numpy as np

    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"{type(obj).__name__} is not JSON serialisable")
