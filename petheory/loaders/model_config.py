"""Reading a model's ``config.json`` (a file, or ``hf:DIR`` / a directory holding one) into its positional scheme.

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
from pathlib import Path

from petheory.loaders import safe_json
from petheory.loaders.hf import MINILM, resolve_hf_dir
from petheory.loaders.limits import CONFIG_MAX_BYTES
from petheory.loaders.paths import inside, model_root
from petheory.models import MODEL_TYPES, ModelScheme, resolve_config
from petheory.errors import ValidationError

__all__ = ["CONFIG_MAX_BYTES", "config_source", "read_config", "load_model_scheme", "not_a_model"]

_WEIGHTS = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin")


def read_config(path) -> dict:
    """The parsed JSON object in ``path`` (a ``config.json``).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        Not UTF-8 JSON, not a JSON object, or larger than :data:`CONFIG_MAX_BYTES`.
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


def config_source(text) -> Path | None:
    """The ``config.json`` a PE term stands for, or None when the term is a table (or not a path).

    See the module docstring for the rule. Reads at most that one small file.
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
    if not has_weights:
        return cfg_path
    try:
        return cfg_path if read_config(cfg_path).get("model_type") in MODEL_TYPES else None
    except ValueError:
        return None  # a broken config beside weights: the table reader decides (it needs no config)


def not_a_model(text) -> str:
    """Why the PE term ``text`` (a table for :func:`config_source`) is not a model configuration, for one error line.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "pe.npy"
    >>> _ = f.write_bytes(b"")
    >>> not_a_model(f).startswith("not the table")
    True
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


def load_model_scheme(source) -> ModelScheme:
    """Read ``source`` (a config.json, ``hf:DIR`` or a directory holding one) and resolve its scheme.

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
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "config.json").write_text(json.dumps({"model_type": "mistral", "hidden_size": 4096,
    ...     "num_attention_heads": 32, "max_position_embeddings": 32768, "rope_theta": 10000.0}))
    >>> load_model_scheme(f"hf:{d}").main.encoding
    'rope'
    """
    path = config_source(source)
    if path is None:
        raise ValidationError(not_a_model(source))
    cfg = read_config(path)
    try:
        return resolve_config(cfg)
    except (ValueError, TypeError) as exc:
        raise ValidationError(f"{path}: {exc}") from None
