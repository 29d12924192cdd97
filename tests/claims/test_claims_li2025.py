"""li2025 claims: each checker gives the expected verdict on the real implementation, and catches a planted
violation (the function it calls is monkeypatched to break the statement, or, for a refuted claim, to satisfy it)."""

import numpy as np
import pytest

from petheory import bounds
from petheory import encodings as enc
from proofs_check.claims import li2025, li2025_alibi, li2025_empirical, li2025_extrapolation
from proofs_check.engine import get
from proofs_check.runner import check_claim


def verdict(claim_id, **kw):
    return check_claim(get(claim_id), profile="quick", seed=0, **kw)


# ----------------------------------------------------------------------------- real implementation

EXPECTED = {
    "li2025.sinusoidal_norm_bound": "holds",
    "li2025.input_norm_bounds": "holds",
    "li2025.rademacher_bound": "inconclusive",
    "li2025.alibi_extrapolation": "holds",
    "li2025.alibi_monotone_bias": "holds",
    "li2025.wavelet_atom_decay": "depends",
    "li2025.wavelet_atom_decay__corrected": "holds",
    "li2025.wavelet_extrapolation": "refuted",
    "li2025.wavelet_extrapolation__corrected": "holds",
    "li2025.wavelet_unnormalised_norm": "depends",
    "li2025.wavelet_unnormalised_norm__corrected": "holds",
    "li2025.legendre_bounded": "holds",
    "li2025.learned_no_extrapolation": "holds",
    "li2025.sinusoidal_periodic_ambiguity": "depends",
    "li2025.sinusoidal_periodic_ambiguity__corrected": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_real_implementation_verdict(claim_id):
    rec = verdict(claim_id)
    assert rec["verdict"] == EXPECTED[claim_id], rec["summary"]
    if rec["verdict"] == "refuted":
        assert rec["counterexample"] is not None


def test_corrected_variants_point_at_their_claims():
    for cid in EXPECTED:
        if cid.endswith("__corrected"):
            assert get(cid).corrected_of == cid.removesuffix("__corrected")


def test_wavelet_extrapolation_minimal_counterexample_is_the_last_training_position():
    rec = verdict("li2025.wavelet_extrapolation")
    ce = rec["counterexample"]
    assert ce["d"] == 1 and ce["wavelet"] == "db2"
    anchor = enc.wavelet(1, 1, start=ce["n_max"] - 1, **li2025_extrapolation._wav_params(ce))[0]
    assert rec["margin"] == pytest.approx(-np.linalg.norm(anchor), rel=1e-12)


def test_sinusoidal_ambiguity_depends_on_the_reading_at_the_papers_d_model():
    rec = verdict("li2025.sinusoidal_periodic_ambiguity")
    r = {x["name"]: x for x in rec["readings"]}
    assert r["near_repeat"]["verdict"] == "refuted" and r["near_repeat"]["counterexample"] == {"d": 64, "base": 10000.0}
    assert r["slowest_period"]["verdict"] == "holds" and rec["evidence"] == "exhaustive"
    # the slowest pair's period at d = 64: 2 pi 10000^(62/64) = 47,117, inside [10^3, 10^5]
    assert 2 * np.pi * 10000 ** (62 / 64) == pytest.approx(47117, abs=1)


def test_slowest_period_reading_catches_a_wrong_base(monkeypatch):
    real = enc.sinusoidal
    monkeypatch.setattr("petheory.encodings.absolute.sinusoidal", lambda *a, **k: real(*a, **{**k, "base": 1e7}))
    assert verdict("li2025.sinusoidal_periodic_ambiguity#slowest_period")["verdict"] == "refuted"


def test_atom_decay_counterexample_doubles_the_constant_at_scale_one():
    rec = verdict("li2025.wavelet_atom_decay")
    r = {x["name"]: x for x in rec["readings"]}
    assert r["uniform_c"]["verdict"] == "refuted" and r["c_depends_on_jmax"]["verdict"] == "holds"
    assert r["c_depends_on_jmax"]["evidence"] == "proved"
    assert r["uniform_c"]["counterexample"]["ratio"] == pytest.approx(2.0, rel=1e-9)


def test_atom_decay_corrected_says_it_is_definitional():
    rec = verdict("li2025.wavelet_atom_decay__corrected")
    assert rec["evidence"] == "definitional" and "by construction" in rec["evidence_note"]


# ----------------------------------------------------------------------------- planted violations


def test_planted_sinusoidal_norm_violation(monkeypatch):
    real = enc.sinusoidal
    monkeypatch.setattr("petheory.encodings.absolute.sinusoidal", lambda *a, **k: 2.0 * real(*a, **k))
    assert verdict("li2025.sinusoidal_norm_bound")["verdict"] == "refuted"


@pytest.mark.parametrize("planted, part", [
    (lambda real: (lambda *a, **k: 1.4 * real(*a, **k)), "exact_norm"),  # norm 0.99 sqrt(d): meets the paper's bound
    (lambda real: (lambda *a, **k: np.abs(real(*a, **k))), "reference"),  # |PE| keeps the norm
    (lambda real: (lambda *a, **k: real(*a, **{**k, "base": 1.01 * k.get("base", 10000.0)})), "reference"),  # wrong base
])
def test_sinusoidal_norm_bound_catches_bugs_that_keep_the_bound(monkeypatch, planted, part):
    monkeypatch.setattr("petheory.encodings.absolute.sinusoidal", planted(enc.sinusoidal))
    rec = verdict("li2025.sinusoidal_norm_bound")
    assert rec["verdict"] == "refuted" and rec["counterexample"]["part"] == part
    assert li2025.sinusoidal_norm_bound({**rec["counterexample"], "part": "paper_bound"}) <= 0  # the bound alone holds


def test_learned_models_that_wrap_positions_around_are_refuted(monkeypatch):
    # petheory.nn's learned table past n_max: wrap around (position mod n_max) instead of reusing the last row
    import torch

    from petheory.nn import position

    def wrapped(self, T):
        rows = self.table.shape[0]
        return self.table[torch.arange(T) % rows] if T > rows else self.table[:T]

    monkeypatch.setattr(position.AbsolutePE, "forward", wrapped)
    rec = verdict("li2025.learned_no_extrapolation")
    assert rec["verdict"] == "refuted" and li2025_extrapolation.learned_no_extrapolation(rec["counterexample"]) > 0


def test_learned_models_whose_later_positions_differ_only_in_the_model_are_refuted(monkeypatch):
    # the registry's table is right; the model adds a small position-dependent term past the table
    import torch

    from petheory.nn import position

    real = position.AbsolutePE.forward

    def leaky(self, T):
        out = real(self, T)
        rows = self.table.shape[0]
        return out + 1e-3 * (torch.arange(T) >= rows)[:, None].to(out.dtype) * torch.arange(T)[:, None].to(out.dtype)

    monkeypatch.setattr(position.AbsolutePE, "forward", leaky)
    assert verdict("li2025.learned_no_extrapolation")["verdict"] == "refuted"


def test_alibi_extrapolation_catches_a_bound_off_by_a_constant_factor(monkeypatch):
    real = bounds.alibi_extrapolation_terms
    monkeypatch.setattr("petheory.bounds.alibi.alibi_extrapolation_terms", lambda *a, **k: {**real(*a, **k), "rhs": real(*a, **k)["rhs"] / 1.4})
    assert verdict("li2025.alibi_extrapolation")["verdict"] == "refuted"


def test_jmax_reading_catches_an_atom_without_a_finite_constant(monkeypatch):
    real = li2025_extrapolation._atom_decay_uniform("quick")
    fam = next(iter(real.details["per_family"]))
    bad = {**real.details["per_family"][fam], "unit/l2": {**real.details["per_family"][fam]["unit/l2"],
                                                            "C_j": [np.inf] * len(real.details["per_family"][fam]["unit/l2"]["C_j"])}}
    planted = li2025_extrapolation.Evidence(real.verdict, real.cases, details={"per_family": {fam: bad}})
    monkeypatch.setattr(li2025_extrapolation, "_atom_decay_uniform", lambda profile: planted)
    assert verdict("li2025.wavelet_atom_decay#c_depends_on_jmax")["verdict"] == "refuted"


def test_planted_input_norm_violation(monkeypatch):
    real = bounds.pe_norms
    monkeypatch.setattr("petheory.bounds.norms.pe_norms", lambda *a, **k: 1.5 * real(*a, **k) + 1e-3)
    assert verdict("li2025.input_norm_bounds")["verdict"] == "refuted"


def test_planted_alibi_bias_magnitude_violation(monkeypatch):
    # norm_bound reads the registry entry: replace it by a bias that exceeds alpha(N'-1) by 1 on the diagonal
    info = enc.info("alibi")
    broken = lambda n, **k: info.fn(n, **k) - 1.0  # noqa: E731
    monkeypatch.setitem(enc._REGISTRY, "alibi", enc.EncodingInfo(info.name, info.kind, broken, info.summary,
                                                                  info.conventions, info.source, info.params))
    assert verdict("li2025.input_norm_bounds")["verdict"] == "refuted"


def test_input_norm_bounds_is_a_conjunction_not_readings():
    rec = verdict("li2025.input_norm_bounds")
    assert rec["verdict"] == "holds" and rec["readings"] == [] and rec["paper_status"] == "unspecified"
    assert "by definition" in rec["evidence_note"] and "Table 2" in rec["source"] and "ALiBi" in rec["source"]


@pytest.mark.parametrize("pe", ["sinusoidal", "legendre"])
def test_a_failing_part_refutes_input_norm_bounds(monkeypatch, pe):
    # planted: one PE's vectors scaled by 1.5 through the registry entry norm_bound reads; the others untouched
    info = enc.info(pe)
    broken = lambda *a, **k: 1.5 * info.fn(*a, **k)  # noqa: E731
    monkeypatch.setitem(enc._REGISTRY, pe, enc.EncodingInfo(info.name, info.kind, broken, info.summary,
                                                             info.conventions, info.source, info.params))
    rec = verdict("li2025.input_norm_bounds")
    assert rec["verdict"] == "refuted" and rec["counterexample"]["pe"] == pe


def test_alibi_eq9_is_tested_against_an_independent_softmax(monkeypatch):
    from proofs_check.claims import li2025_alibi as X

    case = {"mu": [0.3, -1.0], "slope": 0.5, "n_max": 4, "excess": 3, "reading": "weight"}
    mu = np.asarray(case["mu"])
    t = bounds.alibi_extrapolation_terms(mu, slope=0.5, distance=7, n_max=4, reading="weight")
    eq9, agree = X._independent_eq9(mu, case, 7, t, 0.0)
    assert eq9 < 0 and agree < 0
    # bounds' left side off by 1e-6: the independent softmax disagrees
    assert X._independent_eq9(mu, case, 7, {**t, "lhs": t["lhs"] + 1e-6}, 0.0)[1] > 0
    # a 'softmax' that is off by 0.5 at the far key's bias b = -alpha d = -3.5 only: Eq. 9 fails on the independent side
    import scipy.special

    real = scipy.special.softmax

    def off_at_far_key(z, axis=None):
        out = real(z, axis=axis)
        if np.ndim(z) == 2:
            out = out + 0.5 * (np.asarray(z)[:, -1:] == -3.5) * (np.arange(out.shape[1]) == out.shape[1] - 1)
        return out

    monkeypatch.setattr(scipy.special, "softmax", off_at_far_key)
    assert X._independent_eq9(mu, case, 7, t, 0.0)[0] > 0


def test_legendre_is_checked_against_an_independent_evaluation(monkeypatch):
    from petheory.encodings import absolute

    case = {"n_max": 8, "d": 5, "far": 3, "orthonormal": False, "position_map": "linear"}
    assert verdict("li2025.legendre_bounded")["verdict"] == "holds"
    real = absolute.legendre_positions
    # the library's own x(p) shifted inside [-1, 1]: its bounds still hold, the independent evaluation disagrees
    monkeypatch.setattr(absolute, "legendre_positions", lambda *a, **k: 0.9 * real(*a, **k))
    from proofs_check.claims import li2025 as L

    assert L.legendre_bounded(case) > 0


def test_planted_rademacher_violation(monkeypatch):
    monkeypatch.setattr("petheory.bounds.rademacher.empirical_rademacher", lambda X, **k: bounds.RademacherEstimate(5.0, 0.01, 10, len(X)))
    rec = verdict("li2025.rademacher_bound")
    assert rec["verdict"] == "refuted" and rec["counterexample"]["estimate"] == 5.0


def test_planted_alibi_extrapolation_violation(monkeypatch):
    real = bounds.attention_weight
    monkeypatch.setattr("petheory.bounds.alibi.attention_weight", lambda mu, b: real(mu, 8.0 * np.asarray(b)))  # slope 8x: L_A = 2
    assert verdict("li2025.alibi_extrapolation")["verdict"] == "refuted"


def test_planted_alibi_monotone_violation(monkeypatch):
    real = enc.alibi
    monkeypatch.setattr("petheory.encodings.bias.alibi", lambda n, **k: real(n, **k) + 0.01 * np.subtract.outer(np.arange(n), np.arange(n)) ** 2
                        * k.get("slope", 1.0) * 1e3)
    assert verdict("li2025.alibi_monotone_bias")["verdict"] == "refuted"


def test_atom_decay_checker_says_holds_when_atoms_carry_the_stated_amplitude(monkeypatch):
    # planted "fix": L2 atoms with amplitude 2^(-j/2), as the statement has it -> one C for every scale
    real = enc.wavelet_amplitude
    monkeypatch.setattr("petheory.encodings.absolute.wavelet_amplitude", lambda j, nm: real(j, "paper") if nm in ("l2", "none") else real(j, nm))
    li2025_extrapolation._atom_decay_uniform.cache_clear()
    try:
        assert verdict("li2025.wavelet_atom_decay")["verdict"] == "holds"
    finally:
        li2025_extrapolation._atom_decay_uniform.cache_clear()


def test_paper_amplitude_reading_is_decided_by_the_constructed_constant(monkeypatch):
    # holds with the mother wavelet's own C_psi(beta) e^(beta h) bounding every C_j ('capped'); a fit whose C drops
    # the e^(beta u) weight (max |psi|) is too small for it and flips the reading
    rec = verdict("li2025.wavelet_atom_decay#uniform_c_paper_amplitude")
    assert rec["verdict"] == "holds" and "$C_\\psi(\\beta) e^{\\beta h}$" in rec["summary"]
    assert all(v["capped"] for v in rec["details"]["per_construction"].values())
    real = bounds.wavelet_decay_fit

    def unweighted(w="db2", **k):
        import dataclasses

        return dataclasses.replace(real(w, **k), C=float(np.max(np.abs(enc.wavefun(w, 10)[1]))))

    monkeypatch.setattr("petheory.bounds.wavelet_decay_fit", unweighted)
    li2025_extrapolation._atom_decay_uniform.cache_clear()
    try:
        assert verdict("li2025.wavelet_atom_decay#uniform_c_paper_amplitude")["verdict"] == "refuted"
    finally:
        li2025_extrapolation._atom_decay_uniform.cache_clear()


def test_atom_decay_corrected_checks_the_stated_amplitude(monkeypatch):
    # the amplitude of scale j read at -j: a coarse (j = -8) L2 atom in the position dilation is 2^8 times too large
    case = {"wavelet": "db2", "normalisation": "l2", "dilation": "position", "n_max": 256, "atom": 0, "pos": 10,
            "beta": 0.0}
    assert li2025_extrapolation.wavelet_atom_decay__corrected(case) <= 0
    real = enc.wavelet_amplitude
    monkeypatch.setattr("petheory.encodings.absolute.wavelet_amplitude", lambda j, nm: real(-j, nm))
    assert li2025_extrapolation.wavelet_atom_decay__corrected(case) > 0


def test_atom_cases_reach_the_atoms_support_and_peak():
    from hypothesis import HealthCheck, given, settings

    seen = []

    @settings(max_examples=60, database=None, suppress_health_check=list(HealthCheck), deadline=None, derandomize=True)
    @given(li2025_extrapolation._atom_cases())
    def draw(case):
        seen.append(li2025_extrapolation.wavelet_atom_decay__corrected(case) != 0.0)  # 0.0 exactly: outside the support

    draw()
    assert sum(seen) >= len(seen) // 3


def test_planted_support_end_one_short_is_caught(monkeypatch):
    case = {"wavelet": "db2", "d": 4, "n_max": 16, "normalisation": "l2", "dilation": "unit", "far": 0}
    assert li2025_extrapolation.wavelet_extrapolation__corrected(case) <= 0
    real = bounds.wavelet_support_end
    monkeypatch.setattr("petheory.bounds.wavelet_support_end", lambda *a, **k: real(*a, **k) - 1)
    assert li2025_extrapolation.wavelet_extrapolation__corrected(case) > 0


def test_planted_atom_decay_corrected_violation(monkeypatch):
    real = enc.wavelet
    monkeypatch.setattr("petheory.encodings.absolute.wavelet", lambda *a, **k: 3.0 * real(*a, **k) + 1e-6)
    assert verdict("li2025.wavelet_atom_decay__corrected")["verdict"] == "refuted"


def test_wavelet_extrapolation_checker_says_holds_for_an_encoding_that_vanishes_at_n_max(monkeypatch):
    monkeypatch.setattr("petheory.encodings.absolute.wavelet", lambda n, d, **k: np.zeros((n, d)))
    assert verdict("li2025.wavelet_extrapolation")["verdict"] == "holds"


def test_planted_wavelet_extrapolation_corrected_violation(monkeypatch):
    real = enc.wavelet
    monkeypatch.setattr("petheory.encodings.absolute.wavelet", lambda n, d, **k: real(n, d, **k) + 1e-9)  # never exactly zero
    assert verdict("li2025.wavelet_extrapolation__corrected")["verdict"] == "refuted"


def test_unnormalised_norm_upper_bound_holds_and_the_rate_is_not_decided():
    rec = verdict("li2025.wavelet_unnormalised_norm")
    by = {r["name"]: r for r in rec["readings"]}
    assert rec["verdict"] == "depends"
    assert by["upper_bound"]["verdict"] == "holds" and by["attained_rate"]["verdict"] == "inconclusive"
    att = verdict("li2025.wavelet_unnormalised_norm#attained_rate")
    fe = att["details"]["fits"][att["details"]["fastest"]]
    assert not att["details"]["reached"] and fe["ratio_exponent_ci95"][1] < -att["details"]["log_factor_slack"]
    assert f"N^{fe['exponent']:.3f}" in att["summary"] and "direction: not attained" in att["summary"]


def test_planted_norms_at_the_stated_rate_are_still_not_decided(monkeypatch):
    # a reconstruction that reaches the rate does not decide the attained reading either (the encoding is undefined)
    monkeypatch.setattr("petheory.bounds.decay.wavelet_norms",
                        lambda n, d, **k: np.full(n, float(n) * np.sqrt(np.log(n))))
    assert verdict("li2025.wavelet_unnormalised_norm#attained_rate")["verdict"] == "inconclusive"
    assert verdict("li2025.wavelet_unnormalised_norm#upper_bound")["verdict"] == "holds"
    assert verdict("li2025.wavelet_unnormalised_norm__corrected")["verdict"] == "refuted"


def test_planted_unnormalised_norm_violation(monkeypatch):
    monkeypatch.setattr("petheory.bounds.decay.wavelet_norms", lambda n, d, **k: np.full(n, float(n) ** 2))
    rec = verdict("li2025.wavelet_unnormalised_norm#upper_bound")
    assert rec["verdict"] == "refuted" and rec["margin"] < 0 and "faster than" in rec["summary"]


@pytest.mark.filterwarnings("ignore:overflow encountered")
def test_planted_legendre_violation(monkeypatch):
    real = enc.legendre
    monkeypatch.setattr("petheory.encodings.absolute.legendre", lambda *a, **k: real(*a, **{**k, "beyond": "extrapolate"}))
    assert verdict("li2025.legendre_bounded")["verdict"] == "refuted"


def test_planted_learned_extrapolation(monkeypatch):
    real = enc.learned

    def leaky(n, d, *, n_max=None, beyond="error", **k):
        out = real(n, d, n_max=n_max, beyond="clamp", **k)
        return out + 1e-3 * (np.arange(n)[:, None] >= (n_max or n))  # rows past the table differ

    monkeypatch.setattr("petheory.encodings.absolute.learned", leaky)
    assert verdict("li2025.learned_no_extrapolation")["verdict"] == "refuted"


@pytest.fixture
def fresh_onsets():
    li2025._onset.cache_clear()
    yield
    li2025._onset.cache_clear()


def test_ambiguity_checker_says_holds_for_onsets_near_ten_thousand(monkeypatch, fresh_onsets):
    monkeypatch.setattr("petheory.bounds.decay.sinusoidal_ambiguity_onset", lambda d, **k: 12000)
    assert verdict("li2025.sinusoidal_periodic_ambiguity#near_repeat")["verdict"] == "holds"


def test_planted_ambiguity_corrected_violation(monkeypatch, fresh_onsets):
    monkeypatch.setattr("petheory.bounds.decay.sinusoidal_ambiguity_onset", lambda d, **k: 7)
    assert verdict("li2025.sinusoidal_periodic_ambiguity__corrected")["verdict"] == "refuted"


# ----------------------------------------------------------------------------- Table 5 (empirical)


def _rec(pe, mse200, *, size="paper", seed=0, **over):
    """A running-sum record as train() writes it (the fields Table 5 reads), with a chosen MSE at N=200."""
    from petheory.nn import preset

    cfg = preset("running_sum", size, pe=pe, seed=seed, **over)
    return {"task": "running_sum", "pe": str(cfg.model.pe), "train_len": 50,
            "seed": seed, "config": cfg.as_dict(), "config_hash": cfg.hash(), "kind": "regression",
            "model": {"causal": cfg.model.causal, "d_model": cfg.model.d_model},
            "final": {"test": {"50": {"mse": 0.01}, "100": {"mse": 0.02}, "200": {"mse": mse200}}}}


def test_table5_without_records_is_inconclusive_and_never_trains(tmp_path, monkeypatch):
    from proofs_check.engine import Context

    monkeypatch.setenv("PETHEORY_RECORDS", "")  # a clone without the shipped records
    ev = li2025_empirical.table5_running_sum(Context("quick", 1, np.random.default_rng(0), 0, workdir=str(tmp_path)))
    assert ev.verdict == "inconclusive" and "no running-sum records" in ev.summary


def test_table5_verdicts_from_records():
    wav = [_rec("wavelet", 0.010 + 1e-4 * s, seed=s) for s in range(3)]
    sin = [_rec("sinusoidal", 0.040 + 1e-4 * s, seed=s) for s in range(3)]
    assert li2025_empirical.table5_evidence(wav + sin).verdict == "holds"
    sin_better = [_rec("sinusoidal", 0.002 + 1e-4 * s, seed=s) for s in range(3)]
    ev = li2025_empirical.table5_evidence(wav + sin_better)
    assert ev.verdict == "refuted" and ev.counterexample["lower_than_wavelet"] == ["sinusoidal"]
    small = [_rec("wavelet", 0.01, size="small", seed=s) for s in range(2)] + \
            [_rec("sinusoidal", 0.04, size="small", seed=s) for s in range(2)]
    ev = li2025_empirical.table5_evidence(small)
    assert ev.verdict == "inconclusive" and "smaller than li2025's setup" in ev.summary


def test_table5_needs_every_comparison_after_holm_to_hold():
    # wavelet clearly below sinusoidal, but indistinguishable from legendre within seed noise:
    # "lowest" is not established (inconclusive), and not refuted either
    wav = [_rec("wavelet", m, seed=s) for s, m in enumerate((0.030, 0.092, 0.061))]
    leg = [_rec("legendre", m, seed=s) for s, m in enumerate((0.0254, 0.0957, 0.0610))]
    sin = [_rec("sinusoidal", 0.5 + 0.01 * s, seed=s) for s in range(3)]
    ev = li2025_empirical.table5_evidence(wav + leg + sin)
    assert ev.verdict == "inconclusive"
    t = ev.details["readings"][ev.details["reading"]]["tests"]
    assert t["sinusoidal"]["target_better_p"] < 0.01 and t["legendre"]["target_better_p"] > 0.05


def test_table5_reports_each_reconstruction_reading_and_decides_by_the_papers_default():
    base = [_rec("wavelet", 0.010 + 1e-4 * s, seed=s) for s in range(3)] + \
           [_rec("sinusoidal", 0.040 + 1e-4 * s, seed=s) for s in range(3)]
    bidir = [_rec("wavelet", 0.5 + 1e-3 * s, seed=s, **{"model.causal": False}) for s in range(3)] + \
            [_rec("sinusoidal", 0.1 + 1e-3 * s, seed=s, **{"model.causal": False}) for s in range(3)]
    ev = li2025_empirical.table5_evidence(base + bidir)
    assert ev.verdict == "holds" and ev.details["reading"].startswith("causal encoder")
    per = {k: v["verdict"] for k, v in ev.details["readings"].items()}
    assert sorted(per.values()) == ["holds", "refuted"] and any(k.startswith("bidirectional") for k in per)


def test_table5_from_the_shipped_records_is_refuted_in_every_reading(tmp_path):
    """The records in records/ (H100, paper preset, 5-15 seeds per PE and reading) decide it."""
    from proofs_check.engine import Context

    ev = li2025_empirical.table5_running_sum(Context("quick", 1, np.random.default_rng(0), 0, workdir=str(tmp_path)))
    assert ev.verdict == "refuted" and ev.details["paper_size"]
    assert ev.details["seeds_per_pe"] >= 5 and len(ev.details["readings"]) >= 4
    assert {v["verdict"] for v in ev.details["readings"].values()} == {"refuted"}


def test_universal_approximation_witness_holds_and_catches_a_fit_that_misses_fixed_n(monkeypatch):
    from proofs_check.claims import li2025_approximation as U

    assert verdict("li2025.ua_no_extrapolation")["verdict"] == "holds"
    case = {"N": 3, "c": 1.0, "sequences": 2, "seed": 0}
    assert U.ua_no_extrapolation(case) < 0
    # planted: a model that does not approximate at fixed N (the witness needs approximation achieved)
    real = U.fit_pair_table
    monkeypatch.setattr(U, "fit_pair_table", lambda xs, ys, N: 0.9 * real(xs, ys, N))
    assert U.ua_no_extrapolation(case) > 0


def test_table5_states_its_looks_and_calibration():
    c = get("li2025.table5_running_sum")
    assert c.looks == 3 and c.alpha == 0.05 and c.setup == "reconstruction"
    assert c.calibration.paper == {"wavelet": 0.0108, "sinusoidal": 0.0423} and c.calibration.tolerance == 0.5
    rec = check_claim(c)
    assert rec["verdict"] == "not_reproduced" and not rec["calibration"]["within"]
    tried = rec["details"]["wavelet_constructions"]
    assert len(tried) == 12 and sum(t["trained"] for t in tried) == 1
    db2 = next(t for t in tried if t["trained"])
    assert db2["last_nonzero_position"] == 149  # exactly zero from 150 on
    assert any(t["small_but_nonzero_far"] for t in tried if t["wavelet"] == "db4")


def test_li2025_statuses_are_only_the_summarys_own_words():
    """Issue 30: the summary calls none of its sentences a theorem, proposition or remark."""
    from proofs_check import engine

    for c in engine.all_claims():
        if c.id.startswith("li2025."):
            assert c.paper_status in (None, "empirical"), c.id
            assert c.paper_status == "empirical" or "names no" in c.source, c.id


@pytest.mark.parametrize("cid", ["li2025.ua_no_extrapolation", "li2025.learned_no_extrapolation"])
def test_claims_true_by_construction_say_definitional(cid):
    c = get(cid)
    assert c.evidence == "definitional" and c.evidence_note


def test_alibi_collapses_to_local_attention_at_large_slope(monkeypatch):
    assert verdict("li2025.alibi_large_slope_local")["verdict"] == "holds"
    mass, bound = li2025_alibi.alibi_nonlocal_mass({"n": 64, "M": 1.0, "slope": 30.0, "seed": 0})
    assert mass <= bound < 1e-9  # purely local at alpha = 30, whatever the length
    # planted: a bias that stops growing past distance 1 (no collapse): refuted
    real = enc.alibi
    monkeypatch.setattr("petheory.encodings.bias.alibi", lambda n, **k: np.maximum(real(n, **k), -1.0))
    assert verdict("li2025.alibi_large_slope_local")["verdict"] == "refuted"


def test_alibi_far_attention_decays_with_distance_at_a_fixed_slope(monkeypatch):
    assert verdict("li2025.alibi_soft_locality")["verdict"] == "holds"
    near, bound_near = li2025_alibi.alibi_far_mass({"n": 64, "M": 1.0, "slope": 1.0, "distance": 2, "seed": 0})
    far, bound_far = li2025_alibi.alibi_far_mass({"n": 64, "M": 1.0, "slope": 1.0, "distance": 30, "seed": 0})
    assert far <= bound_far < 1e-11 and far < near <= bound_near  # the same slope, farther keys: exponentially less
    # planted: a bias that stops growing past distance 3 (no locality beyond it): refuted through the registry
    real = enc.alibi
    monkeypatch.setattr("petheory.encodings.bias.alibi",
                        lambda n, **k: np.maximum(real(n, **k), -3.0 * k.get("slope", 1.0)))
    assert verdict("li2025.alibi_soft_locality")["verdict"] == "refuted"
