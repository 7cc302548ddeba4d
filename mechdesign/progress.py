"""Progress reporting: the library's callback protocol and the command line's terminal bar.

The library never prints progress. A long computation takes an optional ``progress`` argument, a
callable ``progress(done, total, description)`` (the :class:`Progress` protocol), and calls it as
work completes: ``done`` units out of ``total`` (``None`` when the total is unknown, e.g. a MILP's
improving solutions), with a short human-readable ``description`` of the current step. ``None`` — the
default everywhere — means silent. :func:`report` is the one place that makes that call.

The ``mechdesign`` command turns the callback into a tqdm bar with :func:`terminal_progress`, shown
only when standard error is a terminal and not silenced by ``--quiet``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol, TextIO


class Progress(Protocol):
    """A progress callback: ``progress(done, total, description)``.

    Parameters
    ----------
    done
        Units of work completed so far (non-decreasing within one run).
    total
        Units of work in all, or ``None`` when unknown in advance.
    description
        What is being done now, e.g. ``"SML constraint generation, round 3"``.

    Examples
    --------
    >>> seen = []
    >>> def record(done: int, total: int | None, description: str) -> None:
    ...     seen.append((done, total, description))
    >>> report(record, 1, 4, "first of four")
    >>> seen
    [(1, 4, 'first of four')]
    """

    def __call__(self, done: int, total: int | None, description: str) -> None: ...


def report(progress: Progress | None, done: int, total: int | None, description: str) -> None:
    """Call ``progress(done, total, description)`` unless ``progress`` is ``None`` (silent).

    Parameters
    ----------
    progress
        The caller's callback, or ``None``.
    done, total, description
        As in :class:`Progress`.

    Examples
    --------
    >>> report(None, 3, 10, "nothing happens")
    >>> report(lambda done, total, text: print(f"{text}: {done}/{total}"), 3, 10, "solving")
    solving: 3/10
    """
    if progress is not None:
        progress(done, total, description)


class TerminalProgress:
    """A :class:`Progress` callback drawing one tqdm bar on ``stream``; :meth:`close` ends it.

    Parameters
    ----------
    stream
        Where the bar is drawn (the command line uses standard error).

    Examples
    --------
    >>> import io
    >>> bar = TerminalProgress(io.StringIO())
    >>> bar(1, 2, "halfway")
    >>> bar(2, 2, "done")
    >>> bar.close()
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._bar: Any = None

    def __call__(self, done: int, total: int | None, description: str) -> None:
        from tqdm import tqdm

        if self._bar is None or self._bar.total != total:
            self.close()
            self._bar = tqdm(total=total, file=self._stream, leave=False, dynamic_ncols=True)
        self._bar.n = done
        self._bar.set_description_str(description)  # redraws the bar

    def close(self) -> None:
        """Remove the bar from the terminal (no-op if none is shown)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None


@contextmanager
def terminal_progress(quiet: bool = False, stream: TextIO | None = None) -> Iterator[Progress | None]:
    """A tqdm-backed :class:`Progress` for the command line, or ``None`` when it must stay silent.

    Parameters
    ----------
    quiet
        ``True`` (the ``--quiet`` option) silences progress.
    stream
        Where to draw; standard error by default. Progress is shown only if it is a terminal, so
        pipes, files and CI logs never receive bar updates.

    Yields
    ------
    Progress or None
        The callback to pass to the library, closed when the block ends.

    Examples
    --------
    >>> import io
    >>> with terminal_progress(stream=io.StringIO()) as progress:  # not a terminal: silent
    ...     print(progress)
    None
    """
    target = sys.stderr if stream is None else stream
    if quiet or not (hasattr(target, "isatty") and target.isatty()):
        yield None
        return
    bar = TerminalProgress(target)
    try:
        yield bar
    finally:
        bar.close()


__all__ = ["Progress", "TerminalProgress", "report", "terminal_progress"]
