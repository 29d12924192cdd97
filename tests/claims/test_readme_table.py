"""The README's verdict table is generated, and a stale one fails here.

The tests read the records of the test run's one quick check of every built-in claim (the session fixture
``catalogue_records`` of tests/conftest.py: in-process, as a fresh clone, computed once and shared by every
worker): the README block, the contract fields every claim carries, and the verdicts issue 11 asks for.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from proofs_check import verdict_table as readme_table
from proofs_check.engine import EVIDENCE, PAPER_STATUSES

#: Built-in claims whose source names no status ("our analysis shows", a summary's key result): 'unspecified'
#: rather than an invented one (issue 21).
_NO_STATUS_IN_SOURCE = ("chen2025.pe_no_new_capability", "chen2025.lrc_characterises_lg", "li2025.ua_no_extrapolation",
                        "su2021.abel_bound", "su2021.long_term_decay", "nakanishi2025.ssmax_prevents_fading")


@pytest.fixture(scope="module")
def by_id(catalogue_records):
    return {r["id"]: r for r in catalogue_records}


def test_readme_verdict_table_is_up_to_date(catalogue_records):
    block = readme_table.readme_block(readme_table.VERDICTS.read_text())
    fresh = readme_table.render(catalogue_records)
    assert block == fresh, "docs/verdicts.md's table is stale: run `python -m proofs_check.verdict_table --write`"
    counts = readme_table.readme_block(readme_table.README.read_text(), readme_table.COUNTS_BEGIN, readme_table.COUNTS_END)
    assert counts == readme_table.counts_line(fresh), "README.md's verdict counts are stale: run the same command"


def test_every_claim_carries_paper_status_and_evidence(catalogue_records):
    for r in catalogue_records:
        if r["id"] in _NO_STATUS_IN_SOURCE or r["paper_status"] == "unspecified":
            assert r["paper_status"] == "unspecified" and "names no" in r["source"], r["id"]
        else:
            assert r["paper_status"] in PAPER_STATUSES, r["id"]
        if r["verdict"] != "skipped":
            assert r["evidence"] in EVIDENCE, r["id"]
        if r["evidence"] == "definitional":
            assert r["evidence_note"], r["id"]
        assert isinstance(r["readings"], list)
        for x in r["readings"]:
            assert x["verdict"] in ("holds", "refuted", "inconclusive", "skipped") and x["evidence"] in EVIDENCE


def test_margins_are_never_denormal(catalogue_records):
    tiny = np.finfo(float).tiny
    for r in catalogue_records:
        for m in [r["margin"]] + [x["margin"] for x in r["readings"]]:
            assert not isinstance(m, float) or m == 0.0 or abs(m) >= tiny, (r["id"], m)


@pytest.mark.parametrize("claim_id, verdict, readings", [
    ("cirrincione2026.hellinger_mds_optimal", "depends", {"stress": "refuted", "strain": "holds"}),
    ("cirrincione2026.necessity", "depends", {"mask_is_not_a_signal": "refuted", "mask_is_a_signal": "holds"}),
    ("cirrincione2026.exact_reproduction_impossible", "depends", {"hellinger_chordal": "refuted",
                                                                  "fisher_rao_geodesic": "holds"}),
    ("cirrincione2026.minimal_parametrisation", "depends", {"fewer_than_nd": "refuted", "representable": "holds"}),
    ("gu2025.sinusoidal_scores_toeplitz", "depends", {"with_projections": "refuted", "identity": "holds"}),
    ("gu2025.normalisation_keeps_toeplitz", "depends", {"row_softmax": "refuted", "scalar_1_over_sqrt_d": "holds"}),
    ("gu2025.representation_decomposition", "depends", {"input_layer": "holds", "after_attention": "refuted"}),
    ("li2025.wavelet_atom_decay", "depends", {"uniform_c": "refuted", "uniform_c_paper_amplitude": "holds", "c_depends_on_jmax": "holds"}),
    ("li2025.sinusoidal_periodic_ambiguity", "depends", {"near_repeat": "refuted", "slowest_period": "holds"}),
    ("gu2025.schur_modulus", "vacuous", {"psd_equal_spectra": "holds", "unit_diagonal": "refuted", "band_average": "holds"}),
    ("gu2025.spectral_contraction", "vacuous", {"rope_single_band": "refuted", "unit_diagonal": "refuted", "band_average": "refuted"}),
    ("gu2025.gpp_toeplitz", "depends", {"relative_bias": "holds", "sinusoidal": "holds", "other_absolute": "refuted"}),
])
def test_ambiguous_statements_are_reported_per_reading(by_id, claim_id, verdict, readings):
    r = by_id[claim_id]
    assert r["verdict"] == verdict and {x["name"]: x["verdict"] for x in r["readings"]} == readings


#: What a claim's own text says when it knows its premise is empty: such a claim must declare that premise, so that
#: the rule below reaches it (gu2025.spectral_contraction said so in words and was reported refuted, issue 57).
_SAYS_NO_OBJECT_SATISFIES = re.compile(r"\bno (object|\$?\w+\$?) satisfies|\bno \w+ (with [\w -]+ )?(is|are) positive definite", re.I)


def test_every_claim_whose_premise_no_object_satisfies_is_vacuous(by_id):
    """docs/verdicts.md's rule, applied mechanically to every built-in claim: run each declared premise's
    satisfiability check (the witness search and its proof) on its own, and require `vacuous` exactly where it
    fails; a claim whose text says its premise is empty must declare it."""
    from proofs_check import engine, runner

    unsatisfiable = set()
    for c in engine.all_claims():
        text = " ".join(filter(None, (c.statement, c.reconstruction)))
        if c.reading_of is None and _SAYS_NO_OBJECT_SATISFIES.search(text):
            assert c.premise is not None, f"{c.id} says no object satisfies its premise but declares none"
        if c.premise is not None and not runner._check_premise(c, profile="quick", seed=0)["satisfiable"]:
            unsatisfiable.add(c.id)
    assert {"gu2025.schur_modulus", "gu2025.spectral_contraction"} <= unsatisfiable
    assert {i for i, r in by_id.items() if r["verdict"] == "vacuous"} == unsatisfiable


def test_assumptions_and_interpretations_are_never_refuted(catalogue_records):
    for r in catalogue_records:
        if r["paper_status"] in ("assumption", "interpretation"):
            assert r["verdict"] != "refuted", r["id"]


def test_no_two_claims_are_refuted_by_the_same_counterexample(catalogue_records):
    seen = {}
    for r in catalogue_records:
        found = [r["counterexample"]] if r["verdict"] == "refuted" else [
            x["counterexample"] for x in r["readings"] if x["verdict"] == "refuted"]
        for ce in found:
            key = json.dumps(ce, sort_keys=True)
            assert key not in seen, (r["id"], seen.get(key))
            seen[key] = r["id"]


def test_the_generator_rewrites_only_its_block_and_only_when_asked(catalogue_records, tmp_path, capsys):
    doc = tmp_path / "check.json"
    doc.write_text(json.dumps({"claims": catalogue_records}))
    page, readme = tmp_path / "verdicts.md", tmp_path / "README.md"
    page.write_text(f"intro\n\n{readme_table.BEGIN}\nold table\n{readme_table.END}\n\nrest\n")
    readme.write_text(f"top\n{readme_table.COUNTS_BEGIN}\nold counts\n{readme_table.COUNTS_END}\nend\n")
    files = ["--page", str(page), "--readme", str(readme)]
    assert readme_table.main(["--from", str(doc), "--check", *files]) == 1
    assert "old table" in page.read_text() and "old counts" in readme.read_text()  # --check never writes
    assert readme_table.main(["--from", str(doc), "--write", *files]) == 0
    text = page.read_text()
    assert text.startswith("intro\n\n") and text.endswith("\n\nrest\n") and "old table" not in text
    counts = readme.read_text()
    assert "old counts" not in counts and "docs/verdicts.md" in counts and counts.endswith("\nend\n")
    assert readme_table.main(["--from", str(doc), "--check", *files]) == 0
    assert "up to date" in capsys.readouterr().out


def test_rendered_numbers_do_not_depend_on_the_last_bits():
    """Machines of one kind differ in libm/SIMD paths: 3.801440241004919 on one, 3.8014402410049195 on another
    (li2025.wavelet_atom_decay's counterexample). The committed table must render both the same."""
    def rec(beta):
        return {"id": "x.y", "kind": "asymptotic", "verdict": "refuted", "paper_status": "proposition", "evidence": "statistical",
                "readings": [{"name": "uniform_c", "verdict": "refuted", "counterexample": {"beta": beta, "n": 3}, "summary": ""}],
                "summary": f"margin {beta * 1e-3}"}
    a, b = readme_table.render([rec(3.801440241004919)]), readme_table.render([rec(3.8014402410049195)])
    assert a == b and "3.80144" in a and "3.801440241" not in a


def test_stable_text_rounds_long_decimals_and_leaves_short_ones_and_versions():
    assert readme_table.stable_text("beta 3.8014402410049195, n 12, p 0.0178, v1.2345678") == "beta 3.80144, n 12, p 0.0178, v1.2345678"


@pytest.mark.parametrize("claim_id, verdict, setup", [
    ("li2025.table5_running_sum", "not_reproduced", "reconstruction"),  # baselines far from the paper's
    ("cirrincione2026.alibi_lowest_stress", "inconclusive", "substitute"),  # CPython's documentation, not SST-2/IMDB
    ("gu2025.task2_positional_bias_hurts", "inconclusive", "substitute"),  # small preset: a scaled-down substitute
    ("chen2025.learned_relation_pe", "inconclusive", "reconstruction"),  # per seed: level with NoPE on parity
    ("chen2025.learned_relation_pe__corrected", "inconclusive", "reconstruction"),  # seeds 3-5 named after training (git)
])
def test_empirical_verdicts_claim_no_more_than_their_evidence(by_id, claim_id, verdict, setup):
    r = by_id[claim_id]
    assert r["verdict"] == verdict and r["setup"] == setup


def test_the_table_shows_setup_calibration_and_exploratory(catalogue_records):
    table = readme_table.render(catalogue_records)
    row = next(line for line in table.splitlines() if "`li2025.table5_running_sum`" in line)
    assert "| reconstruction | **not_reproduced** |" in row and "calibration (ours vs paper" in row
    assert "sinusoidal 0.2855 vs 0.0423 (out)" in row
    row = next(line for line in table.splitlines() if "`chen2025.learned_relation_pe__corrected`" in line)
    assert "**inconclusive** (exploratory)" in row and "is not an ancestor of the commit the records" in row


def test_a_cut_cell_never_leaves_a_formula_open():
    """A summary's ``$...$`` renders as math in the docs (MyST dollarmath); a cut inside one would leave a lone ``$``."""
    text = "x" * 150 + " then $\\min B_m = -1.02$ at m = 128915"
    cell = readme_table._cell(text, 170)
    assert cell.endswith(" …") and cell.count("$") == 0 and len(cell) <= 170
    whole = readme_table._cell("a" * 100 + " $N^{-0.95}$ and more words after it" * 3, 170)
    assert whole.count("$") % 2 == 0 and "$N^{-0.95}$" in whole
    code = readme_table._cell("y" * 150 + " `running_sum/learned:n_max=50,beyond=clamp` 1.000", 170)
    assert code.count("`") == 0 and code.endswith(" …")
