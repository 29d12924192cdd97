"""du2026 (arXiv 2605.15514): the failure probability of token relevance under RoPE, its limit 1/2 and the base
trade-off, with the reconstructed content model; Sheppard's formula checked by sampling; plants through the ladder."""

from __future__ import annotations

import math

import numpy as np
import pytest

from petheory.encodings import rotary
from proofs_check.engine import get
from proofs_check.runner import check_claim


def record(claim_id):
    return check_claim(get(claim_id), profile="quick", seed=0)


@pytest.mark.parametrize("cid", ["du2026.token_consistency_fails", "du2026.base_helps_tokens"])
def test_verdicts(cid):
    rec = record(cid)
    assert rec["verdict"] == "holds" and rec["evidence"] == "statistical" and rec["paper_status"] == "unspecified"


def test_sheppard_probability_matches_sampled_queries():
    # one v and one offset: sample q and count the swaps of sign(q.R_m v) vs sign(q.R_n v); error ~ 1/sqrt(2e5)
    rng = np.random.default_rng(1)
    d, base, delta = 16, 100.0, 7
    v = rng.standard_normal(d)
    table = rotary.rope(delta + 1, d, base=base)
    a, b = table.apply_at(v[None], 0)[0], table.apply_at(v[None], delta)[0]
    q = rng.standard_normal((200000, d))
    sampled = np.mean(np.sign(q @ a) != np.sign(q @ b))
    e = (v[0::2] ** 2 + v[1::2] ** 2) / (v ** 2).sum()
    rho = (e * np.cos(delta * rotary.rope_frequencies(d, base=base))).sum()
    assert sampled == pytest.approx(math.acos(rho) / math.pi, abs=5 / math.sqrt(200000))


def test_planted_frozen_ladder_never_approaches_one_half(monkeypatch):
    real = rotary.rope_frequencies
    monkeypatch.setattr(rotary, "rope_frequencies", lambda *a, **k: 0.0 * real(*a, **k))
    rec = record("du2026.token_consistency_fails")
    assert rec["verdict"] == "refuted" and max(rec["details"]["failure_probability"]) < 1e-6


def test_planted_ladder_that_ignores_its_base(monkeypatch):
    real = rotary.rope_frequencies
    monkeypatch.setattr(rotary, "rope_frequencies", lambda d, base=10000.0, **k: real(d, base=10000.0, **k))
    assert record("du2026.base_helps_tokens")["verdict"] == "refuted"
