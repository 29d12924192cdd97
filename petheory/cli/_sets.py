"""``--set key=value`` arguments (``petheory train`` and ``petheory sweep``), parsed in one place."""

from __future__ import annotations

import json

from petheory.errors import ValidationError


def parse_sets(items) -> dict:
    """``key=value`` pairs; values are JSON when they parse (numbers, true, lists), else strings."""
    out = {}
    for item in items or []:
        key, eq, val = item.partition("=")
        if not eq or not key.strip():  # the grammar of the flag's text; the preset checks the keys and values
            raise ValidationError(f"--set {item!r} must look like key=value (e.g. epochs=3, model.d_model=32, task.n_train=100)")
        try:
            out[key.strip()] = json.loads(val)
        except json.JSONDecodeError:
            out[key.strip()] = val
    return out
