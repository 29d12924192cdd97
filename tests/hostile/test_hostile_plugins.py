"""Plugins that end the process: a plugin that calls ``sys.exit`` while imported, or a plugin encoding that exits while
the command runs, is petheory's one-line error (exit 2) naming the plugin, and nothing is written."""

from __future__ import annotations


import pytest
from hostile_util import files_under, refused


@pytest.fixture
def clean_plugins():
    """What a plugin registers is gone after the test (other tests iterate every registered encoding)."""
    import sys

    from petheory import encodings as enc

    enc.available()
    encs, mods = dict(enc._REGISTRY), set(sys.modules)
    yield
    enc._REGISTRY.clear(), enc._REGISTRY.update(encs)
    for m in set(sys.modules) - mods:
        if m.startswith("petheory_plugin_"):
            del sys.modules[m]


@pytest.mark.parametrize("body", ["import sys\nsys.exit(0)\n", "raise SystemExit('plugin says bye')\n",
                                  "import sys\nsys.exit(3)\n"])
def test_a_plugin_that_exits_while_imported_is_petheorys_error(capsys, tmp_path, body, clean_plugins):
    (tmp_path / "bye.py").write_text(body)
    line = refused(capsys, "report", "--pe", "rope", "--plugin", tmp_path / "bye.py", "--json", tmp_path / "r.json",
                   match=("plugin", "sys.exit"))
    assert line.startswith("petheory: error: plugin") and "bye.py" in line  # its own text only inside our line
    assert files_under(tmp_path) == ["bye.py"]


def test_a_plugin_encoding_that_exits_while_the_command_runs(capsys, tmp_path, clean_plugins):
    (tmp_path / "late.py").write_text(
        "import sys\nfrom petheory import encodings as enc\n"
        "@enc.register('late_exit', 'absolute', conventions='exits', source='test')\n"
        "def late(n, d):\n    sys.exit(0)\n")
    refused(capsys, "stress", "--pe", "late_exit", "--plugin", tmp_path / "late.py", "--json", tmp_path / "s.json",
            match=("did not finish", "sys.exit(0)", "late.py"))
    assert not (tmp_path / "s.json").exists()
