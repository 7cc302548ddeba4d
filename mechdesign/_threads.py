"""One BLAS thread for the small dense linear algebra of the iterative designers.

The Newton steps of the distortion–rate designer (Cholesky factorizations of a few hundred rows) and
the SLSQP fits of the Rényi/Sibson certificate are many small BLAS calls. With OpenBLAS's default of
one thread per core, each call hands work to threads that wait for a core; on a busy machine they
wait long. Measured on the 2-core machine of ``benchmarks/RESULTS.md`` (load 3): MI privacy design at
n = 1000, ε = 4, 38.6 s with the default threads against 0.70 s with one; a 300 × 300 Cholesky 51 ms
against 0.7 ms (load 10); the Rényi certificate's tangent-point fit at n = 20, 32 s against 1.6 s.
threadpoolctl (the library scikit-learn uses for the same purpose) limits every BLAS library loaded
in the process — numpy's and scipy's own copies of OpenBLAS alike — for the duration of a ``with``
block, and restores the previous limits after it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from ._lazy import LazyFunction

threadpool_limits = LazyFunction("threadpoolctl", "threadpool_limits")


def single_blas_thread() -> AbstractContextManager:
    """A context in which BLAS (and LAPACK) calls use one thread.

    Examples
    --------
    >>> import numpy as np
    >>> with single_blas_thread():
    ...     np.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 5.0]])).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
    """
    return threadpool_limits(limits=1, user_api="blas")
