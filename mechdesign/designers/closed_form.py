"""Deprecated since 0.2.0: moved to :mod:`mechdesign.methods.closed_form` (issue 33). Importing this path warns and gives
that module itself, for one release."""

from .._moved import alias_moved_module
from ..methods import closed_form as _moved

alias_moved_module(__name__, _moved)
