"""The verdict contract beyond holds/refuted: paper status, evidence, readings (depends), premises no object
satisfies (vacuous), counterexamples without unused fields, no denormal margins, and searches that depend only
on the claim's id, the profile and the seed.

Throwaway claims live under ``testpaper2099``; the ``scratch`` fixture removes them afterwards.
"""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import strategies as st

from petheory.cli import main
from proofs_check import engine, report, runner
from proofs_check.engine import Evidence, Premise, Reading, claim




def _xs():
    return st.fixed_dictionaries({"x": st.integers(0, 1000), "unused": st.integers(0, 1000)})


def _small(case):
    return float(case["x"] - 50)  # refuted: x = 51


def _always(case):
    return -1.0


def add_two_readings(id="testpaper2099.ambiguous", second=_always, **kw):
    return claim(
        id=id, source="t", statement="ambiguous", kind="exact", paper_status=kw.pop("paper_status", "lemma"),
        readings=[Reading("strict", "every x is at most 50", check=_small, cases=_xs),
                  Reading("loose", "every x is at most 1000", check=second, cases=_xs)], **kw)


# ----------------------------------------------------------------------------- readings


def test_readings_that_disagree_give_depends_with_the_verdict_of_each(scratch):
    rec = runner.check_claim(add_two_readings())
    assert rec["verdict"] == "depends" and rec["paper_status"] == "lemma" and rec["evidence"] == "searched"
    r = {x["name"]: x for x in rec["readings"]}
    assert r["strict"]["verdict"] == "refuted" and r["strict"]["counterexample"] == {"x": 51}
    assert r["loose"]["verdict"] == "holds" and r["loose"]["cases"] == runner.PROFILES["quick"]
    assert "strict: refuted; loose: holds" in rec["summary"]


def test_readings_that_agree_give_their_common_verdict(scratch):
    rec = runner.check_claim(add_two_readings(second=_small))
    assert rec["verdict"] == "refuted" and rec["counterexample"] == {"x": 51}


def test_a_reading_is_selected_checked_and_replayed_like_a_claim(scratch, capsys):
    add_two_readings()
    [c] = engine.select("testpaper2099.ambiguous#str*")
    assert c.id == "testpaper2099.ambiguous#strict" and c.reading_of == "testpaper2099.ambiguous"
    rec = runner.check_claim(c)
    assert rec["reproduce"] == "petheory check --claims 'testpaper2099.ambiguous#strict' --case '{\"x\": 51}'"
    assert main(["check", "--claims", "testpaper2099.ambiguous#strict", "--case", '{"x": 51}']) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "refuted"
    with pytest.raises(ValueError, match="checked per reading"):
        runner.replay(engine.get("testpaper2099.ambiguous"), {"x": 1})
    with pytest.raises(ValueError, match="no reading 'nope'"):
        engine.get("testpaper2099.ambiguous#nope")
    with pytest.raises(ValueError, match="matches no reading"):
        engine.select("testpaper2099.ambiguous#nope")


def test_readings_search_independently_of_each_other(scratch):
    c = add_two_readings()
    alone = runner.check_claim(c.reading("strict"))
    both = runner.check_claim(c)
    assert both["readings"][0]["counterexample"] == alone["counterexample"]
    assert both["readings"][0]["cases"] == alone["cases"]


# ----------------------------------------------------------------------------- vacuous premises


def _no_witness(case):
    return -1.0


def _premise(witness=_no_witness, proof=lambda: True):
    return Premise(statement="x is both even and odd", argument="parity", cases=_xs, witness=witness, proof=proof)


def test_a_premise_no_object_satisfies_gives_vacuous_with_readings(scratch):
    rec = runner.check_claim(add_two_readings(premise=_premise()))
    assert rec["verdict"] == "vacuous" and rec["evidence"] == "proved"
    assert rec["premise"]["satisfiable"] is False and rec["premise"]["cases"] > 0
    assert [x["verdict"] for x in rec["readings"]] == ["refuted", "holds"]


def test_a_premise_shown_empty_only_by_search_says_searched(scratch):
    rec = runner.check_claim(add_two_readings(premise=_premise(proof=None)))
    assert rec["verdict"] == "vacuous" and rec["evidence"] == "searched"


def test_a_satisfiable_premise_leaves_the_verdict_to_the_readings(scratch):
    rec = runner.check_claim(add_two_readings(premise=_premise(witness=lambda c: float(c["x"] - 10), proof=None)))
    assert rec["verdict"] == "depends" and rec["premise"]["satisfiable"] and rec["premise"]["witness"]["x"] == 11


def test_a_wrong_impossibility_proof_is_a_crash(scratch):
    with pytest.raises(runner.CheckerCrash, match="impossibility proof holds but the search found"):
        runner.check_claim(add_two_readings(premise=_premise(witness=lambda c: 1.0)))


# ----------------------------------------------------------------------------- paper status, evidence


def test_an_assumption_is_never_reported_as_refuted(scratch):
    claim(id="testpaper2099.assumed", source="t", statement="every x is at most 50", kind="exact", cases=_xs,
          paper_status="assumption")(_small)
    rec = runner.check_claim(engine.get("testpaper2099.assumed"))
    assert rec["verdict"] == "inconclusive" and "not a result" in rec["summary"] and rec["counterexample"] == {"x": 51}


def test_an_interpretation_with_readings_per_object_gives_depends(scratch):
    rec = runner.check_claim(add_two_readings(paper_status="interpretation"))
    assert rec["verdict"] == "depends"
    assert rec["readings"][0]["verdict"] == "refuted"  # the objects it does not hold for


def test_evidence_defaults_by_kind(scratch):
    claim(id="testpaper2099.trend", source="t", statement="s", kind="asymptotic")(lambda ctx: Evidence("holds", 3))
    claim(id="testpaper2099.proved", source="t", statement="s", kind="exact", cases=_xs,
          evidence="definitional", evidence_note="true by construction")(_always)
    claim(id="testpaper2099.skip", source="t", statement="s", kind="exact", skip_reason="r")
    assert runner.check_claim(engine.get("testpaper2099.trend"))["evidence"] == "statistical"
    rec = runner.check_claim(engine.get("testpaper2099.proved"))
    assert rec["evidence"] == "definitional" and rec["evidence_note"] == "true by construction"
    rec = runner.check_claim(engine.get("testpaper2099.skip"))
    assert rec["evidence"] is None and rec["paper_status"] == "unspecified"
    assert runner.check_claim(engine.get("gu2025.rope_relative"))["evidence"] == "proved"


@pytest.mark.parametrize("kw, msg", [
    (dict(paper_status="folklore"), "paper_status must be one of"),
    (dict(evidence="vibes"), "evidence must be one of"),
    (dict(evidence="definitional"), "needs an evidence_note"),
])
def test_malformed_status_or_evidence_is_refused(scratch, kw, msg):
    with pytest.raises(ValueError, match=msg):
        claim(id="testpaper2099.bad", source="t", statement="s", kind="exact", cases=_xs, **kw)(_always)


def test_reading_names_must_be_distinct_words(scratch):
    with pytest.raises(ValueError, match="reading names"):
        claim(id="testpaper2099.dup", source="t", statement="s", kind="exact", paper_status="lemma",
              readings=[Reading("a", "s", check=_always, cases=_xs), Reading("a", "s", check=_always, cases=_xs)])


# ----------------------------------------------------------------------------- counterexamples, margins


def test_shrinking_drops_fields_the_checker_never_reads(scratch):
    claim(id="testpaper2099.unused", source="t", statement="s", kind="exact", cases=_xs)(_small)
    rec = runner.check_claim(engine.get("testpaper2099.unused"))
    assert rec["counterexample"] == {"x": 51}
    assert runner.replay(engine.get("testpaper2099.unused"), rec["counterexample"])["violation"] == 1.0


def test_fields_that_are_read_stay_in_the_counterexample(scratch):
    claim(id="testpaper2099.reads", source="t", statement="s", kind="exact", cases=_xs)(
        lambda case: float(case["x"] - 50) + 0.0 * case["unused"])
    assert set(runner.check_claim(engine.get("testpaper2099.reads"))["counterexample"]) == {"x", "unused"}


def test_margins_never_print_as_denormals(scratch):
    claim(id="testpaper2099.tiny", source="t", statement="s", kind="exact", cases=_xs)(lambda case: -1.6e-319)
    rec = runner.check_claim(engine.get("testpaper2099.tiny"))
    assert rec["margin"] == 0.0
    assert "e-3" not in report.markdown([rec], profile="quick", seed=0)


def test_json_and_markdown_carry_status_evidence_and_readings(scratch, tmp_path):
    add_two_readings()
    path, md = tmp_path / "c.json", tmp_path / "c.md"
    assert main(["check", "--claims", "testpaper2099.*", "--json", str(path), "--markdown", str(md), "--quiet"]) == 0
    doc = json.loads(path.read_text())
    [rec] = doc["claims"]
    assert {"paper_status", "evidence", "readings", "premise"} <= set(rec)
    assert doc["counts"]["depends"] == 1
    text = md.read_text()
    assert "*Paper status:* lemma" in text and "*Reading `strict`* — **refuted**" in text
    assert "| `testpaper2099.ambiguous` | lemma | exact | **depends (strict: refuted; loose: holds)** | searched |" in text


# ----------------------------------------------------------------------------- search independence


def test_a_search_does_not_depend_on_the_modules_imported_before_it(scratch, tmp_path, monkeypatch):
    # hypothesis harvests literals from the source of local modules; a module imported between two runs must not
    # change what a claim's search finds
    @claim(id="testpaper2099.floats", source="t", statement="s", kind="exact",
           cases=lambda: st.fixed_dictionaries({"v": st.floats(-1e6, 1e6, allow_nan=False)}))
    def check(case):
        return -1.0

    c = engine.get("testpaper2099.floats")
    seen = []
    monkeypatch.setattr(engine.Claim, "violation", lambda self, case: seen.append(case["v"]) or -1.0)
    runner._search(c, 200, seed=3)
    before, seen[:] = list(seen), []
    mod = tmp_path / "petheory_test_many_constants.py"
    mod.write_text("VALUES = [" + ", ".join(f"{0.123456789 * k!r}" for k in range(1, 400)) + "]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("petheory_test_many_constants")
    try:
        runner._search(c, 200, seed=3)
    finally:
        sys.modules.pop("petheory_test_many_constants", None)
    assert seen == before


def test_a_search_does_not_depend_on_the_loaded_hypothesis_profile(scratch):
    from hypothesis import settings

    claim(id="testpaper2099.profile", source="t", statement="s", kind="exact", cases=_xs)(_small)
    c = engine.get("testpaper2099.profile")
    here = runner.check_claim(c)
    previous = settings.get_current_profile_name()
    settings.register_profile("_other_for_test", max_examples=3, derandomize=True, deadline=None)
    settings.load_profile("_other_for_test")
    try:
        there = runner.check_claim(c)
    finally:
        settings.load_profile(previous)
    assert {**here, "seconds": 0} == {**there, "seconds": 0}


# ----------------------------------------------------------------------------- reproduction rules (DESIGN.md)

CAL = engine.Calibration(paper={"base": 0.04, "other": 0.01}, tolerance=0.5, why="planted")


def _emp(id="testpaper2099.emp", verdict="refuted", seeds=None, p=0.001, ours=None, confirmatory=False, ev_setup=None,
         **kw):
    kw = {"setup": "reconstruction", "alpha": 0.05, **kw}
    seeds = {"a": 3, "b": 3} if seeds is None else seeds

    @claim(id=id, source="t", statement="A beats B", kind="empirical", overwrite=True, **kw)
    def check(ctx):
        check.alpha = ctx.alpha
        return Evidence(verdict, 6, seeds=seeds, p_value=p, calibration=ours, confirmatory=confirmatory, setup=ev_setup)

    return runner.check_claim(engine.get(id)), check


def test_a_reconstruction_refutes_only_within_its_calibration(scratch):
    rec, _ = _emp(calibration=CAL, ours={"base": 0.05, "other": 0.012})
    assert rec["verdict"] == "refuted" and rec["calibration"]["within"] and rec["rules"] == []
    rec, _ = _emp(calibration=CAL, ours={"base": 0.2855, "other": 0.012})
    assert rec["verdict"] == "not_reproduced" and not rec["calibration"]["within"]
    assert "base ours 0.2855 vs paper 0.04" in rec["summary"] and "other" not in rec["rules"][0]
    rec, _ = _emp(calibration=CAL, ours={"base": 0.061, "other": 0.012})  # 52.5% off: just outside the 50% tolerance
    assert rec["verdict"] == "not_reproduced"
    rec, _ = _emp(calibration=CAL, ours={"base": 0.05})  # a row we did not measure is not within
    assert rec["verdict"] == "not_reproduced" and "other ours missing" in rec["rules"][0]
    rec, _ = _emp()  # a reconstruction with no calibration at all never says refuted
    assert rec["verdict"] == "not_reproduced" and "no calibration" in rec["rules"][0]
    rec, _ = _emp(setup="paper")
    assert rec["verdict"] == "refuted"  # the paper's own setup


def test_an_uncalibrated_reconstruction_confirms_no_more_than_it_refutes(scratch):
    """Issue 30: the rule is symmetric. A reconstruction whose calibration misses (or that has none) says neither
    refuted nor holds; the summary says which way the records point."""
    rec, _ = _emp(verdict="holds", calibration=CAL, ours={"base": 1.0, "other": 1.0})
    assert rec["verdict"] == "inconclusive" and "records point to holds" in rec["summary"]
    assert "base ours 1 vs paper 0.04" in rec["rules"][0]
    rec, _ = _emp(verdict="holds")  # no calibration at all
    assert rec["verdict"] == "inconclusive" and "no calibration" in rec["rules"][0]
    rec, _ = _emp(verdict="holds", calibration=CAL, ours={"base": 0.05, "other": 0.012})  # within: it decides
    assert rec["verdict"] == "holds" and rec["rules"] == []
    rec, _ = _emp(verdict="holds", setup="paper")  # the paper's own setup, no calibration: it decides
    assert rec["verdict"] == "holds"
    rec, _ = _emp(verdict="holds", setup="paper", calibration=CAL, ours={"base": 1.0, "other": 1.0})
    assert rec["verdict"] == "inconclusive"  # the paper's setup whose baselines miss the paper's numbers


def test_a_substitute_setup_is_at_most_inconclusive(scratch):
    for v in ("holds", "refuted"):
        rec, _ = _emp(verdict=v, setup="substitute")
        assert rec["verdict"] == "inconclusive" and rec["setup"] == "substitute" and "substitute" in rec["rules"][0]
    rec, _ = _emp(verdict="holds", setup="substitute", ev_setup="reconstruction")  # e.g. the user's real corpus
    assert rec["setup"] == "reconstruction" and "substitute" not in " ".join(rec["rules"])
    assert rec["verdict"] == "inconclusive" and "records point to holds" in rec["summary"]  # uncalibrated


def test_an_exploratory_claim_is_at_most_inconclusive_until_its_fresh_seeds_confirm_it(scratch):
    kw = dict(exploratory=True, confirm_on="seeds 3-5", setup="paper")
    for v in ("holds", "refuted"):
        rec, _ = _emp(verdict=v, **kw)
        assert rec["verdict"] == "inconclusive" and rec["exploratory"] and "confirm on seeds 3-5" in rec["summary"]
    rec, _ = _emp(verdict="holds", confirmatory=True, **kw)
    assert rec["verdict"] == "holds" and rec["confirmatory"]
    from proofs_check.report import exploratory_text

    assert exploratory_text(rec) == " (exploratory, confirmed on fresh seeds)"
    with pytest.raises(ValueError, match="confirm_on"):
        _emp(exploratory=True)


@pytest.mark.parametrize("seeds", [{"a": 3, "b": 2}, {}, None])
def test_fewer_than_three_seeds_per_configuration_decide_nothing(scratch, seeds):
    @claim(id="testpaper2099.seeds", source="t", statement="s", kind="empirical", setup="paper", alpha=0.05)
    def check(ctx):
        return Evidence("holds", 5, seeds=seeds, p_value=0.001)

    rec = runner.check_claim(engine.get("testpaper2099.seeds"))
    assert rec["verdict"] == "inconclusive" and "fewer than 3 training seeds" in rec["summary"]
    if seeds:
        assert "b: 2" in rec["rules"][0] and "a: 3" not in rec["rules"][0]


def test_a_claim_on_no_trained_model_needs_no_seeds(scratch):
    rec, _ = _emp(verdict="holds", seeds={}, trained=False, setup="paper")
    assert rec["verdict"] == "holds"


def test_planned_looks_split_alpha_in_advance(scratch):
    rec, check = _emp(verdict="holds", p=0.03, setup="paper")
    assert rec["verdict"] == "holds" and check.alpha == 0.05
    rec, check = _emp(verdict="holds", p=0.03, setup="paper", looks=3)
    assert rec["verdict"] == "inconclusive" and check.alpha == pytest.approx(0.05 / 3) and rec["looks"] == 3
    assert "split over 3 planned look(s)" in rec["summary"]
    rec, _ = _emp(verdict="refuted", p=None, setup="paper")
    assert rec["verdict"] == "inconclusive" and "no p-value reported" in rec["summary"]
    rec, _ = _emp(verdict="inconclusive", p=None, setup="paper", seeds={})
    assert rec["verdict"] == "inconclusive" and rec["rules"] == []  # nothing to lower


@pytest.mark.parametrize("kw, msg", [
    (dict(alpha=0.05), "must state its setup"),
    (dict(setup="paper"), "pre-registered alpha"),
    (dict(setup="lab", alpha=0.05), "setup must be one of"),
    (dict(setup="paper", alpha=0.05, looks=0), "looks must be"),
    (dict(setup="paper", alpha=1.5), "alpha must be in"),
    (dict(setup="paper", alpha=0.05, calibration={"x": 1}), "Calibration"),
])
def test_malformed_reproduction_fields_are_refused(scratch, kw, msg):
    with pytest.raises((ValueError, TypeError), match=msg):
        claim(id="testpaper2099.bad", source="t", statement="s", kind="empirical", **kw)(lambda ctx: None)


def test_a_calibration_states_numbers_and_where_its_tolerance_comes_from():
    with pytest.raises(ValueError, match="why"):
        engine.Calibration(paper={"a": 1.0}, tolerance=0.5, why="")
    with pytest.raises(ValueError, match="finite"):
        engine.Calibration(paper={"a": float("nan")}, tolerance=0.5, why="w")
    cal = engine.Calibration(paper={"a": 10.0}, tolerance=2.0, relative=False, why="w").compare({"a": 11.5})
    assert cal["within"] and cal["rows"][0]["deviation"] == pytest.approx(1.5)


def test_reproduction_fields_reach_the_json_the_report_and_the_readme_table(scratch, tmp_path):
    from proofs_check import verdict_table as readme_table

    _emp(calibration=CAL, ours={"base": 0.2855, "other": 0.012})
    _emp(id="testpaper2099.explore", verdict="holds", exploratory=True, confirm_on="seeds 3-5")
    path, md = tmp_path / "c.json", tmp_path / "c.md"
    assert main(["check", "--claims", "testpaper2099.*", "--json", str(path), "--markdown", str(md), "--quiet"]) == 0
    doc = json.loads(path.read_text())
    recs = {r["id"]: r for r in doc["claims"]}
    assert doc["counts"]["not_reproduced"] == 1
    emp = recs["testpaper2099.emp"]
    assert {"setup", "calibration", "exploratory"} <= set(emp) and emp["setup"] == "reconstruction"
    assert recs["testpaper2099.explore"]["exploratory"] is True
    text = md.read_text()
    assert "*Setup:* reconstruction" in text and "| base | 0.04 | 0.285 |" in text and "*Rule applied:* refuted" in text
    assert "**inconclusive (exploratory)**" in text and "1 not_reproduced" in text
    table = readme_table.render(doc["claims"])
    assert "| reconstruction | **not_reproduced** |" in table and "**inconclusive** (exploratory)" in table
    assert "calibration (ours vs paper, tolerance 50% relative): base 0.2855 vs 0.04 (out)" in table


def _registered_plants():
    """Every plant a claim or reading declares, with its id: what the mutation pass (tools/mutate_claims.py) runs."""
    out = []
    for c in engine.all_claims():
        out += [(c.id, p) for p in c.plants]
        out += [(f"{c.id}#{r.name}", p) for r in c.readings for p in (r.plants or ())]
    return out


def test_every_plant_is_declared_by_a_registered_claim_or_reading_and_names_what_it_plants():
    """Plants are a field of the claim (and of a reading), read from the registry; each says what it plants, plants it
    (or says why no plant can flip the claim), and no claim lists the same plant twice."""
    import importlib

    from proofs_check.plants import Plant

    plants = _registered_plants()
    assert len(plants) >= 170  # the catalogue's plants when they moved into the claims (issue 56)
    for cid, p in plants:
        engine.get(cid)  # a registered claim or reading
        assert isinstance(p, Plant) and p.what and (callable(p.plant) or p.equivalent), (cid, p)
    assert len({(cid, p.what) for cid, p in plants}) == len(plants)
    # each plant names the functions it plants where they are defined ('module:qualname', as the tracer names what a
    # checker reads): a function moved to another module leaves a stale name that no read matches (issue 42: compose
    # and random_projections moved into petheory.coupling's submodules and their plants stopped counting)
    for cid, p in plants:
        for target in p.targets():
            module, qualname = target.split(":")
            obj = importlib.import_module(module)
            for part in qualname.split("."):
                obj = getattr(obj, part)
            fn = obj.fget if isinstance(obj, property) else obj
            assert getattr(fn, "__module__", module) == module, (cid, target, fn.__module__)


def test_a_readings_plants_are_its_own_never_its_claims():
    assert engine.get("liu2026.aliasing_bound").plants == () and engine.get("liu2026.aliasing_bound#necessary").plants
    both = [c for c in engine.all_claims() if c.plants and c.readings]
    assert both  # claims with plants of their own and readings: a reading must not inherit them
    for c in both:
        for r in c.readings:
            assert c.reading(r.name).plants == (r.plants or ()), (c.id, r.name)


def _mutation_pass():
    """tools/mutate_claims.py as a module (it is a script, not a package)."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "mutate_claims.py"
    spec = importlib.util.spec_from_file_location("mutate_claims", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["mutate_claims"] = mod
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.modules.pop("mutate_claims", None)
    return mod


def test_the_mutation_pass_runs_the_plants_the_claims_declare():
    """tools/mutate_claims.py reads the registry: a claim's declared plant, run through the pass, flips it."""
    mod = _mutation_pass()
    assert mod.all_plants() == _registered_plants()
    cid = "li2025.sinusoidal_norm_bound"
    [plant] = engine.get(cid).plants
    result = mod.run_plant(cid, plant)
    assert result["outcome"] == "killed", result
    assert engine.get(cid) and mod._verdict_of(cid)[0] == "holds"  # undone: the claim holds again


def test_the_mutation_pass_credits_a_declared_function_not_its_validation_wrapper():
    """A checker's call into a function with declared parameters goes through validate_params' wrapper: the survey
    must record the function the checker reads (liu_critical_dimension), not the wrapper or its checks, or a claim
    would look as if it read nothing that needs a plant."""
    mod = _mutation_pass()
    rec, reads = mod._traced_check(engine.get("liu2023.critical_dimension"))
    assert "petheory.bounds.long_context:liu_critical_dimension" in reads, reads
    assert not any(r.startswith("petheory._validate:") for r in reads), reads
