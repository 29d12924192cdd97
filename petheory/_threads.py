"""One BLAS thread for a block of small dense products, with the thread-pool controller made once per process.

``threadpoolctl.threadpool_limits`` finds the loaded BLAS libraries anew on every call (it walks every
shared object of the process: about 1 ms, several with torch loaded); ``petheory check`` entered such a
block 1,226 times in one quick run. The controller is made once and made again only when modules were
imported since (a new extension module may have loaded another BLAS), so every BLAS the process holds is
still limited.
"""

from __future__ import annotations

import contextlib
import sys

_CONTROLLER: list = [None, -1]  # [threadpoolctl.ThreadpoolController or None, len(sys.modules) when it was made]


def one_blas_thread():
    """A context manager under which BLAS runs one thread (a no-op without threadpoolctl).

    Small products (cache-sized GEMMs, many matvecs of an iterative solver, a 256 x 256 ``eigvalsh``) gain
    nothing from BLAS threads, and on a busy machine threads that wait on each other make them many times
    slower; one thread also gives the same reduction order wherever the product runs.

    >>> import numpy as np
    >>> with one_blas_thread():
    ...     float(np.ones(3) @ np.ones(3))
    3.0
    """
    try:
        from threadpoolctl import ThreadpoolController  # comes with scikit-learn
    except ImportError:  # pragma: no cover
        return contextlib.nullcontext()
    if _CONTROLLER[0] is None or _CONTROLLER[1] != len(sys.modules):
        _CONTROLLER[:] = [ThreadpoolController(), len(sys.modules)]
    return _CONTROLLER[0].limit(limits=1, user_api="blas")
