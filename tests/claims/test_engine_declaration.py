"""Declaring a claim: one dataclass, one entry point (``claim``), readings that inherit from their
claim, and a new claim module that needs no edit anywhere else.

Throwaway claims live under the made-up paper ``testpaper2099`` (the ``scratch`` fixture removes them).
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap

import pytest
from hypothesis import strategies as st

from petheory.errors import ValidationTypeError
from proofs_check import engine, runner
from proofs_check.engine import DECLARABLE, Calibration, Claim, Reading, claim
from _helpers import HANG_S


def _xs():
    return st.fixed_dictionaries({"x": st.integers(0, 1000)})


def _ys():
    return st.fixed_dictionaries({"y": st.integers(0, 10)})


def _never(case):
    return -1.0


def _over_50(case):
    return float(case["x"] - 50)  # refuted at x = 51


def _y_at_most_10(case):
    return case["y"] - 10.5  # holds: y <= 10


# ----------------------------------------------------------------------------- one entry point


def test_a_wrong_field_is_refused_naming_it_and_the_valid_ones(scratch):
    with pytest.raises(ValidationTypeError) as err:
        claim(id="testpaper2099.typo", source="s", statement="s", kind="exact", reason="r")
    msg = str(err.value)
    assert "testpaper2099.typo" in msg and "unknown field 'reason'" in msg and "did you mean 'skip_reason'" in msg
    assert all(f in msg for f in DECLARABLE)
    assert "testpaper2099.typo" not in {c.id for c in engine.all_claims()}


def test_a_missing_field_is_refused_by_name(scratch):
    with pytest.raises(ValidationTypeError, match="missing field.*statement, kind"):
        claim(id="testpaper2099.short", source="s")


def test_reading_of_is_not_declarable():
    """``reading_of`` is what Claim.reading sets; every other Claim field is a declaration's."""
    assert set(DECLARABLE) == {f.name for f in dataclasses.fields(Claim)} - {"reading_of"}


def test_the_decorator_builds_the_claim_from_its_fields_and_returns_the_checker(scratch):
    fields = dict(id="testpaper2099.fields", source="t §1", statement="s", kind="empirical", paper_status="empirical",
                  reconstruction="our reading", corrected_of="testpaper2099.other", examples={"quick": 3},
                  evidence="statistical", evidence_note="n/a", setup="reconstruction",
                  calibration=Calibration({"a": 1.0}, 0.1, why="stated"), exploratory=True, confirm_on="seeds 5-7",
                  alpha=0.01, looks=2, trained=False)

    def check(ctx):
        raise AssertionError("not run")

    assert claim(**fields)(check) is check
    assert engine.get("testpaper2099.fields") == Claim(check=check, **fields)


def test_a_claim_decided_by_readings_or_skipped_is_registered_by_the_same_call(scratch):
    c = claim(id="testpaper2099.both", source="t", statement="s", kind="exact", cases=_xs,
              readings=[Reading("a", "sa", check=_never), Reading("b", "sb", check=_over_50)])
    s = claim(id="testpaper2099.skip", source="t", statement="s", kind="exact", skip_reason="no text")
    assert engine.get(c.id) is c and engine.get(s.id) is s
    assert isinstance(c.readings, tuple) and s.examples == {}
    assert runner.check_claim(c)["verdict"] == "depends"
    assert runner.check_claim(s)["verdict"] == "skipped"
    given = claim(id="testpaper2099.given", source="t", statement="s", kind="exact", cases=_xs, check=_never)
    assert engine.get(given.id) is given and given.check is _never


def test_decorating_a_function_with_a_complete_declaration_is_refused(scratch):
    with pytest.raises(ValidationTypeError, match="testpaper2099.deco is complete as declared.*not as a decorator"):
        @claim(id="testpaper2099.deco", source="t", statement="s", kind="exact", skip_reason="r")
        def check(case):
            return -1.0


def test_a_second_declaration_of_an_id_is_refused_even_without_a_checker(scratch):
    """A claim decided by its readings (or skipped) has no checker to tell two declarations apart: the whole
    declaration is compared, so a second, different one under the same id is refused, never a silent overwrite."""
    def declare(statement):
        return claim(id="testpaper2099.twice", source="t", statement=statement, kind="exact", skip_reason="r")

    first = declare("first")
    assert declare("first") == first  # the same declaration again (a module imported twice) is harmless
    with pytest.raises(ValueError, match="already registered"):
        declare("second")
    assert engine.get("testpaper2099.twice").statement == "first"


# ----------------------------------------------------------------------------- readings inherit


def test_a_reading_is_its_claim_with_only_what_the_reading_sets_replaced(scratch):
    c = claim(id="testpaper2099.parent", source="t §2", statement="parent", kind="exact", paper_status="lemma", cases=_xs,
              reconstruction="read two ways", examples={"quick": 7}, evidence="searched", evidence_note="note",
              setup="paper", alpha=0.02, looks=3, trained=False,
              readings=[Reading("bare", "bare reading", check=_never),
                        Reading("own", "own reading", check=_y_at_most_10, cases=_ys, examples={"quick": 3},
                                evidence="exhaustive", reconstruction="mine", alpha=0.01)])
    own_fields = {f.name for f in dataclasses.fields(Reading)} - {"name"}
    bare, own = c.reading("bare"), c.reading("own")
    for sub, r in ((bare, c.readings[0]), (own, c.readings[1])):
        assert sub.id == f"{c.id}#{r.name}" and sub.reading_of == c.id and sub.readings == () and sub.premise is None
        for f in dataclasses.fields(Claim):
            if f.name in ("id", "reading_of", "readings", "premise"):
                continue
            set_by_reading = f.name in own_fields and getattr(r, f.name) is not None
            assert getattr(sub, f.name) == (getattr(r, f.name) if set_by_reading else getattr(c, f.name)), f.name
    assert bare.cases is _xs and bare.examples == {"quick": 7} and bare.reconstruction == "read two ways"
    assert own.cases is _ys and own.examples == {"quick": 3} and own.alpha == 0.01 and own.evidence == "exhaustive"
    rec = runner.check_claim(c, seed=0)
    assert [(x["name"], x["verdict"], x["cases"]) for x in rec["readings"]] == [("bare", "holds", 7), ("own", "holds", 3)]


def test_every_reading_field_is_a_claim_field():
    """A Reading overrides its claim's fields by name: a field the Claim does not have would be a typo."""
    assert {f.name for f in dataclasses.fields(Reading)} - {"name"} <= {f.name for f in dataclasses.fields(Claim)}


def test_a_reading_is_validated_as_the_sub_claim_it_becomes(scratch):
    """Readings are validated as the sub-claims the runner checks: an exact claim's reading without cases anywhere."""
    with pytest.raises(ValueError, match=r"testpaper2099.nocases#a: exact claims need a `cases` strategy"):
        claim(id="testpaper2099.nocases", source="t", statement="s", kind="exact", readings=[Reading("a", "s", check=_never)])


# ----------------------------------------------------------------------------- a new module is all it takes

NEW_MODULE = '''
from hypothesis import strategies as st
from proofs_check import Reading, claim


def _xs():
    return st.fixed_dictionaries({"x": st.integers(0, 100)})


@claim(id="testpaper2099.brand_new", source="testpaper2099 §1", statement="x >= 0", kind="exact", cases=_xs,
       paper_status="lemma")
def brand_new(case):
    return -1.0 - case["x"]


claim(id="testpaper2099.brand_new_ambiguous", source="testpaper2099 §2", statement="x is small", kind="exact",
      paper_status="remark", cases=_xs,
      readings=[Reading("loose", "x <= 100", check=lambda case: case["x"] - 100.5),
                Reading("strict", "x <= 10", check=lambda case: case["x"] - 10.5)])
'''

DRIVER = '''
import importlib.util, json, sys
from pathlib import Path

# the new module sits beside the built-in claim modules before the catalogue is first imported,
# exactly as a new file in proofs_check/claims/ would (without writing into the source tree)
spec = importlib.util.find_spec("proofs_check.claims")
spec.submodule_search_locations.append(sys.argv[1])
pkg = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = pkg
spec.loader.exec_module(pkg)

from petheory.cli import main
from proofs_check import runner, verdict_table

out = Path(sys.argv[1]) / "check.json"
code = main(["check", "--claims", "testpaper2099.*", "--json", str(out), "--quiet"])
real_run = runner.run
runner.run = lambda claims, **kw: real_run([c for c in claims if c.id.startswith("testpaper2099.")], **kw)
print(json.dumps({"code": code, "check": json.loads(out.read_text()), "papers": sorted(verdict_table.builtin_papers()),
                  "table": verdict_table.render(verdict_table.fresh_records())}))
'''


def test_a_new_claim_module_reaches_the_runner_check_and_verdict_table_with_no_other_edit(tmp_path):
    (tmp_path / "testpaper2099.py").write_text(textwrap.dedent(NEW_MODULE))
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    proc = subprocess.run([sys.executable, str(driver), str(tmp_path)], capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["code"] == 0 and "testpaper2099" in out["papers"]
    verdicts = {c["id"]: c["verdict"] for c in out["check"]["claims"]}
    assert verdicts == {"testpaper2099.brand_new": "holds", "testpaper2099.brand_new_ambiguous": "depends"}
    table = out["table"]
    assert "| `testpaper2099.brand_new` | lemma | exact |" in table and "**holds**" in table
    assert "| `testpaper2099.brand_new_ambiguous` | remark |" in table and "loose: holds; strict: refuted" in table
