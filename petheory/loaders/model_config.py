"""Resolving a PE at the edge: a spec string, a ``config.json``, ``hf:DIR`` or a table file -> one :class:`~petheory.scheme.Scheme`.

:func:`resolve_scheme` is the one place that reads files for a PE; every analysis
(:mod:`petheory.analyses`) takes the scheme it returns, so the same model gives the same numbers in
every command.

The mapping itself is pure (:func:`petheory.models.resolve_config`); this module only finds and
reads the file, offline, and puts its path in front of any error. Which terms are configs
(:func:`config_source`): a path ending in ``.json``; ``hf:DIR`` or a directory whose
``config.json`` names a model type petheory resolves from the configuration alone
(:data:`petheory.models.MODEL_TYPES`), or that holds no weights at all (then an unknown type is an
error listing the supported ones). A directory of another model type with weights (BERT, GPT-2:
learned position tables) is read by :func:`petheory.loaders.load_position_embeddings` as before.
"""

from __future__ import annotations

import os
from dataclasses import replace
from numbers import Integral
from pathlib import Path

from petheory.loaders import safe_json
from petheory.loaders.limits import CONFIG_MAX_BYTES
from petheory.loaders.paths import inside, model_root
from petheory._validate import Interval, validate_params
from petheory.errors import ParameterError, ValidationError
from petheory.loaders.gguf_scheme import load_gguf_scheme
from petheory.loaders.hf import MINILM, resolve_hf_dir
from petheory.models import MODEL_TYPES, resolve_config
from petheory.spec import TABLE_SUFFIXES
from petheory.scheme import Positions, Scheme

__all__ = ["CONFIG_MAX_BYTES", "DEFAULT_D", "DEFAULT_CONTEXT", "config_source", "read_config", "load_model_scheme",
           "not_a_model", "resolve_scheme"]

#: Head dimension and original context of a plain spec when the command gives none.
DEFAULT_D = 64
DEFAULT_CONTEXT = 4096

_WEIGHTS = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin")


def read_config(path) -> dict:
    """The parsed JSON object in ``path`` (a ``config.json``).

    Parameters
    ----------
    path : str or path
        The file (``~`` expanded).

    Returns
    -------
    dict
        The object, as parsed (a ``model_type``, when present, is a string).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        Not UTF-8 JSON, not a JSON object, or larger than :data:`CONFIG_MAX_BYTES`; a ``model_type``
        that is not a string.

    Examples
    --------
    >>> cfg = read_config("tests/data/hf_configs/mistral_7b.json")
    >>> cfg["model_type"], cfg["rope_theta"], cfg["sliding_window"]
    ('mistral', 10000.0, 4096)
    >>> read_config("tests/data/gguf/README.md")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: tests/data/gguf/README.md is not valid JSON (...)
    """
    path = Path(path).expanduser()
    cfg = safe_json.read_json(path, what="config.json", max_bytes=CONFIG_MAX_BYTES)
    if not isinstance(cfg, dict):
        raise ValidationError(f"{path} holds a JSON {type(cfg).__name__}, not an object; a config.json is an object "
                         "with model_type, hidden_size, ...")
    mt = cfg.get("model_type")
    if mt is not None and not isinstance(mt, str):
        raise ValidationError(f"{path}: field 'model_type' must be text such as 'llama', got a JSON "
                              f"{type(mt).__name__} ({mt!r:.40})")
    return cfg


def config_source(text, *, as_family: str | None = None) -> Path | None:
    """The ``config.json`` a PE term stands for, or None when the term is a table (or not a path).

    See the module docstring for the rule (with ``as_family``, a folder's ``config.json`` is the model's whatever its
    model type). Reads at most that one small file.

    Parameters
    ----------
    text : str or path
        A PE term: a path ending in ``.json``, ``hf:DIR``, a directory, or anything else (a table file, a spec).
    as_family : str, optional
        The model type the user asserts (``--as-family``): a folder's ``config.json`` is then taken whatever its
        ``model_type`` and whatever weights lie beside it.

    Returns
    -------
    pathlib.Path or None
        The ``.json`` path itself (not checked here: :func:`read_config` says what is wrong with it), or the folder's
        ``config.json``; None for ``hf:minilm``, a file that is not ``.json``, a name that is not a directory, a
        folder without ``config.json``, or one with weights whose ``config.json`` names a model type petheory does
        not resolve (or cannot be read).

    Raises
    ------
    FileNotFoundError
        ``hf:DIR`` whose folder does not exist.
    ValidationError
        The folder's ``config.json`` resolves outside the folder (a symlink out).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> config_source("tests/data/hf_configs/mistral_7b.json").name
    'mistral_7b.json'
    >>> config_source("rope:base=1e+06") is None, config_source("tests/data/gguf/llama_yarn.gguf") is None
    (True, True)
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = (pathlib.Path(tmp.name) / "config.json").write_text("{}")
    >>> config_source(f"hf:{tmp.name}") == pathlib.Path(tmp.name) / "config.json"   # a folder without weights
    True
    >>> tmp.cleanup()
    """
    s = str(text)
    if s.startswith("hf:"):
        s = s[3:]
        if s == MINILM:
            return None
    path = Path(s).expanduser()
    if path.suffix.lower() == ".json":
        return path  # read_config says what is wrong with it (missing, a directory, a FIFO, not JSON)
    try:
        if s != str(text):  # hf:DIR: a missing folder is an error here, not "not a configuration"
            path = resolve_hf_dir(s)
        if not path.is_dir():
            return None
    except ValueError:
        return None
    cfg_path = path / "config.json"
    if not os.path.lexists(cfg_path):
        return None
    inside(cfg_path, model_root(path), named_by=None)  # a config.json linked from outside the folder is refused
    has_weights = any(os.path.lexists(path / w) for w in _WEIGHTS) or any(path.glob("*.safetensors"))
    if not has_weights or as_family is not None:
        return cfg_path
    try:
        return cfg_path if read_config(cfg_path).get("model_type") in MODEL_TYPES else None
    except ValueError:
        return None  # a broken config beside weights: the table reader decides (it needs no config)


def not_a_model(text) -> str:
    """Why the PE term ``text`` (a table for :func:`config_source`) is not a model configuration, for one error line.

    Parameters
    ----------
    text : str or path
        The PE term (``hf:DIR``, a directory or a file).

    Returns
    -------
    str
        The reason: no such file or directory, a folder without ``config.json``, a folder with weights whose
        ``config.json`` names a model type petheory does not resolve, or a file that is not a configuration;
        each but the first points to ``petheory spectrum``/``stress`` for tables.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> f = pathlib.Path(tmp.name) / "pe.npy"
    >>> _ = f.write_bytes(b"")
    >>> not_a_model(f).startswith("not the table")
    True
    >>> "has no config.json" in not_a_model(f"hf:{tmp.name}")
    True
    >>> tmp.cleanup()
    """
    s = str(text)
    p = Path(s[3:] if s.startswith("hf:") else s).expanduser()
    if not os.path.lexists(p):
        return f"no such file or directory: {p}"
    if p.is_dir():
        if not os.path.lexists(p / "config.json"):
            return (f"{s} has no config.json: a model's positional scheme is read from its config.json (its weights are a "
                    "table: use petheory spectrum/stress for tables)")
        return (f"{s}: its config.json names a model type petheory does not resolve from the configuration, and the folder "
                "holds weights: use petheory spectrum/stress for its position table")
    return f"not the table {s}: use petheory spectrum/stress for tables"


def _config_or_weights(text) -> None:
    """A model folder (``hf:DIR`` or a directory) with neither ``config.json`` nor weights: the error names config.json."""
    s = str(text)
    path = Path(s[3:] if s.startswith("hf:") else s).expanduser()
    if s[3:] == MINILM or not path.is_dir() or os.path.lexists(path / "config.json") or \
            path.suffix.lower() in TABLE_SUFFIXES:  # a folder named like a table: the table reader says what it is
        return
    if any(os.path.lexists(path / w) for w in _WEIGHTS) or any(path.glob("*.safetensors")) or any(path.glob("*.pt")):
        return
    raise ValidationError(f"{path} has no config.json: a model's positional scheme is read from its config.json "
                          "(copy it into the folder; no weights are needed), and the folder holds no position table "
                          "(model.safetensors or pytorch_model.bin) either")


def load_model_scheme(source, *, as_family: str | None = None) -> Scheme:
    """Read ``source`` (a config.json, ``hf:DIR`` or a directory holding one) and resolve its scheme (``as_family``:
    read it as that verified model type, the user's assertion: :func:`petheory.models.resolve_config`).

    Parameters
    ----------
    source : str or path
        A ``config.json``, ``hf:DIR`` or a directory holding one (as :func:`config_source` finds it).
    as_family : str, optional
        Read the config as this verified model type.

    Returns
    -------
    Scheme
        The model's scheme, with ``spec`` set to ``str(source)``.

    Raises
    ------
    FileNotFoundError
        No such file or directory.
    ValueError
        Malformed JSON or config (the message starts with the file and names the field), an
        unknown ``model_type`` or ``rope_type`` (it lists the supported ones).

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> d = pathlib.Path(tmp.name)
    >>> _ = (d / "config.json").write_text(json.dumps({"model_type": "mistral", "hidden_size": 4096,
    ...     "num_attention_heads": 32, "max_position_embeddings": 32768, "rope_theta": 10000.0, "num_hidden_layers": 32}))
    >>> load_model_scheme(f"hf:{d}").main.positions.encoding
    'rope'
    >>> tmp.cleanup()
    >>> s = load_model_scheme("tests/data/hf_configs/llama3_1_8b.json")
    >>> s.main.positions.encoding, s.context, s.head_dim
    ('rope_llama3', 8192, 128)
    """
    path = config_source(source, as_family=as_family)
    if path is None:
        raise ValidationError(not_a_model(source))
    cfg = read_config(path)
    try:
        scheme = resolve_config(cfg, as_family=as_family)
    except (ValueError, TypeError) as exc:
        raise ValidationError(f"{path}: {exc}") from None
    return replace(scheme, spec=str(source))


@validate_params({
    "d": [Interval(Integral, 1, None), None],
    "context": [Interval(Integral, 1, None), None],
    "key": [str, None],
    "default_d": [Interval(Integral, 1, None), None],
    "default_context": [Interval(Integral, 1, None), None],
    "as_family": [str, None],
})
def resolve_scheme(text_or_spec, *, d: int | None = None, context: int | None = None, key: str | None = None,
                   default_d: int = DEFAULT_D, default_context: int | None = None, what: str = "this command",
                   as_family: str | None = None) -> Scheme:
    """A ``--pe`` (text or a parsed :class:`petheory.spec.PESpec`) -> its :class:`~petheory.scheme.Scheme`, validated.

    Parameters
    ----------
    text_or_spec : str or PESpec
        A registered encoding with parameters (``rope:base=1e+06``; ``rope+sinusoidal`` is the
        registry's ``rope_sinusoidal``), a model's ``config.json`` / ``hf:DIR``, or a table file.
    d : int, optional
        Head dimension of a plain spec (``default_d`` when None). A model's config fixes its own:
        a different ``d`` is refused, never silently used.
    context : int, optional
        Original (training) context L of a plain spec (its own ``n_max`` wins; :data:`DEFAULT_CONTEXT`
        when neither); a model's config fixes its own (a different one is refused).
    key : str, optional
        Tensor name in a table file (``--key``; the same as ``SPEC#KEY``).
    default_d, default_context : int, optional
        A plain spec's head dimension and context when ``d``/``context`` are None (a command's own
        defaults: never applied to, nor checked against, a model's config; None: :data:`DEFAULT_D`,
        :data:`DEFAULT_CONTEXT`).
    what : str, optional
        The command's name in the refusal of a combination that is no registry entry (default ``'this command'``).
    as_family : str, optional
        Read a model's config as this verified model type (``--as-family``): the user's assertion, which the
        scheme's notes state. Only for a model's config.

    Returns
    -------
    Scheme
        A model's own scheme (its config.json or ``gguf:FILE`` header); for a table file, one table layer with
        context ``context`` (default: the table's rows); for a registered encoding, one layer of head dimension
        ``d`` and context L.

    Raises
    ------
    ValidationError
        An unknown name, a parameter the encoding does not take, a combination that is no registry
        entry, a ``d``/``context`` that contradicts the model's config, an unreadable file.

    Examples
    --------
    >>> s = resolve_scheme("rope:base=1e+06", d=128)
    >>> s.main.positions.params, s.head_dim, s.context
    ({'base': 1000000.0}, 128, 4096)
    """
    from petheory import encodings as enc
    from petheory.spec import parse_pe_spec

    if isinstance(text_or_spec, os.PathLike):
        text_or_spec = os.fspath(text_or_spec)
    spec = parse_pe_spec(text_or_spec).with_key(key)
    if spec.is_table and len(spec.terms) == 1:
        term = spec.head
        gguf = term.path.startswith("gguf:")  # a llama.cpp file: its header's scheme (petheory.loaders.gguf_scheme)
        if gguf or (term.key is None and config_source(term.path, as_family=as_family) is not None):
            if gguf and term.key is not None:
                raise ValidationError(f"{term}: a GGUF file's scheme takes no #KEY (tensors are not read)")
            if gguf and as_family is not None:
                raise ValidationError(f"{term}: as_family applies to a config.json; a GGUF file's architecture fixes "
                                      "its scheme")
            scheme = load_gguf_scheme(term.path) if gguf else load_model_scheme(term.path, as_family=as_family)
            for name, val, own in (("d", d, scheme.head_dim), ("context", context, scheme.context)):
                if val is not None and val != own:
                    raise ParameterError(name, f"the model's own {own} (its config fixes it: {term.path}; leave it "
                                               "out)", val, owner=resolve_scheme)
            return scheme
        if as_family is not None:
            raise ValidationError(f"as_family={as_family}: {not_a_model(term.path)}; a family says how a model's "
                                  "config.json is read")
        _config_or_weights(term.path)
        from petheory.loaders.positions import load_position_embeddings

        loaded = load_position_embeddings(term.path, key=term.key)
        rows, width = loaded.table.shape
        if d is not None and d != width:
            raise ParameterError("d", f"the loaded table's width {width} ({loaded.describe()})", d, owner=resolve_scheme)
        label = term.path + (f"[{loaded.key}]" if loaded.key and not term.path.endswith(".safetensors") else "")
        table = Positions("table", table=loaded.table, d=int(width), source=label)
        return Scheme.single(table, context=int(context or rows), source="table", spec=str(spec))
    if as_family is not None:
        raise ValidationError(f"as_family={as_family} names the family of a model's config.json; {spec} is a "
                              "registered encoding (leave the family out)")
    term = spec.registered(what)
    if term.is_table:
        raise ValidationError(f"{what} takes one PE: a table stands alone, not in the combination {spec}")
    info = enc.info(term.name)  # an unknown name: the registry's list
    term.check_params(info.params)  # a petheory.nn mechanism's keys (heads=, mla) -> one line naming the parameters
    params = term.params
    own = params.get("n_max")
    L = int(own) if isinstance(own, int) and not isinstance(own, bool) and own >= 1 else \
        int(context or default_context or DEFAULT_CONTEXT)
    dd = int(d if d is not None else DEFAULT_D if default_d is None else default_d)
    if info.kind == "rotary" and dd % 2:
        raise ValidationError(f"d = {dd}: a rotary encoding pairs coordinates, give an even head dimension")
    positions = Positions(info.kind, term.name, params, dd)
    return Scheme.single(positions, context=L, spec=str(term))
