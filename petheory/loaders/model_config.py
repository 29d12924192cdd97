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

import json
from pathlib import Path

from petheory.loaders.hf import MINILM, resolve_hf_dir
from petheory.models import MODEL_TYPES, resolve_config
from petheory.scheme import Scheme
from petheory.errors import ValidationError

__all__ = ["CONFIG_MAX_BYTES", "config_source", "read_config", "load_model_scheme"]

#: A config.json larger than this is refused before it is read (real ones are a few kB).
CONFIG_MAX_BYTES = 16 << 20

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
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    size = path.stat().st_size
    if size > CONFIG_MAX_BYTES:
        raise ValidationError(f"{path} has {size} bytes; a config.json is a few kB (at most {CONFIG_MAX_BYTES} accepted)")
    try:
        cfg = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise ValidationError(f"{path} is not UTF-8 text; give a Hugging Face config.json") from None
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); give a "
                         "Hugging Face config.json") from None
    except RecursionError:
        raise ValidationError(f"{path} nests too deeply to be a config.json") from None
    if not isinstance(cfg, dict):
        raise ValidationError(f"{path} holds a JSON {type(cfg).__name__}, not an object; a config.json is an object "
                         "with model_type, hidden_size, ...")
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
    try:
        if path.suffix.lower() == ".json" and not path.is_dir():
            return path
        if s != str(text):  # hf:DIR
            path = resolve_hf_dir(s)
        if not path.is_dir() or not (path / "config.json").is_file():
            return None
    except (OSError, ValueError):
        return None
    cfg_path = path / "config.json"
    has_weights = any((path / w).is_file() for w in _WEIGHTS) or any(path.glob("*.safetensors"))
    if not has_weights:
        return cfg_path
    try:
        return cfg_path if read_config(cfg_path).get("model_type") in MODEL_TYPES else None
    except ValueError:
        return None  # a broken config beside weights: the table reader decides (it needs no config)


def load_model_scheme(source) -> Scheme:
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
    ...     "num_attention_heads": 32, "num_hidden_layers": 32, "max_position_embeddings": 32768, "rope_theta": 10000.0}))
    >>> load_model_scheme(f"hf:{d}").main.positions.encoding
    'rope'
    """
    path = config_source(source)
    if path is None:
        s = str(source)
        p = Path(s[3:] if s.startswith("hf:") else s).expanduser()
        if not p.exists() and s[3:] != MINILM:
            raise FileNotFoundError(f"no such file or directory: {p}")
        raise ValidationError(f"{source} is not a model configuration (a config.json, or a directory holding one)")
    cfg = read_config(path)
    try:
        return resolve_config(cfg)
    except (ValueError, TypeError) as exc:
        raise ValidationError(f"{path}: {exc}") from None
