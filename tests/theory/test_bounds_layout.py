"""petheory.bounds' layout: old import paths keep working (same objects), theory imports no torch."""

import subprocess
import sys

from petheory import bounds, fits


def test_fits_are_reexported_from_bounds_as_the_same_objects():
    assert bounds.fit_line is fits.fit_line
    assert bounds.fit_power_law is fits.fit_power_law
    assert bounds.LineFit is fits.LineFit


def test_importing_bounds_and_fits_does_not_import_torch():
    code = "import sys, petheory.bounds, petheory.fits; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_table2_rows_are_registered_encodings_with_a_cited_formula():
    from petheory import encodings as enc

    for name, row in bounds.TABLE2.items():
        enc.info(name)  # registered
        assert row.__doc__ and ("li2025" in row.__doc__ or "Not in li2025" in row.__doc__), name
    assert set(bounds.LONG_CONTEXT_BIAS_BOUNDS) <= set(bounds.TABLE2)
    assert bounds.stated_bound("sinusoidal", 10, 64, {}) == (8.0, "sqrt(d_model)", None)
    assert bounds.stated_bound("t5", 10, None, {}) == (None, "not in Table 2", None)


def test_norm_bound_of_an_unknown_name_lists_the_registered_ones():
    import pytest

    with pytest.raises(ValueError, match="registered: .*sinusoidal"):
        bounds.norm_bound("no_such_pe", 10)


def test_module_inputs_restores_training_mode_and_removes_hooks():
    import pytest

    torch = pytest.importorskip("torch")
    from petheory.nn import ModelConfig, build_model
    from petheory.nn.lipschitz import module_inputs

    model = build_model(ModelConfig(head="regression", pe="alibi", input_dim=1, n_layer=1, n_head=1, d_model=8,
                                    d_ff=16, max_len=16)).train()
    got = module_inputs(model, {"b0": model.blocks[0]}, torch.zeros(2, 5, 1))
    assert got["b0"].shape == (2, 5, 8) and model.training
    assert not model.blocks[0]._forward_pre_hooks


#: Every public name of petheory.bounds before it became a package (issue 13).
OLD_PUBLIC = """ALIBI_READINGS DENSE_BIAS_MAX DecayFit GELU_LIPSCHITZ LONG_CONTEXT_BIAS_BOUNDS LineFit LipschitzReport NormBound
RademacherEstimate alibi_bias_magnitude alibi_extrapolation_terms alibi_lipschitz alibi_lipschitz_numeric
attention_lipschitz attention_output attention_weight bound_report empirical_rademacher fit_line fit_power_law gram_matrix
layernorm_lipschitz legendre_limit legendre_norm_bound legendre_saturation_bound norm_bound pe_augmented_inputs pe_norms
rademacher_kernel_sup rademacher_linear_bound rademacher_linear_data_bound rademacher_linear_sup
rademacher_lipschitz_bound rotary_angle_coverage scaled_rotary_norm_bound sinusoidal_ambiguity_onset
sinusoidal_offset_distance sinusoidal_slowest_period wavelet_decay_fit wavelet_norm_growth wavelet_norms
wavelet_scale_ratios wavelet_support_end wavelet_support_length""".split()


def test_every_old_public_name_is_in_all_and_is_the_submodules_object():
    import importlib

    assert set(OLD_PUBLIC) <= set(bounds.__all__)
    for name in bounds.__all__:
        obj = getattr(bounds, name)
        home = getattr(obj, "__module__", None)
        if home and home.startswith("petheory.") and not isinstance(obj, (dict, tuple)):
            assert getattr(importlib.import_module(home), name) is obj, name


def test_each_bounds_module_is_small_and_free_of_torch_and_file_reading():
    import pathlib

    for path in pathlib.Path(bounds.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert len(text.splitlines()) <= 600, path
        for word in ("import torch", "open(", "np.load", "json.load", "safetensors"):
            assert word not in text, (path, word)


def test_patching_the_defining_module_reaches_its_callers(monkeypatch):
    """Tests plant a bug in the module that defines a name: a planted pe_norms / attention_weight
    is what norm_bound / Eq. 9 use, and undoing the patch restores them."""
    import numpy as np

    from petheory.bounds import alibi, norms

    real = norms.pe_norms
    monkeypatch.setattr(norms, "pe_norms", lambda *a, **k: 2.0 * real(*a, **k))
    assert bounds.norm_bound("sinusoidal", 10, 8).computed == 2.0 * 2.0  # ||PE|| = sqrt(d/2) = 2, doubled
    monkeypatch.setattr(alibi, "attention_weight", lambda mu, b: np.zeros_like(np.asarray(b, dtype=float)))
    assert bounds.alibi_extrapolation_terms(np.zeros(2), slope=1.0, distance=5, n_max=2)["lhs"] == 0.0
    monkeypatch.undo()
    assert norms.pe_norms is real and bounds.norm_bound("sinusoidal", 10, 8).computed == 2.0
