r"""Warnings a user hits in a model's ``config.json``: fields transformers reads differently from what they say.

:func:`config_lints` gives one line per finding, each naming the field (``petheory plan`` and ``petheory report``
print them):

* a scaling block transformers makes inert or counts from the wrong length: ``factor`` 1 (linear, dynamic, YaRN,
  Llama 3: the frequencies are the default ones), or a YaRN ``factor`` null with ``original_max_position_embeddings``
  equal to ``max_position_embeddings`` (transformers takes their ratio, 1); a YaRN block without
  ``original_max_position_embeddings`` (transformers 5.x fills it with ``max_position_embeddings``, so the ramp counts
  from the extended length);
* a ``rope_theta`` lost or defaulted by the 4.x -> 5.x layout: a ``rope_parameters`` block without ``rope_theta``
  (transformers 5.x takes the family's default, 10,000 for most), or a top-level ``rope_theta`` beside a
  ``rope_parameters.rope_theta`` that differs (5.x reads only the latter);
* a base above the precision ceiling of the run's dtype (``torch_dtype`` / ``dtype``),
  :func:`petheory.bounds.rope_base.exact_precision_max_base`.
"""

from __future__ import annotations

from petheory.bounds.rope_base import exact_precision_max_base, unit_roundoff

__all__ = ["LINTED_DTYPES", "config_lints"]

#: The config dtypes (``torch_dtype``) whose precision ceiling a base is checked against (float32's, with :math:`u = 2^{-24}`,
#: is above 1e10 from N = 1,024: above any shipped base).
LINTED_DTYPES = ("bfloat16", "float16")
_SCALED = ("linear", "dynamic", "yarn", "llama3")


def _blocks(text: dict) -> list:
    """(field path, block) of the config's RoPE: each per-layer-type block, else the one block."""
    for key in ("rope_parameters", "rope_scaling"):
        rope = text.get(key)
        if isinstance(rope, dict) and rope:
            if all(isinstance(b, dict) for b in rope.values()):
                return [(f"{key}.{t}", b) for t, b in rope.items()]
            return [(key, rope)]
    return []


def config_lints(config: dict, scheme=None, *, length: int | None = None) -> tuple:
    """One-line warnings for ``config`` (a parsed ``config.json``), each naming the field (see the module docstring).

    Parameters
    ----------
    config : dict
        The model's ``config.json``.
    scheme : Scheme, optional
        Its resolved scheme: the rotary layers' bases and dimensions for the precision ceiling.
    length : int, optional
        N for the precision ceiling (default ``max_position_embeddings``).

    Returns
    -------
    tuple of str
        The warnings, empty when none.

    Examples
    --------
    >>> config_lints({"model_type": "llama", "max_position_embeddings": 8192, "rope_theta": 5e5,
    ...               "rope_parameters": {"rope_type": "yarn", "factor": 1.0, "rope_theta": 5e5}})[0][:58]
    'rope_parameters.factor = 1: transformers computes the yarn'
    """
    from petheory.models.config import text_part
    from petheory.models.families import FAMILIES, Family

    text, _ = text_part(config)
    pre = "text_config." if isinstance(config.get("text_config"), dict) else ""
    max_pos = text.get("max_position_embeddings")
    out = []
    for where, b in _blocks(text):
        kind = b.get("rope_type", b.get("type"))
        f = b.get("factor")
        o = b.get("original_max_position_embeddings")
        # Hunyuan's "dynamic" dict with an alpha runs as rope type ntk_alpha, which never reads the factor
        ntk_alpha = kind == "dynamic" and "alpha" in b and FAMILIES.get(text.get("model_type"), Family()).ntk_alpha
        if kind in _SCALED and isinstance(f, (int, float)) and float(f) == 1.0 and not ntk_alpha:
            out.append(f"{pre}{where}.factor = 1: transformers computes the {kind} block's frequencies as default RoPE "
                       "(the block changes nothing)")
        elif kind == "yarn" and "factor" in b and f is None and o is not None and max_pos is not None and \
                int(o) == int(max_pos):
            out.append(f"{pre}{where}.factor is null and original_max_position_embeddings = {o} equals "
                       "max_position_embeddings: transformers takes their ratio, 1, as YaRN's factor (the block changes "
                       "nothing)")
        if kind == "yarn" and o is None:
            out.append(f"{pre}{where}.original_max_position_embeddings is missing: transformers takes "
                       f"max_position_embeddings ({max_pos}) as YaRN's original context, so the ramp counts from the "
                       "extended length; give the trained length")
        if where.startswith("rope_parameters") and "rope_theta" not in b:
            top = text.get("rope_theta")
            out.append(f"{pre}{where} has no rope_theta: transformers 5.x uses the family's default base"
                       + (f", not the top-level rope_theta = {top:g}" if isinstance(top, (int, float)) else "")
                       + "; write rope_theta into the block")
        elif where.startswith("rope_parameters") and isinstance(text.get("rope_theta"), (int, float)) and \
                isinstance(b.get("rope_theta"), (int, float)) and float(text["rope_theta"]) != float(b["rope_theta"]):
            out.append(f"{pre}rope_theta = {text['rope_theta']:g} is ignored by transformers 5.x: {pre}{where}.rope_theta "
                       f"= {b['rope_theta']:g} is the base used")
    dtype = text.get("torch_dtype") or text.get("dtype") or config.get("torch_dtype") or config.get("dtype")
    if scheme is not None and dtype in LINTED_DTYPES:
        n = length or scheme.max_context
        seen = set()
        for layer in scheme.layers:
            pos = layer.positions
            r = int(pos.params.get("rotary_dim") or pos.d) if pos.kind == "rotary" else 0
            base = pos.params.get("base")
            if r < 4 or not isinstance(base, (int, float)) or (base, r) in seen:
                continue
            seen.add((base, r))
            top = exact_precision_max_base(n, r, dtype)
            if base > top:
                out.append(f"{pre}rope_theta = {base:g} is above {dtype}'s precision ceiling {top:.3g} at N = {n:,}, r = "
                           f"{r} ((N/u)^(r/(r-2)), u = {unit_roundoff(dtype):g}): its slowest band moves less than one "
                           f"rounding unit within N ({pre}torch_dtype = {dtype})")
    return tuple(dict.fromkeys(out))
