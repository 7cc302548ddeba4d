"""Writing files safely: atomic replacement, and output paths checked before any work.

Every file the package writes goes through :func:`atomic_output`: to a temporary file beside the target,
then ``os.replace``, so an interrupted or concurrent write leaves the old file or a complete new one.
:func:`check_output_paths` refuses, before a command starts, outputs that cannot be written or that would
clobber each other or an input. A foundation (it imports only :mod:`mechdesign.exceptions`), so the
curves of the solver layer and the file format of the applications (:mod:`mechdesign.files`, which
re-exports these names) both write through it.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from .exceptions import MechDesignError


def _umask() -> int:
    """The process's file-creation mask (from ``/proc`` where available: setting it is not thread-safe)."""
    with suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_output(path: str | Path, mode: str = "w", newline: str | None = None,
                  encoding: str = "utf-8") -> Iterator[IO[Any]]:
    """A file handle whose content replaces ``path`` only when the ``with`` block completes.

    The handle writes to a temporary file in the same directory (named ``.<name>.<random>.tmp``, which
    no glob of the final name matches); on success it is flushed, ``fsync``'ed and moved over ``path``
    by ``os.replace`` (atomic on POSIX and Windows), with the old file's permissions (else the umask's).
    On any exception — ``KeyboardInterrupt`` included — the temporary file is removed and ``path`` is
    untouched. A reader therefore sees the old file or the complete new one, never a mix; of two
    concurrent writers, the last to finish wins with its complete file. (Only a hard kill, e.g.
    ``SIGKILL``, can leave the temporary file behind; never a partial file under ``path``.)

    Parameters
    ----------
    path
        The file to (re)place. Its directory must exist.
    mode
        ``"w"`` (text) or ``"wb"`` (binary).
    newline, encoding
        As for :func:`open`, in text mode.

    Yields
    ------
    IO
        The open temporary file.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_output(target) as handle:
    ...     _ = handle.write("complete")
    >>> target.read_text()
    'complete'
    """
    if mode not in ("w", "wb"):
        raise MechDesignError(f"mode must be 'w' or 'wb', got {mode!r}")
    target = Path(path)
    try:
        permissions = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        permissions = 0o666 & ~_umask()
    try:
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise MechDesignError(f"cannot write {target}: {exc.strerror or exc}") from exc
    try:
        text = {"encoding": encoding, "newline": newline} if mode == "w" else {}
        with os.fdopen(descriptor, mode, **text) as handle:
            yield handle
            handle.flush()
            os.fchmod(handle.fileno(), permissions)
            os.fsync(handle.fileno())
        try:
            os.replace(temporary, target)
        except OSError as exc:
            raise MechDesignError(f"cannot write {target}: {exc.strerror or exc}") from exc
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_directory(target.parent)


def _sync_directory(directory: Path) -> None:
    """``fsync`` a directory so that a rename in it survives a crash (where the system allows it)."""
    with suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def atomic_write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically (:func:`atomic_output`) and return the path.

    Examples
    --------
    >>> import tempfile
    >>> atomic_write_text(Path(tempfile.mkdtemp()) / "note.txt", "hello").read_text()
    'hello'
    """
    target = Path(path)
    with atomic_output(target) as handle:
        handle.write(text)
    return target


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two paths name one file: equal once resolved, or the same inode when both exist.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> same_file(folder / "a.csv", folder / "." / "a.csv"), same_file(folder / "a.csv", folder / "b.csv")
    (True, False)
    """
    first, second = Path(first), Path(second)
    if first.resolve() == second.resolve():
        return True
    with suppress(OSError):
        return os.path.samefile(first, second)
    return False


def check_output_directory(directory: str | Path, option: str) -> Path:
    """Refuse, before any work, an output ``directory`` that is missing, is not a directory or is not writable.

    Parameters
    ----------
    directory
        Where outputs will be written.
    option
        The option that names it (as the user typed it, e.g. ``"--out"``); errors name it.

    Returns
    -------
    Path
        ``directory`` as a path.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_output_directory(folder, "--out") == folder
    True
    >>> check_output_directory(folder / "missing", "--out")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: --out: directory ...missing does not exist
    """
    directory = Path(directory)
    if not directory.exists():
        raise MechDesignError(f"{option}: directory {directory} does not exist")
    if not directory.is_dir():
        raise MechDesignError(f"{option}: {directory} is not a directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise MechDesignError(f"{option}: directory {directory} is not writable")
    return directory


def check_output_paths(outputs: Mapping[str, str | Path],
                       inputs: Sequence[str | Path] = ()) -> dict[str, Path]:
    """Refuse, before any work, output paths that cannot be written or that would clobber each other.

    Every output must not be a directory (nor another non-regular file such as a FIFO), its directory
    must exist and be writable, an existing file must be writable; the outputs must be pairwise distinct
    (after resolving links, and by inode when both exist) and none may be one of ``inputs`` (defect L8).

    Parameters
    ----------
    outputs
        Option name (as the user typed it, e.g. ``"--out"``) → path. Errors name the option.
    inputs
        Files the command reads.

    Returns
    -------
    dict of str to Path
        The outputs as paths, in the given order.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> sorted(check_output_paths({"--out": folder / "a.csv", "--mechanism-out": folder / "a.json"}))
    ['--mechanism-out', '--out']
    >>> check_output_paths({"--out": folder / "a.csv", "--mechanism-out": folder / "a.csv"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: --mechanism-out and --out name the same file ...a.csv: give distinct paths
    """
    paths = {option: Path(path) for option, path in outputs.items()}
    for option, path in paths.items():
        if path.is_dir():
            raise MechDesignError(f"{option}: {path} is a directory, not a file")
        if path.exists() and not path.is_file():
            raise MechDesignError(f"{option}: {path} is not a regular file")
        if path.exists() and not os.access(path, os.W_OK):
            raise MechDesignError(f"{option}: {path} exists and is not writable")
        check_output_directory(path.parent, option)
    named = list(paths.items())
    for index, (option, path) in enumerate(named):
        for other_option, other in named[:index]:
            if same_file(path, other):
                raise MechDesignError(f"{option} and {other_option} name the same file {path}: give distinct paths")
        for source in map(Path, inputs):
            if same_file(path, source):
                raise MechDesignError(f"{option}: {path} is also an input file; write the output elsewhere")
    return paths
