"""The ``petheory`` command. Thin: it parses arguments and calls the library.

Every module in this package not starting with ``_`` is a subcommand: it defines
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Heavy imports
(torch, matplotlib) happen inside ``run`` so ``petheory --help`` stays fast.
Errors from bad input (``ValueError``, ``TypeError``, missing files) become one line on
stderr and exit code 2; a crashing claim checker exits 1.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from petheory.plugins import PluginError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (argparse prints usage too by default)
        raise _UsageError(f"{self.prog}: {message}")


class _UsageError(Exception):
    pass


def _subcommands():
    import petheory.cli as pkg
    from petheory.plugins import public_submodules

    return [importlib.import_module(name) for name in public_submodules(pkg)]


def build_parser() -> argparse.ArgumentParser:
    from petheory import __version__

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="import MODULE (dotted name or .py path) first, to register your own encodings/claims; repeatable")
    common.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    common.add_argument("--max-memory", metavar="SIZE", help="memory a computation may use, e.g. 8G or 512MiB "
                        "(default: PETHEORY_MAX_MEMORY, else the memory available); larger sizes are refused before allocating")
    parser = _Parser(prog="petheory", description="Executable theory of positional encodings in Transformers.")
    parser.add_argument("--version", action="version", version=f"petheory {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for mod in _subcommands():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP), parents=[common])
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
        from petheory.plugins import load_module

        for spec in args.plugin:
            load_module(spec)
        from petheory._memory import limit

        with limit(args.max_memory):
            rc = int(args._run(args) or 0)
        sys.stdout.flush()  # a closed pipe shows up here, inside the handler below, not at interpreter exit
        return rc
    except BrokenPipeError:
        return _reader_went_away()
    except _UsageError as exc:
        print(f"{exc} (see --help)", file=sys.stderr)
        return 2
    except (ValueError, TypeError, FileNotFoundError, PermissionError, IsADirectoryError, KeyError, PluginError,
            OSError) as exc:  # OSError: an output path under a file, a full disk, ... (one line, not a traceback)
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"petheory: error: {msg}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # an allocation no estimate foresaw: still one line, never a traceback
        print(f"petheory: error: out of memory ({str(exc).strip() or 'MemoryError'}); try a smaller size or --max-memory",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("petheory: interrupted", file=sys.stderr)
        return 130


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
