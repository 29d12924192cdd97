"""The benchmark harness writes correct, idempotent RESULTS.md sections (no timing is asserted)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from _helpers import HANG_S

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def harness(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("harness")


def test_a_new_section_is_appended_between_its_markers(harness):
    text = harness.replace_section("# title\n", "alpha", "body A")
    assert text == "# title\n\n<!-- bench:alpha -->\nbody A\n<!-- /bench:alpha -->\n"


def test_replacing_a_section_leaves_the_others_untouched_and_is_idempotent(harness):
    text = harness.replace_section(harness.replace_section("# t\n", "a", "A1"), "b", "B1")
    once = harness.replace_section(text, "a", "A2")
    assert "A1" not in once and "A2" in once and "B1" in once
    assert harness.replace_section(once, "a", "A2") == once
    assert once.index("bench:a ") < once.index("bench:b ")  # stays where it was


def test_sections_with_regex_characters_in_the_body_are_kept_verbatim(harness):
    body = r"| x | 1.0 \1 $& |"
    assert body in harness.replace_section(harness.replace_section("", "a", "old"), "a", body)


@pytest.mark.parametrize("text", ["<!-- bench:a -->\nno end\n", "x <!-- bench:a -->1<!-- /bench:a --> <!-- bench:a -->2<!-- /bench:a -->"])
def test_broken_markers_are_refused_rather_than_clobbered(harness, text):
    with pytest.raises(ValueError, match="'a'"):
        harness.replace_section(text, "a", "new")


def test_section_names_are_restricted(harness):
    with pytest.raises(ValueError, match="section name"):
        harness.replace_section("", "a -->", "x")


def test_write_section_creates_the_file_with_a_header_and_updates_in_place(harness, tmp_path):
    path = tmp_path / "RESULTS.md"
    harness.write_section("one", "first", path)
    harness.write_section("two", "second", path)
    harness.write_section("one", "first again", path)
    text = path.read_text()
    assert text.startswith(harness.HEADER)
    assert text.count("<!-- bench:one -->") == 1 and "first again" in text and "second" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["RESULTS.md"]  # no temp files left


def test_compare_checks_agreement_before_timing(harness):
    calls = []

    def ours():
        calls.append("ours")
        return np.ones(3)

    case = harness.Case("tiny", ours, lambda: np.ones(3) + 1e-17, lambda a, b: (float(np.max(np.abs(a - b))), 1e-15))
    r = harness.compare(case, warmup=1, repeats=3)
    assert len(r.ours_s) == len(r.reference_s) == 3 and len(calls) == 1 + 1 + 3
    assert r.ratio > 0 and r.discrepancy <= r.tolerance
    bad = harness.Case("wrong", lambda: np.ones(3), lambda: np.zeros(3), lambda a, b: (1.0, 1e-15))
    with pytest.raises(AssertionError, match="disagree"):
        harness.compare(bad)


def test_machine_info_names_what_the_numbers_depend_on(harness):
    m = harness.machine_info()
    assert {"cpu", "logical_cores", "usable_cores", "numpy", "scipy", "torch", "blas", "load_average"} <= set(m)
    assert m["numpy"] == np.__version__


def test_bench_encodings_quick_writes_its_section(harness, tmp_path, capsys):
    bench = importlib.import_module("bench_encodings")
    path = tmp_path / "RESULTS.md"
    path.write_text("# mine\n\n<!-- bench:other -->\nkeep me\n<!-- /bench:other -->\n")
    assert bench.main(["--quick", "--repeats", "1", "--warmup", "0", "--results", str(path)]) == 0
    text = path.read_text()
    assert "keep me" in text and text.startswith("# mine")
    section = text.split("<!-- bench:encodings -->")[1].split("<!-- /bench:encodings -->")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == len(bench.make_cases(True)) == 4
    assert "Machine:" in section and "numpy" in section


def test_run_py_lists_the_benchmarks():
    r = subprocess.run([sys.executable, str(BENCH / "run.py"), "--list"], capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0 and "\nencodings\t" in "\n" + r.stdout and "\ncheck\t" in "\n" + r.stdout


# ----------------------------------------------------------------------------- no tracked file by default


def test_a_benchmark_prints_its_section_and_leaves_results_md_alone_by_default(harness, capsys, monkeypatch, tmp_path):
    bench = importlib.import_module("bench_encodings")
    fake = tmp_path / "RESULTS.md"
    fake.write_text("committed\n")
    monkeypatch.setattr(harness, "RESULTS", fake)
    assert bench.main(["--quick", "--repeats", "1", "--warmup", "0"]) == 0
    assert fake.read_text() == "committed\n"
    out = capsys.readouterr().out
    assert "<!-- bench:" not in out and "| case |" in out and "pass --write" in out


@pytest.mark.parametrize("flags", [["--write"], ["--results", "COMMITTED"]])
def test_quick_numbers_never_go_into_the_committed_results_md(harness, monkeypatch, tmp_path, capsys, flags):
    bench = importlib.import_module("bench_encodings")
    fake = tmp_path / "RESULTS.md"
    fake.write_text("committed\n")
    monkeypatch.setattr(harness, "RESULTS", fake)
    flags = [str(fake) if f == "COMMITTED" else f for f in flags]
    with pytest.raises(SystemExit) as exc:
        bench.main(["--quick", "--repeats", "1", "--warmup", "0", *flags])
    assert exc.value.code == 2 and fake.read_text() == "committed\n"
    assert "--quick" in capsys.readouterr().err


def test_write_updates_the_committed_file_only_when_asked(harness, monkeypatch, tmp_path):
    fake = tmp_path / "RESULTS.md"
    monkeypatch.setattr(harness, "RESULTS", fake)
    ns = lambda **kw: type("A", (), {"quick": False, "write": False, "results": None, "no_write": False, **kw})()
    assert harness.destination(ns()) is None
    assert harness.destination(ns(write=True)) == fake
    assert harness.destination(ns(results=str(tmp_path / "mine.md"))) == (tmp_path / "mine.md").resolve()
    assert harness.destination(ns(quick=True, results=str(tmp_path / "mine.md"))) is not None


def test_run_py_quick_never_touches_results_md():
    results = BENCH / "RESULTS.md"
    before = results.read_bytes()
    r = subprocess.run([sys.executable, str(BENCH / "run.py"), "encodings", "--quick", "--repeats", "1", "--warmup", "0"],
                       capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 0, r.stderr
    assert results.read_bytes() == before
    r = subprocess.run([sys.executable, str(BENCH / "run.py"), "--quick", "--write"], capture_output=True, text=True, timeout=HANG_S)
    assert r.returncode == 2 and "never" in r.stderr
    assert results.read_bytes() == before


# ----------------------------------------------------------------------------- issue 35: targets, threads, one run


def test_a_target_is_met_or_missed_by_its_measurement(harness):
    T = harness.Target
    assert T("time", 4.9, 5.0, "s").met and not T("time", 5.1, 5.0, "s").met
    assert T("share", 41.0, 40.0, "%", at_most=False).met and not T("share", 39.0, 40.0, "%", at_most=False).met
    assert not T("not run", float("nan"), 5.0).met  # a missing measurement never passes
    table = harness.render_targets([T("fast", 1.0, 5.0, "s", beside="ref 2 s"), T("slow", 9.0, 5.0, "s")])
    rows = [line for line in table.splitlines() if line.startswith("| fast") or line.startswith("| slow")]
    assert rows[0].endswith("| PASS |") and "ref 2 s" in rows[0] and rows[1].endswith("| **MISS** |")


def test_a_threaded_reference_is_also_timed_on_one_thread(harness):
    from threadpoolctl import threadpool_info

    seen = []

    def reference():
        seen.append(max((i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"), default=1))
        return np.ones(3)

    case = harness.Case("t", lambda: np.ones(3), reference, lambda a, b: (0.0, 0.0), threaded_reference=True)
    r = harness.compare(case, warmup=0, repeats=2)
    assert len(r.reference_1t_s) == 1 and seen[-1] == 1 and r.ratio_1t > 0
    plain = harness.compare(harness.Case("p", lambda: 1, lambda: 1, lambda a, b: (0.0, 0.0)), warmup=0, repeats=1)
    assert plain.reference_1t_s is None
    body = harness.render_section("x", "t", [r, plain], harness.machine_info(), warmup=0, repeats=2, command="c")
    assert "ratio vs 1 thread" in body and "| p |" in body and "This section took" in body


def test_run_py_keeps_every_section_when_one_fails_or_hangs(monkeypatch, tmp_path):
    monkeypatch.syspath_prepend(str(BENCH))
    run = importlib.import_module("run")
    scripts = {}
    for name, code in {"good": "import sys; sys.exit(0)", "bad": "import sys; sys.exit(3)",
                       "slow": "import time; time.sleep(3600)"}.items():
        scripts[name] = tmp_path / f"bench_{name}.py"
        scripts[name].write_text(code)
    monkeypatch.setattr(run, "available", lambda: scripts)
    results = tmp_path / "R.md"
    # the good and the bad script end at once, the slow one never: the slow one is stopped at the 1-s limit, while the
    # other two get 60 s (LONG_S, as a long section does), room for a bare interpreter's start-up on a busy machine
    monkeypatch.setattr(run, "LONG_S", {"good": 60.0, "bad": 60.0})
    assert run.main(["all", "--timeout", "1", "--results", str(results)]) == 1
    section = results.read_text().split("<!-- bench:run -->")[1]
    assert "| good |" in section and "| bad |" in section and "exit 3" in section and "stopped" in section
    assert "**total**" in section and "load average" in section


def test_peak_rss_is_this_process_alone_not_its_parent_at_the_fork(harness):
    # ru_maxrss survives exec on Linux: a small child of a big parent would report the parent's size
    big = np.ones(300 * 2**20 // 8)  # 300 MiB resident in this (parent) process at the fork
    code = f"import sys; sys.path.insert(0, {str(BENCH)!r}); import harness; print(harness.peak_rss_mib())"
    child = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=HANG_S).stdout)
    assert harness.peak_rss_mib() >= 300 and child < 150  # a bare interpreter with numpy: ~30-60 MiB
    del big


def test_the_setup_benchmark_runs_the_readmes_own_commands(harness):
    """bench_setup times the README's two commands as written (issue 43.5's target row comes from it): the install
    and the test run are the test command split at its pytest, and the check is the first command's."""
    setup = importlib.import_module("bench_setup")
    readme = (BENCH.parent / "README.md").read_text(encoding="utf-8")
    main, tests = setup.readme_commands(readme)
    assert main in readme and tests in readme and main != tests
    install, run = setup.split_tests_command(tests)
    assert f"{install} && {run}" == tests
    assert install.startswith("python3 -m venv .venv && ") and "pip install" in install and "pytest" not in install
    assert run.startswith("HYPOTHESIS_PROFILE=ci ") and "pytest -n 2" in run
    assert setup.check_part(main).startswith(".venv/bin/petheory check ") and main.endswith(setup.check_part(main))
    with pytest.raises(ValueError, match="one set-up command"):
        setup.readme_commands(readme.replace("pytest", "tox"))
    log = "....\n  12.50s call     tests/a.py::t\n0.20s setup    tests/b.py::u\n= 10 passed, 1 skipped in 3.00s =\n"
    assert setup.pytest_summary(log) == ("10 passed, 1 skipped in 3.00s", ["12.50s call     tests/a.py::t",
                                                                          "0.20s setup    tests/b.py::u"])


def test_the_threads_benchmark_pairs_each_round(harness):
    """bench_threads' target ratio is the median of per-round ratios: a round the machine slowed slows both
    settings, so a choice that runs its reference's setting reads 1.0 however the rounds vary, where the ratio of
    the two medians reads the noise; and a choice 1.3x slower in every round reads 1.3, whatever the noise."""
    threads = importlib.import_module("bench_threads")
    load = [1.0, 3.0, 1.1, 2.5, 1.0, 2.9]  # how much each round was slowed
    ref = [0.030 * x for x in load]
    same = {"1 thread": ref, "petheory's choice": [t * (1 + 1e-3 * (-1) ** i) for i, t in enumerate(ref)]}
    assert threads.paired_ratio(same, "petheory's choice", "1 thread") == pytest.approx(1.0, abs=2e-3)
    slower = {"1 thread": ref, "petheory's choice": [1.3 * t for t in ref]}
    assert threads.paired_ratio(slower, "petheory's choice", "1 thread") == pytest.approx(1.3)


def test_the_threads_benchmark_does_not_charge_a_setting_for_the_one_before_it(harness):
    """A run right after 'every core' is 1.3x slower whatever it runs (what 'every core' leaves spinning on a busy
    machine): over the six orders each setting follows 'every core' equally often, so a choice that runs the 1-thread
    setting reads 1.0 against it. Rotating one order put the choice after 'every core' in most rounds: 1.15x, near the
    1.12x that the busy training row read at ab1feaa with the choice on 1 thread."""
    threads = importlib.import_module("bench_threads")
    last = [None]

    def run(setting):
        t = 0.030 * (1.3 if last[0] == "every core" else 1.0)
        last[0] = setting
        return t, 1

    times, used = threads.measure(run, 6, settle=0.0)
    assert threads.paired_ratio(times, "petheory's choice", "1 thread") == pytest.approx(1.0)
    assert used["petheory's choice"] == [1]
    rotated = {s: [] for s in threads.SETTINGS}
    last[0] = None
    for r in range(6):
        for s in threads.SETTINGS[r % 3:] + threads.SETTINGS[:r % 3]:
            rotated[s].append(run(s)[0])
    # the old bias: the choice followed 'every core' in 4 of 6 rounds, 1 thread in 1: ratios 1.3 in 3 rounds, 1.0 in 3
    assert threads.paired_ratio(rotated, "petheory's choice", "1 thread") == pytest.approx(1.15)
