"""Library errors speak the library's terms; the ``petheory`` command says them as its flags.

An error raised below the CLI names a parameter as an API user writes it (``hermitian_part=True``, ``n_max=40``,
``model.n_head=4``) and lists it in :class:`petheory.errors.ValidationError`'s ``params``; the CLI rewrites exactly
those as the command's flags where it catches the error (:func:`petheory.cli.in_cli_terms`).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from petheory.cli import in_cli_terms, main
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


def test_a_partial_rope_error_says_model_n_head_in_python_and_set_on_the_command_line(capsys, tmp_path):
    pytest.importorskip("torch")
    from petheory.nn import ModelConfig, build_model

    with pytest.raises(ValidationError) as info:
        build_model(ModelConfig(head="lm", vocab_size=8, causal=True, pe="rope:heads=4", n_head=2, d_model=16))
    assert "model.n_head=4 or more" in str(info.value) and "--set" not in str(info.value)
    assert info.value.params == {"model.n_head": 4}
    assert main(["train", "running_sum", "--pe", "rope:heads=4", "--out", str(tmp_path / "a")]) == 2
    assert "--set model.n_head=4" in capsys.readouterr().err


def test_two_training_lengths_say_n_max_in_python_and_context_on_the_command_line(capsys):
    from petheory.bounds.norms import training_length

    with pytest.raises(ValidationError, match=r"learned:n_max=50 and n_max=40;") as info:
        training_length("learned", {"n_max": 50}, 40)
    assert "--context" not in str(info.value)
    assert main(["bounds", "--pe", "learned:n_max=50", "--context", "40"]) == 2
    assert "learned:n_max=50 and --context 40" in capsys.readouterr().err


def test_in_cli_terms_rewrites_only_the_named_parameter_where_it_stands_alone():
    flags = {"n_max": "--context", "hermitian_part": "--hermitian-part", "method": "--method"}
    msg = "rope:n_max=40 and n_max=40 differ; hermitian_part=True helps; method='slq' is light"
    out = in_cli_terms(msg, {"n_max": 40, "hermitian_part": True, "method": "'slq'"}, flags)
    assert out == "rope:n_max=40 and --context 40 differ; --hermitian-part helps; --method slq is light"
    assert in_cli_terms(msg, {"n_max": 40}, {}) == msg  # a command without the flag leaves the library's words
