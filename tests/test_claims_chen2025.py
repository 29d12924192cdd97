"""chen2025 claims: every checker on the real implementation and catching a planted violation."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from petheory import lengthgen
from proofs_check import engine
from proofs_check.claims import chen2025 as C

from _helpers import check_claim

IDS = ("pe_no_new_capability", "lrc_characterises_lg", "src_invariance", "scale_hint", "learned_relation_pe")


def check(claim_id: str, budget: int = 15) -> dict:
    return check_claim("chen2025." + claim_id, budget)


def ctx(tmp_path):
    return engine.Context(profile="quick", budget=1, rng=np.random.default_rng(0), seed=0, workdir=str(tmp_path))


def test_every_claim_is_a_checked_reconstruction():
    for name in IDS:
        c = engine.get("chen2025." + name)
        assert c.skip_reason is None and c.reconstruction and c.check is not None


def test_capability_holds_and_catches_a_pe_that_adds_capability(monkeypatch):
    assert check("pe_no_new_capability")["verdict"] == "holds"
    real = lengthgen.span_dimension
    monkeypatch.setattr("petheory.lengthgen.pola.span_dimension",
                        lambda pe, n, masked=True: real(pe, n, masked=masked) + (n * n if pe != "learned" else 0))
    assert C.pe_no_new_capability({"pe": "relative", "n": 3, "masked": True, "seed": 0}) > 0


def test_capability_catches_a_onehot_pola_that_cannot_reproduce(monkeypatch):
    real = lengthgen.pola_matrix

    def broken(pe, theta, pos, *, masked=True, keys=None):
        A = real(pe, theta, pos, masked=masked, keys=keys)
        if pe == "learned":
            A = A.copy()
            A[-1, 0] += 1.0  # the reference POLA misses one entry
        return A

    monkeypatch.setattr("petheory.lengthgen.pola.pola_matrix", broken)
    assert C.pe_no_new_capability({"pe": "rope", "n": 4, "masked": True, "seed": 1}) > 0


def test_capability_catches_a_wrong_absolute_span(monkeypatch):
    real = lengthgen.basis  # the PE's POLA features come out constant; the one-hot reference is untouched
    monkeypatch.setattr("petheory.lengthgen.pola.basis", lambda pe, pos, seg=None: (
        ("dense", np.ones((len(pos), len(pos), 64))) if pe == "sinusoidal" else real(pe, pos, seg)))
    assert C.pe_no_new_capability({"pe": "sinusoidal", "n": 4, "masked": False, "seed": 0}) > 0


def test_lrc_equivalence_holds_and_catches_a_constant_lrc(monkeypatch):
    assert check("lrc_characterises_lg")["verdict"] == "holds"
    case = {"pe": "relative", "target": "copy", "hint": "none", "masked": True, "N_train": 3, "N_test": 6}
    assert C.lrc_characterises_lg(case) == -1.0
    real = lengthgen.lrc
    monkeypatch.setattr("petheory.lengthgen.pola.lrc", lambda *a, **k: dataclasses.replace(real(*a, **k), value=1.0))
    assert C.lrc_characterises_lg(case) == 1.0  # 'bounded' while the fit does not generalise


def test_lrc_decisions_skip_uncertified_and_inapplicable_cases():
    assert C.lrc_decisions({"pe": "sinusoidal", "target": "copy", "hint": "interp", "masked": True,
                            "N_train": 2, "N_test": 3}) is None


# ---------------------------------------------------------------------------- empirical, planted records


@pytest.fixture(autouse=True)
def only_planted_records(monkeypatch):
    """The planted records alone: hide the ones shipped in the source tree's records/."""
    from petheory import records

    monkeypatch.setattr(records, "shipped_dir", lambda: None)


def _rec(task, pe, token_acc_beyond, src=(2.0, 2.1), seed=0, train_acc=1.0, n=40):
    acc = np.clip(np.asarray(token_acc_beyond, float), 0, 1)
    inst = {"15": list(acc[:n]), "20": list(acc[n:2 * n] if acc.size >= 2 * n else acc[:n])}
    return {"task": task, "pe": pe, "seed": seed, "train_len": 10, "kind": "lm", "config": {},
            "history": [{"epoch": 1, "train_loss": 1.0}], "final": {"train": {"token_acc": train_acc}, "test": {
        "10": {"token_acc": train_acc}, "15": {"token_acc": float(np.mean(inst["15"]))},
        "20": {"token_acc": float(np.mean(inst["20"]))}}},
        "chen2025": {"pe": pe, "preset": "small", "src": {"10": src[0], "15": src[1], "20": src[1]},
                     "instance_token_acc": inst}}


def _write(tmp_path, recs):
    for i, r in enumerate(recs):
        p = tmp_path / "records" / "chen2025" / f"r{i}" / "record.json"
        p.parent.mkdir(parents=True)
        p.write_text(json.dumps(r))


def test_scale_hint_holds_on_planted_gains_and_refutes_planted_losses(tmp_path):
    rng = np.random.default_rng(0)
    low, high = rng.uniform(0.1, 0.3, 80), rng.uniform(0.6, 0.9, 80)
    good = tmp_path / "good"
    _write(good, [_rec("copy", "rope", low), _rec("copy", "rope:hint=shift", high)])
    assert C.scale_hint(ctx(good)).verdict == "holds"
    bad = tmp_path / "bad"
    _write(bad, [_rec("copy", "rope", high), _rec("copy", "rope:hint=shift", low)])
    ev = C.scale_hint(ctx(bad))
    assert ev.verdict == "refuted" and ev.counterexample["mean_gain"] < 0


def test_learned_relation_refutes_when_a_fixed_pe_is_better(tmp_path):
    rng = np.random.default_rng(1)
    _write(tmp_path, [_rec("copy", "fire", rng.uniform(0.1, 0.3, 80)), _rec("copy", "rope", rng.uniform(0.6, 0.9, 80)),
                      _rec("copy", "nope", rng.uniform(0.0, 0.1, 80))])
    ev = C.learned_relation_pe(ctx(tmp_path))
    assert ev.verdict == "refuted" and "rope" in ev.counterexample["pair"]  # compared with the best fixed PE


def test_src_conjecture_holds_on_agreement_and_refutes_on_disagreement(tmp_path):
    agree = [_rec("copy", f"p{i}", [0.95] * 80, src=(2.0, 2.1)) for i in range(6)]
    agree += [_rec("copy", f"q{i}", [0.2] * 80, src=(2.0, 4.0)) for i in range(6)]
    _write(tmp_path / "a", agree)
    assert C.src_invariance(ctx(tmp_path / "a")).verdict == "holds"
    mixed = [_rec("copy", f"p{i}", [0.95] * 80, src=(2.0, 4.0)) for i in range(6)]  # generalises, SRC changes
    mixed += [_rec("copy", f"q{i}", [0.2] * 80, src=(2.0, 2.1)) for i in range(6)]  # fails, SRC invariant
    _write(tmp_path / "m", mixed)
    ev = C.src_invariance(ctx(tmp_path / "m"))
    assert ev.verdict == "refuted" and ev.counterexample["invariant"] != ev.counterexample["lg"]


def test_empirical_claims_without_records_are_inconclusive_not_skipped(tmp_path):
    for fn in (C.scale_hint, C.learned_relation_pe, C.src_invariance):
        assert fn(ctx(tmp_path)).verdict == "inconclusive"


def test_holm_adjustment_is_monotone_and_capped():
    adj = C._holm({"a": 0.01, "b": 0.04, "c": 0.5})
    assert adj == pytest.approx({"a": 0.03, "b": 0.08, "c": 0.5})


def test_committed_records_give_every_claim_a_verdict():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if not (root / "records" / "chen2025").is_dir():
        pytest.skip("records/chen2025 not present")
    c = engine.Context(profile="quick", budget=1, rng=np.random.default_rng(0), seed=0, workdir=str(root))
    for fn in (C.scale_hint, C.learned_relation_pe, C.src_invariance):
        ev = fn(c)
        assert ev.verdict in ("holds", "refuted", "inconclusive") and ev.cases > 0


def test_corrected_learned_relation_refutes_when_fire_with_hint_loses(tmp_path):
    rng = np.random.default_rng(2)
    hi, lo = rng.uniform(0.6, 0.9, 80), rng.uniform(0.1, 0.3, 80)
    _write(tmp_path / "ok", [_rec("copy", "fire", hi), _rec("copy", "rope", lo), _rec("copy", "fire:hint=shift", hi),
                             _rec("copy", "nope", lo)])
    assert C.learned_relation_pe__corrected(ctx(tmp_path / "ok")).verdict == "holds"
    _write(tmp_path / "bad", [_rec("copy", "fire", hi), _rec("copy", "rope", lo), _rec("copy", "fire:hint=shift", lo),
                              _rec("copy", "nope", hi)])
    ev = C.learned_relation_pe__corrected(ctx(tmp_path / "bad"))
    assert ev.verdict == "refuted" and "fire+hint" in ev.counterexample["pair"]
    assert engine.get("chen2025.learned_relation_pe__corrected").corrected_of == "chen2025.learned_relation_pe"
