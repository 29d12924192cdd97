"""The small-model extension sweep: effective length, the end-to-end run at a toy size, resuming, the record reader."""

from __future__ import annotations

import json

import pytest

from petheory.errors import ValidationError
from petheory.experiments import extension_lengths as xl


def test_effective_length_stops_at_the_first_context_below_the_threshold():
    acc = {32: 0.95, 48: 0.91, 64: 0.7, 96: 0.95, 128: 0.95}
    assert xl.effective_length(acc, 0.9, 128) == 48  # 96 and 128 recover, but 64 broke the run
    assert xl.effective_length(acc, 0.6, 128) == 128
    assert xl.effective_length(acc, 0.6, 64) == 64  # contexts past the target are not read
    assert xl.effective_length({"32": 0.2, "64": 0.95}, 0.9, 64) == 0


def test_contexts_include_the_target_and_stop_there():
    s = xl.ExtensionSetup()
    assert xl.contexts(s, 32, 128) == [32, 48, 64, 96, 128]
    assert xl.contexts(s, 32, 256) == [32, 48, 64, 96, 128, 192, 256]


def test_candidates_carry_plans_own_checks():
    from petheory.analyses.plan import analyse, candidates
    from petheory.scheme import Positions

    got = {c["name"]: c["checks"] for c in xl.plan_candidates(500.0, 32, 35, 259, xl.ExtensionSetup().candidates)}
    pos = Positions("rotary", "rope", {"base": 500.0}, 32)
    want = {c[0]: {x.name: bool(x.passed) for x in analyse(pos, c, context=35, length=259).checks}
            for c in candidates(pos, context=35, length=259) if c[0] in xl.ExtensionSetup().candidates}
    assert got == want and len(got) == 8  # the setup's 8 (plan adds factors from the evidence table beside them)
    # the base was chosen so that every check both passes and fails among the candidates at both targets
    for N in (131, 259):
        cs = xl.plan_candidates(500.0, 32, 35, N, xl.ExtensionSetup().candidates)
        for check in xl.CHECKS:
            assert {c["checks"][check] for c in cs} == {True, False}, (N, check)


@pytest.mark.parametrize("field, value, expect", [
    ("factors", (1,), "factors must be integers >= 2"),
    ("candidates", ("pi", "rope_magic"), "rope_magic"),
    ("task", "copy", "task must be one of passkey, mqar"),
    ("ft_tokens", 0, "ft_tokens must be a positive integer"),
])
def test_bad_setup_is_refused_with_the_field_named(field, value, expect):
    with pytest.raises(ValidationError, match=expect):
        xl.ExtensionSetup(**{field: value}).validate()


TOY = xl.ExtensionSetup(size="smoke", seeds=(0,), factors=(2,), candidates=("as_configured", "pi"), grid=(1, 2),
                        ft_tokens=256, ft_batch=8, overrides=(("epochs", 1),))


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    import torch

    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("ext")
    rec = xl.make_record(TOY, 0, runs_dir=root / "runs", records_dir=root / "records")
    return root, rec


def test_the_sweep_runs_end_to_end_at_a_toy_size(toy_run):
    root, rec = toy_run
    path = root / "records" / f"{xl.run_name(TOY, 0)}.json"
    assert xl.extension_problem(rec) is None
    back = xl.read_record(path)
    ext = back["extension"]
    assert ext["threshold"] == pytest.approx(xl.THRESHOLD_FRACTION * ext["reference_acc"])
    entry = ext["targets"]["32"]
    assert set(entry["candidates"]) == {"as_configured", "pi"} and entry["contexts"] == [16, 32]
    for cand in entry["candidates"].values():
        for regime in xl.REGIMES:
            got = cand[regime]
            acc = {k: v["seq_acc"] for k, v in got["by_length"].items()}
            assert got["effective_length"] == xl.effective_length(acc, ext["threshold"], 32)
        assert cand["finetuned"]["finetune"]["steps"] == entry["finetune"]["steps"] == 1  # 256 // (8 * 32)
    assert xl.predictions(back) == {"32": {n: c["checks"] for n, c in entry["candidates"].items()}}


def test_a_rerun_resumes_from_the_saved_entries(toy_run, monkeypatch):
    root, rec = toy_run

    def boom(*a, **k):
        raise AssertionError("a saved entry was recomputed")

    from petheory.experiments import retrieval_runs

    calls = []
    real = retrieval_runs.evaluate_lengths
    monkeypatch.setattr("petheory.experiments.context_extension.finetune", boom)
    monkeypatch.setattr("petheory.experiments.retrieval_runs.evaluate_lengths",
                        lambda *a, **k: calls.append(k) or real(*a, **k))
    again = xl.make_record(TOY, 0, runs_dir=root / "runs", records_dir=root / "records2")
    assert len(calls) == 1  # the pre-trained model's reference accuracy only; every entry came from its file
    assert again["extension"]["targets"] == json.loads(json.dumps(rec["extension"]["targets"]))


@pytest.mark.parametrize("path, value, field", [
    (("extension", "threshold"), "high", "extension.threshold"),
    (("extension", "targets", "32", "candidates", "pi", "finetuned", "effective_length"), 1.5,
     "extension.targets.32.candidates.pi.finetuned.effective_length"),
    (("extension", "targets", "32", "candidates", "pi", "checks", "men"), "yes", "extension.targets.32.candidates.pi.checks.men"),
    (("extension", "targets", "32", "candidates", "pi", "training_free", "effective_length"), 64,
     "extension.targets.32.candidates.pi.training_free.effective_length"),
])
def test_the_reader_names_the_file_and_the_field(toy_run, tmp_path, path, value, field):
    root, rec = toy_run
    bad = json.loads(json.dumps(rec))
    x = bad
    for k in path[:-1]:
        x = x[k]
    x[path[-1]] = value
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad))
    with pytest.raises(ValidationError) as err:
        xl.read_record(f)
    msg = str(err.value)
    assert str(f) in msg and field in msg and "\n" not in msg


def test_load_records_skips_a_broken_file_and_names_it(toy_run, tmp_path, monkeypatch):
    root, rec = toy_run
    monkeypatch.setenv("PETHEORY_RECORDS", str(tmp_path / "records"))
    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    d = tmp_path / "records" / "extension_lengths"
    d.mkdir(parents=True)
    (d / "good.json").write_text(json.dumps(rec))
    broken = json.loads(json.dumps(rec))
    broken["seed"] = 1
    del broken["extension"]["targets"]["32"]["seq_len"]
    (d / "broken.json").write_text(json.dumps(broken))
    recs, skipped = xl.load_records(tmp_path)
    assert [r["seed"] for r in recs] == [0]
    assert len(skipped) == 1 and skipped[0][0].endswith("broken.json") and "extension.targets.32.seq_len" in skipped[0][1]


def test_main_refuses_bad_seeds_with_exit_2(capsys):
    with pytest.raises(SystemExit) as e:
        xl.main(["--seeds", "a,b"])
    assert e.value.code == 2 and "--seeds" in capsys.readouterr().err


def test_the_shipped_records_read_and_were_trained_after_their_preregistration():
    """records/extension_lengths: seeds 0-2 of the pre-registered setup, each trained from a commit that descends
    from 8f614a2 (the commit that named the seeds, threshold and test, before any record existed)."""
    import shutil
    import subprocess
    from pathlib import Path

    from petheory import records

    folder = records.shipped_dir() / "extension_lengths"
    recs = [xl.read_record(p) for p in sorted(folder.glob("*.json"))]
    assert sorted(r["seed"] for r in recs) == list(xl.SEEDS)
    for r in recs:
        ext = r["extension"]
        assert ext["setup"]["seeds"] == list(xl.SEEDS) and ext["threshold_fraction"] == xl.THRESHOLD_FRACTION
        assert xl.predictions(r) == {t: {n: c["checks"] for n, c in e["candidates"].items()}
                                     for t, e in ext["targets"].items()}  # plan still gives the checks they were made with
    root = Path(__file__).resolve().parents[2]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout: the ancestry cannot be read")
    for r in recs:
        ok = subprocess.run(["git", "-C", str(root), "merge-base", "--is-ancestor", "8f614a2", r["commit"]],
                            capture_output=True)
        if ok.returncode == 128:
            pytest.skip("the commits are not in this clone's history (a shallow clone)")
        assert ok.returncode == 0, (r["seed"], r["commit"])
