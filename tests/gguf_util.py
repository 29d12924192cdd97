"""Tiny GGUF files written with the gguf package's own GGUFWriter (llama.cpp's writer), for the gguf: tests."""

from __future__ import annotations

import struct

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


def gguf_kv(key: str, vtype: int, payload: bytes) -> bytes:
    k = key.encode()
    return struct.pack("<Q", len(k)) + k + struct.pack("<I", vtype) + payload


def gguf_string(text: str) -> bytes:
    b = text.encode()
    return struct.pack("<Q", len(b)) + b


def llama_gguf(path, *, vocab: int = 0, blocks: int = 4, extra: bytes = b"", n_extra: int = 0):
    """A header-only llama GGUF, written byte by byte: its usual keys, and a tokenizer of ``vocab`` empty strings
    (8 bytes each: an 8 MiB file at 2^20, inside every limit of petheory.loaders.limits)."""
    u32 = struct.Struct("<I").pack
    kvs = [gguf_kv("general.architecture", 8, gguf_string("llama")), gguf_kv("llama.context_length", 4, u32(4096)),
           gguf_kv("llama.embedding_length", 4, u32(256)), gguf_kv("llama.block_count", 4, u32(blocks)),
           gguf_kv("llama.attention.head_count", 4, u32(4))]
    if vocab:
        kvs.append(gguf_kv("tokenizer.ggml.tokens", 9, struct.pack("<IQ", 8, vocab) + bytes(8 * vocab)))
    body = b"".join(kvs) + extra
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs) + n_extra) + body)
    return path
