"""What a user asks of a positional scheme: spectrum, stress (with its null), bounds, report, compare.

Each is a function ``(scheme, options) -> record`` (a dataclass with ``.as_dict()``, JSON-able),
written once and used by the CLI, the plots and the API alike. The scheme comes from the edge
(:func:`petheory.loaders.resolve_scheme`); every analysis walks its distinct layer kinds
(:meth:`petheory.scheme.Scheme.kinds`), and a kind it cannot handle is skipped or refused by name.

Files: :mod:`~petheory.analyses.kernel` (bands, position-only kernel, exact/certified extremes),
:mod:`~petheory.analyses.spectrum`, :mod:`~petheory.analyses.stress`, :mod:`~petheory.analyses.bounds`,
:mod:`~petheory.analyses.report`, :mod:`~petheory.analyses.compare`.

The functions live in their modules (``petheory.analyses.report.report``, ...), so that
``petheory.analyses.spectrum`` is always the module, never shadowed by its function.
"""
