"""``plan``: each check reads the library's own formulas, and a wrong number flips it.

The plan's Men check (its column, by angle addition) agrees with :func:`men_min_kernel` and with direct cosines;
its Liu check with :func:`liu_extrapolation_bound` for a base-tuned candidate; the NTK and dynamic candidates
are the registry's ``rope_ntk`` and ``dynamic_base``; the recommendation follows its rule. The CLI prints,
writes JSON and Markdown, and refuses bad input in one line.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hostile_util import cli, refused

from petheory import encodings as enc
from petheory.analyses import plan as P
from petheory.analyses import plan_answers
from petheory.analyses.long_context import supported_context
from petheory.analyses.record import to_json
from petheory.bounds import long_context as lc
from petheory.bounds import men_base as mb
from petheory.evidence import expectation as ev
from petheory.evidence import table as ev_table
from petheory.loaders import resolve_scheme
from petheory.scheme import Positions

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
EPS = np.finfo(float).eps


@pytest.fixture(scope="module")
def small():
    """A registry RoPE from L = 1024 to N = 8192 (d = 64): every candidate in a fraction of a second."""
    return P.plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=8192)


def test_men_check_agrees_with_men_min_kernel_and_direct_cosines(small):
    k = small.kinds[0]
    for c in k.candidates:
        w = np.asarray(c.frequencies)
        mn, at = mb.men_min_kernel(w, small.length, stop_below=None)
        tol = (w.size * small.length + 6 * w.size) * EPS
        assert c.men_min == pytest.approx(mn, abs=tol), c.name
        assert c.checks[0].passed == (mn >= -tol), c.name
        if c.men_first_failure is not None:  # the first negative value, by direct cosines
            m = c.men_first_failure
            assert mb.men_kernel(m, w) < 0 and np.all(mb.men_kernel(np.arange(m), w) >= -tol), c.name


def test_liu_check_is_liu_extrapolation_bound_for_a_base_tuned_candidate(small):
    k = small.kinds[0]
    de = lc.liu_critical_dimension(64, 1e4, 1024)
    for name in ("base_men", "base_liu", "ntk"):
        c = k.candidate(name)
        assert c.critical_dimension == de
        assert c.critical_period == pytest.approx(lc.liu_extrapolation_bound(64, de, c.params["base"]), rel=64 * EPS)
    assert k.candidate("base_liu").critical_period == pytest.approx(small.length, rel=64 * EPS)
    assert k.candidate("base_liu").checks[1].passed


def test_ntk_and_dynamic_candidates_are_the_registry_entries_at_n(small):
    k = small.kinds[0]
    ntk = enc.band_frequencies("rope_ntk", 64, 2, scale=8.0, base=1e4)[0]
    assert np.allclose(k.candidate("ntk").frequencies, ntk, rtol=16 * EPS, atol=0)
    dyn = enc.rope_frequencies(64, base=enc.dynamic_base(1e4, 1.0, 1024, 8192, 64))
    assert np.allclose(k.candidate("dynamic").frequencies, dyn, rtol=16 * EPS, atol=0)
    assert np.allclose(k.candidate("dynamic").frequencies, ntk, rtol=64 * EPS, atol=0)  # factor 1 = NTK at N


def test_phase_check_counts_bands_beyond_the_trained_angles(small):
    k = small.kinds[0]
    assert k.candidate("pi").bands_out_of_range == 0  # PI maps distance N onto L exactly
    plain = k.candidate("as_configured")  # unscaled: the bands that did not turn within L reach new angles
    w0 = enc.rope_frequencies(64, base=1e4)
    assert plain.bands_out_of_range == int(np.sum(1024 * w0 < 2 * math.pi))
    assert not plain.checks[2].passed


def test_qwen25_training_free_keeps_the_shipped_yarn_and_fine_tuning_raises_the_base():
    """Issue 53: no published result supports a training-free base raise; Qwen's YaRN x4 (+ DCA) does (Qwen2.5 report
    Table 16), and with fine-tuning a raised base (dynamic NTK, Lu et al. Table 3) is at least as good as YaRN."""
    k = P.plan(resolve_scheme(str(DATA / "qwen2_5_7b_yarn.json")), length=131072).kinds[0]
    tf, ft = k.training_free, k.fine_tuned
    assert tf.candidate == "as_configured" and k.candidate("as_configured").encoding == "rope_yarn"
    assert "qwen25_7b_yarn_dca_128k" in ev.expect("yarn", "training_free", 4.0).rows
    assert "yarn_dca" in tf.why  # the DCA rows are in the expectation, not in the printed block: said so
    assert plan_answers.method_family(k.candidate(ft.candidate), k.base)[0] == "base" and "next: pi" in ft.why
    assert ev.expect("base", "training_free", 4.0).median < 20  # dynamic NTK training-free: RULER 44.45/14.79/0.72


def test_an_answer_no_matched_row_supports_is_called_the_least_bad():
    """Llama 3 8B to 128K training-free (s = 16): the best family's rows all score near 0 (Lu et al.: dynamic NTK at
    16x), so the answer must not read as a way to N; Qwen2.5's YaRN x4 has rows above the threshold and is not."""
    worst = P.plan(resolve_scheme(str(DATA / "llama3_8b.json")), length=131072).kinds[0].training_free
    assert "least bad" in worst.why and "no training-free way to N" in worst.why
    qwen = P.plan(resolve_scheme(str(DATA / "qwen2_5_7b_yarn.json")), length=131072).kinds[0].training_free
    assert "least bad" not in qwen.why


def test_a_config_that_already_advertises_n_is_told_to_keep_it():
    rec = P.plan(resolve_scheme(str(DATA / "llama3_1_8b.json")), length=131072)
    assert any("already advertises 131,072" in n and "76.3" in n for n in rec.notes)
    tf = rec.kinds[0].training_free  # and the training-free answer is the shipped scaling, not the table's extension
    assert tf.candidate == "as_configured" and tf.expected.startswith("no extension") and "table's training-free pick" in tf.why
    unscaled = P.plan(resolve_scheme(str(DATA / "llama3_8b.json")), length=131072).kinds[0].training_free
    assert unscaled.candidate != "as_configured"  # a config that does not advertise N gets the table's pick
    # Mistral 7B v0.1: max_position_embeddings 32,768 with no scaling, trained at 8,192 (its card): not advertised
    mistral = P.plan(resolve_scheme(str(DATA / "mistral_7b.json")), length=32768)
    assert mistral.kinds[0].training_free.candidate != "as_configured"
    assert not any("already advertises" in n for n in mistral.notes)


def test_each_answer_is_the_family_with_the_highest_expected_score(small):
    k = small.kinds[0]
    for a in (k.training_free, k.fine_tuned):
        best = max((ev.expect(plan_answers.method_family(c, k.base)[0], a.regime, 8.0) for c in k.candidates), key=lambda e: e.median or -1)
        assert a.candidate is not None and plan_answers.method_family(k.candidate(a.candidate), k.base)[0] == best.family


def test_no_evidence_is_said_not_extrapolated(monkeypatch):
    from petheory.evidence import predictors

    predictors.committed()  # the predictor records check their row ids against the real table: read them first
    monkeypatch.setattr(ev_table, "rows", lambda: ())
    k = P.plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=8192).kinds[0]
    for a in (k.training_free, k.fine_tuned):
        assert a.candidate is None and a.expected.startswith("no evidence")
        assert "no evidence" in a.lines()[0]


def test_the_checks_print_their_measured_accuracy_beside_the_table(small):
    text = str(small)
    assert "checks as predictors" in text
    assert all(f"{c} (training-free): " in text and f"{c} (fine-tuned): " in text for c in P.CHECKS)


def test_a_planted_men_failure_flips_the_check(monkeypatch):
    """The Men check reads petheory.analyses.kernel.rotary_column: a column with a negative value fails it."""
    from petheory.analyses import kernel as K

    real = K.rotary_column

    def planted(w, n, f=1.0, **kw):
        a = real(w, n, f, **kw)
        a[n // 2] = -1.0
        return a

    p = Positions("rotary", "rope", {"base": 1e6}, 64)
    cand = ("as_configured", "x", "rope", {"base": 1e6}, "")
    assert P.analyse(p, cand, context=1024, length=4096).checks[0].passed
    monkeypatch.setattr(K, "rotary_column", planted)
    c = P.analyse(p, cand, context=1024, length=4096)
    assert not c.checks[0].passed and c.men_first_failure == 2048


def test_a_planted_liu_error_flips_the_check(monkeypatch):
    p = Positions("rotary", "rope", {"base": 1e4}, 64)
    cand = P.candidates(p, context=1024, length=8192)[2]
    assert cand[0] == "base_liu" and P.analyse(p, cand, context=1024, length=8192).checks[1].passed
    monkeypatch.setattr(lc, "liu_critical_dimension", lambda d, b, L: 2)  # an earlier critical band: a short period
    assert not P.analyse(p, cand, context=1024, length=8192).checks[1].passed


def test_gemma_plans_only_its_global_layers():
    rec = P.plan(resolve_scheme(str(DATA / "gemma3_27b.json")), length=65536)
    planned = [k for k in rec.kinds if k.planned]
    assert [k.type for k in planned] == ["full_attention"]
    local = next(k for k in rec.kinds if not k.planned)
    assert local.type == "sliding_attention" and "1,024" in local.note
    assert local.candidates[0].checks[0].passed  # base 1e4 at 1024 (Men's Table 2: 4.3e3 at 1k)


def test_supported_context_is_the_first_failure_of_men_and_liu_bound():
    s = supported_context(Positions("rotary", "rope", {"base": 1e4}, 128), context=4096, extended=4096)
    w = enc.rope_frequencies(128, base=1e4)
    assert mb.men_min_kernel(w, s.men_largest, stop_below=None)[0] >= 0
    assert mb.men_kernel(s.men_largest + 1, w) < 0
    assert s.liu_t_extra == pytest.approx(lc.liu_extrapolation_bound(128, 92, 1e4), rel=64 * EPS)
    assert "inside Liu's, outside Men's" in s.lines()[0]  # Llama 2: B_m < 0 from m = 1,707


def test_record_renders_and_serialises(small):
    text = str(small)
    assert "training-free (set at inference)" in text and "fine-tuning (train with at N)" in text
    assert "transformers 5.x" in text
    md = small.markdown()
    assert md.startswith("## ") and "| candidate |" in md and "#### `yarn`" in md
    assert small._repr_html_().startswith("<pre>")
    doc = json.loads(json.dumps(to_json(small)))
    assert doc["length"] == 8192 and len(doc["configs"]) == len(small.kinds[0].candidates)


def test_cli_plan_prints_writes_json_and_markdown(capsys, tmp_path):
    rc, out, err = cli(capsys, "plan", "--pe", DATA / "qwen2_5_7b_yarn.json", "--length", "131072", "--json",
                       tmp_path / "p.json", "--markdown", tmp_path / "p.md", "-q")
    assert rc == 0, err
    assert "training-free (set at inference): as_configured" in out and "vLLM: --hf-overrides" in out
    doc = json.loads((tmp_path / "p.json").read_text())
    assert doc["plan"]["length"] == 131072 and doc["plan"]["kinds"][0]["fine_tuned"]["candidate"] == "dynamic"
    assert "### Runtime configs" in (tmp_path / "p.md").read_text()


@pytest.mark.parametrize("argv, match", [
    (("--length", "100"), "must exceed the original context"),
    (("--length", "32768"), ("an extension method added at the trained length does not help", "yarn 76.3", "vs 77 without", "not an extension: 80")),
    (("--length", "65536", "--base-grid", "0"), "--base-grid"),
    (("--length", "131072", "--base-grid", "400000"), ("--base-grid must be at most", "a decade here", "got 400000")),
    (("--length", "65536", "-d", "64"), ("--d-model must be the model's own 128 (its config fixes it", "got 64")),
    (("--length", str(10**9)), "beyond what plan scans"),
])
def test_cli_plan_refuses_bad_input_in_one_line(capsys, argv, match):
    refused(capsys, "plan", "--pe", DATA / "qwen2_5_7b_yarn.json", *argv, match=match)


def test_cli_plan_refuses_a_model_without_rotary_layers(capsys):
    refused(capsys, "plan", "--pe", DATA / "bloom_560m.json", "--length", "8192", match="no full-attention rotary")


def test_report_has_the_theory_range_line_per_rotary_kind():
    from petheory.analyses.report import report

    sec = report(resolve_scheme(str(DATA / "llama3_1_8b.json")), length=8192, null_draws=0, multiples=(1,)).sections[0]
    s = supported_context(sec_pos := resolve_scheme(str(DATA / "llama3_1_8b.json")).main.positions, context=8192,
                            extended=131072)
    assert sec.theory_range == s.lines()[0] and sec_pos.encoding == "rope_llama3"
    assert "advertised 131,072: outside both" in sec.theory_range  # Men's B_m < 0 from m = 85,133


def test_a_base_grid_over_its_budget_is_refused_with_the_largest_that_fits():
    """The grid pass tries every grid base below the coarse grid's first passing one: a grid whose count of those
    exceeds P.MEN_GRID_WORK cosines is refused before its walk, naming the largest per-decade count that fits; that
    count runs, and the base it certifies is the default grid's (the refinement does not depend on the grid)."""
    import re

    from petheory.bounds.men_search import grid_cost_per_base
    from petheory.errors import ParameterError

    scheme = resolve_scheme("rope:base=10000", d=64, context=1024)
    with pytest.raises(ParameterError, match=r"^base_grid must be at most \d+ a decade here .*got 1000000$") as exc:
        P.plan(scheme, length=4096, base_grid=10**6)
    assert exc.value.owner is P.plan  # the command says it as --base-grid
    fit = int(re.search(r"at most (\d+) a decade", str(exc.value)).group(1))
    tried = float(re.search(r"try about ([\d,]+) bases", str(exc.value)).group(1).replace(",", ""))
    assert tried * grid_cost_per_base(64) > P.MEN_GRID_WORK
    with pytest.raises(ParameterError, match="a decade here"):
        P.plan(scheme, length=4096, base_grid=fit + 1)
    fine = P.plan(scheme, length=4096, base_grid=fit).kinds[0].candidate("base_men")
    default = P.plan(scheme, length=4096).kinds[0].candidate("base_men")
    assert "certified failing" in fine.note and "certified failing" in default.note
    assert fine.params["base"] == pytest.approx(default.params["base"], rel=1e-6)


def test_a_factor_from_the_evidence_is_the_best_row_at_the_nearest_extension_scaled_to_s():
    """evidence_factors' rule on planted rows: of the rows of the candidate's method and regime at the extension ratio
    nearest s, the best RULER score sets the factor (its factor / extension times s); a row of another method, without a
    factor, or with no extension (s = 1, STRING's rows) sets none; no row, no factor."""
    import dataclasses

    base = next(r for r in ev_table.rows() if r.id == "ruler_llama31_8b_128k")  # llama3 x8 at s = 16, fine-tuned
    row = functools_partial(dataclasses.replace, base)
    rows = [row(id="a", factor=8.0, value=70.0), row(id="b", factor=32.0, value=75.0),
            row(id="c", factor=2.0, value=99.0, target=base.pretrain_length * 8, train_length=base.pretrain_length * 8),
            row(id="d", method="pi", factor=3.0, value=99.0), row(id="e", factor=None, value=99.0)]
    got = plan_answers.evidence_factors(14.0, rows)
    assert [(e.candidate, e.regime, e.row.id, e.near) for e in got] == [("pi", "fine_tuned", "d", 1),
                                                                          ("llama3", "fine_tuned", "b", 2)]
    assert got[0].factor == pytest.approx(3.0 / 16.0 * 14.0) and got[1].factor == pytest.approx(32.0 / 16.0 * 14.0)
    assert plan_answers.evidence_factors(14.0, rows[:1] + rows[4:])[0].factor == pytest.approx(7.0)
    assert plan_answers.evidence_factors(14.0, []) == ()
    at_own = row(id="f", target=base.pretrain_length, train_length=base.pretrain_length, factor=1.5)
    assert plan_answers.evidence_factors(1.5, [at_own]) == ()


def functools_partial(f, first):
    return lambda **kw: f(first, **kw)


def test_plan_offers_the_evidence_factors_labelled_with_their_row_and_source():
    """Qwen2.5-7B to 128k (s = 4): the table's training-free dynamic NTK row at s = 4 (Lu et al. Table 3, x7) and its
    fine-tuned one nearest s (x29 at s = 8: x14.5 at s = 4) are candidates, labelled and printed with the row's value
    and source; the factors equal to s (PI's and YaRN's rows) add none. At s = 100 no row supports another factor."""
    rec = P.plan(resolve_scheme(str(DATA / "qwen2_5_7b_yarn.json")), length=131072)
    k = rec.kinds[0]
    ev_names = [c.name for c in k.candidates if "_evidence_" in c.name]
    assert ev_names == ["dynamic_evidence_tf", "dynamic_evidence_ft"]
    tf, ft = k.candidate("dynamic_evidence_tf"), k.candidate("dynamic_evidence_ft")
    assert tf.params["scale"] == 7.0 and ft.params["scale"] == 14.5 and tf.encoding == ft.encoding == "rope_dynamic"
    assert "from the evidence, training-free" in tf.label and "lu2024_ntk_frozen_16k" in tf.note and "RULER 14.79" in tf.note
    text = "\n".join(rec.lines())
    assert "dynamic_evidence_ft: factor from the evidence (fine-tuned): lu2024_dynamic_ntk_ft32k_32k" in text
    assert "Table 3" in text and {rc.candidate for rc in rec.configs} >= set(ev_names)
    far = P.plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=102400).kinds[0]
    assert not [c.name for c in far.candidates if "_evidence_" in c.name]
