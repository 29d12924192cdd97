"""The claim engine: registry, counterexample search, verdicts, reproduction, reports.

Throwaway claims live under the made-up paper ``testpaper2099``; the ``scratch`` fixture removes
them from the registry afterwards so they never leak into other tests.
"""

from __future__ import annotations

import json
import shlex

import pytest
from hypothesis import strategies as st

from petheory.cli import main
from proofs_check import engine, report, runner
from proofs_check.engine import Evidence, claim

CONTRACT_KEYS = {"id", "source", "statement", "kind", "verdict", "cases", "margin", "counterexample", "reproduce", "seconds",
                 "paper_status", "evidence", "readings", "setup", "calibration", "exploratory"}




def _xs():
    return st.fixed_dictionaries({"x": st.integers(0, 1000)})


def add_holds(id="testpaper2099.holds"):
    @claim(id=id, source="test §1", statement="x + 1 > x", kind="exact", cases=_xs)
    def check(case):
        return -1.0 - case["x"] / 1000  # largest violation -1 at x = 0: margin 1

    return engine.get(id)


def add_refuted(id="testpaper2099.refuted"):
    @claim(id=id, source="test §2", statement="every x is at most 50", kind="exact", cases=_xs)
    def check(case):
        return float(case["x"] - 50)

    return engine.get(id)


def add_crash(id="testpaper2099.crash"):
    @claim(id=id, source="test §3", statement="a checker with a bug", kind="exact", cases=_xs)
    def check(case):
        return 1.0 / (case["x"] - case["x"])

    return engine.get(id)


# ----------------------------------------------------------------------------- verdicts


def test_a_true_statement_holds_with_cases_and_margin(scratch):
    rec = runner.check_claim(add_holds(), profile="quick", seed=0)
    assert rec["verdict"] == "holds"
    assert rec["cases"] == runner.PROFILES["quick"]
    assert rec["margin"] == pytest.approx(1.0)
    assert rec["counterexample"] is None
    assert rec["reproduce"] == "petheory check --claims testpaper2099.holds --profile quick --seed 0"


def test_a_false_statement_is_refuted_with_a_shrunk_counterexample(scratch):
    rec = runner.check_claim(add_refuted(), seed=0)
    assert rec["verdict"] == "refuted"
    assert rec["counterexample"] == {"x": 51}  # shrinking finds the smallest violating case
    assert rec["margin"] == -1.0
    assert "violation 1" in rec["summary"]


def test_the_reproduce_command_replays_the_counterexample(scratch):
    c = add_refuted()
    rec = runner.check_claim(c, seed=0)
    argv = shlex.split(rec["reproduce"])
    assert argv[:4] == ["petheory", "check", "--claims", c.id] and argv[4] == "--case"
    replayed = runner.replay(c, json.loads(argv[5]))
    assert replayed["violation"] > 0 and replayed["verdict"] == "refuted"


def test_the_reproduce_command_runs_through_the_cli(scratch, capsys):
    c = add_refuted()
    argv = shlex.split(runner.check_claim(c, seed=0)["reproduce"])
    assert main(argv[1:]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["id"] == c.id and out["violation"] > 0


def test_reproduce_command_quotes_cases_for_the_shell(scratch):
    c = add_refuted()
    case = {"x": 51, "note": "it's"}
    cmd = runner.reproduce_command(c, profile="quick", seed=0, case=case)
    assert json.loads(shlex.split(cmd)[5]) == case


def test_a_skipped_claim_gives_its_reason(scratch):
    claim(id="testpaper2099.unrecoverable", source="test §4", statement="?", kind="empirical", skip_reason="statement not recoverable")
    rec = runner.check_claim(engine.get("testpaper2099.unrecoverable"))
    assert rec["verdict"] == "skipped" and rec["summary"] == "statement not recoverable"
    assert rec["cases"] == 0


def test_an_empirical_claim_reports_its_evidence(scratch):
    seen = {}

    @claim(id="testpaper2099.trend", source="test §5", statement="grows", kind="asymptotic")
    def trend(ctx):
        seen["budget"], seen["profile"] = ctx.budget, ctx.profile
        return Evidence("inconclusive", cases=3, margin=0.1, details={"rate": [0.9, 1.1]}, summary="rate CI contains 1")

    rec = runner.check_claim(engine.get("testpaper2099.trend"), profile="thorough")
    assert rec["verdict"] == "inconclusive" and rec["details"] == {"rate": [0.9, 1.1]}
    assert seen == {"budget": runner.PROFILES["thorough"], "profile": "thorough"}


def test_a_symbolic_claim_that_is_proved_says_so(scratch):
    @claim(id="testpaper2099.identity", source="t", statement="x - x = 0", kind="symbolic", cases=_xs, proof=lambda: True)
    def check(case):
        return -1.0

    rec = runner.check_claim(engine.get("testpaper2099.identity"))
    assert rec["verdict"] == "holds" and rec["proved"] is True
    assert "proved symbolically" in report.markdown([rec], profile="quick", seed=0)


def test_a_proof_contradicted_by_the_numeric_search_is_a_crash(scratch):
    @claim(id="testpaper2099.bad_transcription", source="t", statement="s", kind="symbolic", cases=_xs, proof=lambda: True)
    def check(case):
        return float(case["x"] - 50)

    with pytest.raises(runner.CheckerCrash, match="transcribes the statement wrongly"):
        runner.check_claim(engine.get("testpaper2099.bad_transcription"))


# ----------------------------------------------------------------------------- crashes


def test_a_crashing_checker_raises_checker_crash_naming_the_claim(scratch):
    with pytest.raises(runner.CheckerCrash) as info:
        runner.check_claim(add_crash())
    assert info.value.claim_id == "testpaper2099.crash"
    assert str(info.value) == 'checker of testpaper2099.crash crashed: ZeroDivisionError: float division by zero on case {"x": 0}'
    hash(info.value)  # exceptions must stay hashable (tracebacks and loggers put them in sets)


@pytest.mark.parametrize(
    "kind,fn",
    [("exact", lambda case: float("nan")), ("asymptotic", lambda ctx: {"verdict": "holds"})],
    ids=["nan-violation", "not-evidence"],
)
def test_a_checker_returning_garbage_is_a_crash(scratch, kind, fn):
    claim(id="testpaper2099.garbage", source="t", statement="s", kind=kind, cases=_xs if kind == "exact" else None)(fn)
    with pytest.raises(runner.CheckerCrash):
        runner.check_claim(engine.get("testpaper2099.garbage"))


def test_check_exits_1_and_names_the_crashing_claim(scratch, capsys, tmp_path):
    add_crash()
    add_holds()
    out_json = tmp_path / "out.json"
    rc = main(["check", "--claims", "testpaper2099.*", "--quiet", "--json", str(out_json)])
    err = capsys.readouterr().err
    assert rc == 1
    assert "testpaper2099.crash" in err and "Traceback" not in err
    ids = [r["id"] for r in json.loads(out_json.read_text())["claims"]]
    assert ids == ["testpaper2099.holds"]  # the other claims still get their verdicts


def test_run_collects_records_and_crashes(scratch):
    claims = [add_holds(), add_crash(), add_refuted()]
    seen = []
    records, crashes = runner.run(claims, progress=seen.append)
    assert [r["verdict"] for r in records] == ["holds", "refuted"]
    assert [c.claim_id for c in crashes] == ["testpaper2099.crash"]
    assert seen == [c.id for c in claims]


# ----------------------------------------------------------------------------- selection and budget


def test_claims_globs_select_and_deduplicate(scratch):
    add_holds(), add_refuted(), add_crash()
    assert [c.id for c in engine.select("testpaper2099.*")] == ["testpaper2099.crash", "testpaper2099.holds", "testpaper2099.refuted"]
    got = engine.select("testpaper2099.h*, testpaper2099.holds,testpaper2099.re?uted")
    assert [c.id for c in got] == ["testpaper2099.holds", "testpaper2099.refuted"]
    assert engine.select(None) == engine.all_claims()


@pytest.mark.parametrize("patterns,msg", [("testpaper2099.nothing*", "matches no registered claim"), (" , ", "--claims is empty")])
def test_claims_patterns_that_select_nothing_are_errors(scratch, patterns, msg):
    with pytest.raises(ValueError, match=msg):
        engine.select(patterns)


def test_check_cli_rejects_a_pattern_matching_nothing(capsys):
    assert main(["check", "--claims", "nosuchpaper1999.*"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nosuchpaper1999.*" in err


def test_same_seed_gives_the_same_results(scratch):
    c = add_refuted()
    a, b = runner.check_claim(c, seed=11), runner.check_claim(c, seed=11)
    drop = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
    assert drop(a) == drop(b)


def test_each_claim_has_its_own_seed_so_subsets_do_not_change_results(scratch):
    add_holds(), add_refuted()
    assert runner.claim_seed(0, "testpaper2099.holds") != runner.claim_seed(0, "testpaper2099.refuted")
    alone, _ = runner.run(engine.select("testpaper2099.refuted"), seed=5)
    both, _ = runner.run(engine.select("testpaper2099.*"), seed=5)
    assert alone[0]["counterexample"] == both[1]["counterexample"] and alone[0]["cases"] == both[1]["cases"]


def test_a_claim_may_override_the_profile_budget(scratch):
    claim(id="testpaper2099.small", source="t", statement="s", kind="exact", cases=_xs, examples={"quick": 7})(lambda case: -1.0)
    assert runner.check_claim(engine.get("testpaper2099.small"))["cases"] == 7


def test_unknown_profile_is_rejected(scratch):
    with pytest.raises(ValueError, match="profile"):
        runner.check_claim(add_holds(), profile="nightly")


# ----------------------------------------------------------------------------- registry rules


@pytest.mark.parametrize(
    "kw,msg",
    [
        (dict(id="Bad.id"), "claim id must look like"),
        (dict(id="testpaper.x"), "claim id must look like"),
        (dict(kind="conjecture"), "kind must be one of"),
        (dict(cases=None), "need a `cases` strategy"),
        (dict(kind="symbolic"), "need a `proof`"),
    ],
)
def test_registering_a_malformed_claim_is_refused(scratch, kw, msg):
    args = dict(id="testpaper2099.malformed", source="s", statement="s", kind="exact", cases=_xs)
    args.update(kw)
    with pytest.raises(ValueError, match=msg):
        claim(**args)(lambda case: -1.0)


def test_a_claim_id_cannot_be_registered_twice(scratch):
    add_holds()
    with pytest.raises(ValueError, match="already registered"):
        add_holds()
    claim(id="testpaper2099.holds", source="s", statement="s", kind="exact", cases=_xs, overwrite=True)(lambda c: -2.0)


def test_get_unknown_claim_names_it():
    with pytest.raises(ValueError, match="nosuchpaper1999.x"):
        engine.get("nosuchpaper1999.x")


def test_replay_rejects_cases_that_do_not_fit(scratch):
    c = add_refuted()
    with pytest.raises(ValueError, match="does not fit claim testpaper2099.refuted"):
        runner.replay(c, {"y": 1})


def test_scratch_claims_do_not_leak():
    assert not [c.id for c in engine.all_claims() if c.id.startswith("testpaper2099.")]


# ----------------------------------------------------------------------------- outputs


def test_json_output_follows_the_design_contract(scratch, tmp_path, capsys):
    add_holds(), add_refuted()
    claim(id="testpaper2099.skip", source="s", statement="s", kind="exact", skip_reason="r")
    path = tmp_path / "sub" / "check.json"
    assert main(["check", "--claims", "testpaper2099.*", "--json", str(path), "--quiet", "--seed", "3"]) == 0
    doc = json.loads(path.read_text())
    assert {"petheory", "profile", "claims"} <= set(doc) and doc["profile"] == "quick"
    assert doc["counts"] == {"holds": 1, "refuted": 1, "depends": 0, "vacuous": 0, "inconclusive": 0,
                             "not_reproduced": 0, "skipped": 1}
    for rec in doc["claims"]:
        assert CONTRACT_KEYS <= set(rec)
        assert rec["verdict"] in engine.VERDICTS and rec["kind"] in engine.KINDS
        assert isinstance(rec["cases"], int) and isinstance(rec["seconds"], float)
        assert rec["margin"] is None or isinstance(rec["margin"], float)
        assert isinstance(rec["reproduce"], str) and rec["reproduce"].startswith("petheory check --claims ")
    refuted = next(r for r in doc["claims"] if r["verdict"] == "refuted")
    assert refuted["counterexample"] == {"x": 51}


def test_markdown_report_is_written(scratch, tmp_path):
    add_holds(), add_refuted()
    path = tmp_path / "report.md"
    assert main(["check", "--claims", "testpaper2099.*", "--markdown", str(path), "--quiet"]) == 0
    md = path.read_text()
    assert md.startswith("# petheory check — profile `quick`, seed 0")
    assert "| `testpaper2099.refuted` | unspecified | exact | **refuted** | searched |" in md
    assert "*Counterexample (shrunk):*" in md and '"x": 51' in md
    assert "petheory check --claims testpaper2099.refuted --case" in md


def test_terminal_table_shows_every_verdict(scratch, capsys):
    add_holds(), add_refuted()
    assert main(["check", "--claims", "testpaper2099.*"]) == 0
    out = capsys.readouterr().out
    assert "testpaper2099.holds" in out and "refuted" in out and "2 claims: 1 holds, 1 refuted" in out


def test_quiet_hides_progress_never_the_results(scratch, capsys):
    add_holds()
    assert main(["check", "--claims", "testpaper2099.holds", "--quiet"]) == 0
    cap = capsys.readouterr()
    assert "testpaper2099.holds" in cap.out and "1 claim: 1 holds" in cap.out and cap.err == ""


def test_list_shows_selected_claims(scratch, capsys):
    add_holds()
    assert main(["check", "--list", "--claims", "testpaper2099.*"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "testpaper2099.holds\texact\ttest §1"
    assert out[1].strip().startswith("statement:") and out[2].strip() == "case fields: x"


def test_case_needs_exactly_one_claim_and_valid_json(scratch, capsys):
    add_holds(), add_refuted()
    assert main(["check", "--claims", "testpaper2099.*", "--case", '{"x": 1}']) == 2
    assert main(["check", "--claims", "testpaper2099.holds", "--case", "{x: 1}"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "exactly one claim" in err[0] and "not valid JSON" in err[1]


def test_non_finite_numbers_never_reach_the_json(scratch):
    @claim(id="testpaper2099.inf", source="t", statement="s", kind="asymptotic")
    def trend(ctx):
        return Evidence("inconclusive", cases=1, margin=float("inf"), details={"slope": float("nan")})

    rec = runner.check_claim(engine.get("testpaper2099.inf"))
    json.dumps(rec, allow_nan=False)
    assert rec["margin"] == "inf" and rec["details"] == {"slope": "nan"}


def test_shrinking_stops_after_the_profile_budget_with_a_real_counterexample(scratch, monkeypatch):
    monkeypatch.setitem(runner.SHRINK_STEPS, "quick", 3)
    c = add_refuted()
    rec = runner.check_claim(c)
    assert rec["verdict"] == "refuted" and "shrinking stopped after 3 steps" in rec["summary"]
    assert runner.replay(c, rec["counterexample"])["violation"] > 0
    assert rec == {**runner.check_claim(c), "seconds": rec["seconds"]}  # a step count, not a time: deterministic


def test_a_crash_met_while_shrinking_is_still_a_crash(scratch, monkeypatch):
    monkeypatch.setitem(runner.SHRINK_STEPS, "quick", 5)

    @claim(id="testpaper2099.crash_small", source="t", statement="s", kind="exact", cases=_xs)
    def check(case):
        if case["x"] < 20:
            raise RuntimeError("small x breaks the checker")
        return float(case["x"] - 50)

    with pytest.raises(runner.CheckerCrash, match="small x breaks the checker"):
        runner.check_claim(engine.get("testpaper2099.crash_small"))


def test_json_dash_prints_only_the_document_on_stdout(scratch, capsys, tmp_path, monkeypatch):
    add_holds()
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--claims", "testpaper2099.holds", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in doc["claims"]] == ["testpaper2099.holds"]
    assert not (tmp_path / "-").exists()  # '-' is stdout, not a file name


def test_search_is_seeded_by_the_runner_even_under_a_derandomized_profile():
    # The suite runs under HYPOTHESIS_PROFILE=ci (derandomize=True), which only affects @given:
    # find() draws from the runner's seeded Random, so different seeds explore different cases
    # and the same seed repeats itself. Guards --seed if the search is ever moved to @given.
    from hypothesis import settings

    from proofs_check.engine import get
    from proofs_check.runner import _search

    c = get("li2025.alibi_monotone_bias")
    previous = settings.get_current_profile_name()
    settings.register_profile("_derandomized_for_test", derandomize=True, deadline=None)
    settings.load_profile("_derandomized_for_test")
    try:
        margins = {_search(c, 8, seed=s)["margin"] for s in range(4)}
        again = _search(c, 8, seed=0)["margin"]
    finally:
        settings.load_profile(previous)
    assert len(margins) > 1
    assert again == _search(c, 8, seed=0)["margin"]
