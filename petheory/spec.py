r"""One way to name a positional encoding, on the command line and in the API.

Every ``petheory`` command that takes a PE (``train``, ``sweep``, ``bounds``, ``stress``,
``spectrum``, ``compare``, ``lrc``) takes it as ``--pe SPEC``, and :mod:`petheory.nn` takes the
same text (or the parsed :class:`PESpec`): a PESpec is the one type of a PE. What a model trains
(``ModelConfig.pe``) is a PESpec too, written canonically by :func:`petheory.nn.position.parse_pe`
(named combinations resolved, mechanism keys first), whose model readings (:attr:`PESpec.kind`,
:attr:`PESpec.heads`, :attr:`PESpec.absolute`, ...) are properties of the spec; a model's or a table's resolved
positions are a :class:`petheory.scheme.Scheme` (:func:`petheory.loaders.resolve_scheme`). The text is parsed once, by :func:`parse_pe_spec`,
into a frozen :class:`PESpec` that is passed down; ``str(spec)`` gives the canonical text back
(``parse_pe_spec(str(spec)) == spec``).

Grammar
-------
::

    SPEC = TERM ('+' TERM)*
    TERM = NAME [':' KEY=VALUE (',' KEY=VALUE)*]   a registered encoding (`petheory encodings`),
                                                   or a petheory.nn mechanism (mla)
         | PATH.npy                                an (N, d) table of absolute position vectors
         | PATH.safetensors ['#' KEY]              its tensor KEY (default: the only one, or the
                                                   one named like a position table)
         | PATH.bin | PATH.pt | PATH.pth ['#' KEY] a torch state dict (read with weights_only=True)
         | 'hf:' DIR ['#' KEY]                     a local Hugging Face model directory
                                                   (hf:minilm: the bundled all-MiniLM-L6-v2)
         | 'hf:' DIR | PATH/config.json            a model's positional scheme from its config.json
                                                   (RoPE of every scaling, MLA, ALiBi, T5 buckets;
                                                   petheory.models), no weights needed
         | 'gguf:' FILE                            a llama.cpp model file's scheme, from its header
                                                   (petheory.loaders.gguf_scheme), no tensor read

The grammar parses text and opens no file: a path term (a table or a model's ``config.json``)
is resolved by :func:`petheory.loaders.resolve_scheme`, the one place that reads a PE's files.

``VALUE`` is read by :func:`petheory._validate.scalar`: ``true``/``false``, ``null`` (None), an
integer, a float (``1e+06``, ``5e5``, ``-0.5``), else the text itself. ``+`` separates terms only
where a term can start: a ``+`` followed by a digit (or ``.`` and a digit) belongs to a number
(``rope:base=1e+06`` is one term). A comma separates parameters and nothing else: several
PEs are several ``--pe`` options (``--pe sinusoidal --pe alibi:slope=0.25``). ``+`` combines a
mechanism with an absolute PE added to the inputs (``rope+sinusoidal``: gu2025's "rope" run;
a model takes at most one ``+``).

Name or file, one rule: a term starting with ``hf:`` is a model directory; otherwise its name
(the text before ``:``) is looked up in the registry (after ``--plugin`` modules have
registered theirs) and in :data:`MECHANISMS`; a term that is not registered is a table when it
ends in a table suffix (:data:`TABLE_SUFFIXES`, before any ``#KEY``) or names an existing path;
anything else is an error that lists both. A table term stands alone (a path may hold ``+``,
``,`` or ``:``).

Examples::

    sinusoidal                       the registry's sinusoidal PE, default parameters
    alibi:slope=0.5                  ALiBi with one slope
    rope:base=500,pairing=half       RoPE, base 500, GPT-NeoX pairing
    rope:heads=4+sinusoidal          partial RoPE on 4 heads plus sinusoidal inputs (petheory.nn)
    learned:n_max=50,beyond=clamp    li2025's learned table reusing its last row
    my_pe.npy                        a table you bring
    model.safetensors#wpe.weight     one tensor of a safetensors file
    hf:./bert#embeddings.position_embeddings.weight
    hf:minilm
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from pathlib import Path

from petheory._validate import scalar
from petheory.errors import ValidationError, ValidationTypeError

__all__ = ["PETerm", "PESpec", "parse_pe_spec", "split_terms", "parse_pe_specs", "GRAMMAR", "MECHANISMS",
           "MECHANISM_KEYS", "NAMED_COMBINATIONS", "TABLE_SUFFIXES"]

#: Position mechanisms of :mod:`petheory.nn` that are not registry encodings.
MECHANISMS = ("mla",)

#: Keys of a named term that configure a petheory.nn mechanism instead of the registry function.
MECHANISM_KEYS = frozenset({"heads", "slopes", "trainable", "latent", "rope_dim", "hint"})

#: Suffixes that make an unregistered term a table of position vectors (petheory.loaders reads them).
TABLE_SUFFIXES = (".npy", ".safetensors", ".bin", ".pt", ".pth")

#: Registry entries that name a combination: name -> (mechanism, absolute PE added to the inputs or None).
#: petheory.nn builds them from their parts (``rope_sinusoidal`` is ``rope+sinusoidal``); the theory
#: commands read ``rope+sinusoidal`` as the registry's ``rope_sinusoidal`` (:meth:`PESpec.registered`).
NAMED_COMBINATIONS = {"rope_sinusoidal": ("rope", "sinusoidal"), "rope_learned": ("rope", "learned"),
                      "mla_rope": ("mla", None)}

#: The grammar in one paragraph, for every command's ``--help``.
GRAMMAR = ("SPEC = TERM['+'TERM]...; TERM = NAME[:key=value,...] | PATH.npy | PATH.safetensors[#KEY] | "
           "pytorch_model.bin[#KEY] | hf:DIR[#KEY] | hf:DIR or PATH/config.json (a model's scheme from its config) | "
           "gguf:FILE (a llama.cpp file's scheme from its header); "
           "NAME: see `petheory encodings`; a comma separates parameters only: repeat --pe for several PEs")


def _fmt(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return "null" if x is None else str(x)


@dataclass(frozen=True)
class PETerm:
    """One term of a spec: a named encoding with parameters, or a table read from disk.

    A path term is a table or a model's ``config.json``: which one is decided where files are
    read (:func:`petheory.loaders.resolve_scheme`), not here.

    Attributes
    ----------
    name : str or None
        Registered encoding (or mechanism) name; None for a table.
    options : tuple of (str, value)
        Parameters in the order written (that is the order they are printed in).
    path : str or None
        A table: a file path or ``hf:DIR``; None for a named term.
    key : str or None
        Tensor name inside the table's file or directory (``#KEY``).
    """

    name: str | None = None
    options: tuple = ()
    path: str | None = None
    key: str | None = None

    def __post_init__(self):
        if (self.name is None) == (self.path is None):
            raise ValidationTypeError(f"a PETerm has a name or a path (a table), exactly one; got name={self.name!r}, path={self.path!r}")
        object.__setattr__(self, "options", tuple((str(k), v) for k, v in (self.options or ())))

    @property
    def is_table(self) -> bool:
        return self.path is not None

    @property
    def params(self) -> dict:
        """The parameters as keyword arguments (a fresh dict)."""
        return dict(self.options)

    def __str__(self) -> str:
        if self.is_table:
            return self.path + (f"#{self.key}" if self.key else "")
        return self.name + (":" + ",".join(f"{k}={_fmt(v)}" for k, v in self.options) if self.options else "")

    def check_params(self, allowed, *, what: str | None = None) -> None:
        """ValueError naming the parameters ``allowed`` when the term has another one (with a suggestion)."""
        allowed = list(allowed)
        bad = [k for k, _ in self.options if k not in allowed]
        if bad:
            close = [m for b in bad for m in difflib.get_close_matches(b, allowed, n=1)]
            raise ValidationError(f"{what or self.name} takes {', '.join(sorted(allowed)) or 'no parameters'}; got "
                             f"{', '.join(bad)}" + (f" (did you mean {', '.join(close)}?)" if close else ""))


@dataclass(frozen=True)
class PESpec:
    """A parsed PE specification: one or more :class:`PETerm` joined by ``+`` (see the module docstring).

    ``str(spec)`` is the canonical text; :func:`parse_pe_spec` of it gives ``spec`` back.

    Attributes
    ----------
    terms : tuple of PETerm
        The terms, in the order written.
    """

    terms: tuple

    def __post_init__(self):
        object.__setattr__(self, "terms", tuple(self.terms))
        if not self.terms or not all(isinstance(t, PETerm) for t in self.terms):
            raise ValidationTypeError(f"a PESpec holds one or more PETerm, got {self.terms!r}")

    def __str__(self) -> str:
        return "+".join(str(t) for t in self.terms)

    @property
    def head(self) -> PETerm:
        """The first term (the mechanism, for petheory.nn)."""
        return self.terms[0]

    @property
    def name(self) -> str | None:
        return self.head.name

    @property
    def params(self) -> dict:
        return self.head.params

    @property
    def is_table(self) -> bool:
        return self.head.is_table

    def single(self, what: str = "this command") -> PETerm:
        """The one term, or ValueError for a combination."""
        if len(self.terms) > 1:
            raise ValidationError(f"{what} takes one PE, not the combination {self}; combinations ('+') are built by "
                             "petheory.nn (train, sweep)")
        return self.head

    def named(self, what: str = "this command") -> PETerm:
        """The one named term, or ValueError for a combination or a table."""
        term = self.single(what)
        if term.is_table:
            raise ValidationError(f"{what} takes a registered encoding, not a table ({term})")
        return term

    def registered(self, what: str = "this command") -> PETerm:
        """The one registry term this spec stands for: itself when it has one term, the registry's named
        combination for ``mechanism+absolute`` (``rope+sinusoidal`` -> ``rope_sinusoidal``, the parameters of
        both parts merged), else ValueError. For commands that evaluate registry encodings (numpy)."""
        if len(self.terms) == 1:
            return self.head
        combos = {parts: name for name, parts in NAMED_COMBINATIONS.items()}
        name = combos.get(tuple(t.name for t in self.terms)) if len(self.terms) == 2 else None
        if name is None or any(t.is_table for t in self.terms):
            known = ", ".join(f"{m}+{a} ({n})" for n, (m, a) in NAMED_COMBINATIONS.items() if a)
            raise ValidationError(f"{what} takes one PE, not the combination {self}: the registry holds {known}; other "
                             "combinations are built by petheory.nn (train, sweep)")
        merged: dict = {}
        for term in self.terms:
            for k, val in term.options:
                if k in merged and merged[k] != val:
                    raise ValidationError(f"{self}: {k}={_fmt(merged[k])} and {k}={_fmt(val)} disagree; {name} has one {k}")
                merged[k] = val
        return PETerm(name=name, options=tuple(merged.items()))

    def with_params(self, params: dict) -> PESpec:
        """The spec with ``params`` added to (or replacing those of) its first, named term."""
        if not params:
            return self
        if self.is_table:
            raise ValidationError(f"parameters apply to named encodings only, not to the table {self.head}")
        opts = dict(self.head.options)
        opts.update(params)
        return PESpec((replace(self.head, options=tuple(opts.items())),) + self.terms[1:])

    # ---- what petheory.nn reads of a model's spec. :func:`petheory.nn.position.parse_pe` writes a model's PE as a
    # PESpec of one mechanism term (its MECHANISM_KEYS first) and at most one absolute term; these read that form.

    @property
    def kind(self) -> str | None:
        """Where the head term's position signal enters attention: ``'absolute'``, ``'bias'``, ``'rotary'``, ``'none'``
        (the registry's ``info(name).kind``, :func:`petheory.encodings.info`) or ``'mla'``; None for a table."""
        if self.is_table:
            return None
        if self.name in MECHANISMS:
            return self.name
        from petheory import encodings as enc

        return enc.info(self.name).kind

    @property
    def registry_params(self) -> dict:
        """The head term's keyword arguments for its registry function: its options less the :data:`MECHANISM_KEYS`."""
        return {k: x for k, x in self.head.options if k not in MECHANISM_KEYS}

    heads = property(lambda self: self.params.get("heads"), doc="Rotary: rotate the first ``heads`` heads only (None: all).")
    slopes = property(lambda self: self.params.get("slopes", "press"), doc="ALiBi's slope schedule, 'press' or 'gu2025'.")
    trainable = property(lambda self: self.params.get("trainable"), doc="An absolute table: train it (None: the default).")
    latent = property(lambda self: self.params.get("latent"), doc="MLA's latent width (None: ``d_model // 2``).")
    rope_dim = property(lambda self: self.params.get("rope_dim"), doc="MLA's shared RoPE dimension (None: the head dim).")
    hint = property(lambda self: self.params.get("hint"), doc="chen2025's Scale Hint, 'shift' or 'interp' (None: none).")
    absolute = property(lambda self: self.terms[1].name if len(self.terms) > 1 else None,
                        doc="The absolute encoding added to the inputs on top of the mechanism (the second term), or None.")
    absolute_params = property(lambda self: self.terms[1].params if len(self.terms) > 1 else {},
                               doc="The registry keyword arguments of :attr:`absolute`.")

    def with_key(self, key: str | None) -> PESpec:
        """The spec with tensor name ``key`` set on its table term (``--key``)."""
        if key is None:
            return self
        if not self.is_table:
            raise ValidationError(f"a tensor key applies to loaded files only, not to the named encoding {self.name!r}")
        if self.head.key not in (None, key):
            raise ValidationError(f"two tensor keys for {self.head.path}: #{self.head.key} and {key!r}")
        return PESpec((replace(self.head, key=key),) + self.terms[1:])


def _registered() -> list[str]:
    from petheory import encodings as enc

    return enc.available() + [m for m in MECHANISMS if m not in enc.available()]


def _exists(path: str) -> bool:
    try:
        return Path(path).expanduser().exists()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte, ...
        return False


def _is_table_text(text: str) -> bool:
    if text.startswith(("hf:", "gguf:")):
        return True
    path = text.rpartition("#")[0] if "#" in text else text
    return Path(path).suffix.lower() in TABLE_SUFFIXES + (".json",) or _exists(text) or bool(path and path != text and _exists(path))


def _table_term(text: str) -> PETerm:
    path, key = text, None
    if "#" in text:
        head, _, tail = text.rpartition("#")
        if head and tail and "/" not in tail and not (_exists(text) and not _exists(head)):
            path, key = head, tail
    if path == "hf:":
        raise ValidationError(f"{text!r}: hf: needs a model directory, e.g. hf:./bert or hf:minilm")
    if path == "gguf:":
        raise ValidationError(f"{text!r}: gguf: needs a file, e.g. gguf:./model.Q4_K_M.gguf")
    if not path or path.startswith("#"):
        raise ValidationError(f"{text!r}: a table needs a path before #KEY, e.g. model.safetensors#wpe.weight")
    return PETerm(path=path, key=key)


def _unknown(name: str, text: str, names: list[str]) -> ValueError:
    if "," in name and ":" not in text:
        parts = [p.strip() for p in name.split(",") if p.strip()]
        if parts and all(p in names for p in parts):
            return ValidationError(f"--pe {text!r}: a comma separates a PE's parameters (name:key=value,key=value); for "
                              "several PEs repeat the option: " + " ".join(f"--pe {p}" for p in parts))
    close = difflib.get_close_matches(name, names, n=1)
    return ValidationError(
        f"unknown PE {name!r}" + (f" (did you mean {close[0]!r}?)" if close else "")
        + f": unknown encoding {name!r} and no such file (registered: {', '.join(names)}; a table is PATH.npy, "
        "PATH.safetensors[#KEY], pytorch_model.bin[#KEY] or hf:DIR[#KEY])")


def _named_term(part: str, text: str, names: list[str]) -> PETerm:
    name, colon, rest = part.partition(":")
    name = name.strip()
    if not name:
        raise ValidationError(f"PE spec {text!r} has an empty name; write NAME[:key=value,...] (see `petheory encodings`)")
    if name not in names:
        raise _unknown(name, text, names)
    options: dict = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        k, eq, val = item.partition("=")
        if not eq or not k.strip():
            raise ValidationError(f"PE option {item!r} in {text!r} must look like key=value (e.g. {name}:base=500)")
        k = k.strip()
        if k in options:
            raise ValidationError(f"PE option {k!r} is given twice in {text!r}")
        options[k] = scalar(val)
    return PETerm(name=name, options=tuple(options.items()))


def split_terms(text: str) -> list[str]:
    """``text`` cut at every ``+`` where a term can start: not before a digit or ``.digit`` (a number's sign).

    Parameters
    ----------
    text : str
        A spec's text.

    Returns
    -------
    list of str
        The terms' texts.

    Examples
    --------
    >>> split_terms('rope:base=1e+06+sinusoidal')
    ['rope:base=1e+06', 'sinusoidal']
    >>> split_terms('alibi:slope=+0.5')
    ['alibi:slope=+0.5']
    """
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch != "+":
            continue
        nxt = text[i + 1:i + 3]
        if nxt[:1].isdigit() or (nxt[:1] == "." and nxt[1:2].isdigit()):
            continue  # 1e+06, +0.5: the sign of a number
        out.append(text[start:i])
        start = i + 1
    out.append(text[start:])
    return out


def parse_pe_spec(text) -> PESpec:
    """Parse a PE specification (see the module docstring for the grammar).

    Parameters
    ----------
    text : str or PESpec
        The spec; a :class:`PESpec` is returned as it is.

    Returns
    -------
    PESpec

    Raises
    ------
    ValueError
        Empty text, an unknown name that is not a table either (the message lists the registry
        and the table forms), a parameter that is not ``key=value`` or is given twice.
    TypeError
        Neither a string nor a PESpec.

    Notes
    -----
    Names are looked up in the registry when this is called, so a command parses its ``--pe``
    after ``--plugin`` modules are imported. Parameters are not checked against the encoding here:
    the consumer knows which it accepts (a model takes ``heads=``, a bound does not).

    See Also
    --------
    parse_pe_specs

    Examples
    --------
    >>> from petheory.spec import parse_pe_spec
    >>> s = parse_pe_spec('alibi:slope=0.5')
    >>> s.terms[0].name, s.terms[0].params
    ('alibi', {'slope': 0.5})
    >>> parse_pe_spec('rope:base=1e+06').terms[0].params
    {'base': 1000000.0}
    """
    if isinstance(text, PESpec):
        return text
    if not isinstance(text, str):
        raise ValidationTypeError(f"a PE spec is a string such as 'rope' or 'alibi:slope=0.5' (or a PESpec), got {text!r}")
    text = text.strip()
    if not text:
        raise ValidationError("the PE spec is empty; give a registered name (see `petheory encodings`), a table file or hf:DIR")
    names = _registered()
    parts = split_terms(text)
    first = parts[0].split(":", 1)[0].strip()
    if text.startswith(("hf:", "gguf:")) or (first not in names and _is_table_text(text)):
        return PESpec((_table_term(text),))
    terms = []
    for part in parts:
        part = part.strip()
        if not part:
            raise ValidationError(f"PE spec {text!r} has an empty term around '+'; write NAME[+NAME]")
        head = part.split(":", 1)[0].strip()
        if part.startswith("hf:") or (head not in names and _is_table_text(part)):
            terms.append(_table_term(part))
        else:
            terms.append(_named_term(part, text, names))
    return PESpec(tuple(terms))


def parse_pe_specs(values, *, default=None) -> list[PESpec]:
    """Several ``--pe`` values -> [PESpec] (``default`` when there are none).

    A value that is a comma-separated list of registered names and nothing else (``a,b``, the old
    ``bounds``/``compare`` spelling, still in scripts) stands for ``--pe a --pe b``: no name
    contains a comma, so the reading is unambiguous. Anything else goes through :func:`parse_pe_spec`.

    Parameters
    ----------
    values : str, PESpec or iterable of them
        The ``--pe`` values (empty: ``default``).
    default : iterable of PESpec, optional
        What no value stands for.

    Returns
    -------
    list of PESpec
        One per PE named.

    See Also
    --------
    parse_pe_spec

    Examples
    --------
    >>> from petheory.spec import parse_pe_specs
    >>> [s.name for s in parse_pe_specs(['sinusoidal,alibi'])]  # a comma list is several PEs
    ['sinusoidal', 'alibi']
    >>> [t.name for t in parse_pe_specs(['rope+sinusoidal'])[0].terms]
    ['rope', 'sinusoidal']
    """
    if not values:
        return list(default or [])
    if isinstance(values, (str, PESpec)):
        values = [values]
    out = []
    names = None
    for val in values:
        if isinstance(val, str) and "," in val and not any(c in val for c in ":+=#/\\"):
            names = names or _registered()
            parts = [p.strip() for p in val.split(",") if p.strip()]
            if parts and all(p in names for p in parts):
                out += [PESpec((PETerm(name=p),)) for p in parts]
                continue
            unknown = next((p for p in parts if p not in names), None)
            if unknown is not None and not _is_table_text(val):
                raise _unknown(unknown, unknown, names)
        out.append(parse_pe_spec(val))
    return out
