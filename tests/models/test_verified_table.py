"""The verification table (petheory/data/verified_models.json) is what the sweep (python -m tools.verify) computes,
and what the resolver obeys.

A stratified sample of its cases (a plain decoder's YaRN variant, partial rotary, a NoPE rule with a window, a
hybrid's NoPE attention among Mamba layers, Falcon's ALiBi, T5 buckets, a learned table, a refusal, every layer kind
at once, a transformers 4 hub file, a published file) is recomputed
against transformers here and must equal the committed record; the full sweep is ``python -m tools.verify``
(about half an hour on two loaded cores). The committed table holds no misread and no crash (the project's target),
every ``ok`` type is one the resolver reads, and every other is refused with its recorded reason.
"""

from __future__ import annotations

import json

import pytest

from petheory.errors import ValidationError
from petheory.models import resolve_config
from petheory.models.verified import load, nearest, refusal, verified_types

SAMPLE = [("llama", "yarn"), ("gpt_neox", "default"), ("cohere2", "window"), ("granitemoehybrid", "hybrid-nope"),
          ("falcon", "alibi"), ("t5", "default"), ("gpt2", "default"), ("doge", "default"),
          ("nanochat", "default"), ("bailing_hybrid", "default"),  # a rotation by -theta; MLA that always interleaves
          ("smollm3", "every-kind"), ("qwen2", "hub-layout"), ("bamba", "hub:bamba_9b"),  # issue 55: every layer kind
          ("glm46v", "hub:glm4_1v_9b_thinking-text")]  # at once; the default as a transformers 4 hub file; a published
# file as is; a published text_config under another wrapper of the same text model


def committed(mt, case):
    (rec,) = [c for c in load()["cases"] if c["model_type"] == mt and c["case"] == case]
    return rec


def test_the_table_has_no_misread_and_no_crash():
    counts = load()["counts"]
    assert counts["cases_by_outcome"].get("misread", 0) == 0 and counts["cases_by_outcome"].get("crash", 0) == 0, counts
    assert not [mt for mt, r in load()["types"].items() if r["status"] in ("misread", "crash")]


def test_the_committed_table_names_no_path_of_the_machine_that_wrote_it():
    from petheory.models.verified import TABLE

    text = TABLE.read_text(encoding="utf-8")
    assert "site-packages/" not in text.replace("<site-packages>/", "") and "/work/" not in text and "/home/" not in text


def test_every_refusal_names_what_is_missing():
    for mt, r in load()["types"].items():
        if r["status"] not in ("ok",):
            assert r.get("why"), mt
            assert mt in refusal(mt) and "\n" not in refusal(mt)


@pytest.mark.parametrize("mt,case", SAMPLE, ids=[f"{m}-{c}" for m, c in SAMPLE])
def test_a_sample_of_the_sweep_recomputes_to_the_committed_record(mt, case):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tools.verify import sweep

    sweep._quiet()
    fresh = sweep.verify_case(mt, case)
    keep = ("model_type", "case", "outcome", "detail", "text_type", "layers")
    assert json.loads(json.dumps({k: fresh[k] for k in keep if k in fresh})) == committed(mt, case)


def test_a_partial_sweep_written_replaces_its_types_and_keeps_every_other():
    """``python -m tools.verify --only T --write``: the committed table read back as the sweep's records gives the same
    table again, and T's recomputed records replace its entry and cases while every other type is kept, the counts
    recomputed over the whole (a partial table written alone would drop every other type)."""
    pytest.importorskip("transformers")
    from tools.verify.table import committed_records, table

    old = load()
    recs = committed_records(old)
    assert table(recs)["types"] == old["types"] and table(recs)["cases"] == old["cases"]
    planted = {"cases": [{"model_type": "llama", "case": "default", "outcome": "refused", "detail": "planted"}]}
    doc = table({**recs, "llama": planted})
    assert set(doc["types"]) == set(old["types"]) and doc["types"]["llama"]["status"] == "refused"
    assert [c for c in doc["cases"] if c["model_type"] == "llama"] == planted["cases"]
    assert [c for c in doc["cases"] if c["model_type"] != "llama"] == [c for c in old["cases"] if c["model_type"] != "llama"]
    assert doc["counts"]["by_status"]["ok"] == old["counts"]["by_status"]["ok"] - 1
    assert doc["counts"]["cases"] == len(doc["cases"])


def test_only_verified_types_are_read_and_the_others_say_why():
    cfg = {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
           "max_position_embeddings": 2048}
    assert "llama" in verified_types() and resolve_config(cfg).main.positions.encoding == "rope"
    with pytest.raises(ValidationError, match="unknown model_type 'llama_next'.*nearest verified family: llama"):
        resolve_config({**cfg, "model_type": "llama_next"})
    with pytest.raises(ValidationError, match="absolute positions added to its inputs"):
        resolve_config({**cfg, "model_type": "gpt2"})
    assert nearest("llama_next") == "llama"


def test_as_family_reads_an_unknown_type_and_says_it_is_the_users_assertion():
    cfg = {"model_type": "my_llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
           "max_position_embeddings": 2048}
    scheme = resolve_config(cfg, as_family="llama")
    assert scheme.notes[0].startswith("read as llama: the user's assertion")
    assert scheme.layers == resolve_config({**cfg, "model_type": "llama"}).layers
    with pytest.raises(ValidationError, match="as_family 'gpt2' is not a verified model type"):
        resolve_config(cfg, as_family="gpt2")


def test_a_config_without_model_type_says_so():
    with pytest.raises(ValidationError, match="no model_type field"):
        resolve_config({"hidden_size": 256})
    assert resolve_config({"hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 1,
                           "max_position_embeddings": 64}, as_family="llama").layers[0].positions.d == 64


def test_a_folder_without_config_json_names_it(tmp_path):
    from petheory.loaders import resolve_scheme

    with pytest.raises(ValidationError, match="has no config.json"):
        resolve_scheme(f"hf:{tmp_path}")


def test_results_md_and_the_families_page_quote_the_table():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    counts = load()["counts"]
    results = (root / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    line = (f"{counts['model_types']} model types, {counts['cases']} cases: " +
            ", ".join(f"{v} {k}" for k, v in counts["cases_by_outcome"].items()))
    assert line in results, line
    assert f"| {counts['model_types']} | " in (root / "docs" / "guide" / "families.md").read_text(encoding="utf-8")


def test_the_cli_reads_an_unknown_type_as_a_family_and_says_so(tmp_path, capsys):
    from petheory.cli import main

    cfg = {"model_type": "my_llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
           "max_position_embeddings": 256}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    assert main(["report", "--pe", f"hf:{tmp_path}", "--length", "64", "--null-draws", "0", "--multiples", "1"]) == 2
    assert "nearest verified family: llama" in capsys.readouterr().err
    assert main(["report", "--pe", f"hf:{tmp_path}", "--as-family", "llama", "--length", "64", "--null-draws", "0",
                 "--multiples", "1", "--json", str(tmp_path / "r.json")]) == 0
    doc = json.loads((tmp_path / "r.json").read_text())
    notes = doc["notes"] if "notes" in doc else doc["reports"][0]["notes"]
    assert notes[0].startswith("read as llama: the user's assertion")
    assert main(["report", "--pe", "rope", "--as-family", "llama", "--length", "8"]) == 2


def test_the_nearest_name_is_difflibs_best_ratio_with_the_bounds_skipping_only_losers():
    """:func:`petheory.models.verified._closest` skips names by difflib's upper bounds: the name it returns is the
    plain ``max`` over every name's full ratio (ties to the later name), for 40 model types of the table (a seeded
    sample) as typed with a letter dropped, doubled or changed, and for names unlike any."""
    import difflib
    import random

    from petheory.models.verified import _closest

    ok = sorted(verified_types())
    rng = random.Random(0)
    queries = ["zzfoo", "x", "", "model_type", "llama_moe_vision_next", "qwen3moe", "gemma-3n"]
    for t in rng.sample(sorted(load()["types"]), 40):
        i = rng.randrange(len(t))
        queries += [t[:i] + t[i + 1:], t[:i] + t[i] + t[i:], t[:i] + rng.choice("abcxyz_0123") + t[i + 1:]]
    for q in queries:
        assert _closest(q, ok) == max(ok, key=lambda t: (difflib.SequenceMatcher(None, q, t).ratio(), t)), q


def test_the_families_page_generators_examples_run():
    """The ``>>>`` examples of tools/verify/page.py (a tool, so outside tests/project/test_doctests.py's walk of the
    library) run and give what they show."""
    import doctest

    from tools.verify import page

    result = doctest.testmod(page, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.attempted >= 2 and result.failed == 0, result
