r"""The evidence table: published context-extension results, one value a row, read through the validating reader.

``petheory/data/extension_evidence.json`` holds the rows (collected from ``../shared/papers/extension-evidence.md``,
each naming its source down to the table, checked against the sources where a public copy was found and extended
with the other values of the tables read; ``verified`` says whether the value was read in the source's own table,
``via`` where). The file is the data: it was transcribed once, by hand, and changes only by review.
:func:`read` parses it with :func:`petheory.loaders.safe_json.read_json` (no NaN, no duplicate keys, depth and size
limits) and checks every field of every row against :data:`FIELDS`; a bad row is refused in one line that names the
row and the field (``row 12 (lu2024_pi_ft32k_32k): field 'target' ...``).

What a row says, pre-registered for every use of the table (the predictor claims and ``plan``'s expectations):

* ``s`` (:attr:`Row.extension`) = target / pretrain_length, the extension ratio;
* the row *meets its baseline* (:attr:`Row.met`) when ``value`` is at least ``baseline`` (at most, for a metric
  where lower is better: perplexity); a RULER score's baseline is RULER's effective-length threshold, Llama-2-7B's
  score at 4K (85.6 in RULER's README; the source's own Llama-2-7B 4K score where it reports one, 80.94 in Lu et al.),
  unless the row gives the same model without the method; a RULER effective length's baseline is the target; a row
  with no baseline (passkey, NIAH, a perplexity with nothing to compare) decides nothing (``met`` is None).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from petheory.errors import ValidationError
from petheory.loaders.safe_json import read_json

__all__ = ["Row", "METHODS", "FAMILIES", "METRICS", "REGIMES", "RULER_THRESHOLD", "PATH", "read", "rows", "parse"]

#: The committed table.
PATH = Path(__file__).resolve().parents[1] / "data" / "extension_evidence.json"
#: Method -> family: the plan candidates a family informs (``base``: any raised base, NTK-aware and dynamic NTK
#: included, since each is plain RoPE with a larger base at the length it runs at). Families no candidate has
#: (LongRoPE, CLEX, ...) stay in the table as evidence about the others' ceiling.
METHODS = {"none": "none", "pi": "pi", "ntk": "base", "dynamic_ntk": "base", "abf": "base", "yarn": "yarn",
           "yarn_dca": "yarn", "llama3": "llama3", "longrope": "longrope", "longrope2": "longrope", "yarn_rcd": "yarn_rcd",
           "clex": "clex", "longlora": "longlora", "dca": "dca", "rerope": "rerope", "string": "string",
           "self_extend": "self_extend", "lm_infinite": "lm_infinite", "landmark": "landmark",
           "per_dim_mix": "per_dim_mix", "unstated": "unstated"}
#: The method families, sorted.
FAMILIES = tuple(sorted(set(METHODS.values())))
#: Metric -> whether higher is better.
METRICS = {"ruler": True, "ruler_effective": True, "passkey": True, "niah": True, "perplexity": False, "longeval": True,
           "lveval": True, "needlebench": True, "longbench": True}
#: The regimes: no training after the change, or fine-tuned (continued training) with it.
REGIMES = ("training_free", "fine_tuned")
#: RULER's effective-length threshold: Llama-2-7B's score at 4K in RULER's README (hsiehjackson/RULER @ 0193bdd0).
RULER_THRESHOLD = 85.6


def _int(x, minimum):
    return isinstance(x, int) and not isinstance(x, bool) and x >= minimum


def _num(x, minimum=None, positive=False):
    ok = isinstance(x, (int, float)) and not isinstance(x, bool)
    return ok and (not positive or x > 0) and (minimum is None or x >= minimum)


def _str(x):
    return isinstance(x, str) and x.strip() != ""


def _short(x):
    return x is None or (isinstance(x, dict) and set(x) == {"metric", "change", "source"} and _str(x["metric"])
                         and _num(x["change"]) and _str(x["source"]))


#: field -> (test, what is expected); every field is required (null where the test allows it).
FIELDS = {
    "id": (_str, "a non-empty string, unique in the table"),
    "model": (_str, "a non-empty string"),
    "pretrain_length": (lambda x: _int(x, 2), "an integer >= 2 (tokens)"),
    "base": (lambda x: _num(x, positive=True) and x > 1, "a number > 1 (the RoPE base before the extension)"),
    "rotary_dim": (lambda x: x is None or (_int(x, 2) and x % 2 == 0), "an even integer >= 2, or null"),
    "method": (lambda x: x in METHODS, f"one of {', '.join(METHODS)}"),
    "factor": (lambda x: x is None or _num(x, minimum=1), "a number >= 1, or null when the source does not give it"),
    "new_base": (lambda x: x is None or (_num(x, positive=True) and x > 1), "a number > 1, or null"),
    "regime": (lambda x: x in REGIMES, f"one of {', '.join(REGIMES)}"),
    "train_tokens": (lambda x: x is None or _num(x, positive=True), "a positive number, or null"),
    "train_length": (lambda x: x is None or _int(x, 2), "an integer >= 2, or null"),
    "target": (lambda x: _int(x, 2), "an integer >= 2 (tokens)"),
    "metric": (lambda x: x in METRICS, f"one of {', '.join(METRICS)}"),
    "value": (lambda x: _num(x, minimum=0), "a number >= 0"),
    "baseline": (lambda x: x is None or _num(x, minimum=0), "a number >= 0, or null"),
    "baseline_is": (lambda x: x is None or _str(x), "a non-empty string, or null"),
    "higher_is_better": (lambda x: isinstance(x, bool), "true or false"),
    "short_context": (_short, "null or {\"metric\", \"change\", \"source\"}"),
    "source": (_str, "a non-empty string naming the paper and its table"),
    "via": (_str, "a non-empty string: where the number was transcribed from"),
    "verified": (lambda x: isinstance(x, bool), "true or false"),
    "note": (lambda x: isinstance(x, str), "a string"),
}


@dataclass(frozen=True)
class Row:
    """One published result (the fields of :data:`FIELDS`; see the module docstring for their meaning).

    Attributes
    ----------
    id : str
        Unique id of the row in the table.
    model : str
        The model extended.
    pretrain_length : int
        Its pre-training context, in tokens.
    base : float
        Its RoPE base before the extension.
    rotary_dim : int or None
        Rotary dimensions per head (None: the whole head).
    method : str
        The extension method (a key of ``METHODS``).
    factor : float or None
        The scaling factor, where the source gives it.
    new_base : float or None
        The raised base, for a base-changing method.
    regime : str
        ``'training_free'`` or ``'fine_tuned'``.
    train_tokens : float or None
        Fine-tuning tokens (fine-tuned rows).
    train_length : int or None
        The length fine-tuned at.
    target : int
        The length evaluated at, in tokens.
    metric : str
        What ``value`` measures (a key of ``METRICS``: RULER, passkey, perplexity, ...).
    value : float
        The published number.
    baseline : float or None
        What ``value`` is compared with to say whether the row meets it (see the module docstring); None: the row
        decides nothing.
    baseline_is : str or None
        What the baseline is, in words.
    higher_is_better : bool
        Whether a larger ``value`` is better (False for perplexity).
    short_context : dict or None
        A short-context cost the source reports: ``{"metric", "change", "source"}``.
    source : str
        The paper and its table.
    via : str
        Where the number was transcribed from.
    verified : bool
        Whether the number was checked against the source's own text.
    note : str
        Anything the row needs said.
    """

    id: str
    model: str
    pretrain_length: int
    base: float
    rotary_dim: int | None
    method: str
    factor: float | None
    new_base: float | None
    regime: str
    train_tokens: float | None
    train_length: int | None
    target: int
    metric: str
    value: float
    baseline: float | None
    baseline_is: str | None
    higher_is_better: bool
    short_context: dict | None
    source: str
    via: str
    verified: bool
    note: str

    @property
    def family(self) -> str:
        """The method's family (:data:`METHODS`)."""
        return METHODS[self.method]

    @property
    def extension(self) -> float:
        """s = target / pretrain_length."""
        return self.target / self.pretrain_length

    @property
    def met(self) -> bool | None:
        """Whether the value reaches the baseline (None: no baseline)."""
        if self.baseline is None:
            return None
        return self.value >= self.baseline if self.higher_is_better else self.value <= self.baseline


def _row(i: int, raw) -> Row:
    if not isinstance(raw, dict):
        raise ValidationError(f"row {i}: expected an object with the fields {', '.join(FIELDS)}, got {type(raw).__name__}")
    name = f"row {i}" + (f" ({raw['id']})" if isinstance(raw.get("id"), str) else "")
    missing = [f for f in FIELDS if f not in raw]
    if missing:
        raise ValidationError(f"{name}: field '{missing[0]}' is missing; every row has {', '.join(FIELDS)}")
    extra = sorted(set(raw) - set(FIELDS))
    if extra:
        raise ValidationError(f"{name}: field '{extra[0]}' is not a field of the table; expected only {', '.join(FIELDS)}")
    for f, (ok, what) in FIELDS.items():
        if not ok(raw[f]):
            raise ValidationError(f"{name}: field '{f}' is {raw[f]!r}; expected {what}")
    if raw["higher_is_better"] != METRICS[raw["metric"]]:
        raise ValidationError(f"{name}: field 'higher_is_better' is {raw['higher_is_better']!r}, but {raw['metric']} is "
                              f"{'higher' if METRICS[raw['metric']] else 'lower'}-is-better")
    if (raw["baseline"] is None) != (raw["baseline_is"] is None):
        raise ValidationError(f"{name}: field 'baseline_is' must say what the baseline is exactly when 'baseline' is set")
    if raw["regime"] == "fine_tuned" and raw["train_length"] is not None and raw["train_length"] < raw["pretrain_length"]:
        raise ValidationError(f"{name}: field 'train_length' is {raw['train_length']}, below pretrain_length "
                              f"{raw['pretrain_length']}; expected a fine-tuning length >= the pre-training one")
    vals = {f: raw[f] for f in FIELDS}
    for f in ("base", "factor", "new_base", "train_tokens", "value", "baseline"):
        if vals[f] is not None:
            vals[f] = float(vals[f])
    return Row(**vals)


def parse(doc, *, source: str = "extension_evidence.json") -> tuple[Row, ...]:
    """The rows of a parsed table document (``{"rows": [...], ...}``), each checked (module docstring).

    Parameters
    ----------
    doc : dict
        The JSON document.
    source : str, optional
        The file's name, for the messages.

    Returns
    -------
    tuple of Row

    Raises
    ------
    ValidationError
        Not an object with a ``rows`` list, a bad row (the message names the row and the field), a repeated id.

    Examples
    --------
    >>> parse({"rows": []})
    ()
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("rows"), list):
        raise ValidationError(f"{source}: expected an object with a 'rows' list")
    out, seen = [], set()
    for i, raw in enumerate(doc["rows"]):
        try:
            row = _row(i, raw)
        except ValidationError as exc:
            raise ValidationError(f"{source}: {exc}") from None
        if row.id in seen:
            raise ValidationError(f"{source}: row {i} ({row.id}): field 'id' repeats an earlier row's; expected unique ids")
        seen.add(row.id)
        out.append(row)
    return tuple(out)


def read(path=None) -> tuple[Row, ...]:
    """The table in ``path`` (default :data:`PATH`), read by the validating JSON reader and checked row by row.

    Parameters
    ----------
    path : path-like, optional
        A table file in the committed format.

    Returns
    -------
    tuple of Row

    Raises
    ------
    ValidationError
        Not JSON the reader accepts, or a bad row (:func:`parse`).

    Examples
    --------
    >>> len(read()) >= 30
    True
    """
    p = PATH if path is None else Path(path)
    return parse(read_json(p, what="evidence table"), source=str(p))


@functools.lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    """The committed table, read once (:func:`read` of :data:`PATH`).

    Returns
    -------
    tuple of Row

    Examples
    --------
    >>> rows()[0].id
    'lu2024_ntk_frozen_8k'
    """
    return read()
