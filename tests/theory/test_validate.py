"""Bad input: every public function of the foundation rejects it with ValueError/TypeError and a
message that names the offending argument (DESIGN.md, Conventions)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from petheory import _validate as v
from petheory import encodings as enc
from petheory.rounding import gamma, tolerance

NAN = float("nan")

# (label, call, exception type, argument name the message must contain)
BAD = [
    # sinusoidal
    ("sinusoidal odd d", lambda: enc.sinusoidal(4, 7), ValueError, "d"),
    ("sinusoidal d=0", lambda: enc.sinusoidal(4, 0), ValueError, "d"),
    ("sinusoidal n<1", lambda: enc.sinusoidal(0, 8), ValueError, "n"),
    ("sinusoidal n negative", lambda: enc.sinusoidal(-3, 8), ValueError, "n"),
    ("sinusoidal float n", lambda: enc.sinusoidal(4.0, 8), TypeError, "n"),
    ("sinusoidal bool n", lambda: enc.sinusoidal(True, 8), TypeError, "n"),
    ("sinusoidal str d", lambda: enc.sinusoidal(4, "8"), TypeError, "d"),
    ("sinusoidal negative base", lambda: enc.sinusoidal(4, 8, base=-1.0), ValueError, "base"),
    ("sinusoidal NaN base", lambda: enc.sinusoidal(4, 8, base=NAN), ValueError, "base"),
    ("sinusoidal unknown layout", lambda: enc.sinusoidal(4, 8, layout="split"), ValueError, "layout"),
    ("sinusoidal negative start", lambda: enc.sinusoidal(4, 8, start=-1), ValueError, "start"),
    # learned / random / nope
    ("learned n<1", lambda: enc.learned(0, 4), ValueError, "n"),
    ("learned n_max<1", lambda: enc.learned(4, 4, n_max=0), ValueError, "n_max"),
    ("learned beyond n_max", lambda: enc.learned(5, 4, n_max=4), ValueError, "n_max"),
    ("learned unknown beyond", lambda: enc.learned(4, 4, beyond="wrap"), ValueError, "beyond"),
    ("learned std<=0", lambda: enc.learned(4, 4, std=0.0), ValueError, "std"),
    ("learned negative seed", lambda: enc.learned(4, 4, seed=-1), TypeError, "seed"),
    ("learned float seed", lambda: enc.learned(4, 4, seed=1.5), TypeError, "seed"),
    ("random negative scale", lambda: enc.random_fixed(4, 4, scale=-1.0), ValueError, "scale"),
    ("random bool d", lambda: enc.random_fixed(4, False), TypeError, "d"),
    ("nope d<1", lambda: enc.nope(3, 0), ValueError, "d"),
    # wavelet
    ("wavelet unknown family", lambda: enc.wavelet(4, 4, wavelet="db99"), ValueError, "wavelet"),
    ("wavelet non-orthogonal family", lambda: enc.wavelet(4, 4, wavelet="bior1.3"), ValueError, "wavelet"),
    ("wavelet family not a str", lambda: enc.wavelet(4, 4, wavelet=["db2"]), ValueError, "wavelet"),
    ("wavelet unknown normalisation", lambda: enc.wavelet(4, 4, normalisation="max"), ValueError, "normalisation"),
    ("wavelet unknown dilation", lambda: enc.wavelet(4, 4, dilation="log"), ValueError, "dilation"),
    ("wavelet resolution too small", lambda: enc.wavelet(4, 4, resolution=2), ValueError, "resolution"),
    ("wavelet n_max<1", lambda: enc.wavelet(4, 4, n_max=0), ValueError, "n_max"),
    ("wavelet_atoms str d", lambda: enc.wavelet_atoms("4", 3), TypeError, "d"),
    ("wavelet_atoms support<1", lambda: enc.wavelet_atoms(4, 0), ValueError, "support"),
    ("wavelet_atoms position without n_max", lambda: enc.wavelet_atoms(4, 3, dilation="position"), ValueError, "n_max"),
    # legendre
    ("legendre n_max<2", lambda: enc.legendre(4, 4, n_max=1), ValueError, "n_max"),
    ("legendre single position", lambda: enc.legendre(1, 4), ValueError, "n_max"),
    ("legendre unknown beyond", lambda: enc.legendre(4, 4, beyond="wrap"), ValueError, "beyond"),
    ("legendre unknown position_map", lambda: enc.legendre(4, 4, position_map="log"), ValueError, "position_map"),
    ("legendre truthy orthonormal", lambda: enc.legendre(4, 4, orthonormal="yes"), TypeError, "orthonormal"),
    ("legendre_positions n_max<2", lambda: enc.legendre_positions([0, 1], 1), ValueError, "n_max"),
    ("legendre_positions NaN pos", lambda: enc.legendre_positions([0.0, NAN], 4), ValueError, "pos"),
    # ALiBi
    ("alibi negative slope", lambda: enc.alibi(4, slope=-0.5), ValueError, "slope"),
    ("alibi NaN slope", lambda: enc.alibi(4, slope=NAN), ValueError, "slope"),
    ("alibi str slope", lambda: enc.alibi(4, slope="0.5"), TypeError, "slope"),
    ("alibi unknown form", lambda: enc.alibi(4, form="causal_mask"), ValueError, "form"),
    ("alibi n<1", lambda: enc.alibi(0), ValueError, "n"),
    ("alibi_slopes zero heads", lambda: enc.alibi_slopes(0), ValueError, "num_heads"),
    ("alibi_slopes float heads", lambda: enc.alibi_slopes(8.0), TypeError, "num_heads"),
    ("alibi_slopes unknown schedule", lambda: enc.alibi_slopes(8, "linear"), ValueError, "schedule"),
    # T5 / relative
    ("t5_bucket float offsets", lambda: enc.t5_bucket(np.array([0.5, 1.0])), TypeError, "offsets"),
    ("t5_bucket num_buckets<2", lambda: enc.t5_bucket(np.arange(3), num_buckets=1), ValueError, "num_buckets"),
    ("t5_bucket no exact bucket", lambda: enc.t5_bucket(np.arange(3), num_buckets=2), ValueError, "num_buckets"),
    ("t5_bucket max_distance<=max_exact", lambda: enc.t5_bucket(np.arange(3), max_distance=8), ValueError, "max_distance"),
    ("t5_bucket truthy bidirectional", lambda: enc.t5_bucket(np.arange(3), bidirectional="no"), TypeError, "bidirectional"),
    ("t5 wrong values length", lambda: enc.t5(4, num_buckets=8, values=np.zeros(7)), ValueError, "values"),
    ("t5 NaN in values", lambda: enc.t5(4, num_buckets=4, values=[0.0, NAN, 1.0, 2.0]), ValueError, "values"),
    ("t5 2-D values", lambda: enc.t5(4, num_buckets=4, values=np.zeros((2, 2))), ValueError, "values"),
    ("t5 str values", lambda: enc.t5(4, num_buckets=4, values="abcd"), TypeError, "values"),
    ("t5 std<=0", lambda: enc.t5(4, std=0.0), ValueError, "std"),
    ("relative negative max_offset", lambda: enc.relative(4, max_offset=-1), ValueError, "max_offset"),
    ("relative wrong values length", lambda: enc.relative(4, max_offset=2, values=np.zeros(4)), ValueError, "values"),
    ("relative inf in values", lambda: enc.relative(4, max_offset=1, values=[0.0, np.inf, 1.0]), ValueError, "values"),
    ("relative complex values", lambda: enc.relative(4, max_offset=1, values=[0j, 1j, 2j]), TypeError, "values"),
    # RoPE
    ("rope odd d", lambda: enc.rope(4, 5), ValueError, "d"),
    ("rope n<1", lambda: enc.rope(0, 4), ValueError, "n"),
    ("rope rotary_dim > d", lambda: enc.rope(4, 8, rotary_dim=10), ValueError, "rotary_dim"),
    ("rope odd rotary_dim", lambda: enc.rope(4, 8, rotary_dim=3), ValueError, "rotary_dim"),
    ("rope unknown pairing", lambda: enc.rope(4, 8, pairing="neox"), ValueError, "pairing"),
    ("rope zero base", lambda: enc.rope(4, 8, base=0.0), ValueError, "base"),
    ("rope_frequencies odd d", lambda: enc.rope_frequencies(7), ValueError, "d"),
    ("RotaryTable.apply wrong shape", lambda: enc.rope(4, 8).apply(np.zeros((4, 6))), ValueError, "x"),
    ("RotaryTable.apply NaN", lambda: enc.rope(2, 2).apply([[0.0, NAN], [1.0, 1.0]]), ValueError, "x"),
    ("RotaryTable.apply_at negative p", lambda: enc.rope(4, 8).apply_at(np.zeros((1, 8)), -1), ValueError, "p"),
    ("RotaryTable.apply_at p past the table", lambda: enc.rope(4, 8).apply_at(np.zeros((1, 8)), 4), ValueError, "p"),
    ("RotaryTable.apply_at wrong width", lambda: enc.rope(4, 8).apply_at(np.zeros((1, 6)), 0), ValueError, "x"),
    ("RotaryTable.matrix p past the table", lambda: enc.rope(4, 8).matrix(9), ValueError, "p"),
    # registry
    ("get unknown encoding", lambda: enc.get("sinusoidall"), ValueError, "encoding"),
    ("info unknown encoding", lambda: enc.info("yarn"), ValueError, "encoding"),
    ("available unknown kind", lambda: enc.available("vector"), ValueError, "kind"),
    ("register unknown kind", lambda: enc.register("x2099", "vector"), ValueError, "kind"),
    ("register empty name", lambda: enc.register("  ", "absolute"), ValueError, "name"),
    ("register existing name", lambda: enc.register("sinusoidal", "absolute")(lambda n, d: None), ValueError, "sinusoidal"),
    # tolerance
    ("tolerance NaN scale", lambda: tolerance(n_ops=4, scale=NAN), ValueError, "scale"),
    ("tolerance negative cond", lambda: tolerance(n_ops=4, scale=1.0, cond=-1.0), ValueError, "cond"),
    ("gamma too many ops", lambda: gamma(10**17), ValueError, "n_ops"),
]


@pytest.mark.parametrize("label,call,exc,arg", BAD, ids=[b[0] for b in BAD])
def test_bad_input_raises_and_names_the_argument(label, call, exc, arg):
    with pytest.raises(exc) as info:
        call()
    assert re.search(rf"(?<![A-Za-z_]){re.escape(arg)}(?![A-Za-z_])", str(info.value)), str(info.value)


def test_unknown_encoding_message_lists_what_is_registered():
    with pytest.raises(ValueError, match="registered: .*sinusoidal"):
        enc.get("nonesuch")


def test_error_messages_are_one_line():
    for _label, call, exc, _arg in BAD:
        with pytest.raises(exc) as info:
            call()
        assert "\n" not in str(info.value)


# ----------------------------------------------------------------------------- the helpers themselves


def test_integer_accepts_numpy_integers_and_rejects_bools_and_floats():
    assert v.integer("n", np.int64(3)) == 3 and type(v.integer("n", np.int32(3))) is int
    for bad in (True, np.bool_(True), 3.0, "3", None):
        with pytest.raises(TypeError, match="n must be an integer"):
            v.integer("n", bad)
    with pytest.raises(ValueError, match="n must be <= 5"):
        v.integer("n", 6, maximum=5)


def test_even_rejects_odd_and_too_small():
    assert v.even("d", 2) == 2
    with pytest.raises(ValueError, match="d must be even"):
        v.even("d", 3)
    with pytest.raises(ValueError, match="d must be >= 2"):
        v.even("d", 0)


def test_real_checks_finiteness_and_sign():
    assert v.real("x", np.float32(0.5)) == 0.5
    with pytest.raises(ValueError, match="x must be finite"):
        v.real("x", math.inf)
    with pytest.raises(ValueError, match="x must be > 0"):
        v.real("x", 0, positive=True)
    with pytest.raises(ValueError, match="x must be >= 0"):
        v.real("x", -1e-300, nonnegative=True)
    with pytest.raises(TypeError, match="x must be a real number"):
        v.real("x", 1j)
    with pytest.raises(TypeError, match="x must be a real number"):
        v.real("x", False)


def test_boolean_rejects_truthy_values():
    assert v.boolean("flag", np.bool_(True)) is True
    for bad in (1, "true", None):
        with pytest.raises(TypeError, match="flag must be True or False"):
            v.boolean("flag", bad)


def test_array_checks_type_dtype_ndim_emptiness_and_finiteness():
    assert v.array("a", [1, 2]).dtype == np.float64
    assert v.array("a", [1, 2j], dtype="any").dtype == np.complex128
    assert v.array("a", [1.0], dtype="complex").dtype == np.complex128
    assert v.array("a", [], nonempty=False).size == 0
    cases = [
        (dict(value="12"), TypeError, "a must be an array"),
        (dict(value=None), TypeError, "a must be an array"),
        (dict(value=np.array(["x"])), TypeError, "a must be numeric"),
        (dict(value=[{}]), TypeError, "a must be numeric"),
        (dict(value=[1j]), TypeError, "a must be real"),
        (dict(value=[[1.0]], ndim=1), ValueError, "a must be 1-D"),
        (dict(value=[1.0], ndim=(2, 3)), ValueError, "a must be 2-D or 3-D"),
        (dict(value=[]), ValueError, "a must not be empty"),
        (dict(value=[1.0, NAN, np.inf]), ValueError, "a must be finite, found 2"),
    ]
    for kw, exc, msg in cases:
        with pytest.raises(exc, match=msg):
            v.array("a", **kw)


def test_square_rejects_rectangles():
    with pytest.raises(ValueError, match="M must be square"):
        v.square("M", np.zeros((2, 3)))


def test_choice_lists_the_choices():
    with pytest.raises(ValueError, match="mode must be one of 'a', 'b', got 'c'"):
        v.choice("mode", "c", ("a", "b"))


def test_generator_is_reproducible_and_validates_seed():
    assert v.generator(7).normal() == np.random.default_rng(7).normal()
    assert v.generator(None).normal() == np.random.default_rng(0).normal()
    g = np.random.default_rng(1)
    assert v.generator(g) is g
    for bad in (-1, 1.0, True, "1"):
        with pytest.raises(TypeError, match="seed"):
            v.generator(bad)


def test_scalar_parses_command_line_values_the_same_everywhere():
    from petheory._validate import scalar

    assert scalar("true") is True and scalar("False") is False
    assert scalar("null") is None
    assert scalar("none") == "none"  # a value of wavelet's normalisation, not None
    assert scalar("3") == 3 and isinstance(scalar("3"), int)
    assert scalar("0.5") == 0.5
    assert scalar(" gu2025 ") == "gu2025"
