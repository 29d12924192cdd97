"""The analyses' records are types with named fields, serialised by one function, and render themselves (issue 45).

Their JSON is pinned by tests/analyses/test_records_golden.py; here what a reader of the API meets.
"""

from __future__ import annotations

import json
import math
from dataclasses import FrozenInstanceError, dataclass

import numpy as np
import pytest

from petheory.analyses.bounds import BoundsRow, SkippedRow, bounds
from petheory.analyses.record import Record, Skipped, item, to_json
from petheory.analyses.report import report
from petheory.analyses.spectrum import spectrum
from petheory.analyses.stress import stress
from petheory.loaders import resolve_scheme
from petheory.scheme import Layer, Positions


def test_a_reader_of_the_api_reads_named_fields():
    rope = resolve_scheme("rope", d=16, context=64)
    sec = spectrum(rope, length=64, method="off").sections[0]
    assert sec.summary.lambda_min == sec.summary.eigenvalues.lambda_min.value == 0.0  # rank <= 2 x 8 bands < 64
    assert sec.summary.lambda_max == sec.summary.eigenvalues.lambda_max.value > 0
    assert not hasattr(sec, "lambda_min")  # no read-through: a section's numbers are its summary's
    rep = report(rope, length=256, multiples=(1, 2), null_draws=2)
    s = rep.sections[0]
    assert s.bands[0].wavelength == pytest.approx(2 * math.pi)  # band 0 turns once per 2 pi positions
    assert [x.n for x in s.spectra] == [64, 128] and s.stress.null.draws == 2
    assert s.long_context.liu.bands == 8 and s.kernel.points[0].k == 1
    with pytest.raises(FrozenInstanceError):
        s.layers = []


def test_a_skipped_kind_has_no_summary_and_says_why():
    from dataclasses import replace

    rope = resolve_scheme("rope", d=16, context=64)
    s = replace(rope, layers=(rope.layers[0], Layer(Positions("nope"))), source="llama4_text")
    sec = spectrum(s, length=32, method="off").sections[1]
    assert sec.summary is None and sec.skipped.startswith("NoPE")
    st = stress(s, null_draws=0).sections[1]
    assert st.result is None and isinstance(st.as_dict()["skipped"], str)
    rows = bounds(s, [32]).rows
    assert isinstance(rows[0], BoundsRow) and isinstance(rows[1], SkippedRow) and rows[1].layers == [1]


def test_the_record_renders_itself_as_the_cli_prints_it(capsys):
    from petheory.cli import main

    rec = report(resolve_scheme("alibi:slope=0.5", d=128, context=64), length=128, multiples=(1,), null_draws=0,
                 source="alibi:slope=0.5")
    assert str(rec) == rec.markdown() and rec.markdown().startswith("## alibi:slope=0.5")
    assert rec._repr_html_().startswith("<pre>") and "&lt;" not in rec.markdown()
    assert main(["report", "--pe", "alibi:slope=0.5", "--context", "64", "--length", "128", "--multiples", "1",
                 "--null-draws", "0", "--markdown", "-", "-q"]) == 0
    cli = capsys.readouterr().out
    strip = [line for line in rec.markdown().splitlines() if "| 1L = " not in line]  # the seconds cell differs
    assert [line for line in cli.splitlines() if "| 1L = " not in line] == strip


def test_one_serialiser_for_records_theory_results_and_numpy():
    @dataclass(frozen=True)
    class Part(Record):
        start: int = item(key="from")
        values: object = None
        note: str | None = item(omit=True)
        inner: Record | None = item(inline=True, default=None)

    got = to_json(Part(np.int64(3), (np.float64(0.5), np.arange(2), math.inf), None, Skipped("why")))
    assert got == {"from": 3, "values": [0.5, [0, 1], "inf"], "skipped": "why"}
    assert type(got["from"]) is int and json.loads(json.dumps(got)) == got
    rec = spectrum(resolve_scheme("alibi:slope=0.5"), length=16, method="off")
    d = rec.as_dict()
    assert d["sections"][0]["eigenvalues"]["lambda_min"] == rec.sections[0].summary.eigenvalues.lambda_min.as_dict()
    assert d["scheme"] == rec.scheme.as_dict()
