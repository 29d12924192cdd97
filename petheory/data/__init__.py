"""Small data shipped with petheory as Python modules (no package-data configuration needed).

:mod:`petheory.data.corpus` holds the built-in corpus behind the default target of
``petheory stress`` and of :func:`petheory.geometry.builtin_target`.
"""
