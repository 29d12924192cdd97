"""petheory.lengthgen: POLA dictionaries, targets, LRC certificates, SRC (chen2025 reconstruction)."""

from __future__ import annotations

import numpy as np
import pytest

from petheory import encodings as enc
from petheory import lengthgen as lg

EPS = np.finfo(np.float64).eps


@pytest.mark.parametrize("name", lg.TARGETS)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_targets_have_consistent_shapes_and_specified_rows(name, n):
    t = lg.target(name, n)
    L = t.length
    assert t.T.shape == (L, L) and t.rows.shape == (L,) and t.segment_start.shape == (L,)
    assert np.all(t.T[~t.rows] == 0)  # unspecified rows carry nothing
    assert np.all(np.triu(t.T, 1) == 0)  # every target is causal: a row only reads earlier positions


def test_copy_target_gathers_item_k_at_answer_step_k():
    t = lg.target("copy", 3)  # BOS x1 x2 x3 SEP y1 y2
    assert [int(np.argmax(t.T[q])) for q in (4, 5, 6)] == [1, 2, 3]
    assert list(lg.hint_positions(t, "shift")) == [0, 1, 2, 3, 0, 1, 2]


def test_interp_hint_puts_every_instance_on_the_same_span():
    for n in (2, 5, 9):
        t = lg.target("reverse", n)
        assert lg.hint_positions(t, "interp", ref_scale=8.0)[t.scale] == pytest.approx(8.0)


@pytest.mark.parametrize("bad, exc", [
    (lambda: lg.target("copy", 0), ValueError),
    (lambda: lg.target("copy", 2.5), TypeError),
    (lambda: lg.target("sort", 3), ValueError),
    (lambda: lg.pola_pe("nope"), ValueError),
    (lambda: lg.pola_pe("zzz"), ValueError),
    (lambda: lg.pola_pe(3), TypeError),
    (lambda: lg.lrc("rope", "copy", 0), ValueError),
    (lambda: lg.lrc("sinusoidal", "copy", 4, hint="interp"), ValueError),
    (lambda: lg.check_target(lg.Target("x", 2, np.zeros((3, 3)), np.ones(2, bool), np.zeros(3), 2)), ValueError),
    (lambda: lg.check_target(np.eye(3)), TypeError),
    (lambda: lg.pola_output(np.eye(3), np.ones((4, 2)), np.ones((2, 2))), ValueError),
])
def test_bad_input_raises_one_clear_error(bad, exc):
    with pytest.raises(exc):
        bad()


def test_rotary_pola_matches_rotated_query_key_products():
    # A[i, j] = q^T R_{j-i} k = tr(Q R_{j-i}) with Q = k q^T: the POLA features must reproduce it.
    n, d = 6, 8
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(d), rng.standard_normal(d)
    table = enc.rope(n, d)
    direct = np.array([[table.apply_at(q[None], i)[0] @ table.apply_at(k[None], j)[0] for j in range(n)] for i in range(n)])
    mode, F = lg.basis("rope", np.arange(n, dtype=float))
    X = F.reshape(n * n, -1)
    theta, *_ = np.linalg.lstsq(X, direct.ravel(), rcond=None)
    assert np.abs(X @ theta - direct.ravel()).max() <= 50 * n * d * EPS * np.abs(direct).max()


def test_absolute_pola_is_phi_q_phi_transpose():
    n, d = 5, 4
    rng = np.random.default_rng(1)
    Q = rng.standard_normal((d, d))
    phi = enc.sinusoidal(n, d)
    A = lg.pola_matrix(lg.pola_pe("sinusoidal", d=d), Q.ravel(), np.arange(n, dtype=float), masked=False)
    assert np.allclose(A, phi @ Q @ phi.T, rtol=0, atol=10 * d * EPS * np.abs(phi @ Q @ phi.T).max())


def test_keyed_lrc_is_exact_for_relative_copy_with_shift_hint():
    curve = [c.value for c in lg.lrc_curve("relative", "copy", [2, 5, 9], hint="shift")]
    assert curve == [1.0, 1.0, 1.0]  # one offset serves every size
    assert [c.value for c in lg.lrc_curve("learned", "copy", [2, 5, 9], hint="shift")] == [2.0, 5.0, 9.0]
    assert lg.generalises("relative", "copy", 4, 9, hint="shift")[0]
    assert not lg.generalises("learned", "copy", 4, 9, hint="shift")[0]


def test_lrc_is_infinite_without_a_hint_when_the_offset_depends_on_n():
    r = lg.lrc("relative", "copy", 5)
    assert r.value == np.inf and r.realisation.residual > 1e6 * r.realisation.residual_tol


def test_dense_lrc_reports_rank_and_certificates():
    r = lg.lrc("rope", "shift", 6, masked=True)
    assert r.realisation.rank <= 8
    d = r.as_dict()
    assert {"residual", "residual_tol", "rank_gap", "rank_tol"} <= set(d)


def test_fire_is_registered_and_seeded():
    assert "fire" in enc.available("bias")
    a, b = enc.fire(6, seed=3), enc.fire(6, seed=3)
    assert np.array_equal(a, b) and not np.array_equal(a, enc.fire(6, seed=4))
    x = enc.fire_input(np.arange(6.0), np.arange(6.0))
    assert np.all(np.abs(np.tril(x)) <= 1.0)  # progressive interpolation keeps the causal inputs in [0, 1]


def test_span_dimension_of_onehot_is_every_masked_matrix():
    assert lg.span_dimension("learned", 5, masked=True) == 15
    assert lg.span_dimension("learned", 5, masked=False) == 25
    assert lg.span_dimension("relative", 5, masked=True) == 5


def test_entropy_rank_counts_equal_directions():
    assert lg.entropy_rank(np.ones((4, 3))) == pytest.approx(1.0)
    assert lg.entropy_rank(np.eye(4)) == pytest.approx(4.0)


def test_src_is_one_for_a_head_with_one_relation_at_every_step():
    B, T = 3, 8
    P = np.zeros((B, 1, T, T))
    for q in range(T):
        P[:, 0, q, max(q - 2, 0)] = 1.0  # always two tokens back
    assert lg.src([P], np.arange(3, 8)) == pytest.approx(1.0)
    P2 = np.zeros((B, 1, T, T))
    for q in range(T):
        P2[:, 0, q, 0] = 1.0  # always the first token: the offset drifts with the step
    assert lg.src([P2], np.arange(3, 8)) > 4.0
    assert lg.src_invariance(1.0, 1.2, 0.25) == (True, pytest.approx(0.2))


@pytest.mark.parametrize("argv", [
    ["lrc", "--pe", "nope", "--target", "copy"],
    ["lrc", "--pe", "rope", "--target", "copy", "--lengths", "0"],
    ["lrc", "--pe", "rope", "--target", "sort"],
    ["lrc", "--pe", "sinusoidal", "--target", "copy", "--hint", "interp"],
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, capsys):
    from petheory.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("petheory: error:")


def test_cli_lrc_prints_the_curve(capsys):
    from petheory.cli import main

    assert main(["lrc", "--pe", "relative", "--target", "copy", "--hint", "shift", "--lengths", "2", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("LRC=  1.0") == 2


def test_cli_lrc_prints_each_point_s_summary_line(capsys):
    from petheory.cli import main

    assert main(["lrc", "--pe", "rope", "--target", "copy", "--lengths", "2", "4"]) == 0
    curve = lg.lrc_curve("rope", "copy", [2, 4])
    assert capsys.readouterr().out == "".join(c.summary_line() + "\n" for c in curve)
    assert curve[0].summary_line().startswith("N=  2  LRC=  inf  certified=")
