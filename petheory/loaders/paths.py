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

    Only ``os.stat`` is called (symlinks followed): the file is not opened, so a FIFO is refused
    without waiting on it.

    Parameters
    ----------
    path : str or os.PathLike
        The file to check.
    what : str, optional
        What the caller expects there (``"torch checkpoint"``), for the messages.

    Returns
    -------
    pathlib.Path
        ``path`` as a Path, unresolved (a symlink stays a symlink).

    Raises
    ------
    FileNotFoundError
        Nothing there (a dangling symlink says where it points).
    ValidationError
        A symlink loop, a directory, a FIFO, a device or a socket.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "x.json"
    >>> _ = p.write_text("{}")
    >>> regular_file(p) == p
    True
    >>> regular_file(tmp.name, what="config file")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ... is a directory; expected a config file
    >>> tmp.cleanup()
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
    for a FIFO between the check and the open cannot block, and checked again on the open descriptor.

    Parameters
    ----------
    path : str or os.PathLike
        The file to open.
    what : str, optional
        What the caller expects there, for the messages of :func:`regular_file`.

    Returns
    -------
    io.BufferedReader
        The open file (``"rb"``, close-on-exec); the caller closes it, e.g. with ``with``.

    Raises
    ------
    FileNotFoundError
        Nothing there.
    ValidationError
        Not a regular file, at the check or on the open descriptor.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "x.txt"
    ...     _ = p.write_bytes(b"abc")
    ...     with open_regular(p) as fh:
    ...         fh.read()
    b'abc'
    """
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
    """The bytes of regular file ``path``; refused before reading when it holds more than ``max_bytes``.

    The size is taken from the open descriptor before reading, and at most ``max_bytes + 1`` bytes are
    read, so a file that grows while it is read is refused too.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read (opened by :func:`open_regular`).
    max_bytes : int
        The largest size accepted, in bytes (the callers pass a limit of :mod:`petheory.loaders.limits`).
    what : str, optional
        What the caller expects there (``"config.json"``), for the messages.

    Returns
    -------
    bytes
        The whole content of the file.

    Raises
    ------
    FileNotFoundError
        Nothing there.
    ValidationError
        Not a regular file, or more than ``max_bytes`` bytes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "config.json"
    >>> _ = p.write_text('{"a": 1}')
    >>> read_limited(p, 16)
    b'{"a": 1}'
    >>> read_limited(p, 4, what="config.json")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...config.json has 8 bytes; a config.json of at most 4 bytes (0 MiB) is accepted
    >>> tmp.cleanup()
    """
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
    ``models--ORG--NAME`` folder, so that the cache's own links are followed and nothing else is
    (``datasets--ORG--NAME`` snapshots likewise). Nothing is read: the folder need not exist.

    Parameters
    ----------
    directory : str or os.PathLike
        The model folder (the ``DIR`` of ``hf:DIR``).

    Returns
    -------
    pathlib.Path
        The resolved root that :func:`inside` checks the folder's files against.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     snapshot = pathlib.Path(tmp) / "models--org--name" / "snapshots" / "abc123"
    ...     print(model_root(snapshot).name, model_root(tmp) == pathlib.Path(tmp).resolve())
    models--org--name True
    """
    root = Path(directory).resolve()
    if root.parent.name == "snapshots" and root.parent.parent.name.startswith(("models--", "datasets--")):
        return root.parent.parent
    return root


def inside(path, root: Path, *, named_by: str | None = None, folder: str = "model folder") -> Path:
    """``path`` resolved (symlinks included), refused when it leaves ``root`` (see :func:`model_root`).

    ``named_by`` says who named the path (``"model.safetensors.index.json weight_map['x']"``) for the message.

    Parameters
    ----------
    path : str or os.PathLike
        A file the model folder names (it need not exist).
    root : pathlib.Path
        The resolved folder it must lie in, from :func:`model_root`.
    named_by : str, optional
        Who named ``path``, for the message.
    folder : str, optional
        What ``root`` is, for the message (a tool's ``"checkpoint folder"``).

    Returns
    -------
    pathlib.Path
        ``path`` itself as a Path (not resolved), once its resolution is known to lie inside ``root``.

    Raises
    ------
    ValidationError
        ``path`` resolves outside ``root`` (``..``, an absolute name, a symlink out), or is a symlink loop.

    Examples
    --------
    >>> import tempfile
    >>> tmp = tempfile.TemporaryDirectory()
    >>> root = model_root(tmp.name)
    >>> inside(root / "model.safetensors", root) == root / "model.safetensors"
    True
    >>> inside(root / ".." / "x.safetensors", root, named_by="index.json weight_map['w']")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: index.json weight_map['w'] names .../../x.safetensors, which leaves ...
    >>> tmp.cleanup()
    """
    path = Path(path)
    try:
        resolved = path.resolve(strict=False)
    except RuntimeError:  # a symlink loop on Python < 3.13
        raise ValidationError(f"{path} is a symbolic link loop (too many levels of symbolic links)") from None
    if resolved != root and root not in resolved.parents:
        who = f"{named_by} names {path}" if named_by else f"{path}"
        raise ValidationError(f"{who}, which leaves the {folder} {root} (it resolves to {resolved}); every file a "
                              f"{folder} names must lie inside it")
    return path
