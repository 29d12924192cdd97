"""Library errors speak the library's terms; the ``petheory`` command's flags are the same words.

An error raised below the CLI names a parameter as an API user writes it (``hermitian_part=True``, ``n_max=40``,
``model.n_head=4``). Each flag's dest is the keyword it feeds, so no message is rewritten: a refusal of one declared
value (:class:`petheory.errors.ParameterError`) names the flag the command has for its keyword, from its fields.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from petheory.cli import main
from petheory.errors import ValidationError

ROOT = Path(__file__).resolve().parents[2]
#: The library below the CLI whose messages this holds: the analyses, the theory packages, nn and experiments.
LIBRARY = ("analyses", "toeplitz", "bounds", "coupling", "lengthgen", "encodings", "geometry", "nn", "experiments",
           "scheme.py", "softmax.py", "fits.py", "stress_reference.py", "rounding.py", "_memory.py", "loaders", "models",
           "plugins.py", "spec.py")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")
#: (file, line) -> why a raised message may still name a flag.
ALLOW = {
    ("petheory/analyses/plan.py", "petheory report --length"): "plan points to another command by its command line",
}


def _raised_texts(path: Path):
    """The string pieces of every raised exception's message and every memory refusal's ``alternative``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        parts = []
        if isinstance(node, ast.Raise) and node.exc is not None:
            parts.append(node.exc)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "require":
            parts += [k.value for k in node.keywords if k.arg == "alternative"]
        for part in parts:
            for sub in ast.walk(part):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                    yield sub.lineno, sub.value


def test_library_errors_name_parameters_not_cli_flags():
    found = {}
    for name in LIBRARY:
        base = ROOT / "petheory" / name
        for path in sorted(base.rglob("*.py")) if base.is_dir() else [base]:
            rel = str(path.relative_to(ROOT))
            for line, text in _raised_texts(path):
                for flag in FLAG.findall(text):
                    if not any(rel == f and a in text for f, a in ALLOW):
                        found[(rel, line)] = flag
    assert not found, f"library messages naming CLI flags (name the parameter, map it in the CLI): {found}"


def test_the_scan_sees_a_flag_in_a_raised_message(tmp_path):
    path = tmp_path / "m.py"
    path.write_text('def f(x):\n    raise ValueError(f"bad {x}; use --length 4")\n')
    assert [f for _, t in _raised_texts(path) for f in FLAG.findall(t)] == ["--length"]


def test_a_partial_rope_error_says_model_n_head_in_python_and_on_the_command_line(capsys, tmp_path):
    pytest.importorskip("torch")
    from petheory.nn import ModelConfig, build_model

    with pytest.raises(ValidationError) as info:
        build_model(ModelConfig(head="lm", vocab_size=8, causal=True, pe="rope:heads=4", n_head=2, d_model=16))
    assert "model.n_head=4 or more" in str(info.value) and "--set" not in str(info.value)
    assert main(["train", "running_sum", "--pe", "rope:heads=4", "--out", str(tmp_path / "a")]) == 2
    assert "model.n_head=4 or more" in capsys.readouterr().err  # what --set takes, in the same words


def test_two_training_lengths_say_context_in_python_and_on_the_command_line(capsys):
    from petheory.analyses.bounds import bounds
    from petheory.errors import ParameterError
    from petheory.loaders import resolve_scheme

    with pytest.raises(ParameterError, match=r"context must be the spec's own n_max=50 .*, got 40") as info:
        bounds(resolve_scheme("learned:n_max=50"), [100], context=40)
    assert "--context" not in str(info.value)
    assert main(["bounds", "--pe", "learned:n_max=50", "--context", "40"]) == 2
    assert capsys.readouterr().err.strip() == f"petheory: error: {info.value.said_as('--context')}"
