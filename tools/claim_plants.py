"""The plants of ``tools/mutate_claims.py``: for each claim (or reading) that holds, violations planted through what its
checker reads, one per library function it reads where one can flip it, and the reason where none can.

A plant is a function ``plant(mp)`` that monkeypatches (``pytest.MonkeyPatch``) the library function, the encoding
registry entry or the claim module's helper that the registered checker calls at run time, at the path the checker
reads it (a package re-export, a registry entry, a name a claim module imported). ``Plant.targets()`` names the
library functions a plant plants, where they are defined ('module:qualname'), as the tracer in mutate_claims names
what a checker calls. Data and small helpers only; the pass itself is tools/mutate_claims.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Plant:
    claim: str  # a claim id, or '<id>#<reading>'
    what: str
    plant: object  # (mp: pytest.MonkeyPatch) -> None
    equivalent: str = ""
    reads: tuple = ()  # the library functions it plants ('module:qualname'); _attr/_scaled plants carry their path

    def targets(self) -> tuple:
        return self.reads or tuple(getattr(self.plant, "reads", ()))


#: Library functions a holds claim may read without a plant of their own, and why.
NOT_PLANTED = {
    "petheory.rounding": "the tolerance model (gamma, unit_roundoff, tolerance): a planted tolerance moves the margin "
    "every check allows for rounding, not the statement; tests/theory pins it",
    "petheory.encodings._registry:get": "the registry's dispatch: a plant through it is a plant of the entry it returns "
    "(the _registry plants)",
    "petheory.nn:__getattr__": "the package's lazy re-export (petheory.nn.train is petheory.nn.training.train): a plant "
    "through it is a plant of the function it returns",
}


def _dotted_to_read(path: str) -> str:
    """The function at dotted ``path`` (a module attribute, a package re-export, a name a claim module imported, or a
    class attribute), named where it is defined: 'module:qualname', as the tracer names what a checker calls."""
    import importlib

    parts = path.split(".")
    for k in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for name in parts[k:]:
            obj = getattr(obj, name)
        fn = obj.fget if isinstance(obj, property) else obj
        if hasattr(fn, "__module__") and hasattr(fn, "__qualname__"):
            return f"{fn.__module__}:{fn.__qualname__}"
        return ".".join(parts[:k]) + ":" + ".".join(parts[k:])
    return path


def _scaled(path: str, factor: float, add: float = 0.0):
    """Plant: the function at dotted ``path`` returns ``factor * real + add``."""
    def plant(mp):
        import importlib

        mod, name = path.rsplit(".", 1)
        real = getattr(importlib.import_module(mod), name)
        mp.setattr(path, lambda *a, **k: factor * real(*a, **k) + add)
    plant.reads = (_dotted_to_read(path),)
    return plant


def _registry(pe: str, wrap):
    """Plant: the encoding registry entry ``pe`` replaced (public ``register(..., overwrite=True)``) by
    ``wrap(real_fn)``, with the real function's signature; the original entry is registered back on undo."""
    def plant(mp):
        import functools

        from petheory import encodings as enc

        info = enc.info(pe)
        planted = functools.wraps(info.fn)(wrap(info.fn))
        enc.register(pe, info.kind, conventions=info.conventions, source=info.source, overwrite=True)(planted)
        # undone through the monkeypatch: restoring this attribute re-registers the real function
        mp.setattr(Undo, "actions", [*Undo.actions, lambda: enc.register(
            pe, info.kind, conventions=info.conventions, source=info.source, overwrite=True)(info.fn)])
    from petheory import encodings as enc

    fn = enc.info(pe).fn
    plant.reads = (f"{fn.__module__}:{fn.__qualname__}",)
    return plant


class Undo:
    """Undo actions a plant cannot express as a monkeypatch; run (and emptied) after each plant."""

    actions: list = []


def _compose(fn):
    def plant(mp):
        from petheory import coupling as cp

        real = cp.compose
        mp.setattr("petheory.coupling.compose", lambda A, B, mode: fn(real, A, B, mode))
    plant.reads = ("petheory.coupling.composition:compose",)
    return plant


def _lemma_b1(factor):
    """Plant: Lemma B.1's f extrema scaled by ``factor`` (as tests/claims/test_claims_gu2025.py's scaled_f)."""
    def plant(mp):
        import dataclasses

        from petheory.toeplitz import phase_modulation as pm

        real = pm.lemma_b1

        def scaled(*a, **k):
            r = real(*a, **k)
            return dataclasses.replace(r, f=dataclasses.replace(r.f, max=r.f.max * factor, min=r.f.min * factor))
        mp.setattr("petheory.toeplitz.phase_modulation.lemma_b1", scaled)
    plant.reads = ("petheory.toeplitz.phase_modulation:lemma_b1",)
    return plant


def _attr(path: str, make):
    """Plant: ``path`` replaced by ``make(real)``; ``path`` is 'module.function' or 'module.Class.method'."""
    def plant(mp):
        import importlib

        owner_path, name = path.rsplit(".", 1)
        try:
            owner = importlib.import_module(owner_path)
        except ModuleNotFoundError:  # a class attribute: 'module.Class.method'
            mod, cls = owner_path.rsplit(".", 1)
            owner = getattr(importlib.import_module(mod), cls)
        mp.setattr(owner, name, make(getattr(owner, name)))
    plant.reads = (_dotted_to_read(path),)
    return plant

def _last_token_off_the_prefix(real):
    """wu2025's prefix mask with the last token's edges to the K prefix tokens removed."""
    def mask(n, k):
        m = real(n, k)
        m[n - 1, :k] = False
        return m
    return mask


def _key_twice_position(real):
    """kazemnejad2023's construction with 2 lam i in the key: logits lam (2i - t), not a function of t - i (a +t in the
    query instead would add a constant per row, which no softmax can see)."""
    def plant(content_dim, head_dim, lam, rng):
        w_q, w_k = real(content_dim, head_dim, lam, rng)
        w_k[w_k.shape[0] - 1, content_dim] = 2 * lam
        return w_q, w_k
    return plant


def _skip_endpoint(real):
    """men_min_kernel scanning 0..L-1: the off-by-one that skips m = L."""
    return lambda freqs, context, **k: real(freqs, max(1, context - 1), **k)


def _column_softmax(real):
    """The softmax along the wrong axis (columns), same shape."""
    return lambda M: real(np.asarray(M, float).T).T


def _triple_angle(real):
    from petheory.encodings import rotary

    return lambda self, x: real(rotary.RotaryTable(3.0 * self.angles, self.d, self.pairing), x)


def _superlinear_angles(real):
    from petheory.encodings import rotary

    def table(n, d, **k):
        t = real(n, d, **k)
        return rotary.RotaryTable(t.angles * np.sqrt(np.arange(n))[:, None], t.d, t.pairing)
    return table


def _not_causal(real):
    def heads(self, x, return_probs=False):
        was, self.causal = self.causal, False
        try:
            return real(self, x, return_probs)
        finally:
            self.causal = was
    return heads


def _position_leak(real):
    def qkv(self, x):
        q, k, v, scale = real(self, x)
        import torch

        pos = torch.arange(q.shape[-2], dtype=q.dtype)[:, None]  # (T, 1): the position, added to every coordinate
        return q + pos, k + pos, v, scale
    return qkv


def _reversed_rotary(real):
    def cos_sin(self, T, device, dtype=None, key=False):
        c, s_ = real(self, T, device, dtype, key=key) if dtype is not None else real(self, T, device, key=key)
        return c, -s_
    return cos_sin


def _no_rotation(real):
    def cos_sin(self, T, device, dtype=None, key=False):
        c, s_ = real(self, T, device, dtype, key=key) if dtype is not None else real(self, T, device, key=key)
        return c * 0 + 1, s_ * 0
    return cos_sin


def _proportional_as_partial(real):
    def scheme(cfg, rope, where, **k):
        if rope.get("rope_type") == "proportional":
            rope = {**rope, "rope_type": "default"}
        return real(cfg, rope, where, **k)
    return scheme


def _chunked_axes(real):
    import dataclasses

    def band_axes(self):
        return real(dataclasses.replace(self, layout="chunked"))
    return band_axes


def _shrunk_extrema(ext):
    import dataclasses

    return dataclasses.replace(ext, max=ext.max - 0.01 * (1 + abs(ext.max)))


def _heavier_kernel(kern):
    import dataclasses

    coef = kern.coefficients
    return dataclasses.replace(kern, coefficients=lambda n, L: 1.1 * coef(n, L))


def _steeper(fit, by: float = 0.5):
    import dataclasses

    return dataclasses.replace(fit, slope=fit.slope + by, slope_ci=(fit.slope_ci[0] + by, fit.slope_ci[1] + by))


def _halve_first(terms):
    if isinstance(terms, tuple):
        return (0.5 * terms[0],) + tuple(terms[1:])
    if isinstance(terms, dict):
        k0 = next(iter(terms))
        return {**terms, k0: 0.5 * np.asarray(terms[k0])}
    return 0.5 * terms


def _times(x, f):
    return None if x is None else f * x


def _steeper_growth(g: dict) -> dict:
    import dataclasses

    out = dict(g)
    out["ratio_fit"] = _steeper(g["ratio_fit"], 1.0) if dataclasses.is_dataclass(g["ratio_fit"]) else {
        **g["ratio_fit"], "slope": g["ratio_fit"]["slope"] + 1.0,
        "slope_ci": [g["ratio_fit"]["slope_ci"][0] + 1.0, g["ratio_fit"]["slope_ci"][1] + 1.0]}
    return out


def _doubled(x):
    if isinstance(x, dict):
        return {k: (2.0 * np.asarray(v) if isinstance(v, (list, np.ndarray, float)) else v) for k, v in x.items()}
    return 2.0 * np.asarray(x)


def _tripled(x):
    if isinstance(x, tuple):
        return tuple(3.0 * np.asarray(v) if i == 0 else v for i, v in enumerate(x))
    return 3.0 * np.asarray(x)


def _ramped(M):
    M = np.asarray(M, float)
    return M + 1e-3 * np.arange(M.shape[-1])[None, :] * np.arange(M.shape[0])[:, None]


def _sinusoidal_cfg(cfg):
    import dataclasses

    from petheory.nn.transformer import ModelConfig

    c = cfg if isinstance(cfg, ModelConfig) else ModelConfig(**cfg)
    return dataclasses.replace(c, pe="sinusoidal") if "learned" in str(c.pe) else c


def _as_qwen25(cfg):
    cfg = dict(cfg)
    if cfg.get("model_type") == "qwen3_vl":
        cfg["model_type"] = "qwen2_5_vl"
        cfg["rope_scaling"] = {k: v for k, v in cfg.get("rope_scaling", {}).items() if k != "mrope_interleaved"}
    return cfg


def _init_not_causal(real):
    def init(self, cfg, pe):
        real(self, cfg, pe)
        self.causal = False
    return init


def _validate_not_causal(real):
    def validate(self):
        out = real(self)
        if self.head != "lm":
            self.causal = False
        return out
    return validate


def _shifted_symbol(out):
    t, f = out
    return t, f + 0.1 * (np.max(f) - np.min(f))


def _negated(fit):
    import dataclasses

    return dataclasses.replace(fit, slope=-fit.slope, slope_ci=(-fit.slope_ci[1], -fit.slope_ci[0]))


def _lower_stated(nb):
    import dataclasses

    return dataclasses.replace(nb, stated=None if nb.stated is None else 0.9 * nb.stated)


def _rope_sign(mp):
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply
    mp.setattr(rotary.RotaryTable, "apply", lambda self, x: real(rotary.RotaryTable(-self.angles, self.d, self.pairing), x))


_rope_sign.reads = ("petheory.encodings.rotary:RotaryTable.apply",)


def _rope_drift(mp):
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply_at
    mp.setattr(rotary.RotaryTable, "apply_at", lambda self, x, p: real(self, x, p) * (1 + 1e-6 * p))


_rope_drift.reads = ("petheory.encodings.rotary:RotaryTable.apply_at",)


def _leaky_learned(mp):
    from petheory.encodings import absolute

    real = absolute.learned

    def leaky(n, d, *, n_max=None, beyond="error", **k):
        out = real(n, d, n_max=n_max, beyond="clamp", **k)
        return out + 1e-3 * (np.arange(n)[:, None] >= (n_max or n))
    mp.setattr("petheory.encodings.absolute.learned", leaky)


_leaky_learned.reads = ("petheory.encodings.absolute:learned",)


def _expressiveness_equal(mp):
    from proofs_check.claims import gu2025_mla as M

    mp.setattr(M, "_feasible_rope", M._feasible_relative)


def _mds_inexact(mp):
    import dataclasses

    from petheory.geometry import mds

    real = mds.classical_mds
    mp.setattr("petheory.geometry.mds.classical_mds",
               lambda D, rank=None, **kw: dataclasses.replace(real(D, rank=rank, **kw), embedding=1.01 * real(D, rank=rank, **kw).embedding))


_mds_inexact.reads = ("petheory.geometry.mds:classical_mds",)


def _bent_alibi(mp):
    from petheory.geometry import induced

    real = induced.bias_distances
    mp.setattr("petheory.geometry.induced.bias_distances", lambda B, m="gap": np.sqrt(real(B, m)))


_bent_alibi.reads = ("petheory.geometry.induced:bias_distances",)


def _minimal_param(mp):
    import dataclasses

    from petheory.geometry import rank

    real = rank.minimal_parametrisation
    mp.setattr("petheory.geometry.rank.minimal_parametrisation",
               lambda X, rank: dataclasses.replace(real(X, rank=rank), error=real(X, rank=rank).error * 1.5 + 1e-3))


_minimal_param.reads = ("petheory.geometry.rank:minimal_parametrisation",)


def _gram_not_centred(mp):
    from petheory.geometry import mds

    real = mds.gram_from_distances
    mp.setattr("petheory.geometry.mds.gram_from_distances", lambda D: real(D) + 1e-3)


_gram_not_centred.reads = ("petheory.geometry.mds:gram_from_distances",)


def _span_grows(mp):
    from petheory.lengthgen import pola

    real = pola.span_dimension
    mp.setattr(pola, "span_dimension", lambda pe, n, masked=True: real(pe, n, masked=masked) + (n * n if pe != "learned" else 0))


_span_grows.reads = ("petheory.lengthgen.pola:span_dimension",)


def _szego_growing(mp):
    from petheory.toeplitz import szego

    real = szego.spectral_distribution

    def growing(c, *a, **k):
        sd = real(c, *a, **k)
        sd.kolmogorov = 1e-3 * np.log(len(c))  # a distance that grows with N
        return sd
    mp.setattr("petheory.toeplitz.szego.spectral_distribution", growing)


_szego_growing.reads = ("petheory.toeplitz.szego:spectral_distribution",)


def _eigs_escape(mp):
    import dataclasses

    from petheory import toeplitz as tp

    real = tp.extreme_eigenvalues

    def escaping(c, *a, **k):
        r = real(c, *a, **k)
        lo = dataclasses.replace(r.min, value=r.min.value - 0.01 * (1 + abs(r.min.value)))
        return tp.ExtremeEigenvalues(lo, r.max)
    mp.setattr("petheory.toeplitz.eigen.extreme_eigenvalues", escaping)


_eigs_escape.reads = ("petheory.toeplitz.eigen:extreme_eigenvalues",)


def _unbounded_atoms(mp):
    from proofs_check.claims import li2025_extrapolation as X

    real = X._atom_decay_uniform

    def planted(profile):
        ev = real(profile)
        fams = {w: {**t, "unit/l2": {**t["unit/l2"], "C_j": [np.inf] * len(t["unit/l2"]["C_j"])}}
                for w, t in ev.details["per_family"].items()}
        return X.Evidence(ev.verdict, ev.cases, details={**ev.details, "per_family": fams})
    mp.setattr(X, "_atom_decay_uniform", planted)


def _kron_as_hadamard(real):
    """The absolute pair features phi(i) (x) phi(j) formed over one axis: phi(i) o phi(j) (D = d, not d^2)."""
    def basis(pe, pos, seg=None):
        mode, B = real(pe, pos, seg)
        from petheory.lengthgen import pola

        p = pola.pola_pe(pe)
        if mode == "dense" and p.kind == "absolute":
            L = B.shape[0]
            B = np.ascontiguousarray(B.reshape(L, L, p.d, p.d).diagonal(axis1=2, axis2=3))
        return mode, B
    return basis


def _rows_from_one(real):
    """position_table's rows for positions 1..n (off by one) instead of 0..n-1."""
    return lambda pe, n: real(pe, n + 1)[1:]


def _test_sizes_short(real):
    """generalises() testing sizes up to N_test - 1: the last size never tested (an off-by-one in the range)."""
    def planted(pe, name, N_train, N_test, **k):
        return real(pe, name, N_train, max(N_train, N_test - 1), **k)
    return planted


def _certified_band_reversed(real):
    """LRC.certified with the residual test's comparison reversed: certified inside the band (1/s, s) it should
    exclude."""
    def certified(self, separation=1e2):
        r = self.realisation
        ratio = r.residual / max(r.residual_tol, np.finfo(float).tiny)
        return (1.0 / separation < ratio < separation) and r.rank_gap >= separation
    return certified


def _unweighted_decay_constant(real):
    """wavelet_decay_fit's C without its e^{beta u} weight: max |psi| (too small for every beta > 0)."""
    def fit(wavelet="db2", **k):
        import dataclasses

        from petheory import encodings as enc

        f = real(wavelet, **k)
        return dataclasses.replace(f, C=float(np.max(np.abs(enc.wavefun(wavelet, k.get("resolution", 10))[1]))))
    return fit


def _angles_not_linear(real):
    """RotaryTable.apply turning by angle (1 + 1e-3 angle): no longer linear in the position (a per-position scaling)."""
    from petheory.encodings import rotary

    return lambda self, x: real(rotary.RotaryTable(self.angles * (1 + 1e-3 * self.angles), self.d, self.pairing), x)


def _rope_skips_position_one(real):
    """rope()'s table with positions 1, 2, ... read one late (angles (p + 1) theta for p >= 1): an off-by-one."""
    def rope(n, d, **k):
        import dataclasses

        t = real(n + 1, d, **k)
        return dataclasses.replace(t, angles=np.concatenate([t.angles[:1], t.angles[2:]]))
    return rope


PLANTS = [
    # ----------------------------------------------------------------------------- an2024 (STRING, issue 57)
    Plant("an2024.position_frequency", "Eq. 2 counts one occurrence too many",
          _scaled("petheory.encodings.shifted.position_frequency", 1.0, add=1.0)),
    Plant("an2024.position_frequency", "the relative position matrix one too far everywhere",
          _attr("petheory.encodings.shifted.string_relative_positions",
                lambda real: (lambda n, **k: (lambda P: np.where(P >= 0, P + 1, P))(real(n, **k))))),
    Plant("an2024.position_share_2048#uniform_lengths", "Eq. 2 ignores the corpus (every sequence fills the window)",
          _attr("petheory.encodings.shifted.position_frequency", lambda real: (lambda lengths, n: real([n], n)))),
    Plant("an2024.string_drops_infrequent#suggested_range", "the shift starts one diagonal late (r > S, not r >= S)",
          _attr("petheory.encodings.shifted.string_relative_positions",
                lambda real: (lambda n, shift, window=0: real(n, shift=shift + 1, window=window + 1)))),
    Plant("an2024.string_keeps_neighbours_closest", "Eq. 4 without its window (Eq. 3)",
          _attr("petheory.encodings.shifted.string_relative_positions",
                lambda real: (lambda n, shift, window=0: real(n, shift=shift, window=0)))),
    Plant("an2024.string_query_shift", "Algorithm 1's query ids without the window",
          _attr("petheory.encodings.shifted.string_query_positions",
                lambda real: (lambda n, shift, window=0: real(n, shift=shift, window=0)))),
    Plant("an2024.string_query_shift", "Eq. 4's matrix without the window",
          _attr("petheory.encodings.shifted.string_relative_positions",
                lambda real: (lambda n, shift, window=0: real(n, shift=shift, window=0)))),
    Plant("an2024.string_query_shift", "the library's RoPE table with angles growing as position^1.5 (not relative)",
          _attr("petheory.encodings.rotary.rope", lambda real: _superlinear_angles(real))),
    Plant("an2024.string_query_shift", "the library's rotation turns by angle^1.5 (not relative)",
          _attr("petheory.encodings.rotary.RotaryTable.apply",
                lambda real: (lambda self, x: real(type(self)(self.angles ** 1.5, self.d, self.pairing), x)))),
    # ----------------------------------------------------------------------------- du2026 (issue 57)
    Plant("du2026.token_consistency_fails", "the library's ladder frozen (every frequency 0: no rotation)",
          _scaled("petheory.encodings.rotary.rope_frequencies", 0.0)),
    Plant("du2026.base_helps_tokens", "the library's ladder ignores its base (always 10000)",
          _attr("petheory.encodings.rotary.rope_frequencies",
                lambda real: (lambda d, base=10000.0, **k: real(d, base=10000.0, **k)))),
    # ----------------------------------------------------------------------------- wertheimer2026 (issue 57)
    Plant("wertheimer2026.channels_rotate_ood", "the library's ladder frozen (no channel rotates)",
          _scaled("petheory.encodings.rotary.rope_frequencies", 0.0)),
    Plant("wertheimer2026.channels_rotate_ood", "every channel of the ladder turns a third of a circle a position",
          _attr("petheory.encodings.rotary.rope_frequencies",
                lambda real: (lambda *a, **k: np.full_like(real(*a, **k), 2 * np.pi / 3)))),
    # ----------------------------------------------------------------------------- liu2026 (issue 57)
    Plant("liu2026.aliasing_bound#necessary", "the library's ladder half as fast",
          _scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
    Plant("liu2026.aliasing_bound#necessary", "the aliasing bound twice too high",
          _scaled("petheory.bounds.rope_base.aliasing_min_base", 2.0)),
    Plant("liu2026.aliasing_bound__corrected", "the library's ladder half as fast",
          _scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
    Plant("liu2026.aliasing_bound__corrected", "the exact aliasing bound 1.5 times too high",
          _scaled("petheory.bounds.rope_base.exact_aliasing_min_base", 1.5)),
    Plant("liu2026.stability_bound#necessary", "the library's ladder half as fast",
          _scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
    Plant("liu2026.stability_bound#necessary", "the stability bound twice too high",
          _scaled("petheory.bounds.rope_base.stability_min_base", 2.0)),
    Plant("liu2026.stability_bound__corrected", "the library's ladder half as fast",
          _scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
    Plant("liu2026.stability_bound__corrected", "the exact stability bound 1.5 times too high",
          _scaled("petheory.bounds.rope_base.exact_stability_min_base", 1.5)),
    Plant("liu2026.depth_tightens", "the stability bound ignores depth",
          _attr("petheory.bounds.rope_base.stability_min_base",
                lambda real: (lambda L, eps, depth=1: real(L, eps, depth=1)))),
    # ----------------------------------------------------------------------------- chen2025
    Plant("chen2025.pe_no_new_capability", "every PE but learned adds n^2 to the POLA span", _span_grows),
    Plant("chen2025.lrc_characterises_lg", "the LRC reported constant (bounded) whatever the fit does",
          _attr("petheory.lengthgen.pola.lrc",
                lambda real: (lambda *a, **k: __import__("dataclasses").replace(real(*a, **k), value=1.0)))),
    # ----------------------------------------------------------------------------- cirrincione2026
    Plant("cirrincione2026.alibi_rank1__corrected", "ALiBi's gap geometry bent (square root of the distances)", _bent_alibi),
    Plant("cirrincione2026.exact_reproduction_impossible__corrected", "Hellinger distances squared (non-Euclidean)",
          _attr("petheory.geometry.hellinger.hellinger_distances", lambda real: (lambda P: real(P) ** 2))),
    Plant("cirrincione2026.exact_reproduction_impossible#fisher_rao_geodesic",
          "the 'Fisher-Rao' distance made the Euclidean chord: no witness can exist",
          _attr("proofs_check.claims.cirrincione2026.fisher_rao_distances",
                lambda real: (lambda P: __import__("petheory.geometry.hellinger", fromlist=["x"]).hellinger_distances(P) * 2))),
    Plant("cirrincione2026.hellinger_mds_optimal__corrected", "classical MDS embedding scaled by 1.01", _mds_inexact),
    Plant("cirrincione2026.hellinger_mds_optimal#strain", "classical MDS embedding scaled by 1.01", _mds_inexact),
    Plant("cirrincione2026.minimal_parametrisation#representable", "the factor U of the parametrisation 1% off",
          _attr("petheory.geometry.rank.minimal_parametrisation",
                lambda real: (lambda X, rank: __import__("dataclasses").replace(real(X, rank=rank),
                                                                              U=real(X, rank=rank).U * 1.01)))),
    Plant("cirrincione2026.minimal_parametrisation__corrected", "the parametrisation's stated error 1.5x off", _minimal_param),
    Plant("cirrincione2026.rank_bound", "double centring leaves a constant offset", _gram_not_centred),
    Plant("cirrincione2026.necessity__corrected", "a causal mask (a positional signal) slipped into every variant",
          _attr("proofs_check.claims.cirrincione2026_necessity._mask",
                lambda real: (lambda case: __import__("torch").nn.Transformer.generate_square_subsequent_mask(
                    case["n"], dtype=__import__("torch").float64)))),
    Plant("cirrincione2026.necessity#mask_is_a_signal", "a causal mask (a positional signal) slipped into every variant",
          _attr("proofs_check.claims.cirrincione2026_necessity._mask",
                lambda real: (lambda case: __import__("torch").nn.Transformer.generate_square_subsequent_mask(
                    case["n"], dtype=__import__("torch").float64)))),
    # ----------------------------------------------------------------------------- gu2025
    Plant("gu2025.classical_schur_product", "Hadamard product shifted by -0.1 I",
          _compose(lambda real, A, B, mode: real(A, B, mode) - 0.1 * np.eye(A.shape[0]))),
    Plant("gu2025.classical_weyl_additive", "sum plus a growing diagonal",
          _compose(lambda real, A, B, mode: real(A, B, mode) + 0.5 * np.diag(np.arange(A.shape[0])))),
    Plant("gu2025.classical_toeplitz_eigs_in_symbol_range", "largest eigenvalue reported 1 too high", _eigs_escape),
    Plant("gu2025.spectral_contraction__corrected", "Hadamard product scaled by 1.05",
          _compose(lambda real, A, B, mode: 1.05 * real(A, B, mode))),
    Plant("gu2025.schur_modulus__corrected", "Hadamard product scaled by 1.1",
          _compose(lambda real, A, B, mode: 1.1 * real(A, B, mode))),
    Plant("gu2025.schur_modulus#psd_equal_spectra", "Hadamard product drops E's phases",
          _compose(lambda real, A, B, mode: real(A, B.real, mode) if mode == "hadamard" else real(A, B, mode))),
    Plant("gu2025.schur_modulus#band_average", "Hadamard product scaled by 1.1",
          _compose(lambda real, A, B, mode: 1.1 * real(A, B, mode))),
    Plant("gu2025.lemma_b1_amplitude", "f scaled by 1.001 (above 2 sum w)", _lemma_b1(1.001)),
    Plant("gu2025.lemma_b1_equality__corrected", "f scaled by 1 - 1e-6", _lemma_b1(1 - 1e-6)),
    Plant("gu2025.lemma_b1_range__corrected", "f scaled by 1.01", _lemma_b1(1.01)),
    Plant("gu2025.mla_logit_form__corrected", "the library's rotation turns the wrong way", _rope_sign),
    Plant("gu2025.rope_logit_form__corrected", "the library's rotation turns the wrong way", _rope_sign),
    Plant("gu2025.rope_relative", "rotation drifts with the absolute position", _rope_drift),
    Plant("gu2025.szego", "Kolmogorov distance grows with N", _szego_growing),
    Plant("gu2025.logit_decomposition", "the two cross terms swapped (same total, wrong terms)",
          _attr("petheory.coupling.logit_terms",
                lambda real: (lambda *a, **k: __import__("dataclasses").replace(real(*a, **k), cp=real(*a, **k).pc,
                                                                               pc=real(*a, **k).cp)))),
    Plant("gu2025.gpp_toeplitz__corrected", "sinusoidal PE amplitude grows with position",
          _attr("petheory.encodings.absolute.sinusoidal",
                lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
    Plant("gu2025.sinusoidal_scores_toeplitz__corrected", "sinusoidal PE amplitude grows with position",
          _attr("petheory.encodings.absolute.sinusoidal",
                lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
    Plant("gu2025.normalisation_keeps_toeplitz__corrected", "softmax with a causal mask",
          _attr("petheory.softmax.row_softmax",
                lambda real: (lambda M: real(np.where(np.triu(np.ones_like(M), 1) > 0, -np.inf, M))))),
    Plant("gu2025.sinusoidal_scores_toeplitz#identity", "sinusoidal PE amplitude grows with position",
          _attr("petheory.encodings.absolute.sinusoidal",
                lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
    Plant("gu2025.normalisation_keeps_toeplitz#scalar_1_over_sqrt_d", "(none)", lambda mp: None,
          equivalent="T / sqrt(d) of a Toeplitz T is Toeplitz by the arithmetic (entry a_{i-j} / sqrt(d), one rounding "
          "each, the same for equal a_{i-j}); the only plants that flip it break the premise (scipy's toeplitz made "
          "non-Toeplitz, as tests/claims/test_claims_gu2025_mla.py does to show the checker can say refuted)"),
    Plant("gu2025.representation_decomposition#input_layer", "(none)", lambda mp: None,
          equivalent="the input x = E[t] + P[i] is formed in the checker, additive in token and position for every "
          "table P the registry returns; the reading says definitional (its evidence note), and its sibling reading "
          "after_attention is what can fail"),
    Plant("gu2025.gpp_toeplitz#relative_bias", "relative biases that depend on the key's absolute position",
          _attr("petheory.encodings.get",
                lambda real: (lambda name: (lambda n, **k: real(name)(n, **k) + np.arange(n)[None, :] * 0.1)
                              if name in ("alibi", "t5", "relative") else real(name)))),
    Plant("gu2025.gpp_toeplitz#sinusoidal", "sinusoidal PE amplitude grows with position",
          _attr("petheory.encodings.absolute.sinusoidal",
                lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
    # ----------------------------------------------------------------------------- li2025
    Plant("li2025.sinusoidal_norm_bound", "sinusoidal PE doubled", _scaled("petheory.encodings.absolute.sinusoidal", 2.0)),
    Plant("li2025.input_norm_bounds", "sinusoidal registry entry scaled by 1.5",
          _registry("sinusoidal", lambda fn: (lambda *a, **k: 1.5 * fn(*a, **k)))),
    Plant("li2025.alibi_extrapolation", "ALiBi's attention weight with an 8x steeper slope",
          _attr("petheory.bounds.alibi.attention_weight", lambda real: (lambda mu, b: real(mu, 8.0 * np.asarray(b))))),
    Plant("li2025.alibi_monotone_bias", "ALiBi bias with a quadratic bump",
          _attr("petheory.encodings.bias.alibi",
                lambda real: (lambda n, **k: real(n, **k) + 0.01 * np.subtract.outer(np.arange(n), np.arange(n)) ** 2))),
    Plant("li2025.alibi_large_slope_local", "ALiBi bias capped at -1 (stops growing with distance)",
          _attr("petheory.encodings.bias.alibi", lambda real: (lambda n, **k: np.maximum(real(n, **k), -1.0)))),
    Plant("li2025.alibi_soft_locality", "ALiBi bias capped at -3 alpha (stops growing past distance 3)",
          _attr("petheory.encodings.bias.alibi",
                lambda real: (lambda n, **k: np.maximum(real(n, **k), -3.0 * k.get("slope", 1.0))))),
    Plant("li2025.legendre_bounded", "Legendre PE extrapolates past n_max instead of saturating",
          _attr("petheory.encodings.absolute.legendre", lambda real: (lambda *a, **k: real(*a, **{**k, "beyond": "extrapolate"})))),
    Plant("li2025.learned_no_extrapolation", "learned rows past the table differ", _leaky_learned),
    Plant("li2025.sinusoidal_periodic_ambiguity__corrected", "onset of ambiguity reported at 7",
          _attr("petheory.bounds.decay.sinusoidal_ambiguity_onset", lambda real: (lambda d, **k: 7))),
    Plant("li2025.sinusoidal_periodic_ambiguity#slowest_period", "sinusoidal base 1e7",
          _attr("petheory.encodings.absolute.sinusoidal", lambda real: (lambda *a, **k: real(*a, **{**k, "base": 1e7})))),
    Plant("li2025.ua_no_extrapolation", "the pair-table fit misses the running sum by 10%",
          _attr("proofs_check.claims.li2025_approximation.fit_pair_table", lambda real: (lambda xs, ys, N: 0.9 * real(xs, ys, N)))),
    Plant("li2025.wavelet_atom_decay__corrected", "wavelet PE tripled", _scaled("petheory.encodings.absolute.wavelet", 3.0, 1e-6)),
    Plant("li2025.wavelet_atom_decay#uniform_c_paper_amplitude", "paper amplitude replaced by none",
          _attr("petheory.encodings.absolute.wavelet_amplitude", lambda real: (lambda j, nm: real(j, "none")))),
    Plant("li2025.wavelet_atom_decay#c_depends_on_jmax", "the standard atoms' per-scale constants unbounded (C_j = inf), "
          "as the shared atom table reports them", _unbounded_atoms),
    Plant("li2025.wavelet_extrapolation__corrected", "wavelet PE never exactly zero far out",
          _scaled("petheory.encodings.absolute.wavelet", 1.0, 1e-9)),
    Plant("li2025.wavelet_unnormalised_norm__corrected", "sup norms grow as N sqrt(log N)",
          _attr("petheory.bounds.decay.wavelet_norms", lambda real: (lambda n, d, **k: np.full(n, float(n) * np.sqrt(np.log(n)))))),
    # ---- outside sources (issues 31, 42): each plant goes through the library function (or the claim module's helper)
    # that the registered checker calls at run time
    Plant("men2024.similar_token_gap", "Men's kernel B_m shifted by 0.5",
          _attr("petheory.bounds.men_base.men_kernel", lambda real: (lambda m, w: real(m, w) + 0.5))),
    Plant("men2024.base_bounds_context", "the smallest passing base reported twice too large",
          _attr("petheory.bounds.men_base.men_smallest_base", lambda real: (lambda d, L, **k: 2.0 * real(d, L, **k)))),
    Plant("men2024.context_of_a_base", "min B_m scanned over 0..L-1 (the endpoint m = L skipped)",
          _attr("petheory.bounds.men_base.men_min_kernel", lambda real: _skip_endpoint(real))),
    Plant("liu2023.critical_dimension", "critical dimension off by one band",
          _attr("petheory.bounds.long_context.liu_critical_dimension", lambda real: (lambda d, b, T: real(d, b, T) + 2))),
    Plant("liu2023.extrapolation_bound", "T_extra 1% long",
          _attr("petheory.bounds.long_context.liu_extrapolation_bound", lambda real: (lambda d, de, b: 1.01 * real(d, de, b)))),
    Plant("liu2023.updated_critical_dimension", "the critical dimension one band short at any base but 10000",
          _attr("petheory.bounds.long_context.liu_critical_dimension",
                lambda real: (lambda d, b, T: real(d, b, T) - (2 if b != 10000.0 else 0)))),
    Plant("nakanishi2025.ssmax_prevents_fading", "the target's attention 1% low",
          _attr("petheory.bounds.long_context.single_target_attention", lambda real: (lambda g, n, **k: 0.99 * real(g, n, **k)))),
    Plant("su2021.abel_bound", "the Abel bound's right side halved",
          _attr("petheory.bounds.long_context.abel_bound", lambda real: (lambda h, r, w: (real(h, r, w)[0], 0.5 * real(h, r, w)[1])))),
    Plant("su2021.long_term_decay__corrected", "the relative bound gains a slope 1e-3 r (octave means rise)",
          _attr("petheory.bounds.long_context.roformer_relative_bound",
                lambda real: (lambda r, w: real(r, w) + 1e-3 * np.asarray(r, float)))),
    Plant("su2021.long_term_decay__corrected", "the relative bound a sum over the bands, not their mean",
          _attr("petheory.bounds.long_context.roformer_relative_bound", lambda real: (lambda r, w: real(r, w) * len(w)))),
    Plant("wu2025.decay_mask_peak", "the decay mask's argmax reported two positions late",
          _attr("petheory.bounds.long_context.decay_mask_peak", lambda real: (lambda t, m: (real(t, m)[0] + 2, real(t, m)[1])))),
    Plant("wu2025.decay_mask_one_layer", "the causal ALiBi bias twice as steep as its slope",
          _attr("petheory.encodings.bias.alibi", lambda real: (lambda n, **k: 2.0 * real(n, **k)))),
    Plant("wu2025.decay_mask_theta", "the causal ALiBi bias twice as steep as its slope",
          _attr("petheory.encodings.bias.alibi", lambda real: (lambda n, **k: 2.0 * real(n, **k)))),
    Plant("wu2025.causal_mask_first_token", "Lemma A.1's epsilon three times the smallest attention weight",
          _attr("proofs_check.claims.wu2025.lemma_a1_epsilon",
                lambda real: (lambda layers: min(3.0 * real(layers), 1.0 / (len(layers[0][0]) - 1))))),
    Plant("wu2025.sliding_window_first_token", "Lemma A.1's epsilon three times the smallest attention weight",
          _attr("proofs_check.claims.wu2025.lemma_a1_epsilon",
                lambda real: (lambda layers: min(3.0 * real(layers), 1.0 / (len(layers[0][0]) - 1))))),
    Plant("wu2025.prefix_mask_prefix_tokens", "the last token's edges to the prefix removed from the prefix mask",
          _attr("proofs_check.claims.wu2025.prefix_mask", lambda real: _last_token_off_the_prefix(real))),
    Plant("wu2025.rope_one_layer", "the library's rotation turns three times as fast as its angles",
          _attr("petheory.encodings.rotary.RotaryTable.apply", lambda real: _triple_angle(real))),
    Plant("wu2025.rope_many_layers", "the library's rotation turns three times as fast as its angles",
          _attr("petheory.encodings.rotary.RotaryTable.apply", lambda real: _triple_angle(real))),
    Plant("kazemnejad2023.nope_absolute_position", "petheory's attention without its causal mask",
          _attr("petheory.nn.transformer.Attention.heads", lambda real: _not_causal(real))),
    Plant("kazemnejad2023.nope_relative_position", "the construction's key carries 2 lam i (logits lam (2i - t))",
          _attr("proofs_check.claims.kazemnejad2023.relative_construction", lambda real: _key_twice_position(real))),
    Plant("barbero2024.max_at_any_offset", "the library's rotation turns the wrong way", _rope_sign,
          reads=("petheory.encodings.rotary:RotaryTable.apply_at", "petheory.encodings.rotary:RotaryTable.apply",
                 "petheory.encodings.rotary:rope")),
    Plant("barbero2024.max_at_any_offset", "RoPE's frequency ladder in reverse order (bands paired with the wrong rates)",
          _attr("petheory.encodings.rotary.rope_frequencies", lambda real: (lambda *a, **k: real(*a, **k)[::-1].copy()))),
    Plant("barbero2024.max_at_any_offset", "softmax over the columns instead of the rows",
          _attr("petheory.softmax.row_softmax", lambda real: _column_softmax(real))),
    Plant("barbero2024.no_decay_isotropic", "the library's rotation adds an offset (affine, not linear)",
          _attr("petheory.encodings.rotary.RotaryTable.apply_at", lambda real: (lambda self, x, p: real(self, x, p) + 0.5))),
    Plant("barbero2024.lemma_a1_no_return", "every band a quarter turn per token (commensurate with 2 pi)",
          _attr("petheory.encodings.rotary.rope_frequencies",
                lambda real: (lambda *a, **k: np.full_like(real(*a, **k), np.pi / 2)))),
    Plant("barbero2024.lemma_a1_no_return", "the chord |e^{ia} - 1|^2 of a quarter of the angle",
          _attr("petheory.encodings.rotary.chord_sq", lambda real: (lambda a: real(np.asarray(a) * 0.0)))),
    Plant("barbero2024.lemma_a3_dominated_half", "softmax over the columns instead of the rows",
          _attr("petheory.softmax.row_softmax", lambda real: _column_softmax(real))),
    Plant("barbero2024.nope_cannot_sharpen", "the head's queries and keys carry their position (a leak into NoPE)",
          _attr("petheory.nn.transformer.Attention.qkv", lambda real: _position_leak(real))),
    Plant("barbero2024.nope_semantic_channel", "the head's queries and keys carry their position (a leak into NoPE)",
          _attr("petheory.nn.transformer.Attention.qkv", lambda real: _position_leak(real))),
    Plant("barbero2024.rope_can_sharpen", "the model's rotary turns the wrong way",
          _attr("petheory.nn.position.Rotary.cos_sin", lambda real: _reversed_rotary(real))),
    Plant("barbero2024.single_frequency_channel", "the model's rotary does not rotate (NoPE in disguise)",
          _attr("petheory.nn.position.Rotary.cos_sin", lambda real: _no_rotation(real))),
    Plant("barbero2024.p_rope_truncates_lowest", "proportional RoPE resolved on the rotary dims' own ladder (partial RoPE)",
          _attr("petheory.models.rope.rope_scheme", lambda real: _proportional_as_partial(real))),
    Plant("barbero2024.no_decay_isotropic", "queries and keys drawn with mean 1 (not centred)",
          _attr("proofs_check.claims.barbero2024.sample_pair", lambda real: (lambda rng, d: tuple(x + 1.0 for x in real(rng, d))))),
    Plant("lin2025.constant_gate_is_alibi", "the causal ALiBi bias 1% steeper than its slope",
          _attr("petheory.encodings.bias.alibi", lambda real: (lambda n, **k: 1.01 * real(n, **k)))),
    Plant("tan2024.weights_sum_at_most_one", "(none)", lambda mp: None,
          equivalent="no library code is read (evidence definitional): the weights are the authors' formula transcribed "
          "in the claim module; tests/claims/test_claims_outside_2025.py plants weights without the stick-breaking "
          "product and sees them caught"),
    Plant("huang2025.interleave_full_frequency", "the interleaved M-RoPE layout laid out in chunks",
          _attr("petheory.scheme.MRope.band_axes", lambda real: _chunked_axes(real))),
    Plant("wei2025.mrope_temporal_high_frequency", "the chunked sections taken from the slow end of the ladder",
          _attr("petheory.scheme.MRope.band_axes", lambda real: (lambda self: tuple(reversed(real(self)))))),
    Plant("gu2025.logit_expressiveness#single_phase", "RoPE's feasible set made equal to relative encoding's",
          _expressiveness_equal),
    Plant("gu2025.mla_logit_form#schematic", "the library's rotation turns the wrong way", _rope_sign),
    Plant("li2025.wavelet_unnormalised_norm#upper_bound", "sup norms grow as N^1.2 sqrt(log N)",
          _attr("petheory.bounds.decay.wavelet_norms",
                lambda real: (lambda n, d, **k: np.full(n, float(n) ** 1.2 * np.sqrt(np.log(n)))))),
    Plant("cirrincione2026.exact_reproduction_impossible__corrected", "Hellinger distances scaled by 1/2",
          _attr("petheory.geometry.hellinger.hellinger_distances", lambda real: (lambda P: 0.5 * real(P)))),
    # ---- one plant per library function a holds claim reads (issue 42): each through the function itself
    Plant("gu2025.logit_decomposition", "the Eq. 8 total misses the bias term",
          _attr("petheory.coupling.LogitTerms.total", lambda real: property(lambda self: real.fget(self) - self.bias))),
    Plant("gu2025.rope_logit_form__corrected", "the RoPE logits' real part taken of the conjugate phases",
          _attr("petheory.coupling.RopeTerms.logits", lambda real: property(
              lambda self: np.real(self.gram_sum * np.conj(self.phases)).sum(axis=0) + self.passthrough))),
    Plant("gu2025.rope_logit_form__corrected", "the logit terms built on the transposed query/key projections",
          _attr("petheory.coupling.rope_logit_terms", lambda real: (lambda c, p, W_Q, W_K, table, **k: real(
              c, p, W_K, W_Q, table, **k)))),
    Plant("gu2025.mla_logit_form__corrected", "rotary pairs as complex numbers with the wrong sign of the phase",
          _attr("petheory.coupling.complex_pairs", lambda real: (lambda x, table: np.conj(real(x, table))))),
    Plant("gu2025.logit_decomposition", "(none: random projections)", lambda mp: None, reads=("petheory.coupling.inputs:random_projections",),
          equivalent="a random draw of W_Q, W_K that both sides of the identity share: any draw (any plant of it) "
          "keeps L = sum of the terms; the draw's own contract (shapes, seed) is tests/theory's"),
    Plant("gu2025.schur_modulus#band_average", "the band average 10% heavier",
          _scaled("petheory.coupling.rope_band_average", 1.1)),
    Plant("gu2025.classical_weyl_additive", "the spectral summary of M computed on M @ M",
          _attr("petheory.coupling.spectral_summary", lambda real: (lambda M: real(np.asarray(M) @ np.asarray(M))))),
    Plant("gu2025.gpp_toeplitz#relative_bias", "relative biases that grow with the key's position",
          _registry("relative", lambda fn: (lambda n, **k: fn(n, **k) + 0.1 * np.arange(n)[None, :]))),
    Plant("gu2025.gpp_toeplitz#relative_bias", "T5 biases that grow with the key's position",
          _registry("t5", lambda fn: (lambda n, **k: fn(n, **k) + 0.1 * np.arange(n)[None, :]))),
    Plant("gu2025.logit_decomposition", "(none: NoPE's table)", lambda mp: None, reads=("petheory.encodings.absolute:nope",),
          equivalent="Eq. 8's decomposition is an identity in the table P (every table satisfies it), and so is "
          "rope_logit_form__corrected's: no NoPE table, zero or not, can flip them; NoPE's table is pinned by "
          "tests/theory"),
    Plant("gu2025.gpp_toeplitz#sinusoidal", "(none)", lambda mp: None, reads=("petheory.encodings.absolute:random_fixed",),
          equivalent="read only by gpp_toeplitz's other_absolute reading, which is refuted (the tracer credits a "
          "claim's reads to each of its holding readings); no holding reading reads the random table"),
    Plant("gu2025.gpp_toeplitz__corrected", "the Toeplitz defect reported 1 too large",
          _attr("petheory.toeplitz.toeplitz_defect", lambda real: (lambda A, **k: real(A, **k) + 1.0))),
    Plant("gu2025.spectral_contraction__corrected", "dense Toeplitz matrices with their diagonal 20% heavy",
          _attr("petheory.toeplitz.dense", lambda real: (lambda c, r=None: real(c, r) + 0.2 * np.real(np.asarray(c)[0]) * np.eye(len(c))))),
    Plant("gu2025.classical_toeplitz_eigs_in_symbol_range", "the symbol's maximum reported 1% low",
          _attr("petheory.toeplitz.symbol_extrema", lambda real: (lambda c, r=None, **k: _shrunk_extrema(real(c, r, **k))))),
    Plant("gu2025.szego", "the symbol's values shifted by a tenth of their range",
          _attr("petheory.toeplitz.symbol", lambda real: (lambda c, r=None, theta=None, **k: _shifted_symbol(real(c, r, theta, **k))))),
    Plant("gu2025.szego", "the kernel's closed-form symbol 10% high",
          _attr("petheory.toeplitz.closed_forms.Kernel.symbol_values", lambda real: (lambda self, th, L: 1.1 * real(self, th, L)))),
    Plant("gu2025.szego", "the kernel's column 10% high", _attr("petheory.toeplitz.closed_forms.Kernel.column",
                                                                lambda real: (lambda self, n, L: 1.1 * real(self, n, L)))),
    Plant("gu2025.szego", "the power-law fit's slope with the wrong sign",
          _attr("petheory.fits.fit_power_law", lambda real: (lambda x, y, **k: _negated(real(x, y, **k))))),
    Plant("gu2025.lemma_b1_amplitude", "max |f| read from the minimum only",
          _attr("petheory.toeplitz.phase_modulation.LemmaB1.max_abs_f", lambda real: property(lambda self: 1.001 * real.fget(self)))),
    Plant("gu2025.lemma_b1_amplitude", "max |g| 0.1% high",
          _attr("petheory.toeplitz.phase_modulation.LemmaB1.max_abs_g", lambda real: property(lambda self: 1.001 * real.fget(self)))),
    Plant("gu2025.lemma_b1_range__corrected", "the range of f 1% wide",
          _attr("petheory.toeplitz.phase_modulation.LemmaB1.ptp_f", lambda real: property(lambda self: 1.01 * real.fget(self)))),
    Plant("gu2025.lemma_b1_range__corrected", "the range of g 1% wide",
          _attr("petheory.toeplitz.phase_modulation.LemmaB1.ptp_g", lambda real: property(lambda self: 1.01 * real.fget(self)))),
    Plant("li2025.alibi_extrapolation", "the extrapolation terms' Lipschitz part halved",
          _attr("petheory.bounds.alibi.alibi_extrapolation_terms", lambda real: (lambda *a, **k: _halve_first(real(*a, **k))))),
    Plant("li2025.alibi_extrapolation", "the numeric Lipschitz constant doubled",
          _scaled("petheory.bounds.alibi_lipschitz_numeric", 2.0)),
    Plant("li2025.legendre_bounded", "the Legendre limit reported 10% high",
          _scaled("petheory.bounds.legendre_limit", 1.1)),
    Plant("li2025.legendre_bounded", "the Legendre norm bound 10% low", _scaled("petheory.bounds.legendre_norm_bound", 0.9)),
    Plant("li2025.legendre_bounded", "the saturation bound 10% low",
          _scaled("petheory.bounds.legendre_saturation_bound", 0.9)),
    Plant("li2025.input_norm_bounds", "the input norm bound 10% high",
          _attr("petheory.bounds.norms.NormBound.input_norm", lambda real: (lambda self, token_norm=0.0: _times(real(self, token_norm), 1.1)))),
    Plant("li2025.input_norm_bounds", "norm_bound hands out a stated bound 10% low",
          _attr("petheory.bounds.norm_bound", lambda real: (lambda *a, **k: _lower_stated(real(*a, **k))))),
    Plant("li2025.wavelet_unnormalised_norm#upper_bound", "the growth fits' ratio exponents 1 higher",
          _attr("petheory.bounds.wavelet_norm_growth", lambda real: (lambda *a, **k: _steeper_growth(real(*a, **k))))),
    Plant("li2025.wavelet_atom_decay__corrected", "the wavelet function tripled",
          _attr("petheory.encodings.absolute.wavefun", lambda real: (lambda *a, **k: _tripled(real(*a, **k))))),
    Plant("li2025.wavelet_atom_decay__corrected", "the atoms tripled",
          _attr("petheory.encodings.absolute.wavelet_atoms", lambda real: (lambda *a, **k: _tripled(real(*a, **k))))),
    Plant("li2025.alibi_monotone_bias", "(none)", lambda mp: None, reads=("petheory.encodings.bias:alibi_slopes",),
          equivalent="the slopes only pick which slope a case draws: the bias is monotone for every slope >= 0, and a "
          "negative slope is refused by alibi() (ValidationError), so no schedule can flip it; the schedules are "
          "pinned by tests/theory against Press et al.'s and gu2025's"),
    Plant("cirrincione2026.hellinger_mds_optimal#strain", "(none: smacof)", lambda mp: None, reads=("petheory.geometry.mds:smacof",),
          equivalent="SMACOF is the rival the reading compares classical MDS against: a worse rival cannot flip 'MDS is "
          "optimal', and a better one would have to beat the optimum; SMACOF's own descent is tests/theory's"),
    Plant("cirrincione2026.hellinger_mds_optimal#strain", "(none: stress)", lambda mp: None,
          reads=("petheory.geometry.stress_measures:stress",),
          equivalent="read only by hellinger_mds_optimal's stress reading, which is refuted (the tracer credits a claim's "
          "reads to each of its holding readings); the strain reading compares strains, not stress"),
    Plant("cirrincione2026.rank_bound", "the effective rank one too many",
          _attr("petheory.geometry.rank.effective_rank", lambda real: (lambda B, tol=None, **k: real(B, tol, **k) + 1))),
    Plant("cirrincione2026.minimal_parametrisation__corrected", "the factorisation says it saves parameters always",
          _attr("petheory.geometry.rank.Factorisation.saves", lambda real: property(lambda self: True))),
    Plant("chen2025.pe_no_new_capability", "the POLA matrix gains a position ramp",
          _attr("petheory.lengthgen.pola.pola_matrix", lambda real: (lambda pe, theta, pos, **k: _ramped(real(pe, theta, pos, **k))))),
    Plant("gu2025.szego", "the kernel registry hands out a kernel whose column is 10% high",
          _attr("petheory.toeplitz.kernel", lambda real: (lambda name: _heavier_kernel(real(name))))),
    Plant("li2025.wavelet_atom_decay#uniform_c_paper_amplitude", "the scale ratios doubled",
          _attr("petheory.bounds.wavelet_scale_ratios", lambda real: (lambda *a, **k: _doubled(real(*a, **k))))),
    Plant("li2025.wavelet_extrapolation__corrected", "the support length one short",
          _attr("petheory.bounds.wavelet_support_length", lambda real: (lambda *a, **k: real(*a, **k) - 1))),
    Plant("li2025.learned_no_extrapolation", "build_model gives the learned table a sinusoidal tail",
          _attr("petheory.nn.build_model", lambda real: (lambda cfg: real(_sinusoidal_cfg(cfg))))),
    Plant("huang2025.interleave_full_frequency", "the resolver reads every Qwen-VL config as Qwen2.5-VL's (chunked)",
          _attr("proofs_check.claims.huang2025.resolve_config", lambda real: (lambda cfg: real(_as_qwen25(cfg))))),
    Plant("barbero2024.nope_cannot_sharpen", "the PE spec parsed as RoPE whatever it says",
          _attr("petheory.nn.transformer.parse_pe", lambda real: (lambda spec: real("rope" if spec in ("nope",) else spec)))),
    Plant("kazemnejad2023.nope_absolute_position", "the attention built without its causal mask",
          _attr("petheory.nn.transformer.Attention.__init__", lambda real: _init_not_causal(real))),
    Plant("kazemnejad2023.nope_absolute_position", "config validation drops causal",
          _attr("petheory.nn.transformer.ModelConfig.validate", lambda real: _validate_not_causal(real))),
    # ---- the last nine library functions holds claims read (issue 42, round 2)
    Plant("chen2025.pe_no_new_capability", "absolute pair features formed over one axis: phi(i) o phi(j) (D = d, not d^2)",
          _attr("petheory.lengthgen.pola.basis", _kron_as_hadamard)),
    Plant("chen2025.pe_no_new_capability", "position tables read from position 1 (rows off by one)",
          _attr("petheory.lengthgen.pola.position_table", _rows_from_one)),
    Plant("chen2025.pe_no_new_capability", "the POLA width halved (d counted in rotary pairs)",
          _attr("petheory.lengthgen.pola.pola_pe", lambda real: (lambda pe, *, d=8, **p: real(pe, d=d // 2, **p)))),
    Plant("chen2025.lrc_characterises_lg", "generalises() never tests the last size (its range one short)",
          _attr("petheory.lengthgen.pola.generalises", _test_sizes_short)),
    Plant("chen2025.lrc_characterises_lg", "a realisability decision taken the other way round (pola.decided negated)",
          _attr("petheory.lengthgen.pola.decided", lambda real: (lambda ratio, separation=1e2: not real(ratio, separation)))),
    Plant("chen2025.lrc_characterises_lg", "LRC.certified with the residual test reversed (certified inside the band)",
          _attr("petheory.lengthgen.pola.LRC.certified", _certified_band_reversed)),
    Plant("li2025.wavelet_atom_decay#uniform_c_paper_amplitude", "the mother wavelet's C without its e^{beta u} weight",
          _attr("petheory.bounds.wavelet_decay_fit", _unweighted_decay_constant)),
    Plant("li2025.wavelet_atom_decay#uniform_c_paper_amplitude", "(none: fit_line)", lambda mp: None,
          reads=("petheory.fits:fit_line",),
          equivalent="the fitted trend of log2 C_j decides only the uniform_c reading (refuted) and the details: the "
          "holding readings decide by the constant the argument constructs (uniform_c_paper_amplitude: C_psi(beta) "
          "e^{beta h} bounds every C_j) and by finiteness (c_depends_on_jmax), neither of which reads the fit; the fit "
          "itself is tests/theory's (petheory.fits against scipy's linregress)"),
    Plant("li2025.wavelet_extrapolation__corrected", "the support's end one position early (floor(end), no + 1)",
          _attr("petheory.bounds.wavelet_support_end", lambda real: (lambda *a, **k: real(*a, **k) - 1))),
    Plant("yu2025.commuting_iff_relative", "the library's rotation turns by angle (1 + 1e-3 angle) (not linear in the position)",
          _attr("petheory.encodings.rotary.RotaryTable.apply", _angles_not_linear)),
    Plant("yu2025.commuting_iff_relative", "the RoPE table skips position 1 (angles (p + 1) theta from p = 1 on)",
          _attr("petheory.encodings.rotary.rope", _rope_skips_position_one)),
    Plant("li2025.wavelet_atom_decay__corrected", "the amplitude of scale j read at -j (a level index for a scale)",
          _attr("petheory.encodings.absolute.wavelet_amplitude", lambda real: (lambda j, nm: real(-j, nm)))),
]


