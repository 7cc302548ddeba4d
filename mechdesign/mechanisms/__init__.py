"""Named mechanism constructions from the literature."""

from .basic import randomized_response, uniform_mechanism

__all__ = ["randomized_response", "uniform_mechanism"]

from .pml import binary_robust_pml_mechanism, k_singular_mechanism

__all__ += ["binary_robust_pml_mechanism", "k_singular_mechanism"]
