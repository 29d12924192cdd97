"""Environment variables petheory reads (PETHEORY_MAX_VOCAB, PETHEORY_MIN_COUNT, PETHEORY_MAX_MEMORY): a bad value is
named in one line with exit 2; each is read where it is used, and each is documented in the reliability guide."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_util import refused

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name,value", [
    ("PETHEORY_MAX_VOCAB", "abc"), ("PETHEORY_MAX_VOCAB", "0"), ("PETHEORY_MAX_VOCAB", "-3"),
    ("PETHEORY_MAX_VOCAB", "4.5"), ("PETHEORY_MAX_VOCAB", "9" * 400), ("PETHEORY_MIN_COUNT", "1e3"),
    ("PETHEORY_MIN_COUNT", "١٢"), ("PETHEORY_MIN_COUNT", "0"), ("PETHEORY_MAX_MEMORY", "lots"),
])
def test_bad_environment_variables_are_named(capsys, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    refused(capsys, "encodings", match=(f"environment variable {name}", "must be" if "MEMORY" not in name else "size"))


def test_environment_integers_are_read_where_they_are_used(monkeypatch):
    from petheory.loaders.environment import env_int

    monkeypatch.setenv("PETHEORY_MAX_VOCAB", " 12 ")
    monkeypatch.delenv("PETHEORY_MIN_COUNT", raising=False)
    assert (env_int("PETHEORY_MAX_VOCAB"), env_int("PETHEORY_MIN_COUNT")) == (12, 100)


def test_every_environment_variable_is_documented():
    from petheory.loaders.environment import VARIABLES

    text = (ROOT / "docs" / "guide" / "reliability.md").read_text(encoding="utf-8")
    assert [v for v in VARIABLES if v not in text] == []
