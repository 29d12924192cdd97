"""One attention head of petheory's own model (:class:`petheory.nn.transformer.Attention`) with weights a proof constructs.

The outside theorems on what a head can or cannot do (Kazemnejad et al.'s NoPE constructions, Barbero et al.'s
Props 5.2 / Thm 5.3 / Thm 6.1) are existence or impossibility statements about attention heads. Their checks
build the proof's weights into the library's attention (causal mask, softmax, rotary tables and all) and read
what it computes, so a bug in that attention flips them; a check on hand-written numpy attention could not.
Everything runs in float64 on the CPU: the tolerances of the checks are float64 rounding.
"""

from __future__ import annotations

import functools

import numpy as np


def head(d: int, *, pe: str = "nope", causal: bool = True, n: int = 8):
    """A one-head :class:`~petheory.nn.transformer.Attention` of width ``d`` (head dim d), float64, eval mode, no biases.

    ``n`` is the longest sequence it is asked about (the rotary tables' ``max_len``). Cached (building the module
    costs more than running it; ``n`` is rounded up to a power of two for that): callers set every weight with
    :func:`set_weights` before each run."""
    return _head(int(d), pe, bool(causal), 1 << max(3, (int(n) - 1).bit_length()))


@functools.lru_cache(maxsize=32)
def _head(d: int, pe: str, causal: bool, n: int):
    from petheory.nn import transformer

    cfg = transformer.ModelConfig(head="regression", pe=pe, n_head=1, d_model=d, d_ff=d, max_len=n, causal=causal,
                             bias=False)
    with transformer.explicit_attention():  # softmax(QK^T) V written out: the probabilities are returned, not fused away
        att = transformer.Attention(cfg.validate(), transformer.parse_pe(cfg.pe))
    return att.double().eval()


def set_weights(att, w_q=None, w_k=None, w_v=None, w_o=None) -> None:
    """Put the construction's (d, d) maps into the head: q = W_Q x, k = W_K x, v = W_V x, out = W_O v (None: 0)."""
    import torch

    d = att.c_proj.weight.shape[0]
    z = np.zeros((d, d))
    mats = [z if w is None else np.asarray(w, float) for w in (w_q, w_k, w_v)]
    with torch.no_grad():
        att.c_attn.weight.copy_(torch.tensor(np.vstack(mats)))
        att.c_proj.weight.copy_(torch.tensor(np.eye(d) if w_o is None else np.asarray(w_o, float)))


def run(att, x) -> tuple[np.ndarray, np.ndarray]:
    """(output, attention probabilities) of the head on one sequence ``x`` (T, d) -> (T, d), (T, T), or on a batch of
    sequences (B, T, d) -> (B, T, d), (B, T, T)."""
    import torch

    x = np.asarray(x, float)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tensors of a few dozen entries: waking a thread pool costs more than the work
    try:
        with torch.no_grad():
            y, p = att(torch.tensor(x if x.ndim == 3 else x[None]), return_probs=True)
    finally:
        torch.set_num_threads(threads)
    y, p = y.numpy(), p[:, 0].numpy()
    return (y, p) if x.ndim == 3 else (y[0], p[0])
