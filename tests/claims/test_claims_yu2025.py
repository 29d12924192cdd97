"""yu2025 (ComRoPE) Theorem 1: commuting angle matrices <=> a relative (RoPE) encoding, checked through the library's
M-RoPE rotation, ComRoPE-LD's construction and LieRE-type generators; planted violations flip it."""

from __future__ import annotations

import numpy as np

from petheory.encodings import rotary
from proofs_check.claims import yu2025 as Y
from proofs_check.engine import get
from proofs_check.runner import check_claim


def verdict(claim_id="yu2025.commuting_iff_relative"):
    return check_claim(get(claim_id), profile="quick", seed=0)


def test_holds_on_the_library_and_both_directions():
    rec = verdict()
    assert rec["verdict"] == "holds" and rec["paper_status"] == "theorem"
    base = {"family": "qwen3_vl", "x": [3, 5, 60], "y": [40, 2, 7], "shift": [10, 20, 3], "scale": 1.0, "seed": 1}
    for kind in ("mrope", "comrope_ld", "noncommuting"):
        assert Y.commuting_iff_relative({**base, "kind": kind}) <= 0


def test_a_non_commuting_pair_breaks_the_rope_equation():
    # the planted violation the theorem predicts: two LieRE-type generators that do not commute, in place of
    # ComRoPE-LD's linearly dependent ones, give R(x)^T R(y) != R(y - x)
    rng = np.random.default_rng(0)
    gens = [Y._skew(rng, 8, 0.05) for _ in range(3)]
    assert np.abs(gens[0] @ gens[1] - gens[1] @ gens[0]).max() > 1e-3
    err, tol = Y.rope_equation_defect(gens, [3, 5, 60], [40, 2, 7])
    assert err > 1e6 * tol
    ld = Y.comrope_ld_generators(0, 0.05)
    assert np.abs(ld[0] @ ld[1] - ld[1] @ ld[0]).max() < 1e-15  # the construction commutes
    err, tol = Y.rope_equation_defect(ld, [3, 5, 60], [40, 2, 7])
    assert err <= tol


def test_the_library_mrope_bands_follow_one_axis_each():
    p = Y.mrope_layer("qwen2_vl")
    axes = np.array([p.mrope.axes.index(a) for a in p.mrope.band_axes()])
    assert axes.size == p.d // 2 and set(axes) == {0, 1, 2}


def test_planted_rotation_not_linear_in_the_position(monkeypatch):
    real = rotary.RotaryTable.apply
    monkeypatch.setattr(rotary.RotaryTable, "apply",
                        lambda self, x: real(rotary.RotaryTable(self.angles * (1 + 1e-3 * self.angles), self.d, self.pairing), x))
    case = {"kind": "mrope", "family": "qwen2_vl", "x": [3, 5, 60], "y": [40, 2, 7], "shift": [10, 20, 3], "scale": 1.0,
            "seed": 1}
    assert Y.commuting_iff_relative(case) > 0
    rec = verdict()
    assert rec["verdict"] == "refuted" and rec["counterexample"]["kind"] == "mrope"


def test_planted_exponential_that_ignores_the_commutator(monkeypatch):
    # an 'expm' for which e^{At} e^{Bt} = e^{(A+B)t} always (here the identity): the only-if direction then sees no
    # difference where the theorem predicts t^2 [A, B] / 2, and says so
    monkeypatch.setattr(Y, "expm", lambda M: np.eye(len(M)))
    case = {"kind": "noncommuting", "family": "qwen2_vl", "x": [0, 0, 0], "y": [0, 0, 0], "shift": [0, 0, 0],
            "scale": 1.0, "seed": 1}
    assert Y.commuting_iff_relative(case) > 0
