r"""Context extension at evaluation time: swap a rotary scaling into a trained RoPE model, or fine-tune it.

A model trained with RoPE at length ``L`` is evaluated at longer lengths with the angles of another
rotary registry entry (``rope_pi``, ``rope_ntk``, ``rope_yarn``, and any other rotary entry:
``rope_llama3``, ``rope_longrope``, ``rope_dynamic`` once registered, or a plugin's), named by the one
PE grammar (:mod:`petheory.spec`), e.g. ``rope_yarn``, ``rope_pi:scale=4``. Nothing but the rotary
angles (and a ScaledRotaryTable's query/key factors, YaRN's attention temperature) changes: the
weights are the trained ones (:func:`swap_rotary`). A short fine-tune at a longer length with the
method in place is :func:`finetune`.

Options the method leaves out are filled in from the trained model and the run:

* the trained RoPE's ``base``, ``pairing``, ``rotary_dim`` and partial ``heads``;
* the original context (``n_max``, or ``original_max_position_embeddings`` for entries that name
  it so): ``L`` = the longest training sequence in tokens;
* the extension factor (``scale`` or ``factor``), when absent, is *matched* to each evaluated
  sequence length ``T``: :math:`s = \max(1, (T-1)/(L-1))`, the smallest factor that keeps
  position interpolation's angles within those seen in training (what dynamic NTK does inside
  the model). A method that adapts to the length by itself needs neither.

Examples
--------
>>> from petheory.nn import ModelConfig, build_model
>>> m = build_model(ModelConfig(head="lm", vocab_size=8, pe="rope", causal=True, d_model=16, n_head=2, max_len=32))
>>> pi = swap_rotary(m, "rope_pi:scale=2", train_len=32)
>>> pi.blocks[0].attn.rotary.params["scale"], m.blocks[0].attn.rotary.params
(2, {})
"""

from __future__ import annotations

import copy
import math

import torch

from petheory import encodings as enc
from petheory.nn.position import Rotary, parse_pe
from petheory.errors import ValidationError

#: registry parameter names of the extension factor and of the original (trained) context length
SCALE_KEYS = ("scale", "factor")
ORIGINAL_LEN_KEYS = ("n_max", "original_max_position_embeddings")
_INHERITED = ("base", "pairing", "rotary_dim")


def matched_scale(T: int, train_len: int) -> float:
    r"""The extension factor matched to sequence length ``T``: :math:`\max(1, (T-1)/(L-1))`.

    Parameters
    ----------
    T : int
        Sequence length.
    train_len : int
        L, the training length (at least 2).

    Returns
    -------
    float
        The factor.

    Raises
    ------
    petheory.errors.ValidationError
        ``train_len < 2``.

    Examples
    --------
    >>> matched_scale(64, 33), matched_scale(20, 33)
    (1.96875, 1.0)
    """
    if train_len < 2:
        raise ValidationError(f"train_len must be >= 2 (positions 0..L-1 with L >= 2), got {train_len}")
    return max(1.0, (int(T) - 1) / (int(train_len) - 1))


class ExtendedRotary(Rotary):
    """A :class:`~petheory.nn.position.Rotary` whose extension factor may follow the evaluated length.

    ``scale_key`` names the registry parameter set to :func:`matched_scale` at each length, or is
    None (the parameters are fixed). The cos/sin cache of :class:`Rotary` is per length, so a
    matched factor is computed once per length.

    Parameters
    ----------
    head_dim : int
        Head dimension.
    params : dict
        The rotary entry's parameters.
    heads : int or None
        Partial-RoPE head count.
    n_head : int
        Heads of the layer.
    max_len : int
        Longest sequence.
    name : str
        The rotary registry entry.
    train_len : int
        The training context the matched factor is relative to.
    scale_key : str or None
        The parameter set to :func:`matched_scale` at each length (None: fixed).
    """

    def __init__(self, head_dim: int, params: dict, heads, n_head: int, max_len: int, name: str, *,
                 train_len: int, scale_key: str | None):
        super().__init__(head_dim, params, heads, n_head, max_len, name)
        self.fixed, self.scale_key, self.train_len = dict(params), scale_key, int(train_len)

    def cos_sin(self, T: int, device, dtype=torch.float32, key: bool = False):
        if self.scale_key is not None:
            self.params = {**self.fixed, self.scale_key: matched_scale(T, self.train_len)}
        return super().cos_sin(T, device, dtype, key)


def method_params(model, method, *, train_len: int, matched: bool = True) -> tuple[str, dict, str | None, int | None]:
    """(registry name, parameters, matched scale key or None, heads) of ``method`` for ``model``.

    Parameters
    ----------
    model : Transformer
        A model trained with a rotary PE.
    method : str or PESpec
        A rotary registry entry with options.
    train_len : int
        The longest training sequence in tokens.
    matched : bool, optional
        Without an explicit factor, match it to each evaluated length.

    Returns
    -------
    name : str
        The registry entry.
    params : dict
        Its parameters (the trained base and pairing carried over).
    scale_key : str or None
        The parameter matched to each length (None: fixed).
    heads : int or None
        The partial-RoPE head count.

    Raises
    ------
    petheory.errors.ValidationError
        The model is not a RoPE model, the method is not a rotary registry entry, or it asks for another partial-RoPE
        head count than the model was trained with.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "rope", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 16, "d_ff": 16,
    ...                      "max_len": 256})
    >>> method_params(model, "rope_pi", train_len=32)
    ('rope_pi', {}, 'scale', None)
    """
    base = model.pe
    if base.kind != "rotary" or base.name == "mla" or base.hint is not None:
        raise ValidationError(f"context extension swaps the rotary angles of a RoPE model; this model's PE is {str(base)!r} "
                              "(a model trained with pe='rope')")
    cfg = parse_pe(method)
    if cfg.kind != "rotary" or cfg.absolute is not None or cfg.hint is not None:
        rotary = ", ".join(enc.available("rotary"))
        raise ValidationError(f"method {method!r} is not a rotary registry entry without '+absolute' or hint; rotary entries: {rotary}")
    if cfg.heads is not None and cfg.heads != base.heads:
        raise ValidationError(f"method {method!r} rotates heads={cfg.heads}, the model was trained with heads={base.heads}; "
                         "leave heads= out")
    allowed = enc.info(cfg.name).params
    params = cfg.registry_params
    for k in _INHERITED:
        if k in base.registry_params and k not in params:
            if k not in allowed:
                raise ValidationError(f"the model was trained with {k}={base.registry_params[k]!r}, which {cfg.name!r} cannot take")
            params[k] = base.registry_params[k]
    for k in ORIGINAL_LEN_KEYS:
        if k in allowed and k not in params:
            params[k] = int(train_len)
    scale_key = next((k for k in SCALE_KEYS if k in allowed), None)
    if scale_key is not None and (scale_key in params or not matched):
        scale_key = None
    return cfg.name, params, scale_key, base.heads


def swap_rotary(model, method, *, train_len: int, matched: bool = True):
    """A copy of ``model`` whose rotary angles are those of ``method`` (a rotary PE spec); weights unchanged.

    Parameters
    ----------
    model : petheory.nn.transformer.Transformer
        Trained with a rotary PE (``rope``, or any rotary entry).
    method : str or PESpec
        A rotary registry entry with options, e.g. ``'rope_yarn'``, ``'rope_ntk:scale=4'``; ``'rope'``
        gives back the trained angles (plain extrapolation).
    train_len : int
        The longest training sequence in tokens (the original context ``L``).
    matched : bool
        Without an explicit factor, match it to each evaluated length (:func:`matched_scale`);
        ``False`` leaves the entry's default.

    Returns
    -------
    petheory.nn.transformer.Transformer
        The copy, with an :class:`ExtendedRotary` in every layer and ``extension`` describing the swap.

    Raises
    ------
    petheory.errors.ValidationError
        As :func:`method_params`.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "rope", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 16, "d_ff": 16,
    ...                      "max_len": 256})
    >>> swapped = swap_rotary(model, "rope_pi", train_len=32)
    >>> type(swapped.blocks[0].attn.rotary).__name__, swapped.extension["matched"]
    ('ExtendedRotary', 'scale')
    """
    name, params, scale_key, heads = method_params(model, method, train_len=train_len, matched=matched)
    out = copy.deepcopy(model)
    for block in out.blocks:
        attn = block.attn
        old = attn.rotary
        attn.rotary = ExtendedRotary(old.head_dim, params, heads, attn.H, model.cfg.max_len, name, train_len=train_len,
                                     scale_key=scale_key).to(next(model.parameters()).device)
    out.extension = {"method": str(method), "name": name, "params": params, "matched": scale_key}
    return out


def scale_at(model, T: int) -> dict:
    """The registry parameters the swapped ``model`` uses at sequence length ``T`` (for records).

    Parameters
    ----------
    model : Transformer
        A model from :func:`swap_rotary`.
    T : int
        Sequence length.

    Returns
    -------
    dict
        The parameters, the matched factor included.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "rope", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 16, "d_ff": 16,
    ...                      "max_len": 256})
    >>> scale_at(swap_rotary(model, "rope_pi", train_len=33), 65), scale_at(swap_rotary(model, "rope_ntk:scale=4", train_len=33), 65)
    ({'scale': 2.0}, {'scale': 4})
    """
    rot = model.blocks[0].attn.rotary
    if isinstance(rot, ExtendedRotary) and rot.scale_key is not None:
        return {**rot.fixed, rot.scale_key: matched_scale(T, rot.train_len)}
    return dict(rot.params)


def angle_coverage(model, T: int) -> dict:
    r"""Which rotary bands of the swapped ``model`` leave the angles the trained RoPE saw, at length ``T``.

    The rule of :func:`petheory.bounds.norms.rotary_angle_coverage` (band t is out of range when
    it never completed a turn in training, :math:`(L-1)\omega_t < 2\pi`, and
    :math:`(T-1)\omega'_t > (L-1)\omega_t`), with the training angles taken from the trained
    model (RoPE with its base), so that it applies to every rotary entry, with or without a
    ``scale`` parameter. The tests check it against ``rotary_angle_coverage`` for PI, NTK and YaRN.

    Parameters
    ----------
    model : Transformer
        A model from :func:`swap_rotary`.
    T : int
        Sequence length.

    Returns
    -------
    dict
        ``bands`` (r/2), ``full_turn``, ``out_of_range`` and ``max_ratio`` (largest
        :math:`(T-1)\omega'_t/((L-1)\omega_t)` over the bands without a full turn).

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.transformer import build_model
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "rope", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 16, "d_ff": 16,
    ...                      "max_len": 256})
    >>> c = angle_coverage(swap_rotary(model, "rope_pi", train_len=32), 64)
    >>> c["bands"], c["out_of_range"]
    (4, 0)
    """
    import numpy as np

    rot = model.blocks[0].attn.rotary
    L = rot.train_len if isinstance(rot, ExtendedRotary) else (model.cfg.train_len or model.cfg.max_len)
    params = scale_at(model, T)
    w1 = rot.fn(2, rot.head_dim, **params).angles[1]  # (r/2,) frequencies in use
    w0 = enc.get("rope")(2, rot.head_dim, **{k: params[k] for k in _INHERITED if k in params}).angles[1]
    seen = (L - 1) * w0
    full = seen >= 2 * math.pi
    reach = (T - 1) * w1
    out = ~full & (reach > seen * (1 + 4 * np.finfo(float).eps))  # the same rounding allowance as bounds.norms
    return {"bands": int(w0.size), "full_turn": int(full.sum()), "out_of_range": int(out.sum()),
            "max_ratio": float(np.max(reach[~full] / seen[~full])) if (~full).any() else None}


def finetune(model, task, method, *, length: int, steps: int, train_len: int, lr: float = 1e-3, batch_size: int = 32,
             seed: int = 0, device: str = "cpu"):
    """Fine-tune ``model`` with ``method`` swapped in, for ``steps`` steps on ``task`` at context ``length``.

    The factor is fixed during and after the fine-tune: the method's ``scale``/``factor`` if given,
    else ``length / task.params['train_len']`` (the context it is tuned for over the one it was
    trained at, YaRN's :math:`s = L'/L`). Data: ``task`` with ``train_len=length``, ``min_len=length // 2``
    and ``steps * batch_size`` fresh sequences (data seed ``task.seed + 1000 + seed``, apart from the
    training data's); AdamW at a constant ``lr``, batch order and initialisation of nothing new
    seeded by ``seed``.

    Parameters
    ----------
    model : Transformer
        A trained RoPE model (unchanged; a copy is tuned).
    task : petheory.nn.tasks.TaskConfig
        The task the model was trained on (a retrieval LM task; its parameters give the original context length).
    method : str
        A rotary PE spec (:func:`swap_rotary`).
    length, steps : int
        Fine-tuning context length and optimiser steps (``steps >= 1``).
    train_len : int
        The longest training sequence in tokens (original context of the method).
    lr : float, optional
        Learning rate.
    batch_size : int, optional
        Sequences per step.
    seed : int, optional
        Seed of the data, batch order and anything initialised.
    device : str, optional
        Where to tune.

    Returns
    -------
    model : Transformer
        The tuned copy.
    info : dict
        ``spec``, ``length``, ``steps``, ``lr``, ``batch_size``, ``seed``, the first and last loss and the test metrics at
        ``length``.

    Raises
    ------
    petheory.errors.ValidationError
        A size out of range, a length not beyond the training length, or a method :func:`method_params` refuses.

    Examples
    --------
    >>> from petheory.nn.task_core import TaskConfig
    >>> task = TaskConfig("passkey", 0, {"train_len": 16, "key_len": 2})
    >>> tuned, info = finetune(model, task, "rope_pi", length=32, steps=2, train_len=18)  # doctest: +SKIP
    """
    from petheory.nn import tasks as _tasks
    from petheory.nn.evaluation import evaluate, train_batch, train_step
    from petheory.nn.training import resolve_device

    for name, val in (("length", length), ("steps", steps), ("batch_size", batch_size)):
        if isinstance(val, bool) or not isinstance(val, int) or val < 1:
            raise ValidationError(f"fine-tune {name} must be a positive integer, got {val!r}")
    if not (isinstance(lr, (int, float)) and lr > 0):
        raise ValidationError(f"fine-tune lr must be > 0, got {lr!r}")
    p = _tasks.resolve_params(task.name, task.params)
    if length <= p["train_len"]:
        raise ValidationError(f"fine-tune length {length} must exceed the training length {p['train_len']} (a longer context)")
    name, params, _, _ = method_params(model, method, train_len=train_len, matched=False)
    key = next((k for k in SCALE_KEYS if k in enc.info(name).params), None)
    spec = str(method)
    if key is not None and key not in params:
        factor = length / p["train_len"]
        spec = f"{method}{',' if ':' in str(method) else ':'}{key}={factor:g}"
    tuned = swap_rotary(model, spec, train_len=train_len, matched=False)
    dev = resolve_device(device)
    tuned.to(dev).train()
    data = _tasks.load(_tasks.TaskConfig(task.name, int(task.seed) + 1000 + int(seed), {
        **task.params, "train_len": int(length), "min_len": max(1, int(length) // 2), "n_train": steps * batch_size,
        "test_lens": (int(length),)}))
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed + 1)
    opt = torch.optim.AdamW(tuned.parameters(), lr=lr)
    perm = torch.randperm(len(data.train), generator=gen)
    losses = []
    for s in range(steps):
        b = train_batch(data.train, perm[s * batch_size:(s + 1) * batch_size], dev)
        loss = train_step(tuned, opt, b, data.kind, device=dev, amp=False, where=f"fine-tune step {s + 1}")
        losses.append(float(loss.detach()))
    tuned.eval()
    info = {"spec": spec, "length": int(length), "steps": int(steps), "lr": float(lr), "batch_size": int(batch_size),
            "seed": int(seed), "first_loss": losses[0], "last_loss": losses[-1],
            "test_at_length": evaluate(tuned, data.test[int(length)], data.kind)}
    return tuned, info

