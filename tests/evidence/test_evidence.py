"""The evidence table, its reader, the expectation model and the checks as predictors.

The table reads through the validating JSON reader and refuses a bad row in one line naming the row and the field;
the expectation is the median of the matched rows with a leave-one-source-out error computed by hand here; Fisher's
one-sided p-value is scipy's; a test whose margins cannot reject decides nothing; the committed check outcomes are
what plan's analyse gives now; a planted outcome flips each predictor claim, and a planted library error flips the
outcomes it reads.
"""

from __future__ import annotations

import copy
import itertools
import json
import statistics

import pytest
from scipy import stats

from petheory.analyses import kernel as K
from petheory.analyses.plan import analyse
from petheory.errors import ValidationError
from petheory.evidence import expectation as E
from petheory.evidence import predictors as P
from petheory.evidence import table as T
from proofs_check.claims import _evidence as CE


@pytest.fixture(scope="module")
def doc():
    return json.loads(T.PATH.read_text(encoding="utf-8"))


def test_the_table_has_at_least_30_rows_each_with_a_source_table(doc):
    rows = T.read()
    assert len(rows) >= 30 and len({r.id for r in rows}) == len(rows)
    assert all(any(w in r.source for w in ("Table", "table", "README", "PR #", "model card", "§", "analysis.md")) for r in rows)
    assert {r.regime for r in rows} == set(T.REGIMES)
    # a verified value names the copy of the source it was read in; an unverified one the notes it was transcribed from
    assert all(("read in" in r.via) == r.verified for r in rows)
    assert all("extension-evidence.md" in r.via for r in rows if not r.verified)
    assert sum(r.verified for r in rows) >= 30


def _bad(doc, i, **change):
    d = copy.deepcopy(doc)
    for k, v in change.items():
        if v is KeyError:
            del d["rows"][i][k]
        else:
            d["rows"][i][k] = v
    return d


@pytest.mark.parametrize("change, field", [
    ({"target": "128k"}, "target"),
    ({"method": "magic"}, "method"),
    ({"regime": "zero-shot"}, "regime"),
    ({"value": -1}, "value"),
    ({"base": 1}, "base"),
    ({"rotary_dim": 127}, "rotary_dim"),
    ({"source": ""}, "source"),
    ({"verified": "yes"}, "verified"),
    ({"metric": "perplexity"}, "higher_is_better"),
    ({"baseline": None}, "baseline_is"),
    ({"short_context": {"metric": "MMLU"}}, "short_context"),
    ({"note": KeyError}, "note"),
    ({"extra": 1}, "extra"),
])
def test_a_bad_row_is_refused_in_one_line_naming_row_and_field(doc, change, field):
    i = 3
    with pytest.raises(ValidationError) as e:
        T.parse(_bad(doc, i, **change))
    msg = str(e.value)
    assert "\n" not in msg and f"row {i} ({doc['rows'][i]['id']})" in msg and f"'{field}'" in msg


def test_a_repeated_id_and_a_non_json_file_are_refused(doc, tmp_path):
    d = copy.deepcopy(doc)
    d["rows"][5]["id"] = d["rows"][4]["id"]
    with pytest.raises(ValidationError, match="row 5 .*'id' repeats"):
        T.parse(d)
    p = tmp_path / "t.json"
    p.write_text(json.dumps(doc).replace('"value": 0.72', '"value": NaN'))
    with pytest.raises(ValidationError, match="NaN"):
        T.read(p)


def test_met_reads_the_baseline_by_the_metric_direction():
    by = {r.id: r for r in T.rows()}
    assert by["qwen25_7b_yarn_dca_128k"].met and not by["qwen25_7b_none_128k"].met  # 55.1 > 31.4; 31.4 < 85.6
    assert by["xiong2023_abf_ft32k_ppl"].met  # perplexity 6.323 <= 6.548: lower is better
    assert not by["ruler_llama31_8b_effective"].met  # effective 32K < the 128K target
    assert by["yarn2023_7b_s16_passkey_64k"].met is None
    assert by["lu2024_pi_ft32k_16k"].baseline == 80.94 and not by["lu2024_pi_ft32k_16k"].met  # Lu's own Llama-2 at 4K


def test_expectation_is_the_median_with_a_leave_one_source_out_error():
    e = E.expect("yarn", "training_free", 4.0)
    rows = [r for r in T.rows() if r.id in e.rows]
    assert all(r.metric == "ruler" and 2 <= r.extension <= 8 and r.family == "yarn" for r in rows)
    assert e.median == statistics.median(r.value for r in rows)
    errs = [abs(r.value - statistics.median([o.value for o in rows if E.paper(o) != E.paper(r)])) for r in rows]
    assert e.loso_error == pytest.approx(sum(errs) / len(errs), rel=1e-12)
    one = E.expect("base", "training_free", 8.0)
    assert len(one.sources) == 1 and one.loso_error is None and "unknown (one source)" in one.line()
    assert E.expect("pi", "training_free", 1000.0).line().startswith("no evidence")
    with pytest.raises(ValidationError, match="family"):
        E.expect("warp", "training_free", 2.0)


def test_short_context_cost_is_quoted_where_the_table_reports_one():
    e = E.expect("yarn", "fine_tuned", 16.0)
    assert ("MMLU", -1.3) in {(m, round(c, 6)) for m, c, _ in e.short_context}  # YaRN s=16: Llama 2 7B 43.8 -> 42.5
    assert "short-context cost where reported: MMLU -1.3" in e.line()
    assert not E.expect("base", "fine_tuned", 28.0).short_context  # Code Llama's MMLU drop is its code training's


def test_fisher_greater_is_scipys_one_sided_fisher():
    for t in itertools.product(range(4), repeat=4):
        if sum(t):
            tab = [[t[0], t[1]], [t[2], t[3]]]
            assert P.fisher_greater(tab) == pytest.approx(stats.fisher_exact(tab, alternative="greater").pvalue, abs=1e-12)


def _rows(n_fail_below, n_fail_meets, n_pass_below, n_pass_meets, regime):
    spec = [(False, False)] * n_fail_below + [(False, True)] * n_fail_meets + [(True, False)] * n_pass_below + \
           [(True, True)] * n_pass_meets
    return [{"id": f"x{i}", "regime": regime, "met": met, "men": ok, "liu": ok, "phase": ok} for i, (ok, met) in
            enumerate(spec)]


def test_a_test_whose_margins_cannot_reach_alpha_decides_nothing():
    t = P.fisher("men", "training_free", _rows(6, 0, 0, 0, "training_free"))  # every row fails and is below
    assert t.accuracy == 1.0 and not t.can_reject and "decides nothing" in t.line()
    ev = CE.check("men", None, rows=_rows(6, 0, 0, 0, "training_free") + _rows(6, 0, 0, 6, "fine_tuned"))
    assert ev.verdict == "inconclusive" and "training-free" in ev.summary and "decides nothing" in ev.summary


@pytest.mark.parametrize("check", P.CHECKS)
def test_a_planted_perfect_predictor_holds_and_a_reversed_one_is_refuted(check):
    good = _rows(8, 0, 0, 8, "training_free") + _rows(8, 0, 0, 8, "fine_tuned")
    assert CE.check(check, None, rows=good).verdict == "holds"
    bad = _rows(0, 8, 8, 0, "training_free") + _rows(0, 8, 8, 0, "fine_tuned")
    assert CE.check(check, None, rows=bad).verdict == "refuted"


def test_the_committed_outcomes_are_what_plans_analyse_gives_now():
    fresh = json.loads(json.dumps(P.outcomes(analyse)))
    assert fresh == P.committed(), "stale: run python tools/evidence_checks.py --write"


def test_a_planted_men_column_error_flips_the_outcomes(monkeypatch):
    rows = [r for r in P.evaluable() if r.id == "xiong2023_rope_ft32k_ppl" or r.regime == "fine_tuned"][:4]
    real = K.rotary_column
    monkeypatch.setattr(K, "rotary_column", lambda w, n, f=1.0, **kw: abs(real(w, n, f, **kw)) + 1.0)
    assert all(o["men"] for o in P.outcomes(analyse, rows))  # a column that never goes negative passes everywhere
