r"""The record of ``compare`` (:mod:`petheory.analyses.compare`): typed rows that render themselves as one table.

One row per scheme and distinct layer kind, each column a summary or why it failed; the table's cells are the same as
plain text, as Markdown and as a terminal's rich table.

:class:`CompareRecord` is what :func:`petheory.analyses.compare.compare` returns and what ``petheory compare``
prints (``lines()``), writes as Markdown (``markdown()``) and as JSON (``as_dict()``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from petheory.analyses.record import Record, item
from petheory.texttable import TextTable


@dataclass(frozen=True)
class SpectralSummary(Record):
    """Symbol range and extreme eigenvalues of a layer's position-only matrix
    (:func:`petheory.analyses.compare.spectral_summary`): the columns of a comparison table, from a
    :class:`petheory.toeplitz.symbols.SymbolExtrema` and an :class:`petheory.toeplitz.eigen.ExtremeEigenvalues`.

    Attributes
    ----------
    matrix : str
        What the matrix is.
    n : int
        Its size.
    cpd : dict or None
        Whether a bias is conditionally positive definite (:func:`petheory.toeplitz.conditional_definiteness`);
        None beyond the dense size or for other mechanisms.
    symbol_min, symbol_max : float
        The finite section's symbol range.
    symbol_certified : bool
        Whether that range is certified.
    lambda_min, lambda_max : float
        The extreme eigenvalues.
    spread : float
        ``lambda_max - lambda_min``.
    eig_error : float
        The larger of the two eigenvalues' error bounds.
    eig_converged : bool
        Whether both ends converged.
    """

    matrix: str
    n: int
    cpd: dict | None
    symbol_min: float
    symbol_max: float
    symbol_certified: bool
    lambda_min: float
    lambda_max: float
    spread: float
    eig_error: float
    eig_converged: bool


@dataclass(frozen=True)
class StressSummary(Record):
    """The stress of a layer's positions with its null reference and z-score
    (:func:`petheory.analyses.compare.stress_summary`): the columns of a comparison table, from a
    :class:`petheory.analyses.stress.LayerStress`.

    Attributes
    ----------
    stress : float
        The encoding's stress against the target.
    geometry : str
        How the encoding induces distances.
    n : int
        Positions compared.
    null_mean, null_sd : float
        Mean and standard deviation of the null reference's stress.
    z : float or None
        ``(stress - null_mean) / null_sd``; None when ``null_sd`` is 0.
    mds_stress : float
        Stress of the optimal (classical MDS) encoding.
    null_draws : int
        Random tables of the null reference.
    null : str
        What the null reference is, in words.
    """

    stress: float
    geometry: str
    n: int
    null_mean: float
    null_sd: float
    z: float | None
    mds_stress: float
    null_draws: int
    null: str


@dataclass(frozen=True)
class NormSummary(Record):
    """The computed norm per length, its growth exponent and a rotary layer's angle coverage
    (:func:`petheory.analyses.compare.norm_summary`).

    Attributes
    ----------
    values : dict of str to float
        The computed norm (li2025 Table 2) at each length.
    n_max : int
        The training length.
    meaning : str
        What the norm measures for this mechanism.
    growth : float or None
        The log-log slope between the first and last length; None where either is zero or rounding.
    angles : dict or None
        A rotary layer's angle coverage at the longest length.
    """

    values: dict[str, float]
    n_max: int
    meaning: str
    growth: float | None
    angles: dict | None = item(omit=True)


@dataclass(frozen=True)
class Failed(Record):
    """A column that could not be computed for a row, and why (``{"error": why}``).

    Attributes
    ----------
    error : str
        Why.
    """

    error: str


#: Short names of the chen2025 metrics in a length-generalisation cell.
SHORT = {"seq_acc": "seq", "token_acc": "tok"}


def _g(x, nd=3) -> str:
    if x is None:
        return "-"
    if abs(x) < 1e-12:
        return "0"
    return f"{x:.{nd}g}"


def run_name(source: str) -> str:
    """A run's short name: its folder.

    Parameters
    ----------
    source : str
        Where the run's record came from.

    Returns
    -------
    str
        The run folder of a ``record.json``, else ``source`` itself.

    Examples
    --------
    >>> run_name("runs/chen2025/parity__nope__s0/record.json")
    'parity__nope__s0'
    """
    p = PurePath(source)
    return p.parent.name if p.name == "record.json" and p.parent.name else str(source)


def group_cell(task: str, g: dict) -> str:
    """One configuration's numbers and the runs they average.

    Parameters
    ----------
    task : str
        The task of the group.
    g : dict
        A group of :func:`petheory.analyses.compare.lengthgen_summary`.

    Returns
    -------
    str
        ``copy [pe=xpos:base=500]: seq 0.9→0.1 @8 (2 runs: copy__xpos__s0, copy__xpos__s1)``.

    Examples
    --------
    >>> group_cell("copy", {"config": {}, "metrics": {"seq_acc": {"at_train": 0.9, "at_longest": 0.1}},
    ...                     "records": ["copy__xpos__s0"], "longest": 8, "runs": 1})
    'copy: seq 0.9→0.1 @8 (1 run: copy__xpos__s0)'
    """
    conf = ", ".join(f"{k.removeprefix('model.')}={v}" for k, v in g["config"].items())
    nums = ", ".join(f"{SHORT.get(m, m)} {_g(x['at_train'], 2)}→{_g(x['at_longest'], 2)}" for m, x in g["metrics"].items())
    runs = ", ".join(run_name(s) for s in g["records"])
    return f"{task}{f' [{conf}]' if conf else ''}: {nums} @{g['longest']} ({g['runs']} run{'s' if g['runs'] > 1 else ''}: {runs})"


@dataclass(frozen=True)
class CompareRow(Record):
    """One scheme's distinct layer kind in ``compare``: its label and positions, then each column's summary (a
    :class:`Failed` where it could not be computed) and its length-generalisation groups by task.

    Attributes
    ----------
    pe : str
        The row's label (a spec, or a model's name with its layer kind).
    name : str
        The encoding's name (or the mechanism's).
    params : dict
        Its parameters.
    kind : str
        Its position mechanism.
    layers : list of int
        The layers of this kind.
    d : int or None
        The dimension the positions act on.
    span : str
        The attention span.
    n_max : int
        The training length.
    spectrum : SpectralSummary or Failed
        The spectral column.
    stress : StressSummary or Failed
        The stress column.
    norms : NormSummary or Failed
        The norm column.
    lengthgen : dict
        Training records' length-generalisation groups by task
        (:func:`petheory.analyses.compare.lengthgen_summary`).
    """

    pe: str
    name: str
    params: dict
    kind: str
    layers: list[int]
    d: int | None
    span: str
    n_max: int
    spectrum: SpectralSummary | Failed
    stress: StressSummary | Failed
    norms: NormSummary | Failed
    lengthgen: dict

    @property
    def complete(self) -> bool:
        """Whether every column was computed (no :class:`Failed`)."""
        return not any(isinstance(c, Failed) for c in (self.spectrum, self.stress, self.norms))

    def cells(self, lengths) -> list[str]:
        """The row's table cells (:data:`HEADERS`), norms at ``lengths``.

        Parameters
        ----------
        lengths : sequence of int
            The norm column's lengths.

        Returns
        -------
        list of str
        """
        sp, s, nm = self.spectrum, self.stress, self.norms
        if isinstance(sp, Failed):
            sym, spread, cpd = sp.error[:40], "-", ""
        else:
            sym = f"[{_g(sp.symbol_min, 2)}, {_g(sp.symbol_max, 2)}]"
            spread = _g(sp.spread, 2) + ("" if sp.eig_converged else f"±{_g(sp.eig_error, 1)}")
            cpd = "" if not sp.cpd else f"{'yes' if sp.cpd['cpd'] else 'no'} ({sp.cpd['negative_eigenvalues']})"
        if isinstance(s, Failed):
            stress, null = s.error[:40], ""
        else:
            stress, null = f"{s.stress:.3f}", f"{s.null_mean:.3f}±{s.null_sd:.3f} ({_g(s.z, 2)})"
        if isinstance(nm, Failed):
            norms, ang = nm.error[:40], ""
        else:
            norms = "/".join(_g(nm.values[str(L)], 2) for L in lengths)
            a = nm.angles
            ang = f"{a['out_of_range']}/{a['bands']} ≥{a['onset']}" if a and a["onset"] is not None else ("0" if a else "")
        lg = "; ".join(group_cell(task, g) for task, groups in self.lengthgen.items() for g in groups) or "no records"
        return [self.pe, self.kind, sym, spread, cpd, stress, null, norms, ang, lg]


@dataclass(frozen=True)
class RecordsRead(Record):
    """Which training records the comparison read: the folders searched, the explicit runs, how many in all.

    Attributes
    ----------
    searched : tuple of str
        The folders searched (those that exist; :class:`petheory.records.TrainingRecords`).
    runs : tuple of str
        The files of the explicit run set (``--run``).
    count : int
        How many finished training records were read in all.
    where : str or None
        Where the records came from when no folder was searched and no run named (``"passed in"``: given to
        :func:`petheory.analyses.compare.compare` as records); None, and not in the JSON, otherwise.
    """

    searched: tuple[str, ...]
    runs: tuple[str, ...]
    count: int
    where: str | None = item(omit=True)


HEADERS = ("PE", "kind", "symbol range", "λmax-λmin", "CPD", "stress", "null μ±σ (z)", "norm @{lengths}", "angles out",
           "length generalisation (train→longest)")


@dataclass(frozen=True)
class CompareRecord(Record):
    """The comparison: one row per scheme and distinct layer kind (:class:`CompareRow`), what each scheme resolved to
    (:func:`petheory.analyses.describe.describe`), the training records read (:class:`RecordsRead`) and the
    settings.

    Attributes
    ----------
    rows : tuple of CompareRow
        One per scheme and distinct layer kind.
    resolved_encodings : list of dict
        What each scheme resolved to (:func:`petheory.analyses.describe.describe`, at the spectrum's length), in
        the order given.
    records : RecordsRead
        The training records the length-generalisation column read.
    settings : dict
        ``n``, ``d``, ``lengths``, ``n_max``, ``null_draws`` and ``seed`` as asked, and ``target`` (``"builtin
        corpus"`` or ``"given"``).
    """

    rows: tuple[CompareRow, ...]
    resolved_encodings: list[dict] = field(default_factory=list)
    records: RecordsRead = field(default_factory=lambda: RecordsRead((), (), 0))
    settings: dict = field(default_factory=dict)

    def table(self) -> TextTable:
        """The table ``petheory compare`` prints and its notes.

        Returns
        -------
        petheory.texttable.TextTable
        """
        st, rc = self.settings, self.records
        lengths = st["lengths"]
        title = (f"petheory compare (d={st['d']} for registered encodings, a model's own head dimension and context; "
                 f"spectrum at N={st['n']}; norms past n_max={st['n_max']}, a model's past its own L)")
        heads = tuple(h.format(lengths="/".join(map(str, lengths))) for h in HEADERS)
        where = ", ".join(rc.searched) if rc.searched else (rc.where or ("no folder searched" if rc.runs else
                                                                         "none of records/, runs/ exists here"))
        notes = (
            f"angles out: rotary bands whose angles at N={lengths[-1]} leave the range seen in training, on 0..n_max-1 "
            f"(n_max = {st['n_max']} for registered encodings, a model's own original context L; a sliding or chunked "
            "layer within its span) (≥ the first length where one does).",
            f"length generalisation: {rc.count} training records ({where}"
            + (f"; {len(rc.runs)} given with --run" if rc.runs else "") + "); running_sum mse (lower is better); "
            "chen2025 tasks seq = exact match, tok = per-token accuracy; at the training length → the longest test length "
            "(@), averaged over the runs of one configuration only (its seeds; runs are named by folder): a [bracket] "
            "names what differs between configurations (another sample size, model or PE parameter); --run RUN picks "
            "the runs explicitly.",
            "CPD (negative eigenvalues): a bias B is conditionally positive definite when x^T B x >= 0 for sum x = 0; then "
            "it has exactly one negative eigenvalue and its Fejér symbol is >= 0 at every non-zero Fourier frequency "
            "(petheory.toeplitz.conditional_definiteness).",
            "matrix: bias B; rotary unit-content kernel (YaRN/xPos scales included); absolute Gram P P^T (Toeplitz "
            "projection where not Toeplitz); Hermitian part where not Hermitian. stress: Kruskal stress-1 against the "
            f"built-in corpus (n=15); null: {st['null_draws']} seeded N(0,1) tables of the same shape; z = (stress - μ)/σ "
            "(negative: closer to the corpus geometry than chance).",
        )
        return TextTable(title, heads, tuple(tuple(r.cells(lengths)) for r in self.rows), frozenset(range(2, 9)), notes)

    def lines(self) -> list[str]:
        return self.table().plain().splitlines()

    def markdown(self) -> str:
        return self.table().markdown()
