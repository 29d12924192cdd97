"""Every model family, every layer kind, all five commands: one answer.

Each family's config (tools/verify/flagships.py's cases, built by transformers' own configuration class, the
families tests/models/test_model_families.py checks layer by layer against transformers' modules)
is written as a ``config.json`` and given to ``petheory report``, ``spectrum``, ``compare``,
``bounds`` and ``stress`` through the CLI's own entry point (``petheory.cli.main``: its parsing,
its defaults, its rendering to JSON), at the model's original context L. For every distinct layer
kind of the resolved scheme the quantities the commands share must agree **exactly** (equal
floats, not approximately: they are computed by one function in petheory.analyses, so any
difference means a command re-derived something on its own):

* the layer partition (which layers form a kind) and the library's :meth:`Scheme.kinds`;
* the head size d, the encoding's name and parameters, the band frequencies (the report's per-kind
  bands are the library's ``band_frequencies`` of the scheme that test_model_families compares with
  transformers; the other commands' ``resolved_encoding`` names the main layer);
* lambda_min and lambda_max of the position-only Toeplitz matrix at N = reach(L) (report, spectrum,
  compare; a sliding or chunked kind at min(L, span));
* the stress and its seeded null mean (report, stress, compare);
* the computed norm change and the angle coverage (report, bounds, compare);
* a kind without a kernel (NoPE, linear attention, learned T5 buckets) is skipped with the same
  reason in every command, never dropped.

The report's long-context section (petheory.analyses.long_context: Men's base scan, about 10-50 s per
rotary kind, shared with no other command) is replaced by a stub here to keep this file fast; it
is tested in tests/theory.
"""

from __future__ import annotations

import contextlib
import io
import json

import numpy as np
import pytest

pytest.importorskip("transformers")

from tools.verify.flagships import CASES, OLDER, build  # noqa: E402

from petheory import encodings as enc  # noqa: E402
from petheory.errors import ValidationError  # noqa: E402
from petheory.cli import main  # noqa: E402
from petheory.models import resolve_config  # noqa: E402
from petheory.analyses.describe import jsonable  # noqa: E402

ALL = CASES + OLDER
NULL_DRAWS = 3


def _stubbed_section(pos, **kw):
    """The long-context section's stand-in: refused as an input it cannot take, so the report skips it its own way."""
    raise ValidationError("stubbed in test_every_family_every_command")


def _cli(*argv) -> tuple[int, dict | None, str]:
    """``petheory ARGV --json -`` in-process: (exit code, the JSON on stdout or None, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv] + ["--json", "-"])
    return rc, (json.loads(out.getvalue()) if rc == 0 else None), err.getvalue()


@pytest.fixture(scope="module", params=ALL, ids=[c[0] for c in ALL])
def family(request, tmp_path_factory):
    name, mt, kw = request.param
    _, cfg = build(mt, kw)
    path = tmp_path_factory.mktemp(name) / "config.json"
    path.write_text(json.dumps(cfg))
    scheme = resolve_config(cfg)
    L = scheme.context
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("petheory.analyses.long_context.long_context_section", _stubbed_section)
        runs = {
            "report": _cli("report", "--pe", path, "--length", L, "--multiples", "1", "--null-draws", NULL_DRAWS),
            "spectrum": _cli("spectrum", "--pe", path, "--length", L, "--method", "off"),
            "compare": _cli("compare", "--pe", path, "--length", L, "--lengths", f"64,{L}", "--null-draws", NULL_DRAWS,
                            "--records", tmp_path_factory.mktemp("no-records")),
            "bounds": _cli("bounds", "--pe", path, "--lengths", L),
            "stress": _cli("stress", "--pe", path, "--null-draws", NULL_DRAWS),
        }
    return name, scheme, runs


def _sections(rec: dict, n_layers: int) -> list:
    """A spectrum/stress record's sections: its ``sections`` when there are several kinds, else the record itself."""
    return rec.get("sections") or [{"layers": list(range(n_layers)), **rec}]


def _holding(sections: list, layers: list) -> dict:
    """The one section whose layers include ``layers`` (stress and bounds group layers by their positions only)."""
    (sec,) = [s for s in sections if set(layers) <= set(s["layers"])]
    return sec


def _analysable(scheme) -> bool:
    from petheory.analyses.kernel import why_no_kernel

    return any(why_no_kernel(layer.positions, learned_t5=True) is None for layer, _ in scheme.kinds())


def test_every_command_succeeds_or_refuses_in_one_line(family):
    _, scheme, runs = family
    for cmd in ("report", "compare", "bounds"):
        assert runs[cmd][0] == 0, (cmd, runs[cmd][2])
    for cmd in ("spectrum", "stress"):  # a scheme with no kernel at all (T5's learned buckets) is refused by name
        rc, _, err = runs[cmd]
        if _analysable(scheme):
            assert rc == 0, (cmd, err)
        else:
            assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, (cmd, err)


def test_every_command_sees_the_layer_kinds_of_the_scheme(family):
    _, scheme, runs = family
    kinds = [list(idx) for _, idx in scheme.kinds()]
    rep = runs["report"][1]["reports"][0]
    assert [s["layers"] for s in rep["sections"]] == kinds
    assert rep["num_layers"] == len(scheme.layers) and rep["head_dim"] == scheme.head_dim
    assert [r["layers"] for r in runs["compare"][1]["rows"]] == kinds
    if runs["spectrum"][1] is not None:
        assert [s["layers"] for s in _sections(runs["spectrum"][1], len(scheme.layers))] == kinds
    # stress and bounds: one row per distinct position mechanism (and, for bounds, analysed length)
    for rows in (runs["bounds"][1]["rows"], *([] if runs["stress"][1] is None else
                                               [_sections(runs["stress"][1], len(scheme.layers))])):
        assert sorted(i for r in rows for i in r["layers"]) == list(range(len(scheme.layers)))
        for k in kinds:
            _holding(rows, k)


def test_every_layer_kind_gets_one_answer_from_every_command(family):
    _, scheme, runs = family
    n_layers = len(scheme.layers)
    rep = runs["report"][1]["reports"][0]
    cmp_rows = {tuple(r["layers"]): r for r in runs["compare"][1]["rows"]}
    spec = runs["spectrum"][1]
    spec_secs = {} if spec is None else {tuple(s["layers"]): s for s in _sections(spec, n_layers)}
    bnd_rows = runs["bounds"][1]["rows"]
    st = runs["stress"][1]
    st_secs = [] if st is None else _sections(st, n_layers)
    checked = 0
    for (layer, idx), sec in zip(scheme.kinds(), rep["sections"]):
        pos, key = layer.positions, tuple(idx)
        row, brow = cmp_rows[key], _holding(bnd_rows, list(idx))
        if "skipped" in sec or sec.get("spectra", {}) == sec.get("kernel") or "skipped" in sec.get("spectra", {}):
            why = sec.get("skipped") or sec["spectra"]["skipped"]
            assert row["spectrum"] == {"error": why} and brow["skipped"] == why, key
            if spec_secs:
                assert spec_secs[key]["skipped"] == why, key
            if st_secs:
                assert _holding(st_secs, list(idx))["skipped"] == why, key
            continue
        # head size, encoding and its parameters, band frequencies
        e = sec["encoding"]
        assert e["d"] == row["d"] == pos.d, key
        assert (e["encoding"], e["params"]) == (row["name"], jsonable(row["params"])) == (pos.encoding, jsonable(pos.params))
        assert brow["pe"] == pos.encoding and brow.get("d", pos.d) in (pos.d, pos.params.get("rope_dim")), key
        if pos.kind == "rotary":
            w, _ = enc.band_frequencies(pos.encoding, pos.d, sec["analysed_length"], **pos.params)
            assert e["frequencies"] == w.tolist() and len(sec["bands"]) == w.shape[0], key
        # the spectrum at reach(L)
        lam = sec["spectra"][0]
        n = layer.span.reach(scheme.context)
        assert lam["n"] == row["spectrum"]["n"] == n, key
        assert lam["lambda_max"] == row["spectrum"]["lambda_max"], key
        assert lam["lambda_min"] == row["spectrum"]["lambda_min"], key
        if spec_secs:
            s = spec_secs[key]
            assert s["n"] == n and s["eigenvalues"]["lambda_max"]["value"] == lam["lambda_max"], key
            assert s["eigenvalues"]["lambda_min"]["value"] == lam["lambda_min"], key
        # stress and its seeded null
        rs = sec["stress"]
        if "skipped" in rs:
            assert row["stress"] == {"error": rs["skipped"]}, key
        else:
            assert rs["stress"] == row["stress"]["stress"] == _holding(st_secs, list(idx))["stress"], key
            assert rs["null"]["mean"] == row["stress"]["null_mean"] == _holding(st_secs, list(idx))["null"]["mean"], key
        # the bound notes at L: computed norm and angle coverage
        rb = sec["bounds"]
        brow = [r for r in bnd_rows if set(idx) <= set(r["layers"]) and r["length"] == scheme.context]
        (brow,) = brow
        assert rb["norm"]["computed"] == brow["norm"]["computed"] == row["norms"]["values"][str(scheme.context)], key
        assert rb.get("angles") == brow.get("angles") == row["norms"].get("angles"), key
        checked += 1
    assert checked >= 1 or not _analysable(scheme)


def test_the_main_layer_is_named_alike_by_every_command(family):
    """``resolved_encoding`` (the scheme's main layer) in spectrum, stress, compare and bounds is the report's section."""
    _, scheme, runs = family
    main_idx = scheme.layers.index(scheme.main)
    rep = runs["report"][1]["reports"][0]
    (sec,) = [s for s in rep["sections"] if main_idx in s["layers"]]
    if "encoding" not in sec:
        return
    named = [runs["compare"][1]["resolved_encodings"][0], runs["bounds"][1]["resolved_encodings"][0]]
    named += [runs[c][1]["resolved_encoding"] for c in ("spectrum", "stress") if runs[c][1] is not None]
    for desc in named:
        assert desc["d"] == sec["encoding"]["d"] and desc["params"] == sec["encoding"]["params"]
        if "frequencies" in sec["encoding"]:
            assert np.array_equal(desc["frequencies"], sec["encoding"]["frequencies"])
