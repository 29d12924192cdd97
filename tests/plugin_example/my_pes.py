"""A petheory plugin: one encoding and one claim, registered from outside petheory.

Use it with any ``petheory`` command::

    petheory encodings --plugin tests/plugin_example/my_pes.py
    petheory check --plugin tests/plugin_example/my_pes.py --claims 'user2099.*'

or, with ``tests/`` on ``PYTHONPATH``, as a dotted module (``--plugin plugin_example.my_pes``), or
from an installed package through entry points in its ``pyproject.toml``::

    [project.entry-points."petheory.encodings"]
    my_pes = "mypkg.my_pes"
    [project.entry-points."petheory.claims"]
    my_pes = "mypkg.my_pes"

Importing the module is all it takes: its top level calls ``petheory.encodings.register`` and
``proofs_check.claim``. Claim ids follow ``<firstauthor><year>.<short_name>``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory import encodings as enc
from proofs_check import claim, tolerance


@enc.register(
    "user2099_ramp",
    "absolute",
    conventions="PE[p, k] = (p / n_max)^(k+1): a polynomial ramp per feature; n_max defaults to n.",
    source="user2099 (example plugin)",
)
def ramp(n: int, d: int, *, n_max: int | None = None) -> np.ndarray:
    """Polynomial ramp encoding, shape (n, d)."""
    n_max = n if n_max is None else n_max
    for name, value in (("n", n), ("d", d), ("n_max", n_max)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")  # petheory's CLI prints it as one line
    t = np.arange(n, dtype=np.float64)[:, None] / n_max  # (n, 1)
    return t ** np.arange(1, d + 1)[None, :]  # (n, d)


def _ramp_cases():
    return st.fixed_dictionaries({"n": st.integers(1, 200), "d": st.integers(1, 32)})


@claim(
    id="user2099.ramp_bounded",
    source="user2099 (example plugin)",
    statement=r"Inside the training range the ramp PE has $\lVert PE(p)\rVert_2 \le \sqrt{d}$.",
    kind="exact",
    cases=_ramp_cases,
)
def ramp_bounded(case) -> float:
    pe = enc.get("user2099_ramp")(case["n"], case["d"])
    bound = np.sqrt(case["d"])
    # a d-term sum of squares of entries <= 1: Higham's gamma_d bound on the rounding
    return float(np.linalg.norm(pe, axis=1).max() - bound - tolerance(n_ops=case["d"] + 2, scale=bound))
