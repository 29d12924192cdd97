"""The ``petheory`` command. Thin: it parses arguments and calls the library.

Every module in this package not starting with ``_`` is a subcommand: it defines
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Heavy imports
(torch, matplotlib) happen inside ``run`` so ``petheory --help`` stays fast; only the command
being run declares its options (:func:`build_parser`).
An option that feeds a library parameter is built from that function's declaration
(:func:`petheory.cli._params.add_param`): its dest is the keyword, its type, range and default are
the declaration's, and the declaration checks the parsed value before any work, so the command
has no checks of its own and a library message's keyword is the option's name (dashes for
underscores; ``-d/--d-model`` feeds ``d``).
Exit codes: 0 success; 2 bad input, as one line on stderr: the validation errors the library
raises on purpose (:class:`petheory.errors.InvalidInput`: ``ValidationError`` /
``ValidationTypeError``, subclasses of ``ValueError`` / ``TypeError``), argument-parsing errors, a
plugin that does not load, files that cannot be read or written (``OSError``), memory refused or
exhausted; 1 anything else, i.e. a bug (a ``KeyError``, or a ``ValueError`` from inside numpy, is
not the user's fault): one line naming the exception and the file the full traceback was written
to (:func:`write_traceback`, under the temp directory), and a crashing claim checker.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from petheory.errors import InvalidInput, ParameterError
from petheory.plugins import PluginError


class _Parser(argparse.ArgumentParser):
    """One-line errors; no abbreviated flags (``--d`` is not ``--d-model``: every spelling is documented)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message):  # one line, exit 2 (argparse prints usage too by default)
        raise _UsageError(f"{self.prog}: {message}")


class _UsageError(Exception):
    pass


def _subcommands():
    import petheory.cli as pkg
    from petheory.plugins import public_submodules

    return [importlib.import_module(name) for name in public_submodules(pkg)]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``petheory`` parser, its commands' options built from the library's declarations.

    Parameters
    ----------
    command : str, optional
        Declare only this command's options (they import the library functions whose declarations they read:
        ``petheory --help`` and another command's run need none of them); ``""``: no command's. None: every command's,
        for the tests and tools that read them all.

    Returns
    -------
    argparse.ArgumentParser
        The parser; each command's parsed arguments carry its ``run`` function and its long flags by dest.

    Examples
    --------
    >>> args = build_parser("bounds").parse_args(["bounds", "--pe", "alibi", "--context", "50"])
    >>> args.command, args.context, args._flags["context"]
    ('bounds', 50, '--context')
    """
    from petheory import __version__

    common = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    common.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="import MODULE (dotted name or .py path) first, to register your own encodings/claims; repeatable")
    common.add_argument("--quiet", "-q", action="store_true",
                        help="no progress output on stderr; results (tables, 'wrote FILE' lines) are still printed")
    common.add_argument("--max-memory", metavar="SIZE", help="memory a computation may use, e.g. 8G or 512MiB "
                        "(default: PETHEORY_MAX_MEMORY, else the memory available); larger sizes are refused before allocating")
    parser = _Parser(prog="petheory", description="Executable theory of positional encodings in Transformers.")
    parser.add_argument("--version", action="version", version=f"petheory {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for mod in _subcommands():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP), parents=[common])
        if command is None or command == mod.NAME:
            mod.add_arguments(p)
        p.set_defaults(_run=mod.run, _flags=long_flags(p))
    return parser


def main(argv=None) -> int:
    """Run ``petheory`` on ``argv``: parse, check the declared flags, run the command, say a refusal in one line.

    Parameters
    ----------
    argv : list of str, optional
        The arguments after ``petheory`` (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit code: 0 success; 2 bad input (one line on stderr); 1 a bug (one line naming the traceback's file);
        130 interrupted; 141 the reader of stdout went away.

    Examples
    --------
    >>> main(["spectrum", "--coeffs", "2,1", "--method", "off", "--json", "-"]) == 0  # doctest: +ELLIPSIS
    {
    ...
    True
    >>> main(["spectrum", "--coeffs", "2,1", "--length", "0"])
    2
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    from petheory.cli._console import ascii_safe_streams, one_line

    ascii_safe_streams()  # LANG=C: Szegő prints as Szego, never a UnicodeEncodeError
    args = None
    try:
        _check_environment()
        parser = build_parser(next((a for a in argv if not a.startswith("-")), ""))  # the first word: the command
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
        from petheory.plugins import load_module

        for spec in args.plugin:
            load_module(spec)
        from petheory.cli._params import check_declared

        check_declared(args)  # the library's declarations of the flags' parameters, before any work
        from petheory._memory import limit

        with limit(args.max_memory):
            try:
                rc = int(args._run(args) or 0)
            except SystemExit as exc:  # only plugin code exits: petheory's commands return their code
                from petheory.plugins import exit_in_command

                raise exit_in_command(exc, args.command) from None
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler below, not at interpreter exit
        return rc
    except BrokenPipeError:
        return _reader_went_away()
    except _UsageError as exc:
        print(f"{exc} (see --help)", file=sys.stderr)
        return 2
    except (InvalidInput, PluginError, OSError) as exc:  # OSError: a missing input, an output path under a file, a full disk
        msg = one_line(str(exc).strip().splitlines()[0]) if str(exc).strip() else type(exc).__name__
        if isinstance(exc, ParameterError):
            from petheory.cli._params import flag_of

            if (flag := flag_of(args, exc)) is not None:  # a parameter an option feeds: said as that flag
                msg = one_line(exc.said_as(flag))
        print(f"petheory: error: {msg}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # an allocation no estimate foresaw: still one line, never a traceback
        print(f"petheory: error: out of memory ({str(exc).strip() or 'MemoryError'}); try a smaller size or --max-memory",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("petheory: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not bad input: say so in one line and keep the traceback
        first = one_line(str(exc).strip().splitlines()[0]) if str(exc).strip() else ""
        where = write_traceback(exc)
        print(f"petheory: internal error: {type(exc).__name__}{': ' + first if first else ''} "
              f"(a bug in petheory, not in your input; traceback: {where})", file=sys.stderr)
        return 1


def _check_environment() -> None:
    """Environment variables petheory reads, checked once before any command runs (one line, exit 2, when wrong)."""
    from petheory.loaders.environment import check_environment

    check_environment()


def write_traceback(exc: BaseException) -> str:
    """Write ``exc``'s full traceback to a new file under the temp directory and return its path
    (``'not written: ...'`` when even that fails, so the one-line report never raises).

    Parameters
    ----------
    exc : BaseException
        The exception, with its traceback.

    Returns
    -------
    str
        The file's path, or why it was not written.

    Examples
    --------
    >>> try:
    ...     {}["missing"]
    ... except KeyError as exc:
    ...     path = write_traceback(exc)
    >>> "KeyError: 'missing'" in open(path).read()
    True
    """
    import os
    import tempfile
    import time
    import traceback

    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    try:
        for i in range(100):  # "x": a new file (never another run's), with the user's umask (mkstemp would force 0600)
            path = os.path.join(tempfile.gettempdir(), f"petheory-traceback-{stamp}-{i}.txt")
            try:
                with open(path, "x", encoding="utf-8", errors="backslashreplace") as fh:
                    fh.write(f"petheory {' '.join(sys.argv[1:])}\n\n{text}")
                return path
            except FileExistsError:
                continue
        return "not written: 100 traceback files of this process already exist"
    except OSError as e:
        return f"not written: {e}"


def _reader_went_away() -> int:
    """``petheory ... | head``: the reader closed the pipe. Not an error worth a traceback; exit as a
    tool killed by SIGPIPE would (128 + 13), and point stdout at devnull so the exit flush is silent."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


def long_flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    """``dest -> --long-option`` of every option of a command's parser (its longest spelling). A dest is the library
    keyword the option feeds, so this is how a :class:`~petheory.errors.ParameterError` names the flag.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        A command's parser.

    Returns
    -------
    dict of str to str
        Each option's dest and its longest spelling.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("-d", "--d-model", dest="d")
    >>> long_flags(p)
    {'d': '--d-model'}
    """
    return {a.dest: max(a.option_strings, key=len) for a in parser._actions if a.option_strings and a.dest != "help"}
