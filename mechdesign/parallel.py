"""Privatize and estimate Dask collections partition by partition (``pip install 'mechdesign[parallel]'``).

:meth:`Privatizer.transform <mechdesign.privatizer.Privatizer.transform>` and
:meth:`Privatizer.estimate_frequencies <mechdesign.privatizer.Privatizer.estimate_frequencies>` accept a
Dask Series or DataFrame and call the functions here, which never gather the data on the client:

* :func:`privatize_partitions` maps every partition to its privatized labels where it lives (a lazy
  collection with the same partitions and index); each partition draws from the operating system's
  entropy on the worker that computes it, so the partitions' draws are independent and unpredictable
  — no seed is shared, derived or sent. Only with the Privatizer's ``random_state`` set (tests) does
  partition ``i`` draw from the ``i``-th stream spawned from that seed (:func:`partition_generator`),
  with a :class:`~mechdesign.randomness.SeededReleaseWarning` that says so;
  Every call is a release of its own (its tasks have keys of their own): compute or persist its result
  once — each computation of the lazy collection draws anew, and two releases of the same records spend
  the budget twice;
* :func:`tally_partitions` reduces every partition to the additive counts of its labels
  (:meth:`FrequencyOracle.tally <mechdesign.mechanisms.oracles.FrequencyOracle.tally>` or a histogram of
  outputs) and sums them in a tree on the workers: the client receives one vector of counts per column.

The counts are those of the same labels in memory (the Privatizer's ``_tallies`` on each partition,
summed), so the estimate equals the in-memory one on the same draws. A value that is not a category (or
not a label of the mechanism) is a named error that names its partition. Dask is lazy: such an error is
raised when the collection is computed. Dask is imported only here, and only when a Dask collection is
passed (``import mechdesign`` does not load it); the scheduler is Dask's current one — a
``dask.distributed.Client`` to a local cluster or a remote scheduler, the same code either way.

Examples
--------
>>> is_dask_collection([1, 2]), is_dask_collection(None)
(False, False)
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from .categorical import as_table
from .exceptions import MechDesignError, MissingDependencyError
from .mechanisms.oracles import FrequencyOracle
from .randomness import release_rng

#: Words of entropy (64 bits each) a seeded release draws from its seed for the partitions' streams.
SEED_WORDS = 4
#: Partial counts summed per task of :func:`tally_partitions`'s tree reduction.
SUM_FAN_IN = 8


def is_dask_collection(data: Any) -> bool:
    """Whether ``data`` is a Dask Series or DataFrame (told by its type's module: Dask is not imported).

    Examples
    --------
    >>> import numpy as np
    >>> is_dask_collection(np.zeros(3))
    False
    """
    return type(data).__module__.partition(".")[0] == "dask" and hasattr(data, "map_partitions")


def partition_generator(entropy: Any, number: int) -> np.random.Generator:
    """The generator of partition ``number`` of a seeded (test) release: the ``number``-th stream spawned
    from ``entropy`` (``numpy.random.SeedSequence(entropy).spawn(n)[number]`` for any ``n > number``).

    Examples
    --------
    >>> first = partition_generator([1, 2, 3, 4], 0).integers(1000, size=3)
    >>> np.array_equal(first, np.random.default_rng(np.random.SeedSequence([1, 2, 3, 4]).spawn(2)[0]).integers(1000, size=3))
    True
    """
    return np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(number,)))


def seed_entropy(random_state: Any, name: str = "random_state") -> list[int] | None:
    """The entropy the partitions' streams are spawned from: ``None`` (each partition draws from the
    operating system where it runs) unless ``random_state`` is set, then :data:`SEED_WORDS` words drawn
    from it, with a :class:`~mechdesign.randomness.SeededReleaseWarning` (``name``: the argument's name in
    messages).

    Examples
    --------
    >>> seed_entropy(None) is None
    True
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     seed_entropy(7) == seed_entropy(7)
    True
    """
    if random_state is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        generator = release_rng(random_state, name)
    from .randomness import SeededReleaseWarning

    warnings.warn(SeededReleaseWarning(
        f"{name} is set: every partition (of a Dask collection, or chunk of a file) draws from a stream spawned from "
        f"the seed (partition i from the i-th), so the release is reproducible by anyone who knows it; for tests only "
        f"(leave {name}=None: each partition then draws from the operating system's entropy where it runs)"),
        stacklevel=3)
    return generator.integers(0, 2**63, size=SEED_WORDS).tolist()


def privatize_partitions(privatizer: Any, data: Any) -> Any:
    """``privatizer.transform`` of a Dask Series or DataFrame, partition by partition, lazily.

    Parameters
    ----------
    privatizer
        A fitted :class:`~mechdesign.privatizer.Privatizer`.
    data
        A Dask Series (one column) or DataFrame with the fitted columns (checked on its metadata, nothing
        is computed).

    Returns
    -------
    dask.dataframe.Series or dask.dataframe.DataFrame
        The output labels (object dtype), with the partitions, index and names of ``data``.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> from mechdesign import Privatizer
    >>> privatizer = Privatizer("dp", 1.0, categories=["a", "b"]).fit(["a", "b"])
    >>> column = dd.from_pandas(pd.Series(["a", "b"] * 50, name="x"), npartitions=4)
    >>> private = privatizer.transform(column)  # lazy: nothing is drawn yet
    >>> private.npartitions, set(private.compute()) <= {"a", "b"}
    (4, True)
    """
    pandas = _import_dask_dataframe()
    privatizer._check_table(as_table(data._meta_nonempty, "X"))  # the columns, from the metadata
    entropy = seed_entropy(privatizer.random_state)
    meta = (pandas.Series([], dtype=object, name=data._meta.name, index=data._meta.index) if data.ndim == 1
            else pandas.DataFrame({name: pandas.Series([], dtype=object) for name in data._meta.columns},
                                  index=data._meta.index))
    release = os.urandom(16).hex()  # a key of its own: a second call is a new release, never a cached one
    return data.map_partitions(_privatize_partition, privatizer, entropy, release, meta=meta)


def tally_partitions(privatizer: Any, data: Any) -> list[tuple[np.ndarray, int]]:
    """Per column of a Dask collection of privatized labels, the counts of every partition summed on the
    workers, and the number of rows: what :func:`~mechdesign.frequency.estimate_from_tally` needs.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> from mechdesign import Privatizer
    >>> privatizer = Privatizer("dp", 2.0, categories=["a", "b", "c"], objective="distortion").fit(["a"])
    >>> private = dd.from_pandas(pd.Series(["a", "a", "b", "c"] * 10), npartitions=3)
    >>> [(counts.tolist(), rows) for counts, rows in tally_partitions(privatizer, private)]
    [([20, 10, 10], 40)]
    """
    _import_dask_dataframe()
    import dask

    privatizer._check_table(as_table(data._meta_nonempty, "X_private"))
    parts = [dask.delayed(_tally_partition)(part, privatizer, number)
             for number, part in enumerate(data.to_delayed())]
    while len(parts) > 1:
        parts = [dask.delayed(_add_tallies)(*parts[start:start + SUM_FAN_IN])
                 for start in range(0, len(parts), SUM_FAN_IN)]
    return dask.compute(parts[0])[0]


def _privatize_partition(partition: Any, privatizer: Any, entropy: list[int] | None, release: str,
                         partition_info: dict | None = None) -> Any:
    """One partition's labels (run on a worker; ``release`` only makes the task's key unique, ``partition_info``
    is Dask's)."""
    number = 0 if partition_info is None else partition_info["number"]
    if len(partition) == 0:
        return partition.astype(object)
    rng = None if entropy is None else partition_generator(entropy, number)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # name warnings were given on the client
            table = privatizer._check_table(as_table(partition, "X"))
        values = privatizer._privatized(table, rng)
    except MechDesignError as exc:
        raise type(exc)(f"partition {number} of the Dask collection: {exc}") from None
    if partition.ndim == 1:
        return type(partition)(values[:, 0], index=partition.index, name=partition.name, dtype=object)
    return type(partition)(values, index=partition.index, columns=partition.columns, dtype=object)


def _tally_partition(partition: Any, privatizer: Any, number: int) -> list[tuple[np.ndarray, int]]:
    """One partition's counts per column (run on a worker)."""
    if len(partition) == 0:
        return [(np.zeros(mechanism.tally_size if isinstance(mechanism, FrequencyOracle) else mechanism.n_outputs,
                          dtype=np.int64), 0) for mechanism in privatizer.mechanisms_]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = privatizer._check_table(as_table(partition, "X_private"))
        return privatizer._tallies(table)
    except MechDesignError as exc:
        raise type(exc)(f"partition {number} of the Dask collection: {exc}") from None


def _add_tallies(*tallies: list[tuple[np.ndarray, int]]) -> list[tuple[np.ndarray, int]]:
    """The column-wise sums of several partitions' counts."""
    return [(sum(counts for counts, _ in column), sum(rows for _, rows in column)) for column in zip(*tallies)]


def _import_dask_dataframe() -> Any:
    """pandas, once ``dask.dataframe`` is known to import (else a named error naming the extra)."""
    try:
        import dask.dataframe  # noqa: F401 - needs pandas and pyarrow
        import pandas
    except ImportError as exc:
        raise MissingDependencyError(
            f"Dask collections need dask[dataframe] and pyarrow: pip install 'mechdesign[parallel]' ({exc})") from exc
    return pandas
