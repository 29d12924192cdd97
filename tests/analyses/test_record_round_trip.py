"""A record's JSON reads back into the record (issue 56): JSON -> object -> JSON byte for byte, the theory's results
rebuilt as the objects the record holds, and every field documented once.

Records hold the theory's results instead of copying their fields (a stress section holds its
:class:`~petheory.geometry.induced.StressReport`, a report its :class:`~petheory.scheme.Scheme`); the JSON they write
stays what it was (tests/analyses/test_records_golden.py pins it), and :func:`petheory.analyses.record.from_json`
reads it back by the fields' annotations.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import pkgutil
from dataclasses import dataclass, replace

import numpy as np
import pytest

import petheory.analyses
from petheory.analyses.bounds import BoundsRecord, BoundsRow, GivenLipschitz, bounds
from petheory.analyses.compare import compare
from petheory.analyses.long_context import supported_context
from petheory.analyses.plan import plan
from petheory.analyses.plan_record import Answer, Check, PlanRecord
from petheory.analyses.runtime_config import RuntimeConfig
from petheory.analyses.record import Record, Skipped, from_json, item, to_json
from petheory.analyses.report import report
from petheory.analyses.report_record import ReportRecord
from petheory.analyses.rotation import rotation_reference
from petheory.analyses.spectrum import SzegoDistance, spectrum, toeplitz_summary
from petheory.analyses.stress import LayerStress, StressRecord, stress
from petheory.bounds.lipschitz import LipschitzReport
from petheory.geometry.induced import StressReport
from petheory.loaders import resolve_scheme
from petheory.scheme import Layer, MRope, Positions, Scheme, Span, Temperature
from petheory.toeplitz.eigen import EigenEstimate
from petheory.toeplitz.sources import ToeplitzSource
from petheory.toeplitz.symbols import SymbolExtrema
from petheory.toeplitz.szego import SpectralDistribution
from petheory.stress_reference import NullReference

#: The theory's result classes a record holds (or, for NullReference, summarises): no record re-declares their
#: fields, and each documents them.
HELD = (StressReport, SymbolExtrema, SpectralDistribution, EigenEstimate, ToeplitzSource, NullReference, Scheme, Layer,
        Positions, Span)
#: ... and the parts of a scheme they hold, documented too (a Temperature's ``kind`` and ``params`` are names every
#: mechanism row has of its own, so they are not checked for copies).
THEORY = HELD + (Temperature, MRope)


def record_classes() -> dict[str, type]:
    """Every :class:`Record` subclass defined in a module of :mod:`petheory.analyses`, by name."""
    out = {}
    for info in pkgutil.walk_packages(petheory.analyses.__path__, "petheory.analyses."):
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            if (inspect.isclass(obj) and issubclass(obj, Record) and obj is not Record and not name.startswith("_")
                    and obj.__module__ == mod.__name__):
                out[name] = obj
    return out


def _two_kinds(spec: str) -> Scheme:
    """A one-kind scheme with a NoPE layer added: a section with a result and one skipped."""
    s = resolve_scheme(spec, d=16, context=32)
    return replace(s, layers=(s.layers[0], Layer(Positions("nope"), Span("sliding", 8))), source="llama4_text")


@pytest.fixture(scope="module")
def records() -> list:
    """One record of each analysis, built to reach every record class: a NoPE kind (skipped parts), a rotary kind
    (bands, kernel, spectra, long-context theory), T5 (buckets), ALiBi per head, a Szegő distance exact and skipped,
    bounds with the default Lipschitz constant, compare with records passed in, a rotation reference, two plans and
    the supported context a report's line renders, and a report given its config (the lints as its warnings)."""
    rope, t5 = _two_kinds("rope"), resolve_scheme("t5", d=16, context=32)
    alibi = resolve_scheme("tests/data/hf_configs/bloom_560m.json")
    gemma, mistral, hunyuan = (f"tests/data/hf_configs/{m}.json" for m in ("gemma3_27b", "mistral_7b", "hunyuan_a13b"))
    return [
        stress(rope, null_draws=2),
        spectrum(rope, length=24, method="exact"),
        report(rope, length=64, multiples=(1, 2), null_draws=2),
        report(t5, length=64, multiples=(1,), null_draws=0),
        report(alibi, length=64, multiples=(1,), null_draws=0),
        report(resolve_scheme(hunyuan), length=64, multiples=(1,), null_draws=0),
        bounds(rope, [16, 64]),
        compare([rope, "alibi:slope=0.5"], length=16, lengths=(8, 16), context=8, null_draws=2),
        toeplitz_summary(np.array([2.0, 1.0, 0.5]), what="coefficients", method="off"),
        toeplitz_summary(np.array([2.0, 1.0, 0.5]), what="coefficients", method="slq"),
        rotation_reference(rope, 0, np.arange(5)),
        # a plan with a kind left unplanned and its configs under text_config, and one that removes the window
        plan(resolve_scheme(gemma), length=65536, source=gemma),
        plan(resolve_scheme(mistral), length=32768),
        supported_context(Positions("rotary", "rope", {"base": 1e4}, 128), context=4096, extended=4096),
    ]


def _walk(x, seen: set) -> None:
    """The record classes reached from ``x`` (fields, lists, dicts)."""
    if isinstance(x, Record):
        seen.add(type(x).__name__)
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        for f in dataclasses.fields(x):
            _walk(getattr(x, f.name), seen)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _walk(v, seen)
    elif isinstance(x, dict):
        for v in x.values():
            _walk(v, seen)


#: What a record's JSON does not keep: a spectral distribution's atoms (its distances and ranges are kept), a rotation
#: reference's arrays (``rotate`` writes them as .npy files beside its JSON), a plan candidate's frequencies (its JSON
#: gives their turns over L and N; they read back empty), a long-context section's supported context (the report keeps
#: its line, ``theory_range``), a scheme's config.json (what the analyses read from it, the lints and a plan's blocks,
#: is in the record).
NOT_IN_JSON = {("Scheme", "config"), ("SpectralDistribution", "support"), ("SpectralDistribution", "weights"),
               ("SpectralDistribution", "symbol_values"), ("RotationReference", "arrays"),
               ("CandidatePlan", "frequencies"), ("LongContextSection", "supported")}


def _shape(x):
    """What ``x`` is made of: each dataclass by its type and fields, each sequence and dict by its items."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__, {f.name: _shape(getattr(x, f.name)) for f in dataclasses.fields(x)
                                   if (type(x).__name__, f.name) not in NOT_IN_JSON})
    if isinstance(x, (list, tuple)):
        return [_shape(v) for v in x]
    if isinstance(x, dict):
        return {k: _shape(v) for k, v in x.items()}
    return type(x).__name__ if not isinstance(x, (int, float)) or isinstance(x, bool) else "number"


def test_every_record_class_reads_back_to_the_same_json_byte_for_byte(records):
    reached = set()
    for rec in records:
        text = json.dumps(rec.as_dict())
        back = from_json(type(rec), json.loads(text))
        assert json.dumps(back.as_dict()) == text, type(rec).__name__
        assert _shape(back) == _shape(rec), type(rec).__name__  # the held objects rebuilt, not left as dicts
        assert back.lines() == rec.lines()
        _walk(back, reached)
    assert set(record_classes()) <= reached, f"not reached: {sorted(set(record_classes()) - reached)}"


def test_a_record_holds_the_theory_s_results_and_reads_them_back(records):
    st, sp, rep = records[0], records[1], records[2]
    back = StressRecord.from_dict(st.as_dict())
    held = back.sections[0].result.stress
    assert isinstance(held, StressReport) and held == st.sections[0].result.stress
    assert back.scheme == st.scheme and isinstance(back.scheme.layers[1].span, Span)
    sz = from_json(type(sp), sp.as_dict()).sections[0].summary.szego
    assert isinstance(sz, SzegoDistance) and sz.resolved and isinstance(sz.distribution, SpectralDistribution)
    assert sz.distribution.kolmogorov == sp.sections[0].summary.szego.distribution.kolmogorov
    with pytest.raises(ValueError, match="read back from a record"):  # the atoms are not in the JSON: refused
        sz.distribution.cdf(0.0)
    r = from_json(ReportRecord, rep.as_dict())
    assert r.scheme == rep.scheme and (r.model_type, r.context, r.num_layers) == ("llama4_text", 32, 2)
    assert isinstance(r.sections[0].stress, LayerStress) and isinstance(r.sections[1].span, Span)


def test_a_plan_reads_back_its_kinds_candidates_checks_and_runtime_configs(records):
    """The plan's parts are typed tuples, so its JSON gives the records back, not dicts: what the plan's methods
    read (a candidate's checks, the recommendation, a runtime config's placed fields) works on the read-back plan."""
    for rec in (r for r in records if isinstance(r, PlanRecord)):
        back = PlanRecord.from_dict(json.loads(json.dumps(rec.command_json()))["plan"])
        assert back.markdown() == rec.markdown() and back.recommended() == rec.recommended()
        k = next(k for k in back.kinds if k.planned)
        assert isinstance(k.candidates[0].checks[0], Check) and k.candidates[0].passed == next(k for k in rec.kinds if k.planned).candidates[0].passed
        assert isinstance(k.training_free, Answer) and isinstance(back.configs[0], RuntimeConfig)
        assert back.config("yarn").config_fields() == rec.config("yarn").config_fields()
        assert back.config("yarn").v4_fields() == rec.config("yarn").v4_fields()
        assert back.kinds[0].layers == rec.kinds[0].layers and back.kinds[0].candidates[0].frequencies == ()
    d = json.loads(json.dumps(records[-2].as_dict()))
    d["kinds"][0]["candidates"][0]["checks"][0].pop("passed")
    with pytest.raises(ValueError, match=r"kinds\[0\]\.candidates\[0\]\.checks\[0\]: missing key 'passed' of a Check"):
        PlanRecord.from_dict(d)


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(model_type="llama"), "'model_type' is 'llama' but the record's own objects give"),
    (lambda d: d.pop("length"), "missing key 'length'"),
    (lambda d: d.update(lenght=3), "unexpected key 'lenght'"),
    (lambda d: d["sections"][0].update(spectra={"skipped": 1}), r"sections\[0\]\.spectra\.skipped: expected str"),
    (lambda d: d["sections"][0]["stress"].update(stress_formula="x"), "stress_formula 'x'"),
    (lambda d: d["scheme"].update(layer_kind=[0, 0]), "layer_kind disagrees"),
    (lambda d: d["scheme"].pop("context"), r"ReportRecord\.scheme: missing key 'context' of a Scheme"),
    (lambda d: d["scheme"]["kinds"][0]["positions"].update(kind="rotory"), "position mechanism 'rotory' is not one of"),
])
def test_json_that_does_not_fit_the_record_is_refused_with_where(records, edit, match):
    d = json.loads(json.dumps(records[2].as_dict()))
    edit(d)
    with pytest.raises(ValueError, match=match):
        from_json(ReportRecord, d)


def test_bounds_reads_back_the_lipschitz_constant_it_used_a_model_s_report_or_a_given_number():
    """The union ``LipschitzReport | GivenLipschitz`` is told apart by keys: a theory result by its fields' names."""
    report_ = LipschitzReport(6.0, [("block0.attn_residual", 3.0, "1 + L_attn L_ln1"), ("head", 2.0, "||W_head||_2")],
                              "global: 1/sqrt(eps) (certified)", "||W_head|| prod (1 + L_attn L_ln1)")
    for lip, kind in ((report_, LipschitzReport), (2.5, GivenLipschitz), (None, GivenLipschitz)):
        rec = bounds("alibi:slope=0.5", [16], context=8, lipschitz=lip)
        text = json.dumps(rec.as_dict())
        back = from_json(BoundsRecord, json.loads(text))
        assert type(back.lipschitz) is kind and back.lipschitz == rec.lipschitz and json.dumps(back.as_dict()) == text
        assert back.lines() == rec.lines()
    assert back.rows[0].rademacher == rec.rows[0].rademacher and isinstance(back.rows[0], BoundsRow)
    d = rec.as_dict()
    d["lipschitz"] = {"total": 1.0}  # fits neither: GivenLipschitz needs its source, a report its factors
    with pytest.raises(ValueError, match=r"lipschitz: no type of LipschitzReport \| GivenLipschitz fits \['total'\]"):
        from_json(BoundsRecord, d)
    d["lipschitz"] = {**report_.as_dict(), "source": "given"}  # a report with a key of neither
    with pytest.raises(ValueError, match="no type of LipschitzReport"):
        from_json(BoundsRecord, d)


def test_a_table_layer_is_refused_its_values_are_not_in_the_json():
    s = Scheme.single(Positions("table", table=np.eye(8, 4), d=4, source="t.npy"), context=8, source="table")
    rec = stress(s, null_draws=0, length=8)
    with pytest.raises(ValueError, match=r"table of shape \[8, 4\] is not in the JSON"):
        from_json(StressRecord, rec.as_dict())


def test_every_record_documents_its_fields_once_in_an_attributes_section():
    from numpydoc.docscrape import ClassDoc

    missing = {}
    for name, cls in record_classes().items():
        documented = {n.strip() for p in ClassDoc(cls, config={"show_class_members": False})["Attributes"]
                      for n in p.name.split(",")}
        fields = {f.name for f in dataclasses.fields(cls)}
        props = set(cls.json_keys) - fields
        if documented != fields | props:
            missing[name] = sorted(documented ^ (fields | props))
    assert not missing, missing


def test_every_theory_result_a_record_holds_documents_its_fields():
    from numpydoc.docscrape import ClassDoc

    for cls in THEORY:
        documented = {n.strip() for p in ClassDoc(cls, config={"show_class_members": False})["Attributes"]
                      for n in p.name.split(",")}
        assert documented == {f.name for f in dataclasses.fields(cls)}, cls.__name__


def copies(cls) -> list[str]:
    """The theory result classes whose fields ``cls`` re-declares (more than half of them, at least two)."""
    mine = {f.name for f in dataclasses.fields(cls)}
    out = []
    for t in HELD:
        theirs = {f.name for f in dataclasses.fields(t)}
        if len(mine & theirs) >= 2 and 2 * len(mine & theirs) > len(theirs):
            out.append(t.__name__)
    return out


def test_no_record_re_declares_a_theory_result_s_fields():
    assert {name: copies(cls) for name, cls in record_classes().items() if copies(cls)} == {}


def test_the_copy_check_catches_a_record_that_copies_a_theory_result():
    """The planted violation: a record that re-declares SymbolExtrema's fields (as SymbolRange did) is caught."""
    @dataclass(frozen=True)
    class CopiedRange(Record):
        min: float
        max: float
        argmin: float
        argmax: float
        error: float
        certified: bool
        which: str

    assert copies(CopiedRange) == ["SymbolExtrema"] and copies(HeldRange) == []
    ex = SymbolExtrema(-1.0, 1.0, 3.0, 0.0, 1e-15, True)
    assert to_json(HeldRange(ex, "a")) == {**ex.as_dict(), "which": "a"}
    assert from_json(HeldRange, to_json(HeldRange(ex, "a"))) == HeldRange(ex, "a")


@dataclass(frozen=True)
class Part(Record):
    value: float
    note: str | None = item(omit=True)


@dataclass(frozen=True)
class Whole(Record):
    part: Part | Skipped
    parts: list[Part] | Skipped


@dataclass(frozen=True)
class HeldRange(Record):
    extrema: SymbolExtrema = item(inline=True)
    which: str = ""


def test_a_union_reads_the_member_the_keys_fit():
    w = Whole(Part(float("inf")), Skipped("why"))
    assert to_json(w) == {"part": {"value": "inf"}, "parts": {"skipped": "why"}}
    assert from_json(Whole, to_json(w)) == w
    with pytest.raises(ValueError, match=r"no type of Part \| Skipped fits \['other'\]"):
        from_json(Whole, {"part": {"other": 1}, "parts": []})
