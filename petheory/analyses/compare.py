r"""``compare``: schemes side by side (every registered encoding by default): spectrum, stress, norm growth, length generalisation.

One row per scheme and distinct layer kind (:func:`compare_scheme`), computed with the functions the
single-PE commands use (:mod:`petheory.analyses.kernel`, :func:`petheory.analyses.stress.layer_stress`,
:func:`petheory.analyses.bounds.layer_bounds`), so a number here is the number ``petheory
spectrum``/``stress``/``bounds``/``report`` print; a model's config gives its own head dimension and
original context:

``symbol`` / ``eigenvalues``
    The position-only Toeplitz matrix of the layer at ``n`` positions (a sliding layer at
    ``min(n, W)``; :func:`petheory.analyses.kernel.position_column`): a bias encoding's ``B``
    (ALiBi's ``-m|k|``); a rotary encoding's unit-content kernel (YaRN's and xPos's scales
    included); an absolute encoding's Gram ``P P^T``, projected on Toeplitz matrices (diagonal
    means) where it is not Toeplitz. Non-Hermitian kernels (xPos, random T5/relative tables) are
    replaced by their Hermitian part ``(T + T^H)/2``. Symbol range of the finite section and the
    extreme eigenvalues (:func:`petheory.analyses.kernel.extremes`: exact low rank for rotary
    kernels, certified otherwise); ``spread = lambda_max - lambda_min``;
    for biases ``cpd`` (:func:`petheory.toeplitz.conditional_definiteness`: KERPLE, ALiBi and
    Sandwich are conditionally positive definite, with exactly one negative eigenvalue).
``stress``
    Kruskal stress-1 of the encoding's induced geometry against the Hellinger geometry of the
    built-in corpus, with the null reference of ``stress`` and ``report``: mean and standard
    deviation of the stress of ``null_draws`` seeded N(0, 1) tables of the same shape
    (:func:`petheory.analyses.stress.layer_stress`), and the z-score ``(stress - mean) / sd``.
``norms``
    The computed norm of :func:`petheory.analyses.bounds.layer_bounds` at each length in ``lengths``
    with the scheme's training length (absolute: ``sup ||PE||``; bias: ``max |b|``; rotary: largest
    change of a band's norm), and for rotary encodings the angle coverage at the longest length.
``lengthgen``
    From training records (dicts with ``task``, ``pe``, ``train_len`` and ``final.test[length]``;
    :func:`petheory.records.read_training_records` reads them from ``records/`` and ``runs/``): per task, the primary
    metric at the training length and at the longest test length. None where no record exists.

Theory code: numpy only, no files (records are passed in).
"""

from __future__ import annotations

import json
import math
from numbers import Integral

import numpy as np

from petheory import _validate as v
from petheory._validate import SEED, Each, Even, Interval, validate_params
from petheory.loaders import limits
from petheory import encodings as enc
from petheory import rounding
from petheory.analyses import kernel as K
from petheory.analyses.compare_record import (CompareRecord, CompareRow, Failed, NormSummary, RecordsRead,
                                               SpectralSummary, StressSummary)
from petheory.errors import InvalidInput
from petheory.scheme import Positions, Scheme, Span, layer_ranges

#: Tasks whose records the comparison reads: their metrics, the first one primary (running_sum: lower is better;
#: chen2025's tasks: exact match seq_acc and per-token token_acc, higher is better).
LENGTHGEN_TASKS = {"running_sum": ("mse",), "parity": ("seq_acc", "token_acc"), "copy": ("seq_acc", "token_acc"),
                   "reverse": ("seq_acc", "token_acc"), "addition": ("seq_acc", "token_acc")}


def spectral_summary(pos: Positions, length: int = 256, *, learned_t5: bool = False) -> SpectralSummary:
    """Symbol range of the finite section and extreme eigenvalues of the layer's position-only matrix.

    Parameters
    ----------
    pos : petheory.scheme.Positions
        The layer's positions.
    length : int
        The matrix size.
    learned_t5 : bool
        T5 buckets are a model's learned weights (no kernel).

    Returns
    -------
    SpectralSummary
        Computed by the functions ``spectrum`` and ``report`` use (:mod:`petheory.analyses.kernel`); ``cpd`` for a
        bias up to :data:`petheory.analyses.spectrum.EXACT_UP_TO` (dense).

    Raises
    ------
    petheory.analyses.kernel.NoKernel
        A layer without a position-only kernel.

    References
    ----------
    gu2025 §3.3; :func:`petheory.toeplitz.conditional_definiteness` for CPD.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> s = spectral_summary(Positions("bias", "alibi", {"slope": 0.5}, 64), 16)
    >>> s.cpd["cpd"], s.lambda_max > 0
    (True, True)
    """
    from petheory import toeplitz as tp
    from petheory.analyses.spectrum import EXACT_UP_TO

    col = K.position_column(pos, length, learned_t5=learned_t5)
    ex = tp.symbol_extrema(col.column, col.row)
    eig, _ = K.extremes(pos, length, column=col)
    lo, hi = eig.min, eig.max
    cpd = None
    if pos.kind == "bias" and length <= EXACT_UP_TO:  # relative biases: conditionally positive definite? (dense, O(N^3))
        cpd = tp.conditional_definiteness(col.column)
    return SpectralSummary(col.description, length, cpd, ex.min, ex.max, bool(ex.certified), lo.value, hi.value,
                           hi.value - lo.value, max(lo.error_bound, hi.error_bound), bool(lo.converged and hi.converged))


def stress_summary(pos: Positions, target, *, null_draws: int = 20, seed: int = 0) -> StressSummary:
    """Stress of the layer's positions against ``target`` with its null reference, and the z-score.

    Parameters
    ----------
    pos : petheory.scheme.Positions
        The layer's positions.
    target : petheory.geometry.PositionalDistributions or array_like
        As :func:`petheory.analyses.stress.layer_stress`.
    null_draws : int
        Random tables of the null reference (at least 2: a standard deviation).
    seed : int
        Seed of the first.

    Returns
    -------
    StressSummary
        ``z = (stress - mean) / sd`` (None when the null has no spread).

    Raises
    ------
    petheory.errors.ValidationError
        ``null_draws < 2``, or as :func:`petheory.analyses.stress.layer_stress`.

    Examples
    --------
    >>> from petheory import geometry
    >>> from petheory.scheme import Positions
    >>> stress_summary(Positions("bias", "alibi", {"slope": 0.5}, 64), geometry.builtin_target(), null_draws=2).null_draws
    2
    """
    from petheory.analyses.stress import layer_stress

    null_draws = v.integer("null_draws", null_draws, minimum=2)
    rec = layer_stress(pos, target, null_draws=null_draws, seed=seed)
    rep, mu, sd = rec.stress, rec.null.mean, rec.null.sd
    return StressSummary(rep.stress, rep.geometry, rep.n, mu, sd, (rep.stress - mu) / sd if sd > 0 else None,
                         rep.mds_stress, null_draws, "N(0,1) tables of the same shape "
                         "(petheory.stress_reference.random_table_null)")


def norm_summary(pos: Positions, *, lengths=(64, 256, 1024), context: int = 64, learned_t5: bool = False,
                 span: Span | None = None) -> NormSummary:
    """The computed norm of :func:`petheory.analyses.bounds.layer_bounds` per length, trained at ``context``.

    Parameters
    ----------
    pos : petheory.scheme.Positions
        The layer's positions.
    lengths : sequence of int
        Inference lengths N'.
    context : int
        The training length.
    learned_t5 : bool
        T5 buckets are a model's learned weights.
    span : petheory.scheme.Span, optional
        A sliding or chunked span is analysed at ``min(N', span)`` (its queries see no farther), as ``bounds`` and
        ``report`` do.

    Returns
    -------
    NormSummary
        ``growth``: the log-log slope between the first and last length (None where either norm is zero, or for a
        rotation zero to rounding); rotary: the angle coverage at the longest.

    Raises
    ------
    petheory.errors.ValidationError
        As :func:`petheory.analyses.bounds.layer_bounds`.

    References
    ----------
    li2025 Table 2.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> norm_summary(Positions("bias", "alibi", {"slope": 0.5}, 64), lengths=(8, 64), context=8).growth
    1.0...
    """
    from petheory.analyses.bounds import layer_bounds

    span = span or Span()
    rows = [layer_bounds(K.layer_kernel(pos, span.reach(int(L)), learned_t5=learned_t5, column=False), context=context)
            for L in lengths]
    vals = {str(L): r.norm["computed"] for L, r in zip(lengths, rows)}
    meaning = {"absolute": "sup ||PE(pos)||", "table": "sup ||PE(pos)||", "bias": "max |b(i,j)|",
               "rotary": "max |band factor - 1|"}.get(pos.kind, pos.kind)
    a, b = vals[str(lengths[0])], vals[str(lengths[-1])]
    # a rotation changes no norm: its computed change is rounding, |(||R x|| - ||x||)| / ||x|| <= 2 gamma_{d+4} (a
    # d-term norm each, 3 operations per rotated coordinate); the growth exponent of two such numbers is noise (0.16
    # on one processor, 0 on another), so it is undefined there, as for a zero
    zero = 2 * rounding.gamma(pos.d + 4) if pos.kind == "rotary" else 0.0
    growth = (math.log(b / a) / math.log(lengths[-1] / lengths[0])) if a and b and min(a, b) > zero else None
    return NormSummary(vals, context, meaning, growth, rows[-1].angles)


def record_pe_name(spec: str) -> str:
    """The registry name a record's PE spec starts with.

    Parameters
    ----------
    spec : str
        A training record's PE spec.

    Returns
    -------
    str

    Examples
    --------
    >>> record_pe_name("rope:base=500+sinusoidal")
    'rope'
    """
    return str(spec).split("+", 1)[0].split(":", 1)[0].strip()


#: Config fields that say which replicate a run is and where it ran, not what it measured: runs that differ only
#: here are one configuration (their numbers are averaged).
REPLICATE_FIELDS = ("seed", "task.seed", "device", "eval_batch_size")


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, x in d.items():
        if isinstance(x, dict):
            out.update(_flat(x, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = x
    return out


def configuration(rec: dict) -> dict:
    """What a training record measured, flattened, without :data:`REPLICATE_FIELDS`.

    Parameters
    ----------
    rec : dict
        A training record (its ``config``: ``model.n_layer``, ``task.params.n_train``, ...).

    Returns
    -------
    dict
        Flattened keys; a record without a ``config`` falls back to its PE and training length.

    Examples
    --------
    >>> configuration({"config": {"model": {"pe": "rope"}, "seed": 3}})
    {'model.pe': 'rope'}
    """
    cfg = rec.get("config")
    if not isinstance(cfg, dict):
        return {"model.pe": rec.get("pe"), "train_len": rec.get("train_len")}
    return {k: x for k, x in _flat(cfg).items() if k not in REPLICATE_FIELDS}


def spec_label(name: str, params: dict | None) -> str:
    """``name:key=value,...`` as the PE grammar writes it.

    Parameters
    ----------
    name : str
        The registry name.
    params : dict or None
        Its parameters.

    Returns
    -------
    str

    Examples
    --------
    >>> spec_label("rope_yarn", {"scale": 4.0})
    'rope_yarn:scale=4'
    """
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={x:g}" if isinstance(x, float) else f"{k}={x}" for k, x in params.items())


def _pe_matches(rec: dict, name: str, params: dict | None) -> bool:
    """The record's PE is ``name`` (its first term) with at least ``params`` (equal values).

    A record's parameters are read from ``rec["_pe_params"]`` (the parsed first term; ``petheory compare``
    sets it with :mod:`petheory.spec`); a record without it matches parameters only when its PE string is
    exactly ``spec_label(name, params)``.
    """
    pe = str(rec.get("pe", ""))
    if record_pe_name(pe) != name:
        return False
    if not params:
        return True
    have = rec.get("_pe_params")
    if have is None:
        return pe == spec_label(name, params)
    return all(k in have and have[k] == x for k, x in params.items())


def lengthgen_summary(records, name: str, params: dict | None = None) -> dict:
    """Per task of :data:`LENGTHGEN_TASKS`: each training configuration of ``name`` and its metrics.

    Each metric at the training length and at the longest test length, averaged over that configuration's runs
    (its seeds) only, with the runs listed. Runs of other configurations (another sample size, model, PE
    parameter) are never averaged in.

    Parameters
    ----------
    records : iterable of dict
        Training records (``task``, ``pe``, ``train_len``, ``final.test[length]``).
    name : str
        The registry name the records' PE must start with.
    params : dict, optional
        Parameters the records' PE must have (at least these).

    Returns
    -------
    dict
        ``{task: [group, ...]}``, a group being ``{"pe", "config" (the fields in which this task's groups
        differ), "runs", "seeds", "records" (where each run's record came from), "longest", "metrics"}``, largest
        group first.

    Examples
    --------
    >>> rec = {"task": "parity", "pe": "rope", "train_len": 8, "seed": 0,
    ...        "final": {"test": {"8": {"seq_acc": 1.0, "token_acc": 1.0}, "16": {"seq_acc": 0.5, "token_acc": 0.9}}}}
    >>> lengthgen_summary([rec], "rope")["parity"][0]["metrics"]["seq_acc"]
    {'at_train': 1.0, 'at_longest': 0.5}
    """
    out = {}
    for task, metrics in LENGTHGEN_TASKS.items():
        groups: dict = {}
        for rec in records:
            if rec.get("task") != task or not _pe_matches(rec, name, params):
                continue
            test = (rec.get("final") or {}).get("test") or {}
            lens = sorted(int(k) for k in test if str(k).isdigit())
            if not lens or not all(m in test[str(lens[-1])] for m in metrics):
                continue
            conf = configuration(rec)
            key = json.dumps(conf, sort_keys=True, default=str) + f"|{lens[-1]}"  # average like with like
            groups.setdefault(key, {"conf": conf, "runs": []})["runs"].append((rec, test, lens))
        if not groups:
            continue
        confs = [g["conf"] for g in groups.values()]
        varying = sorted(k for k in set().union(*confs) if len({json.dumps(c.get(k), default=str) for c in confs}) > 1)
        rows = []
        for g in groups.values():
            runs = g["runs"]
            longest = runs[0][2][-1]
            row = {"pe": str(runs[0][0].get("pe")), "config": {k: g["conf"].get(k) for k in varying}, "runs": len(runs),
                   "seeds": sorted(r.get("seed") for r, _, _ in runs if r.get("seed") is not None),
                   "records": [str(r.get("_source") or f"{r.get('task')}/{r.get('pe')}/s{r.get('seed')}") for r, _, _ in runs],
                   "longest": longest, "metrics": {}}
            for m in metrics:
                at_train = [t.get(str(r.get("train_len", lens[0])), t[str(lens[0])])[m] for r, t, lens in runs]
                row["metrics"][m] = {"at_train": float(np.mean(at_train)),
                                     "at_longest": float(np.mean([t[str(longest)][m] for _, t, _ in runs]))}
            rows.append(row)
        out[task] = sorted(rows, key=lambda r: (-r["runs"], r["pe"], json.dumps(r["config"], sort_keys=True, default=str)))
    return out


def compare_scheme(scheme: Scheme, target, records=(), *, length: int = 256, lengths=(64, 256, 1024),
                   null_draws: int = 20, seed: int = 0) -> list[CompareRow]:
    """The comparison rows of one scheme: one per distinct layer kind (see the module docstring).

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        Its training length is the scheme's context (a model's L, a spec's ``n_max`` or the CLI's ``--context``).
    target : petheory.geometry.PositionalDistributions or array_like
        The stress target.
    records : iterable of dict
        Training records (:func:`lengthgen_summary`).
    length : int
        Positions of the spectral column (a sliding layer at ``min(length, span)``).
    lengths : sequence of int
        Inference lengths of the norm column.
    null_draws, seed : int
        The stress null reference.

    Returns
    -------
    list of CompareRow
        A column the library refuses (its validation error) or cannot solve (``LinAlgError``) is recorded in
        that column (:class:`Failed`); any other exception is a bug and is raised.

    Examples
    --------
    >>> from petheory import geometry
    >>> from petheory.loaders import resolve_scheme
    >>> rows = compare_scheme(resolve_scheme("alibi:slope=0.5"), geometry.builtin_target(), length=16, lengths=(8, 16),
    ...                       null_draws=2)
    >>> rows[0].spectrum.matrix.startswith("alibi")
    True
    """
    learned = scheme.source not in ("spec", "table")
    rows = []
    kinds = scheme.kinds()
    for layer, idx in kinds:
        pos = layer.positions
        name = pos.encoding or pos.kind
        params = {k: x for k, x in pos.params.items()}
        label = spec_label(name, params) if scheme.source == "spec" else (scheme.spec or scheme.source)
        if len(kinds) > 1:
            label += f" [layers {layer_ranges(idx)}: {layer.type or layer.span}]"  # as report names them
        m = layer.span.reach(length)
        why = K.why_no_kernel(pos, learned_t5=learned)
        cols = {}
        for key, fn in (("spectrum", lambda: spectral_summary(pos, m, learned_t5=learned)),
                        ("stress", lambda: stress_summary(pos, target, null_draws=null_draws, seed=seed)),
                        ("norms", lambda: norm_summary(pos, lengths=lengths, context=scheme.context, learned_t5=learned,
                                                        span=layer.span))):
            if why is not None:
                cols[key] = Failed(why)
                continue
            try:
                cols[key] = fn()
            except (InvalidInput, np.linalg.LinAlgError) as exc:  # a refused column never hides the rest; a bug does
                cols[key] = Failed(str(exc).splitlines()[0])
        lg = lengthgen_summary(records, name, params) if scheme.source == "spec" else {}
        rows.append(CompareRow(label, name, params, pos.kind, list(idx), pos.d, str(layer.span), scheme.context,
                               cols["spectrum"], cols["stress"], cols["norms"], lg))
    return rows


#: Head dimension and training length of a registered encoding in ``compare`` where none is given.
DEFAULT_D = 64
DEFAULT_CONTEXT = 64


def resolve(spec, *, d: int | None = None, context: int | None = None, as_family: str | None = None) -> Scheme:
    """A spec as :func:`compare` reads it: a registered encoding at head dimension ``d`` and training length ``context``,
    or a model's config.json (its own head dimension and context).

    A registered encoding's own ``n_max`` is its training length: a ``context`` that differs is refused (both say
    the training length; give one), and an entry that takes ``n_max`` gets ``context`` as its ``n_max``.

    Parameters
    ----------
    spec : str or petheory.spec.PESpec
        A registered encoding with its parameters, a model's config.json or ``hf:DIR``.
    d, context, as_family
        As :func:`compare`.

    Returns
    -------
    petheory.scheme.Scheme

    Raises
    ------
    petheory.errors.ParameterError
        ``context`` other than the spec's own ``n_max`` (said of :func:`compare`'s ``context``).
    petheory.errors.ValidationError
        A table (compare takes registered encodings and model configs), a spec that does not resolve.

    Examples
    --------
    >>> resolve("learned", context=50).main.positions.params
    {'n_max': 50}
    >>> resolve("learned:n_max=50", context=40)
    Traceback (most recent call last):
    ...
    petheory.errors.ParameterError: context must be the spec's own n_max=50 (learned:n_max=50 says the training length too; give one), got 40
    """
    from petheory.errors import ParameterError, ValidationError
    from petheory.loaders import resolve_scheme
    from petheory.spec import parse_pe_spec

    spec = parse_pe_spec(spec)
    if not spec.is_table:
        term = spec.registered("compare")
        own = term.params.get("n_max")
        if own is not None and context is not None and own != context:
            raise ParameterError("context", f"the spec's own n_max={own} ({term} says the training length too; give one)",
                                 context, owner=compare)
        if context is not None and "n_max" in enc.info(term.name).params and own is None and len(spec.terms) == 1:
            spec = spec.with_params({"n_max": context})  # the entry's own training length is the context
    scheme = resolve_scheme(spec, d=d, default_d=DEFAULT_D, default_context=context or DEFAULT_CONTEXT, what="compare",
                            as_family=as_family)
    if scheme.main.positions.kind == "table":
        raise ValidationError(f"compare takes registered encodings (with parameters) and model configs, got the "
                              f"table {spec}; petheory stress/spectrum/bounds take tables")
    return scheme


@validate_params({
    "length": [Interval(Integral, 2, None)],
    "d": [Even(), None],
    "lengths": [Each(Interval(Integral, 2, None))],
    "context": [Interval(Integral, 2, None), None],
    "null_draws": [limits.null_draws(2)],  # a standard deviation of the null needs two draws
    "seed": [SEED],
    "as_family": [str, None],
})
def compare(schemes=None, target=None, records=(), *, length: int = 256, d: int | None = None, lengths=(64, 256, 1024),
            context: int | None = None, null_draws: int = 20, seed: int = 0, as_family: str | None = None) -> CompareRecord:
    """:func:`compare_scheme` for ``schemes`` against ``target``.

    Parameters
    ----------
    schemes : iterable, optional
        Schemes or specs (:func:`resolve`); default every registered encoding.
    target : petheory.geometry.PositionalDistributions or array_like, optional
        Default the built-in corpus.
    records : petheory.records.TrainingRecords or iterable of dict
        Training records: as :func:`petheory.records.read_training_records` read them (the folders and runs are named in
        the record), or the records themselves.
    length, lengths, null_draws, seed
        As :func:`compare_scheme`.
    d : int, optional
        Head dimension of a registered encoding (None: 64; a model's config fixes its own).
    context : int, optional
        Training length of a registered encoding (None: its own ``n_max``, else 64; a model's config fixes its own).
    as_family : str, optional
        Read a model's config.json as this verified model type (:func:`petheory.loaders.resolve_scheme`).

    Returns
    -------
    CompareRecord
        With what each scheme resolved to (:func:`petheory.analyses.describe.describe`, at ``length``).

    Raises
    ------
    petheory.errors.ParameterError
        A value its declaration refuses; ``context`` other than a spec's own ``n_max``.
    petheory.errors.ValidationError
        A spec that does not resolve, a table.

    Examples
    --------
    >>> rec = compare(["alibi:slope=0.5"], length=16, lengths=(8, 16), context=8, null_draws=3)
    >>> rec.rows[0].spectrum.matrix.startswith("alibi")
    True
    """
    from petheory import geometry
    from petheory.analyses.describe import describe
    from petheory.records import TrainingRecords

    items = enc.available() if schemes is None else list(schemes)
    named = "builtin corpus" if target is None else "given"
    target = geometry.builtin_target() if target is None else target
    if isinstance(records, TrainingRecords):
        read = RecordsRead(records.searched, records.runs, len(records.records))
        records = records.records
    else:
        records = list(records)
        read = RecordsRead((), (), len(records), where="passed in")
    schemes = [x if isinstance(x, Scheme) else resolve(x, d=d, context=context, as_family=as_family) for x in items]
    d = DEFAULT_D if d is None else d
    context = DEFAULT_CONTEXT if context is None else context
    rows = []
    for scheme in schemes:
        rows += compare_scheme(scheme, target, records, length=length, lengths=lengths, null_draws=null_draws, seed=seed)
    return CompareRecord(tuple(rows), [describe(s, length=length) for s in schemes], read,
                         {"n": length, "d": d, "lengths": list(lengths), "n_max": context, "null_draws": null_draws,
                          "seed": seed, "target": named})
