"""Designers that bypass the general LP when the problem's structure allows (closed forms)."""

from .closed_form import closed_form_curve, closed_form_design

__all__ = ["closed_form_curve", "closed_form_design"]
