"""The memory guard: how much memory a new computation may use, and refusing one that needs more.

The limit is the smallest of every bound the operating system enforces on this process:

* ``MemAvailable`` of ``/proc/meminfo`` (free pages elsewhere);
* the cgroup's remaining allowance — v2 ``memory.max − memory.current``, v1
  ``memory.limit_in_bytes − memory.usage_in_bytes`` — which containers and batch schedulers set;
* the address-space limit ``RLIMIT_AS`` (``ulimit -v``) minus the address space already mapped
  (``VmSize``), beyond which allocations fail with ``MemoryError`` or C++ ``std::bad_alloc``.

Every check runs *before* the allocation it guards, so a too-large request is a
:class:`~mechdesign.exceptions.ProblemTooLargeError`, never a crash.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Iterable
from pathlib import Path

from .exceptions import ProblemTooLargeError

#: Bytes of one float64 entry.
FLOAT_BYTES = 8
#: Root of the cgroup file system on Linux.
CGROUP_ROOT = Path("/sys/fs/cgroup")


def _read_int(path: Path) -> int | None:
    """The integer in ``path``; ``None`` if it is missing, unreadable or ``max`` (no limit)."""
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _proc_value(path: str, key: str) -> int | None:
    """The value in bytes of ``key:`` (given in kB) in a ``/proc`` status file, if present."""
    try:
        with open(path) as handle:
            for line in handle:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


@functools.lru_cache(maxsize=1)
def _cgroup_lines() -> tuple[str, ...]:
    """The lines of ``/proc/self/cgroup`` (none if unreadable), read once per process: which cgroup a process is in
    does not change under a computation, and the kernel builds the file at each read (≈ 0.2 ms, at every design)."""
    try:
        return tuple(Path("/proc/self/cgroup").read_text().splitlines())
    except OSError:
        return ()


def _cgroup_directories() -> Iterable[Path]:
    """Where this process's cgroup memory files may be: its own cgroup, then the mounted root."""
    for line in _cgroup_lines():
        _, controllers, path = line.split(":", 2)
        relative = path.lstrip("/")
        if controllers == "":  # v2: "0::/path"
            yield CGROUP_ROOT / relative
            yield CGROUP_ROOT
        elif "memory" in controllers.split(","):  # v1: "N:memory:/path"
            yield CGROUP_ROOT / "memory" / relative
            yield CGROUP_ROOT / "memory"


def cgroup_memory() -> int | None:
    """Bytes the cgroup still allows this process (v2 or v1); ``None`` without a cgroup limit.

    Examples
    --------
    >>> allowance = cgroup_memory()  # None outside a memory-limited container
    >>> allowance is None or allowance >= 0
    True
    """
    for limit_file, usage_file in _limit_files(tuple(_cgroup_directories())):
        limit = _read_int(limit_file)
        if limit is not None and limit < 2**62:  # v1 reports "no limit" as a huge number
            return max(0, limit - (_read_int(usage_file) or 0))
    return None


@functools.lru_cache(maxsize=16)
def _limit_files(directories: tuple[Path, ...]) -> tuple[tuple[Path, Path], ...]:
    """The cgroup limit files that exist in ``directories`` (v2 ``memory.max``, v1 ``memory.limit_in_bytes``), in
    order, each with its usage file: looked up once per set of directories, the limits read at every check (every
    design checks; at n = 30 the eight failed opens of a container without them took ≈ 0.4 ms of each)."""
    return tuple((directory / limit_name, directory / usage_name) for directory in directories
                 for limit_name, usage_name in (("memory.max", "memory.current"),
                                                ("memory.limit_in_bytes", "memory.usage_in_bytes"))
                 if (directory / limit_name).is_file())


def address_space_memory() -> int | None:
    """Bytes left under ``RLIMIT_AS`` (``ulimit -v``); ``None`` when the address space is unlimited.

    Examples
    --------
    >>> left = address_space_memory()  # None unless ``ulimit -v`` is set
    >>> left is None or left >= 0
    True
    """
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    return max(0, soft - (_proc_value("/proc/self/status", "VmSize") or 0))


def system_memory() -> int:
    """Bytes of ``MemAvailable`` (Linux), else the free physical pages.

    Examples
    --------
    >>> system_memory() > 0
    True
    """
    available = _proc_value("/proc/meminfo", "MemAvailable")
    if available is not None:
        return available
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def available_memory() -> int:
    """Bytes of memory available to a new computation: the smallest limit the system enforces.

    The minimum of ``MemAvailable``, the cgroup's remaining allowance (v2 or v1) and what is left
    under ``RLIMIT_AS``; see the module docstring.

    Examples
    --------
    >>> available_memory() > 0
    True
    """
    limits = [system_memory(), cgroup_memory(), address_space_memory()]
    return min(limit for limit in limits if limit is not None)


def check_memory(estimate: int, what: str) -> None:
    """Raise :class:`ProblemTooLargeError` if ``estimate`` bytes exceed :func:`available_memory`.

    Parameters
    ----------
    estimate
        Bytes the computation is expected to need at its peak.
    what
        The computation, as the subject of the error message ("the dp design on 3000×3000").

    Examples
    --------
    >>> check_memory(1024, "a small table")  # fits: returns None
    >>> check_memory(2**80, "a huge table")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    mechdesign.exceptions.ProblemTooLargeError: a huge table needs an estimated ...
    """
    available = available_memory()
    if estimate > available:
        raise ProblemTooLargeError(
            f"{what} needs an estimated {estimate / 2**30:.2f} GiB but only {available / 2**30:.2f} GiB is "
            "available; reduce the alphabet, use a structured notion (e.g. local DP's column-minimum "
            "form instead of a pairwise relation), or run on a larger machine"
        )


def check_array(shape: Iterable[int], what: str, copies: int = 4) -> None:
    """Refuse, before allocating it, a float array of ``shape`` held ``copies`` times at once.

    ``copies`` covers the temporaries of validation (conversion, clipping, the stored copy).

    Examples
    --------
    >>> check_array((1000, 1000), "a 1000×1000 mechanism")  # 32 MB: fits
    >>> check_array((10**7, 10**7), "hamming_cost(10000000)")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    mechdesign.exceptions.ProblemTooLargeError: hamming_cost(10000000) needs an estimated ...
    """
    check_memory(copies * FLOAT_BYTES * math.prod(int(n) for n in shape), what)
