"""The ``petheory`` command: help everywhere, the encodings listing, one-line errors with exit 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from petheory import encodings as enc
from petheory.cli import _subcommands, main
from _helpers import HANG_S

ROOT = Path(__file__).resolve().parents[2]
PETHEORY = Path(sys.executable).with_name("petheory")
SUBCOMMANDS = [m.NAME for m in _subcommands()]


def _help(argv, capsys) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0
    return capsys.readouterr().out


def test_top_level_help_lists_every_subcommand(capsys):
    out = _help(["--help"], capsys)
    assert out.startswith("usage: petheory")
    for name in SUBCOMMANDS:
        assert name in out


def test_the_foundation_subcommands_exist():
    assert {"check", "encodings"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_has_help_with_the_common_options(name, capsys):
    out = _help([name, "--help"], capsys)
    assert out.startswith(f"usage: petheory {name}")
    assert "--plugin" in out and "--quiet" in out


def test_subcommand_modules_follow_the_protocol():
    for mod in _subcommands():
        assert isinstance(mod.NAME, str) and isinstance(mod.HELP, str)
        assert callable(mod.add_arguments) and callable(mod.run)


def test_version(capsys):
    from petheory import __version__

    assert _help(["--version"], capsys).strip() == f"petheory {__version__}"


def test_no_subcommand_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "usage: petheory" in capsys.readouterr().out


# ----------------------------------------------------------------------------- encodings


def test_encodings_json_lists_every_encoding_with_kind_params_conventions(capsys):
    assert main(["encodings", "--json", "-"]) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["name"] for i in items] == enc.available()
    for it in items:
        assert it["kind"] in enc.KINDS
        assert isinstance(it["params"], dict) and isinstance(it["conventions"], str)
    by_name = {i["name"]: i for i in items}
    assert by_name["rope"]["params"] == {"base": 10000.0, "pairing": "interleaved", "rotary_dim": None}
    assert "half" in by_name["rope"]["conventions"] and "key_index" in by_name["alibi"]["conventions"]


def test_encodings_json_file_and_kind_filter(tmp_path, capsys):
    path = tmp_path / "encs.json"
    assert main(["encodings", "--kind", "bias", "--json", str(path), "--quiet"]) == 0
    assert "alibi" in capsys.readouterr().out  # -q hides progress only; the table is the result
    assert [i["name"] for i in json.loads(path.read_text())] == enc.available("bias")


def test_encodings_table_shows_names_and_kinds(capsys):
    assert main(["encodings"]) == 0
    out = capsys.readouterr().out
    for name in ("sinusoidal", "alibi", "t5", "rope", "wavelet", "legendre"):
        assert name in out


def test_encodings_prints_the_registry_s_catalogue(capsys):
    assert main(["encodings", "--kind", "rotary"]) == 0
    table = enc.catalogue("rotary")
    assert capsys.readouterr().out == table.plain() + "\n"
    assert [r[0] for r in table.rows] == enc.available("rotary") and {r[1] for r in table.rows} == {"rotary"}
    rope = dict(zip(table.headers, table.rows[enc.available("rotary").index("rope")]))
    assert rope["parameters (defaults)"] == "base=10000.0, pairing='interleaved', rotary_dim=None"


# ----------------------------------------------------------------------------- bad arguments


BAD_ARGS = [
    (["nosuchcommand"], "invalid choice"),
    (["check", "--nosuchflag"], "unrecognized arguments: --nosuchflag"),
    (["check", "--profile", "nightly"], "--profile must be one of 'quick', 'thorough', got 'nightly'"),
    (["check", "--seed", "abc"], "--seed must be an integer >= 0, got 'abc'"),
    (["check", "--seed", "-1"], "--seed must be >= 0"),
    (["check", "--claims", "nosuchpaper1999.*"], "matches no registered claim"),
    (["check", "--claims", ","], "--claims is empty"),
    (["check", "--claims", "li2025.*", "--case", "{}"], "exactly one claim"),
    (["check", "--claims", "li2025.sinusoidal_norm_bound", "--case", "[1"], "--case is not valid JSON"),
    (["check", "--claims", "li2025.sinusoidal_norm_bound", "--case", '{"d": 3}'], "does not fit claim"),
    (["encodings", "--kind", "vector"], "invalid choice: 'vector'"),
    (["encodings", "--plugin", "no_such_pkg2099"], "plugin module 'no_such_pkg2099' not found"),
]


@pytest.mark.parametrize("argv,msg", BAD_ARGS, ids=[" ".join(a) for a, _ in BAD_ARGS])
def test_bad_arguments_give_one_line_on_stderr_and_exit_2(argv, msg, capsys):
    assert main(argv) == 2
    cap = capsys.readouterr()
    assert cap.err.count("\n") == 1, cap.err
    assert msg in cap.err and "Traceback" not in cap.err
    assert cap.err.startswith("petheory")


def test_writing_into_a_directory_is_a_one_line_error(tmp_path, capsys):
    assert main(["encodings", "--json", str(tmp_path), "--quiet"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.skipif(not PETHEORY.exists(), reason="console script not installed next to this interpreter")
def test_console_script_bad_argument_has_no_traceback():
    r = subprocess.run([str(PETHEORY), "check", "--profile", "nightly"], capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_python_m_petheory_check_lists_the_claims():
    r = subprocess.run([sys.executable, "-m", "petheory", "check", "--list", "--claims", "gu2025.rope_relative,li2025.*"],
                       capture_output=True, text=True, timeout=HANG_S, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    ids = [line.split("\t")[0] for line in r.stdout.splitlines()]
    assert ids[0] == "gu2025.rope_relative"
    for cid in ("li2025.sinusoidal_norm_bound", "li2025.alibi_monotone_bias", "li2025.learned_no_extrapolation",
                "li2025.legendre_bounded"):
        assert cid in ids


def test_python_dash_m_petheory_is_the_command():
    out = subprocess.run([sys.executable, "-m", "petheory", "--version"], capture_output=True, text=True, cwd=ROOT,
                         timeout=HANG_S)
    assert out.returncode == 0 and out.stdout.startswith("petheory "), out.stderr


def test_same_option_names_across_commands(capsys):
    """One name per concept (issue 29): -d/--d-model a model width, --pe SPEC a PE, --length N one length,
    --lengths a list of them, --context L a training context, --markdown FILE and --json FILE the outputs;
    the old spellings (--n, --N, --n-max, --report) are gone."""
    helps = {name: _help([name, "--help"], capsys) for name in ("bounds", "stress", "spectrum", "compare", "lrc", "train",
                                                                 "sweep", "report", "check", "bands", "extend")}
    for name in ("bounds", "stress", "spectrum", "compare", "lrc", "train", "sweep"):
        assert "-d D, --d-model D" in helps[name] and "--pe SPEC" in helps[name], name
    for name in ("stress", "spectrum", "compare", "report"):
        assert "--length N" in helps[name], name
    for name in ("bounds", "compare", "lrc", "extend"):
        assert "--lengths " in helps[name], name
    for name in ("bounds", "compare", "report", "bands"):
        assert "--context L" in helps[name], name
    for name in ("check", "report", "compare"):
        assert "--markdown FILE" in helps[name], name
    for name, out in helps.items():
        assert not re.search(r"--n[ ,]|--N\b|--n-max|--report\b", out), name
    assert "--kernel-length L" in helps["spectrum"]


# ----------------------------------------------------------------------------- a bug is not bad input


@pytest.mark.parametrize("exc", [KeyError("band"), TypeError("unsupported operand"), ValueError("operands could not be broadcast")])
def test_a_library_bug_exits_1_with_one_line_and_a_traceback_file(exc, monkeypatch, tmp_path, capsys):
    """An exception the library did not raise on purpose (here planted in the rotary kernel that
    ``spectrum --pe rope`` calls) is a bug: exit 1, one line naming it and where the traceback went."""
    import tempfile

    def broken(*args, **kwargs):
        raise exc

    monkeypatch.setattr("petheory.analyses.kernel._rotary_column", broken)  # the kernel spectrum runs on checked values
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["spectrum", "--pe", "rope", "--length", "16", "-d", "8"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith(f"petheory: internal error: {type(exc).__name__}")
    path = err.rsplit("traceback: ", 1)[1].rstrip(")")
    text = open(path, encoding="utf-8").read()
    assert path.startswith(str(tmp_path)) and "Traceback (most recent call last)" in text and "in broken" in text
    import os

    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask  # the user's umask, like every file petheory writes


@pytest.mark.parametrize("argv, match", [
    (["spectrum", "--pe", "rope", "--length", "16", "-d", "7"], "even"),
    (["spectrum", "--pe", "rope:colour=1", "--length", "16"], "colour"),
    (["spectrum", "--pe", "nosuchpe"], "nosuchpe"),
])
def test_bad_input_still_exits_2_in_one_line(argv, match, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("petheory: error:") and match in err


def test_a_closed_pipe_is_not_a_traceback():
    """`petheory bounds --json - | head -1`: the reader goes away after one line of a long output (>> a pipe buffer)."""
    code = ("import sys; from petheory.cli import main; sys.exit(main(['bounds', '--pe', 'sinusoidal', '--lengths', "
            "','.join(str(i) for i in range(2, 300)), '--json', '-']))")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=HANG_S)
    assert first and "Traceback" not in err and "BrokenPipe" not in err, err
    assert rc in (0, 141)


@pytest.mark.parametrize("argv,expect", [
    (["stress", "--pe", "rope", "--null-draws", "0"], "stress"),
    (["bounds", "--pe", "alibi"], "alibi"),
    (["spectrum", "--pe", "alibi", "--length", "64"], "eigenvalue range"),
    (["encodings", "--kind", "bias"], "alibi"),
    (["compare", "--pe", "alibi", "--null-draws", "2", "--length", "32", "--lengths", "32,64"], "alibi"),
])
def test_quiet_still_prints_the_results(argv, expect, capsys):
    assert main([*argv, "-q"]) == 0
    cap = capsys.readouterr()
    assert expect in cap.out and cap.err == ""


def test_every_pe_flag_says_what_it_takes_in_one_vocabulary():
    """issue 45: one --pe declaration (petheory.cli._pe.add_pe); every command whose --pe reads a model says so in the
    same words (four of them did not mention config.json or gguf:FILE though they read both)."""
    from petheory.cli import build_parser
    from petheory.cli._pe import KINDS

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    seen = {}
    for name, p in sub.choices.items():
        pe = next((a for a in p._actions if "--pe" in a.option_strings), None)
        if pe is not None:
            seen[name] = pe.help
            assert any(pe.help.startswith(text) for text in KINDS.values()), (name, pe.help[:80])
    models = {n for n, h in seen.items() if KINDS["model"] in h}
    assert {"report", "plan", "rotate", "spectrum", "stress", "bounds", "compare"} <= models, sorted(models)
    assert {"train", "sweep", "bands", "lrc"} <= set(seen)
