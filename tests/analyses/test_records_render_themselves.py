"""Every analysis record renders itself and the CLI prints what it renders (issue 56, item 1): ``compare`` and
``bounds`` give the same plain text, Markdown and JSON from the library as from the command, record folders are read
by one reader with a typed result, and no command reads a serialised record back."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from petheory.analyses.bounds import GivenLipschitz, bounds
from petheory.analyses.compare import compare
from petheory.analyses.compare_record import CompareRecord
from petheory.bounds import LipschitzReport
from petheory.cli import main
from petheory.errors import ParameterError, ValidationError
from petheory.loaders import resolve_scheme
from petheory.records import TrainingRecords, read_training_records

CLI = Path(__file__).resolve().parents[2] / "petheory" / "cli"


def _out(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _finished(folder: Path, *, pe="alibi:slope=0.5", seed=0, at_longest=0.5) -> Path:
    folder.mkdir(parents=True)
    (folder / "record.json").write_text(json.dumps({
        "task": "running_sum", "pe": pe, "seed": seed, "train_len": 8,
        "final": {"test": {"8": {"mse": 0.01}, "16": {"mse": at_longest}}}}))
    return folder


def test_compare_prints_renders_and_writes_its_record(tmp_path, capsys):
    _finished(tmp_path / "runs" / "a_s0")
    argv = ["compare", "--pe", "alibi:slope=0.5", "--pe", "rope", "--length", "16", "--lengths", "8,16",
            "--null-draws", "3", "--records", str(tmp_path / "runs")]
    rec = compare([resolve_scheme(s, d=64, context=64) for s in ("alibi:slope=0.5", "rope")],
                  records=read_training_records([tmp_path / "runs"], given=True), length=16, lengths=(8, 16),
                  null_draws=3)
    text = "\n".join(rec.lines())
    assert _out(capsys, *argv) == text + "\n"
    assert _out(capsys, *argv, "--markdown", "-") == rec.markdown() + "\n"
    assert json.loads(_out(capsys, *argv, "--json", "-")) == rec.as_dict()
    assert "running_sum: mse 0.01→0.5 @16 (1 run: a_s0)" in text  # the run read from the folder, named by it
    assert f"1 training records ({tmp_path / 'runs'})" in text
    assert rec.markdown().startswith("**petheory compare") and "| alibi:slope=0.5 | bias |" in rec.markdown()
    assert rec._repr_html_().startswith("<pre>") and "→" in rec._repr_html_()


def test_compare_says_where_records_came_from_when_they_are_passed_in():
    rec = compare(["alibi:slope=0.5"], records=[], length=16, lengths=(8, 16), context=8, null_draws=3)
    assert rec.records.count == 0 and "0 training records (passed in)" in str(rec)
    # ... and its JSON says so, so the record read back renders the same (a CLI run searches folders: no "where")
    assert rec.as_dict()["records"] == {"searched": [], "runs": [], "count": 0, "where": "passed in"}
    assert "0 training records (passed in)" in str(CompareRecord.from_dict(rec.as_dict()))


def test_bounds_prints_renders_and_writes_its_record(capsys):
    argv = ["bounds", "--pe", "alibi:slope=0.5", "--pe", "rope", "--lengths", "100,5000", "--context", "50",
            "--distance", "80"]
    rec = bounds(["alibi:slope=0.5", "rope"], [100, 5000], context=50, distance=80)
    assert _out(capsys, *argv) == "\n".join(rec.lines()) + "\n"
    assert json.loads(_out(capsys, *argv, "--json", "-")) == rec.as_dict()
    text = str(rec)
    assert "Eq. 9 drift <= 3.75 at d=80" in text  # alpha (d - N_max) / 4 = 0.5 * 30 / 4
    assert "L_trans=1 (linear class)" in text and rec.as_dict()["lipschitz"]["source"] == "default 1 (linear class)"
    assert rec.markdown().startswith("**petheory bounds") and "| N' |" in rec.markdown()


def test_bounds_names_where_its_lipschitz_constant_came_from():
    given = bounds("rope", [64], lipschitz=2.0)
    assert given.lipschitz == GivenLipschitz(2.0, "given") and "L_trans=2 (given)" in str(given)
    report = LipschitzReport(3.0, [("head", 3.0, "||W||")], "none", "product")
    measured = bounds("rope", [64], lipschitz=report)
    assert "L_trans=3 (from the checkpoint's weights)" in str(measured)
    assert measured.as_dict()["lipschitz"]["factors"] == [["head", 3.0, "||W||"]]
    assert measured.rows[0].rademacher == pytest.approx(3 * given.rows[0].rademacher / 2)


def test_bounds_refuses_what_the_command_refused():
    with pytest.raises(ValidationError, match="applies to alibi"):
        bounds("rope", [64], distance=80)
    with pytest.raises(ParameterError, match=r"context must be the spec's own n_max=50 .*give one\), got 40"):
        bounds("learned:n_max=50", [64], context=40)
    with pytest.raises(ParameterError, match=r"lengths must be integers >= 1, got \[\]"):  # the declaration's words
        bounds("rope", [])


def test_a_record_of_skipped_rows_only_prints_no_bound_notes():
    from dataclasses import replace

    from petheory.scheme import Layer, Positions

    nope = replace(resolve_scheme("rope", d=16, context=64), layers=(Layer(Positions("nope")),), source="llama4_text")
    rec = bounds(nope, [64])
    assert [type(r).__name__ for r in rec.rows] == ["SkippedRow"] and not rec.table().notes
    assert rec.lines()[-1].startswith("nope") and rec.lines()[-1].endswith(rec.rows[0].skipped)
    assert "R_m bound =" in str(bounds("rope", [64])) and "R_m bound =" not in str(rec)


def test_training_records_are_read_by_one_reader_with_a_typed_result(tmp_path, capsys):
    run = _finished(tmp_path / "runs" / "a_s0")
    (tmp_path / "runs" / "b_s0").mkdir()
    (tmp_path / "runs" / "b_s0" / "record.json").write_text('{"task": "running_sum"}')  # not finished
    got = read_training_records([tmp_path / "runs", tmp_path / "nowhere"], [run], given=True)
    assert isinstance(got, TrainingRecords) and got.searched == (str(tmp_path / "runs"),)
    assert [r["_source"] for r in got.records] == [str(run / "record.json")] * 2 and got.runs == (str(run / "record.json"),)
    assert got.records[0]["_pe_params"] == {"slope": 0.5}
    err = capsys.readouterr().err
    assert "b_s0/record.json: not a finished training record" in err and "nowhere: no such folder" in err
    for bad, why in ((tmp_path / "none", "existing paths"), (tmp_path / "nowhere_else", "existing paths"),
                     (tmp_path / "runs", "run folders with their record.json"),
                     (tmp_path / "runs" / "b_s0", "finished training records")):
        (tmp_path / "runs").mkdir(exist_ok=True)
        with pytest.raises(ParameterError, match=why) as exc:
            read_training_records([], [bad])
        # one line naming the keyword (the command says its flag, --run) and the run
        assert len(str(exc.value).splitlines()) == 1 and str(exc.value).startswith(f"runs must be {why}")
        assert exc.value.name == "runs" and exc.value.owner is read_training_records
        assert exc.value.value in ([bad], str(bad), str(bad / "record.json"))


def _reads_back(source: str) -> list[int]:
    """Lines where a record's JSON (``x.as_dict()``, ``x.to_dict()``, ``to_json(x)``) is indexed or walked."""
    def serialised(node) -> bool:
        return isinstance(node, ast.Call) and (
            isinstance(node.func, ast.Attribute) and node.func.attr in ("as_dict", "to_dict")
            or isinstance(node.func, ast.Name) and node.func.id == "to_json")

    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and serialised(node.value) or (
                isinstance(node, ast.Attribute) and node.attr in ("get", "items", "keys", "values")
                and serialised(node.value)):
            out.append(node.lineno)
    return out


def test_no_command_reads_a_serialised_record_back():
    found = {f.name: lines for f in sorted(CLI.glob("*.py")) if (lines := _reads_back(f.read_text()))}
    assert not found, f"commands indexing a record's JSON instead of its fields: {found}"


@pytest.mark.parametrize("planted", ['rows = rec.as_dict()["rows"]', "p = pos.as_dict().get('mrope')",
                                     "x = to_json(rec)['settings']"])
def test_the_read_back_check_catches_a_planted_one(planted):
    assert _reads_back(planted) == [1]


def _report_of_yarn():
    from petheory.analyses.report import report

    argv = ["report", "--pe", "rope_yarn:scale=4", "--length", "2048", "--context", "512", "-d", "128", "--multiples",
            "1", "--null-draws", "2"]
    rec = report(resolve_scheme("rope_yarn:scale=4", d=128, context=512), length=2048, multiples=(1,), null_draws=2,
                 source="rope_yarn:scale=4")
    return argv, rec


def _seconds_out(text: str) -> str:
    import re

    return re.sub(r"[\d.]+(e-?\d+)? s\b", "<s>", text)


def test_report_prints_the_terminal_view_its_record_gives(capsys):
    from petheory.cli._console import show_view

    argv, rec = _report_of_yarn()
    show_view(rec.terminal())
    shown = capsys.readouterr().out
    assert _seconds_out(_out(capsys, *argv)) == _seconds_out(shown) and "(64; 16 shown" in shown
    head, sec = rec.terminal()[0], rec.sections[0]
    assert head.text == rec.summary_lines()[0] and head.weight == "bold"
    tab = sec.band_table()  # 64 bands, 16 evenly spaced rows from the first band to the last
    assert len(sec.bands) == 64 and [r[0] for r in tab.rows][:2] == ["0", "4"] and tab.rows[-1][0] == "63"
    assert tab.title.endswith("(64; 16 shown, all in --json/--markdown)") and tab in sec.terminal()
    assert tab.warnings == {(i, 6) for i, r in enumerate(tab.rows) if r[6] == "no"} != set()
    assert len(sec.band_table(limit=100).rows) == 64 and "(64; 64 shown" in sec.band_table(limit=100).title


def test_a_terminal_shows_the_report_bands_phase_warnings_in_yellow(monkeypatch):
    """On a terminal the cells a table marks as warnings are yellow and nothing else is: planting the mark on a cell
    that says 'yes' must colour it."""
    import io
    from dataclasses import replace

    from rich.console import Console

    from petheory.cli import _console

    _, rec = _report_of_yarn()
    tab = rec.sections[0].band_table()

    def ansi(table) -> str:
        buf = io.StringIO()
        monkeypatch.setattr(_console, "console", lambda **_: Console(file=buf, force_terminal=True, width=200,
                                                                 color_system="standard"))
        _console.show_view([table])
        return buf.getvalue()

    yellow = "\x1b[33m"
    assert ansi(tab).count(yellow + "no") == sum(r[6] == "no" for r in tab.rows) > 0
    assert (yellow + "yes") not in ansi(tab)
    yes = next(i for i, r in enumerate(tab.rows) if r[6] == "yes")
    assert (yellow + "yes") in ansi(replace(tab, warnings=tab.warnings | {(yes, 6)}))


def _no_seconds(x):
    """``x`` without its timings (``seconds`` keys), which differ between two runs of the same analysis."""
    if isinstance(x, dict):
        return {k: _no_seconds(v) for k, v in x.items() if k != "seconds"}
    return [_no_seconds(v) for v in x] if isinstance(x, list) else x


def test_spectrum_stress_and_plan_write_the_json_their_record_gives(capsys):
    """The record assembles what ``--json`` writes (``command_json``), the command only writes it: a model with
    several layer kinds (the sections too), coefficients (no resolved encoding), a stress with a null, a plan."""
    from petheory.analyses.plan import plan
    from petheory.analyses.spectrum import spectrum, toeplitz_summary
    from petheory.analyses.stress import stress

    gemma = "tests/data/hf_configs/gemma3_4b.json"
    rec = spectrum(resolve_scheme(gemma), length=64, method="off")
    assert len(rec.sections) > 1
    got = json.loads(_out(capsys, "spectrum", "--pe", gemma, "--length", "64", "--method", "off", "--json", "-"))
    assert _no_seconds(got) == _no_seconds(rec.command_json()) and "sections" in got and got["scheme"]
    import numpy as np

    summary = toeplitz_summary(np.array([1.0, 0.5, 0.25]), what="coefficients from --coeffs", method="off")
    got = json.loads(_out(capsys, "spectrum", "--coeffs", "1,0.5,0.25", "--method", "off", "--json", "-"))
    assert _no_seconds(got) == _no_seconds(summary.command_json()) and got["resolved_encoding"] is None
    rec = stress(resolve_scheme("alibi:slope=0.5"), null_draws=3, name="alibi")
    got = json.loads(_out(capsys, "stress", "--pe", "alibi:slope=0.5", "--null-draws", "3", "--json", "-"))
    assert _no_seconds(got) == _no_seconds(rec.command_json()) and got["null"]["draws"] == 3
    rec = plan(resolve_scheme("rope:base=10000", d=128, context=1024), length=4096, source="rope:base=10000")
    got = json.loads(_out(capsys, "plan", "--pe", "rope:base=10000", "--context", "1024", "--length", "4096",
                          "--json", "-"))
    assert _no_seconds(got) == _no_seconds(rec.command_json())


def test_a_record_with_no_kind_computed_has_no_json_to_write():
    from petheory.analyses.spectrum import spectrum
    from petheory.analyses.stress import stress

    from petheory.scheme import Positions, Scheme

    nope = Scheme.single(Positions("nope"), context=16)
    with pytest.raises(ValueError, match="no layer kind has a position-only kernel"):
        spectrum(nope, length=8).command_json()
    with pytest.raises(ValueError, match="no position mechanism has a geometry"):
        stress(nope, null_draws=0).command_json()
