"""One declaration validates each entry point for the library and the command alike (scikit-learn's
``check_param_validation``, generated from the declarations).

Every flag a command builds from a library declaration (:func:`petheory.cli._params.add_param`) is fed a value
its constraint refuses: the command must exit 2 with one line that is the library's own refusal of that value, the
flag standing where the keyword stands; and the library function, called with the same value, must raise that
refusal (:class:`petheory.errors.ParameterError`) before doing any work. A command that adds a check of its own,
or a flag whose dest is not the keyword it feeds, gives another line and fails here.
"""

from __future__ import annotations

import ast
import contextlib
import io
import inspect
from pathlib import Path

import pytest

from petheory import _validate as v
from petheory.cli import build_parser, long_flags, main
from petheory.errors import ParameterError

ROOT = Path(__file__).resolve().parents[2]

#: The least each command needs besides the flag under test (its required arguments), so that parsing succeeds.
REQUIRED = {
    "report": ["--pe", "rope"],
    "stress": ["--pe", "sinusoidal"],
    "spectrum": ["--coeffs", "1,0.5"],
    "bounds": ["--pe", "alibi"],
    "compare": ["--pe", "alibi"],
    "plan": ["--pe", "rope", "--length", "8192"],
    "rotate": ["--pe", "rope"],
    "bands": ["--pe", "hf:minilm"],
    "lrc": ["--pe", "relative", "--target", "shift"],
    "extend": ["runs/none"],
    "train": ["copy"],
    "sweep": ["--out", "runs/none", "--task", "copy"],
    "check": [],
}


def _subparsers():
    """(command, its parser) for every command, each built with its own options."""
    for name in sorted(REQUIRED):
        parser = build_parser(name)
        sub = next(a for a in parser._actions if a.dest == "command")
        yield name, sub.choices[name]


def declared_flags():
    """(command, fn, keyword, flag, constraints) of every flag built from a declaration."""
    out = []
    for name, p in _subparsers():
        flags = long_flags(p)
        for fn, key in p.get_default("_declared") or ():
            out.append((name, fn, key, flags[key], fn.parameter_constraints[key]))
    return out


def invalid_value(constraints):
    """A value the declaration refuses but whose type one of its constraints takes (None: no such value)."""
    for c in map(v.make_constraint, constraints):
        bad = c.invalid()
        if bad is not None:
            return bad
    return None


def as_text(value) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


CASES = [(cmd, fn, key, flag, cons) for cmd, fn, key, flag, cons in declared_flags() if invalid_value(cons) is not None]


def test_every_command_with_declared_flags_has_cases():
    assert {c[0] for c in CASES} == set(REQUIRED)
    assert len(CASES) >= 40


@pytest.mark.parametrize("cmd,fn,key,flag,cons", CASES, ids=[f"{c[0]}{c[3]}" for c in CASES])
def test_the_library_and_the_command_refuse_a_value_in_the_same_words(capsys, cmd, fn, key, flag, cons):
    bad = invalid_value(cons)
    with pytest.raises(ParameterError) as info:  # the declaration alone: no work is done before it
        v.check_params(fn, {key: bad})
    expected = info.value
    assert str(expected).startswith(f"{key} must be ")
    # the library function itself, called with that value, raises the same refusal before any work
    args = {p.name: SAMPLES[p.name] for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind is not p.VAR_KEYWORD and p.name != key}
    with pytest.raises(ParameterError) as lib:
        fn(**{**args, key: bad})
    assert str(lib.value) == str(expected)
    capsys.readouterr()
    rc = main([cmd, *REQUIRED[cmd], flag, as_text(bad)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and err == [f"petheory: error: {expected.said_as(flag)}"], err


def _numeric(c) -> bool:
    """A number or a list of numbers (a list of paths is text already)."""
    return isinstance(c, v.Interval) or isinstance(c, v.Each) and isinstance(c.item, v.Interval)


NUMERIC = [(cmd, fn, key, flag, cons) for cmd, fn, key, flag, cons in declared_flags()
           if _numeric(v.make_constraint(cons[0]))]


@pytest.mark.parametrize("cmd,fn,key,flag,cons", NUMERIC, ids=[f"{c[0]}{c[3]}" for c in NUMERIC])
def test_text_where_a_number_is_declared_is_refused_in_the_same_words(capsys, cmd, fn, key, flag, cons):
    """Not argparse's 'invalid int value': the declaration refuses the text, as the library does."""
    nargs = next(a.nargs for name, p in _subparsers() if name == cmd for a in p._actions if a.dest == key)
    value = ["abc"] if nargs else "abc"
    with pytest.raises(ParameterError) as info:
        v.check_params(fn, {key: value})
    capsys.readouterr()
    assert main([cmd, *REQUIRED[cmd], flag, "abc"]) == 2
    assert capsys.readouterr().err.strip() == f"petheory: error: {info.value.said_as(flag)}"


def _sample_scheme():
    from petheory.loaders import resolve_scheme

    return resolve_scheme("rope", d=8)


#: A valid value of each parameter without a default that a declared function takes (its checks run first).
SAMPLES = {"scheme": _sample_scheme(), "schemes": [_sample_scheme()], "text_or_spec": "rope", "c": [1.0, 0.5],
           "what": "coefficients", "lengths": (100,), "run_dir": "runs/none", "configs": [], "out_dir": "runs/none", "task": "copy", "pe": "relative", "name": "shift",
           "spec": "hf:minilm", "index": 0, "positions": [0, 1], "offset": 0, "length": 8192,
           "corpus": ["a b", "a c"]}


def test_a_check_of_its_own_in_a_command_would_be_caught(capsys, monkeypatch):
    """The planted violation: a command that refuses --seed -1 in its own words fails the comparison above."""
    from petheory.cli import report as cli_report

    original = cli_report.run

    def run(args):
        if args.seed < 0:
            from petheory.errors import ValidationError

            raise ValidationError(f"--seed may not be negative ({args.seed})")
        return original(args)

    monkeypatch.setattr(cli_report, "run", run)
    monkeypatch.setattr("petheory.cli._params.check_declared", lambda args: None)
    rc = main(["report", "--pe", "rope", "--seed", "-1"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and err != "petheory: error: --seed must be >= 0, got -1"


def range_checks(source: str) -> list[str]:
    """Every comparison ``args.X < ...`` (or ``<=``, ``>``, ``>=``) in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for op in node.ops):
            if any(isinstance(s, ast.Attribute) and isinstance(s.value, ast.Name) and s.value.id == "args"
                   for s in (node.left, *node.comparators)):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_commands_compare_no_flag_value_themselves():
    """No range check in a command module: ranges are the declarations' (before: 56 hand-written checks)."""
    found = {p.name: range_checks(p.read_text()) for p in sorted((ROOT / "petheory" / "cli").glob("*.py"))}
    assert not {k: v for k, v in found.items() if v}


def test_the_scan_sees_a_range_check_of_a_flag():
    planted = "def run(args):\n    if args.seed < 0:\n        raise ValueError('--seed must be >= 0')\n"
    assert range_checks(planted) == ["2: args.seed < 0"]


def _mqar_run(root: Path) -> Path:
    """A smoke mqar run (a causal LM task that is not passkey), trained once into ``root``."""
    from petheory.nn import preset
    from petheory.nn.training import train

    train(preset("mqar", "smoke", pe="rope", ablate=False), out_dir=root / "mqar-rope")
    return root / "mqar-rope"


def _combinations(tmp: Path):
    """Rules about an analysis's own parameters that no single value breaks, each as (library call, the command line
    that breaks it, the flag): the library raises a ParameterError of its parameter, the command says that sentence
    with the flag."""
    from petheory.analyses.bounds import bounds
    from petheory.analyses.compare import compare
    from petheory.analyses.plan import plan
    from petheory.analyses.rotation import rotation_reference
    from petheory.loaders import resolve_scheme
    from petheory.records import read_training_records

    qwen = str(ROOT / "tests" / "data" / "hf_configs" / "qwen2_5_7b_yarn.json")
    rope = "rope:base=10000"
    return [
        # a context beside a spec's own n_max: both say the training length
        (compare, lambda: compare(["learned:n_max=50"], context=40, null_draws=2),
         ["compare", "--pe", "learned:n_max=50", "--context", "40"], "--context"),
        (bounds, lambda: bounds(["learned:n_max=50"], [100], context=40),
         ["bounds", "--pe", "learned:n_max=50", "--lengths", "100", "--context", "40"], "--context"),
        # a base grid whose grid pass is over its budget (found only once the coarse grid ran)
        (plan, lambda: plan(resolve_scheme(rope, d=64, context=1024), length=4096, base_grid=10**6),
         ["plan", "--pe", rope, "-d", "64", "--context", "1024", "--length", "4096", "--base-grid", "1000000"],
         "--base-grid"),
        # a head dimension other than the one the model's config fixes
        (resolve_scheme, lambda: resolve_scheme(qwen, d=64), ["plan", "--pe", qwen, "--length", "65536", "-d", "64"],
         "--d-model"),
        # rotate's positions and layer: rotation_reference's ranges, the CLI keeping only the grammar of --positions
        (rotation_reference, lambda: rotation_reference(resolve_scheme("rope", d=8), 0, [2, -1]),
         ["rotate", "--pe", "rope", "-d", "8", "--positions", "2,-1", "--out", str(tmp / "r")], "--positions"),
        (rotation_reference, lambda: rotation_reference(resolve_scheme("rope", d=8), 0, [2**53 + 1]),
         ["rotate", "--pe", "rope", "-d", "8", "--positions", str(2**53 + 1), "--out", str(tmp / "r")], "--positions"),
        (rotation_reference, lambda: rotation_reference(resolve_scheme("rope", d=8), 3, [0]),
         ["rotate", "--pe", "rope", "-d", "8", "--layer", "3", "--out", str(tmp / "r")], "--layer"),
        # the same rule in report (one place: resolve_scheme), -d and --context alike
        (resolve_scheme, lambda: resolve_scheme(qwen, d=64), ["report", "--pe", qwen, "-d", "64"], "--d-model"),
        (resolve_scheme, lambda: resolve_scheme(qwen, context=1024), ["report", "--pe", qwen, "--context", "1024"],
         "--context"),
        # a run of the run set that exists but holds no record (the declaration checks that each path exists)
        (read_training_records, lambda: read_training_records([], [str(tmp)]),
         ["compare", "--pe", "alibi", "--run", str(tmp)], "--run"),
    ]


def _run_combinations(run: Path):
    """extend's rules, on a trained run: depths for a run that is not passkey; a fine-tuning length not above the
    training length."""
    from petheory.experiments.extend import extend_run

    return [(extend_run, lambda: extend_run(run, depths=(0.5,)), ["extend", str(run), "--depths", "0.5"], "--depths"),
            (extend_run, lambda: extend_run(run, finetune_steps=1, finetune_length=8),
             ["extend", str(run), "--finetune-steps", "1", "--finetune-length", "8"], "--finetune-length")]


def test_a_rule_across_parameters_is_the_library_s_and_the_command_says_it_with_the_flag(capsys, tmp_path):
    _same_sentence(capsys, _combinations(tmp_path))


def test_plan_and_report_take_a_model_s_own_head_dimension():
    """``-d`` equal to the model's own head dimension passes in plan and report alike (the rule that refuses another
    is resolve_scheme's, not a command's)."""
    from petheory.loaders import resolve_scheme

    qwen = str(ROOT / "tests" / "data" / "hf_configs" / "qwen2_5_7b_yarn.json")
    assert resolve_scheme(qwen, d=128).head_dim == 128
    for argv in (["plan", "--pe", qwen, "--length", "65536", "-d", "128", "--json", "-"],
                 ["report", "--pe", qwen, "-d", "128", "--length", "64", "--multiples", "1", "--null-draws", "0",
                  "--json", "-"]):
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(argv + ["--quiet"]) == 0, argv


@pytest.mark.slow  # trains a run (about 7 s); tests/cli/test_extend_cli.py pins the command's sentences in the default run
def test_extend_s_rules_across_parameters_are_the_library_s(capsys, tmp_path):
    _same_sentence(capsys, _run_combinations(_mqar_run(tmp_path)))


def _same_sentence(capsys, combinations) -> None:
    for fn, call, argv, flag in combinations:
        with pytest.raises(ParameterError) as lib:
            call()
        assert lib.value.owner is fn, argv
        capsys.readouterr()
        rc = main(argv)
        err = capsys.readouterr().err.strip().splitlines()
        assert rc == 2 and err == [f"petheory: error: {lib.value.said_as(flag)}"], (argv, err)


def test_a_combination_refused_in_the_command_s_own_words_would_be_caught(capsys, monkeypatch):
    """The planted violation: compare's n_max rule back in the command, in its old words, fails the comparison."""
    from petheory.cli import compare as cli_compare
    from petheory.errors import ValidationError

    original = cli_compare.run

    def run(args):
        if args.context is not None and "n_max=50" in str(args.pe):
            raise ValidationError(f"n_max is given twice with different values: n_max=50 and --context {args.context}")
        return original(args)

    monkeypatch.setattr(cli_compare, "run", run)
    from petheory.analyses.compare import compare

    with pytest.raises(ParameterError) as lib:
        compare(["learned:n_max=50"], context=40, null_draws=2)
    assert main(["compare", "--pe", "learned:n_max=50", "--context", "40"]) == 2
    assert capsys.readouterr().err.strip() != f"petheory: error: {lib.value.said_as('--context')}"


def declared_functions() -> dict[str, object]:
    """``module.name`` -> function, for every function of petheory that declares its parameters
    (:func:`petheory._validate.validate_params`), found by walking the package: one added later is covered."""
    import importlib
    import pkgutil

    import petheory

    out = {}
    for info in pkgutil.walk_packages(petheory.__path__, "petheory."):
        if info.name.endswith(".__main__"):  # runs the command line on import
            continue
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            if callable(obj) and getattr(obj, "__module__", None) == mod.__name__ and \
                    isinstance(getattr(obj, "parameter_constraints", None), dict):
                out[f"{mod.__name__}.{name}"] = obj
    return out


DECLARED = declared_functions()
LIBRARY_CASES = [(qual, key, bad) for qual, fn in sorted(DECLARED.items())
                 for key, cons in fn.parameter_constraints.items() if (bad := invalid_value(cons)) is not None]


def test_the_walk_finds_the_declared_functions():
    """The theory's entry points as well as the analyses' (a walk that found nothing would pass every case below)."""
    packages = {q.split(".")[1] for q in DECLARED}
    assert {"analyses", "bounds", "geometry", "loaders"} <= packages, packages
    assert len(LIBRARY_CASES) >= 100, len(LIBRARY_CASES)


@pytest.mark.parametrize("qual,key,bad", LIBRARY_CASES, ids=[f"{q}:{k}" for q, k, _ in LIBRARY_CASES])
def test_every_declared_function_refuses_before_any_work(qual, key, bad):
    """Called with only the refused value, each declared function raises its own ParameterError for that name: the
    declaration is checked on the call, before the body runs (a body would fail otherwise, on a missing argument or
    on the value itself, with another error)."""
    fn = DECLARED[qual]
    with pytest.raises(ParameterError) as info:
        fn(**{key: bad})
    assert info.value.name == key and info.value.owner is fn, (info.value.name, info.value)
    assert str(info.value).startswith(f"{key} must be "), str(info.value)


@pytest.mark.parametrize("qual", sorted(DECLARED))
def test_every_declared_default_satisfies_its_declaration(qual):
    """A default its own declaration refuses would make the function fail when the parameter is left out."""
    fn = DECLARED[qual]
    sig = inspect.signature(fn)
    for key, cons in fn.parameter_constraints.items():
        default = sig.parameters[key].default
        if default is not inspect.Parameter.empty:
            v.check(key, default, cons)
