"""The README's commands are what CI runs: a missing install step must fail CI."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()
    return [l for l in lines if l.startswith("python3 -m venv .venv && ")]


def test_readme_has_exactly_two_setup_commands():
    cmds = _readme_commands()
    assert len(cmds) == 2, cmds
    assert any("petheory check" in c for c in cmds)
    assert any("pytest" in c for c in cmds)


def test_ci_runs_the_readme_test_command_verbatim():
    test_cmd = next(c for c in _readme_commands() if "pytest" in c)
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_cmd in ci
