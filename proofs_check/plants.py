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
    """The function at dotted ``path``, named where it is defined: ``'module:qualname'``, as the tracer names what a
    checker calls.

    ``path`` may name a module attribute, a package re-export, a name a claim module imported, or a class attribute.

    Parameters
    ----------
    path : str
        The dotted path.

    Returns
    -------
    str
        ``'module:qualname'`` of the function.

    Examples
    --------
    >>> dotted_to_read("petheory.encodings.rope")
    'petheory.encodings.rotary:rope'
    """
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
    """Plant: the function at dotted ``path`` returns ``factor * real + add``.

    Parameters
    ----------
    path : str
        The function's dotted path.
    factor : float
        The factor.
    add : float, optional
        The shift.

    Returns
    -------
    callable
        ``plant(mp)``, carrying ``reads`` (the function, named where it is defined).

    Examples
    --------
    >>> import pytest
    >>> from petheory import rounding
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     scaled("petheory.rounding.unit_roundoff", 2.0)(mp)
    ...     rounding.unit_roundoff() == 2.0 ** -52
    True
    """
    def plant(mp):
        import importlib

        mod, name = path.rsplit(".", 1)
        real = getattr(importlib.import_module(mod), name)
        mp.setattr(path, lambda *a, **k: factor * real(*a, **k) + add)
    plant.reads = lambda: (dotted_to_read(path),)
    return plant


def registry(pe: str, wrap):
    """Plant: the encoding registry entry ``pe`` replaced by ``wrap(real_fn)``, with the real function's signature.

    Registered with the public ``register(..., overwrite=True)``; the original entry is registered back on undo.

    Parameters
    ----------
    pe : str
        The registry entry.
    wrap : callable
        ``wrap(real_fn) ->`` the planted function.

    Returns
    -------
    callable
        ``plant(mp)``, carrying ``reads``.

    Examples
    --------
    >>> import pytest
    >>> from petheory import encodings as enc
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     registry("sinusoidal", lambda real: lambda n, d, **k: 2 * real(n, d, **k))(mp)
    ...     planted = float(enc.get("sinusoidal")(2, 4)[0, 1])
    ...     for undo in Undo.actions:  # what the harness runs after each plant
    ...         _ = undo()
    >>> planted, float(enc.get("sinusoidal")(2, 4)[0, 1])
    (2.0, 1.0)
    """
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
    """Plant: :func:`petheory.coupling.compose` replaced by ``fn(real, A, B, mode)``.

    Parameters
    ----------
    fn : callable
        ``fn(real, A, B, mode) ->`` the planted composition.

    Returns
    -------
    callable
        ``plant(mp)``, carrying ``reads``.

    Examples
    --------
    >>> import numpy as np, pytest
    >>> from petheory import coupling as cp
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     compose(lambda real, A, B, mode: real(A, B, mode) + 1.0)(mp)
    ...     float(cp.compose(np.zeros((2, 2)), np.zeros((2, 2)), "additive")[0, 0])
    1.0
    """
    def plant(mp):
        from petheory import coupling as cp

        real = cp.compose
        mp.setattr("petheory.coupling.compose", lambda A, B, mode: fn(real, A, B, mode))
    plant.reads = ("petheory.coupling.composition:compose",)
    return plant


def lemma_b1(factor):
    """Plant: Lemma B.1's f extrema scaled by ``factor``.

    Parameters
    ----------
    factor : float
        The factor on f's minimum and maximum.

    Returns
    -------
    callable
        ``plant(mp)``, carrying ``reads``.

    Examples
    --------
    >>> import pytest
    >>> from petheory.toeplitz import phase_modulation as pm
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     lemma_b1(2.0)(mp)
    ...     r = pm.lemma_b1([1.0, 1.0], [0.0, 1.0])
    >>> bool(r.f.max > r.bound)  # the lemma's max |f| <= 2 sum w, violated
    True
    """
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
    """Plant: ``path`` replaced by ``make(real)``; ``path`` is ``'module.function'`` or ``'module.Class.method'``.

    Parameters
    ----------
    path : str
        What to replace.
    make : callable
        ``make(real) ->`` the replacement.

    Returns
    -------
    callable
        ``plant(mp)``, carrying ``reads``.

    Examples
    --------
    >>> import pytest
    >>> from petheory import rounding
    >>> with pytest.MonkeyPatch.context() as mp:
    ...     attr("petheory.rounding.unit_roundoff", lambda real: lambda dtype=float: 4 * real(dtype))(mp)
    ...     rounding.unit_roundoff() == 2.0 ** -51
    True
    """
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
    """wu2025's prefix mask with the last token's edges to the K prefix tokens removed.

    Parameters
    ----------
    real : callable
        The prefix mask.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> import numpy as np
    >>> last_token_off_the_prefix(lambda n, k: np.ones((n, n), bool))(3, 1)[2].tolist()
    [False, True, True]
    """
    def mask(n, k):
        m = real(n, k)
        m[n - 1, :k] = False
        return m
    return mask


def key_twice_position(real):
    """kazemnejad2023's construction with 2 lam i in the key: logits lam (2i - t), not a function of t - i (a +t in the
    query instead would add a constant per row, which no softmax can see).

    Parameters
    ----------
    real : callable
        The construction's weights.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> import numpy as np
    >>> w_q, w_k = key_twice_position(lambda c, h, lam, rng: (np.zeros((3, 3)), np.zeros((3, 3))))(1, 1, 0.5, None)
    >>> float(w_k[2, 1])
    1.0
    """
    def plant(content_dim, head_dim, lam, rng):
        w_q, w_k = real(content_dim, head_dim, lam, rng)
        w_k[w_k.shape[0] - 1, content_dim] = 2 * lam
        return w_q, w_k
    return plant


def skip_endpoint(real):
    """men_min_kernel scanning 0..L-1: the off-by-one that skips m = L.

    Parameters
    ----------
    real : callable
        :func:`petheory.bounds.men_base.men_min_kernel`.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> skip_endpoint(lambda freqs, context, **k: context)([1.0], 8)
    7
    """
    return lambda freqs, context, **k: real(freqs, max(1, context - 1), **k)


def column_softmax(real):
    """The softmax along the wrong axis (columns), same shape.

    Parameters
    ----------
    real : callable
        The row softmax.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> import numpy as np
    >>> column_softmax(lambda M: M / M.sum(1, keepdims=True))(np.array([[1.0, 1.0], [1.0, 3.0]])).tolist()
    [[0.5, 0.25], [0.5, 0.75]]
    """
    return lambda M: real(np.asarray(M, float).T).T


def triple_angle(real):
    """RotaryTable.apply turning three times as far.

    Parameters
    ----------
    real : callable
        ``RotaryTable.apply``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(triple_angle(lambda self, x: x))
    True
    """
    from petheory.encodings import rotary

    return lambda self, x: real(rotary.RotaryTable(3.0 * self.angles, self.d, self.pairing), x)


def superlinear_angles(real):
    """rope()'s table with its angles times the square root of the position: no longer linear in it.

    Parameters
    ----------
    real : callable
        The rotary encoding function.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> from petheory.encodings import rope
    >>> t = superlinear_angles(rope)(4, 8)
    >>> bool(t.angles[0, 0] == 0.0 and t.angles[3, 0] > 3 * rope(4, 8).angles[1, 0])
    True
    """
    from petheory.encodings import rotary

    def table(n, d, **k):
        t = real(n, d, **k)
        return rotary.RotaryTable(t.angles * np.sqrt(np.arange(n))[:, None], t.d, t.pairing)
    return table


def not_causal(real):
    """An attention layer's heads computed without the causal mask.

    Parameters
    ----------
    real : callable
        ``Attention.heads``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(not_causal(lambda self, x, return_probs=False: x))
    True
    """
    def heads(self, x, return_probs=False):
        was, self.causal = self.causal, False
        try:
            return real(self, x, return_probs)
        finally:
            self.causal = was
    return heads


def position_leak(real):
    """An attention layer's queries and keys with the position added to every coordinate.

    Parameters
    ----------
    real : callable
        ``Attention.qkv``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(position_leak(lambda self, x: x))
    True
    """
    def qkv(self, x):
        q, k, v, scale = real(self, x)
        import torch

        pos = torch.arange(q.shape[-2], dtype=q.dtype)[:, None]  # (T, 1): the position, added to every coordinate
        return q + pos, k + pos, v, scale
    return qkv


def reversed_rotary(real):
    """A rotary module's sines negated: it turns the other way.

    Parameters
    ----------
    real : callable
        ``Rotary.cos_sin``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(reversed_rotary(lambda self, T, device, key=False: (1.0, 0.0)))
    True
    """
    def cos_sin(self, T, device, dtype=None, key=False):
        c, s_ = real(self, T, device, dtype, key=key) if dtype is not None else real(self, T, device, key=key)
        return c, -s_
    return cos_sin


def no_rotation(real):
    """A rotary module's angles all zero: it does not turn.

    Parameters
    ----------
    real : callable
        ``Rotary.cos_sin``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(no_rotation(lambda self, T, device, key=False: (1.0, 0.0)))
    True
    """
    def cos_sin(self, T, device, dtype=None, key=False):
        c, s_ = real(self, T, device, dtype, key=key) if dtype is not None else real(self, T, device, key=key)
        return c * 0 + 1, s_ * 0
    return cos_sin


def proportional_as_partial(real):
    """A ``proportional`` RoPE dict read as ``default`` (the whole-head ladder dropped).

    Parameters
    ----------
    real : callable
        :func:`petheory.models.rope.rope_scheme`.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> proportional_as_partial(lambda cfg, rope, where, **k: rope['rope_type'])({}, {'rope_type': 'proportional'}, '')
    'default'
    """
    def scheme(cfg, rope, where, **k):
        if rope.get("rope_type") == "proportional":
            rope = {**rope, "rope_type": "default"}
        return real(cfg, rope, where, **k)
    return scheme


def chunked_axes(real):
    """Band axes computed as if the layout were chunked.

    Parameters
    ----------
    real : callable
        The band-axes method.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(chunked_axes(lambda self: None))
    True
    """
    import dataclasses

    def band_axes(self):
        return real(dataclasses.replace(self, layout="chunked"))
    return band_axes


def shrunk_extrema(ext):
    """Symbol extrema whose maximum is a little lower than computed.

    Parameters
    ----------
    ext : petheory.toeplitz.symbols.SymbolExtrema
        The extrema.

    Returns
    -------
    petheory.toeplitz.symbols.SymbolExtrema
        The changed extrema.

    Examples
    --------
    >>> from petheory.toeplitz import symbol_extrema
    >>> e = symbol_extrema([2.0, 1.0])
    >>> shrunk_extrema(e).max < e.max
    True
    """
    import dataclasses

    return dataclasses.replace(ext, max=ext.max - 0.01 * (1 + abs(ext.max)))


def heavier_kernel(kern):
    """A closed-form kernel whose coefficients are 10% larger.

    Parameters
    ----------
    kern : petheory.toeplitz.closed_forms.Kernel
        The kernel.

    Returns
    -------
    petheory.toeplitz.closed_forms.Kernel
        The changed kernel.

    Examples
    --------
    >>> from petheory.toeplitz import kernel
    >>> k = kernel('exponential')
    >>> float(heavier_kernel(k).coefficients(2, 4.0)[0] / k.coefficients(2, 4.0)[0])
    1.1
    """
    import dataclasses

    coef = kern.coefficients
    return dataclasses.replace(kern, coefficients=lambda n, L: 1.1 * coef(n, L))


def steeper(fit, by: float = 0.5):
    """A line fit with ``by`` added to its slope and interval.

    Parameters
    ----------
    fit : petheory.fits.LineFit
        A fit.
    by : float, optional
        The increase.

    Returns
    -------
    petheory.fits.LineFit
        The steeper fit.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.fits import fit_line
    >>> steeper(fit_line(np.arange(5.0), 2 * np.arange(5.0))).slope
    2.5
    """
    import dataclasses

    return dataclasses.replace(fit, slope=fit.slope + by, slope_ci=(fit.slope_ci[0] + by, fit.slope_ci[1] + by))


def halve_first(terms):
    """The first of several terms halved (a tuple's first item, a dict's first entry, or the array).

    Parameters
    ----------
    terms : tuple, dict or array_like
        The terms.

    Returns
    -------
    tuple, dict or numpy.ndarray
        The same terms with the first halved.

    Examples
    --------
    >>> halve_first((2.0, 3.0))
    (1.0, 3.0)
    """
    if isinstance(terms, tuple):
        return (0.5 * terms[0],) + tuple(terms[1:])
    if isinstance(terms, dict):
        k0 = next(iter(terms))
        return {**terms, k0: 0.5 * np.asarray(terms[k0])}
    return 0.5 * terms


def times(x, f):
    """``f * x``, or None for None.

    Parameters
    ----------
    x : float or None
        A value.
    f : float
        The factor.

    Returns
    -------
    float or None
        The product.

    Examples
    --------
    >>> times(3, 2), times(None, 2)
    (6, None)
    """
    return None if x is None else f * x


def steeper_growth(g: dict) -> dict:
    """A growth summary whose ``ratio_fit`` slope (and interval) is 1 steeper (a fit or its dict).

    Parameters
    ----------
    g : dict
        A growth summary with ``ratio_fit``.

    Returns
    -------
    dict
        The changed summary.

    Examples
    --------
    >>> steeper_growth({'ratio_fit': {'slope': 0.5, 'slope_ci': [0.4, 0.6]}})['ratio_fit']['slope']
    1.5
    """
    import dataclasses

    out = dict(g)
    out["ratio_fit"] = steeper(g["ratio_fit"], 1.0) if dataclasses.is_dataclass(g["ratio_fit"]) else {
        **g["ratio_fit"], "slope": g["ratio_fit"]["slope"] + 1.0,
        "slope_ci": [g["ratio_fit"]["slope_ci"][0] + 1.0, g["ratio_fit"]["slope_ci"][1] + 1.0]}
    return out


def doubled(x):
    """``x`` doubled: an array, or each array-valued entry of a dict.

    Parameters
    ----------
    x : array_like or dict
        A result.

    Returns
    -------
    numpy.ndarray or dict
        The doubled result.

    Examples
    --------
    >>> doubled([1.0]).tolist(), doubled({'a': 1.0, 'n': 'x'})['n']
    ([2.0], 'x')
    """
    if isinstance(x, dict):
        return {k: (2.0 * np.asarray(v) if isinstance(v, (list, np.ndarray, float)) else v) for k, v in x.items()}
    return 2.0 * np.asarray(x)


def tripled(x):
    """``x`` tripled: an array, or the first item of a tuple.

    Parameters
    ----------
    x : array_like or tuple
        A result.

    Returns
    -------
    numpy.ndarray or tuple
        The tripled result.

    Examples
    --------
    >>> tripled([1.0]).tolist()
    [3.0]
    """
    if isinstance(x, tuple):
        return tuple(3.0 * np.asarray(v) if i == 0 else v for i, v in enumerate(x))
    return 3.0 * np.asarray(x)


def ramped(M):
    """``M`` plus a small ramp ``1e-3 i j``: no longer Toeplitz.

    Parameters
    ----------
    M : array_like, shape (n, m)
        A matrix.

    Returns
    -------
    numpy.ndarray
        The ramped matrix.

    Examples
    --------
    >>> ramped([[0.0, 0.0], [0.0, 0.0]]).tolist()
    [[0.0, 0.0], [0.0, 0.001]]
    """
    M = np.asarray(M, float)
    return M + 1e-3 * np.arange(M.shape[-1])[None, :] * np.arange(M.shape[0])[:, None]


def sinusoidal_cfg(cfg):
    """A model config with a learned PE read as sinusoidal; any other as it is.

    Parameters
    ----------
    cfg : ModelConfig or dict
        A model config.

    Returns
    -------
    ModelConfig
        The changed config.

    Examples
    --------
    >>> str(sinusoidal_cfg({'pe': 'learned', 'head': 'regression'}).pe)
    'sinusoidal'
    """
    import dataclasses

    from petheory.nn.transformer import ModelConfig

    c = cfg if isinstance(cfg, ModelConfig) else ModelConfig(**cfg)
    return dataclasses.replace(c, pe="sinusoidal") if "learned" in str(c.pe) else c


def as_qwen25(cfg):
    """A Qwen3-VL config read as Qwen2.5-VL's (without ``mrope_interleaved``); other configs as they are.

    Parameters
    ----------
    cfg : dict
        A config.

    Returns
    -------
    dict
        The changed copy.

    Examples
    --------
    >>> as_qwen25({'model_type': 'qwen3_vl', 'rope_scaling': {'mrope_interleaved': True, 'type': 'default'}})
    {'model_type': 'qwen2_5_vl', 'rope_scaling': {'type': 'default'}}
    """
    cfg = dict(cfg)
    if cfg.get("model_type") == "qwen3_vl":
        cfg["model_type"] = "qwen2_5_vl"
        cfg["rope_scaling"] = {k: v for k, v in cfg.get("rope_scaling", {}).items() if k != "mrope_interleaved"}
    return cfg


def init_not_causal(real):
    """An attention layer built non-causal whatever its config says.

    Parameters
    ----------
    real : callable
        ``Attention.__init__``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(init_not_causal(lambda self, cfg, pe: None))
    True
    """
    def init(self, cfg, pe):
        real(self, cfg, pe)
        self.causal = False
    return init


def validate_not_causal(real):
    """A model config's validation that makes a non-LM model non-causal.

    Parameters
    ----------
    real : callable
        ``ModelConfig.validate``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(validate_not_causal(lambda self: self))
    True
    """
    def validate(self):
        out = real(self)
        if self.head != "lm":
            self.causal = False
        return out
    return validate


def shifted_symbol(out):
    """A symbol's values ``(theta, f)`` shifted up by a tenth of their range.

    Parameters
    ----------
    out : tuple of numpy.ndarray
        ``(theta, f)``.

    Returns
    -------
    tuple of numpy.ndarray
        The shifted values.

    Examples
    --------
    >>> import numpy as np
    >>> shifted_symbol((np.zeros(2), np.array([0.0, 1.0])))[1].tolist()
    [0.1, 1.1]
    """
    t, f = out
    return t, f + 0.1 * (np.max(f) - np.min(f))


def negated(fit):
    """A line fit with its slope (and interval) negated.

    Parameters
    ----------
    fit : petheory.fits.LineFit
        A fit.

    Returns
    -------
    petheory.fits.LineFit
        The negated fit.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.fits import fit_line
    >>> negated(fit_line(np.arange(5.0), 2 * np.arange(5.0))).slope
    -2.0
    """
    import dataclasses

    return dataclasses.replace(fit, slope=-fit.slope, slope_ci=(-fit.slope_ci[1], -fit.slope_ci[0]))


def lower_stated(nb):
    """A norm bound whose stated value is 10% lower.

    Parameters
    ----------
    nb : petheory.bounds.norms.NormBound
        A bound.

    Returns
    -------
    petheory.bounds.norms.NormBound
        The changed bound.

    Examples
    --------
    >>> from petheory.bounds.norms import norm_bound
    >>> nb = norm_bound('sinusoidal', 100, 64)
    >>> lower_stated(nb).stated == 0.9 * nb.stated
    True
    """
    import dataclasses

    return dataclasses.replace(nb, stated=None if nb.stated is None else 0.9 * nb.stated)


def rope_sign(mp):
    """Plant: RotaryTable.apply turning the other way.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``RotaryTable.apply``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     rope_sign(mp)
    """
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply
    mp.setattr(rotary.RotaryTable, "apply", lambda self, x: real(rotary.RotaryTable(-self.angles, self.d, self.pairing), x))


rope_sign.reads = ("petheory.encodings.rotary:RotaryTable.apply",)


def rope_drift(mp):
    """Plant: RotaryTable.apply_at drifting by a factor ``1 + 1e-6 p`` with the position.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``RotaryTable.apply_at``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     rope_drift(mp)
    """
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply_at
    mp.setattr(rotary.RotaryTable, "apply_at", lambda self, x, p: real(self, x, p) * (1 + 1e-6 * p))


rope_drift.reads = ("petheory.encodings.rotary:RotaryTable.apply_at",)


def leaky_learned(mp):
    """Plant: the learned table leaking 1e-3 into the positions past its training length.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.encodings.absolute.learned``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     leaky_learned(mp)
    """
    from petheory.encodings import absolute

    real = absolute.learned

    def leaky(n, d, *, n_max=None, beyond="error", **k):
        out = real(n, d, n_max=n_max, beyond="clamp", **k)
        return out + 1e-3 * (np.arange(n)[:, None] >= (n_max or n))
    mp.setattr("petheory.encodings.absolute.learned", leaky)


leaky_learned.reads = ("petheory.encodings.absolute:learned",)


def mds_inexact(mp):
    """Plant: classical MDS's embedding scaled by 1.01.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.geometry.mds.classical_mds``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     mds_inexact(mp)
    """
    import dataclasses

    from petheory.geometry import mds

    real = mds.classical_mds
    mp.setattr("petheory.geometry.mds.classical_mds",
               lambda D, rank=None, **kw: dataclasses.replace(real(D, rank=rank, **kw), embedding=1.01 * real(D, rank=rank, **kw).embedding))


mds_inexact.reads = ("petheory.geometry.mds:classical_mds",)


def bent_alibi(mp):
    """Plant: ALiBi's induced distances bent by a square root (no longer linear in the offset).

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.geometry.induced.bias_distances``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     bent_alibi(mp)
    """
    from petheory.geometry import induced

    real = induced.bias_distances
    mp.setattr("petheory.geometry.induced.bias_distances", lambda B, m="gap": np.sqrt(real(B, m)))


bent_alibi.reads = ("petheory.geometry.induced:bias_distances",)


def minimal_param(mp):
    """Plant: the minimal parametrisation's error raised by half, plus 1e-3.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.geometry.rank.minimal_parametrisation``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     minimal_param(mp)
    """
    import dataclasses

    from petheory.geometry import rank

    real = rank.minimal_parametrisation
    mp.setattr("petheory.geometry.rank.minimal_parametrisation",
               lambda X, rank: dataclasses.replace(real(X, rank=rank), error=real(X, rank=rank).error * 1.5 + 1e-3))


minimal_param.reads = ("petheory.geometry.rank:minimal_parametrisation",)


def gram_not_centred(mp):
    """Plant: the Gram of classical MDS shifted by 1e-3 (no longer double-centred).

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.geometry.mds.gram_from_distances``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     gram_not_centred(mp)
    """
    from petheory.geometry import mds

    real = mds.gram_from_distances
    mp.setattr("petheory.geometry.mds.gram_from_distances", lambda D: real(D) + 1e-3)


gram_not_centred.reads = ("petheory.geometry.mds:gram_from_distances",)


def span_grows(mp):
    """Plant: POLA span dimensions that grow with n for every encoding but the learned one.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.lengthgen.pola.span_dimension``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     span_grows(mp)
    """
    from petheory.lengthgen import pola

    real = pola.span_dimension
    mp.setattr(pola, "span_dimension", lambda pe, n, masked=True: real(pe, n, masked=masked) + (n * n if pe != "learned" else 0))


span_grows.reads = ("petheory.lengthgen.pola:span_dimension",)


def szego_growing(mp):
    """Plant: Szegő's Kolmogorov distance growing with N instead of shrinking.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.toeplitz.szego.spectral_distribution``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     szego_growing(mp)
    """
    from petheory.toeplitz import szego

    real = szego.spectral_distribution

    def growing(c, *a, **k):
        sd = real(c, *a, **k)
        sd.kolmogorov = 1e-3 * np.log(len(c))  # a distance that grows with N
        return sd
    mp.setattr("petheory.toeplitz.szego.spectral_distribution", growing)


szego_growing.reads = ("petheory.toeplitz.szego:spectral_distribution",)


def eigs_escape(mp):
    """Plant: extreme eigenvalues that escape their certified interval.

    Parameters
    ----------
    mp : pytest.MonkeyPatch
        Plants it (``mp.setattr`` on ``petheory.toeplitz.extreme_eigenvalues``); undone with the monkeypatch.

    Examples
    --------
    >>> import pytest
    >>> with pytest.MonkeyPatch.context() as mp:  # planted inside, undone after
    ...     eigs_escape(mp)
    """
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
    """The absolute pair features phi(i) (x) phi(j) formed over one axis: phi(i) o phi(j) (D = d, not :math:`d^2`).

    Parameters
    ----------
    real : callable
        The POLA pair basis.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(kron_as_hadamard(lambda pe, pos, seg=None: ('keyed', None)))
    True
    """
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
    """position_table's rows for positions 1..n (off by one) instead of 0..n-1.

    Parameters
    ----------
    real : callable
        The position table.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> rows_from_one(lambda pe, n: list(range(n)))('rope', 3)
    [1, 2, 3]
    """
    return lambda pe, n: real(pe, n + 1)[1:]


def test_sizes_short(real):
    """generalises() testing sizes up to ``N_test - 1``: the last size never tested (an off-by-one in the range).

    Parameters
    ----------
    real : callable
        The length-generalisation check.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> test_sizes_short(lambda pe, name, N_train, N_test, **k: N_test)('rope', 'copy', 4, 8)
    7
    """
    def planted(pe, name, N_train, N_test, **k):
        return real(pe, name, N_train, max(N_train, N_test - 1), **k)
    return planted


def certified_band_reversed(real):
    """LRC.certified with the residual test's comparison reversed: certified inside the band (1/s, s) it should
    exclude.

    Parameters
    ----------
    real : callable
        ``LRC.certified``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(certified_band_reversed(None))
    True
    """
    def certified(self, separation=1e2):
        r = self.realisation
        ratio = r.residual / max(r.residual_tol, np.finfo(float).tiny)
        return (1.0 / separation < ratio < separation) and r.rank_gap >= separation
    return certified


def unweighted_decay_constant(real):
    r"""wavelet_decay_fit's C without its :math:`e^{\beta u}` weight: :math:`\max\lvert\psi\rvert` (too small for every :math:`\beta > 0`).

    Parameters
    ----------
    real : callable
        :func:`petheory.bounds.wavelet_decay_fit`.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> from petheory.bounds import wavelet_decay_fit
    >>> unweighted_decay_constant(wavelet_decay_fit)().C < wavelet_decay_fit().C
    True
    """
    def fit(wavelet="db2", **k):
        import dataclasses

        from petheory import encodings as enc

        f = real(wavelet, **k)
        return dataclasses.replace(f, C=float(np.max(np.abs(enc.wavefun(wavelet, k.get("resolution", 10))[1]))))
    return fit


def angles_not_linear(real):
    """RotaryTable.apply turning by angle (1 + 1e-3 angle): no longer linear in the position (a per-position scaling).

    Parameters
    ----------
    real : callable
        ``RotaryTable.apply``.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> callable(angles_not_linear(lambda self, x: x))
    True
    """
    from petheory.encodings import rotary

    return lambda self, x: real(rotary.RotaryTable(self.angles * (1 + 1e-3 * self.angles), self.d, self.pairing), x)


def rope_skips_position_one(real):
    """rope()'s table with positions 1, 2, ... read one late (angles (p + 1) theta for p >= 1): an off-by-one.

    Parameters
    ----------
    real : callable
        The rotary encoding function.

    Returns
    -------
    callable
        The planted replacement, with ``real``'s signature (an :func:`attr` ``make``).

    Examples
    --------
    >>> from petheory.encodings import rope
    >>> bool(rope_skips_position_one(rope)(3, 4).angles[1, 0] == rope(3, 4).angles[2, 0])
    True
    """
    def rope(n, d, **k):
        import dataclasses

        t = real(n + 1, d, **k)
        return dataclasses.replace(t, angles=np.concatenate([t.angles[:1], t.angles[2:]]))
    return rope
