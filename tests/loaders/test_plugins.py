"""Bring your own: encodings and claims registered from outside petheory, through ``--plugin``
(a dotted module or a .py file) and through package entry points (``petheory.encodings``,
``petheory.claims``). The example plugin is tests/plugin_example/my_pes.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path
from types import SimpleNamespace

import pytest

from petheory import encodings as enc
from petheory import plugins
from petheory.cli import main
from proofs_check import engine, runner
from _helpers import HANG_S

TESTS = Path(__file__).resolve().parents[1]
PLUGIN_FILE = TESTS / "plugin_example" / "my_pes.py"
PETHEORY = Path(sys.executable).with_name("petheory")


@pytest.fixture
def clean(monkeypatch):
    """Whatever a plugin registers is gone after the test; plugin modules are forgotten."""
    enc.available(), engine.all_claims()
    encs, claims, mods = dict(enc._REGISTRY), dict(engine._CLAIMS), set(sys.modules)
    monkeypatch.syspath_prepend(str(TESTS))
    yield
    enc._REGISTRY.clear(), enc._REGISTRY.update(encs)
    engine._CLAIMS.clear(), engine._CLAIMS.update(claims)
    for m in set(sys.modules) - mods:
        if m.startswith(("petheory_plugin_", "plugin_example")):
            del sys.modules[m]


def fake_entry_points(monkeypatch, eps: dict):
    """Entry points as an installed package would declare them; the groups are re-read."""
    monkeypatch.setattr(plugins, "metadata", SimpleNamespace(entry_points=lambda group: eps.get(group, [])))
    monkeypatch.setattr(plugins, "_LOADED_GROUPS", set())


def _encodings_json(capsys) -> dict:
    return {e["name"]: e for e in json.loads(capsys.readouterr().out)}


# ----------------------------------------------------------------------------- --plugin


@pytest.mark.parametrize("spec", [str(PLUGIN_FILE), "plugin_example.my_pes"], ids=["file", "module"])
def test_plugin_encoding_is_listed_by_petheory_encodings(clean, capsys, spec):
    assert main(["encodings", "--plugin", spec, "--json", "-"]) == 0
    items = _encodings_json(capsys)
    assert items["user2099_ramp"]["kind"] == "absolute"
    assert items["user2099_ramp"]["params"] == {"n_max": None}
    assert "sinusoidal" in items  # the built-ins are still there


@pytest.mark.parametrize("spec", [str(PLUGIN_FILE), "plugin_example.my_pes"], ids=["file", "module"])
def test_plugin_claim_is_checked_by_petheory_check(clean, capsys, tmp_path, spec):
    out = tmp_path / "check.json"
    assert main(["check", "--plugin", spec, "--claims", "user2099.*", "--json", str(out), "--quiet"]) == 0
    (rec,) = json.loads(out.read_text())["claims"]
    assert rec["id"] == "user2099.ramp_bounded" and rec["verdict"] == "holds"


def test_plugin_encoding_is_usable_from_the_library(clean):
    plugins.load_module(str(PLUGIN_FILE))
    pe = enc.get("user2099_ramp")(5, 3)
    assert pe.shape == (5, 3) and pe[-1, 0] == pytest.approx(0.8)


def test_loading_the_same_plugin_file_twice_is_harmless(clean, capsys):
    assert main(["encodings", "--plugin", str(PLUGIN_FILE), "--plugin", str(PLUGIN_FILE), "--json", "-"]) == 0
    assert plugins.load_module(str(PLUGIN_FILE)) is plugins.load_module(str(PLUGIN_FILE))


def test_plugin_errors_are_one_line_exit_2(clean, capsys, tmp_path):
    broken = tmp_path / "broken_pes.py"
    broken.write_text("import numpy\nraise RuntimeError('half-written plugin')\n")
    cases = [
        (["encodings", "--plugin", "no_such_pkg.mypes"], "plugin module 'no_such_pkg.mypes' not found"),
        (["encodings", "--plugin", str(tmp_path / "missing.py")], "plugin file not found"),
        (["encodings", "--plugin", str(broken)], "failed to import: RuntimeError: half-written plugin"),
    ]
    for argv, msg in cases:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and msg in err, err
    assert "petheory_plugin_broken_pes" not in sys.modules


def test_plugin_that_imports_a_missing_dependency_says_which(clean, capsys, tmp_path):
    (tmp_path / "needs_dep.py").write_text("import not_installed_dep2099\n")
    with pytest.raises(plugins.PluginError, match="not_installed_dep2099"):
        plugins.load_module(str(tmp_path / "needs_dep.py"))
    monkey_path = str(tmp_path)
    sys.path.insert(0, monkey_path)
    try:
        with pytest.raises(plugins.PluginError, match="not_installed_dep2099"):
            plugins.load_module("needs_dep")
    finally:
        sys.path.remove(monkey_path)


def test_plugin_spec_must_be_a_name_or_a_path():
    with pytest.raises(ValueError, match="plugin='  ' is neither a module name"):
        plugins.load_module("  ")


# ----------------------------------------------------------------------------- entry points


def test_entry_points_register_encodings_and_claims(clean, monkeypatch, capsys):
    fake_entry_points(monkeypatch, {
        "petheory.encodings": [EntryPoint("my_pes", "plugin_example.my_pes", "petheory.encodings")],
        "petheory.claims": [EntryPoint("my_pes", "plugin_example.my_pes", "petheory.claims")],
    })
    assert "user2099_ramp" in enc.available("absolute")
    assert [c.id for c in engine.select("user2099.*")] == ["user2099.ramp_bounded"]
    assert runner.check_claim(engine.get("user2099.ramp_bounded"))["verdict"] == "holds"
    assert main(["encodings", "--json", "-"]) == 0
    assert "user2099_ramp" in _encodings_json(capsys)


def test_claims_entry_point_alone_is_loaded_by_the_claim_registry(clean, monkeypatch):
    fake_entry_points(monkeypatch, {"petheory.claims": [EntryPoint("my_pes", "plugin_example.my_pes", "petheory.claims")]})
    assert engine.get("user2099.ramp_bounded").kind == "exact"


def test_an_entry_point_naming_a_callable_is_called_once(clean, monkeypatch):
    calls = []

    def register_mine():
        calls.append(1)
        enc.register("user2099_zero", "bias")(lambda n: __import__("numpy").zeros((n, n)))

    ep = SimpleNamespace(name="mine", value="mypkg:register_mine", load=lambda: register_mine)
    fake_entry_points(monkeypatch, {"petheory.encodings": [ep]})
    assert "user2099_zero" in enc.available("bias")
    enc.available(), enc.get("user2099_zero")
    assert calls == [1]


def test_a_broken_entry_point_is_reported_and_not_silently_skipped(clean, monkeypatch, capsys):
    def boom():
        raise ImportError("No module named 'mypkg'")

    fake_entry_points(monkeypatch, {"petheory.encodings": [SimpleNamespace(name="bad", value="mypkg.pes", load=boom)]})
    for _ in range(2):
        with pytest.raises(plugins.PluginError, match=r"entry point 'bad' \(mypkg.pes\) of group 'petheory.encodings'"):
            enc.available()
    assert main(["encodings"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "entry point 'bad'" in err


# ----------------------------------------------------------------------------- end to end, fresh processes


def _run(*argv, **env):
    return subprocess.run([str(PETHEORY), *argv], capture_output=True, text=True, timeout=HANG_S,
                          env={**os.environ, **env}, cwd=TESTS.parent)


@pytest.mark.skipif(not PETHEORY.exists(), reason="console script not installed next to this interpreter")
def test_console_script_loads_a_plugin_file_and_checks_its_claim():
    r = _run("check", "--plugin", "tests/plugin_example/my_pes.py", "--claims", "user2099.*", "--json", "-")
    assert r.returncode == 0, r.stderr
    assert [c["verdict"] for c in json.loads(r.stdout)["claims"]] == ["holds"]


@pytest.mark.skipif(not PETHEORY.exists(), reason="console script not installed next to this interpreter")
def test_console_script_loads_a_plugin_module_from_pythonpath():
    r = _run("encodings", "--plugin", "plugin_example.my_pes", "--json", "-", PYTHONPATH=str(TESTS))
    assert r.returncode == 0, r.stderr
    assert "user2099_ramp" in {e["name"] for e in json.loads(r.stdout)}
