"""Tiny GGUF files written with the gguf package's own GGUFWriter (llama.cpp's writer), for the gguf: tests."""

from __future__ import annotations

import numpy as np


def write_gguf(path, arch: str, *, ctx=4096, embd=256, layers=4, heads=4, kv=None, tensors=("token_embd.weight",),
               extra=None, **fields):
    """A header-only model file: the usual keys of ``arch`` plus ``fields`` (``rope_freq_base=...`` -> the writer's
    ``add_rope_freq_base``) and ``extra`` {key: value} written raw; each tensor holds one float32."""
    gguf = __import__("gguf")
    w = gguf.GGUFWriter(str(path), arch)
    w.add_context_length(ctx)
    w.add_embedding_length(embd)
    w.add_block_count(layers)
    w.add_head_count(heads)
    if kv is not None:
        w.add_head_count_kv(kv)
    for name, val in fields.items():
        getattr(w, f"add_{name}")(val)
    for key, val in (extra or {}).items():
        if isinstance(val, str):
            w.add_string(key, val)
        elif isinstance(val, float):
            w.add_float32(key, val)
        elif isinstance(val, (list, tuple)):
            w.add_array(key, list(val))
        else:
            w.add_uint32(key, val)
    for name in tensors:
        w.add_tensor(name, np.zeros(1, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path


def write_fixture(path):
    """tests/data/gguf/llama_yarn.gguf: Llama with YaRN (factor 4 over 8,192 tokens), 8 layers, 8 heads of 64, 2 KV heads."""
    gguf = __import__("gguf")
    return write_gguf(path, "llama", ctx=32768, embd=512, layers=8, heads=8, kv=2, rope_freq_base=500000.0,
                      rope_scaling_type=gguf.RopeScalingType.YARN, rope_scaling_factor=4.0,
                      rope_scaling_orig_ctx_len=8192)
