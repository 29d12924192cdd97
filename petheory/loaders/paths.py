"""Which files may be opened: regular files only, symlink loops named, model folders treated like archives.

Every reader of petheory opens its file through :func:`open_regular` (or checks it with
:func:`regular_file` where a library opens it, as ``torch.load`` does): a FIFO named like a weights
file would otherwise make the command wait forever, a device file would be read without end, and a
symlink loop would be reported as a missing file. A model folder (``hf:DIR``) is an archive: every
file it names, by a shard index or by a symlink, must resolve inside it (:func:`inside`), see
:func:`model_root` for the Hugging Face cache's own links.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from petheory.errors import ValidationError

__all__ = ["regular_file", "open_regular", "read_limited", "model_root", "inside"]

_KINDS = [(stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket")]


def regular_file(path, *, what: str = "file") -> Path:
    """``path`` if it is (or links to) a regular file; else the error that says what it is.

    Raises
    ------
    FileNotFoundError
        Nothing there (a dangling symlink says where it points).
    ValidationError
        A symlink loop, a directory, a FIFO, a device or a socket.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "x.json"
    >>> _ = p.write_text("{}")
    >>> regular_file(p) == p
    True
    """
    path = Path(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ValidationError(f"{path} is a symbolic link loop (too many levels of symbolic links); expected a "
                                  f"{what}") from None
        if exc.errno in (errno.ENOENT, errno.ENOTDIR):
            if os.path.islink(path):
                raise FileNotFoundError(f"{path} is a symbolic link to {os.readlink(path)}, which does not exist") from None
            raise FileNotFoundError(f"no such file: {path}") from None
        raise
    if stat.S_ISDIR(st.st_mode):
        raise ValidationError(f"{path} is a directory; expected a {what}")
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _KINDS if test(st.st_mode)), "not a regular file")
        raise ValidationError(f"{path} is not a regular file ({kind}); petheory reads regular files only")
    return path


def open_regular(path, *, what: str = "file"):
    """``path`` opened for binary reading, after :func:`regular_file`; ``O_NONBLOCK`` so that a file swapped
    for a FIFO between the check and the open cannot block, and checked again on the open descriptor."""
    path = regular_file(path, what=what)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValidationError(f"{path} is not a regular file; petheory reads regular files only")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_limited(path, max_bytes: int, *, what: str = "file") -> bytes:
    """The bytes of regular file ``path``; refused before reading when it holds more than ``max_bytes``."""
    with open_regular(path, what=what) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            raise ValidationError(f"{path} has {size} bytes; a {what} of at most {max_bytes} bytes "
                                  f"({max_bytes / 2**20:.0f} MiB) is accepted")
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew while read
        raise ValidationError(f"{path} holds more than {max_bytes} bytes; a {what} of at most that is accepted")
    return data


def model_root(directory) -> Path:
    """The folder that files of model folder ``directory`` must resolve into.

    The folder itself, resolved; for a snapshot of the Hugging Face cache
    (``models--ORG--NAME/snapshots/REV``, whose files are links to ``../../blobs/SHA``) it is the
    ``models--ORG--NAME`` folder, so that the cache's own links are followed and nothing else is.
    """
    root = Path(directory).resolve()
    if root.parent.name == "snapshots" and root.parent.parent.name.startswith(("models--", "datasets--")):
        return root.parent.parent
    return root


def inside(path, root: Path, *, named_by: str | None = None) -> Path:
    """``path`` resolved (symlinks included), refused when it leaves ``root`` (see :func:`model_root`).

    ``named_by`` says who named the path (``"model.safetensors.index.json weight_map['x']"``) for the message.
    """
    path = Path(path)
    try:
        resolved = path.resolve(strict=False)
    except RuntimeError:  # a symlink loop on Python < 3.13
        raise ValidationError(f"{path} is a symbolic link loop (too many levels of symbolic links)") from None
    if resolved != root and root not in resolved.parents:
        who = f"{named_by} names {path}" if named_by else f"{path}"
        raise ValidationError(f"{who}, which leaves the model folder {root} (it resolves to {resolved}); every file a "
                              "model folder names must lie inside it")
    return path
