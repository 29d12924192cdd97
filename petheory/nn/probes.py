r"""Probes of trained models: is position linearly readable from the representations?

``position_probe(model, split)`` takes the residual stream after the last block for up to
``max_samples`` test sequences, fits a ridge-regularised linear map from a representation
``h_t`` (d,) to the one-hot position ``e_t`` on half of the sequences, and reports the held-out
accuracy of ``argmax`` (chance ``1/T``). It also reports how far apart the positions' mean
representations ``mu_t = E_x h_t`` are against their sampling noise:
``z_min = min_{s != t} ||mu_s - mu_t||^2 / ((tr S_s + tr S_t) / N)`` (about 1 when the two
means are equal, large when they differ; ``S_t`` the sample covariance at position t).

This is cirrincione2026's Positional Separation Theorem made measurable on trained models
(reconstruction: the paper's conditions and minimisers are not in the abstract; see
the claim ``cirrincione2026.positional_separation`` in ``proofs_check/claims/cirrincione2026_necessity.py``).
"""

from __future__ import annotations

import torch

from petheory.errors import ValidationError


@torch.no_grad()
def position_probe(model, split, *, max_samples: int = 512, ridge: float = 1e-3, layer: int = -1) -> dict:
    """Held-out linear-probe accuracy of position from ``layer``'s representations (see the module docstring).

    Parameters
    ----------
    model : Transformer
        The model.
    split : Split
        Sequences to probe (at least 4: half fit the probe, half test it).
    max_samples : int, optional
        Sequences used at most.
    ridge : float, optional
        Ridge penalty, relative to the mean squared feature norm.
    layer : int, optional
        Which hidden state (:meth:`Transformer.hidden_states`; -1: the last).

    Returns
    -------
    dict
        ``layer``, ``positions``, ``samples``, ``accuracy``, ``chance`` (1/T), ``z_min`` (the smallest separation of two
        positions' mean representations over their noise) and ``ridge``.

    Raises
    ------
    petheory.errors.ValidationError
        Fewer than 4 sequences.

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
    >>> r = position_probe(model, data.train)
    >>> r["positions"], r["samples"], 0 <= r["accuracy"] <= 1
    (50, 8, True)
    """
    x = split.x[:max_samples].to(next(model.parameters()).device)
    N, T = x.shape[0], x.shape[1]
    if N < 4:
        raise ValidationError(f"position_probe needs at least 4 sequences, got {N}")
    h = model.hidden_states(x)[layer].double().cpu()  # (N, T, d)
    d = h.shape[-1]
    half = N // 2
    fit, test = h[:half], h[half:]
    X = torch.cat([fit.reshape(-1, d), torch.ones(half * T, 1, dtype=h.dtype)], 1)
    Y = torch.eye(T, dtype=h.dtype).repeat(half, 1)  # row (n, t) -> e_t
    scale = float((X * X).sum() / X.shape[0])  # ridge relative to the mean squared feature norm
    W = torch.linalg.solve(X.T @ X + ridge * scale * torch.eye(d + 1, dtype=h.dtype), X.T @ Y)
    Xt = torch.cat([test.reshape(-1, d), torch.ones((N - half) * T, 1, dtype=h.dtype)], 1)
    pred = (Xt @ W).argmax(1)
    acc = float((pred == torch.arange(T).repeat(N - half)).double().mean())
    mu = h.mean(0)  # (T, d)
    tr = h.var(0, unbiased=True).sum(-1)  # (T,) trace of each position's covariance
    gap = torch.cdist(mu, mu) ** 2
    noise = (tr[:, None] + tr[None, :]) / N
    z = gap / noise.clamp_min(torch.finfo(torch.float64).tiny)
    z.fill_diagonal_(float("inf"))
    return {"layer": layer if layer >= 0 else len(model.blocks) + 1 + layer, "positions": T, "samples": N,
            "accuracy": acc, "chance": 1.0 / T, "z_min": float(z.min()), "ridge": ridge}
