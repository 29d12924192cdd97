"""men2024.bound_approximates_real_context: RULER's table against Men's bound, its pre-registered rule, and plants.

The claim is empirical on a substitute setup: whatever the statistic decides, the runner reports at most
``inconclusive`` and names the rule. The plants go through the data the checker reads
(``proofs_check.claims._ruler_data``): a table whose effective lengths follow Men's bound makes the statistic
decide ``holds``, one where they run against it ``refuted``; both are then lowered to inconclusive.
"""

from __future__ import annotations

import pytest

from proofs_check.claims import _ruler_data as data
from proofs_check.claims import men2024_ruler as m
from proofs_check.engine import get
from proofs_check.runner import check_claim


def verdict():
    return check_claim(get("men2024.bound_approximates_real_context"), profile="quick", seed=0)


def test_every_ruler_row_is_compared_or_excluded_with_a_reason():
    for name, hf, _, _ in data.ROWS:
        key = hf or name
        assert (key in data.CONFIGS) != (key in data.EXCLUDED), key
        assert key in data.CONFIGS or data.EXCLUDED[key]
    assert all(c["source"] for c in data.CONFIGS.values())
    assert data.SOURCE["commit"].startswith("227b38e6")


def test_lengths_parse_as_the_table_prints_them():
    assert [m.length(t) for t in ("32K", "200K", "1M", ">128k", "<4K")] == [32768, 204800, 1048576, 262144, 2048]
    with pytest.raises(ValueError):
        m.length("128 tokens")


def test_the_claim_is_at_most_inconclusive_and_reports_its_statistic():
    rec = verdict()
    assert rec["verdict"] == "inconclusive" and rec["setup"] == "substitute"
    by = {x["name"]: x for x in rec["readings"]}
    n = len([r for r in data.ROWS if r[1] in data.CONFIGS and r[3]])
    assert by["tracks"]["cases"] == by["upper_bound"]["cases"] == n >= 20  # issue 57: every public config read
    assert "Spearman rho" in by["tracks"]["summary"] and "Fisher" in by["tracks"]["summary"]
    assert "sign test" in by["upper_bound"]["summary"] and "smallest c" in by["upper_bound"]["summary"]


def test_mixtral_8x7b_reaches_its_claim_so_the_table_has_a_model_that_is_not_short():
    rows = {r["model"]: r for r in m.comparison()}
    mix = rows["Mixtral-8x7B (12.9B/46.7B)"]
    assert not mix["short"] and mix["fails_at_C"] and mix["config"] == "recalled"
    assert sum(not r["short"] for r in rows.values()) >= 4  # Qwen3-14B/32B/235B (>128K) too


def test_a_fisher_table_with_an_empty_column_cannot_reject_and_decides_nothing():
    # every model fails Men at C (RULER's table as compared): p would be 1 whatever the data, so it is None and the
    # conjunction cannot hold even where Spearman rejects; the count is reported as what it is
    st = m.statistics(m.comparison())
    assert st["p_fisher"] is None and st["fisher_cannot_reject"] == ["no model passes Men at C"]
    assert m.decide({**st, "holm": {"spearman": 1e-9, "fisher": None}, "p_spearman_negative": 1.0})[0] == "inconclusive"
    rec = verdict()
    tracks = next(x for x in rec["readings"] if x["name"] == "tracks")
    assert "cannot reject" in tracks["summary"] and "no better than every model failing" in tracks["summary"]


@pytest.mark.parametrize("scale, want", [(8.0, "refuted"), (0.25, "holds")])
def test_the_one_sided_bound_reading_can_reject_both_ways(monkeypatch, scale, want):
    # plant: RULER's effective lengths moved to a multiple of each model's M (through the table the checker reads)
    rows = {r["hf"]: r for r in m.comparison()}
    planted = []
    for name, hf, claimed, eff in data.ROWS:
        if hf in rows and rows[hf]["M"] is not None:
            eff = f"{max(1, int(scale * rows[hf]['M']) // 1024)}K"
        planted.append((name, hf, claimed, eff))
    monkeypatch.setattr(data, "ROWS", tuple(planted))
    from proofs_check.engine import Context
    import numpy as np
    ev = m.upper_bound(Context(profile="quick", budget=1, rng=np.random.default_rng(0), seed=0, alpha=0.05))
    assert ev.verdict == want and ev.p_value < 0.05


def test_recalled_configs_load_in_transformers_own_config_classes():
    from transformers import CONFIG_MAPPING

    recalled = {hf: c for hf, c in data.CONFIGS.items() if c.get("recalled")}
    assert {"mistralai/Mixtral-8x7B-instruct-v0.1", "meta-llama/Meta-Llama-3.1-70B-Instruct", "Qwen/Qwen3-235B-A22B",
            "mistralai/Mistral-Large-Instruct-2411"} <= set(recalled)
    for hf, c in recalled.items():
        assert "recalled" in c["source"] and "not read here" in c["source"], hf
        fields = {k: v for k, v in c["config"].items() if k != "model_type"}
        CONFIG_MAPPING[c["config"]["model_type"]](**fields)  # the family's class accepts every field


def _synthetic(monkeypatch, effective_follows_bound: bool):
    """Plain-RoPE models (d = 64) whose bases give Men's supported context M from 297 to beyond 4 x 32K, all claimed
    at 32K (four fail Men there, four pass); effective lengths that follow M (or run against it), so that with
    the order kept the four failing ones fall short (Fisher's p = 1/70)."""
    bases = [2e3, 2e4, 1e5, 1e6, 1e7, 3e7, 1e8, 3e8]
    rows, configs = [], {}
    for i, b in enumerate(bases):
        hf = f"plant/model-{i}"
        configs[hf] = {"config": {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2,
                                  "num_attention_heads": 8, "num_key_value_heads": 8, "max_position_embeddings": 4096,
                                  "rope_theta": b}, "source": "planted"}
        rows.append([f"m{i}", hf, "32K", None])
    ms = [m.supported(c["config"], 32768)["M"] for c in configs.values()]
    order = sorted(range(len(rows)), key=lambda i: (ms[i] is None, ms[i] or 0))
    effs = ["1K", "2K", "4K", "8K", "32K", "64K", "128K", ">128K"]
    for rank, i in enumerate(order if effective_follows_bound else order[::-1]):
        rows[i][3] = effs[rank]
    monkeypatch.setattr(data, "ROWS", tuple(tuple(r) for r in rows))
    monkeypatch.setattr(data, "CONFIGS", configs)
    return ms


def test_planted_table_that_follows_the_bound_decides_holds_then_is_lowered(monkeypatch):
    ms = _synthetic(monkeypatch, True)
    assert len(set(ms)) == len(ms) and sum(x is not None and x < 32768 for x in ms) == 4  # a strict ranking
    rows = m.comparison()
    assert m.decide(m.statistics(rows))[0] == "holds"
    rec = verdict()
    tracks = next(x for x in rec["readings"] if x["name"] == "tracks")
    assert rec["verdict"] == tracks["verdict"] == "inconclusive"
    assert tracks["summary"].startswith("holds -> inconclusive: substitute setup")


def test_planted_table_against_the_bound_decides_refuted_then_is_lowered(monkeypatch):
    _synthetic(monkeypatch, False)
    assert m.decide(m.statistics(m.comparison()))[0] == "refuted"
    rec = verdict()
    tracks = next(x for x in rec["readings"] if x["name"] == "tracks")
    assert rec["verdict"] == tracks["verdict"] == "inconclusive"
    assert tracks["summary"].startswith("refuted -> inconclusive: substitute setup")
