r"""``stress``: Kruskal stress of the geometry each layer kind induces on a target, against its null reference.

The one stress step (:func:`layer_stress`) of ``stress``, ``report`` and ``compare``: the stress of
the encoding's induced distances on ``target`` (:func:`petheory.geometry.encoding_stress`), the
equidistant stress, plain-language warnings about the target, and the null reference of
``null_draws`` seeded N(0, 1) tables of the same shape
(:func:`petheory.stress_reference.random_table_null`). :func:`stress` runs it on every distinct
position mechanism of a :class:`~petheory.scheme.Scheme`.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from petheory._validate import SEED, InstanceOf, Interval, StrOptions, validate_params
from petheory.analyses import kernel as K
from petheory.analyses.record import Record, item, to_json
from petheory.errors import NotAMetricError, ParameterError, ValidationError
from petheory.geometry.induced import StressReport
from petheory.loaders import limits
from petheory.scheme import Positions, Scheme


@dataclass(frozen=True)
class NullSummary(Record):
    """The null reference of a stress: where the encoding's stress falls among ``draws`` seeded N(0, 1) tables of the
    same shape against the same target (the summary of a :class:`petheory.stress_reference.NullReference`, whose
    ``draws`` values it does not keep).

    Attributes
    ----------
    what : str
        The tables, their shape and their seeds, in words.
    draws : int
        Random tables.
    mean, sd : float
        Mean and standard deviation (ddof = 1) of their stress.
    p5, median, p95 : float
        Percentiles of their stress.
    percentile : float
        Share (%) of the tables whose stress is at most the encoding's (lower is better).
    z : float or None
        ``(stress - mean) / sd``; None when ``sd`` is 0.
    """

    what: str
    draws: int
    mean: float
    sd: float
    p5: float
    median: float
    p95: float
    percentile: float
    z: float | None


@dataclass(frozen=True)
class LayerStress(Record):
    """The stress of one layer's positions against a target (:func:`layer_stress`), with what judges it.

    Its JSON is the held report's keys, then its own.

    Attributes
    ----------
    stress : petheory.geometry.induced.StressReport
        The stress, the optimal encoding's numbers and the target (see that class for its fields).
    equidistant_stress : float
        The stress of an encoding that puts every pair of positions equally far apart.
    warnings : list of str
        What the target, the null reference or the bias map say about this stress.
    null : NullSummary or None
        The null reference over random tables; None with ``null_draws=0``.
    """

    stress: StressReport = item(inline=True)
    equidistant_stress: float
    warnings: list
    null: NullSummary | None

    def summary_line(self) -> str:
        """One line: the stress, the corpus size and, with a null reference, where it falls among random tables."""
        rep = self.stress
        line = (f"stress {rep.stress:.4f} (Kruskal stress-1, n = {rep.n} positions of the built-in corpus, "
                f"d = {rep.d})")
        if self.null:
            line += (f"; {self.null.draws} random N(0,1) tables: {self.null.mean:.4f} ± {self.null.sd:.4f}, this "
                     f"scheme at percentile {self.null.percentile:.0f} (lower is better)")
        return line

    def lines(self) -> list[str]:
        """What ``petheory stress`` prints for one encoding."""
        from petheory import geometry

        rep = self.stress
        td = rep.target_details
        out = [f"encoding  {rep.encoding}  ({rep.geometry})"]
        tgt = rep.target
        if td:
            tgt += (f"  (n={td['n']}, V={td['V']}, tokenizer {td['tokenizer']}, >= {td['min_observations']} "
                    "observations/position)")
        out.append(f"target    {tgt}")
        if td and td.get("excluded_from") is not None:
            ex = td["excluded_observations"]
            out.append(f"note      positions {td['excluded_from']}..{td['excluded_from'] + len(ex) - 1} left out: fewer "
                       f"than {td['min_count']} observations ({', '.join(map(str, ex[:8]))}{', ...' if len(ex) > 8 else ''})")
        if td and td.get("sparse_positions"):
            out.append(f"note      sparse positions kept: {td['sparse_positions']}")
        out.append(f"stress    {rep.stress:.4f}  {geometry.STRESS_LABELS[rep.kind]}; n={rep.n}, d={rep.d}")
        null = self.null
        if null:
            out.append(f"random    {null.draws} N(0,1) tables ({rep.n}, {rep.d}): stress {null.mean:.4f} ± "
                       f"{null.sd:.4f} (mean ± sd; 5-95%: {null.p5:.4f}-{null.p95:.4f}); this encoding's stress is at "
                       f"percentile {null.percentile:.0f} (lower is better)")
        out.append(f"equidist. every pair of positions equally far: stress {self.equidistant_stress:.4f}")
        full, small = rep.params_full, rep.params_min
        if small < full:
            params = f"params r(n+d) = {small} < n*d = {full} (the factorisation U V^T saves {full - small})"
        else:
            params = (f"params r(n+d) = {small} >= n*d = {full} (no saving: an increase of {small - full}, as "
                      "r >= nd/(n+d))")
        out.append(f"optimal   rank-{rep.rank} MDS encoding: stress {rep.mds_stress:.4f}; {params}")
        out += [f"warning   {w}" for w in self.warnings]
        return out


def layer_stress(pos: Positions, target, *, length: int | None = None, kind: str = "stress1", rank: int | None = None,
                 bias_map: str | None = None, null_draws: int = 100, seed: int = 0, target_name: str | None = None,
                 name: str | None = None, details_extra: dict | None = None, length_implicit: bool = False,
                 progress=None, started=None) -> LayerStress:
    """Stress of one layer's positions against ``target`` with its null reference.

    Parameters
    ----------
    pos : petheory.scheme.Positions
        The layer's positions (a registry encoding or a table).
    target : petheory.geometry.PositionalDistributions or array_like, shape (n, n)
        Positional distributions (their Hellinger distances) or a distance matrix.
    length : int, optional
        Positions compared (default: all the target supports).
    kind : {'stress1', 'raw', 'strain'}
        The stress formula.
    rank : int, optional
        Rank of the optimal (MDS) encoding (default: the numerical rank).
    bias_map : {'gap', 'hellinger'}, optional
        How a bias induces distances. A bias whose logit gaps are not a metric (a learned bias favouring another key)
        falls back to ``'hellinger'`` when none was asked for, and says so.
    null_draws, seed : int
        Random N(0, 1) tables of the null reference (0: none) and the seed of the first.
    target_name, name : str, optional
        Names of the target (a distance matrix's) and of the encoding in the record.
    details_extra : dict, optional
        Extra fields of the target's details (``capped_by_table``).
    length_implicit : bool
        The length was not given (a warning about the target then says so).
    progress : callable, optional
        ``progress(done, total)`` after each draw of the null reference.
    started : callable, optional
        ``started(stress, n)``, once the stress is known, before the null reference (the long part).

    Returns
    -------
    LayerStress

    Raises
    ------
    petheory.errors.ValidationError
        Sizes or parameters out of range (from :func:`petheory.geometry.encoding_stress`).

    References
    ----------
    Kruskal 1964 (stress-1); cirrincione2026 §3 (the Hellinger geometry of positions).

    Examples
    --------
    >>> from petheory import geometry
    >>> from petheory.scheme import Positions
    >>> s = layer_stress(Positions("bias", "alibi", {"slope": 0.5}, 64), geometry.builtin_target(), null_draws=2)
    >>> s.null.draws, 0 <= s.stress.stress <= 1
    (2, True)
    """
    from petheory import geometry, stress_reference

    label = name or pos.source or pos.encoding
    if pos.kind == "table":
        enc_arg, kw = np.asarray(pos.table), {}
    else:
        enc_arg, kw = pos.encoding, {k: val for k, val in pos.params.items() if not (pos.encoding == "alibi" and k == "form")}
    common = dict(n=length, d=None if pos.kind == "table" else pos.d, kind=kind, rank=rank, name=label,
                  target_name=None if isinstance(target, geometry.PositionalDistributions) else target_name)
    notes = []
    try:
        rep = geometry.encoding_stress(enc_arg, target, bias_map=bias_map, **common, **kw)
    except NotAMetricError:  # a learned bias may favour another key over the query's own: no logit-gap metric
        if pos.kind != "bias" or bias_map is not None:
            raise
        rep = geometry.encoding_stress(enc_arg, target, bias_map="hellinger", **common, **kw)
        notes.append("its logit gaps are not a metric: distances by bias_map='hellinger'")
    if started is not None:
        started(rep.stress, rep.n)
    D, _desc, details = geometry.target_distances(target, rep.n)
    if details and details_extra:
        details = {**details, **details_extra}
    equidistant = stress_reference.equidistant_stress(D, kind=rep.kind)
    warnings = stress_reference.target_warnings(D, details or None, n_implicit=length_implicit) + notes
    null = None
    if null_draws:
        ref = stress_reference.random_table_null(D, rep.d, kind=rep.kind, draws=null_draws, seed=seed, progress=progress)
        null = NullSummary(**ref.as_dict(rep.stress))
        if rep.stress >= equidistant or ref.percentile(rep.stress) > 5:
            warnings.append(
                f"this encoding does not beat random tables clearly: {ref.percentile(rep.stress):.0f}% of "
                f"{ref.draws} random N(0,1) tables of shape ({rep.n}, {rep.d}) score at most its stress")
    return LayerStress(rep, equidistant, warnings, null)


@dataclass(frozen=True)
class StressSection(Record):
    """One distinct position mechanism of ``stress``: its layers and its stress, or why it has none.

    Its JSON is ``layers``, then ``skipped`` or the stress's keys.

    Attributes
    ----------
    layers : list of int
        The layers with this position mechanism.
    skipped : str or None
        Why the mechanism has no geometry (NoPE, none, learned T5 buckets); None when it has one.
    result : LayerStress or None
        The stress; None with ``skipped``.
    """

    layers: list
    skipped: str | None = item(omit=True)
    result: LayerStress | None = item(inline=True, default=None)

    def line(self) -> str:
        """One line: the layers and their stress (with the null reference), or why none."""
        from petheory.scheme import layer_ranges

        head = f"  layers {layer_ranges(self.layers)}: "
        if self.result is None:
            return head + self.skipped
        rep, null = self.result.stress, self.result.null
        return head + (f"{rep.encoding}: stress {rep.stress:.4f}"
                       + (f" (null {null.mean:.4f} ± {null.sd:.4f}, percentile {null.percentile:.0f})" if null else ""))


@dataclass(frozen=True)
class StressRecord(Record):
    """``stress``: one section per distinct position mechanism of the scheme.

    Attributes
    ----------
    scheme : petheory.scheme.Scheme
        The scheme analysed.
    target : str
        What the target is (a corpus's source, or ``'distance matrix'``).
    sections : tuple of StressSection
        One per distinct position mechanism, in order of first appearance.
    """

    scheme: Scheme
    target: str
    sections: tuple[StressSection, ...] = ()

    @property
    def computed(self) -> list:
        """The sections that have a geometry."""
        return [s for s in self.sections if s.result is not None]

    def command_json(self) -> dict:
        """What ``petheory stress --json`` writes: petheory's version, the first mechanism's stress in full, what the
        scheme resolves to (:func:`petheory.analyses.describe.describe`), and every section where there are several.

        Returns
        -------
        dict
            JSON-able data.

        Raises
        ------
        ValueError
            No mechanism has a geometry (``computed`` is empty): there is no first one to write.

        Examples
        --------
        >>> from petheory.loaders import resolve_scheme
        >>> list(stress(resolve_scheme("alibi:slope=0.5"), null_draws=0).command_json())[:2]
        ['petheory', 'stress']
        """
        from petheory import __version__
        from petheory.analyses.describe import describe

        secs = self.computed
        if not secs:
            raise ValueError("no position mechanism has a geometry: the record has no stress to write in full")
        out = {"petheory": __version__, **to_json(secs[0].result), "resolved_encoding": describe(self.scheme)}
        if len(self.sections) > 1:
            out["sections"] = to_json(self.sections)
        return out

    def lines(self) -> list[str]:
        """The first mechanism with a geometry in full, then one line per mechanism where the scheme has several."""
        secs = self.computed
        out = secs[0].result.lines() if secs else []
        if len(self.sections) > 1:  # a model with several position kinds: the first is shown, each one in a line
            out.append("layer kinds (each in --json):")
            out += [sec.line() for sec in self.sections]
        return out


@validate_params({
    "scheme": [InstanceOf(Scheme, "a petheory.scheme.Scheme (petheory.loaders.resolve_scheme)")],
    "offset": [Interval(Integral, 0, None), None],
})
def skip_rows(scheme: Scheme, offset: int | None) -> Scheme:
    """The scheme of a loaded table with its first ``offset`` rows left out, so that its row ``offset`` is the
    target's position 0 (a Hugging Face encoder's [CLS] or <s> sits at row 0 before the first word).

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        A table's scheme (:func:`petheory.loaders.resolve_scheme` of a ``.npy``, safetensors file or ``hf:DIR``).
    offset : int or None
        Rows to leave out (None or 0: none).

    Returns
    -------
    petheory.scheme.Scheme
        One table layer of the remaining rows (context: their number).

    Raises
    ------
    petheory.errors.ValidationError
        An offset for a scheme that is no table, or one that leaves fewer than 2 rows.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> s = Scheme.single(Positions("table", table=np.eye(4), d=4, source="t.npy"), context=4, source="table")
    >>> skip_rows(s, 1).main.positions.table.shape
    (3, 4)
    """
    from dataclasses import replace

    if not offset:
        return scheme
    pos = scheme.main.positions
    if pos.kind != "table":
        raise ValidationError(f"offset={offset} applies to loaded tables only; {scheme.spec or pos.encoding} is no "
                              "table")
    rows = pos.table.shape[0]
    if offset > rows - 2:
        raise ParameterError("offset", f"<= {rows - 2}, to leave 2 of the table's {rows} rows", offset, owner=skip_rows)
    table = pos.table[offset:]
    return Scheme.single(replace(pos, table=table), context=table.shape[0], source="table", spec=scheme.spec)


@validate_params({
    "scheme": [InstanceOf(Scheme, "a petheory.scheme.Scheme (petheory.loaders.resolve_scheme)")],
    "null_draws": [limits.null_draws()],
    "seed": [SEED],
    "length": [Interval(Integral, 2, None), None],  # a stress compares distances: two positions at least
    "kind": [StrOptions(("stress1", "raw", "strain"))],
    "rank": [Interval(Integral, 1, None), None],
    "bias_map": [StrOptions(("gap", "hellinger")), None],
    "target_name": [str, None],
    "name": [str, None],
    "length_implicit": ["boolean"],
    "progress": ["callable", None],
    "started": ["callable", None],
})
def stress(scheme: Scheme, target=None, *, null_draws: int = 100, seed: int = 0, length: int | None = None,
           kind: str = "stress1", rank: int | None = None, bias_map: str | None = None, target_name: str | None = None,
           name: str | None = None, details_extra: dict | None = None, length_implicit: bool = False, progress=None,
           started=None) -> StressRecord:
    """:func:`layer_stress` of every distinct position mechanism of ``scheme``.

    The span does not change a geometry of positions, so layers that differ only in their span share a section.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        From :func:`petheory.loaders.resolve_scheme`.
    target : petheory.geometry.PositionalDistributions or array_like, optional
        Default: the built-in corpus (:func:`petheory.geometry.builtin_target`).
    null_draws, seed, length, kind, rank, bias_map, target_name, details_extra, length_implicit, progress, started
        As :func:`layer_stress`.
    name : str, optional
        The encoding's name in the record, where the scheme has one position mechanism (a model's kinds are named
        each by its own encoding).

    Returns
    -------
    StressRecord

    Raises
    ------
    petheory.errors.ValidationError
        As :func:`layer_stress`.

    References
    ----------
    Kruskal 1964 (stress-1); cirrincione2026 §3.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> rec = stress(resolve_scheme("alibi:slope=0.5"), null_draws=0)
    >>> round(rec.sections[0].result.stress.stress, 4) >= 0
    True
    """
    from petheory import geometry

    target = geometry.builtin_target() if target is None else target
    groups = scheme.position_kinds()
    learned = scheme.source not in ("spec", "table")
    sections = []
    for pos, idx in groups:
        why = K.why_no_kernel(pos, learned_t5=learned)
        if why is not None:
            sections.append(StressSection(idx, skipped=why))
            continue
        rows = None if pos.kind != "table" else int(np.shape(pos.table)[0])
        if rows is not None and length is not None and length > rows:  # a rule between the length and the scheme
            raise ParameterError("length", f"<= {rows} (the positions of the table {pos.source})", length, owner=stress)
        # a model's kinds are named each by its own encoding (Gemma 3: rope on sliding layers, rope_pi on global ones)
        label = name if name is not None and len(groups) == 1 else (
            (pos.source or pos.encoding) + (f" ({scheme.spec})" if learned and scheme.spec else ""))
        sections.append(StressSection(idx, result=layer_stress(
            pos, target, null_draws=null_draws, seed=seed, name=label, length=length, kind=kind, rank=rank,
            bias_map=bias_map, target_name=target_name, details_extra=details_extra, length_implicit=length_implicit,
            progress=progress, started=started)))
    tname = target.source if isinstance(target, geometry.PositionalDistributions) else "distance matrix"
    return StressRecord(scheme, str(tname), tuple(sections))
