"""One versioned JSON format for every file the package writes, and atomic writes.

Every file is an *envelope* (strict JSON: never an ``Infinity`` or ``NaN`` token)::

    {"format": "mechdesign", "version": 1, "kind": "mechanism" | "result" | "curve" | "privatizer",
     "package_version": "...", "checksum": "sha256:<hex>", "payload": {...}}

``checksum`` is the SHA-256 of the payload's canonical JSON (:func:`canonical_json`: sorted keys, no
spaces, UTF-8). A non-finite number in a numeric field is one of the strings ``"inf"``, ``"-inf"``,
``"nan"`` and is decoded back only where a number is expected (a category named ``"inf"`` stays a
string). Floats are written by ``repr``, so every round trip is exact. A reader refuses any other
format version. docs/guide/file-format.md describes the fields; the JSON schema is the package data
file ``mechdesign/schemas/mechanism-file-v1.json`` (:func:`schema`).

Every file is written atomically (:func:`atomic_output`): to a temporary file beside the target, then
``os.replace``, so an interrupted or concurrent write leaves the old file or a complete new one.
:func:`atomic_output`, :func:`atomic_write_text` and :func:`check_output_paths` live in the foundation
module :mod:`mechdesign.outputs` (which :mod:`mechdesign.curves` writes through too) and are served here
under the same names.

Layering: an application; saving and loading a :class:`~mechdesign.curves.Curve` imports
:mod:`mechdesign.curves` inside :func:`save` and :func:`load`, only when a curve is saved or loaded.
"""

from __future__ import annotations

import hashlib
import json
import math
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ._version import __version__
from .exceptions import MechDesignError
from .mechanism import Mechanism
from .mechanisms.oracles import FrequencyOracle, oracle_from_parameters
from .memory import check_memory
from .outputs import atomic_output, atomic_write_text, check_output_paths  # noqa: F401 - served here too (public API)
from .priors import Prior
from .result import Result, _mechanism_json, json_number
from .structured import KeepOrRedraw

#: The value of the envelope's ``"format"`` field.
FORMAT_NAME = "mechdesign"
#: The format version this package writes and the only one it reads.
FORMAT_VERSION = 1
#: What a file may hold.
KINDS = ("mechanism", "result", "curve", "privatizer")
#: The envelope's fields, in the order they are written.
ENVELOPE_FIELDS = ("format", "version", "kind", "package_version", "checksum", "payload")
#: Bytes of memory reserved per byte of a file being parsed (Python objects for its numbers and lists).
PARSE_BYTES_PER_BYTE = 16
#: Strings that stand for non-finite numbers in numeric fields.
NON_FINITE = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}
#: The fields of one notion of a mechanism record.
NOTION_FIELDS = ("name", "label", "budget", "measured")
#: Number fields of a result payload that may be null, and its string fields.
_RESULT_OPTIONAL_NUMBERS = ("objective", "bound", "gap", "max_violation", "smallest_feasible")
_RESULT_STRINGS = ("status", "message", "solver", "method")
_RESULT_MAPPINGS = ("measured", "budgets", "limits", "measured_limits")
#: Keys of a result payload that are derived from the others (written for readers, not read back).
_RESULT_DERIVED = ("gap_tolerance", "certified")


class FileFormatError(MechDesignError):
    """A file is not a valid mechdesign file: unreadable, not JSON, another format or version, a bad
    checksum, the wrong kind, or a payload that does not describe what it claims (the message names the
    file and the field).

    Examples
    --------
    >>> issubclass(FileFormatError, MechDesignError)
    True
    """


# ------------------------------------------------------------------------------------------ the envelope


def canonical_json(payload: Any) -> str:
    """The canonical JSON text of ``payload`` whose SHA-256 is a file's checksum.

    ``json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``;
    a non-finite float or a value JSON cannot hold is a :class:`~mechdesign.exceptions.MechDesignError`.

    Examples
    --------
    >>> canonical_json({"b": [1.5, "é"], "a": None})
    '{"a":null,"b":[1.5,"é"]}'
    """
    try:
        return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise MechDesignError(f"the payload is not strict JSON: {exc}") from exc


def checksum(payload: Any) -> str:
    """``"sha256:<hex>"`` of :func:`canonical_json` of ``payload`` (UTF-8).

    Examples
    --------
    >>> checksum({}) == "sha256:" + hashlib.sha256(b"{}").hexdigest()
    True
    """
    return "sha256:" + hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()


def envelope_text(kind: str, payload: Mapping[str, Any]) -> str:
    """The text of the file holding ``payload`` in the envelope of ``kind`` (what :func:`write_envelope`
    writes; for standard output).

    Parameters
    ----------
    kind
        One of :data:`KINDS`.
    payload
        A strict-JSON mapping (non-finite numbers already encoded as ``"inf"``/``"-inf"``/``"nan"``).

    Returns
    -------
    str
        The envelope's fields one per line, the payload as its canonical JSON on the last.

    Examples
    --------
    >>> print(envelope_text("privatizer", {"b": 1, "a": [0.5]}))  # doctest: +ELLIPSIS
    {
      "format": "mechdesign",
      "version": 1,
      "kind": "privatizer",
      "package_version": "...",
      "checksum": "sha256:...",
      "payload": {"a":[0.5],"b":1}
    }
    <BLANKLINE>
    """
    if kind not in KINDS:
        raise MechDesignError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
    if not isinstance(payload, Mapping):
        raise MechDesignError(f"payload must be a mapping (a JSON object), got {type(payload).__name__}")
    body = canonical_json(dict(payload))
    header = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "kind": kind, "package_version": __version__,
              "checksum": "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()}
    lines = [f"{json.dumps(key)}: {json.dumps(value)}" for key, value in header.items()]
    return "{\n  " + ",\n  ".join(lines + [f'"payload": {body}']) + "\n}\n"


def write_envelope(path: str | Path, kind: str, payload: Mapping[str, Any]) -> Path:
    """Write ``payload`` in the envelope of ``kind`` to ``path`` atomically (:func:`envelope_text`); return the path.

    Parameters
    ----------
    path
        The file to write (its directory must exist).
    kind
        One of :data:`KINDS`.
    payload
        A strict-JSON mapping (non-finite numbers already encoded as ``"inf"``/``"-inf"``/``"nan"``).

    Returns
    -------
    Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> target = write_envelope(Path(tempfile.mkdtemp()) / "r.json", "privatizer", {"a": 1})
    >>> read_envelope(target, ["privatizer"])
    {'a': 1}
    """
    return atomic_write_text(path, envelope_text(kind, payload))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a repeated key is an error (it would hide a value from the checksum)."""
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} is repeated in one object")
        result[key] = value
    return result


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"{token} is not a JSON number (strict JSON: non-finite numbers are \"inf\", \"-inf\", \"nan\")")


def _parse_json(path: Path) -> Any:
    """The JSON value in ``path``; every way it can fail is a :class:`FileFormatError` naming the file."""
    try:
        status = path.stat()
    except OSError as exc:
        raise FileFormatError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(status.st_mode):
        raise FileFormatError(f"{path} is a directory, not a mechdesign file")
    if not stat.S_ISREG(status.st_mode):
        raise FileFormatError(f"{path} is not a regular file")
    check_memory(PARSE_BYTES_PER_BYTE * status.st_size, f"reading {path} ({status.st_size:,} bytes)")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise FileFormatError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{path} is not UTF-8 text (a binary file?): {exc.reason} at byte {exc.start}") from exc
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_refuse_constant)
    except RecursionError as exc:  # deeply nested arrays (defect L2)
        raise FileFormatError(f"{path} is not a mechdesign file: its JSON is nested too deeply") from exc
    except ValueError as exc:  # JSONDecodeError, a number of thousands of digits (L2), a repeated key
        raise FileFormatError(f"{path} is not valid JSON: {exc}") from exc


def read_envelope(path: str | Path, kinds: Sequence[str]) -> dict[str, Any]:
    """The payload of the mechdesign file ``path``, after checking its envelope.

    Parameters
    ----------
    path
        The file.
    kinds
        The kinds accepted (a subset of :data:`KINDS`).

    Returns
    -------
    dict
        The payload (still encoded: non-finite numbers as strings).

    Raises
    ------
    FileFormatError
        Not a regular file, not UTF-8, not (strict) JSON — including JSON nested too deeply or a number
        of thousands of digits (defect L2) —, not a mechdesign envelope, another format version (the
        message names both versions), a checksum that does not match the payload, or a kind not in
        ``kinds``.

    Examples
    --------
    >>> import tempfile
    >>> target = Path(tempfile.mkdtemp()) / "p.json"
    >>> _ = write_envelope(target, "privatizer", {"a": 1})
    >>> read_envelope(target, ["curve"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mechdesign.files.FileFormatError: .../p.json holds a privatizer, expected a curve
    """
    return _read_envelope(Path(path), kinds)[1]


def _read_envelope(source: Path, kinds: Sequence[str]) -> tuple[str, dict[str, Any]]:
    """``(kind, payload)`` of a checked envelope (:func:`read_envelope`)."""
    document = _parse_json(source)
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise FileFormatError(f"{source} is not a mechdesign file (no \"format\": \"{FORMAT_NAME}\" envelope)")
    version = document.get("version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise FileFormatError(f"{source} is in mechdesign file format version {version!r}; this mechdesign "
                              f"({__version__}) reads version {FORMAT_VERSION} only")
    missing = [key for key in ENVELOPE_FIELDS if key not in document]
    unknown = sorted(set(document) - set(ENVELOPE_FIELDS))
    if missing or unknown:
        raise FileFormatError(f"{source}: the envelope " + "; ".join(
            ([f"lacks {', '.join(missing)}"] if missing else []) + ([f"has unknown fields {', '.join(unknown)}"]
                                                                    if unknown else [])))
    payload = document["payload"]
    if not isinstance(payload, dict):
        raise FileFormatError(f"{source}: payload must be a JSON object, got {type(payload).__name__}")
    if document["checksum"] != checksum(payload):
        raise FileFormatError(f"{source}: checksum mismatch (the file was changed after it was written, or is "
                              f"damaged): it says {_short(document['checksum'])}, the payload has {checksum(payload)}")
    kind = document["kind"]
    if kind not in kinds:
        shown = kind if kind in KINDS else _short(kind)
        raise FileFormatError(f"{source} holds a {shown}, expected a {' or a '.join(kinds)}")
    return kind, payload


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def schema() -> dict[str, Any]:
    """The JSON schema (draft 2020-12) of the envelope and of the payloads (package data).

    Examples
    --------
    >>> schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    text = resources.files("mechdesign.schemas").joinpath("mechanism-file-v1.json").read_text(encoding="utf-8")
    return json.loads(text)


# ---------------------------------------------------------------------------------------------- numbers


def _number(value: Any, where: str, *, optional: bool = False) -> float | None:
    """A numeric field: a JSON number or ``"inf"``/``"-inf"``/``"nan"`` (``null`` if ``optional``)."""
    if value is None and optional:
        return None
    if isinstance(value, str) and value in NON_FINITE:
        return NON_FINITE[value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _float(value)
    raise FileFormatError(f"{where} must be a number (or \"inf\", \"-inf\", \"nan\"), got {_short(value)}")


def _numbers(values: Any, where: str) -> dict[str, float]:
    """A JSON object of label → number."""
    if not isinstance(values, dict):
        raise FileFormatError(f"{where} must be a JSON object of numbers, got {_short(values)}")
    return {label: _number(value, f"{where}[{label!r}]") for label, value in values.items()}


def _field(payload: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in payload:
        raise FileFormatError(f"{where} lacks the field {key!r}")
    return payload[key]


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise FileFormatError(f"{where} must be a string, got {_short(value)}")
    return value


def _check_keys(payload: Any, known: Sequence[str], where: str) -> None:
    if not isinstance(payload, dict):
        raise FileFormatError(f"{where} must be a JSON object, got {_short(payload)}")
    unknown = sorted(set(payload) - set(known))
    if unknown:
        raise FileFormatError(f"{where} has unknown fields {', '.join(unknown)}")


# -------------------------------------------------------------------------------------------- mechanisms


def _structured_json(mechanism: Mechanism) -> Any:
    """A mechanism as JSON, a structured one by its parameters (a frequency oracle as
    ``{"frequency_oracle": {...}}``, a keep-or-redraw mechanism as ``{"keep_or_redraw": {...}}``)."""
    if isinstance(mechanism, FrequencyOracle):
        return {"frequency_oracle": mechanism.parameters()}
    return _mechanism_json(mechanism, dense_entries=0)


def _mechanism_from_json(value: Any, where: str) -> Mechanism:
    """A dense matrix (a list of rows), ``{"keep_or_redraw": {"redraw": [...], "row": [...]}}`` (defect M2) or
    ``{"frequency_oracle": {"family": ..., "size": ..., "epsilon": ..., ...}}``."""
    try:
        if isinstance(value, dict) and "frequency_oracle" in value:
            _check_keys(value, ("frequency_oracle",), where)
            parameters = value["frequency_oracle"]
            if not isinstance(parameters, dict) or any(isinstance(item, bool) for item in parameters.values()):
                raise FileFormatError(f"{where}.frequency_oracle must be a JSON object of the oracle's parameters, "
                                      f"got {_short(parameters)}")
            return oracle_from_parameters(parameters)
        if isinstance(value, dict):
            _check_keys(value, ("keep_or_redraw",), where)
            parameters = _field(value, "keep_or_redraw", where)
            _check_keys(parameters, ("redraw", "row"), f"{where}.keep_or_redraw")
            return KeepOrRedraw(_field(parameters, "redraw", f"{where}.keep_or_redraw"),
                                _field(parameters, "row", f"{where}.keep_or_redraw"))
        if not isinstance(value, list):
            raise FileFormatError(f"{where} must be a list of rows or a keep_or_redraw object, got {_short(value)}")
        return Mechanism(value)
    except FileFormatError:
        raise
    except MechDesignError as exc:
        raise FileFormatError(f"{where}: {exc}") from exc


def result_payload(result: Result) -> dict[str, Any]:
    """The payload of a ``"result"`` file: :meth:`Result.to_dict`, a structured mechanism by its parameters.

    Examples
    --------
    >>> payload = result_payload(Result(Mechanism([[1.0]]), 0.0, "optimal", True, "", budgets={"dp": math.inf},
    ...                                 measured={"dp": 0.0}))
    >>> payload["budgets"], payload["mechanism"]
    ({'dp': 'inf'}, [[1.0]])
    """
    if isinstance(result.mechanism, FrequencyOracle):  # never its dense matrix, which may not fit
        payload = replace(result, mechanism=None).to_dict()
        payload["certified"] = result.certified
    else:
        payload = result.to_dict()
    if isinstance(result.mechanism, (KeepOrRedraw, FrequencyOracle)):
        payload["mechanism"] = _structured_json(result.mechanism)
    return payload


def result_from_payload(payload: Mapping[str, Any], source: str = "result",
                        mechanism: Mechanism | None = None) -> Result:
    """The :class:`~mechdesign.result.Result` of a :func:`result_payload` (exact inverse).

    Parameters
    ----------
    payload
        The decoded JSON object.
    source
        How errors name it (a file and a field).
    mechanism
        The mechanism when the payload omits it (a mechanism record holds it once, beside its result).

    Examples
    --------
    >>> result = Result(Mechanism([[0.5, 0.5]]), 0.5, "suboptimal", True, "no bound", measured={"dp": 0.0})
    >>> result_from_payload(result_payload(result)) == result
    True
    """
    known = ("mechanism", "success", "iterations", "unit", "solve_time", *_RESULT_OPTIONAL_NUMBERS,
             *_RESULT_STRINGS, *_RESULT_MAPPINGS, *_RESULT_DERIVED)
    _check_keys(payload, known, source)
    if "mechanism" in payload and payload["mechanism"] is not None:
        mechanism = _mechanism_from_json(payload["mechanism"], f"{source}.mechanism")
    success = _field(payload, "success", source)
    if not isinstance(success, bool):
        raise FileFormatError(f"{source}.success must be true or false, got {_short(success)}")
    iterations = _field(payload, "iterations", source)
    if iterations is not None and (not isinstance(iterations, int) or isinstance(iterations, bool)):
        raise FileFormatError(f"{source}.iterations must be an integer or null, got {_short(iterations)}")
    return Result(
        mechanism=mechanism,
        success=success,
        iterations=iterations,
        unit=_number(_field(payload, "unit", source), f"{source}.unit"),
        solve_time=_number(_field(payload, "solve_time", source), f"{source}.solve_time"),
        **{key: _number(_field(payload, key, source), f"{source}.{key}", optional=True)
           for key in _RESULT_OPTIONAL_NUMBERS},
        **{key: _string(_field(payload, key, source), f"{source}.{key}") for key in _RESULT_STRINGS},
        **{key: _numbers(_field(payload, key, source), f"{source}.{key}") for key in _RESULT_MAPPINGS},
    )


def _is_scalar_label(value: Any) -> bool:
    """A JSON scalar that can name a category: a string, a boolean, an integer, a finite float, ``None``."""
    return value is None or isinstance(value, (str, bool, int)) or isinstance(value, float) and math.isfinite(value)


def _labels(values: Any, name: str, count: int, members: set | None = None) -> tuple | None:
    """Labels as a tuple: unique JSON scalars (or, when ``members`` is given, tuples of members too),
    one per row or column."""
    if values is None:
        return None
    if isinstance(values, (str, bytes, Mapping)) or not hasattr(values, "__iter__"):
        raise MechDesignError(f"{name} must be a sequence of labels, got {_short(values)}")
    labels = []
    for index, label in enumerate(values.tolist() if isinstance(values, np.ndarray) else values):
        label = label.item() if isinstance(label, np.generic) else label
        if members is not None and isinstance(label, (list, tuple)):
            parts = tuple(part.item() if isinstance(part, np.generic) else part for part in label)
            strangers = [part for part in parts if not _is_scalar_label(part) or part not in members]
            if strangers:
                raise MechDesignError(f"{name}[{index}] = {_short(label)} holds {_short(strangers[0])}, which is "
                                      "not an input label")
            labels.append(parts)
        elif _is_scalar_label(label):
            labels.append(label)
        else:
            raise MechDesignError(f"{name}[{index}] = {_short(label)} is not a JSON scalar (a string, a number, "
                                  "a boolean or null)")
    if len(labels) != count:
        raise MechDesignError(f"{name} has {len(labels)} labels, but the mechanism has {count}")
    seen: dict[Any, int] = {}
    for index, label in enumerate(labels):
        if label in seen:  # Python equality, as a dictionary lookup sees it: 1, 1.0 and True collide
            raise MechDesignError(f"{name} repeats the label {_short(label)} (at {seen[label]} and {index}): "
                                  "labels must be unique")
        seen[label] = index
    return tuple(labels)


@dataclass(frozen=True)
class MechanismRecord:
    """A designed mechanism with what a user needs to deploy it: labels, prior, notions, certificate.

    The fields are validated (and sequences turned into tuples) on construction: labels are unique
    JSON scalars, one per row (``inputs``) and one per column (``outputs``: also tuples of input labels,
    the reports of subset selection); the prior has one entry per input.

    Attributes
    ----------
    mechanism
        A dense :class:`~mechdesign.mechanism.Mechanism`, a :class:`~mechdesign.structured.KeepOrRedraw` or a
        :class:`~mechdesign.mechanisms.oracles.FrequencyOracle`.
    inputs, outputs
        Row and column labels, or ``None`` (indices; for a frequency oracle, the labels of its reports,
        which it writes one by one).
    prior
        The prior the design used, or ``None``.
    prior_source
        Where the prior came from, e.g. ``"public"``, ``"uniform"``, ``"public-sample"``,
        ``"private-estimate"``.
    notions
        One dict per privacy notion: ``{"name", "label", "budget", "measured"}`` (``measured`` may be ``None``).
    objective
        A description of the objective, or ``None``.
    result
        The certified :class:`~mechdesign.result.Result` (its mechanism is ``mechanism``), or ``None``.
    deployment
        A free JSON object written by the deployment layer (mode, spends, ledger).

    Examples
    --------
    >>> record = MechanismRecord(Mechanism([[0.75, 0.25], [0.25, 0.75]]), inputs=["no", "yes"])
    >>> record.inputs, mechanism_from_payload(mechanism_payload(record)) == record
    (('no', 'yes'), True)
    >>> MechanismRecord(Mechanism([[1.0, 0.0], [0.0, 1.0]]), outputs=["a", "a"])
    Traceback (most recent call last):
    mechdesign.exceptions.MechDesignError: outputs repeats the label 'a' (at 0 and 1): labels must be unique
    """

    mechanism: Mechanism
    inputs: tuple | None = None
    outputs: tuple | None = None
    prior: Prior | None = None
    prior_source: str | None = None
    notions: tuple[dict, ...] = ()
    objective: str | None = None
    result: Result | None = None
    deployment: Mapping | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.mechanism, Mechanism):
            raise MechDesignError(f"mechanism must be a Mechanism, got {type(self.mechanism).__name__}")
        n_inputs, n_outputs = self.mechanism.shape
        inputs = _labels(self.inputs, "inputs", n_inputs)
        object.__setattr__(self, "inputs", inputs)
        if self.outputs is not None:
            members = set(inputs if inputs is not None else range(n_inputs))  # what a subset report may hold
            object.__setattr__(self, "outputs", _labels(self.outputs, "outputs", n_outputs, members))
        if self.prior is not None:
            prior = self.prior if isinstance(self.prior, Prior) else Prior(self.prior)
            if prior.size != n_inputs:
                raise MechDesignError(f"prior has {prior.size} entries, but the mechanism has {n_inputs} inputs")
            object.__setattr__(self, "prior", prior)
        for name in ("prior_source", "objective"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise MechDesignError(f"{name} must be a string or None, got {_short(getattr(self, name))}")
        object.__setattr__(self, "notions", tuple(_notion(notion, index) for index, notion in enumerate(self.notions)))
        if self.result is not None:
            if not isinstance(self.result, Result):
                raise MechDesignError(f"result must be a Result, got {type(self.result).__name__}")
            if self.result.mechanism is not None and not _same_mechanism(self.result.mechanism, self.mechanism):
                raise MechDesignError("result.mechanism differs from mechanism: a record holds one mechanism")
        if self.deployment is not None:
            if not isinstance(self.deployment, Mapping):
                raise MechDesignError(f"deployment must be a mapping, got {type(self.deployment).__name__}")
            canonical_json(dict(self.deployment))  # strict JSON, or a named error now rather than at save


def _notion(notion: Any, index: int) -> dict[str, Any]:
    """One notion entry, checked: exactly the keys of :data:`NOTION_FIELDS`, a name and label, numbers."""
    where = f"notions[{index}]"
    if not isinstance(notion, Mapping) or set(notion) != set(NOTION_FIELDS):
        raise MechDesignError(f"{where} must be a mapping with exactly the keys {', '.join(NOTION_FIELDS)}, "
                              f"got {_short(notion)}")
    for key in ("name", "label"):
        if not isinstance(notion[key], str):
            raise MechDesignError(f"{where}.{key} must be a string, got {_short(notion[key])}")
    for key in ("budget", "measured"):
        value = notion[key]
        if not (value is None and key == "measured") and (
                not isinstance(value, (int, float, np.floating)) or isinstance(value, bool)):
            raise MechDesignError(f"{where}.{key} must be a number, got {_short(value)}")
    return {"name": notion["name"], "label": notion["label"], "budget": _float(notion["budget"]),
            "measured": None if notion["measured"] is None else _float(notion["measured"])}


def _float(value: Any) -> float:
    """``float(value)``; an integer beyond float64's range is ``±inf`` (as in every real-number check)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _same_mechanism(first: Mechanism, second: Mechanism) -> bool:
    """Whether two mechanisms are the same (a structured one compared by its parameters, in ``O(n)``)."""
    if first is second:
        return True
    if isinstance(first, KeepOrRedraw) and isinstance(second, KeepOrRedraw):
        return bool(np.array_equal(first.redraw, second.redraw) and np.array_equal(first.row, second.row))
    return type(first) is type(second) and first == second


def _labels_json(labels: tuple | None) -> list | None:
    return None if labels is None else [list(label) if isinstance(label, tuple) else label for label in labels]


def mechanism_payload(record: MechanismRecord) -> dict[str, Any]:
    """The payload of a ``"mechanism"`` file (strict JSON; a structured mechanism by its parameters).

    Examples
    --------
    >>> payload = mechanism_payload(MechanismRecord(Mechanism([[1.0, 0.0], [0.5, 0.5]]), outputs=["a", ("a", "b")],
    ...                                             inputs=["a", "b"]))
    >>> payload["mechanism"], payload["outputs"]
    ([[1.0, 0.0], [0.5, 0.5]], ['a', ['a', 'b']])
    """
    if not isinstance(record, MechanismRecord):
        raise MechDesignError(f"record must be a MechanismRecord, got {type(record).__name__}")
    result = None
    if record.result is not None:
        result = result_payload(record.result)
        del result["mechanism"]  # held once, at the top
    return {
        "mechanism": _structured_json(record.mechanism),
        "inputs": _labels_json(record.inputs),
        "outputs": _labels_json(record.outputs),
        "prior": None if record.prior is None else record.prior.probabilities.tolist(),
        "prior_source": record.prior_source,
        "notions": [{**notion, "budget": json_number(notion["budget"]), "measured": json_number(notion["measured"])}
                    for notion in record.notions],
        "objective": record.objective,
        "result": result,
        "deployment": None if record.deployment is None else dict(record.deployment),
    }


def _labels_from_json(values: Any, where: str) -> tuple | None:
    if values is None:
        return None
    if not isinstance(values, list):
        raise FileFormatError(f"{where} must be a list of labels or null, got {_short(values)}")
    return tuple(tuple(value) if isinstance(value, list) else value for value in values)


def mechanism_from_payload(payload: Mapping[str, Any], source: str = "mechanism") -> MechanismRecord:
    """The :class:`MechanismRecord` of a ``"mechanism"`` payload (exact inverse of :func:`mechanism_payload`).

    Accepts the mechanism as a list of rows, as ``{"keep_or_redraw": {"redraw": [...], "row": [...]}}``
    (the form :meth:`Result.to_dict` writes for a structured mechanism above 100 inputs: defect M2) or as
    ``{"frequency_oracle": {"family": ..., "size": ..., "epsilon": ..., <parameter>}}`` (a structured
    frequency oracle of :mod:`mechdesign.mechanisms.oracles`, whose outputs need not be listed), and
    refuses labels that repeat (defect H1) or do not match the mechanism's shape, and a prior of the
    wrong size: a :class:`FileFormatError` naming ``source``.

    Examples
    --------
    >>> record = mechanism_from_payload({"mechanism": {"keep_or_redraw": {"redraw": [0.5, 0.5], "row": [0.5, 0.5]}}})
    >>> record.mechanism.matrix.tolist()
    [[0.75, 0.25], [0.25, 0.75]]
    >>> mechanism_from_payload({"mechanism": [[1.0, 0.0], [0.0, 1.0]], "outputs": ["a", "a"]}, "f.json")
    Traceback (most recent call last):
    mechdesign.files.FileFormatError: f.json: outputs repeats the label 'a' (at 0 and 1): labels must be unique
    """
    _check_keys(payload, ("mechanism", "inputs", "outputs", "prior", "prior_source", "notions", "objective",
                          "result", "deployment"), source)
    mechanism = _mechanism_from_json(_field(payload, "mechanism", source), f"{source}.mechanism")
    notions = payload.get("notions") or []
    if not isinstance(notions, list):
        raise FileFormatError(f"{source}.notions must be a list, got {_short(notions)}")
    decoded_notions = []
    for index, notion in enumerate(notions):
        where = f"{source}.notions[{index}]"
        _check_keys(notion, NOTION_FIELDS, where)
        decoded_notions.append({**notion, "budget": _number(notion.get("budget"), f"{where}.budget"),
                                "measured": _number(notion.get("measured"), f"{where}.measured", optional=True)})
    result = payload.get("result")
    deployment = payload.get("deployment")
    if deployment is not None and not isinstance(deployment, dict):
        raise FileFormatError(f"{source}.deployment must be a JSON object or null, got {_short(deployment)}")
    try:
        return MechanismRecord(
            mechanism=mechanism,
            inputs=_labels_from_json(payload.get("inputs"), f"{source}.inputs"),
            outputs=_labels_from_json(payload.get("outputs"), f"{source}.outputs"),
            prior=payload.get("prior"),
            prior_source=payload.get("prior_source"),
            notions=tuple(decoded_notions),
            objective=payload.get("objective"),
            result=None if result is None else result_from_payload(result, f"{source}.result", mechanism),
            deployment=deployment,
        )
    except FileFormatError:
        raise
    except MechDesignError as exc:
        raise FileFormatError(f"{source}: {exc}") from exc


def record_from_result(result: Result, *, inputs: Any = None, outputs: Any = None, prior: Any = None,
                       prior_source: str | None = None, objective: str | None = None,
                       notion_names: Mapping[str, str] | None = None) -> MechanismRecord:
    """The :class:`MechanismRecord` of a design: its mechanism, and one notion per budget of ``result``.

    Parameters
    ----------
    result
        A result holding a mechanism.
    inputs, outputs, prior, prior_source, objective
        As in :class:`MechanismRecord`.
    notion_names
        Budget label → notion name (e.g. its command-line name); the label itself by default.

    Examples
    --------
    >>> result = Result(Mechanism([[0.75, 0.25], [0.25, 0.75]]), 0.25, "optimal", True, "",
    ...                 measured={"LDP": math.log(3)}, budgets={"LDP": math.log(3)})
    >>> record = record_from_result(result, inputs=["no", "yes"], notion_names={"LDP": "dp"})
    >>> record.notions[0]["name"], record.result is result
    ('dp', True)
    """
    if not isinstance(result, Result) or result.mechanism is None:
        raise MechDesignError("result must be a Result holding a mechanism"
                              + ("" if not isinstance(result, Result) else f" (this one is {result.status!r})"))
    names = dict(notion_names or {})
    notions = tuple({"name": names.get(label, label), "label": label, "budget": budget,
                     "measured": result.measured.get(label)} for label, budget in result.budgets.items())
    return MechanismRecord(result.mechanism, inputs=inputs, outputs=outputs, prior=prior, prior_source=prior_source,
                           notions=notions, objective=objective, result=result)


# -------------------------------------------------------------------------------------------- save, load


def _curve_payload(curve: Any) -> dict[str, Any]:
    return {"x": [json_number(value) for value in curve.x.tolist()],
            "y": [json_number(value) for value in curve.y.tolist()],
            "x_name": curve.x_name, "y_name": curve.y_name, "label": curve.label,
            "results": [result_payload(result) for result in curve.results]}


def _curve_from_payload(payload: Mapping[str, Any], source: str) -> Any:
    from .curves import Curve  # the solver layer, only when a curve is loaded

    _check_keys(payload, ("x", "y", "x_name", "y_name", "label", "results"), source)
    columns = {}
    for key in ("x", "y", "results"):
        values = _field(payload, key, source)
        if not isinstance(values, list):
            raise FileFormatError(f"{source}.{key} must be a list, got {_short(values)}")
        columns[key] = values
    if not len(columns["x"]) == len(columns["y"]) == len(columns["results"]):
        raise FileFormatError(f"{source}: x, y and results have {len(columns['x'])}, {len(columns['y'])} and "
                              f"{len(columns['results'])} entries; a curve has one of each per point")
    return Curve(
        x=np.array([_number(value, f"{source}.x[{i}]") for i, value in enumerate(columns["x"])], dtype=float),
        y=np.array([_number(value, f"{source}.y[{i}]") for i, value in enumerate(columns["y"])], dtype=float),
        x_name=_string(_field(payload, "x_name", source), f"{source}.x_name"),
        y_name=_string(_field(payload, "y_name", source), f"{source}.y_name"),
        label=_string(_field(payload, "label", source), f"{source}.label"),
        results=tuple(result_from_payload(result, f"{source}.results[{i}]")
                      for i, result in enumerate(columns["results"])),
    )


def save(obj: Any, path: str | Path) -> Path:
    """Write a :class:`~mechdesign.mechanism.Mechanism` (or a structured one), a :class:`MechanismRecord`,
    a :class:`~mechdesign.result.Result` or a :class:`~mechdesign.curves.Curve` to ``path`` (atomically).

    A :class:`~mechdesign.privatizer.Privatizer` has its own ``save``.

    Examples
    --------
    >>> import tempfile
    >>> target = save(Mechanism([[0.75, 0.25], [0.25, 0.75]]), Path(tempfile.mkdtemp()) / "rr.json")
    >>> load(target)
    Mechanism([[0.75 0.25]
     [0.25 0.75]])
    """
    from .curves import Curve  # the solver layer, only to recognize a curve

    if isinstance(obj, Mechanism):
        return write_envelope(path, "mechanism", mechanism_payload(MechanismRecord(obj)))
    if isinstance(obj, MechanismRecord):
        return write_envelope(path, "mechanism", mechanism_payload(obj))
    if isinstance(obj, Result):
        return write_envelope(path, "result", result_payload(obj))
    if isinstance(obj, Curve):
        return write_envelope(path, "curve", _curve_payload(obj))
    hint = f": use its own {type(obj).__name__}.save(path)" if hasattr(obj, "save") else ""
    raise MechDesignError(f"save writes a Mechanism, MechanismRecord, Result or Curve; got {type(obj).__name__}{hint}")


def load_record(path: str | Path) -> MechanismRecord:
    """The :class:`MechanismRecord` of a ``"mechanism"`` file (whatever fields it sets).

    Examples
    --------
    >>> import tempfile
    >>> target = save(Mechanism([[1.0]]), Path(tempfile.mkdtemp()) / "m.json")
    >>> load_record(target).inputs is None
    True
    """
    return mechanism_from_payload(read_envelope(path, ["mechanism"]), str(path))


def load(path: str | Path) -> Mechanism | MechanismRecord | Result | Any:
    """Read any file :func:`save` writes, exactly as it was saved.

    A ``"mechanism"`` file loads as the bare mechanism when it holds nothing else (what
    ``save(mechanism)`` writes), else as its :class:`MechanismRecord` (:func:`load_record` always gives
    the record); a ``"result"`` file as a :class:`~mechdesign.result.Result`, a ``"curve"`` file as a
    :class:`~mechdesign.curves.Curve`. A ``"privatizer"`` file is refused with a pointer to
    ``Privatizer.load``.

    Examples
    --------
    >>> import tempfile
    >>> result = Result(Mechanism([[0.5, 0.5]]), 0.5, "suboptimal", True, "", measured={"dp": math.inf})
    >>> load(save(result, Path(tempfile.mkdtemp()) / "r.json")) == result
    True
    """
    source = Path(path)
    kind, payload = _read_envelope(source, KINDS)
    if kind == "privatizer":
        raise FileFormatError(f"{source} holds a privatizer: load it with mechdesign.Privatizer.load({str(source)!r})")
    if kind == "result":
        return result_from_payload(payload, str(source))
    if kind == "curve":
        return _curve_from_payload(payload, str(source))
    record = mechanism_from_payload(payload, str(source))
    bare = all(getattr(record, name) is None for name in ("inputs", "outputs", "prior", "prior_source", "objective",
                                                            "result", "deployment")) and not record.notions
    return record.mechanism if bare else record
