r"""Scale Hint in torch (chen2025): positions computed per instance from the separator tokens.

Scale Hint (mechanism key ``hint=``, e.g. ``"rope:hint=shift"``, ``"fire:hint=interp"``)
    The positions the PE sees are computed per instance from the separator tokens (``SEP`` and
    ``+`` of :mod:`petheory.nn.tasks`), so the model is told the scale of each instance:

    ``shift``  ``pi(t) = t - (index of the last separator at or before t)``: segment-aligned
               positions; item ``k`` of every segment has coordinate ``k`` at every size
               (integer positions: every PE but t5 and NoPE).
    ``interp`` ``pi(t) = t * REF_SCALE / s`` with ``s`` the index of ``SEP``: each instance
               rescaled to a fixed span, as position interpolation does per instance
               (fractional positions: rope, alibi, fire).

    Same maps as :func:`petheory.lengthgen.hint_positions` (there the layout comes from the
    target, here from the tokens).
"""

from __future__ import annotations


import torch

from petheory import encodings as enc
from petheory.nn.tasks import PLUS, SEP
from petheory.errors import ValidationError

HINTS = ("shift", "interp")
REF_SCALE = 8.0  # 'interp': every instance's SEP lands at this coordinate
_HINT_PES = {"shift": ("absolute", "rope", "alibi", "relative", "fire"), "interp": ("rope", "alibi", "fire")}


def check_hint(name: str, kind: str, hint) -> None:
    """Refuse a Scale Hint that does not apply to PE ``name`` (of registry ``kind``).

    Parameters
    ----------
    name : str
        The encoding.
    kind : str
        Its registry kind.
    hint : str or None
        The hint (None: nothing to check).

    Raises
    ------
    petheory.errors.ValidationError
        An unknown hint, or one that does not apply to the encoding.

    Examples
    --------
    >>> check_hint("rope", "rotary", "shift")
    >>> check_hint("nope", "absolute", "shift")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: hint=shift does not apply to 'nope'; ...
    """
    if hint is None:
        return
    if hint not in HINTS:
        raise ValidationError(f"hint must be one of {', '.join(HINTS)}, got {hint!r}")
    ok = _HINT_PES[hint]
    if name == "nope" or not (name in ok or (kind == "absolute" and "absolute" in ok)):
        raise ValidationError(f"hint={hint} does not apply to {name!r}; it applies to "
                         f"{'absolute tables, ' if 'absolute' in ok else ''}{', '.join(p for p in ok if p != 'absolute')}")


def hint_positions(tokens: torch.Tensor, hint: str) -> torch.Tensor:
    """Per-instance positions (B, T) float32 from token ids (B, T) (see the module docstring).

    Parameters
    ----------
    tokens : torch.Tensor
        Token ids, shape (B, T).
    hint : {'shift', 'scale'}
        The Scale Hint.

    Returns
    -------
    torch.Tensor, shape (B, T)
        Positions: counted from the last separator (``shift``), or rescaled to the first operand's length (``scale``).

    Raises
    ------
    petheory.errors.ValidationError
        Not a (B, T) integer tensor.

    Examples
    --------
    >>> import torch
    >>> hint_positions(torch.tensor([[5, 6, SEP, 7]]), "shift").tolist()
    [[0.0, 1.0, 0.0, 1.0]]
    """
    if tokens.dim() != 2 or tokens.dtype not in (torch.int64, torch.int32):
        raise ValidationError(f"a Scale Hint needs token ids of shape (B, T), got {tuple(tokens.shape)} {tokens.dtype}")
    B, T = tokens.shape
    t = torch.arange(T, device=tokens.device).expand(B, T)
    if hint == "shift":
        sep = (tokens == SEP) | (tokens == PLUS)
        start = torch.cummax(torch.where(sep, t, torch.zeros_like(t)), dim=1).values
        return (t - start).float()
    first = torch.where(tokens == SEP, t, torch.full_like(t, T)).min(dim=1).values.clamp_min(1)  # (B,)
    return t.float() * (REF_SCALE / first.float()[:, None])


def rotate_at(rotary, q: torch.Tensor, k: torch.Tensor, pos: torch.Tensor):
    """RoPE of (B, H, T, hd) queries and keys at per-instance positions ``pos`` (B, T).

    Parameters
    ----------
    rotary : Rotary
        The layer's rotary module (its frequencies and pairing; only its first ``heads`` heads rotate).
    q, k : torch.Tensor
        Queries and keys, shape (B, H, T, hd).
    pos : torch.Tensor
        Positions, shape (B, T).

    Returns
    -------
    q, k : torch.Tensor
        Rotated, shapes as given.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.position import Rotary
    >>> rot = Rotary(4, {}, None, 1, 16)
    >>> q = k = torch.ones(1, 1, 3, 4)
    >>> qr, kr = rotate_at(rot, q, k, torch.zeros(1, 3))  # position 0 everywhere: nothing turns
    >>> bool(torch.allclose(qr, q))
    True
    """
    if not hasattr(rotary, "_freqs"):
        kw = {k_: rotary.params[k_] for k_ in ("base", "rotary_dim") if k_ in rotary.params}
        rotary._freqs = torch.tensor(enc.rope_frequencies(rotary.head_dim, **kw), dtype=torch.float32)
    ang = pos[:, None, :, None] * rotary._freqs.to(pos.device)  # (B, 1, T, r/2)
    cos, sin = torch.cos(ang), torch.sin(ang)

    def rot(x):
        dt = x.dtype
        x = x.float()
        xa, xb = x[..., rotary.idx_a], x[..., rotary.idx_b]
        out = torch.cat([xa * cos - xb * sin, xa * sin + xb * cos, x[..., rotary.idx_rest]], dim=-1)
        return out[..., rotary.inverse].to(dt)

    h = rotary.heads
    if h == q.shape[1]:
        return rot(q), rot(k)
    return torch.cat([rot(q[:, :h]), q[:, h:]], 1), torch.cat([rot(k[:, :h]), k[:, h:]], 1)


def hinted_bias(bias, pos: torch.Tensor) -> torch.Tensor:
    """A :class:`~petheory.nn.position.BiasPE`'s (B, H, T, T) bias at per-instance positions (B, T).

    Parameters
    ----------
    bias : BiasPE
        The layer's bias module (``fire``, ``alibi`` or ``relative``).
    pos : torch.Tensor
        Positions, shape (B, T).

    Returns
    -------
    torch.Tensor, shape (B, H, T, T)
        The bias.

    Raises
    ------
    petheory.errors.ValidationError
        A bias without a Scale Hint.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.position import BiasPE
    >>> b = BiasPE("alibi", {}, 2, 16, False, "press")
    >>> tuple(hinted_bias(b, torch.tensor([[0.0, 1.0, 0.0]])).shape)
    (1, 2, 3, 3)
    """
    if bias.name == "fire":
        return bias.fire(pos)
    off = pos[:, None, :, None] - pos[:, None, None, :]  # (B, 1, T, T), i - j
    if bias.name == "alibi":
        return -bias.slopes[None, :, None, None] * off.abs()  # the registry's symmetric form -m|i-j|
    if bias.name == "relative":
        K = int(bias.params["max_offset"])
        idx = (torch.clamp(-off[:, 0].round().long(), -K, K) + K)  # registry: w[clip(j - i)]
        return bias.values[:, idx].permute(1, 0, 2, 3)  # (B, H, T, T)
    raise ValidationError(f"no Scale Hint for bias {bias.name!r}")
