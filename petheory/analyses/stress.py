r"""``stress``: Kruskal stress of the geometry each layer kind induces on a target, against its null reference.

The one stress step (:func:`layer_stress`) of ``stress``, ``report`` and ``compare``: the stress of
the encoding's induced distances on ``target`` (:func:`petheory.geometry.encoding_stress`), the
equidistant stress, plain-language warnings about the target, and the null reference of
``null_draws`` seeded N(0, 1) tables of the same shape
(:func:`petheory.stress_reference.random_table_null`). :func:`stress` runs it on every distinct
position mechanism of a :class:`~petheory.scheme.Scheme`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from petheory.analyses import kernel as K
from petheory.scheme import Positions, Scheme


def layer_stress(pos: Positions, target, *, n: int | None = None, kind: str = "stress1", rank: int | None = None,
                 bias_map: str | None = None, null_draws: int = 100, seed: int = 0, target_name: str | None = None,
                 name: str | None = None, details_extra: dict | None = None, n_implicit: bool = False,
                 progress=None, started=None) -> dict:
    """Stress of one layer's positions against ``target`` with its null reference, as JSON.

    ``started(stress, n)`` is called once the stress is known, before the null reference (the long
    part); ``progress(done, total)`` after each of its draws.

    ``target``: :class:`petheory.geometry.PositionalDistributions` or an (n, n) distance matrix.
    A bias whose logit gaps are not a metric (a learned bias favouring another key) falls back to
    ``bias_map='hellinger'`` when none was asked for, and says so.
    """
    from petheory import geometry, stress_reference

    label = name or pos.source or pos.encoding
    if pos.kind == "table":
        enc_arg, kw = np.asarray(pos.table), {}
    else:
        enc_arg, kw = pos.encoding, {k: val for k, val in pos.params.items() if not (pos.encoding == "alibi" and k == "form")}
    common = dict(n=n, d=None if pos.kind == "table" else pos.d, kind=kind, rank=rank, name=label,
                  target_name=None if isinstance(target, geometry.PositionalDistributions) else target_name)
    notes = []
    try:
        rep = geometry.encoding_stress(enc_arg, target, bias_map=bias_map, **common, **kw)
    except ValueError as exc:  # a learned bias may favour another key over the query's own: no logit-gap metric
        if pos.kind != "bias" or bias_map is not None or "bias_map='hellinger'" not in str(exc):
            raise
        rep = geometry.encoding_stress(enc_arg, target, bias_map="hellinger", **common, **kw)
        notes.append("its logit gaps are not a metric: distances by bias_map='hellinger'")
    if started is not None:
        started(rep.stress, rep.n)
    D, _desc, details = geometry.target_distances(target, rep.n)
    if details and details_extra:
        details = {**details, **details_extra}
    out = {**rep.as_dict(), "equidistant_stress": stress_reference.equidistant_stress(D, kind=rep.kind),
           "warnings": stress_reference.target_warnings(D, details or None, n_implicit=n_implicit) + notes, "null": None}
    if null_draws:
        null = stress_reference.random_table_null(D, rep.d, kind=rep.kind, draws=null_draws, seed=seed, progress=progress)
        out["null"] = null.as_dict(rep.stress)
        if rep.stress >= out["equidistant_stress"] or null.percentile(rep.stress) > 5:
            out["warnings"].append(
                f"this encoding does not beat random tables clearly: {null.percentile(rep.stress):.0f}% of "
                f"{null.draws} random N(0,1) tables of shape ({rep.n}, {rep.d}) score at most its stress")
    return out


@dataclass(frozen=True)
class StressRecord:
    """One section per distinct position mechanism (``layers``: the layer indices; ``skipped``: why none)."""

    scheme: dict
    target: str
    sections: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"scheme": self.scheme, "target": self.target, "sections": self.sections}


def stress(scheme: Scheme, target=None, *, null_draws: int = 100, seed: int = 0, **options) -> StressRecord:
    """:func:`layer_stress` of every distinct position mechanism of ``scheme`` (the span does not change a geometry
    of positions, so layers that differ only in their span share a section). ``target`` defaults to the
    built-in corpus.

    >>> from petheory.loaders import resolve_scheme
    >>> rec = stress(resolve_scheme("alibi:slope=0.5"), null_draws=0)
    >>> round(rec.sections[0]["stress"], 4) >= 0
    True
    """
    from petheory import geometry

    target = geometry.builtin_target() if target is None else target
    groups = scheme.position_kinds()
    learned = scheme.source not in ("spec", "table")
    name = options.pop("name", None)
    sections = []
    for pos, idx in groups:
        why = K.why_no_kernel(pos, learned_t5=learned)
        if why is not None:
            sections.append({"layers": idx, "skipped": why})
            continue
        # a model's kinds are named each by its own encoding (Gemma 3: rope on sliding layers, rope_pi on global ones)
        label = name if name is not None and len(groups) == 1 else (
            (pos.source or pos.encoding) + (f" ({scheme.spec})" if learned and scheme.spec else ""))
        sections.append({"layers": idx, **layer_stress(pos, target, null_draws=null_draws, seed=seed, name=label,
                                                       **options)})
    name = target.source if isinstance(target, geometry.PositionalDistributions) else "distance matrix"
    return StressRecord(scheme.as_dict(), str(name), sections)
