r"""Probes of a trained :class:`petheory.nn.transformer.Transformer` for li2025's bounds (torch).

The theory lives in :mod:`petheory.bounds` (numpy); this module reads a model's weights and
activations and hands arrays to it.

:func:`transformer_lipschitz`
    the Lipschitz-product bound :math:`L_{trans}` of li2025 §4.2 from the weights
    (:func:`petheory.bounds.attention_lipschitz`, :func:`petheory.bounds.layernorm_lipschitz`).
:func:`transformer_input_norm`
    the empirical :math:`B_0` (li2025 Table 2) of what enters the first block.
:func:`alibi_drift`
    the measured drift of li2025 Eq. 9 (§5.3) of a trained ALiBi model.

All three look at inputs of sub-modules through one helper, :func:`module_inputs`.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from petheory import _validate as v
from petheory.bounds import GELU_LIPSCHITZ, LipschitzReport, attention_lipschitz, layernorm_lipschitz
from petheory.errors import ValidationError, ValidationTypeError

__all__ = ["module_inputs", "transformer_lipschitz", "transformer_input_norm", "alibi_drift"]


def module_inputs(model, modules: dict, inputs) -> dict:
    """Run ``model(inputs)`` once (eval mode, no gradients) and return what each module received.

    Hooks are removed and the model's training mode restored whatever happens.

    Parameters
    ----------
    model : torch.nn.Module
        The model.
    modules : dict
        Name -> a sub-module of ``model``.
    inputs : torch.Tensor
        A batch it accepts.

    Returns
    -------
    dict
        The same names -> the first positional argument each module got (detached; the last call wins).

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.task_core import TaskConfig
    >>> from petheory.nn.transformer import build_model
    >>> data = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 4}))
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16,
    ...                      "max_len": 256})
    >>> tuple(module_inputs(model, {"ln_f": model.ln_f}, data.test[50].x)["ln_f"].shape)
    (4, 50, 8)
    """
    got: dict = {}
    hooks = [m.register_forward_pre_hook(lambda _m, args, name=name: got.__setitem__(name, args[0].detach()))
             for name, m in modules.items()]
    was = model.training
    model.eval()
    try:
        with torch.no_grad():
            model(inputs)
    finally:
        for h in hooks:
            h.remove()
        model.train(was)
    return got


def _np(t) -> np.ndarray:
    return t.detach().double().cpu().numpy()


def transformer_lipschitz(model, *, inputs=None) -> LipschitzReport:
    r"""Lipschitz-product bound :math:`L_{trans}` of a :class:`petheory.nn.transformer.Transformer` from its weights.

    The map is from :math:`z^{(0)}` (token embedding + absolute PE, whose norm :math:`B_0` bounds)
    to the output, in the per-token norm :math:`\lVert\cdot\rVert_{2,\infty}`. For the pre-LN block
    :math:`x\mapsto x+\mathrm{Attn}(\mathrm{LN}_1x)`, then :math:`x\mapsto x+\mathrm{FFN}(\mathrm{LN}_2x)`:

    .. math:: L_{trans}=\lVert W_{head}\rVert_2\,L_{LN_f}\prod_{\ell}(1+L_{attn,\ell}L_{LN_1,\ell})
              (1+\lVert W_2\rVert_2L_{act}\lVert W_1\rVert_2L_{LN_2,\ell}),

    residuals contributing the 1, attention from :func:`petheory.bounds.attention_lipschitz` with
    radius :math:`R=\sqrt d\max\lvert\gamma_1\rvert+\lVert\beta_1\rVert` (a LayerNorm output is never
    longer), LayerNorm from :func:`petheory.bounds.layernorm_lipschitz`. This is the
    product-of-spectral-norms bound of Bartlett et al. 2017 adapted to Transformer blocks (a
    reconstruction; li2025 §4.2 states only :math:`O(L_{trans}B_0/\sqrt m)`).

    Parameters
    ----------
    model : Transformer
        A model with standard attention (not MLA).
    inputs : torch.Tensor, optional
        A batch the model accepts. Without it, LayerNorm factors use the certified global constant (variance floor 0,
        so :math:`1/\sqrt\epsilon`). With it, each LayerNorm's smallest per-token input variance on that batch is used:
        a data-dependent, *not certified* constant.

    Returns
    -------
    petheory.bounds.lipschitz.LipschitzReport
        The product and its factors.

    Raises
    ------
    petheory.errors.ValidationTypeError
        Not a petheory Transformer, or MLA attention.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> m = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16})
    >>> r = transformer_lipschitz(m)
    >>> [f[0] for f in r.factors], r.total > 0
    (['block0.attn_residual', 'block0.ffn_residual', 'ln_f', 'head'], True)
    """
    for attr in ("blocks", "ln_f", "head"):
        if not hasattr(model, attr):
            raise ValidationTypeError(f"transformer_lipschitz needs a petheory.nn Transformer (missing .{attr})")
    floors: dict = {}
    if inputs is not None:
        lns = {"ln_f": model.ln_f} | {f"blocks.{i}.{n}": getattr(b, n) for i, b in enumerate(model.blocks) for n in ("ln_1", "ln_2")}
        for name, x in module_inputs(model, lns, inputs).items():
            floors[name] = float(x.double().var(dim=-1, unbiased=False).min())

    def ln_factor(name, ln):
        return layernorm_lipschitz(_np(ln.weight), eps=float(ln.eps), variance_floor=floors.get(name, 0.0))

    factors = []
    total = 1.0
    H = model.cfg.n_head
    act = 1.0 if model.cfg.activation == "relu" else GELU_LIPSCHITZ
    for i, b in enumerate(model.blocks):
        a = b.attn
        if not hasattr(a, "c_attn"):
            raise ValidationTypeError("transformer_lipschitz covers standard attention (c_attn/c_proj), not MLA")
        d = a.c_attn.weight.shape[1]
        wq, wk, wv = _np(a.c_attn.weight).reshape(3, d, d)
        g1, b1 = _np(b.ln_1.weight), (_np(b.ln_1.bias) if b.ln_1.bias is not None else np.zeros(d))
        R = math.sqrt(d) * float(np.max(np.abs(g1))) + float(np.linalg.norm(b1))
        bq, bk = (_np(a.c_attn.bias).reshape(3, d)[:2] if a.c_attn.bias is not None else (None, None))
        la = attention_lipschitz(wq, wk, wv, _np(a.c_proj.weight), n_head=H, radius=R, b_q=bq, b_k=bk)
        l1, l2 = ln_factor(f"blocks.{i}.ln_1", b.ln_1), ln_factor(f"blocks.{i}.ln_2", b.ln_2)
        ffn = float(np.linalg.norm(_np(b.mlp[2].weight), 2) * act * np.linalg.norm(_np(b.mlp[0].weight), 2))
        fa, ff = 1.0 + la * l1, 1.0 + ffn * l2
        factors += [(f"block{i}.attn_residual", fa, f"1 + L_attn({la:.3g}, R={R:.3g}) * L_ln1({l1:.3g})"),
                    (f"block{i}.ffn_residual", ff, f"1 + ||W2|| L_act ||W1|| ({ffn:.3g}) * L_ln2({l2:.3g})")]
        total *= fa * ff
    lf = ln_factor("ln_f", model.ln_f)
    wh = float(np.linalg.norm(_np(model.head.weight), 2))
    factors += [("ln_f", lf, "max|gamma|/sqrt(var_floor+eps)"), ("head", wh, "||W_head||_2")]
    total *= lf * wh
    return LipschitzReport(
        float(total), factors,
        "measured on the given inputs (not certified)" if inputs is not None else "global: 1/sqrt(eps) (certified)",
        "||W_head|| L_lnf prod_l (1 + L_attn L_ln1)(1 + ||W2|| L_act ||W1|| L_ln2)",
    )


def transformer_input_norm(model, inputs) -> float:
    r"""Empirical :math:`B_0=\max_{i,t}\lVert z^{(0)}_{i,t}\rVert_2` (li2025 Table 2) of a Transformer on ``inputs``.

    The largest per-token norm of what enters the first block (token embedding + absolute PE).

    Parameters
    ----------
    model : Transformer
        The model.
    inputs : torch.Tensor
        A batch it accepts.

    Returns
    -------
    float
        :math:`B_0`.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> m = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16})
    >>> transformer_input_norm(m, torch.zeros(1, 4, 1)) == float(m.embed.bias.detach().double().norm())
    True
    """
    z0 = module_inputs(model, {"z0": model.blocks[0]}, inputs)["z0"]
    return float(z0.double().norm(dim=-1).max())


def alibi_drift(model, inputs, *, n_max: int, layers=None) -> list[dict]:
    r"""Measured li2025 Eq. 9 drift of a trained ALiBi :class:`petheory.nn.transformer.Transformer` on ``inputs`` (B, T[, F]).

    For every layer, head (slope :math:`\alpha_h`), query :math:`i` and key :math:`j` at distance
    :math:`d=\lvert i-j\rvert>N_{max}`, the model's own logits give :math:`\mu` (the rest of row
    :math:`i`) and the weight :math:`p_{ij}=A(\mu,-\alpha d)` (:func:`petheory.bounds.attention_weight`);
    the counterfactual weight with the key's bias held at the training maximum is
    :math:`A(\mu,-\alpha N_{max})=p\,e^{\Delta}/(p\,e^{\Delta}+1-p)`, :math:`\Delta=\alpha(d-N_{max})`.
    Logits are recomputed in float64 from the block's ``ln_1`` and ``attn.qkv`` (no softmax underflow).

    Parameters
    ----------
    model : Transformer
        An ALiBi model.
    inputs : torch.Tensor
        A batch longer than ``n_max + 1``.
    n_max : int
        The training length :math:`N_{max}`.
    layers : collection of int, optional
        Only these layers.

    Returns
    -------
    list of dict
        One record per (layer, head, distance): max and mean drift over queries and batch, the Eq. 9 right side
        :math:`\alpha(d-N_{max})/4`, and the sharp bound :math:`\max A(1-A)\,\alpha(d-N_{max})` over the rows seen (the
        model-side counterpart of :func:`petheory.bounds.alibi_extrapolation_terms`).

    Raises
    ------
    petheory.errors.ValidationError
        Not an ALiBi model, or inputs with no key beyond ``n_max``.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> m = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16,
    ...                  "causal": True})
    >>> recs = alibi_drift(m, torch.randn(2, 12, 1), n_max=8)
    >>> len(recs), all(r["drift_max"] <= r["eq9_rhs"] for r in recs)
    (6, True)
    """
    n_max = v.integer("n_max", n_max, minimum=1)
    if model.pe.name != "alibi":
        raise ValidationError(f"alibi_drift needs an ALiBi model, this one uses {model.pe.name!r}")
    recs = []
    blocks = list(model.blocks)
    captured = module_inputs(model, dict(enumerate(blocks)), inputs)
    T = captured[0].shape[1]
    if T <= n_max + 1:
        raise ValidationError(f"inputs of length {T} have no key beyond n_max={n_max}; use length > n_max + 1")
    with torch.no_grad():
        for li, block in enumerate(blocks):
            if layers is not None and li not in layers:
                continue
            a, h = block.attn, captured[li]
            q, k, _v, scale = a.qkv(block.ln_1(h))
            s = (q.double() @ k.double().transpose(-2, -1)) * (scale or q.shape[-1] ** -0.5)  # (B, H, T, T)
            logits = s + a.mask(T, h.device, torch.float64)  # + ALiBi bias (and causal -inf)
            logp = (logits - torch.logsumexp(logits, dim=-1, keepdim=True)).cpu()
            for hd in range(logits.shape[1]):
                alpha = float(a.bias.slopes[hd])
                lp = logp[:, hd]  # (B, T, T)
                for dd in range(n_max + 1, T):
                    # keys at distance dd: the two diagonals j = i -+ dd, (B, T - dd) each; masked ones are -inf
                    lpd = torch.cat([torch.diagonal(lp, -dd, -2, -1), torch.diagonal(lp, dd, -2, -1)], dim=-1)
                    lpd = lpd[:, torch.isfinite(lpd[0])]  # (B, pairs) log A(mu, -alpha d)
                    if lpd.numel() == 0:
                        continue
                    delta = alpha * (dd - n_max)
                    p = lpd.exp()
                    # log A(mu, -alpha N_max) = log p + delta - log(p e^delta + 1 - p)
                    cf = (lpd + delta - torch.logaddexp(lpd + delta, torch.log1p(-p.clamp(max=1 - 1e-16)))).exp()
                    drift = (cf - p).abs()
                    # A(1-A) is unimodal in b (peak 1/4 at A = 1/2): its max over [b, b + delta]
                    straddle = (torch.minimum(p, cf) <= 0.5) & (torch.maximum(p, cf) >= 0.5)
                    peak = torch.where(straddle, torch.full_like(p, 0.25), torch.maximum(p * (1 - p), cf * (1 - cf)))
                    recs.append({
                        "layer": li, "head": hd, "slope": alpha, "distance": dd, "excess": dd - n_max,
                        "drift_max": float(drift.max()), "drift_mean": float(drift.mean()),
                        "eq9_rhs": 0.25 * delta, "sharp_bound": float((peak * delta).max()),
                        "pairs": int(drift.numel()),
                    })
    return recs
