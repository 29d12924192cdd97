"""What a user asks of a positional scheme: spectrum, stress (with its null), bounds, report, compare.

Each is a function ``(scheme, options) -> record``, written once and used by the CLI, the plots and the API
alike. A record is a typed frozen dataclass with named fields (``rec.sections[0].summary.lambda_min``) that holds
the theory's result objects (a stress section's :class:`~petheory.geometry.induced.StressReport`) rather than
copying them, serialised by one function (:func:`petheory.analyses.record.to_json`: ``rec.as_dict()`` is what
``--json`` writes; :func:`~petheory.analyses.record.from_json` reads it back) and rendering itself (``str(rec)``,
``rec.markdown()``, ``_repr_html_`` in a notebook). The scheme comes from the edge
(:func:`petheory.loaders.resolve_scheme`); every analysis walks its distinct layer kinds
(:meth:`petheory.scheme.Scheme.kinds`), and a kind it cannot handle is skipped or refused by name.

Files: :mod:`~petheory.analyses.kernel` (bands, position-only kernel, exact/certified extremes),
:mod:`~petheory.analyses.spectrum`, :mod:`~petheory.analyses.stress`, :mod:`~petheory.analyses.bounds`,
:mod:`~petheory.analyses.report` (its record: :mod:`~petheory.analyses.report_record`; its long-context section:
:mod:`~petheory.analyses.long_context`), :mod:`~petheory.analyses.compare` (its record:
:mod:`~petheory.analyses.compare_record`), :mod:`~petheory.analyses.rotation` (``rotate``'s reference),
:mod:`~petheory.analyses.describe` (what a scheme resolved to, in the records' JSON), :mod:`~petheory.analyses.record`.

The functions live in their modules (``petheory.analyses.report.report``, ...), so that
``petheory.analyses.spectrum`` is always the module, never shadowed by its function.
"""
