"""The capability table: what each privacy notion offers beyond the protocol, in one place.

The analogue of cvxpy's canonicalizer table. A notion module defines the notion (constraints, numpy
measure, relaxation, ε scale through ``scaled_budget``/``budget_from_scaled``) **and its definitional
facts, as class attributes** of :class:`~mechdesign.privacy.base.PrivacyNotion` (so they cannot drift
from the class):

* ``cli_name`` / ``cli_parameters`` — the command-line ``--notion`` name and what its builder
  :meth:`~mechdesign.privacy.base.PrivacyNotion.from_command_line` needs (:mod:`mechdesign.cli`);
* ``designed_from_prior`` — built from a (learned) prior alone (``Privatizer``, ``mechdesign privatize``);
* ``composition`` — PUT Lemma 16, ``ε(Q^{⊗n})`` is ε or n ε
  (:func:`~mechdesign.mechanisms.global_framework.parallel_composition_factor`);
* the leakage expression — derived, never declared: the class overrides ``leakage_expression``
  (:meth:`~mechdesign.privacy.base.PrivacyNotion.has_leakage_expression`; ε*(D) is then minimized
  directly by :func:`~mechdesign.curves.privacy_distortion`, else bisected).

This module derives a :class:`Capabilities` record of any notion class from those attributes
(:func:`capabilities`), lists the notion classes the package offers (:data:`NOTION_CLASSES`, in
command-line order) and holds the **solver-side map** — which fast path of the solver layer applies to
which notion class, as import paths ``"module:attribute"`` (:data:`SOLVER_PATHS`):

* ``warm_lp`` — the warm-started HiGHS LP for expected distortion
  (:func:`~mechdesign.methods.direct.direct_program_class`, design method ``"direct-lp"``);
* ``column_generation`` — the same LP by generating outputs
  (:func:`~mechdesign.methods.direct.column_generation_class`, design method ``"column-generation"``);
* ``column_cone`` — the exact generators of its column cone
  (:func:`~mechdesign.designers.extreme_columns.extreme_columns`);
* ``hamming_closed_form`` — its closed form for Hamming cost
  (:func:`~mechdesign.methods.closed_form.hamming_problem`, design method ``"closed-form"``).
* ``hockey_stick_cuts`` — the hockey-stick (ε, δ)-DP LP by cutting planes
  (:func:`~mechdesign.methods.hockey_stick.design_hockey_stick`, design method ``"hockey-stick-cuts"``);
* ``distortion_rate`` — the Blahut–Arimoto distortion–rate solver for mutual-information privacy
  (:func:`~mechdesign.methods.blahut_arimoto.design_distortion_rate`, design method ``"blahut-arimoto"``);
* ``metric_cone`` — column generation over the d-privacy cone for metric DP
  (:func:`~mechdesign.methods.metric.design_metric`, design method ``"metric-cone"``);
* ``pair_generation`` — lazy generation of neighbour pairs for Rényi DP with many pairs
  (:func:`~mechdesign.methods.renyi_pairs.design_renyi_pairs`, design method ``"pair-generation"``).

Those paths are imported by :func:`resolve` only when a solver-layer dispatcher asks, so this module
imports nothing from the solver layer: definitions (the global framework) read it without importing
solvers, and ``import mechdesign`` stays light. ``warm_lp``, ``column_generation`` and
``hamming_closed_form`` apply to the mapped class exactly (a subclass may change the constraints;
:func:`solver_capability`); the column cone, like the class attributes, also to subclasses. Each
builder may still decline a notion whose parameters it does not cover (local DP needs every pair of
inputs neighbouring; the PML LP one prior): see the builders' own ``applies_to``.

To add a notion: set its class attributes in its module, export it (``mechdesign/privacy/__init__.py``,
``mechdesign/__init__.py``) and, if it is offered on the command line, add its class to
:data:`NOTION_CLASSES`; each fast path it has is one :data:`SOLVER_PATHS` entry (tests/test_registry.py
checks every path resolves and every command-line notion builds).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Union

from .privacy import (
    ApproximateDifferentialPrivacy,
    DifferentialPrivacy,
    MaximalInformation,
    MaximalLeakage,
    MetricDifferentialPrivacy,
    MutualInformationPrivacy,
    PointwiseMaximalLeakage,
    PrivacyNotion,
    RenyiDifferentialPrivacy,
    SibsonMutualInformation,
)

NotionOrClass = Union[PrivacyNotion, type]
SolverField = Literal["warm_lp", "column_generation", "column_cone", "hamming_closed_form", "hockey_stick_cuts",
                      "distortion_rate", "metric_cone", "pair_generation"]


@dataclass(frozen=True)
class Capabilities:
    """What one notion class offers, derived by :func:`capabilities` (module docstring: which
    dispatcher reads which field).

    Attributes
    ----------
    notion
        The notion class.
    cli_name
        Its ``--notion`` name on the command line (``None``: not offered there).
    from_prior
        Builds the notion from a prior (or a source set) alone — the notions a
        :class:`~mechdesign.privatizer.Privatizer` designs for a learned prior; ``None`` if it needs more.
    composition
        PUT Lemma 16 for the product mechanism ``Q^{⊗n}``: ``"same"`` (its loss is the local loss:
        DP, Rényi DP) or ``"additive"`` (``n`` times it); ``None``: not covered by the lemma.
    leakage_expression
        Whether :meth:`~mechdesign.privacy.base.PrivacyNotion.leakage_expression` gives a convex
        expression, so that ``ε*(D)`` is minimized directly rather than bisected.
    warm_lp
        ``"module:Class"`` of its :class:`~mechdesign.methods.direct.WarmLinearProgram` for expected distortion.
    column_generation
        ``"module:Class"`` of its :class:`~mechdesign.methods.column_generation.OutputGeneration`.
    column_cone
        ``"module:function"`` giving the extreme columns of its feasible column cone (extreme-column LP).
    hamming_closed_form
        ``"module:attribute"`` of its closed form for expected Hamming distortion (a
        :class:`~mechdesign.methods.closed_form.ClosedForm`).
    hockey_stick_cuts
        ``"module:function"`` of its cutting-plane designer for the hockey-stick (ε, δ)-DP LP.
    distortion_rate
        ``"module:function"`` of its Blahut–Arimoto distortion–rate designer.
    metric_cone
        ``"module:function"`` of its column generation over the d-privacy cone.
    pair_generation
        ``"module:function"`` of its design by lazy generation of neighbour pairs.
    """

    notion: type[PrivacyNotion]
    cli_name: str | None = None
    from_prior: Callable[[Any], PrivacyNotion] | None = None
    composition: Literal["same", "additive"] | None = None
    leakage_expression: bool = False
    warm_lp: str | None = None
    column_generation: str | None = None
    column_cone: str | None = None
    hamming_closed_form: str | None = None
    hockey_stick_cuts: str | None = None
    distortion_rate: str | None = None
    metric_cone: str | None = None
    pair_generation: str | None = None


#: The notion classes offered on the command line and to the ``Privatizer``, in command-line order (their
#: ``cli_name``; every other notion still works everywhere through :func:`~mechdesign.solve.design`).
NOTION_CLASSES: tuple[type[PrivacyNotion], ...] = (
    DifferentialPrivacy, ApproximateDifferentialPrivacy, MaximalLeakage, MutualInformationPrivacy,
    PointwiseMaximalLeakage, MaximalInformation, RenyiDifferentialPrivacy, SibsonMutualInformation,
    MetricDifferentialPrivacy,
)

_COLUMNS = "mechdesign.designers.extreme_columns"
_GENERATION = "mechdesign.methods.column_generation"

#: The solver-side map: per notion class, the import path of each fast path the solver layer has for it
#: (notions absent here are designed through cvxpy; SML and the summary-statistic notions have their
#: own designers).
SOLVER_PATHS: dict[type[PrivacyNotion], dict[SolverField, str]] = {
    DifferentialPrivacy: {
        "warm_lp": "mechdesign.methods.direct:LdpLinearProgram", "column_generation": f"{_GENERATION}:LdpColumnGeneration",
        "column_cone": f"{_COLUMNS}:local_dp_cone",
        "hamming_closed_form": "mechdesign.methods.closed_form:LOCAL_DP"},
    ApproximateDifferentialPrivacy: {
        "warm_lp": "mechdesign.methods.direct:ApproximateDpLinearProgram",
        "column_generation": f"{_GENERATION}:ApproximateDpColumnGeneration",
        "hockey_stick_cuts": "mechdesign.methods.hockey_stick:design_hockey_stick"},
    MaximalLeakage: {
        "warm_lp": "mechdesign.methods.direct:MaximalLeakageLinearProgram",
        "column_generation": f"{_GENERATION}:MaximalLeakageColumnGeneration",
        "column_cone": f"{_COLUMNS}:maximal_leakage_cone",
        "hamming_closed_form": "mechdesign.methods.closed_form:MAXIMAL_LEAKAGE"},
    PointwiseMaximalLeakage: {
        "warm_lp": "mechdesign.methods.direct:PmlLinearProgram", "column_generation": f"{_GENERATION}:PmlColumnGeneration",
        "column_cone": f"{_COLUMNS}:pml_cone"},
    MaximalInformation: {"column_cone": f"{_COLUMNS}:maximal_information_cone"},
    MutualInformationPrivacy: {"distortion_rate": "mechdesign.methods.blahut_arimoto:design_distortion_rate"},
    MetricDifferentialPrivacy: {"metric_cone": "mechdesign.methods.metric:design_metric"},
    RenyiDifferentialPrivacy: {"pair_generation": "mechdesign.methods.renyi_pairs:design_renyi_pairs"},
}


def capabilities(notion: NotionOrClass, *, exact: bool = False) -> Capabilities:
    """The capabilities of ``notion`` (an instance or a class): the definitional facts from its class
    attributes; the solver paths of its own class in :data:`SOLVER_PATHS`, or with ``exact=False`` of its
    nearest mapped base class.

    Examples
    --------
    >>> capabilities(MaximalLeakage()).composition
    'additive'
    >>> class Custom(DifferentialPrivacy):
    ...     pass
    >>> capabilities(Custom).cli_name, capabilities(Custom).warm_lp is None, capabilities(Custom, exact=True).warm_lp
    ('dp', False, None)
    """
    cls = notion if isinstance(notion, type) else type(notion)
    bases = (cls,) if exact else cls.__mro__
    paths = next((SOLVER_PATHS[base] for base in bases if base in SOLVER_PATHS), {})
    return Capabilities(cls, cls.cli_name, cls.from_prior if cls.designed_from_prior else None, cls.composition,
                        cls.has_leakage_expression(), **paths)


#: One record per class of :data:`NOTION_CLASSES`, in that order.
REGISTRY: tuple[Capabilities, ...] = tuple(capabilities(cls, exact=True) for cls in NOTION_CLASSES)


def cli_names() -> dict[str, type[PrivacyNotion]]:
    """Every command-line notion name and its class, in table order.

    Examples
    --------
    >>> list(cli_names())[:3]
    ['dp', 'approx-dp', 'maximal-leakage']
    """
    return {entry.cli_name: entry.notion for entry in REGISTRY if entry.cli_name is not None}


def prior_notions() -> dict[str, Callable[[Any], PrivacyNotion]]:
    """The notions built from a prior alone (:attr:`Capabilities.from_prior`), by command-line name.

    Examples
    --------
    >>> sorted(prior_notions())
    ['dp', 'maximal-leakage', 'mutual-information', 'pml']
    """
    return {entry.cli_name: entry.from_prior for entry in REGISTRY
            if entry.cli_name is not None and entry.from_prior is not None}


@lru_cache(maxsize=None)
def resolve(path: str) -> Any:
    """The object at ``"module:attribute"``, imported on first use.

    Examples
    --------
    >>> resolve("mechdesign.methods.direct:LdpLinearProgram").__name__
    'LdpLinearProgram'
    """
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def solver_capability(notion: PrivacyNotion, field: SolverField) -> Any:
    """The resolved solver-layer builder ``field`` registered for the notion's exact class, or ``None``.

    Examples
    --------
    >>> solver_capability(DifferentialPrivacy(), "warm_lp").__name__
    'LdpLinearProgram'
    >>> solver_capability(RenyiDifferentialPrivacy(2.0), "warm_lp") is None
    True
    """
    path = SOLVER_PATHS.get(type(notion), {}).get(field)
    return None if path is None else resolve(path)
