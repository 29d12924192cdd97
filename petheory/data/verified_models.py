"""The verification table as package data: ``verified_models.json`` beside this module.

Written by ``python -m tools.verify --write``; read (once) by :mod:`petheory.models.verified`, which says
what it holds. Kept here, with the built-in corpus, because the theory modules open no file.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

#: The table's file.
PATH = Path(__file__).with_name("verified_models.json")


@functools.lru_cache(maxsize=1)
def table() -> dict:
    """The parsed table (an empty one when the file is absent: then no model type is verified)."""
    if not PATH.is_file():
        return {"transformers": None, "types": {}, "cases": [], "counts": {}}
    return json.loads(PATH.read_text(encoding="utf-8"))
