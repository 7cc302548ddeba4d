"""Named mechanism constructions from the literature."""

from .basic import randomized_response, uniform_mechanism

__all__ = ["randomized_response", "uniform_mechanism"]
