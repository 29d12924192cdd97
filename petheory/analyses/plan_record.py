r"""The records of ``plan`` (:mod:`petheory.analyses.plan`): typed, frozen, rendering themselves.

:class:`PlanRecord` holds one :class:`KindPlan` per layer kind, each with its :class:`CandidatePlan` s
(their :class:`Check` s) and the recommendation, and one runtime config per candidate
(:class:`petheory.analyses.runtime_config.RuntimeConfig`). Every record has ``lines()`` (plain text),
``markdown()``, ``__str__`` and ``_repr_html_`` (:class:`petheory.analyses.record.Record`), and
:func:`petheory.analyses.record.to_json`, the one serialiser of every record, gives its JSON.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from petheory.analyses.record import Record, item, to_json
from petheory.analyses.runtime_config import RuntimeConfig
from petheory.texttable import plain_table

__all__ = ["Check", "CandidatePlan", "Answer", "KindPlan", "SupportedContext", "PlanRecord"]


def _g(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "unbounded"
    return f"{x:.{digits}g}" if isinstance(x, float) else f"{x:,}" if isinstance(x, int) else str(x)


class _Part(Record):
    """A part of a plan: its Markdown is its plain lines (the tables are already aligned text)."""

    def markdown(self) -> str:
        return "\n".join(self.lines())


@dataclass(frozen=True)
class Check(_Part):
    """One check of a candidate at N: its name (``men``, ``liu``, ``phase``), whether it passed, and the numbers.

    Attributes
    ----------
    name : str
        ``'men'``, ``'liu'`` or ``'phase'``.
    passed : bool
        Whether the candidate passes it at N.
    detail : str
        The numbers it rests on.
    """

    name: str
    passed: bool
    detail: str

    def lines(self) -> list[str]:
        return [f"{self.name}: {'passes' if self.passed else 'fails'} ({self.detail})"]


@dataclass(frozen=True)
class CandidatePlan(_Part):
    """A candidate analysed at N (:func:`petheory.analyses.plan.analyse`).

    ``params`` are the registry entry's (``encoding``); ``frequencies`` the per-band frequencies analysed at N
    (what the emitted runtime config must give back); ``rotary_logit_factor`` the factor on every rotary logit
    (YaRN's attention factor squared); ``lambda_at_L`` the certified extreme eigenvalues of the pre-training
    ladder's L x L kernel, ``lambda_at_N`` those of this candidate's N x N kernel.

    Attributes
    ----------
    name : str
        The candidate's id (``as_configured``, ``pi``, ``yarn``, ...).
    label : str
        How it is shown.
    encoding : str
        The registry encoding it is.
    params : dict
        That entry's parameters.
    note : str
        What the candidate is, where it needs saying.
    checks : tuple of Check
        Men's, Liu's and the phase check at N.
    men_min : float
        :math:`\\min_{0 \\le m \\le N} B_m` of its frequencies.
    men_min_at : int
        Where.
    men_first_failure : int or None
        The first m with :math:`B_m < 0` beyond rounding (None: none up to N).
    critical_dimension : int
        Liu's :math:`d_{extra}` under the pre-training ladder.
    critical_period : float
        The critical band's period under the candidate's frequencies (inf: every band turned within L).
    bands : int
        Rotary bands.
    bands_kept, bands_interpolated, bands_sped_up : int
        Bands whose frequency the candidate keeps, lowers, raises.
    bands_out_of_range : int
        Bands that reach angles at N unseen within L.
    turns_over_L : tuple of float
        Turns of each band of the pre-training ladder over L.
    turns_over_N : tuple of float
        Turns of each band of the candidate over N.
    log_change : float
        :math:`\\sum_t \\lvert\\ln(\\omega_t/\\omega^0_t)\\rvert`, how far the candidate moves the ladder.
    rotary_logit_factor : float
        The factor on every rotary logit (YaRN's attention factor squared).
    yarn_temperature : float
        YaRN's logit factor :math:`(0.1\\ln s + 1)^2` at :math:`s = N/L`.
    ssmax_growth : float
        Scalable-Softmax's factor at N over its factor at L.
    decay_within_L, decay_beyond_L : float or None
        Largest :math:`\\lvert B_m\\rvert / B_0` over L/2..L, and over L..N (None where the range is empty).
    lambda_at_L : tuple of float
        Certified extreme eigenvalues of the pre-training ladder's L x L kernel.
    lambda_at_N : tuple of float
        Those of the candidate's N x N kernel.
    frequencies : tuple of float
        The per-band frequencies analysed at N (not serialised).
    """

    name: str
    label: str
    encoding: str
    params: dict
    note: str
    checks: tuple[Check, ...]
    men_min: float
    men_min_at: int
    men_first_failure: int | None
    critical_dimension: int
    critical_period: float
    bands: int
    bands_kept: int
    bands_interpolated: int
    bands_sped_up: int
    bands_out_of_range: int
    turns_over_L: tuple[float, ...]
    turns_over_N: tuple[float, ...]
    log_change: float
    rotary_logit_factor: float
    yarn_temperature: float
    ssmax_growth: float
    decay_within_L: float | None
    decay_beyond_L: float | None
    lambda_at_L: tuple[float, float]
    lambda_at_N: tuple[float, float]
    frequencies: tuple[float, ...] = item(default=(), json=False)

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> tuple:
        return tuple(c.name for c in self.checks if not c.passed)

    def row(self) -> list[str]:
        mark = {True: "ok", False: "fail"}
        men = mark[self.checks[0].passed] + ("" if self.men_first_failure is None else f" @{self.men_first_failure:,}")
        return [self.name, self.label, men, mark[self.checks[1].passed], mark[self.checks[2].passed],
                f"{self.bands_kept}/{self.bands_interpolated}/{self.bands_out_of_range}", _g(self.rotary_logit_factor),
                _g(self.decay_beyond_L, 3), f"{_g(self.lambda_at_N[1], 4)}"]

    def lines(self) -> list[str]:
        out = [f"{self.name}: {self.label}" + (f" ({self.note})" if self.note else "")]
        out += [f"  {c.lines()[0]}" for c in self.checks]
        out.append(f"  bands {self.bands}: {self.bands_kept} kept, {self.bands_interpolated} interpolated, "
                   f"{self.bands_sped_up} sped up, {self.bands_out_of_range} reach angles unseen within L")
        out.append(f"  logit factor {_g(self.rotary_logit_factor)} (YaRN's (0.1 ln s + 1)^2 = {_g(self.yarn_temperature)}; "
                   f"SSMax's s ln n grows x{_g(self.ssmax_growth)} from L to N); max |a_k|/a_0 within [L/2, L) "
                   f"{_g(self.decay_within_L, 3)}, beyond L {_g(self.decay_beyond_L, 3)}")
        out.append(f"  kernel eigenvalues: [{_g(self.lambda_at_L[0])}, {_g(self.lambda_at_L[1])}] at L (pre-training), "
                   f"[{_g(self.lambda_at_N[0])}, {_g(self.lambda_at_N[1])}] at N")
        return out


@dataclass(frozen=True)
class Answer(_Part):
    """One recommendation (:func:`petheory.analyses.plan.plan`): the regime (``training_free``: what to set at
    inference; ``fine_tuned``: what to train with at N), the candidate (None: no evidence), its label, the expected
    outcome at N from the evidence table (:meth:`petheory.evidence.expectation.Expectation.line`) and why.

    Attributes
    ----------
    regime : str
        ``'training_free'`` or ``'fine_tuned'``.
    candidate : str or None
        The recommended candidate (None: no evidence).
    label : str
        Its label.
    expected : str
        The expected outcome at N from the evidence table.
    why : str
        Why this candidate.
    """

    regime: str
    candidate: str | None
    label: str
    expected: str
    why: str

    def lines(self) -> list[str]:
        head = {"training_free": "training-free (set at inference)", "fine_tuned": "fine-tuning (train with at N)"}
        if self.candidate is None:
            return [f"{head[self.regime]}: {self.expected}"]
        return [f"{head[self.regime]}: {self.candidate} ({self.label}); expected at N: {self.expected}; {self.why}"]


HEADERS = ["candidate", "what", "men", "liu", "phase", "kept/interp/unseen", "logit factor", "max|a|/a0 >L",
           "lambda_max(N)"]


@dataclass(frozen=True)
class KindPlan(_Part):
    """One layer kind: its candidates and the recommendation (``planned``: a full-attention rotary kind).

    Attributes
    ----------
    layers : tuple of int
        The layers of this kind.
    type : str
        Their layer type.
    span : str
        Their span.
    encoding : str
        Their position encoding.
    planned : bool
        Whether the kind is planned (a full-attention rotary kind).
    note : str
        Why not, or what the plan assumes.
    candidates : tuple of CandidatePlan
        The candidates analysed.
    training_free, fine_tuned : Answer or None
        The two recommendations.
    base : float or None
        The kind's RoPE base.
    rotary_dim : int or None
        Its rotary dimensions.
    """

    layers: tuple[int, ...]
    type: str
    span: str
    encoding: str
    planned: bool
    note: str = ""
    candidates: tuple[CandidatePlan, ...] = ()
    training_free: Answer | None = None
    fine_tuned: Answer | None = None
    base: float | None = None
    rotary_dim: int | None = None

    def candidate(self, name: str) -> CandidatePlan:
        for c in self.candidates:
            if c.name == name:
                return c
        raise KeyError(name)

    def _title(self) -> str:
        from petheory.scheme import layer_ranges

        return f"layers {layer_ranges(list(self.layers))}: {self.type or 'attention'} ({self.span}, {self.encoding})"

    def lines(self) -> list[str]:
        out = [self._title()]
        if self.note:
            out.append(f"  {self.note}")
        if not self.candidates:
            return out
        out.append(plain_table(None, HEADERS, [c.row() for c in self.candidates], right={5, 6, 7, 8}))
        # a factor taken from the evidence table: its row, value and source (the plan's _evidence_tf / _ft candidates)
        out += [f"{c.name}: {c.note}" for c in self.candidates if "_evidence_" in c.name]
        if self.planned:
            out += [a.lines()[0] for a in (self.training_free, self.fine_tuned)]
        return out

    def markdown(self) -> str:
        out = [f"### {self._title()}", ""]
        if self.note:
            out += [self.note, ""]
        if not self.candidates:
            return "\n".join(out)
        out += ["| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
        out += ["| " + " | ".join(c.row()) + " |" for c in self.candidates]
        if self.planned:
            out += [""] + [f"- **{a.lines()[0]}**" for a in (self.training_free, self.fine_tuned)]
        out += [""] + [f"- {line.strip()}" for c in self.candidates for line in c.lines()]
        return "\n".join(out)


@dataclass(frozen=True)
class SupportedContext(_Part):
    """The largest context each theory supports for a layer kind as configured (the report's line).

    Attributes
    ----------
    men_largest : int or None
        The largest M with :math:`B_m \\ge 0` for every :math:`m \\le M` (None: none fails up to ``men_searched_to``).
    men_searched_to : int
        How far Men's property was searched.
    liu_t_extra : float
        Liu's :math:`T_{extra}`, the period of the critical band (inf when every band turns within L).
    critical_dimension : int
        Liu's :math:`d_{extra}` at L.
    context : int
        L.
    advertised : int
        The advertised context the frequencies were evaluated at.
    """

    men_largest: int | None
    men_searched_to: int
    liu_t_extra: float
    critical_dimension: int
    context: int
    advertised: int

    def lines(self, window: bool = False) -> list[str]:
        """One line; ``window``: the layer is sliding or chunked and ``context`` is its window W, not L."""
        men = (f"B_m >= 0 up to m = {self.men_largest:,}" if self.men_largest is not None
               else f"B_m >= 0 to at least {self.men_searched_to:,} (searched)")
        inside = (self.men_largest is None or self.men_largest >= self.advertised - 1, self.liu_t_extra >= self.advertised)
        verdict = {(True, True): "inside both", (False, False): "outside both",
                   (True, False): "inside Men's, outside Liu's", (False, True): "inside Liu's, outside Men's"}[inside]
        return [f"theory's range as configured: Men {men}; Liu T_extra = {_g(self.liu_t_extra, 5)} (the period "
                f"of band d_extra/2 = {self.critical_dimension // 2} under the configured frequencies, scaling included; "
                f"{'the window W' if window else 'L'} = {self.context:,}); advertised {self.advertised:,}: {verdict}"]


@dataclass(frozen=True)
class PlanRecord(_Part):
    """The plan of a model for a target context N (:func:`petheory.analyses.plan.plan`).

    Attributes
    ----------
    source : str or None
        What was planned (a config path or a spec).
    model_type : str
        The scheme's source (a config's ``model_type``, or ``'spec'``).
    context : int
        L, the original context.
    length : int
        N, the target context.
    max_context : int
        The config's ``max_position_embeddings``.
    kinds : tuple of KindPlan
        One per layer kind.
    configs : tuple of RuntimeConfig
        What to write or pass for each candidate.
    notes : tuple of str
        What the scheme leaves out, and the plan's warnings.
    predictors : tuple of str
        Each check's measured accuracy as a predictor on the evidence table.
    evidence_model : str
        How an expectation is computed from the table.
    seconds : float
        Time the plan took.
    context_from : str
        Where L came from.
    """

    source: str | None
    model_type: str
    context: int
    length: int
    max_context: int
    kinds: tuple[KindPlan, ...]
    configs: tuple[RuntimeConfig, ...]
    notes: tuple[str, ...] = ()
    predictors: tuple[str, ...] = ()
    evidence_model: str = ""
    seconds: float = 0.0
    context_from: str = ""

    def config(self, name: str):
        for c in self.configs:
            if c.candidate == name:
                return c
        raise KeyError(name)

    def recommended(self) -> tuple:
        """The candidates recommended for the first planned kind: (training-free, fine-tuning), None where no
        evidence covers a candidate."""
        k = next((k for k in self.kinds if k.planned), None)
        return (None, None) if k is None else (k.training_free.candidate, k.fine_tuned.candidate)

    def _evidence(self) -> list[str]:
        return ([f"expected outcomes: {self.evidence_model} (petheory/data/extension_evidence.json)",
                 "checks as predictors on the table's rows (a failing check read as 'falls below its baseline'; "
                 "pre-registered one-sided Fisher test per regime):"] + [f"  {p}" for p in self.predictors])

    def _head(self) -> str:
        return (f"{self.source or self.model_type} ({self.model_type}): plan from L = {self.context:,} to N = {self.length:,} "
                f"(s = {self.length / self.context:g}); max_position_embeddings {self.max_context:,}")

    def _context_line(self) -> list[str]:
        return [f"L from {self.context_from}"] if self.context_from else []

    def lines(self) -> list[str]:
        out = [self._head()] + self._context_line()
        for k in self.kinds:
            out += [""] + k.lines()
        out += [""] + self._evidence()
        for what, rec in zip(("training-free", "fine-tuning"), self.recommended()):
            if rec is not None:
                out += ["", f"runtime config of {rec} ({what}; every candidate's in --json/--markdown):"] + self.config(rec).lines()
        out += [f"note: {n}" for n in self.notes]
        return out

    def markdown(self) -> str:
        out = [f"## {self._head()}", ""] + [x + "." for x in self._context_line()] + [""] * bool(self.context_from)
        for k in self.kinds:
            out += [k.markdown(), ""]
        out += [f"- {line.strip()}" for line in self._evidence()] + [""]
        out += ["### Runtime configs", ""]
        for c in self.configs:
            out += [c.markdown(), ""]
        out += [f"- note: {n}" for n in self.notes]
        return "\n".join(out).rstrip() + "\n"

    def command_json(self) -> dict:
        """What ``petheory plan --json`` writes: petheory's version and the plan (:func:`to_json`).

        Returns
        -------
        dict
            ``{"petheory": version, "plan": ...}``; the plan reads back with :meth:`from_dict` of ``["plan"]``.
        """
        from petheory import __version__

        return {"petheory": __version__, "plan": to_json(self)}
