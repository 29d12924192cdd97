"""Helpers shared by the test files (import them: ``from _helpers import check_claim``; pytest puts tests/ on sys.path)."""

from __future__ import annotations

import dataclasses


def check_claim(claim_id: str, budget: int | None = None) -> dict:
    """The runner's record of one claim on the quick profile, seed 0.

    ``budget`` replaces the quick profile's number of generated cases of an ``exact`` or
    ``symbolic`` claim (the claim tests use 15-20 to stay fast); None keeps the claim's own.
    """
    from proofs_check import engine, runner

    c = engine.get(claim_id)
    if budget is not None and c.kind in ("exact", "symbolic"):
        c = dataclasses.replace(c, examples={"quick": budget})
    return runner.check_claim(c, profile="quick", seed=0)


def families_tool():
    """tools/families_page.py as a module: ``build(model_type, overrides)`` (transformers' configuration class and
    its config.json as a dict) for the cases of petheory.models.families_page, and ``main(["--check"])``."""
    import importlib.util
    import sys
    from pathlib import Path

    if "petheory_families_page_tool" not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "tools" / "families_page.py"
        spec = importlib.util.spec_from_file_location("petheory_families_page_tool", path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
    return sys.modules["petheory_families_page_tool"]
