"""Planted violations of the claim catalogue: a claim's ``plants=`` are :class:`Plant` objects built with these helpers.

A plant is a function ``plant(mp)`` that monkeypatches (``pytest.MonkeyPatch``) the library function, the encoding
registry entry or the claim module's helper that the registered checker calls at run time, at the path the checker
reads it (a package re-export, a registry entry, a name a claim module imported). A claim declares its plants with its
other fields (``claim(..., plants=(Plant(...), ...))``, a reading in its :class:`~proofs_check.engine.Reading`);
``tools/mutate_claims.py`` (the mutation pass) and the catalogue's tests read them from the registry.
:meth:`Plant.targets` names the library functions a plant plants, where they are defined ('module:qualname'), as the
pass's tracer names what a checker calls. Nothing here runs at import: a plant resolves its paths when it is planted
or asked for its targets (so the catalogue imports no torch).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Plant:
    """One planted violation of the claim (or reading) that declares it.

    ``what`` says what is planted; ``plant(mp)`` plants it; ``equivalent`` (instead of a plant that flips the claim)
    is the argument why no change of the function named in ``reads`` can flip it; ``reads`` names the library
    functions planted ('module:qualname') where the plant does not carry them (:func:`attr`, :func:`scaled` and
    :func:`registry` plants do).

    Attributes
    ----------
    what : str
        What is planted.
    plant : callable
        ``plant(mp)``: plants it with a ``pytest.MonkeyPatch``.
    equivalent : str
        Instead of a plant that flips the claim, the argument why no change of the functions in ``reads`` can flip it.
    reads : tuple of str
        The library functions planted (``'module:qualname'``), where the plant does not carry them.
    """

    what: str
    plant: object  # (mp: pytest.MonkeyPatch) -> None
    equivalent: str = ""
    reads: tuple = ()

    def targets(self) -> tuple:
        """The library functions this plant plants, 'module:qualname' where each is defined."""
        if self.reads:
            return tuple(self.reads)
        reads = getattr(self.plant, "reads", ())
        return tuple(reads() if callable(reads) else reads)


def dotted_to_read(path: str) -> str:
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


def scaled(path: str, factor: float, add: float = 0.0):
    """Plant: the function at dotted ``path`` returns ``factor * real + add``."""
    def plant(mp):
        import importlib

        mod, name = path.rsplit(".", 1)
        real = getattr(importlib.import_module(mod), name)
        mp.setattr(path, lambda *a, **k: factor * real(*a, **k) + add)
    plant.reads = lambda: (dotted_to_read(path),)
    return plant


def registry(pe: str, wrap):
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

    def reads():
        from petheory import encodings as enc

        fn = enc.info(pe).fn
        return (f"{fn.__module__}:{fn.__qualname__}",)
    plant.reads = reads
    return plant


class Undo:
    """Undo actions a plant cannot express as a monkeypatch; run (and emptied) after each plant."""

    actions: list = []


def compose(fn):
    def plant(mp):
        from petheory import coupling as cp

        real = cp.compose
        mp.setattr("petheory.coupling.compose", lambda A, B, mode: fn(real, A, B, mode))
    plant.reads = ("petheory.coupling.composition:compose",)
    return plant


def lemma_b1(factor):
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


def attr(path: str, make):
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
    plant.reads = lambda: (dotted_to_read(path),)
    return plant


def last_token_off_the_prefix(real):
    """wu2025's prefix mask with the last token's edges to the K prefix tokens removed."""
    def mask(n, k):
        m = real(n, k)
        m[n - 1, :k] = False
        return m
    return mask


def key_twice_position(real):
    """kazemnejad2023's construction with 2 lam i in the key: logits lam (2i - t), not a function of t - i (a +t in the
    query instead would add a constant per row, which no softmax can see)."""
    def plant(content_dim, head_dim, lam, rng):
        w_q, w_k = real(content_dim, head_dim, lam, rng)
        w_k[w_k.shape[0] - 1, content_dim] = 2 * lam
        return w_q, w_k
    return plant


def skip_endpoint(real):
    """men_min_kernel scanning 0..L-1: the off-by-one that skips m = L."""
    return lambda freqs, context, **k: real(freqs, max(1, context - 1), **k)


def column_softmax(real):
    """The softmax along the wrong axis (columns), same shape."""
    return lambda M: real(np.asarray(M, float).T).T


def triple_angle(real):
    from petheory.encodings import rotary

    return lambda self, x: real(rotary.RotaryTable(3.0 * self.angles, self.d, self.pairing), x)


def superlinear_angles(real):
    from petheory.encodings import rotary

    def table(n, d, **k):
        t = real(n, d, **k)
        return rotary.RotaryTable(t.angles * np.sqrt(np.arange(n))[:, None], t.d, t.pairing)
    return table


def not_causal(real):
    def heads(self, x, return_probs=False):
        was, self.causal = self.causal, False
        try:
            return real(self, x, return_probs)
        finally:
            self.causal = was
    return heads


def position_leak(real):
    def qkv(self, x):
        q, k, v, scale = real(self, x)
        import torch

        pos = torch.arange(q.shape[-2], dtype=q.dtype)[:, None]  # (T, 1): the position, added to every coordinate
        return q + pos, k + pos, v, scale
    return qkv


def reversed_rotary(real):
    def cos_sin(self, T, device, dtype=None, key=False):
        c, s_ = real(self, T, device, dtype, key=key) if dtype is not None else real(self, T, device, key=key)
        return c, -s_
    return cos_sin


def no_rotation(real):
    def cos_sin(self, T, device, dtype=None, key=False):
        c, s_ = real(self, T, device, dtype, key=key) if dtype is not None else real(self, T, device, key=key)
        return c * 0 + 1, s_ * 0
    return cos_sin


def proportional_as_partial(real):
    def scheme(cfg, rope, where, **k):
        if rope.get("rope_type") == "proportional":
            rope = {**rope, "rope_type": "default"}
        return real(cfg, rope, where, **k)
    return scheme


def chunked_axes(real):
    import dataclasses

    def band_axes(self):
        return real(dataclasses.replace(self, layout="chunked"))
    return band_axes


def shrunk_extrema(ext):
    import dataclasses

    return dataclasses.replace(ext, max=ext.max - 0.01 * (1 + abs(ext.max)))


def heavier_kernel(kern):
    import dataclasses

    coef = kern.coefficients
    return dataclasses.replace(kern, coefficients=lambda n, L: 1.1 * coef(n, L))


def steeper(fit, by: float = 0.5):
    import dataclasses

    return dataclasses.replace(fit, slope=fit.slope + by, slope_ci=(fit.slope_ci[0] + by, fit.slope_ci[1] + by))


def halve_first(terms):
    if isinstance(terms, tuple):
        return (0.5 * terms[0],) + tuple(terms[1:])
    if isinstance(terms, dict):
        k0 = next(iter(terms))
        return {**terms, k0: 0.5 * np.asarray(terms[k0])}
    return 0.5 * terms


def times(x, f):
    return None if x is None else f * x


def steeper_growth(g: dict) -> dict:
    import dataclasses

    out = dict(g)
    out["ratio_fit"] = steeper(g["ratio_fit"], 1.0) if dataclasses.is_dataclass(g["ratio_fit"]) else {
        **g["ratio_fit"], "slope": g["ratio_fit"]["slope"] + 1.0,
        "slope_ci": [g["ratio_fit"]["slope_ci"][0] + 1.0, g["ratio_fit"]["slope_ci"][1] + 1.0]}
    return out


def doubled(x):
    if isinstance(x, dict):
        return {k: (2.0 * np.asarray(v) if isinstance(v, (list, np.ndarray, float)) else v) for k, v in x.items()}
    return 2.0 * np.asarray(x)


def tripled(x):
    if isinstance(x, tuple):
        return tuple(3.0 * np.asarray(v) if i == 0 else v for i, v in enumerate(x))
    return 3.0 * np.asarray(x)


def ramped(M):
    M = np.asarray(M, float)
    return M + 1e-3 * np.arange(M.shape[-1])[None, :] * np.arange(M.shape[0])[:, None]


def sinusoidal_cfg(cfg):
    import dataclasses

    from petheory.nn.transformer import ModelConfig

    c = cfg if isinstance(cfg, ModelConfig) else ModelConfig(**cfg)
    return dataclasses.replace(c, pe="sinusoidal") if "learned" in str(c.pe) else c


def as_qwen25(cfg):
    cfg = dict(cfg)
    if cfg.get("model_type") == "qwen3_vl":
        cfg["model_type"] = "qwen2_5_vl"
        cfg["rope_scaling"] = {k: v for k, v in cfg.get("rope_scaling", {}).items() if k != "mrope_interleaved"}
    return cfg


def init_not_causal(real):
    def init(self, cfg, pe):
        real(self, cfg, pe)
        self.causal = False
    return init


def validate_not_causal(real):
    def validate(self):
        out = real(self)
        if self.head != "lm":
            self.causal = False
        return out
    return validate


def shifted_symbol(out):
    t, f = out
    return t, f + 0.1 * (np.max(f) - np.min(f))


def negated(fit):
    import dataclasses

    return dataclasses.replace(fit, slope=-fit.slope, slope_ci=(-fit.slope_ci[1], -fit.slope_ci[0]))


def lower_stated(nb):
    import dataclasses

    return dataclasses.replace(nb, stated=None if nb.stated is None else 0.9 * nb.stated)


def rope_sign(mp):
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply
    mp.setattr(rotary.RotaryTable, "apply", lambda self, x: real(rotary.RotaryTable(-self.angles, self.d, self.pairing), x))


rope_sign.reads = ("petheory.encodings.rotary:RotaryTable.apply",)


def rope_drift(mp):
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply_at
    mp.setattr(rotary.RotaryTable, "apply_at", lambda self, x, p: real(self, x, p) * (1 + 1e-6 * p))


rope_drift.reads = ("petheory.encodings.rotary:RotaryTable.apply_at",)


def leaky_learned(mp):
    from petheory.encodings import absolute

    real = absolute.learned

    def leaky(n, d, *, n_max=None, beyond="error", **k):
        out = real(n, d, n_max=n_max, beyond="clamp", **k)
        return out + 1e-3 * (np.arange(n)[:, None] >= (n_max or n))
    mp.setattr("petheory.encodings.absolute.learned", leaky)


leaky_learned.reads = ("petheory.encodings.absolute:learned",)


def mds_inexact(mp):
    import dataclasses

    from petheory.geometry import mds

    real = mds.classical_mds
    mp.setattr("petheory.geometry.mds.classical_mds",
               lambda D, rank=None, **kw: dataclasses.replace(real(D, rank=rank, **kw), embedding=1.01 * real(D, rank=rank, **kw).embedding))


mds_inexact.reads = ("petheory.geometry.mds:classical_mds",)


def bent_alibi(mp):
    from petheory.geometry import induced

    real = induced.bias_distances
    mp.setattr("petheory.geometry.induced.bias_distances", lambda B, m="gap": np.sqrt(real(B, m)))


bent_alibi.reads = ("petheory.geometry.induced:bias_distances",)


def minimal_param(mp):
    import dataclasses

    from petheory.geometry import rank

    real = rank.minimal_parametrisation
    mp.setattr("petheory.geometry.rank.minimal_parametrisation",
               lambda X, rank: dataclasses.replace(real(X, rank=rank), error=real(X, rank=rank).error * 1.5 + 1e-3))


minimal_param.reads = ("petheory.geometry.rank:minimal_parametrisation",)


def gram_not_centred(mp):
    from petheory.geometry import mds

    real = mds.gram_from_distances
    mp.setattr("petheory.geometry.mds.gram_from_distances", lambda D: real(D) + 1e-3)


gram_not_centred.reads = ("petheory.geometry.mds:gram_from_distances",)


def span_grows(mp):
    from petheory.lengthgen import pola

    real = pola.span_dimension
    mp.setattr(pola, "span_dimension", lambda pe, n, masked=True: real(pe, n, masked=masked) + (n * n if pe != "learned" else 0))


span_grows.reads = ("petheory.lengthgen.pola:span_dimension",)


def szego_growing(mp):
    from petheory.toeplitz import szego

    real = szego.spectral_distribution

    def growing(c, *a, **k):
        sd = real(c, *a, **k)
        sd.kolmogorov = 1e-3 * np.log(len(c))  # a distance that grows with N
        return sd
    mp.setattr("petheory.toeplitz.szego.spectral_distribution", growing)


szego_growing.reads = ("petheory.toeplitz.szego:spectral_distribution",)


def eigs_escape(mp):
    import dataclasses

    from petheory import toeplitz as tp

    real = tp.extreme_eigenvalues

    def escaping(c, *a, **k):
        r = real(c, *a, **k)
        lo = dataclasses.replace(r.min, value=r.min.value - 0.01 * (1 + abs(r.min.value)))
        return tp.ExtremeEigenvalues(lo, r.max)
    mp.setattr("petheory.toeplitz.eigen.extreme_eigenvalues", escaping)


eigs_escape.reads = ("petheory.toeplitz.eigen:extreme_eigenvalues",)


def kron_as_hadamard(real):
    """The absolute pair features phi(i) (x) phi(j) formed over one axis: phi(i) o phi(j) (D = d, not :math:`d^2`)."""
    def basis(pe, pos, seg=None):
        mode, B = real(pe, pos, seg)
        from petheory.lengthgen import pola

        p = pola.pola_pe(pe)
        if mode == "dense" and p.kind == "absolute":
            L = B.shape[0]
            B = np.ascontiguousarray(B.reshape(L, L, p.d, p.d).diagonal(axis1=2, axis2=3))
        return mode, B
    return basis


def rows_from_one(real):
    """position_table's rows for positions 1..n (off by one) instead of 0..n-1."""
    return lambda pe, n: real(pe, n + 1)[1:]


def test_sizes_short(real):
    """generalises() testing sizes up to ``N_test - 1``: the last size never tested (an off-by-one in the range)."""
    def planted(pe, name, N_train, N_test, **k):
        return real(pe, name, N_train, max(N_train, N_test - 1), **k)
    return planted


def certified_band_reversed(real):
    """LRC.certified with the residual test's comparison reversed: certified inside the band (1/s, s) it should
    exclude."""
    def certified(self, separation=1e2):
        r = self.realisation
        ratio = r.residual / max(r.residual_tol, np.finfo(float).tiny)
        return (1.0 / separation < ratio < separation) and r.rank_gap >= separation
    return certified


def unweighted_decay_constant(real):
    """wavelet_decay_fit's C without its :math:`e^{\\beta u}` weight: :math:`\\max\\lvert\\psi\\rvert` (too small for every :math:`\\beta > 0`)."""
    def fit(wavelet="db2", **k):
        import dataclasses

        from petheory import encodings as enc

        f = real(wavelet, **k)
        return dataclasses.replace(f, C=float(np.max(np.abs(enc.wavefun(wavelet, k.get("resolution", 10))[1]))))
    return fit


def angles_not_linear(real):
    """RotaryTable.apply turning by angle (1 + 1e-3 angle): no longer linear in the position (a per-position scaling)."""
    from petheory.encodings import rotary

    return lambda self, x: real(rotary.RotaryTable(self.angles * (1 + 1e-3 * self.angles), self.d, self.pairing), x)


def rope_skips_position_one(real):
    """rope()'s table with positions 1, 2, ... read one late (angles (p + 1) theta for p >= 1): an off-by-one."""
    def rope(n, d, **k):
        import dataclasses

        t = real(n + 1, d, **k)
        return dataclasses.replace(t, angles=np.concatenate([t.angles[:1], t.angles[2:]]))
    return rope
