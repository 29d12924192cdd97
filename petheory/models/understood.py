"""Which config fields may change positions or the logit scale, and which of them petheory reads.

A (text) config's top-level field whose name says it may touch positions or the attention's scale
(:data:`POSITIONAL`: rope, rotary, position, window, chunk, NoPE, sinks, temperature, an attention, query or key
scale or multiplier, ...) must be one petheory reads (:data:`READ`, or its family's own fields in
:mod:`petheory.models.families`) or one known not to touch them (:data:`NOT_POSITIONAL`, each with its reason);
any other is refused by name, never dropped (:func:`refuse_unknown`). Fields whose names say nothing of the kind
(``vocab_size``, ``intermediate_size``) are ignored.

Pure: no file is read.
"""

from __future__ import annotations

import re

from petheory.errors import ValidationError

__all__ = ["LEGACY", "NOT_POSITIONAL", "POSITIONAL", "READ", "guarded", "refuse_unknown", "unread_by_class"]

#: Names that may change positions or the logit scale.
POSITIONAL = re.compile(r"rope|rotary|position|alibi|window|chunk|nope|bucket|theta|partial|interleave|sink|"
                        r"temperature|softmax|(attn|attention|query|key|qk).*(scal|multiplier|factor)|logit")

#: Read by petheory for every family (petheory.models.read, rope, bias).
READ = frozenset({
    "rope_parameters", "rope_scaling", "rope_theta", "partial_rotary_factor", "max_position_embeddings",
    "original_max_position_embeddings", "sliding_window", "use_sliding_window", "max_window_layers",
    "sliding_window_pattern", "attn_logit_softcapping", "qk_rope_head_dim", "qk_nope_head_dim", "rope_interleave",
    "relative_attention_num_buckets", "relative_attention_max_distance", "alibi", "n_positions", "max_seq_len",
    "seq_length", "n_ctx", "_sliding_window_pattern"})

#: Match :data:`POSITIONAL` but touch neither positions nor the attention logits' scale: why.
NOT_POSITIONAL = {
    "chunk_size_feed_forward": "feed-forward chunking (memory only)",
    "mamba_chunk_size": "the state-space scan's chunk (a non-attention layer)",
    "chunk_size": "the state-space scan's chunk (a non-attention layer)",
    "attention_out_multiplier": "scales the attention's output, not its logits",
    "final_logit_softcapping": "soft-caps the output vocabulary logits, not attention's",
    "logits_scaling": "scales the output vocabulary logits",
    "logit_scale": "scales the output vocabulary logits",
    "output_router_logits": "returns the MoE router's logits",
    "router_logits": "the MoE router",
    "moe_router_logit_softcapping": "the MoE router's logits",
    "use_mamba_kernels": "a kernel choice",
    "pad_token_id": "a token id",
    "interleave_moe_layer_step": "which layers are mixture-of-experts",
    "attention_value_scale": "scales the attention's values, not its logits (MiMo-V2-Flash)",
    "full_attn_alpha_factor": "a residual-branch weight (MiniMax), not the logits",
    "full_attn_beta_factor": "a residual-branch weight (MiniMax), not the logits",
    "linear_attn_alpha_factor": "a residual-branch weight (MiniMax), not the logits",
    "linear_attn_beta_factor": "a residual-branch weight (MiniMax), not the logits",
    "logits_soft_cap": "soft-caps the output vocabulary logits (RecurrentGemma)",
    "routed_scaling_factor": "the MoE router's output scale",
    "residual_gate_temperature": "divides a sigmoid gate on the residual stream (Muse), not the attention logits",
}


def refuse_unknown(cfg: dict, mt: str, own=()) -> None:
    """Refuse the first field of ``cfg`` that may change positions or the logit scale and that petheory does not read for
    model type ``mt``.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        Its model type.
    own : iterable of str, optional
        The fields its family entry reads.

    Raises
    ------
    petheory.errors.ValidationError
        Such a field, by name.

    Examples
    --------
    >>> refuse_unknown({"rope_theta": 1e4, "vocab_size": 10}, "llama")
    >>> refuse_unknown({"rope_wavelet": 3}, "llama")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config field rope_wavelet may change positions or the logit scale and petheory does not read it for llama: refused rather than dropped; remove it if it does nothing, or read the model as a family that has it
    """
    for key in cfg:
        if not POSITIONAL.search(key) or key in READ or key in own or key in NOT_POSITIONAL:
            continue
        if re.search(r"dropout|_init|initializer|vision|audio|image|mtp_|router|logits_to_keep", key) or \
                cfg[key] in (None, False, [], {}):
            continue
        raise ValidationError(f"config field {key} may change positions or the logit scale and petheory does not read "
                              f"it for {mt}: refused rather than dropped; remove it if it does nothing, or read the "
                              "model as a family that has it")


#: Spellings transformers' configuration classes convert on loading (transformers 4 files): accepted whatever
#: fields the class keeps.
LEGACY = frozenset({"rope_scaling", "rope_theta", "partial_rotary_factor", "rotary_pct", "rotary_emb_base", "rotary_dim",
                    "original_max_position_embeddings", "max_position_embeddings", "n_positions", "max_seq_len",
                    "seq_length", "n_ctx", "mrope_section", "rope_local_base_freq", "sliding_window_pattern"})
#: Layout fields that do not look positional by name but decide which layers have which positions.
LAYOUT = frozenset({"layer_types", "layers_block_type", "head_dim", "use_sliding_window", "max_window_layers",
                    "cross_attention_layers", "full_attn_idxs", "attn_layer_indices", "attn_layer_period",
                    "attn_layer_offset", "full_attention_interval", "use_bidirectional_attention"})


def guarded(key: str) -> bool:
    """Whether field ``key`` may decide positions or the logit scale (by its name or as a layout field).

    Parameters
    ----------
    key : str
        A config field.

    Returns
    -------
    bool
        Whether it is guarded.

    Examples
    --------
    >>> guarded("rope_theta"), guarded("vocab_size")
    (True, False)
    """
    return key in LAYOUT or bool(POSITIONAL.search(key)) and key not in NOT_POSITIONAL


def unread_by_class(cfg: dict, fields) -> list:
    """The positional fields of ``cfg`` that the model type's code never reads.

    transformers ignores them, and so does petheory (it would misread the model otherwise, e.g. ``layer_types`` on Llama,
    whose attention has no window).

    Parameters
    ----------
    cfg : dict
        The (text) config.
    fields : iterable of str or None
        The fields the code reads, as the verification table recorded them from its configuration and modeling modules
        (None: unknown, nothing is dropped).

    Returns
    -------
    list of str
        The fields to leave out.

    Examples
    --------
    >>> unread_by_class({"layer_types": ["sliding_attention"], "head_dim": 64}, ["head_dim", "rope_parameters"])
    ['layer_types']
    """
    if fields is None:
        return []
    fields = set(fields)
    return [key for key, val in cfg.items() if key not in fields and key not in LEGACY and guarded(key)
            and val not in (None, [], {}) and not re.search(r"dropout|_init|initializer|vision|audio|image|mtp_|router",
                                                            key)]
